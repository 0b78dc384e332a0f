/**
 * PDES (ROSS / CODES) analysis: what the analysis service, the CLI and the PDES views use. Readers
 * live in `formats/ross/` (re-exported here), the dragonfly topology in `topology/dragonfly.ts`.
 */
export { readPdesRun, sniffPdesRun, discoverRunFiles, type PdesReadOptions } from '../formats/ross/pdes-run-reader';
export {
  RossStatsDecoder,
  RossEventTraceDecoder,
  RossRecordError,
  type EngineRecord,
  type ModelRecord,
  type StatsRecordSink,
  type TracedEvent,
  type TrailingBytes,
} from '../formats/ross/record-decoder';
export { EngineSampleIngest } from '../formats/ross/sample-ingest';
export { ModelSampleCollector } from '../formats/ross/codes-model-samples';
export * from './model/aggregate';
export * from './analysis-options';
export { pdesBehaviour, PdesBehaviour, sliceTicks, type BehaviourResult } from './behaviour';
export * from './model/communication';
export * from './dragonfly-view';
export { PdesEntities } from './model/entities';
export { EventTrace, type EventColumns, type EventTimeAxis } from './model/event-trace';
export * from './handlers';
export * from './lp-types';
export * from './model/metrics';
export * from './model/network';
export * from './pdes-analysis';
export * from './pdes-report';
export * from './model/pdes-run';
export * from './model/placement';
export type * from './model/run-config';
export * from './model/sample-set';
export * from './segments';
export * from './selection';
export * from './view-data';
export * from './stream';
