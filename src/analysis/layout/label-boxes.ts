/**
 * Label boxes that may be rotated, and whether two of them overlap — the one check behind "labels
 * never overlap" in the drawings (the topology view places labels with it; its tests and the
 * screenshot script verify with it). Pure geometry, shared with the webview.
 */

/** A label's box: centre, size and rotation in degrees (clockwise, as SVG's rotate), in px. */
export interface LabelBox {
  cx: number;
  cy: number;
  w: number;
  h: number;
  angle: number;
}

/** Corners of a label box, clockwise from the top left before rotation. */
export function boxCorners(b: LabelBox): [number, number][] {
  const t = (b.angle * Math.PI) / 180;
  const c = Math.cos(t),
    s = Math.sin(t);
  const hw = b.w / 2,
    hh = b.h / 2;
  return (
    [
      [-hw, -hh],
      [hw, -hh],
      [hw, hh],
      [-hw, hh],
    ] as [number, number][]
  ).map(([x, y]) => [b.cx + x * c - y * s, b.cy + x * s + y * c]);
}

/** Whether two boxes overlap by more than `tolerance` px (the separating-axis test on their edges' normals). */
export function boxesOverlap(a: LabelBox, b: LabelBox, tolerance = 0.01): boolean {
  const pa = boxCorners(a),
    pb = boxCorners(b);
  for (const poly of [pa, pb])
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i]!,
        [x2, y2] = poly[(i + 1) % 4]!;
      const nx = y1 - y2,
        ny = x2 - x1;
      const len = Math.hypot(nx, ny) || 1;
      const project = (p: [number, number][]) => p.map(([x, y]) => (x * nx + y * ny) / len);
      const A = project(pa),
        B = project(pb);
      if (Math.max(...A) <= Math.min(...B) + tolerance || Math.max(...B) <= Math.min(...A) + tolerance) return false;
    }
  return true;
}
