import { quantile, quantileSorted } from 'simple-statistics';

const QUARTILES = [0.25, 0.5, 0.75];
import { binOf } from '../stats/histogram';
import type { Ensemble, Side } from './ensemble';

export { binOf };

/**
 * Statistics of a node's run vector over the runs where the node exists (CallFlow §1.9, §4.2,
 * §4.4). Missing runs are excluded from every number and only counted. Quantiles are linear
 * interpolation (numpy's default, type 7, as CallFlow's `np.percentile`); `std` is the sample
 * standard deviation (n − 1); skewness and kurtosis are simple-statistics' sample estimators
 * (its `sampleSkewness` — adjusted by n/((n−1)(n−2)) — and `sampleKurtosis`, excess kurtosis, 0 for
 * a normal distribution), computed from one pass of central moments.
 */

/** Bin count for histograms: a number, or `auto` for the Freedman–Diaconis rule. */
export type BinRule = number | 'auto';

export const DEFAULT_BINS = 20;
/** `auto` never makes more bins than this (a long tail must not produce thousands of empty bins). */
export const MAX_AUTO_BINS = 100;

/** Columnar statistics for every node (NaN where a statistic is undefined, e.g. no present run). */
export interface NodeStatistics {
  side: Side;
  /** Runs in which the node exists. */
  present: Int32Array;
  min: Float64Array;
  max: Float64Array;
  /** Run index holding the min / max (the first such run), -1 when absent everywhere. */
  minRun: Int32Array;
  maxRun: Int32Array;
  mean: Float64Array;
  median: Float64Array;
  q1: Float64Array;
  q3: Float64Array;
  /** Sample standard deviation (0 for a single run). */
  std: Float64Array;
  /** std / mean (NaN when the mean is 0). */
  cv: Float64Array;
  /** NaN with fewer than 3 present runs. */
  skewness: Float64Array;
  /** Excess kurtosis; NaN with fewer than 4 present runs or no spread. */
  kurtosis: Float64Array;
}

/** Present values of a node's vector, sorted ascending, with their run indices in the same order. */
export function presentSorted(values: ArrayLike<number>): { values: Float64Array; runs: Int32Array } {
  const idx: number[] = [];
  for (let r = 0; r < values.length; r++) if (values[r] === values[r]) idx.push(r);
  idx.sort((a, b) => values[a]! - values[b]! || a - b);
  return { values: Float64Array.from(idx, r => values[r]!), runs: Int32Array.from(idx) };
}

/**
 * All nodes' statistics in one pass, O(nodes × runs log runs). `nodes` limits the work to some
 * nodes (the others stay NaN).
 */
export function computeNodeStatistics(ensemble: Ensemble, side: Side, nodes?: ArrayLike<number>): NodeStatistics {
  const matrix = side === 'inclusive' ? ensemble.inclusive : ensemble.exclusive;
  return { side, ...matrixStatistics(matrix, ensemble.size, ensemble.runCount, nodes) };
}

/** Statistics of the rows of a row-major rows × runs matrix with NaN for missing (nodes, functions, modules). */
export function matrixStatistics(
  matrix: Float64Array,
  rowCount: number,
  R: number,
  rows?: ArrayLike<number>,
): Omit<NodeStatistics, 'side'> {
  const N = rowCount;
  if (matrix.length !== N * R) throw new RangeError(`matrix has ${matrix.length} cells for ${N} rows × ${R} runs`);
  const f = () => new Float64Array(N).fill(NaN);
  const s: Omit<NodeStatistics, 'side'> = {
    present: new Int32Array(N),
    min: f(),
    max: f(),
    minRun: new Int32Array(N).fill(-1),
    maxRun: new Int32Array(N).fill(-1),
    mean: f(),
    median: f(),
    q1: f(),
    q3: f(),
    std: f(),
    cv: f(),
    skewness: f(),
    kurtosis: f(),
  };
  const scratch = new Float64Array(R);
  const count = rows ? rows.length : N;
  for (let k = 0; k < count; k++) {
    const u = rows ? rows[k]! : k;
    const base = u * R;
    let n = 0,
      sum = 0,
      lo = Infinity,
      hi = -Infinity,
      loRun = -1,
      hiRun = -1;
    for (let r = 0; r < R; r++) {
      const v = matrix[base + r]!;
      if (v !== v) continue;
      scratch[n++] = v;
      sum += v;
      if (v < lo) {
        lo = v;
        loRun = r;
      }
      if (v > hi) {
        hi = v;
        hiRun = r;
      }
    }
    s.present[u] = n;
    if (n === 0) continue;
    const present = scratch.subarray(0, n);
    const mean = sum / n;
    s.min[u] = lo;
    s.max[u] = hi;
    s.minRun[u] = loRun;
    s.maxRun[u] = hiRun;
    s.mean[u] = mean;
    // simple-statistics' multi-quantile selection: O(n) per node where a sort is O(n log n).
    const [q1, median, q3] = quantile(present as unknown as number[], QUARTILES);
    s.q1[u] = q1!;
    s.median[u] = median!;
    s.q3[u] = q3!;
    // Central moments in one pass; the estimators are simple-statistics' (sampleStandardDeviation,
    // sampleSkewness, sampleKurtosis — the tests hold them equal), without its three extra passes.
    let m2 = 0,
      m3 = 0,
      m4 = 0;
    for (let k2 = 0; k2 < n; k2++) {
      const d = present[k2]! - mean,
        d2 = d * d;
      m2 += d2;
      m3 += d2 * d;
      m4 += d2 * d2;
    }
    const std = n > 1 ? Math.sqrt(m2 / (n - 1)) : 0;
    s.std[u] = std;
    s.cv[u] = mean !== 0 ? std / mean : NaN;
    if (hi > lo) {
      if (n >= 3) {
        const sd = Math.sqrt(m2 / (n - 1));
        s.skewness[u] = (n * m3) / ((n - 1) * (n - 2) * sd * sd * sd);
      }
      if (n >= 4) s.kurtosis[u] = ((n - 1) / ((n - 2) * (n - 3))) * ((n * (n + 1) * m4) / (m2 * m2) - 3 * (n - 1));
    } else if (n >= 3) {
      s.skewness[u] = 0;
    }
  }
  return s;
}

/** A histogram of one node's run vector on [min, max] of its present runs. */
export interface RunHistogram {
  /** Lower edge of bin 0 and upper edge of the last bin. */
  min: number;
  max: number;
  /** Bin edges (bins + 1 values). */
  edges: Float64Array;
  counts: Int32Array;
  /** Bin of each run, -1 where the node is missing (CallFlow's `d2p`). */
  binOfRun: Int32Array;
  /** Runs in each bin, ascending (CallFlow's `p2d`). */
  runsInBin: number[][];
  /** Runs without the node (never in any bin). */
  missing: number;
}

/**
 * Freedman–Diaconis bin count for sorted values: width 2·IQR·n^(−1/3), bins = ⌈range / width⌉,
 * clamped to [1, maxBins]. With no interquartile spread (IQR = 0) but a range, it falls back to
 * Sturges' ⌈log2 n⌉ + 1; with no range at all, 1 bin.
 */
export function freedmanDiaconisBins(sorted: ArrayLike<number>, maxBins = MAX_AUTO_BINS): number {
  const n = sorted.length;
  if (n < 2) return 1;
  const range = sorted[n - 1]! - sorted[0]!;
  if (!(range > 0)) return 1;
  const arr = sorted as unknown as number[];
  const iqr = quantileSorted(arr, 0.75) - quantileSorted(arr, 0.25);
  const bins = iqr > 0 ? Math.ceil(range / (2 * iqr * Math.cbrt(1 / n))) : Math.ceil(Math.log2(n)) + 1;
  return Math.max(1, Math.min(maxBins, bins));
}

/** Resolves a bin rule for one vector's present values (sorted). */
export function binCount(rule: BinRule, sorted: ArrayLike<number>): number {
  if (rule === 'auto') return freedmanDiaconisBins(sorted);
  if (!Number.isInteger(rule) || rule < 1)
    throw new RangeError(`bin count must be a positive integer or "auto", got ${rule}`);
  return rule;
}

/**
 * Histogram of a run vector over [min, max] of its present values; the max falls in the last bin.
 * When every present run has the same value there is no range to divide and all runs go to the
 * middle bin (as numpy does by widening the range by ±0.5).
 */
export function runHistogram(values: ArrayLike<number>, rule: BinRule = DEFAULT_BINS): RunHistogram {
  const present = new Float64Array(values.length);
  let n = 0,
    min = Infinity,
    max = -Infinity;
  for (let r = 0; r < values.length; r++) {
    const v = values[r]!;
    if (v !== v) continue;
    present[n++] = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const bins = binCount(rule, rule === 'auto' ? present.subarray(0, n).sort() : present);
  if (n === 0) {
    min = NaN;
    max = NaN;
  }
  const edges = new Float64Array(bins + 1);
  const width = (max - min) / bins;
  for (let b = 0; b <= bins; b++) edges[b] = b === bins ? max : min + b * width;
  const counts = new Int32Array(bins);
  const binOfRun = new Int32Array(values.length).fill(-1);
  const runsInBin: number[][] = Array.from({ length: bins }, () => []);
  for (let r = 0; r < values.length; r++) {
    const v = values[r]!;
    if (v !== v) continue;
    const b = binOf(v, min, max, bins);
    binOfRun[r] = b;
    counts[b]!++;
    runsInBin[b]!.push(r);
  }
  return { min, max, edges, counts, binOfRun, runsInBin, missing: values.length - n };
}

/**
 * The largest bin count over all nodes' histograms (or the given nodes'): one count → colour scale
 * for every node's gradient, so distributions compare between nodes (CallFlow §4.2). O(nodes × runs)
 * for a fixed bin count.
 */
export function histogramCountScale(
  ensemble: Ensemble,
  side: Side,
  rule: BinRule = DEFAULT_BINS,
  nodes?: ArrayLike<number>,
): number {
  const R = ensemble.runCount;
  const matrix = side === 'inclusive' ? ensemble.inclusive : ensemble.exclusive;
  let best = 0;
  const count = nodes ? nodes.length : ensemble.size;
  const counts = new Int32Array(typeof rule === 'number' ? binCount(rule, []) : MAX_AUTO_BINS);
  for (let k = 0; k < count; k++) {
    const u = nodes ? nodes[k]! : k;
    if (ensemble.presentCount[u] === 0) continue;
    if (rule === 'auto') {
      for (const c of runHistogram(ensemble.values(u, side), rule).counts) if (c > best) best = c;
      continue;
    }
    let min = Infinity,
      max = -Infinity;
    for (let r = 0; r < R; r++) {
      const v = matrix[u * R + r]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    counts.fill(0);
    for (let r = 0; r < R; r++) {
      const v = matrix[u * R + r]!;
      if (v !== v) continue;
      const c = ++counts[binOf(v, min, max, rule)]!;
      if (c > best) best = c;
    }
  }
  return best;
}

/** Everything the text guides, box plots and tooltips show for one node. */
export interface NodeSummary {
  node: number;
  side: Side;
  present: number;
  missing: number;
  /** Names of the runs without the node. */
  missingRuns: string[];
  min: number;
  minRun: string | null;
  max: number;
  maxRun: string | null;
  mean: number;
  median: number;
  q1: number;
  q3: number;
  iqr: number;
  std: number;
  cv: number;
  skewness: number;
  kurtosis: number;
  /** (max − mean) / mean over runs (CallFlow's imbalance; max when the mean is 0). */
  imbalance: number;
  /** Whisker ends: the most extreme values within iqrFactor·IQR of the quartiles. */
  whiskerLow: number;
  whiskerHigh: number;
  /** Runs beyond iqrFactor·IQR below Q1 or above Q3, with their values. */
  outliers: { run: number; name: string; value: number }[];
  histogram: RunHistogram;
}

export interface SummaryOptions {
  bins?: BinRule;
  /** Outlier fence factor (default 1.5). */
  iqrFactor?: number;
}

/** Full statistics of one node's run vector, including outliers and the histogram. O(runs log runs). */
export function summarizeNode(ensemble: Ensemble, node: number, side: Side, options: SummaryOptions = {}): NodeSummary {
  const factor = options.iqrFactor ?? 1.5;
  const vec = ensemble.values(node, side);
  const stats = computeNodeStatistics(ensemble, side, [node]);
  const { values: sorted, runs } = presentSorted(vec);
  const q1 = stats.q1[node]!,
    q3 = stats.q3[node]!,
    iqr = q3 - q1;
  const lowFence = q1 - factor * iqr,
    highFence = q3 + factor * iqr;
  const outliers: NodeSummary['outliers'] = [];
  let whiskerLow = NaN,
    whiskerHigh = NaN;
  for (let k = 0; k < sorted.length; k++) {
    const v = sorted[k]!;
    if (v < lowFence || v > highFence) outliers.push({ run: runs[k]!, name: ensemble.runs[runs[k]!]!.name, value: v });
    else {
      if (!(v >= whiskerLow)) whiskerLow = v;
      whiskerHigh = v;
    }
  }
  const mean = stats.mean[node]!,
    max = stats.max[node]!;
  const missingRuns: string[] = [];
  for (let r = 0; r < ensemble.runCount; r++) if (vec[r] !== vec[r]) missingRuns.push(ensemble.runs[r]!.name);
  const runName = (r: number) => (r >= 0 ? ensemble.runs[r]!.name : null);
  return {
    node,
    side,
    present: sorted.length,
    missing: missingRuns.length,
    missingRuns,
    min: stats.min[node]!,
    minRun: runName(stats.minRun[node]!),
    max,
    maxRun: runName(stats.maxRun[node]!),
    mean,
    median: stats.median[node]!,
    q1,
    q3,
    iqr,
    std: stats.std[node]!,
    cv: stats.cv[node]!,
    skewness: stats.skewness[node]!,
    kurtosis: stats.kurtosis[node]!,
    imbalance: mean !== 0 ? (max - mean) / mean : max,
    whiskerLow,
    whiskerHigh,
    outliers,
    histogram: runHistogram(vec, options.bins ?? DEFAULT_BINS),
  };
}

/** Box-plot statistics of a plain set of values (e.g. every rank of every run of a call site, §4.4). */
export interface ValueBox {
  count: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  /** Sample variance (n − 1; 0 for one value). */
  variance: number;
  /** (max − mean) / mean; max when the mean is 0 (CallFlow's imbalance). */
  imbalance: number;
  /** Sample skewness / excess kurtosis, null where summarizeNode's rules leave them undefined. */
  skewness: number | null;
  kurtosis: number | null;
  /** The most extreme values within iqrFactor × IQR of the quartiles. */
  whiskerLow: number;
  whiskerHigh: number;
  lowFence: number;
  highFence: number;
  /** Positions (in `values`) of the values beyond the fences, the farthest from the median first, at most `maxOutliers`. */
  outliers: Int32Array;
  outlierCount: number;
}

/**
 * Box statistics of values with the same rules as the node statistics (one row of
 * {@link matrixStatistics}: type-7 quartiles, sample variance, skewness and kurtosis) and
 * {@link summarizeNode}'s fences. O(n) plus a sort of the outliers. Throws on no values.
 */
export function valueBox(values: Float64Array, iqrFactor = 1.5, maxOutliers = Infinity): ValueBox {
  const n = values.length;
  if (n === 0) throw new RangeError('box statistics of no values');
  if (!(iqrFactor >= 0)) throw new RangeError(`IQR factor must be a non-negative number, got ${iqrFactor}`);
  const s = matrixStatistics(values, 1, n);
  const q1 = s.q1[0]!,
    q3 = s.q3[0]!,
    median = s.median[0]!,
    mean = s.mean[0]!,
    max = s.max[0]!;
  if (s.present[0] !== n) throw new RangeError(`box statistics of ${n - s.present[0]!} NaN values`);
  const lowFence = q1 - iqrFactor * (q3 - q1),
    highFence = q3 + iqrFactor * (q3 - q1);
  let whiskerLow = Infinity,
    whiskerHigh = -Infinity,
    outlierCount = 0;
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    if (v < lowFence || v > highFence) outlierCount++;
    else {
      if (v < whiskerLow) whiskerLow = v;
      if (v > whiskerHigh) whiskerHigh = v;
    }
  }
  const positions = new Int32Array(outlierCount);
  for (let k = 0, j = 0; k < n; k++) {
    const v = values[k]!;
    if (v < lowFence || v > highFence) positions[j++] = k;
  }
  positions.sort((a, b) => Math.abs(values[b]! - median) - Math.abs(values[a]! - median) || a - b);
  const std = s.std[0]!,
    skew = s.skewness[0]!,
    kurt = s.kurtosis[0]!;
  return {
    count: n,
    min: s.min[0]!,
    q1,
    median,
    q3,
    max,
    mean,
    variance: std * std,
    imbalance: mean !== 0 ? (max - mean) / mean : max,
    skewness: skew === skew ? skew : null,
    kurtosis: kurt === kurt ? kurt : null,
    whiskerLow,
    whiskerHigh,
    lowFence,
    highFence,
    outliers: positions.length > maxOutliers ? positions.slice(0, maxOutliers) : positions,
    outlierCount,
  };
}

/**
 * Only the [min, max] and counts of {@link runHistogram} (same bins, same rule for every value), for
 * views that draw many histograms and need no run lists: no per-run or per-bin arrays allocated.
 */
export function runHistogramCounts(
  values: ArrayLike<number>,
  rule: BinRule = DEFAULT_BINS,
): { min: number; max: number; counts: Int32Array } {
  let n = 0,
    min = Infinity,
    max = -Infinity;
  for (let r = 0; r < values.length; r++) {
    const v = values[r]!;
    if (v !== v) continue;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (rule === 'auto') return runHistogram(values, rule);
  const counts = new Int32Array(binCount(rule, []));
  histogramCountsInto(values, values.length, min, max, counts, 0, counts.length);
  return n === 0 ? { min: NaN, max: NaN, counts } : { min, max, counts };
}

/**
 * Adds the first `n` of `values` (NaN skipped) to `bins` equal-width bins over [min, max] at
 * `counts[at …]`: {@link runHistogramCounts}' binning on caller-owned arrays, for builders that
 * histogram many rows without allocating per row.
 */
export function histogramCountsInto(
  values: ArrayLike<number>,
  n: number,
  min: number,
  max: number,
  counts: Int32Array,
  at: number,
  bins: number,
): void {
  for (let r = 0; r < n; r++) {
    const b = binOf(values[r]!, min, max, bins);
    if (b >= 0) counts[at + b]!++;
  }
}
