import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import type { EnsembleDetailData } from '../../shared/ensemble-protocol';
import { superGraph } from '../graph/super-graph';
import { ensembleDetail } from './ensemble-detail';
import { EnsembleProfile } from './ensemble-profile';
import { loadEnsemble } from './ensemble-runs';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';
import { ensembleViewState } from './testing/view-state';

const sum = (a: readonly number[] | null) => (a ?? []).reduce((x, y) => x + y, 0);

/** Checks that hold for any supernode of any ensemble, against values recomputed from the ensemble itself. */
function checkDetail(
  ep: EnsembleProfile,
  d: EnsembleDetailData,
  members: Int32Array,
  runs: number[],
  target: number | null,
): void {
  const e = ep.ensemble;
  const present = (r: number) => members.some(u => e.isPresent(u, r));
  const presentRuns = runs.filter(present);
  assert.equal(sum(d.distribution.run.counts), presentRuns.length);
  assert.equal(
    sum(d.distribution.rank.counts),
    presentRuns.reduce((n, r) => n + e.profile(r).contextCount, 0),
  );
  if (target !== null) {
    assert.equal(sum(d.distribution.run.targetCounts), present(target) ? 1 : 0);
    assert.equal(sum(d.distribution.rank.targetCounts), present(target) ? e.profile(target).contextCount : 0);
  } else assert.equal(d.distribution.run.targetCounts, null);
  const h = d.hierarchy.nodes;
  h.forEach((n, i) => {
    assert.ok(n.parent < i, 'parents first');
    assert.ok(n.present >= 1 && n.present <= presentRuns.length);
    assert.equal(sum(n.gradient.counts), n.present);
    if (n.parent >= 0)
      assert.ok(
        h[n.parent]!.maxInclusive >= n.maxInclusive - 1e-9 * n.maxInclusive,
        `${n.name} under ${h[n.parent]!.name}`,
      );
    assert.equal(n.inTarget !== undefined, target !== null);
  });
  assert.ok(d.callSites.length <= 50);
  for (const b of d.callSites) {
    const s = b.ensemble;
    assert.ok(
      s.min <= s.whiskerLow &&
        s.whiskerLow <= s.q1 &&
        s.q1 <= s.median &&
        s.median <= s.q3 &&
        s.q3 <= s.whiskerHigh &&
        s.whiskerHigh <= s.max,
      b.name,
    );
    assert.ok(b.present >= 1 && s.outliers.length <= s.outlierCount);
    for (const o of s.outliers) assert.ok(runs.includes(o.run));
  }
  // One point per call site × selected run where it exists.
  if (d.callSitesTruncated === 0)
    assert.equal(d.correlation.run.length + d.correlation.truncated, sum(d.callSites.map(b => b.present)));
  assert.ok(d.correlation.run.every(r => runs.includes(r)));
  assert.equal(sum(d.distribution.callsite.counts), d.callSites.length + d.callSitesTruncated);
}

describe('ensemble detail (the linked views of the selected supernode)', () => {
  const s = generateSyntheticEnsemble({ runs: 24, nodes: 800 });
  const ep = new EnsembleProfile(s.runs, { path: '/synthetic' });

  it('null for a node the graph does not have', () => {
    const graph = superGraph(ep.profile);
    assert.equal(ensembleDetail(ep, graph, 'no such node', ensembleViewState()), null);
  });

  it('assembles every view for each supernode, over a run subset, with the target overlays', () => {
    const runs = [1, 2, 3, 5, 8, 13, 21];
    const graph = superGraph(ep.profile, { contexts: runs });
    for (const mode of ['summary', 'target'] as const) {
      const target = mode === 'target' ? 0 : null;
      for (const node of graph.nodes) {
        const d = ensembleDetail(
          ep,
          graph,
          node.id,
          ensembleViewState({ mode, target: 0, runs, options: { gradientSide: 'exclusive', bins: 'auto' } }),
        )!;
        assert.equal(d.nodeId, node.id);
        assert.equal(d.side, 'exclusive');
        assert.equal(d.label, node.module);
        checkDetail(ep, d, node.members, runs, target);
      }
    }
  });

  it('keeps the call sites sent in the requested order and counts the rest', () => {
    const graph = superGraph(ep.profile);
    const heaviest = graph.nodes.slice().sort((a, b) => b.members.length - a.members.length)[0]!;
    const byName = ensembleDetail(ep, graph, heaviest.id, ensembleViewState({ options: { callSiteSort: 'name' } }))!;
    const names = byName.callSites.map(b => b.name);
    assert.deepEqual(names, names.slice().sort());
    const byMean = ensembleDetail(ep, graph, heaviest.id, ensembleViewState())!;
    byMean.callSites.forEach((b, i) => i === 0 || assert.ok(byMean.callSites[i - 1]!.ensemble.mean >= b.ensemble.mean));
    assert.equal(
      byMean.callSites.length + byMean.callSitesTruncated,
      byName.callSites.length + byName.callSitesTruncated,
    );
  });

  it('refuses run subsets and targets that are not in the ensemble', () => {
    const graph = superGraph(ep.profile);
    const id = graph.nodes[1]!.id;
    assert.throws(
      () => ensembleDetail(ep, graph, id, ensembleViewState({ runs: [0, 99] })),
      /run 99 is not in the ensemble/,
    );
    assert.throws(() => ensembleDetail(ep, graph, id, ensembleViewState({ runs: [] })), /empty/);
    assert.throws(
      () => ensembleDetail(ep, graph, id, ensembleViewState({ mode: 'target', target: -1 })),
      /target run -1/,
    );
    assert.throws(
      () => ensembleDetail(ep, graph, id, ensembleViewState({ options: { iqrFactor: Number.NaN } })),
      /IQR factor/,
    );
  });

  const LULESH = 'data/caliper-cali/lulesh-mpi-scaling-5runs';
  it(
    "LULESH scaling, 5 Caliper runs: every supernode's views are consistent",
    { skip: skipUnlessShared(LULESH) },
    async () => {
      const { runs, errors } = await loadEnsemble(sharedPath(LULESH));
      assert.deepEqual(errors, []);
      const lulesh = new EnsembleProfile(runs, { path: sharedPath(LULESH) });
      assert.equal(lulesh.runCount, 5);
      const graph = superGraph(lulesh.profile);
      assert.ok(graph.nodes.length > 5);
      const slowest = lulesh.ensemble.runs.findIndex(r => r.name.startsWith('343'));
      for (const node of graph.nodes) {
        const d = ensembleDetail(lulesh, graph, node.id, ensembleViewState({ mode: 'target', target: slowest }))!;
        checkDetail(lulesh, d, node.members, [0, 1, 2, 3, 4], slowest);
        assert.ok(d.hierarchy.nodes.length >= 1);
        assert.ok(d.callSites.every(b => b.target && b.target.count >= 1));
      }
      // main holds the time-step loop: a loop row in its hierarchy, revealed through main.
      const main = ensembleDetail(lulesh, graph, 'main', ensembleViewState())!;
      const loop = main.hierarchy.nodes.find(n => n.kind === 'loop');
      assert.ok(loop, main.hierarchy.nodes.map(n => `${n.name}:${n.kind}`).join(', '));
      assert.equal(loop.function, 'main');
      const mainNode = graph.nodes.find(n => n.id === 'main')!.members[0]!;
      assert.equal(lulesh.ensemble.tree.name(mainNode), 'main');
      assert.equal(main.hierarchy.nodes[0]!.maxInclusive, Math.max(...lulesh.ensemble.values(mainNode, 'inclusive')));
    },
  );
});
