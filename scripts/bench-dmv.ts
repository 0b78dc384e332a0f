// DMV (src/analysis/dmv) at scale: the index, the 12-sector clock, the communication matrix and a
// window update on a 10^6-event trace, then a 1,000-run grid of clocks (Sort and Compare).
// Targets (issue 22): clock and matrix < 200 ms, a window update < 100 ms at 10^6 events.
// Run: `npm run bench -- dmv` (HPC_LENS_BENCH_DMV_EVENTS and HPC_LENS_BENCH_DMV_RUNS choose the sizes).
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
import { formatTiming, timeRepeated, timeSync, type Timing } from './bench-timing';

// The synthetic MPI + OpenMP + CUDA trace names its classes `cpu`, `mpi`, `Kernel`, `Memcpy`: rules map them.
const RULES = compileCategoryRules([
  { cat: 'cpu', name: '/^cuda/', category: 'runtime' },
  { cat: 'cpu', category: 'cpuCompute' },
  { cat: 'mpi', category: 'cpuCompute' },
]);

/** Wall time with CPU beside, and the target when there is one: met on wall time, or on CPU time when only load missed it. */
const fmt = (t: Timing, target?: number) => {
  const mark =
    target === undefined
      ? ''
      : t.wallMs < target
        ? ` < ${target} ms ✓`
        : t.cpuMs < target
          ? ` CPU < ${target} ms ✓`
          : ` target ${target} ms ✗`;
  return `${formatTiming(t, { digits: 1 })}${mark}`;
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
  const build = timeSync(() => (built = new DmvIndex(profile, { rules: RULES })));
  const ix = built!;
  const timeline = timeSync(() => void ix.timeline);
  const clock = await timeRepeated(() => dmvClock(ix, ix.range));
  const matrix = await timeRepeated(() => communicationMatrix(ix), { warmup: 0 });
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
  const update = await timeRepeated(
    () => {
      const win = next();
      summariseWindow(ix, win);
      communicationMatrix(ix, { window: win });
      hardwareDrawing(hardwareView(ix, win, null, base));
      orderByVariance(tracks, win);
    },
    { repeats: 9, warmup: 0 },
  );
  const grouping = await timeRepeated(() => visibleEvents(ix, next()), { warmup: 0 });
  const app = await timeRepeated(() => applicationView(ix, next()), { warmup: 0 });
  const flags = await timeRepeated(() => dataMovementFlags(ix), { repeats: 3, warmup: 0 });
  const visible = visibleEvents(ix, windows[4]!);
  console.log(
    `\nDMV on ${n.toLocaleString('en')} events (${trace.tracks.length} tracks, ${trace.dataMovement.kind.length.toLocaleString('en')} copies):\n` +
      `  index ${fmt(build)} (+ timeline index ${fmt(timeline)}), clock ${fmt(clock, 200)}, matrix ${fmt(matrix, 200)}\n` +
      `  window update (summary + matrix + hardware + metric order, a tenth of the run) ${fmt(update, 100)}\n` +
      `  grouping of a tenth (${visible.total.toLocaleString('en')} events → ${visible.items.length} items) ${fmt(grouping)}, ` +
      `application view ${fmt(app)}, flags ${fmt(flags)}`,
  );

  // A grid of `runs` clocks: small random traces (4 lanes of nested slices, copies, samples) of varying length.
  const made = timeSync(() =>
    Array.from({ length: runs }, (_, k) =>
      digestRun(new DmvIndex(randomTraceProfile(k + 1, 4, 250), { rules: RULES }), `run ${k}`),
    ),
  );
  const digests = made.value;
  const sorted = await timeRepeated(() => clockGrid(digests, { sort: true }), { repeats: 3, warmup: 0 });
  const compare = await timeRepeated(() => clockGrid(digests, { mode: 'compare', sort: true }), {
    repeats: 3,
    warmup: 0,
  });
  console.log(
    `  grid of ${runs.toLocaleString('en')} runs (${digests.reduce((s, d) => s + d.trace.dataMovement.kind.length, 0).toLocaleString('en')} copies; traces and digests made in ${fmt(made)}): ` +
      `Sort ${fmt(sorted)}, Compare ${fmt(compare)}`,
  );
}
