import type { SeriesMatrix } from './series-matrix';

/**
 * Per-segment summaries (thesis §5.3.4, after Bryan et al.'s temporal summary images): for each
 * segment between change points, the mean of every series, and the mean communication matrix.
 * Segments are [0, c₁), [c₁, c₂), …, [c_last, t) for change points c (which users may edit).
 */

/** [0, c₁, …, t] for strictly increasing change points inside (0, t); anything else is a RangeError. */
export function segmentBounds(changePoints: readonly number[], t: number): number[] {
  let previous = 0;
  for (const c of changePoints) {
    if (!Number.isInteger(c) || c <= previous || c >= t)
      throw new RangeError(
        `change points must be increasing whole time points inside (0, ${t}); got ${changePoints.join(', ')}`,
      );
    previous = c;
  }
  return [0, ...changePoints, t];
}

/** Mean of every entity's series over each segment: an entities × segments matrix. */
export function segmentMeans(series: SeriesMatrix, changePoints: readonly number[]): SeriesMatrix {
  const bounds = segmentBounds(changePoints, series.timePoints);
  const S = bounds.length - 1;
  const out = new Float64Array(series.entities * S);
  // Entity-major input: row i's time points are contiguous (stride 1), entities `timePoints` apart.
  meansOverTime(series.values, series.entities, series.timePoints, 1, bounds, out, S, 1);
  return { values: out, entities: series.entities, timePoints: S };
}

/**
 * Mean matrix of each segment from one matrix per time step (time-major: step τ's `cells` values,
 * e.g. n × n sends, at τ · cells). Returns segment-major segments × cells.
 */
export function segmentMatrixMeans(
  stepMatrices: Float64Array,
  cells: number,
  changePoints: readonly number[],
): Float64Array {
  if (cells <= 0 || stepMatrices.length % cells !== 0)
    throw new RangeError(`${stepMatrices.length} values are not whole matrices of ${cells} cells`);
  const t = stepMatrices.length / cells;
  const bounds = segmentBounds(changePoints, t);
  const S = bounds.length - 1;
  const out = new Float64Array(S * cells);
  // Time-major input: one cell's time points are `cells` apart, cells adjacent.
  meansOverTime(stepMatrices, cells, 1, cells, bounds, out, 1, cells);
  return out;
}

/**
 * out[item · itemStrideOut + s · segmentStrideOut] = mean over the time points of segment s of
 * values[item · itemStride + τ · timeStride].
 */
function meansOverTime(
  values: Float64Array,
  items: number,
  itemStride: number,
  timeStride: number,
  bounds: readonly number[],
  out: Float64Array,
  itemStrideOut: number,
  segmentStrideOut: number,
): void {
  const S = bounds.length - 1;
  for (let s = 0; s < S; s++) {
    const from = bounds[s]!,
      to = bounds[s + 1]!;
    const count = to - from;
    if (timeStride === 1) {
      // Each item's time points are contiguous: sum along them.
      for (let item = 0; item < items; item++) {
        let sum = 0;
        const base = item * itemStride;
        for (let step = from; step < to; step++) sum += values[base + step]!;
        out[item * itemStrideOut + s * segmentStrideOut] = sum / count;
      }
    } else {
      // Time-major: add whole steps (contiguous items) into the segment's row, then scale.
      for (let step = from; step < to; step++) {
        const base = step * timeStride;
        for (let item = 0; item < items; item++)
          out[item * itemStrideOut + s * segmentStrideOut]! += values[base + item * itemStride]!;
      }
      for (let item = 0; item < items; item++) out[item * itemStrideOut + s * segmentStrideOut]! /= count;
    }
  }
}
