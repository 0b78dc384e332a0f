/**
 * Responsiveness at 10⁶ nodes, without VS Code: the extension host's pipeline from "open" to the
 * first CodeLens and on a metric switch, with the host thread's event-loop delay measured while it
 * runs. Two pipelines over the same generated profile:
 *
 * - before: what the extension did until the persistent worker — a fresh worker per parse, then
 *   every derivation (function totals, per-context values, line costs, side-bar lists) on the
 *   host's thread (the Sankey data too, but that is left out of this measurement: see below);
 * - after: the warm analysis worker (parse-client.ts) — the host only sends requests, maps files
 *   and places lenses for the file on screen.
 *
 * Also the first open in a fresh process (how a user's first open after starting VS Code behaves):
 * fresh worker, fresh worker with the V8 code cache, and the pre-warmed worker activation starts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { findFunctionDefinition } from '../src/analysis/source/function-definitions';
import {
  fileFunctions,
  packLineCosts,
  sideBarLists,
  unpackLines,
  type DerivedData,
  type DeriveOptions,
} from '../src/extension/workers/derived-data';
import { AnalysisWorker } from '../src/extension/workers/parse-client';
import { functionInclusiveByContext, functionTotals, lineCosts } from '../src/analysis/model/aggregates';
import type { Profile } from '../src/analysis/model/profile';
import { writeLargeProfile, writeLargeProfileSources } from './large-profile-generator';

const OPTIONS: DeriveOptions = { hotPathThreshold: 0.05, listLength: 50 };

/** Watches the thread's event loop: percentiles from perf_hooks and the longest gap between 1 ms ticks. */
class LoopWatch {
  private readonly h = monitorEventLoopDelay({ resolution: 5 });
  private last = performance.now();
  private longest = 0;
  private readonly timer: NodeJS.Timeout;
  constructor() {
    this.h.enable();
    this.timer = setInterval(() => {
      const now = performance.now();
      this.longest = Math.max(this.longest, now - this.last);
      this.last = now;
    }, 1);
  }
  /** Counts a synchronous step the caller timed itself (a gap the interval may not see if the phase ends with it). */
  blocked(ms: number): void {
    this.longest = Math.max(this.longest, ms);
  }
  stop(): { max: number; p99: number; longest: number } {
    clearInterval(this.timer);
    this.longest = Math.max(this.longest, performance.now() - this.last);
    this.h.disable();
    return { max: this.h.max / 1e6, p99: this.h.percentile(99) / 1e6, longest: this.longest };
  }
}

/** Lets the event loop turn (so the watch sees the gap a synchronous step caused). */
const tick = () => new Promise<void>(r => setImmediate(r));

/** Runs a synchronous host step as its own task and records how long it blocked. */
async function hostStep<T>(watch: LoopWatch, f: () => T): Promise<T> {
  await tick();
  const t = performance.now();
  const v = f();
  watch.blocked(performance.now() - t);
  await tick();
  return v;
}

/** CodeLens placement for the functions of one recorded file, as code-lens.ts does it. */
function placeLenses(d: DerivedData, fileIndex: number, sourceText: string): number {
  const ff = d.fileFunctions;
  let placed = 0;
  for (let j = ff.start[fileIndex]!; j < ff.start[fileIndex + 1]!; j++) {
    const near = ff.near[j]! > 0 ? ff.near[j]! - 1 : undefined;
    if (findFunctionDefinition(sourceText, d.functions.names[ff.fn[j]!]!, near) >= 0) placed++;
  }
  return placed;
}

/** The recorded file with the most exclusive cost (the one a user opens first). */
function hottestFile(d: DerivedData): number {
  let best = 0,
    bestV = -1;
  const l = d.lines;
  for (let k = 0; k < l.files.length; k++) {
    let v = 0;
    for (let j = l.lineStart[k]!; j < l.lineStart[k + 1]!; j++) v += l.exclusive[j]!;
    if (v > bestV) {
      bestV = v;
      best = k;
    }
  }
  return best;
}

interface Phase {
  ms: number;
  max: number;
  p99: number;
  longest: number;
}
const fmt = (p: Phase) =>
  `${p.ms.toFixed(0).padStart(6)} ms   event loop max ${p.max.toFixed(1).padStart(6)} ms · p99 ${p.p99.toFixed(1).padStart(6)} ms · longest task ${p.longest.toFixed(1).padStart(6)} ms`;

async function lensFile(d: DerivedData): Promise<{ file: string; text: string; k: number }> {
  const k = d.fileFunctions.files.indexOf(d.lines.files[hottestFile(d)]!);
  const file = d.fileFunctions.files[k]!;
  return { file, text: readFileSync(file, 'utf8'), k };
}

/** The pipeline before the persistent worker: a fresh worker per parse, derivations on this thread. */
async function before(path: string, workerScript: string): Promise<{ open: Phase; switch: Phase; lenses: number }> {
  let watch = new LoopWatch();
  let t = performance.now();
  const worker = new AnalysisWorker({ workerScript });
  const profile = await worker.parse(path);
  worker.dispose();
  const derive = async (p: Profile, m: number): Promise<DerivedData> => {
    // The same passes LoadedProfile.derive and the side-bar views ran on the host, one task each.
    const functions = await hostStep(watch, () => functionTotals(p, m));
    const functionByContext = await hostStep(watch, () => functionInclusiveByContext(p, m, functions));
    const lines = await hostStep(watch, () => packLineCosts(lineCosts(p, m)));
    const ff = await hostStep(watch, () => fileFunctions(p, functions.functionOfNode));
    const sideBar = await hostStep(watch, () => sideBarLists(p, m, functions, OPTIONS));
    // The Sankey data (superGraphData) is left out here: at 10⁶ nodes it alone runs for minutes, so
    // these "before" figures are a lower bound; the "after" run times it in the worker.
    return {
      metric: m,
      functions,
      functionByContext,
      lines,
      fileFunctions: ff,
      sideBar,
      exclusiveByMetric: [],
      inclusiveByMetric: [],
      total: p.total(m),
      hottestLine: 0,
      nodeTotals: { inclusive: p.inclusiveTotals(m), exclusive: p.exclusiveTotals(m) },
    };
  };
  let d = await derive(profile, profile.primaryMetric);
  const { text, k } = await lensFile(d);
  const lenses = await hostStep(watch, () => placeLenses(d, k, text));
  const open = { ms: performance.now() - t, ...watch.stop() };
  watch = new LoopWatch();
  t = performance.now();
  d = await derive(profile, (profile.primaryMetric + 1) % profile.metrics.length);
  await hostStep(watch, () => placeLenses(d, d.fileFunctions.files.indexOf(d.fileFunctions.files[k]!), text));
  const sw = { ms: performance.now() - t, ...watch.stop() };
  return { open, switch: sw, lenses };
}

/** The pipeline now: the warm analysis worker does every O(n) pass; the host maps and places lenses. */
async function after(
  path: string,
  worker: AnalysisWorker,
): Promise<{ open: Phase; switch: Phase; sankeyMs: number | null; lenses: number }> {
  let watch = new LoopWatch();
  let t = performance.now();
  const profile = await worker.parse(path);
  let d = await worker.derive(profile, profile.primaryMetric, OPTIONS);
  // What LoadedProfile.derive does on the host besides mapping files: adopt the shared node totals, build the child index.
  await hostStep(watch, () => profile.adoptTotals(d.metric, d.nodeTotals));
  await hostStep(watch, () => profile.tree.children(0));
  const { text, k } = await lensFile(d);
  const lenses = await hostStep(watch, () => {
    unpackLines(d.lines, d.lines.files.indexOf(d.fileFunctions.files[k]!));
    return placeLenses(d, k, text);
  });
  const open = { ms: performance.now() - t, ...watch.stop() };
  // superGraphData is far from linear today: above 2·10⁵ nodes it runs for minutes (in the worker, off the host).
  let sankeyMs: number | null = null;
  if (profile.tree.size <= 200_000) {
    const ts = performance.now();
    await worker.sankey(profile, 'bench', { metric: profile.primaryMetric });
    sankeyMs = performance.now() - ts;
  }
  watch = new LoopWatch();
  t = performance.now();
  d = await worker.derive(profile, (profile.primaryMetric + 1) % profile.metrics.length, OPTIONS);
  await hostStep(watch, () => profile.adoptTotals(d.metric, d.nodeTotals));
  await hostStep(watch, () => {
    unpackLines(d.lines, d.lines.files.indexOf(d.fileFunctions.files[k]!));
    return placeLenses(d, k, text);
  });
  const sw = { ms: performance.now() - t, ...watch.stop() };
  return { open, switch: sw, sankeyMs, lenses };
}

/** `node dist/bench.js first-open PROFILE none|CACHE_FILE warm|cold`: one first open in this fresh process. */
export async function firstOpenOnce(path: string, cache: string, warm: boolean, workerScript: string): Promise<void> {
  const worker = new AnalysisWorker({ workerScript, ...(cache === 'none' ? {} : { codeCacheFile: cache }) });
  if (warm) await worker.warm();
  const t = performance.now();
  const profile = await worker.parse(path);
  await worker.derive(profile, profile.primaryMetric, OPTIONS);
  console.log((performance.now() - t).toFixed(3));
  worker.dispose();
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median over `runs` fresh processes of the first open (parse + derive) of `path`. */
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

export async function benchResponsiveness(options: {
  distDir: string;
  samplePath?: string;
  nodes?: number;
  ranks?: number;
}): Promise<void> {
  const nodes = options.nodes ?? (Number(process.env.HPC_LENS_BENCH_NODES) || 1_000_000),
    ranks = options.ranks ?? 16;
  const workerScript = join(options.distDir, 'parse-worker.js');
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-responsiveness-'));
  try {
    const gen = { nodes, ranks, files: 2000, sourceDir: join(tmp, 'src') };
    const path = join(tmp, 'large.json');
    const t = performance.now();
    const { bytes } = writeLargeProfile(path, gen);
    writeLargeProfileSources(gen);
    console.log(
      `\nResponsiveness: generated ${nodes.toLocaleString('en')} nodes × ${ranks} ranks, ${gen.files} files, 2 metrics (Caliper json-split, ${(bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1e3).toFixed(1)} s`,
    );

    const b = await before(path, workerScript);
    console.log(`  before (fresh worker, derivations on the host), open → first CodeLens: ${fmt(b.open)}`);
    console.log(`  before, switch metric → CodeLens:                                     ${fmt(b.switch)}`);

    const worker = new AnalysisWorker({ workerScript });
    const w = await worker.warm();
    const a = await after(path, worker);
    worker.dispose();
    console.log(
      `  after (warm analysis worker, warm-up ${w.ms.toFixed(0)} ms), open → first CodeLens:  ${fmt(a.open)}`,
    );
    console.log(`  after, switch metric → CodeLens:                                      ${fmt(a.switch)}`);
    console.log(
      `  after, Sankey data computed in the worker: ${a.sankeyMs === null ? 'not measured above 2·10⁵ nodes (minutes)' : `${a.sankeyMs.toFixed(0)} ms`} (host not involved); lenses placed: ${a.lenses} (before: ${b.lenses})`,
    );
    console.log(
      `  longest host task: before ${Math.max(b.open.longest, b.switch.longest).toFixed(0)} ms → after ${Math.max(a.open.longest, a.switch.longest).toFixed(0)} ms; ` +
        `time to first CodeLens ${(b.open.ms / a.open.ms).toFixed(2)}× faster, metric switch ${(b.switch.ms / a.switch.ms).toFixed(2)}× faster`,
    );

    if (options.samplePath) {
      const bench = join(options.distDir, 'bench.js');
      const cache = join(tmp, 'code-cache', 'parse-worker.bin');
      const cold = firstOpen(bench, options.samplePath, 'none', false);
      firstOpen(bench, options.samplePath, cache, true, 1); // writes the code cache, as the first activation does
      const cached = firstOpen(bench, options.samplePath, cache, false);
      const warmed = firstOpen(bench, options.samplePath, cache, true);
      console.log(
        `  first open of the sample in a fresh process (parse + derive, median of 5 processes): fresh worker ${cold.toFixed(1)} ms · ` +
          `with the code cache ${cached.toFixed(1)} ms (${(cold / cached).toFixed(2)}×) · pre-warmed at activation ${warmed.toFixed(1)} ms (${(cold / warmed).toFixed(2)}×)`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
