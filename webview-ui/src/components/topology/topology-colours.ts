/**
 * Value → colour for topology marks. Positions on a scale come from the data's ranges: colours span
 * min → max of the node's level (or of everything drawn), as MemAxes normalises per depth (§6.2);
 * widths are proportional to the value over the level's (or overall) maximum, so "width ∝ traffic"
 * holds literally. The schemes are d3's, cut to the part that reads on dark and light backgrounds.
 */
import { color as parseColor, interpolateBlues, interpolateReds, interpolateViridis, interpolateYlOrRd } from 'd3';
import type {
  TopologyColourEncoding,
  TopologyColourScheme,
  TopologyNormalise,
  TopologyRange,
  TopologyViewMeasure,
} from '../../../../src/shared/topology-protocol';

/** Each scheme as an interpolator on [0, 1] and the part of it used (low, high). */
const SCHEMES: Record<TopologyColourScheme, { interpolate: (t: number) => string; from: number; to: number }> = {
  // MemAxes' ramp runs from (255,237,160) to (240,59,32): YlOrRd between 0.12 and 0.7.
  YlOrRd: { interpolate: interpolateYlOrRd, from: 0.12, to: 0.7 },
  // DMV's utilisation: white → red (the palest end left out so an idle device still reads as a box).
  Reds: { interpolate: interpolateReds, from: 0.06, to: 0.8 },
  Blues: { interpolate: interpolateBlues, from: 0.12, to: 0.85 },
  Viridis: { interpolate: interpolateViridis, from: 0, to: 1 },
};

/** The colour at position t ∈ [0, 1] of a scheme (hex). */
export function schemeColour(scheme: TopologyColourScheme, t: number): string {
  const s = SCHEMES[scheme];
  const x = s.from + Math.max(0, Math.min(1, t)) * (s.to - s.from);
  return parseColor(s.interpolate(x))?.formatHex() ?? '#888888';
}

/** Evenly spaced stops of a scheme, for legend gradients. */
export function schemeStops(scheme: TopologyColourScheme, n = 9): { offset: number; colour: string }[] {
  return Array.from({ length: n }, (_, i) => ({ offset: i / (n - 1), colour: schemeColour(scheme, i / (n - 1)) }));
}

/** The range a value of `level` is placed in: a fixed domain, the level's range, or the overall one. */
export function rangeOf(
  measure: TopologyViewMeasure | undefined,
  level: string,
  normalise: TopologyNormalise,
  domain?: readonly [number, number],
): TopologyRange | null {
  if (domain) return { min: domain[0], max: domain[1] };
  if (!measure) return null;
  return normalise === 'depth' ? (measure.byLevel[level] ?? null) : measure.all;
}

/**
 * Position of `v` on a colour scale spanning `r` (min → max), in [0, 1]; NaN when the value is
 * unknown. A level whose values are all equal sits at the top when they are positive (and at the
 * bottom when all are zero), so "everything equally busy" is not drawn as "idle".
 */
export function colourPosition(v: number, r: TopologyRange | null): number {
  if (!Number.isFinite(v) || !r) return NaN;
  if (r.max <= r.min) return r.max > 0 ? 1 : 0;
  return Math.max(0, Math.min(1, (v - r.min) / (r.max - r.min)));
}

/** Share of the widest mark for `v`: v / max of the range (0 for zero or unknown values). */
export function widthShare(v: number, r: TopologyRange | null): number {
  if (!Number.isFinite(v) || v <= 0 || !r || r.max <= 0) return 0;
  return Math.min(1, v / r.max);
}

/** The fill of a value under an encoding; null when the value is unknown (the view draws a neutral mark). */
export function fillOf(
  encoding: TopologyColourEncoding,
  measure: TopologyViewMeasure | undefined,
  value: number,
  level: string,
): string | null {
  if (encoding.measure < 0) return null;
  const t = colourPosition(value, rangeOf(measure, level, encoding.normalise, encoding.domain));
  return Number.isNaN(t) ? null : schemeColour(encoding.scheme, t);
}

/** Text colour that reads on `fill`: near-black on light fills, white on dark ones (WCAG relative luminance). */
export function textOn(fill: string): string {
  const c = parseColor(fill)?.rgb();
  if (!c) return 'currentColor';
  const lin = (x: number) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  // Contrast with black (l + 0.05) / 0.05 against white 1.05 / (l + 0.05): black wins above l ≈ 0.179.
  return l > 0.179 ? '#1b1b1b' : '#ffffff';
}
