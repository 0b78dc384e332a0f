import { throwIfAborted } from '../model/cancellation';
import { seededRandom, shuffleInPlace } from '../stats/seeded-random';
import { SERIES_SEED } from './k-means';
import type { SeriesMatrix } from './series-matrix';
import { runSliced, runToEnd } from './sliced';

/**
 * E-Divisive change-point detection (Matteson & James 2014, "A nonparametric approach for multiple
 * change point analysis of multivariate data"; R package `ecp`, `e.divisive`), thesis §5.3.4: one
 * segmentation of time for all series together. The observation at time point τ is the vector of
 * every entity's value (of every metric given) at τ, so a change in any group of entities counts.
 *
 * Hierarchical and divisive: each step finds, in every current segment, the split τ (and end κ)
 * that maximises the scaled energy distance between X = [start, τ) and Y = [τ, κ),
 *   Q̂ = (nm/(n+m)) · ( 2/(nm) Σ|X_i − Y_j|^α − C(n,2)⁻¹ Σ|X_i − X_k|^α − C(m,2)⁻¹ Σ|Y_j − Y_k|^α ),
 * takes the segment with the largest Q̂, and keeps its split if a permutation test says it is
 * significant: the observations are shuffled within each segment R times, and
 * p = (1 + #{permuted max Q̂ ≥ observed}) / (R + 1). The first non-significant split ends the search.
 *
 * Cost: O(d·T²) for the time-point distances once, then O(R · Σ segment²) per accepted change. A
 * segment that a step leaves unchanged keeps its observed best split and its R permuted maxima
 * (its within-segment shuffles are drawn once), so later steps only pay for the two new segments;
 * the decisions are those of `ecp` with different random draws.
 */

export interface EDivisiveOptions {
  /** Significance level of the permutation test (default 0.05). */
  significance?: number;
  /** Permutations per test (default 199, as in `ecp`). */
  permutations?: number;
  /** Smallest segment, in time points (default max(3, ⌊t/20⌋); at least 2). */
  minSegmentSize?: number;
  /** Moment index α ∈ (0, 2) of the energy distance (default 1). */
  exponent?: number;
  /** Seed of the permutation PRNG (default SERIES_SEED). */
  seed?: number;
  /** Stop after this many change points (default no limit). */
  maxChangePoints?: number;
  signal?: AbortSignal;
}

export interface ChangePoint {
  /** First time point of the segment that starts here. */
  index: number;
  /** Permutation p-value of the split that found it. */
  pValue: number;
  /** Its energy statistic Q̂. */
  statistic: number;
  /** 1 for the first change found, 2 for the next, … (the most prominent come first). */
  order: number;
}

export interface SeriesSegment {
  /** Time points [start, end). */
  start: number;
  end: number;
  /** p-value of the change point at `start` (null for the first segment). */
  pValue: number | null;
}

export interface EDivisiveResult {
  /** Change points in time order. */
  changePoints: ChangePoint[];
  segments: SeriesSegment[];
  /** p-value of the best split that was not significant (null if the search ended because no segment could be split or the limit was reached). */
  rejectedPValue: number | null;
  minSegmentSize: number;
}

/** The seed's default minimum segment size for t time points: max(3, ⌊t/20⌋) (`ecp`'s 30 is too large for tens of GVT samples). */
export function defaultMinSegmentSize(t: number): number {
  return Math.max(3, Math.floor(t / 20));
}

/** E-Divisive over one metric's series, or several metrics of the same time points stacked together. */
export function eDivisive(
  metrics: SeriesMatrix | readonly SeriesMatrix[],
  options: EDivisiveOptions = {},
): EDivisiveResult {
  const list = metricList(metrics, options);
  return eDivisiveFromDistances(timePointDistances(list, options.exponent ?? 1), list[0]!.timePoints, options);
}

/** The metrics as a checked list: at least one, all over the same time points; α in range. */
function metricList(
  metrics: SeriesMatrix | readonly SeriesMatrix[],
  options: EDivisiveOptions,
): readonly SeriesMatrix[] {
  const list: readonly SeriesMatrix[] = Array.isArray(metrics) ? metrics : [metrics as SeriesMatrix];
  if (list.length === 0) throw new RangeError('E-Divisive needs at least one metric');
  const T = list[0]!.timePoints;
  list.forEach((m, k) => {
    if (m.timePoints !== T)
      throw new RangeError(`metric ${k} has ${m.timePoints} time points where metric 0 has ${T}; they must match`);
  });
  const exponent = options.exponent ?? 1;
  if (!(exponent > 0 && exponent < 2))
    throw new RangeError(`the E-Divisive exponent α must be in (0, 2), got ${exponent}`);
  throwIfAborted(options.signal);
  return list;
}

/**
 * |Z_a − Z_b|^α between all time points (square T × T), Z_τ holding every entity's value of every
 * metric at τ. Throws on non-finite values (a gap in a series has no distance).
 */
export function timePointDistances(metrics: readonly SeriesMatrix[], exponent = 1): Float64Array {
  const T = metrics[0]?.timePoints ?? 0;
  // Time-major copy: observation τ's coordinates contiguous, so each pair is one streaming loop.
  const d = metrics.reduce((s, m) => s + m.entities, 0);
  const Z = new Float64Array(T * d);
  let column = 0;
  for (const m of metrics) {
    const { values } = m;
    for (let i = 0; i < m.entities; i++, column++)
      for (let a = 0; a < T; a++) {
        const v = values[i * T + a]!;
        if (v - v !== 0) throw new RangeError(`E-Divisive: the value of entity ${i} at time point ${a} is ${v}`);
        Z[a * d + column] = v;
      }
  }
  const D = new Float64Array(T * T);
  const half = exponent / 2;
  for (let a = 0; a < T; a++) {
    const za = a * d;
    for (let b = a + 1; b < T; b++) {
      const zb = b * d;
      let s = 0;
      for (let k = 0; k < d; k++) {
        const diff = Z[za + k]! - Z[zb + k]!;
        s += diff * diff;
      }
      const v = half === 0.5 ? Math.sqrt(s) : Math.pow(s, half);
      D[a * T + b] = v;
      D[b * T + a] = v;
    }
  }
  return D;
}

interface Segment {
  start: number;
  end: number;
  /** Best split (first index of Y) and its statistic; split −1 when the segment is too short. */
  split: number;
  statistic: number;
  /** Best statistic under each permutation, filled when first needed. */
  permuted: Float64Array | null;
}

/** E-Divisive on a square T × T matrix of |Z_a − Z_b|^α. */
export function eDivisiveFromDistances(
  distances: Float64Array,
  T: number,
  options: EDivisiveOptions = {},
): EDivisiveResult {
  return runToEnd(eDivisiveSteps(distances, T, options));
}

/**
 * E-Divisive that gives the event loop a turn every ~`sliceMs` milliseconds, so an abort signal
 * fired from elsewhere stops a long permutation test (O(R · T²) on long runs).
 */
export function eDivisiveAsync(
  metrics: SeriesMatrix | readonly SeriesMatrix[],
  options: EDivisiveOptions & { sliceMs?: number } = {},
): Promise<EDivisiveResult> {
  try {
    const list = metricList(metrics, options);
    const T = list[0]!.timePoints;
    return runSliced(
      eDivisiveSteps(timePointDistances(list, options.exponent ?? 1), T, options),
      options.signal,
      options.sliceMs,
    );
  } catch (e) {
    return Promise.reject(e as Error);
  }
}

/** E-Divisive as a generator: a step after every 16 permutations and after every accepted change. */
export function* eDivisiveSteps(
  distances: Float64Array,
  T: number,
  options: EDivisiveOptions = {},
): Generator<number, EDivisiveResult, void> {
  if (distances.length !== T * T)
    throw new RangeError(`E-Divisive: ${distances.length} distances for ${T} time points`);
  const significance = options.significance ?? 0.05;
  const R = Math.max(0, Math.floor(options.permutations ?? 199));
  const minSize = Math.floor(options.minSegmentSize ?? defaultMinSegmentSize(T));
  if (!(minSize >= 2))
    throw new RangeError(`the minimum segment size must be at least 2, got ${options.minSegmentSize}`);
  const maxChanges = options.maxChangePoints ?? Infinity;
  const rand = seededRandom(options.seed ?? SERIES_SEED);
  const search = new SplitSearch(distances, T, minSize);
  const order = new Int32Array(T);
  const segment = (start: number, end: number): Segment => {
    for (let p = start; p < end; p++) order[p - start] = p;
    const best = search.best(order, end - start);
    return { start, end, split: best.split < 0 ? -1 : start + best.split, statistic: best.statistic, permuted: null };
  };
  const segments: Segment[] = [segment(0, T)];
  const found: Omit<ChangePoint, 'order'>[] = [];
  let rejectedPValue: number | null = null;
  while (found.length < maxChanges) {
    throwIfAborted(options.signal);
    let candidate: Segment | null = null;
    for (const s of segments) if (s.split >= 0 && (!candidate || s.statistic > candidate.statistic)) candidate = s;
    if (!candidate) break;
    // Permutation test: the largest best-split statistic over all segments, each shuffled within itself.
    let over = 0;
    if (R > 0) {
      const maxima = new Float64Array(R).fill(-Infinity);
      for (const s of segments) {
        if (s.split < 0) continue;
        if (!s.permuted) {
          s.permuted = new Float64Array(R);
          const n = s.end - s.start;
          for (let p = 0; p < n; p++) order[p] = s.start + p;
          for (let r = 0; r < R; r++) {
            if ((r & 15) === 15) {
              throwIfAborted(options.signal);
              yield found.length;
            }
            shuffleInPlace(order, rand, 0, n);
            s.permuted[r] = search.best(order, n).statistic;
          }
        }
        for (let r = 0; r < R; r++) if (s.permuted[r]! > maxima[r]!) maxima[r] = s.permuted[r]!;
      }
      for (let r = 0; r < R; r++) if (maxima[r]! >= candidate.statistic) over++;
    }
    const pValue = (1 + over) / (R + 1);
    if (pValue > significance) {
      rejectedPValue = pValue;
      break;
    }
    found.push({ index: candidate.split, pValue, statistic: candidate.statistic });
    segments.splice(
      segments.indexOf(candidate),
      1,
      segment(candidate.start, candidate.split),
      segment(candidate.split, candidate.end),
    );
    yield found.length;
  }
  const changePoints = found.map((c, i) => ({ ...c, order: i + 1 })).sort((a, b) => a.index - b.index);
  const bounds = [0, ...changePoints.map(c => c.index), T];
  return {
    changePoints,
    segments:
      T > 0
        ? bounds.slice(0, -1).map((start, s) => ({
            start,
            end: bounds[s + 1]!,
            pValue: s ? changePoints[s - 1]!.pValue : null,
          }))
        : [],
    rejectedPValue,
    minSegmentSize: minSize,
  };
}

/**
 * The best split of one segment given in some order of its time points, in O(N²) time and O(N)
 * memory. Time points join Y one at a time (e = 0, 1, …); for every split τ ≤ e the cross sum
 * Σ_{X, Y} d and the within-Y sum grow by row e's prefix sums P_e[τ] = Σ_{b<τ} d(e, b), so each
 * (τ, κ = e + 1) pair costs O(1) and the inner loop walks arrays in order.
 */
class SplitSearch {
  private readonly prefix: Float64Array;
  private readonly between: Float64Array;
  private readonly withinY: Float64Array;
  private readonly xTerm: Float64Array;
  /** 1/(m − 1) for segment sizes m, so the inner loop multiplies. */
  private readonly inverse: Float64Array;

  constructor(
    private readonly D: Float64Array,
    private readonly T: number,
    private readonly minSize: number,
  ) {
    this.prefix = new Float64Array(T + 1);
    this.between = new Float64Array(T + 1);
    this.withinY = new Float64Array(T + 1);
    this.xTerm = new Float64Array(T + 1);
    this.inverse = Float64Array.from({ length: T + 1 }, (_, m) => (m > 1 ? 1 / (m - 1) : 0));
  }

  best(order: Int32Array, N: number): { split: number; statistic: number } {
    const { D, T, minSize, prefix, between, withinY, xTerm, inverse } = this;
    if (N < 2 * minSize) return { split: -1, statistic: -Infinity };
    between.fill(0, 0, N + 1);
    withinY.fill(0, 0, N + 1);
    let bestSplit = -1,
      bestStatistic = -Infinity;
    let withinX = 0;
    const lastSplit = N - minSize;
    for (let e = 0; e < N; e++) {
      const row = order[e]! * T;
      let sum = 0;
      for (let c = 0; c < e; c++) {
        prefix[c] = sum;
        sum += D[row + order[c]!]!;
      }
      prefix[e] = sum;
      // Q̂ = (2·between − m·2·withinX/(τ−1) − τ·2·withinY/(m−1)) / κ for X = [0, τ), Y = [τ, κ), m = κ − τ.
      const kappa = e + 1;
      const invKappa = 1 / kappa;
      const scoreTo = Math.min(kappa - minSize, lastSplit);
      let tau = minSize;
      for (; tau <= scoreTo; tau++) {
        const toX = prefix[tau]!;
        const b = between[tau]! + toX,
          w = withinY[tau]! + sum - toX;
        between[tau] = b;
        withinY[tau] = w;
        const m = kappa - tau;
        const statistic = (2 * b - m * xTerm[tau]! - 2 * tau * w * inverse[m]!) * invKappa;
        if (statistic > bestStatistic) {
          bestStatistic = statistic;
          bestSplit = tau;
        }
      }
      // Splits whose Y is still shorter than the minimum only accumulate.
      for (const end = Math.min(e, lastSplit); tau <= end; tau++) {
        const toX = prefix[tau]!;
        between[tau]! += toX;
        withinY[tau]! += sum - toX;
      }
      withinX += sum;
      if (kappa >= minSize && kappa <= lastSplit) xTerm[kappa] = 2 * withinX * inverse[kappa]!;
    }
    return { split: bestSplit, statistic: bestStatistic };
  }
}
