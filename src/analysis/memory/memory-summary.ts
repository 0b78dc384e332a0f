/**
 * The whole-dataset summary that `hpc-lens memory --json` prints, built from the same analyses as
 * the memory panel: totals, serving levels, the machine's size, top variables and lines by cycles,
 * load per PU and the per-depth imbalance scores.
 */
import { LEVEL_NAMES } from './model/data-source';
import { depthScores } from './depth-scores';
import { ALL_SAMPLES } from './index-set';
import { topologyLoad, type MemoryAnalysis } from './memory-analysis';
import { topOffenders } from './source-costs';
import { machineCounts, MACHINE_DEPTH_LABELS } from '../topology/machine';

export interface MemorySummary {
  samples: number;
  cycles: number;
  /** Samples per serving level. */
  levels: { L1: number; L2: number; L3: number; RAM: number; unresolved: number };
  /** Resources per depth; all 0 without a topology. */
  topology: { numa: number; l3: number; l2: number; l1: number; pu: number };
  topVariables: { name: string; cycles: number; samples: number }[];
  /** The top 2 files' top 8 lines each, hottest file first. */
  topLines: { file: string; line: number; cycles: number; samples: number }[];
  /** Every CPU of the topology (also idle ones) and every CPU id the samples name, ascending. */
  byPU: { cpu: number; samples: number; cycles: number }[];
  /** Per depth, PU first; empty without a topology. `extreme` is the resource farthest from the mean, or null when all are equal. */
  imbalance: { depth: string; I: number; cv: number; maxOverMean: number; gini: number; extreme: string | null }[];
}

export function memorySummary(analysis: MemoryAnalysis): MemorySummary {
  const { samples, machine } = analysis;
  const levelCounts = [0, 0, 0, 0, 0];
  for (let i = 0; i < samples.count; i++) levelCounts[samples.level[i]!]!++;
  const levels = Object.fromEntries(LEVEL_NAMES.map((name, l) => [name, levelCounts[l]!]));

  const top = topOffenders(analysis, ALL_SAMPLES);
  const perCpu = new Map<number, { cpu: number; samples: number; cycles: number }>();
  for (const node of machine?.nodesAt.pu ?? []) {
    const cpu = machine!.topology.nodes[node]!.osIndex;
    perCpu.set(cpu, { cpu, samples: 0, cycles: 0 });
  }
  for (let i = 0; i < samples.count; i++) {
    const cpu = samples.cpu[i]!;
    let e = perCpu.get(cpu);
    if (!e) perCpu.set(cpu, (e = { cpu, samples: 0, cycles: 0 }));
    e.samples++;
    e.cycles += samples.latency[i]!;
  }

  const counts = machineCounts(machine);
  const scores = machine ? depthScores(analysis, topologyLoad(analysis, null)) : [];
  return {
    samples: samples.count,
    cycles: analysis.totalCycles,
    levels: {
      L1: levels.L1!,
      L2: levels.L2!,
      L3: levels.L3!,
      RAM: levels.RAM!,
      unresolved: levels.unresolved!,
    },
    topology: { numa: counts.numa, l3: counts.l3, l2: counts.l2, l1: counts.l1, pu: counts.pu },
    topVariables: top.variables.map(v => ({ name: v.name, cycles: v.cycles, samples: v.samples })),
    topLines: top.files.flatMap(f =>
      f.lines.map(l => ({ file: l.file, line: l.line, cycles: l.cycles, samples: l.samples })),
    ),
    byPU: [...perCpu.values()].sort((a, b) => a.cpu - b.cpu),
    imbalance: scores.map(s => ({
      depth: MACHINE_DEPTH_LABELS[s.depth],
      I: s.imbalance,
      cv: s.cv,
      maxOverMean: s.maxOverMean,
      gini: s.gini,
      extreme: s.extremeNode >= 0 ? machine!.topology.nodes[s.extremeNode]!.label : null,
    })),
  };
}
