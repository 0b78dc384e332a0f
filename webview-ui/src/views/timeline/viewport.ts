/**
 * The visible time window and the pixel mapping of the lanes: zoom about a point, pan, clamping to
 * the run, and the conversion of a dragged pixel range into a time window.
 */
import type { TimelineWindow } from '../../../../src/shared/timeline-protocol';

/** The narrowest window a zoom can reach (ns): below that the trace's integer ns show as blocks. */
export const MIN_SPAN_NS = 200;

export function timeToX(w: TimelineWindow, widthPx: number, t: number): number {
  return ((t - w.start) / (w.end - w.start)) * widthPx;
}

export function xToTime(w: TimelineWindow, widthPx: number, x: number): number {
  return w.start + (x / Math.max(1, widthPx)) * (w.end - w.start);
}

/**
 * `w` moved and shrunk to lie inside the run `[lo, hi]` with a small margin either side (5 % of the
 * run), and at least MIN_SPAN_NS wide.
 */
export function clampWindow(w: TimelineWindow, range: readonly [number, number]): TimelineWindow {
  const margin = (range[1] - range[0]) * 0.05;
  const lo = range[0] - margin,
    hi = Math.max(range[1], range[0] + 1) + margin;
  let span = Math.min(Math.max(w.end - w.start, MIN_SPAN_NS), hi - lo);
  if (!Number.isFinite(span) || span <= 0) span = hi - lo;
  let start = Number.isFinite(w.start) ? w.start : lo;
  start = Math.min(Math.max(start, lo), hi - span);
  return { start, end: start + span };
}

/** Zooms by `factor` (< 1 zooms in) keeping the time under `anchorX` where it is. */
export function zoomAt(
  w: TimelineWindow,
  widthPx: number,
  anchorX: number,
  factor: number,
  range: readonly [number, number],
): TimelineWindow {
  const anchor = xToTime(w, widthPx, anchorX);
  const span = Math.max(MIN_SPAN_NS, (w.end - w.start) * factor);
  const f = Math.min(1, Math.max(0, anchorX / Math.max(1, widthPx)));
  return clampWindow({ start: anchor - f * span, end: anchor - f * span + span }, range);
}

/** Moves the window by `dx` pixels (positive: later in time). */
export function panBy(
  w: TimelineWindow,
  widthPx: number,
  dx: number,
  range: readonly [number, number],
): TimelineWindow {
  const dt = (dx / Math.max(1, widthPx)) * (w.end - w.start);
  return clampWindow({ start: w.start + dt, end: w.end + dt }, range);
}

/** The whole run with the margin clampWindow allows on the left only closed (what Reset shows). */
export function wholeRun(range: readonly [number, number]): TimelineWindow {
  return { start: range[0], end: range[1] > range[0] ? range[1] : range[0] + 1 };
}

/**
 * A dragged pixel range as a time window: ends in either order, clipped to the plot and to the
 * run; null when narrower than `minPx` pixels (a click, not a selection).
 */
export function selectionToWindow(
  x0: number,
  x1: number,
  w: TimelineWindow,
  widthPx: number,
  range: readonly [number, number],
  minPx = 3,
): TimelineWindow | null {
  const a = Math.max(0, Math.min(x0, x1)),
    b = Math.min(widthPx, Math.max(x0, x1));
  if (b - a < minPx) return null;
  const start = Math.max(range[0], Math.round(xToTime(w, widthPx, a)));
  const end = Math.min(Math.max(range[1], range[0] + 1), Math.round(xToTime(w, widthPx, b)));
  return end > start ? { start, end } : null;
}

/** Where a double-click on an event zooms (the analysis' own rule). */
export { windowAroundEvent } from '../../../../src/analysis/timeline/lookup';
