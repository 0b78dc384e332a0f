/**
 * Caliper json-split at scale: the reader against JSON.parse of the same bytes (paired in this
 * process), and the time to the first CodeLens of a ~100 MB profile through the path the extension
 * takes (read in a job worker of a warmed pool, then derive in its home worker: the per-line and
 * per-function aggregates the CodeLens and heat read).
 *
 *   node --expose-gc dist/bench.js json-split
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import { WorkerPool } from '../src/service/worker-pool';
import { formatPaired, formatTiming, jsonParseFile, loadNote, paired, timeRepeated } from './bench-timing';

/** Writes a synthetic json-split profile: `nodes` regions in a 4-ary tree, one row per node and rank. */
export function writeSyntheticJsonSplit(path: string, nodes: number, ranks: number): void {
  const fd = openSync(path, 'w');
  let buf: string[] = [];
  const flush = () => {
    writeSync(fd, buf.join(''));
    buf = [];
  };
  buf.push('{"data":[');
  for (let i = 0; i < nodes; i++) {
    for (let r = 0; r < ranks; r++) {
      const v = ((i * 7919 + r * 104729) % 100000) / 7.0;
      buf.push(`${i || r ? ',' : ''}[${(v * 2).toFixed(6)},${r},${v.toFixed(6)},${i}]`);
    }
    if (buf.length > 100000) flush();
  }
  buf.push('],"columns":["inclusive#sum#time.duration","mpi.rank","sum#time.duration","path"],');
  buf.push('"column_metadata":[{"is_value":true},{"is_value":true},{"is_value":true},{"is_value":false}],"nodes":[');
  for (let i = 0; i < nodes; i++)
    buf.push(`${i ? ',' : ''}{"label":"region_${i}","column":"path"${i ? `,"parent":${(i - 1) >> 2}` : ''}}`);
  buf.push('],"mpi.world.size":"' + ranks + '"}');
  flush();
  closeSync(fd);
}

/** Open + derive through a warmed worker pool, as the extension does before its first CodeLens. */
async function firstCodeLens(path: string, workerScript: string, repeats = 3): Promise<void> {
  const pool = new WorkerPool({ workerScript });
  try {
    await pool.warm({});
    // The workers are threads of this process: their CPU time counts.
    const t = await timeRepeated(
      async () => {
        const opened = await pool.open({ path });
        const d = await pool.derive({
          dataset: opened.dataset,
          metric: opened.data.primaryMetric,
        });
        if (d.functions.names.length === 0) throw new Error('derive gave no functions');
        await pool.close({ dataset: opened.dataset });
      },
      { repeats, warmup: 0 },
    );
    console.log(
      `  first CodeLens of ${(statSync(path).size / 1e6).toFixed(0)} MB json-split (open in a job worker + derive, warmed pool): ` +
        `median ${formatTiming(t, { digits: 0 })}, first run ${formatTiming(t.runs[0]!, { digits: 0 })}; ${repeats} runs, CPU of all threads`,
    );
  } finally {
    pool.dispose();
  }
}

export async function benchJsonSplit(options: { distDir: string }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-json-split-'));
  try {
    console.log(`\nCaliper json-split reader vs JSON.parse of the same bytes, paired, median of 5 (${loadNote()}):`);
    const big = join(dir, 'big.json');
    writeSyntheticJsonSplit(big, 34000, 128);
    let nodes = 0;
    const t = await paired({
      ours: async () => {
        nodes = (await readProfile(big)).tree.size;
      },
      baseline: () => jsonParseFile(big),
    });
    console.log(
      formatPaired(`synthetic json-split, 34000 regions × 128 ranks (${nodes} nodes)`, statSync(big).size / 1e6, t),
    );
    rmSync(big, { force: true });
    const mid = join(dir, 'mid.json');
    writeSyntheticJsonSplit(mid, 22000, 128);
    await firstCodeLens(mid, join(options.distDir, 'analysis-worker.js'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
