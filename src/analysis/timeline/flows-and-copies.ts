import type { TimelineIndex, TimeWindow } from './timeline-index';

/**
 * Intervals sorted by start with a running maximum of their ends: "which overlap [t0, t1)" is a
 * binary search for the first whose running max end reaches t0, then a scan until start ≥ t1
 * (O(log n + k) when intervals rarely nest, which holds for flows and copies).
 */
export class IntervalIndex {
  /** Interval ids (rows of the source table) by start. */
  readonly order: Int32Array;
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  private readonly maxEnd: Float64Array;

  constructor(start: ArrayLike<number>, end: ArrayLike<number>) {
    const n = start.length;
    this.order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => start[a]! - start[b]! || a - b);
    this.starts = Float64Array.from(this.order, i => start[i]!);
    this.ends = Float64Array.from(this.order, i => end[i]!);
    this.maxEnd = new Float64Array(n);
    let run = -Infinity;
    for (let k = 0; k < n; k++) {
      run = Math.max(run, this.ends[k]!);
      this.maxEnd[k] = run;
    }
  }

  /** Ids of the intervals with start < t1 and end ≥ t0 (an instantaneous one at t0 counts), in start order. */
  query(t0: number, t1: number, keep?: (id: number) => boolean): number[] {
    let lo = 0,
      hi = this.order.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (this.maxEnd[m]! >= t0) hi = m;
      else lo = m + 1;
    }
    const out: number[] = [];
    for (let k = lo; k < this.order.length && this.starts[k]! < t1; k++) {
      if (this.ends[k]! < t0) continue;
      const id = this.order[k]!;
      if (!keep || keep(id)) out.push(id);
    }
    return out;
  }

  get memoryBytes(): number {
    return this.order.byteLength + this.starts.byteLength + this.ends.byteLength + this.maxEnd.byteLength;
  }
}

const flowIndexes = new WeakMap<TimelineIndex, IntervalIndex>();
const copyIndexes = new WeakMap<TimelineIndex, IntervalIndex>();

function flowIndex(index: TimelineIndex): IntervalIndex {
  let x = flowIndexes.get(index);
  if (!x) {
    const f = index.trace.flows;
    const n = f.kind.length;
    const s = new Float64Array(n),
      e = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = Math.min(f.fromTime[i]!, f.toTime[i]!);
      e[i] = Math.max(f.fromTime[i]!, f.toTime[i]!);
    }
    flowIndexes.set(index, (x = new IntervalIndex(s, e)));
  }
  return x;
}

function copyIndex(index: TimelineIndex): IntervalIndex {
  let x = copyIndexes.get(index);
  if (!x) {
    const dm = index.trace.dataMovement;
    const e = Float64Array.from(dm.start, (s, i) => s + dm.duration[i]!);
    copyIndexes.set(index, (x = new IntervalIndex(dm.start, e)));
  }
  return x;
}

function laneMask(index: TimelineIndex, tracks?: readonly number[]): Uint8Array | null {
  if (!tracks) return null;
  const m = new Uint8Array(index.trackCount);
  for (const t of tracks) if (t >= 0 && t < index.trackCount) m[t] = 1;
  return m;
}

/**
 * Rows of the trace's flow table (launch → kernel, send → receive, …) whose arrow spans part of
 * the window and has at least one end on a listed lane (all lanes when none are given).
 */
export function flowsInWindow(index: TimelineIndex, window: TimeWindow, tracks?: readonly number[]): Int32Array {
  const f = index.trace.flows;
  const mask = laneMask(index, tracks);
  return Int32Array.from(
    flowIndex(index).query(
      window.start,
      window.end,
      mask ? i => mask[f.fromTrack[i]!] === 1 || mask[f.toTrack[i]!] === 1 : undefined,
    ),
  );
}

export interface CopiesInWindow {
  /** Rows of the trace's data-movement table overlapping the window, by start. */
  rows: Int32Array;
  /**
   * Bytes of each row inside the window: bytes × (overlap / duration), a constant rate over the
   * operation; an instantaneous operation counts fully when it starts in [t0, t1).
   */
  bytesInWindow: Float64Array;
}

/** Copies and memsets (the data-movement lanes: direction in `trace.dataMovement.kind`) on the listed lanes in a window. */
export function dataMovementInWindow(
  index: TimelineIndex,
  window: TimeWindow,
  tracks?: readonly number[],
): CopiesInWindow {
  const dm = index.trace.dataMovement;
  const mask = laneMask(index, tracks);
  const { start: t0, end: t1 } = window;
  const rows = copyIndex(index).query(t0, t1, id => {
    if (mask && mask[dm.track[id]!] !== 1) return false;
    const d = dm.duration[id]!;
    return d > 0 ? dm.start[id]! + d > t0 : dm.start[id]! >= t0;
  });
  const bytesInWindow = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    const s = dm.start[r]!,
      d = dm.duration[r]!;
    bytesInWindow[i] = d > 0 ? dm.bytes[r]! * (Math.max(0, Math.min(s + d, t1) - Math.max(s, t0)) / d) : dm.bytes[r]!;
  });
  return { rows: Int32Array.from(rows), bytesInWindow };
}

/** The lanes that carry data movement (GPU streams with copies or memsets), in track order. */
export function dataMovementLanes(index: TimelineIndex): number[] {
  const has = new Uint8Array(index.trackCount);
  for (const t of index.trace.dataMovement.track) if (t >= 0 && t < index.trackCount) has[t] = 1;
  const out: number[] = [];
  for (let t = 0; t < index.trackCount; t++) if (has[t]) out.push(t);
  return out;
}
