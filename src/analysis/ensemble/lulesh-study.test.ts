import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import type { EnsembleGraphData, EnsembleViewState } from '../../shared/ensemble-protocol';
import { LULESH_MODULE_MAP } from '../graph/test-fixtures/synthetic-runs';
import { binOf } from '../stats/histogram';
import { ensembleGraph, supernodeRunValues, type EnsembleGraphRequest } from './ensemble-graph';
import { EnsembleProfile } from './ensemble-profile';
import { loadEnsemble } from './ensemble-runs';
import { supernodeHierarchy } from './supernode-hierarchy';
import { supernodeScope } from './supernode-scope';
import {
  LULESH_CALCFORCE,
  LULESH_CALCLAGRANGE,
  LULESH_MPI,
  LULESH_RANKS,
  writeLuleshWeakScaling,
} from './testing/lulesh-weak-scaling';
import { ensembleViewState } from './testing/view-state';

/**
 * The CallFlow paper's LULESH weak-scaling study (thesis §4.5.2, paper §5.2; seed-callflow §6.4),
 * reproduced on the synthetic fixture written to disk and read back by the Caliper reader, through
 * the functions the Ensemble CallFlow panel uses (ensembleGraph, supernodeScope, supernodeHierarchy).
 */

function nodeOf(data: EnsembleGraphData, id: string) {
  const n = data.nodes.find(x => x.id === id);
  assert.ok(n, `no node ${id} among ${data.nodes.map(x => x.id).join(', ')}`);
  return n;
}

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-6 * Math.abs(b), `${what}: ${a} vs ${b}`);

describe('the LULESH weak-scaling study (CallFlow §4.5.2), reproduced', () => {
  let dir: string;
  let ep: EnsembleProfile;
  const run = (cores: number) => ep.ensemble.runIndex(`${cores}_cores`);
  const graph = (s: EnsembleViewState, extra: Partial<EnsembleGraphRequest> = {}) =>
    ensembleGraph(ep, { title: 'lulesh', state: s, moduleMap: LULESH_MODULE_MAP, ...extra });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-lulesh-'));
    writeLuleshWeakScaling(dir);
    const loaded = await loadEnsemble(dir);
    assert.deepEqual(loaded.errors, []);
    ep = new EnsembleProfile(loaded.runs, { path: dir });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is 8 runs at 1…512 ranks, 33 call sites in 6 modules of the full module map; CalcForce 1.31×10⁷ at 27, 1.39×10⁷ at 64', () => {
    const e = ep.ensemble;
    assert.deepEqual(
      e.runs.map(r => r.ranks),
      [...LULESH_RANKS],
    );
    assert.equal(e.size, 33);
    const { data, graph: g } = graph(ensembleViewState());
    assert.deepEqual([...new Set(data.nodes.map(n => n.module))].sort(), [
      'CalcConstraint',
      'CalcForce',
      'CalcLagrange',
      'LeapFrog',
      'Lulesh',
      'MPI',
    ]);
    // The full map puts IntegrateStressForElems (called from CalcForce) into CalcLagrange, not a supernode of its own.
    assert.ok(!data.nodes.some(n => n.id === 'IntegrateStressForElems'));
    const calcLagrange = g.nodes.find(n => n.id === 'CalcLagrange')!;
    assert.ok(calcLagrange.entries.some(en => en.name === 'IntegrateStressForElems'));
    const d = graph(ensembleViewState({ mode: 'diff', diff: { baseline: run(27), compare: run(64) } })).data;
    const force = nodeOf(d, 'CalcForce').diff!;
    close(force.baseline!, 1.31e7, 'CalcForce at 27');
    close(force.compare!, 1.39e7, 'CalcForce at 64');
  });

  it('diff 64 − 27: CalcForce +8.0×10⁵ (+6.1 %), CalcForce and CalcLagrange red, MPI green, on a symmetric scale', () => {
    const { data } = graph(ensembleViewState({ mode: 'diff', diff: { baseline: run(27), compare: run(64) } }));
    const force = nodeOf(data, 'CalcForce').diff!;
    close(force.exclusive!, 8.0e5, 'CalcForce diff');
    assert.equal(((force.exclusive! / force.baseline!) * 100).toFixed(1), '6.1');
    // Positive = the compare run slower = red; negative = green (AT-9).
    assert.ok(nodeOf(data, 'CalcLagrange').diff!.exclusive! > 0);
    close(
      nodeOf(data, 'CalcLagrange').diff!.exclusive!,
      LULESH_CALCLAGRANGE[3]! - LULESH_CALCLAGRANGE[2]!,
      'CalcLagrange',
    );
    const mpi = nodeOf(data, 'MPI').diff!.exclusive!;
    assert.ok(mpi < 0);
    close(mpi, LULESH_MPI[3]! - LULESH_MPI[2]!, 'MPI');
    const diffs = data.nodes.map(n => Math.abs(n.diff!.exclusive ?? 0));
    assert.equal(data.diffDomain, Math.max(...diffs));
    assert.ok(data.diffDomain! >= Math.abs(mpi) && data.diffDomain! >= force.exclusive!);
  });

  it('diff 216 − 125: MPI red, CalcForce and CalcLagrange green; the graph is the same for either pair (AT-10)', () => {
    const early = graph(ensembleViewState({ mode: 'diff', diff: { baseline: run(27), compare: run(64) } })).data;
    const late = graph(ensembleViewState({ mode: 'diff', diff: { baseline: run(125), compare: run(216) } })).data;
    assert.ok(nodeOf(late, 'MPI').diff!.exclusive! > 0);
    close(nodeOf(late, 'CalcForce').diff!.exclusive!, LULESH_CALCFORCE[5]! - LULESH_CALCFORCE[4]!, 'CalcForce');
    assert.ok(nodeOf(late, 'CalcForce').diff!.exclusive! < 0);
    assert.ok(nodeOf(late, 'CalcLagrange').diff!.exclusive! < 0);
    const shape = (d: EnsembleGraphData) => ({
      nodes: d.nodes.map(n => [n.id, n.maxInclusive, n.minInclusive, n.callers]),
      links: d.links.map(l => [l.source, l.target, l.value]),
    });
    assert.deepEqual(shape(late), shape(early));
  });

  it('text guides and sparklines flag MPI (64 below 27 ranks) and CalcForce (216 below 125 ranks) out of order, nothing else', () => {
    const { data } = graph(ensembleViewState({ options: { orderBy: 'cores' } }));
    assert.deepEqual(data.order!.levels, [...LULESH_RANKS]);
    const flagged = data.nodes.filter(n => n.sparkline!.outOfOrder).map(n => n.id);
    assert.deepEqual(flagged.sort(), ['CalcForce', 'MPI']);
    // The text guides list run names per bin: the out-of-order run sits in a lower bin than the run before it.
    const binOfRun = (id: string, cores: number) => {
      const n = nodeOf(data, id);
      const g = n.gradient.inclusive;
      const k = data.selectedRuns.indexOf(run(cores));
      return binOf(n.runValues!.inclusive[k]!, g.min, g.max, g.counts.length);
    };
    assert.ok(binOfRun('MPI', 64) < binOfRun('MPI', 27), 'MPI: 64 ranks in a lower bin than 27');
    assert.ok(binOfRun('CalcForce', 216) < binOfRun('CalcForce', 125), 'CalcForce: 216 ranks below 125');
    // Everywhere else the order holds bin by bin (weak scaling: runtime grows slowly with the ranks).
    for (const cores of [8, 27, 64, 125, 343, 512])
      assert.ok(
        binOfRun('CalcForce', cores) >= binOfRun('CalcForce', LULESH_RANKS[LULESH_RANKS.indexOf(cores as never) - 1]!),
      );
  });

  it('splitting MPI exposes MPI → MPI_Allreduce as the out-of-order call', () => {
    const { data } = graph(ensembleViewState({ options: { orderBy: 'cores' } }), {
      splits: [{ node: 'MPI', mode: 'entry' }],
    });
    const parts = data.nodes.filter(n => n.baseId === 'MPI');
    assert.ok(parts.length >= 4, parts.map(p => p.id).join(', '));
    assert.deepEqual(
      parts.filter(p => p.sparkline!.outOfOrder).map(p => p.id),
      ['MPI-MPI_Allreduce'],
    );
    assert.ok(data.links.some(l => l.target === 'MPI-MPI_Allreduce'));
  });

  it('revealing along CalcForce exposes CalcForce → CalcForceForNodes → CalcVolumeForceForElems → CalcHourglassControlForElems, and the icicle shows the same chain', () => {
    const {
      data,
      graph: g,
      ensemble,
    } = graph(ensembleViewState({ options: { orderBy: 'cores' } }), {
      reveal: [
        { node: 'CalcForce', function: 'CalcVolumeForceForElems' },
        { node: 'CalcForce', function: 'CalcHourglassControlForElems' },
      ],
    });
    const force = nodeOf(data, 'CalcForce');
    assert.deepEqual(
      force.entries.map(e => e.name),
      ['CalcForceForNodes'],
    );
    const link = (a: string, b: string) =>
      assert.ok(
        data.links.some(l => l.source === a && l.target === b),
        `${a} → ${b} among ${data.links.map(l => `${l.source} → ${l.target}`).join(', ')}`,
      );
    link('LeapFrog', 'CalcForce');
    link('CalcForce', 'CalcForce-CalcVolumeForceForElems');
    link('CalcForce-CalcVolumeForceForElems', 'CalcForce-CalcHourglassControlForElems');
    // The culprit at the end of the chain is flagged; the out-of-order run shows in every node above it.
    for (const id of ['CalcForce-CalcHourglassControlForElems', 'CalcForce-CalcVolumeForceForElems', 'CalcForce'])
      assert.equal(nodeOf(data, id).sparkline!.outOfOrder, true, id);

    // The supernode hierarchy of CalcForce (unrevealed): the same chain, parent to child, heaviest first.
    const plain = graph(ensembleViewState());
    const s = plain.graph.nodes.findIndex(n => n.id === 'CalcForce');
    const h = supernodeHierarchy(supernodeScope(plain.ensemble, plain.graph, s, null, null, 'inclusive'), { bins: 20 });
    const chain: string[] = [];
    for (let i = h.nodes.findIndex(n => n.name === 'CalcHourglassControlForElems'); i >= 0; i = h.nodes[i]!.parent)
      chain.unshift(h.nodes[i]!.name);
    assert.deepEqual(chain, ['CalcForceForNodes', 'CalcVolumeForceForElems', 'CalcHourglassControlForElems']);
    assert.ok(!h.nodes.some(n => n.name === 'IntegrateStressForElems'), 'IntegrateStressForElems is CalcLagrange');
    assert.equal(g.nodes.length > 0 && ensemble.runCount, 8);
  });
});

// The shared LULESH folders are a strong-scaling study (one build at 27…343 ranks, Caliper spot
// profiles): not the paper's weak-scaling ensemble, so their values are pinned as they are.
const SHARED_LULESH = 'data/caliper-cali/lulesh-mpi-scaling-5runs';
describe('the shared LULESH strong-scaling study under the full module map (characterisation)', () => {
  it(
    'modules, per-run module times, the 64 − 27 diff and the out-of-order modules stay as measured',
    { skip: skipUnlessShared(SHARED_LULESH) },
    async () => {
      const loaded = await loadEnsemble(sharedPath(SHARED_LULESH));
      const ep = new EnsembleProfile(loaded.runs, { path: sharedPath(SHARED_LULESH), errors: loaded.errors });
      const request = (state: EnsembleViewState) =>
        ensembleGraph(ep, { title: 'lulesh', state, moduleMap: LULESH_MODULE_MAP });
      const summary = request(ensembleViewState({ options: { orderBy: 'cores' } }));
      assert.deepEqual(
        summary.data.runs.map(r => r.name),
        ['27_cores', '64_cores', '125_cores', '216_cores', '343_cores'],
      );
      // CalcMonotonicQForElems (LULESH 2.0) is not in the sample map: a supernode of its own.
      assert.deepEqual(
        summary.data.nodes.map(n => n.id),
        ['MPI', 'Lulesh', 'Timer', 'LeapFrog', 'CalcForce', 'CalcLagrange', 'CalcMonotonicQForElems', 'CalcConstraint'],
      );
      assert.ok(nodeOf(summary.data, 'CalcLagrange').entries.some(e => e.name === 'IntegrateStressForElems'));
      const perRun = (id: string) => {
        const s = summary.graph.nodes.findIndex(n => n.id === id);
        return [0, 1, 2, 3, 4].map(r => supernodeRunValues(summary.graph, summary.ensemble, r).exclusive[s]!);
      };
      const pinned = (id: string, expected: number[]) =>
        perRun(id).forEach((v, r) =>
          assert.ok(Math.abs(v - expected[r]!) <= 1e-5 * expected[r]!, `${id} run ${r}: ${v}`),
        );
      pinned('CalcForce', [14.7934, 15.7363, 15.3961, 16.3005, 15.8045]);
      pinned('CalcLagrange', [11.887, 12.1553, 11.9064, 11.6969, 11.5277]);
      pinned('MPI', [18.6555, 25.3202, 27.0937, 12.7031, 23.2894]);
      // Strong scaling: from 27 to 64 ranks CalcForce, CalcLagrange and MPI all take longer per rank.
      const diff = request(ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 1 } })).data;
      const d = (id: string) => nodeOf(diff, id).diff!.exclusive!;
      assert.ok(Math.abs(d('CalcForce') - 0.942949) < 1e-5, `CalcForce 64 − 27: ${d('CalcForce')}`);
      assert.ok(d('CalcLagrange') > 0 && d('MPI') > 0);
      assert.equal(diff.diffDomain, d('MPI'));
      assert.deepEqual(
        summary.data.nodes
          .filter(n => n.sparkline!.outOfOrder)
          .map(n => n.id)
          .sort(),
        ['CalcForce', 'Lulesh', 'MPI', 'Timer'],
      );
    },
  );
});
