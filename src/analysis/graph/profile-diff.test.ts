import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { functionTotals } from '../model/aggregates';
import { profileFromOutline } from '../model/test-profiles';
import { deltaDirection, diffProfiles, formatDelta, mergeDiffLines, type ProfileDiff } from './profile-diff';

const fn = (d: ProfileDiff, name: string) => d.functions.find(f => f.name === name)!;
const pathOf = (d: ProfileDiff, i: number) => {
  const out: string[] = [];
  for (let n = i; n >= 0; n = d.nodes[n]!.parent) out.push(d.nodes[n]!.name);
  return out.reverse().join('/');
};
const node = (d: ProfileDiff, path: string) => {
  const i = d.nodes.findIndex((_, k) => pathOf(d, k) === path);
  assert.ok(i >= 0, `node ${path}`);
  return d.nodes[i]!;
};

const SAMPLE = join(__dirname, '../../../samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');

describe('profile diff', () => {
  it('matches nodes by calling context and reports added and removed ones', () => {
    const base = profileFromOutline(`
main a.c:1 = 1
  solve a.c:10
    a.c:12 a.c:12 = 30
    a.c:13 a.c:13 = 5
  io b.c:5 = 2`);
    const cmp = profileFromOutline(`
main /other/dir/a.c:1 = 1
  solve /other/dir/a.c:11
    /other/dir/a.c:12 /other/dir/a.c:12 = 40
    /other/dir/a.c:14 /other/dir/a.c:14 = 5
  plot c.c:3 = 4`);
    const d = diffProfiles(base, cmp);
    assert.equal(d.metric.name, 'time');
    assert.equal(d.baselineTotal, 38);
    assert.equal(d.comparisonTotal, 50);
    const solve = node(d, 'main/solve');
    assert.equal(solve.status, 'matched', 'functions match by name even when their line moved');
    assert.deepEqual(
      [solve.baselineInclusive, solve.comparisonInclusive, solve.baselineExclusive, solve.comparisonExclusive],
      [35, 45, 0, 0],
    );
    const hot = node(d, 'main/solve/a.c:12');
    assert.equal(hot.status, 'matched', 'statements match by file basename and line');
    assert.deepEqual([hot.baselineExclusive, hot.comparisonExclusive], [30, 40]);
    assert.equal(node(d, 'main/solve/a.c:13').status, 'removed');
    assert.equal(node(d, 'main/solve//other/dir/a.c:14').status, 'added');
    assert.equal(node(d, 'main/io').status, 'removed');
    assert.equal(node(d, 'main/plot').status, 'added');
    assert.deepEqual(
      d.nodes.map(n => n.parent),
      [-1, 0, 1, 1, 0, 1, 0],
      'parents precede children; baseline order, then added',
    );
    assert.deepEqual(
      [fn(d, 'io').status, fn(d, 'plot').status, fn(d, 'solve').status],
      ['removed', 'added', 'matched'],
    );
    assert.deepEqual([fn(d, 'plot').baselineInclusive, fn(d, 'plot').comparisonInclusive], [0, 4]);
    // Lines stay per recorded path; mergeDiffLines joins paths that resolve to the same file.
    assert.deepEqual(
      d.lines.get('a.c')!.map(l => [l.line, l.status, l.baselineExclusive, l.comparisonExclusive]),
      [
        [1, 'removed', 1, 0],
        [10, 'removed', 0, 0],
        [12, 'removed', 30, 0],
        [13, 'removed', 5, 0],
      ],
    );
    const merged = mergeDiffLines([d.lines.get('a.c')!, d.lines.get('/other/dir/a.c')!]);
    assert.deepEqual(
      merged.map(l => [l.line, l.status, l.baselineExclusive, l.comparisonExclusive]),
      [
        [1, 'matched', 1, 1],
        [10, 'removed', 0, 0],
        [11, 'added', 0, 0],
        [12, 'matched', 30, 40],
        [13, 'removed', 5, 0],
        [14, 'added', 0, 5],
      ],
    );
    assert.deepEqual(
      merged.find(l => l.line === 11)!.comparisonInclusive,
      45,
      "a line's inclusive value covers its subtree",
    );
  });

  it('folds same-key siblings, keeps recursion levels apart, and counts recursive functions once', () => {
    const base = profileFromOutline(`
main = 1
  fib = 1
    fib = 2
      fib = 3
  fib = 4`);
    const cmp = profileFromOutline(`
main = 1
  fib = 1
    fib = 1`);
    const d = diffProfiles(base, cmp);
    const top = node(d, 'main/fib');
    assert.deepEqual(
      [top.baselineNodes.length, top.baselineInclusive, top.baselineExclusive],
      [2, 10, 5],
      'the two fib siblings fold into one',
    );
    assert.deepEqual([top.comparisonInclusive, top.comparisonExclusive], [2, 1]);
    assert.equal(node(d, 'main/fib/fib').status, 'matched');
    assert.equal(node(d, 'main/fib/fib/fib').status, 'removed');
    const f = fn(d, 'fib');
    assert.deepEqual(
      [f.baselineInclusive, f.baselineExclusive, f.comparisonInclusive, f.comparisonExclusive],
      [10, 10, 2, 2],
      'recursion counted once',
    );
  });

  it('compares means over contexts when the runs have different context counts', () => {
    const base = profileFromOutline(
      `
main = 0 0
  work = 10 30`,
      2,
    );
    const cmp = profileFromOutline(
      `
main = 0 0 0 0
  work = 10 10 10 10`,
      4,
    );
    const d = diffProfiles(base, cmp);
    assert.deepEqual([d.baselineContexts, d.comparisonContexts], [2, 4]);
    const w = fn(d, 'work');
    assert.deepEqual([w.baselineInclusive, w.comparisonInclusive], [20, 10]);
    assert.deepEqual([d.baselineTotal, d.comparisonTotal], [20, 10]);
  });

  it('picks the metric by name and says which side lacks it', () => {
    const p = profileFromOutline('main = 1');
    assert.equal(diffProfiles(p, p, 'time').metric.name, 'time');
    assert.throws(() => diffProfiles(p, p, 'cycles'), /baseline profile has no metric "cycles"/);
  });

  it('is deterministic', () => {
    const base = profileFromOutline('main = 1\n  a = 2\n  b = 3');
    const cmp = profileFromOutline('main = 1\n  b = 3\n  c = 2');
    assert.deepEqual(diffProfiles(base, cmp), diffProfiles(base, cmp));
  });

  it('formats deltas and classifies their direction', () => {
    const s = (v: number) => `${Number(v.toPrecision(3))} s`;
    assert.equal(formatDelta(1.2, 2.04, s), '+0.84 s (+70%)');
    assert.equal(formatDelta(2, 1.5, s), '−0.5 s (−25%)');
    assert.equal(formatDelta(0, 1, s), '+1 s (new)');
    assert.equal(formatDelta(1, 1, s), '±0 s (±0.0%)');
    assert.equal(deltaDirection(1, 2, 0.5), 1);
    assert.equal(deltaDirection(2, 1, 0.5), -1);
    assert.equal(deltaDirection(1, 1.2, 0.5), 0);
  });

  it('finds exactly the slowed function in the sample against a copy with one function scaled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-diff-'));
    try {
      const json = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
        nodes: { label: string }[];
        columns: string[];
        data: number[][];
      };
      const fnCol = json.columns.indexOf('source.function#callpath.address');
      const timeCol = json.columns.indexOf('sum#time.duration');
      const slowed = new Set(json.nodes.flatMap((n, i) => (n.label === 'jacobi_sweep' ? [i] : [])));
      assert.ok(slowed.size > 0);
      for (const row of json.data) if (slowed.has(row[fnCol]!)) row[timeCol] = row[timeCol]! * 1.5;
      const copy = join(dir, 'slower.json');
      writeFileSync(copy, JSON.stringify(json));
      const [base, cmp] = [await readProfile(SAMPLE), await readProfile(copy)];
      const d = diffProfiles(base, cmp);
      const m = base.primaryMetric;
      const t = functionTotals(base, m);
      const C = base.contextCount;
      const j = fn(d, 'jacobi_sweep');
      const before = t.exclusive[t.names.indexOf('jacobi_sweep')]! / C;
      assert.ok(Math.abs(j.baselineExclusive - before) < 1e-9);
      assert.ok(Math.abs(j.comparisonExclusive - 1.5 * before) < 1e-9);
      assert.ok(
        d.nodes.every(n => n.status === 'matched'),
        'the same program: every node matches',
      );
      for (const f of d.functions) {
        const changed = Math.abs(f.comparisonExclusive - f.baselineExclusive) > 1e-12;
        assert.equal(changed, f.name === 'jacobi_sweep', `${f.name} changed exclusively: ${changed}`);
      }
      // Callers grow inclusively by the same amount.
      const rt = fn(d, 'run_timesteps');
      assert.ok(Math.abs(rt.comparisonInclusive - rt.baselineInclusive - 0.5 * before) < 1e-9);
      const stencil = [...d.lines].find(([f]) => f.endsWith('/stencil.c'))![1];
      assert.ok(
        stencil.some(l => l.comparisonExclusive > l.baselineExclusive),
        'jacobi_sweep lines grew',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
