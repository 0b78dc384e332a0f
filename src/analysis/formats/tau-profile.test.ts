import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { checkAgainstOracle, closeTo, oracleCases, type Oracle } from '../../../test/support/hatchet-oracle';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { skipUnlessShared } from '../../../test/support/shared-data';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { sampleFile } from './file-sample';
import { chooseFormat, readProfile } from './index';
import { tauProfileReader } from './tau-profile';
import { expectReadError } from '../../../test/support/read-errors';
import { textSample } from '../../../test/support/file-samples';

/** One timer line: name, Calls, Subrs, Excl, Incl. */
type Timer = [name: string, calls: number, subrs: number, excl: number, incl: number];
/** One user event line: name, numevents, max, min, mean, sumsqr. */
type UserEvent = [name: string, count: number, max: number, min: number, mean: number, sumSquares: number];

/** The text of a TAU profile file, as TAU 2.2x writes it. */
function tauFile(
  timers: Timer[],
  o: { metric?: string; attributes?: [string, string][]; events?: UserEvent[] } = {},
): string {
  const metric = o.metric ?? 'TIME';
  const meta = [['Metric Name', metric], ...(o.attributes ?? [])]
    .map(([k, v]) => `<attribute><name>${k}</name><value>${v}</value></attribute>`)
    .join('');
  const lines = [
    `${timers.length} templated_functions_MULTI_${metric}`,
    `# Name Calls Subrs Excl Incl ProfileCalls # <metadata>${meta}</metadata>`,
  ];
  for (const [name, c, s, e, i] of timers)
    lines.push(
      `"${name}" ${c} ${s} ${e} ${i} 0 GROUP="${name.includes('=>') ? 'TAU_CALLPATH|TAU_USER' : 'TAU_USER'}" `,
    );
  lines.push('0 aggregates');
  if (o.events) {
    lines.push(`${o.events.length} userevents`, '# eventname numevents max min mean sumsqr');
    for (const [name, ...v] of o.events) lines.push(`"${name}" ${v.join(' ')} `);
  }
  return lines.join('\n') + '\n';
}

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-tau-'));
let dirs = 0;
/** Writes files (relative path → content) into a fresh directory and returns it. */
function profileDir(files: Record<string, string | Buffer>): string {
  const dir = join(tmp, `p${dirs++}`);
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, content);
  }
  return dir;
}

const ROOT = '.TAU application';
const MAIN = `main [{/src/app.c} {10,1}-{40,1}]`;
const SOLVE = 'void solve(int) C [{/src/solve.c} {5,1}-{30,1}]';
const CAFE = '計算_café() [{/src/ü.c} {3}]';

/**
 * A call-path profile of one thread, scaled by `k`: main calls solve (which calls itself once) and a
 * function with a non-ASCII name; the flat timers repeat the call-path totals, as TAU writes them.
 */
function callpathTimers(k: number): Timer[] {
  return [
    [ROOT, 1, 1, 10 * k, 100 * k],
    [`${MAIN}  `, 1, 2, 20 * k, 90 * k],
    [`${ROOT} => ${MAIN}  `, 1, 2, 20 * k, 90 * k],
    [SOLVE, 2, 1, 60 * k, 60 * k],
    [`${ROOT} => ${MAIN}   => ${SOLVE}`, 1, 1, 30 * k, 60 * k],
    [`${ROOT} => ${MAIN}   => ${SOLVE} => ${SOLVE}`, 1, 0, 30 * k, 30 * k],
    [CAFE, 1, 0, 10 * k, 10 * k],
    [`${ROOT} => ${MAIN}   => ${CAFE}`, 1, 0, 10 * k, 10 * k],
  ];
}
const idle = (timers: Timer[]): Timer[] => timers.map(([n]) => [n, 0, 0, 0, 0]);

function nodeByPath(p: Profile, ...path: string[]): number {
  for (let i = 0; i < p.tree.size; i++) if (JSON.stringify(p.tree.path(i)) === JSON.stringify(path)) return i;
  assert.fail(
    `no node ${path.join(' / ')}; have ${[...Array(p.tree.size).keys()].map(i => p.tree.path(i).join(' / ')).join('; ')}`,
  );
}

const metric = (p: Profile, name: string) => {
  const m = p.metricIndex(name);
  assert.ok(m >= 0, `metric ${name} missing; have ${p.metrics.map(x => x.name).join(', ')}`);
  return m;
};

/**
 * Hatchet's TAU columns from our model: `time`/`time (inc)` are TAU's exclusive/inclusive TIME (ours
 * are subtree sums, equal wherever TAU is consistent: caveat 20); Calls and Subrs are extra columns
 * that the oracle sums in `other_numeric_sums` (checked separately).
 */
function tauColumnValues(profile: Profile, column: string): Float64Array | null {
  const m = profile.metricIndex('time');
  if (column === 'time') return profile.exclusiveTotals(m);
  if (column === 'time (inc)') return profile.inclusiveTotals(m);
  return null;
}

/** The timer lines of a TAU file, parsed here independently of the reader. */
function timerLinesOf(path: string): { name: string; calls: number; subrs: number; excl: number; incl: number }[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const n = Number(/^(\d+)/.exec(lines[0]!)![1]);
  return lines.slice(2, 2 + n).map(line => {
    const m = /^"(.*)"\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+\s+GROUP=/.exec(line)!;
    return { name: m[1]!, calls: Number(m[2]), subrs: Number(m[3]), excl: Number(m[4]), incl: Number(m[5]) };
  });
}

describe('TAU profile reader against Hatchet', { skip: skipUnlessShared('oracle', 'tau') }, () => {
  const cases = new Map(oracleCases('tau').map(c => [c.name, c]));
  const otherSums = (profile: Profile, oracle: Oracle, include: (i: number) => boolean) => {
    const calls = profile.exclusiveTotals(metric(profile, 'calls'));
    const subrs = profile.exclusiveTotals(metric(profile, 'subrs'));
    for (const n of oracle.nodes) {
      const i = nodeByPath(profile, ...n.path!);
      assert.ok(include(i));
      closeTo(calls[i]!, n.other_numeric_sums!['Calls']!, `${n.path!.join(' / ')} Calls`);
      closeTo(subrs[i]!, n.other_numeric_sums!['Subrs']!, `${n.path!.join(' / ')} Subrs`);
    }
  };

  it('cpi-mpi-4ranks-callpath.json: every node, metric, context and total', async () => {
    const { oracle, dataPath } = cases.get('cpi-mpi-4ranks-callpath.json')!;
    const profile = await tauProfileReader.read(dataPath);
    checkAgainstOracle(profile, oracle, {
      values: tauColumnValues,
      acrossRows: [
        ['time', 'time', 'exclusive'],
        ['time (inc)', 'time', 'inclusive'],
      ],
    });
    otherSums(profile, oracle, () => true);
    assert.deepEqual(
      profile.contexts.map(c => c.label),
      ['rank 0', 'rank 1', 'rank 2', 'rank 3'],
    );
    assert.deepEqual(profile.warnings, []);
  });

  it('matmult-source-locations.json: the root as Hatchet has it, and the 11 timers Hatchet drops', async () => {
    const { oracle, dataPath } = cases.get('matmult-source-locations.json')!;
    const profile = await tauProfileReader.read(dataPath);
    // We deliberately differ (caveat 19): Hatchet builds nodes only from call-path timers, so a
    // profile written without TAU_CALLPATH gives it the root alone and drops the other 11 timers with
    // their source locations. We keep them, nested as their inclusive times and Subrs counts prove.
    // The root must still be Hatchet's, node for node and value for value.
    const root = nodeByPath(profile, '.TAU application');
    checkAgainstOracle(profile, oracle, { values: tauColumnValues, includeNode: (_, i) => i === root });
    otherSums(profile, oracle, i => i === root);

    // The other nodes carry the file's values: TAU's exclusive and inclusive time, Calls and Subrs.
    const timers = timerLinesOf(join(dataPath, 'profile.0.0.0'));
    assert.equal(profile.tree.size, timers.length);
    const time = metric(profile, 'time');
    const [excl, incl] = [profile.exclusiveTotals(time), profile.inclusiveTotals(time)];
    const [calls, subrs] = [
      profile.exclusiveTotals(metric(profile, 'calls')),
      profile.exclusiveTotals(metric(profile, 'subrs')),
    ];
    for (const t of timers) {
      const loc = /^(.*?)\s*\[\{(.*)\} \{(\d+),\d+\}\]$/.exec(t.name);
      const name = (loc ? loc[1]! : t.name).trim();
      const matches = [...Array(profile.tree.size).keys()].filter(i => profile.tree.name(i) === name);
      assert.equal(matches.length, 1, name);
      const i = matches[0]!;
      assert.deepEqual([excl[i], incl[i], calls[i], subrs[i]], [t.excl, t.incl, t.calls, t.subrs], name);
      assert.deepEqual(
        [profile.tree.file(i), profile.tree.line(i)],
        loc ? [loc[2], Number(loc[3])] : [null, null],
        name,
      );
      // The nesting is the one the numbers prove: the children's Calls add up to the node's Subrs.
      const childCalls = [...profile.tree.children(i)].reduce((s, c) => s + calls[c]!, 0);
      assert.equal(childCalls, t.subrs, `${name}: children's calls`);
    }
    nodeByPath(profile, '.TAU application', 'main', 'do_work', 'compute');
    assert.match(profile.warnings.join('\n'), /inferred from the timers' inclusive times and Subrs counts/);
  });

  it('reads every shared dataset through readProfile, from the directory or one of its files', async () => {
    for (const { dataPath } of cases.values()) {
      const fromDir = await readProfile(dataPath);
      const fromFile = await readProfile(join(dataPath, 'profile.0.0.0'));
      assert.equal(fromDir.format, 'tau-profile');
      assert.equal(fromFile.tree.size, fromDir.tree.size);
      assert.equal(fromFile.contextCount, fromDir.contextCount);
    }
  });
});

describe('TAU profile reader', () => {
  it('builds the tree from call paths, without counting the flat timers again', async () => {
    const dir = profileDir({
      'profile.0.0.0': tauFile(callpathTimers(1), {
        attributes: [
          ['Hostname', 'n0'],
          ['TAU_CALLPATH', 'on'],
        ],
      }),
      'profile.0.0.1': tauFile(idle(callpathTimers(1)), {
        attributes: [
          ['Hostname', 'n0'],
          ['TAU_CALLPATH', 'on'],
        ],
      }),
      'profile.1.0.0': tauFile(callpathTimers(2), {
        attributes: [
          ['Hostname', 'n1'],
          ['TAU_CALLPATH', 'on'],
        ],
      }),
      'profile.1.0.1': tauFile([[ROOT, 1, 0, 5, 5], ...idle(callpathTimers(1).slice(1))], {
        attributes: [
          ['Hostname', 'n1'],
          ['TAU_CALLPATH', 'on'],
        ],
      }),
    });
    const p = await readProfile(dir);
    assert.equal(p.format, 'tau-profile');
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['rank 0 · thread 0', 'rank 0 · thread 1', 'rank 1 · thread 0', 'rank 1 · thread 1'],
    );
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit, m.kind]),
      [
        ['time', 'µs', 'exclusive'],
        ['calls', 'count', 'exclusive'],
        ['subrs', 'count', 'exclusive'],
      ],
    );
    assert.equal(p.tree.size, 5);
    const time = metric(p, 'time');
    const root = nodeByPath(p, ROOT);
    const main = nodeByPath(p, ROOT, 'main');
    const solve = nodeByPath(p, ROOT, 'main', 'void solve(int)');
    const recursion = nodeByPath(p, ROOT, 'main', 'void solve(int)', 'void solve(int)');
    const cafe = nodeByPath(p, ROOT, 'main', '計算_café()');
    const ex = p.exclusiveTotals(time),
      inc = p.inclusiveTotals(time);
    assert.deepEqual(
      [root, main, solve, recursion, cafe].map(i => ex[i]),
      [10 * 3 + 5, 20 * 3, 30 * 3, 30 * 3, 10 * 3],
    );
    assert.deepEqual(
      [root, main, solve, recursion, cafe].map(i => inc[i]),
      [100 * 3 + 5, 90 * 3, 60 * 3, 30 * 3, 10 * 3],
    );
    assert.equal(p.total(time), 305);
    // The thread that ran nothing has a context and no values.
    assert.equal(p.value(p.inclusive(time), root, 1), 0);
    assert.equal(p.value(p.inclusive(time), root, 3), 5);
    assert.deepEqual([p.tree.file(main), p.tree.line(main), p.tree.kind(main)], ['/src/app.c', 10, NodeKind.Function]);
    assert.deepEqual([p.tree.file(cafe), p.tree.line(cafe)], ['/src/ü.c', 3]);
    const calls = p.exclusiveTotals(metric(p, 'calls'));
    assert.deepEqual(
      [root, main, solve, recursion, cafe].map(i => calls[i]),
      [3, 2, 2, 2, 2],
    );
    assert.equal(p.exclusiveTotals(metric(p, 'subrs'))[main], 4);
    assert.equal(p.metadata['TAU_CALLPATH'], 'on');
    assert.deepEqual(p.metadata['Hostname'], {
      'rank 0 · thread 0': 'n0',
      'rank 0 · thread 1': 'n0',
      'rank 1 · thread 0': 'n1',
      'rank 1 · thread 1': 'n1',
    });
    assert.equal(p.metadata['Metric Name'], undefined);
    assert.deepEqual(p.warnings, []);
  });

  it('infers the nesting of a profile without call paths, or shows it flat when no nesting fits', async () => {
    const nested: Timer[] = [
      [ROOT, 1, 1, 5, 100],
      [MAIN, 1, 3, 10, 95],
      ['MPI_Init()  ', 1, 0, 20, 20],
      [SOLVE, 2, 0, 65, 65],
    ];
    const p = await readProfile(profileDir({ 'profile.0.0.0': tauFile(nested) }));
    const solve = nodeByPath(p, ROOT, 'main', 'void solve(int)');
    assert.deepEqual([p.tree.file(solve), p.tree.line(solve)], ['/src/solve.c', 5]);
    assert.equal(p.inclusiveTotals(0)[nodeByPath(p, ROOT, 'main')], 95);
    assert.match(p.warnings.join(), /inferred/);

    // solve is called by main and by MPI_Init: no single parent explains the numbers.
    const ambiguous: Timer[] = [
      [ROOT, 1, 1, 5, 90],
      [MAIN, 1, 2, 10, 85],
      ['MPI_Init()', 1, 1, 10, 35],
      [SOLVE, 2, 0, 65, 65],
    ];
    const f = await readProfile(profileDir({ 'profile.0.0.0': tauFile(ambiguous) }));
    assert.equal(f.tree.size, 4);
    for (const name of ['main', 'MPI_Init()', 'void solve(int)']) nodeByPath(f, ROOT, name);
    assert.deepEqual([...f.exclusiveTotals(0)], [5, 10, 10, 65]);
    assert.equal(f.total(0), 90);
    assert.match(f.warnings.join(), /shown flat under the top-level timer/);
  });

  it('takes sampled time out of the instrumented timer it re-measures', async () => {
    const ctx = `${ROOT} => ${MAIN} => [CONTEXT] main`;
    const timers: Timer[] = [
      [ROOT, 1, 1, 10, 100],
      [MAIN, 1, 0, 90, 90],
      [`${ROOT} => ${MAIN}`, 1, 0, 90, 90],
      ['[CONTEXT] main', 8, 0, 0, 80],
      [ctx, 8, 0, 0, 80],
      ['[SAMPLE] kernel [{/src/k.c} {42}]', 6, 0, 60, 60],
      [`${ctx} => [UNWIND] /src/app.c.20 [@] kernel [{/src/k.c} {30}]`, 6, 0, 0, 60],
      [
        `${ctx} => [UNWIND] /src/app.c.20 [@] kernel [{/src/k.c} {30}] => [SAMPLE] kernel [{/src/k.c} {42}]`,
        6,
        0,
        60,
        60,
      ],
      [`${ctx} => [SAMPLE] main [{/src/app.c} {12}]`, 2, 0, 20, 20],
    ];
    const p = await readProfile(profileDir({ 'profile.0.0.0': tauFile(timers) }));
    const main = nodeByPath(p, ROOT, 'main');
    const sample = nodeByPath(p, ROOT, 'main', '[CONTEXT] main', '[UNWIND] kernel', '[SAMPLE] kernel');
    assert.equal(p.exclusiveTotals(0)[main], 10);
    assert.equal(p.inclusiveTotals(0)[main], 90);
    assert.equal(p.total(0), 100);
    assert.deepEqual(
      [p.tree.kind(sample), p.tree.file(sample), p.tree.line(sample)],
      [NodeKind.Statement, '/src/k.c', 42],
    );
    assert.equal(p.tree.kind(nodeByPath(p, ROOT, 'main', '[CONTEXT] main')), NodeKind.Region);

    // Without call paths the samples cannot be placed; they are left out, not counted twice.
    const flat = await readProfile(profileDir({ 'profile.0.0.0': tauFile(timers.filter(t => !t[0].includes('=>'))) }));
    assert.equal(flat.total(0), 100);
    assert.match(flat.warnings.join(), /event-based sampling .* left out/);
  });

  it('turns user events at call paths into per-node metrics and the others into metadata', async () => {
    const send = `${ROOT} => ${MAIN}`;
    const events: UserEvent[] = [
      ['Message size sent : .TAU application => main [{/src/app.c} {10,1}-{40,1}]', 4, 100, 10, 40, 8000],
      ['Message size sent', 4, 100, 10, 40, 8000],
      ['Heap memory (KB)', 0, 0, 0, 0, 0],
      ['Message size sent : nowhere', 1, 2, 2, 2, 4],
    ];
    const dir = profileDir({
      'profile.0.0.0': tauFile(
        [
          [ROOT, 1, 1, 10, 100],
          [MAIN, 1, 0, 90, 90],
          [send, 1, 0, 90, 90],
        ],
        { events },
      ),
      'profile.1.0.0': tauFile(
        [
          [ROOT, 1, 1, 10, 100],
          [MAIN, 1, 0, 90, 90],
          [send, 1, 0, 90, 90],
        ],
        { events: [['Message size sent', 2, 50, 30, 40, 3400]] },
      ),
    });
    const p = await readProfile(dir);
    const main = nodeByPath(p, ROOT, 'main');
    assert.equal(p.exclusiveTotals(metric(p, 'Message size sent (count)'))[main], 4);
    assert.equal(p.exclusiveTotals(metric(p, 'Message size sent (total)'))[main], 160);
    assert.deepEqual(p.metadata['TAU user events'], {
      'Message size sent': { events: 6, sum: 240, mean: 40, min: 10, max: 100 },
      'Message size sent : nowhere': { events: 1, sum: 2, mean: 2, min: 2, max: 2 },
    });
  });

  it('reads MULTI__ metric directories, from the directory or any file in it', async () => {
    const cycles = (k: number): Timer[] => callpathTimers(k).map(([n, c, s, e, i]) => [n, c, s, e * 1000, i * 1000]);
    const dir = profileDir({
      'MULTI__TIME/profile.0.0.0': tauFile(callpathTimers(1)),
      'MULTI__TIME/profile.1.0.0': tauFile(callpathTimers(2)),
      'MULTI__PAPI_TOT_CYC/profile.0.0.0': tauFile(cycles(1).reverse(), { metric: 'PAPI_TOT_CYC' }),
      'MULTI__PAPI_TOT_CYC/profile.1.0.0': tauFile(cycles(2), { metric: 'PAPI_TOT_CYC' }),
    });
    for (const path of [dir, join(dir, 'MULTI__PAPI_TOT_CYC', 'profile.1.0.0')]) {
      const p = await readProfile(path);
      assert.deepEqual(
        p.metrics.map(m => [m.name, m.unit]),
        [
          ['PAPI_TOT_CYC', 'count'],
          ['time', 'µs'],
          ['calls', 'count'],
          ['subrs', 'count'],
        ],
      );
      assert.equal(p.metrics[p.primaryMetric]!.name, 'time');
      assert.equal(p.total(metric(p, 'time')), 300);
      assert.equal(p.total(metric(p, 'PAPI_TOT_CYC')), 300_000);
      const solve = nodeByPath(p, ROOT, 'main', 'void solve(int)');
      assert.equal(p.exclusiveTotals(metric(p, 'PAPI_TOT_CYC'))[solve], 90_000);
      assert.deepEqual(
        p.contexts.map(c => c.label),
        ['rank 0', 'rank 1'],
      );
    }
  });

  it('reads gzip-compressed profile files, sniffed by content', async () => {
    const dir = profileDir({
      'profile.0.0.0.gz': gzipSync(tauFile(callpathTimers(1))),
      'profile.1.0.0': gzipSync(tauFile(callpathTimers(2))),
    });
    const sample = await sampleFile(join(dir, 'profile.1.0.0'));
    assert.equal(chooseFormat(sample)?.id, tauProfileReader.id);
    const p = await readProfile(join(dir, 'profile.1.0.0'));
    assert.equal(p.contextCount, 2);
    assert.equal(p.total(0), 300);
  });

  it('reads an empty profile, a renamed lone file and names with quotes', async () => {
    const empty = await readProfile(profileDir({ 'profile.0.0.0': tauFile([]) }));
    assert.equal(empty.tree.size, 0);
    assert.equal(empty.total(0), 0);

    const dir = profileDir({
      'run-42.txt': tauFile([
        [ROOT, 1, 1, 1, 3],
        ['say "hi" [{q.c} {7}]', 1, 0, 2, 2],
      ]),
    });
    const p = await readProfile(join(dir, 'run-42.txt'));
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['process'],
    );
    const hi = nodeByPath(p, ROOT, 'say "hi"');
    assert.deepEqual([p.tree.file(hi), p.tree.line(hi), p.exclusiveTotals(0)[hi]], ['q.c', 7, 2]);
  });

  it('warns about call paths cut by TAU_CALLPATH_DEPTH and missing ranks', async () => {
    const timers: Timer[] = [
      [ROOT, 1, 1, 10, 100],
      [`${ROOT} => main`, 1, 1, 20, 90],
      ['main => solve', 1, 1, 30, 70],
      ['solve => leaf', 1, 0, 40, 40],
    ];
    const dir = profileDir({
      'profile.0.0.0': tauFile(timers, { attributes: [['TAU_CALLPATH_DEPTH', '2']] }),
      'profile.2.0.0': tauFile(timers, { attributes: [['TAU_CALLPATH_DEPTH', '2']] }),
    });
    const p = await readProfile(dir);
    assert.equal(p.total(0), 200, 'fragments keep every exclusive value once');
    assert.deepEqual(
      p.tree.roots().map(r => p.tree.name(r)),
      [ROOT, 'main', 'solve'],
    );
    assert.match(p.warnings.join('\n'), /4 call-path timers do not start at a top-level timer \(TAU_CALLPATH_DEPTH=2/);
    assert.match(p.warnings.join('\n'), /no profile files for rank 1 \(of 0–2\)/);
  });

  it('names the file and the reason for bad input', async () => {
    const good = tauFile(callpathTimers(1));
    const lines = good.split('\n');
    const cases: [string, Record<string, string>, RegExp][] = [
      ['not TAU', { 'profile.0.0.0': 'hello\n' }, /line 1: not a TAU profile/],
      ['no column line', { 'profile.0.0.0': lines[0] + '\n' }, /column line .* is missing/],
      ['truncated timers', { 'profile.0.0.0': lines.slice(0, 5).join('\n') }, /ends after 3 of the 8 timer lines/],
      [
        'no aggregates',
        { 'profile.0.0.0': lines.slice(0, 10).join('\n') + '\n' },
        /ends before the "<m> aggregates" line/,
      ],
      [
        'count too high',
        { 'profile.0.0.0': good.replace(/^8 /, '9 ') },
        /line 11: the header announces 9 timers but only 8/,
      ],
      ['count too low', { 'profile.0.0.0': good.replace(/^8 /, '7 ') }, /line 10: more timer lines than the 7/],
      [
        'bad number',
        { 'profile.0.0.0': good.replace('" 1 2 20 90', '" 1 2 2x0 90') },
        /line 4: bad number "2x0" in the values of timer/,
      ],
      [
        'too few values',
        { 'profile.0.0.0': good.replace('" 1 2 20 90 0', '" 1 2 20 90') },
        /line 4: timer ".*" has 4 values, expected 5/,
      ],
      [
        'no closing quote',
        {
          'profile.0.0.0': good
            .replace(`"${ROOT}" 1 1`, `"${ROOT} 1 1`)
            .replace(/ GROUP="TAU_USER" \n"main/, ' \n"main'),
        },
        /line 3: (the timer name has no closing quote|timer)/,
      ],
      [
        'truncated events',
        {
          'profile.0.0.0': tauFile(callpathTimers(1), {
            events: [
              ['a', 1, 1, 1, 1, 1],
              ['b', 1, 1, 1, 1, 1],
            ],
          })
            .split('\n')
            .slice(0, -2)
            .join('\n'),
        },
        /ends after 1 of the 2 user events/,
      ],
      ['trailing text', { 'profile.0.0.0': good + 'garbage\n' }, /expected "<k> userevents" or the end of the file/],
      [
        'mixed metrics in one directory',
        { 'profile.0.0.0': good, 'profile.1.0.0': tauFile(callpathTimers(1), { metric: 'PAPI_FP_OPS' }) },
        /profile\.1\.0\.0: measures PAPI_FP_OPS, but the other files measure TIME/,
      ],
      [
        'missing metric file',
        {
          'MULTI__TIME/profile.0.0.0': good,
          'MULTI__TIME/profile.1.0.0': good,
          'MULTI__PAPI_L1_DCM/profile.0.0.0': tauFile(callpathTimers(1), { metric: 'PAPI_L1_DCM' }),
        },
        /MULTI__PAPI_L1_DCM\/profile\.1\.0\.0: missing: MULTI__PAPI_L1_DCM has no profile\.1\.0\.0, but MULTI__TIME has one/,
      ],
      [
        'metric files of other runs',
        {
          'MULTI__TIME/profile.0.0.0': good,
          'MULTI__PAPI_L1_DCM/profile.0.0.0': tauFile(callpathTimers(1).slice(0, 4), { metric: 'PAPI_L1_DCM' }),
        },
        /lists 8 timers but .* lists 4: the metric directories do not come from the same run/,
      ],
      [
        'renamed timer in one metric',
        {
          'MULTI__TIME/profile.0.0.0': tauFile(
            callpathTimers(1).map(([n, ...v]) => [n === CAFE ? 'other()' : n, ...v] as Timer),
          ),
          'MULTI__PAPI_L1_DCM/profile.0.0.0': tauFile(callpathTimers(1).reverse(), { metric: 'PAPI_L1_DCM' }),
        },
        /lists the timer "other\(\)", which .* does not/,
      ],
    ];
    for (const [what, files, reason] of cases) {
      const dir = profileDir(files);
      await expectReadError(tauProfileReader.read(dir), dir, reason, what);
    }
    await assert.rejects(tauProfileReader.read(profileDir({ 'notes.txt': 'x' })), /no TAU profile files/);
    await assert.rejects(tauProfileReader.read(join(tmp, 'nope')), /nope: no such file or directory/);
  });

  it('ends every mutation of a valid file in a read or a ProfileReadError, quickly', { timeout: 120_000 }, async () => {
    const valid = Buffer.from(
      tauFile(callpathTimers(3), {
        attributes: [['Hostname', 'node&lt;1&gt;']],
        events: [
          ['Message size : .TAU application => main [{/src/app.c} {10,1}-{40,1}]', 2, 8, 4, 6, 80],
          ['Bytes written', 1, 5, 5, 5, 25],
        ],
      }),
    );
    const endOfTimers = valid.indexOf('0 aggregates\n') + '0 aggregates'.length;
    const dir = profileDir({});
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'profile.0.0.0');
    let read = 0,
      rejected = 0;
    for (const [what, bytes] of mutationsOf(valid, { seed: 11 })) {
      writeFileSync(path, bytes);
      const outcome = await readOrReject(path, tauProfileReader, what, 2000);
      if (outcome === 'read') read++;
      else rejected++;
      if (/^truncated/.test(what) && bytes.length < endOfTimers)
        assert.equal(outcome, 'rejected', `${what} must be rejected`);
    }
    assert.ok(read > 0 && rejected > 0, `${read} read, ${rejected} rejected`);
  });

  it('can be cancelled', async () => {
    const dir = profileDir({ 'profile.0.0.0': tauFile(callpathTimers(1)) });
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(tauProfileReader.read(dir, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
  });

  it('reports progress in [0, 1]', async () => {
    const dir = profileDir({
      'profile.0.0.0': tauFile(callpathTimers(1)),
      'profile.1.0.0': tauFile(callpathTimers(2)),
    });
    const seen: number[] = [];
    await tauProfileReader.read(dir, { onProgress: f => seen.push(f) });
    assert.ok(seen.length >= 2 && seen.every(f => f >= 0 && f <= 1), JSON.stringify(seen));
    assert.equal(seen.at(-1), 1);
  });

  it('sniffs by content and by directory entries', () => {
    const file = (head: string) => textSample(head);
    const dir = (entries: string[]) => textSample('', { path: 'd', isDirectory: true, entries });
    assert.equal(tauProfileReader.sniff(file(tauFile(callpathTimers(1)))), 0.95);
    assert.equal(
      tauProfileReader.sniff(file('12 templated_functions\n# Name Calls Subrs Excl Incl ProfileCalls\n')),
      0.95,
    );
    assert.equal(tauProfileReader.sniff(file('12 templated functions\n')), 0);
    assert.equal(tauProfileReader.sniff(file('{"data": []}')), 0);
    assert.ok(tauProfileReader.sniff(dir(['profile.0.0.0', 'profile.1.0.0'])) > 0.5);
    assert.ok(tauProfileReader.sniff(dir(['MULTI__TIME', 'MULTI__PAPI_TOT_CYC'])) > 0.5);
    assert.equal(tauProfileReader.sniff(dir(['experiment.xml', 'profile.txt'])), 0);
  });
});
