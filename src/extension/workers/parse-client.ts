import { Worker } from 'node:worker_threads';
import { Profile } from '../../analysis/model/profile';
import type { ParseRequest, ParseResponse } from './parse-protocol';

export interface ParseOptions {
  /** Path of the bundled worker script (dist/parse-worker.js). */
  workerScript: string;
  onProgress?: (fraction: number, message?: string) => void;
  signal?: AbortSignal;
}

/** Thrown when the user cancelled a parse; the worker has been terminated. */
export class ParseCancelled extends Error {
  constructor(path: string) { super(`${path}: cancelled`); this.name = 'AbortError'; }
}

/**
 * Parses a profile in a worker thread. Aborting terminates the worker at once (a parse of a huge
 * file really stops), and nothing half-loaded is returned.
 */
export function parseInWorker(path: string, options: ParseOptions): Promise<Profile> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new ParseCancelled(path));
    const worker = new Worker(options.workerScript, { workerData: { path } satisfies ParseRequest });
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      f();
    };
    const onAbort = () => finish(() => reject(new ParseCancelled(path)));
    options.signal?.addEventListener('abort', onAbort);
    worker.on('message', (msg: ParseResponse) => {
      switch (msg.type) {
        case 'progress': options.onProgress?.(msg.fraction, msg.message); break;
        case 'done': finish(() => { try { resolve(new Profile(msg.data)); } catch (e) { reject(e); } }); break;
        case 'error': finish(() => { const e = new Error(msg.message); e.name = msg.name; reject(e); }); break;
      }
    });
    worker.on('error', e => finish(() => reject(new Error(`${path}: the parser crashed (${e.message})`))));
    worker.on('exit', code => finish(() => reject(new Error(`${path}: the parser stopped unexpectedly (exit code ${code})`))));
  });
}
