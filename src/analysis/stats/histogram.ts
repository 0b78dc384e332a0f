/**
 * Equal-width binning shared by every histogram (CallFlow's per-rank mini histograms, the ensemble's
 * per-run histograms): one rule for where a value falls, so the views agree.
 */

/**
 * Bin of value v in `bins` equal bins over [min, max]: the max falls in the last bin, and when
 * min = max every value goes to the middle bin (numpy widens such a range by ±0.5). -1 for NaN
 * (a missing value is in no bin).
 */
export function binOf(v: number, min: number, max: number, bins: number): number {
  if (v !== v) return -1;
  const width = (max - min) / bins;
  return width > 0 ? Math.max(0, Math.min(bins - 1, Math.floor((v - min) / width))) : bins >> 1;
}
