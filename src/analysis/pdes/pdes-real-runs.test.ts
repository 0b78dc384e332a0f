import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { handlerActivity } from './handlers';
import { lpsOfEntities, lpTypeTable } from './lp-types';
import { METRIC } from './model/metrics';
import { PdesAnalysisSession, type PdesAnalysis } from './pdes-analysis';
import type { PdesRun } from './model/pdes-run';
import { circularViewData } from './view-data';

/**
 * The offline analyses on real ROSS 8.1.1 / CODES dragonfly-dally output (shared data; skipped
 * without it). Real runs have no planted truth, so these check what follows from the model: the
 * analyses' own guarantees (segments no shorter than the minimum, significant change points, k-means
 * at a fixed point), and structure the CODES model puts in the data (router LPs process several
 * times more events than terminals and workload LPs; three quarters of the events stay on their PE).
 */
const FULL = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random-8pe-fulltrace';
const UNIFORM = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random';

function checkSegments(a: PdesAnalysis): void {
  const min = a.changePoints.minSegmentSize;
  for (const s of a.segments) assert.ok(s.end - s.start >= min, `segment ${s.label} [${s.start}, ${s.end}) ≥ ${min}`);
  for (const c of a.changePoints.detected)
    assert.ok(c.pValue <= a.options.significance, `p = ${c.pValue} at ${c.index}`);
  if (a.changePoints.rejectedPValue !== null) assert.ok(a.changePoints.rejectedPValue > a.options.significance);
}

/** KPs that hold a router LP. */
function routerKps(run: PdesRun): Set<number> {
  const types = lpTypeTable(run);
  const out = new Set<number>();
  for (let k = 0; k < run.entities.count('kp'); k++)
    for (const lp of lpsOfEntities(run, 'kp', [k])) if (/router/.test(types.names[types.typeOf[lp]!]!)) out.add(k);
  return out;
}

/** Each cluster holds either only KPs with a router LP or only KPs without one. */
function checkRouterClusters(a: PdesAnalysis, routers: Set<number>, what: string): void {
  for (let c = 0; c < a.clustering.k; c++) {
    const members = Array.from(a.clustering.labels.keys()).filter(k => a.clustering.labels[k] === c);
    const withRouter = members.filter(k => routers.has(k)).length;
    assert.ok(
      withRouter === 0 || withRouter === members.length,
      `${what}: cluster ${c} mixes ${withRouter} of ${members.length}`,
    );
  }
}

describe('offline analyses on the 8-PE full-trace CODES run', { skip: skipUnlessShared(FULL) }, () => {
  let run: PdesRun;
  let a: PdesAnalysis;
  before(async () => {
    run = await readPdesRun(sharedPath(FULL));
    a = new PdesAnalysisSession(run).analysis();
  });

  it('clusters the 128 KPs over the 15 GVT samples, each KP nearest its own cluster’s centre', () => {
    assert.deepEqual([a.behaviour.level, a.behaviour.count, a.behaviour.ticks], ['kp', 128, 15]);
    assert.ok([...a.clustering.sizes].every(s => s > 0));
    // k-means ends at a fixed point of Lloyd's and Hartigan's steps: every point is nearest its centroid.
    const session = new PdesAnalysisSession(run);
    const f = session.features(a.metrics.cluster);
    const t = f.timePoints;
    const centres = new Float64Array(3 * t);
    a.clustering.labels.forEach((c, i) => {
      for (let s = 0; s < t; s++) centres[c * t + s]! += f.values[i * t + s]! / a.clustering.sizes[c]!;
    });
    const d2 = (i: number, c: number) => {
      let s = 0;
      for (let p = 0; p < t; p++) s += (f.values[i * t + p]! - centres[c * t + p]!) ** 2;
      return s;
    };
    a.clustering.labels.forEach((c, i) => {
      for (let other = 0; other < 3; other++) assert.ok(d2(i, c) <= d2(i, other) + 1e-12, `KP ${i}`);
    });
  });

  it('segments with E-Divisive: at most 4 change points in 15 samples, none shorter than 3', () => {
    assert.equal(a.changePoints.minSegmentSize, 3);
    assert.ok(a.changePoints.detected.length <= 4);
    checkSegments(a);
  });

  it('separates the KPs holding a router LP when clustering events processed, with every algorithm', () => {
    const all = Int32Array.from({ length: 128 }, (_, i) => i);
    // Why: router LPs process several times more events each than the other LP types.
    const perLp = handlerActivity(run, a, all).map(r => r.eventsProcessed / r.lps);
    assert.ok(perLp[2]! > 2.5 * Math.max(perLp[0]!, perLp[1]!), `events per LP by type: ${perLp}`);
    const routers = routerKps(run);
    assert.equal(routers.size, 36);
    const session = new PdesAnalysisSession(run, { clusterMetrics: [METRIC.eventsProcessed] });
    for (const clustering of ['k-means', 'pam', 'complete-linkage'] as const)
      checkRouterClusters(session.withOptions({ clustering }).analysis(), routers, clustering);
  });

  it('shows in every segment that each PE talks most to itself (73.4 % of events stay on their PE)', () => {
    const c = circularViewData(
      run,
      a,
      Int32Array.from({ length: 128 }, (_, i) => i),
    );
    assert.deepEqual(c.communication, { scope: 'all events' });
    for (const s of c.segments)
      for (const r of s.ribbons)
        for (const pe of [r.source, r.target])
          assert.ok(
            s.self[pe]! > r.value,
            `segment ${s.segment.label}: PE ${pe} to itself over PE ${r.source}–${r.target}`,
          );
  });
});

describe('offline analyses on the 4-PE uniform-random CODES run', { skip: skipUnlessShared(UNIFORM) }, () => {
  let run: PdesRun;
  before(async () => {
    run = await readPdesRun(sharedPath(UNIFORM));
  });

  it('segments the 7 GVT samples at most once and the 136 real-time samples in pieces of at least 6', () => {
    const gvt = new PdesAnalysisSession(run).analysis();
    assert.equal(gvt.behaviour.ticks, 7);
    assert.ok(gvt.changePoints.starts.length <= 1, 'two splits would need 9 samples');
    checkSegments(gvt);
    const rt = new PdesAnalysisSession(run, { timeAxis: 'rt' }).analysis();
    assert.deepEqual([rt.behaviour.axis, rt.behaviour.ticks, rt.changePoints.minSegmentSize], ['rt', 136, 6]);
    checkSegments(rt);
  });

  it('separates the KPs holding a router LP when clustering events processed', () => {
    const routers = routerKps(run);
    for (const timeAxis of ['gvt', 'rt'] as const)
      checkRouterClusters(
        new PdesAnalysisSession(run, { timeAxis, clusterMetrics: [METRIC.eventsProcessed] }).analysis(),
        routers,
        timeAxis,
      );
  });
});
