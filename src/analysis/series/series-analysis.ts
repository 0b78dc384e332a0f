import { throwIfAborted } from '../model/cancellation';
import { clusterSizes } from './cluster-labels';
import { condensedLength } from './distance-matrix';
import { pairwiseDistances, type DistanceMeasure } from './distances';
import { completeLinkageClusters, type Dendrogram } from './hierarchical';
import { kMeans } from './k-means';
import { pam } from './k-medoids';
import { classicalMds } from './mds';
import type { SeriesMatrix } from './series-matrix';
import { tsne } from './tsne';

/**
 * The offline pipeline's clustering and projection steps (thesis §5.3.2–5.3.3) behind one call
 * each, with the seed's defaults: k = 3, Euclidean distance, and one distance matrix shared by the
 * clustering and the projection. Features come from featureSeries (preprocess.ts).
 */

export type ClusteringAlgorithm = 'k-means' | 'pam' | 'complete-linkage';
export type ProjectionMethod = 'mds' | 'tsne';

export interface SeriesClusteringOptions {
  /** Default `pam` (the seed's figures use PAM with Euclidean distance). */
  algorithm?: ClusteringAlgorithm;
  /** Default 3, as in every case study. */
  k?: number;
  /** Default `euclidean`; k-means accepts only Euclidean. */
  measure?: DistanceMeasure;
  /** DTW / TWED band half-width in samples (DTW default 10% of the length). */
  window?: number;
  /** TWED stiffness ν (default 0.001) and deletion penalty λ (default 1). */
  nu?: number;
  lambda?: number;
  /** k-means starts (default 10) and PRNG seed. */
  restarts?: number;
  seed?: number;
  /** A condensed distance matrix already computed for these features and this measure. */
  distances?: Float64Array;
  signal?: AbortSignal;
}

export interface SeriesClustering {
  algorithm: ClusteringAlgorithm;
  measure: DistanceMeasure;
  k: number;
  /** Canonical cluster per entity (cluster 0 holds entity 0). */
  labels: Int32Array;
  /** Members per cluster, in label order. */
  sizes: Int32Array;
  /** The condensed distances used (null for k-means, which works on the features). */
  distances: Float64Array | null;
  /** PAM: each cluster's medoid entity. */
  medoids?: Int32Array;
  /** k-means: cluster-major k × timePoints centroid series. */
  centroids?: Float64Array;
  /** Complete linkage: the whole dendrogram. */
  dendrogram?: Dendrogram;
}

/** Clusters the entities' feature series with the chosen algorithm and distance. */
export function clusterSeries(features: SeriesMatrix, options: SeriesClusteringOptions = {}): SeriesClustering {
  const algorithm = options.algorithm ?? 'pam';
  const measure = options.measure ?? 'euclidean';
  const k = options.k ?? 3;
  const n = features.entities;
  const signal = options.signal ? { signal: options.signal } : {};
  if (algorithm === 'k-means') {
    if (measure !== 'euclidean')
      throw new RangeError(`k-means works with Euclidean distance only; use PAM or complete linkage for ${measure}`);
    const r = kMeans(features.values, n, features.timePoints, k, {
      ...signal,
      ...(options.restarts !== undefined ? { restarts: options.restarts } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    });
    return {
      algorithm,
      measure,
      k,
      labels: r.labels,
      sizes: clusterSizes(r.labels, k),
      distances: null,
      centroids: r.centroids,
    };
  }
  const distances = options.distances ?? seriesDistances(features, options);
  if (distances.length !== condensedLength(n))
    throw new RangeError(
      `the given distances have ${distances.length} cells; ${n} entities need ${condensedLength(n)} (condensed)`,
    );
  throwIfAborted(options.signal);
  if (algorithm === 'pam') {
    const r = pam(distances, n, k, signal);
    return { algorithm, measure, k, labels: r.labels, sizes: clusterSizes(r.labels, k), distances, medoids: r.medoids };
  }
  if (algorithm === 'complete-linkage') {
    const r = completeLinkageClusters(distances, n, k, signal);
    return {
      algorithm,
      measure,
      k,
      labels: r.labels,
      sizes: clusterSizes(r.labels, k),
      distances,
      dendrogram: r.dendrogram,
    };
  }
  throw new RangeError(`unknown clustering algorithm ${String(algorithm)} (expected k-means, pam or complete-linkage)`);
}

/** The condensed distance matrix of the features under the options' measure. */
export function seriesDistances(features: SeriesMatrix, options: SeriesClusteringOptions = {}): Float64Array {
  return pairwiseDistances(features, {
    measure: options.measure ?? 'euclidean',
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.nu !== undefined ? { nu: options.nu } : {}),
    ...(options.lambda !== undefined ? { lambda: options.lambda } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export interface SeriesProjectionOptions {
  /** Default `mds`. */
  method?: ProjectionMethod;
  /** t-SNE perplexity (default 30), θ (default 0.5), iterations (default 1,000) and seed. */
  perplexity?: number;
  theta?: number;
  iterations?: number;
  seed?: number;
  signal?: AbortSignal;
}

/** 2-D coordinates (point-major n × 2) of the entities from their distance matrix. */
export function projectDistances(
  distances: Float64Array,
  n: number,
  options: SeriesProjectionOptions = {},
): Float64Array {
  const method = options.method ?? 'mds';
  const signal = options.signal ? { signal: options.signal } : {};
  if (method === 'mds') return classicalMds(distances, n, 2, signal).coordinates;
  if (method === 'tsne')
    return tsne(distances, n, {
      ...signal,
      ...(options.perplexity !== undefined ? { perplexity: options.perplexity } : {}),
      ...(options.theta !== undefined ? { theta: options.theta } : {}),
      ...(options.iterations !== undefined ? { iterations: options.iterations } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    }).coordinates;
  throw new RangeError(`unknown projection method ${String(method)} (expected mds or tsne)`);
}
