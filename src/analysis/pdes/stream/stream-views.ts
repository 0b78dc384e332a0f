import { weighted, type CommunicationWeight } from '../model/communication';
import type { EntityLevel } from '../model/metrics';
import type { PdesMonitor } from './pdes-monitor';
import type { CausalityRow } from '../../series/progressive-causality';
import type { StreamChangePoint, StreamProjection } from './stream-analyser';
import { communicationPair } from './stream-cache';

/**
 * What the live panel's views draw (thesis §6.4, seed digest §3.2), computed on demand from a
 * monitor's cache and analyses as plain data: the behaviour views' sliding windows, the summary
 * (history mean) views, the live, base and per-change-point diff matrices at PE or KP granularity
 * with drill-down and cluster strips, the causality table, lasso selections with their badge, and
 * the entities a change point's **Show** selects.
 */

/** A behaviour view: the last `window` complete ticks of one metric, one series per entity. */
export interface BehaviourWindow {
  metric: string;
  level: EntityLevel;
  /** First and one-past-last tick shown. */
  fromTick: number;
  toTick: number;
  /** Time of each tick shown (GVT, or wall-clock seconds). */
  time: Float64Array;
  /** Entity-major values: entity e's tick fromTick + j at `values[e·width + j]` (gaps as 0). */
  values: Float64Array;
  entities: number;
  min: number;
  max: number;
  /** Change points inside the window (teal numbered lines). */
  changePoints: { number: number; tick: number }[];
  /** Cluster colour per entity (−1 before the first clustering). */
  labels: Int32Array;
}

/** The behaviour view of a metric (or of the top / bottom view's metric) over the sliding window. */
export function behaviourWindow(
  monitor: PdesMonitor,
  view: 'top' | 'bottom' | string,
  window?: number,
): BehaviourWindow {
  const { table, metric, n, level } = viewTable(monitor, view);
  const complete = monitor.ticks;
  const width = Math.min(complete, window ?? monitor.options.window);
  const fromTick = complete - width;
  const values = new Float64Array(n * width);
  let min = Infinity,
    max = -Infinity;
  for (let e = 0; e < n; e++) {
    const row = table.series(metric, e);
    for (let j = 0; j < width; j++) {
      const raw = row[fromTick + j]!;
      const v = Number.isFinite(raw) ? raw : 0;
      values[e * width + j] = v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const time = Float64Array.from({ length: width }, (_, j) => monitor.cache.tickTime(fromTick + j));
  return {
    metric: table.metrics[metric]!.id,
    level,
    fromTick,
    toTick: complete,
    time,
    values,
    entities: n,
    min: width && n ? min : 0,
    max: width && n ? max : 0,
    changePoints: monitor.analyser.changePoints
      .filter(c => c.tick >= fromTick && c.tick < complete)
      .map(c => ({ number: c.number, tick: c.tick })),
    labels: labelsOf(monitor, n),
  };
}

/** A summary view: the mean over entities of every complete tick since the start, with markers. */
export interface SummarySeries {
  metric: string;
  time: Float64Array;
  mean: Float64Array;
  changePoints: { number: number; tick: number; time: number }[];
}

export function summarySeries(monitor: PdesMonitor, view: 'top' | 'bottom' | string): SummarySeries {
  const { table, metric, n } = viewTable(monitor, view);
  const T = monitor.ticks;
  const mean = new Float64Array(T);
  for (let e = 0; e < n; e++) {
    const row = table.series(metric, e);
    for (let t = 0; t < T; t++) {
      const v = row[t]!;
      if (Number.isFinite(v)) mean[t]! += v / n;
    }
  }
  return {
    metric: table.metrics[metric]!.id,
    time: Float64Array.from({ length: T }, (_, t) => monitor.cache.tickTime(t)),
    mean,
    changePoints: monitor.analyser.changePoints.map(c => ({ number: c.number, tick: c.tick, time: c.time })),
  };
}

export interface MatrixQuery {
  /** `pe` (PE groups) or `kp` (every KP); default: the monitor's setting. */
  granularity?: 'pe' | 'kp';
  /** Drill-down: the KPs of row PE `rowPe` against those of column PE `colPe` (PE indices). */
  drill?: { rowPe: number; colPe: number };
  weight?: CommunicationWeight;
  aggregation?: 'mean' | 'sum';
}

/** One adjacency matrix of the communication views. */
export interface MatrixView {
  level: 'pe' | 'kp';
  /** Rows. */
  size: number;
  /** Columns (= size, except for a drill-down between two PEs with different KP counts). */
  columns: number;
  /** Row entity indices at `level`, in natural order (PEs by id, KPs by PE then id). */
  entities: number[];
  columnEntities: number[];
  /** Row labels, `PE 3` or `PE 3 · KP 5`. */
  labels: string[];
  columnLabels: string[];
  /** Row-major cells, size × columns (row = sender for `sends`). */
  values: Float64Array;
  /** Largest cell (grey scale) or largest |cell| (diverging scale of diffs). */
  max: number;
  /** Cluster colour per row: the KP's, or the most common among a PE's KPs (−1 for none). */
  strip: Int32Array;
  columnStrip: Int32Array;
  /** Events in the whole matrix at this granularity (before a drill-down cut). */
  events: number;
}

/** The live matrix: the latest complete tick's communication. */
export function liveMatrix(monitor: PdesMonitor, query: MatrixQuery = {}): MatrixView | null {
  const t = monitor.cache.completeTicks - 1;
  return t >= 0 ? communicationView(monitor, [t], query) : null;
}

/**
 * The communication of the given ticks summed (one tick for the live and base views), or of the
 * whole run (`'all'`: every complete tick and, once the input ended, the events after the last
 * one), at PE or KP granularity, or drilled down to the KPs of two PEs. Null when the run has no
 * event-trace placement for that granularity.
 */
export function communicationView(
  monitor: PdesMonitor,
  ticks: readonly number[] | 'all',
  query: MatrixQuery = {},
): MatrixView | null {
  const cache = monitor.cache;
  const stored = cache.commLevel;
  if (!stored) return null;
  const o = monitor.options.matrix;
  const level = query.drill ? 'kp' : (query.granularity ?? o.granularity);
  if (level === 'kp' && stored !== 'kp') return null;
  const e = cache.entities;
  const all = level === 'pe' ? sortedPes(monitor) : sortedKps(monitor);
  const at = positions(all);
  const n = all.length;
  const toView = (entity: number) => (level === 'pe' && stored === 'kp' ? e.kpPe(entity) : entity);
  const counts = new Float64Array(n * n);
  let events = 0;
  const maps =
    ticks === 'all'
      ? [...Array.from({ length: cache.completeTicks }, (_, t) => cache.tickCommunication(t)), cache.afterLastTick]
      : ticks.map(t => cache.tickCommunication(t));
  for (const map of maps)
    for (const [key, c] of map) {
      const [a, b] = communicationPair(key);
      const r = at.get(toView(a)),
        col = at.get(toView(b));
      if (r === undefined || col === undefined) continue;
      counts[r * n + col]! += c;
      events += c;
    }
  const full = weighted({ level, size: n, counts, events }, query.weight ?? o.weight);
  if (level === 'pe' && stored === 'kp' && (query.aggregation ?? o.aggregation) === 'mean') {
    // The reference code's average: a PE row is the mean over the PE's KPs of their sums to each PE.
    const kpsOf = new Map<number, number>();
    for (let k = 0; k < e.count('kp'); k++) kpsOf.set(e.kpPe(k), (kpsOf.get(e.kpPe(k)) ?? 0) + 1);
    for (let r = 0; r < n; r++) {
      const div = Math.max(1, kpsOf.get(all[r]!) ?? 1);
      for (let c = 0; c < n; c++) full[r * n + c]! /= div;
    }
  }
  const rows = query.drill ? all.filter(k => e.kpPe(k) === query.drill!.rowPe) : all;
  const cols = query.drill ? all.filter(k => e.kpPe(k) === query.drill!.colPe) : all;
  const values = new Float64Array(rows.length * cols.length);
  rows.forEach((r, i) => cols.forEach((c, j) => (values[i * cols.length + j] = full[at.get(r)! * n + at.get(c)!]!)));
  let max = 0;
  for (const v of values) if (Math.abs(v) > max) max = Math.abs(v);
  return {
    level,
    size: rows.length,
    columns: cols.length,
    entities: rows,
    columnEntities: cols,
    labels: rows.map(i => e.label(level, i)),
    columnLabels: cols.map(i => e.label(level, i)),
    values,
    max,
    strip: stripOf(monitor, level, rows),
    columnStrip: stripOf(monitor, level, cols),
    events,
  };
}

/** A diff matrix: (communication at a change point) − (communication at the base tick). */
export interface DiffMatrix extends MatrixView {
  changePoint: number;
  tick: number;
}

/**
 * One diff matrix per detected change point, left to right (red–blue diverging scale): each cell
 * is the change point's tick minus the base tick (the brown line of the summary view).
 */
export function diffMatrices(monitor: PdesMonitor, baseTick: number, query: MatrixQuery = {}): DiffMatrix[] {
  const base = communicationView(monitor, [baseTick], query);
  if (!base) return [];
  return monitor.analyser.changePoints.flatMap(cp => {
    const at = communicationView(monitor, [cp.tick], query);
    if (!at) return [];
    const values = at.values.map((v, i) => v - base.values[i]!);
    let max = 0;
    for (const v of values) if (Math.abs(v) > max) max = Math.abs(v);
    return [{ ...at, values, max, changePoint: cp.number, tick: cp.tick }];
  });
}

/** One line of the causality table (yellow when flagged). */
export interface CausalityTableRow extends CausalityRow {
  metric: string;
  label: string;
}

/**
 * The causality table relative to the top metric: from-causality (what drives it) or
 * to-causality (what it drives), sorted by IR or VD (descending by magnitude) or by p-value.
 */
export function causalityTable(
  monitor: PdesMonitor,
  direction: 'from' | 'to' = monitor.options.causality.direction,
  sortBy: 'metric' | 'pValue' | 'impulse' | 'varianceShare' = 'metric',
): CausalityTableRow[] {
  const c = monitor.analyser.causality;
  const level = monitor.analyser.level;
  if (!c || !level) return [];
  const table = monitor.cache.samples.table(level);
  const rows = (direction === 'from' ? c.from : c.to).map(r => {
    const metric = c.metrics[r.variable]!;
    return { ...r, metric, label: table.metrics[table.metricIndex(metric)]!.label };
  });
  const key: Record<typeof sortBy, (r: CausalityTableRow) => number> = {
    metric: r => r.variable,
    pValue: r => (Number.isNaN(r.pValue) ? Infinity : r.pValue),
    impulse: r => -Math.abs(r.impulse),
    varianceShare: r => -r.varianceShare,
  };
  return rows.sort((a, b) => key[sortBy](a) - key[sortBy](b) || a.variable - b.variable);
}

/**
 * Entities whose point lies inside a lasso polygon (even–odd rule) of a similarity scatter; the
 * behaviour views draw them highlighted and the others grey.
 */
export function lassoSelect(projection: StreamProjection, polygon: readonly (readonly [number, number])[]): number[] {
  const pts = projection.coordinates;
  const out: number[] = [];
  for (let i = 0; i < pts.length / 2; i++) if (insidePolygon(pts[2 * i]!, pts[2 * i + 1]!, polygon)) out.push(i);
  return out;
}

function insidePolygon(x: number, y: number, polygon: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!,
      [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The quality badge of a progressive result: how many entities it processed, "141/256 entities". */
export function processedBadge(result: { processed: number; total: number }): string {
  return `${result.processed}/${result.total} entities`;
}

/** What a change point's **Show** selects: its top PC1-loading entities, with their labels. */
export function changePointEntities(
  monitor: PdesMonitor,
  changePoint: number,
): { changePoint: StreamChangePoint; level: EntityLevel; entities: number[]; labels: string[] } | null {
  const cp = monitor.analyser.changePoints.find(c => c.number === changePoint);
  const level = monitor.analyser.level;
  if (!cp || !level) return null;
  return {
    changePoint: cp,
    level,
    entities: cp.topEntities,
    labels: cp.topEntities.map(i => monitor.cache.entities.label(level, i)),
  };
}

function viewTable(monitor: PdesMonitor, view: string) {
  const level = monitor.analyser.level ?? monitor.options.level;
  const table = monitor.cache.samples.table(level);
  const id = view === 'top' ? monitor.options.topMetric : view === 'bottom' ? monitor.options.bottomMetric : view;
  const metric = table.metricIndex(id);
  if (metric < 0) throw new RangeError(`${level.toUpperCase()} samples have no metric "${id}"`);
  return { table, metric, n: monitor.analyser.entities || table.entityCount, level };
}

function labelsOf(monitor: PdesMonitor, n: number): Int32Array {
  const c = monitor.analyser.clustering;
  return c && c.labels.length === n ? c.labels : new Int32Array(n).fill(-1);
}

function sortedPes(monitor: PdesMonitor): number[] {
  const e = monitor.cache.entities;
  return Array.from({ length: e.count('pe') }, (_, i) => i).sort((a, b) => e.peId(a) - e.peId(b));
}

function sortedKps(monitor: PdesMonitor): number[] {
  const e = monitor.cache.entities;
  return Array.from({ length: e.count('kp') }, (_, i) => i).sort(
    (a, b) => e.peId(e.kpPe(a)) - e.peId(e.kpPe(b)) || e.kpLocal(a) - e.kpLocal(b),
  );
}

function positions(list: number[]): Map<number, number> {
  return new Map(list.map((v, i) => [v, i]));
}

/** Cluster strip: a KP's own label, a PE's most common KP label (at KP analysis level). */
function stripOf(monitor: PdesMonitor, granularity: 'pe' | 'kp', rows: number[]): Int32Array {
  const out = new Int32Array(rows.length).fill(-1);
  const c = monitor.analyser.clustering;
  const level = monitor.analyser.level;
  if (!c || !level) return out;
  const e = monitor.cache.entities;
  if (level === granularity) {
    rows.forEach((r, i) => (out[i] = c.labels[r] ?? -1));
    return out;
  }
  if (level === 'kp' && granularity === 'pe') {
    rows.forEach((pe, i) => {
      const votes = new Map<number, number>();
      for (let k = 0; k < c.labels.length; k++)
        if (e.kpPe(k) === pe) votes.set(c.labels[k]!, (votes.get(c.labels[k]!) ?? 0) + 1);
      let best = -1,
        bestVotes = 0;
      for (const [label, v] of votes)
        if (v > bestVotes || (v === bestVotes && label < best)) [best, bestVotes] = [label, v];
      out[i] = best;
    });
  } else if (level === 'pe' && granularity === 'kp') rows.forEach((k, i) => (out[i] = c.labels[e.kpPe(k)] ?? -1));
  return out;
}
