/**
 * Geometry of the Trace Analysis views (pure, so tests check it at real sizes): the cluster bands
 * (height ∝ log₂(size + 1), paper §3.4), a loop's iteration-cluster strip, and the lanes ×
 * iterations matrix with labels that never overlap however many lanes and iterations there are.
 */
import { CATEGORICAL_PALETTE } from '../../../../src/analysis/timeline/colors';
import type { ClusterView, IterationMatrix, LoopView } from '../../../../src/shared/trace-analysis-protocol';

/** A label's line height, and the least room between two labels. */
export const LABEL_HEIGHT = 16;

/** Colour of cluster k (the same in the bands, the matrix's stripes and the strips). */
export function clusterColour(k: number): string {
  return CATEGORICAL_PALETTE[
    ((k % CATEGORICAL_PALETTE.length) + CATEGORICAL_PALETTE.length) % CATEGORICAL_PALETTE.length
  ]!;
}

export interface BandBox {
  cluster: number;
  y: number;
  height: number;
}

/**
 * The clusters as stacked bands, band k as tall as unit × log₂(size_k + 1) but never shorter than a
 * label line, 24 px per unit of weight (a single lane: 24 px), less so the largest band is at most `maxBand` px.
 */
export function clusterBands(
  clusters: readonly ClusterView[],
  maxBand = 96,
  gap = 4,
): { bands: BandBox[]; height: number } {
  const top = Math.max(1, ...clusters.map(c => c.weight));
  // 24 px per unit of log₂(size + 1), less when the largest band would pass maxBand.
  const unit = Math.min(24, maxBand / top);
  let y = 0;
  const bands = clusters.map(c => {
    const height = Math.max(LABEL_HEIGHT + 4, Math.round(unit * c.weight));
    const b = { cluster: c.index, y, height };
    y += height + gap;
    return b;
  });
  return { bands, height: Math.max(0, y - gap) };
}

export interface StripRect {
  x: number;
  width: number;
  cluster: number;
  from: number;
  to: number;
}

/**
 * A loop's iteration-cluster strip over `width` px, in order: each run ends at its proportional
 * pixel; a run that would end on or before the previous one's end (narrower than a pixel when there
 * are more runs than pixels) is left out, so every drawn run is ≥ 1 px and none overlap.
 */
export function stripRects(loop: Pick<LoopView, 'strip'>, width: number): StripRect[] {
  const strip = loop.strip;
  if (!strip.length || width < 1) return [];
  const first = strip[0]!.from,
    last = strip[strip.length - 1]!.to;
  const n = last - first + 1;
  const out: StripRect[] = [];
  let x = 0;
  strip.forEach((s, i) => {
    const end = i === strip.length - 1 ? width : Math.round(((s.to - first + 1) / n) * width);
    if (end <= x) return;
    out.push({ x, width: end - x, cluster: s.cluster, from: s.from, to: s.to });
    x = end;
  });
  return out;
}

export interface MatrixLayout {
  labelWidth: number;
  headerHeight: number;
  cellWidth: number;
  cellHeight: number;
  /** Height of the cell area. */
  plotHeight: number;
  rowLabels: { row: number; y: number; text: string }[];
  columnLabels: { column: number; x: number; text: string }[];
}

/** Room of one column label (`123`). */
const COLUMN_LABEL_WIDTH = 30;
export const MATRIX_LABEL_WIDTH = 150;
export const MATRIX_HEADER_HEIGHT = 18;

/** Columns and rows to ask for so that a cell is at least 3 px wide and 2 px tall on `width` × `height`. */
export function matrixResolution(width: number, height: number): { rows: number; columns: number } {
  return {
    columns: Math.max(1, Math.floor((width - MATRIX_LABEL_WIDTH) / 3)),
    rows: Math.max(1, Math.floor((height - MATRIX_HEADER_HEIGHT) / 2)),
  };
}

/**
 * Cells fill the width; rows are 2–18 px tall. A row gets its label when rows are tall enough for
 * one each; otherwise the first row of each cluster does, skipping one that would touch the last
 * label drawn. Column labels (iteration numbers) are thinned to COLUMN_LABEL_WIDTH apart.
 */
export function matrixLayout(m: IterationMatrix, width: number, maxHeight: number): MatrixLayout {
  const labelWidth = MATRIX_LABEL_WIDTH,
    headerHeight = MATRIX_HEADER_HEIGHT;
  const columns = Math.max(1, m.columns.length),
    rows = Math.max(1, m.rows.length);
  const cellWidth = Math.max(1, (width - labelWidth) / columns);
  const cellHeight = Math.max(2, Math.min(18, (maxHeight - headerHeight) / rows));
  const rowLabels: MatrixLayout['rowLabels'] = [];
  let lastBottom = -Infinity;
  m.rows.forEach((r, i) => {
    const y = headerHeight + i * cellHeight;
    const clusterStart = i === 0 || m.rows[i - 1]!.cluster !== r.cluster;
    if (cellHeight >= LABEL_HEIGHT - 2 || (clusterStart && y >= lastBottom)) {
      rowLabels.push({ row: i, y, text: r.label });
      lastBottom = y + LABEL_HEIGHT;
    }
  });
  const step = Math.max(1, Math.ceil(COLUMN_LABEL_WIDTH / cellWidth));
  const columnLabels: MatrixLayout['columnLabels'] = [];
  for (let c = 0; c < m.columns.length; c += step) {
    const col = m.columns[c]!;
    const text = col.to - col.from > 1 ? `${col.iteration}+` : String(col.iteration);
    columnLabels.push({ column: c, x: labelWidth + c * cellWidth, text });
  }
  return { labelWidth, headerHeight, cellWidth, cellHeight, plotHeight: rows * cellHeight, rowLabels, columnLabels };
}

/** The matrix cell under a point, or null. */
export function matrixCellAt(
  l: MatrixLayout,
  m: IterationMatrix,
  x: number,
  y: number,
): { row: number; column: number } | null {
  const column = Math.floor((x - l.labelWidth) / l.cellWidth);
  const row = Math.floor((y - l.headerHeight) / l.cellHeight);
  if (x < l.labelWidth || y < l.headerHeight || column >= m.columns.length || row >= m.rows.length) return null;
  return { row, column };
}
