/**
 * The one way every bench section times things (issue 24, "the bench"): wall time with this
 * process's CPU time beside it (`process.cpuUsage()`, all threads — worker threads and GC included;
 * a loaded machine stretches wall time far more than CPU time), medians of repeats after warm-ups,
 * comparisons as pairs alternating in one process (so load from other jobs falls on both sides
 * alike), the machine's load average to print beside the figures, and the few formatters the
 * sections share (milliseconds with CPU beside, ratios, MB/s, bytes).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';

/** Wall-clock and process-CPU milliseconds of one call, or the medians of several. */
export interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** One timed call and what it returned. */
export interface Timed<T> extends Timing {
  value: T;
}

/** Repeated calls: the medians (`wallMs`, `cpuMs`), the extremes of each, and every run in order. */
export interface Repeated extends Timing {
  min: Timing;
  max: Timing;
  /** The measured runs in the order they ran (warm-ups excluded): `runs[0]` is the first. */
  runs: Timing[];
}

export interface PairedTimings {
  ours: Timing;
  baseline: Timing;
  repeats: number;
}

export interface RepeatOptions {
  /** Measured runs (at most, with `budgetMs`). Default 5. */
  repeats?: number;
  /** Calls before measuring, so V8 has compiled and optimised the code. Default 1. */
  warmup?: number;
  /** Stop once this many milliseconds are spent, after at least `minRepeats` runs (default 3). */
  budgetMs?: number;
  minRepeats?: number;
  /** Collect garbage before each measured call (with `node --expose-gc`), so no call pays for another's garbage. */
  gc?: boolean;
}

/** The middle value (the upper middle for an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** This process's CPU time so far, all threads, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
}

/** A full collection when the process runs with `--expose-gc`; nothing otherwise. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Times one synchronous call. */
export function timeSync<T>(f: () => T): Timed<T> {
  const c = cpuMs(),
    t = performance.now();
  const value = f();
  const wallMs = performance.now() - t;
  return { value, wallMs, cpuMs: cpuMs() - c };
}

/** Times one call, awaited when it returns a promise. */
export async function timeOnce<T>(f: () => T | Promise<T>): Promise<Timed<T>> {
  const c = cpuMs(),
    t = performance.now();
  const value = await f();
  const wallMs = performance.now() - t;
  return { value, wallMs, cpuMs: cpuMs() - c };
}

/** Medians and extremes of measured runs. */
export function summarise(runs: readonly Timing[]): Repeated {
  if (runs.length === 0) throw new Error('summarise: no runs');
  const wall = runs.map(r => r.wallMs),
    cpu = runs.map(r => r.cpuMs);
  return {
    wallMs: median(wall),
    cpuMs: median(cpu),
    min: { wallMs: Math.min(...wall), cpuMs: Math.min(...cpu) },
    max: { wallMs: Math.max(...wall), cpuMs: Math.max(...cpu) },
    runs: [...runs],
  };
}

/** Calls `f` `warmup` times, then times `repeats` calls (or until `budgetMs` is spent): medians and extremes. */
export async function timeRepeated(f: () => unknown, options: RepeatOptions = {}): Promise<Repeated> {
  const { repeats = 5, warmup = 1, budgetMs = Infinity, minRepeats = 3, gc = false } = options;
  for (let k = 0; k < warmup; k++) await f();
  const runs: Timing[] = [];
  const start = performance.now();
  while (runs.length < repeats && (runs.length < minRepeats || performance.now() - start < budgetMs)) {
    if (gc) collectGarbage();
    const { wallMs, cpuMs } = await timeOnce(f);
    runs.push({ wallMs, cpuMs });
  }
  return summarise(runs);
}

/**
 * Ours and the baseline alternately in this process, `repeats` times after `warmup` rounds: which side
 * goes first alternates from round to round (so neither always follows the other's garbage), the heap
 * is collected before each call (run with --expose-gc), and each side's medians are reported.
 */
export async function paired(
  sides: { ours: () => unknown; baseline: () => unknown },
  options: { repeats?: number; warmup?: number } = {},
): Promise<PairedTimings> {
  const { repeats = 5, warmup = 1 } = options;
  const once = async (f: () => unknown): Promise<Timing> => {
    collectGarbage();
    const { wallMs, cpuMs } = await timeOnce(f);
    return { wallMs, cpuMs };
  };
  const ours: Timing[] = [],
    baseline: Timing[] = [];
  for (let k = -warmup; k < repeats; k++) {
    const baselineFirst = (k + warmup) % 2 === 1;
    const b = baselineFirst ? await once(sides.baseline) : undefined;
    const o = await once(sides.ours);
    const b2 = b ?? (await once(sides.baseline));
    if (k >= 0) {
      ours.push(o);
      baseline.push(b2);
    }
  }
  const mid = (ts: Timing[]): Timing => ({
    wallMs: median(ts.map(t => t.wallMs)),
    cpuMs: median(ts.map(t => t.cpuMs)),
  });
  return { ours: mid(ours), baseline: mid(baseline), repeats };
}

/** `JSON.parse` of a file's bytes as the baseline sees them: read, gunzip when gzip, decode, parse. */
export function jsonParseFile(path: string): unknown {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

/** The machine's load (1, 5 and 15 minutes, as `uptime` reports it) and its cores. */
export function loadAverage(): { one: number; five: number; fifteen: number; cores: number } {
  const [one, five, fifteen] = loadavg();
  return { one: one!, five: five!, fifteen: fifteen!, cores: cpus().length };
}

/** The load as one phrase to print beside figures (benches here run beside other jobs: say so). */
export function loadNote(): string {
  const l = loadAverage();
  return `load average ${l.one.toFixed(2)} ${l.five.toFixed(2)} ${l.fifteen.toFixed(2)} on ${l.cores} cores`;
}

/** Digits: as given, or 1 below 10 and none from 10 up. */
const digitsFor = (v: number, digits?: number) => digits ?? (Math.abs(v) < 10 ? 1 : 0);

/** Milliseconds: `12.3 ms`, `1.23 s` from `seconds` milliseconds up (default: never). */
export function formatMs(ms: number, options: { digits?: number; width?: number; seconds?: number } = {}): string {
  const text =
    ms >= (options.seconds ?? Infinity)
      ? `${(ms / 1e3).toFixed(2)} s`
      : `${ms.toFixed(digitsFor(ms, options.digits))} ms`;
  return text.padStart(options.width ?? 0);
}

/** Wall time with the CPU time beside it: `85 ms (CPU 62 ms)`. */
export function formatTiming(t: Timing, options: { digits?: number; width?: number; seconds?: number } = {}): string {
  return `${formatMs(t.wallMs, options)} (CPU ${formatMs(t.cpuMs, { ...options, width: 0 })})`;
}

/** Wall and CPU time as two aligned columns: `    85 ms wall     62 ms CPU`. */
export function formatWallCpu(t: Timing, options: { digits?: number; width?: number } = {}): string {
  const { digits = 0, width = 6 } = options;
  return `${t.wallMs.toFixed(digits).padStart(width)} ms wall ${t.cpuMs.toFixed(digits).padStart(width)} ms CPU`;
}

/** A ratio: `3.4×` (`digits`: 1 below 10 and none from 10 up, unless given). */
export function formatRatio(x: number, digits?: number): string {
  return `${x.toFixed(digitsFor(x, digits))}×`;
}

/** Throughput of `bytes` in `ms`: `123.4 MB/s` (10⁶ bytes). */
export function formatMBs(bytes: number, ms: number, digits = 1): string {
  return `${(bytes / 1e6 / (ms / 1e3)).toFixed(digits)} MB/s`;
}

/** Bytes in MB (10⁶), MiB, GB (10⁹) or GiB. */
export function formatBytes(bytes: number, unit: 'MB' | 'MiB' | 'GB' | 'GiB' = 'MB', digits = 1): string {
  const scale = { MB: 1e6, MiB: 2 ** 20, GB: 1e9, GiB: 2 ** 30 }[unit];
  return `${(bytes / scale).toFixed(digits)} ${unit}`;
}

/** One line: ours and the baseline, wall and CPU, and the ratios (baseline / ours). */
export function formatPaired(label: string, mb: number, t: PairedTimings, baselineName = 'JSON.parse'): string {
  const f = (ms: number) => formatMs(ms, { digits: 0, width: 9 });
  return (
    `  ${label.padEnd(44)} ${mb.toFixed(1).padStart(7)} MB  ours ${f(t.ours.wallMs)} (cpu ${f(t.ours.cpuMs)})  ` +
    `${baselineName} ${f(t.baseline.wallMs)} (cpu ${f(t.baseline.cpuMs)})  ` +
    `ratio ${formatRatio(t.baseline.wallMs / t.ours.wallMs, 2)} wall, ${formatRatio(t.baseline.cpuMs / t.ours.cpuMs, 2)} cpu`
  );
}
