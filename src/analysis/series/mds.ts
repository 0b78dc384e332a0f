import { throwIfAborted } from '../model/cancellation';
import { asCondensed } from './distance-matrix';
import { jacobiEigen, multiplySquare, orthonormalizeColumns } from './linear-algebra';

export interface MdsResult {
  /** Point-major n × dims coordinates. */
  coordinates: Float64Array;
  dims: number;
  /** The eigenvalues of the double-centred matrix used (negative ones clamped to 0 in the coordinates). */
  eigenvalues: number[];
}

/**
 * Classical (Torgerson) MDS (thesis §5.3.3, for global structure): B = −½ J D⁽²⁾ J, coordinates =
 * top eigenvectors × √eigenvalue, so Euclidean distances come back exactly (up to rotation and
 * reflection) when they are those of points in `dims` dimensions. Takes condensed or square
 * distances of any kind (DTW, TWED…). Eigenvectors by orthogonal (block power) iteration with
 * Rayleigh–Ritz steps from a fixed start; each axis's sign is fixed so its largest-magnitude
 * coordinate is positive: deterministic. O(n² · dims · iterations).
 */
export function classicalMds(
  distances: Float64Array,
  n: number,
  dims = 2,
  options: { signal?: AbortSignal } = {},
): MdsResult {
  const condensed = asCondensed(distances, n);
  throwIfAborted(options.signal);
  const k = Math.min(dims, n);
  const B = new Float64Array(n * n);
  const rowMean = new Float64Array(n);
  let p = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const d = condensed[p++]!;
      const d2 = d * d;
      B[i * n + j] = d2;
      B[j * n + i] = d2;
      rowMean[i]! += d2;
      rowMean[j]! += d2;
    }
  let all = 0;
  for (let i = 0; i < n; i++) {
    all += rowMean[i]!;
    rowMean[i]! /= n;
  }
  all /= n * n;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) B[i * n + j] = -0.5 * (B[i * n + j]! - rowMean[i]! - rowMean[j]! + all);
  // Orthogonal iteration on a block a little wider than `dims` (so large negative eigenvalues of
  // non-Euclidean distances cannot crowd out the top positive ones), with a Rayleigh–Ritz step every
  // few iterations; stops when the top Ritz values settle.
  const b = Math.min(n, k + 6);
  let Q: Float64Array = new Float64Array(n * b);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < b; c++) Q[i * b + c] = Math.cos((i + 1) * (c + 1) * 0.7) + (c === 0 ? 1 : 0);
  orthonormalizeColumns(Q, n, b);
  let Z: Float64Array = new Float64Array(n * b);
  let ritz: { values: number[]; Q: Float64Array } = { values: [], Q };
  let previous: number[] = [];
  for (let it = 1; it <= 2000; it++) {
    if ((it & 31) === 0) throwIfAborted(options.signal);
    multiplySquare(B, Q, Z, n, b);
    if (it % 5 === 0 || it === 2000) {
      ritz = rayleighRitz(Q, Z, n, b);
      const top = ritz.values.slice(0, k);
      const scale = Math.max(1e-300, ...top.map(Math.abs));
      const settled = previous.length === k && top.every((v, i) => Math.abs(v - previous[i]!) <= 1e-13 * scale);
      previous = top;
      Q = ritz.Q;
      if (settled) break;
      multiplySquare(B, Q, Z, n, b);
    }
    orthonormalizeColumns(Z, n, b);
    [Q, Z] = [Z, Q];
  }
  const coordinates = new Float64Array(n * dims);
  const eigenvalues = ritz.values.slice(0, k);
  for (let c = 0; c < k; c++) {
    const scale = Math.sqrt(Math.max(0, eigenvalues[c]!));
    let maxAbs = 0,
      sign = 1;
    for (let i = 0; i < n; i++) {
      const v = ritz.Q[i * b + c]!;
      if (Math.abs(v) > maxAbs + 1e-12) {
        maxAbs = Math.abs(v);
        sign = v < 0 ? -1 : 1;
      }
    }
    for (let i = 0; i < n; i++) coordinates[i * dims + c] = sign * ritz.Q[i * b + c]! * scale;
  }
  return { coordinates, dims, eigenvalues };
}

/**
 * Ritz pairs of the block: eigen-decomposes Qᵀ(BQ) (Jacobi) and returns the values in descending
 * order with the rotated, orthonormal block whose columns follow that order.
 */
function rayleighRitz(Q: Float64Array, BQ: Float64Array, n: number, b: number): { values: number[]; Q: Float64Array } {
  const T = new Float64Array(b * b);
  for (let x = 0; x < b; x++)
    for (let y = 0; y < b; y++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Q[i * b + x]! * BQ[i * b + y]!;
      T[x * b + y] = s;
    }
  for (let x = 0; x < b; x++)
    for (let y = x + 1; y < b; y++) T[x * b + y] = T[y * b + x] = (T[x * b + y]! + T[y * b + x]!) / 2;
  const { values, vectors } = jacobiEigen(T, b);
  const order = values.map((_, i) => i).sort((x, y) => values[y]! - values[x]! || x - y);
  const out = new Float64Array(n * b);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < b; c++) {
      const e = order[c]!;
      let s = 0;
      for (let a = 0; a < b; a++) s += Q[i * b + a]! * vectors[a * b + e]!;
      out[i * b + c] = s;
    }
  }
  return { values: order.map(e => values[e]!), Q: out };
}
