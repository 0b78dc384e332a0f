/**
 * Pure geometry and colours of the PDES panel's views (thesis ch. 5, Fig 5.7): linear scales, line
 * paths of interleaved (x, y) points, the sample nearest a time, the cluster palette, the blue → red
 * ribbon scale, and the circular views' layout (PE arcs with their ring items, ribbons between PE
 * arcs). Kept free of React so the render tests and the views share one computation.
 */
import { color as parseColor, interpolateLab, schemeTableau10 } from 'd3';

/** Margins of the time plots (overview and detail views) around their plot area, in pixels. */
export const MARGIN = { left: 48, right: 18, top: 16, bottom: 26 };

export interface Scale {
  (v: number): number;
  invert(p: number): number;
}

/** A linear map of `domain` onto `range`; a degenerate domain maps everything to the range's middle. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const f = ((v: number) => (span === 0 ? (r0 + r1) / 2 : r0 + ((v - d0) / span) * (r1 - r0))) as Scale;
  f.invert = (p: number) => (r1 === r0 || span === 0 ? d0 : d0 + ((p - r0) / (r1 - r0)) * span);
  return f;
}

/** An SVG path through interleaved (x, y) points; non-finite values break the line. */
export function linePath(points: ArrayLike<number>, sx: Scale, sy: Scale): string {
  let d = '';
  let pen = false;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i]!,
      y = points[i + 1]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`;
    pen = true;
  }
  return d;
}

/** Index of the sample whose time is nearest `t` (times ascending); 0 for an empty axis. */
export function nearestSample(time: ArrayLike<number>, t: number): number {
  let lo = 0,
    hi = time.length - 1;
  if (hi <= 0) return 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time[mid]! <= t) lo = mid;
    else hi = mid;
  }
  return Math.abs(time[hi]! - t) < Math.abs(t - time[lo]!) ? hi : lo;
}

/**
 * The brushed samples [from, to) between two times (either order), at least two samples wide; null
 * when the brush covers the whole axis (no range).
 */
export function brushRange(time: ArrayLike<number>, t0: number, t1: number): { from: number; to: number } | null {
  const n = time.length;
  if (n < 2) return null;
  let from = nearestSample(time, Math.min(t0, t1));
  let to = nearestSample(time, Math.max(t0, t1)) + 1;
  if (to - from < 2) {
    to = Math.min(n, from + 2);
    from = Math.max(0, to - 2);
  }
  return from === 0 && to === n ? null : { from, to };
}

/** Tableau 10: distinct hues readable on dark and light backgrounds (the seed's cluster colours are categorical). */
const CLUSTER_PALETTE = schemeTableau10;

/** The colour of cluster `k` (grey for −1, an entity aggregated over clusters). */
export function clusterColour(k: number): string {
  return k < 0 ? '#8c8c8c' : CLUSTER_PALETTE[k % CLUSTER_PALETTE.length]!;
}

const ribbonRamp = interpolateLab('#2c7bb6', '#d7191c');

/** Ribbon colour on the seed's blue → red scale, `value` over the scale shared by all segments. */
export function ribbonColour(value: number, max: number): string {
  const t = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
  return parseColor(ribbonRamp(t))?.formatHex() ?? '#2c7bb6';
}

/** Heatmap colour of a ring cell or matrix cell: transparent-ish low end to saturated red. */
export function heatColour(value: number, lo: number, hi: number): string {
  const t = hi > lo ? Math.max(0, Math.min(1, (value - lo) / (hi - lo))) : 0;
  return parseColor(interpolateLab('#fde0c5', '#b2182b')(t))?.formatHex() ?? '#b2182b';
}

/** Where a circular view draws each PE and ring item (angles in radians, 0 at 12 o'clock, clockwise). */
export interface CircularLayout {
  groups: { pe: number; label: string; start: number; end: number }[];
  /** Per ring item: the centre angle and its angular width. */
  itemAngle: Float64Array;
  itemWidth: number;
}

/**
 * PE arcs share the circle by their ring items (a PE with none still gets one item's room so its
 * ribbons have an anchor), with a gap between PEs; items sit evenly inside their PE's arc.
 */
export function circularLayout(
  groups: readonly { pe: number; label: string; first: number; count: number }[],
  items: number,
  gap = 0.02,
): CircularLayout {
  const slots = groups.reduce((n, g) => n + Math.max(1, g.count), 0);
  const free = Math.max(0, 2 * Math.PI - gap * groups.length);
  const per = slots > 0 ? free / slots : 0;
  const out: CircularLayout['groups'] = [];
  const itemAngle = new Float64Array(items);
  let a = gap / 2;
  for (const g of groups) {
    const width = per * Math.max(1, g.count);
    out.push({ pe: g.pe, label: g.label, start: a, end: a + width });
    for (let k = 0; k < g.count; k++) itemAngle[g.first + k] = a + per * (k + 0.5);
    a += width + gap;
  }
  return { groups: out, itemAngle, itemWidth: per };
}

/** A point at `angle` (0 at 12 o'clock, clockwise) and `radius` from the centre. */
export function polar(angle: number, radius: number): [number, number] {
  return [radius * Math.sin(angle), -radius * Math.cos(angle)];
}

/** An annular sector from a0 to a1 between radii r0 < r1 (a ring bar or heatmap cell). */
export function sectorPath(a0: number, a1: number, r0: number, r1: number): string {
  const large = a1 - a0 > Math.PI ? 1 : 0;
  const [x0, y0] = polar(a0, r1),
    [x1, y1] = polar(a1, r1),
    [x2, y2] = polar(a1, r0),
    [x3, y3] = polar(a0, r0);
  const f = (v: number) => v.toFixed(2);
  return `M${f(x0)},${f(y0)}A${f(r1)},${f(r1)} 0 ${large} 1 ${f(x1)},${f(y1)}L${f(x2)},${f(y2)}A${f(r0)},${f(r0)} 0 ${large} 0 ${f(x3)},${f(y3)}Z`;
}

/**
 * A ribbon between two PE arcs: a band from [a0, a1] on one arc to [b0, b1] on the other through the
 * centre (quadratic curves), as chord diagrams draw them.
 */
export function ribbonPath(a0: number, a1: number, b0: number, b1: number, r: number): string {
  const f = (v: number) => v.toFixed(2);
  const [ax0, ay0] = polar(a0, r),
    [ax1, ay1] = polar(a1, r),
    [bx0, by0] = polar(b0, r),
    [bx1, by1] = polar(b1, r);
  return `M${f(ax0)},${f(ay0)}A${f(r)},${f(r)} 0 0 1 ${f(ax1)},${f(ay1)}Q0,0 ${f(bx0)},${f(by0)}A${f(r)},${f(r)} 0 0 1 ${f(bx1)},${f(by1)}Q0,0 ${f(ax0)},${f(ay0)}Z`;
}
