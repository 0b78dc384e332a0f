import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { checkAgainstOracle, closeTo, oracleCases, oraclePath } from '../../../test/support/hatchet-oracle';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { cubeReader } from './cube';
import {
  anchorXml,
  cube3Document,
  cubexArchive,
  cubexFiles,
  tarArchive,
  type CubeSpec,
  type CnodeSpec,
  type MetricSpec,
} from './cube/test-cubex';
import { sampleFile } from './file-sample';
import { chooseFormat, readProfile } from './index';
import { ProfileReadError } from './reader';

/**
 * Hatchet's `from_scorep` columns, computed from our model so that the oracle checks our values
 * rather than a copy of Hatchet's conventions. Where the two differ (oracle README caveat 24 and
 * Hatchet 1.4.0's scorep_reader.py):
 * 1. Hatchet keys nodes by name path and sums cnodes that call the same name under one parent. In
 *    cpi, `iteration` calls the instrumented `MPI_Bcast` region and a sampled frame of Score-P's
 *    `MPI_Bcast` wrapper (SCOREP_Mpi_Coll.c:719): two cnodes for Cube and for us, one for Hatchet.
 * 2. At a root Hatchet replaces the recorded inclusive time by the sum of its children's (its code
 *    assumes Score-P roots have no time of their own; cpi's root `cpi` has 0.000127 s). We keep the
 *    recorded value, so our root has that self time.
 * 3. Hatchet's `time` is `time (inc)` minus its children's `time (inc)` on that merged tree, so 0
 *    at the root; ours is the same subtraction on the true tree.
 * 4. `min_time` / `max_time` (MINDOUBLE / MAXDOUBLE: shortest / longest single visit) are summed
 *    over ranks as if they were exclusive (caveat 24). Ours keep `aggregation: 'min' | 'max'`; the
 *    oracle's sums are the sums of our recorded per-rank values.
 * 5. Hatchet's `file` is the region's `mod` attribute; we keep `MPI` and the like as the module.
 */
function hatchetView(p: Profile): Profile {
  const C = p.contextCount;
  const tree = p.tree;
  const b = new ProfileBuilder('hatchet-view', p.path);
  for (const c of p.contexts) b.context(c);
  const merged = new Int32Array(tree.size);
  const byKey = new Map<string, number>();
  for (let i = 0; i < tree.size; i++) {
    const parent = tree.parent(i) < 0 ? -1 : merged[tree.parent(i)]!;
    const key = `${parent}/${tree.name(i)}`;
    let m = byKey.get(key);
    if (m === undefined) {
      m = b.tree.add(parent, tree.name(i), NodeKind.Function, {
        file: tree.file(i),
        line: tree.line(i),
        module: tree.module(i),
      });
      byKey.set(key, m);
    }
    merged[i] = m;
  }
  const n = b.tree.size;
  const sumInto = (matrix: Float64Array) => {
    const out = new Float64Array(n * C);
    for (let i = 0; i < tree.size; i++) for (let c = 0; c < C; c++) out[merged[i]! * C + c]! += matrix[i * C + c]!;
    return out;
  };
  const columns = new Map<string, Float64Array>();
  for (const name of ['visits', 'hits', 'bytes_sent', 'bytes_received', 'min_time', 'max_time'])
    columns.set(name, sumInto(p.exclusive(p.metricIndex(name))));
  const inc = sumInto(p.inclusive(p.metricIndex('time')));
  const parentOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < tree.size; i++) if (tree.parent(i) >= 0) parentOf[merged[i]!] = merged[tree.parent(i)]!;
  const childSum = new Float64Array(n * C);
  for (let v = 0; v < n; v++)
    if (parentOf[v]! >= 0) for (let c = 0; c < C; c++) childSum[parentOf[v]! * C + c]! += inc[v * C + c]!;
  for (let v = 0; v < n; v++) if (parentOf[v]! < 0) for (let c = 0; c < C; c++) inc[v * C + c] = childSum[v * C + c]!;
  const exc = new Float64Array(n * C);
  for (let k = 0; k < n * C; k++) exc[k] = inc[k]! - childSum[k]!;
  columns.set('time (inc)', inc);
  columns.set('time', exc);
  for (const [name, values] of columns) {
    const m = b.addMetric({ name, label: name, sourceKeys: [name], unit: '', kind: 'exclusive', aggregation: 'sum' });
    for (let v = 0; v < n; v++) for (let c = 0; c < C; c++) b.addExclusive(m, v, c, values[v * C + c]!);
  }
  return b.build(0);
}

describe('CUBE reader against Hatchet', { skip: skipUnlessShared('oracle', 'scorep-cube') }, () => {
  for (const { name, oracle, dataPath } of oracleCases('scorep-cube')) {
    it(name, async () => {
      const profile = await cubeReader.read(dataPath);
      const view = hatchetView(profile);
      checkAgainstOracle(view, oracle, {
        values: (p, column) => {
          const m = p.metricIndex(column);
          return m < 0 ? null : p.exclusiveTotals(m);
        },
        acrossRows: [
          ['time', 'time', 'exclusive'],
          ['time (inc)', 'time (inc)', 'exclusive'],
        ],
      });
      // Frames: Hatchet's file is the region's mod (ours: file or module), its line the region's begin (-1: none).
      const byPath = new Map<string, number>();
      for (let i = 0; i < view.tree.size; i++) byPath.set(JSON.stringify(view.tree.path(i)), i);
      for (const node of oracle.nodes) {
        const i = byPath.get(JSON.stringify(oraclePath(oracle, node)))!;
        assert.equal(view.tree.file(i) ?? view.tree.module(i) ?? '', node.file, `file of ${node.name}`);
        assert.equal(view.tree.line(i) ?? -1, node.line, `line of ${node.name}`);
      }
    });
  }

  it('keeps the model consistent where Hatchet differs', async () => {
    const p = await cubeReader.read(sharedPath('data', 'scorep-cube', 'cpi', 'profile.cubex'));
    assert.equal(p.tree.size, 11, 'the instrumented and the sampled MPI_Bcast stay two nodes');
    const t = p.metricIndex('time');
    const excl = p.exclusiveTotals(t);
    closeTo(
      excl.reduce((s, v) => s + v, 0),
      p.total(t),
      'Σ exclusive time = root inclusive time',
    );
    assert.ok(
      excl.every(v => v >= -1e-12),
      'no negative self time',
    );
    assert.deepEqual(
      p.metrics.filter(m => m.name.endsWith('_time')).map(m => [m.name, m.aggregation]),
      [
        ['min_time', 'min'],
        ['max_time', 'max'],
      ],
    );
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0', 'rank 1', 'rank 2', 'rank 3'],
    );
    assert.equal(p.metrics[p.primaryMetric]!.name, 'time');
    assert.equal(p.metadata['Creator'], 'Score-P 7.1');
  });

  it('reads every shared CUBE dataset through readProfile', async () => {
    for (const rel of sharedFiles(join('data', 'scorep-cube'), '.cubex')) {
      const p = await readProfile(sharedPath('data', 'scorep-cube', rel));
      assert.equal(p.format, 'scorep-cube', rel);
      assert.ok(p.total(p.primaryMetric) > 0, rel);
    }
  });
});

/**
 * A small Score-P-like profile: recursion (fib → fib → fib), non-ASCII names, an MPI call, an
 * OpenMP construct with a loop, a parameter node, two processes × two threads where the second
 * thread of rank 1 has no values, a derived metric and a metric without data files.
 */
const E: Record<number, number[]> = {
  // exclusive time per cnode and location
  0: [0.5, 0, 0.25, 0],
  1: [1, 0.5, 2, 0],
  2: [3, 0, 1, 0],
  3: [2, 0, 0.5, 0],
  4: [1, 0, 0.25, 0],
  5: [0.125, 0, 4, 0],
  6: [7, 1, 0, 0],
  7: [0.5, 0.5, 0.5, 0],
  8: [2, 2, 2, 0],
  9: [0.75, 0, 0, 0],
};
const tree: CnodeSpec[] = [
  {
    region: 0,
    children: [
      {
        region: 1,
        line: 3,
        children: [
          { region: 2, line: 12, children: [{ region: 2, line: 5, children: [{ region: 2, line: 5 }] }] },
          { region: 3, line: 14 },
          { region: 4, line: 15 },
          { region: 5, children: [{ region: 6 }] },
          { region: 2, line: 20, params: [['n', '10']] },
        ],
      },
    ],
  },
];

/** Inclusive values of a cnode-id table over the fixture tree (ids are pre-order positions). */
function inclusive(table: Record<number, number[]>): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  let next = 0;
  const visit = (node: CnodeSpec): number[] => {
    const id = next++;
    const sum = [...(table[id] ?? [0, 0, 0, 0])];
    for (const c of node.children ?? [])
      visit(c).forEach((v, k) => {
        sum[k]! += v;
      });
    out[id] = sum;
    return sum;
  };
  tree.forEach(visit);
  return out;
}

/** The fixture with a storage layout for every metric, and a data type for the integer metrics. */
function fixture(
  layout: Pick<MetricSpec, 'index' | 'compressed' | 'bigEndian'> = {},
  integerType = 'UINT64',
): CubeSpec {
  const stored = (m: MetricSpec): MetricSpec => ({
    ...m,
    ...layout,
    dtype: m.dtype === 'UINT64' ? integerType : m.dtype,
  });
  return {
    attrs: { Creator: 'Score-P test', 'Cube Version': '4.8' },
    regions: [
      { id: 0, name: 'app', paradigm: 'measurement', role: 'artificial' },
      { id: 1, name: 'main', mod: '/src/app.c', begin: 10, end: 40, paradigm: 'compiler' },
      { id: 2, name: 'fib', mod: '/src/fib.c', begin: 3, end: 9, paradigm: 'compiler' },
      { id: 3, name: 'MPI_Send', mod: 'MPI', paradigm: 'mpi', role: 'point2point' },
      { id: 4, name: 'größe_berechnen ✓ 計算', mod: '/src/ü.c', begin: 7, paradigm: 'compiler' },
      {
        id: 5,
        name: '!$omp parallel @solver.f90:12',
        mod: '/src/solver.f90',
        begin: 12,
        paradigm: 'openmp',
        role: 'parallel',
      },
      { id: 6, name: '!$omp do @solver.f90:14', mod: '/src/solver.f90', begin: 14, paradigm: 'openmp', role: 'loop' },
    ],
    cnodes: tree,
    processes: [
      { rank: 0, threads: [0, 1] },
      { rank: 1, threads: [0, 1] },
    ],
    metrics: [
      stored({
        id: 0,
        uniqName: 'visits',
        dispName: 'Visits',
        type: 'EXCLUSIVE',
        dtype: 'UINT64',
        uom: 'occ',
        values: {
          0: [1, 0, 1, 0],
          1: [1, 1, 1, 0],
          2: [1, 0, 1, 0],
          3: [2, 0, 2, 0],
          4: [4, 0, 4, 0],
          5: [3, 0, 3, 0],
          9: [1, 0, 0, 0],
        },
      }),
      stored({
        id: 1,
        uniqName: 'time',
        dispName: 'Time',
        type: 'INCLUSIVE',
        dtype: 'DOUBLE',
        uom: 'sec',
        values: inclusive(E),
      }),
      stored({
        id: 2,
        uniqName: 'min_time',
        type: 'EXCLUSIVE',
        dtype: 'MINDOUBLE',
        uom: 'sec',
        values: { 1: [9, 4, 9, 0], 5: [0.125, 0, 1, 0] },
      }),
      stored({
        id: 3,
        uniqName: 'max_time',
        type: 'EXCLUSIVE',
        dtype: 'MAXDOUBLE',
        uom: 'sec',
        values: { 1: [9, 4, 9, 0], 5: [0.125, 0, 3, 0] },
      }),
      stored({
        id: 4,
        uniqName: 'bytes_sent',
        type: 'EXCLUSIVE',
        dtype: 'UINT64',
        uom: 'bytes',
        values: { 5: [4096, 0, 2 ** 40, 0] },
      }),
      { id: 5, uniqName: 'comp', type: 'POSTDERIVED', dtype: 'DOUBLE', uom: 'sec' },
      { id: 6, uniqName: 'bytes_put', type: 'EXCLUSIVE', dtype: 'UINT64', uom: 'bytes' },
    ],
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-cube-'));
const write = (name: string, data: Uint8Array | string) => {
  const p = join(tmp, name);
  writeFileSync(p, data);
  return p;
};
const column = (p: Profile, matrix: Float64Array, node: number) =>
  Array.from(matrix.subarray(node * p.contextCount, (node + 1) * p.contextCount));
const byId = (table: Record<number, number[]>, id: number) => table[id] ?? [0, 0, 0, 0];

function assertFixture(p: Profile): void {
  assert.equal(p.format, 'scorep-cube');
  assert.equal(p.tree.size, 10);
  assert.deepEqual(p.tree.path(4), ['app', 'main', 'fib', 'fib', 'fib'], 'recursion stays a chain of nodes');
  assert.equal(p.tree.name(6), 'größe_berechnen ✓ 計算');
  assert.equal(p.tree.file(6), '/src/ü.c');
  assert.equal(p.tree.name(9), 'fib [n=10]', 'parameter-based profiling nodes are named by their parameters');
  assert.deepEqual(
    [p.tree.file(2), p.tree.line(2), p.tree.callLine(2), p.tree.module(5), p.tree.file(5)],
    ['/src/fib.c', 3, 12, 'MPI', null],
  );
  assert.deepEqual(
    [1, 5, 7, 8].map(i => p.tree.kind(i)),
    [NodeKind.Function, NodeKind.Function, NodeKind.Region, NodeKind.Loop],
  );
  assert.deepEqual(
    p.contexts.map(c => c.label),
    ['rank 0 · thread 0', 'rank 0 · thread 1', 'rank 1 · thread 0', 'rank 1 · thread 1'],
  );
  assert.deepEqual(
    p.metrics.map(m => [m.name, m.kind, m.aggregation, m.unit]),
    [
      ['visits', 'exclusive', 'sum', 'count'],
      ['time', 'inclusive', 'sum', 's'],
      ['min_time', 'both', 'min', 's'],
      ['max_time', 'both', 'max', 's'],
      ['bytes_sent', 'exclusive', 'sum', 'bytes'],
    ],
  );
  assert.equal(p.metrics[p.primaryMetric]!.name, 'time');
  const time = p.metricIndex('time');
  const incl = inclusive(E);
  for (let i = 0; i < 10; i++) {
    column(p, p.exclusive(time), i).forEach((v, c) =>
      closeTo(v, byId(E, i)[c]!, `exclusive time of ${i} in context ${c}`, 1e-12),
    );
    column(p, p.inclusive(time), i).forEach((v, c) =>
      closeTo(v, byId(incl, i)[c]!, `inclusive time of ${i} in context ${c}`, 1e-12),
    );
  }
  assert.deepEqual(column(p, p.exclusive(p.metricIndex('visits')), 4), [4, 0, 4, 0]);
  assert.deepEqual(column(p, p.exclusive(p.metricIndex('bytes_sent')), 5), [4096, 0, 2 ** 40, 0]);
  const min = p.metricIndex('min_time');
  assert.deepEqual(
    column(p, p.exclusive(min), 5),
    column(p, p.inclusive(min), 5),
    'a per-visit statistic is the same on both sides',
  );
  assert.deepEqual(column(p, p.inclusive(min), 5), [0.125, 0, 1, 0]);
  for (const m of p.metrics.keys())
    assert.ok(column(p, p.inclusive(m), 0).length === 4 && p.inclusiveTotals(m).every(Number.isFinite));
  assert.equal(p.inclusive(time)[3], 0, 'the thread without values is a context of zeros');
  assert.equal(p.metadata['Creator'], 'Score-P test');
  assert.ok(
    p.warnings.some(w => /derived .*comp/.test(w)),
    p.warnings.join('; '),
  );
}

describe('CUBE reader', () => {
  it('reads a .cubex archive: tree, contexts, inclusive and exclusive metrics, statistics', async () => {
    const path = write('fixture.cubex', cubexArchive(fixture()));
    const sample = await sampleFile(path);
    assert.equal(cubeReader.sniff(sample), 0.95);
    assert.equal(chooseFormat(sample)?.id, cubeReader.id);
    assertFixture(await readProfile(path));
  });

  it('reads dense indexes, compressed rows, big-endian files and integer types the same way', async () => {
    const layouts: [string, Parameters<typeof fixture>[0]][] = [
      ['dense', { index: 'dense' }],
      ['compressed', { compressed: true }],
      ['big-endian', { bigEndian: true }],
      ['dense-compressed-be', { index: 'dense', compressed: true, bigEndian: true }],
    ];
    for (const [name, layout] of layouts)
      assertFixture(await cubeReader.read(write(`${name}.cubex`, cubexArchive(fixture(layout)))));
    assertFixture(await cubeReader.read(write('int64.cubex', cubexArchive(fixture({}, 'INT64')))));
    // Narrow integer types, for the visits metric whose values fit.
    for (const dtype of ['UINT32', 'INT32', 'INT16', 'UINT8']) {
      const spec = fixture();
      spec.metrics[0] = { ...spec.metrics[0]!, dtype };
      const p = await cubeReader.read(write(`${dtype}.cubex`, cubexArchive(spec)));
      assert.deepEqual(column(p, p.exclusive(0), 4), [4, 0, 4, 0], dtype);
    }
  });

  it('reads gzip-compressed archives, gzip-compressed entries, long names and archives with the Cube 4.8 checksum bug', async () => {
    const archive = cubexArchive(fixture());
    const gz = write('fixture.cubex.gz', gzipSync(archive));
    assert.equal(cubeReader.sniff(await sampleFile(gz)), 0.95);
    assertFixture(await readProfile(gz));

    const files = cubexFiles(fixture()).map(f =>
      f.name === 'anchor.xml'
        ? { ...f, data: gzipSync(f.data) }
        : f.name === '1.data'
          ? { name: '1.data.gz', data: gzipSync(f.data) }
          : f,
    );
    assertFixture(await cubeReader.read(write('gz-entries.cubex', tarArchive(files))));

    const long = [
      ...cubexFiles(fixture()),
      { name: `${'very-long-directory-name/'.repeat(6)}notes.txt`, data: Buffer.from('x') },
    ];
    for (const longNames of ['gnu', 'pax'] as const)
      assertFixture(await cubeReader.read(write(`long-${longNames}.cubex`, tarArchive(long, { longNames }))));

    const buggy = await cubeReader.read(write('cube48.cubex', cubexArchive(fixture(), { checksum: c => c + 17 })));
    assertFixture(buggy);
    assert.ok(buggy.warnings.some(w => /Cube 4\.8/.test(w)));
  });

  it('reads an empty profile: metrics whose index lists no rows', async () => {
    const spec = fixture();
    spec.metrics = spec.metrics.map(m => (m.values ? { ...m, values: {} } : m));
    const p = await cubeReader.read(write('empty.cubex', cubexArchive(spec)));
    assert.equal(p.tree.size, 10);
    assert.equal(p.total(p.primaryMetric), 0);
  });

  it('reads a CUBE3 document with inline values', async () => {
    const spec: CubeSpec = {
      version: '3.0',
      regions: fixture().regions,
      cnodes: tree,
      processes: [
        { rank: 0, threads: [0, 1] },
        { rank: 1, threads: [0, 1] },
      ],
      metrics: [
        { id: 0, uniqName: 'time', dispName: 'Time', dtype: 'FLOAT', uom: 'sec', values: E },
        { id: 1, uniqName: 'visits', dtype: 'INTEGER', uom: 'occ', values: { 4: [4, 0, 4, 0] } },
      ],
    };
    const path = write('fixture.cube', cube3Document(spec));
    assert.equal(cubeReader.sniff(await sampleFile(path)), 0.95);
    assert.equal(chooseFormat(await sampleFile(path))?.id, cubeReader.id);
    const p = await readProfile(path);
    assert.equal(p.metadata['cube.version'], '3.0');
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.kind]),
      [
        ['time', 'exclusive'],
        ['visits', 'exclusive'],
      ],
    );
    const incl = inclusive(E);
    for (let i = 0; i < 10; i++)
      column(p, p.inclusive(0), i).forEach((v, c) => closeTo(v, byId(incl, i)[c]!, `inclusive time of ${i}`, 1e-12));
    assert.equal(p.tree.name(6), 'größe_berechnen ✓ 計算');
    const gz = write('fixture.cube.gz', gzipSync(cube3Document(spec)));
    assert.equal(cubeReader.sniff(await sampleFile(gz)), 0.95);
    assert.deepEqual(Array.from((await readProfile(gz)).inclusiveTotals(0)), Array.from(p.inclusiveTotals(0)));
  });

  it('tolerates metrics of composite data types and locations that share a rank and thread, with warnings', async () => {
    const spec = fixture();
    spec.metrics.push({ id: 7, uniqName: 'io_stats', type: 'EXCLUSIVE', dtype: 'TAU_ATOMIC', uom: 'bytes' });
    spec.processes[1] = { rank: 1, threads: [0, 0] };
    const files = cubexFiles(spec);
    files.push(
      { name: '7.index', data: files.find(f => f.name === '0.index')!.data },
      { name: '7.data', data: files.find(f => f.name === '0.data')!.data },
    );
    const p = await cubeReader.read(write('tolerated.cubex', tarArchive(files)));
    assert.equal(p.metricIndex('io_stats'), -1);
    assert.equal(p.contextCount, 3);
    assert.ok(
      p.warnings.some(w => /io_stats" has data type TAU_ATOMIC/.test(w)),
      p.warnings.join('; '),
    );
    assert.ok(
      p.warnings.some(w => /"thread 0" and "thread 0" have the same rank and thread; their values were added/.test(w)),
      p.warnings.join('; '),
    );
  });

  it('explains that a lone CUBE4 anchor.xml holds no values', async () => {
    const path = write('anchor.xml', anchorXml(fixture()));
    assert.equal(cubeReader.sniff(await sampleFile(path)), 0.5);
    await assert.rejects(readProfile(path), /anchor\.xml of a CUBE 4\.4 archive on its own.*open that instead/);
  });

  it('leaves other tar archives and documents alone', async () => {
    const other = await sampleFile(write('other.tar', tarArchive([{ name: 'hello.txt', data: Buffer.from('hello') }])));
    assert.equal(cubeReader.sniff(other), 0);
    assert.equal(cubeReader.sniff(await sampleFile(write('x.json', '{"a": 1}'))), 0);
    assert.equal(cubeReader.sniff(await sampleFile(write('x.xml', '<?xml version="1.0"?><HPCToolkitExperiment/>'))), 0);
  });

  it('reports progress in [0, 1] and can be cancelled', async () => {
    const path = write('progress.cubex', cubexArchive(fixture()));
    const seen: number[] = [];
    await cubeReader.read(path, { onProgress: f => seen.push(f) });
    assert.ok(seen.length > 3 && seen.every(f => f >= 0 && f <= 1), seen.join(' '));
    assert.equal(seen[seen.length - 1], 1);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(cubeReader.read(path, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
    const late = new AbortController();
    await assert.rejects(
      cubeReader.read(path, {
        signal: late.signal,
        onProgress: f => {
          if (f > 0.5) late.abort();
        },
      }),
      (e: Error) => e.name === 'AbortError',
    );
    const fromTimer = new AbortController();
    const reading = cubeReader.read(path, { signal: fromTimer.signal });
    setImmediate(() => fromTimer.abort());
    await assert.rejects(reading, (e: Error) => e.name === 'AbortError');
  });

  it('names the file and the reason for broken archives', async () => {
    const spec = fixture();
    const files = cubexFiles(spec);
    const without = (name: string) => tarArchive(files.filter(f => f.name !== name));
    const replace = (name: string, f: (d: Buffer) => Buffer) =>
      tarArchive(files.map(x => (x.name === name ? { ...x, data: f(Buffer.from(x.data)) } : x)));
    const good = cubexArchive(spec);
    const flipped = Buffer.from(good);
    flipped[3]! ^= 0x20; // a byte of the first entry's name
    const cases: [string, Buffer, RegExp][] = [
      ['truncated-header', good.subarray(0, 1100), /truncated: the header of entry 2 at byte 1024 is cut off/],
      [
        'truncated-data',
        good.subarray(0, 600),
        /truncated: entry 1 \("0\.data"\) at byte 0 holds 234 bytes but only 88 follow/,
      ],
      [
        'no-end-marker',
        cubexArchive(spec, { noEndMarker: true }),
        /ends after 11 entries without the end-of-archive marker/,
      ],
      ['bad-checksum', flipped, /entry 1 .* has a bad checksum .*while later headers are correct/],
      [
        'no-anchor',
        without('anchor.xml'),
        /has no anchor\.xml \(it holds 0\.data, 0\.index, 1\.data, .*, …\): not a CUBE4 profile/,
      ],
      ['no-data', without('1.data'), /1\.index \(metric "time"\) is in the archive but 1\.data is missing/],
      ['no-index', without('0.index'), /0\.data \(metric "visits"\) is in the archive but 0\.index is missing/],
      [
        'index-magic',
        replace('1.index', d => Buffer.concat([Buffer.from('CUBEX.INDEZ'), d.subarray(11)])),
        /1\.index \(metric "time"\): wrong magic/,
      ],
      [
        'data-magic',
        replace('1.data', d => Buffer.concat([Buffer.from('CUBEX.DAT@'), d.subarray(10)])),
        /1\.data \(metric "time"\): wrong magic/,
      ],
      [
        'endianness',
        replace('1.index', d => {
          d.writeUInt32LE(7, 11);
          return d;
        }),
        /bad endianness marker 0x7/,
      ],
      [
        'index-version',
        replace('1.index', d => {
          d.writeUInt16LE(2, 15);
          return d;
        }),
        /unsupported index version 2/,
      ],
      [
        'index-format',
        replace('1.index', d => {
          d[17] = 2;
          return d;
        }),
        /unsupported index format 2/,
      ],
      [
        'index-range',
        replace('1.index', d => {
          d.writeUInt32LE(99, 22);
          return d;
        }),
        /names call-tree position 99, but the call tree has 10 nodes/,
      ],
      [
        'short-data',
        replace('1.data', d => d.subarray(0, d.length - 8)),
        /1\.data \(metric "time"\): holds \d+ bytes of values, but 10 rows × 4 locations × 8 bytes \(DOUBLE\) need 320/,
      ],
      ['bad-xml', replace('anchor.xml', d => d.subarray(0, 2000)), /anchor\.xml is not well-formed XML \(.*\d+:\d+/],
      [
        'no-region',
        replace('anchor.xml', d => Buffer.from(d.toString().replace('calleeId="6"', 'calleeId="66"'))),
        /cnode 8 calls region 66, which is not defined/,
      ],
      [
        'bad-attribute',
        replace('anchor.xml', d => Buffer.from(d.toString().replace('<cnode id="3"', '<cnode id="three"'))),
        /anchor\.xml line \d+: attribute id of <cnode> is not an integer: "three"/,
      ],
      [
        'no-locations',
        replace('anchor.xml', d => Buffer.from(d.toString().replace(/<locationgroup[\s\S]*<\/locationgroup>/, ''))),
        /no locations/,
      ],
      ['not-tar', Buffer.from('garbage that is no tar archive at all'.repeat(30)), /not a tar header|bad checksum/],
    ];
    for (const [name, bytes, reason] of cases) {
      const path = write(`${name}.cubex`, bytes);
      await assert.rejects(
        cubeReader.read(path),
        (e: Error) => {
          assert.ok(e instanceof ProfileReadError, `${name}: ${e.stack}`);
          assert.ok(e.message.startsWith(path), `${name}: message names the file: ${e.message}`);
          assert.match(e.message, reason, name);
          return true;
        },
        `${name} must be rejected`,
      );
    }
    const cube3 = cube3Document({
      ...fixture(),
      version: '3.0',
      metrics: [{ id: 0, uniqName: 'time', dtype: 'FLOAT', uom: 'sec', values: { 4: [1, 2, 3] } }],
    });
    await assert.rejects(
      cubeReader.read(write('short-row.cube', cube3)),
      /severity row for cnode 4 has 3 values, but the system has 4 threads/,
    );
    const nan = cube3.replace(/<row cnodeId="4">\n1\n2\n3/, '<row cnodeId="4">\n1\n2\nx3\n4');
    await assert.rejects(
      cubeReader.read(write('bad-number.cube', nan)),
      /line \d+: bad number "x3" in the severity row for cnode 4/,
    );
  });

  it('survives truncation and byte flips anywhere: a ProfileReadError or a good read, quickly', async () => {
    const spec = fixture({ compressed: true });
    spec.metrics[0] = { ...spec.metrics[0]!, compressed: false, index: 'dense' };
    const good = cubexArchive(spec);
    const cube3 = Buffer.from(
      cube3Document({
        ...fixture(),
        version: '3.0',
        metrics: [{ id: 0, uniqName: 'time', dtype: 'FLOAT', uom: 'sec', values: E }],
      }),
    );
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // [label, bytes, must fail]: a cut is harmless only after the first end-of-archive block.
    const mutants: [string, Buffer, boolean][] = [];
    for (const [label, original, harmlessCut] of [
      ['cubex', good, good.length - 512],
      ['cube3', cube3, Infinity],
    ] as const) {
      for (let k = 1; k <= 60; k++) {
        const cut = Math.floor((k * original.length) / 61);
        mutants.push([`${label} truncated at ${cut}`, original.subarray(0, cut), cut < harmlessCut]);
      }
      for (let k = 0; k < 150; k++) {
        const m = Buffer.from(original);
        const at = random(m.length);
        m[at] = random(256);
        mutants.push([`${label} byte ${at} set to ${m[at]}`, m, false]);
      }
    }
    const started = Date.now();
    let failures = 0;
    for (const [label, bytes, mustFail] of mutants) {
      const path = write('mutant.cubex', bytes);
      const t = Date.now();
      try {
        const p = await cubeReader.read(path);
        assert.ok(!mustFail, `${label} was read`);
        assert.ok(p.tree.size > 0 && p.metrics.length > 0, label);
      } catch (e) {
        assert.ok(e instanceof ProfileReadError, `${label}: ${(e as Error).stack}`);
        assert.ok(e.message.startsWith(path), label);
        failures++;
      }
      assert.ok(Date.now() - t < 2000, `${label} took ${Date.now() - t} ms`);
    }
    assert.ok(failures > mutants.length / 4, `${failures} of ${mutants.length} mutants were rejected`);
    assert.ok(Date.now() - started < 30000);
  });
});
