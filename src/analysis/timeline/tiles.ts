import { TraceEventKind } from '../model/trace';
import type { TimelineIndex, TimeWindow } from './timeline-index';

/** What a column's colour stands for: the function (event name) or its load module. */
export type ColourBy = 'function' | 'module';

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
}

/**
 * Level-of-detail tiles for a window: per lane and pixel column, the dominant function (or module)
 * at the chosen depth, its share, and the busy fraction. Each lane costs
 * O(depth × log n + W × (depth + 1) + events of depth ≤ d in the window): a zoomed-in window
 * touches only its own events, never the whole trace.
 */
export function computeTiles(index: TimelineIndex, req: TileRequest): TileResult {
  const { window, width } = req;
  if (!(width >= 1) || !Number.isInteger(width)) throw new RangeError(`tile width must be a positive integer, got ${width}`);
  if (!(window.end > window.start)) throw new RangeError(`empty or inverted window [${window.start}, ${window.end})`);
  if (!(req.depth >= 0)) throw new RangeError(`depth must be ≥ 0, got ${req.depth}`);
  const colourBy = req.colourBy ?? 'function';
  const minPx = req.minPixelsPerEvent ?? 3;
  const lanes = req.tracks.length;
  for (const t of req.tracks) if (!(t >= 0 && t < index.trackCount)) throw new RangeError(`no lane ${t} (the trace has ${index.trackCount})`);
  const key = new Int32Array(lanes * width).fill(-1);
  const share = new Float32Array(lanes * width);
  const busy = new Float32Array(lanes * width);
  const detail = new Uint8Array(lanes);
  const keyer = new Keyer(index, colourBy);
  const scratch = new ColumnScratch();
  const detailRows: number[][] = [];
  for (let i = 0; i < lanes; i++) {
    const t = req.tracks[i]!;
    laneColumns(index, t, window, width, req.depth, keyer, scratch, key, share, busy, i * width);
    const visible = countInWindow(index, t, window);
    if (visible <= width / minPx) { detail[i] = 1; detailRows.push(eventsInWindow(index, t, window)); } else detailRows.push([]);
  }
  const events = detailEvents(index, detailRows, keyer, req.depth);
  const names = new Map<number, string>();
  for (const k of key) if (k >= 0 && !names.has(k)) names.set(k, keyer.name(k));
  for (const k of events.key) if (k >= 0 && !names.has(k)) names.set(k, keyer.name(k));
  return { window, width, depth: req.depth, colourBy, tracks: Int32Array.from(req.tracks), key, share, busy, detail, events, names };
}

/** The whole run at a fixed width, for the mini-map: compute once per trace (never full detail). */
export function computeMinimap(index: TimelineIndex, width = 1024, depth = 0, colourBy: ColourBy = 'function'): TileResult {
  const [lo, hi] = index.trace.timeRange;
  const tracks = Array.from({ length: index.trackCount }, (_, t) => t);
  return computeTiles(index, { window: { start: lo, end: hi > lo ? hi : lo + 1 }, tracks, width, depth, colourBy, minPixelsPerEvent: Infinity });
}

/** Maps slices and sampled frames to colour keys (string ids of the profile). */
export class Keyer {
  private readonly strings: readonly string[];
  constructor(private readonly index: TimelineIndex, readonly colourBy: ColourBy) {
    this.strings = index.profile.data.strings;
  }

  ofSlice(row: number): number {
    const ev = this.index.trace.events;
    if (this.colourBy === 'function') return ev.name[row]!;
    const node = ev.node[row]!;
    return node >= 0 ? this.index.profile.tree.columns.module[node]! : 0;
  }

  ofNode(node: number): number {
    const c = this.index.profile.tree.columns;
    return this.colourBy === 'function' ? c.name[node]! : c.module[node]!;
  }

  name(key: number): string {
    const s = this.strings[key] ?? '';
    return s !== '' ? s : this.colourBy === 'module' ? '(unknown module)' : '(unnamed)';
  }
}

/** Weights of the keys seen in one column (a handful in practice, so a linear list). */
class ColumnScratch {
  keys = new Int32Array(64);
  weights = new Float64Array(64);
  size = 0;

  add(k: number, w: number): void {
    for (let i = 0; i < this.size; i++) if (this.keys[i] === k) { this.weights[i]! += w; return; }
    if (this.size === this.keys.length) {
      const keys = new Int32Array(this.size * 2); keys.set(this.keys); this.keys = keys;
      const weights = new Float64Array(this.size * 2); weights.set(this.weights); this.weights = weights;
    }
    this.keys[this.size] = k;
    this.weights[this.size++] = w;
  }

  /** Index of the heaviest key (ties: the smaller key), or -1. */
  best(): number {
    let b = -1;
    for (let i = 0; i < this.size; i++) {
      const w = this.weights[i]!;
      if (w <= 0) continue;
      if (b < 0 || w > this.weights[b]! || (w === this.weights[b]! && this.keys[i]! < this.keys[b]!)) b = i;
    }
    return b;
  }
}

/** Column boundaries shared by tiles and their tests: column c is [t0 + c·w, t0 + (c+1)·w). */
export function columnBounds(window: TimeWindow, width: number, c: number): [number, number] {
  const w = (window.end - window.start) / width;
  return [window.start + c * w, c + 1 === width ? window.end : window.start + (c + 1) * w];
}

function laneColumns(
  index: TimelineIndex, t: number, window: TimeWindow, width: number, depth: number,
  keyer: Keyer, scratch: ColumnScratch, key: Int32Array, share: Float32Array, busy: Float32Array, at: number,
): void {
  const ev = index.trace.events;
  const { rows } = index;
  const dEnd = Math.min(depth, index.trackDepths(t) - 1);
  // Per depth: the window's position range, a column cursor, and a cursor to find a slice's parent.
  const pos: number[] = [], hiPos: number[] = [], parentPos: number[] = [];
  let overlapping = false;
  for (let j = 0; j <= dEnd; j++) overlapping ||= index.isOverlapping(t, j);
  for (let j = 0; j <= dEnd; j++) {
    const [lo, hi] = index.slicesIn(t, j, window.start, window.end);
    pos.push(lo); hiPos.push(hi); parentPos.push(lo);
  }
  const [sp0, sHi] = index.samplesIn(t, window.start, window.end);
  let sp = sp0;
  const sampleRows = index.sampleRows, hold = index.sampleHold;
  const t0 = window.start, t1 = window.end, colW = (t1 - t0) / width;
  if (!(colW > 0)) return;
  for (let c = 0; c < width; c++) {
    const a = t0 + c * colW, b = c + 1 === width ? t1 : t0 + (c + 1) * colW;
    scratch.size = 0;
    let sliceBusy = 0, sampleBusy = 0;
    // The column's result holds for every later column that ends by `horizon`: the time until
    // which the same slices cover it whole (or the same gap lasts) at every depth.
    let horizon = Infinity;
    for (let j = 0; j <= dEnd; j++) {
      let p = pos[j]!;
      const hi = hiPos[j]!;
      while (p < hi && ev.start[rows[p]!]! + ev.duration[rows[p]!]! <= a) p++;
      pos[j] = p;
      if (p >= hi) continue;
      const first = rows[p]!, fs = ev.start[first]!, fe = fs + ev.duration[first]!;
      if (fs >= b) { horizon = Math.min(horizon, fs); continue; }
      horizon = fs <= a && fe >= b && !overlapping ? Math.min(horizon, fe) : -Infinity;
      for (let q = p; q < hi; q++) {
        const r = rows[q]!;
        const s = ev.start[r]!;
        if (s >= b) break;
        const cov = Math.min(s + ev.duration[r]!, b) - Math.max(s, a);
        if (cov <= 0) continue;
        scratch.add(keyer.ofSlice(r), cov);
        if (j === 0) sliceBusy += cov;
        else {
          // Time inside a deeper slice is not its parent's at this depth: take it off the parent.
          let pp = parentPos[j - 1]!;
          const pHi = hiPos[j - 1]!;
          while (pp < pHi && ev.start[rows[pp]!]! + ev.duration[rows[pp]!]! <= s) pp++;
          parentPos[j - 1] = pp;
          if (pp < pHi && ev.start[rows[pp]!]! <= s) scratch.add(keyer.ofSlice(rows[pp]!), -cov);
        }
      }
    }
    while (sp < sHi && ev.start[sampleRows[sp]!]! + hold[sp]! <= a && ev.start[sampleRows[sp]!]! < a) sp++;
    if (sp < sHi) {
      const fs = ev.start[sampleRows[sp]!]!;
      horizon = fs >= b ? Math.min(horizon, fs) : -Infinity;
    }
    for (let q = sp; q < sHi; q++) {
      const s = ev.start[sampleRows[q]!]!;
      if (s >= b) break;
      const cov = Math.min(s + hold[q]!, b) - Math.max(s, a);
      if (cov <= 0) continue;
      const leaf = ev.node[sampleRows[q]!]!;
      if (leaf < 0) continue;
      scratch.add(keyer.ofNode(index.frameAtDepth(leaf, depth)), cov);
      sampleBusy += cov;
    }
    const best = scratch.best();
    const k = best >= 0 ? scratch.keys[best]! : -1;
    const sh = best >= 0 ? Math.min(1, scratch.weights[best]! / (b - a)) : 0;
    const bu = Math.min(1, Math.max(sliceBusy, sampleBusy) / (b - a));
    key[at + c] = k; share[at + c] = sh; busy[at + c] = bu;
    // Copy the result over the columns that lie wholly before the horizon (zoomed in: most of them).
    while (c + 1 < width && (c + 2 === width ? t1 : t0 + (c + 2) * colW) <= horizon) {
      c++;
      key[at + c] = k; share[at + c] = sh; busy[at + c] = bu;
    }
  }
}

/** Events of track t overlapping the window (slices of all depths, instants, samples): a count from binary searches. */
export function countInWindow(index: TimelineIndex, t: number, window: TimeWindow): number {
  let n = 0;
  for (let j = 0; j < index.trackDepths(t); j++) { const [lo, hi] = index.slicesIn(t, j, window.start, window.end); n += hi - lo; }
  const [slo, shi] = index.samplesIn(t, window.start, window.end);
  const [ilo, ihi] = instantsIn(index, t, window);
  return n + (shi - slo) + (ihi - ilo);
}

/** Instant positions [lo, hi) of track t with start in the window. */
export function instantsIn(index: TimelineIndex, t: number, window: TimeWindow): [number, number] {
  const start = index.trace.events.start, rows = index.instantRows;
  const bound = (x: number) => {
    let lo = index.instantStart[t]!, hi = index.instantStart[t + 1]!;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (start[rows[m]!]! < x) lo = m + 1; else hi = m; }
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
      const s = ev.start[r]!, e = s + ev.duration[r]!;
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
    laneStart: new Int32Array(perLane.length + 1), row: new Int32Array(total), start: new Float64Array(total),
    duration: new Float64Array(total), depth: new Int32Array(total), kind: new Uint8Array(total),
    key: new Int32Array(total), node: new Int32Array(total),
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
      out.key[k] = kind === TraceEventKind.Sample
        ? (ev.node[r]! >= 0 ? keyer.ofNode(index.frameAtDepth(ev.node[r]!, depth)) : -1)
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
    let lo = index.sampleStart[t]!, hi = index.sampleStart[t + 1]!;
    while (lo < hi) { const m = (lo + hi) >>> 1; if (index.sampleRows[m]! < row) lo = m + 1; else hi = m; }
    return lo < index.sampleStart[t + 1]! && index.sampleRows[lo] === row ? index.sampleHold[lo]! : 0;
  };
}
