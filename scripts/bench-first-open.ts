/**
 * The user's first open after starting VS Code, in fresh processes: read + derive of the sample
 * through the worker pool, cold (no code cache), with the V8 code cache the first activation
 * writes, and with the workers warmed at activation (what the extension does).
 *
 * `node dist/bench.js first-open PROFILE none|CACHE_DIR warm|cold` is one such process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool } from '../src/service/worker-pool';

const OPTIONS = { hotPathThreshold: 0.05, listLength: 50 };

/** One first open in this process; prints its milliseconds. */
export async function firstOpenOnce(
  path: string,
  cacheDir: string,
  warm: boolean,
  workerScript: string,
): Promise<void> {
  const pool = new WorkerPool({ workerScript, ...(cacheDir === 'none' ? {} : { codeCacheDir: cacheDir }) });
  try {
    if (warm) await pool.warm({});
    const t = performance.now();
    const opened = await pool.open({ path });
    await pool.derive({ dataset: opened.dataset, metric: opened.data.primaryMetric, options: OPTIONS });
    console.log((performance.now() - t).toFixed(3));
  } finally {
    pool.dispose();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Median over `runs` fresh processes of the first open of `path`. */
function firstOpen(bench: string, path: string, cache: string, warm: boolean, runs = 5): number {
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) {
    const r = spawnSync(process.execPath, [bench, 'first-open', path, cache, warm ? 'warm' : 'cold'], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`first-open run failed: ${r.stderr}`);
    xs.push(Number(r.stdout.trim().split('\n').pop()));
  }
  return median(xs);
}

export function benchFirstOpen(options: { distDir: string; samplePath: string }): void {
  const bench = join(options.distDir, 'bench.js');
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-first-open-'));
  try {
    const cache = join(tmp, 'code-cache');
    const cold = firstOpen(bench, options.samplePath, 'none', false);
    firstOpen(bench, options.samplePath, cache, true, 1); // writes the code cache, as the first activation does
    const cached = firstOpen(bench, options.samplePath, cache, false);
    const warmed = firstOpen(bench, options.samplePath, cache, true);
    console.log(
      `\nFirst open of the sample in a fresh process (read in a job worker + derive in a home worker, median of 5 processes):\n` +
        `  no code cache ${cold.toFixed(1)} ms · with the code cache ${cached.toFixed(1)} ms (${(cold / cached).toFixed(2)}×) · workers warmed at activation ${warmed.toFixed(1)} ms (${(cold / warmed).toFixed(2)}×)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
