import { comparePaths } from '../formats/profile-folder';
import { squareFromCondensed } from '../series/distance-matrix';
import { pairwiseDistances } from '../series/distances';
import { kMeans } from '../series/k-means';
import { classicalMds } from '../series/mds';
import { seriesMatrix } from '../series/series-matrix';
import type { Ensemble } from './ensemble';

/**
 * Parameter projection (CallFlow §2.11, marked experimental): runs as points — min–max scaled run
 * parameters and runtimes, or distances between the runs' call-tree structures — projected to 2-D
 * with classical MDS and clustered with k-means (k = 3). Everything is deterministic: MDS by
 * orthogonal iteration from a fixed start, k-means++ seeded like CallFlow (`random_state = 20150101`),
 * best of 10 starts like scikit-learn's `KMeans` that CallFlow calls. MDS and k-means are the series
 * library's (src/analysis/series); they are re-exported here for the ensemble's callers.
 */

export { jacobiEigen } from '../series/linear-algebra';
export { kMeans } from '../series/k-means';
export type { KMeansResult } from '../series/k-means';
export { classicalMds } from '../series/mds';
export type { MdsResult } from '../series/mds';

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
  return squareFromCondensed(pairwiseDistances(seriesMatrix(matrix, n, d)), n);
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
  const clusters = R >= k ? kMeans(coordinates, R, 2, k, { seed: PROJECTION_SEED }).labels : null;
  return { input, coordinates, clusters, features };
}
