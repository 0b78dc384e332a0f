/**
 * The analysis service on the calling thread: what the CLI and unit tests use directly, and what
 * every analysis worker runs behind its messages (analysis-worker.ts). It holds datasets by handle
 * with their caches (super graphs, timeline indexes, ensemble sessions) and answers each method of
 * {@link AnalysisService} with the analysis library.
 *
 * Besides the public methods it has the steps the worker pool composes: {@link readShared} (what a
 * disposable job worker does), {@link adopt} (what a home worker does with its result), and the
 * `…As` forms of the opening methods, which take the handle the pool chose.
 */
import { EnsembleProfile } from '../analysis/ensemble/ensemble-profile';
import type { RunLoadError, RunProfile } from '../analysis/ensemble/ensemble-runs';
import { openRuns, pruneSummaryCache } from '../analysis/ensemble/summary-store';
import { readProfile, sampleFile } from '../analysis/formats';
import { fromFileSystemError } from '../analysis/formats/io/fs-errors';
import { SuperGraphCache } from '../analysis/graph/super-graph-cache';
import { superGraphData } from '../analysis/graph/super-graph-data';
import { superGraphDiff } from '../analysis/graph/super-graph-diff';
import { answerSuperGraphQuery, type SuperGraphQuery } from '../analysis/graph/super-graph-queries';
import { functionTotals } from '../analysis/model/aggregates';
import { throwIfAborted } from '../analysis/model/cancellation';
import { Profile, type ProfileData } from '../analysis/model/profile';
import { applyMappings, compileMappings } from '../analysis/source/path-mapping';
import { dataMovementSites } from '../analysis/stats/data-movement-sites';
import { diffSummaryToCsv, diffSummaryToMarkdown, summarizeDiff } from '../analysis/graph/diff-summary-export';
import { summarizeProfile, summaryToCsv, summaryToMarkdown } from '../analysis/stats/summary-export';
import type {
  AnalysisService,
  CallContext,
  DatasetHandle,
  EnsembleComparisonValues,
  EnsembleRunSummary,
  OpenedDataset,
  OpenedEnsemble,
  OpenedProfile,
  OpenedSystem,
  OpenEnsembleArgs,
  ServiceArgs,
  SummaryCacheLimits,
  WarmReport,
} from './analysis-service';
import { deriveData, sideBarLists, type DeriveOptions } from './derived-data';
import { diffSummary } from './diff-summary';
import { EnsembleSession, packEnsembleView } from './ensemble-session';
import type { ReadLimits } from './read-limits';
import { shared, shareProfile, type SharedModel } from './shared-memory';
import { timelineRequest, type WindowProfileColumns } from './timeline-requests';
import { warmUp } from './warm-up';
import { packCallflowData } from '../shared/callflow-packing';
import type { SystemContext, SystemOpening, SystemShape } from './systems/analysis-system';
import {
  loadSystem,
  systemClaiming,
  type SystemName,
  type SystemOpenArgs,
  type SystemRequest,
  type SystemRequestKind,
  type SystemResult,
} from './systems';

/** A dataset as one thread holds it. */
interface Held {
  /** The model the editor's overlays read (a system dataset's editor profile); none for a live monitor. */
  profile?: Profile;
  graphs?: SuperGraphCache;
  /** Ensembles: the runs' union with run-to-run statistics, and the panel's session. */
  ensemble?: EnsembleProfile;
  session?: EnsembleSession;
  /** The system that opened the dataset, and its state. */
  system?: { name: SystemName; state: unknown };
  /** Systems analysing this profile dataset, with their state (made on each one's first request). */
  attached?: Map<SystemName, unknown>;
}

/** A profile dataset as one thread holds it. */
type HeldProfile = Held & { profile: Profile; graphs: SuperGraphCache };

/** A model in shared memory and its child index: what crosses threads for a profile. */
export type { SharedModel } from './shared-memory';

/**
 * What a read yields: a profile, to be adopted by a home worker; or a system's dataset, which the
 * reading thread already holds (under the handle it was given) and keeps.
 */
export type ReadResult =
  ({ kind: 'profile' } & SharedModel) | ({ kind: 'system'; system: SystemName; opened: unknown } & SharedModel);

/** What reading an ensemble's files yields before the union is built. */
interface ReadRuns {
  runs: RunProfile[];
  errors: RunLoadError[];
  /** The folder (or common folder of the files) the ensemble was read from. */
  folder: string;
  sources: OpenedEnsemble['sources'];
}

export interface LocalServiceOptions {
  /** Bytes of super graphs kept per dataset (least recently used dropped first). */
  graphCacheBytes?: number;
  /** Where system events go (a worker posts them to the pool); by default to this service's own listeners. */
  emit?: (dataset: DatasetHandle, event: unknown) => void;
  /**
   * How a system's request about a dataset runs on another worker (SystemContext.peer): the worker
   * asks the pool. None in the CLI and unit tests, where systems do all the work themselves.
   */
  peer?: (args: { dataset: DatasetHandle; system: SystemName; request: unknown }, ctx: CallContext) => Promise<unknown>;
}

export class LocalAnalysisService implements AnalysisService {
  private readonly held = new Map<DatasetHandle, Held>();
  private readonly listeners = new Map<DatasetHandle, Set<(event: unknown) => void>>();
  private nextHandle = 1;

  constructor(private readonly options: LocalServiceOptions = {}) {}

  // ── Steps the worker pool composes ───────────────────────────────────────────────────────────

  /**
   * Reads a file: a profile into a shared model (every derived matrix filled in) with its child
   * index; or, when a system claims the file by content more surely than any profile reader, the
   * system's dataset, held here as `as` with its editor profile shared the same way.
   */
  async readShared(
    args: { path: string; limits?: ReadLimits; as: DatasetHandle },
    ctx: CallContext = {},
  ): Promise<ReadResult> {
    const system = await this.claimingSystem(args.path);
    if (system) return this.openSystemPath(system, args, ctx);
    const read = await readProfile(args.path, { ...args.limits, ...ctx });
    throwIfAborted(ctx.signal);
    return { kind: 'profile', ...shareProfile(read) };
  }

  /** The system that claims `path` by content ahead of every profile reader, or null. */
  private async claimingSystem(path: string): Promise<SystemName | null> {
    let sample;
    try {
      sample = await sampleFile(path);
    } catch (e) {
      throw fromFileSystemError(e, path);
    }
    return systemClaiming(sample);
  }

  private async openSystemPath(
    name: SystemName,
    args: { path: string; limits?: ReadLimits; as: DatasetHandle },
    ctx: CallContext,
  ): Promise<ReadResult> {
    const system = await loadSystem(name);
    if (!system.openPath) throw new Error(`the ${name} system opens nothing by path`);
    const opening = await system.openPath(args.path, args.limits, this.systemContext(args.as, ctx));
    if (!opening.profile) throw new Error(`the ${name} system opened ${args.path} without an editor profile`);
    throwIfAborted(ctx.signal);
    const model = this.holdSystem(args.as, name, opening);
    return { kind: 'system', system: name, opened: opening.opened, ...model! };
  }

  /** Holds a system's dataset; its editor profile (if any) is moved to shared memory first. */
  private holdSystem(
    dataset: DatasetHandle,
    name: SystemName,
    opening: SystemOpening<SystemShape, unknown>,
  ): SharedModel | undefined {
    if (this.held.has(dataset)) throw new Error(`dataset ${dataset} is already held`);
    const model = opening.profile ? shareProfile(opening.profile) : undefined;
    const held: Held = { system: { name, state: opening.state } };
    if (model) {
      held.profile = new Profile(model.data);
      held.profile.tree.adoptChildIndex(model.childIndex!);
      held.graphs = this.graphCache(held.profile);
    }
    this.held.set(dataset, held);
    return model;
  }

  private systemContext(dataset: DatasetHandle, ctx: CallContext, system?: SystemName): SystemContext<unknown> {
    const peer = this.options.peer;
    return {
      ...ctx,
      emit: event => this.emit(dataset, event),
      ...(peer && system
        ? {
            peer: (request: { kind: string }, onProgress?: (fraction: number, message?: string) => void) =>
              peer(
                { dataset, system, request },
                { ...(ctx.signal ? { signal: ctx.signal } : {}), ...(onProgress ? { onProgress } : {}) },
              ),
          }
        : {}),
    };
  }

  private emit(dataset: DatasetHandle, event: unknown): void {
    if (!this.held.has(dataset)) return;
    if (this.options.emit) this.options.emit(dataset, event);
    else for (const l of this.listeners.get(dataset) ?? []) l(event);
  }

  /**
   * Finds and reads an ensemble's runs (folders are scanned by content), each from its summary when
   * one is current (issue 17: a reopen never re-parses a profile), else from the profile.
   */
  private async readRuns(
    args: { paths: string[]; limits?: ReadLimits; summaryCache?: string },
    ctx: CallContext = {},
  ): Promise<ReadRuns> {
    const { signal, onProgress } = ctx;
    if (args.paths.length === 0) throw new Error('no profiles given for the ensemble');
    const opened = await openRuns(args.paths, {
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(args.summaryCache ? { cacheDir: args.summaryCache } : {}),
      // Corrupt or stale summaries are rebuilt silently; the worker's console is the log.
      log: message => console.warn(`HPC Lens ensemble: ${message}`),
      // One thread: reads interleave their I/O, but the CPU work is this thread's either way.
      concurrency: 2,
      read: async (file, s) => {
        const p = await readProfile(file, { ...args.limits, ...(s ? { signal: s } : {}) });
        p.metrics.forEach((_, m) => {
          p.sparse('exclusive', m);
          p.sparse('inclusive', m);
        });
        return p;
      },
    });
    throwIfAborted(signal);
    return {
      runs: opened.runs,
      errors: opened.errors,
      folder: opened.folder,
      sources: { summaries: opened.fromSummaries, profiles: opened.parsed },
    };
  }

  /** Holds a model read elsewhere (a job worker) as dataset `dataset`. */
  adopt(args: { dataset: DatasetHandle; data: ProfileData; childIndex?: OpenedProfile['childIndex'] }): void {
    const profile = new Profile(args.data);
    if (args.childIndex) profile.tree.adoptChildIndex(args.childIndex);
    this.hold(args.dataset, profile);
  }

  /**
   * Reads an ensemble's runs and builds their union, held here as `as`. The runs never leave this
   * thread (the worker pool keeps an ensemble in the worker that read it): at 1,000 runs, handing
   * their models to another thread cost the receiver seconds of deserialising string tables.
   */
  async openEnsembleAs(args: OpenEnsembleArgs & { as: DatasetHandle }, ctx: CallContext = {}): Promise<OpenedEnsemble> {
    const read = await this.readRuns(args, ctx);
    if (args.summaryCache && args.summaryCacheLimits)
      pruneSummaryCacheHourly(args.summaryCache, args.summaryCacheLimits);
    ctx.onProgress?.(1, `building the union of ${read.runs.length} runs`);
    const ensemble = new EnsembleProfile(read.runs, {
      path: read.folder,
      errors: read.errors,
      ...(args.metric ? { metric: args.metric } : {}),
    });
    throwIfAborted(ctx.signal);
    const data = shared(ensemble.profile.toTransferable().data);
    const union = new Profile(data);
    const childIndex = shared(union.tree.childIndex());
    union.tree.adoptChildIndex(childIndex);
    // The union profile the editor reads is the shared copy; the ensemble keeps its own for statistics.
    if (this.held.has(args.as)) throw new Error(`dataset ${args.as} is already held`);
    this.held.set(args.as, { profile: union, graphs: this.graphCache(union), ensemble });
    return {
      dataset: args.as,
      data,
      childIndex,
      runs: ensemble.ensemble.runs.map(runSummary),
      errors: [...ensemble.errors],
      skipped: ensemble.ensemble.skipped.map(s => ({ name: s.name, reason: s.reason })),
      sources: read.sources,
    };
  }

  /** Whether this thread holds `dataset`. */
  holds(dataset: DatasetHandle): boolean {
    return this.held.has(dataset);
  }

  // ── AnalysisService ──────────────────────────────────────────────────────────────────────────

  warm(_args: Record<string, never> = {}): Promise<WarmReport> {
    return warmUp();
  }

  async open(args: ServiceArgs<'open'>, ctx?: CallContext): Promise<OpenedDataset> {
    const dataset = this.nextHandle++;
    const read = await this.readShared({ ...args, as: dataset }, ctx);
    return this.opened(dataset, read);
  }

  /** What open() answers for a read (adopting a profile here; a system's dataset is held already). */
  opened(dataset: DatasetHandle, read: ReadResult): OpenedDataset {
    const { kind, ...rest } = read;
    if (kind === 'profile') {
      this.adopt({ dataset, data: read.data, ...(read.childIndex ? { childIndex: read.childIndex } : {}) });
      return { dataset, data: read.data, ...(read.childIndex ? { childIndex: read.childIndex } : {}) };
    }
    return { dataset, ...rest } as OpenedDataset;
  }

  async openSystem<S extends SystemName>(
    args: { system: S; args: SystemOpenArgs<S> },
    ctx?: CallContext,
  ): Promise<OpenedSystem<S>> {
    return this.openSystemAs({ ...args, as: this.nextHandle++ }, ctx);
  }

  /** openSystem with the handle chosen by the caller (the worker pool numbers datasets). */
  async openSystemAs<S extends SystemName>(
    args: { system: S; args: SystemOpenArgs<S>; as: DatasetHandle },
    ctx: CallContext = {},
  ): Promise<OpenedSystem<S>> {
    const system = await loadSystem(args.system);
    if (!system.open) throw new Error(`the ${args.system} system is not opened from arguments`);
    const opening = await system.open(args.args, this.systemContext(args.as, ctx));
    if (ctx.signal?.aborted) {
      system.close?.(opening.state);
      throwIfAborted(ctx.signal);
    }
    const model = this.holdSystem(args.as, args.system, opening);
    return {
      dataset: args.as,
      system: args.system,
      opened: opening.opened as OpenedSystem<S>['opened'],
      ...(model ? { profile: model } : {}),
    };
  }

  async systemRequest<S extends SystemName, K extends SystemRequestKind<S>>(
    args: { dataset: DatasetHandle; system: S; request: Extract<SystemRequest<S>, { kind: K }> },
    ctx: CallContext = {},
  ): Promise<SystemResult<S, K>> {
    const h = this.get(args.dataset);
    const system = await loadSystem(args.system);
    let state: unknown;
    if (h.system?.name === args.system) state = h.system.state;
    else {
      if (!system.attach || !h.profile)
        throw new Error(`dataset ${args.dataset} is not one the ${args.system} system can analyse`);
      const attached = (h.attached ??= new Map());
      if (!attached.has(args.system))
        attached.set(args.system, system.attach(h.profile, h.ensemble ? { runs: h.ensemble.runs } : {}));
      state = attached.get(args.system);
    }
    return (await system.answer(
      state,
      args.request,
      this.systemContext(args.dataset, ctx, args.system),
    )) as SystemResult<S, K>;
  }

  onSystemEvent(dataset: DatasetHandle, listener: (event: unknown) => void): () => void {
    let set = this.listeners.get(dataset);
    if (!set) this.listeners.set(dataset, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(dataset) === set) this.listeners.delete(dataset);
    };
  }

  openEnsemble(args: ServiceArgs<'openEnsemble'>, ctx?: CallContext): Promise<OpenedEnsemble> {
    return this.openEnsembleAs({ ...args, as: this.nextHandle++ }, ctx);
  }

  openWindow(args: ServiceArgs<'openWindow'>, ctx?: CallContext): Promise<OpenedProfile> {
    return this.openWindowAs({ ...args, as: this.nextHandle++ }, ctx);
  }

  /** openWindow with the new dataset's handle chosen by the caller (the worker pool numbers datasets). */
  async openWindowAs(
    args: ServiceArgs<'openWindow'> & { as: DatasetHandle },
    ctx?: CallContext,
  ): Promise<OpenedProfile> {
    const whole = this.profileHeld(args.dataset).profile;
    const { result } = timelineRequest(whole, { kind: 'profileForWindow', window: args.window, tracks: args.tracks });
    throwIfAborted(ctx?.signal);
    const cols = result as WindowProfileColumns;
    // The window shares the whole run's tree and trace; only its metric columns are its own.
    const data: ProfileData = { ...whole.data, ...shared(cols) };
    const profile = new Profile(data);
    const childIndex = whole.tree.childIndex();
    profile.tree.adoptChildIndex(childIndex);
    this.hold(args.as, profile);
    return { dataset: args.as, data, childIndex };
  }

  async adoptShared(args: ServiceArgs<'adoptShared'>): Promise<OpenedProfile> {
    const dataset = this.nextHandle++;
    this.adopt({ dataset, ...args });
    return { dataset, data: args.data, ...(args.childIndex ? { childIndex: args.childIndex } : {}) };
  }

  async close(args: ServiceArgs<'close'>): Promise<void> {
    const h = this.held.get(args.dataset);
    this.held.delete(args.dataset);
    this.listeners.delete(args.dataset);
    if (!h) return;
    h.graphs?.clear();
    // The systems holding state were loaded when they made it.
    const close = async (name: SystemName, state: unknown) => (await loadSystem(name)).close?.(state);
    if (h.system) await close(h.system.name, h.system.state);
    for (const [name, state] of h.attached ?? []) await close(name, state);
  }

  async derive(args: ServiceArgs<'derive'>) {
    const p = this.profileHeld(args.dataset).profile;
    metricIn(p, args.metric);
    return deriveData(withSharedTotals(p, args.metric), args.metric);
  }

  async sideBar(args: ServiceArgs<'sideBar'>) {
    const p = this.profileHeld(args.dataset).profile;
    metricIn(p, args.metric);
    return sideBarLists(p, args.metric, functionTotals(p, args.metric), checked(args.options));
  }

  async exportSummary(args: ServiceArgs<'exportSummary'>): Promise<string> {
    const p = this.profileHeld(args.dataset).profile;
    metricIn(p, args.metric);
    if (args.baseline !== undefined) {
      const s = summarizeDiff(this.profileHeld(args.baseline).profile, p, p.metrics[args.metric]!.name);
      return args.format === 'csv' ? diffSummaryToCsv(s) : diffSummaryToMarkdown(s);
    }
    const s = summarizeProfile(p, args.metric);
    return args.format === 'csv' ? summaryToCsv(s) : summaryToMarkdown(s);
  }

  async diff(args: ServiceArgs<'diff'>) {
    return diffSummary(
      this.profileHeld(args.baseline).profile,
      this.profileHeld(args.comparison).profile,
      args.metric,
      args.options,
    );
  }

  async mapPaths(args: ServiceArgs<'mapPaths'>) {
    const { mappings, errors } = compileMappings(args.mappings, args.variables);
    return { candidates: args.paths.map(p => applyMappings(p, mappings)), errors };
  }

  async dataMovementSites(args: ServiceArgs<'dataMovementSites'>) {
    const p = this.profileHeld(args.dataset).profile;
    const dm = p.trace?.dataMovement;
    return dm ? dataMovementSites(dm, p.tree) : { sites: [], unattributed: { count: 0, bytes: 0 } };
  }

  async superGraph(args: ServiceArgs<'superGraph'>) {
    const h = this.profileHeld(args.dataset);
    const data = superGraphData(h.profile, args.title, args.options, h.graphs.graph(args.options));
    if (!args.baseline) return packCallflowData(data);
    const b = this.profileHeld(args.baseline.dataset);
    const name = h.profile.metrics[args.options.metric ?? h.profile.primaryMetric]!.name;
    const metric = b.profile.metricIndex(name);
    if (metric < 0) throw new Error(`the baseline ${b.profile.path} has no metric "${name}"`);
    const options = { ...args.options, metric };
    const base = superGraphData(b.profile, args.baseline.title, options, b.graphs.graph(options));
    return packCallflowData(
      superGraphDiff(data, base, { baseline: b.profile.contextCount, compare: h.profile.contextCount }),
    );
  }

  async superGraphQuery<K extends SuperGraphQuery['kind']>(args: {
    dataset: DatasetHandle;
    query: Extract<SuperGraphQuery, { kind: K }>;
  }) {
    const h = this.profileHeld(args.dataset);
    return answerSuperGraphQuery<K>(h.profile, args.query, o => h.graphs.graph(o));
  }

  async timeline(args: ServiceArgs<'timeline'>) {
    // (profileForWindow is a dataset of its own: openWindow.)
    return timelineRequest(this.profileHeld(args.dataset).profile, args.request).result as never;
  }

  async ensembleView(args: ServiceArgs<'ensembleView'>) {
    const h = this.profileHeld(args.dataset);
    const ep = this.ensembleOf(args.dataset, h);
    const needGraph = !h.session || args.request === null;
    if (!h.session) {
      h.session = new EnsembleSession(ep, { title: args.title, metric: () => args.metric });
      // Each default alone: one out of range (edited settings.json, a remembered option this
      // version no longer accepts) is refused like a request and its built-in value stays.
      for (const [key, value] of Object.entries(args.defaults ?? {}))
        h.session.apply({ type: 'ensemble/options', options: { [key]: value } });
    }
    const session = h.session;
    const filter = args.filter;
    session.options = {
      title: args.title,
      metric: () => args.metric,
      moduleMap: () => args.moduleMap,
      ...(filter ? { filter: () => filter } : {}),
    };
    if (args.focusFunction !== undefined) session.focusFunction = args.focusFunction;
    return packEnsembleView(session.respond(args.request, needGraph || args.focusFunction !== undefined));
  }

  async ensembleSpreads(args: ServiceArgs<'ensembleSpreads'>) {
    const ep = this.ensembleOf(args.dataset);
    return [...ep.spreads(args.metric).values()];
  }

  async ensembleValues(args: ServiceArgs<'ensembleValues'>): Promise<Float64Array | null> {
    const ep = this.ensembleOf(args.dataset);
    if ('fn' in args.of) return ep.functionValues(args.metric, args.of.fn);
    const e = ep.ensembleOf(args.metric);
    const values = new Float64Array(e.runCount).fill(NaN);
    for (const u of args.of.nodes) {
      if (!(u >= 0 && u < e.size)) throw new Error(`node ${u} is not in the ensemble's union tree`);
      for (let r = 0; r < e.runCount; r++) {
        const v = e.value(u, r, 'inclusive');
        if (v === v) values[r] = values[r]! === values[r]! ? values[r]! + v : v;
      }
    }
    return values;
  }

  async ensembleComparison(args: ServiceArgs<'ensembleComparison'>): Promise<EnsembleComparisonValues | null> {
    const ep = this.ensembleOf(args.dataset);
    const c = args.comparison;
    if (c.mode === 'summary') return null;
    const g = ep.functionGraph(args.metric);
    const R = g.runCount;
    const F = g.names.length;
    const first = new Float64Array(F),
      second = new Float64Array(F);
    const present = new Int32Array(F);
    for (let f = 0; f < F; f++) {
      const row = g.inclusive.subarray(f * R, (f + 1) * R);
      let n = 0,
        below = 0,
        equal = 0;
      if (c.mode === 'diff' && c.diff) {
        first[f] = row[c.diff.baseline]!;
        second[f] = row[c.diff.compare]!;
        for (const v of row) if (v === v) n++;
      } else if (c.mode === 'target' && c.target !== null) {
        const t = row[c.target]!;
        for (const v of row) {
          if (v !== v) continue;
          n++;
          if (v < t) below++;
          else if (v === t) equal++;
        }
        first[f] = t;
        // Percentile rank with ties counted half (the target among the runs that have the function).
        second[f] = n > 0 && t === t ? (100 * (below + 0.5 * equal)) / n : NaN;
      }
      present[f] = n;
    }
    return { names: [...g.names], first, second, present };
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  private hold(dataset: DatasetHandle, profile: Profile): void {
    if (this.held.has(dataset)) throw new Error(`dataset ${dataset} is already held`);
    this.held.set(dataset, { profile, graphs: this.graphCache(profile) });
  }

  private graphCache(profile: Profile): SuperGraphCache {
    return new SuperGraphCache(profile, this.options.graphCacheBytes);
  }

  private get(dataset: DatasetHandle): Held {
    const h = this.held.get(dataset);
    if (!h) throw new Error(`dataset ${dataset} is not loaded (it was closed)`);
    return h;
  }

  private profileHeld(dataset: DatasetHandle): HeldProfile {
    const h = this.get(dataset);
    if (!h.profile || !h.graphs)
      throw new Error(`dataset ${dataset} (${h.system?.name ?? 'no profile'}) has no profile`);
    return h as HeldProfile;
  }

  private ensembleOf(dataset: DatasetHandle, h: Held = this.get(dataset)): EnsembleProfile {
    if (!h.ensemble) throw new Error(`dataset ${dataset} is not an ensemble`);
    return h.ensemble;
  }
}

function runSummary(r: RunProfile['run']): EnsembleRunSummary {
  return { name: r.name, path: r.path, format: r.format, ranks: r.ranks, parameters: { ...r.parameters } };
}

function metricIn(p: Profile, m: number): void {
  if (!(Number.isInteger(m) && m >= 0 && m < p.metrics.length))
    throw new Error(`metric ${m} is not one of the ${p.metrics.length} metrics of ${p.path}`);
}

function checked(o: DeriveOptions): DeriveOptions {
  if (!(o.hotPathThreshold >= 0 && o.hotPathThreshold <= 1) || !(o.listLength > 0))
    throw new Error(`bad derive options ${JSON.stringify(o)}`);
  return o;
}

/**
 * The profile with its per-node totals of metric m in shared memory: the host adopts the same
 * arrays instead of summing 10⁶ nodes × ranks on its own thread.
 */
function withSharedTotals(p: Profile, m: number): Profile {
  const inclusive = p.inclusiveTotals(m),
    exclusive = p.exclusiveTotals(m);
  if (!(inclusive.buffer instanceof SharedArrayBuffer) || !(exclusive.buffer instanceof SharedArrayBuffer))
    p.adoptTotals(m, { inclusive: shared(inclusive), exclusive: shared(exclusive) });
  return p;
}

/** When each summary cache was last pruned (per thread: each worker prunes what its opens cache). */
const lastPruned = new Map<string, number>();

/**
 * Prunes a summary cache to its limits in the background, at most once an hour: after an open has
 * read (and touched) the summaries it uses, so those count as just used.
 */
function pruneSummaryCacheHourly(dir: string, limits: SummaryCacheLimits): void {
  const now = Date.now();
  if (now - (lastPruned.get(dir) ?? -Infinity) < 3_600_000) return;
  lastPruned.set(dir, now);
  pruneSummaryCache(dir, { ...limits, now }).then(
    report => {
      if (report.removed.length > 0)
        console.warn(
          `HPC Lens ensemble: summary cache ${dir}: removed ${report.removed.length} (${report.removed.map(r => r.reason).join(', ')}), kept ${report.kept}`,
        );
    },
    (e: unknown) => console.warn(`HPC Lens ensemble: summary cache ${dir} not pruned: ${String(e)}`),
  );
}
