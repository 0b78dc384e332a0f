/**
 * Scores of one depth of the machine (MemAxes §7.1) from its resources' sample counts s_i and
 * cycles c_i. Both of the paper's metrics are invariant to the number of samples, so windows and
 * clusters of different sizes compare:
 *
 * - average access latency L_d = mean over resources of c_i / s_i. The paper averages over all
 *   resources; a resource with no samples has no latency, so it is skipped (L_d is the mean over
 *   the non-empty resources, NaN when all are empty);
 * - load imbalance I_d = max_i |s_i − μ| / σ with the population σ: the largest |z-score|. I_d = 0
 *   when σ = 0 (all equal). With two resources I_d is 1 whenever σ > 0 and says nothing, and it
 *   rewards one outlier rather than general unevenness (seed digest §2.1.3), so three further
 *   scores are given beside it: the coefficient of variation σ/μ, max/mean and the Gini index.
 */

export interface ResourceScores {
  /** Number of resources. */
  resources: number;
  /** Mean and population standard deviation of the sample counts. */
  mean: number;
  std: number;
  /** L_d: mean cycles per access over the resources that have samples; NaN when none has. */
  latency: number;
  /** I_d: max |s − μ| / σ; 0 when σ = 0. */
  imbalance: number;
  /** σ / μ; 0 when μ = 0. */
  cv: number;
  /** max / μ; 0 when μ = 0. */
  maxOverMean: number;
  /** Gini index of the counts in [0, 1 − 1/n]; 0 when all are equal or zero. */
  gini: number;
  /** Index of the resource farthest from the mean (I_d's extreme; on ties the busier, then the lower index); -1 when σ = 0. */
  extreme: number;
  /** Index of the busiest and the idlest resource (lower index on ties); -1 without resources. */
  max: number;
  min: number;
}

/** The names of the scores a metric strip or a clustering can use. */
export type ScoreName = 'latency' | 'imbalance' | 'cv' | 'maxOverMean' | 'gini';

/** Scores of per-resource sample counts and cycles (same length). */
export function scoreResources(samples: ArrayLike<number>, cycles: ArrayLike<number>): ResourceScores {
  const n = samples.length;
  let sum = 0,
    latencySum = 0,
    nonEmpty = 0,
    max = -1,
    min = -1;
  for (let i = 0; i < n; i++) {
    const s = samples[i]!;
    sum += s;
    if (s > 0) {
      latencySum += cycles[i]! / s;
      nonEmpty++;
    }
    if (max < 0 || s > samples[max]!) max = i;
    if (min < 0 || s < samples[min]!) min = i;
  }
  const mean = n ? sum / n : 0;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (samples[i]! - mean) ** 2;
  const std = n ? Math.sqrt(squares / n) : 0;
  let extreme = -1,
    farthest = 0;
  // A deviation within rounding error of zero is no deviation (σ of equal counts can come out as 1e-16).
  if (std > 1e-12 * Math.max(1, mean))
    for (let i = 0; i < n; i++) {
      const d = Math.abs(samples[i]! - mean);
      // Ties (always, with two resources) go to the busier resource: where the load piles up.
      if (d > farthest || (d === farthest && extreme >= 0 && samples[i]! > samples[extreme]!)) {
        farthest = d;
        extreme = i;
      }
    }
  return {
    resources: n,
    mean,
    std,
    latency: nonEmpty ? latencySum / nonEmpty : NaN,
    imbalance: extreme >= 0 ? farthest / std : 0,
    cv: mean > 0 ? std / mean : 0,
    maxOverMean: mean > 0 ? samples[max]! / mean : 0,
    gini: gini(samples, sum),
    extreme,
    max,
    min,
  };
}

/** Gini index: Σ_i Σ_j |x_i − x_j| / (2 n² μ), from the sorted values in O(n log n). */
function gini(values: ArrayLike<number>, sum: number): number {
  const n = values.length;
  if (n === 0 || !(sum > 0)) return 0;
  const sorted = Float64Array.from(values).sort();
  let weighted = 0;
  for (let i = 0; i < n; i++) weighted += (2 * (i + 1) - n - 1) * sorted[i]!;
  return Math.max(0, weighted / (n * sum));
}

/** One score by name. */
export function scoreOf(scores: ResourceScores, name: ScoreName): number {
  return scores[name];
}
