/**
 * An analysis system as the analysis service runs it: data movement, trace analysis, PDES runs,
 * memory samples, the live PDES monitor. Each system is one module in this folder that says how it
 * opens a dataset of its own (or analyses a profile dataset), and how it answers its panel's
 * requests; the service routes them to the worker holding the dataset, so no system adds methods,
 * messages or worker plumbing of its own.
 *
 * Rules for a system's answers (they cross threads by transfer): a result never holds a non-shared
 * ArrayBuffer the system keeps using (copy it, or keep it in shared memory), and is plain data —
 * no class instances, no functions.
 */
import type { RunProfile } from '../../analysis/ensemble/ensemble-runs';
import type { Profile } from '../../analysis/model/profile';
import type { CallContext } from '../analysis-service';
import type { ReadLimits } from '../read-limits';

/** The types a system is spoken to with. Requests are a union by `kind`; `results` maps each kind to its answer. */
export interface SystemShape {
  /** What opening a dataset of the system by `openSystem` takes (never: it is opened only by path, or analyses profiles). */
  open: unknown;
  /** What the editor gets about a dataset the system opened (runs, entities, warnings…). */
  opened: unknown;
  request: { kind: string };
  results: { [kind: string]: unknown };
  /** What a dataset of the system pushes unasked (a live monitor's ticks); never for the others. */
  event: unknown;
}

/** What else the service holds about a profile dataset a system attaches to. */
export interface AttachContext {
  /** An ensemble's runs, each with its own profile (and trace): the union profile alone has no timelines. */
  runs?: readonly RunProfile[];
}

/** A call into a system: cancellation, progress, and the dataset's event channel. */
export interface SystemContext<Event = never, Request = { kind: string }> extends CallContext {
  /** Pushes an event to whoever listens to this dataset (the host's panel). */
  emit(event: Event): void;
  /**
   * Answers a request of this system about the same dataset on another worker of the service (the
   * other home, which adopts the dataset's shared model), so a system can split one heavy request
   * in halves; absent where the service has no other worker (the CLI, unit tests). `onProgress`
   * sees the other worker's progress; the call is cancelled with this one.
   */
  peer?(request: Request, onProgress?: (fraction: number, message?: string) => void): Promise<unknown>;
}

/** A dataset a system opened: its state (kept in the worker), what the editor is told, and its editor profile. */
export interface SystemOpening<T extends SystemShape, State> {
  state: State;
  opened: T['opened'];
  /**
   * The dataset as the editor's overlays read it — a profile of its own (a PDES run's event
   * handlers, memory samples by line and variable) — so CodeLens, heat, hovers and the side bar work
   * on it as on any profile. Datasets opened by path always have one.
   */
  profile?: Profile;
}

export interface AnalysisSystem<T extends SystemShape, State = unknown> {
  /** Opens the dataset at `path` (after its registry entry's sniff claimed it); must return its editor profile. */
  openPath?(
    path: string,
    limits: ReadLimits | undefined,
    ctx: SystemContext<T['event'], T['request']>,
  ): Promise<SystemOpening<T, State>>;
  /** Opens a dataset from `args` (openSystem). */
  open?(args: T['open'], ctx: SystemContext<T['event'], T['request']>): Promise<SystemOpening<T, State>>;
  /** The system's state for a profile dataset it analyses (made on the first request about that dataset). */
  attach?(profile: Profile, context?: AttachContext): State;
  /** Answers one request; throws an Error whose message the panel shows. */
  answer(state: State, request: T['request'], ctx: SystemContext<T['event'], T['request']>): unknown;
  /** Frees what the state holds beyond memory (timers, sockets, file watchers). */
  close?(state: State): void;
}
