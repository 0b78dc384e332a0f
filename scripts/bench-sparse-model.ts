/**
 * `npm run bench -- sparse-model` (issue 24, sparse metric storage): a generated HPCToolkit v4
 * database shaped like the one the issue measured (64 profiles, 44 metrics, ~5 MB) read first in a
 * fresh process, with the bytes its model holds in the sparse form beside the dense matrices the
 * model used to make; and a generated Chrome trace opened through the CLI for its peak RSS
 * (`HPC_LENS_BENCH_SPARSE_GB`, default 2). CPU time is printed beside wall time: this machine is
 * shared, and load stretches wall time far more than CPU time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import {
  writeDatabase,
  type FixtureContext,
  type FixtureDatabase,
} from '../src/analysis/formats/hpctoolkit-metadb/test-db-writer';
import { seededRandom } from '../src/analysis/stats/seeded-random';
import { large as largeTraceThroughCli } from './bench-chrome-trace';
import { loadAverage, summarise, timeOnce } from './bench-timing';

const PROFILES = 64;
const METRICS = 44;

/** A database like hpcprof writes for a 64-rank run with 44 metrics, each context busy on some ranks. */
export function writeSparseModelDatabase(dir: string, contexts = 11000): void {
  const random = seededRandom(24);
  const metrics = Array.from({ length: METRICS }, (_, k) => ({
    name: k === 0 ? 'CPUTIME (sec)' : `PAPI_EVENT_${k} (count)`,
    scopes: ['point', 'function', 'execution'] as ('point' | 'function' | 'execution')[],
  }));
  let nextId = 2;
  const functions: FixtureDatabase['functions'] = [];
  const make = (depth: number): FixtureContext => {
    const id = nextId++;
    functions.push({ name: `solver_kernel_${id}`, module: 0, file: id % 20, line: 10 + (id % 400) });
    const self: Record<number, number[]> = {};
    for (let p = 0; p < PROFILES; p++)
      if (random() < 0.01) self[p] = Array.from({ length: METRICS }, () => (random() < 0.04 ? random() * 1000 : 0));
    const children: FixtureContext[] = [];
    while (depth < 6 && nextId < contexts && random() < 0.7) children.push(make(depth + 1));
    return { id, type: 'function', function: functions.length - 1, self, children };
  };
  const roots: FixtureContext[] = [];
  while (nextId < contexts) roots.push(make(0));
  const inputs = metrics.flatMap((m, k) =>
    ['execution', 'function'].map(
      s => `  - &m${k}-${s}\n    metric: ${m.name}\n    scope: ${s}\n    formula: $$\n    combine: sum`,
    ),
  );
  const children = metrics.map(
    (m, k) =>
      `      - name: ${m.name}\n        description: ${m.name} summed over threads\n        variants:\n          Sum:\n            render: [number, percent]\n            formula:\n              inclusive: *m${k}-execution\n              exclusive: *m${k}-function`,
  );
  writeDatabase(dir, {
    idNames: ['SUMMARY', 'NODE', 'RANK', 'THREAD'],
    metrics,
    modules: ['/opt/app/bin/solver'],
    files: Array.from({ length: 20 }, (_, f) => `/src/solver/part${f}.c`),
    functions,
    entries: [{ id: 1, name: 'main thread', children: roots }],
    profiles: Array.from({ length: PROFILES }, (_, p) => [
      ['NODE', p >> 4],
      ['RANK', p],
      ['THREAD', 0],
    ]),
    taxonomy: `version: 0\ninputs:\n${inputs.join('\n')}\nroots:\n  - name: CPU\n    description: Time and counters\n    variants:\n      Sum:\n        render: [number, percent]\n        formula: first\n    children:\n${children.join('\n')}\n`,
  });
}

/** The child: one first read of `dir`, printed as JSON (time, CPU, model bytes, what dense matrices would take). */
export async function sparseModelOnce(dir: string): Promise<void> {
  const read = await timeOnce(() => readProfile(dir));
  const p = read.value;
  let modelBytes = 0;
  let stored = 0;
  for (const side of [p.data.exclusive, p.data.inclusive])
    for (const v of side)
      if (v) {
        stored++;
        // Duck-typed, so this file also measures the dense model of older commits.
        const arrays = v instanceof Float64Array ? [v] : Object.values(v as unknown as Record<string, ArrayBufferView>);
        for (const a of arrays) modelBytes += a.byteLength;
      }
  const cells = p.tree.size * p.contextCount;
  console.log(
    JSON.stringify({
      wallMs: read.wallMs,
      cpuMs: read.cpuMs,
      nodes: p.tree.size,
      contexts: p.contextCount,
      metrics: p.metrics.length,
      modelBytes,
      // What densify made: one nodes × contexts Float64Array per stored side.
      denseBytes: stored * cells * 8,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

export async function benchSparseModel(distDir: string): Promise<void> {
  const load = () => loadAverage().one.toFixed(1);
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-sparse-'));
  try {
    const db = join(dir, 'db');
    writeSparseModelDatabase(db);
    const bytes = readdirSync(db).reduce((s, f) => s + (f.endsWith('.db') ? statSync(join(db, f)).size : 0), 0);
    console.log(
      `\nSparse model: a generated HPCToolkit v4 database, ${PROFILES} profiles × ${METRICS} metrics, ${(bytes / 1e6).toFixed(1)} MB (load ${load()} on ${loadAverage().cores} CPUs)`,
    );
    const runs: { wallMs: number; cpuMs: number; modelBytes: number; denseBytes: number; maxRssMB: number }[] = [];
    for (let k = 0; k < 3; k++) {
      const r = spawnSync(process.execPath, [join(distDir, 'bench.js'), 'sparse-model-once', db], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`the child failed: ${r.stderr.slice(-2000)}`);
      runs.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
    }
    const time = summarise(runs);
    const med = runs.sort((a, b) => a.wallMs - b.wallMs)[1]!;
    const first = JSON.parse(JSON.stringify(med)) as typeof med & { nodes: number; contexts: number };
    console.log(
      `  first read in a fresh process (median of 3): ${time.wallMs.toFixed(0)} ms wall, ${time.cpuMs.toFixed(0)} ms CPU (target < 300 ms); ${first.nodes} nodes × ${first.contexts} contexts`,
    );
    console.log(
      `  metric values held: ${(med.modelBytes / 1e6).toFixed(1)} MB in the model; the dense matrices made before: ${(med.denseBytes / 1e6).toFixed(0)} MB; peak RSS ${med.maxRssMB.toFixed(0)} MB`,
    );
    const gb = Number(process.env.HPC_LENS_BENCH_SPARSE_GB ?? 2);
    if (gb > 0) {
      console.log(
        `\nA generated ${gb} GB Chrome trace through the CLI (target peak RSS < 2× the file; load ${load()}):`,
      );
      await largeTraceThroughCli(dir, gb);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
