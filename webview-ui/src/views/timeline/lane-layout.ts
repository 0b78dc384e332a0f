/**
 * Vertical layout of the lane list: group headers and lanes stacked top to bottom, a lane shown as
 * a depth view as one row per call depth. Hit testing (y → row) and the lanes within a scrolled
 * viewport (the only ones whose tiles are asked for) are binary searches over the layout.
 */
import type { TimelineLaneRow } from '../../../../src/shared/timeline-protocol';

export const GROUP_HEIGHT = 22;
export const LANE_HEIGHT = 24;
export const DEPTH_ROW_HEIGHT = 14;
/** Lanes thinner than this (members of a large cluster band) are drawn without a label. */
export const LABELLED_LANE_HEIGHT = 14;

export interface LaidOutRow {
  row: TimelineLaneRow;
  y: number;
  height: number;
  /** Rows of the depth view (call depths 0 …) when the lane is shown as one, else 0. */
  depthRows: number;
}

export interface LaneLayout {
  rows: LaidOutRow[];
  height: number;
  /** Track → its laid-out row (lanes only). */
  byTrack: Map<number, LaidOutRow>;
}

/**
 * Stacks the rows. `depthViews` maps a track shown as a depth view to its number of call depths
 * (at least 1 row is drawn even for a lane without slices).
 */
export function layoutLanes(
  rows: readonly TimelineLaneRow[],
  depthViews: ReadonlyMap<number, number> = new Map(),
): LaneLayout {
  const out: LaidOutRow[] = [];
  const byTrack = new Map<number, LaidOutRow>();
  let y = 0;
  for (const row of rows) {
    let height = GROUP_HEIGHT,
      depthRows = 0;
    if (row.type === 'lane') {
      const d = depthViews.get(row.track);
      depthRows = d === undefined ? 0 : Math.max(1, d);
      height = depthRows ? Math.max(LANE_HEIGHT, depthRows * DEPTH_ROW_HEIGHT + 4) : (row.height ?? LANE_HEIGHT);
    }
    const r = { row, y, height, depthRows };
    out.push(r);
    if (row.type === 'lane') byTrack.set(row.track, r);
    y += height;
  }
  return { rows: out, height: y, byTrack };
}

/** Index of the row at `y` (layout coordinates), or -1 outside every row. */
export function rowIndexAt(layout: LaneLayout, y: number): number {
  const rows = layout.rows;
  let lo = 0,
    hi = rows.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (rows[m]!.y + rows[m]!.height <= y) lo = m + 1;
    else hi = m;
  }
  return lo < rows.length && rows[lo]!.y <= y ? lo : -1;
}

/** The rows overlapping [top, top + height), plus `overscan` rows either side (indices [from, to)). */
export function visibleRange(layout: LaneLayout, top: number, height: number, overscan = 4): [number, number] {
  const n = layout.rows.length;
  if (n === 0) return [0, 0];
  const first = rowIndexAt(layout, Math.max(0, top));
  const from = first < 0 ? (top <= 0 ? 0 : n) : first;
  let to = from;
  while (to < n && layout.rows[to]!.y < top + height) to++;
  return [Math.max(0, from - overscan), Math.min(n, to + overscan)];
}

/** Tracks of the lanes among rows [from, to), top to bottom. */
export function tracksIn(layout: LaneLayout, [from, to]: [number, number]): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    const r = layout.rows[i]!.row;
    if (r.type === 'lane') out.push(r.track);
  }
  return out;
}

/** The call depth under `y` in a depth-view row (clamped to its depths), or undefined for a plain lane. */
export function depthAt(r: LaidOutRow, y: number): number | undefined {
  if (!r.depthRows) return undefined;
  return Math.min(r.depthRows - 1, Math.max(0, Math.floor((y - r.y - 2) / DEPTH_ROW_HEIGHT)));
}
