import { TraceEventKind } from '../model/trace';
import { ColumnScratch, Keyer, laneColumns, type ColourBy } from './lane-columns';
import type { TimelineIndex, TimeWindow } from './timeline-index';

export { Keyer, type ColourBy };

export interface TileRequest {
  window: TimeWindow;
  /** Lanes as track indices, in display order. */
  tracks: readonly number[];
  /** Pixel columns W. */
  width: number;
  /**
   * Call depth d to slice at (hpctraceviewer's rule): a column shows the frame at depth d of the
   * active call stack, or the innermost frame where the stack is shallower. Slices use their
   * nesting depth on the track; samples use the call-tree depth of their sampled path.
   */
  depth: number;
  colourBy?: ColourBy;
  /**
   * Full-detail rule: a lane whose events overlapping the window (slices of all depths, instants,
   * samples) number at most `width / minPixelsPerEvent` is also sent as its events, since each
   * could then be drawn at least that many pixels wide on average. Default 3; Infinity = never.
   */
  minPixelsPerEvent?: number;
  /**
   * Compute every column from the events instead of the lane summaries (TileSummary), which answer
   * columns at least one finest bin wide to within a bin at the column edges. Default false.
   */
  exact?: boolean;
}

/** Events of full-detail lanes, concatenated; lane i's are `laneStart[i] … laneStart[i + 1] - 1`. */
export interface DetailEvents {
  laneStart: Int32Array;
  /** Row in the trace's event table (for lookups). */
  row: Int32Array;
  start: Float64Array;
  /** Duration in ns; for a sample, its hold (until the next sample, see TimelineIndex). */
  duration: Float64Array;
  depth: Int32Array;
  kind: Uint8Array;
  /** Colour key (string id, as in `TileResult.key`) and call-tree node (-1 when none). */
  key: Int32Array;
  node: Int32Array;
}

export interface TileResult {
  window: TimeWindow;
  width: number;
  depth: number;
  colourBy: ColourBy;
  tracks: Int32Array;
  /** Lane-major (lane i, column c at i × width + c): dominant key (a string id) or -1 when nothing runs. */
  key: Int32Array;
  /** Fraction of the column's time the dominant key holds at the chosen depth, 0…1. */
  share: Float32Array;
  /** Fraction of the column's time any slice (or sample hold) is active, 0…1. */
  busy: Float32Array;
  /** Per lane: 1 when its events are in `events` (full detail), else 0. */
  detail: Uint8Array;
  events: DetailEvents;
  /** Display names of every key present in `key` or `events.key`. */
  names: Map<number, string>;
  /** Per lane: the width in ns of the summary bins its columns were answered from, 0 when computed exactly from its events. */
  resolution?: Float64Array;
}

/**
 * Level-of-detail tiles for a window: per lane and pixel column, the dominant function (or module)
 * at the chosen depth, its share, and the busy fraction. A lane whose columns are at least one of
 * its finest summary bins wide is answered from its TileSummary pyramid in O(W) (see there for the
 * accuracy rule); narrower columns are exact from the events in
 * O(depth × log n + W × (depth + 1) + events of depth ≤ d in the window), which is cheap there
 * since such a column holds a few events at most on average.
 */
export function computeTiles(index: TimelineIndex, req: TileRequest): TileResult {
  const { window, width } = req;
  if (!(width >= 1) || !Number.isInteger(width))
    throw new RangeError(`tile width must be a positive integer, got ${width}`);
  if (!(window.end > window.start)) throw new RangeError(`empty or inverted window [${window.start}, ${window.end})`);
  if (!(req.depth >= 0)) throw new RangeError(`depth must be ≥ 0, got ${req.depth}`);
  const colourBy = req.colourBy ?? 'function';
  const minPx = req.minPixelsPerEvent ?? 3;
  const lanes = req.tracks.length;
  for (const t of req.tracks)
    if (!(t >= 0 && t < index.trackCount)) throw new RangeError(`no lane ${t} (the trace has ${index.trackCount})`);
  const key = new Int32Array(lanes * width).fill(-1);
  const share = new Float32Array(lanes * width);
  const busy = new Float32Array(lanes * width);
  const detail = new Uint8Array(lanes);
  const keyer = new Keyer(index, colourBy);
  const scratch = new ColumnScratch();
  const detailRows: number[][] = [];
  const resolution = new Float64Array(lanes);
  const out = { key, share, busy };
  const summary = req.exact ? null : index.tileSummary;
  for (let i = 0; i < lanes; i++) {
    const t = req.tracks[i]!;
    resolution[i] = summary ? summary.columns(t, window, width, req.depth, keyer, out, i * width) : 0;
    if (resolution[i] === 0) laneColumns(index, t, window, width, req.depth, keyer, scratch, out, i * width);
    const visible = countInWindow(index, t, window);
    if (visible <= width / minPx) {
      detail[i] = 1;
      detailRows.push(eventsInWindow(index, t, window));
    } else detailRows.push([]);
  }
  const events = detailEvents(index, detailRows, keyer, req.depth);
  // Keys are string ids: a bitmap finds the distinct ones without a map lookup per column.
  const seen = new Uint8Array(index.profile.data.strings.length + 1);
  const names = new Map<number, string>();
  for (const keys of [key, events.key]) {
    for (let j = 0, prev = -1; j < keys.length; j++) {
      const k = keys[j]!;
      if (k === prev) continue; // runs of one key are common
      prev = k;
      if (k < 0 || seen[k] === 1) continue;
      if (k < seen.length) seen[k] = 1;
      names.set(k, keyer.name(k));
    }
  }
  return {
    window,
    width,
    depth: req.depth,
    colourBy,
    tracks: Int32Array.from(req.tracks),
    key,
    share,
    busy,
    detail,
    events,
    names,
    resolution,
  };
}

/** The whole run at a fixed width, for the mini-map (never full detail; answered from the lane summaries). */
export function computeMinimap(
  index: TimelineIndex,
  width = 1024,
  depth = 0,
  colourBy: ColourBy = 'function',
): TileResult {
  const [lo, hi] = index.trace.timeRange;
  const tracks = Array.from({ length: index.trackCount }, (_, t) => t);
  return computeTiles(index, {
    window: { start: lo, end: hi > lo ? hi : lo + 1 },
    tracks,
    width,
    depth,
    colourBy,
    minPixelsPerEvent: Infinity,
  });
}

/** Column boundaries shared by tiles and their tests: column c is [t0 + c·w, t0 + (c+1)·w). */
export function columnBounds(window: TimeWindow, width: number, c: number): [number, number] {
  const w = (window.end - window.start) / width;
  return [window.start + c * w, c + 1 === width ? window.end : window.start + (c + 1) * w];
}

/** Events of track t overlapping the window (slices of all depths, instants, samples): a count from binary searches. */
export function countInWindow(index: TimelineIndex, t: number, window: TimeWindow): number {
  let n = 0;
  for (let j = 0; j < index.trackDepths(t); j++) {
    const [lo, hi] = index.slicesIn(t, j, window.start, window.end);
    n += hi - lo;
  }
  const [slo, shi] = index.samplesIn(t, window.start, window.end);
  const [ilo, ihi] = instantsIn(index, t, window);
  return n + (shi - slo) + (ihi - ilo);
}

/** Instant positions [lo, hi) of track t with start in the window. */
export function instantsIn(index: TimelineIndex, t: number, window: TimeWindow): [number, number] {
  const start = index.trace.events.start,
    rows = index.instantRows;
  const bound = (x: number) => {
    let lo = index.instantStart[t]!,
      hi = index.instantStart[t + 1]!;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (start[rows[m]!]! < x) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  return [bound(window.start), bound(window.end)];
}

/** Rows of every event of track t that overlaps the window, by (start, depth). */
export function eventsInWindow(index: TimelineIndex, t: number, window: TimeWindow): number[] {
  const out: number[] = [];
  const ev = index.trace.events;
  for (let j = 0; j < index.trackDepths(t); j++) {
    const [lo, hi] = index.slicesIn(t, j, window.start, window.end);
    for (let p = lo; p < hi; p++) {
      const r = index.rows[p]!;
      const s = ev.start[r]!,
        e = s + ev.duration[r]!;
      if (s < window.end && (e > window.start || (e === s && s >= window.start))) out.push(r);
    }
  }
  const [ilo, ihi] = instantsIn(index, t, window);
  for (let p = ilo; p < ihi; p++) out.push(index.instantRows[p]!);
  const [slo, shi] = index.samplesIn(t, window.start, window.end);
  for (let p = slo; p < shi; p++) out.push(index.sampleRows[p]!);
  return out.sort((x, y) => x - y); // the table is sorted by (track, start, depth)
}

function detailEvents(index: TimelineIndex, perLane: number[][], keyer: Keyer, depth: number): DetailEvents {
  const total = perLane.reduce((s, r) => s + r.length, 0);
  const ev = index.trace.events;
  const out: DetailEvents = {
    laneStart: new Int32Array(perLane.length + 1),
    row: new Int32Array(total),
    start: new Float64Array(total),
    duration: new Float64Array(total),
    depth: new Int32Array(total),
    kind: new Uint8Array(total),
    key: new Int32Array(total),
    node: new Int32Array(total),
  };
  const holdOf = sampleHoldLookup(index);
  let k = 0;
  perLane.forEach((rows, i) => {
    out.laneStart[i] = k;
    for (const r of rows) {
      const kind = ev.kind[r]!;
      out.row[k] = r;
      out.start[k] = ev.start[r]!;
      out.duration[k] = kind === TraceEventKind.Sample ? holdOf(r) : ev.duration[r]!;
      out.depth[k] = ev.depth[r]!;
      out.kind[k] = kind;
      out.node[k] = ev.node[r]!;
      out.key[k] =
        kind === TraceEventKind.Sample
          ? ev.node[r]! >= 0
            ? keyer.ofNode(index.frameAtDepth(ev.node[r]!, depth))
            : -1
          : keyer.ofSlice(r);
      k++;
    }
  });
  out.laneStart[perLane.length] = k;
  return out;
}

/** Hold of a sample row (0 for samples the index treats as redundant). */
export function sampleHoldLookup(index: TimelineIndex): (row: number) => number {
  return (row: number) => {
    const t = index.trace.events.track[row]!;
    let lo = index.sampleStart[t]!,
      hi = index.sampleStart[t + 1]!;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (index.sampleRows[m]! < row) lo = m + 1;
      else hi = m;
    }
    return lo < index.sampleStart[t + 1]! && index.sampleRows[lo] === row ? index.sampleHold[lo]! : 0;
  };
}
