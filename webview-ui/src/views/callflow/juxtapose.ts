/**
 * Juxtaposed comparison of two runs (pure; CallFlow's Miranda study, AT-1): both Sankeys share one
 * vertical scale, so each root bar is as tall as its run's total and B's root is total_B/total_A of
 * A's. The shared scale is the smaller of the two fitted scales, so both graphs still fit their boxes.
 */
export function sharedScale(fittedScales: readonly number[]): number {
  const finite = fittedScales.filter(s => Number.isFinite(s) && s > 0);
  return finite.length ? Math.min(...finite) : 0;
}

/** Height of B's root bar relative to A's under one scale: total_B / total_A. */
export function rootHeightRatio(totalA: number, totalB: number): number {
  return totalA > 0 ? totalB / totalA : NaN;
}
