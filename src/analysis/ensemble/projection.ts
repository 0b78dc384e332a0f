import { seededRandom } from '../stats/seeded-random';
import { comparePaths } from '../formats/profile-folder';
import type { Ensemble } from './ensemble';

/**
 * Parameter projection (CallFlow §2.11, marked experimental): runs as points — min–max scaled run
 * parameters and runtimes, or distances between the runs' call-tree structures — projected to 2-D
 * with classical MDS and clustered with k-means (k = 3). Everything is deterministic: MDS by
 * orthogonal iteration from a fixed start, k-means++ seeded like CallFlow (`random_state = 20150101`).
 */

export const PROJECTION_SEED = 20150101;

export interface RunFeatures {
  names: string[];
  /** Run-major [run · features + f], each feature min–max scaled to [0, 1] (constant features are 0). */
  matrix: Float64Array;
  runCount: number;
}

/**
 * Feature vectors per run: every run parameter (numbers as they are; text coded 0, 1, 2, … in
 * natural order of the distinct values), then the run's mean inclusive and mean exclusive value
 * over the nodes present in it (CallFlow's features). A run without a parameter gets the mean of
 * the others' scaled values, so it sits mid-way rather than at an extreme.
 */
export function runFeatures(ensemble: Ensemble, parameterKeys?: readonly string[]): RunFeatures {
  const R = ensemble.runCount;
  const keys = parameterKeys ?? [...new Set(ensemble.runs.flatMap(r => Object.keys(r.parameters)))].sort();
  const columns: (number | undefined)[][] = [];
  for (const key of keys) {
    const raw = ensemble.runs.map(r => r.parameters[key]);
    if (raw.every(v => v === undefined || typeof v === 'number')) {
      columns.push(raw as (number | undefined)[]);
      continue;
    }
    const levels = [...new Set(raw.filter(v => v !== undefined).map(String))].sort(comparePaths);
    columns.push(raw.map(v => (v === undefined ? undefined : levels.indexOf(String(v)))));
  }
  const meanInc: number[] = [],
    meanExc: number[] = [];
  for (let r = 0; r < R; r++) {
    let si = 0,
      se = 0,
      n = 0;
    for (let u = 0; u < ensemble.size; u++) {
      const vi = ensemble.inclusive[u * R + r]!;
      if (vi !== vi) continue;
      si += vi;
      se += ensemble.exclusive[u * R + r]!;
      n++;
    }
    meanInc.push(n ? si / n : 0);
    meanExc.push(n ? se / n : 0);
  }
  columns.push(meanInc, meanExc);
  const names = [...keys, 'mean inclusive', 'mean exclusive'];
  const F = names.length;
  const matrix = new Float64Array(R * F);
  columns.forEach((col, f) => {
    const vals = col.filter((v): v is number => v !== undefined && Number.isFinite(v));
    const lo = Math.min(...vals),
      hi = Math.max(...vals);
    const scaled = col.map(v => (v === undefined || !Number.isFinite(v) ? NaN : hi > lo ? (v - lo) / (hi - lo) : 0));
    const present = scaled.filter(v => v === v);
    const fill = present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0;
    scaled.forEach((v, r) => {
      matrix[r * F + f] = v === v ? v : fill;
    });
  });
  return { names, matrix, runCount: R };
}

/** Euclidean distances between the rows of a row-major n × d matrix (n × n, symmetric). */
export function euclideanDistances(matrix: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) {
        const t = matrix[i * d + k]! - matrix[j * d + k]!;
        s += t * t;
      }
      out[i * n + j] = out[j * n + i] = Math.sqrt(s);
    }
  }
  return out;
}

/**
 * Distances between the runs' call-tree structures (§8 limitation 12): 1 − weighted Jaccard
 * similarity of their inclusive vectors over the union, each run's vector divided by its total so
 * the shape of the tree counts, not the run's length. A node missing in a run weighs 0 there (for
 * structure, absence is the point). Uses the `maxNodes` nodes with the largest max share (default
 * 512: the nodes that carry the time; it bounds the runs² × nodes work at 1,000 runs).
 */
export function structureDistances(ensemble: Ensemble, maxNodes = 512): Float64Array {
  const R = ensemble.runCount;
  const share = new Float64Array(ensemble.size * R);
  const totals = Array.from({ length: R }, (_, r) => ensemble.runTotal(r) || 1);
  const peak = new Float64Array(ensemble.size);
  for (let u = 0; u < ensemble.size; u++) {
    for (let r = 0; r < R; r++) {
      const v = ensemble.inclusive[u * R + r]!;
      const s = v === v && v > 0 ? v / totals[r]! : 0;
      share[u * R + r] = s;
      if (s > peak[u]!) peak[u] = s;
    }
  }
  const nodes = Array.from({ length: ensemble.size }, (_, u) => u)
    .sort((a, b) => peak[b]! - peak[a]! || a - b)
    .slice(0, maxNodes);
  // Run-major copy of the chosen columns for cache-friendly pairs.
  const K = nodes.length;
  const rows = new Float64Array(R * K);
  nodes.forEach((u, k) => {
    for (let r = 0; r < R; r++) rows[r * K + k] = share[u * R + r]!;
  });
  const out = new Float64Array(R * R);
  for (let i = 0; i < R; i++) {
    for (let j = i + 1; j < R; j++) {
      let lo = 0,
        hi = 0;
      for (let k = 0; k < K; k++) {
        const a = rows[i * K + k]!,
          b = rows[j * K + k]!;
        if (a < b) {
          lo += a;
          hi += b;
        } else {
          lo += b;
          hi += a;
        }
      }
      out[i * R + j] = out[j * R + i] = hi > 0 ? 1 - lo / hi : 0;
    }
  }
  return out;
}

export interface MdsResult {
  /** Point-major n × dims coordinates. */
  coordinates: Float64Array;
  dims: number;
  /** The eigenvalues of the double-centred matrix used (negative ones clamped to 0 in the coordinates). */
  eigenvalues: number[];
}

/**
 * Classical (Torgerson) MDS: B = −½ J D⁽²⁾ J, coordinates = top eigenvectors × √eigenvalue.
 * Eigenvectors by orthogonal (block power) iteration with Rayleigh–Ritz steps; deterministic start, each axis's sign fixed so its largest-magnitude
 * coordinate is positive. O(n² · dims · iterations); n ≤ 1,000 in practice.
 */
export function classicalMds(distances: Float64Array, n: number, dims = 2): MdsResult {
  if (distances.length !== n * n) throw new RangeError(`distance matrix has ${distances.length} cells for ${n} points`);
  const k = Math.min(dims, n);
  const B = new Float64Array(n * n);
  const rowMean = new Float64Array(n);
  let all = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = distances[i * n + j]!;
      const d2 = d * d;
      B[i * n + j] = d2;
      rowMean[i]! += d2;
    }
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
  orthonormalize(Q, n, b);
  let Z: Float64Array = new Float64Array(n * b);
  let ritz: { values: number[]; Q: Float64Array } = { values: [], Q };
  let previous: number[] = [];
  for (let it = 1; it <= 2000; it++) {
    multiply(B, Q, Z, n, b);
    if (it % 5 === 0 || it === 2000) {
      ritz = rayleighRitz(Q, Z, n, b);
      const top = ritz.values.slice(0, k);
      const scale = Math.max(1e-300, ...top.map(Math.abs));
      const settled = previous.length === k && top.every((v, i) => Math.abs(v - previous[i]!) <= 1e-13 * scale);
      previous = top;
      Q = ritz.Q;
      if (settled) break;
      multiply(B, Q, Z, n, b);
    }
    orthonormalize(Z, n, b);
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

/** Z = B Q for n × n B and n × k Q. */
function multiply(B: Float64Array, Q: Float64Array, Z: Float64Array, n: number, k: number): void {
  Z.fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const b = B[i * n + j]!;
      if (b === 0) continue;
      for (let c = 0; c < k; c++) Z[i * k + c]! += b * Q[j * k + c]!;
    }
  }
}

/** Modified Gram–Schmidt on the k columns of an n × k matrix. */
function orthonormalize(Q: Float64Array, n: number, k: number): void {
  for (let c = 0; c < k; c++) {
    for (let p = 0; p < c; p++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += Q[i * k + c]! * Q[i * k + p]!;
      for (let i = 0; i < n; i++) Q[i * k + c]! -= dot * Q[i * k + p]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += Q[i * k + c]! ** 2;
    norm = Math.sqrt(norm);
    if (norm < 1e-300) {
      for (let i = 0; i < n; i++) Q[i * k + c] = i === c ? 1 : 0;
      continue;
    }
    for (let i = 0; i < n; i++) Q[i * k + c]! /= norm;
  }
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a small symmetric matrix, cyclic Jacobi. */
export function jacobiEigen(matrix: Float64Array, k: number): { values: number[]; vectors: Float64Array } {
  const A = matrix.slice();
  const V = new Float64Array(k * k);
  for (let i = 0; i < k; i++) V[i * k + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += A[p * k + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = A[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (A[q * k + q]! - A[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = A[r * k + p]!,
            arq = A[r * k + q]!;
          A[r * k + p] = c * arp - s * arq;
          A[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = A[p * k + r]!,
            aqr = A[q * k + r]!;
          A[p * k + r] = c * apr - s * aqr;
          A[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = V[r * k + p]!,
            vrq = V[r * k + q]!;
          V[r * k + p] = c * vrp - s * vrq;
          V[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  return { values: Array.from({ length: k }, (_, i) => A[i * k + i]!), vectors: V };
}

export interface KMeansResult {
  /** Cluster of each point. */
  labels: Int32Array;
  /** Cluster-major k × dims centroids. */
  centroids: Float64Array;
  iterations: number;
}

/**
 * k-means (Lloyd) with k-means++ seeding from `seededRandom(seed)`: the same input gives the same
 * clusters on every machine. Needs at least k points. A cluster that empties keeps its centroid.
 */
export function kMeans(points: Float64Array, n: number, dims: number, k = 3, seed = PROJECTION_SEED): KMeansResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (n < k) throw new RangeError(`k-means needs at least k = ${k} points, got ${n}`);
  const rand = seededRandom(seed);
  const dist2 = (i: number, c: Float64Array, j: number) => {
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const t = points[i * dims + d]! - c[j * dims + d]!;
      s += t * t;
    }
    return s;
  };
  const centroids = new Float64Array(k * dims);
  const first = Math.min(n - 1, Math.floor(rand() * n));
  centroids.set(points.subarray(first * dims, first * dims + dims), 0);
  const nearest = new Float64Array(n).fill(Infinity);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      nearest[i] = Math.min(nearest[i]!, dist2(i, centroids, c - 1));
      total += nearest[i]!;
    }
    let pick = n - 1;
    if (total > 0) {
      let target = rand() * total;
      for (let i = 0; i < n; i++) {
        target -= nearest[i]!;
        if (target < 0) {
          pick = i;
          break;
        }
      }
    } else {
      pick = c; // every point coincides with a centroid: any distinct index will do
    }
    centroids.set(points.subarray(pick * dims, pick * dims + dims), c * dims);
  }
  const labels = new Int32Array(n).fill(-1);
  let iterations = 0;
  for (; iterations < 300; iterations++) {
    let changed = false;
    for (let i = 0; i < n; i++) {
      let best = 0,
        bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = dist2(i, centroids, c);
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      if (labels[i] !== best) {
        labels[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
    const sums = new Float64Array(k * dims),
      counts = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const c = labels[i]!;
      counts[c]!++;
      for (let d = 0; d < dims; d++) sums[c * dims + d]! += points[i * dims + d]!;
    }
    for (let c = 0; c < k; c++)
      if (counts[c]! > 0) for (let d = 0; d < dims; d++) centroids[c * dims + d] = sums[c * dims + d]! / counts[c]!;
  }
  return { labels, centroids, iterations };
}

export interface ProjectionOptions {
  /** `parameters` (CallFlow's features) or `structure` (distances between the runs' call trees). */
  input?: 'parameters' | 'structure';
  /** Number of clusters (default 3). */
  k?: number;
  /** Parameter keys for the `parameters` input (default all). */
  parameterKeys?: readonly string[];
}

export interface Projection {
  input: 'parameters' | 'structure';
  /** Run-major n × 2 coordinates. */
  coordinates: Float64Array;
  /** Cluster per run, or null when there are fewer runs than clusters (CallFlow computes none then). */
  clusters: Int32Array | null;
  /** Feature names of the `parameters` input. */
  features: string[];
}

/** The experimental parameter projection of an ensemble's runs. */
export function projectRuns(ensemble: Ensemble, options: ProjectionOptions = {}): Projection {
  const input = options.input ?? 'parameters';
  const k = options.k ?? 3;
  const R = ensemble.runCount;
  let distances: Float64Array;
  let features: string[] = [];
  if (input === 'parameters') {
    const f = runFeatures(ensemble, options.parameterKeys);
    distances = euclideanDistances(f.matrix, R, f.names.length);
    features = f.names;
  } else {
    distances = structureDistances(ensemble);
  }
  const { coordinates } = classicalMds(distances, R, 2);
  const clusters = R >= k ? kMeans(coordinates, R, 2, k).labels : null;
  return { input, coordinates, clusters, features };
}
