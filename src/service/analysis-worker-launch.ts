/**
 * dist/analysis-worker.js, the script every analysis worker thread starts: it runs the worker bundle
 * (dist/analysis-worker-main.js, built from analysis-worker.ts) with V8's code cache when the pool
 * names a cache folder, and plainly otherwise. Kept tiny: only Node built-ins and code-cache.ts.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { runWithCodeCache } from './code-cache';

const main = join(__dirname, 'analysis-worker-main.js');
const cacheDir = (workerData as { hpcLensBoot?: { cacheDir?: string } } | null)?.hpcLensBoot?.cacheDir;
if (cacheDir) runWithCodeCache(main, cacheDir);
else createRequire(__filename)(main);
