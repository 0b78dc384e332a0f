/**
 * The analysis service: the one typed interface through which the editor (and the CLI) ask for
 * everything heavy — reading files, deriving overlays, super graphs, timelines, ensembles, diffs.
 *
 * Two implementations share this interface and the same analysis code:
 * - {@link WorkerPool} (worker-pool.ts): the extension's. Reads run in disposable job workers (a
 *   cancelled, crashed or runaway read touches nothing else), and each dataset lives in one of a
 *   small pool of home workers that answer its queries; the host thread only posts messages.
 * - {@link LocalAnalysisService} (local-analysis-service.ts): the same methods on the calling
 *   thread, for the CLI and unit tests — and, inside every worker, what the pool's messages call.
 *
 * Datasets are referred to by handle. A profile-shaped dataset's model is shared, not copied: its
 * typed arrays live in SharedArrayBuffers, so the host builds a Profile over the same memory and
 * answers hovers synchronously while the worker keeps the model for the next request.
 *
 * Rule for implementations: a result never holds a non-shared ArrayBuffer the implementation keeps
 * using — results cross threads by transfer, which detaches those buffers on the sending side.
 */
import type { RunLoadError } from '../analysis/ensemble/ensemble-runs';
import type { FunctionSpread } from '../analysis/ensemble/ensemble-functions';
import type { ModuleRule } from '../analysis/graph/module-map';
import type { SuperGraphDataOptions } from '../analysis/graph/super-graph-data';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../analysis/graph/super-graph-queries';
import type { ProfileData } from '../analysis/model/profile';
import type { DataMovementSites } from '../analysis/stats/data-movement-sites';
import type { EnsembleOptions, EnsembleRequest } from '../shared/ensemble-protocol';
import type { PackedCallflowData } from '../shared/callflow-packing';
import type { TimelineWindow } from '../shared/timeline-protocol';
import type { DerivedData, DeriveOptions, SideBarLists } from './derived-data';
import type { DiffListOptions, DiffSummary } from './diff-summary';
import type { EnsembleViewAnswer } from './ensemble-session';
import type { ReadLimits } from './read-limits';
import type { PruneOptions } from '../analysis/ensemble/summary-store';

/** How long and how large the summary cache may grow (`hpcLens.ensemble.summaryCache.*`). */
export type SummaryCacheLimits = Pick<PruneOptions, 'maxAgeDays' | 'maxBytes'>;

/** What {@link AnalysisService.openEnsemble} reads. */
export interface OpenEnsembleArgs {
  paths: string[];
  metric?: string;
  limits?: ReadLimits;
  summaryCache?: string;
  summaryCacheLimits?: SummaryCacheLimits;
}
import type {
  SystemName,
  SystemOpenArgs,
  SystemOpened,
  SystemRequest,
  SystemRequestKind,
  SystemResult,
} from './systems';
import type { TimelineResults, TimelineWorkerRequest } from './timeline-requests';

/** A dataset held by the service. Handles are never reused within one service. */
export type DatasetHandle = number;

/** What every call may carry: cancellation and progress. */
export interface CallContext {
  signal?: AbortSignal;
  /** Progress in [0, 1] with an optional phase message. */
  onProgress?: (fraction: number, message?: string) => void;
}

/** A profile-shaped dataset (a profile, a trace, a window of a trace, an ensemble's union). */
export interface OpenedProfile {
  dataset: DatasetHandle;
  /** The model, its typed arrays in shared memory. */
  data: ProfileData;
  /** The call tree's child index, built where the model was made (CallTree.adoptChildIndex). */
  childIndex?: { start: Int32Array; list: Int32Array };
}

/** A dataset a system opened (a PDES run, memory samples): what the system tells the editor, and its editor profile. */
export interface OpenedSystemDataset<S extends SystemName = SystemName> extends OpenedProfile {
  system: S;
  opened: SystemOpened<S>;
}

/** What Open Profile… gives: a profile or trace, or — when a system claims the file by content — a system's dataset. */
export type OpenedDataset =
  (OpenedProfile & { system?: undefined }) | { [S in SystemName]: OpenedSystemDataset<S> }[SystemName];

/** A dataset opened by openSystem (a live monitor): it may have no editor profile. */
export interface OpenedSystem<S extends SystemName = SystemName> {
  dataset: DatasetHandle;
  system: S;
  opened: SystemOpened<S>;
  profile?: Omit<OpenedProfile, 'dataset'>;
}

/** A run of an ensemble as the editor lists it (no raw metadata: that stays in the worker). */
export interface EnsembleRunSummary {
  name: string;
  path: string;
  format: string;
  ranks: number;
  parameters: Record<string, string | number>;
}

/** An ensemble: the union calling-context tree as a profile whose contexts are the runs, plus its runs. */
export interface OpenedEnsemble extends OpenedProfile {
  runs: EnsembleRunSummary[];
  /** Files that could not be read (the others loaded). */
  errors: RunLoadError[];
  /** Runs read but left out (e.g. no metric in common), with the reason. */
  skipped: { name: string; reason: string }[];
  /** How many runs were read from run summaries and how many profiles were parsed. */
  sources: { summaries: number; profiles: number };
}

/** What the Ensemble CallFlow panel compares, as the editor's CodeLens and hovers use it (CallFlow §4.8). */
export interface EnsembleComparison {
  mode: 'summary' | 'target' | 'diff';
  target: number | null;
  diff: { baseline: number; compare: number } | null;
}

/** Per function: its inclusive value in the runs a comparison needs (NaN = missing there). */
export interface EnsembleComparisonValues {
  /** Function names, in the order of the arrays below. */
  names: string[];
  /** Mode `diff`: values in the baseline and compare runs. Mode `target`: the target's value and its percentile among the runs that have the function. */
  first: Float64Array;
  second: Float64Array;
  /** Runs that have the function (the percentile's population). */
  present: Int32Array;
}

export interface WarmReport {
  ms: number;
  codeCache: 'accepted' | 'rejected' | 'created' | 'none';
}

/** The service's calls (what crosses to a worker as a message). */
export interface AnalysisRpc {
  /** Compiles the hot paths (readers, derivations, graphs) on tiny inputs so the user's first open runs warm code. */
  warm(args: Record<string, never>, ctx?: CallContext): Promise<WarmReport>;

  /** Reads a profile or trace, or a system's dataset (a PDES run, memory samples): which one is told by its content. */
  open(args: { path: string; limits?: ReadLimits }, ctx?: CallContext): Promise<OpenedDataset>;
  /** Opens a dataset of a system from arguments rather than a path (a live monitor of a running simulation). */
  openSystem<S extends SystemName>(
    args: { system: S; args: SystemOpenArgs<S> },
    ctx?: CallContext,
  ): Promise<OpenedSystem<S>>;
  /** A request of a system's panel about a dataset: one the system opened, or a profile dataset it analyses. */
  systemRequest<S extends SystemName, K extends SystemRequestKind<S>>(
    args: { dataset: DatasetHandle; system: S; request: Extract<SystemRequest<S>, { kind: K }> },
    ctx?: CallContext,
  ): Promise<SystemResult<S, K>>;
  /**
   * Reads every run of the given folders and files as an ensemble and builds their union. A run
   * with a current summary (`.hlsum` in the folders, beside the profile, or in `summaryCache`) is
   * read from it; a profile read in full has its summary written to `summaryCache` for next time.
   * With `summaryCacheLimits`, the cache is then pruned to them (at most hourly; see pruneSummaryCache).
   */
  openEnsemble(args: OpenEnsembleArgs, ctx?: CallContext): Promise<OpenedEnsemble>;
  /** The profile of a trace dataset restricted to a time window (and lanes): a dataset of its own. */
  openWindow(
    args: { dataset: DatasetHandle; window: TimelineWindow; tracks: number[] | null },
    ctx?: CallContext,
  ): Promise<OpenedProfile>;
  /**
   * Holds a model already in shared memory (a system's derived editor profile, e.g. a memory
   * selection's) as a profile dataset of its own, as a window of a trace is one.
   */
  adoptShared(
    args: { data: ProfileData; childIndex?: OpenedProfile['childIndex'] },
    ctx?: CallContext,
  ): Promise<OpenedProfile>;
  /** Frees a dataset at once (its model, caches and derived data). */
  close(args: { dataset: DatasetHandle }, ctx?: CallContext): Promise<void>;

  /**
   * What the editor overlays need for one metric (lenses, hovers, heat, function totals); the side
   * bar's lists, which depend on its settings, come from {@link sideBar} after the lenses are placed.
   */
  derive(args: { dataset: DatasetHandle; metric: number }, ctx?: CallContext): Promise<DerivedData>;
  sideBar(
    args: { dataset: DatasetHandle; metric: number; options: DeriveOptions },
    ctx?: CallContext,
  ): Promise<SideBarLists>;
  /**
   * Export Summary: hot paths, top lines and functions and load imbalance as Markdown or CSV — of
   * the comparison against `baseline` (both files named, the changes ranked) when one is given.
   */
  exportSummary(
    args: { dataset: DatasetHandle; metric: number; format: 'markdown' | 'csv'; baseline?: DatasetHandle },
    ctx?: CallContext,
  ): Promise<string>;
  /** Compare Two Profiles: `comparison` against `baseline`, matched by calling context, for one metric (by name). */
  diff(
    args: { baseline: DatasetHandle; comparison: DatasetHandle; metric: string; options?: DiffListOptions },
    ctx?: CallContext,
  ): Promise<DiffSummary>;

  /**
   * Applies `hpcLens.pathMappings` (the setting's raw value) to recorded file paths: per path, the
   * rewritten candidates, most specific first, and the problems with the setting. Here rather than on
   * the host because regex mappings are user patterns (matched by RE2 in linear time all the same).
   */
  mapPaths(
    args: { paths: string[]; mappings: unknown; variables: Record<string, string> },
    ctx?: CallContext,
  ): Promise<{ candidates: string[][]; errors: string[] }>;

  /** A trace's copies grouped by the source line (or function) that issues them. */
  dataMovementSites(args: { dataset: DatasetHandle }, ctx?: CallContext): Promise<DataMovementSites>;

  /**
   * The Sankey's level-of-detail data of the super graph built with `options` (cached per option
   * set), packed: typed-array columns in one buffer the worker transfers, which the host forwards to
   * the webview without making per-node objects (`CallflowGraphReader` reads one node when needed); with `baseline`, a comparison's graph: each node with its values in both runs (the
   * baseline's graph built with the same options and the metric of the same name).
   */
  superGraph(
    args: {
      dataset: DatasetHandle;
      title: string;
      options: SuperGraphDataOptions;
      baseline?: { dataset: DatasetHandle; title: string };
    },
    ctx?: CallContext,
  ): Promise<PackedCallflowData>;
  /** A question about the super graph the Sankey shows (answered from the cached graph). */
  superGraphQuery<K extends SuperGraphQuery['kind']>(
    args: { dataset: DatasetHandle; query: Extract<SuperGraphQuery, { kind: K }> },
    ctx?: CallContext,
  ): Promise<SuperGraphQueryResults[K]>;

  /** A timeline request (tiles, lookups, window statistics…) about a trace dataset. */
  timeline<K extends TimelineWorkerRequest['kind']>(
    args: { dataset: DatasetHandle; request: Extract<TimelineWorkerRequest, { kind: K }> },
    ctx?: CallContext,
  ): Promise<TimelineResults[K]>;

  /**
   * Ensemble CallFlow: applies a request of the panel (null: just the current state) to the
   * ensemble's session and recomputes what it invalidates.
   */
  ensembleView(
    args: {
      dataset: DatasetHandle;
      request: EnsembleRequest | null;
      metric: string;
      title: string;
      moduleMap: readonly ModuleRule[];
      /** The CallFlow filter of the settings (share of the total, by side), until the panel picks one. */
      filter?: { threshold: number; by: 'inclusive' | 'exclusive' };
      /** Select the supernode holding this function (a CodeLens click). */
      focusFunction?: string;
      /** Options of the settings a new session starts with (the panel changes them per ensemble). */
      defaults?: Partial<EnsembleOptions>;
    },
    ctx?: CallContext,
  ): Promise<EnsembleViewAnswer>;
  /** Run-to-run spread of every function (CodeLens of an ensemble). */
  ensembleSpreads(args: { dataset: DatasetHandle; metric: string }, ctx?: CallContext): Promise<FunctionSpread[]>;
  /** Per-run inclusive values (NaN = missing) of one function or of a set of union nodes (a line's hover). */
  ensembleValues(
    args: { dataset: DatasetHandle; metric: string; of: { fn: string } | { nodes: number[] } },
    ctx?: CallContext,
  ): Promise<Float64Array | null>;
  /** Per function, what the editor shows in the panel's target or diff mode. */
  ensembleComparison(
    args: { dataset: DatasetHandle; metric: string; comparison: EnsembleComparison },
    ctx?: CallContext,
  ): Promise<EnsembleComparisonValues | null>;
}

export interface AnalysisService extends AnalysisRpc {
  /**
   * Listens to what a system dataset pushes unasked (a live monitor's ticks); returns the function
   * that stops listening. Events of a closed dataset stop.
   */
  onSystemEvent(dataset: DatasetHandle, listener: (event: unknown) => void): () => void;
}

/** The names of the service's calls (the RPC's `method` field). */
export type ServiceMethod = keyof AnalysisRpc;
export type ServiceArgs<M extends ServiceMethod> = Parameters<AnalysisRpc[M]>[0];
export type ServiceResult<M extends ServiceMethod> = Awaited<ReturnType<AnalysisRpc[M]>>;
