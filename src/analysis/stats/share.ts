/**
 * value / total, or 0 when the total is not positive (an empty or all-zero profile has no shares)
 * or either number is not finite: a share is always a finite number.
 */
export function shareOf(value: number, total: number): number {
  const share = total > 0 ? value / total : 0;
  return Number.isFinite(share) ? share : 0;
}
