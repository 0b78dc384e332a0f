/**
 * PDES readers: wall time to read each shared ROSS/CODES run (median of repeats), the Theta-like
 * case (16 PEs × 16 KPs = 256 KPs, 7,776 LPs with LP samples and a full event trace, generated),
 * and KP-level (128 × 128) interval communication matrices from the 8-PE run's 249,907-event trace
 * (the budget: under 1 s); wall time with CPU beside. Run: `npm run bench -- pdes-readers`.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readPdesRun } from '../src/analysis/formats/ross/pdes-run-reader';
import { intervalMatrices, tickEdges } from '../src/analysis/pdes/model/communication';
import type { PdesRun } from '../src/analysis/pdes/model/pdes-run';
import { generateRossRun } from '../src/analysis/pdes/testing/ross-generator';
import { THETA_LIKE } from '../src/analysis/topology/dragonfly';
import { formatTiming, timeRepeated, timeSync } from './bench-timing';

const SHARED = process.env.HPC_LENS_SHARED_DIR ?? resolve(__dirname, '..', '..', 'shared');
const RUNS = [
  'ross-phold-2pe',
  'codes-dragonfly-dally-72-uniform-random',
  'codes-dragonfly-dally-72-nearest-neighbor',
  'codes-dragonfly-dally-72-uniform-random-8pe-fulltrace',
];

function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function benchPdesReaders(): Promise<void> {
  console.log('\nPDES readers (ROSS/CODES runs; median of repeats, one process):');
  let full: PdesRun | null = null;
  const base = join(SHARED, 'data', 'pdes-ross-codes');
  if (existsSync(base)) {
    await readPdesRun(join(base, RUNS[0]!)); // warm-up
    let all = 0,
      allCpu = 0;
    for (const name of RUNS) {
      const dir = join(base, name);
      let run: PdesRun | null = null;
      const t = await timeRepeated(async () => (run = await readPdesRun(dir)), { warmup: 0 });
      all += t.wallMs;
      allCpu += t.cpuMs;
      if (name.endsWith('fulltrace')) full = run;
      const r = run!;
      console.log(
        `  ${name.padEnd(52)} ${mb(folderBytes(dir)).padStart(8)}: ${formatTiming(t, { digits: 0, width: 8 })}  ` +
          `(${r.entities.count('kp')} KPs, ${r.eventTrace?.count ?? 0} events, ${r.packets?.count ?? 0} packets, ` +
          `${r.routerHops?.count ?? 0} router hops)`,
      );
    }
    console.log(`  all four runs: ${formatTiming({ wallMs: all, cpuMs: allCpu }, { digits: 0 })}`);
  } else console.log(`  (shared runs not present at ${base}; skipped)`);

  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-pdes-'));
  try {
    const gen = timeSync(() =>
      generateRossRun(dir, { seed: 1, ticks: 50, eventsPerKp: 12, lpData: true, dragonfly: THETA_LIKE }),
    );
    const truth = gen.value;
    let run: PdesRun | null = null;
    const read = await timeRepeated(async () => (run = await readPdesRun(dir)), { repeats: 3, warmup: 0 });
    const r = run!;
    console.log(
      `  Theta-like (${r.entities.count('kp')} KPs, ${r.entities.count('lp')} LPs, ${truth.parameters.ticks} GVT rounds, ` +
        `${r.samples.gvt!.records.lp} LP + ${r.samples.gvt!.records.kp} KP samples, ${r.eventTrace!.count} events, ` +
        `${mb(folderBytes(dir))}): read ${formatTiming(read, { digits: 0 })} (generated in ${formatTiming(gen, { digits: 0 })})`,
    );
    if (!full) {
      generateRossRun(dir, { seed: 2, pes: 8, kpsPerPe: 16, ticks: 15, eventsPerKp: 130 });
      full = await readPdesRun(dir);
      console.log('  (interval matrices on a generated 8 × 16 KP run instead of the shared trace)');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const trace = full!.eventTrace!;
  const edges = tickEdges(full!.samples.gvt!.ticks.virtualTime);
  let count = 0;
  const kp = await timeRepeated(() => (count = intervalMatrices(trace, full!.entities, 'kp', edges).length), {
    repeats: 7,
    warmup: 0,
  });
  const pe = await timeRepeated(() => intervalMatrices(trace, full!.entities, 'pe', edges), { repeats: 7, warmup: 0 });
  console.log(
    `  ${count} interval matrices of ${full!.entities.count('kp')} × ${full!.entities.count('kp')} KPs from ` +
      `${trace.count} events: ${formatTiming(kp, { digits: 1 })} (PE level ${formatTiming(pe, { digits: 1 })}; budget 1 s)`,
  );
}
