import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { superGraph } from '../graph/super-graph';
import { rankValues } from './call-site-boxes';
import type { Side } from './ensemble';
import { EnsembleProfile } from './ensemble-profile';
import type { BinRule } from './node-statistics';
import { distributionHistogram, runtimeDistribution } from './runtime-distribution';
import { callSiteRunValues, supernodeCallSites, supernodeScope } from './supernode-scope';
import { runsFromOutlines } from './testing/outline-runs';

/** `lib` (work + tail) in an 8-rank and a 512-rank run; missing in the 1-rank run between them. */
const many = Array.from({ length: 512 }, (_, r) => 20 + (r % 7)).join(' ');
const RUNS = {
  small: `main @app = ${'1 '.repeat(8)}\n  work @lib = 10 11 12 13 14 15 16 17\n    tail @lib = 1 1 1 1 1 1 1 1`,
  none: 'main @app = 5',
  big: `main @app = ${'1 '.repeat(512)}\n  work @lib = ${many}`,
};

function distribution(o: { runs?: number[] | null; target?: number | null; side?: Side; bins?: BinRule } = {}) {
  const ep = new EnsembleProfile(runsFromOutlines(RUNS, { small: 8, big: 512 }), { path: '/test' });
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  const scope = supernodeScope(
    ep.ensemble,
    graph,
    graph.nodes.findIndex(n => n.id === 'lib'),
    o.runs ?? null,
    o.target ?? null,
    o.side ?? 'inclusive',
  );
  const sites = supernodeCallSites(scope);
  const t = scope.target >= 0 ? Int32Array.of(scope.target) : null;
  return runtimeDistribution(
    scope,
    callSiteRunValues(scope, sites),
    t && callSiteRunValues(scope, sites, t),
    rankValues(scope, sites, scope.runs),
    t && rankValues(scope, sites, t),
    o.bins ?? 20,
  );
}

const total = (a: number[] | null) => (a ?? []).reduce((x, y) => x + y, 0);

describe('runtime distribution', () => {
  it('counts call sites, present runs and their ranks (8 and 512), never a missing run', () => {
    const d = distribution();
    assert.equal(total(d.callsite.counts), 2);
    assert.equal(total(d.run.counts), 2);
    assert.equal(total(d.rank.counts), 520);
    assert.deepEqual([d.callsite.unit, d.run.unit, d.rank.unit], ['call sites', 'runs', 'ranks']);
    assert.equal(d.run.targetCounts, null);
    for (const h of [d.callsite, d.run, d.rank]) assert.equal(h.edges.length, h.counts.length + 1);
    // Supernode inclusive per rank: small 11…18, big 20…26; a missing run counted as 0 would pull the range down to 0.
    assert.deepEqual([d.rank.edges[0], d.rank.edges[20]], [11, 26]);
    // Per run: small mean 14.5, big mean of 20 + (r mod 7).
    const bigMean = Array.from({ length: 512 }, (_, r) => 20 + (r % 7)).reduce((a, b) => a + b) / 512;
    assert.deepEqual([d.run.edges[0], d.run.edges[20]], [14.5, bigMean]);
    assert.deepEqual([d.run.counts[0], d.run.counts[19]], [1, 1]);
    // Per call site: work's mean over its two runs; tail exists in one run.
    assert.deepEqual([d.callsite.edges[0], d.callsite.edges[20]], [1, (14.5 + bigMean) / 2]);
  });

  it('exclusive side sums every member per rank', () => {
    const d = distribution({ side: 'exclusive' });
    // small ranks: work 10…17 and tail 1 → 11…18, as the inclusive side here.
    assert.equal(total(d.rank.counts), 520);
    assert.deepEqual([d.rank.edges[0], d.rank.edges[20]], [11, 26]);
    assert.deepEqual(
      [d.callsite.edges[0], d.callsite.edges[20]],
      [1, (13.5 + Array.from({ length: 512 }, (_, r) => 20 + (r % 7)).reduce((a, b) => a + b) / 512) / 2],
    );
  });

  it('target counts on the same edges: its ranks, one run, its call sites; zero when the target lacks the supernode', () => {
    const big = distribution({ target: 2 });
    assert.deepEqual(
      [total(big.rank.targetCounts), total(big.run.targetCounts), total(big.callsite.targetCounts)],
      [512, 1, 1],
    );
    assert.equal(big.run.targetCounts![19], 1);
    const none = distribution({ target: 1 });
    assert.deepEqual(
      [total(none.rank.targetCounts), total(none.run.targetCounts), total(none.callsite.targetCounts)],
      [0, 0, 0],
    );
    assert.equal(total(none.rank.counts), 520);
  });

  it('a target outside the selected runs widens the range to hold it', () => {
    const d = distribution({ runs: [0], target: 2 });
    assert.deepEqual([total(d.rank.counts), total(d.rank.targetCounts)], [8, 512]);
    assert.deepEqual([d.rank.edges[0], d.rank.edges[20]], [11, 26]);
  });

  it('auto bins follow Freedman–Diaconis and nothing selected gives empty counts', () => {
    const d = distribution({ bins: 'auto' });
    assert.ok(d.rank.counts.length > 1 && d.rank.counts.length <= 100);
    assert.equal(total(d.rank.counts), 520);
    const empty = distribution({ runs: [1] });
    assert.deepEqual([total(empty.rank.counts), total(empty.run.counts), total(empty.callsite.counts)], [0, 0, 0]);
    assert.throws(() => distributionHistogram(new Float64Array(3), null, 0, 'runs'), /positive integer/);
  });
});
