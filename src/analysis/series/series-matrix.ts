/**
 * A series set: one metric of n entities (PEs, KPs, LPs, ranks, runs…) over t shared time points,
 * entity-major so each entity's series is one contiguous row: `values[entity · timePoints + τ]`.
 * Several metrics of the same entities are several matrices.
 */
export interface SeriesMatrix {
  values: Float64Array;
  entities: number;
  timePoints: number;
}

/** A series matrix over `values`, checked to hold exactly entities × timePoints numbers. */
export function seriesMatrix(values: Float64Array, entities: number, timePoints: number): SeriesMatrix {
  if (!Number.isInteger(entities) || entities < 0 || !Number.isInteger(timePoints) || timePoints < 0)
    throw new RangeError(`a series matrix needs whole, non-negative sizes, got ${entities} × ${timePoints}`);
  if (values.length !== entities * timePoints)
    throw new RangeError(
      `a series matrix of ${entities} entities × ${timePoints} time points needs ${entities * timePoints} values, got ${values.length}`,
    );
  return { values, entities, timePoints };
}

/** Entity `i`'s series (a view, not a copy). */
export function seriesRow(matrix: SeriesMatrix, i: number): Float64Array {
  return matrix.values.subarray(i * matrix.timePoints, (i + 1) * matrix.timePoints);
}

/** Throws a RangeError naming the first non-finite value: distances and scaling need finite numbers. */
export function assertFinite(matrix: SeriesMatrix, what = 'series'): void {
  const { values, timePoints } = matrix;
  for (let p = 0; p < values.length; p++) {
    const v = values[p]!;
    if (v - v !== 0) {
      const entity = Math.floor(p / timePoints);
      throw new RangeError(`${what}: the value of entity ${entity} at time point ${p - entity * timePoints} is ${v}`);
    }
  }
}
