/**
 * DMV — data movement between hosts and GPUs over time and hardware (thesis ch. 7): categories,
 * the 12-sector clock, metric tracks, the communication matrix, the hardware and application views,
 * event grouping, trace ensembles and anti-pattern flags. Pure functions over a {@link DmvIndex}.
 */
export {
  CATEGORY_COLOURS,
  CATEGORY_KEYS,
  CATEGORY_LABELS,
  CLASS_COUNT,
  classValues,
  compileCategoryRules,
  defaultCategory,
  DMV_CLASSES,
  DmvCategory,
  eventCategories,
} from './categories';
export type { CategoryRule, ClassValues, CompiledRules, DmvCategoryKey, DmvClass } from './categories';
export { CopyClass, deviceIdsOf, DmvIndex, dmvDeviceName, HOST, UNKNOWN_DEVICE } from './dmv-index';
export type { DmvIndexOptions } from './dmv-index';
export { LaneUnionBuilder, LaneUnions } from './interval-union';
export {
  binSummaries,
  CLOCK_SECTORS,
  clockLabels,
  dmvClock,
  PLAY_STEP_MS,
  playWindow,
  sectorOf,
  sectorWindow,
  summariseWindow,
  windowArc,
} from './clock';
export type { BinSource, BinSummary, ClockOptions, DirectionBytes, DmvClock } from './clock';
export { communicationMatrix, matrixCellCopies, matrixCellSites, subsetOf } from './matrix';
export type { CommunicationMatrix, MatrixCell, MatrixOptions } from './matrix';
export {
  counterTracks,
  memoryTracks,
  metricPeak,
  metricVariance,
  metricWindowSeries,
  nvidiaSmiTracks,
  orderByVariance,
  stepMeans,
  traceMetricTracks,
  utilisationGlyph,
  utilisationTracks,
} from './metrics';
export type { MetricTrack, UtilisationGlyph } from './metrics';
export { hardwareView, traceHostGpuTopology } from './hardware';
export type { HardwareView } from './hardware';
export { applicationView } from './application-view';
export type { AppEventBar, AppNode, AppTrackBar, ApplicationView, ApplicationViewOptions } from './application-view';
export { expandGroup, MAX_VISIBLE_EVENTS, visibleEvents } from './grouping';
export type { EventGroup, VisibleEvents, VisibleEventsOptions, VisibleItem } from './grouping';
export { clockGrid, digestRun, digestRuns } from './trace-ensemble';
export type { ClockGrid, ClockGridOptions, DmvRunDigest, GridRun } from './trace-ensemble';
export { dataMovementFlags, FLAG_KINDS } from './flags';
export type { DmvFlag, FlagKind, FlagOptions } from './flags';
export { dataMovementReport } from './report';
export type { DataMovementReport } from './report';
