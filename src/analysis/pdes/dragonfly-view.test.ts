import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { dragonflyViewData } from './dragonfly-view';
import { lpsOfEntities, lpTypeTable } from './lp-types';
import { editSegments, PdesAnalysisSession } from './pdes-analysis';
import { generateRossRun } from './testing/ross-generator';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

describe('LP types and the dragonfly view of a generated CODES run', () => {
  it("maps LPs to their type's ordinal and the selected KPs to their routers and terminals", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-dragonfly-'));
    dirs.push(dir);
    // 3 groups × 2 routers × 2 terminals: 6 repetitions of [nw-lp, nw-lp, terminal, terminal, router] = 30
    // LPs on 2 PEs × 4 KPs, 4 consecutive LPs per KP (ROSS linear mapping).
    const shape = { groups: 3, routersPerGroup: 2, terminalsPerRouter: 2, globalChannelsPerRouter: 1 };
    generateRossRun(dir, { seed: 2, pes: 2, kpsPerPe: 4, ticks: 10, surge: null, dragonfly: shape });
    const run = await readPdesRun(dir);
    const types = lpTypeTable(run);
    assert.deepEqual(types.names, ['nw-lp', 'modelnet_dragonfly_dally', 'modelnet_dragonfly_dally_router']);
    assert.deepEqual([...types.typeOf.subarray(0, 10)], [0, 0, 1, 1, 2, 0, 0, 1, 1, 2]);
    assert.deepEqual([...types.ordinal.subarray(0, 10)], [0, 1, 0, 1, 0, 2, 3, 2, 3, 1]);
    assert.deepEqual([...lpsOfEntities(run, 'kp', [1])], [4, 5, 6, 7]);
    assert.deepEqual([...lpsOfEntities(run, 'pe', [1])], [15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);

    const a = new PdesAnalysisSession(run).analysis();
    // KP 1 holds LP 4 (router 0), LPs 5–6 (workload) and LP 7 (terminal 2).
    const d = dragonflyViewData(run, a, [1])!;
    assert.deepEqual(d.shape, shape);
    assert.equal(d.routerNode.length, 6);
    assert.equal(d.terminalNode.length, 12);
    assert.deepEqual([...d.selectedRouters], [1, 0, 0, 0, 0, 0]);
    assert.deepEqual([...d.selectedTerminals], [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // No link stats or model samples in this run.
    assert.deepEqual([d.links, d.routers, d.scales.linkTraffic], [null, null, 0]);
    assert.equal(dragonflyViewData({ ...run, codesConfig: null }, a, [1]), null, 'no dragonfly without a CODES config');
  });

  it('names one LP type after the program for a plain ROSS model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-dragonfly-'));
    dirs.push(dir);
    generateRossRun(dir, { seed: 2, pes: 2, kpsPerPe: 2, ticks: 6, surge: null });
    const types = lpTypeTable(await readPdesRun(dir));
    assert.deepEqual(types.names, ['synthetic-ross']);
    assert.deepEqual([...types.ordinal.subarray(0, 3)], [0, 1, 2]);
  });
});

const UNIFORM = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random';

describe('dragonfly view of the shared CODES run', { skip: skipUnlessShared(UNIFORM) }, () => {
  it('numbers routers as CODES does, and puts link stats and per-segment router samples on the topology', async () => {
    const run = await readPdesRun(sharedPath(UNIFORM));
    // Router samples name their LP and router id: the k-th router LP is router k.
    const types = lpTypeTable(run);
    const r = run.modelSamples!.routers!;
    for (let row = 0; row < r.count; row++) assert.equal(types.ordinal[run.entities.findLp(r.lp[row]!)], r.router[row]);
    // Virtual-time axis (37 samples, GVT 9,790 … 41,566), cut in two by hand at sample 20.
    const session = new PdesAnalysisSession(run, { timeAxis: 'vt' });
    const a = editSegments(session.analysis(), [20]);
    const all = Int32Array.from({ length: 64 }, (_, i) => i);
    const d = dragonflyViewData(run, a, all)!;
    assert.deepEqual(d.shape, { groups: 9, routersPerGroup: 4, terminalsPerRouter: 2, globalChannelsPerRouter: 2 });
    assert.equal(d.links!.unmatched, 0);
    const sum = (v: ArrayLike<number>) => Array.from(v).reduce((x, y) => x + y, 0);
    assert.equal(sum(d.links!.traffic), sum(run.links!.traffic), 'every link-stats row on its link');
    assert.equal(d.scales.linkTraffic, Math.max(...run.links!.traffic));
    assert.deepEqual(
      [sum(d.selectedRouters), sum(d.selectedTerminals)],
      [36, 72],
      'all KPs hold all routers and terminals',
    );
    // Whole-run busy time per router = the samples' busy time over all ports and points.
    assert.equal(Math.round(sum(d.routers!.busyTime)), Math.round(sum(r.busyTime)));
    // Per segment: sampling points 10,000 … 60,000 µs fall in A (≤ GVT of sample 19) or B (≤ 41,566); the
    // last two are after the last sample.
    const vt = a.behaviour.virtualTimes;
    const segments = d.routers!.segments!;
    assert.deepEqual(
      segments.map(s => s.label),
      ['A', 'B'],
    );
    const busyBetween = (lo: number, hi: number) => {
      let s = 0;
      for (let row = 0; row < r.count; row++)
        if (r.time[row]! > lo && r.time[row]! <= hi)
          for (let p = 0; p < r.radix; p++) s += r.busyTime[row * r.radix + p]!;
      return s;
    };
    assert.equal(Math.round(sum(segments[0]!.busyTime)), Math.round(busyBetween(-Infinity, vt[19]!)));
    assert.equal(Math.round(sum(segments[1]!.busyTime)), Math.round(busyBetween(vt[19]!, vt[36]!)));
    assert.equal(d.routers!.pointsOutside, run.modelSamples!.points.filter(p => p > vt[36]!).length);
    assert.equal(d.routers!.pointsOutside, 2);
    assert.equal(d.scales.routerBusyPerSegment, Math.max(...segments.flatMap(s => [...s.busyTime])));
  });
});
