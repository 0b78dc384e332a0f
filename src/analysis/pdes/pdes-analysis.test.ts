import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { condensedLength } from '../series/distance-matrix';
import { runToEnd } from '../series/sliced';
import { METRIC } from './model/metrics';
import {
  clusterMembers,
  distanceJobParts,
  distanceRowSteps,
  editSegments,
  PdesAnalysisSession,
  pdesAnalysisSession,
  pdesReportAnalyses,
  tsneLayoutSteps,
  type DistanceJob,
  type TsneJob,
} from './pdes-analysis';
import { pdesReport } from './pdes-report';
import type { PdesRun } from './model/pdes-run';
import { generateRossRun, type RossRunTruth } from './testing/ross-generator';
import { smallRun } from './testing/small-run';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));
async function generated(
  params: Parameters<typeof generateRossRun>[1],
): Promise<{ run: PdesRun; truth: RossRunTruth }> {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-analysis-'));
  dirs.push(dir);
  const truth = generateRossRun(dir, params);
  return { run: await readPdesRun(dir), truth };
}

describe('PDES analysis session', () => {
  let run: PdesRun;
  let truth: RossRunTruth;
  before(async () => {
    // 4 PEs × 4 KPs, 40 GVT rounds, bursts at 12–18 and 28–32, 3 groups of PEs.
    ({ run, truth } = await generated({ seed: 3, pes: 4, kpsPerPe: 4, ticks: 40, eventsPerKp: 8, surge: [1, 2] }));
  });

  it('clusters, projects and segments the default series (KP secondary rollbacks over GVT rounds)', () => {
    const a = new PdesAnalysisSession(run).analysis();
    assert.deepEqual(
      [a.behaviour.level, a.behaviour.axis, a.behaviour.count, a.behaviour.ticks],
      ['kp', 'gvt', 16, 40],
    );
    assert.deepEqual(a.range, { from: 0, to: 40 });
    assert.deepEqual(a.metrics, {
      detail: ['secondary_rollbacks', 'primary_rollbacks'],
      cluster: ['secondary_rollbacks'],
      changePoints: ['secondary_rollbacks'],
      innerRing: 'primary_rollbacks',
      outerRing: 'secondary_rollbacks',
    });
    assert.deepEqual([a.clustering.algorithm, a.clustering.measure, a.clustering.k], ['k-means', 'euclidean', 3]);
    assert.equal(a.clustering.labels.length, 16);
    assert.equal(a.clustering.labels[0], 0, 'canonical labels');
    assert.equal(
      [...a.clustering.sizes].reduce((x, y) => x + y, 0),
      16,
    );
    for (const p of a.projections) assert.equal(p.coordinates.length, 32);
    assert.deepEqual(
      a.projections.map(p => [p.metric, p.method]),
      [
        ['secondary_rollbacks', 'mds'],
        ['primary_rollbacks', 'mds'],
      ],
    );
    // Segments partition the range, starting at the change points in use.
    assert.equal(a.segments[0]!.start, 0);
    assert.equal(a.segments[a.segments.length - 1]!.end, 40);
    a.segments.slice(1).forEach((s, i) => assert.equal(s.start, a.segments[i]!.end));
    assert.deepEqual(
      a.segments.slice(1).map(s => s.start),
      a.changePoints.starts,
    );
    assert.deepEqual(
      a.changePoints.detected.map(c => c.index),
      a.changePoints.starts,
    );
    assert.equal(a.changePoints.minSegmentSize, 3, 'max(3, ⌊40/20⌋)');
    for (const c of a.changePoints.detected) assert.ok(c.pValue <= 0.05);
    for (const planted of truth.changePoints)
      assert.ok(
        a.changePoints.starts.some(c => Math.abs(c - planted) <= 2),
        `planted change at ${planted} found in ${a.changePoints.starts}`,
      );
    assert.deepEqual(a.notes, []);
  });

  it('splits DTW distances and t-SNE into jobs for workers whose results give the same analysis', () => {
    const options = { distance: 'dtw', projection: 'tsne', tsneIterations: 200, clustering: 'pam' } as const;
    const session = new PdesAnalysisSession(run, options);
    const jobs = session.heavyJobs();
    // The clustering's distances are the top view's (same metric): 2 matrices, then 2 layouts.
    assert.deepEqual(
      jobs.map(j => j.kind),
      ['distances', 'distances', 'tsne', 'tsne'],
    );
    const [top, bottom] = jobs as [DistanceJob, DistanceJob, TsneJob, TsneJob];
    assert.deepEqual(top.options, { measure: 'dtw' });
    assert.equal(top.features.entities, 16);
    // Two workers: each fills its rows of one shared matrix.
    const results = new Map<string, Float64Array>();
    for (const job of [top, bottom]) {
      const out = new Float64Array(condensedLength(16));
      const parts = distanceJobParts(job, 2);
      assert.deepEqual([parts[0]!.from, parts[parts.length - 1]!.to], [0, 16]);
      for (const rows of parts) runToEnd(distanceRowSteps(job, rows, out));
      session.provide(job, out);
      results.set(job.key, out);
    }
    for (const job of jobs.slice(2) as TsneJob[])
      session.provide(job, runToEnd(tsneLayoutSteps(job, results.get(job.distances)!)));
    assert.deepEqual(session.heavyJobs(), [], 'nothing left to do');
    const fromWorkers = session.analysis();
    const inPlace = new PdesAnalysisSession(run, options).analysis();
    assert.deepEqual([...fromWorkers.clustering.labels], [...inPlace.clustering.labels]);
    assert.deepEqual([...fromWorkers.projections[1].coordinates], [...inPlace.projections[1].coordinates]);
    // A session with other options reuses the distances (no job for the same matrices).
    assert.deepEqual(session.withOptions({ projection: 'mds' }).heavyJobs(), []);
    assert.equal(new PdesAnalysisSession(run, { projection: 'tsne' }).heavyJobs().length, 2, 'Euclidean: t-SNE only');
  });

  it('uses PAM for elastic distances when k-means was asked, and fewer clusters than entities', async () => {
    const a = new PdesAnalysisSession(run, { distance: 'twed' }).analysis();
    assert.equal(a.clustering.algorithm, 'pam');
    assert.deepEqual(a.notes, ['k-means works with Euclidean distance only: PAM clustered the TWED distances.']);
    const tiny = (await generated({ seed: 4, pes: 2, kpsPerPe: 1, lps: 4, ticks: 12, surge: null })).run;
    const t = new PdesAnalysisSession(tiny).analysis();
    assert.equal(t.clustering.k, 2);
    assert.deepEqual(t.notes, ['Only 2 entities: 2 clusters instead of 3.']);
  });

  it('puts every entity in one cluster when the clustered metric never varies', () => {
    const quiet = smallRun({ pes: 2, kpsPerPe: 3, ticks: 12, kp: () => ({ processed: 5 }) });
    for (const clustering of ['k-means', 'pam', 'complete-linkage'] as const) {
      const a = new PdesAnalysisSession(quiet, { clustering }).analysis();
      assert.deepEqual([...a.clustering.labels], [0, 0, 0, 0, 0, 0]);
      assert.deepEqual([...a.clustering.sizes], [6, 0, 0]);
      assert.deepEqual(a.notes, ['secondary_rollbacks do not vary over the range: all entities form one cluster.']);
      assert.deepEqual(a.changePoints.starts, []);
    }
  });

  it('analyses the selected range only, and clusters several metrics together', () => {
    const s = new PdesAnalysisSession(run, {
      range: { from: 10, to: 30 },
      clusterMetrics: ['secondary_rollbacks', 'network_sends'],
    });
    assert.equal(s.features(s.metrics.cluster).timePoints, 40, 'two metrics × 20 samples');
    const a = s.analysis();
    assert.deepEqual(a.range, { from: 10, to: 30 });
    assert.deepEqual(a.metrics.changePoints, ['secondary_rollbacks', 'network_sends']);
    assert.equal(a.segments[0]!.start, 10);
    assert.equal(a.segments[a.segments.length - 1]!.end, 30);
    for (const c of a.changePoints.starts) assert.ok(c > 10 && c < 30);
    assert.throws(() => new PdesAnalysisSession(run, { range: { from: 50, to: 60 } }), /holds none of the 40 samples/);
  });

  it('takes edited segment bounds and goes back to the detected ones', () => {
    const a = new PdesAnalysisSession(run).analysis();
    const e = editSegments(a, [25, 5, 25]);
    assert.deepEqual(
      e.segments.map(s => [s.label, s.start, s.end]),
      [
        ['A', 0, 5],
        ['B', 5, 25],
        ['C', 25, 40],
      ],
    );
    assert.deepEqual([e.changePoints.edited, e.changePoints.starts, e.options.changePoints], [true, [5, 25], [5, 25]]);
    assert.equal(e.clustering, a.clustering, 'clusters and projections stay');
    assert.throws(() => editSegments(a, [0]), /inside \(0, 40\)/);
    const back = editSegments(e, null);
    assert.deepEqual(back.segments, a.segments);
    assert.equal(back.changePoints.edited, false);
    // The same edit as an option.
    assert.deepEqual(new PdesAnalysisSession(run, { changePoints: [5, 25] }).analysis().segments, e.segments);
  });

  it('substitutes metrics a level lacks, refuses unknown ones, and says why a run has no views', async () => {
    const lp = (await generated({ seed: 5, pes: 2, kpsPerPe: 2, ticks: 12, lpData: true, surge: null })).run;
    const a = new PdesAnalysisSession(lp, { level: 'lp' }).analysis();
    assert.equal(a.behaviour.level, 'lp');
    assert.deepEqual(a.metrics.detail, [METRIC.eventsRolledBack, METRIC.eventsProcessed]);
    assert.deepEqual(a.notes.slice(0, 2), [
      'LP samples have no secondary_rollbacks: the top detail view uses events rolled back.',
      'LP samples have no primary_rollbacks: the bottom detail view uses events processed.',
    ]);
    assert.throws(
      () => new PdesAnalysisSession(run, { detailMetrics: ['rollbackz', 'efficiency'] }),
      /"rollbackz" is no PDES metric/,
    );
    const none = pdesAnalysisSession({ ...run, samples: {} });
    assert.equal(none.session, null);
    assert.match(none.reason!, /no PDES behaviour views for .*: the run has no engine samples/);
  });

  it('stops when aborted from elsewhere', async () => {
    const abort = new AbortController();
    const pending = new PdesAnalysisSession(run, { distance: 'dtw' }).analysisAsync(abort.signal, 1);
    abort.abort();
    await assert.rejects(pending, /abort/i);
  });

  it("gives the report the session's clusters (entity ids) and change points", async () => {
    const a = new PdesAnalysisSession(run).analysis();
    const members = clusterMembers(a);
    assert.equal(members.length, 3);
    assert.deepEqual(
      members.flatMap(c => c.members).sort((x, y) => x - y),
      Array.from({ length: 16 }, (_, i) => i),
    );
    const report = await pdesReport(run, pdesReportAnalyses(run));
    assert.deepEqual(report.clusters, members);
    assert.deepEqual(report.changePoints, a.changePoints.starts);
    const pe = await pdesReport(run, pdesReportAnalyses(run, { level: 'pe', clusters: 2 }));
    assert.deepEqual(pe.clusters!.flatMap(c => c.members).sort(), [0, 1, 2, 3], 'PE ids');
    assert.deepEqual(
      Object.keys(await pdesReport({ ...run, samples: {} }, pdesReportAnalyses({ ...run, samples: {} }))),
      ['entities', 'totals', 'eventTrace', 'communication'],
    );
  });
});
