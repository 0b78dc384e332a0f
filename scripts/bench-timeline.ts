/**
 * Timeline at scale: the synthetic 10⁷-event trace over 1,024 lanes (128 ranks × 6 threads + 2 GPU
 * streams). Reports the index build time and memory, the per-frame tile cost for all 1,024 lanes
 * at W = 1,600 (full view and zoomed in 10× … 10⁵×, call depths 0 and 3), window statistics and
 * the windowed profile. `HPC_LENS_BENCH_TIMELINE_EVENTS` overrides the event count.
 */
import { computeMinimap, computeTiles } from '../src/analysis/timeline/tiles';
import { syntheticTraceProfile } from '../src/analysis/timeline/testing/synthetic-trace';
import { TimelineIndex } from '../src/analysis/timeline/timeline-index';
import { profileForWindow, windowStatistics } from '../src/analysis/timeline/window-stats';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

export function benchTimeline(events = Number(process.env.HPC_LENS_BENCH_TIMELINE_EVENTS ?? 1e7)): void {
  const [profile, genMs] = timed(() => syntheticTraceProfile({ ranks: 128, threadsPerRank: 6, streamsPerRank: 2, targetEvents: events }));
  const trace = profile.trace!;
  const n = trace.events.track.length;
  const [index, indexMs] = timed(() => new TimelineIndex(profile));
  const tableBytes = Object.values(trace.events).reduce((s, c) => s + (c as ArrayBufferView).byteLength, 0);
  console.log(`\ntimeline: ${(n / 1e6).toFixed(2)} M events, ${trace.tracks.length} lanes (generated in ${genMs.toFixed(0)} ms)`);
  console.log(`  index build        ${indexMs.toFixed(0)} ms (${(n / indexMs / 1e3).toFixed(1)} M events/s); index ${(index.memoryBytes / 2 ** 20).toFixed(1)} MiB = ${(index.memoryBytes / n).toFixed(1)} B/event (the event table itself: ${(tableBytes / 2 ** 20).toFixed(0)} MiB)`);
  const [, miniMs] = timed(() => computeMinimap(index, 1024));
  console.log(`  mini-map (1,024 px, all lanes, once)  ${miniMs.toFixed(0)} ms`);
  const [lo, hi] = trace.timeRange;
  const tracks = Array.from({ length: index.trackCount }, (_, t) => t);
  const width = 1600;
  console.log('  tiles, 1,024 lanes × 1,600 px (median of 5 pans):');
  for (const zoom of [1, 10, 100, 1e3, 1e4, 1e5]) {
    for (const depth of [0, 3]) {
      const span = (hi - lo) / zoom;
      const times: number[] = [];
      let detail = 0;
      for (let k = 0; k < 5; k++) {
        const start = lo + ((hi - lo - span) * (0.2 + 0.15 * k));
        const [r, ms] = timed(() => computeTiles(index, { window: { start, end: start + span }, tracks, width, depth }));
        times.push(ms);
        detail = r.detail.reduce((s, x) => s + x, 0);
      }
      console.log(`    zoom ${String(zoom).padStart(6)}× depth ${depth}: ${median(times).toFixed(1).padStart(7)} ms/frame  (${detail} lanes in full detail)`);
    }
  }
  for (const zoom of [1, 100]) {
    const span = (hi - lo) / zoom, start = lo + (hi - lo - span) / 2;
    const [, statsMs] = timed(() => windowStatistics(index, { start, end: start + span }));
    const [, profMs] = timed(() => profileForWindow(index, { start, end: start + span }));
    console.log(`  window ${zoom === 1 ? 'whole run' : `1/${zoom} of the run`}: statistics ${statsMs.toFixed(0)} ms, windowed profile ${profMs.toFixed(0)} ms`);
  }
}

if (require.main === module) benchTimeline();
