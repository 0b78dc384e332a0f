import { extent } from 'd3';
import type { OverviewStatistic, RingEncoding, TickRange } from './analysis-options';
import type { CommunicationWeight } from './model/communication';
import type { EntityLevel, PdesMetric } from './model/metrics';
import type { PdesAnalysis } from './pdes-analysis';
import type { PdesRun } from './model/pdes-run';
import { lassoSelection, selectionMask, strokeSelection, type Point2 } from './selection';
import {
  peSegmentMatrices,
  segmentCommunication,
  segmentMetricMeans,
  type PdesSegment,
  type SegmentCommunication,
  type TraceScope,
} from './segments';

/**
 * What each view of the PDES panel draws ([T5] §5.3.1–5.3.4, seed digest §3.1), as pure functions
 * of an analysis and the selected entities (selection.ts): level-of-detail data, with lines cut to
 * a pixel budget, so the webview only maps values to pixels. Every function takes the selection and
 * leaves unselected entities out (or flags them, where a view can dim them).
 */

/** A line's points, min–max decimated: x, y interleaved. */
export type LinePoints = Float64Array;

/**
 * Indices of the samples [from, to) a line of `width` pixels needs: all of them up to two per pixel,
 * else per pixel column the first, minimum, maximum and last sample in time order (the M4 rule,
 * Jugel et al. 2014), which draws exactly like the full line at that width.
 */
export function decimatedIndices(values: ArrayLike<number>, from: number, to: number, width: number): Int32Array {
  const count = to - from;
  const columns = Math.max(1, Math.floor(width));
  if (count <= 2 * columns) return Int32Array.from({ length: Math.max(0, count) }, (_, i) => from + i);
  const out: number[] = [];
  for (let c = 0; c < columns; c++) {
    const lo = from + Math.floor((c * count) / columns),
      hi = from + Math.floor(((c + 1) * count) / columns);
    if (hi <= lo) continue;
    let min = lo,
      max = lo;
    for (let i = lo + 1; i < hi; i++) {
      if (values[i]! < values[min]!) min = i;
      if (values[i]! > values[max]!) max = i;
    }
    for (const i of [lo, Math.min(min, max), Math.max(min, max), hi - 1]) if (out[out.length - 1] !== i) out.push(i);
  }
  return Int32Array.from(out);
}

function linePoints(x: ArrayLike<number>, values: ArrayLike<number>, indices: Int32Array, offset = 0): LinePoints {
  const out = new Float64Array(2 * indices.length);
  indices.forEach((i, k) => {
    out[2 * k] = x[i]!;
    out[2 * k + 1] = values[offset + i]!;
  });
  return out;
}

/** A change point or edited bound as the views mark it: a vertical line at its sample, numbered by detection order. */
export interface ChangePointMarker {
  index: number;
  x: number;
  /** 1 for the most prominent change, … (null for an edited bound). */
  order: number | null;
  pValue: number | null;
}

/** A segment as the views label it (A, B, …) with its x extent. */
export interface SegmentMarker {
  label: string;
  start: number;
  end: number;
  x0: number;
  x1: number;
}

function markers(analysis: PdesAnalysis): { changePoints: ChangePointMarker[]; segments: SegmentMarker[] } {
  const x = analysis.behaviour.time;
  const detected = new Map(analysis.changePoints.detected.map(c => [c.index, c]));
  return {
    changePoints: analysis.segments.slice(1).map(s => ({
      index: s.start,
      x: x[s.start]!,
      order: detected.get(s.start)?.order ?? null,
      pValue: s.pValue,
    })),
    segments: analysis.segments.map(s => ({
      label: s.label,
      start: s.start,
      end: s.end,
      x0: x[s.start]!,
      x1: x[s.end - 1]!,
    })),
  };
}

/** One legend entry per cluster: `Cluster-0 (16)` as the seed's views print it. */
export interface ClusterLegendEntry {
  cluster: number;
  label: string;
  members: number;
  /** Members in the selection. */
  shown: number;
}

export function clusterLegend(analysis: PdesAnalysis, selected: ArrayLike<number>): ClusterLegendEntry[] {
  const { labels, sizes } = analysis.clustering;
  const shown = new Int32Array(sizes.length);
  for (let k = 0; k < selected.length; k++) shown[labels[selected[k]!]!]!++;
  return Array.from(sizes, (members, cluster) => ({
    cluster,
    label: `Cluster-${cluster} (${members})`,
    members,
    shown: shown[cluster]!,
  }));
}

// ——— Overview ———

export interface OverviewData {
  metric: PdesMetric;
  statistic: OverviewStatistic;
  timeLabel: string;
  /** The statistic across the selected entities at every sample, decimated (x, y interleaved). */
  points: LinePoints;
  samples: number;
  /** Entities the statistic runs over. */
  entities: number;
  yDomain: [number, number];
  /** The brush: the analysed range, with its x extent. */
  brush: TickRange & { x0: number; x1: number };
  changePoints: ChangePointMarker[];
  segments: SegmentMarker[];
}

/**
 * The overview ([T5] §5.3.1 (a)): max, mean or population standard deviation across the selected
 * entities at each sample of the whole run, with the brush on the analysed range.
 */
export function overviewData(
  analysis: PdesAnalysis,
  selected: ArrayLike<number>,
  options: { metric?: string; statistic?: OverviewStatistic; width?: number } = {},
): OverviewData {
  const b = analysis.behaviour;
  const metricId = options.metric ?? analysis.metrics.detail[0];
  const statistic = options.statistic ?? analysis.options.overviewStatistic;
  const { values, timePoints: t } = b.series(metricId);
  const stat = new Float64Array(t);
  const m = selected.length;
  for (let s = 0; s < t; s++) {
    let sum = 0,
      squares = 0,
      max = -Infinity;
    for (let k = 0; k < m; k++) {
      const v = values[selected[k]! * t + s]!;
      sum += v;
      squares += v * v;
      if (v > max) max = v;
    }
    const mean = sum / m;
    stat[s] = !m
      ? NaN
      : statistic === 'max'
        ? max
        : statistic === 'mean'
          ? mean
          : Math.sqrt(Math.max(0, squares / m - mean * mean));
  }
  const indices = decimatedIndices(stat, 0, t, options.width ?? 1000);
  const x = b.time;
  const { from, to } = analysis.range;
  return {
    metric: b.metric(metricId),
    statistic,
    timeLabel: b.timeLabel,
    points: linePoints(x, stat, indices),
    samples: t,
    entities: m,
    yDomain: extentOf(stat),
    brush: { from, to, x0: x[from]!, x1: x[to - 1]! },
    ...markers(analysis),
  };
}

// ——— Detail views ———

export interface DetailLine {
  entity: number;
  /** The entity's id (PE id, KP number, LP id) and label. */
  id: number;
  label: string;
  cluster: number;
  /** False for an unselected line kept (dimmed) when unselected lines are not removed. */
  selected: boolean;
  points: LinePoints;
}

export interface DetailViewData {
  view: 0 | 1;
  metric: PdesMetric;
  timeLabel: string;
  range: TickRange;
  lines: DetailLine[];
  yDomain: [number, number];
  legend: ClusterLegendEntry[];
  /** Some lines hold fewer points than samples (more samples than twice the width). */
  decimated: boolean;
  changePoints: ChangePointMarker[];
  segments: SegmentMarker[];
}

/**
 * A detail view ([T5] §5.3.1 (b1, b2)): one polyline per entity over the analysed range, coloured
 * by cluster. Unselected entities are left out, or kept with `selected: false` when `keepUnselected`
 * (the seed's option to remove unselected lines, reversed).
 */
export function detailViewData(
  analysis: PdesAnalysis,
  view: 0 | 1,
  selected: ArrayLike<number>,
  options: { width?: number; keepUnselected?: boolean } = {},
): DetailViewData {
  const b = analysis.behaviour;
  const metricId = analysis.metrics.detail[view];
  const { values, timePoints: t } = b.series(metricId);
  const { from, to } = analysis.range;
  const width = options.width ?? 1000;
  const mask = selectionMask(b.count, selected);
  const entities = options.keepUnselected ? Array.from({ length: b.count }, (_, i) => i) : Array.from(selected);
  let lo = Infinity,
    hi = -Infinity,
    decimated = false;
  const lines = entities.map(e => {
    const row = values.subarray(e * t, (e + 1) * t);
    const indices = decimatedIndices(row, from, to, width);
    if (indices.length < to - from) decimated = true;
    for (let i = from; i < to; i++) {
      if (row[i]! < lo) lo = row[i]!;
      if (row[i]! > hi) hi = row[i]!;
    }
    return {
      entity: e,
      id: b.ids[e]!,
      label: b.label(e),
      cluster: analysis.clustering.labels[e]!,
      selected: mask[e] === 1,
      points: linePoints(b.time, row, indices),
    };
  });
  return {
    view,
    metric: b.metric(metricId),
    timeLabel: b.timeLabel,
    range: analysis.range,
    lines,
    yDomain: lines.length ? [lo, hi] : [0, 0],
    legend: clusterLegend(analysis, selected),
    decimated,
    ...markers(analysis),
  };
}

/**
 * Freeform selection in a detail view: the selected entities whose line over the analysed range
 * the stroke (in the view's data coordinates: x on the time axis, y the metric) crosses.
 */
export function detailStrokeSelection(
  analysis: PdesAnalysis,
  view: 0 | 1,
  selected: ArrayLike<number>,
  stroke: readonly Point2[],
): Int32Array {
  const b = analysis.behaviour;
  const { from, to } = analysis.range;
  return strokeSelection(
    b.time.subarray(from, to),
    b.window(analysis.metrics.detail[view], analysis.range),
    selected,
    stroke,
  );
}

// ——— Similarity views ———

export interface SimilarityViewData {
  view: 0 | 1;
  metric: PdesMetric;
  method: PdesAnalysis['options']['projection'];
  /** Entities drawn, their x, y (interleaved) and clusters. */
  entities: Int32Array;
  points: Float64Array;
  clusters: Int32Array;
  legend: ClusterLegendEntry[];
  /** Extent of all points (selected or not), so filtering does not rescale the view. */
  xDomain: [number, number];
  yDomain: [number, number];
}

/** A similarity view ([T5] §5.3.3 (c1, c2)): the projection of the view's metric, selected entities only. */
export function similarityViewData(
  analysis: PdesAnalysis,
  view: 0 | 1,
  selected: ArrayLike<number>,
): SimilarityViewData {
  const p = analysis.projections[view];
  const c = p.coordinates;
  const n = analysis.behaviour.count;
  const points = new Float64Array(2 * selected.length);
  for (let k = 0; k < selected.length; k++) {
    points[2 * k] = c[2 * selected[k]!]!;
    points[2 * k + 1] = c[2 * selected[k]! + 1]!;
  }
  return {
    view,
    metric: analysis.behaviour.metric(p.metric),
    method: p.method,
    entities: Int32Array.from(selected),
    points,
    clusters: Int32Array.from(selected, e => analysis.clustering.labels[e]!),
    legend: clusterLegend(analysis, selected),
    xDomain: extentOf(Float64Array.from({ length: n }, (_, i) => c[2 * i]!)),
    yDomain: extentOf(Float64Array.from({ length: n }, (_, i) => c[2 * i + 1]!)),
  };
}

/** Lasso selection in a similarity view (polygon in the projection's coordinates). */
export function similarityLassoSelection(
  analysis: PdesAnalysis,
  view: 0 | 1,
  selected: ArrayLike<number>,
  polygon: readonly Point2[],
): Int32Array {
  return lassoSelection(analysis.projections[view].coordinates, selected, polygon);
}

// ——— Circular views ———

/** A ribbon between two PEs in one segment. */
export interface Ribbon {
  source: number;
  target: number;
  /** The larger of the two directions (equal for `sum` and `max` weights): colour and rank. */
  value: number;
  /** Weighted value source → target and target → source. */
  forward: number;
  backward: number;
}

export interface CircularSegmentView {
  segment: PdesSegment;
  /** Ribbons at or above the threshold, largest first. */
  ribbons: Ribbon[];
  /** Ribbons hidden by the threshold. */
  hidden: number;
  /** Each PE's weighted traffic with itself (the matrix diagonal, which ribbons do not draw). */
  self: Float64Array;
  /** Per ring item (in `items` order): the segment mean of the inner and outer ring metrics. */
  inner: Float64Array;
  outer: Float64Array;
}

export interface CircularViewData {
  /** The level of the ring items (the behaviour level). */
  level: EntityLevel;
  encoding: RingEncoding;
  weight: CommunicationWeight;
  threshold: number;
  innerMetric: PdesMetric;
  outerMetric: PdesMetric;
  /** PEs around the circle in order, each with its selected ring items (indices into `items`). */
  groups: { pe: number; label: string; first: number; count: number }[];
  /** Selected entities in ring order (grouped by PE), and their clusters (bar colours). */
  items: Int32Array;
  clusters: Int32Array;
  /** Scales shared by every segment's view: the largest ribbon, and each ring's [min, max]. */
  scales: { ribbon: number; inner: [number, number]; outer: [number, number] };
  segments: CircularSegmentView[];
  /** What the ribbons count (null without an event trace: rings only). */
  communication: { scope: TraceScope } | null;
  /** Selected entities on no known PE, left out of the rings. */
  unplaced: number;
}

/**
 * The per-segment circular views ([T5] §5.3.4 (d)): PE ↔ PE ribbons of mean communication per
 * sample (weight and threshold from the options), and around them per selected entity, grouped
 * under its PE, the segment means of the inner (primary rollbacks) and outer (secondary rollbacks)
 * ring metrics, as bars coloured by cluster or as heatmaps. Ribbon and ring scales are shared
 * across segments. `communication` may be passed when already computed for these segments.
 */
export function circularViewData(
  run: PdesRun,
  analysis: PdesAnalysis,
  selected: ArrayLike<number>,
  communication: SegmentCommunication | null = segmentCommunication(run, analysis.behaviour, analysis.segments),
): CircularViewData {
  const b = analysis.behaviour;
  const o = analysis.options;
  const pes = run.entities.count('pe');
  // Ring order: PE by PE, entities in index order within their PE.
  const placed = Array.from(selected).filter(e => b.pe[e]! >= 0);
  placed.sort((x, y) => b.pe[x]! - b.pe[y]! || x - y);
  const items = Int32Array.from(placed);
  const groups: CircularViewData['groups'] = [];
  let k = 0;
  for (let p = 0; p < pes; p++) {
    const first = k;
    while (k < items.length && b.pe[items[k]!] === p) k++;
    groups.push({ pe: p, label: run.entities.label('pe', p), first, count: k - first });
  }
  const inner = segmentMetricMeans(b, analysis.metrics.innerRing, analysis.segments);
  const outer = segmentMetricMeans(b, analysis.metrics.outerRing, analysis.segments);
  const S = analysis.segments.length;
  const ringValues = (means: Float64Array, s: number) => Float64Array.from(items, e => means[e * S + s]!);
  const mask = selectionMask(b.count, items);
  const matrices =
    communication && pes > 0 ? peSegmentMatrices(communication, b, pes, mask, o.communicationWeight) : null;
  const segments = analysis.segments.map((segment, s) => {
    const ribbons: Ribbon[] = [];
    const self = new Float64Array(pes);
    let hidden = 0;
    const w = matrices?.matrices[s];
    if (w)
      for (let i = 0; i < pes; i++) {
        self[i] = w[i * pes + i]!;
        for (let j = i + 1; j < pes; j++) {
          const forward = w[i * pes + j]!,
            backward = w[j * pes + i]!;
          const value = Math.max(forward, backward);
          if (value <= 0) continue;
          if (value < o.ribbonThreshold) hidden++;
          else ribbons.push({ source: i, target: j, value, forward, backward });
        }
      }
    ribbons.sort((x, y) => y.value - x.value || x.source - y.source || x.target - y.target);
    return {
      segment,
      ribbons,
      hidden,
      self,
      inner: ringValues(inner.means, s),
      outer: ringValues(outer.means, s),
    };
  });
  const ringExtent = (key: 'inner' | 'outer') => extentOf(segments.flatMap(seg => [...seg[key]]));
  return {
    level: b.level,
    encoding: o.ringEncoding,
    weight: o.communicationWeight,
    threshold: o.ribbonThreshold,
    innerMetric: b.metric(analysis.metrics.innerRing),
    outerMetric: b.metric(analysis.metrics.outerRing),
    groups,
    items,
    clusters: Int32Array.from(items, e => analysis.clustering.labels[e]!),
    scales: { ribbon: matrices?.max ?? 0, inner: ringExtent('inner'), outer: ringExtent('outer') },
    segments,
    communication: communication ? { scope: communication.scope } : null,
    unplaced: selected.length - items.length,
  };
}

/** [min, max] of the numbers (NaN skipped), [0, 0] when there are none. */
function extentOf(values: Iterable<number>): [number, number] {
  const [lo, hi] = extent(values);
  return lo === undefined || hi === undefined ? [0, 0] : [lo, hi];
}
