import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cubeRowOrder, decodeCubeData, parseCubeIndex, scalarType } from './metric-values';
import { metricFiles, type CubeSpec } from './test-cubex';

describe('CUBE metric values', () => {
  // Two roots: 0 → (1 → 3, 2), 4 → 5; node indexes are in pre-order, as anchor.xml nests them.
  const parent = Int32Array.from([-1, 0, 1, 0, -1, 4]);
  const spec: CubeSpec = {
    regions: [{ id: 0, name: 'r' }],
    cnodes: [
      { region: 0, children: [{ region: 0, children: [{ region: 0 }] }, { region: 0 }] },
      { region: 0, children: [{ region: 0 }] },
    ],
    processes: [{ rank: 0, threads: [0, 1, 2] }],
    metrics: [],
  };

  it('orders rows as Cube writes them: pre-order for exclusive, children-first for inclusive metrics', () => {
    assert.deepEqual([...cubeRowOrder(parent, 'exclusive')], [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...cubeRowOrder(parent, 'inclusive')], [0, 1, 3, 2, 4, 5]);
    assert.deepEqual([...cubeRowOrder(Int32Array.from([]), 'inclusive')], []);
  });

  it('decodes sparse and dense rows of every layout into location columns', () => {
    const values = { 2: [1.5, 0, -2], 5: [4, 8, 16] };
    for (const index of ['sparse', 'dense'] as const) {
      for (const compressed of [false, true]) {
        for (const bigEndian of [false, true]) {
          const files = metricFiles(spec, {
            id: 0,
            uniqName: 'time',
            type: 'INCLUSIVE',
            dtype: 'DOUBLE',
            uom: 'sec',
            values,
            index,
            compressed,
            bigEndian,
          });
          const layout = parseCubeIndex(files.index, 6);
          assert.equal(layout.littleEndian, !bigEndian);
          const rows = layout.positions ? layout.positions.length : 6;
          const data = decodeCubeData(files.data, rows, 3, scalarType('DOUBLE')!, layout.littleEndian);
          const order = cubeRowOrder(parent, 'inclusive');
          const byNode = new Map<number, number[]>();
          for (let r = 0; r < rows; r++)
            byNode.set(order[layout.positions ? layout.positions[r]! : r]!, [...data.subarray(3 * r, 3 * r + 3)]);
          const what = `${index}${compressed ? ' compressed' : ''}${bigEndian ? ' big-endian' : ''}`;
          assert.deepEqual(byNode.get(2), [1.5, 0, -2], what);
          assert.deepEqual(byNode.get(5), [4, 8, 16], what);
          if (index === 'dense') assert.deepEqual(byNode.get(3), [0, 0, 0], what);
        }
      }
    }
  });

  it('knows the scalar dtypes and leaves composite ones to the caller', () => {
    assert.equal(scalarType('unsigned  integer')?.size, 8);
    assert.equal(scalarType('MINDOUBLE')?.size, 8);
    assert.equal(scalarType('TAU_ATOMIC'), null);
    assert.equal(scalarType('NDOUBLES(4)'), null);
    const view = new DataView(new ArrayBuffer(8));
    view.setBigInt64(0, -5n, false);
    assert.equal(scalarType('INT64')!.read(view, 0, false), -5);
    view.setBigUint64(0, 2n ** 53n - 1n, true);
    assert.equal(scalarType('UINT64')!.read(view, 0, true), 2 ** 53 - 1);
  });

  it('rejects inconsistent compressed data', () => {
    const files = metricFiles(spec, {
      id: 0,
      uniqName: 'time',
      type: 'EXCLUSIVE',
      dtype: 'DOUBLE',
      uom: 'sec',
      values: { 1: [1, 2, 3] },
      compressed: true,
    });
    const type = scalarType('DOUBLE')!;
    assert.throws(() => decodeCubeData(files.data, 2, 3, type, true), /1 row headers, but the index lists 2 rows/);
    const corrupt = Buffer.from(files.data);
    corrupt[corrupt.length - 3]! ^= 0xff;
    assert.throws(() => decodeCubeData(corrupt, 1, 3, type, true), /compressed row 1 is corrupt/);
    assert.throws(
      () => decodeCubeData(files.data, 1, 4, type, true),
      /compressed row 1 claims uncompressed offset|inflates to 24 bytes, expected 32|is corrupt/,
    );
  });
});
