/**
 * Memory-access samples on the source, on data objects and on the machine (MemAxes, seed 002):
 * the sample model, joining samples to a machine topology, selections, per-depth scores, top
 * offenders, editor costs, histograms, metric strips and clustering. Pure TypeScript, no
 * `vscode`. Readers are in `../formats/memory/` (samples) and `../formats/machine/` (topologies).
 */
export {
  decodePerfDataSource,
  encodePerfDataSource,
  LEVEL_L1,
  LEVEL_L2,
  LEVEL_L3,
  LEVEL_NAMES,
  LEVEL_RAM,
  LEVEL_UNRESOLVED,
  pebsLevel,
  pebsRemote,
} from './model/data-source';
export type { LevelName, MemoryLevel, PerfDataSource } from './model/data-source';
export { findAttribute, totalCycles, UNKNOWN_SOURCE } from './model/memory-samples';
export type {
  CategoryColumn,
  MemorySampleDialect,
  MemorySampleFormat,
  MemorySamples,
  SampleAttribute,
} from './model/memory-samples';
export {
  ALL_SAMPLES,
  allIndices,
  clearSelection,
  differenceOf,
  focusOf,
  hideSelected,
  hideUnselected,
  indicesWhere,
  intersectionOf,
  select,
  showAll,
  toIndexSet,
  unionOf,
} from './index-set';
export type { IndexSet, SampleScope, SelectionMode } from './index-set';
export { prepareMemoryAnalysis, samplesAtNode, topologyAttribution, topologyLoad } from './memory-analysis';
export type { MemoryAnalysis, SampleRoute, TopologyLoad } from './memory-analysis';
export { scoreResources } from './resource-scores';
export type { ResourceScores, ScoreName } from './resource-scores';
export { DepthCounter, depthScores, metricLabel, metricOf } from './depth-scores';
export type { DepthScores, MemoryMetric } from './depth-scores';
export {
  formatCycles,
  isKnownLine,
  lineAnnotation,
  lineCosts,
  rankOffenders,
  topOffenders,
  variableCosts,
} from './source-costs';
export type { LineCost, MemoryCost, TopOffenderLimits, TopOffenders, VariableCost } from './source-costs';
export {
  attributeHistogram,
  attributeHistograms,
  HISTOGRAM_BINS,
  samplesInRanges,
  withSelection,
} from './attribute-histograms';
export type { AttributeHistogram, AttributeRange } from './attribute-histograms';
export { attributeRange, metricStrip } from './metric-strip';
export type { MetricStrip, StripWindow } from './metric-strip';
export {
  clusterAlongAttribute,
  clusterBoundaries,
  clusterSamples,
  clustersAtDepth,
  cutClusters,
  DEFAULT_CLUSTER_STRIDE,
  DEFAULT_CLUSTER_WINDOW,
} from './metric-clustering';
export type { ClusterNode, ClusterOptions, ClusterTree } from './metric-clustering';
export { MemoryView } from './memory-view';
export type { MemoryViewModel } from './memory-view';
export { memorySummary } from './memory-summary';
export type { MemorySummary } from './memory-summary';
