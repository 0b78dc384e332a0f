/**
 * `npm run bench [section…]`: the benchmarks, each a named section run only when asked (all of them
 * without arguments). Ratios are measured in one run on one machine: reader throughput against
 * `JSON.parse` of the same bytes, first reads against Hatchet's recorded times, and the analysis
 * service's figures (host blocking, reads beside each other, cached selections).
 *
 *   npm run bench -- service timeline      two sections
 *   npm run bench -- --list                the sections
 *   npm run bench -- goals [--large]       issue 24's table of goals (--large: the 500 MB and 2 GB traces)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import { findFunctionDefinition } from '../src/analysis/source/function-definitions';
import { WorkerPool } from '../src/service/worker-pool';
import { benchReaders, readerTable } from './bench-readers';
import { benchChromeTrace } from './bench-chrome-trace';
import { benchDataMovement } from './bench-data-movement';
import { benchTimeline, benchTimelineWorker } from './bench-timeline';
import { benchLayout } from './bench-layout';
import { benchSuperGraph } from './bench-super-graph';
import { benchEnsemble } from './bench-ensemble';
import { benchEnsembleSummaries } from './bench-ensemble-summaries';
import { benchFirstOpen, firstOpenOnce } from './bench-first-open';
import { benchService } from './bench-service';
import { benchCallflowFilter } from './bench-callflow-filter';
import { benchSeries } from './bench-series';
import { benchTraceAnalysis } from './bench-trace-analysis';
import { benchPdesReaders } from './bench-pdes-readers';
import { benchPdesAnalysis } from './bench-pdes-analysis';
import { benchPdesStream } from './bench-pdes-stream';
import { benchMemory } from './bench-memory';
import { benchDmv } from './bench-dmv';
import { benchTopology } from './bench-topology';
import { benchFirstCodeLens, benchGoals } from './bench-goals';
import { benchSparseModel, sparseModelOnce } from './bench-sparse-model';
import { benchJsonSplit, writeSyntheticJsonSplit } from './bench-json-split';
import { benchEnsembleTransfer, benchTransfer } from './bench-transfer';
import { formatMBs, formatMs, formatTiming, paired, timeRepeated } from './bench-timing';
import { benchJsonTokenizer } from './bench-json-tokenizer';
import { benchXmlTokenizer } from './bench-xml-tokenizer';

const ROOT = resolve(__dirname, '..');
const SHARED = resolve(ROOT, '..', 'shared');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(p));
    else if (e.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

async function throughput(label: string, path: string, repeats: number): Promise<void> {
  const bytes = statSync(path).size;
  // Paired: each JSON.parse beside a read of the same bytes, so both see the same load.
  const t = await paired(
    { ours: () => readProfile(path), baseline: () => JSON.parse(readFileSync(path, 'utf8')) },
    { repeats },
  );
  const rate = (ms: number) => formatMBs(bytes, ms).padStart(12);
  console.log(
    `${label.padEnd(72)} ${(bytes / 1e6).toFixed(3).padStart(8)} MB  JSON.parse ${rate(t.baseline.wallMs)}  reader ${rate(t.ours.wallMs)}  ratio ${(t.baseline.wallMs / t.ours.wallMs).toFixed(2)} (CPU ${(t.baseline.cpuMs / t.ours.cpuMs).toFixed(2)})`,
  );
}

/** Time from "open" to the first CodeLens for the sample: read, derive, lens placement. */
async function firstCodeLens(): Promise<void> {
  if (!existsSync(SAMPLE)) return;
  const pool = new WorkerPool({ workerScript: join(__dirname, 'analysis-worker.js') });
  try {
    await pool.warm({});
    const text = readFileSync(join(ROOT, 'samples/heat-stencil/src/stencil.c'), 'utf8');
    const t = await timeRepeated(
      async () => {
        const opened = await pool.open({ path: SAMPLE });
        const d = await pool.derive({
          dataset: opened.dataset,
          metric: opened.data.primaryMetric,
        });
        for (const name of d.functions.names) findFunctionDefinition(text, name);
        await pool.close({ dataset: opened.dataset });
      },
      { repeats: 7, warmup: 0 },
    );
    console.log(
      `\nTime to first CodeLens for the sample (read in a job worker + derive in its home + lens placement): median ${formatTiming(t, { digits: 1 })} (CPU: host and workers; min ${formatMs(t.min.wallMs, { digits: 1 })}, first run ${formatTiming(t.runs[0]!, { digits: 1 })})`,
    );
  } finally {
    pool.dispose();
  }
}

async function readers(): Promise<void> {
  if (!existsSync(join(SHARED, 'oracle'))) return;
  console.log(
    'Every reader on the shared datasets with a Hatchet oracle (median read time in this process after a warm-up):\n',
  );
  console.log(readerTable(await benchReaders(SHARED)));
}

async function throughputs(): Promise<void> {
  console.log(
    '\nReader throughput (paired in this process, median of repeats; ratio = JSON.parse time / reader time, higher is better)',
  );
  const files = [
    ...jsonFiles(join(ROOT, 'samples', 'heat-stencil', 'profiles')).map(p => [relative(ROOT, p), p] as const),
    ...jsonFiles(join(SHARED, 'data', 'caliper-json')).map(p => [relative(join(SHARED, '..'), p), p] as const),
  ];
  for (const [label, p] of files) await throughput(label, p, 15);
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-'));
  try {
    for (const [nodes, ranks] of [
      [20000, 64],
      [50000, 128],
    ] as const) {
      const p = join(tmp, `synthetic-${nodes}x${ranks}.json`);
      writeSyntheticJsonSplit(p, nodes, ranks);
      await throughput(`synthetic json-split, ${nodes} nodes × ${ranks} ranks`, p, 3);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Every section, in the order a full run takes them (the first while the heap is small). */
export const SECTIONS: Record<string, () => Promise<void> | void> = {
  readers,
  throughput: throughputs,
  'first-codelens': firstCodeLens,
  'chrome-trace': () =>
    benchChromeTrace({
      large: LARGE,
      sizesMB: process.env.HPC_LENS_BENCH_TRACE_MB?.split(',').filter(Boolean).map(Number),
      devToolsMB: process.env.HPC_LENS_BENCH_DEVTOOLS_MB?.split(',').filter(Boolean).map(Number),
      shared: existsSync(SHARED) ? SHARED : undefined,
    }),
  'super-graph': benchSuperGraph,
  layout: benchLayout,
  'data-movement': benchDataMovement,
  timeline: benchTimeline,
  'timeline-service': () => benchTimelineWorker(),
  ensemble: () => benchEnsemble(),
  'first-open': () => {
    if (existsSync(SAMPLE)) benchFirstOpen({ distDir: __dirname, samplePath: SAMPLE });
  },
  service: () => benchService({ distDir: __dirname }),
  'callflow-filter': () => benchCallflowFilter(),
  series: () => benchSeries(),
  'trace-analysis': () => benchTraceAnalysis(),
  'pdes-readers': benchPdesReaders,
  'pdes-analysis': benchPdesAnalysis,
  'pdes-stream': benchPdesStream,
  memory: () => benchMemory(),
  dmv: () => benchDmv(),
  topology: () => benchTopology(),
  'ensemble-summaries': () => benchEnsembleSummaries(),
  // Issue 24's table; `--large` adds the 500 MB and 2 GB traces (minutes).
  goals: () => benchGoals({ shared: existsSync(SHARED) ? SHARED : undefined, distDir: __dirname, large: LARGE }),
  'sparse-model': () => benchSparseModel(__dirname),
  'json-split': () => benchJsonSplit({ distDir: __dirname }),
  // Issue 24's first-CodeLens row alone, with its steps.
  'goals-first-codelens': () => benchFirstCodeLens(__dirname),
  transfer: () => benchTransfer(),
  'json-tokenizer': () => benchJsonTokenizer(),
  'xml-tokenizer': () => benchXmlTokenizer(),
  // The Ensemble CallFlow rows of `transfer` alone (HPC_LENS_BENCH_ENSEMBLE_RUNS=100,1000).
  'transfer-ensemble': () => benchEnsembleTransfer(),
};

/** `--large`: the sections' optional multi-minute cases (the 2 GB trace). */
const LARGE = process.argv.includes('--large') || process.env.HPC_LENS_BENCH_LARGE === '1';

/** Runs the sections named on the command line (all without names); bench-launch.ts calls it. */
export async function main(): Promise<void> {
  const args = process.argv.slice(2).filter(a => a !== '--large');
  // One fresh-process run of the first-open section.
  if (args[0] === 'first-open' && args.length === 4)
    return firstOpenOnce(args[1]!, args[2]!, args[3] === 'warm', join(__dirname, 'analysis-worker.js'));
  if (args[0] === 'sparse-model-once' && args.length === 2) return sparseModelOnce(args[1]!);
  if (args.includes('--list')) {
    console.log(Object.keys(SECTIONS).join('\n'));
    return;
  }
  const unknown = args.filter(a => !(a in SECTIONS));
  if (unknown.length) throw new Error(`unknown bench section(s) ${unknown.join(', ')}; --list names them`);
  for (const name of args.length ? args : Object.keys(SECTIONS)) await SECTIONS[name]!();
}
