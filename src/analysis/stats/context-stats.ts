/**
 * Per-node statistics across execution contexts (ranks, threads, GPU streams) of a node-major
 * matrix: min, mean, max, max/mean imbalance, standard deviation and quartiles. One pass per node
 * over its C values plus a sort of C values for the quartiles: O(n · C log C) with one scratch
 * buffer, no per-node objects.
 */
export interface ContextStats {
  min: Float64Array;
  mean: Float64Array;
  max: Float64Array;
  /** max / mean; 1 when perfectly balanced, 0 when the mean is 0. */
  imbalance: Float64Array;
  /** Population standard deviation (all contexts are the whole population, not a sample). */
  std: Float64Array;
  q1: Float64Array;
  median: Float64Array;
  q3: Float64Array;
}

export function contextStats(matrix: Float64Array, contexts: number): ContextStats {
  const n = contexts === 0 ? 0 : matrix.length / contexts;
  const s: ContextStats = {
    min: new Float64Array(n),
    mean: new Float64Array(n),
    max: new Float64Array(n),
    imbalance: new Float64Array(n),
    std: new Float64Array(n),
    q1: new Float64Array(n),
    median: new Float64Array(n),
    q3: new Float64Array(n),
  };
  const scratch = new Float64Array(contexts);
  for (let i = 0; i < n; i++) {
    const base = i * contexts;
    let min = Infinity,
      max = -Infinity,
      sum = 0;
    for (let c = 0; c < contexts; c++) {
      const v = matrix[base + c]!;
      scratch[c] = v;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const mean = sum / contexts;
    let sq = 0;
    for (let c = 0; c < contexts; c++) {
      const d = scratch[c]! - mean;
      sq += d * d;
    }
    scratch.sort();
    s.min[i] = min;
    s.max[i] = max;
    s.mean[i] = mean;
    s.imbalance[i] = mean > 0 ? max / mean : 0;
    s.std[i] = Math.sqrt(sq / contexts);
    s.q1[i] = quantileSorted(scratch, 0.25);
    s.median[i] = quantileSorted(scratch, 0.5);
    s.q3[i] = quantileSorted(scratch, 0.75);
  }
  return s;
}

/**
 * Quantile of sorted values with linear interpolation between closest ranks, the default of numpy
 * and pandas, so numbers match what Hatchet/Thicket users see.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
