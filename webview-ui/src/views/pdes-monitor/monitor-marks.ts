/**
 * The marks of the live PDES monitor's views as plain geometry (thesis §6.4): behaviour lines over
 * the sliding window, the summary line with its change points, the similarity scatter and the
 * matrix cells. Pure functions, so the render tests check boxes and counts without a browser.
 */
import { scaleLinear } from 'd3';
import type { BehaviourWindow, MatrixView } from '../../../../src/analysis/pdes/stream/stream-views';
import type { MonitorTickPoint } from '../../../../src/shared/pdes-monitor-protocol';

/** Most lines a behaviour view draws; beyond it, entities are sampled evenly (the header says so). */
export const MAX_LINES = 400;
/** Most matrix cells drawn; a finer matrix is asked at PE granularity instead. */
export const MAX_CELLS = 20_000;

export interface Box {
  width: number;
  height: number;
}

export interface BehaviourMarks {
  lines: { entity: number; cluster: number; d: string }[];
  /** Change points in the window: x and number (teal numbered lines). */
  changePoints: { x: number; number: number }[];
  drawn: number;
  entities: number;
  /** Grid lines, and where their labels' baselines go: just above the line, but below the top edge (the caption is above it). */
  yTicks: { y: number; value: number; labelY: number }[];
}

/** Height of an axis label (10 px text): a baseline above it would draw over what is above the drawing. */
const AXIS_LABEL_HEIGHT = 10;

/** Entity indices to draw: all, or MAX_LINES sampled evenly with the selected ones always included. */
export function drawnEntities(entities: number, selected: ReadonlySet<number>): number[] {
  if (entities <= MAX_LINES) return Array.from({ length: entities }, (_, i) => i);
  const out = new Set<number>();
  for (const e of selected) if (e < entities && out.size < MAX_LINES) out.add(e);
  const step = entities / (MAX_LINES - out.size);
  for (let x = 0; out.size < MAX_LINES && x < entities; x += step) out.add(Math.floor(x));
  return [...out].sort((a, b) => a - b);
}

export function behaviourMarks(w: BehaviourWindow, box: Box, selected: ReadonlySet<number>): BehaviourMarks {
  const width = w.toTick - w.fromTick;
  const x = scaleLinear()
    .domain([w.fromTick, Math.max(w.fromTick + 1, w.toTick - 1)])
    .range([0, box.width]);
  const y = scaleLinear()
    .domain([Math.min(0, w.min), w.max > w.min ? w.max : w.min + 1])
    .range([box.height, 0])
    .nice();
  const lines = drawnEntities(w.entities, selected).map(e => {
    let d = '';
    for (let j = 0; j < width; j++) {
      const v = w.values[e * width + j]!;
      d += `${j ? 'L' : 'M'}${x(w.fromTick + j).toFixed(1)},${y(v).toFixed(1)}`;
    }
    return { entity: e, cluster: w.labels[e] ?? -1, d };
  });
  return {
    lines,
    changePoints: w.changePoints.map(c => ({ x: x(c.tick), number: c.number })),
    drawn: lines.length,
    entities: w.entities,
    yTicks: y.ticks(4).map(value => ({ y: y(value), value, labelY: Math.max(y(value) - 2, AXIS_LABEL_HEIGHT) })),
  };
}

export interface SummaryMarks {
  top: string;
  bottom: string;
  changePoints: { x: number; number: number; tick: number }[];
  /** x of a tick, and the tick nearest to an x (a click choosing the base time). */
  xOf(tick: number): number;
  tickAt(x: number): number;
}

/** The summary views: the mean over entities of every tick since the start, both metrics on their own scales. */
export function summaryMarks(points: readonly MonitorTickPoint[], box: Box): SummaryMarks {
  if (!points.length) return { top: '', bottom: '', changePoints: [], xOf: () => 0, tickAt: () => 0 };
  const first = points[0]!.tick,
    last = points.at(-1)!.tick;
  const x = scaleLinear()
    .domain([first, Math.max(first + 1, last)])
    .range([0, box.width]);
  const path = (key: 'top' | 'bottom') => {
    const values = points.map(p => p.means[key]).filter(Number.isFinite);
    const y = scaleLinear()
      .domain([Math.min(0, ...values), Math.max(1e-12, ...values)])
      .range([box.height, 0]);
    let d = '';
    for (const p of points) {
      const v = p.means[key];
      if (!Number.isFinite(v)) continue;
      d += `${d ? 'L' : 'M'}${x(p.tick).toFixed(1)},${y(v).toFixed(1)}`;
    }
    return d;
  };
  return {
    top: path('top'),
    bottom: path('bottom'),
    changePoints: points
      .filter(p => p.changePoint)
      .map(p => ({ x: x(p.tick), number: p.changePoint!.number, tick: p.tick })),
    xOf: tick => x(tick),
    tickAt: px => Math.max(first, Math.min(last, Math.round(x.invert(px)))),
  };
}

export interface ScatterMarks {
  points: { entity: number; cx: number; cy: number; cluster: number }[];
  /** Maps a point of the drawing back to projection coordinates (for the lasso). */
  invert: (px: number, py: number) => [number, number];
}

/** The similarity scatter: one point per entity at its aligned (PC1, PC2), coloured by cluster. */
export function scatterMarks(coordinates: Float64Array, labels: Int32Array | null, box: Box, pad = 6): ScatterMarks {
  const n = coordinates.length / 2;
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const px = coordinates[2 * i]!,
      py = coordinates[2 * i + 1]!;
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    x0 = Math.min(x0, px);
    x1 = Math.max(x1, px);
    y0 = Math.min(y0, py);
    y1 = Math.max(y1, py);
  }
  if (!(x1 >= x0)) {
    // No finite point: an empty scatter on a unit square.
    x0 = y0 = -1;
    x1 = y1 = 1;
  }
  const x = scaleLinear()
    .domain(x1 > x0 ? [x0, x1] : [x0 - 1, x0 + 1])
    .range([pad, box.width - pad]);
  const y = scaleLinear()
    .domain(y1 > y0 ? [y0, y1] : [y0 - 1, y0 + 1])
    .range([box.height - pad, pad]);
  const points = [];
  for (let i = 0; i < n; i++) {
    const px = coordinates[2 * i]!,
      py = coordinates[2 * i + 1]!;
    if (Number.isFinite(px) && Number.isFinite(py))
      points.push({ entity: i, cx: x(px), cy: y(py), cluster: labels?.[i] ?? -1 });
  }
  return { points, invert: (px, py) => [x.invert(px), y.invert(py)] };
}

export interface MatrixMarks {
  cells: { row: number; column: number; x: number; y: number; size: number; value: number; shade: number }[];
  cell: number;
  labelEvery: number;
}

/** The live matrix: square cells, grey by value (thesis §6.4), labels thinned to stay readable. */
export function matrixMarks(m: MatrixView, side: number): MatrixMarks {
  const cell = Math.max(1, Math.floor(side / Math.max(m.size, m.columns)));
  const cells = [];
  for (let r = 0; r < m.size; r++)
    for (let c = 0; c < m.columns; c++) {
      const value = m.values[r * m.columns + c]!;
      cells.push({
        row: r,
        column: c,
        x: c * cell,
        y: r * cell,
        size: cell,
        value,
        shade: m.max > 0 ? value / m.max : 0,
      });
    }
  return { cells, cell, labelEvery: Math.max(1, Math.ceil(12 / cell)) };
}
