/**
 * Automated trace analysis at scale (seed 001 digest §6 scenario P): 4,096 ranks × 20,000 samples
 * each, call paths ~18 frames deep, a 200-iteration main loop. Lanes are generated one at a time
 * and fed to the analysis as a TraceSource, so what is measured is the analysis (its peak memory
 * holds the summary tree and O(K log M) lane trees, not a 10⁸-event profile). Prints the time per
 * phase — temporal context trees, iterations (Algorithm 1 and per-loop clustering), summary folding,
 * thread-level clustering (Algorithm 3) — the peak resident memory, and how the thread-level
 * clustering grows with M (expected ≈ M log M). `HPC_LENS_BENCH_TRACE_RANKS` and
 * `HPC_LENS_BENCH_TRACE_SAMPLES` override the size.
 */
import { NodeKind } from '../src/analysis/model/call-tree';
import { ProfileBuilder } from '../src/analysis/model/profile-builder';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import {
  allLaneRanges,
  analyseLanes,
  finishTraceAnalysis,
  newTimings,
  planTraceAnalysis,
} from '../src/analysis/timeseries/analyze-trace';
import type { LaneEvents, LaneInfo, TraceSource } from '../src/analysis/timeseries/trace-source';
import { cpuMs, timeSync } from './bench-timing';

const V = 1e6; // 1 ms in ns

/**
 * main → driver → solver → loop@100 × iterations { timestep → physics → 10 nested calls → a loop
 * over flux / source / update (5 samples each, in turn: too short to resolve, so a profile node);
 * halo_exchange → MPI_Sendrecv; MPI_Allreduce; every 50th iteration checkpoint → write }. One rank in 64 computes 10 % longer and waits less in the
 * allreduce. Samples are 1 ms apart with ±10 % jitter; no LCAs (like HPCToolkit's trace.db).
 */
export function benchTraceSource(ranks: number, samples: number, iterations: number): TraceSource {
  const b = new ProfileBuilder('bench-trace-analysis', `bench:${ranks}x${samples}`);
  const t = b.tree;
  const file = '/home/user/app/solver.c';
  const fn = (parent: number, name: string, callLine: number) =>
    t.add(parent, name, NodeKind.Function, { file, line: callLine + 1000, callLine });
  const root = t.add(-1, 'main thread', NodeKind.Region, {});
  const main = fn(root, 'main', 1);
  const solver = fn(fn(main, 'driver', 10), 'solver', 20);
  const loop = t.add(solver, 'loop@100', NodeKind.Loop, { file, line: 100 });
  let chain = fn(fn(loop, 'timestep', 101), 'physics', 200);
  for (let k = 0; k < 10; k++) chain = fn(chain, `stage${k}`, 300 + k);
  const cells = t.add(chain, 'loop@390', NodeKind.Loop, { file, line: 390 });
  const leaves = ['flux', 'source', 'update'].map((name, k) => fn(cells, name, 400 + k));
  const write = fn(fn(loop, 'checkpoint', 102), 'write', 160);
  const sendrecv = t.add(fn(loop, 'halo_exchange', 103), 'MPI_Sendrecv', NodeKind.Function, { callLine: 150 });
  const allreduce = t.add(loop, 'MPI_Allreduce', NodeKind.Function, { callLine: 104 });
  const tree = b.build(
    b.addMetric({ name: 'time', label: 'time', sourceKeys: [], unit: 's', kind: 'exclusive', aggregation: 'sum' }),
  ).tree;

  const perIteration = Math.floor(samples / iterations);
  const lanes: LaneInfo[] = Array.from({ length: ranks }, (_, r) => ({
    track: r,
    name: `rank ${r}`,
    kind: 'thread',
    sampled: true,
    events: perIteration * iterations,
    context: r,
    entry: leaves[0]!,
  }));
  const events = (lane: number): LaneEvents => {
    const rnd = seededRandom(lane + 1);
    const n = perIteration * iterations;
    const time = new Float64Array(n);
    const node = new Int32Array(n);
    const slow = lane % 64 === 0;
    const compute = Math.round(perIteration * (slow ? 0.88 : 0.8));
    const halo = Math.round(perIteration * 0.08);
    let k = 0,
      clock = rnd() * V;
    for (let it = 0; it < iterations; it++) {
      const io = it % 50 === 49 ? Math.round(perIteration * 0.2) : 0;
      for (let s = 0; s < perIteration; s++, k++) {
        time[k] = clock;
        clock += V * (0.9 + 0.2 * rnd());
        if (s < compute - io) node[k] = leaves[Math.floor(s / 5) % 3]!;
        else if (s < compute) node[k] = write;
        else if (s < compute + halo) node[k] = sendrecv;
        else node[k] = allreduce;
      }
    }
    const none = new Float64Array(0);
    return {
      sampleTime: time,
      sampleNode: node,
      sliceStart: none,
      sliceEnd: none,
      sliceNode: new Int32Array(0),
      sliceDepth: new Int32Array(0),
    };
  };
  const sampleGaps = (budget: number) => {
    const e = events(0);
    const n = Math.min(budget, e.sampleTime.length - 1);
    return Float64Array.from({ length: n }, (_, i) => e.sampleTime[i + 1]! - e.sampleTime[i]!);
  };
  return {
    format: 'bench-trace-analysis',
    tree,
    lanes,
    skipped: [],
    timeRange: [0, samples * V],
    events,
    sampleGaps,
  };
}

/** The analysis of `ranks` generated lanes, timed on CPU (on a shared machine wall time says more about the other jobs) and wall. */
function run(ranks: number, samples: number, iterations: number) {
  const source = benchTraceSource(ranks, samples, iterations);
  const timings = newTimings();
  let finish = 0;
  const t = timeSync(() => {
    const plan = planTraceAnalysis(source);
    const partial = analyseLanes(plan, allLaneRanges(plan), { timings, clock: cpuMs });
    const finished = timeSync(() => finishTraceAnalysis(plan, partial));
    finish = finished.cpuMs;
    return finished.value;
  });
  return { analysis: t.value, timings, total: t.cpuMs, finish, wall: t.wallMs };
}

export async function benchTraceAnalysis(
  ranks = Number(process.env.HPC_LENS_BENCH_TRACE_RANKS ?? 4096),
  samples = Number(process.env.HPC_LENS_BENCH_TRACE_SAMPLES ?? 20_000),
  iterations = 200,
): Promise<void> {
  const { analysis, timings, total, finish, wall } = run(ranks, samples, iterations);
  const peak = process.resourceUsage().maxRSS * 1024;
  const f = (ms: number) => `${(ms / 1e3).toFixed(2)} s`;
  console.log(
    `\ntrace analysis: ${ranks.toLocaleString('en-US')} ranks × ${samples.toLocaleString('en-US')} samples (${((ranks * samples) / 1e6).toFixed(1)} M), ${iterations}-iteration loop (CPU time per phase)`,
  );
  console.log(`  generating the samples               ${f(timings.events)} (not the analysis)`);
  console.log(`  temporal context trees               ${f(timings.tct)}`);
  console.log(`  iterations (Alg. 1 + loop clusters)  ${f(timings.iterations)}`);
  console.log(`  summary tree (min/avg/max per node)  ${f(timings.summary)}`);
  console.log(`  thread-level clustering (Alg. 3)     ${f(timings.laneClustering)}`);
  console.log(`  losses, paths, segments              ${f(finish)}`);
  console.log(`  total (with generation)              ${f(total)} CPU, ${f(wall)} wall — target < 30 s`);
  console.log(`  peak resident memory                 ${(peak / 2 ** 30).toFixed(2)} GiB — target < 4 GiB`);
  console.log(
    `  result: ${analysis.clusters.length} clusters (${analysis.clusters.map(c => c.members.length).join(' + ')}), ${analysis.loops.map(l => `${l.name} ${l.iterations} iterations`).join(', ')}, ${analysis.significant.length} significant paths, ${analysis.segments.length} segments`,
  );
  // Growth of the thread-level clustering with M (same lanes, fewer samples each to keep this short).
  console.log('  thread-level clustering vs M (2,000 samples, 20 iterations per lane):');
  run(256, 2000, 20); // warm-up: the first run pays for compilation
  let base = 0;
  for (const m of [512, 1024, 2048, 4096].filter(m => m <= ranks)) {
    const { timings: t } = run(m, 2000, 20);
    const perMlogM = t.laneClustering / (m * Math.log2(m));
    base ||= perMlogM;
    console.log(
      `    M = ${String(m).padStart(4)}: ${t.laneClustering.toFixed(0).padStart(6)} ms, ${(1e3 * perMlogM).toFixed(2)} µs per M·log₂M (${(perMlogM / base).toFixed(2)}× the first)`,
    );
  }
}
