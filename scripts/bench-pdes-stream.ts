// Streaming PDES analytics (issue #20) beside the seed's Table 6.1 (thesis §6.6, iMac Late 2014,
// 4 GHz i7): online CPD per point, entities clustered and reduced within 1 s, VAR time points
// within 1 s; then the live monitor's per-tick latency at n = 256 KPs, t ≤ 1,000 (budget 100 ms in
// total, each method within its budget + 20 %). Wall-clock and CPU time are both printed: on a
// loaded machine CPU time is the steadier figure.
// Run: `npm run bench -- pdes-stream`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PdesMonitor } from '../src/analysis/pdes/stream/pdes-monitor';
import { generateRossRun } from '../src/analysis/pdes/testing/ross-generator';
import { AffChangeDetector } from '../src/analysis/series/aff-change-detector';
import { OnlinePc1Reducer } from '../src/analysis/series/online-reduction';
import { progressiveCausality } from '../src/analysis/series/progressive-causality';
import { progressiveKMeans } from '../src/analysis/series/progressive-k-means';
import { progressivePca } from '../src/analysis/series/progressive-projection';
import { gaussianFrom, seededRandom } from '../src/analysis/stats/seeded-random';
import { cpuMs, median, timeSync } from './bench-timing';

const n0 = (x: number) => x.toLocaleString('en-US');
const pad = (s: string, w: number) => s.padStart(w);

/** Entity series for the progressive benchmarks: overlapping windows of one seeded pool (memory t + n, not t·n). */
function windowRows(n: number, t: number, seed: number): Float64Array[] {
  const normal = gaussianFrom(seededRandom(seed));
  // Three behaviours along the pool, so the windows fall into groups.
  const pool = Float64Array.from({ length: t + n }, (_, i) => Math.floor((3 * i) / (t + n)) + 0.3 * normal());
  return Array.from({ length: n }, (_, i) => pool.subarray(i, i + t));
}

function benchCpd(): void {
  console.log('\n(a) Online CPD (incremental PCA + sign coherence + AFF), time per new time point');
  console.log('    n (series)    seed (iMac)       here (wall)       here (CPU)');
  for (const [n, seed] of [
    [100, 0.01],
    [1000, 0.05],
    [10_000, 0.46],
    [100_000, 6.23],
  ] as const) {
    const normal = gaussianFrom(seededRandom(n));
    const pool = Array.from({ length: 16 }, () => Float64Array.from({ length: n }, () => normal()));
    const reducer = new OnlinePc1Reducer(n);
    const aff = new AffChangeDetector();
    const step = (i: number) => {
      const v = reducer.update(pool[i % pool.length]!).value;
      if (v !== null) aff.update(v);
    };
    for (let i = 0; i < (n >= 100_000 ? 20 : 300); i++) step(i); // warm-up (compilation)
    const points = n >= 100_000 ? 100 : 1000;
    const r = timeSync(() => {
      for (let i = 0; i < points; i++) step(i);
    });
    console.log(
      `    ${pad(n0(n), 10)}    ${pad(seed.toFixed(2), 8)} ms    ${pad((r.wallMs / points).toFixed(3), 10)} ms    ${pad((r.cpuMs / points).toFixed(3), 10)} ms`,
    );
  }
}

function benchProgressive(): void {
  const n = 10_000;
  console.log(`\n(b) Progressive clustering (mini-batch k-means, k = 3) and (c) progressive DR (incremental PCA),`);
  console.log(
    `    entities processed within 1 s of ${n0(n)} (the fit only, as the seed counts; assignment or projection after)`,
  );
  console.log('    t          (b) seed   here    assign all       (c) seed   here    project all');
  const seeds: Record<number, [number, number]> = {
    100: [5392, 10000],
    1000: [4921, 10000],
    10_000: [3074, 2396],
    100_000: [562, 118],
  };
  // Warm-up.
  progressiveKMeans(windowRows(500, 50, 1), null, { budgetMs: 50, reserveAssignment: false });
  progressivePca(windowRows(500, 50, 1), { budgetMs: 50, reserveProjection: false });
  for (const t of [100, 1000, 10_000, 100_000]) {
    const rows = windowRows(n, t, t);
    const previous = Int32Array.from({ length: n }, (_, i) => Math.floor((3 * i) / n));
    const k = timeSync(() => progressiveKMeans(rows, previous, { budgetMs: 1000, reserveAssignment: false }));
    const p = timeSync(() => progressivePca(rows, { budgetMs: 1000, labels: previous, reserveProjection: false }));
    const [sk, sp] = seeds[t]!;
    console.log(
      `    ${pad(n0(t), 7)}    ${pad(n0(sk), 8)} ${pad(n0(k.value.processed), 7)}    ${pad(k.value.assignMs.toFixed(0), 6)} ms` +
        `       ${pad(n0(sp), 8)} ${pad(n0(p.value.processed), 7)}    ${pad(p.value.projectMs.toFixed(0), 6)} ms` +
        `   (CPU ${k.cpuMs.toFixed(0)} + ${p.cpuMs.toFixed(0)} ms)`,
    );
  }
}

function benchVar(): void {
  console.log('\n(d) Progressive VAR (AIC lag ≤ 5, most recent contiguous points), time points within 1 s of 10,000');
  console.log('    d (metrics)   seed (iMac)    here     lag   wall        CPU');
  for (const [d, seed] of [
    [10, 10000],
    [100, 833],
    [1000, 35],
  ] as const) {
    const t = 10_000;
    const normal = gaussianFrom(seededRandom(d));
    const data = new Float64Array(t * d);
    // Independent AR(1) metrics, metric j also driven by metric j − 1 at lag 1.
    for (let r = 1; r < t; r++)
      for (let j = 0; j < d; j++)
        data[r * d + j] = 0.5 * data[(r - 1) * d + j]! + (j ? 0.3 * data[(r - 1) * d + j - 1]! : 0) + normal();
    const r = timeSync(() => progressiveCausality(data, t, d, 0, null, { budgetMs: 1000 }));
    const res = r.value;
    const points = 'skipped' in res ? 'none' : n0(res.points);
    const lag = 'skipped' in res ? '-' : String(res.lag);
    console.log(
      `    ${pad(n0(d), 9)}     ${pad(n0(seed), 9)}    ${pad(points, 6)}   ${pad(lag, 3)}   ${pad(r.wallMs.toFixed(0), 6)} ms   ${pad(r.cpuMs.toFixed(0), 6)} ms` +
        ('skipped' in res ? `   (${res.skipped})` : ''),
    );
  }
}

function benchLatency(clock: 'wall' | 'cpu'): void {
  const ticks = 1000;
  console.log(
    `\nLive monitor latency: 16 PEs × 16 KPs = 256 entities, ${n0(ticks)} GVT ticks, every tick analysed, ` +
      (clock === 'wall'
        ? 'budgets and timings on the wall clock (as shipped)'
        : 'budgets and timings on CPU time (an idle core)'),
  );
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-stream-'));
  try {
    const truth = generateRossRun(dir, { seed: 20, ticks, eventsPerKp: 6, eventTrace: false });
    const bytes = readFileSync(truth.files.gvt);
    const round = bytes.length / ticks;
    const monitor = new PdesMonitor({
      mode: 'gvt',
      path: truth.files.gvt,
      expectedPes: 16,
      settings: { skipStaleTicks: false },
      clock: clock === 'cpu' ? cpuMs : undefined, // CPU time: budgets behave as on an idle core, whatever the load
    });
    const o = monitor.options;
    const rows: { t: number; total: number; cpd: number; clustering: number; projection: number; causality: number }[] =
      [];
    const run = timeSync(() => {
      for (let t = 0; t < ticks; t++)
        for (const u of monitor.pushStats(bytes.subarray(t * round, (t + 1) * round)))
          rows.push({
            t: u.tick,
            total: u.timings.total,
            cpd: u.timings.changePoints,
            clustering: u.timings.clustering,
            projection: u.timings.projection,
            causality: u.timings.causality,
          });
      monitor.finish();
    });
    const stats = (key: keyof (typeof rows)[number], from = 0, to = ticks) => {
      const v = rows
        .filter(r => r.t >= from && r.t < to)
        .map(r => r[key])
        .sort((a, b) => a - b);
      return {
        median: median(v),
        p95: v[Math.floor(0.95 * (v.length - 1))]!,
        max: v[v.length - 1]!,
      };
    };
    const budgets = {
      total: 100,
      cpd: Infinity,
      clustering: o.clustering.budgetMs,
      projection: 2 * o.projection.budgetMs,
      causality: o.causality.budgetMs,
    };
    console.log(
      `    ${rows.length} ticks analysed in ${run.wallMs.toFixed(0)} ms wall, ${run.cpuMs.toFixed(0)} ms CPU`,
    );
    console.log('    per tick (ms)          median     p95      max    budget (+20 %)   ticks over');
    for (const key of ['total', 'cpd', 'clustering', 'projection', 'causality'] as const) {
      const s = stats(key);
      const limit = key === 'total' ? budgets.total : budgets[key] * 1.2;
      const over = rows.filter(r => r[key] > limit).length;
      const name = key === 'projection' ? 'projection (2 views)' : key === 'cpd' ? 'change points' : key;
      console.log(
        `    ${name.padEnd(20)} ${pad(s.median.toFixed(2), 8)} ${pad(s.p95.toFixed(2), 7)} ${pad(s.max.toFixed(2), 8)}    ${pad(Number.isFinite(limit) ? limit.toFixed(0) : '—', 8)}      ${pad(String(over), 5)}`,
      );
    }
    const late = stats('total', 900, 1000);
    console.log(`    total at t = 900–1,000: median ${late.median.toFixed(1)} ms, max ${late.max.toFixed(1)} ms`);
    if (clock === 'wall') {
      const cp = monitor.analyser.changePoints.map(c => c.tick);
      console.log(`    change points: ${cp.join(', ')} (planted burst edges ${truth.changePoints.join(', ')})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the streaming benchmark. */
export async function benchPdesStream(): Promise<void> {
  console.log('Streaming PDES analytics beside the seed’s Table 6.1 (iMac, Late 2014)');
  benchCpd();
  benchProgressive();
  benchVar();
  benchLatency('wall');
  benchLatency('cpu');
}
