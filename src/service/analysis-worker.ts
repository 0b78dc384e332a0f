/**
 * An analysis worker (dist/analysis-worker.js): one LocalAnalysisService answering the worker
 * pool's messages. The same bundle serves as a home worker (holds datasets, answers their queries)
 * and as a disposable job worker (reads one file or one ensemble's files, then is terminated).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { LocalAnalysisService } from './local-analysis-service';
import { WORKER_METHODS, type WorkerRequest, type WorkerResponse, type WorkerStartData } from './service-protocol';
import { transferables } from './shared-memory';

const port = parentPort;
if (!port) throw new Error('analysis-worker must run in a worker thread');

/**
 * Analyses run at a lower scheduling priority than the editor: on a machine with as many busy
 * workers as cores, the extension host's thread (and the editor's UI) still gets the CPU first.
 * Linux lets a thread lower its own priority by its thread id; elsewhere this is skipped.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: run at the normal priority.
  }
}
lowerOwnPriority();
const post = (msg: WorkerResponse, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/** Peer calls this worker's systems made (SystemContext.peer), answered by the pool with `$peer…` messages. */
const peerCalls = new Map<
  number,
  { resolve(v: unknown): void; reject(e: Error): void; onProgress?: (fraction: number, message?: string) => void }
>();
let nextPeerCall = 1;

function peer(
  args: { dataset: number; system: string; request: unknown },
  ctx: { signal?: AbortSignal; onProgress?: (fraction: number, message?: string) => void },
): Promise<unknown> {
  const call = nextPeerCall++;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (peerCalls.delete(call)) {
        post({ id: 0, type: 'peerCancel', call });
        const e = new Error('the operation was cancelled');
        e.name = 'AbortError';
        reject(e);
      }
    };
    if (ctx.signal?.aborted) return onAbort();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => ctx.signal?.removeEventListener('abort', onAbort);
    peerCalls.set(call, {
      resolve: v => (done(), resolve(v)),
      reject: e => (done(), reject(e)),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    });
    post({ id: 0, type: 'peer', call, ...args }, transferables(args.request));
  });
}

const start = (workerData as { hpcLens?: WorkerStartData } | undefined)?.hpcLens ?? {};
const service = new LocalAnalysisService({
  ...(start.graphCacheBytes !== undefined ? { graphCacheBytes: start.graphCacheBytes } : {}),
  emit: (dataset, event) => post({ id: 0, type: 'event', dataset, event }, transferables(event)),
  peer,
});
const running = new Map<number, AbortController>();

async function handle(req: WorkerRequest): Promise<void> {
  if (req.method === '$cancel') {
    running.get(req.target)?.abort();
    return;
  }
  if (req.method === '$peerProgress' || req.method === '$peerDone' || req.method === '$peerError') {
    const p = peerCalls.get(req.target);
    if (!p) return;
    if (req.method === '$peerProgress') p.onProgress?.(req.fraction, req.message);
    else {
      peerCalls.delete(req.target);
      if (req.method === '$peerDone') p.resolve(req.result);
      else p.reject(Object.assign(new Error(req.message), { name: req.name }));
    }
    return;
  }
  const { id } = req;
  const abort = new AbortController();
  running.set(id, abort);
  try {
    if (!WORKER_METHODS.has(req.method)) throw new Error(`the analysis worker has no method ${String(req.method)}`);
    let last = -1;
    const ctx = {
      signal: abort.signal,
      onProgress: (fraction: number, message?: string) => {
        // At most ~100 progress messages per call.
        const step = Math.floor(fraction * 100);
        if (step !== last) {
          last = step;
          post({ id, type: 'progress', fraction, ...(message !== undefined ? { message } : {}) });
        }
      },
    };
    const method = service[req.method] as (args: unknown, ctx: unknown) => unknown;
    const result = await method.call(service, req.args, ctx);
    post({ id, type: 'done', result: result ?? null }, transferables(result));
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    post({ id, type: 'error', name: err.name || 'Error', message: err.message || String(e) });
  } finally {
    running.delete(id);
  }
}

port.on('message', (req: WorkerRequest) => {
  void handle(req);
});
