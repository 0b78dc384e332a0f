import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { superGraph } from '../graph/super-graph';
import { rankValues } from './call-site-boxes';
import type { Side } from './ensemble';
import { EnsembleProfile } from './ensemble-profile';
import { runHistogramCounts } from './node-statistics';
import { supernodeHierarchy } from './supernode-hierarchy';
import {
  callSiteRunValues,
  callSiteRunValuesWithGradients,
  nodeRunValues,
  supernodeCallSites,
  supernodeScope,
  type CallSites,
  type SupernodeScope,
} from './supernode-scope';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';

/*
 * The linked views' detail is built by fused passes (one pass over members × runs for the call
 * sites' run values and the hierarchy's gradients; rank values written in place). Each is checked
 * here against the plain computation it replaces, on a seeded ensemble with missing subtrees and
 * runs of 1–3 contexts: every value must be bit-identical (same additions in the same order).
 */

/** Call sites' run values, one call site × run at a time. */
function plainRunValues(scope: SupernodeScope, sites: CallSites) {
  const { ensemble, members, runs } = scope;
  const S = sites.names.length,
    K = runs.length;
  const inclusive = new Float64Array(S * K).fill(NaN),
    exclusive = new Float64Array(S * K).fill(NaN);
  const present = new Int32Array(S);
  for (let cs = 0; cs < S; cs++)
    for (let k = 0; k < K; k++) {
      const run = runs[k]!;
      let inc = 0,
        exc = 0,
        seen = false;
      for (const u of members) {
        const v = ensemble.value(u, run, 'inclusive');
        if (v !== v) continue;
        if (sites.inclusiveOf[u] === cs) inc += v;
        if (sites.exclusiveOf[u] === cs) exc += ensemble.value(u, run, 'exclusive');
        if (sites.presenceOf[u] === cs) seen = true;
      }
      if (!seen) continue;
      present[cs]!++;
      inclusive[cs * K + k] = inc;
      exclusive[cs * K + k] = exc;
    }
  return { inclusive, exclusive, present };
}

/** Rank values, run by run and node by node, each row read on its own. */
function plainRankValues(scope: SupernodeScope, sites: CallSites) {
  const { ensemble, runs, side, inSupernode, isEntry } = scope;
  const siteOf = side === 'inclusive' ? sites.inclusiveOf : sites.exclusiveOf;
  const callSites = sites.names.map(() => ({ values: [] as number[], runs: [] as number[], starts: [] as number[] }));
  const supernode: (number[] | null)[] = [];
  for (const run of runs) {
    if (!Array.from(scope.entries).some(u => ensemble.isPresent(u, run))) {
      supernode.push(null);
      continue;
    }
    const p = ensemble.profile(run);
    const m = p.metricIndex(ensemble.metric.name);
    const C = p.contextCount;
    const map = ensemble.unionNodes(run);
    const own = new Array<number>(C).fill(0);
    const sums = sites.names.map(() => new Array<number>(C).fill(0));
    const touched = new Set<number>();
    const row = new Float64Array(C);
    for (let i = 0; i < map.length; i++) {
      const u = map[i]!;
      if (!inSupernode[u]) continue;
      if (sites.presenceOf[u]! >= 0) touched.add(sites.presenceOf[u]!);
      p.contextRows(side, m, Int32Array.of(i), row);
      for (let c = 0; c < C; c++) {
        if (side === 'exclusive' || isEntry[u]) own[c]! += row[c]!;
        if (siteOf[u]! >= 0) sums[siteOf[u]!]![c]! += row[c]!;
      }
    }
    supernode.push(own);
    for (const cs of touched) {
      const out = callSites[cs]!;
      out.runs.push(run);
      out.starts.push(out.values.length);
      out.values.push(...sums[cs]!);
    }
  }
  return { callSites, supernode };
}

describe('fused passes of the ensemble detail', () => {
  const ep = new EnsembleProfile(
    generateSyntheticEnsemble({ runs: 36, nodes: 600, maxContexts: 3, missingSubtrees: 6, seed: 11 }).runs,
    { path: '/synthetic' },
  );
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  const selections: (number[] | null)[] = [null, [0, 3, 4, 9, 17, 30, 35]];
  const sides: Side[] = ['inclusive', 'exclusive'];

  it('call sites’ run values, gradients and rank values equal the plain computations, bit for bit', () => {
    let checkedSites = 0,
      checkedValues = 0;
    for (let s = 0; s < graph.nodes.length; s++)
      for (const runs of selections)
        for (const side of sides) {
          const scope = supernodeScope(ep.ensemble, graph, s, runs, null, side);
          const sites = supernodeCallSites(scope);
          const fused = callSiteRunValuesWithGradients(scope, sites, 7);
          const plain = plainRunValues(scope, sites);
          assert.deepEqual(fused.values, plain);
          assert.deepEqual(callSiteRunValues(scope, sites), plain);
          const g = fused.gradients;
          scope.members.forEach((u, at) => {
            assert.equal(g.position[u], at);
            const h = runHistogramCounts(nodeRunValues(ep.ensemble, u, side, scope.runs), 7);
            assert.deepEqual([g.min[at], g.max[at]], [h.min, h.max]);
            assert.deepEqual(g.counts.subarray(at * 7, at * 7 + 7), h.counts);
          });
          assert.deepEqual(
            supernodeHierarchy(scope, { bins: 7, gradients: g }),
            supernodeHierarchy(scope, { bins: 7 }),
          );
          const ranks = rankValues(scope, sites, scope.runs);
          const plainRanks = plainRankValues(scope, sites);
          ranks.callSites.forEach((r, cs) => {
            const want = plainRanks.callSites[cs]!;
            assert.deepEqual(Array.from(r.values), want.values, `${sites.names[cs]} (${side})`);
            assert.deepEqual(Array.from(r.runs), want.runs);
            assert.deepEqual(Array.from(r.starts), [...want.starts, want.values.length]);
            checkedValues += want.values.length;
          });
          assert.deepEqual(
            ranks.supernode.map(a => a && Array.from(a)),
            plainRanks.supernode,
          );
          checkedSites += sites.names.length;
        }
    // The ensemble is large enough to exercise the passes (many call sites, missing runs, several contexts).
    assert.ok(checkedSites > 100 && checkedValues > 10_000, `${checkedSites} call sites, ${checkedValues} rank values`);
  });

  it('gradients binned for another bin count are not used', () => {
    const scope = supernodeScope(ep.ensemble, graph, 0, null, null, 'inclusive');
    const sites = supernodeCallSites(scope);
    const g = callSiteRunValuesWithGradients(scope, sites, 5).gradients;
    assert.deepEqual(supernodeHierarchy(scope, { bins: 9, gradients: g }), supernodeHierarchy(scope, { bins: 9 }));
    assert.throws(
      () => callSiteRunValuesWithGradients(scope, sites, 0),
      /bin count must be a positive integer or "auto", got 0/,
    );
  });
});
