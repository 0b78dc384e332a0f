/**
 * Where a tooltip of size `tip` goes beside the point (x, y) inside a box: to the preferred side
 * of the point when it fits there (else the other side), below it unless that overflows the box,
 * and always at least 4 px inside the box.
 */
export function tooltipPlacement(
  x: number,
  y: number,
  tip: { width: number; height: number },
  box: { width: number; height: number },
  prefer: 'left' | 'right' = 'right',
): { left: number; top: number } {
  const { width: w, height: h } = tip;
  const rightOf = x + 14;
  const leftOf = x - 14 - w;
  let left = prefer === 'right' ? (rightOf + w <= box.width - 4 ? rightOf : leftOf) : leftOf >= 4 ? leftOf : rightOf;
  left = Math.max(4, Math.min(box.width - w - 4, left));
  let top = y + 16;
  if (top + h > box.height - 4) top = y - h - 10;
  top = Math.max(4, Math.min(box.height - h - 4, top));
  return { left: Math.round(left), top: Math.round(top) };
}
