/** value / total, or 0 when the total is not positive (an empty or all-zero profile has no shares). */
export function shareOf(value: number, total: number): number {
  return total > 0 ? value / total : 0;
}
