import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkAgainstOracle, closeTo, oracleCases, type Oracle } from '../../../test/support/hatchet-oracle';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import { inclusiveFromExclusive } from '../model/derive';
import type { Profile } from '../model/profile';
import { inspectReport } from '../stats/inspect-report';
import { contextStats } from '../stats/context-stats';
import { seededRandom } from '../stats/seeded-random';
import { sampleFile } from './file-sample';
import { hpctoolkitMetaDbReader } from './hpctoolkit-metadb';
import { forEachContextValue, parseCctDb } from './hpctoolkit-metadb/cct-db';
import { contextOfIdTuple } from './hpctoolkit-metadb/execution-contexts';
import { parseMetaDb } from './hpctoolkit-metadb/meta-db';
import { parseMetricTaxonomy } from './hpctoolkit-metadb/metric-taxonomy';
import { forEachProfileValue, parseProfileDb } from './hpctoolkit-metadb/profile-db';
import {
  encodeDatabase,
  writeDatabase,
  type FixtureContext,
  type FixtureDatabase,
} from './hpctoolkit-metadb/test-db-writer';
import { readProfile } from './index';
import { ProfileReadError } from './reader';

/**
 * Hatchet's "exclusive" for a v4 database is HPCToolkit's "function" scope (oracle README caveat
 * 8): a node's own cost plus that of everything below it not separated by a call, i.e. its loops
 * and lines (the propagation bit hpcprof sets exactly on lexically nested contexts). Our model
 * keeps the true self cost as exclusive, so the test rebuilds Hatchet's column from it: add every
 * non-callee node's exclusive into its parent, bottom-up. Callees are Function nodes (named
 * functions and instructions reached by a call), and entry points are roots.
 */
function functionScope(profile: Profile, m: number): Float64Array {
  const { parent, kind } = profile.tree.columns;
  const C = profile.contextCount;
  const out = profile.exclusive(m).slice();
  for (let i = parent.length - 1; i >= 0; i--) {
    const p = parent[i]!;
    if (p < 0 || kind[i] === NodeKind.Function) continue;
    for (let c = 0; c < C; c++) out[p * C + c]! += out[i * C + c]!;
  }
  return out;
}

/** Per-node sums over contexts of a node-major matrix. */
function totals(matrix: Float64Array, C: number): Float64Array {
  const out = new Float64Array(matrix.length / C);
  for (let i = 0; i < out.length; i++) for (let c = 0; c < C; c++) out[i]! += matrix[i * C + c]!;
  return out;
}

/** The metric behind a Hatchet column: `time` is our name for `CPUTIME (sec)` too, `X (inc)` is X's inclusive side. */
function hatchetColumn(profile: Profile, column: string): { metric: number; inclusive: boolean } {
  const inclusive = column.endsWith(' (inc)');
  const name = inclusive ? column.slice(0, -' (inc)'.length) : column;
  const metric = profile.metricIndex(name);
  assert.ok(metric >= 0, `metric ${name} missing; we have ${profile.metrics.map(x => x.name).join(', ')}`);
  return { metric, inclusive };
}

/** Per-context values of a Hatchet column from our model (node-major). */
function hatchetMatrix(profile: Profile, column: string): Float64Array {
  const { metric, inclusive } = hatchetColumn(profile, column);
  return inclusive ? profile.inclusive(metric) : functionScope(profile, metric);
}

/**
 * Hatchet's node names from ours. We name lines and loops by the file's basename and instructions
 * by the module's basename (full paths are in the node's file and module); Hatchet uses the full
 * path as meta.db stores it (caveat 9). Relative paths of copied sources, which we resolve against
 * the database directory, are given back relative.
 */
function hatchetName(profile: Profile, i: number, databaseDir: string): string {
  const t = profile.tree;
  const name = t.name(i);
  const stored = (f: string) => (f.startsWith(databaseDir + '/') ? f.slice(databaseDir.length + 1) : f);
  const file = t.file(i),
    module = t.module(i),
    line = t.line(i) ?? 0;
  const kind = t.kind(i);
  const address = module
    ? new RegExp(`^${escapeRegExp(module.slice(module.lastIndexOf('/') + 1))}(:0x[0-9a-f]+)$`).exec(name)
    : null;
  if ((kind === NodeKind.Function || kind === NodeKind.Statement) && address && !file) return `${module}${address[1]}`;
  if (kind === NodeKind.Statement && file) return `${stored(file)}:${line}`;
  if (kind === NodeKind.Loop && file) return `Loop@${stored(file)}:${line}`;
  return name;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** min/mean/max over contexts (`across_rows_…`) and over ranks after summing threads (`across_ranks_…`). */
function checkAcross(profile: Profile, oracle: Oracle, column: string, databaseDir: string): void {
  const C = profile.contextCount;
  const matrix = hatchetMatrix(profile, column);
  const rows = contextStats(matrix, C);
  const ranks = [...new Set(profile.contexts.map(c => c.rank))].sort((a, b) => a - b);
  const rankOf = profile.contexts.map(c => ranks.indexOf(c.rank));
  const byRank = new Float64Array(profile.tree.size * ranks.length);
  for (let i = 0; i < profile.tree.size; i++)
    for (let c = 0; c < C; c++) byRank[i * ranks.length + rankOf[c]!]! += matrix[i * C + c]!;
  const rankStats = contextStats(byRank, ranks.length);
  const groups = new Map<string, number[]>();
  for (let i = 0; i < profile.tree.size; i++) {
    const key = keyOf(profile, i, databaseDir);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  const theirs = new Map<string, Oracle['nodes']>();
  const names = new Map(oracle.nodes.map(n => [n.nid, n.name]));
  for (const n of oracle.nodes) {
    const key = JSON.stringify(n.path ?? n.path_nids.map(id => names.get(id)!));
    theirs.set(key, [...(theirs.get(key) ?? []), n]);
  }
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  for (const [key, nodes] of theirs) {
    const mine = groups.get(key)!;
    for (const [field, stats] of [
      [`across_rows_${column}`, rows],
      [`across_ranks_${column}`, rankStats],
    ] as const) {
      for (const stat of ['min', 'mean', 'max'] as const) {
        const expected = nodes.map(n => (n[field] as Record<string, number> | undefined)?.[stat]);
        if (expected.some(e => e === undefined)) continue;
        const got = sorted(mine.map(i => stats[stat][i]!));
        sorted(expected as number[]).forEach((v, j) => closeTo(got[j]!, v, `${key} ${stat} of ${field}`));
      }
    }
  }
}

/** Hatchet's name path of every node, as the JSON string the oracle checker compares (built parents first). */
const keyCache = new WeakMap<Profile, string[]>();
function keyOf(profile: Profile, i: number, databaseDir: string): string {
  let keys = keyCache.get(profile);
  if (!keys) {
    const paths: string[][] = [];
    for (let n = 0; n < profile.tree.size; n++) {
      const p = profile.tree.parent(n);
      paths.push([...(p < 0 ? [] : paths[p]!), hatchetName(profile, n, databaseDir)]);
    }
    keyCache.set(profile, (keys = paths.map(x => JSON.stringify(x))));
  }
  return keys[i]!;
}

describe(
  'HPCToolkit v4 database reader against Hatchet',
  { skip: skipUnlessShared('oracle', 'hpctoolkit-metadb') },
  () => {
    for (const { name, oracle, dataPath } of oracleCases('hpctoolkit-metadb')) {
      it(name, async () => {
        // lammps-openmp: Hatchet fails on this database as shipped (caveat 10); its oracle was made with a
        // rewritten default.yaml. We read the unmodified database and must give the same values.
        const profile = await hpctoolkitMetaDbReader.read(dataPath);
        const C = profile.contextCount;
        checkAgainstOracle(profile, oracle, {
          values: (p, column) => totals(hatchetMatrix(p, column), C),
          ourKey: (p, i) => keyOf(p, i, dataPath),
          acrossRows: [],
        });
        for (const column of [...oracle.metrics.exclusive, ...oracle.metrics.inclusive])
          checkAcross(profile, oracle, column, dataPath);

        // Our own model keeps the invariant Hatchet's columns do not: exclusive adds up to inclusive.
        const m = profile.primaryMetric;
        const incl = profile.inclusiveTotals(m);
        let exclusiveSum = 0;
        for (const v of profile.exclusiveTotals(m)) exclusiveSum += v;
        let rootSum = 0;
        for (const r of profile.tree.roots()) rootSum += incl[r]!;
        closeTo(exclusiveSum, rootSum, 'Σ exclusive = Σ root inclusive');
        closeTo(
          rootSum,
          Object.values(oracle.totals.sum_over_roots_inclusive ?? {})[0]!,
          'Σ root inclusive against Hatchet',
        );
        // What `hpc-lens inspect --json` prints.
        const report = JSON.parse(JSON.stringify(inspectReport(profile))) as ReturnType<typeof inspectReport>;
        assert.equal(report.nodes.length, oracle.graph.n_nodes);
      });
    }
  },
);

describe(
  'HPCToolkit v4 database: profile.db and cct.db agree',
  { skip: skipUnlessShared('data', 'hpctoolkit-metadb') },
  () => {
    for (const name of ['cpi-4ranks', 'lammps-openmp', 'ping-pong-mpi-with-trace']) {
      it(name, () => {
        const dir = sharedPath('data', 'hpctoolkit-metadb', name);
        assertSameValues(readFileSync(join(dir, 'profile.db')), readFileSync(join(dir, 'cct.db')));
      });
    }
  },
);

/** Every (context, metric, profile) value of profile.db's application profiles is cct.db's, and back. */
function assertSameValues(profileBytes: Uint8Array, cctBytes: Uint8Array): void {
  const profiles = parseProfileDb('profile.db', profileBytes);
  const fromProfiles = new Map<string, number>();
  for (const p of profiles.profiles) {
    if (p.isSummary) continue;
    forEachProfileValue(profiles, p, (ctx, metric, value) => fromProfiles.set(`${ctx}/${metric}/${p.index}`, value));
  }
  const cct = parseCctDb('cct.db', cctBytes);
  let n = 0;
  for (let ctx = 0; ctx < cct.count; ctx++) {
    forEachContextValue(cct, ctx, (metric, prof, value) => {
      n++;
      assert.equal(
        fromProfiles.get(`${ctx}/${metric}/${prof}`),
        value,
        `context ${ctx}, metric ${metric}, profile ${prof}`,
      );
    });
  }
  assert.equal(n, fromProfiles.size, 'value count');
}

/**
 * A small database by hand: main → loop → line → sweep (lines, a call into libc through a
 * pseudo-file), a line with a context hpcprof leaves out of meta.db, a call through an instruction,
 * recursion (fib → fib), non-ASCII names, three threads of which one has no samples, and metrics
 * with all scopes, without lex_aware, with only a point scope and with no usable scope.
 */
const FIXTURE: FixtureDatabase = {
  title: 'stencil',
  metrics: [
    { name: 'CPUTIME (sec)' },
    { name: 'REALTIME (sec)', scopes: ['point', 'function', 'execution'] },
    { name: 'PAPI_TOT_CYC', scopes: ['point'] },
    { name: 'WEIRD', scopes: ['function'] },
  ],
  modules: ['/opt/app/bin/stencil', '/usr/lib64/libc.so.6'],
  files: [
    { path: 'src/home/u/stencil/main.c', copied: true },
    '/home/u/stencil/sweep.c',
    '[libc.so.6]',
    '/home/jörg/größe.c',
  ],
  functions: [
    { name: 'main', module: 0, file: 0, line: 10 },
    { name: 'sweep', module: 0, file: 1, line: 3 },
    { name: 'memcpy [libc.so.6]', module: 1, file: 2, line: 0 },
    { name: 'fib', module: 0, file: 1, line: 40 },
    { name: 'berechne_größe∑', module: 0, file: 3, line: 7 },
  ],
  entries: [
    {
      id: 1,
      kind: 1,
      children: [
        {
          id: 2,
          type: 'function',
          function: 0,
          self: { 0: 0.5 },
          children: [
            {
              id: 3,
              type: 'loop',
              file: 0,
              line: 12,
              children: [
                {
                  id: 4,
                  type: 'line',
                  file: 0,
                  line: 13,
                  self: { 0: 1, 1: [2, 2, 200] },
                  children: [
                    {
                      id: 5,
                      type: 'function',
                      function: 1,
                      children: [
                        { id: 6, type: 'line', file: 1, line: 5, self: { 0: [3, 3, 300], 1: 4 } },
                        {
                          id: 7,
                          type: 'line',
                          file: 1,
                          line: 6,
                          children: [
                            {
                              id: 8,
                              type: 'function',
                              function: 2,
                              children: [{ id: 9, type: 'line', file: 2, line: 0, self: { 0: 0.25 } }],
                            },
                          ],
                        },
                      ],
                    },
                  ],
                },
                {
                  id: 10,
                  type: 'line',
                  file: 0,
                  line: 14,
                  children: [{ id: 11, type: 'line', file: 0, line: 14, hidden: true, self: { 0: 0.125, 1: 0.5 } }],
                },
              ],
            },
            {
              id: 12,
              type: 'line',
              file: 0,
              line: 20,
              children: [
                {
                  id: 13,
                  type: 'instruction',
                  relation: 'call',
                  module: 1,
                  offset: 0x4f4b3,
                  children: [{ id: 19, type: 'function', function: 2, self: { 1: 0.75 } }],
                },
              ],
            },
            {
              id: 14,
              type: 'line',
              file: 0,
              line: 21,
              children: [
                {
                  id: 15,
                  type: 'function',
                  function: 3,
                  children: [
                    {
                      id: 16,
                      type: 'line',
                      file: 1,
                      line: 42,
                      self: { 0: 1 },
                      children: [
                        {
                          id: 17,
                          type: 'function',
                          function: 3,
                          children: [{ id: 18, type: 'line', file: 1, line: 42, self: { 0: 2 } }],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
            {
              id: 21,
              type: 'line',
              file: 0,
              line: 22,
              children: [{ id: 22, type: 'function', function: 4, relation: 'inlined', self: { 0: 0.0625 } }],
            },
          ],
        },
      ],
    },
    {
      id: 30,
      kind: 2,
      children: [{ id: 31, type: 'instruction', relation: 'call', module: 1, offset: 0x10, self: { 1: 1.5 } }],
    },
  ],
  profiles: [
    [
      ['NODE', 0],
      ['RANK', 1],
      ['THREAD', 0],
    ],
    [
      ['NODE', 0],
      ['RANK', 0],
      ['THREAD', 0],
      ['CORE', 3],
    ],
    [
      ['NODE', 0],
      ['RANK', 1],
      ['THREAD', 1],
    ],
  ],
  taxonomy: [
    'version: 0',
    'inputs:',
    '  - &cpu-i {metric: CPUTIME (sec), scope: execution, formula: $$, combine: sum}',
    '  - &cpu-e {metric: CPUTIME (sec), scope: function, formula: $$, combine: sum}',
    '  - &real-i {metric: REALTIME (sec), scope: execution}',
    'roots:',
    '  - name: CPU',
    '    description: Time spent within the CPU',
    '    variants: {Sum: {render: [number, percent], formula: first}}',
    '    children:',
    '      - name: CPU time',
    '        description: CPU time of the thread',
    '        variants: {Sum: {render: [number, percent], formula: {inclusive: *cpu-i, exclusive: *cpu-e}}}',
    '  - name: REALTIME (sec)',
    '    variants: {Sum: {render: [number], formula: {inclusive: {standard: *real-i}}}}',
  ].join('\n'),
};

describe('HPCToolkit v4 database reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-metadb-'));
  let counter = 0;
  const database = (db: FixtureDatabase = FIXTURE, options: { gzip?: boolean } = {}) => {
    const dir = join(tmp, `db${counter++}`);
    writeDatabase(dir, db, options);
    return dir;
  };
  const node = (p: Profile, path: string[]) => {
    for (let i = 0; i < p.tree.size; i++) if (JSON.stringify(p.tree.path(i)) === JSON.stringify(path)) return i;
    assert.fail(`no node ${path.join(' / ')}`);
  };
  const contextValues = (p: Profile, matrix: Float64Array, i: number) => [
    ...matrix.subarray(i * p.contextCount, (i + 1) * p.contextCount),
  ];

  it('reads the tree, contexts, metrics and metadata', async () => {
    const dir = database();
    const p = await readProfile(dir);
    assert.equal(p.format, 'hpctoolkit-metadb');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0 · thread 0', 'rank 1 · thread 0', 'rank 1 · thread 1'],
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.label, m.kind, m.unit]),
      [
        ['time', 'CPU time', 'both', 's'],
        ['REALTIME (sec)', 'REALTIME', 'both', 's'],
        ['PAPI_TOT_CYC', 'PAPI_TOT_CYC', 'exclusive', ''],
      ],
    );
    assert.equal(p.metrics[p.primaryMetric]!.name, 'time');
    assert.ok(
      p.warnings.some(w => /"WEIRD" has neither an execution nor a point scope/.test(w)),
      p.warnings.join('\n'),
    );
    assert.equal(p.metadata['title'], 'stencil');
    assert.equal(p.metadata['hpctoolkit.profiles'], 3);
    assert.deepEqual(
      (p.metadata['hpctoolkit.metricTaxonomy'] as { name: string }[]).map(t => t.name),
      ['CPU › CPU time', 'REALTIME (sec)'],
    );

    const t = p.tree;
    assert.deepEqual(
      t.roots().map(r => [t.name(r), t.kind(r)]),
      [
        ['main thread', NodeKind.Region],
        ['application thread', NodeKind.Region],
      ],
    );
    const main = node(p, ['main thread', 'main']);
    assert.deepEqual(
      [t.kind(main), t.file(main), t.line(main), t.module(main)],
      [NodeKind.Function, join(dir, 'src/home/u/stencil/main.c'), 10, '/opt/app/bin/stencil'],
    );
    const loop = node(p, ['main thread', 'main', 'Loop@main.c:12']);
    assert.deepEqual([t.kind(loop), t.line(loop)], [NodeKind.Loop, 12]);
    const sweep = node(p, ['main thread', 'main', 'Loop@main.c:12', 'main.c:13', 'sweep']);
    assert.deepEqual(
      [t.file(sweep), t.line(sweep), t.callLine(sweep)],
      ['/home/u/stencil/sweep.c', 3, 13],
      'a callee below a line is called from that line',
    );
    const memcpy = node(p, [
      'main thread',
      'main',
      'Loop@main.c:12',
      'main.c:13',
      'sweep',
      'sweep.c:6',
      'memcpy [libc.so.6]',
    ]);
    assert.deepEqual(
      [t.file(memcpy), t.module(memcpy), t.callLine(memcpy)],
      [null, '/usr/lib64/libc.so.6', 6],
      'pseudo-files of binary-only code are not files',
    );
    const pseudoLine = node(p, [
      'main thread',
      'main',
      'Loop@main.c:12',
      'main.c:13',
      'sweep',
      'sweep.c:6',
      'memcpy [libc.so.6]',
      '[libc.so.6]:0',
    ]);
    assert.equal(t.file(pseudoLine), null);
    const instruction = node(p, ['main thread', 'main', 'main.c:20', 'libc.so.6:0x4f4b3']);
    assert.deepEqual(
      [t.kind(instruction), t.module(instruction), t.callLine(instruction)],
      [NodeKind.Function, '/usr/lib64/libc.so.6', 20],
    );
    const inner = node(p, ['main thread', 'main', 'main.c:21', 'fib', 'sweep.c:42', 'fib']);
    assert.deepEqual(
      [t.callLine(inner), t.callLine(t.parent(t.parent(inner)))],
      [42, 21],
      'recursion: each frame knows its calling line',
    );
    const inlined = node(p, ['main thread', 'main', 'main.c:22', 'berechne_größe∑']);
    assert.deepEqual([t.file(inlined), t.callLine(inlined)], ['/home/jörg/größe.c', 22]);
  });

  it('keeps the true self cost as exclusive, including contexts meta.db leaves out', async () => {
    const p = await readProfile(database());
    const time = p.metricIndex('time'),
      real = p.metricIndex('REALTIME (sec)'),
      cycles = p.metricIndex('PAPI_TOT_CYC');
    // Contexts are rank 0 (profile 1), rank 1 thread 0 (profile 0), rank 1 thread 1 (profile 2, no samples).
    const line13 = node(p, ['main thread', 'main', 'Loop@main.c:12', 'main.c:13']);
    assert.deepEqual(contextValues(p, p.exclusive(time), line13), [2, 1, 0]);
    assert.deepEqual(contextValues(p, p.exclusive(cycles), line13), [200, 1, 0]);
    const line14 = node(p, ['main thread', 'main', 'Loop@main.c:12', 'main.c:14']);
    assert.deepEqual(
      contextValues(p, p.exclusive(time), line14),
      [0.5, 0.125, 0],
      "the left-out child's cost is the line's own",
    );
    const main = node(p, ['main thread', 'main']);
    assert.deepEqual(contextValues(p, p.exclusive(time), main), [0, 0.5, 0]);
    assert.deepEqual(contextValues(p, p.inclusive(time), main), [
      2 + 4 + 0.5 + 0.75,
      0.5 + 1 + 3 + 0.25 + 0.125 + 1 + 2 + 0.0625,
      0,
    ]);
    assert.deepEqual(contextValues(p, p.inclusive(real), main), [
      2 + 4 + 0.5 + 0.75,
      0.5 + 1 + 3 + 0.25 + 0.125 + 1 + 2 + 0.0625,
      0,
    ]);
    assert.equal(p.total(real), 7.25 + 7.9375 + 1.5);
    // A point-only metric cannot place the values of left-out contexts (2 of them here): they are dropped, with a warning.
    assert.equal(p.total(cycles), 200 + 4 + 0.75 + 1.5 + (0.5 + 1 + 300 + 0.25 + 1 + 2 + 0.0625));
    assert.ok(
      p.warnings.some(w => /^2 point-scope values belong to contexts meta.db does not list/.test(w)),
      p.warnings.join('\n'),
    );
    // Every view relies on this: exclusive values of a subtree add up to its inclusive value.
    for (const m of [time, real, cycles]) {
      const derived = inclusiveFromExclusive(p.tree.columns.parent, p.exclusive(m), p.contextCount);
      p.inclusive(m).forEach((v, k) => closeTo(derived[k]!, v, `metric ${m}, cell ${k}`, 1e-12));
    }
  });

  it("derives hpcprof's function scope (Hatchet's exclusive) exactly from the model", async () => {
    const dir = database();
    const p = await readProfile(dir);
    // The writer stores the function scope the way hpcprof does; the rule in functionScope() must reproduce it.
    const meta = parseMetaDb('meta.db', readFileSync(join(dir, 'meta.db')));
    const functionId = meta.metrics[0]!.scopes.find(s => s.scope.name === 'function')!.propMetricId;
    const db = parseProfileDb('profile.db', readFileSync(join(dir, 'profile.db')));
    const rows = p.contexts.map(c =>
      db.profiles.find(
        x =>
          !x.isSummary &&
          contextOfIdTuple(x.idTuple, meta.idNames).description.includes(`RANK ${c.rank} THREAD ${c.thread}`),
      )!,
    );
    const expected = new Float64Array(p.tree.size * p.contextCount);
    rows.forEach((profile, c) =>
      forEachProfileValue(db, profile, (ctx, metric, value) => {
        const r = meta.contexts.rowOf(ctx);
        if (metric === functionId && r >= 0) expected[r * p.contextCount + c] = value;
      }),
    );
    const got = functionScope(p, p.metricIndex('time'));
    got.forEach((v, k) => closeTo(v, expected[k]!, `cell ${k}`, 1e-12));
  });

  it('writes profile.db and cct.db with the same values (writer self-check)', () => {
    const encoded = encodeDatabase(FIXTURE);
    assertSameValues(encoded.profile, encoded.cct);
  });

  it('reads a database without samples and threads without samples', async () => {
    const empty: FixtureDatabase = {
      ...FIXTURE,
      entries: FIXTURE.entries.map(e => ({ ...e, children: stripSelf(e.children ?? []) })),
    };
    const p = await readProfile(database(empty));
    assert.equal(p.tree.size, 22);
    assert.equal(p.contextCount, 3);
    assert.equal(p.total(p.primaryMetric), 0);
    const none: FixtureDatabase = { ...FIXTURE, entries: [], profiles: [] };
    const q = await readProfile(database(none));
    assert.equal(q.tree.size, 0);
    assert.equal(q.total(q.primaryMetric), 0);
  });

  it('reads the metric taxonomy in both layouts and goes on without it when it is broken', async () => {
    assert.deepEqual(
      parseMetricTaxonomy(FIXTURE.taxonomy!).map(t => [t.metric, t.name, t.groups, t.inclusiveScope, t.exclusiveScope]),
      [
        ['CPUTIME (sec)', 'CPU time', ['CPU'], 'execution', 'function'],
        ['REALTIME (sec)', 'REALTIME (sec)', [], 'execution', null],
      ],
    );
    const p = await readProfile(database({ ...FIXTURE, taxonomy: 'roots: [unclosed' }));
    assert.equal(p.metrics[0]!.label, 'CPUTIME', 'the unit is shown apart, so never "(sec) (s)"');
    assert.ok(
      p.warnings.some(w => /default\.yaml could not be read/.test(w)),
      p.warnings.join('\n'),
    );
  });

  it('maps identifier tuples to ranks, threads and GPU streams', async () => {
    const gpu: FixtureDatabase = {
      ...FIXTURE,
      profiles: [
        [
          ['RANK', 0],
          ['THREAD', 0],
        ],
        [
          ['RANK', 0],
          ['GPUCONTEXT', 1],
          ['GPUSTREAM', 7],
        ],
        [
          ['RANK', 0],
          ['GPUCONTEXT', 1],
          ['GPUSTREAM', 7],
        ],
      ],
    };
    const p = await readProfile(database(gpu));
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0 · thread 0', 'rank 0 · GPU 1 · stream 7'],
    );
    assert.ok(p.warnings.some(w => /same rank\/thread\/GPU coordinates/.test(w)));
  });

  it('reads the same model from cct.db as from profile.db alone, bit for bit', async () => {
    // A random tree with contexts meta.db leaves out, metrics with and without execution scope, and
    // profiles out of rank order, two of them sharing coordinates.
    const random = seededRandom(7);
    let nextId = 2;
    const make = (depth: number): FixtureContext => {
      const self: Record<number, number[]> = {};
      for (let p = 0; p < 6; p++)
        if (random() < 0.6) self[p] = [0, 1, 2].map(() => (random() < 0.2 ? 0 : random() * 10 ** (random() * 6 - 3)));
      const children: FixtureContext[] = [];
      while (depth < 5 && nextId < 80 && random() < 0.6) children.push(make(depth + 1));
      return { id: nextId++, type: 'line', file: 0, line: nextId, self, hidden: random() < 0.05, children };
    };
    const randomDb: FixtureDatabase = {
      metrics: [
        { name: 'CPUTIME (sec)' },
        { name: 'cycles', scopes: ['point', 'execution'] },
        { name: 'PAPI_L1_DCM', scopes: ['point'] },
      ],
      files: ['/src/a.c'],
      entries: [{ id: 1, kind: 1, children: [make(0), make(0)] }],
      profiles: [3, 0, 5, 1, 1, 2].map(rank => [
        ['RANK', rank],
        ['THREAD', 0],
      ]),
    };
    for (const db of [FIXTURE, randomDb]) {
      const dir = database(db);
      const fromCct = await readProfile(dir);
      rmSync(join(dir, 'cct.db'));
      const fromProfiles = await readProfile(dir);
      assert.deepStrictEqual(fromCct.data, fromProfiles.data);
    }
  });

  it('reads gzip-compressed databases and the meta.db path itself', async () => {
    const plain = await readProfile(database());
    const dir = database(FIXTURE, { gzip: true });
    for (const path of [dir, join(dir, 'meta.db.gz')]) {
      const p = await readProfile(path);
      assert.equal(p.format, 'hpctoolkit-metadb');
      assert.deepEqual([...p.inclusiveTotals(0)], [...plain.inclusiveTotals(0)]);
    }
    const q = await readProfile(join(database(), 'meta.db'));
    assert.equal(q.tree.size, plain.tree.size);
  });

  it('sniffs by content', async () => {
    const dir = database();
    assert.equal(hpctoolkitMetaDbReader.sniff(await sampleFile(dir)), 0.9);
    assert.equal(hpctoolkitMetaDbReader.sniff(await sampleFile(join(dir, 'meta.db'))), 0.95);
    assert.equal(
      hpctoolkitMetaDbReader.sniff(await sampleFile(join(database(FIXTURE, { gzip: true }), 'meta.db.gz'))),
      0.95,
    );
    assert.equal(hpctoolkitMetaDbReader.sniff(await sampleFile(join(dir, 'profile.db'))), 0);
    const fake = join(tmp, 'fake');
    mkdirSync(fake);
    writeFileSync(join(fake, 'meta.db'), 'not a database');
    assert.equal(hpctoolkitMetaDbReader.sniff(await sampleFile(fake)), 0);
    assert.equal(hpctoolkitMetaDbReader.sniff(await sampleFile(tmp)), 0);
  });

  it('reports progress and can be cancelled', async () => {
    const dir = database();
    const seen: number[] = [];
    await hpctoolkitMetaDbReader.read(dir, { onProgress: f => seen.push(f) });
    assert.ok(
      seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]!)),
      `monotone in [0, 1]: ${seen.join(', ')}`,
    );
    assert.equal(seen.at(-1), 1);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      hpctoolkitMetaDbReader.read(dir, { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('names the file and the reason for bad input', async () => {
    const good = encodeDatabase(FIXTURE);
    const cases: [string, (d: { meta: Buffer; profile: Buffer }) => void, 'meta.db' | 'profile.db', RegExp][] = [
      ['bad magic', d => d.meta.write('HPCTOOLKIX', 0, 'ascii'), 'meta.db', /magic "HPCTOOLKIT" is missing/],
      ['wrong file type', d => d.meta.write('prof', 10, 'ascii'), 'meta.db', /header says "prof", expected "meta"/],
      [
        'unsupported version',
        d => {
          d.meta[14] = 5;
        },
        'meta.db',
        /unsupported format version 5\.0/,
      ],
      [
        'section past the end',
        d => d.meta.writeBigUInt64LE(BigInt(d.meta.length), 0x48),
        'meta.db',
        /Context Tree section .* extends past the end/,
      ],
      [
        'children pointer out of range',
        d => d.meta.writeBigUInt64LE(10n ** 6n, firstChild(d.meta) + 8),
        'meta.db',
        /children of context 2 .* lies outside the Context Tree section/,
      ],
      [
        'children pointer off the 8-byte alignment',
        d => d.meta.writeBigUInt64LE(d.meta.readBigUInt64LE(entryRecord(d.meta) + 8) + 4n, entryRecord(d.meta) + 8),
        'meta.db',
        /children of context 1 start at offset \d+, not 8-byte aligned/,
      ],
      [
        'function pointer off an entry',
        d => d.meta.writeBigUInt64LE(d.meta.readBigUInt64LE(firstChild(d.meta) + 0x20) + 4n, firstChild(d.meta) + 0x20),
        'meta.db',
        /context 2 refers to offset \d+, which is not one of the 5 entries of the Functions section/,
      ],
      [
        'duplicate context id',
        d => d.meta.writeUInt32LE(1, firstChild(d.meta) + 0x10),
        'meta.db',
        /context id 1 appears twice/,
      ],
      [
        'cyclic children',
        d => {
          const c = firstChild(d.meta);
          const entry = entryRecord(d.meta);
          d.meta.writeBigUInt64LE(d.meta.readBigUInt64LE(entry), c);
          d.meta.writeBigUInt64LE(BigInt(c), c + 8);
        },
        'meta.db',
        /child pointers overlap or form a cycle/,
      ],
      [
        'flex too short',
        d => {
          d.meta[firstChild(d.meta) + 0x14] = 7;
        },
        'meta.db',
        /flags 7 that need 5 flex words, but its record has 1/,
      ],
      [
        'values past the end',
        d => d.profile.writeBigUInt64LE(BigInt(d.profile.length), profileInfo(d.profile, 1) + 8),
        'profile.db',
        /the values of profile 1 .* lies outside the file/,
      ],
      [
        'bad context index',
        d => d.profile.writeBigUInt64LE(999n, Number(d.profile.readBigUInt64LE(profileInfo(d.profile, 1) + 0x18)) + 4),
        'profile.db',
        /profile 1: the context index entry 0 starts at value 999/,
      ],
      [
        'truncated profile.db',
        d => {
          d.profile = d.profile.subarray(0, 100);
        },
        'profile.db',
        /truncated or damaged: it does not end with the footer "_prof.db"/,
      ],
    ];
    for (const [name, mutate, file, reason] of cases) {
      const d = { meta: Buffer.from(good.meta), profile: Buffer.from(good.profile) };
      mutate(d);
      const dir = join(tmp, `bad${counter++}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'meta.db'), d.meta);
      writeFileSync(join(dir, 'profile.db'), d.profile);
      await assert.rejects(hpctoolkitMetaDbReader.read(dir), (e: Error) => {
        assert.ok(e instanceof ProfileReadError, `${name}: ${e.stack}`);
        assert.ok(e.message.startsWith(join(dir, file)), `${name}: the message names ${file}: ${e.message}`);
        assert.match(e.message, reason, name);
        return true;
      });
    }
    // An unknown lexical type (even the value we use internally for entry points) is kept, not fatal.
    const odd = { meta: Buffer.from(good.meta), profile: good.profile };
    odd.meta[firstChild(odd.meta) + 0x16] = 255;
    const oddDir = join(tmp, `odd${counter++}`);
    mkdirSync(oddDir);
    writeFileSync(join(oddDir, 'meta.db'), odd.meta);
    writeFileSync(join(oddDir, 'profile.db'), odd.profile);
    const oddProfile = await hpctoolkitMetaDbReader.read(oddDir);
    assert.equal(oddProfile.tree.name(1), '<context 2 of type 255>');

    const noProfile = join(tmp, `bad${counter++}`);
    mkdirSync(noProfile);
    writeFileSync(join(noProfile, 'meta.db'), good.meta);
    await assert.rejects(readProfile(noProfile), /profile\.db is missing/);
    await assert.rejects(hpctoolkitMetaDbReader.read(join(tmp, 'nowhere')), /no such file or directory/);
    const gz = database(FIXTURE, { gzip: true });
    writeFileSync(join(gz, 'profile.db.gz'), readFileSync(join(gz, 'profile.db.gz')).subarray(0, 60));
    await assert.rejects(
      readProfile(gz),
      (e: Error) => e instanceof ProfileReadError && /gzip data is truncated/.test(e.message),
    );
  });

  it('survives truncation and corruption: every mutation ends in a ProfileReadError or a complete profile', async () => {
    const good = encodeDatabase(FIXTURE);
    const random = seededRandom(20240229);
    const mutants: { meta: Buffer; profile: Buffer; cct: Buffer; what: string }[] = [];
    for (const file of ['meta', 'profile', 'cct'] as const) {
      const bytes = good[file];
      const footer = bytes.subarray(bytes.length - 8);
      for (let k = 0; k < 40; k++) {
        const cut = Math.floor((k / 40) * bytes.length);
        mutants.push({ ...good, [file]: bytes.subarray(0, cut), what: `${file}.db cut at ${cut}` });
        // A cut that keeps the footer gets past the footer check and exercises the pointer checks.
        mutants.push({
          ...good,
          [file]: Buffer.concat([bytes.subarray(0, cut), footer]),
          what: `${file}.db cut at ${cut} + footer`,
        });
      }
      for (let k = 0; k < 300; k++) {
        const b = Buffer.from(bytes);
        const flips = 1 + Math.floor(random() * 3);
        for (let f = 0; f < flips; f++) b[Math.floor(random() * (b.length - 8))] = Math.floor(random() * 256);
        mutants.push({ ...good, [file]: b, what: `${file}.db with ${flips} random bytes (case ${k})` });
      }
    }
    const dir = join(tmp, 'mutant');
    mkdirSync(dir);
    let failures = 0,
      successes = 0,
      slowest = 0;
    const started = performance.now();
    for (const m of mutants) {
      writeFileSync(join(dir, 'meta.db'), m.meta);
      writeFileSync(join(dir, 'profile.db'), m.profile);
      writeFileSync(join(dir, 'cct.db'), m.cct);
      const t = performance.now();
      try {
        const p = await hpctoolkitMetaDbReader.read(dir);
        successes++;
        // A harmless mutation must still give a whole, consistent profile.
        assert.ok(p.tree.size >= 0 && p.metrics.length > 0, m.what);
        p.inclusiveTotals(p.primaryMetric);
      } catch (e) {
        assert.ok(e instanceof ProfileReadError, `${m.what}: ${(e as Error).stack}`);
        failures++;
      }
      slowest = Math.max(slowest, performance.now() - t);
    }
    assert.ok(slowest < 2000, `slowest mutant took ${slowest.toFixed(0)} ms`);
    assert.ok(performance.now() - started < 60_000);
    assert.ok(failures > mutants.length / 3 && successes > 0, `${failures} rejected, ${successes} read`);
  });
});

function stripSelf(children: FixtureContext[]): FixtureContext[] {
  return children.map(c => ({ ...c, self: undefined, children: stripSelf(c.children ?? []) }));
}

/** Offsets in an encoded meta.db / profile.db, for targeted corruption. */
function entryRecord(meta: Buffer): number {
  return Number(meta.readBigUInt64LE(Number(meta.readBigUInt64LE(0x48))));
}
function firstChild(meta: Buffer): number {
  return Number(meta.readBigUInt64LE(entryRecord(meta) + 8));
}
function profileInfo(profile: Buffer, index: number): number {
  return Number(profile.readBigUInt64LE(Number(profile.readBigUInt64LE(0x18)))) + 48 * index;
}
