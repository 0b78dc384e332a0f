// DMV (src/analysis/dmv) at scale: the index, the 12-sector clock, the communication matrix and a
// window update on a 10^6-event trace, then a 1,000-run grid of clocks (Sort and Compare).
// Targets (issue 22): clock and matrix < 200 ms, a window update < 100 ms at 10^6 events.
// Usage: node --import tsx scripts/bench-dmv.ts [events=1000000] [runs=1000]   (`npm run bench` calls benchDmv()).
import { applicationView } from '../src/analysis/dmv/application-view';
import { compileCategoryRules } from '../src/analysis/dmv/categories';
import { dmvClock, summariseWindow } from '../src/analysis/dmv/clock';
import { DmvIndex } from '../src/analysis/dmv/dmv-index';
import { dataMovementFlags } from '../src/analysis/dmv/flags';
import { visibleEvents } from '../src/analysis/dmv/grouping';
import { hardwareView, traceHostGpuTopology } from '../src/analysis/dmv/hardware';
import { communicationMatrix } from '../src/analysis/dmv/matrix';
import { orderByVariance, traceMetricTracks } from '../src/analysis/dmv/metrics';
import { hardwareDrawing } from '../src/analysis/dmv/panel-data';
import { clockGrid, digestRun } from '../src/analysis/dmv/trace-ensemble';
import { randomTraceProfile } from '../src/analysis/timeline/testing/random-trace';
import { syntheticTraceProfile } from '../src/analysis/timeline/testing/synthetic-trace';

// The synthetic MPI + OpenMP + CUDA trace names its classes `cpu`, `mpi`, `Kernel`, `Memcpy`: rules map them.
const RULES = compileCategoryRules([
  { cat: 'cpu', name: '/^cuda/', category: 'runtime' },
  { cat: 'cpu', category: 'cpuCompute' },
  { cat: 'mpi', category: 'cpuCompute' },
]);

/** Median wall time over `runs` calls, and the CPU time of that call (the machine may be shared: CPU time is the steadier figure). */
function medianMs(runs: number, f: () => void): { wall: number; cpu: number } {
  const t: { wall: number; cpu: number }[] = [];
  for (let k = 0; k < runs; k++) {
    const c = process.cpuUsage();
    const s = performance.now();
    f();
    const wall = performance.now() - s;
    const u = process.cpuUsage(c);
    t.push({ wall, cpu: (u.user + u.system) / 1000 });
  }
  return t.sort((a, b) => a.wall - b.wall)[Math.floor(runs / 2)]!;
}

const fmt = (m: { wall: number; cpu: number } | number, target?: number) => {
  const { wall, cpu } = typeof m === 'number' ? { wall: m, cpu: NaN } : m;
  const mark =
    target === undefined
      ? ''
      : wall < target
        ? ` < ${target} ms ✓`
        : cpu < target
          ? ` CPU < ${target} ms ✓`
          : ` target ${target} ms ✗`;
  return `${wall.toFixed(1)} ms${Number.isNaN(cpu) ? '' : ` (CPU ${cpu.toFixed(1)} ms)`}${mark}`;
};

export async function benchDmv(
  events = Number(process.env.HPC_LENS_BENCH_DMV_EVENTS ?? 1e6),
  runs = Number(process.env.HPC_LENS_BENCH_DMV_RUNS ?? 1000),
): Promise<void> {
  const profile = syntheticTraceProfile({
    ranks: 16,
    threadsPerRank: 4,
    streamsPerRank: 2,
    targetEvents: events,
    seed: 3,
  });
  const trace = profile.trace!;
  const n = trace.events.kind.length;
  let built: DmvIndex | undefined;
  const build = medianMs(1, () => (built = new DmvIndex(profile, { rules: RULES })));
  const ix = built!;
  const timeline = medianMs(1, () => void ix.timeline);
  dmvClock(ix, ix.range); // warm-up
  const clock = medianMs(5, () => dmvClock(ix, ix.range));
  const matrix = medianMs(5, () => communicationMatrix(ix));
  const tracks = traceMetricTracks(ix);
  const base = traceHostGpuTopology(ix);
  const span = ix.runtime;
  const windows = Array.from({ length: 9 }, (_, k) => ({
    start: ix.range.start + (k / 10) * span,
    end: ix.range.start + ((k + 1) / 10) * span,
  }));
  let w = 0;
  const next = () => windows[w++ % windows.length]!;
  // A window update re-summarises the views that follow the window: the clock's arc summary, the
  // matrix, the hardware view and its drawing (the shared topology component's data), and the metric order.
  const update = medianMs(9, () => {
    const win = next();
    summariseWindow(ix, win);
    communicationMatrix(ix, { window: win });
    hardwareDrawing(hardwareView(ix, win, null, base));
    orderByVariance(tracks, win);
  });
  const grouping = medianMs(5, () => visibleEvents(ix, next()));
  const app = medianMs(5, () => applicationView(ix, next()));
  const flags = medianMs(3, () => dataMovementFlags(ix));
  const visible = visibleEvents(ix, windows[4]!);
  console.log(
    `\nDMV on ${n.toLocaleString('en')} events (${trace.tracks.length} tracks, ${trace.dataMovement.kind.length.toLocaleString('en')} copies):\n` +
      `  index ${fmt(build)} (+ timeline index ${fmt(timeline)}), clock ${fmt(clock, 200)}, matrix ${fmt(matrix, 200)}\n` +
      `  window update (summary + matrix + hardware + metric order, a tenth of the run) ${fmt(update, 100)}\n` +
      `  grouping of a tenth (${visible.total.toLocaleString('en')} events → ${visible.items.length} items) ${fmt(grouping)}, ` +
      `application view ${fmt(app)}, flags ${fmt(flags)}`,
  );

  // A grid of `runs` clocks: small random traces (4 lanes of nested slices, copies, samples) of varying length.
  const t = performance.now();
  const digests = Array.from({ length: runs }, (_, k) =>
    digestRun(new DmvIndex(randomTraceProfile(k + 1, 4, 250), { rules: RULES }), `run ${k}`),
  );
  const made = performance.now() - t;
  const sorted = medianMs(3, () => clockGrid(digests, { sort: true }));
  const compare = medianMs(3, () => clockGrid(digests, { mode: 'compare', sort: true }));
  console.log(
    `  grid of ${runs.toLocaleString('en')} runs (${digests.reduce((s, d) => s + d.trace.dataMovement.kind.length, 0).toLocaleString('en')} copies; traces and digests made in ${fmt(made)}): ` +
      `Sort ${fmt(sorted)}, Compare ${fmt(compare)}`,
  );
}

if (process.argv[1]?.endsWith('bench-dmv.ts'))
  void benchDmv(Number(process.argv[2] ?? 1e6), Number(process.argv[3] ?? 1000));
