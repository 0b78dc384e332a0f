import type { BinnedHistogram } from '../../shared/callflow-protocol';
import { binOf } from '../stats/histogram';

export const DEFAULT_HISTOGRAM_BINS = 20;

/**
 * A fixed-bin histogram of per-context values (CallFlow's mini histogram: 20 bins by default,
 * equal-width on a linear or logarithmic value axis). `binOf[c]` is the bin of context c, so a view
 * can list the ranks of a bin and draw shadow lines from bins to rank ids. A log axis needs positive
 * values; with any value ≤ 0 it falls back to linear and says so in `scale`. Binning follows
 * stats/histogram.ts (a constant vector lands in the middle bin; NaN in none, `binOf` -1).
 */
export function rankHistogram(
  values: ArrayLike<number>,
  bins = DEFAULT_HISTOGRAM_BINS,
  scale: 'linear' | 'log' = 'linear',
): BinnedHistogram & { binOf: number[] } {
  if (!(Number.isInteger(bins) && bins >= 1))
    throw new RangeError(`histogram bin count ${bins} must be a positive integer`);
  const n = values.length;
  let min = Infinity,
    max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = values[k]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(min <= max)) return { scale, min: 0, max: 0, edges: [], counts: [], binOf: new Array<number>(n).fill(-1) };
  const log = scale === 'log' && min > 0;
  const f = log ? Math.log : (v: number) => v;
  const lo = f(min),
    hi = f(max);
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, k) =>
    k === 0 ? min : k === bins ? max : log ? Math.exp(lo + k * width) : lo + k * width,
  );
  const counts = new Array<number>(bins).fill(0);
  const binOfContext = new Array<number>(n);
  for (let c = 0; c < n; c++) {
    const b = binOf(f(values[c]!), lo, hi, bins);
    binOfContext[c] = b;
    if (b >= 0) counts[b]!++;
  }
  return { scale: log ? 'log' : 'linear', min, max, edges, counts, binOf: binOfContext };
}

/**
 * True when every bin holds one contiguous run of context indices (ranks): shadow lines from such
 * bins to an ordered rank axis do not cross. Rank-correlated costs give this; a random assignment
 * of costs to ranks does not (seed-callflow AT-6).
 */
export function binsAreContiguousInRank(h: BinnedHistogram & { binOf: number[] }): boolean {
  const first = new Array<number>(h.counts.length).fill(-1);
  const last = new Array<number>(h.counts.length).fill(-1);
  h.binOf.forEach((b, c) => {
    if (b < 0) return;
    if (first[b] === -1) first[b] = c;
    last[b] = c;
  });
  return h.counts.every((count, b) => count === 0 || last[b]! - first[b]! + 1 === count);
}

/**
 * The histogram of a CallFlow node's per-context values: binned here from the values it carries
 * (up to the raw limit), else the one it was sent with. The views and the tests read it this way.
 */
export function nodeRankHistogram(
  node: {
    contextValues?: { inclusive: number[]; exclusive: number[] };
    histogram?: { inclusive: BinnedHistogram; exclusive: BinnedHistogram };
  },
  metric: 'inclusive' | 'exclusive',
  bins = DEFAULT_HISTOGRAM_BINS,
): BinnedHistogram | undefined {
  const values = node.contextValues?.[metric];
  return values ? rankHistogram(values, bins, 'linear') : node.histogram?.[metric];
}
