/**
 * The systems of the analysis service, by name. A new system adds one line to each of
 * {@link SystemTypes} and {@link SYSTEMS}; the service, the worker pool and the worker need nothing else.
 */
import { bestFormat } from '../../analysis/formats/registry';
import type { FileSample } from '../../analysis/formats/reader';
import type { AnalysisSystem, SystemShape } from './analysis-system';
import { dataMovementSystem, type DataMovementShape } from './data-movement-system';
import { memorySystem, type MemoryShape } from './memory-system';
import { traceAnalysisSystem, type TraceAnalysisShape } from './trace-analysis-system';
import { pdesMonitorSystem, type PdesMonitorShape } from './pdes-monitor-system';
import { pdesSystem, type PdesShape } from './pdes-system';

export interface SystemTypes {
  dataMovement: DataMovementShape;
  memory: MemoryShape;
  traceAnalysis: TraceAnalysisShape;
  pdesMonitor: PdesMonitorShape;
  pdes: PdesShape;
}

export type SystemName = keyof SystemTypes;

export const SYSTEMS: { readonly [S in SystemName]: AnalysisSystem<SystemTypes[S], never> } = {
  dataMovement: dataMovementSystem as AnalysisSystem<DataMovementShape, never>,
  memory: memorySystem as AnalysisSystem<MemoryShape, never>,
  traceAnalysis: traceAnalysisSystem as AnalysisSystem<TraceAnalysisShape, never>,
  pdesMonitor: pdesMonitorSystem as AnalysisSystem<PdesMonitorShape, never>,
  pdes: pdesSystem as AnalysisSystem<PdesShape, never>,
};

export type SystemRequest<S extends SystemName> = SystemTypes[S]['request'];
export type SystemRequestKind<S extends SystemName> = SystemRequest<S>['kind'];
export type SystemResult<S extends SystemName, K extends SystemRequestKind<S>> = SystemTypes[S]['results'][K &
  keyof SystemTypes[S]['results']];
export type SystemOpenArgs<S extends SystemName> = SystemTypes[S]['open'];
export type SystemOpened<S extends SystemName> = SystemTypes[S]['opened'];
export type SystemEvent<S extends SystemName> = SystemTypes[S]['event'];

/** The system whose sniff is most confident that `sample` is its dataset, or null. */
export function systemForSample(
  sample: Parameters<NonNullable<AnalysisSystem<SystemShape>['sniff']>>[0],
): SystemName | null {
  let best: SystemName | null = null;
  let bestScore = 0;
  for (const name of Object.keys(SYSTEMS) as SystemName[]) {
    const score = SYSTEMS[name].sniff?.(sample) ?? 0;
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The system that claims `sample` by content ahead of every profile reader, or null: what Open
 * Profile… opens as a system's dataset, and what `hpc-lens inspect` reports the same way.
 */
export function systemClaiming(sample: FileSample): SystemName | null {
  const system = systemForSample(sample);
  if (!system) return null;
  return SYSTEMS[system].sniff!(sample) > (bestFormat(sample)?.score ?? 0) ? system : null;
}
