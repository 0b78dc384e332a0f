/**
 * PDES offline analyses (issue 19) at the case-study size, through the session the panel uses:
 * clustering + MDS + E-Divisive on 256 KPs × 500 GVT rounds (budget 2 s), the DTW distance matrices
 * and t-SNE layouts split over two worker threads as the lead's analysis service would run them, and
 * 128 × 128 per-interval communication matrices with the per-segment circular views from the 8-PE
 * run's 249,907-event trace (budget 1 s). Wall and CPU time (CPU includes the workers' threads; the
 * machine is shared, so CPU time is the steadier figure). Run: `npm run bench -- pdes-analysis` (the
 * two-worker figures only when the sections run from the TypeScript sources, as bench.test.ts does).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { readPdesRun } from '../src/analysis/formats/ross/pdes-run-reader';
import { intervalMatrices, intervalPairs, tickEdges } from '../src/analysis/pdes/model/communication';
import {
  distanceJobParts,
  distanceRowSteps,
  PdesAnalysisSession,
  tsneLayoutSteps,
  type DistanceJob,
  type TsneJob,
} from '../src/analysis/pdes/pdes-analysis';
import type { PdesRun } from '../src/analysis/pdes/model/pdes-run';
import { segmentCommunication } from '../src/analysis/pdes/segments';
import { generateRossRun } from '../src/analysis/pdes/testing/ross-generator';
import { circularViewData } from '../src/analysis/pdes/view-data';
import { condensedLength } from '../src/analysis/series/distance-matrix';
import { classicalMds } from '../src/analysis/series/mds';
import { eDivisive } from '../src/analysis/series/e-divisive';
import { clusterSeries } from '../src/analysis/series/series-analysis';
import { pairwiseDistances } from '../src/analysis/series/distances';
import { scaleMinMax } from '../src/analysis/series/preprocess';
import { runToEnd } from '../src/analysis/series/sliced';
import { formatWallCpu, timeOnce, type Timing } from './bench-timing';

const SHARED = process.env.HPC_LENS_SHARED_DIR ?? resolve(__dirname, '..', '..', 'shared');
const FULL_TRACE = join(SHARED, 'data', 'pdes-ross-codes', 'codes-dragonfly-dally-72-uniform-random-8pe-fulltrace');

const fmt = (t: Timing) => formatWallCpu(t);
const line = (name: string, t: Timing, note = '') => console.log(`  ${name.padEnd(62)} ${fmt(t)}${note}`);

export async function benchPdesAnalysis(): Promise<void> {
  console.log('\nPDES offline analyses (issue 19):');
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-pdes-analysis-'));
  try {
    generateRossRun(dir, { seed: 19, ticks: 500, eventsPerKp: 12, eventTrace: false });
    const run = await readPdesRun(dir);
    await caseStudySize(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await intervalViews();
}

/** 16 PEs × 16 KPs × 500 GVT rounds: the pipeline, its parts, and the heavy steps on two workers. */
async function caseStudySize(run: PdesRun): Promise<void> {
  // Warm-up on a short range so the first timed call does not pay for compilation.
  new PdesAnalysisSession(run, { range: { from: 0, to: 60 }, permutations: 19 }).analysis();
  const session = new PdesAnalysisSession(run);
  const b = session.behaviour;
  console.log(`  ${b.count} KPs × ${b.ticks} GVT rounds (generated, 3 groups, 2 bursts):`);
  const whole = await timeOnce(() => session.analysis());
  line(
    'session analysis: k-means + 2 MDS + E-Divisive (budget 2 s)',
    whole,
    ` → ${whole.value.changePoints.starts.length} change points`,
  );
  for (const clustering of ['pam', 'complete-linkage'] as const) {
    const t = await timeOnce(() => new PdesAnalysisSession(run, { clustering }).analysis());
    line(`session analysis with ${clustering}`, t);
  }
  // The parts of the default pipeline.
  const top = session.features([b.metrics.find(m => m.id === 'secondary_rollbacks')!.id]);
  const parts: [string, () => unknown][] = [
    ['  features (min–max scaled)', () => session.features(['secondary_rollbacks'])],
    ['  Euclidean distances (one view)', () => pairwiseDistances(top)],
    ['  k-means (10 restarts)', () => clusterSeries(top, { algorithm: 'k-means' })],
    ['  classical MDS (one view)', () => classicalMds(pairwiseDistances(top), b.count)],
    ['  E-Divisive (199 permutations)', () => eDivisive([scaleMinMax(b.series('secondary_rollbacks'))])],
  ];
  for (const [name, f] of parts) line(name, await timeOnce(f));

  // DTW (band 10 % = 50 samples) and t-SNE (perplexity 30, 1,000 iterations): the heavy jobs.
  const heavy = new PdesAnalysisSession(run, { distance: 'dtw', projection: 'tsne', clustering: 'pam' });
  const jobs = heavy.heavyJobs();
  const distanceJobs = jobs.filter((j): j is DistanceJob => j.kind === 'distances');
  const tsneJobs = jobs.filter((j): j is TsneJob => j.kind === 'tsne');
  const job = distanceJobs[0]!;
  const out = new Float64Array(condensedLength(job.features.entities));
  const halves = distanceJobParts(job, 2);
  const halfTimes: Timing[] = [];
  for (const rows of halves) halfTimes.push(await timeOnce(() => runToEnd(distanceRowSteps(job, rows, out))));
  line('DTW matrix, one thread, rows split in 2 (each half)', halfTimes[0]!, ` | ${fmt(halfTimes[1]!)}`);
  const tsne = await timeOnce(() => runToEnd(tsneLayoutSteps(tsneJobs[0]!, out)));
  line('t-SNE layout, one thread (one similarity view)', tsne);
  if (__filename.endsWith('.ts')) {
    const pool = new WorkerPool(2);
    try {
      const all = await timeOnce(async () => {
        for (const j of distanceJobs) {
          const shared = new Float64Array(new SharedArrayBuffer(8 * condensedLength(j.features.entities)));
          await Promise.all(
            distanceJobParts(j, 2).map((rows, w) => pool.run(w, { kind: 'distances', job: j, rows, shared })),
          );
          heavy.provide(j, shared);
        }
        const layouts = await Promise.all(
          tsneJobs.map((j, w) => pool.run(w, { kind: 'tsne', job: j, distances: heavy.result(j.distances) })),
        );
        tsneJobs.forEach((j, w) => heavy.provide(j, layouts[w] as Float64Array));
      });
      line(`2 workers: ${distanceJobs.length} DTW matrices by halves, then 2 t-SNE layouts`, all);
      const rest = await timeOnce(() => heavy.analysis());
      line('  then the session analysis (PAM, E-Divisive) on the main thread', rest);
    } finally {
      await pool.close();
    }
  } else console.log('  (worker threads measured only when run with tsx; the halves above are each worker’s share)');
}

/** The 8-PE run's 249,907 events: 128 × 128 interval matrices and the circular views of its segments. */
async function intervalViews(): Promise<void> {
  if (!existsSync(FULL_TRACE)) {
    console.log(`  (8-PE full trace not present at ${FULL_TRACE}; interval matrices skipped)`);
    return;
  }
  const run = await readPdesRun(FULL_TRACE);
  const trace = run.eventTrace!;
  const edges = tickEdges(run.samples.gvt!.ticks.virtualTime);
  console.log(`  8-PE CODES run, ${trace.count} traced events, ${edges.length - 1} GVT intervals:`);
  intervalMatrices(trace, run.entities, 'kp', edges); // warm-up
  line(
    '128 × 128 KP interval matrices, dense (budget 1 s)',
    await timeOnce(() => intervalMatrices(trace, run.entities, 'kp', edges)),
  );
  line('128 × 128 KP interval pairs, sparse', await timeOnce(() => intervalPairs(trace, run.entities, 'kp', edges)));
  const analysis = new PdesAnalysisSession(run).analysis();
  const all = Int32Array.from({ length: analysis.behaviour.count }, (_, i) => i);
  const views = await timeOnce(() =>
    circularViewData(run, analysis, all, segmentCommunication(run, analysis.behaviour, analysis.segments)),
  );
  line(`circular views of ${analysis.segments.length} segments (pairs, PE ribbons, rings)`, views);
}

/**
 * Two worker threads that run the session's heavy jobs, as the analysis service would: a distance
 * job's row range into a shared matrix, or a t-SNE layout from a matrix. TypeScript sources are
 * loaded through tsx's require hook, so this runs from the sources only.
 */
class WorkerPool {
  private readonly workers: Worker[];
  constructor(size: number) {
    // Resolved at run time from the repository (this file runs from scripts/ or bundled in dist/),
    // never by the bundler: the workers load the TypeScript sources through tsx.
    const root = resolve(__dirname, '..');
    const fromRoot = createRequire(join(root, 'package.json'));
    const source = (path: string) => JSON.stringify(join(root, path));
    const code = `
      require(${JSON.stringify(fromRoot.resolve('tsx/cjs/api'))}).register();
      const { parentPort } = require('node:worker_threads');
      const { distanceRowSteps, tsneLayoutSteps } = require(${source('src/analysis/pdes/pdes-analysis.ts')});
      const { runToEnd } = require(${source('src/analysis/series/sliced.ts')});
      parentPort.on('message', m => {
        if (m.kind === 'distances') {
          runToEnd(distanceRowSteps(m.job, m.rows, m.shared));
          parentPort.postMessage(null);
        } else {
          const layout = runToEnd(tsneLayoutSteps(m.job, m.distances));
          parentPort.postMessage(layout, [layout.buffer]);
        }
      });`;
    this.workers = Array.from({ length: size }, () => new Worker(code, { eval: true }));
  }

  run(worker: number, message: unknown): Promise<unknown> {
    const w = this.workers[worker]!;
    return new Promise((done, fail) => {
      w.once('message', done);
      w.once('error', fail);
      w.postMessage(message);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(w => w.terminate()));
  }
}
