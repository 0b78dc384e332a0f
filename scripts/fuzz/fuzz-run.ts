/**
 * The fuzz campaign: for every format, `count` seeded cases written by `writeCase` and read by
 * `runInspect`, `jobs` at a time; failing inputs are kept with a note saying how to reproduce them.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { READERS } from '../../src/analysis/formats/registry';
import { writeCase, type FuzzCase } from './mutate';
import {
  buildCli,
  DEFAULT_LIMITS,
  FAILING,
  runInspect,
  type CaseResult,
  type RunLimits,
  type Verdict,
} from './run-case';
import { seedCorpus, type Seed } from './seed-corpus';

export interface FuzzOptions {
  seed: number;
  /** Reader ids (default: every reader). */
  formats?: string[];
  /** Cases per format. */
  count: number;
  /** Only these case indices (reproducing a failure). */
  cases?: number[];
  /** Parallel runs (default: half the cores, at least 1). */
  jobs?: number;
  /** Work directory: the CLI bundle, generated seeds, cases, and `failures/`. */
  workDir: string;
  /** The shared data folder, or null for none (default: ../shared/data when present). */
  sharedData?: string | null;
  limits?: RunLimits;
  /** Called after each case. */
  onCase?: (c: FuzzCase, r: CaseResult) => void;
}

export interface FormatStats {
  format: string;
  inputs: number;
  counts: Record<Verdict, number>;
  maxCpuSeconds: number;
  maxRssBytes: number;
}

export interface FuzzFailure {
  format: string;
  index: number;
  description: string;
  verdict: Verdict;
  detail: string;
  /** Where the failing input was kept. */
  kept: string;
}

export interface FuzzSummary {
  seed: number;
  stats: FormatStats[];
  failures: FuzzFailure[];
  seeds: Seed[];
  /** Cases the fuzzer itself could not write (a bug in a mutation, not in HPC Lens). */
  harnessErrors: string[];
}

const VERDICTS: Verdict[] = ['read', 'rejected', 'crash', 'timeout', 'memory', 'non-clean', 'non-finite'];

export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const { workDir } = options;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const cli = await buildCli(join(workDir, 'bin'));
  const seeds = await seedCorpus(join(workDir, 'seeds'), { sharedData: options.sharedData });
  const formats = options.formats ?? READERS.map(r => r.id);
  for (const f of formats) if (!READERS.some(r => r.id === f)) throw new Error(`unknown format ${f}`);
  const jobs = Math.max(1, options.jobs ?? Math.floor(cpus().length / 2));
  const stats = formats.map((format): FormatStats => ({
    format,
    inputs: 0,
    counts: Object.fromEntries(VERDICTS.map(v => [v, 0])) as Record<Verdict, number>,
    maxCpuSeconds: 0,
    maxRssBytes: 0,
  }));
  const failures: FuzzFailure[] = [];
  const harnessErrors: string[] = [];
  const queue: [number, number][] = [];
  for (let f = 0; f < formats.length; f++)
    for (const i of options.cases ?? Array.from({ length: options.count }, (_, k) => k)) queue.push([f, i]);
  let next = 0;
  const worker = async (slot: number) => {
    const caseDir = join(workDir, 'cases', String(slot));
    while (next < queue.length) {
      const [f, index] = queue[next++]!;
      const format = formats[f]!;
      let c: FuzzCase;
      try {
        c = writeCase(seeds, format, index, options.seed, caseDir);
      } catch (e) {
        harnessErrors.push(`${format} #${index}: ${(e as Error).stack ?? e}`);
        continue;
      }
      const r = await runInspect(cli, c.path, limits);
      const s = stats[f]!;
      s.inputs++;
      s.counts[r.verdict]++;
      if (Number.isFinite(r.cpuSeconds)) s.maxCpuSeconds = Math.max(s.maxCpuSeconds, r.cpuSeconds);
      s.maxRssBytes = Math.max(s.maxRssBytes, r.rssBytes);
      if (FAILING.includes(r.verdict)) {
        const kept = join(workDir, 'failures', `${format}-${index}`);
        rmSync(kept, { recursive: true, force: true });
        mkdirSync(kept, { recursive: true });
        cpSync(caseDir, kept, { recursive: true, verbatimSymlinks: true });
        writeFileSync(
          join(kept, 'CASE.txt'),
          `${c.description}\nverdict: ${r.verdict}\n${r.detail}\n` +
            `reproduce: npm run fuzz -- --seed ${options.seed} --format ${format} --case ${index}\n`,
        );
        failures.push({ format, index, description: c.description, verdict: r.verdict, detail: r.detail, kept });
      }
      options.onCase?.(c, r);
    }
    rmSync(caseDir, { recursive: true, force: true });
  };
  await Promise.all(Array.from({ length: jobs }, (_, k) => worker(k)));
  return { seed: options.seed, stats, failures, seeds, harnessErrors };
}

/** The summary as a Markdown table: one row per format, then the totals. */
export function summaryTable(summary: FuzzSummary): string {
  const head = [
    'format',
    'seeds',
    'inputs',
    'read',
    'rejected',
    'crashes',
    'timeouts',
    '> 2 GB',
    'non-clean',
    'non-finite',
    'max CPU',
    'max RSS',
  ];
  const rows = summary.stats.map(s => [
    s.format,
    String(summary.seeds.filter(x => x.format === s.format).length),
    String(s.inputs),
    String(s.counts.read),
    String(s.counts.rejected),
    String(s.counts.crash),
    String(s.counts.timeout),
    String(s.counts.memory),
    String(s.counts['non-clean']),
    String(s.counts['non-finite']),
    `${s.maxCpuSeconds.toFixed(1)} s`,
    `${Math.round(s.maxRssBytes / 1e6)} MB`,
  ]);
  const sum = (k: Verdict) => String(summary.stats.reduce((t, s) => t + s.counts[k], 0));
  rows.push([
    '**all**',
    String(summary.seeds.filter(x => summary.stats.some(s => s.format === x.format)).length),
    String(summary.stats.reduce((t, s) => t + s.inputs, 0)),
    sum('read'),
    sum('rejected'),
    sum('crash'),
    sum('timeout'),
    sum('memory'),
    sum('non-clean'),
    sum('non-finite'),
    `${Math.max(0, ...summary.stats.map(s => s.maxCpuSeconds)).toFixed(1)} s`,
    `${Math.round(Math.max(0, ...summary.stats.map(s => s.maxRssBytes)) / 1e6)} MB`,
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}
