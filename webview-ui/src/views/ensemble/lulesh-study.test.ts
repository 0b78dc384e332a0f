import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hsl } from 'd3';
import { ensembleGraph } from '../../../../src/analysis/ensemble/ensemble-graph';
import { EnsembleProfile } from '../../../../src/analysis/ensemble/ensemble-profile';
import { loadEnsemble } from '../../../../src/analysis/ensemble/ensemble-runs';
import { writeLuleshWeakScaling } from '../../../../src/analysis/ensemble/testing/lulesh-weak-scaling';
import { LULESH_MODULE_MAP } from '../../../../src/analysis/graph/test-fixtures/synthetic-runs';
import { supernodeHierarchy } from '../../../../src/analysis/ensemble/supernode-hierarchy';
import { supernodeScope } from '../../../../src/analysis/ensemble/supernode-scope';
import { applyEnsembleRequest, initialEnsembleState } from '../../../../src/service/ensemble-state';
import type { EnsembleGraphData, EnsembleRequest } from '../../../../src/shared/ensemble-protocol';
import { ensembleViewState } from '../../../../src/analysis/ensemble/testing/view-state';
import { diffColour } from './ensemble-colours';
import { layoutEnsemble, layoutKey } from './ensemble-sankey-layout';
import { activateCallSite } from './supernode-icicle-view';

/**
 * The LULESH weak-scaling study's diff views as the Ensemble-Sankey draws them (CallFlow §4.5.2,
 * AT-9, AT-10): the colours of the two diff pairs, and the same node positions for both.
 */

const hue = (c: string): number => hsl(c).h;
const isRed = (c: string): boolean => hue(c) < 25 || hue(c) > 335;
const isGreen = (c: string): boolean => hue(c) > 80 && hue(c) < 160;

describe('LULESH weak scaling in the Ensemble-Sankey (diff mode)', () => {
  let dir: string;
  let ep: EnsembleProfile;
  const diff = (baseline: number, compare: number): EnsembleGraphData => {
    const run = (cores: number) => ep.ensemble.runIndex(`${cores}_cores`);
    return ensembleGraph(ep, {
      title: 'lulesh',
      moduleMap: LULESH_MODULE_MAP,
      state: ensembleViewState({ mode: 'diff', diff: { baseline: run(baseline), compare: run(compare) } }),
    }).data;
  };
  const colour = (d: EnsembleGraphData, id: string) =>
    diffColour(d.nodes.find(n => n.id === id)!.diff!.exclusive!, d.diffDomain!);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-lulesh-view-'));
    writeLuleshWeakScaling(dir);
    ep = new EnsembleProfile((await loadEnsemble(dir)).runs, { path: dir });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('64 − 27: CalcForce and CalcLagrange red, MPI green; 216 − 125: MPI red, CalcForce and CalcLagrange green', () => {
    const early = diff(27, 64),
      late = diff(125, 216);
    for (const id of ['CalcForce', 'CalcLagrange']) {
      assert.ok(isRed(colour(early, id)), `${id} 64 − 27: ${colour(early, id)}`);
      assert.ok(isGreen(colour(late, id)), `${id} 216 − 125: ${colour(late, id)}`);
    }
    assert.ok(isGreen(colour(early, 'MPI')), colour(early, 'MPI'));
    assert.ok(isRed(colour(late, 'MPI')), colour(late, 'MPI'));
    // Symmetric scale: the largest change of either sign takes the end colour.
    const largest = [...early.nodes].sort((a, b) => Math.abs(b.diff!.exclusive!) - Math.abs(a.diff!.exclusive!))[0]!;
    assert.equal(
      diffColour(largest.diff!.exclusive!, early.diffDomain!),
      diffColour(early.diffDomain!, early.diffDomain!),
    );
  });

  test('switching the pair leaves every node where it was', () => {
    const early = diff(27, 64),
      late = diff(125, 216);
    // The view lays the graph out again only when its layout key changes: the pair is not in it.
    assert.equal(layoutKey(late), layoutKey(early));
    const a = layoutEnsemble(early, 900, 600),
      b = layoutEnsemble(late, 900, 600);
    const boxes = (l: typeof a) => l.nodes.map(n => [n.id, n.x0, n.x1, n.y0, n.y1]);
    assert.ok(a.nodes.length >= 6);
    assert.deepEqual(boxes(b), boxes(a));
  });

  test('a click on CalcHourglassControlForElems in the icicle reveals the chain CalcForce → CalcForceForNodes → CalcVolumeForceForElems → CalcHourglassControlForElems', () => {
    const summary = (reveal: { node: string; function: string }[] = []) =>
      ensembleGraph(ep, {
        title: 'lulesh',
        moduleMap: LULESH_MODULE_MAP,
        reveal,
        state: ensembleViewState(),
      });
    const before = summary();
    const s = before.graph.nodes.findIndex(n => n.id === 'CalcForce');
    const h = supernodeHierarchy(supernodeScope(before.ensemble, before.graph, s, null, null, 'inclusive'), {
      bins: 20,
    });
    const requests: EnsembleRequest[] = [];
    activateCallSite(
      'reveal',
      h.nodes,
      h.nodes.findIndex(n => n.name === 'CalcHourglassControlForElems'),
      'CalcForce',
      r => requests.push(r),
      () => undefined,
    );
    const state = applyEnsembleRequest(initialEnsembleState(), requests[0]!, {
      runCount: 8,
      slowestRun: 7,
      fastestRun: 0,
      runName: r => String(r),
      data: before.data,
    });
    assert.ok(!('error' in state), JSON.stringify(state));
    const after = summary(state.reveal).data;
    const links = after.links.map(l => `${l.source} → ${l.target}`);
    for (const link of [
      'LeapFrog → CalcForce',
      'CalcForce → CalcForce-CalcVolumeForceForElems',
      'CalcForce-CalcVolumeForceForElems → CalcForce-CalcHourglassControlForElems',
    ])
      assert.ok(links.includes(link), `${link} among ${links.join(', ')}`);
    assert.deepEqual(
      after.nodes.find(n => n.id === 'CalcForce')!.entries.map(e => e.name),
      ['CalcForceForNodes'],
    );
    // The chain is drawn left to right.
    const l = layoutEnsemble(after, 900, 600);
    const x = (id: string) => l.nodes.find(n => n.id === id)!.x0;
    assert.ok(x('CalcForce') < x('CalcForce-CalcVolumeForceForElems'));
    assert.ok(x('CalcForce-CalcVolumeForceForElems') < x('CalcForce-CalcHourglassControlForElems'));
  });
});
