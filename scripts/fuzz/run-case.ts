/**
 * Runs `hpc-lens inspect --json` on one input in a child process under CPU-time, memory and
 * wall-clock limits, and judges what came out: a profile with finite numbers, or one clean error
 * line naming the file and the reason — anything else is a failure.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MESSAGE_LIMIT } from '../../src/analysis/errors/escape-control';
import { residentBytes } from './proc-usage';
import { REPO_ROOT } from './seed-corpus';

export interface RunLimits {
  /** CPU seconds (user + system) an input may take (default 10). */
  cpuSeconds: number;
  /** Peak resident memory an input may take (default 2 GB). */
  rssBytes: number;
  /** Wall-clock seconds before the run is stopped (default 60: the machine may be busy). */
  wallSeconds: number;
}

export const DEFAULT_LIMITS: RunLimits = { cpuSeconds: 10, rssBytes: 2e9, wallSeconds: 60 };

/** How a run ended. Only `read` and `rejected` pass. */
export type Verdict = 'read' | 'rejected' | 'crash' | 'timeout' | 'memory' | 'non-clean' | 'non-finite';
export const FAILING: readonly Verdict[] = ['crash', 'timeout', 'memory', 'non-clean', 'non-finite'];

export interface CaseResult {
  verdict: Verdict;
  /** Why it failed, or the error line of a rejection. */
  detail: string;
  cpuSeconds: number;
  rssBytes: number;
}

/**
 * Bundles the CLI (as `npm run build` does) into `dir` with sql.js's WebAssembly beside it, and a
 * preload that reports the process's resource usage on fd 3 when it exits. A bundle starts in
 * ~0.1 s where `tsx` needs ~1 s. The pooled child (`fuzz-child.js`) is bundled beside it.
 */
export async function buildCli(dir: string): Promise<string> {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const cli = join(dir, 'cli.js');
  await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'src/cli/hpc-lens.ts')],
    outfile: cli,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  // The pooled child: the same CLI code, run in-process for many inputs (pool-child.ts).
  await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'scripts/fuzz/pool-child.ts')],
    outfile: join(dir, 'fuzz-child.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  copyFileSync(createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm'), join(dir, 'sql-wasm.wasm'));
  writeFileSync(
    join(dir, 'report-usage.cjs'),
    "process.on('exit', () => { try { require('fs').writeSync(3, JSON.stringify(process.resourceUsage())); } catch {} });\n",
  );
  return cli;
}

/** Runs the bundled CLI on `path` and judges the outcome. */
export function runInspect(cli: string, path: string, limits: RunLimits = DEFAULT_LIMITS): Promise<CaseResult> {
  const preload = join(cli, '..', 'report-usage.cjs');
  // The kernel enforces the CPU limit (SIGXCPU, a second past it, so a run can be seen to exceed it).
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      `ulimit -t ${Math.ceil(limits.cpuSeconds) + 1} && exec "$@"`,
      'sh',
      process.execPath,
      '--require',
      preload,
      cli,
      'inspect',
      '--json',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
  );
  const out: Buffer[] = [],
    err: Buffer[] = [],
    usage: Buffer[] = [];
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stderr!.on('data', (d: Buffer) => err.push(d));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => usage.push(d));
  let killedFor: 'memory' | 'timeout' | null = null;
  let peakRss = 0;
  const poll = setInterval(() => {
    const rss = residentBytes(child.pid);
    peakRss = Math.max(peakRss, rss);
    if (rss > limits.rssBytes && !killedFor) {
      killedFor = 'memory';
      child.kill('SIGKILL');
    }
  }, 50);
  const wall = setTimeout(() => {
    killedFor ??= 'timeout';
    child.kill('SIGKILL');
  }, limits.wallSeconds * 1000);
  return new Promise(resolve => {
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(wall);
      let cpuSeconds = NaN,
        rssBytes = peakRss;
      try {
        const u = JSON.parse(Buffer.concat(usage).toString('utf8')) as NodeJS.ResourceUsage;
        cpuSeconds = (u.userCPUTime + u.systemCPUTime) / 1e6;
        rssBytes = Math.max(rssBytes, u.maxRSS * 1024);
      } catch {
        /* killed before it could report */
      }
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({
        ...judge(path, { code, signal, killedFor, cpuSeconds, rssBytes, stdout, stderr }, limits),
        cpuSeconds,
        rssBytes,
      });
    });
  });
}

export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  killedFor: 'memory' | 'timeout' | null;
  cpuSeconds: number;
  rssBytes: number;
  stdout: string;
  stderr: string;
}

/** The verdict on one run of `hpc-lens inspect --json path`. */
export function judge(
  path: string,
  run: RunOutcome,
  limits: RunLimits = DEFAULT_LIMITS,
): Omit<CaseResult, 'cpuSeconds' | 'rssBytes'> {
  const firstLine = run.stderr.split('\n')[0]!.slice(0, 300);
  if (run.killedFor === 'memory' || run.rssBytes > limits.rssBytes)
    return { verdict: 'memory', detail: `peak resident memory ${(run.rssBytes / 1e9).toFixed(2)} GB` };
  if (/heap out of memory|Reached heap limit|Array buffer allocation failed/.test(run.stderr))
    return { verdict: 'memory', detail: firstLine };
  if (run.killedFor === 'timeout') return { verdict: 'timeout', detail: `no answer within ${limits.wallSeconds} s` };
  if (run.signal === 'SIGXCPU' || run.signal === 'SIGKILL' || run.cpuSeconds > limits.cpuSeconds)
    return {
      verdict: 'timeout',
      detail: `more than ${limits.cpuSeconds} s of CPU (${run.signal ?? run.cpuSeconds.toFixed(1) + ' s'})`,
    };
  if (run.code === 0) {
    if (run.stderr) return { verdict: 'non-clean', detail: `read, but wrote to stderr: ${firstLine}` };
    let report: unknown;
    try {
      report = JSON.parse(run.stdout);
    } catch {
      return { verdict: 'crash', detail: `stdout is not one JSON object: ${run.stdout.slice(0, 200)}` };
    }
    const bad = nonFiniteField(report);
    return bad ? { verdict: 'non-finite', detail: bad } : { verdict: 'read', detail: '' };
  }
  if (run.code !== 1) return { verdict: 'crash', detail: `exit ${run.code ?? run.signal}: ${firstLine}` };
  const problem = errorLineProblem(run.stderr, path);
  if (problem === 'internal error' || problem === 'stack trace') return { verdict: 'crash', detail: firstLine };
  if (problem) return { verdict: 'non-clean', detail: `${problem}: ${JSON.stringify(firstLine)}` };
  return { verdict: 'rejected', detail: run.stderr.trimEnd().slice('hpc-lens: '.length) };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * What is wrong with the error output of a rejected input, or null: it must be one line
 * `hpc-lens: PATH[/member]: reason`, without control characters or a stack trace, of bounded length.
 */
export function errorLineProblem(stderr: string, path: string): string | null {
  if (/\n\s+at \S/.test(stderr)) return 'stack trace';
  const lines = stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '') return 'not exactly one line';
  const line = lines[0]!;
  if (CONTROL.test(line)) return 'control characters';
  if (!line.startsWith('hpc-lens: ')) return 'not an hpc-lens error';
  const message = line.slice('hpc-lens: '.length);
  if (message.startsWith('internal error')) return 'internal error';
  if (message.length > MESSAGE_LIMIT) return `longer than ${MESSAGE_LIMIT} characters`;
  if (!message.startsWith(path)) return 'does not name the file';
  if (!/^(\/[^:]*)?: \S.{2,}/.test(message.slice(path.length))) return 'names no reason';
  return null;
}

/** The first number of an `inspect --json` report that is not finite (or missing), or null. */
export function nonFiniteField(report: unknown): string | null {
  const r = report as {
    nodes?: { name: string; inclusive: Record<string, unknown>; exclusive: Record<string, unknown> }[];
    timeRange?: unknown[];
    events?: unknown;
    dataMovement?: { count: unknown; bytes: unknown; byKind: Record<string, { count: unknown; bytes: unknown }> };
  };
  const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (!r || !Array.isArray(r.nodes)) return 'no nodes list';
  for (const n of r.nodes)
    for (const [side, values] of [
      ['inclusive', n.inclusive],
      ['exclusive', n.exclusive],
    ] as const)
      for (const [metric, v] of Object.entries(values ?? {}))
        if (!finite(v)) return `${side} ${metric} of ${JSON.stringify(n.name).slice(0, 80)} is ${v}`;
  if (r.timeRange && !r.timeRange.every(finite)) return `timeRange is ${JSON.stringify(r.timeRange)}`;
  if (r.events !== undefined && !finite(r.events)) return `events is ${r.events}`;
  if (r.dataMovement) {
    const dm = r.dataMovement;
    if (!finite(dm.count) || !finite(dm.bytes)) return `dataMovement is ${JSON.stringify(dm).slice(0, 120)}`;
    for (const [k, v] of Object.entries(dm.byKind ?? {}))
      if (!finite(v.count) || !finite(v.bytes)) return `dataMovement ${k} is ${JSON.stringify(v)}`;
  }
  return null;
}
