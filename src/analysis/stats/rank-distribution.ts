import { functionTotals, type FunctionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import { quantileSorted } from './context-stats';
import { functionIndex, functionRows } from './function-rows';

export interface Histogram {
  /** bins + 1 ascending edges; bin k is [edges[k], edges[k+1]), the last bin also holds its upper edge. */
  edges: number[];
  counts: number[];
}

export interface RankDistribution {
  /** One value per context, in `profile.contexts` order. */
  values: Float64Array;
  /** Context indices from the smallest value to the largest (lower context first on ties). */
  order: Int32Array;
  /** The values in that order. */
  sorted: Float64Array;
  histogram: Histogram;
}

/** Histogram bins never exceed this: a hover is ~120 px wide. */
export const MAX_HISTOGRAM_BINS = 30;

/** Per-context values of one call-tree node (inclusive by default). */
export function nodeDistribution(
  profile: Profile,
  m: number,
  node: number,
  side: 'inclusive' | 'exclusive' = 'inclusive',
): RankDistribution {
  if (!(node >= 0 && node < profile.tree.size)) throw new RangeError(`node ${node} does not exist`);
  const row = new Float64Array(profile.contextCount);
  profile.contextRow(side, m, node, row);
  return distributionOf(row);
}

/** Per-context values of one function (by name or functionTotals index), or null for an unknown name. */
export function functionDistribution(
  profile: Profile,
  m: number,
  fn: string | number,
  side: 'inclusive' | 'exclusive' = 'inclusive',
  totals: FunctionTotals = functionTotals(profile, m),
): RankDistribution | null {
  const f = functionIndex(totals, fn);
  return f < 0 ? null : distributionOf(functionRows(profile, m, totals, [f], side));
}

/** Sorted series and histogram of any per-context values. */
export function distributionOf(values: Float64Array): RankDistribution {
  const order = Int32Array.from(values, (_, c) => c).sort((a, b) => values[a]! - values[b]! || a - b);
  const sorted = Float64Array.from(order, c => values[c]!);
  return { values, order, sorted, histogram: histogram(sorted) };
}

/**
 * Equal-width histogram of ascending values. The bin count follows Freedman–Diaconis (width
 * 2·IQR/n^⅓, robust to the one slow rank that makes a distribution interesting); when the IQR is 0
 * (most ranks equal) it falls back to Sturges (⌈log₂ n⌉ + 1) so the outliers still get bins apart.
 * Capped at `maxBins` and at n.
 */
export function histogram(sorted: ArrayLike<number>, maxBins = MAX_HISTOGRAM_BINS): Histogram {
  const n = sorted.length;
  if (n === 0) return { edges: [], counts: [] };
  const min = sorted[0]!,
    max = sorted[n - 1]!;
  const range = max - min;
  if (!(range > 0)) return { edges: [min, max], counts: [n] };
  const iqr = quantileSorted(sorted, 0.75) - quantileSorted(sorted, 0.25);
  const byFreedmanDiaconis = iqr > 0 ? Math.ceil(range / (2 * iqr * Math.cbrt(1 / n))) : 0;
  const bins = Math.max(1, Math.min(maxBins, n, byFreedmanDiaconis || Math.ceil(Math.log2(n)) + 1));
  const width = range / bins;
  const edges = Array.from({ length: bins + 1 }, (_, k) => (k === bins ? max : min + k * width));
  const counts = new Array<number>(bins).fill(0);
  for (let k = 0; k < n; k++) counts[Math.min(bins - 1, Math.floor((sorted[k]! - min) / width))]!++;
  return { edges, counts };
}

export interface SparklineOptions {
  /** Pixels (default 120 × 24). */
  width?: number;
  height?: number;
  /** Fill colour (default `currentColor`, so the SVG takes the theme's text colour when inlined). */
  color?: string;
  /** Accessible title, e.g. `time per rank: 1.2 s … 3.4 s`. */
  title?: string;
}

/**
 * A sorted-bar sparkline of per-context values as a standalone SVG document: one bar per context
 * (smallest on the left), a dashed line at the mean, a fixed size whatever the context count
 * (beyond one bar per pixel, each bar shows the largest value of its group, so the max survives).
 * Bars rise from 0; negative values (rounding in derived exclusive values) draw as 0.
 */
export function sortedBarSparkline(sorted: ArrayLike<number>, options: SparklineOptions = {}): string {
  const { width = 120, height = 24, color = 'currentColor', title } = options;
  const n = sorted.length;
  const bars = Math.min(n, width);
  const top = n ? Math.max(0, sorted[n - 1]!) : 0;
  const px = (v: number) => +v.toFixed(2);
  const y = (v: number) => px(height - (top > 0 ? (Math.max(0, v) / top) * height : 0));
  let d = '';
  for (let b = 0; b < bars; b++) {
    const last = Math.floor(((b + 1) * n) / bars) - 1;
    d += `M${px((b * width) / bars)} ${height}V${y(sorted[last]!)}H${px(((b + 1) * width) / bars)}V${height}Z`;
  }
  let mean = 0;
  for (let k = 0; k < n; k++) mean += sorted[k]!;
  mean /= n || 1;
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    (title ? `<title>${esc(title)}</title>` : '') +
    (d ? `<path fill="${esc(color)}" fill-opacity="0.8" d="${d}"/>` : '') +
    (n
      ? `<line x1="0" x2="${width}" y1="${y(mean)}" y2="${y(mean)}" stroke="${esc(color)}" stroke-width="1" stroke-dasharray="2 2"/>`
      : '') +
    '</svg>'
  );
}
