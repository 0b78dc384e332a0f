/**
 * The fuzz campaign: for every format, `count` seeded cases written by `writeCase`, `jobs` at a time,
 * each read by a pooled child (`PooledInspector`: the CLI's code path in a long-lived process) or,
 * with `fresh`, by a fresh `hpc-lens inspect --json` process. An input that fails (or is suspect) in a
 * pooled child is read again in a fresh process, and that verdict is the one counted. Failing inputs
 * are kept with a note saying how to reproduce them.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { FORMATS } from '../../src/analysis/formats/registry';
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
import { PooledInspector, type PooledResult } from './pool';
import { DEFAULT_MAX_SEED_BYTES, REPO_ROOT, seedCorpus, type Seed } from './seed-corpus';

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
  /** Every input in a fresh process (slow: the way to check the pooled children). */
  fresh?: boolean;
  /** Shared-data seeds larger than this (files, or directories in total) are left out (default 8 MiB). */
  maxSeedBytes?: number;
  /** Rewritten after each finished format with the table of the formats finished so far. */
  summaryFile?: string;
  /** Called after each case. */
  onCase?: (c: FuzzCase, r: CaseResult) => void;
  /** Called when a pooled verdict was replaced by a fresh process's (a line saying both). */
  onNote?: (note: string) => void;
  /** Called when every case of a format has been read. */
  onFormatDone?: (stats: FormatStats) => void;
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
  /** The real CLI's command line that reads the kept input. */
  reproduce: string;
}

export interface FuzzSummary {
  seed: number;
  stats: FormatStats[];
  failures: FuzzFailure[];
  seeds: Seed[];
  /** Cases the fuzzer itself could not write (a bug in a mutation, not in HPC Lens). */
  harnessErrors: string[];
  /** Inputs read again in a fresh process, and what the pooled child and the fresh process said. */
  confirmations: string[];
  /** Pooled children started (one per job, plus restarts after growth, a crash or a timeout). */
  childrenStarted: number;
}

const VERDICTS: Verdict[] = ['read', 'rejected', 'crash', 'timeout', 'memory', 'non-clean', 'non-finite'];

export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const { workDir } = options;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const cli = await buildCli(join(workDir, 'bin'));
  const seeds = await seedCorpus(join(workDir, 'seeds'), {
    sharedData: options.sharedData,
    maxSeedBytes: options.maxSeedBytes ?? DEFAULT_MAX_SEED_BYTES,
  });
  const formats = options.formats ?? FORMATS.map(r => r.id);
  for (const f of formats) if (!FORMATS.some(r => r.id === f)) throw new Error(`unknown format ${f}`);
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
  const confirmations: string[] = [];
  const indices = options.cases ?? Array.from({ length: options.count }, (_, k) => k);
  const queue: [number, number][] = [];
  for (let f = 0; f < formats.length; f++) for (const i of indices) queue.push([f, i]);
  const remaining = formats.map(() => indices.length);
  const finished: FormatStats[] = [];
  const started = Date.now();
  const inspectors = Array.from({ length: jobs }, () =>
    options.fresh ? null : new PooledInspector(join(dirname(cli), 'fuzz-child.js'), { limits }),
  );
  const summaryOf = (rows: FormatStats[]): FuzzSummary => ({
    seed: options.seed,
    stats: rows,
    failures,
    seeds,
    harnessErrors,
    confirmations,
    childrenStarted: inspectors.reduce((n, p) => n + (p?.started ?? 0), 0),
  });

  /** Reads an input: in the pooled child, then — when that fails or is in doubt — in a fresh process. */
  const read = async (inspector: PooledInspector | null, c: FuzzCase): Promise<CaseResult> => {
    if (!inspector) return runInspect(cli, c.path, limits);
    const pooled: PooledResult = await inspector.inspect(c.path);
    if (!FAILING.includes(pooled.verdict) && !pooled.suspect) return pooled;
    const fresh = await runInspect(cli, c.path, limits);
    const note = `${c.format} #${c.index}: pooled child ${pooled.verdict}${pooled.suspect ? ` (${pooled.suspect})` : ''}${pooled.detail ? `: ${pooled.detail}` : ''}; fresh process ${fresh.verdict}`;
    confirmations.push(note);
    options.onNote?.(note);
    return fresh;
  };

  const record = (f: number, c: FuzzCase, caseDir: string, r: CaseResult, replacing?: CaseResult) => {
    const s = stats[f]!;
    if (replacing) s.counts[replacing.verdict]--;
    else s.inputs++;
    s.counts[r.verdict]++;
    if (Number.isFinite(r.cpuSeconds)) s.maxCpuSeconds = Math.max(s.maxCpuSeconds, r.cpuSeconds);
    s.maxRssBytes = Math.max(s.maxRssBytes, r.rssBytes);
    if (FAILING.includes(r.verdict)) {
      const kept = join(workDir, 'failures', `${c.format}-${c.index}`);
      rmSync(kept, { recursive: true, force: true });
      mkdirSync(kept, { recursive: true });
      cpSync(caseDir, kept, { recursive: true, verbatimSymlinks: true });
      const input = join(kept, basename(c.path));
      writeFileSync(
        join(kept, 'CASE.txt'),
        `${c.description}\nverdict: ${r.verdict}\n${r.detail}\n` +
          `reproduce: ${reproduceCommand(input)}\n` +
          `or: npm run fuzz -- --seed ${options.seed} --format ${c.format} --case ${c.index}\n`,
      );
      failures.push({
        format: c.format,
        index: c.index,
        description: c.description,
        verdict: r.verdict,
        detail: r.detail,
        kept,
        reproduce: reproduceCommand(input),
      });
    }
  };

  const formatDone = (f: number) => {
    if (--remaining[f]! > 0) return;
    finished.push(stats[f]!);
    options.onFormatDone?.(stats[f]!);
    if (options.summaryFile) {
      const inProgress = stats
        .filter((s, k) => remaining[k]! > 0 && s.inputs > 0)
        .map(s => `${s.format} (${s.inputs} of ${indices.length})`);
      writeFileSync(
        options.summaryFile,
        `fuzz: seed ${options.seed}, ${indices.length} per format, ${finished.length} of ${formats.length} formats finished, ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s${inProgress.length ? `; in progress: ${inProgress.join(', ')}` : ''}\n\n` +
          summaryTable(summaryOf(finished)) +
          '\n',
      );
    }
  };

  let next = 0;
  const worker = async (slot: number) => {
    const inspector = inspectors[slot]!;
    // Each case in its own directory, kept until the next case is done: a pooled child that dies
    // after answering is caught one case later, and the input it read must still be there.
    let previous: { f: number; c: FuzzCase; caseDir: string; r: CaseResult } | null = null;
    const checkPrevious = async () => {
      const died = inspector?.diedAfter;
      if (!died || !previous || died.path !== previous.c.path) return;
      inspector.diedAfter = null;
      const fresh = await runInspect(cli, previous.c.path, limits);
      const note = `${previous.c.format} #${previous.c.index}: pooled child died after answering ${previous.r.verdict} (${died.detail}); fresh process ${fresh.verdict}`;
      confirmations.push(note);
      options.onNote?.(note);
      record(previous.f, previous.c, previous.caseDir, fresh, previous.r);
    };
    while (next < queue.length) {
      const [f, index] = queue[next++]!;
      const format = formats[f]!;
      const caseDir = join(workDir, 'cases', String(slot), String(index));
      let c: FuzzCase;
      try {
        c = writeCase(seeds, format, index, options.seed, caseDir);
      } catch (e) {
        harnessErrors.push(`${format} #${index}: ${(e as Error).stack ?? e}`);
        formatDone(f);
        continue;
      }
      const r = await read(inspector, c);
      record(f, c, caseDir, r);
      options.onCase?.(c, r);
      await checkPrevious();
      if (previous) rmSync(previous.caseDir, { recursive: true, force: true });
      previous = { f, c, caseDir, r };
      formatDone(f);
    }
    await new Promise(r => setTimeout(r, 50));
    await checkPrevious();
    await inspector?.stop();
    rmSync(join(workDir, 'cases', String(slot)), { recursive: true, force: true });
  };
  await Promise.all(Array.from({ length: jobs }, (_, k) => worker(k)));
  return summaryOf(stats);
}

/** The command that reads a kept input with the real CLI, from the repository root. */
export function reproduceCommand(input: string): string {
  const path = relative(REPO_ROOT, input);
  return `npx tsx src/cli/hpc-lens.ts inspect --json '${path.startsWith('..') ? input : path}'`;
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
