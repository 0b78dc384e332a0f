/**
 * Paired timing for the reader-versus-baseline benches: the two sides alternate in one process
 * (after one warm-up of each), so load from other jobs falls on both alike; each side's median wall
 * time and median CPU time (`process.cpuUsage()`, all threads: less sensitive to load than wall) are
 * reported, and the ratio is baseline / ours (higher is better for us).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export interface Timing {
  wall: number;
  cpu: number;
}

export interface PairedTimings {
  baseline: Timing;
  ours: Timing;
  repeats: number;
}

/** The middle value (the upper middle for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** This process's CPU time so far, all threads, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
}

async function once(f: () => unknown): Promise<Timing> {
  (globalThis as { gc?: () => void }).gc?.(); // each side starts from a collected heap (run with --expose-gc)
  const c = cpuMs();
  const t = performance.now();
  await f();
  return { wall: performance.now() - t, cpu: cpuMs() - c };
}

/** Runs `baseline` and `ours` alternately `repeats` times after one warm-up each; medians. */
export async function paired(
  baseline: () => unknown,
  ours: () => unknown,
  repeats = 5,
  warmUp = true,
): Promise<PairedTimings> {
  const b: Timing[] = [],
    o: Timing[] = [];
  for (let k = warmUp ? -1 : 0; k < repeats; k++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const first = k % 2 === 0;
    const tb = first ? await once(baseline) : undefined;
    const to = await once(ours);
    const tb2 = first ? tb! : await once(baseline);
    if (k >= 0) {
      b.push(tb2);
      o.push(to);
    }
  }
  return {
    baseline: { wall: median(b.map(t => t.wall)), cpu: median(b.map(t => t.cpu)) },
    ours: { wall: median(o.map(t => t.wall)), cpu: median(o.map(t => t.cpu)) },
    repeats,
  };
}

/** `JSON.parse` of a file's bytes as the baseline sees them: read, gunzip when gzip, decode, parse. */
export function jsonParseFile(path: string): unknown {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

/** One line: ours and the baseline, wall and CPU, and the ratios (baseline / ours). */
export function formatPaired(label: string, mb: number, t: PairedTimings, baselineName = 'JSON.parse'): string {
  const f = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`;
  return (
    `  ${label.padEnd(44)} ${mb.toFixed(1).padStart(7)} MB  ours ${f(t.ours.wall)} (cpu ${f(t.ours.cpu)})  ` +
    `${baselineName} ${f(t.baseline.wall)} (cpu ${f(t.baseline.cpu)})  ` +
    `ratio ${(t.baseline.wall / t.ours.wall).toFixed(2)}× wall, ${(t.baseline.cpu / t.ours.cpu).toFixed(2)}× cpu`
  );
}

/** The machine load as `uptime` reports it (benches here run beside other jobs: say so). */
export function loadNote(): string {
  const [a, b, c] = loadavg();
  return `load average ${a!.toFixed(2)} ${b!.toFixed(2)} ${c!.toFixed(2)} on ${cpus().length} cores`;
}
