/**
 * The analysis service in worker threads (the extension's implementation of AnalysisService).
 *
 * - **Reads run in job workers**, one per read, terminated when it is done: a cancelled read stops at
 *   once (the worker is terminated, not asked), a crash or a runaway read touches no other request,
 *   and everything a read allocated (file buffers, gunzipped text, sql.js memory) goes with it. One
 *   spare job worker is kept started, so a read does not wait for a worker to boot.
 * - **Profiles live in home workers** (a small pool, 2 by default): each gets one home that answers
 *   all its queries, so a slow query of one dataset does not hold up the datasets of the other home.
 *   A home that dies is replaced on the next request, and its datasets are adopted again from their
 *   shared models (which the pool keeps), so only the requests in flight fail.
 * - **Ensembles and system datasets live in their own worker**: the job worker that read them stays
 *   as their home, so their runs or state never cross threads; if it dies, the next request opens
 *   them again from their files in a new worker.
 * - **Limits**: every worker has a heap limit (resourceLimits) and reads a time limit; hitting either
 *   gives a {@link WorkerLimitError} that says which.
 *
 * Models are shared, never copied (shared-memory.ts): a job worker reads into SharedArrayBuffers,
 * the home worker and the host build their Profiles over the same memory.
 */
import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../analysis/graph/super-graph-queries';
import type { ProfileData } from '../analysis/model/profile';
import type {
  AnalysisService,
  CallContext,
  DatasetHandle,
  OpenedDataset,
  OpenedEnsemble,
  OpenedProfile,
  OpenedSystem,
  ServiceArgs,
  ServiceMethod,
  ServiceResult,
  WarmReport,
} from './analysis-service';
import type { SharedModel } from './local-analysis-service';
import type { ReadLimits } from './read-limits';
import type { SystemName, SystemOpenArgs, SystemRequest, SystemRequestKind, SystemResult } from './systems';
import type {
  WorkerArgs,
  WorkerMethod,
  WorkerRequest,
  WorkerResponse,
  WorkerResult,
  WorkerStartData,
} from './service-protocol';
import type { TimelineResults, TimelineWorkerRequest } from './timeline-requests';
import { transferables } from './shared-memory';

export interface WorkerPoolOptions {
  /** The worker bundle (dist/analysis-worker.js). */
  workerScript: string;
  /**
   * Where V8's code cache for the worker bundle is kept (e.g. the extension's global storage); none =
   * no cache. The worker script must be the launcher, dist/analysis-worker.js (see code-cache.ts).
   */
  codeCacheDir?: string;
  /** Home workers holding datasets (default 2). */
  workers?: number;
  /** Heap limit of every worker in MB (resourceLimits.maxOldGenerationSizeMb); 0 or absent = half the machine's memory, at least 2 GB. */
  memoryLimitMb?: number;
  /** A read taking longer is stopped (default 600 s). */
  readTimeoutMs?: number;
  /** Bytes of super graphs each dataset keeps cached (default 256 MB). */
  graphCacheBytes?: number;
  log?: (message: string) => void;
}

/** Which limit stopped a worker. */
export type WorkerLimit = 'memory' | 'time';

/** A worker was stopped by a limit of the pool (its heap limit or the read timeout). */
export class WorkerLimitError extends Error {
  constructor(
    readonly limit: WorkerLimit,
    /** MB for `memory`, seconds for `time`. */
    readonly value: number,
    message: string,
  ) {
    super(message);
    this.name = 'WorkerLimitError';
  }
}

/** The user cancelled; nothing half-loaded is kept. */
export class CancelledError extends Error {
  constructor(what: string) {
    super(`${what}: cancelled`);
    this.name = 'AbortError';
  }
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (fraction: number, message?: string) => void;
  /** Prefix of errors (the file being read, or the method). */
  what: string;
}

/**
 * What a worker does: `home` holds profile datasets of the pool; `job` runs one read and is
 * terminated; `own` holds one system dataset (the job worker that read it stays as its home, so the
 * system's state never crosses threads).
 */
type WorkerRole = 'home' | 'job' | 'own';

/** One worker thread and the requests it owes. */
class ThreadWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the worker is gone (set before terminating, or from its error/exit). */
  private stopReason: Error | undefined;
  alive = true;
  /** Datasets this worker holds. */
  readonly holds = new Set<DatasetHandle>();
  /** Adoptions under way (two requests after a restart adopt once). */
  readonly adopting = new Map<DatasetHandle, Promise<void>>();

  constructor(
    public role: WorkerRole,
    pool: PoolSettings,
    private readonly onGone: (w: ThreadWorker) => void,
    private readonly onEvent: (dataset: DatasetHandle, event: unknown) => void,
    private readonly onPeer: (w: ThreadWorker, msg: Extract<WorkerResponse, { type: 'peer' | 'peerCancel' }>) => void,
  ) {
    const start: WorkerStartData = { graphCacheBytes: pool.graphCacheBytes };
    const options = {
      workerData: {
        hpcLens: start,
        // The launcher (analysis-worker-launch.ts) runs the worker bundle with V8's code cache from this folder.
        ...(pool.codeCacheDir ? { hpcLensBoot: { cacheDir: pool.codeCacheDir } } : {}),
      },
      resourceLimits: { maxOldGenerationSizeMb: pool.memoryLimitMb },
    };
    this.worker = new Worker(pool.workerScript, options);
    this.worker.unref();
    this.worker.on('message', (msg: WorkerResponse) => this.onMessage(msg));
    this.worker.on('error', (e: Error & { code?: string }) => {
      this.stopReason ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new WorkerLimitError(
              'memory',
              pool.memoryLimitMb,
              `the analysis worker ran out of memory (its limit is ${pool.memoryLimitMb} MB)`,
            )
          : new Error(`the analysis worker crashed (${e.message})`);
    });
    this.worker.on('exit', code =>
      this.gone(this.stopReason ?? new Error(`the analysis worker stopped (exit code ${code})`)),
    );
  }

  get busy(): number {
    return this.pending.size;
  }

  call<M extends WorkerMethod>(
    method: M,
    args: WorkerArgs<M>,
    ctx: CallContext = {},
    what: string = method,
  ): Promise<WorkerResult<M>> {
    if (!this.alive) return Promise.reject(this.stopReason ?? new Error(`${what}: the analysis worker is gone`));
    const id = this.nextId++;
    return new Promise<WorkerResult<M>>((resolve, reject) => {
      const { signal } = ctx;
      if (signal?.aborted) return reject(new CancelledError(what));
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        if (this.role === 'job') this.stop(new CancelledError(what));
        else this.worker.postMessage({ id: this.nextId++, method: '$cancel', target: id } satisfies WorkerRequest);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: v => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v as WorkerResult<M>);
        },
        reject: e => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        what,
      });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, method, args } as WorkerRequest);
    });
  }

  /** Terminates the worker; what it owed fails with `reason`. */
  stop(reason: Error): void {
    if (!this.alive) return;
    this.stopReason ??= reason;
    this.gone(this.stopReason);
    void this.worker.terminate();
  }

  /** Posts a message that answers none of this worker's calls (a peer call's answer). */
  post(msg: WorkerRequest, transfer: ArrayBuffer[] = []): void {
    if (this.alive) this.worker.postMessage(msg, transfer);
  }

  private onMessage(msg: WorkerResponse): void {
    if (msg.type === 'event') {
      this.onEvent(msg.dataset, msg.event);
      return;
    }
    if (msg.type === 'peer' || msg.type === 'peerCancel') {
      this.onPeer(this, msg);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.fraction, msg.message);
      return;
    }
    this.pending.delete(msg.id);
    if (this.pending.size === 0) this.worker.unref();
    if (msg.type === 'done') p.resolve(msg.result);
    else {
      const e = new Error(msg.message);
      e.name = msg.name;
      p.reject(e);
    }
  }

  private gone(reason: Error): void {
    if (!this.alive) return;
    this.alive = false;
    const owed = [...this.pending.values()];
    this.pending.clear();
    for (const p of owed) {
      const e =
        reason instanceof WorkerLimitError || reason instanceof CancelledError
          ? reason
          : new Error(`${p.what}: ${reason.message}`);
      p.reject(e);
    }
    this.onGone(this);
  }
}

interface PoolSettings {
  workerScript: string;
  codeCacheDir: string | undefined;
  memoryLimitMb: number;
  graphCacheBytes: number | undefined;
}

/** What the pool remembers of a dataset, to route its requests and to adopt it again after its worker died. */
interface DatasetRecord {
  /** Index of its home worker; -1 for a system dataset, which lives in a worker of its own. */
  home: number;
  /** A system dataset's own worker (replaced, and the dataset opened again, when it died). */
  own?: ThreadWorker;
  adopt:
    | { kind: 'profile'; data: ProfileData; childIndex: OpenedProfile['childIndex'] }
    | {
        kind: 'ensemble';
        paths: string[];
        metric: string | undefined;
        limits: ReadLimits | undefined;
        summaryCache: string | undefined;
        model: SharedModel;
      }
    | { kind: 'system-path'; path: string; limits: ReadLimits | undefined; model: SharedModel }
    | { kind: 'system-args'; system: SystemName; args: unknown; model: SharedModel | undefined };
}

/** Half the machine's memory, at least 2 GB and at most 16 GB: room for big traces, a stop before swapping. */
export function defaultMemoryLimitMb(): number {
  return Math.max(2048, Math.min(16384, Math.floor(totalmem() / 1024 / 1024 / 2)));
}

export class WorkerPool implements AnalysisService {
  private readonly settings: PoolSettings;
  private readonly homes: (ThreadWorker | undefined)[];
  private spare: ThreadWorker | undefined;
  private readonly jobs = new Set<ThreadWorker>();
  private readonly datasets = new Map<DatasetHandle, DatasetRecord>();
  private readonly listeners = new Map<DatasetHandle, Set<(event: unknown) => void>>();
  /** Peer calls in flight, per asking worker and its call number (SystemContext.peer). */
  private readonly peerCalls = new Map<ThreadWorker, Map<number, AbortController>>();
  private nextHandle = 1;
  private disposed = false;
  /** Peer calls answered so far, with the home that answered each (for tests and logs). */
  readonly peerLog: { dataset: DatasetHandle; asker: number; home: number }[] = [];
  /** Workers started so far (for logs and tests). */
  started = 0;

  private readonly options: WorkerPoolOptions;

  constructor(options: WorkerPoolOptions) {
    this.options = { ...options };
    this.settings = {
      workerScript: options.workerScript,
      codeCacheDir: options.codeCacheDir,
      memoryLimitMb:
        options.memoryLimitMb && options.memoryLimitMb > 0 ? options.memoryLimitMb : defaultMemoryLimitMb(),
      graphCacheBytes: options.graphCacheBytes,
    };
    this.homes = new Array(Math.max(1, Math.floor(options.workers ?? 2))).fill(undefined);
  }

  /**
   * Applies changed limits: the read timeout from the next read, the heap limit to workers started
   * from now on, and more home workers at once (a smaller pool keeps its homes until they stop).
   */
  configure(options: Pick<WorkerPoolOptions, 'workers' | 'memoryLimitMb' | 'readTimeoutMs'>): void {
    if (options.readTimeoutMs !== undefined) this.options.readTimeoutMs = options.readTimeoutMs;
    if (options.memoryLimitMb !== undefined)
      this.settings.memoryLimitMb = options.memoryLimitMb > 0 ? options.memoryLimitMb : defaultMemoryLimitMb();
    const n = Math.max(1, Math.floor(options.workers ?? this.homes.length));
    while (this.homes.length < n) this.homes.push(undefined);
  }

  /** Home workers in the pool. */
  get size(): number {
    return this.homes.length;
  }

  /** The home worker (index) of a dataset, for tests and logs. */
  homeOf(dataset: DatasetHandle): number | undefined {
    return this.datasets.get(dataset)?.home;
  }

  /** Job workers running a read now (the spare not counted). */
  get activeReads(): number {
    return this.jobs.size;
  }

  // ── Reads: in job workers ────────────────────────────────────────────────────────────────────

  async warm(_args: Record<string, never> = {}): Promise<WarmReport> {
    this.ensureSpare();
    const report = await this.home(0).call('warm', {});
    // The spare is warmed too: its first read then runs compiled readers.
    if (this.spare) void this.spare.call('warm', {}).catch(() => undefined);
    return report;
  }

  async open(args: ServiceArgs<'open'>, ctx: CallContext = {}): Promise<OpenedDataset> {
    const dataset = this.nextHandle++;
    const { result: read, worker } = await this.job(
      'readShared',
      { ...args, as: dataset },
      ctx,
      args.path,
      r => r.kind === 'system',
    );
    if (read.kind === 'system') {
      this.keepOwn(dataset, worker, {
        kind: 'system-path',
        path: args.path,
        limits: args.limits,
        model: { data: read.data, ...(read.childIndex ? { childIndex: read.childIndex } : {}) },
      });
      const { kind: _kind, ...opened } = read;
      return this.unlessCancelled({ dataset, ...opened } as OpenedDataset, ctx, args.path);
    }
    const model = { data: read.data, ...(read.childIndex ? { childIndex: read.childIndex } : {}) };
    const home = this.leastLoadedHome();
    await this.home(home).call('adopt', { dataset, ...model });
    this.home(home).holds.add(dataset);
    this.datasets.set(dataset, { home, adopt: { kind: 'profile', data: read.data, childIndex: read.childIndex } });
    return this.unlessCancelled({ dataset, ...model }, ctx, args.path);
  }

  async openSystem<S extends SystemName>(
    args: { system: S; args: SystemOpenArgs<S> },
    ctx: CallContext = {},
  ): Promise<OpenedSystem<S>> {
    const dataset = this.nextHandle++;
    const what = `opening ${args.system}`;
    const { result, worker } = await this.job('openSystemAs', { ...args, as: dataset }, ctx, what, () => true);
    this.keepOwn(dataset, worker, {
      kind: 'system-args',
      system: args.system,
      args: args.args,
      model: result.profile,
    });
    return this.unlessCancelled(result as OpenedSystem<S>, ctx, what);
  }

  systemRequest<S extends SystemName, K extends SystemRequestKind<S>>(
    args: { dataset: DatasetHandle; system: S; request: Extract<SystemRequest<S>, { kind: K }> },
    ctx?: CallContext,
  ): Promise<SystemResult<S, K>> {
    return this.onHome(args.dataset, w => w.call('systemRequest', args, ctx)) as Promise<SystemResult<S, K>>;
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

  /** A job worker that opened a system dataset stays as that dataset's own worker. */
  private keepOwn(dataset: DatasetHandle, worker: ThreadWorker, adopt: DatasetRecord['adopt']): void {
    worker.role = 'own';
    worker.holds.add(dataset);
    this.datasets.set(dataset, { home: -1, own: worker, adopt });
  }

  private dispatch(dataset: DatasetHandle, event: unknown): void {
    if (!this.datasets.has(dataset)) return;
    for (const l of this.listeners.get(dataset) ?? []) l(event);
  }

  /** An ensemble lives in the worker that read its runs (their models never cross threads). */
  async openEnsemble(args: ServiceArgs<'openEnsemble'>, ctx: CallContext = {}): Promise<OpenedEnsemble> {
    const dataset = this.nextHandle++;
    const what = args.paths.join(', ');
    const { result, worker } = await this.job('openEnsembleAs', { ...args, as: dataset }, ctx, what, () => true);
    this.keepOwn(dataset, worker, {
      kind: 'ensemble',
      paths: args.paths,
      metric: args.metric,
      limits: args.limits,
      summaryCache: args.summaryCache,
      model: { data: result.data, ...(result.childIndex ? { childIndex: result.childIndex } : {}) },
    });
    return this.unlessCancelled(result, ctx, what);
  }

  /** A dataset whose caller cancelled while it was being adopted is closed again: nothing half-loaded stays. */
  private async unlessCancelled<T extends { dataset: DatasetHandle }>(
    opened: T,
    ctx: CallContext,
    what: string,
  ): Promise<T> {
    if (!ctx.signal?.aborted) return opened;
    await this.close({ dataset: opened.dataset });
    throw new CancelledError(what);
  }

  /**
   * Holds a model the caller built itself in shared memory (a generated trace in a benchmark, a
   * model assembled by the host) as a dataset, in the least loaded home.
   */
  async adoptShared(args: { data: ProfileData; childIndex?: OpenedProfile['childIndex'] }): Promise<OpenedProfile> {
    const { data, childIndex } = args;
    const dataset = this.nextHandle++;
    const home = this.leastLoadedHome();
    await this.home(home).call('adopt', { dataset, data, childIndex });
    this.home(home).holds.add(dataset);
    this.datasets.set(dataset, { home, adopt: { kind: 'profile', data, childIndex } });
    return { dataset, data, ...(childIndex ? { childIndex } : {}) };
  }

  async openWindow(args: ServiceArgs<'openWindow'>, ctx: CallContext = {}): Promise<OpenedProfile> {
    const whole = this.record(args.dataset);
    if (whole.home < 0) throw new Error(`dataset ${args.dataset} has no timeline to take a window of`);
    const as = this.nextHandle++;
    const opened = await this.onHome(args.dataset, w => w.call('openWindowAs', { ...args, as }, ctx));
    this.home(whole.home).holds.add(as);
    this.datasets.set(as, {
      home: whole.home,
      adopt: { kind: 'profile', data: opened.data, childIndex: opened.childIndex },
    });
    return opened;
  }

  async close(args: ServiceArgs<'close'>): Promise<void> {
    const record = this.datasets.get(args.dataset);
    if (!record) return;
    this.datasets.delete(args.dataset);
    this.listeners.delete(args.dataset);
    if (record.own) {
      // Its worker holds nothing else: the system frees what it holds, then the worker goes.
      const own = record.own;
      await own.call('close', args).catch(() => undefined);
      own.stop(new Error('closed'));
    }
    const holders = [...this.homes].filter((w): w is ThreadWorker => !!w?.alive && w.holds.has(args.dataset));
    // (A system dataset may be held by a home too: the baseline of a comparison adopts its profile.)
    await Promise.all(
      holders.map(w => {
        w.holds.delete(args.dataset);
        return w.call('close', args).catch(() => undefined);
      }),
    );
  }

  // ── Queries: in the dataset's home ───────────────────────────────────────────────────────────

  derive(args: ServiceArgs<'derive'>, ctx?: CallContext) {
    return this.query('derive', args, ctx);
  }
  sideBar(args: ServiceArgs<'sideBar'>, ctx?: CallContext) {
    return this.query('sideBar', args, ctx);
  }
  exportSummary(args: ServiceArgs<'exportSummary'>, ctx?: CallContext) {
    return args.baseline === undefined
      ? this.query('exportSummary', args, ctx)
      : this.withBaseline('exportSummary', args.dataset, args.baseline, args, ctx);
  }
  dataMovementSites(args: ServiceArgs<'dataMovementSites'>, ctx?: CallContext) {
    return this.query('dataMovementSites', args, ctx);
  }
  superGraph(args: ServiceArgs<'superGraph'>, ctx?: CallContext) {
    const baseline = args.baseline?.dataset;
    return baseline === undefined
      ? this.query('superGraph', args, ctx)
      : this.withBaseline('superGraph', args.dataset, baseline, args, ctx);
  }
  superGraphQuery<K extends SuperGraphQuery['kind']>(
    args: { dataset: DatasetHandle; query: Extract<SuperGraphQuery, { kind: K }> },
    ctx?: CallContext,
  ): Promise<SuperGraphQueryResults[K]> {
    return this.query('superGraphQuery', args, ctx) as Promise<SuperGraphQueryResults[K]>;
  }
  timeline<K extends TimelineWorkerRequest['kind']>(
    args: { dataset: DatasetHandle; request: Extract<TimelineWorkerRequest, { kind: K }> },
    ctx?: CallContext,
  ): Promise<TimelineResults[K]> {
    return this.query('timeline', args, ctx) as Promise<TimelineResults[K]>;
  }
  ensembleView(args: ServiceArgs<'ensembleView'>, ctx?: CallContext) {
    return this.query('ensembleView', args, ctx);
  }
  ensembleSpreads(args: ServiceArgs<'ensembleSpreads'>, ctx?: CallContext) {
    return this.query('ensembleSpreads', args, ctx);
  }
  ensembleValues(args: ServiceArgs<'ensembleValues'>, ctx?: CallContext) {
    return this.query('ensembleValues', args, ctx);
  }
  ensembleComparison(args: ServiceArgs<'ensembleComparison'>, ctx?: CallContext) {
    return this.query('ensembleComparison', args, ctx);
  }

  /** Path mappings hold no dataset: any home answers (the least loaded). */
  mapPaths(args: ServiceArgs<'mapPaths'>, ctx?: CallContext): Promise<ServiceResult<'mapPaths'>> {
    return this.home(this.leastLoadedHome()).call('mapPaths', args, ctx);
  }

  diff(args: ServiceArgs<'diff'>, ctx?: CallContext): Promise<ServiceResult<'diff'>> {
    return this.withBaseline('diff', args.comparison, args.baseline, args, ctx);
  }

  /** A request about a comparison runs in the compared run's home, which adopts the baseline too when it lives elsewhere. */
  private withBaseline<M extends 'diff' | 'exportSummary' | 'superGraph'>(
    method: M,
    dataset: DatasetHandle,
    baseline: DatasetHandle,
    args: WorkerArgs<M>,
    ctx?: CallContext,
  ): Promise<WorkerResult<M>> {
    return this.onHome(dataset, w => this.ensureHeld(baseline, w).then(() => w.call(method, args, ctx)));
  }

  dispose(): void {
    this.disposed = true;
    const why = new Error('the analysis service was shut down');
    const own = [...this.datasets.values()].map(r => r.own);
    for (const w of [...this.homes, this.spare, ...this.jobs, ...own]) w?.stop(why);
    this.spare = undefined;
    this.jobs.clear();
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  private start(role: WorkerRole): ThreadWorker {
    if (this.disposed) throw new Error('the analysis service was shut down');
    this.started++;
    return new ThreadWorker(
      role,
      this.settings,
      w => this.onGone(w),
      (dataset, event) => this.dispatch(dataset, event),
      (w, msg) => this.onPeer(w, msg),
    );
  }

  /**
   * A system in worker `w` asks for a request about the same dataset on another worker: the least
   * loaded other home adopts the dataset (shared memory: no copy) and answers; the answer, its
   * progress or its error go back to `w`. With a single home, that home answers (the halves then
   * interleave between their chunks). Cancelled when `w` no longer needs it or goes away.
   */
  private onPeer(w: ThreadWorker, msg: Extract<WorkerResponse, { type: 'peer' | 'peerCancel' }>): void {
    let calls = this.peerCalls.get(w);
    if (msg.type === 'peerCancel') {
      calls?.get(msg.call)?.abort();
      calls?.delete(msg.call);
      return;
    }
    if (!calls) this.peerCalls.set(w, (calls = new Map()));
    const abort = new AbortController();
    calls.set(msg.call, abort);
    const asker = this.homes.indexOf(w);
    let home = -1;
    for (let i = 0; i < this.homes.length; i++) {
      if (i === asker) continue;
      const load = (k: number) => (this.homes[k]?.alive ? this.homes[k]!.busy : 0);
      if (home < 0 || load(i) < load(home)) home = i;
    }
    const run = async () => {
      const r = this.record(msg.dataset);
      const target = home >= 0 ? this.home(home) : r.home >= 0 ? this.home(r.home) : r.own!;
      await this.ensureHeld(msg.dataset, target);
      this.peerLog.push({ dataset: msg.dataset, asker, home: home >= 0 ? home : asker });
      return target.call(
        'systemRequest',
        { dataset: msg.dataset, system: msg.system as SystemName, request: msg.request as never },
        {
          signal: abort.signal,
          onProgress: (fraction, message) =>
            w.post({ id: 0, method: '$peerProgress', target: msg.call, fraction, ...(message ? { message } : {}) }),
        },
      );
    };
    run().then(
      result => {
        if (calls.delete(msg.call))
          w.post({ id: 0, method: '$peerDone', target: msg.call, result }, transferables(result));
      },
      (e: Error) => {
        if (calls.delete(msg.call))
          w.post({ id: 0, method: '$peerError', target: msg.call, name: e.name || 'Error', message: e.message });
      },
    );
  }

  private onGone(w: ThreadWorker): void {
    this.jobs.delete(w);
    // What it asked of other workers is no longer needed.
    for (const abort of this.peerCalls.get(w)?.values() ?? []) abort.abort();
    this.peerCalls.delete(w);
    if (this.spare === w) this.spare = undefined;
    const i = this.homes.indexOf(w);
    if (i >= 0) {
      this.homes[i] = undefined;
      if (!this.disposed)
        this.options.log?.(`analysis worker ${i} stopped; its datasets are adopted again on their next request`);
    }
  }

  private home(i: number): ThreadWorker {
    let w = this.homes[i];
    if (!w?.alive) this.homes[i] = w = this.start('home');
    return w;
  }

  private leastLoadedHome(): number {
    let best = 0;
    const load = (i: number) => {
      const w = this.homes[i];
      return w?.alive ? w.holds.size * 1000 + w.busy : 0;
    };
    for (let i = 1; i < this.homes.length; i++) if (load(i) < load(best)) best = i;
    return best;
  }

  private ensureSpare(): void {
    if (!this.spare?.alive && !this.disposed) this.spare = this.start('job');
  }

  /**
   * Runs one read in a job worker of its own (the spare), then terminates that worker — unless
   * `keep` says the worker now holds what it read (a system dataset), in which case the caller owns it.
   */
  private async job<M extends 'readShared' | 'openEnsembleAs' | 'openSystemAs'>(
    method: M,
    args: WorkerArgs<M>,
    ctx: CallContext,
    what: string,
    keep: (result: WorkerResult<M>) => boolean = () => false,
  ): Promise<{ result: WorkerResult<M>; worker: ThreadWorker }> {
    if (ctx.signal?.aborted) throw new CancelledError(what);
    this.ensureSpare();
    const w = this.spare!;
    this.spare = undefined;
    this.jobs.add(w);
    // The next read finds a started worker.
    this.ensureSpare();
    const limitMs = this.options.readTimeoutMs ?? 600_000;
    const timer = setTimeout(
      () =>
        w.stop(
          new WorkerLimitError(
            'time',
            limitMs / 1000,
            `${what}: reading took longer than ${Math.round(limitMs / 1000)} s and was stopped`,
          ),
        ),
      limitMs,
    );
    timer.unref?.();
    let kept = false;
    try {
      const result = await w.call(method, args, ctx, what);
      kept = keep(result);
      return { result, worker: w };
    } finally {
      clearTimeout(timer);
      this.jobs.delete(w);
      if (!kept) w.stop(new Error('done'));
    }
  }

  private record(dataset: DatasetHandle): DatasetRecord {
    const r = this.datasets.get(dataset);
    if (!r) throw new Error(`dataset ${dataset} is not loaded (it was closed)`);
    return r;
  }

  /**
   * Runs `f` on the worker holding the dataset — its home, or a system dataset's own worker — after
   * adopting (or, for a system dataset, opening) it there again when that worker had died.
   */
  private async onHome<T>(dataset: DatasetHandle, f: (w: ThreadWorker) => Promise<T>): Promise<T> {
    const r = this.record(dataset);
    if (r.home >= 0) {
      const w = this.home(r.home);
      await this.ensureHeld(dataset, w);
      return f(w);
    }
    if (!r.own?.alive) {
      r.own = this.start('own');
      this.options.log?.(`the worker of dataset ${dataset} stopped; opening it again`);
    }
    await this.ensureHeld(dataset, r.own);
    return f(r.own);
  }

  private query<
    M extends Exclude<
      ServiceMethod,
      'open' | 'openEnsemble' | 'openWindow' | 'openSystem' | 'systemRequest' | 'close' | 'warm' | 'diff' | 'mapPaths'
    >,
  >(method: M, args: WorkerArgs<M> & { dataset: DatasetHandle }, ctx?: CallContext): Promise<WorkerResult<M>> {
    return this.onHome(args.dataset, w => w.call(method, args, ctx));
  }

  /** Makes `w` hold `dataset` (after a restart of its home, or for a diff across homes). */
  private ensureHeld(dataset: DatasetHandle, w: ThreadWorker): Promise<void> {
    if (w.holds.has(dataset)) return Promise.resolve();
    let pending = w.adopting.get(dataset);
    if (!pending) {
      const r = this.record(dataset);
      const a = r.adopt;
      let adopt: Promise<unknown>;
      if (a.kind === 'profile') adopt = w.call('adopt', { dataset, data: a.data, childIndex: a.childIndex });
      else if (w !== r.own) {
        // Another worker (a comparison's) needs only the dataset's profile: an ensemble's union, a system's editor profile.
        if (!a.model) throw new Error(`dataset ${dataset} has no profile to compare`);
        adopt = w.call('adopt', { dataset, ...a.model });
      } else if (a.kind === 'ensemble')
        adopt = w.call('openEnsembleAs', {
          paths: a.paths,
          ...(a.metric ? { metric: a.metric } : {}),
          ...(a.limits ? { limits: a.limits } : {}),
          ...(a.summaryCache ? { summaryCache: a.summaryCache } : {}),
          as: dataset,
        });
      else if (a.kind === 'system-path')
        adopt = w.call('readShared', { path: a.path, ...(a.limits ? { limits: a.limits } : {}), as: dataset });
      else adopt = w.call('openSystemAs', { system: a.system, args: a.args as never, as: dataset });
      pending = adopt.then(
        () => {
          w.holds.add(dataset);
          w.adopting.delete(dataset);
        },
        (e: Error) => {
          w.adopting.delete(dataset);
          throw e;
        },
      );
      w.adopting.set(dataset, pending);
    }
    return pending;
  }
}
