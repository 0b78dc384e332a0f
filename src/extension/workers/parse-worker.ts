/**
 * The persistent analysis worker (dist/parse-worker.js), started once per extension host and
 * reused for every open: it reads profiles, keeps them, and answers the derived data the editor
 * needs per (dataset, metric) with small results, so no O(nodes) pass runs on the host's thread.
 *
 * Profiles are shared, not transferred: every typed array of the model is copied once (here, off
 * the host's thread) into a SharedArrayBuffer, and the host builds its Profile over the same
 * memory. Measured on 10⁶ nodes × 16 ranks (scripts/bench-responsiveness.ts): the copy costs the
 * worker ~0.1 s, the host's `new Profile` over shared columns a few ms, and hovers keep synchronous
 * zero-copy access to every value, while the worker keeps the model for the next metric switch.
 * Transferring instead would leave the worker without the model; copying back per request, or
 * chunking the O(n·C) passes on the host, would each cost more host time than the copy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { superGraphData } from '../../analysis/graph/super-graph-data';
import { answerSuperGraphQuery } from '../../analysis/graph/super-graph-queries';
import { readProfile } from '../../analysis/formats';
import { functionTotals } from '../../analysis/model/aggregates';
import { Profile, type ProfileData } from '../../analysis/model/profile';
import { deriveData, derivedBuffers, sideBarLists, type DeriveOptions } from './derived-data';
import type { WorkerRequest, WorkerResponse, WorkerResults } from './parse-protocol';
import { timelineRequest } from './timeline-requests';

const port = parentPort;
if (!port) throw new Error('parse-worker must run in a worker thread');
const post = (msg: WorkerResponse, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

const datasets = new Map<number, Profile>();
const running = new Map<number, AbortController>();
let nextDataset = 1;

/**
 * The profile with its per-node totals of metric m in shared memory: the host adopts the same
 * arrays (LoadedProfile.derive) instead of summing 10⁶ nodes × ranks on its own thread.
 */
function withSharedTotals(p: Profile, m: number): Profile {
  const inclusive = p.inclusiveTotals(m),
    exclusive = p.exclusiveTotals(m);
  if (!(inclusive.buffer instanceof SharedArrayBuffer) || !(exclusive.buffer instanceof SharedArrayBuffer))
    p.adoptTotals(m, { inclusive: shared(inclusive), exclusive: shared(exclusive) });
  return p;
}

/** A copy of `v` whose typed arrays live in SharedArrayBuffers (plain objects and arrays are walked). */
function shared<T>(v: T): T {
  if (ArrayBuffer.isView(v)) {
    const src = v as unknown as Uint8Array;
    const sab = new SharedArrayBuffer(src.byteLength);
    new Uint8Array(sab).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
    const Ctor = (v as unknown as { constructor: new (b: SharedArrayBuffer) => T }).constructor;
    return new Ctor(sab);
  }
  if (Array.isArray(v)) return (v.some(x => x !== null && typeof x === 'object') ? v.map(shared) : v) as T;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = shared(x);
    return out as T;
  }
  return v;
}

function dataset(id: number): Profile {
  const p = datasets.get(id);
  if (!p)
    throw new Error(`dataset ${id} is not loaded in the analysis worker (it was released or the worker restarted)`);
  return p;
}

async function parse(id: number, path: string): Promise<WorkerResults['parse']> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    let last = -1;
    const read = await readProfile(path, {
      signal: abort.signal,
      onProgress: (fraction, message) => {
        // At most ~100 progress messages per file.
        const step = Math.floor(fraction * 100);
        if (step !== last) {
          last = step;
          post({ id, type: 'progress', fraction, message });
        }
      },
    });
    abort.signal.throwIfAborted();
    // Fill in derived matrices here, once, so neither thread derives them lazily later.
    read.metrics.forEach((_, m) => {
      read.exclusive(m);
      read.inclusive(m);
    });
    const data: ProfileData = shared(read.toTransferable().data);
    const dataset = nextDataset++;
    const profile = new Profile(data);
    // Built here in shared memory: at 10⁶ nodes it is a 20–140 ms pass the host would otherwise make.
    const childIndex = shared(profile.tree.childIndex());
    profile.tree.adoptChildIndex(childIndex);
    datasets.set(dataset, profile);
    return { dataset, data, childIndex };
  } finally {
    running.delete(id);
  }
}

/** Tiny profiles of the hot readers, parsed at start-up so V8 compiles them before the user's first open. */
const WARM_PROFILES: Record<string, string> = {
  'warm.json': JSON.stringify({
    data: [
      [1.5, 0, 0, 2],
      [0.5, 1, 0, 3],
      [2.0, 0, 1, 2],
      [0.25, 1, 1, 3],
    ],
    columns: ['sum#time.duration', 'mpi.rank', 'path', 'sourceloc#cali.sampler.pc'],
    column_metadata: [{ is_value: true }, { is_value: false }, { is_value: false }, { is_value: false }],
    nodes: [
      { label: 'main', column: 'path' },
      { label: 'solve', column: 'path', parent: 0 },
      { label: '/src/a.c:10', column: 'sourceloc#cali.sampler.pc' },
      { label: '/src/a.c:12', column: 'sourceloc#cali.sampler.pc' },
    ],
    'mpi.world.size': 2,
  }),
  'warm-literal.json': JSON.stringify([
    {
      frame: { name: 'main', type: 'function' },
      metrics: { 'time (inc)': 3, time: 1 },
      children: [{ frame: { name: 'solve', type: 'function' }, metrics: { 'time (inc)': 2, time: 2 } }],
    },
  ]),
  'warm.callgrind': 'events: Ir\nfl=/src/a.c\nfn=main\n10 5\ncfn=solve\ncalls=1 12\n12 7\nfn=solve\n20 7\n',
  'warm.folded': 'main;solve;kernel 10\nmain;io 3\n',
};

async function warm(): Promise<WorkerResults['warm']> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-warm-'));
  try {
    for (const [name, text] of Object.entries(WARM_PROFILES)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      // A reader that rejects a warm-up file must not stop the others from warming.
      const p = await readProfile(path).catch(() => undefined);
      if (!p) continue;
      const data = shared(p.toTransferable().data);
      const copy = new Profile(data);
      deriveData(copy, copy.primaryMetric, { hotPathThreshold: 0.05, listLength: 50 });
      superGraphData(copy, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cache = (
    globalThis as { __hpcLensCodeCache?: { state: 'accepted' | 'rejected' | 'created' | 'none'; save(): void } }
  ).__hpcLensCodeCache;
  // Store the code compiled so far (the readers and analyses just run) for the next start.
  if (cache && cache.state !== 'accepted') cache.save();
  return { ms: performance.now() - started, codeCache: cache?.state ?? 'none' };
}

function options(o: DeriveOptions): DeriveOptions {
  if (!(o.hotPathThreshold >= 0 && o.hotPathThreshold <= 1) || !(o.listLength > 0))
    throw new Error(`bad derive options ${JSON.stringify(o)}`);
  return o;
}

async function handle(req: WorkerRequest): Promise<void> {
  try {
    switch (req.type) {
      case 'parse': {
        const r = await parse(req.id, req.path);
        return post({ id: req.id, type: 'done', result: r });
      }
      case 'cancel':
        running.get(req.target)?.abort();
        return post({ id: req.id, type: 'done', result: null });
      case 'derive': {
        const d = deriveData(withSharedTotals(dataset(req.dataset), req.metric), req.metric, options(req.options));
        return post({ id: req.id, type: 'done', result: d }, derivedBuffers(d));
      }
      case 'sideBar': {
        const p = dataset(req.dataset);
        const s = sideBarLists(p, req.metric, functionTotals(p, req.metric), options(req.options));
        return post({ id: req.id, type: 'done', result: s }, [s.imbalanceFrames.buffer as ArrayBuffer]);
      }
      case 'sankey':
        return post({ id: req.id, type: 'done', result: superGraphData(dataset(req.dataset), req.title, req.options) });
      case 'superGraphQuery':
        return post({ id: req.id, type: 'done', result: answerSuperGraphQuery(dataset(req.dataset), req.query) });
      case 'release':
        datasets.delete(req.dataset);
        return post({ id: req.id, type: 'done', result: null });
      case 'adopt': {
        const dataset = nextDataset++;
        datasets.set(dataset, new Profile(req.data));
        return post({ id: req.id, type: 'done', result: { dataset } });
      }
      case 'warm':
        return post({ id: req.id, type: 'done', result: await warm() });
      case 'timeline': {
        const { result, transfer } = timelineRequest(dataset(req.dataset), req.request);
        return post({ id: req.id, type: 'done', result }, transfer);
      }
    }
  } catch (e) {
    const err = e as Error;
    post({ id: req.id, type: 'error', name: err.name ?? 'Error', message: err.message ?? String(e) });
  }
}

port.on('message', (req: WorkerRequest) => {
  void handle(req);
});
