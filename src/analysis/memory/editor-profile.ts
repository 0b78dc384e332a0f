/**
 * Memory samples as the editor's overlays read them: a small profile (the **editor profile**) whose
 * call tree is source file → source line → variable, whose contexts are the PUs that issued the
 * loads, and whose metrics are cycles, samples and both per serving level. Heat, Top Lines, hot
 * paths, hovers and load imbalance then work on memory samples as on any profile: a line's heat is
 * its summed latency (MemAxes ranks by cycles, not count, §6.1), its imbalance the spread of those
 * cycles over the PUs.
 *
 * - A file is a region (it owns nothing itself), each line a function-like node named `file:line`
 *   (so every hot line can carry a CodeLens), each variable a statement at the line's location that
 *   holds the values. Samples of an unknown source (`??`) hang under `?? (unknown source)`, which has
 *   no file and so marks no line.
 * - The tree is the same for every set of samples (the tree of all samples; lines a set does not
 *   touch get zeros), so a selection's profile lines up with the whole run's.
 * - Contexts: every PU of the topology (idle ones too: they are the imbalance), then CPU ids the
 *   topology lacks (unplaced) and an unknown CPU, when samples name them. When nodes × contexts ×
 *   metrics would exceed {@link EDITOR_PROFILE_MAX_CELLS}, the PUs are folded into one context (with
 *   a warning) rather than allocating hundreds of MB for a per-PU spread.
 */
import { CallTreeBuilder, NodeKind } from '../model/call-tree';
import { makeContext, type ExecutionContext } from '../model/context';
import type { MetricDescriptor } from '../model/metric';
import { Profile, type ProfileData } from '../model/profile';
import type { IndexSet } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import { LEVEL_NAMES } from './model/data-source';
import { UNKNOWN_SOURCE } from './model/memory-samples';

/** Node × context cells per metric above which the PUs are folded into one context (8 MB per matrix). */
export const EDITOR_PROFILE_MAX_CELLS = 1 << 20;

/** The editor profile's metrics, in order: cycles (primary), samples, then cycles and samples per serving level. */
export const EDITOR_METRICS = {
  cycles: 0,
  samples: 1,
  /** Index of `<level> cycles` for level l (0 unresolved, 1 L1 … 4 RAM). */
  levelCycles: (level: number) => 2 + level,
  /** Index of `<level> samples` for level l. */
  levelSamples: (level: number) => 2 + LEVEL_NAMES.length + level,
} as const;

/** The name a file region, line or unknown-source node is given. */
export const UNKNOWN_SOURCE_NODE = `${UNKNOWN_SOURCE} (unknown source)`;

function metric(name: string, label: string, unit: string): MetricDescriptor {
  return { name, label, sourceKeys: ['latency'], unit, kind: 'exclusive', aggregation: 'sum' };
}

function editorMetrics(): MetricDescriptor[] {
  return [
    metric('cycles', 'Cycles (load latency)', 'cycles'),
    metric('samples', 'Samples (loads)', 'samples'),
    ...LEVEL_NAMES.map(l => metric(`${l} cycles`, `${l} cycles`, 'cycles')),
    ...LEVEL_NAMES.map(l => metric(`${l} samples`, `${l} samples`, 'samples')),
  ];
}

/**
 * The part of the editor profile that does not depend on the set of samples: the tree, the
 * contexts, and per sample its variable node and its context. Built once per dataset.
 */
export interface EditorProfileShape {
  base: Omit<ProfileData, 'exclusive' | 'inclusive'>;
  /** The variable node each sample's values go to. */
  nodeOfSample: Int32Array;
  /** The context each sample's values go to. */
  contextOfSample: Int32Array;
}

/** The tree and contexts of the editor profile of `analysis` (see the module comment). */
export function editorProfileShape(analysis: MemoryAnalysis, path = analysis.samples.path): EditorProfileShape {
  const s = analysis.samples;
  const n = s.count;
  const tree = new CallTreeBuilder();
  const fileNames = s.source.names;
  const fileNode = new Int32Array(fileNames.length).fill(-1);
  const lineNode = new Int32Array(analysis.lineFile.length).fill(-1);
  const variables = s.variable.names.length;
  // (line id, variable id) → node; a line touches few variables, so a map keyed by their pair.
  const pairNode = new Map<number, number>();
  const nodeOfSample = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const l = analysis.lineOf[i]!;
    const v = s.variable.ids[i]!;
    const key = l * variables + v;
    let node = pairNode.get(key);
    if (node === undefined) {
      const f = analysis.lineFile[l]!;
      const file = fileNames[f]!;
      const line = analysis.lineNumber[l]!;
      const known = file !== UNKNOWN_SOURCE && line > 0;
      if (fileNode[f]! < 0)
        fileNode[f] = tree.add(-1, file === UNKNOWN_SOURCE ? UNKNOWN_SOURCE_NODE : file, NodeKind.Region, {
          module: file === UNKNOWN_SOURCE ? undefined : file,
        });
      let parent = fileNode[f]!;
      if (known) {
        if (lineNode[l]! < 0)
          lineNode[l] = tree.add(parent, `${file}:${line}`, NodeKind.Function, { file, line, module: file });
        parent = lineNode[l]!;
      }
      node = tree.add(parent, s.variable.names[v]!, NodeKind.Statement, known ? { file, line, module: file } : {});
      pairNode.set(key, node);
    }
    nodeOfSample[i] = node;
  }
  const { contexts, contextOfSample } = puContexts(analysis);
  const finished = tree.finish();
  const metrics = editorMetrics();
  const folded = finished.size * contexts.length > EDITOR_PROFILE_MAX_CELLS;
  const warnings = [...analysis.warnings];
  if (folded) {
    warnings.push(
      `${finished.size} lines and variables × ${contexts.length} PUs is too many to keep per PU for the editor; the PUs are folded into one context (the memory panel still shows every PU)`,
    );
    contextOfSample.fill(0);
  }
  return {
    base: {
      format: s.format,
      path,
      strings: finished.strings.toArray(),
      tree: finished.columns,
      contexts: folded ? [makeContext({ pu: -1, label: 'all PUs' })] : contexts,
      metrics,
      primaryMetric: EDITOR_METRICS.cycles,
      metadata: {
        samples: n,
        dialect: s.dialect,
        samplesFile: s.path,
        ...(analysis.machine ? { topology: analysis.machine.topology.source } : {}),
      },
      warnings,
    },
    nodeOfSample,
    contextOfSample,
  };
}

/** One context per PU of the machine (by CPU id), then unplaced CPU ids and an unknown CPU as samples need them. */
function puContexts(analysis: MemoryAnalysis): { contexts: ExecutionContext[]; contextOfSample: Int32Array } {
  const s = analysis.samples;
  const machine = analysis.machine;
  const cpus = machine ? machine.nodesAt.pu.map(node => machine.topology.nodes[node]!.osIndex) : [];
  const placed = new Set(cpus);
  const extra = new Set<number>();
  for (let i = 0; i < s.count; i++) if (!placed.has(s.cpu[i]!)) extra.add(s.cpu[i]!);
  const ordered = [...cpus].sort((a, b) => a - b);
  const unplaced = [...extra].sort((a, b) => a - b);
  const contexts = [
    ...ordered.map(cpu => makeContext({ pu: cpu, label: `PU ${cpu}` })),
    ...unplaced.map(cpu =>
      makeContext({ pu: cpu, label: cpu < 0 ? 'unknown CPU' : machine ? `CPU ${cpu} (unplaced)` : `CPU ${cpu}` }),
    ),
  ];
  const index = new Map([...ordered, ...unplaced].map((cpu, k) => [cpu, k]));
  const contextOfSample = new Int32Array(s.count);
  for (let i = 0; i < s.count; i++) contextOfSample[i] = index.get(s.cpu[i]!)!;
  if (contexts.length === 0) contexts.push(makeContext({ pu: -1, label: 'unknown CPU' }));
  return { contexts, contextOfSample };
}

/**
 * The editor profile of a set of samples (null: all): cycles and samples, and both per serving
 * level, summed on each sample's variable node and PU. O(set + nodes × contexts × metrics).
 */
export function editorProfileOf(analysis: MemoryAnalysis, shape: EditorProfileShape, set: IndexSet | null): Profile {
  const nodes = shape.base.tree.parent.length;
  const C = shape.base.contexts.length;
  const cells = nodes * C;
  const exclusive = shape.base.metrics.map(() => new Float64Array(cells));
  const cycles = exclusive[EDITOR_METRICS.cycles]!;
  const samples = exclusive[EDITOR_METRICS.samples]!;
  const levelCycles = LEVEL_NAMES.map((_, l) => exclusive[EDITOR_METRICS.levelCycles(l)]!);
  const levelSamples = LEVEL_NAMES.map((_, l) => exclusive[EDITOR_METRICS.levelSamples(l)]!);
  const { latency, level } = analysis.samples;
  const { nodeOfSample, contextOfSample } = shape;
  const m = set ? set.length : analysis.samples.count;
  for (let k = 0; k < m; k++) {
    const i = set ? set[k]! : k;
    const at = nodeOfSample[i]! * C + contextOfSample[i]!;
    const c = latency[i]!;
    const l = level[i]!;
    cycles[at]! += c;
    samples[at]!++;
    levelCycles[l]![at]! += c;
    levelSamples[l]![at]!++;
  }
  return new Profile({ ...shape.base, exclusive, inclusive: exclusive.map(() => null) });
}
