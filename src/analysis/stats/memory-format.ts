/**
 * How memory costs read as text, wherever they are shown: the editor's after-line text, the memory
 * panel and `hpc-lens memory`. Cycles are load latencies summed (MemAxes §6.1).
 */
import { LEVEL_NAMES } from '../memory/model/data-source';

/** What a line's or variable's cost says about its loads: cycles, samples, and samples per serving level (0 unresolved, 1 L1 … 4 RAM). */
export interface LevelSplit {
  cycles: number;
  samples: number;
  levelSamples: readonly number[];
}

/** Cycles with a k/M/G prefix and three significant digits: `307 k cyc`, `3.14 k cyc`, `950 cyc`. */
export function formatCycles(cycles: number): string {
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, prefix] of units)
    if (Math.abs(cycles) >= scale) return `${Number((cycles / scale).toPrecision(3))} ${prefix} cyc`;
  return `${Math.round(cycles)} cyc`;
}

/** A share as the memory views print it: `41 %`, `9 %`, `0.4 %`. */
export function formatLevelShare(share: number): string {
  return `${share >= 0.1 || share === 0 ? Math.round(share * 100) : Number((share * 100).toPrecision(1))} %`;
}

/**
 * The editor's after-line text for a line: `⏱ 307 k cyc · L3 41 % · RAM 9 %`. It names the shares
 * of the line's loads served by L3 and RAM, the slow levels, when they have any; a line served
 * only by L1/L2 shows its largest level.
 */
export function lineAnnotation(cost: LevelSplit): string {
  const parts = [`⏱ ${formatCycles(cost.cycles)}`];
  const share = (level: number) => (cost.samples > 0 ? cost.levelSamples[level]! / cost.samples : 0);
  const slow = [3, 4].filter(l => cost.levelSamples[l]! > 0);
  if (slow.length) for (const l of slow) parts.push(`${LEVEL_NAMES[l]} ${formatLevelShare(share(l))}`);
  else {
    let best = 0;
    for (let l = 1; l < LEVEL_NAMES.length; l++) if (cost.levelSamples[l]! > cost.levelSamples[best]!) best = l;
    if (cost.samples > 0) parts.push(`${LEVEL_NAMES[best]} ${formatLevelShare(share(best))}`);
  }
  return parts.join(' · ');
}
