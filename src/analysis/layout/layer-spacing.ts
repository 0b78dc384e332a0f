/**
 * CallFlow's adaptive layer spacing (seed-callflow §2.5): the gap before layer l is
 * max(min_x, c · l^k · max(n_l, n_{l−1})), with n_l the number of real nodes in layer l and the
 * factor c chosen so that the gaps fill the available width. Sparse layers (usually on the left of
 * a call graph) sit close together; crowded ones get room for their labels.
 */

export interface LayerSpacingOptions {
  /** Width (px) from the left edge of layer 0 to the left edge of the last layer. */
  span: number;
  /** Scaling exponent k of the level number. */
  exponent: number;
  /** Minimum gap between adjacent layers, px (min_x). */
  minGap: number;
}

/** The raw (unscaled) weight of the gap before layer `l`: l^k · max(n_l, n_{l−1}). */
export function rawLayerGap(level: number, counts: readonly number[], exponent: number): number {
  const n = Math.max(counts[level] ?? 0, counts[level - 1] ?? 0, 1);
  return Math.pow(level, exponent) * n;
}

/**
 * Left x offsets (px, from 0) of every layer, given the number of real nodes per layer. The gaps
 * sum to `span` exactly; a gap is never below `minGap` unless all of them have to be (span too
 * small), in which case they are equal.
 */
export function layerOffsets(counts: readonly number[], options: LayerSpacingOptions): number[] {
  const layers = counts.length;
  if (layers === 0) return [];
  if (layers === 1) return [0];
  const span = Math.max(0, Number.isFinite(options.span) ? options.span : 0);
  const gaps = layers - 1;
  const raw = Array.from({ length: gaps }, (_, i) => rawLayerGap(i + 1, counts, options.exponent));
  const minGap = Math.max(0, options.minGap);
  let px: number[];
  if (minGap * gaps >= span) {
    px = raw.map(() => span / gaps);
  } else {
    // Σ max(minGap, c·raw) grows monotonically with c: bisect for the c that fills the span.
    const total = (c: number): number => raw.reduce((s, r) => s + Math.max(minGap, c * r), 0);
    let lo = 0;
    let hi = span / Math.min(...raw);
    for (let i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
      const mid = (lo + hi) / 2;
      if (total(mid) > span) hi = mid;
      else lo = mid;
    }
    px = raw.map(r => Math.max(minGap, lo * r));
    // Put the bisection's rounding remainder on the widest gap so the last layer ends at `span`.
    const rest = span - px.reduce((s, g) => s + g, 0);
    let widest = 0;
    for (let i = 1; i < px.length; i++) if (px[i]! > px[widest]!) widest = i;
    px[widest] = px[widest]! + rest;
  }
  const offsets = [0];
  for (const g of px) offsets.push(offsets[offsets.length - 1]! + g);
  return offsets;
}
