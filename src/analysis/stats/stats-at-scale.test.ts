import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callersCallees } from './callers-callees';
import { heaviestLeafPaths, rootHotPaths } from './hot-path';
import { functionImbalance, nodeImbalance } from './imbalance';
import { nodeDistribution, sortedBarSparkline } from './rank-distribution';
import { summarizeProfile, summaryToCsv, summaryToMarkdown } from './summary-export';
import { fourAryProfile } from './test-fixtures';
import { topFunctions, topLines } from './top-lists';

const N = 1_000_000,
  C = 4;

/** Runs `f`, records its wall time under `label`, returns its result. */
function timed<T>(times: Record<string, number>, label: string, f: () => T): T {
  const t0 = performance.now();
  const r = f();
  times[label] = Math.round(performance.now() - t0);
  return r;
}

describe('analyses on a 10⁶-node, 4-context profile', () => {
  it('give the known answers', t => {
    const times: Record<string, number> = {};
    const p = timed(times, 'generate', () => fourAryProfile(N, C));
    timed(times, 'derive inclusive', () => p.inclusiveTotals(0));
    const multiplesOf3 = Math.floor((N - 1) / 3) + 1;
    const total = N * C + multiplesOf3;
    assert.equal(p.total(0), total);

    const [path] = timed(times, 'rootHotPaths', () => rootHotPaths(p, 0));
    assert.deepEqual(
      path!.map(s => s.node),
      [0, 1, 5],
      'node 21 holds ~1/64 < 5 %',
    );
    const leaves = timed(times, 'heaviestLeafPaths(20)', () => heaviestLeafPaths(p, 0, 20));
    assert.deepEqual(
      leaves.slice(0, 3).map(l => l.at(-1)!.node),
      [250002, 250005, 250008],
      'first leaves costing 5',
    );
    assert.deepEqual(
      leaves[0]!.map(s => s.depth),
      [...leaves[0]!.keys()],
    );

    // Oracles: one plain loop per answer.
    const lineValue = new Float64Array(1001),
      fnExclusive = new Float64Array(100),
      inclusive = new Float64Array(N);
    for (let i = N - 1; i >= 0; i--) {
      const cost = C + (i % 3 === 0 ? 1 : 0);
      const leaf = 4 * i + 1 >= N;
      if (leaf) lineValue[(i % 1000) + 1]! += cost;
      fnExclusive[(leaf ? (i - 1) >> 2 : i) % 100]! += cost;
      inclusive[i]! += cost;
      if (i > 0) inclusive[(i - 1) >> 2]! += inclusive[i]!;
    }
    const lines = timed(times, 'topLines(20)', () => topLines(p, 0));
    assert.equal(lines.level, 'statement');
    assert.deepEqual(
      lines.entries.map(e => e.exclusive),
      lines.entries.map(e => lineValue[e.line]),
    );
    assert.equal(lines.entries[0]!.value, Math.max(...lineValue));
    const fns = timed(times, 'topFunctions(20)', () => topFunctions(p, 0));
    assert.deepEqual(
      fns.map(f => f.exclusive),
      fns.map(f => fnExclusive[Number(f.name.slice(1))]),
    );
    assert.equal(fns[0]!.exclusive, Math.max(...fnExclusive));
    timed(times, 'topFunctions(20, inclusive)', () => topFunctions(p, 0, { by: 'inclusive' }));

    const imbalance = timed(times, 'nodeImbalance', () => nodeImbalance(p, 0, { limit: Infinity }));
    assert.equal(
      imbalance.entries.length + imbalance.singleContext.length,
      inclusive.filter(v => v >= 0.01 * total).length,
    );
    assert.ok(imbalance.entries.every(e => e.maxContext === 0 && e.imbalance > 1));
    timed(times, 'functionImbalance', () => functionImbalance(p, 0));

    const f1 = timed(times, 'callersCallees(f1)', () => callersCallees(p, 0, 'f1'))!;
    assert.equal(f1.source, 'call-tree');
    assert.ok(f1.callers.length > 0 && f1.callees.length > 0);
    // f0 → f1 calls are inner nodes ≡ 1 (mod 100) under a parent ≡ 0; nested ones are inside outer ones.
    const isCall = (i: number) => i > 0 && i < N / 4 && i % 100 === 1 && ((i - 1) >> 2) % 100 === 0;
    let f0ToF1 = 0;
    for (let i = 0; i < N; i++) {
      if (!isCall(i)) continue;
      let nested = false;
      for (let a = (i - 1) >> 2; a > 0 && !nested; a = (a - 1) >> 2) nested = isCall(a);
      if (!nested) f0ToF1 += inclusive[i]!;
    }
    assert.equal(f1.callers.find(e => e.name === 'f0')!.value, f0ToF1);

    const d = timed(times, 'nodeDistribution + SVG', () => {
      const d = nodeDistribution(p, 0, 0);
      sortedBarSparkline(d.sorted);
      return d;
    });
    assert.deepEqual([...d.sorted], [N, N, N, N + multiplesOf3]);

    const summary = timed(times, 'summarizeProfile', () => summarizeProfile(p, 0));
    const md = timed(times, 'Markdown + CSV', () => summaryToMarkdown(summary) + summaryToCsv(summary));
    assert.ok(md.includes('## Load imbalance'));
    t.diagnostic(`ms: ${JSON.stringify(times)}`);
  });
});
