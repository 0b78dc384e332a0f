import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { SuperGraphQuery, SuperGraphQueryResults } from '../../analysis/graph/super-graph-queries';
import { Profile } from '../../analysis/model/profile';
import type { SankeyData } from '../../shared/protocol';
import type { DerivedData, DeriveOptions, SideBarLists } from './derived-data';
import type { WorkerRequest, WorkerResponse, WorkerResults } from './parse-protocol';
import type { TimelineResults, TimelineWorkerRequest } from './timeline-requests';

export interface ParseOptions {
  /** Path of the bundled worker script (dist/parse-worker.js). */
  workerScript: string;
  onProgress?: (fraction: number, message?: string) => void;
  signal?: AbortSignal;
}

/** Thrown when the user cancelled a parse; nothing half-loaded is kept. */
export class ParseCancelled extends Error {
  constructor(path: string) {
    super(`${path}: cancelled`);
    this.name = 'AbortError';
  }
}

export interface AnalysisWorkerOptions {
  workerScript: string;
  /** Where V8's code cache for the worker bundle is kept (e.g. the extension's global storage); none = no cache. */
  codeCacheFile?: string;
  /** How long a cancelled parse may take to stop before the worker is terminated and restarted. */
  cancelGraceMs?: number;
  log?: (message: string) => void;
}

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type RequestBody = Distribute<WorkerRequest>;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (fraction: number, message?: string) => void;
  /** Prefix for errors (the file being read). */
  what: string;
}

/**
 * Loads the worker bundle through vm.Script with V8's code cache: the first open in a fresh
 * extension host is otherwise dominated by compiling the readers. vm.Script's cachedData works on
 * every Node VS Code ships (module.enableCompileCache only from Node 22.1), and the cache is written
 * after the warm-up ran, so it holds the lazily compiled functions of the hot paths as well.
 */
const BOOTSTRAP = `
const fs = require('node:fs'), path = require('node:path'), vm = require('node:vm'), { wrap } = require('node:module');
const { workerData } = require('node:worker_threads');
const { script, cache } = workerData.hpcLensBoot;
let cachedData;
try { cachedData = fs.readFileSync(cache); } catch {}
const s = new vm.Script(wrap(fs.readFileSync(script, 'utf8')), { filename: script, cachedData, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
globalThis.__hpcLensCodeCache = {
  state: cachedData === undefined ? 'created' : s.cachedDataRejected ? 'rejected' : 'accepted',
  save() {
    try {
      fs.mkdirSync(path.dirname(cache), { recursive: true });
      fs.writeFileSync(cache + '.tmp', s.createCachedData());
      fs.renameSync(cache + '.tmp', cache);
    } catch {}
  },
};
const m = { exports: {} };
s.runInThisContext()(m.exports, require, m, script, path.dirname(script));
`;

/**
 * The host's side of the persistent analysis worker (parse-worker.ts): one worker, started once and
 * reused; requests carry ids and resolve with the worker's answer. Cancelling a parse aborts it
 * inside the worker; if it has not stopped within the grace period the worker is terminated and
 * started again (the profiles it held are re-adopted on demand from the host's shared columns).
 * A crashed worker fails its pending requests with a clear error and is restarted on next use.
 */
export class AnalysisWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Bumped on every (re)start: dataset ids are only valid in the worker that issued them. */
  private generation = 0;
  private readonly datasets = new WeakMap<Profile, { generation: number; id: number }>();
  private readonly released = new FinalizationRegistry<{ generation: number; id: number }>(d => {
    if (d.generation === this.generation && this.worker)
      this.send({ type: 'release', dataset: d.id }).catch(() => undefined);
  });
  /** Times the worker was (re)started; for tests and logs. */
  starts = 0;
  private disposed = false;

  constructor(readonly options: AnalysisWorkerOptions) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Starts the worker if it is not running (requests also start it). */
  start(): void {
    if (this.worker || this.disposed) return;
    const { workerScript, codeCacheFile } = this.options;
    const w = codeCacheFile
      ? new Worker(BOOTSTRAP, {
          eval: true,
          workerData: { hpcLensBoot: { script: workerScript, cache: codeCacheFile } },
        })
      : new Worker(workerScript);
    this.worker = w;
    this.generation++;
    this.starts++;
    w.unref();
    w.on('message', (msg: WorkerResponse) => this.onMessage(msg));
    w.on('error', e => this.stopped(w, `crashed (${e.message})`));
    w.on('exit', code => this.stopped(w, `stopped unexpectedly (exit code ${code})`));
  }

  /** Parses a profile; the result's columns are shared with the worker, which keeps it for derive requests. */
  async parse(path: string, options: Omit<ParseOptions, 'workerScript'> = {}): Promise<Profile> {
    const { signal } = options;
    if (signal?.aborted) throw new ParseCancelled(path);
    this.start();
    const generation = this.generation;
    const id = this.nextId++;
    const answer = this.request<WorkerResults['parse']>(id, { type: 'parse', path }, path, options.onProgress);
    if (!signal) return this.adopt(await answer, generation);
    return new Promise<Profile>((resolve, reject) => {
      let cancelled = false;
      const onAbort = () => {
        cancelled = true;
        reject(new ParseCancelled(path));
        this.cancel(id);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      answer.then(
        r => {
          signal.removeEventListener('abort', onAbort);
          if (cancelled) {
            if (generation === this.generation)
              this.send({ type: 'release', dataset: r.dataset }).catch(() => undefined);
            return;
          }
          try {
            resolve(this.adopt(r, generation));
          } catch (e) {
            reject(e as Error);
          }
        },
        (e: Error) => {
          signal.removeEventListener('abort', onAbort);
          if (!cancelled) reject(e);
        },
      );
    });
  }

  /** Warms the worker up (compiles the readers and analyses); resolves with how long that took. */
  warm(): Promise<WorkerResults['warm']> {
    this.start();
    return this.request(this.nextId++, { type: 'warm' }, 'warming up');
  }

  /** Whether this worker holds (or can adopt from shared columns) `profile`. */
  canServe(profile: Profile): boolean {
    return (
      !this.disposed && (this.datasets.has(profile) || profile.tree.columns.parent.buffer instanceof SharedArrayBuffer)
    );
  }

  derive(profile: Profile, metric: number, options: DeriveOptions): Promise<DerivedData> {
    return this.withDataset(profile, dataset => ({ type: 'derive', dataset, metric, options }));
  }

  sideBar(profile: Profile, metric: number, options: DeriveOptions): Promise<SideBarLists> {
    return this.withDataset(profile, dataset => ({ type: 'sideBar', dataset, metric, options }));
  }

  sankey(profile: Profile, title: string, options: SuperGraphDataOptions): Promise<SankeyData> {
    return this.withDataset(profile, dataset => ({ type: 'sankey', dataset, title, options }));
  }

  superGraphQuery<K extends SuperGraphQuery['kind']>(
    profile: Profile,
    query: Extract<SuperGraphQuery, { kind: K }>,
  ): Promise<SuperGraphQueryResults[K]> {
    return this.withDataset(profile, dataset => ({ type: 'superGraphQuery', dataset, query })) as Promise<
      SuperGraphQueryResults[K]
    >;
  }

  /** A timeline request (tiles, lookups, window statistics…) answered by the worker from the trace it holds. */
  timeline<K extends TimelineWorkerRequest['kind']>(
    profile: Profile,
    request: Extract<TimelineWorkerRequest, { kind: K }>,
  ): Promise<TimelineResults[K]> {
    return this.withDataset(profile, dataset => ({ type: 'timeline', dataset, request }));
  }

  dispose(): void {
    this.disposed = true;
    const w = this.worker;
    if (w) {
      this.stopped(w, 'was shut down');
      void w.terminate();
    }
  }

  private adopt(r: WorkerResults['parse'], generation: number): Profile {
    const profile = new Profile(r.data);
    if (r.childIndex) profile.tree.adoptChildIndex(r.childIndex);
    const d = { generation, id: r.dataset };
    this.datasets.set(profile, d);
    this.released.register(profile, d);
    return profile;
  }

  /** Sends a request about `profile`, handing the worker the shared columns first when it does not hold them (after a restart). */
  private async withDataset<T>(profile: Profile, body: (dataset: number) => RequestBody): Promise<T> {
    if (this.disposed) throw new Error('the analysis worker was shut down');
    this.start();
    let d = this.datasets.get(profile);
    if (!d || d.generation !== this.generation) {
      if (!(profile.tree.columns.parent.buffer instanceof SharedArrayBuffer))
        throw new Error(`${profile.path}: not held by the analysis worker`);
      const generation = this.generation;
      const { dataset } = await this.send<{ dataset: number }>({ type: 'adopt', data: profile.data });
      d = { generation, id: dataset };
      this.datasets.set(profile, d);
      this.released.register(profile, d);
    }
    return this.send<T>(body(d.id));
  }

  private cancel(target: number): void {
    const w = this.worker;
    if (!w || !this.pending.has(target)) return;
    this.send({ type: 'cancel', target }).catch(() => undefined);
    const timer = setTimeout(() => {
      if (this.worker === w && this.pending.has(target)) {
        this.options.log?.(
          `a cancelled parse did not stop within ${this.options.cancelGraceMs ?? 1000} ms; restarting the analysis worker`,
        );
        this.stopped(w, 'was restarted after a cancelled parse did not stop');
        void w.terminate();
      }
    }, this.options.cancelGraceMs ?? 1000);
    timer.unref?.();
  }

  private send<T>(body: RequestBody): Promise<T> {
    this.start();
    return this.request<T>(this.nextId++, body, body.type);
  }

  private request<T>(id: number, body: RequestBody, what: string, onProgress?: Pending['onProgress']): Promise<T> {
    const w = this.worker;
    if (!w) return Promise.reject(new Error(`${what}: the analysis worker was shut down`));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress, what });
      if (this.pending.size === 1) w.ref();
      w.postMessage({ ...body, id } as WorkerRequest);
    });
  }

  private onMessage(msg: WorkerResponse): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.fraction, msg.message);
      return;
    }
    this.settle(msg.id);
    if (msg.type === 'done') p.resolve(msg.result);
    else {
      const e = new Error(msg.message);
      e.name = msg.name;
      p.reject(e);
    }
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }

  /** The worker `w` is gone: fail what it owed and let the next request start a fresh one. */
  private stopped(w: Worker, why: string): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    const owed = [...this.pending];
    this.pending.clear();
    for (const [, p] of owed) p.reject(new Error(`${p.what}: the analysis worker ${why}`));
  }
}

const shared = new Map<string, AnalysisWorker>();

/** The analysis worker for a bundle: the one registered at activation, or one started on first use. */
export function analysisWorker(workerScript: string): AnalysisWorker {
  let w = shared.get(workerScript);
  if (!w) shared.set(workerScript, (w = new AnalysisWorker({ workerScript })));
  return w;
}

/** Makes `worker` the one parseInWorker uses for its bundle (activation registers the warm, cached one). */
export function registerAnalysisWorker(worker: AnalysisWorker): void {
  shared.get(worker.options.workerScript)?.dispose();
  shared.set(worker.options.workerScript, worker);
}

/** The worker that holds `profile`, for derive requests; undefined for profiles read on this thread. */
export function analysisWorkerOf(profile: Profile): AnalysisWorker | undefined {
  for (const w of shared.values()) if (w.canServe(profile)) return w;
  return undefined;
}

/**
 * Parses a profile in the persistent analysis worker. Aborting stops the parse (nothing
 * half-loaded is returned); a parse that ignores the abort for a second gets its worker restarted.
 */
export function parseInWorker(path: string, options: ParseOptions): Promise<Profile> {
  return analysisWorker(options.workerScript).parse(path, options);
}

/**
 * Activation: starts the analysis worker with a V8 code cache kept under `storageDir`, registers it
 * for parseInWorker and warms it up, so the user's first open runs compiled code in a live worker.
 */
export function startAnalysisWorker(
  workerScript: string,
  storageDir: string,
  log: (message: string) => void,
): { worker: AnalysisWorker; dispose(): void } {
  let stamp = 'unknown';
  try {
    const s = statSync(workerScript);
    stamp = `${s.size}-${Math.round(s.mtimeMs)}`;
  } catch {
    /* the worker's own start reports a missing bundle */
  }
  // One cache per bundle build and Node version: V8 would reject a stale one anyway, this avoids the wasted read.
  const codeCacheFile = join(storageDir, 'code-cache', `parse-worker-${stamp}-${process.version}.bin`);
  const worker = new AnalysisWorker({ workerScript, codeCacheFile, log });
  registerAnalysisWorker(worker);
  worker.warm().then(
    w => log(`analysis worker ready: warm-up ${w.ms.toFixed(0)} ms, code cache ${w.codeCache}`),
    e => log(`analysis worker warm-up failed: ${(e as Error).message}`),
  );
  return { worker, dispose: () => worker.dispose() };
}
