import type { Profile } from '../model/profile';
import { TraceEventKind, type TraceData } from '../model/trace';
import { TileSummary } from './tile-summary';

/** A half-open time range [start, end) in nanoseconds from the trace origin. */
export interface TimeWindow {
  start: number;
  end: number;
}

/**
 * Per-lane indexes over a trace's event table, built once in O(n) (plus a sort of nothing: the
 * table is already ordered by track, start, depth), so that every timeline query is
 * O(log n + k) in the events k it returns instead of a scan of the whole trace.
 *
 * Slices are grouped by (track, depth). Slices at one depth of one track do not overlap in a
 * well-formed trace, so their end times are sorted too and "slices overlapping [t0, t1)" is two
 * binary searches. A group where a lenient reader left overlapping slices gets a running maximum
 * of the end times instead (`overlapping`), which keeps the search exact.
 *
 * Samples: a sample holds (hpctraceviewer's rule) until the next sample of its lane, but at most
 * twice the lane's median sampling interval, so a stopped thread is not painted busy. Samples the
 * reader already turned into slices (HPCToolkit trace.db: the innermost slice at the sample's time
 * has the sample's node) are redundant and left out of the sample index.
 */
export class TimelineIndex {
  readonly trace: TraceData;
  readonly trackCount: number;
  /** Call-tree parent and depth per node (depth 0 = root), for frames of sampled paths. */
  readonly nodeParent: Int32Array;
  readonly nodeDepth: Int32Array;
  /** Per track: its first group; the group of depth d is `trackGroup[t] + d` (d < trackDepths(t)). */
  readonly trackGroup: Int32Array;
  /** Per group: its first position in `rows` (length groups + 1). */
  readonly groupStart: Int32Array;
  /** Event rows of slices, by group, each group sorted by start. */
  readonly rows: Int32Array;
  /** Groups whose slices overlap each other; their running maximum of end times by position. */
  private readonly maxEnd = new Map<number, Float64Array>();
  /** Per track: Σ of depth-0 slice durations before each depth-0 position (length count + 1). */
  private readonly depth0Prefix: Float64Array[];
  /** Non-redundant sample rows per track (`sampleStart[t] … sampleStart[t + 1] - 1`), their holds and prefix sums. */
  readonly sampleStart: Int32Array;
  readonly sampleRows: Int32Array;
  readonly sampleHold: Float64Array;
  private readonly samplePrefix: Float64Array;
  /** Instant rows per track. */
  readonly instantStart: Int32Array;
  readonly instantRows: Int32Array;
  /**
   * Per call-tree node, a class for colouring by class (a trace analysis's: 0 insignificant, 1
   * computation, 2 wait, 3 sync), or null before one arrived; `version` keys cached summaries.
   */
  nodeClasses: { values: Uint8Array; version: number } | null = null;

  /** Sets (or, with null, drops) the node classes that colouring by class shows. */
  setNodeClasses(values: Uint8Array | null): void {
    if (values && values.length !== this.profile.tree.size)
      throw new RangeError(`node classes for ${values.length} nodes, the call tree has ${this.profile.tree.size}`);
    this.nodeClasses = values ? { values, version: (this.nodeClasses?.version ?? 0) + 1 } : null;
  }

  constructor(readonly profile: Profile) {
    const trace = profile.trace;
    if (!trace) throw new Error(`${profile.path}: the profile has no timeline (it was not read from a trace)`);
    this.trace = trace;
    const tracks = trace.tracks.length;
    this.trackCount = tracks;
    const { parent } = profile.tree.columns;
    this.nodeParent = parent;
    this.nodeDepth = new Int32Array(parent.length);
    for (let i = 0; i < parent.length; i++) this.nodeDepth[i] = parent[i]! < 0 ? 0 : this.nodeDepth[parent[i]!]! + 1;

    const ev = trace.events;
    const n = ev.track.length;
    // Depth count per track, then groups.
    const depths = new Int32Array(tracks);
    let slices = 0,
      instants = 0,
      samples = 0;
    for (let k = 0; k < n; k++) {
      const kind = ev.kind[k]!;
      if (kind === TraceEventKind.Slice) {
        slices++;
        const t = ev.track[k]!,
          d = ev.depth[k]!;
        if (d < 0) throw new Error(`event row ${k}: negative depth ${d}`);
        if (d + 1 > depths[t]!) depths[t] = d + 1;
      } else if (kind === TraceEventKind.Instant) instants++;
      else samples++;
    }
    this.trackGroup = new Int32Array(tracks + 1);
    for (let t = 0; t < tracks; t++) this.trackGroup[t + 1] = this.trackGroup[t]! + depths[t]!;
    const groups = this.trackGroup[tracks]!;
    this.groupStart = new Int32Array(groups + 1);
    for (let k = 0; k < n; k++)
      if (ev.kind[k] === TraceEventKind.Slice) this.groupStart[this.trackGroup[ev.track[k]!]! + ev.depth[k]! + 1]!++;
    for (let g = 0; g < groups; g++) this.groupStart[g + 1]! += this.groupStart[g]!;
    this.rows = new Int32Array(slices);
    const fill = this.groupStart.slice(0, groups);
    this.instantStart = new Int32Array(tracks + 1);
    this.instantRows = new Int32Array(instants);
    const candidates = new Int32Array(samples);
    const candStart = new Int32Array(tracks + 1);
    let ni = 0,
      ns = 0;
    for (let t = 0; t < tracks; t++) {
      this.instantStart[t] = ni;
      candStart[t] = ns;
      for (let k = trace.trackEventStart[t]!; k < trace.trackEventStart[t + 1]!; k++) {
        const kind = ev.kind[k]!;
        if (kind === TraceEventKind.Slice) this.rows[fill[this.trackGroup[t]! + ev.depth[k]!]!++] = k;
        else if (kind === TraceEventKind.Instant) this.instantRows[ni++] = k;
        else candidates[ns++] = k;
      }
    }
    this.instantStart[tracks] = ni;
    candStart[tracks] = ns;

    // Overlap check per group; running max of ends where needed.
    for (let g = 0; g < groups; g++) {
      const a = this.groupStart[g]!,
        b = this.groupStart[g + 1]!;
      let prevEnd = -Infinity,
        overlapping = false;
      for (let p = a; p < b; p++) {
        const r = this.rows[p]!;
        if (ev.start[r]! < prevEnd) {
          overlapping = true;
          break;
        }
        prevEnd = ev.start[r]! + ev.duration[r]!;
      }
      if (!overlapping) continue;
      const m = new Float64Array(b - a);
      let run = -Infinity;
      for (let p = a; p < b; p++) {
        const r = this.rows[p]!;
        run = Math.max(run, ev.start[r]! + ev.duration[r]!);
        m[p - a] = run;
      }
      this.maxEnd.set(g, m);
    }
    this.depth0Prefix = [];
    for (let t = 0; t < tracks; t++) {
      const g = this.trackGroup[t]!;
      const a = depths[t]! > 0 ? this.groupStart[g]! : 0,
        b = depths[t]! > 0 ? this.groupStart[g + 1]! : 0;
      const pre = new Float64Array(b - a + 1);
      for (let p = a; p < b; p++) pre[p - a + 1] = pre[p - a]! + ev.duration[this.rows[p]!]!;
      this.depth0Prefix.push(pre);
    }

    // Samples: drop those already materialised as slices, then holds.
    const keep: number[] = [];
    this.sampleStart = new Int32Array(tracks + 1);
    for (let t = 0; t < tracks; t++) {
      this.sampleStart[t] = keep.length;
      for (let q = candStart[t]!; q < candStart[t + 1]!; q++) {
        const k = candidates[q]!;
        const d = ev.depth[k]!;
        const covering = d < depths[t]! ? this.sliceAt(t, d, ev.start[k]!) : -1;
        if (covering >= 0 && ev.node[covering] === ev.node[k]) continue;
        keep.push(k);
      }
    }
    this.sampleStart[tracks] = keep.length;
    this.sampleRows = Int32Array.from(keep);
    this.sampleHold = new Float64Array(keep.length);
    this.samplePrefix = new Float64Array(keep.length + 1);
    for (let t = 0; t < tracks; t++) {
      const a = this.sampleStart[t]!,
        b = this.sampleStart[t + 1]!;
      if (b - a < 2) continue;
      const gaps = new Float64Array(b - a - 1);
      for (let q = a; q + 1 < b; q++) gaps[q - a] = ev.start[this.sampleRows[q + 1]!]! - ev.start[this.sampleRows[q]!]!;
      const cap = 2 * medianOf(gaps);
      for (let q = a; q < b; q++) this.sampleHold[q] = q + 1 < b ? Math.min(gaps[q - a]!, cap) : cap;
    }
    for (let q = 0; q < keep.length; q++) this.samplePrefix[q + 1] = this.samplePrefix[q]! + this.sampleHold[q]!;
  }

  private summary: TileSummary | undefined;
  /** Per-lane multi-resolution summaries for zoomed-out tiles, built lazily per lane and depth. */
  get tileSummary(): TileSummary {
    return (this.summary ??= new TileSummary(this));
  }

  /** Number of slice depths on track t (0 when it has no slices). */
  trackDepths(t: number): number {
    return this.trackGroup[t + 1]! - this.trackGroup[t]!;
  }

  /** The global deepest slice depth + 1 over all tracks. */
  get maxDepths(): number {
    let m = 0;
    for (let t = 0; t < this.trackCount; t++) m = Math.max(m, this.trackDepths(t));
    return m;
  }

  /** True when slices of track t at depth d overlap each other (lenient readers' malformed nesting). */
  isOverlapping(t: number, d: number): boolean {
    return this.maxEnd.has(this.trackGroup[t]! + d);
  }

  sliceEnd(row: number): number {
    return this.trace.events.start[row]! + this.trace.events.duration[row]!;
  }

  /**
   * Positions [lo, hi) in `rows` of the slices of track t at depth d that may overlap [t0, t1):
   * every slice with start < t1 and end > t0 (or a zero-length slice at t0 ≤ start < t1) lies in
   * the range, and in a non-overlapping group (the normal case) every slice in the range does.
   */
  slicesIn(t: number, d: number, t0: number, t1: number): [number, number] {
    if (d < 0 || d >= this.trackDepths(t)) return [0, 0];
    const g = this.trackGroup[t]! + d;
    const a = this.groupStart[g]!,
      b = this.groupStart[g + 1]!;
    const lo = this.firstEndingAfter(g, a, b, t0);
    const hi = this.firstStartingAt(a, b, t1, lo);
    return [lo, Math.max(lo, hi)];
  }

  /** The slice of track t at depth d containing time `time` (start ≤ time < end), or -1. */
  sliceAt(t: number, d: number, time: number): number {
    if (d < 0 || d >= this.trackDepths(t)) return -1;
    const g = this.trackGroup[t]! + d;
    const b = this.groupStart[g + 1]!;
    const ev = this.trace.events;
    for (let p = this.firstEndingAfter(g, this.groupStart[g]!, b, time); p < b; p++) {
      const r = this.rows[p]!;
      if (ev.start[r]! > time) break;
      if (time < ev.start[r]! + ev.duration[r]!) return r;
    }
    return -1;
  }

  /** Time covered by track t's depth-0 slices inside [t0, t1) (its busy time there), O(log n). */
  sliceBusy(t: number, t0: number, t1: number): number {
    if (this.trackDepths(t) === 0 || t1 <= t0) return 0;
    const g = this.trackGroup[t]!;
    const [lo, hi] = this.slicesIn(t, 0, t0, t1);
    if (hi <= lo) return 0;
    const ev = this.trace.events;
    if (this.maxEnd.has(g)) {
      // Overlapping outermost slices (malformed input): merge the covered intervals.
      let covered = 0,
        curS = -Infinity,
        curE = -Infinity;
      for (let p = lo; p < hi; p++) {
        const r = this.rows[p]!;
        const s = Math.max(ev.start[r]!, t0),
          e = Math.min(ev.start[r]! + ev.duration[r]!, t1);
        if (e <= s) continue;
        if (s > curE) {
          covered += Math.max(0, curE - curS);
          curS = s;
          curE = e;
        } else curE = Math.max(curE, e);
      }
      return covered + Math.max(0, curE - curS);
    }
    const a = this.groupStart[g]!;
    const pre = this.depth0Prefix[t]!;
    let sum = pre[hi - a]! - pre[lo - a]!;
    const first = this.rows[lo]!,
      last = this.rows[hi - 1]!;
    if (ev.start[first]! < t0) sum -= t0 - ev.start[first]!;
    const lastEnd = ev.start[last]! + ev.duration[last]!;
    if (lastEnd > t1) sum -= lastEnd - Math.max(t1, ev.start[last]!);
    return Math.max(0, sum);
  }

  /** Sample positions [lo, hi) of track t whose hold [start, start + hold) overlaps [t0, t1). */
  samplesIn(t: number, t0: number, t1: number): [number, number] {
    const a = this.sampleStart[t]!,
      b = this.sampleStart[t + 1]!;
    const start = this.trace.events.start;
    // Holds never overlap (each ends by the next sample), so ends are sorted.
    let lo = a,
      hi = b;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (start[this.sampleRows[m]!]! + this.sampleHold[m]! > t0 || start[this.sampleRows[m]!]! >= t0) hi = m;
      else lo = m + 1;
    }
    let h = lo,
      e = b;
    while (h < e) {
      const m = (h + e) >>> 1;
      if (start[this.sampleRows[m]!]! < t1) h = m + 1;
      else e = m;
    }
    return [lo, h];
  }

  /** Time covered by track t's sample holds inside [t0, t1). */
  sampleBusy(t: number, t0: number, t1: number): number {
    const [lo, hi] = this.samplesIn(t, t0, t1);
    if (hi <= lo) return 0;
    const start = this.trace.events.start;
    let sum = this.samplePrefix[hi]! - this.samplePrefix[lo]!;
    const s0 = start[this.sampleRows[lo]!]!;
    if (s0 < t0) sum -= Math.min(t0 - s0, this.sampleHold[lo]!);
    const sl = start[this.sampleRows[hi - 1]!]!,
      el = sl + this.sampleHold[hi - 1]!;
    if (el > t1) sum -= el - Math.max(t1, sl);
    return Math.max(0, sum);
  }

  /** Busy time of track t in [t0, t1): its outermost slices, or its sample holds when those cover more. */
  busy(t: number, t0: number, t1: number): number {
    return Math.max(this.sliceBusy(t, t0, t1), this.sampleBusy(t, t0, t1));
  }

  /** Ancestor of `node` at call-tree depth d, or the node itself when it is not that deep. */
  frameAtDepth(node: number, d: number): number {
    let n = node;
    for (let k = this.nodeDepth[n]! - d; k > 0; k--) n = this.nodeParent[n]!;
    return n;
  }

  /** Bytes held by the index's own arrays (the trace's columns and the lazily built tile summary are not counted). */
  get memoryBytes(): number {
    let b = this.rows.byteLength + this.groupStart.byteLength + this.trackGroup.byteLength + this.nodeDepth.byteLength;
    for (const m of this.maxEnd.values()) b += m.byteLength;
    for (const p of this.depth0Prefix) b += p.byteLength;
    b +=
      this.sampleRows.byteLength +
      this.sampleHold.byteLength +
      this.samplePrefix.byteLength +
      this.sampleStart.byteLength;
    b += this.instantRows.byteLength + this.instantStart.byteLength;
    return b;
  }

  private firstEndingAfter(g: number, a: number, b: number, t0: number): number {
    const ev = this.trace.events;
    const m = this.maxEnd.get(g);
    let lo = a,
      hi = b;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = this.rows[mid]!;
      const end = m ? m[mid - a]! : ev.start[r]! + ev.duration[r]!;
      // A zero-length slice at t0 counts as inside (it is drawn and can be hovered).
      if (end > t0 || (end === t0 && ev.start[r] === t0)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private firstStartingAt(a: number, b: number, t1: number, from: number): number {
    const start = this.trace.events.start;
    let lo = Math.max(a, from),
      hi = b;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (start[this.rows[mid]!]! < t1) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function medianOf(xs: Float64Array): number {
  const s = Float64Array.from(xs).sort();
  return s.length ? s[s.length >> 1]! : 0;
}
