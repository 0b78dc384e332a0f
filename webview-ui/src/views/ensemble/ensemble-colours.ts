/**
 * Colours of the Ensemble-Sankey (seed-callflow §4.2, §4.8), pure: the run-count scale of the
 * gradient fill (white → red, one scale for every node), the border scale of the max over runs
 * (OrRd, 9 classes, gamma 0.5), the green target and grey ensemble of target mode, and the
 * symmetric red–yellow–green scale of diff mode (positive = compare slower = red).
 */
import { color as parseColor, interpolateLab, interpolateRdYlGn, interpolateReds, quantize, schemeOrRd } from 'd3';
import type { EnsembleHistogram } from '../../../../src/shared/ensemble-protocol';

/** The target run in every ensemble view (CallFlow's ColorBrewer green, §4.9). */
export const TARGET_COLOUR = '#4DAF4A';

/** CSS variable of the theme token `hpcLens.ensembleTarget` (package.json `colors`; a theme may change it). */
const TARGET_TOKEN = '--vscode-hpcLens-ensembleTarget';

/** The target colour in CSS (styles, SVG `style` fills): the theme's token, else CallFlow's green. */
export const TARGET_COLOUR_CSS = `var(${TARGET_TOKEN}, ${TARGET_COLOUR})`;

/** The target colour resolved for a canvas, which cannot read CSS variables itself. */
export function resolvedTargetColour(style: { getPropertyValue(name: string): string }): string {
  return style.getPropertyValue(TARGET_TOKEN).trim() || TARGET_COLOUR;
}

/** Colour of an empty bin: the white end of the count scale. */
export const EMPTY_BIN_COLOUR = '#ffffff';

/**
 * Lowest position a non-empty bin takes on the count scale: with hundreds of runs a bin holding one
 * or two of them would otherwise be indistinguishable from an empty one.
 */
const MIN_NONEMPTY = 0.08;

const hex = (c: string): string => parseColor(c)?.formatHex() ?? c;

/** Position 0..1 of a bin count on the global count scale (0 = empty). */
export function countPosition(count: number, scale: number): number {
  if (!(count > 0) || !(scale > 0)) return 0;
  return MIN_NONEMPTY + (1 - MIN_NONEMPTY) * Math.min(1, count / scale);
}

/**
 * The two colour maps a theme may change (CallFlow §4.9): runtime (the border's 9 classes, OrRd)
 * and distribution (the run-count scale, Reds). Each is a pair of theme tokens (package.json
 * `colors`), light and dark end; at their defaults the ColorBrewer map itself is used, otherwise
 * the map runs between the theme's two colours in Lab.
 */
export const PALETTE_TOKENS = {
  runtimeLow: '--vscode-hpcLens-ensembleRuntimeLow',
  runtimeHigh: '--vscode-hpcLens-ensembleRuntimeHigh',
  distributionLow: '--vscode-hpcLens-ensembleDistributionLow',
  distributionHigh: '--vscode-hpcLens-ensembleDistributionHigh',
} as const;

export interface EnsemblePalette {
  /** The runtime map's 9 classes, light to dark. */
  runtime: readonly string[];
  /** The distribution map at t ∈ [0, 1] (0 = the empty-bin end). */
  distribution: (t: number) => string;
}

const RUNTIME_CLASSES = schemeOrRd[9]!;
export const DEFAULT_PALETTE: EnsemblePalette = { runtime: RUNTIME_CLASSES, distribution: interpolateReds };

/** The palette of the theme's tokens (read from the computed style of the page). */
export function paletteFromTheme(style: { getPropertyValue(name: string): string }): EnsemblePalette {
  const read = (name: string): string | null => {
    const c = parseColor(style.getPropertyValue(name).trim());
    return c ? c.formatHex() : null;
  };
  const pair = (low: string, high: string, dLow: string, dHigh: string): [string, string] | null => {
    const l = read(low) ?? dLow,
      h = read(high) ?? dHigh;
    return l === dLow && h === dHigh ? null : [l, h];
  };
  const runtime = pair(
    PALETTE_TOKENS.runtimeLow,
    PALETTE_TOKENS.runtimeHigh,
    hex(RUNTIME_CLASSES[0]!),
    hex(RUNTIME_CLASSES[8]!),
  );
  const distribution = pair(
    PALETTE_TOKENS.distributionLow,
    PALETTE_TOKENS.distributionHigh,
    hex(interpolateReds(0)),
    hex(interpolateReds(1)),
  );
  return {
    runtime: runtime ? quantize(interpolateLab(runtime[0], runtime[1]), 9) : RUNTIME_CLASSES,
    distribution: distribution ? interpolateLab(distribution[0], distribution[1]) : interpolateReds,
  };
}

let palette = DEFAULT_PALETTE;

/** Sets the palette every colour function below uses (the app does, from the theme, on every theme change). */
export function setEnsemblePalette(p: EnsemblePalette): void {
  palette = p;
}

/** Colour of a bin holding `count` runs, on the count scale [0, scale] shared by every node. */
export function countColour(count: number, scale: number): string {
  const t = countPosition(count, scale);
  return t === 0 ? EMPTY_BIN_COLOUR : hex(palette.distribution(t));
}

export interface GradientStop {
  offset: number;
  colour: string;
  count: number;
}

/**
 * Stops of a node's vertical gradient: one per bin at (i + 0.5) / bins, bin 0 (lowest values) at the
 * top; the SVG gradient interpolates linearly between bin centres (CallFlow's smoothing).
 */
export function gradientStops(histogram: EnsembleHistogram, scale: number): GradientStop[] {
  const bins = histogram.counts.length;
  return histogram.counts.map((count, i) => ({ offset: (i + 0.5) / bins, colour: countColour(count, scale), count }));
}

/** Text colour readable on a bin of the count scale: dark on the light end, white on the dark end. */
export function countTextColour(count: number, scale: number): string {
  return countPosition(count, scale) > 0.55 ? '#ffffff' : '#1f1f1f';
}

/**
 * Border colour of a node whose max over runs is `value` (the runtime map: OrRd, 9 classes, by default), on [min, max] over nodes: the position is
 * raised to the power 0.5 (chroma's gamma, so the many small nodes spread over the light classes)
 * and falls in one of 9 classes.
 */
export function borderColour(value: number, domain: readonly [number, number]): string {
  const [lo, hi] = domain;
  const t = hi > lo && Number.isFinite(value) ? Math.max(0, Math.min(1, (value - lo) / (hi - lo))) : hi > lo ? 0 : 1;
  const classes = palette.runtime;
  const k = Math.min(classes.length - 1, Math.floor(Math.sqrt(t) * classes.length));
  return classes[k]!;
}

/** The border classes, light to dark (the legend). */
export function borderClasses(): readonly string[] {
  return palette.runtime;
}

/** Position 0..1 of a difference on the symmetric domain [−bound, +bound] (0.5 = no change). */
export function diffPosition(diff: number, bound: number): number {
  if (!(bound > 0) || !Number.isFinite(diff)) return 0.5;
  return 0.5 + Math.max(-1, Math.min(1, diff / bound)) / 2;
}

/**
 * Diverging colour of compare − baseline on [−bound, +bound]: red where the compare run is slower
 * (positive), green where it is faster, pale yellow for no change (RdYlGn reversed, §4.8).
 */
export function diffColour(diff: number, bound: number): string {
  return hex(interpolateRdYlGn(1 - diffPosition(diff, bound)));
}

/** Evenly spaced samples of a scale for a CSS legend gradient. */
export function legendGradient(colourAt: (t: number) => string, samples = 11): string {
  return `linear-gradient(to right, ${Array.from({ length: samples }, (_, i) => colourAt(i / (samples - 1))).join(', ')})`;
}
