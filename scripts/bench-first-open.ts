/**
 * The user's first open after starting VS Code, in fresh processes: read + derive of the sample
 * through the worker pool, cold (no code cache), with the V8 code cache the first activation
 * writes, and with the workers warmed at activation (what the extension does).
 *
 * `node dist/bench.js first-open PROFILE none|CACHE_DIR warm|cold` is one such process; wall time with
 * the process's CPU time (all threads) beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool } from '../src/service/worker-pool';
import { formatRatio, formatTiming, summarise, timeOnce, type Repeated, type Timing } from './bench-timing';

/** One first open in this process; prints its wall and CPU milliseconds (CPU of every thread: the workers'). */
export async function firstOpenOnce(
  path: string,
  cacheDir: string,
  warm: boolean,
  workerScript: string,
): Promise<void> {
  const pool = new WorkerPool({ workerScript, ...(cacheDir === 'none' ? {} : { codeCacheDir: cacheDir }) });
  try {
    if (warm) await pool.warm({});
    const t = await timeOnce(async () => {
      const opened = await pool.open({ path });
      await pool.derive({ dataset: opened.dataset, metric: opened.data.primaryMetric });
    });
    console.log(`${t.wallMs.toFixed(3)} ${t.cpuMs.toFixed(3)}`);
  } finally {
    pool.dispose();
  }
}

/** Medians over `runs` fresh processes of the first open of `path`. */
function firstOpen(bench: string, path: string, cache: string, warm: boolean, runs = 5): Repeated {
  const times: Timing[] = [];
  for (let k = 0; k < runs; k++) {
    const r = spawnSync(process.execPath, [bench, 'first-open', path, cache, warm ? 'warm' : 'cold'], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`first-open run failed: ${r.stderr}`);
    const [wallMs, cpuMs] = r.stdout.trim().split('\n').pop()!.split(' ').map(Number);
    times.push({ wallMs: wallMs!, cpuMs: cpuMs! });
  }
  return summarise(times);
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
        `  no code cache ${formatTiming(cold, { digits: 1 })} · with the code cache ${formatTiming(cached, { digits: 1 })} (${formatRatio(cold.wallMs / cached.wallMs, 2)}) · ` +
        `workers warmed at activation ${formatTiming(warmed, { digits: 1 })} (${formatRatio(cold.wallMs / warmed.wallMs, 2)})`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
