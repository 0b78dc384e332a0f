/**
 * Rank ↔ bin mapping for the histogram view (pure): which ranks fall in each bin, as contiguous
 * ranges of rank position (CallFlow's shadow lines: one band per range from a slice of the bin down
 * to the ranks on an ordered rank axis), the "0-3, 8" text of a bin's tooltip, a clutter measure
 * (AT-6) and the ranks a brush over bins selects.
 */
import type { BinnedHistogram } from '../../../../src/shared/callflow-protocol';

/** A run of consecutive rank positions [start, end] (inclusive) that share a bin. */
export interface RankRange {
  start: number;
  end: number;
}

/** For every bin, its rank positions grouped into maximal contiguous ranges, in rank order. */
export function rankRangesByBin(binOf: readonly number[], bins: number): RankRange[][] {
  const out: RankRange[][] = Array.from({ length: bins }, () => []);
  for (let c = 0; c < binOf.length; c++) {
    const b = binOf[c]!;
    if (!(b >= 0 && b < bins)) continue;
    const ranges = out[b]!;
    const last = ranges[ranges.length - 1];
    if (last && last.end === c - 1) last.end = c;
    else ranges.push({ start: c, end: c });
  }
  return out;
}

/** `0-3, 8, 10-11` for ranges over rank labels (`labels[position]`, or the position itself). */
export function formatRankRanges(ranges: readonly RankRange[], labels?: readonly string[], max = 12): string {
  const name = (p: number): string => labels?.[p] ?? String(p);
  const parts = ranges.slice(0, max).map(r => (r.start === r.end ? name(r.start) : `${name(r.start)}–${name(r.end)}`));
  if (ranges.length > max) parts.push(`… (${ranges.length - max} more ranges)`);
  return parts.join(', ');
}

/**
 * Clutter of the shadow lines, 0..1: the share of non-empty bins' bands beyond one per bin, i.e.
 * (bands − non-empty bins) / (ranks − non-empty bins). 0 when every bin maps to one contiguous rank
 * range (runtime follows rank id); near 1 when ranks are spread at random over the bins.
 */
export function shadowClutter(ranges: readonly RankRange[][]): number {
  let bands = 0,
    filled = 0,
    ranks = 0;
  for (const r of ranges) {
    if (r.length === 0) continue;
    filled++;
    bands += r.length;
    for (const x of r) ranks += x.end - x.start + 1;
  }
  return ranks > filled ? (bands - filled) / (ranks - filled) : 0;
}

/** One shadow band: from a slice [x0, x1] of its bin's bottom edge down to [r0, r1] on the rank axis. */
export interface ShadowBand {
  bin: number;
  x0: number;
  x1: number;
  r0: number;
  r1: number;
  range: RankRange;
}

/**
 * The shadow bands of a histogram drawn with bins of `binWidth` px starting at `left`, onto a rank
 * axis where rank position p spans [rankX(p), rankX(p) + rankStep]. Each bin's bottom edge is shared
 * among its ranges in proportion to their rank count (CallFlow's widthPerRank = binWidth / count).
 */
export function shadowBands(
  ranges: readonly RankRange[][],
  left: number,
  binWidth: number,
  rankX: (p: number) => number,
  rankStep: number,
): ShadowBand[] {
  const bands: ShadowBand[] = [];
  ranges.forEach((rs, bin) => {
    const count = rs.reduce((s, r) => s + r.end - r.start + 1, 0);
    if (count === 0) return;
    const perRank = binWidth / count;
    const binLeft = left + bin * binWidth;
    let before = 0;
    rs.forEach((range, i) => {
      const size = range.end - range.start + 1;
      const x1 = i === rs.length - 1 ? binLeft + binWidth : binLeft + (before + size) * perRank;
      bands.push({
        bin,
        x0: binLeft + before * perRank,
        x1,
        r0: rankX(range.start),
        r1: rankX(range.end) + rankStep,
        range,
      });
      before += size;
    });
  });
  return bands;
}

/** Rank positions whose bin lies in [fromBin, toBin] (a brush over bins), ascending. */
export function ranksInBins(binOf: readonly number[], fromBin: number, toBin: number): number[] {
  const lo = Math.min(fromBin, toBin),
    hi = Math.max(fromBin, toBin);
  const out: number[] = [];
  binOf.forEach((b, c) => {
    if (b >= lo && b <= hi) out.push(c);
  });
  return out;
}

/** The bins [from, to] a brush covering pixels [px0, px1] touches (bins of `binWidth` px from `left`). */
export function binsUnderBrush(
  px0: number,
  px1: number,
  left: number,
  binWidth: number,
  bins: number,
): [number, number] | null {
  if (!(binWidth > 0) || bins <= 0) return null;
  const a = Math.floor((Math.min(px0, px1) - left) / binWidth);
  const b = Math.ceil((Math.max(px0, px1) - left) / binWidth) - 1;
  const from = Math.max(0, a),
    to = Math.min(bins - 1, b);
  return from <= to ? [from, to] : null;
}

/** A histogram's bin of each rank, from `binOf` when sent, else recomputed from the edges. */
export function binOfRanks(h: BinnedHistogram, values?: readonly number[]): number[] {
  if (h.binOf) return h.binOf;
  if (!values) return [];
  const bins = h.counts.length;
  return values.map(v => {
    let b = 0;
    while (b < bins - 1 && v >= h.edges[b + 1]!) b++;
    return b;
  });
}
