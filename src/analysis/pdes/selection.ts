import { polygonContains } from 'd3';
import type { SeriesMatrix } from '../series/series-matrix';
import type { TickRange } from './analysis-options';
import type { PdesBehaviour } from './behaviour';

/**
 * Which entities the PDES views show ([T5] §5.3.1–5.3.3, seed digest §3.1.5: "a filter in any view
 * removes the entity from all views"): value filters on a metric, the right-click cluster filter and
 * a pick (a lasso in a similarity view or a freeform stroke in a detail view) combine by
 * intersection into one ascending index set that every view's data function takes.
 */
export interface PdesSelection {
  /** Keep entities whose series pass every filter, over the selected time range. */
  valueFilters?: readonly ValueFilter[];
  /** Clusters shown (the right-click filter); null or absent shows all. */
  clusters?: readonly number[] | null;
  /** Entities picked by a lasso or a stroke; null or absent picks none (no restriction). */
  entities?: readonly number[] | null;
}

/** A threshold on one metric ([T5] §5.3.1's "filter by metric value"). */
export interface ValueFilter {
  metric: string;
  /** Which value of each series over the range is compared (default `max`: the series reaches at least `min`). */
  statistic?: 'max' | 'mean' | 'min';
  /** Inclusive bounds; an absent bound does not filter. */
  min?: number;
  max?: number;
}

/** A point of a stroke or polygon in a view's coordinates. */
export type Point2 = readonly [number, number];

/** Entities passing the selection, ascending. `labels` holds each entity's cluster. */
export function selectEntities(
  behaviour: PdesBehaviour,
  range: TickRange,
  labels: Int32Array,
  selection: PdesSelection = {},
): Int32Array {
  const n = behaviour.count;
  const keep = new Uint8Array(n).fill(1);
  if (selection.clusters) {
    const shown = new Set(selection.clusters);
    for (let i = 0; i < n; i++) if (!shown.has(labels[i]!)) keep[i] = 0;
  }
  if (selection.entities) {
    const picked = new Uint8Array(n);
    for (const e of selection.entities) if (e >= 0 && e < n) picked[e] = 1;
    for (let i = 0; i < n; i++) keep[i]! &= picked[i]!;
  }
  for (const f of selection.valueFilters ?? []) {
    const m = behaviour.window(f.metric, range);
    const t = m.timePoints;
    const lo = f.min ?? -Infinity,
      hi = f.max ?? Infinity;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      const v = rowStatistic(m.values, i * t, t, f.statistic ?? 'max');
      if (!(v >= lo && v <= hi)) keep[i] = 0;
    }
  }
  return indicesOf(keep);
}

function rowStatistic(values: Float64Array, base: number, t: number, statistic: 'max' | 'mean' | 'min'): number {
  let max = -Infinity,
    min = Infinity,
    sum = 0;
  for (let s = 0; s < t; s++) {
    const v = values[base + s]!;
    if (v > max) max = v;
    if (v < min) min = v;
    sum += v;
  }
  return statistic === 'max' ? max : statistic === 'min' ? min : t ? sum / t : NaN;
}

/** 1 for each index in `indices`, 0 elsewhere. */
export function selectionMask(n: number, indices: ArrayLike<number>): Uint8Array {
  const mask = new Uint8Array(n);
  for (let k = 0; k < indices.length; k++) mask[indices[k]!] = 1;
  return mask;
}

function indicesOf(mask: Uint8Array): Int32Array {
  let count = 0;
  for (const v of mask) count += v;
  const out = new Int32Array(count);
  let p = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) out[p++] = i;
  return out;
}

/**
 * Freeform selection ([T5] §5.3.1: "draw a stroke and select every line it crosses"): the
 * candidates whose polyline (x[τ], series[τ]) over the window touches or crosses the stroke, a
 * polyline in the same coordinates. Intersection is invariant under the views' linear scales, so
 * data and pixel coordinates give the same answer. Closed segments: touching a vertex counts. A
 * stroke of one point selects nothing (that is a click).
 */
export function strokeSelection(
  x: ArrayLike<number>,
  series: SeriesMatrix,
  candidates: ArrayLike<number>,
  stroke: readonly Point2[],
): Int32Array {
  const t = series.timePoints;
  if (x.length !== t) throw new RangeError(`stroke selection: ${x.length} x values for series of ${t} samples`);
  const out: number[] = [];
  if (stroke.length < 2 || t === 0) return Int32Array.from(out);
  const monotone = isNonDecreasing(x);
  const values = series.values;
  for (let c = 0; c < candidates.length; c++) {
    const e = candidates[c]!;
    const base = e * t;
    let hit = false;
    for (let s = 0; s + 1 < stroke.length && !hit; s++) {
      const [ax, ay] = stroke[s]!;
      const [bx, by] = stroke[s + 1]!;
      if (t === 1) {
        hit = onSegment(ax, ay, bx, by, x[0]!, values[base]!);
        continue;
      }
      // Series segments whose x-extent can meet the stroke segment's.
      const xlo = Math.min(ax, bx),
        xhi = Math.max(ax, bx);
      let from = 0,
        to = t - 1;
      if (monotone) {
        // Segment k spans [x[k], x[k+1]]: the first that ends at or after xlo, up to the last that starts at or before xhi.
        from = Math.max(0, bound(x, xlo, false) - 1);
        to = Math.min(t - 1, bound(x, xhi, true));
      }
      const ylo = Math.min(ay, by),
        yhi = Math.max(ay, by);
      for (let k = from; k < to && !hit; k++) {
        const px = x[k]!,
          py = values[base + k]!,
          qx = x[k + 1]!,
          qy = values[base + k + 1]!;
        if (Math.max(px, qx) < xlo || Math.min(px, qx) > xhi) continue;
        if (Math.max(py, qy) < ylo || Math.min(py, qy) > yhi) continue;
        hit = segmentsMeet(ax, ay, bx, by, px, py, qx, qy);
      }
    }
    if (hit) out.push(e);
  }
  return Int32Array.from(out).sort();
}

/** Whether closed segments AB and PQ share a point. */
export function segmentsMeet(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  px: number,
  py: number,
  qx: number,
  qy: number,
): boolean {
  const o1 = orientation(ax, ay, bx, by, px, py),
    o2 = orientation(ax, ay, bx, by, qx, qy),
    o3 = orientation(px, py, qx, qy, ax, ay),
    o4 = orientation(px, py, qx, qy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (
    (o1 === 0 && onSegment(ax, ay, bx, by, px, py)) ||
    (o2 === 0 && onSegment(ax, ay, bx, by, qx, qy)) ||
    (o3 === 0 && onSegment(px, py, qx, qy, ax, ay)) ||
    (o4 === 0 && onSegment(px, py, qx, qy, bx, by))
  );
}

/** Sign of the cross product (B − A) × (C − A): > 0 left turn, < 0 right turn, 0 collinear. */
function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

/** Whether C lies on the closed segment AB. */
function onSegment(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return (
    orientation(ax, ay, bx, by, cx, cy) === 0 &&
    cx >= Math.min(ax, bx) &&
    cx <= Math.max(ax, bx) &&
    cy >= Math.min(ay, by) &&
    cy <= Math.max(ay, by)
  );
}

function isNonDecreasing(x: ArrayLike<number>): boolean {
  for (let i = 1; i < x.length; i++) if (!(x[i]! >= x[i - 1]!)) return false;
  return true;
}

/** First index with x[i] ≥ v (x[i] > v when `strict`), x non-decreasing. */
function bound(x: ArrayLike<number>, v: number, strict: boolean): number {
  let lo = 0,
    hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x[mid]! < v || (strict && x[mid]! === v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Lasso selection in a similarity view: the candidates whose point (x, y at 2i, 2i + 1) lies inside the polygon. */
export function lassoSelection(
  points: Float64Array,
  candidates: ArrayLike<number>,
  polygon: readonly Point2[],
): Int32Array {
  const out: number[] = [];
  if (polygon.length < 3) return Int32Array.from(out);
  const ring = polygon as [number, number][];
  for (let c = 0; c < candidates.length; c++) {
    const e = candidates[c]!;
    if (polygonContains(ring, [points[2 * e]!, points[2 * e + 1]!])) out.push(e);
  }
  return Int32Array.from(out).sort();
}
