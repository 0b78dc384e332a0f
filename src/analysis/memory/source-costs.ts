/**
 * Where memory time goes in the code and the data (MemAxes §6.1, "top offenders"): cycles summed
 * per source line and per data object, ranked by cycles, not by sample count, over the selection
 * (or all visible samples), with each line's and variable's split over serving levels. The same
 * numbers feed the panel's bars, the editor's heat and after-line text, and variable hovers.
 */
import { LEVEL_NAMES } from './model/data-source';
import { focusOf, sizeOf, type IndexSet, type SampleScope } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import { UNKNOWN_SOURCE } from './model/memory-samples';

export { formatCycles, lineAnnotation } from '../stats/memory-format';

/** Cost of a line or a variable; `levelSamples`/`levelCycles` are indexed by level (0 unresolved, 1 L1 … 4 RAM). */
export interface MemoryCost {
  cycles: number;
  samples: number;
  levelSamples: number[];
  levelCycles: number[];
}

export interface LineCost extends MemoryCost {
  /** Source file as the samples name it (`??` when unknown). */
  file: string;
  /** 1-based line; 0 when unknown. */
  line: number;
}

export interface VariableCost extends MemoryCost {
  name: string;
}

/** Sums cycles, samples and their level split per group (group id per sample). */
function costsByGroup(
  analysis: MemoryAnalysis,
  groupOf: Int32Array,
  groups: number,
  set: IndexSet | null,
): { cycles: Float64Array; samples: Float64Array; levelSamples: Float64Array; levelCycles: Float64Array } {
  const levels = LEVEL_NAMES.length;
  const cycles = new Float64Array(groups);
  const samples = new Float64Array(groups);
  const levelSamples = new Float64Array(groups * levels);
  const levelCycles = new Float64Array(groups * levels);
  const { latency, level } = analysis.samples;
  const n = sizeOf(set, analysis.samples.count);
  for (let k = 0; k < n; k++) {
    const i = set ? set[k]! : k;
    const g = groupOf[i]!;
    const c = latency[i]!;
    cycles[g]! += c;
    samples[g]!++;
    const at = g * levels + level[i]!;
    levelSamples[at]!++;
    levelCycles[at]! += c;
  }
  return { cycles, samples, levelSamples, levelCycles };
}

function costAt(sums: ReturnType<typeof costsByGroup>, g: number): MemoryCost {
  const levels = LEVEL_NAMES.length;
  return {
    cycles: sums.cycles[g]!,
    samples: sums.samples[g]!,
    levelSamples: Array.from(sums.levelSamples.subarray(g * levels, (g + 1) * levels)),
    levelCycles: Array.from(sums.levelCycles.subarray(g * levels, (g + 1) * levels)),
  };
}

/** Ranks group ids by cycles (then samples, then first appearance), keeping groups with samples. */
function ranked(sums: { cycles: Float64Array; samples: Float64Array }): number[] {
  const ids: number[] = [];
  for (let g = 0; g < sums.samples.length; g++) if (sums.samples[g]! > 0) ids.push(g);
  return ids.sort((a, b) => sums.cycles[b]! - sums.cycles[a]! || sums.samples[b]! - sums.samples[a]! || a - b);
}

/** Every source line with samples in `set` (null: all), by cycles. */
export function lineCosts(analysis: MemoryAnalysis, set: IndexSet | null): LineCost[] {
  const sums = costsByGroup(analysis, analysis.lineOf, analysis.lineFile.length, set);
  const files = analysis.samples.source.names;
  return ranked(sums).map(g => ({
    file: files[analysis.lineFile[g]!]!,
    line: analysis.lineNumber[g]!,
    ...costAt(sums, g),
  }));
}

/** Every data object with samples in `set` (null: all), by cycles. */
export function variableCosts(analysis: MemoryAnalysis, set: IndexSet | null): VariableCost[] {
  const v = analysis.samples.variable;
  const sums = costsByGroup(analysis, v.ids, v.names.length, set);
  return ranked(sums).map(g => ({ name: v.names[g]!, ...costAt(sums, g) }));
}

export interface TopOffenders {
  /** The hottest files, each with its hottest lines (MemAxes' code view: 2 files × 8 lines). */
  files: { file: string; cycles: number; samples: number; lines: LineCost[] }[];
  /** The hottest data objects (MemAxes' data view: 8). */
  variables: VariableCost[];
  /** The samples ranked (selection, or all visible) and their share of all cycles of the dataset. */
  focus: { samples: number; cycles: number; share: number };
}

export interface TopOffenderLimits {
  files?: number;
  linesPerFile?: number;
  variables?: number;
}

/** Top files × lines and top variables by cycles over the selection (or all visible samples). */
export function topOffenders(
  analysis: MemoryAnalysis,
  scope: SampleScope,
  limits: TopOffenderLimits = {},
): TopOffenders {
  const set = focusOf(scope);
  return rankOffenders(analysis, lineCosts(analysis, set), variableCosts(analysis, set), limits);
}

/** The top offenders from line and variable costs already computed over the focus. */
export function rankOffenders(
  analysis: MemoryAnalysis,
  lines: readonly LineCost[],
  variables: readonly VariableCost[],
  limits: TopOffenderLimits = {},
): TopOffenders {
  const { files: fileLimit = 2, linesPerFile = 8, variables: variableLimit = 8 } = limits;
  const byFile = new Map<string, { file: string; cycles: number; samples: number; lines: LineCost[] }>();
  let cycles = 0,
    samples = 0;
  for (const l of lines) {
    let f = byFile.get(l.file);
    if (!f) byFile.set(l.file, (f = { file: l.file, cycles: 0, samples: 0, lines: [] }));
    f.cycles += l.cycles;
    f.samples += l.samples;
    if (f.lines.length < linesPerFile) f.lines.push(l);
    cycles += l.cycles;
    samples += l.samples;
  }
  const files = [...byFile.values()].sort((a, b) => b.cycles - a.cycles || b.samples - a.samples).slice(0, fileLimit);
  return {
    files,
    variables: variables.slice(0, variableLimit),
    focus: { samples, cycles, share: analysis.totalCycles > 0 ? cycles / analysis.totalCycles : 0 },
  };
}

/** Whether a line cost points at a real source line the editor can show. */
export function isKnownLine(cost: LineCost): boolean {
  return cost.file !== UNKNOWN_SOURCE && cost.line > 0;
}
