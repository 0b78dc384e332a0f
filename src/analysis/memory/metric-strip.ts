/**
 * Metric strips (MemAxes §7.2): an attribute's range cut into N equal windows, each scored with a
 * metric (e.g. NUMA imbalance along `time`) and drawn as a colour block under the attribute's
 * axis, so outlier windows stand out and can be selected.
 */
import { binOf } from '../stats/histogram';
import { DepthCounter, type MemoryMetric } from './depth-scores';
import { sizeOf, type IndexSet } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import type { SampleAttribute } from './model/memory-samples';

export interface StripWindow {
  /** The window's value range [lo, hi) (the last one includes hi). */
  lo: number;
  hi: number;
  samples: number;
  /** The metric of the window's samples; NaN for an empty window. */
  value: number;
}

export interface MetricStrip {
  attribute: string;
  metric: MemoryMetric;
  min: number;
  max: number;
  windows: StripWindow[];
  /** Index of the window with the highest value; -1 when all are empty. */
  peak: number;
}

/** The finite range of an attribute over a set (null: all samples); [NaN, NaN] when it has no values. */
export function attributeRange(attribute: SampleAttribute, set: IndexSet | null): [number, number] {
  let min = Infinity,
    max = -Infinity;
  const values = attribute.values;
  const n = sizeOf(set, values.length);
  for (let k = 0; k < n; k++) {
    const v = values[set ? set[k]! : k]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : [NaN, NaN];
}

/** Scores `windows` equal windows of an attribute over a set of samples (null: all). */
export function metricStrip(
  analysis: MemoryAnalysis,
  attribute: SampleAttribute,
  metric: MemoryMetric,
  windows: number,
  set: IndexSet | null = null,
): MetricStrip {
  if (!(windows >= 1)) throw new RangeError('a metric strip needs at least one window');
  const counter = new DepthCounter(analysis, metric);
  const [min, max] = attributeRange(attribute, set);
  const vectors = Array.from({ length: windows }, () => counter.vectors());
  const counts = new Float64Array(windows);
  const values = attribute.values;
  const n = sizeOf(set, values.length);
  for (let k = 0; k < n; k++) {
    const i = set ? set[k]! : k;
    const b = binOf(values[i]!, min, max, windows);
    if (b < 0) continue;
    counts[b]!++;
    counter.add(vectors[b]!, i);
  }
  const width = (max - min) / windows;
  const out = vectors.map((v, b) => ({
    lo: min + b * width,
    hi: b === windows - 1 ? max : min + (b + 1) * width,
    samples: counts[b]!,
    value: counts[b]! > 0 ? counter.value(v) : NaN,
  }));
  let peak = -1;
  out.forEach((w, b) => {
    if (w.value === w.value && (peak < 0 || w.value > out[peak]!.value)) peak = b;
  });
  return { attribute: attribute.name, metric, min, max, windows: out, peak };
}
