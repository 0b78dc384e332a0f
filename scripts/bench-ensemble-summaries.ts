// Ensembles at cluster scale (issue 17): summarise N generated runs × 10⁴ nodes, open them as an
// ensemble from the profiles and from the summaries through the analysis service (the path Open
// Folder as Ensemble takes), check two concurrent `hpc-lens summarize` shards write the same files as
// one process, and AT-11's interaction budgets on ensembles opened from disk. Budgets are printed
// with every figure; past 2× a budget the section exits non-zero.
// Run: `node esbuild.mjs && node --expose-gc dist/bench.js ensemble-summaries`
// (HPC_LENS_BENCH_SUMMARY_RUNS overrides the 1,000 runs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeRuns } from '../src/analysis/ensemble/summary-store';
import { writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import type { EnsembleRequest } from '../src/shared/ensemble-protocol';
import { unpackEnsembleGraph } from '../src/shared/ensemble-packing';
import { filesUnder } from '../src/analysis/ensemble/testing/files-under';
import { collectGarbage, formatMs, formatTiming, timeOnce, type Timing } from './bench-timing';

/** Milliseconds, in seconds from 1 s up; with CPU beside for a timing. */
const fmt = (v: number | Timing) =>
  typeof v === 'number' ? formatMs(v, { digits: 1, seconds: 1000 }) : formatTiming(v, { digits: 1, seconds: 1000 });

const files = filesUnder;

function bytesUnder(dir: string): number {
  return files(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
}

let failed = false;
/** Prints a figure (wall time, CPU beside) against its budget; more than 2× the budget fails the section. */
function budget(label: string, t: Timing, limit: number): void {
  const value = t.wallMs;
  const verdict = value <= limit ? 'met' : value <= 2 * limit ? 'over budget (within 2×)' : 'FAILED (> 2×)';
  if (value > 2 * limit) failed = true;
  console.log(`  ${label.padEnd(64)} ${fmt(t).padStart(22)}  (budget ${fmt(limit)}: ${verdict})`);
}

/** Runs `hpc-lens summarize` (the built CLI beside this script) as a child process. */
function summarizeProcess(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'cli.js'), 'summarize', ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', code => resolve(code ?? 1));
  });
}

/** Opens `paths` as an ensemble in a fresh in-process service and times AT-11's interactions on it. */
async function openAndInteract(
  label: string,
  paths: string[],
  budgets: { detail: number; target: number; diff: number; split: number } | null,
): Promise<Timing> {
  const s = new LocalAnalysisService();
  const open = await timeOnce(() => s.openEnsemble({ paths }));
  const e = open.value;
  // CPU time of this process as well as wall time: on a shared machine the wall clock measures the neighbours too.
  console.log(
    `  ${label}: open ${fmt(open.wallMs)} wall, ${fmt(open.cpuMs)} CPU (${e.sources.summaries} runs from summaries, ${e.sources.profiles} profiles parsed, ${e.data.tree.parent.length} union nodes)`,
  );
  if (budgets) {
    const metric = e.data.metrics[e.data.primaryMetric]!.name;
    const ask = async (request: EnsembleRequest | null) => {
      const t = await timeOnce(() =>
        s.ensembleView({ dataset: e.dataset, request, metric, title: label, moduleMap: [] }),
      );
      return { r: t.value, t };
    };
    const first = await ask(null);
    const nodes = unpackEnsembleGraph(first.r.graph!.data).nodes;
    // The supernode with the most call-tree nodes: the costliest detail to compute.
    const heavy = nodes.reduce((a, b) => (b.memberCount > a.memberCount ? b : a));
    const select = await ask({ type: 'ensemble/select', nodeId: heavy.id });
    const hover = await ask({ type: 'ensemble/select', nodeId: nodes[nodes.length >> 1]!.id });
    await ask({ type: 'ensemble/mode', mode: 'target' });
    const target = await ask({ type: 'ensemble/target', run: 1 });
    await ask({ type: 'ensemble/mode', mode: 'diff' });
    const diff = await ask({ type: 'ensemble/diff', baseline: 0, compare: e.runs.length - 1 });
    const splittable = nodes.find(n => n.entryCount > 1) ?? heavy;
    const split = await ask({ type: 'ensemble/split', nodeId: splittable.id, mode: 'entry' });
    budget(`${label}: select a supernode (detail, ${heavy.memberCount} nodes)`, select.t, budgets.detail);
    budget(`${label}: select another (hover detail)`, hover.t, budgets.detail);
    budget(`${label}: target switch`, target.t, budgets.target);
    budget(`${label}: diff pair switch`, diff.t, budgets.diff);
    budget(`${label}: split ${splittable.label} by entry`, split.t, budgets.split);
  }
  await s.close({ dataset: e.dataset });
  collectGarbage();
  return { wallMs: open.wallMs, cpuMs: open.cpuMs };
}

export async function benchEnsembleSummaries(): Promise<void> {
  const runs = Number(process.env['HPC_LENS_BENCH_SUMMARY_RUNS'] ?? 1000);
  const nodes = 10_000,
    contexts = 4;
  console.log(`\nEnsemble summaries: ${runs} runs × ~${nodes} nodes × ${contexts} ranks stored, json-split on disk`);
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-summaries-'));
  try {
    const profiles = join(dir, 'runs'),
      sums = join(dir, 'summaries'),
      sharded = join(dir, 'sharded');
    const generated = await timeOnce(() => writeSyntheticEnsemble(profiles, { runs, nodes, maxContexts: contexts }));
    console.log(`  generate ${runs} profiles: ${fmt(generated)}, ${(bytesUnder(profiles) / 1e6).toFixed(0)} MB`);

    const summarized = await timeOnce(() => summarizeRuns([profiles], { out: sums }));
    const report = summarized.value;
    const summarize = summarized.wallMs;
    const profileBytes = bytesUnder(profiles),
      summaryBytes = bytesUnder(sums);
    const share = summaryBytes / profileBytes;
    console.log(
      `  summarize (one process): ${fmt(summarized)} = ${fmt(summarize / runs)} per run; ${report.runs.filter(r => r.outcome === 'written').length} written`,
    );
    console.log(
      `  summaries ${(summaryBytes / 1e6).toFixed(1)} MB = ${(100 * share).toFixed(1)} % of the profiles' ${(profileBytes / 1e6).toFixed(0)} MB (budget ≤ 10 %: ${share <= 0.1 ? 'met' : 'NOT met'})`,
    );
    if (share > 0.2) failed = true;
    const again = await timeOnce(() => summarizeRuns([profiles], { out: sums }));
    console.log(
      `  rerun: ${again.value.runs.filter(r => r.outcome === 'current').length} of ${runs} current, skipped in ${fmt(again)}`,
    );

    // Child processes: their CPU time is not this process's, so wall time only.
    const shards = await timeOnce(() =>
      Promise.all([0, 1].map(i => summarizeProcess(['--shard', `${i}/2`, '--out', sharded, profiles]))),
    );
    const codes = shards.value;
    const shardTime = shards.wallMs;
    const same =
      files(sharded).join('\n') === files(sums).join('\n') &&
      files(sums).every(f => readFileSync(join(sums, f)).equals(readFileSync(join(sharded, f))));
    console.log(
      `  two shards as concurrent processes: ${fmt(shardTime)}, exit codes ${codes.join(', ')}; same files as one process: ${same ? 'yes' : 'NO'}`,
    );
    if (!same || codes.some(c => c !== 0)) failed = true;

    collectGarbage();
    const fromSummaries = await openAndInteract(`${runs} runs from summaries`, [sums], {
      detail: 100,
      target: 3000,
      diff: 3000,
      split: 3000,
    });
    const fromProfiles = await openAndInteract(`${runs} runs from profiles`, [profiles], null);
    const speedup = fromProfiles.wallMs / fromSummaries.wallMs,
      cpuSpeedup = fromProfiles.cpuMs / fromSummaries.cpuMs;
    budget(`open ${runs} runs from summaries (wall)`, fromSummaries, 3000);
    console.log(
      `  open from summaries is ${speedup.toFixed(1)}× faster than from profiles in wall time, ${cpuSpeedup.toFixed(1)}× in CPU time (budget ≥ 10×: ${Math.max(speedup, cpuSpeedup) >= 10 ? 'met' : 'NOT met'})`,
    );
    if (speedup < 5) failed = true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // AT-11: 100 OSU_Bcast-like runs (16 ranks, ~40 call sites) from disk.
  const small = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-at11-'));
  try {
    writeSyntheticEnsemble(join(small, 'runs'), { runs: 100, nodes: 40, maxContexts: 16 });
    await summarizeRuns([join(small, 'runs')], { out: join(small, 'summaries') });
    await openAndInteract('AT-11, 100 OSU-like runs from summaries', [join(small, 'summaries')], {
      detail: 100,
      target: 1000,
      diff: 1000,
      split: 1000,
    });
  } finally {
    rmSync(small, { recursive: true, force: true });
  }
  if (failed) {
    console.log('  ensemble-summaries: some figure is past 2× its budget (see above)');
    process.exitCode = 1;
  }
}
