/**
 * Live PDES monitoring (issue #20, thesis ch. 6): what the analysis service's monitor worker, the
 * live panel and `hpc-lens monitor` use.
 */
export { PdesMonitor, type PdesMonitorInit } from './pdes-monitor';
export {
  PdesStreamCache,
  communicationPair,
  type StreamCacheInit,
  type StreamTotals,
  type TickCommunication,
} from './stream-cache';
export {
  PdesStreamAnalyser,
  type PdesTickSummary,
  type PdesTickUpdate,
  type StreamCausality,
  type StreamChangePoint,
  type StreamClustering,
  type StreamProjection,
} from './stream-analyser';
export * from './stream-options';
export * from './stream-views';
export { readStreamLayout, type StreamLayout } from './stream-layout';
export { RenderCursor } from './render-cursor';
export { MonitorSession } from './monitor-session';
export type { FromMonitor, MonitorQuery, MonitorSource, ToMonitor } from './monitor-protocol';
