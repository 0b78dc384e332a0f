/**
 * Pairwise distances between n items, condensed like SciPy's `pdist`: the upper triangle row by row,
 * d(0,1), d(0,2), …, d(0,n−1), d(1,2), …, so n(n−1)/2 numbers and half the memory of a square matrix.
 * Every algorithm in this folder that takes distances also accepts the square n × n form.
 */

/** Number of cells of a condensed matrix over n items. */
export function condensedLength(n: number): number {
  return (n * (n - 1)) / 2;
}

/** Position of d(i, j), i ≠ j, in a condensed matrix over n items. */
export function condensedIndex(i: number, j: number, n: number): number {
  if (i > j) {
    const t = i;
    i = j;
    j = t;
  }
  return n * i - (i * (i + 1)) / 2 + (j - i - 1);
}

/** d(i, j) from a condensed matrix (0 on the diagonal). */
export function distanceAt(condensed: Float64Array, i: number, j: number, n: number): number {
  return i === j ? 0 : condensed[condensedIndex(i, j, n)]!;
}

/**
 * The condensed form of `distances`, given condensed (returned as is) or square (n × n, its upper
 * triangle copied). Any other length is a RangeError that says what was expected.
 */
export function asCondensed(distances: Float64Array, n: number): Float64Array {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`the number of points must be a whole number, got ${n}`);
  if (distances.length === condensedLength(n)) return distances;
  if (distances.length !== n * n)
    throw new RangeError(
      `distance matrix has ${distances.length} cells for ${n} points (expected ${condensedLength(n)} condensed or ${n * n} square)`,
    );
  const out = new Float64Array(condensedLength(n));
  let p = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[p++] = distances[i * n + j]!;
  return out;
}

/** The square, symmetric n × n form of a condensed matrix (zero diagonal). */
export function squareFromCondensed(condensed: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  let p = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const d = condensed[p++]!;
      out[i * n + j] = d;
      out[j * n + i] = d;
    }
  return out;
}
