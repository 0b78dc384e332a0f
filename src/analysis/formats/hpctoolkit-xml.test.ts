import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import {
  checkAgainstOracle,
  closeTo,
  oracleCases,
  oraclePath,
  type Oracle,
  type OracleNode,
} from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import { inclusiveFromExclusive } from '../model/derive';
import { Profile } from '../model/profile';
import { TraceEventKind } from '../model/trace';
import { hpctoolkitXmlReader } from './hpctoolkit-xml';
import { MetricDb, rankThreadOf } from './hpctoolkit-xml/metric-db';
import { planMetrics, type MetricEntry } from './hpctoolkit-xml/metric-plan';
import {
  experimentXml,
  formatG,
  metricDbBytes,
  metricDbName,
  hpcTraceName,
  TRACE_EPOCH,
  writeFixtureDatabase,
  type FixtureDatabase,
} from './hpctoolkit-xml/test-database';
import { readProfile } from './index';
import { ProfileReadError } from './reader';

/** Every node's exclusive values over its subtree add up to its inclusive value, in every context. */
function assertConsistent(p: Profile, m: number): void {
  const derived = inclusiveFromExclusive(p.tree.columns.parent, p.exclusive(m), p.contextCount);
  const incl = p.inclusive(m);
  derived.forEach((v, k) => closeTo(v, incl[k]!, `subtree sum of exclusive at cell ${k}`));
}

/**
 * Hatchet's view of our HPCToolkit profile, rebuilt from our model for comparison only.
 *
 * Names (caveat 5): a procedure entered through a call site `<C l=N>`, N ≠ 0, is `N:proc`; we keep
 * `proc` and N as callLine. (Hatchet also prefixes a procedure nested directly in a PF/Pr/L with
 * that element's line; in the shared databases every PF sits under a C, so callLine suffices.)
 * Hatchet names a statement after a global "current file" — the file of the last PF/Pr/L opened
 * in document order — rather than the file of its own scope; after a sibling's subtree that is the
 * wrong file (cpi: 1 statement, osu: 44). Our statements carry the file of their enclosing
 * procedure or loop; the key below recomputes Hatchet's file from our nodes, which are numbered
 * in document order.
 *
 * Exclusive values (caveat 6): hpcprof adds a statement's cost to its parent and to its procedure
 * frame; Hatchet subtracts it from the direct parent only, so a procedure keeps the cost of the
 * statements inside its loops, which its loop children count again. Our model keeps the correct
 * exclusive values (subtree sums = inclusive); Hatchet's are ours plus, at each procedure, the
 * statements whose parent is a loop within that procedure.
 */
function hatchetView(p: Profile): { profile: Profile; key: (p: Profile, i: number) => string; movedNodes: number } {
  const t = p.tree;
  const m = p.metricIndex('time');
  const C = p.contextCount;
  const hatchetFile = new Array<string | null>(t.size).fill(null);
  let current: string | null = null;
  for (let i = 0; i < t.size; i++) {
    if (t.kind(i) === NodeKind.Function || t.kind(i) === NodeKind.Loop) current = t.file(i);
    hatchetFile[i] = t.kind(i) === NodeKind.Statement ? current : t.file(i);
  }
  const hatchetName = (i: number): string => {
    if (t.kind(i) === NodeKind.Statement) return `${basename(hatchetFile[i] ?? '<unknown file>')}:${t.line(i) ?? 0}`;
    const call = t.callLine(i);
    return t.kind(i) === NodeKind.Function && call !== null ? `${call}:${t.name(i)}` : t.name(i);
  };
  const frameOf = (i: number) =>
    t.kind(i) === NodeKind.Function
      ? ['function']
      : [t.kind(i) === NodeKind.Loop ? 'loop' : 'statement', hatchetFile[i], t.line(i) ?? 0];
  const key = (_: Profile, i: number) => {
    const path: string[] = [];
    for (let n = i; n !== -1; n = t.parent(n)) path.push(hatchetName(n));
    return JSON.stringify([path.reverse(), ...frameOf(i)]);
  };

  const excl = p.exclusive(m).slice();
  const moved = new Set<number>();
  for (let i = 0; i < t.size; i++) {
    if (t.kind(i) !== NodeKind.Statement || t.kind(t.parent(i)) !== NodeKind.Loop) continue;
    let f = t.parent(i);
    while (f !== -1 && t.kind(f) !== NodeKind.Function) f = t.parent(f);
    if (f === -1) continue;
    for (let c = 0; c < C; c++) excl[f * C + c]! += p.exclusive(m)[i * C + c]!;
    moved.add(f);
  }
  const profile = new Profile({
    ...p.data,
    metrics: [{ ...p.metrics[m]!, kind: 'both' }],
    exclusive: [excl],
    inclusive: [p.inclusive(m)],
    primaryMetric: 0,
  });
  return { profile, key, movedNodes: moved.size };
}

function oracleKey(oracle: Oracle, n: OracleNode): string {
  const f = n.frame as { type: string; file?: string; line?: number };
  return JSON.stringify([oraclePath(oracle, n), ...(f.type === 'function' ? ['function'] : [f.type, f.file, f.line])]);
}

describe('HPCToolkit XML reader against Hatchet', { skip: skipUnlessShared('oracle', 'hpctoolkit-xml') }, () => {
  for (const { name, oracle, dataPath } of oracleCases('hpctoolkit-xml')) {
    it(name, async () => {
      const profile = await readProfile(dataPath);
      assert.equal(profile.format, 'hpctoolkit-xml');
      const m = profile.metricIndex('time');
      assert.equal(profile.primaryMetric, m);
      assert.equal(profile.metrics[m]!.unit, 'µs');
      assertConsistent(profile, m);

      const view = hatchetView(profile);
      checkAgainstOracle(view.profile, oracle, {
        values: (p, column) =>
          column === 'time' ? p.exclusiveTotals(0) : column === 'time (inc)' ? p.inclusiveTotals(0) : null,
        ourKey: view.key,
        oracleKey,
        acrossRows: [
          ['time', 'time', 'exclusive'],
          ['time (inc)', 'time', 'inclusive'],
        ],
      });

      // Our Σ exclusive is the total time; Hatchet's exceeds it by exactly what it double counts.
      const ours = profile.exclusiveTotals(m).reduce((s, v) => s + v, 0);
      closeTo(ours, profile.total(m), 'Σ exclusive = Σ root inclusive');
      const doubleCounted =
        oracle.totals.sum_exclusive_over_all_nodes['time']! - oracle.totals.sum_over_roots_inclusive!['time (inc)']!;
      closeTo(view.profile.exclusiveTotals(0).reduce((s, v) => s + v, 0) - ours, doubleCounted, 'Hatchet double count');
      assert.equal(view.movedNodes > 0, doubleCounted > 0, 'nodes whose exclusive value differs from Hatchet');
    });
  }
});

const sharedDatasets = skipUnlessShared('data', 'hpctoolkit-xml');
describe('HPCToolkit XML reader on the shared databases', { skip: sharedDatasets }, () => {
  it('gives statements the file of their own procedure or loop and its load module', async () => {
    for (const d of readdirSync(sharedPath('data', 'hpctoolkit-xml'))) {
      const p = await hpctoolkitXmlReader.read(sharedPath('data', 'hpctoolkit-xml', d));
      const t = p.tree;
      for (let i = 0; i < t.size; i++) {
        if (t.kind(i) !== NodeKind.Statement) continue;
        let scope = t.parent(i);
        while (t.kind(scope) !== NodeKind.Function && t.kind(scope) !== NodeKind.Loop) scope = t.parent(scope);
        let proc = scope;
        while (t.kind(proc) !== NodeKind.Function) proc = t.parent(proc);
        assert.equal(t.file(i), t.file(scope), `${d}: file of ${t.path(i).join(' / ')}`);
        assert.equal(t.module(i), t.module(proc), `${d}: module of ${t.path(i).join(' / ')}`);
      }
    }
  });
});

/** A database with recursion, a loop, inlined code, a nameless Pr, non-ASCII names, a silent thread and a GPU stream. */
function sampleDatabase(extra: Partial<FixtureDatabase> = {}): FixtureDatabase {
  const src = './src/home/ü/cpi.c';
  const lib = './src/home/ü/données.c';
  return {
    program: 'cpi',
    contexts: [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 500],
    ],
    roots: [
      {
        tag: 'PF',
        proc: '<program root>',
        file: '<unknown file> [libmonitor.so]',
        line: 0,
        module: '/opt/hpctoolkit/libmonitor.so',
        children: [
          {
            tag: 'C',
            line: 0,
            children: [
              {
                tag: 'PF',
                proc: 'main',
                file: src,
                line: 19,
                module: '/home/ü/cpi',
                children: [
                  { tag: 'S', line: 21, cost: [1, 2, 0, 0] },
                  {
                    tag: 'L',
                    file: src,
                    line: 30,
                    children: [
                      { tag: 'S', line: 31, cost: [10, 20, 0, 5] },
                      {
                        tag: 'C',
                        line: 32,
                        children: [
                          {
                            tag: 'PF',
                            proc: 'résoudre_π',
                            file: lib,
                            line: 5,
                            module: '/home/ü/cpi',
                            children: [
                              { tag: 'S', line: 6, cost: [3, 3, 0, 0] },
                              {
                                tag: 'C',
                                line: 7,
                                children: [
                                  {
                                    tag: 'PF',
                                    proc: 'résoudre_π',
                                    file: lib,
                                    line: 5,
                                    module: '/home/ü/cpi',
                                    children: [{ tag: 'S', line: 6, cost: [1, 1, 0, 0] }],
                                  },
                                ],
                              },
                            ],
                          },
                        ],
                      },
                    ],
                  },
                  {
                    tag: 'Pr',
                    proc: 'inlined_helper',
                    file: './src/home/ü/util.h',
                    line: 40,
                    children: [{ tag: 'S', line: 41, cost: [2, 0, 0, 0] }],
                  },
                  {
                    tag: 'Pr',
                    proc: '',
                    line: 50,
                    children: [
                      {
                        tag: 'PF',
                        proc: 'MPI_Finalize',
                        file: '<unknown file> [libmpi.so]',
                        line: 0,
                        module: '/usr/lib/libmpi.so',
                        children: [{ tag: 'S', line: 0, cost: [4, 4, 0, 1] }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    ...extra,
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-hpctk-'));
let dirCount = 0;
const freshDir = (name: string) => join(tmp, `${dirCount++}-${name}`);

describe('HPCToolkit XML reader', () => {
  it('reads the tree, contexts and values of a metric-db database', async () => {
    const dir = writeFixtureDatabase(freshDir('db'), sampleDatabase());
    const p = await readProfile(dir);
    const t = p.tree;
    assert.equal(p.format, 'hpctoolkit-xml');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0 · thread 0', 'rank 0 · thread 1', 'rank 1 · thread 0', 'rank 1 · stream 0'],
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit, m.kind]),
      [['time', 'µs', 'inclusive']],
    );
    assert.deepEqual(
      Array.from({ length: t.size }, (_, i) => [t.name(i), t.kind(i), t.callLine(i)]),
      [
        ['<program root>', NodeKind.Function, null],
        ['main', NodeKind.Function, null],
        ['cpi.c:21', NodeKind.Statement, null],
        ['Loop@cpi.c:30', NodeKind.Loop, null],
        ['cpi.c:31', NodeKind.Statement, null],
        ['résoudre_π', NodeKind.Function, 32],
        ['données.c:6', NodeKind.Statement, null],
        ['résoudre_π', NodeKind.Function, 7],
        ['données.c:6', NodeKind.Statement, null],
        ['inlined_helper', NodeKind.Function, null],
        ['util.h:41', NodeKind.Statement, null],
        ['MPI_Finalize', NodeKind.Function, 50],
        ['<unknown file> [libmpi.so]:0', NodeKind.Statement, null],
      ],
    );
    assert.deepEqual(t.path(8), ['<program root>', 'main', 'Loop@cpi.c:30', 'résoudre_π', 'résoudre_π', 'données.c:6']);
    assert.deepEqual(t.path(12), ['<program root>', 'main', 'MPI_Finalize', '<unknown file> [libmpi.so]:0']);
    // Statements carry their scope's file and line (line-level heat) and their procedure's module.
    assert.deepEqual(
      [4, 6, 10].map(i => [t.file(i), t.line(i), t.module(i)]),
      [
        ['./src/home/ü/cpi.c', 31, '/home/ü/cpi'],
        ['./src/home/ü/données.c', 6, '/home/ü/cpi'],
        ['./src/home/ü/util.h', 41, '/home/ü/cpi'],
      ],
    );
    assert.deepEqual([t.file(1), t.line(1), t.module(1)], ['./src/home/ü/cpi.c', 19, '/home/ü/cpi']);

    // Exclusive values are statement costs; main's scope value (which repeats its loop's statement) is not.
    const excl = p.exclusive(0);
    const at = (i: number) => Array.from(excl.subarray(i * 4, i * 4 + 4));
    assert.deepEqual(at(1), [0, 0, 0, 0]);
    assert.deepEqual(at(4), [10, 20, 0, 5]);
    assert.deepEqual(at(12), [4, 4, 0, 1]);
    assert.deepEqual(
      Array.from(p.inclusive(0).subarray(0, 4)),
      [21, 30, 0, 6],
      'rank 1 · thread 0 has no samples: zeros',
    );
    assertConsistent(p, 0);
    assert.equal(p.metadata['program'], 'cpi');
    assert.equal(p.metadata['launch'], 'srun -n 4');
  });

  it('reads .hpctrace files into a timeline: each sample holds its call path until the next', async () => {
    const db = sampleDatabase();
    const main = db.roots[0]!.children![0]!.children![0]!;
    const s21 = main.children![0]!;
    const loop = main.children![1]!;
    const s31 = loop.children![0]!;
    // Ticks are µs here (u = 1e6): the reader converts to ns.
    db.ticksPerSecond = 1e6;
    db.traces = [
      { context: 3, samples: [[5, s31]] },
      {
        context: 0,
        samples: [
          [0, s21],
          [10, s31],
          [25, s31],
          [40, null],
          [50, s21],
        ],
      },
    ];
    const p = await readProfile(writeFixtureDatabase(freshDir('trace'), db));
    const trace = p.trace;
    assert.ok(trace, 'a trace is attached');
    assert.equal(p.metadata['hpctrace files'], 2);
    assert.deepEqual(
      trace.tracks.map(t => [t.process, t.name, t.kind, p.contexts[t.context]!.label]),
      [
        ['rank 0', 'thread 0', 'thread', 'rank 0 · thread 0'],
        ['rank 1', 'GPU stream 0', 'gpu-stream', 'rank 1 · stream 0'],
      ],
      'tracks in rank/thread order, on the contexts of the metric-db files',
    );
    assert.equal(trace.timeRange[0], 0);
    assert.equal(trace.timeRange[1], 50_000, 'ns from the earliest sample');
    assert.equal(trace.originNs, String(TRACE_EPOCH));
    const e = trace.events;
    const slices = (track: number) =>
      Array.from({ length: e.track.length }, (_, k) => k)
        .filter(k => e.track[k] === track && e.kind[k] === TraceEventKind.Slice)
        .map(k => [p.tree.name(e.node[k]!), e.depth[k], e.start[k], e.duration[k]]);
    const t0 = slices(0);
    // main stays open across its statements until the gap at 40 µs; the loop spans the two samples of line 31.
    assert.deepEqual(
      t0.filter(r => r[0] === 'main'),
      [
        ['main', 1, 0, 40_000],
        ['main', 1, 50_000, 0],
      ],
    );
    assert.deepEqual(
      t0.filter(r => r[0] === 'Loop@cpi.c:30'),
      [['Loop@cpi.c:30', 2, 10_000, 30_000]],
    );
    assert.deepEqual(
      t0.filter(r => r[0] === 'cpi.c:31'),
      [['cpi.c:31', 3, 10_000, 30_000]],
    );
    // The GPU stream's only sample holds until the database's last timestamp.
    assert.deepEqual(
      slices(1).filter(r => r[0] === 'cpi.c:31'),
      [['cpi.c:31', 3, 5_000, 45_000]],
    );
  });

  it('names the file and the reason for a bad .hpctrace, and warns on unknown call paths', async () => {
    const db = sampleDatabase();
    const s21 = db.roots[0]!.children![0]!.children![0]!.children![0]!;
    db.traces = [
      {
        context: 0,
        samples: [
          [0, s21],
          [10, s21],
        ],
      },
    ];
    const dir = writeFixtureDatabase(freshDir('bad-trace'), db);
    const name = hpcTraceName(db, 0);
    const bytes = readFileSync(join(dir, name));
    bytes.writeUInt32BE(999_999, 32 + 12 + 8);
    writeFileSync(join(dir, name), Buffer.concat([bytes, Buffer.from([1, 2, 3])]));
    const p = await readProfile(dir);
    assert.ok(
      p.warnings.some(w => /1 trace samples name call paths experiment.xml does not list/.test(w)),
      p.warnings.join('\n'),
    );
    assert.ok(
      p.warnings.some(w => w.includes(name) && /3 bytes after the last whole record/.test(w)),
      p.warnings.join('\n'),
    );
    writeFileSync(join(dir, name), Buffer.from('HPCRUN-trace-no'));
    await assert.rejects(readProfile(dir), (e: Error) => {
      assert.ok(e instanceof ProfileReadError);
      assert.ok(e.message.includes(name) && /truncated hpctrace/.test(e.message), e.message);
      return true;
    });
  });

  it('reads a database with inline values only (no metric-db files), which Hatchet cannot', async () => {
    const db = sampleDatabase({ inline: true });
    // Seven-digit costs: hpcprof prints six, so parents and children disagree by rounding.
    const scale = (c?: number[]) => c?.map(v => v * 1234567);
    const rescale = (e: FixtureDatabase['roots'][number]): FixtureDatabase['roots'][number] => ({
      ...e,
      cost: scale(e.cost),
      children: e.children?.map(rescale),
    });
    db.roots = db.roots.map(rescale);
    const dir = writeFixtureDatabase(freshDir('inline'), db);
    assert.ok(!readdirSync(dir).some(n => n.endsWith('.metric-db')));
    const p = await readProfile(dir);
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['process'],
    );
    assert.equal(p.metrics[0]!.name, 'time');
    const excl = p.exclusive(0);
    const t = p.tree;
    for (let i = 0; i < t.size; i++) {
      if (t.kind(i) === NodeKind.Statement) assert.ok(excl[i]! > 0, `${t.name(i)} keeps its cost`);
      else assert.equal(excl[i], 0, `${t.path(i).join('/')}: no rounding noise`);
    }
    closeTo(excl[4]!, Number(formatG(35 * 1234567)), 'statement value as printed');
    assertConsistent(p, 0);
    closeTo(p.total(0), 57 * 1234567, 'total within rounding', 1e-5);
    assert.deepEqual(p.warnings, []);

    // A metric-db database whose metric-db files went missing falls back to the inline values, and says so.
    const orphan = freshDir('orphan');
    mkdirSync(orphan);
    const table =
      '<MetricDBTable><MetricDB i="0" n="CPUTIME (usec) (I)" t="inclusive" db-id="0" db-num-metrics="1"/></MetricDBTable>';
    writeFileSync(
      join(orphan, 'experiment.xml'),
      readFileSync(join(dir, 'experiment.xml'), 'utf8').replace('</MetricTable>', `</MetricTable>${table}`),
    );
    const q = await readProfile(orphan);
    assert.deepEqual(Array.from(q.exclusive(0)), Array.from(excl));
    assert.match(q.warnings.join('\n'), /describes \*\.metric-db files, but there are none beside it/);
  });

  it('reads gzip-compressed files, the experiment.xml path itself, and the database copy of sources', async () => {
    const gz = writeFixtureDatabase(freshDir('gzip'), sampleDatabase({ gzip: true }));
    const plain = await readProfile(writeFixtureDatabase(freshDir('plain'), sampleDatabase()));
    const p = await readProfile(gz);
    assert.deepEqual(Array.from(p.inclusive(0)), Array.from(plain.inclusive(0)));
    const viaFile = await readProfile(join(gz, 'experiment.xml'));
    assert.equal(viaFile.contextCount, 4, 'the metric-db files beside experiment.xml are read');

    const withSrc = writeFixtureDatabase(freshDir('src'), sampleDatabase());
    mkdirSync(join(withSrc, 'src', 'home', 'ü'), { recursive: true });
    writeFileSync(join(withSrc, 'src', 'home', 'ü', 'cpi.c'), 'int main() {}\n');
    const q = await readProfile(withSrc);
    assert.equal(q.tree.file(4), join(withSrc, 'src', 'home', 'ü', 'cpi.c'));
    assert.equal(q.tree.file(6), './src/home/ü/données.c', 'sources not copied keep their recorded path');
  });

  it('keeps an exclusive-only metric at the statements', async () => {
    const p = await readProfile(
      writeFixtureDatabase(freshDir('excl'), sampleDatabase({ exclusiveOnly: true, metric: 'REALTIME (sec)' })),
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit, m.kind]),
      [['REALTIME (sec)', 's', 'exclusive']],
    );
    const plain = await readProfile(writeFixtureDatabase(freshDir('pair'), sampleDatabase()));
    assert.deepEqual(Array.from(p.exclusive(0)), Array.from(plain.exclusive(0)));
  });

  it('reads an empty profile', async () => {
    const dir = writeFixtureDatabase(freshDir('empty'), {
      program: 'idle',
      contexts: [
        [0, 0],
        [1, 0],
      ],
      roots: [],
    });
    const p = await readProfile(dir);
    assert.equal(p.tree.size, 0);
    assert.equal(p.contextCount, 2);
    assert.equal(p.total(0), 0);
    const inline = await readProfile(
      writeFixtureDatabase(freshDir('empty-inline'), { program: 'idle', contexts: [[0, 0]], roots: [], inline: true }),
    );
    assert.equal(inline.tree.size, 0);
  });

  it('sniffs by content', async () => {
    const dir = writeFixtureDatabase(freshDir('sniff'), sampleDatabase());
    const sample = (over: Partial<Parameters<typeof hpctoolkitXmlReader.sniff>[0]>) => ({
      path: dir,
      isDirectory: false,
      size: 1,
      head: '',
      tail: '',
      entries: [],
      gzip: false,
      binary: false,
      ...over,
    });
    const entries = readdirSync(dir);
    assert.ok(hpctoolkitXmlReader.sniff(sample({ isDirectory: true, entries })) > 0.9);
    assert.ok(
      hpctoolkitXmlReader.sniff(sample({ head: readFileSync(join(dir, 'experiment.xml'), 'utf8').slice(0, 4096) })) >
        0.9,
    );
    const gz = writeFixtureDatabase(freshDir('sniff-gz'), sampleDatabase({ gzip: true }));
    assert.ok(hpctoolkitXmlReader.sniff(sample({ path: gz, isDirectory: true, entries: readdirSync(gz) })) > 0.9);
    assert.equal(
      (await readProfile(join(gz, 'experiment.xml'))).format,
      'hpctoolkit-xml',
      'a gzip experiment.xml is sniffed from its decompressed head',
    );
    const other = freshDir('other');
    mkdirSync(other);
    writeFileSync(join(other, 'experiment.xml'), '<?xml version="1.0"?><Experiment/>');
    assert.equal(hpctoolkitXmlReader.sniff(sample({ path: other, isDirectory: true, entries: ['experiment.xml'] })), 0);
    assert.equal(hpctoolkitXmlReader.sniff(sample({ isDirectory: true, entries: ['meta.db', 'profile.db'] })), 0);
    assert.equal(hpctoolkitXmlReader.sniff(sample({ head: '{"HPCToolkitExperiment": 1}' })), 0);
    const later = hpctoolkitXmlReader.sniff(
      sample({ head: '<?xml version="1.0"?>\n<HPCToolkitExperiment version="4.0">' }),
    );
    assert.ok(later > 0 && later < 0.9, 'later versions are left to a reader that knows them');
  });

  it('can be cancelled', async () => {
    const dir = writeFixtureDatabase(freshDir('cancel'), sampleDatabase());
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(hpctoolkitXmlReader.read(dir, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
    const late = new AbortController();
    await assert.rejects(
      hpctoolkitXmlReader.read(dir, {
        signal: late.signal,
        onProgress: (f, message) => {
          assert.ok(f >= 0 && f <= 1);
          if (message === 'Reading metric-db files') late.abort();
        },
      }),
      (e: Error) => e.name === 'AbortError',
    );
    const fractions: number[] = [];
    await hpctoolkitXmlReader.read(dir, { onProgress: f => fractions.push(f) });
    assert.ok(
      fractions.every((f, k) => f >= 0 && f <= 1 && (k === 0 || f >= fractions[k - 1]!)),
      'progress rises within [0, 1]',
    );
    assert.equal(fractions.at(-1), 1);
  });

  it('names the file and the reason for bad input', async () => {
    const base = sampleDatabase();
    const xml = experimentXml(base);
    const cases: [string, (dir: string) => void, RegExp, string?][] = [
      [
        'no-procedure-table',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace(/<ProcedureTable>[^]*<\/ProcedureTable>/, '')),
        /line \d+: <PF> refers to procedure \d+, which is not in the ProcedureTable/,
        'experiment.xml',
      ],
      [
        'no-tree',
        d =>
          writeFileSync(
            join(d, 'experiment.xml'),
            xml.replace(/<SecCallPathProfileData>[^]*<\/SecCallPathProfileData>/, ''),
          ),
        /no <SecCallPathProfileData>/,
        'experiment.xml',
      ],
      [
        'wrong-root',
        d => writeFileSync(join(d, 'experiment.xml'), '<?xml version="1.0"?>\n<Profile/>'),
        /not an HPCToolkit experiment.xml: the root element is <Profile>/,
        'experiment.xml',
      ],
      [
        'version',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace('version="2.1"', 'version="4.0"')),
        /unsupported experiment.xml version "4.0"/,
        'experiment.xml',
      ],
      [
        'truncated-xml',
        d => writeFileSync(join(d, 'experiment.xml'), xml.slice(0, xml.length / 2)),
        /not well-formed XML/,
        'experiment.xml',
      ],
      [
        'bad-line',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace('l="31"', 'l="x31"')),
        /line \d+: <S> has l="x31", which is not a line number/,
        'experiment.xml',
      ],
      [
        'duplicate-id',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace('i="6"', 'i="5"')),
        /node id i="5" is used by two tree elements/,
        'experiment.xml',
      ],
      [
        'missing-id',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace(/i="6" /, '')),
        /<L> has no i attribute, which names its row in the \*\.metric-db files/,
        'experiment.xml',
      ],
      [
        'no-metricdb-table',
        d => writeFileSync(join(d, 'experiment.xml'), xml.replace(/<MetricDBTable>[^]*<\/MetricDBTable>/, '')),
        /4 \*\.metric-db files but experiment.xml has no MetricDBTable/,
        'experiment.xml',
      ],
      [
        'magic',
        d =>
          writeFileSync(
            join(d, metricDbName(base, 0)),
            Buffer.from('NOTAPROF-metricdb__00.10b' + '\0'.repeat(40), 'latin1'),
          ),
        /not a metric-db file: wrong magic "NOTAPROF-metricdb_"/,
        metricDbName(base, 0),
      ],
      [
        'db-version',
        d => {
          const b = metricDbBytes(base, 1);
          b.write('00.11', 18, 'latin1');
          writeFileSync(join(d, metricDbName(base, 1)), b);
        },
        /unsupported metric-db version "00.11"/,
        metricDbName(base, 1),
      ],
      [
        'db-order',
        d => {
          const b = metricDbBytes(base, 1);
          b.write('x', 23, 'latin1');
          writeFileSync(join(d, metricDbName(base, 1)), b);
        },
        /unknown byte order "x"/,
        metricDbName(base, 1),
      ],
      [
        'db-truncated',
        d => writeFileSync(join(d, metricDbName(base, 2)), metricDbBytes(base, 2).subarray(0, 100)),
        /truncated metric-db: 18 nodes × 2 metrics need 320 bytes, the file has 100/,
        metricDbName(base, 2),
      ],
      [
        'db-header',
        d => writeFileSync(join(d, metricDbName(base, 2)), metricDbBytes(base, 2).subarray(0, 20)),
        /truncated metric-db: the header needs 32 bytes, the file has 20/,
        metricDbName(base, 2),
      ],
      [
        'db-rows',
        d => {
          const b = metricDbBytes(base, 3);
          b.writeUInt32BE(10, 24);
          writeFileSync(join(d, metricDbName(base, 3)), b);
        },
        /has values for 10 nodes, but experiment.xml has a node with i="18"/,
        metricDbName(base, 3),
      ],
      [
        'db-columns',
        d => {
          const b = metricDbBytes(base, 3);
          b.writeUInt32BE(1, 28);
          b.writeUInt32BE(36, 24);
          writeFileSync(join(d, metricDbName(base, 3)), b);
        },
        /has 1 metric columns, but the MetricDBTable of experiment.xml describes 2/,
        metricDbName(base, 3),
      ],
      [
        'db-name',
        d => writeFileSync(join(d, 'cpi.metric-db'), metricDbBytes(base, 0)),
        /cannot tell the rank and thread from the file name/,
        'cpi.metric-db',
      ],
    ];
    for (const [name, mutate, reason, file] of cases) {
      const dir = writeFixtureDatabase(freshDir(name), base);
      mutate(dir);
      await assert.rejects(
        hpctoolkitXmlReader.read(dir),
        (e: Error) => {
          assert.ok(e instanceof ProfileReadError, `${name}: ${e.stack}`);
          assert.ok(e.message.startsWith(join(dir, file ?? '')), `${name}: the message names the file: ${e.message}`);
          assert.match(e.message, reason, name);
          return true;
        },
        name,
      );
    }
    const inline = experimentXml({ ...base, inline: true });
    const inlineCases: [string, string, RegExp][] = [
      ['bad-number', inline.replace(/<M n="2" v="[^"]+"/, '<M n="2" v="12x"'), /"12x" is not a number/],
      ['unknown-metric', inline.replace(/<M n="2"/, '<M n="9"'), /<M n="9"> refers to no metric of the MetricTable/],
      [
        'no-metrics',
        inline.replace(/<MetricTable>[^]*<\/MetricTable>/, '').replace(/<M [^>]*\/>/g, ''),
        /no metric values: no \*\.metric-db files beside experiment.xml and no MetricTable/,
      ],
    ];
    for (const [name, text, reason] of inlineCases) {
      const dir = freshDir(name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'experiment.xml'), text);
      await assert.rejects(
        readProfile(dir),
        (e: Error) =>
          e instanceof ProfileReadError && e.message.startsWith(join(dir, 'experiment.xml')) && reason.test(e.message),
        name,
      );
    }
    const noXml = freshDir('no-xml');
    mkdirSync(noXml);
    await assert.rejects(hpctoolkitXmlReader.read(noXml), /the directory has no experiment.xml/);
    await assert.rejects(hpctoolkitXmlReader.read(join(tmp, 'nope')), /no such file or directory/);
  });

  it('ends every damaged database in a ProfileReadError or a profile, within 5 s each', async t => {
    const base = sampleDatabase();
    const targets: [label: string, db: FixtureDatabase, file: string][] = [
      ['experiment.xml', base, 'experiment.xml'],
      ['metric-db', base, metricDbName(base, 0)],
      ['inline experiment.xml', { ...base, inline: true }, 'experiment.xml'],
    ];
    for (const [label, db, file] of targets) {
      const dir = writeFixtureDatabase(freshDir('damaged'), db);
      const valid = readFileSync(join(dir, file));
      const outcomes = { read: 0, rejected: 0 };
      for (const [what, bytes] of mutationsOf(valid, { seed: 11 })) {
        writeFileSync(join(dir, file), bytes);
        outcomes[await readOrReject(dir, hpctoolkitXmlReader, `${label}, ${what}`)]++;
      }
      t.diagnostic(`${label}: ${outcomes.rejected} rejected, ${outcomes.read} read`);
      assert.ok(
        outcomes.rejected > outcomes.read / 2,
        `${label}: damage is mostly detected (${JSON.stringify(outcomes)})`,
      );
    }
  });
});

describe('HPCToolkit XML metric naming and metric-db files', () => {
  const entry = (id: string, name: string, type: MetricEntry['type'], partner: string | null = null): MetricEntry => ({
    id,
    name,
    type,
    partner,
    column: Number(id),
  });

  it('pairs inclusive and exclusive halves and names them as Hatchet does', () => {
    const plans = planMetrics([
      entry('0', 'CPUTIME (usec) (I)', 'inclusive', '1'),
      entry('1', 'CPUTIME (usec) (E)', 'exclusive', '0'),
      entry('2', 'REALTIME (sec) (E)', 'nil'),
      entry('3', 'REALTIME (sec) (I)', 'nil'),
      entry('4', 'CPUTIME (usec):Mean (I)', 'inclusive', '5'),
      entry('5', 'CPUTIME (usec):Mean (E)', 'exclusive', '4'),
      entry('6', 'PAPI_TOT_CYC', 'nil'),
      entry('7', 'CPUTIME (sec) (I)', 'inclusive'),
    ]);
    assert.deepEqual(
      plans.map(p => [
        p.descriptor.name,
        p.descriptor.unit,
        p.descriptor.kind,
        p.descriptor.aggregation,
        p.inclusive?.id ?? null,
        p.exclusive?.id ?? null,
      ]),
      [
        ['time', 'µs', 'inclusive', 'sum', '0', '1'],
        ['REALTIME (sec)', 's', 'inclusive', 'sum', '3', '2'],
        ['time:Mean', 'µs', 'inclusive', 'avg', '4', '5'],
        ['PAPI_TOT_CYC', '', 'exclusive', 'sum', null, '6'],
        ['CPUTIME (sec)', 's', 'inclusive', 'sum', '7', null],
      ],
    );
  });

  it('takes rank and thread from the end of the file name', () => {
    assert.deepEqual(rankThreadOf('1.osu-allgather-000012-001-a8c00471-152577-0.metric-db'), { rank: 12, thread: 1 });
    assert.deepEqual(rankThreadOf('1.cpi-000003-500-a8c00270-160446-0.metric-db.gz'), { rank: 3, thread: 500 });
    assert.equal(rankThreadOf('cpi.metric-db'), null);
  });

  it('decodes both byte orders', () => {
    const le = Buffer.alloc(32 + 2 * 8);
    le.write('HPCPROF-metricdb__00.10l', 0, 'latin1');
    le.writeUInt32LE(2, 24);
    le.writeUInt32LE(1, 28);
    le.writeDoubleLE(1.5, 32);
    le.writeDoubleLE(-2, 40);
    const db = new MetricDb('x.metric-db', le);
    assert.deepEqual([db.nodeCount, db.metricCount, db.value(1, 0), db.value(2, 0)], [2, 1, 1.5, -2]);
    // Big-endian (what hpcprof writes), 3 nodes × 2 metrics, at an odd offset in a larger buffer.
    const be = Buffer.alloc(1 + 32 + 6 * 8 + 5).subarray(1);
    be.write('HPCPROF-metricdb__00.10b', 0, 'latin1');
    be.writeUInt32BE(3, 24);
    be.writeUInt32BE(2, 28);
    [1, 10, 2, 20, 3.25, -0].forEach((v, k) => be.writeDoubleBE(v, 32 + 8 * k));
    const big = new MetricDb('y.metric-db', be);
    assert.deepEqual([big.nodeCount, big.metricCount, big.value(3, 0), big.value(2, 1)], [3, 2, 3.25, 20]);
    const out = new Float64Array(3);
    big.gather(1, Int32Array.of(3, 1, 2), out);
    assert.deepEqual([...out], [-0, 10, 20]);
    assert.ok(Object.is(out[0], -0));
    assert.throws(
      () => new MetricDb('z.metric-db', be.subarray(0, 32 + 6 * 8 - 1)),
      /z\.metric-db.*truncated metric-db: 3 nodes × 2 metrics need 80 bytes, the file has 79/,
    );
    assert.throws(() => new MetricDb('e.metric-db', Buffer.alloc(0)), /e\.metric-db.*the header needs 32 bytes/);
  });

  it('formats values like hpcprof', () => {
    assert.deepEqual([3998242, 179877, 35980, 0.5, 1e-7, 0].map(formatG), [
      '3.99824e+06',
      '179877',
      '35980',
      '0.5',
      '1e-07',
      '0',
    ]);
  });
});

process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
