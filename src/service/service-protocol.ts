/**
 * The messages between the worker pool (host side) and one analysis worker. A request names a
 * method of the worker's LocalAnalysisService — a public AnalysisService method or one of the
 * pool's steps (read in a job worker, adopt in a home worker) — with its arguments; the worker
 * answers each with exactly one `done` or `error` of the same id, after any number of `progress`.
 */
import type { ServiceMethod } from './analysis-service';
import type { LocalAnalysisService } from './local-analysis-service';

/** The steps only the pool calls. */
export type PoolStep = 'readShared' | 'adopt' | 'openEnsembleAs' | 'openWindowAs' | 'openSystemAs';

/** Every method a worker answers. */
export type WorkerMethod = ServiceMethod | PoolStep;

/** The methods' argument and result types, as the worker's service declares them. */
export type WorkerArgs<M extends WorkerMethod> = Parameters<LocalAnalysisService[M]>[0];
export type WorkerResult<M extends WorkerMethod> = Awaited<ReturnType<LocalAnalysisService[M]>>;

export type WorkerRequest =
  | { [M in WorkerMethod]: { id: number; method: M; args: WorkerArgs<M> } }[WorkerMethod]
  /** Stops request `target` through its AbortSignal; it then answers with an AbortError. */
  | { id: number; method: '$cancel'; target: number };

export type WorkerResponse =
  | { id: number; type: 'progress'; fraction: number; message?: string }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; name: string; message: string }
  /** Pushed by a system dataset unasked (a live monitor's tick); `id` is 0. */
  | { id: 0; type: 'event'; dataset: number; event: unknown };

/** Whitelist of callable methods (a message naming anything else is refused). */
export const WORKER_METHODS: ReadonlySet<string> = new Set<WorkerMethod>([
  'warm',
  'open',
  'openSystem',
  'systemRequest',
  'openEnsemble',
  'openWindow',
  'close',
  'derive',
  'sideBar',
  'exportSummary',
  'diff',
  'mapPaths',
  'dataMovementSites',
  'superGraph',
  'superGraphQuery',
  'timeline',
  'ensembleView',
  'ensembleSpreads',
  'ensembleValues',
  'ensembleComparison',
  'readShared',
  'adopt',
  'openEnsembleAs',
  'openWindowAs',
  'openSystemAs',
]);

/** Data a worker is started with. */
export interface WorkerStartData {
  /** Bytes of super graphs each dataset keeps cached. */
  graphCacheBytes?: number;
}
