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
// Streaming and progressive methods (thesis ch. 6).
export { AFF_DEFAULTS, AffChangeDetector } from './aff-change-detector';
export type { AffOptions, AffStep } from './aff-change-detector';
export { IncrementalPca } from './incremental-pca';
export type { IncrementalPcaOptions } from './incremental-pca';
export { OnlinePc1Reducer } from './online-reduction';
export type { ReducedPoint } from './online-reduction';
export { hungarianAssignment, matchLabels } from './label-matching';
export { procrustes2d } from './procrustes';
export type { Procrustes2d } from './procrustes';
export { progressiveKMeans, shuffledStrata, stratifiedOrder } from './progressive-k-means';
export type { ProgressiveKMeansOptions, ProgressiveKMeansResult } from './progressive-k-means';
export { progressivePca } from './progressive-projection';
export type { ProgressiveProjection, ProgressiveProjectionOptions } from './progressive-projection';
export { progressiveCausality } from './progressive-causality';
export type {
  CausalityRow,
  CausalityState,
  ProgressiveCausalityOptions,
  ProgressiveCausalityResult,
} from './progressive-causality';
export {
  choleskyLower,
  fitVar,
  grangerTest,
  orthogonalImpulseResponses,
  selectVar,
  varianceDecomposition,
} from './var-model';
export type { VarFit } from './var-model';
export { steppingClock, systemClock, TimeBudget } from './time-budget';
export type { Clock } from './time-budget';
