// Multivariate time-series algorithms on typed arrays (thesis ch. 5): preprocessing, distances,
// clustering, projection to 2-D and change points. Pure TypeScript; used by the PDES views and
// meant for the streaming, memory and ensemble views.
export { assertFinite, seriesMatrix, seriesRow } from './series-matrix';
export type { SeriesMatrix } from './series-matrix';
export { concatenateMetrics, featureSeries, scaleMinMax, zNormalise } from './preprocess';
export type { SeriesNormalisation } from './preprocess';
export { asCondensed, condensedIndex, condensedLength, distanceAt, squareFromCondensed } from './distance-matrix';
export {
  balancedRowRanges,
  defaultDtwWindow,
  dtwDistance,
  euclideanDistance,
  pairwiseDistances,
  pairwiseDistancesAsync,
  pairwiseDistanceSteps,
  twedDistance,
  TWED_DEFAULTS,
} from './distances';
export type { DistanceMeasure, PairwiseDistanceOptions, TwedOptions } from './distances';
export { adjustedRandIndex, canonicalLabels, clusterSizes } from './cluster-labels';
export { kMeans, SERIES_SEED } from './k-means';
export type { KMeansOptions, KMeansResult } from './k-means';
export { pam } from './k-medoids';
export type { PamOptions, PamResult } from './k-medoids';
export { completeLinkage, completeLinkageClusters, cutDendrogram } from './hierarchical';
export type { Dendrogram } from './hierarchical';
export { classicalMds } from './mds';
export type { MdsResult } from './mds';
export { jacobiEigen } from './linear-algebra';
export { conditionalAffinities, tsne, tsneAffinities, tsneAsync, tsneSteps, usablePerplexity } from './tsne';
export type { TsneAffinities, TsneOptions, TsneResult } from './tsne';
export {
  defaultMinSegmentSize,
  eDivisive,
  eDivisiveAsync,
  eDivisiveFromDistances,
  eDivisiveSteps,
  timePointDistances,
} from './e-divisive';
export type { ChangePoint, EDivisiveOptions, EDivisiveResult, SeriesSegment } from './e-divisive';
export { segmentBounds, segmentMatrixMeans, segmentMeans } from './segment-means';
export { clusterSeries, projectDistances, seriesDistances } from './series-analysis';
export type {
  ClusteringAlgorithm,
  ProjectionMethod,
  SeriesProjectionOptions,
  SeriesClustering,
  SeriesClusteringOptions,
} from './series-analysis';
export { runSliced, runToEnd } from './sliced';
