/**
 * Parallel histograms (MemAxes §6.3): one histogram per attribute, of the visible samples and,
 * apart, of the selection, plus range selection along axes (a brush on several axes selects the
 * samples inside every range). Numbers fall into equal bins (MemAxes uses 100); string attributes
 * get one bin per category, in order of first appearance.
 */
import { binOf } from '../stats/histogram';
import { sizeOf, type IndexSet, type SampleScope } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import type { SampleAttribute } from './memory-samples';
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
  for (let k = 0; k < n; k++) {
    const b = attribute.categories ? values[set ? set[k]! : k]! : binOf(values[set ? set[k]! : k]!, min, max, bins);
    if (b >= 0) counts[b]!++;
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
  let selected: Float64Array | null = null;
  if (scope.selected) {
    selected = new Float64Array(size);
    countInto(selected, attribute, scope.selected, min, max);
  }
  return {
    attribute: attribute.name,
    kind: attribute.kind,
    min,
    max,
    ...(categories ? { categories } : {}),
    visible,
    selected,
  };
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
