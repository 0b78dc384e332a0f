/**
 * Geometry of topology marks and labels: annular sectors (sunburst and dragonfly rings), rectangles
 * (icicle cells, graph boxes), and label boxes that may be rotated. Labels are only placed where
 * their whole box lies inside their own mark (or, outside the drawing, clear of every other label),
 * which is what keeps them from ever overlapping; the tests check it with {@link boxesOverlap}.
 *
 * Angles follow d3.arc: radians clockwise from 12 o'clock; a point at angle a and radius r is
 * (cx + r sin a, cy − r cos a).
 */
import { LABEL_FONTS, type MeasureText, type TextStyle } from '../../text-measure';
import type { LabelBox } from '../../../../src/analysis/layout/label-boxes';

export { boxCorners, boxesOverlap, type LabelBox } from '../../../../src/analysis/layout/label-boxes';

/** An annular sector centred at (cx, cy). */
export interface ArcGeom {
  kind: 'arc';
  cx: number;
  cy: number;
  a0: number;
  a1: number;
  r0: number;
  r1: number;
}

export interface RectGeom {
  kind: 'rect';
  x: number;
  y: number;
  w: number;
  h: number;
}

export type MarkGeom = ArcGeom | RectGeom;

/** Smallest mark drawn, in px: an arc's length at its inner radius, a box's narrow side. */
export const MIN_MARK = 2;
/** Smallest link stroke, in px. */
export const MIN_LINK = 1;
/** Room around a label inside its mark, in px. */
export const LABEL_PAD = 2;

/** Height of a label's box in a style (the font size plus leading). */
export function labelHeight(style: TextStyle): number {
  return Math.ceil(LABEL_FONTS[style].size * 1.25);
}

/** The point at angle a, radius r of a centre. */
export function polar(cx: number, cy: number, a: number, r: number): [number, number] {
  return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
}

/** Length of an arc mark at its inner radius (its narrowest), in px. */
export function arcSize(g: ArcGeom): number {
  return (g.a1 - g.a0) * Math.max(g.r0, 1);
}

/** Normalises an angle to [0, 2π). */
function wrap(a: number): number {
  const t = a % (2 * Math.PI);
  return t < 0 ? t + 2 * Math.PI : t;
}

/** Upright rotation (degrees) for text running along direction `deg`: flipped when it would read upside down. */
function upright(deg: number): number {
  let d = ((deg % 360) + 360) % 360;
  if (d > 90 && d < 270) d -= 180;
  return d > 180 ? d - 360 : d;
}

/**
 * A label box for `text` inside an annular sector: along the arc (tangential) when it fits, else
 * along the radius; null when neither fits. The whole box stays `LABEL_PAD` inside the sector.
 */
export function arcLabelBox(g: ArcGeom, textWidth: number, height: number): LabelBox | null {
  const half = (g.a1 - g.a0) / 2;
  const mid = g.a0 + half;
  const rm = (g.r0 + g.r1) / 2;
  const pad = LABEL_PAD;
  const [cx, cy] = polar(g.cx, g.cy, mid, rm);
  const w = textWidth + 2 * pad;
  // A whole disc (a root): the box at its centre.
  if (g.r0 <= 0 && half >= Math.PI - 1e-9)
    return Math.hypot(w / 2, height / 2) <= g.r1 - pad ? { cx: g.cx, cy: g.cy, w, h: height, angle: 0 } : null;
  // Tangential: the edge nearest the centre is at rm − h/2; the far corners are the outermost points;
  // the inner corners are the widest in angle.
  {
    const h = height;
    const inner = rm - h / 2;
    if (
      inner >= g.r0 + pad / 2 &&
      Math.hypot(rm + h / 2, w / 2) <= g.r1 - pad / 2 &&
      (half >= Math.PI / 2 || Math.atan2(w / 2, inner) <= half - pad / Math.max(inner, 1))
    )
      return { cx, cy, w, h, angle: upright((mid * 180) / Math.PI) };
  }
  // Radial: the box runs along the radius.
  {
    const h = height;
    const inner = rm - w / 2;
    if (
      inner >= g.r0 + pad / 2 &&
      inner > 0 &&
      Math.hypot(rm + w / 2, h / 2) <= g.r1 - pad / 2 &&
      (half >= Math.PI / 2 || Math.atan2(h / 2, inner) <= half - pad / Math.max(inner, 1))
    )
      return { cx, cy, w, h, angle: upright((mid * 180) / Math.PI - 90) };
  }
  return null;
}

/** A label box inside a rectangle: horizontal when it fits, else vertical; null when neither fits. */
export function rectLabelBox(
  g: RectGeom,
  textWidth: number,
  height: number,
  at: 'centre' | 'top' = 'centre',
): LabelBox | null {
  const w = textWidth + 2 * LABEL_PAD;
  const cx = g.x + g.w / 2;
  if (w <= g.w && height + LABEL_PAD <= g.h)
    return { cx, cy: at === 'top' ? g.y + LABEL_PAD / 2 + height / 2 + 2 : g.y + g.h / 2, w, h: height, angle: 0 };
  if (height + LABEL_PAD <= g.w && w <= g.h) return { cx, cy: g.y + g.h / 2, w, h: height, angle: -90 };
  return null;
}

/**
 * The first of `texts` (longest first: the label, then its short form) that fits the mark, with its
 * box; null when none does.
 */
export function fitLabel(
  g: MarkGeom,
  texts: readonly string[],
  style: TextStyle,
  measure: MeasureText,
): { text: string; box: LabelBox } | null {
  const h = labelHeight(style);
  for (const text of texts) {
    if (!text) continue;
    const tw = measure(text, style);
    const box = g.kind === 'arc' ? arcLabelBox(g, tw, h) : rectLabelBox(g, tw, h);
    if (box) return { text, box };
  }
  return null;
}

/** Whether a point is inside an annular sector (with a tolerance in px), for the tests' containment checks. */
export function inArc(g: ArcGeom, [x, y]: [number, number], tolerance = 0.5): boolean {
  const dx = x - g.cx,
    dy = y - g.cy;
  const r = Math.hypot(dx, dy);
  if (r < g.r0 - tolerance || r > g.r1 + tolerance) return false;
  if (g.a1 - g.a0 >= 2 * Math.PI - 1e-9) return true;
  const a = wrap(Math.atan2(dx, -dy));
  const slack = tolerance / Math.max(r, 1);
  const a0 = wrap(g.a0 - slack);
  const span = g.a1 - g.a0 + 2 * slack;
  return wrap(a - a0) <= span;
}

/** Whether a point is inside a rectangle (with a tolerance in px). */
export function inRect(g: RectGeom, [x, y]: [number, number], tolerance = 0.5): boolean {
  return x >= g.x - tolerance && x <= g.x + g.w + tolerance && y >= g.y - tolerance && y <= g.y + g.h + tolerance;
}

/** SVG path of an annular sector (d3.arc's shape without d3, so the geometry stays testable as numbers). */
export function arcPath(g: ArcGeom): string {
  const full = g.a1 - g.a0 >= 2 * Math.PI - 1e-6;
  const f = (n: number) => Math.round(n * 100) / 100;
  const pt = (a: number, r: number) => polar(g.cx, g.cy, a, r).map(f).join(' ');
  if (full) {
    // Two half circles per radius (an SVG arc cannot draw a whole circle).
    const outer = `M${pt(0, g.r1)}A${f(g.r1)} ${f(g.r1)} 0 1 1 ${pt(Math.PI, g.r1)}A${f(g.r1)} ${f(g.r1)} 0 1 1 ${pt(0, g.r1)}Z`;
    if (g.r0 <= 0) return outer;
    return `${outer}M${pt(0, g.r0)}A${f(g.r0)} ${f(g.r0)} 0 1 0 ${pt(Math.PI, g.r0)}A${f(g.r0)} ${f(g.r0)} 0 1 0 ${pt(0, g.r0)}Z`;
  }
  const large = g.a1 - g.a0 > Math.PI ? 1 : 0;
  const outer = `M${pt(g.a0, g.r1)}A${f(g.r1)} ${f(g.r1)} 0 ${large} 1 ${pt(g.a1, g.r1)}`;
  if (g.r0 <= 0) return `${outer}L${f(g.cx)} ${f(g.cy)}Z`;
  return `${outer}L${pt(g.a1, g.r0)}A${f(g.r0)} ${f(g.r0)} 0 ${large} 0 ${pt(g.a0, g.r0)}Z`;
}
