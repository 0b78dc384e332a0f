import { assertFinite, type SeriesMatrix } from './series-matrix';

/**
 * Preprocessing of series before distances and clustering (thesis §5.3.2, Li et al. 2019 §4.2):
 * "multiple metrics are scaled to [0, 1] and concatenated", so that each metric weighs the same
 * whatever its unit, and several metrics cluster together as one longer series per entity.
 */

/** How each metric is normalised before concatenation. */
export type SeriesNormalisation = 'min-max' | 'z' | 'none';

/**
 * Min–max scaling of one metric to [0, 1] over all its entities and time points together (one
 * range per metric, not per entity, so an entity with larger values stays larger). A constant
 * metric scales to all zeros. Values must be finite.
 */
export function scaleMinMax(matrix: SeriesMatrix): SeriesMatrix {
  assertFinite(matrix, 'min–max scaling');
  const { values } = matrix;
  let lo = Infinity,
    hi = -Infinity;
  for (let p = 0; p < values.length; p++) {
    const v = values[p]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const out = new Float64Array(values.length);
  const span = hi - lo;
  if (span > 0) for (let p = 0; p < values.length; p++) out[p] = (values[p]! - lo) / span;
  return { values: out, entities: matrix.entities, timePoints: matrix.timePoints };
}

/**
 * z-normalisation of every series on its own (mean 0, population standard deviation 1): compares
 * shapes regardless of level and amplitude (Keogh & Kasetty 2003). A constant series becomes zeros.
 */
export function zNormalise(matrix: SeriesMatrix): SeriesMatrix {
  assertFinite(matrix, 'z-normalisation');
  const { values, entities, timePoints: t } = matrix;
  const out = new Float64Array(values.length);
  for (let i = 0; i < entities; i++) {
    const base = i * t;
    let sum = 0;
    for (let step = 0; step < t; step++) sum += values[base + step]!;
    const mean = sum / t;
    let squares = 0;
    for (let step = 0; step < t; step++) squares += (values[base + step]! - mean) ** 2;
    const sd = Math.sqrt(squares / t);
    // A spread at rounding level of the mean is a constant series.
    if (!(sd > 1e-12 * Math.max(1, Math.abs(mean)))) continue;
    for (let step = 0; step < t; step++) out[base + step] = (values[base + step]! - mean) / sd;
  }
  return { values: out, entities, timePoints: t };
}

/**
 * Each entity's series of every metric one after the other (metric 0's time points, then metric
 * 1's, …): one feature row per entity. All metrics must have the same entities; lengths may differ.
 */
export function concatenateMetrics(metrics: readonly SeriesMatrix[]): SeriesMatrix {
  if (metrics.length === 0) throw new RangeError('concatenating metrics needs at least one metric');
  const n = metrics[0]!.entities;
  metrics.forEach((m, k) => {
    if (m.entities !== n)
      throw new RangeError(`metric ${k} has ${m.entities} entities where metric 0 has ${n}; they must match`);
  });
  if (metrics.length === 1) return metrics[0]!;
  const width = metrics.reduce((s, m) => s + m.timePoints, 0);
  const out = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    let offset = i * width;
    for (const m of metrics) {
      out.set(m.values.subarray(i * m.timePoints, (i + 1) * m.timePoints), offset);
      offset += m.timePoints;
    }
  }
  return { values: out, entities: n, timePoints: width };
}

/** Normalises each metric as asked, then concatenates them: the feature series to cluster. */
export function featureSeries(
  metrics: SeriesMatrix | readonly SeriesMatrix[],
  normalisation: SeriesNormalisation = 'min-max',
): SeriesMatrix {
  const list: readonly SeriesMatrix[] = Array.isArray(metrics) ? metrics : [metrics as SeriesMatrix];
  const normalise =
    normalisation === 'min-max'
      ? scaleMinMax
      : normalisation === 'z'
        ? zNormalise
        : (m: SeriesMatrix) => (assertFinite(m, 'feature series'), m);
  return concatenateMetrics(list.map(m => normalise(m)));
}
