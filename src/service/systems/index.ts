/**
 * The systems of the analysis service, by name. A new system adds one line to each of
 * {@link SystemTypes} and {@link SYSTEMS}; the service, the worker pool and the worker need nothing else.
 */
import { bestFormat } from '../../analysis/formats/registry';
import type { FileSample } from '../../analysis/formats/reader';
import { sniffMemorySamples } from '../../analysis/formats/memory/memory-dataset';
import { sniffPdesRun } from '../../analysis/formats/ross/pdes-run-sniffer';
import type { AnalysisSystem, SystemShape } from './analysis-system';
import type { DataMovementShape } from './data-movement-system';
import type { MemoryShape } from './memory-system';
import type { TraceAnalysisShape } from './trace-analysis-system';
import type { PdesMonitorShape } from './pdes-monitor-system';
import type { PdesShape } from './pdes-system';

export interface SystemTypes {
  dataMovement: DataMovementShape;
  memory: MemoryShape;
  traceAnalysis: TraceAnalysisShape;
  pdesMonitor: PdesMonitorShape;
  pdes: PdesShape;
}

export type SystemName = keyof SystemTypes;

/**
 * A system as the registry lists it: its sniff (cheap, always loaded) and how to load its module. As
 * with the format registry, each `import()` is a lazy module init in the Node bundles (esbuild.mjs),
 * so a process initialises only the systems it uses (test/unit/lazy-modules.test.ts).
 */
export interface SystemEntry<T extends SystemShape> {
  /**
   * How sure the system is (0–1) that a file or folder is a dataset of its kind, for Open Profile…
   * and the CLI's detection by content; 0 = not its kind. Without it the system opens nothing by path.
   */
  sniff?(sample: FileSample): number;
  /** The system; the same object on every call (its module is loaded once). */
  load(): Promise<AnalysisSystem<T, never>>;
}

function system<T extends SystemShape>(
  load: () => Promise<AnalysisSystem<T, never>>,
  sniff?: (sample: FileSample) => number,
): SystemEntry<T> {
  return sniff ? { sniff, load } : { load };
}

export const SYSTEMS: { readonly [S in SystemName]: SystemEntry<SystemTypes[S]> } = {
  dataMovement: system(() => import('./data-movement-system').then(m => m.dataMovementSystem as never)),
  memory: system(() => import('./memory-system').then(m => m.memorySystem as never), sniffMemorySamples),
  traceAnalysis: system(() => import('./trace-analysis-system').then(m => m.traceAnalysisSystem as never)),
  pdesMonitor: system(() => import('./pdes-monitor-system').then(m => m.pdesMonitorSystem as never)),
  pdes: system(() => import('./pdes-system').then(m => m.pdesSystem as never), sniffPdesRun),
};

/** The system `name`, its module loaded on first use. */
export function loadSystem(name: SystemName): Promise<AnalysisSystem<SystemShape, unknown>> {
  return (SYSTEMS[name] as SystemEntry<SystemShape>).load() as Promise<AnalysisSystem<SystemShape, unknown>>;
}

export type SystemRequest<S extends SystemName> = SystemTypes[S]['request'];
export type SystemRequestKind<S extends SystemName> = SystemRequest<S>['kind'];
export type SystemResult<S extends SystemName, K extends SystemRequestKind<S>> = SystemTypes[S]['results'][K &
  keyof SystemTypes[S]['results']];
export type SystemOpenArgs<S extends SystemName> = SystemTypes[S]['open'];
export type SystemOpened<S extends SystemName> = SystemTypes[S]['opened'];
export type SystemEvent<S extends SystemName> = SystemTypes[S]['event'];

/** The system whose sniff is most confident that `sample` is its dataset, or null. */
export function systemForSample(sample: FileSample): SystemName | null {
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
