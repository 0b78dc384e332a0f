import { throwIfAborted } from '../model/cancellation';
import { condensedLength } from './distance-matrix';
import type { SeriesMatrix } from './series-matrix';
import { runSliced, runToEnd } from './sliced';

/**
 * Distances between series (thesis §5.3.2, Li et al. 2019 §4.2): Euclidean, dynamic time warping
 * (Berndt & Clifford 1994) and the time warp edit distance (Marteau 2009). DTW and TWED are elastic:
 * they match a burst to the same burst a few samples later, which Euclidean distance does not.
 */

export type DistanceMeasure = 'euclidean' | 'dtw' | 'twed';

/** TWED stiffness ν and deletion penalty λ defaults (Marteau 2009 §5 uses small ν; λ ≈ 1). */
export const TWED_DEFAULTS = { nu: 0.001, lambda: 1 } as const;

/** Euclidean distance between two equally long series. */
export function euclideanDistance(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length)
    throw new RangeError(`Euclidean distance needs equal lengths, got ${a.length} and ${b.length}`);
  let s = 0;
  for (let p = 0; p < a.length; p++) {
    const d = a[p]! - b[p]!;
    s += d * d;
  }
  return Math.sqrt(s);
}

/** The default Sakoe–Chiba half-width for series of length t: 10% of the length (at least 1). */
export function defaultDtwWindow(t: number): number {
  return Math.max(1, Math.ceil(t / 10));
}

/**
 * DTW with a Sakoe–Chiba band (Sakoe & Chiba 1978): a[i] may match b[j] only when |i − j| ≤ window
 * (widened to the length difference so the end can be reached). Local cost (a[i] − b[j])², steps
 * (i−1, j), (i, j−1), (i−1, j−1) each adding the cost once; the result is the square root of the
 * cheapest path's sum, so window 0 on equal lengths is exactly the Euclidean distance.
 * O(length · window) time, O(length) memory (two rows; `scratch`, when given, must hold 2(|b| + 1)).
 */
export function dtwDistance(a: Float64Array, b: Float64Array, window = Infinity, scratch?: Float64Array): number {
  const n = a.length,
    m = b.length;
  if (n === 0 || m === 0) return n === m ? 0 : Infinity;
  const w = Math.max(Math.floor(window), Math.abs(n - m));
  let [prev, cur] = warpingRows(scratch, m);
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - w),
      hi = Math.min(m, i + w);
    // Cells left of this row's band may hold values from two rows back: reset the one we read.
    cur[lo - 1] = Infinity;
    const ai = a[i - 1]!;
    // The left and diagonal neighbours ride along in registers: one load of the row above per cell.
    let diagonal = prev[lo - 1]!,
      left = Infinity;
    for (let j = lo; j <= hi; j++) {
      const up = prev[j]!;
      const d = ai - b[j - 1]!;
      // Math.min rather than comparisons: no mispredicted branches on noisy series.
      left = Math.min(diagonal, up, left) + d * d;
      cur[j] = left;
      diagonal = up;
    }
    if (hi < m) cur[hi + 1] = Infinity;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return Math.sqrt(prev[m]!);
}

/**
 * The two dynamic-programming rows (width m + 1) of DTW and TWED, in the workspace when it is big
 * enough: every cell ∞ except D(0, 0) = 0.
 */
function warpingRows(scratch: Float64Array | undefined, m: number): [Float64Array, Float64Array] {
  const buffer = scratch && scratch.length >= 2 * (m + 1) ? scratch : new Float64Array(2 * (m + 1));
  buffer.fill(Infinity, 0, 2 * (m + 1));
  buffer[0] = 0;
  return [buffer.subarray(0, m + 1), buffer.subarray(m + 1, 2 * (m + 1))];
}

export interface TwedOptions {
  /** Stiffness ν ≥ 0: cost per unit of time-stamp difference (default 0.001). */
  nu?: number;
  /** Deletion penalty λ ≥ 0 (default 1). */
  lambda?: number;
  /** Time stamps of `a` and `b` (default 1, 2, 3, …: equally spaced samples). */
  timesA?: Float64Array;
  timesB?: Float64Array;
  /** Optional Sakoe–Chiba band as for DTW (default none: the exact TWED). */
  window?: number;
  /** Workspace of at least 2(|b| + 1) numbers, reused across calls. */
  scratch?: Float64Array;
}

/**
 * Time warp edit distance (Marteau 2009, eq. 4, L1 norm for scalar samples): each series is padded
 * with a sample of value 0 at time 0, and
 *   D(i, j) = min( D(i−1, j)   + |a_i − a_{i−1}| + ν (t_i − t_{i−1}) + λ          (delete in a)
 *                  D(i, j−1)   + |b_j − b_{j−1}| + ν (s_j − s_{j−1}) + λ          (delete in b)
 *                  D(i−1, j−1) + |a_i − b_j| + |a_{i−1} − b_{j−1}|
 *                              + ν (|t_i − s_j| + |t_{i−1} − s_{j−1}|) )           (match)
 * with D(0, 0) = 0 and D(i, 0) = D(0, j) = ∞. A metric for ν > 0, λ ≥ 0. O(|a| · |b|) time (or
 * O(|a| · window) with a band), O(|b|) memory.
 */
export function twedDistance(a: Float64Array, b: Float64Array, options: TwedOptions = {}): number {
  const nu = options.nu ?? TWED_DEFAULTS.nu,
    lambda = options.lambda ?? TWED_DEFAULTS.lambda;
  if (!(nu >= 0) || !(lambda >= 0)) throw new RangeError(`TWED needs ν ≥ 0 and λ ≥ 0, got ν = ${nu}, λ = ${lambda}`);
  const n = a.length,
    m = b.length;
  const ta = options.timesA,
    tb = options.timesB;
  if (ta && ta.length !== n) throw new RangeError(`TWED: ${ta.length} time stamps for ${n} samples of a`);
  if (tb && tb.length !== m) throw new RangeError(`TWED: ${tb.length} time stamps for ${m} samples of b`);
  const w = Math.max(Math.floor(options.window ?? Infinity), Math.abs(n - m));
  let [prev, cur] = warpingRows(options.scratch, m);
  // Row 0 (a padded sample only) can only be reached from D(0, 0): D(0, j) = ∞ for j > 0.
  let aPrev = 0,
    taPrev = 0;
  for (let i = 1; i <= n; i++) {
    const ai = a[i - 1]!,
      tai = ta ? ta[i - 1]! : i;
    const deleteA = Math.abs(ai - aPrev) + nu * (tai - taPrev) + lambda;
    const lo = Math.max(1, i - w),
      hi = Math.min(m, i + w);
    cur[lo - 1] = Infinity;
    let bPrev = lo > 1 ? b[lo - 2]! : 0,
      tbPrev = lo > 1 ? (tb ? tb[lo - 2]! : lo - 1) : 0;
    // The left and diagonal neighbours ride along in registers: one load of the row above per cell.
    let diagonal = prev[lo - 1]!,
      left = Infinity;
    for (let j = lo; j <= hi; j++) {
      const bj = b[j - 1]!,
        tbj = tb ? tb[j - 1]! : j;
      const up = prev[j]!;
      left = Math.min(
        up + deleteA,
        left + Math.abs(bj - bPrev) + nu * (tbj - tbPrev) + lambda,
        diagonal + Math.abs(ai - bj) + Math.abs(aPrev - bPrev) + nu * (Math.abs(tai - tbj) + Math.abs(taPrev - tbPrev)),
      );
      cur[j] = left;
      diagonal = up;
      bPrev = bj;
      tbPrev = tbj;
    }
    if (hi < m) cur[hi + 1] = Infinity;
    aPrev = ai;
    taPrev = tai;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

export interface PairwiseDistanceOptions {
  /** Default `euclidean`. */
  measure?: DistanceMeasure;
  /** DTW (and optional TWED) Sakoe–Chiba half-width in samples; DTW default 10% of the length. */
  window?: number;
  /** TWED stiffness ν (default 0.001). */
  nu?: number;
  /** TWED deletion penalty λ (default 1). */
  lambda?: number;
  /**
   * Compute only rows [from, to) of the condensed matrix (pairs (i, j > i) with from ≤ i < to),
   * e.g. one worker's share of a SharedArrayBuffer-backed output (see balancedRowRanges).
   */
  rows?: { from: number; to: number };
  signal?: AbortSignal;
  /** Fraction of this call's pairs done, in [0, 1]. */
  onProgress?: (fraction: number) => void;
}

/**
 * The rows of the condensed distance matrix, one entity at a time: a generator so a caller can run
 * it to the end at once (pairwiseDistances) or in slices between event-loop turns
 * (pairwiseDistancesAsync). Each step yields the fraction of pairs done.
 */
export function* pairwiseDistanceSteps(
  series: SeriesMatrix,
  out: Float64Array,
  options: PairwiseDistanceOptions = {},
): Generator<number, Float64Array, void> {
  const { entities: n, timePoints: t, values } = series;
  if (out.length !== condensedLength(n))
    throw new RangeError(`the output needs ${condensedLength(n)} cells for ${n} entities, got ${out.length}`);
  const measure = options.measure ?? 'euclidean';
  const pairDistance = pairFunction(measure, t, options);
  const from = Math.max(0, options.rows?.from ?? 0),
    to = Math.min(n, options.rows?.to ?? n);
  const start = rowOffset(from, n);
  const total = rowOffset(Math.max(from, to), n) - start || 1;
  let p = start;
  for (let i = from; i < to && i < n - 1; i++) {
    throwIfAborted(options.signal);
    const a = values.subarray(i * t, (i + 1) * t);
    for (let j = i + 1; j < n; j++) out[p++] = pairDistance(a, values.subarray(j * t, (j + 1) * t));
    options.onProgress?.((p - start) / total);
    yield (p - start) / total;
  }
  return out;
}

/** Position of row i's first pair (i, i + 1) in a condensed matrix over n items. */
function rowOffset(i: number, n: number): number {
  return n * i - (i * (i + 1)) / 2;
}

/**
 * Splits the rows of an n-item condensed matrix into `parts` consecutive ranges holding about the
 * same number of pairs (early rows are longer), for computing one matrix in several workers.
 */
export function balancedRowRanges(n: number, parts: number): { from: number; to: number }[] {
  const total = condensedLength(n);
  const ranges: { from: number; to: number }[] = [];
  let from = 0;
  for (let k = 1; k <= parts; k++) {
    let to = from;
    const target = (total * k) / parts;
    while (to < n && rowOffset(to, n) < target) to++;
    if (k === parts) to = n;
    ranges.push({ from, to });
    from = to;
  }
  return ranges;
}

/** The condensed matrix of distances between all entities' series (SciPy `pdist` order). */
export function pairwiseDistances(series: SeriesMatrix, options: PairwiseDistanceOptions = {}): Float64Array {
  return runToEnd(pairwiseDistanceSteps(series, new Float64Array(condensedLength(series.entities)), options));
}

/**
 * pairwiseDistances that gives the event loop a turn every ~`sliceMs` milliseconds, so an abort
 * signal fired from elsewhere (a Cancel button, a worker message) stops a long DTW or TWED run.
 */
export function pairwiseDistancesAsync(
  series: SeriesMatrix,
  options: PairwiseDistanceOptions & { sliceMs?: number } = {},
): Promise<Float64Array> {
  const out = new Float64Array(condensedLength(series.entities));
  return runSliced(pairwiseDistanceSteps(series, out, options), options.signal, options.sliceMs);
}

function pairFunction(
  measure: DistanceMeasure,
  t: number,
  options: PairwiseDistanceOptions,
): (a: Float64Array, b: Float64Array) => number {
  const scratch = new Float64Array(2 * (t + 1));
  switch (measure) {
    case 'euclidean':
      return euclideanDistance;
    case 'dtw': {
      const window = options.window ?? defaultDtwWindow(t);
      return (a, b) => dtwDistance(a, b, window, scratch);
    }
    case 'twed': {
      const twed: TwedOptions = {
        nu: options.nu ?? TWED_DEFAULTS.nu,
        lambda: options.lambda ?? TWED_DEFAULTS.lambda,
        scratch,
      };
      if (options.window !== undefined) twed.window = options.window;
      return (a, b) => twedDistance(a, b, twed);
    }
    default:
      throw new RangeError(`unknown distance measure ${String(measure)} (expected euclidean, dtw or twed)`);
  }
}
