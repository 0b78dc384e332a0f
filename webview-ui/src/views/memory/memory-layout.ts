/**
 * Geometry of the Memory view's drawings, kept apart from React so it is unit-tested: the parallel
 * histograms (MemAxes §6.3: one vertical axis per attribute, bins stacked along it, bars growing to
 * the right by count), the brush → value-range rule, the stacked level bars of the code and variable
 * views (MemAxes §6.1) and the metric strip's cells (§7.2).
 */
import type { MemoryCostRow, MemoryHistogram } from '../../../../src/shared/memory-protocol';

/** Narrowest axis column: the title, the bars and the min/max labels still read. */
export const AXIS_MIN_WIDTH = 72;
/** Space above the bins (title and reorder buttons) and below them (min label). */
export const AXIS_HEAD = 34;
export const AXIS_FOOT = 18;

/** One bin of one axis as drawn. */
export interface BinBar {
  bin: number;
  y: number;
  height: number;
  /** Bar lengths of the visible samples and of the selection (px from the axis line). */
  visibleWidth: number;
  /** The selection's bar, on the selection's own scale (a small selection stays visible beside all samples). */
  selectedWidth: number;
  visible: number;
  selected: number;
}

export interface AxisGeometry {
  attribute: string;
  x: number;
  width: number;
  /** Plot area of the bins (y grows downwards; bin 0 at the bottom, as values grow upwards). */
  top: number;
  bottom: number;
  /** Bars with at least one visible sample. */
  bars: BinBar[];
  binHeight: number;
}

/**
 * Axis columns side by side, at least {@link AXIS_MIN_WIDTH} wide (the view scrolls sideways
 * beyond), each bar's length its bin's count over the axis's largest bin (counts are per axis:
 * attributes have nothing in common but the samples).
 */
export function histogramAxes(histograms: readonly MemoryHistogram[], width: number, height: number): AxisGeometry[] {
  const n = Math.max(1, histograms.length);
  const column = Math.max(AXIS_MIN_WIDTH, Math.floor(width / n));
  const top = AXIS_HEAD;
  const bottom = Math.max(top + 20, height - AXIS_FOOT);
  return histograms.map((h, k) => {
    const bins = h.visible.length;
    const binHeight = bins > 0 ? (bottom - top) / bins : 0;
    let max = 0,
      selectedMax = 0;
    for (let b = 0; b < bins; b++) {
      if (h.visible[b]! > max) max = h.visible[b]!;
      if ((h.selected?.[b] ?? 0) > selectedMax) selectedMax = h.selected![b]!;
    }
    const barSpace = column - 14;
    const bars: BinBar[] = [];
    for (let b = 0; b < bins; b++) {
      const visible = h.visible[b]!;
      if (!(visible > 0)) continue;
      const selected = h.selected?.[b] ?? 0;
      bars.push({
        bin: b,
        y: bottom - (b + 1) * binHeight,
        height: binHeight,
        visibleWidth: Math.max(1, (visible / max) * barSpace),
        selectedWidth: selected > 0 ? Math.max(2, (selected / selectedMax) * barSpace) : 0,
        visible,
        selected,
      });
    }
    return { attribute: h.attribute, x: k * column, width: column, top, bottom, bars, binHeight };
  });
}

/** The bin under a y position of an axis (clamped to the axis). */
export function binAt(axis: AxisGeometry, y: number, bins: number): number {
  if (bins <= 0 || axis.binHeight <= 0) return 0;
  const b = Math.floor((axis.bottom - y) / axis.binHeight);
  return Math.min(bins - 1, Math.max(0, b));
}

/**
 * The value range of bins [lo, hi] (inclusive) of a histogram: category ids for string axes, the
 * bins' edges for numbers (the last bin includes the maximum, as the counting does).
 */
export function binRange(h: MemoryHistogram, lo: number, hi: number): { min: number; max: number } {
  const a = Math.min(lo, hi),
    b = Math.max(lo, hi);
  if (h.categories) return { min: a, max: b };
  const bins = h.visible.length;
  const width = (h.max - h.min) / bins;
  if (!(width > 0)) return { min: h.min, max: h.max };
  return { min: h.min + a * width, max: b === bins - 1 ? h.max : h.min + (b + 1) * width };
}

/** The bins a value range covers (for drawing a brush again from its range). */
export function binsOfRange(h: MemoryHistogram, range: { min: number; max: number }): [number, number] {
  const bins = h.visible.length;
  if (h.categories) return [Math.max(0, range.min), Math.min(bins - 1, range.max)];
  const width = (h.max - h.min) / bins;
  if (!(width > 0)) return [0, bins - 1];
  const lo = Math.floor((range.min - h.min) / width + 1e-9);
  const hi = Math.ceil((range.max - h.min) / width - 1e-9) - 1;
  return [Math.max(0, Math.min(bins - 1, lo)), Math.max(0, Math.min(bins - 1, hi))];
}

/** A bin's label: its category, or its value range. */
export function binLabel(h: MemoryHistogram, bin: number): string {
  if (h.categories) return h.categories[bin] ?? String(bin);
  const r = binRange(h, bin, bin);
  return `${formatAxisValue(r.min)} – ${formatAxisValue(r.max)}`;
}

/** Axis values: integers as they are (ids, lines, cycles), large ones in hex-free short form. */
export function formatAxisValue(v: number): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a >= 1e6) return v.toExponential(2);
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(a >= 100 ? 5 : 3)));
}

/**
 * Labels of an axis's two ends. Where both print the same (hex timestamps: 3.61e+15 at both ends),
 * the upper one says how far it is above the lower one (`+2.1e+9`), so the span still reads.
 */
export function axisEndLabels(min: number, max: number): [string, string] {
  const lo = formatAxisValue(min),
    hi = formatAxisValue(max);
  return lo === hi && max > min ? [lo, `+${formatAxisValue(max - min)}`] : [lo, hi];
}

/** Moves `attribute` one place left (-1) or right (+1) in the axis order. */
export function moveAxis(order: readonly string[], attribute: string, by: -1 | 1): string[] {
  const out = [...order];
  const i = out.indexOf(attribute);
  const j = i + by;
  if (i < 0 || j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** The histograms in the user's order (attributes not in it last, in the data's order). */
export function orderedHistograms(histograms: readonly MemoryHistogram[], order: readonly string[]): MemoryHistogram[] {
  const rank = new Map(order.map((a, i) => [a, i]));
  return histograms
    .map((h, i) => ({ h, r: rank.get(h.attribute) ?? order.length + i }))
    .sort((a, b) => a.r - b.r)
    .map(x => x.h);
}

/** The serving levels in the order the bars stack them (fast to slow, unresolved last). */
export const LEVEL_ORDER = [1, 2, 3, 4, 0] as const;

/** One level's segment of a stacked bar. */
export interface LevelSegment {
  level: number;
  x: number;
  width: number;
  cycles: number;
}

/** A row's cycles split by level into segments of a bar of `width` px for `scale` cycles. */
export function levelSegments(row: MemoryCostRow, scale: number, width: number): LevelSegment[] {
  const out: LevelSegment[] = [];
  if (!(scale > 0)) return out;
  let x = 0;
  for (const level of LEVEL_ORDER) {
    const cycles = row.levelCycles[level] ?? 0;
    if (!(cycles > 0)) continue;
    const w = (cycles / scale) * width;
    out.push({ level, x, width: w, cycles });
    x += w;
  }
  return out;
}

/** Cells of a metric strip: equal widths over `width`, each window's value normalised to the strip's range. */
export function stripCells(
  windows: readonly { samples: number; value: number }[],
  width: number,
): { x: number; width: number; t: number | null }[] {
  let lo = Infinity,
    hi = -Infinity;
  for (const w of windows)
    if (w.samples > 0 && Number.isFinite(w.value)) {
      lo = Math.min(lo, w.value);
      hi = Math.max(hi, w.value);
    }
  const cell = windows.length ? width / windows.length : 0;
  return windows.map((w, i) => ({
    x: i * cell,
    width: cell,
    t: w.samples > 0 && Number.isFinite(w.value) ? (hi > lo ? (w.value - lo) / (hi - lo) : 1) : null,
  }));
}

/** Where a cluster spans along the attribute axis of a strip of `width` px over [min, max]. */
export function clusterSpan(
  cluster: { min: number; max: number },
  min: number,
  max: number,
  width: number,
): { x: number; width: number } {
  if (!(max > min)) return { x: 0, width };
  const x0 = ((cluster.min - min) / (max - min)) * width;
  const x1 = ((cluster.max - min) / (max - min)) * width;
  return { x: Math.max(0, x0), width: Math.max(2, Math.min(width, x1) - Math.max(0, x0)) };
}
