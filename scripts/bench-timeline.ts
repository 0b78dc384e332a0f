/**
 * Timeline at scale: the synthetic 10⁷-event trace over 1,024 lanes (128 ranks × 6 threads + 2 GPU
 * streams). Reports the index build time and memory, the per-frame tile cost for all 1,024 lanes
 * at W = 1,600 (full view and zoomed in 10× … 10⁵×, call depths 0 and 3), window statistics and
 * the windowed profile. `HPC_LENS_BENCH_TIMELINE_EVENTS` overrides the event count.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Profile, type ProfileData } from '../src/analysis/model/profile';
import { computeMinimap, computeTiles } from '../src/analysis/timeline/tiles';
import { WorkerPool } from '../src/service/worker-pool';
import { shared } from '../src/service/shared-memory';
import type { TimelineWorkerRequest } from '../src/service/timeline-requests';
import { syntheticTraceProfile } from '../src/analysis/timeline/testing/synthetic-trace';
import { TimelineIndex } from '../src/analysis/timeline/timeline-index';
import { profileForWindow, windowStatistics } from '../src/analysis/timeline/window-stats';
import { formatMs, formatTiming, timeOnce, timeRepeated, timeSync, type Timing } from './bench-timing';

const fmt = (t: Timing, digits = 0) => formatTiming(t, { digits });

export async function benchTimeline(events = Number(process.env.HPC_LENS_BENCH_TIMELINE_EVENTS ?? 1e7)): Promise<void> {
  const generated = timeSync(() =>
    syntheticTraceProfile({ ranks: 128, threadsPerRank: 6, streamsPerRank: 2, targetEvents: events }),
  );
  const profile = generated.value;
  const trace = profile.trace!;
  const n = trace.events.track.length;
  const built = timeSync(() => new TimelineIndex(profile));
  const index = built.value,
    indexMs = built.wallMs;
  const tableBytes = Object.values(trace.events).reduce((s, c) => s + (c as ArrayBufferView).byteLength, 0);
  console.log(
    `\ntimeline: ${(n / 1e6).toFixed(2)} M events, ${trace.tracks.length} lanes (generated in ${fmt(generated)})`,
  );
  console.log(
    `  index build        ${fmt(built)} (${(n / indexMs / 1e3).toFixed(1)} M events/s); index ${(index.memoryBytes / 2 ** 20).toFixed(1)} MiB = ${(index.memoryBytes / n).toFixed(1)} B/event (the event table itself: ${(tableBytes / 2 ** 20).toFixed(0)} MiB)`,
  );
  const mini = timeSync(() => computeMinimap(index, 1024));
  console.log(`  mini-map (1,024 px, all lanes, once)  ${fmt(mini)}`);
  const [lo, hi] = trace.timeRange;
  const tracks = Array.from({ length: index.trackCount }, (_, t) => t);
  const width = 1600;
  const summary = timeSync(() => computeTiles(index, { window: { start: lo, end: hi }, tracks, width, depth: 3 }));
  console.log(`  first whole-run frame at depth 3 (builds that depth's lane summaries)  ${fmt(summary)}`);
  console.log('  tiles, 1,024 lanes × 1,600 px (median of 5 pans):');
  for (const zoom of [1, 10, 100, 1e3, 1e4, 1e5]) {
    for (const depth of [0, 3]) {
      const span = (hi - lo) / zoom;
      let detail = 0,
        k = 0;
      const t = await timeRepeated(
        () => {
          const start = lo + (hi - lo - span) * (0.2 + 0.15 * k++);
          const r = computeTiles(index, { window: { start, end: start + span }, tracks, width, depth });
          detail = r.detail.reduce((s, x) => s + x, 0);
        },
        { repeats: 5, warmup: 0 },
      );
      console.log(
        `    zoom ${String(zoom).padStart(6)}× depth ${depth}: ${formatMs(t.wallMs, { digits: 1, width: 10 })}/frame (CPU ${formatMs(t.cpuMs, { digits: 1 })})  (${detail} lanes in full detail)`,
      );
    }
  }
  const exact = timeSync(() =>
    computeTiles(index, { window: { start: lo, end: hi }, tracks, width, depth: 3, exact: true }),
  );
  console.log(`    zoom      1× depth 3 from the events (exact: true, no summary): ${fmt(exact)} a frame`);
  console.log(
    `  lane summaries (depths 0 and 3, every lane): ${(index.tileSummary.memoryBytes / 2 ** 20).toFixed(1)} MiB = ${(index.tileSummary.memoryBytes / n).toFixed(1)} B/event`,
  );
  for (const zoom of [1, 100]) {
    const span = (hi - lo) / zoom,
      start = lo + (hi - lo - span) / 2;
    const stats = timeSync(() => windowStatistics(index, { start, end: start + span }));
    const windowed = timeSync(() => profileForWindow(index, { start, end: start + span }));
    console.log(
      `  window ${zoom === 1 ? 'whole run' : `1/${zoom} of the run`}: statistics ${fmt(stats)}, windowed profile ${fmt(windowed)}`,
    );
  }
}

/** A copy of the profile whose typed arrays live in SharedArrayBuffers, as a read hands it to the host. */
function sharedProfile(p: Profile): Profile {
  return new Profile(shared(p.toTransferable().data) as ProfileData);
}

/**
 * The timeline view's path: the host asks the analysis service's worker (dist/analysis-worker.js,
 * timeline-requests.ts) and receives tiles by postMessage. Reports the time to the first paint's
 * data (init: index + mini-map, then the first tiles of the lanes a panel shows) and the latency
 * of each pan/zoom frame request, and how long the host's event loop was blocked meanwhile.
 */
export async function benchTimelineWorker(
  events = Number(process.env.HPC_LENS_BENCH_TIMELINE_EVENTS ?? 1e7),
): Promise<void> {
  // dist/bench.js sits beside the worker bundle; run from scripts/ (tsx), use the built one in dist/.
  const workerScript = [
    join(__dirname, 'analysis-worker.js'),
    join(__dirname, '..', 'dist', 'analysis-worker.js'),
  ].find(p => existsSync(p));
  if (!workerScript) throw new Error('dist/analysis-worker.js is missing: run `node esbuild.mjs` first');
  const profile = sharedProfile(
    syntheticTraceProfile({ ranks: 128, threadsPerRank: 6, streamsPerRank: 2, targetEvents: events }),
  );
  const worker = new WorkerPool({ workerScript });
  const lag = monitorEventLoopDelay({ resolution: 5 });
  try {
    const { dataset } = await worker.adoptShared({ data: profile.data });
    const ask = <K extends TimelineWorkerRequest['kind']>(request: Extract<TimelineWorkerRequest, { kind: K }>) =>
      worker.timeline<K>({ dataset, request });
    const [lo, hi] = profile.trace!.timeRange;
    const width = 1600;
    // A panel 900 px tall shows about 40 lanes; the view asks for those (plus overscan) only.
    const visible = Array.from({ length: 44 }, (_, t) => t);
    const all = Array.from({ length: profile.trace!.tracks.length }, (_, t) => t);
    lag.enable();
    const initTime = await timeOnce(() => ask({ kind: 'init', minimapWidth: 1024 }));
    const init = initTime.value;
    const firstTiles = await timeOnce(() =>
      ask({
        kind: 'tiles',
        window: { start: lo, end: hi },
        tracks: visible,
        width,
        depth: 0,
        colourBy: 'function',
        depthViews: [],
      }),
    );
    lag.disable();
    const firstPaint = { wallMs: initTime.wallMs + firstTiles.wallMs, cpuMs: initTime.cpuMs + firstTiles.cpuMs };
    console.log(`
timeline through the analysis worker (${(profile.trace!.events.track.length / 1e6).toFixed(2)} M events, ${init.trackCount} lanes):`);
    console.log(
      `  first paint data: ${fmt(firstPaint)} = init (adopt, index, lane rows, 1,024-px mini-map) ${fmt(initTime)} + first tiles (44 lanes × ${width} px) ${fmt(firstTiles)}; CPU of both threads; host event loop blocked at most ${(lag.max / 1e6).toFixed(1)} ms`,
    );
    for (const [label, tracks] of [
      ['44 visible lanes', visible],
      ['all 1,024 lanes', all],
    ] as const) {
      for (const zoom of [1, 10, 1e3, 1e5]) {
        const span = (hi - lo) / zoom;
        lag.reset();
        lag.enable();
        let k = 0;
        const t = await timeRepeated(
          () => {
            const start = lo + (hi - lo - span) * (0.1 + 0.12 * k++);
            return ask({
              kind: 'tiles',
              window: { start, end: start + span },
              tracks: [...tracks],
              width,
              depth: 3,
              colourBy: 'function',
              depthViews: [],
            });
          },
          { repeats: 7, warmup: 0 },
        );
        lag.disable();
        console.log(
          `  pan at zoom ${String(zoom).padStart(6)}×, ${label.padEnd(16)}: median ${formatMs(t.wallMs, { digits: 1, width: 10 })}/frame (CPU ${formatMs(t.cpuMs, { digits: 1 })}; max ${formatMs(t.max.wallMs, { digits: 1 })}), host blocked ≤ ${(lag.max / 1e6).toFixed(1)} ms`,
        );
      }
    }
    const mid = (lo + hi) / 2,
      span = (hi - lo) / 100;
    const stats = await timeOnce(() =>
      ask({ kind: 'windowStats', window: { start: mid, end: mid + span }, tracks: null }),
    );
    const windowed = await timeOnce(() =>
      ask({ kind: 'profileForWindow', window: { start: mid, end: mid + span }, tracks: null }),
    );
    const hover = await timeOnce(() => ask({ kind: 'hover', track: 0, time: mid }));
    console.log(
      `  1/100 of the run: window statistics ${fmt(stats)}, windowed profile ${fmt(windowed)} (round trips); hover lookup ${fmt(hover, 1)}`,
    );
  } finally {
    worker.dispose();
  }
}
