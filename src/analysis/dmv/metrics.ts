import { variance } from 'simple-statistics';
import type { NvidiaSmiSamples } from '../formats/nvidia-smi-csv';
import type { TraceData } from '../model/trace';
import type { TimeWindow } from '../timeline/timeline-index';
import { dmvDeviceName, HOST, type DmvIndex } from './dmv-index';

/**
 * DMV's metric timeline (thesis §7.4, view C): one row per metric, each a step function of time.
 * Sources: the trace's counter series (Chrome `C` events), the allocator's running total per device
 * (PyTorch `[memory]`), an `nvidia-smi --format=csv` file, and utilisation derived from the trace
 * itself (busy share of the CPU tracks and of each GPU).
 */
export interface MetricTrack {
  /** Stable key for selections: `counter:3:GPU Mem`, `memory:GPU 0`, `nvidia-smi:0:utilization.gpu`, `utilisation:CPU`. */
  id: string;
  /** What the row is labelled: `memory allocated · GPU 0`, `GPU 0 · utilization.gpu`, `CPU utilisation`. */
  name: string;
  unit: string;
  source: 'counter' | 'memory' | 'nvidia-smi' | 'utilisation';
  /** The device the metric is about: HOST (-1), a GPU id, or null. */
  device: number | null;
  /** Sample times, ns from the trace origin, ascending; each value holds until the next sample. */
  time: Float64Array;
  value: Float64Array;
}

/** The trace's own counter series, one track each (name prefixed by its process when several have counters). */
export function counterTracks(trace: TraceData): MetricTrack[] {
  const c = trace.counters;
  const processes = new Set(c.series.map(s => trace.tracks[s.track]?.process ?? ''));
  return c.series.map((s, k) => {
    const a = c.seriesStart[k]!,
      b = c.seriesStart[k + 1]!;
    const process = trace.tracks[s.track]?.process ?? '';
    return {
      id: `counter:${s.track}:${s.name}`,
      name: processes.size > 1 && process ? `${process} · ${s.name}` : s.name,
      unit: s.unit,
      source: 'counter',
      device: null,
      time: c.time.slice(a, b),
      value: c.value.slice(a, b),
    };
  });
}

/**
 * Memory allocated per device over time from the allocator events: the allocator's own `Total
 * Allocated` when every event of the device records it, else the running sum of the signed sizes
 * from the start of the trace (allocations made before profiling started are then not included).
 */
export function memoryTracks(trace: TraceData): MetricTrack[] {
  const mem = trace.memory;
  if (!mem) return [];
  const devices = [...new Set(mem.device)].sort((a, b) => a - b);
  return devices.map(d => {
    const rows: number[] = [];
    for (let i = 0; i < mem.device.length; i++) if (mem.device[i] === d) rows.push(i);
    const own = rows.every(i => Number.isFinite(mem.totalAllocated[i]!));
    const time = Float64Array.from(rows, i => mem.time[i]!);
    const value = new Float64Array(rows.length);
    let total = 0;
    rows.forEach((i, k) => {
      total += mem.bytes[i]!;
      value[k] = own ? mem.totalAllocated[i]! : total;
    });
    return {
      id: `memory:${dmvDeviceName(d)}`,
      name: `memory allocated · ${dmvDeviceName(d)}`,
      unit: 'bytes',
      source: 'memory' as const,
      device: d < 0 ? HOST : d,
      time,
      value,
    };
  });
}

/**
 * Utilisation tracks derived from the trace, sampled in `bins` equal bins over its range: `CPU
 * utilisation` (mean busy share of the CPU tracks with runtime or CPU work) and `GPU n utilisation`
 * (busy share of the union of the GPU's streams), in %.
 */
export function utilisationTracks(index: DmvIndex, bins = 200): MetricTrack[] {
  const { start, end } = index.range;
  const width = (end - start) / bins;
  if (!(width > 0)) return [];
  const time = Float64Array.from({ length: bins }, (_, k) => start + k * width);
  const out: MetricTrack[] = [];
  const hostLanes = index.hostBusy.activeLanes;
  if (hostLanes > 0) {
    const v = new Float64Array(bins);
    index.hostBusy.addToBins(start, width, bins, v);
    for (let k = 0; k < bins; k++) v[k] = (100 * v[k]!) / (width * hostLanes);
    out.push({
      id: 'utilisation:CPU',
      name: 'CPU utilisation',
      unit: '%',
      source: 'utilisation',
      device: HOST,
      time,
      value: v,
    });
  }
  for (const d of index.devices) {
    const lane = index.deviceLane.get(d)!;
    if (index.deviceBusy.laneStart[lane + 1] === index.deviceBusy.laneStart[lane]) continue;
    const v = new Float64Array(bins);
    for (let k = 0; k < bins; k++)
      v[k] = (100 * index.deviceBusy.coveredOnLane(lane, start + k * width, start + (k + 1) * width)) / width;
    out.push({
      id: `utilisation:GPU ${d}`,
      name: `GPU ${d} utilisation`,
      unit: '%',
      source: 'utilisation',
      device: d,
      time,
      value: v,
    });
  }
  return out;
}

/** All metric tracks of a trace: counters, allocator totals, derived utilisation. */
export function traceMetricTracks(index: DmvIndex, utilisationBins = 200): MetricTrack[] {
  return [...utilisationTracks(index, utilisationBins), ...memoryTracks(index.trace), ...counterTracks(index.trace)];
}

/**
 * nvidia-smi samples as tracks on the trace's clock. Absolute times are placed against the trace's
 * origin (`originNs`, Unix-epoch ns); when the trace has no absolute clock, or the samples miss the
 * trace's range entirely (another run, another time zone), they are aligned to start with the trace,
 * with a warning saying so.
 */
export function nvidiaSmiTracks(
  samples: NvidiaSmiSamples,
  trace: Pick<TraceData, 'originNs' | 'timeRange'>,
): { tracks: MetricTrack[]; warnings: string[] } {
  const warnings: string[] = [];
  if (samples.badRows)
    warnings.push(
      `${samples.path}: ${samples.badRows} row${samples.badRows === 1 ? '' : 's'} without a readable timestamp were skipped`,
    );
  let first = Infinity,
    last = -Infinity;
  for (const s of samples.series)
    if (s.epochMs.length) {
      first = Math.min(first, s.epochMs[0]!);
      last = Math.max(last, s.epochMs[s.epochMs.length - 1]!);
    }
  // Relative to the origin in whole milliseconds first (epoch ns exceed a double's exact integers).
  const origin = BigInt(trace.originNs);
  const originMs = Number(origin / 1_000_000n),
    originRestNs = Number(origin % 1_000_000n);
  let toNs = (ms: number) => (ms - originMs) * 1e6 - originRestNs;
  const [t0, t1] = trace.timeRange;
  const absolute = trace.originNs !== '0';
  if (Number.isFinite(first) && (!absolute || toNs(first) > t1 || toNs(last) < t0)) {
    toNs = ms => t0 + (ms - first) * 1e6;
    warnings.push(
      absolute
        ? `${samples.path}: the samples do not overlap the trace in time; they are aligned to the trace's start`
        : `${samples.path}: the trace has no absolute clock; the samples are aligned to its start`,
    );
  }
  const tracks = samples.series.map(s => ({
    id: `nvidia-smi:${s.gpu}:${s.metric}`,
    name: `GPU ${s.gpu} · ${s.metric}`,
    unit: s.unit,
    source: 'nvidia-smi' as const,
    device: s.gpu,
    time: Float64Array.from(s.epochMs, toNs),
    value: s.value.slice(),
  }));
  return { tracks, warnings };
}

/** Positions [lo, hi) of a track's samples with time in [t0, t1). */
function samplesIn(track: MetricTrack, t0: number, t1: number): [number, number] {
  const lower = (t: number) => {
    let lo = 0,
      hi = track.time.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (track.time[m]! < t) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  return [lower(t0), lower(t1)];
}

/**
 * Variance of a metric within a window (population variance): over the samples inside it plus the
 * value held when it opens (the level the window starts at); 0 with fewer than two values.
 */
export function metricVariance(track: MetricTrack, window: TimeWindow): number {
  const [lo, hi] = samplesIn(track, window.start, window.end);
  const values = Array.from(track.value.subarray(Math.max(0, lo - 1), hi));
  return values.length < 2 ? 0 : variance(values);
}

/** Metric rows ordered by their variance within the window, highest first (thesis §7.4; ties by name). */
export function orderByVariance(
  tracks: readonly MetricTrack[],
  window: TimeWindow,
): { track: number; id: string; variance: number }[] {
  return tracks
    .map((t, track) => ({ track, id: t.id, variance: metricVariance(t, window), name: t.name }))
    .sort((a, b) => b.variance - a.variance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ track, id, variance: v }) => ({ track, id, variance: v }));
}

/** Largest value of a track and when it was first reached. */
export function metricPeak(track: MetricTrack): { value: number; time: number } | null {
  let best = -1;
  for (let i = 0; i < track.value.length; i++) if (best < 0 || track.value[i]! > track.value[best]!) best = i;
  return best < 0 ? null : { value: track.value[best]!, time: track.time[best]! };
}

/**
 * Time-weighted means of a track's step function over `bins` equal bins from `origin`; NaN for a bin
 * before the first sample. O(samples + bins).
 */
export function stepMeans(track: MetricTrack, origin: number, width: number, bins: number): Float64Array {
  const out = new Float64Array(bins).fill(NaN);
  if (!(width > 0)) return out;
  const { time, value } = track;
  let i = Math.max(0, samplesIn(track, origin, origin)[0] - 1);
  for (let k = 0; k < bins; k++) {
    const a = origin + k * width,
      b = a + width;
    let sum = 0,
      covered = 0;
    while (i + 1 < time.length && time[i + 1]! <= a) i++;
    for (let j = i; j < time.length && time[j]! < b; j++) {
      const s = Math.max(a, time[j]!),
        e = Math.min(b, j + 1 < time.length ? time[j + 1]! : b);
      if (e > s) {
        sum += value[j]! * (e - s);
        covered += e - s;
      }
    }
    if (covered > 0) out[k] = sum / covered;
  }
  return out;
}

/** The utilisation glyph (thesis §7.4): two metrics side by side over time, in `bins` bins of a range. */
export interface UtilisationGlyph {
  /** Bin starts, ns from the origin. */
  time: Float64Array;
  left: { id: string; name: string; unit: string; value: Float64Array; max: number };
  right: { id: string; name: string; unit: string; value: Float64Array; max: number };
}

/** Any two metrics (CPU and GPU utilisation by default in the view) resampled on one time axis. */
export function utilisationGlyph(
  left: MetricTrack,
  right: MetricTrack,
  range: TimeWindow,
  bins = 100,
): UtilisationGlyph {
  const width = (range.end - range.start) / bins;
  const side = (t: MetricTrack) => {
    const value = stepMeans(t, range.start, width, bins);
    let max = 0;
    for (const v of value) if (v > max) max = v;
    return { id: t.id, name: t.name, unit: t.unit, value, max };
  };
  return {
    time: Float64Array.from({ length: bins }, (_, k) => range.start + k * width),
    left: side(left),
    right: side(right),
  };
}

/**
 * A metric row for drawing at a width (level of detail): the samples in the window when there are at
 * most `maxPoints`, else per bucket the min and max (so spikes survive). The value held at the window's
 * start opens the row.
 */
export function metricWindowSeries(
  track: MetricTrack,
  window: TimeWindow,
  maxPoints = 1000,
): { time: Float64Array; min: Float64Array; max: Float64Array } {
  const [lo, hi] = samplesIn(track, window.start, window.end);
  const from = Math.max(0, lo - 1);
  if (hi - from <= maxPoints) {
    const v = track.value.slice(from, hi);
    return { time: track.time.slice(from, hi), min: v, max: v.slice() };
  }
  const buckets = Math.max(1, maxPoints >> 1);
  const width = (window.end - window.start) / buckets;
  const time = new Float64Array(buckets),
    min = new Float64Array(buckets).fill(NaN),
    max = new Float64Array(buckets).fill(NaN);
  for (let k = 0; k < buckets; k++) time[k] = window.start + k * width;
  for (let i = from; i < hi; i++) {
    const k = Math.max(0, Math.min(buckets - 1, Math.floor((track.time[i]! - window.start) / width)));
    const v = track.value[i]!;
    if (!(min[k]! <= v)) min[k] = v;
    if (!(max[k]! >= v)) max[k] = v;
  }
  return { time, min, max };
}
