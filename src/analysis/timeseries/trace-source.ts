import type { CallTree } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { TraceEventKind, type TraceTrack } from '../model/trace';
import { laneTitles } from '../timeline/lanes';

/**
 * What the analysis reads from a trace, lane by lane, so the per-lane work never needs the whole
 * event table at once (and a benchmark can feed lanes without building a 10⁸-event profile).
 */
export interface LaneInfo {
  /** Track index in the trace. */
  track: number;
  /** The timeline's title of the lane (`rank 3`, `rank 0 · thread 1`). */
  name: string;
  kind: TraceTrack['kind'];
  /** Sampled (call-path samples) or instrumented (enter/exit slices). */
  sampled: boolean;
  /** Samples (sampled lanes) or slices (instrumented lanes). */
  events: number;
  /** Execution context of the track (-1 when none). */
  context: number;
  /** Call-tree node of the lane's first sample or first outermost slice: its entry point (threads of different roles are clustered apart). */
  entry: number;
}

/** One lane's events in time order. Times are ns from the trace origin. */
export interface LaneEvents {
  /** Sample times and leaf call-tree nodes (empty for instrumented lanes). */
  sampleTime: Float64Array;
  sampleNode: Int32Array;
  /** Slices sorted by (start, depth): frame instances of instrumented lanes, or the frames that held between samples. */
  sliceStart: Float64Array;
  sliceEnd: Float64Array;
  sliceNode: Int32Array;
  sliceDepth: Int32Array;
}

export interface TraceSource {
  format: string;
  tree: CallTree;
  /** Lanes that can be analysed, in display order. */
  lanes: LaneInfo[];
  /** Lanes left out, with the reason. */
  skipped: { track: number; name: string; reason: string }[];
  /** Earliest event start per call-tree node (orders siblings that have no source line). */
  nodeFirstTime?: Float64Array;
  /** [first, last] instant of the trace, ns. */
  timeRange: [number, number];
  events(lane: number): LaneEvents;
  /** Gaps between consecutive samples of sampled lanes, at most `budget` of them, spread over the lanes. */
  sampleGaps(budget: number): Float64Array;
}

/** The lanes of a profile's trace: thread and GPU-stream tracks with at least two samples or slices. */
export function traceSourceOf(profile: Profile): TraceSource {
  const trace = profile.trace;
  if (!trace) throw new Error('the profile has no trace');
  const { events: ev, trackEventStart: tes, tracks } = trace;
  const titles = laneTitles(tracks);
  const lanes: LaneInfo[] = [];
  const skipped: TraceSource['skipped'] = [];
  tracks.forEach((tr, t) => {
    let samples = 0,
      slices = 0,
      firstSample = -1,
      firstSlice = -1;
    for (let k = tes[t]!; k < tes[t + 1]!; k++) {
      const kind = ev.kind[k];
      const node = ev.node[k]!;
      if (node < 0) continue;
      if (kind === TraceEventKind.Sample) {
        if (samples++ === 0) firstSample = node;
      } else if (kind === TraceEventKind.Slice) {
        slices++;
        if (firstSlice < 0 && ev.depth[k] === 0) firstSlice = node;
      }
    }
    const name = titles[t]!;
    if (tr.kind === 'counter') return;
    if (tr.kind === 'async') {
      if (slices) skipped.push({ track: t, name, reason: 'asynchronous slices are not the timeline of one thread' });
      return;
    }
    const sampled = samples > 0;
    const n = sampled ? samples : slices;
    if (n < 2) {
      skipped.push({ track: t, name, reason: `${n === 0 ? 'no' : 'only one'} ${sampled ? 'sample' : 'slice'}` });
      return;
    }
    lanes.push({
      ...{ track: t, name, kind: tr.kind, sampled, events: n, context: tr.context },
      entry: sampled ? firstSample : firstSlice,
    });
  });

  const firstTime = new Float64Array(profile.tree.size).fill(Infinity);
  for (let k = 0; k < ev.node.length; k++) {
    const node = ev.node[k]!;
    if (node >= 0 && ev.kind[k] !== TraceEventKind.Instant && ev.start[k]! < firstTime[node]!)
      firstTime[node] = ev.start[k]!;
  }

  const events = (lane: number): LaneEvents => {
    const t = lanes[lane]!.track;
    const a = tes[t]!,
      b = tes[t + 1]!;
    let ns = 0,
      nl = 0;
    for (let k = a; k < b; k++) {
      if (ev.node[k]! < 0) continue;
      if (ev.kind[k] === TraceEventKind.Sample) ns++;
      else if (ev.kind[k] === TraceEventKind.Slice) nl++;
    }
    const out: LaneEvents = {
      sampleTime: new Float64Array(ns),
      sampleNode: new Int32Array(ns),
      sliceStart: new Float64Array(nl),
      sliceEnd: new Float64Array(nl),
      sliceNode: new Int32Array(nl),
      sliceDepth: new Int32Array(nl),
    };
    let i = 0,
      j = 0;
    for (let k = a; k < b; k++) {
      const node = ev.node[k]!;
      if (node < 0) continue;
      if (ev.kind[k] === TraceEventKind.Sample) {
        out.sampleTime[i] = ev.start[k]!;
        out.sampleNode[i++] = node;
      } else if (ev.kind[k] === TraceEventKind.Slice) {
        out.sliceStart[j] = ev.start[k]!;
        out.sliceEnd[j] = ev.start[k]! + ev.duration[k]!;
        out.sliceNode[j] = node;
        out.sliceDepth[j++] = ev.depth[k]!;
      }
    }
    return out;
  };

  const sampleGaps = (budget: number): Float64Array => {
    const sampled = lanes.filter(l => l.sampled);
    const total = sampled.reduce((s, l) => s + l.events - 1, 0);
    const stride = Math.max(1, Math.ceil(total / Math.max(1, budget)));
    const out: number[] = [];
    for (const l of sampled) {
      let prev = NaN,
        k = 0;
      for (let e = tes[l.track]!; e < tes[l.track + 1]!; e++) {
        if (ev.kind[e] !== TraceEventKind.Sample || ev.node[e]! < 0) continue;
        const t = ev.start[e]!;
        if (!Number.isNaN(prev) && k++ % stride === 0) out.push(t - prev);
        prev = t;
      }
    }
    return Float64Array.from(out);
  };

  return {
    format: profile.format,
    tree: profile.tree,
    lanes,
    skipped,
    nodeFirstTime: firstTime,
    timeRange: trace.timeRange,
    events,
    sampleGaps,
  };
}
