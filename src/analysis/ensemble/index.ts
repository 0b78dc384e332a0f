/**
 * Ensembles of runs (CallFlow §1.8–1.9, §2.8–2.11): loading, the union calling-context tree with
 * per-run vectors, statistics over runs, the ensemble call graph, run diffs, target statistics,
 * ordered ensembles and the experimental parameter projection. Pure TypeScript, no `vscode`.
 */
export { describeRun, loadEnsemble, rankCount } from './ensemble-runs';
export type {
  EnsembleRun,
  LoadEnsembleOptions,
  LoadedRuns,
  ParameterValue,
  RunLoadError,
  RunProfile,
} from './ensemble-runs';
export { buildEnsemble, Ensemble, MISSING } from './ensemble';
export type { BuildEnsembleOptions, EnsembleMetric, Side, SkippedRun } from './ensemble';
export { frameKey } from '../model/frame-keys';
export {
  binOf,
  computeNodeStatistics,
  DEFAULT_BINS,
  freedmanDiaconisBins,
  histogramCountScale,
  matrixStatistics,
  runHistogram,
  runHistogramCounts,
  summarizeNode,
  valueBox,
} from './node-statistics';
export type { BinRule, NodeStatistics, NodeSummary, RunHistogram, SummaryOptions, ValueBox } from './node-statistics';
export { ensembleCallGraph, functionSpreads } from './ensemble-functions';
export type { EnsembleCallGraph, FunctionSpread } from './ensemble-functions';
export {
  aggregateDiff,
  DiffPresence,
  diffRuns,
  fastestRun,
  modulesOfNodes,
  rankDiff,
  slowestRun,
  symmetricDomain,
  targetStatistics,
} from './run-comparison';
export type { GroupDiff, RankDiff, RunDiff, TargetStatistics } from './run-comparison';
export { levelSeries, orderingKeys, orderRuns, orderScore, outOfOrderNodes, runParameter } from './ordered-ensemble';
export type { OrderScore, OutOfOrderNode, ParameterKey, RunOrder } from './ordered-ensemble';
export {
  classicalMds,
  euclideanDistances,
  kMeans,
  projectRuns,
  PROJECTION_SEED,
  runFeatures,
  structureDistances,
} from './projection';
export type { KMeansResult, MdsResult, Projection, ProjectionOptions, RunFeatures } from './projection';
export { ensembleGraph, selectRuns, SupernodePresence, supernodeRunValues } from './ensemble-graph';
export type { EnsembleGraphRequest, EnsembleGraphResult, SupernodeRunValues } from './ensemble-graph';
export { PROJECTION_CLUSTERS, projectionData } from './projection-data';
export { ensembleDetail } from './ensemble-detail';
export { MAX_HIERARCHY_NODES, supernodeHierarchy } from './supernode-hierarchy';
export type { HierarchyOptions } from './supernode-hierarchy';
export { callSiteBoxes, componentPath, MAX_CALL_SITE_BOXES, rankValues } from './call-site-boxes';
export type { CallSiteBoxOptions, CallSiteRanks, RankValues } from './call-site-boxes';
export { MAX_CORRELATION_POINTS, metricCorrelation } from './metric-correlation';
export { distributionHistogram, runtimeDistribution } from './runtime-distribution';
export { callSiteRunValues, supernodeCallSites, supernodeScope, supernodeValuesOverRuns } from './supernode-scope';
export type { CallSiteRunValues, CallSites, SupernodeScope } from './supernode-scope';
