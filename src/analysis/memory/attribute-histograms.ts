/**
 * Parallel histograms (MemAxes §6.3): one histogram per attribute, of the visible samples and,
 * apart, of the selection, plus range selection along axes (a brush on several axes selects the
 * samples inside every range). Numbers fall into equal bins (MemAxes uses 100); string attributes
 * get one bin per category, in order of first appearance.
 */
import { binOf } from '../stats/histogram';
import { sizeOf, type IndexSet, type SampleScope } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import type { SampleAttribute } from './model/memory-samples';
import { attributeRange } from './metric-strip';

/** MemAxes' bin count per axis. */
export const HISTOGRAM_BINS = 100;

export interface AttributeHistogram {
  attribute: string;
  kind: SampleAttribute['kind'];
  /** The bins' range (numbers) or [0, categories − 1] (strings); NaN when the attribute has no values. */
  min: number;
  max: number;
  /** Category names, one bin each, for string attributes. */
  categories?: string[];
  /** Counts of the visible samples per bin. */
  visible: Float64Array;
  /** Counts of the selected samples per bin; null without a selection. */
  selected: Float64Array | null;
}

/**
 * Counts a set's values into bins: category ids directly, numbers by {@link binOf}'s rule (inlined:
 * this loop runs over every visible sample of every attribute).
 */
function countInto(
  counts: Float64Array,
  attribute: SampleAttribute,
  set: IndexSet | null,
  min: number,
  max: number,
): void {
  const values = attribute.values;
  const bins = counts.length;
  const n = sizeOf(set, values.length);
  if (attribute.categories) {
    for (let k = 0; k < n; k++) {
      const b = values[set ? set[k]! : k]!;
      if (b >= 0 && b < bins) counts[b]!++;
    }
    return;
  }
  const width = (max - min) / bins;
  if (!(width > 0)) {
    // One value (or none): everything in the middle bin, as binOf does.
    for (let k = 0; k < n; k++) if (binOf(values[set ? set[k]! : k]!, min, max, bins) >= 0) counts[bins >> 1]!++;
    return;
  }
  const last = bins - 1;
  for (let k = 0; k < n; k++) {
    const v = values[set ? set[k]! : k]!;
    if (v !== v) continue;
    const b = Math.floor((v - min) / width);
    counts[b < 0 ? 0 : b > last ? last : b]!++;
  }
}

/** The histogram of one attribute over the visible samples, and of the selection. */
export function attributeHistogram(
  attribute: SampleAttribute,
  scope: SampleScope,
  bins = HISTOGRAM_BINS,
): AttributeHistogram {
  const categories = attribute.categories;
  const [min, max] = categories ? [0, categories.length - 1] : attributeRange(attribute, scope.visible);
  const size = categories ? categories.length : bins;
  const visible = new Float64Array(size);
  countInto(visible, attribute, scope.visible, min, max);
  const histogram: AttributeHistogram = {
    attribute: attribute.name,
    kind: attribute.kind,
    min,
    max,
    ...(categories ? { categories } : {}),
    visible,
    selected: null,
  };
  return scope.selected ? withSelection(histogram, attribute, scope.selected) : histogram;
}

/** The histogram with the selection's counts in the same bins (the visible counts kept as they are). */
export function withSelection(
  histogram: AttributeHistogram,
  attribute: SampleAttribute,
  selected: IndexSet | null,
): AttributeHistogram {
  if (!selected) return { ...histogram, selected: null };
  const counts = new Float64Array(histogram.visible.length);
  countInto(counts, attribute, selected, histogram.min, histogram.max);
  return { ...histogram, selected: counts };
}

/** Histograms of every attribute. */
export function attributeHistograms(
  analysis: MemoryAnalysis,
  scope: SampleScope,
  bins = HISTOGRAM_BINS,
): AttributeHistogram[] {
  return analysis.samples.attributes.map(a => attributeHistogram(a, scope, bins));
}

/** A brushed range on one axis, inclusive at both ends (category ids for string attributes). */
export interface AttributeRange {
  attribute: SampleAttribute;
  min: number;
  max: number;
}

/** The samples (of `within`, null: all) inside every range; with no range, all of them. */
export function samplesInRanges(
  analysis: MemoryAnalysis,
  ranges: readonly AttributeRange[],
  within: IndexSet | null = null,
): IndexSet {
  const n = sizeOf(within, analysis.samples.count);
  const out = new Int32Array(n);
  let m = 0;
  outer: for (let k = 0; k < n; k++) {
    const i = within ? within[k]! : k;
    for (const r of ranges) {
      const v = r.attribute.values[i]!;
      if (!(v >= r.min && v <= r.max)) continue outer;
    }
    out[m++] = i;
  }
  return out.slice(0, m);
}
