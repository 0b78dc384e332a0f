import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareProfile } from '../../service/shared-memory';
import { seededRandom } from '../stats/seeded-random';
import { NodeKind } from './call-tree';
import { exclusiveFromInclusive, inclusiveFromExclusive, sumOverContexts } from './derive';
import { Profile } from './profile';
import { ProfileBuilder } from './profile-builder';
import {
  denseFromSparse,
  sparseExclusiveFromInclusive,
  sparseFromDense,
  sparseFromTriples,
  sparseInclusiveFromExclusive,
  sparseRows,
  sparseRowSums,
  sparseValue,
  type SparseMatrix,
} from './sparse-matrix';
import { exclusiveTime } from './test-profiles';

/** A random tree (parents first) and a random matrix over it with about `density` of its cells non-zero. */
function randomCase(seed: number) {
  const random = seededRandom(seed);
  const nodes = 1 + Math.floor(random() * 80);
  const contexts = 1 + Math.floor(random() * 12);
  const density = random();
  const parent = new Int32Array(nodes);
  // Several roots now and then, as trees from files with many entry points have.
  for (let i = 0; i < nodes; i++) parent[i] = i === 0 || random() < 0.05 ? -1 : Math.floor(random() * i);
  const matrix = new Float64Array(nodes * contexts);
  for (let k = 0; k < matrix.length; k++)
    if (random() < density) matrix[k] = random() < 0.1 ? -random() : random() * 10 ** Math.floor(random() * 6);
  return { parent, nodes, contexts, matrix };
}

function childIndexOf(parent: Int32Array): { start: Int32Array; list: Int32Array } {
  const n = parent.length;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) start[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]!);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) list[fill[parent[i]!]!++] = i;
  return { start, list };
}

function assertWellFormed(s: SparseMatrix): void {
  for (let i = 0; i + 1 < s.offsets.length; i++)
    for (let k = s.offsets[i]! + 1; k < s.offsets[i + 1]!; k++)
      assert.ok(s.contexts[k]! > s.contexts[k - 1]!, `row ${i} ascending`);
  for (const v of s.values) assert.ok(v !== 0 && Number.isFinite(v), 'no zeros stored');
}

describe('sparse metric storage', () => {
  it('sums values added twice for one node and context, sorts rows and leaves zeros out', () => {
    // Context-major order (as HPCToolkit's profile.db holds them), with a repeat and a cancelling pair.
    const s = sparseFromTriples(
      Int32Array.from([2, 0, 2, 0, 1, 2, 1, 1]),
      Int32Array.from([1, 1, 0, 0, 2, 1, 0, 0]),
      Float64Array.from([5, 1, 3, 2, 4, 0.5, 7, -7]),
      3,
      3,
    );
    assert.deepEqual([...s.offsets], [0, 2, 3, 5]);
    assert.deepEqual([...s.contexts], [0, 1, 2, 0, 1]);
    assert.deepEqual([...s.values], [2, 1, 4, 3, 5.5]);
    assertWellFormed(s);
    // Promised zero-free input: rows in order move whole, also behind a row the sums shortened.
    const t = sparseFromTriples(
      Int32Array.from([0, 0, 0, 1, 2, 2, 3]),
      Int32Array.from([0, 1, 0, 0, 0, 2, 1]),
      Float64Array.from([1, 2, -1, 4, 5, 6, 7]),
      4,
      3,
      true,
    );
    assert.deepEqual([...t.offsets], [0, 1, 2, 4, 5]);
    assert.deepEqual([...t.contexts], [1, 0, 0, 2, 1]);
    assert.deepEqual([...t.values], [2, 4, 5, 6, 7]);
    assertWellFormed(t);
  });

  it('reads a list of rows into one buffer as the dense matrix holds them (zeros between, stale values cleared)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { nodes, contexts, matrix } = randomCase(seed);
      const sparse = sparseFromDense(matrix, contexts);
      const random = seededRandom(seed + 1000);
      const list = Int32Array.from({ length: 1 + Math.floor(random() * nodes) }, () => Math.floor(random() * nodes));
      const out = new Float64Array(list.length * contexts + 3).fill(NaN);
      sparseRows(sparse, list, out, contexts);
      list.forEach((i, j) =>
        assert.deepEqual(
          [...out.subarray(j * contexts, (j + 1) * contexts)],
          [...matrix.subarray(i * contexts, (i + 1) * contexts)],
          `seed ${seed}: row ${j} (node ${i})`,
        ),
      );
      assert.ok(Number.isNaN(out[list.length * contexts]!), 'nothing written past the rows');
    }
  });

  it('derives inclusive from exclusive and back exactly as the dense derivation did, on random trees', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { parent, contexts, matrix } = randomCase(seed);
      const children = childIndexOf(parent);
      const sparse = sparseFromDense(matrix, contexts);
      assert.deepEqual(denseFromSparse(sparse, contexts), matrix, `seed ${seed}: round trip`);

      const inclusive = sparseInclusiveFromExclusive(children, sparse, contexts);
      assertWellFormed(inclusive);
      assert.deepEqual(
        denseFromSparse(inclusive, contexts),
        inclusiveFromExclusive(parent, matrix, contexts),
        `seed ${seed}: inclusive`,
      );
      const exclusive = sparseExclusiveFromInclusive(children, sparse, contexts);
      assertWellFormed(exclusive);
      assert.deepEqual(
        denseFromSparse(exclusive, contexts),
        exclusiveFromInclusive(parent, matrix, contexts),
        `seed ${seed}: exclusive`,
      );
      assert.deepEqual(sparseRowSums(sparse), sumOverContexts(matrix, contexts), `seed ${seed}: totals`);
    }
  });

  it('a profile answers totals, rows and values from the sparse form without making a dense matrix', () => {
    const { parent, nodes, contexts, matrix } = randomCase(7);
    const b = new ProfileBuilder('test', 'random');
    for (let i = 0; i < nodes; i++) b.tree.add(parent[i]!, `f${i}`, NodeKind.Function);
    const ctx = Array.from({ length: contexts }, (_, c) => b.context({ rank: c }));
    const m = b.addMetric(exclusiveTime());
    // Every value in two halves, context by context: duplicates are summed.
    for (let c = contexts - 1; c >= 0; c--)
      for (let i = 0; i < nodes; i++) {
        const v = matrix[i * contexts + c]!;
        b.addExclusive(m, i, ctx[c]!, v / 2);
        b.addExclusive(m, i, ctx[c]!, v - v / 2);
      }
    const p = b.build(m);
    const dense = profileOverDense(p, matrix);
    assert.deepEqual(p.exclusiveTotals(m), dense.exclusiveTotals(0));
    assert.deepEqual(p.inclusiveTotals(m), dense.inclusiveTotals(0));
    assert.equal(p.total(m), dense.total(0));
    const row = new Float64Array(contexts);
    const expected = new Float64Array(contexts);
    for (let i = 0; i < nodes; i++) {
      p.contextRow('inclusive', m, i, row);
      dense.contextRow('inclusive', 0, i, expected);
      assert.deepEqual(row, expected, `node ${i}`);
      for (let c = 0; c < contexts; c++)
        assert.equal(sparseValue(p.sparse('exclusive', m), i, c), matrix[i * contexts + c]);
    }
    // Many rows at once, from the sparse form and from a dense matrix, as row by row.
    const list = Int32Array.from({ length: nodes }, (_, j) => (j * 7) % nodes);
    for (const side of ['inclusive', 'exclusive'] as const) {
      const rows = new Float64Array(list.length * contexts),
        denseRows = new Float64Array(list.length * contexts);
      p.contextRows(side, m, list, rows);
      dense.contextRows(side, 0, list, denseRows);
      assert.deepEqual(rows, denseRows, side);
      list.forEach((i, j) => {
        dense.contextRow(side, 0, i, expected);
        assert.deepEqual(rows.subarray(j * contexts, (j + 1) * contexts), expected, `${side} row ${j}`);
      });
    }
    assert.deepEqual(p.inclusive(m), dense.inclusive(0));
    assert.deepEqual(p.exclusive(m), matrix);
    assert.equal(p.value(p.exclusive(m), 3, 0), matrix[3 * contexts]);
  });

  it('crosses threads in shared memory in the sparse form, both sides filled in', () => {
    const { parent, nodes, contexts, matrix } = randomCase(11);
    const b = new ProfileBuilder('test', 'random');
    for (let i = 0; i < nodes; i++) b.tree.add(parent[i]!, `f${i}`, NodeKind.Function);
    for (let c = 0; c < contexts; c++) b.context({ rank: c });
    const m = b.addMetric({
      name: 'time',
      label: 'time',
      sourceKeys: [],
      unit: 's',
      kind: 'inclusive',
      aggregation: 'sum',
    });
    for (let i = 0; i < nodes; i++)
      for (let c = 0; c < contexts; c++) b.addInclusive(m, i, c, matrix[i * contexts + c]!);
    const read = b.build(m);
    const { data } = shareProfile(read);
    for (const side of ['exclusive', 'inclusive'] as const) {
      const s = data[side][m] as SparseMatrix;
      for (const a of [s.offsets, s.contexts, s.values]) assert.ok(a.buffer instanceof SharedArrayBuffer, side);
    }
    const copy = new Profile(data);
    assert.deepEqual(copy.exclusive(m), read.exclusive(m));
    assert.deepEqual(copy.inclusiveTotals(m), read.inclusiveTotals(m));
    const { data: moved, transfer } = copy.toTransferable();
    const cloned = new Profile(structuredClone(moved, { transfer }));
    assert.deepEqual(cloned.exclusiveTotals(m), read.exclusiveTotals(m));
  });

  it('handles a tree without values and a profile without nodes', () => {
    const b = new ProfileBuilder('test', 'empty');
    b.tree.add(-1, 'main', NodeKind.Function);
    const m = b.addMetric(exclusiveTime());
    const p = b.build(m);
    assert.equal(p.contextCount, 1, 'a context is made when the file names none');
    assert.deepEqual([...p.inclusiveTotals(m)], [0]);
    assert.equal(p.sparse('inclusive', m).values.length, 0);
    assert.deepEqual([...p.inclusive(m)], [0]);

    const none = sparseFromTriples(new Int32Array(0), new Int32Array(0), new Float64Array(0), 0, 0);
    assert.deepEqual([...none.offsets], [0]);
    assert.equal(sparseInclusiveFromExclusive(childIndexOf(new Int32Array(0)), none, 0).offsets.length, 1);
    assert.deepEqual(denseFromSparse(none, 0), new Float64Array(0));
    assert.deepEqual(sparseRowSums(none), new Float64Array(0));
    const empty = new Profile({ ...p.data, tree: emptyColumns(), exclusive: [none], inclusive: [null] });
    assert.deepEqual(empty.inclusiveTotals(0), new Float64Array(0));
    assert.equal(empty.total(0), 0);
  });

  it('rejects a sparse form whose shape does not fit the tree', () => {
    const { parent, nodes, contexts, matrix } = randomCase(3);
    const b = new ProfileBuilder('test', 'random');
    for (let i = 0; i < nodes; i++) b.tree.add(parent[i]!, `f${i}`, NodeKind.Function);
    for (let c = 0; c < contexts; c++) b.context({ rank: c });
    const m = b.addMetric(exclusiveTime());
    const p = b.build(m);
    const wrong = sparseFromDense(matrix.subarray(contexts), contexts);
    assert.throws(() => new Profile({ ...p.data, exclusive: [wrong] }), /offsets for \d+ nodes/);
  });
});

/** The same profile built over a dense matrix (the pre-sparse model), for comparison. */
function profileOverDense(p: Profile, exclusive: Float64Array): Profile {
  return new Profile({ ...p.data, exclusive: [exclusive], inclusive: [null], primaryMetric: 0 });
}

function emptyColumns() {
  return {
    parent: new Int32Array(0),
    name: new Int32Array(0),
    file: new Int32Array(0),
    line: new Int32Array(0),
    module: new Int32Array(0),
    kind: new Uint8Array(0),
    callLine: new Int32Array(0),
  };
}
