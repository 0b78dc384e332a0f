/**
 * SVG paths of Sankey ribbons through waypoints: horizontal cubic Béziers (control points at a
 * fraction `curvature` of the horizontal distance, like d3-sankey's links) between consecutive
 * waypoints, so a ribbon leaves and enters every node and dummy horizontally.
 */

export interface RibbonPoint {
  x: number;
  /** Upper and lower edge of the ribbon at this x. */
  top: number;
  bottom: number;
}

const num = (v: number): string => String(Math.round(v * 100) / 100);

function curve(from: { x: number; y: number }, to: { x: number; y: number }, curvature: number): string {
  const dx = (to.x - from.x) * curvature;
  return `C${num(from.x + dx)},${num(from.y)} ${num(to.x - dx)},${num(to.y)} ${num(to.x)},${num(to.y)}`;
}

/** Closed outline of the ribbon (fill it): the upper edge forward, the lower edge back. */
export function ribbonOutline(points: readonly RibbonPoint[], curvature = 0.5): string {
  if (points.length === 0) return '';
  const parts = [`M${num(points[0]!.x)},${num(points[0]!.top)}`];
  for (let i = 1; i < points.length; i++) {
    parts.push(
      curve({ x: points[i - 1]!.x, y: points[i - 1]!.top }, { x: points[i]!.x, y: points[i]!.top }, curvature),
    );
  }
  const last = points[points.length - 1]!;
  parts.push(`L${num(last.x)},${num(last.bottom)}`);
  for (let i = points.length - 2; i >= 0; i--) {
    parts.push(
      curve({ x: points[i + 1]!.x, y: points[i + 1]!.bottom }, { x: points[i]!.x, y: points[i]!.bottom }, curvature),
    );
  }
  parts.push('Z');
  return parts.join('');
}

/** The ribbon's centre line (stroke it, e.g. for hairline ribbons of zero width). */
export function ribbonCentreLine(points: readonly RibbonPoint[], curvature = 0.5): string {
  if (points.length === 0) return '';
  const mid = (p: RibbonPoint) => ({ x: p.x, y: (p.top + p.bottom) / 2 });
  const parts = [`M${num(points[0]!.x)},${num(mid(points[0]!).y)}`];
  for (let i = 1; i < points.length; i++) parts.push(curve(mid(points[i - 1]!), mid(points[i]!), curvature));
  return parts.join('');
}
