import type { ProfileData } from '../../analysis/model/profile';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../../analysis/graph/super-graph-queries';
import type { SankeyData } from '../../shared/protocol';
import type { DerivedData, DeriveOptions, SideBarLists } from './derived-data';
import type { TimelineResults, TimelineWorkerRequest } from './timeline-requests';

/**
 * Messages between the extension host and the persistent analysis worker (dist/parse-worker.js).
 * Every request carries an id; the worker answers each with exactly one `done` or `error` of the
 * same id (after any number of `progress` messages). `dataset` ids name profiles the worker holds.
 */
export type WorkerRequest =
  | { id: number; type: 'parse'; path: string }
  /** Stops request `target` (a parse) through its AbortSignal; `target` then answers with an AbortError. */
  | { id: number; type: 'cancel'; target: number }
  | { id: number; type: 'derive'; dataset: number; metric: number; options: DeriveOptions }
  | { id: number; type: 'sideBar'; dataset: number; metric: number; options: DeriveOptions }
  /** The Sankey's level-of-detail data (superGraphData) with the panel's options (metric, splits, filter, …). */
  | { id: number; type: 'sankey'; dataset: number; title: string; options: SuperGraphDataOptions }
  /** A question about the super graph the Sankey shows (node membership, one node's values per metric). */
  | { id: number; type: 'superGraphQuery'; dataset: number; query: SuperGraphQuery }
  | { id: number; type: 'release'; dataset: number }
  /** Holds a profile the host already has (its columns in SharedArrayBuffers), after a worker restart. */
  | { id: number; type: 'adopt'; data: ProfileData }
  /** Compiles and runs the hot code paths on tiny embedded profiles, then saves the code cache. */
  | { id: number; type: 'warm' }
  /** A timeline request about a held trace (timeline-requests.ts). */
  | { id: number; type: 'timeline'; dataset: number; request: TimelineWorkerRequest };

export interface ParseResult {
  dataset: number;
  data: ProfileData;
  /** The call tree's child index, built by the worker in shared memory (CallTree.adoptChildIndex). */
  childIndex?: { start: Int32Array; list: Int32Array };
}

/** What each request type answers with. */
export interface WorkerResults {
  parse: ParseResult;
  cancel: null;
  derive: DerivedData;
  sideBar: SideBarLists;
  sankey: SankeyData;
  superGraphQuery: SuperGraphQueryResults[SuperGraphQuery['kind']];
  release: null;
  adopt: { dataset: number };
  warm: { ms: number; codeCache: 'accepted' | 'rejected' | 'created' | 'none' };
  timeline: TimelineResults[TimelineWorkerRequest['kind']];
}

export type WorkerResponse =
  | { id: number; type: 'progress'; fraction: number; message?: string }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; name: string; message: string };
