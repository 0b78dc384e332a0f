import { functionTotals } from '../model/aggregates';
import { NodeKind, type CallTree } from '../model/call-tree';
import { Profile } from '../model/profile';
import type { Ensemble } from './ensemble';
import { matrixStatistics } from './node-statistics';

/**
 * The ensemble call graph (CallFlow §1.8): union nodes merged by function name, their run vectors
 * added element-wise. A function is missing in a run only when none of its nodes exists there;
 * otherwise its value is the sum over its present nodes (a missing node adds nothing, it is not a
 * zero that could enter a distribution). Exclusive time is charged to the owning function
 * (statements and loops to the function around them); inclusive time is taken at the outermost
 * frame of the function on each path, so recursion is counted once — the rules of
 * model/aggregates.ts `functionTotals`, which this reuses on the union tree.
 */
export interface EnsembleCallGraph {
  runCount: number;
  names: string[];
  /** Function-major [function · runCount + run]; NaN where the function is missing. */
  inclusive: Float64Array;
  exclusive: Float64Array;
  /** Runs in which each function exists. */
  present: Int32Array;
  /** Function of each union node (its own, or the function owning it), -1 above any function. */
  functionOfNode: Int32Array;
  /** A union node of each function where its source location is known (for the editor), else its first node. */
  representative: Int32Array;
  /** Caller → callee edges; `inclusive` is callee-major like the nodes: [edge · runCount + run], NaN where absent. */
  edges: { caller: Int32Array; callee: Int32Array; inclusive: Float64Array };
}

/** Function index per node and outermost flags of a tree, through `functionTotals` on a value-less profile. */
function functionsOfTree(tree: CallTree): ReturnType<typeof functionTotals> {
  const profile = new Profile({
    format: 'ensemble-union',
    path: '',
    strings: tree.strings.toArray(),
    tree: tree.columns,
    contexts: [{ rank: -1, thread: -1, gpuDevice: -1, gpuStream: -1, label: 'union' }],
    metrics: [{ name: 'none', label: 'none', sourceKeys: [], unit: '', kind: 'exclusive', aggregation: 'sum' }],
    exclusive: [new Float64Array(tree.size)],
    inclusive: [null],
    primaryMetric: 0,
    metadata: {},
    warnings: [],
  });
  return functionTotals(profile, 0);
}

function addInto(target: Float64Array, t: number, source: Float64Array, s: number, R: number): void {
  for (let r = 0; r < R; r++) {
    const v = source[s + r]!;
    if (v !== v) continue;
    const cur = target[t + r]!;
    target[t + r] = cur === cur ? cur + v : v;
  }
}

export function ensembleCallGraph(ensemble: Ensemble): EnsembleCallGraph {
  const tree = ensemble.tree;
  const R = ensemble.runCount;
  const fns = functionsOfTree(tree);
  const F = fns.names.length;
  const inclusive = new Float64Array(F * R).fill(NaN);
  const exclusive = new Float64Array(F * R).fill(NaN);
  const representative = new Int32Array(F).fill(-1);
  const { kind, parent } = tree.columns;
  const edgeIndex = new Map<number, number>();
  const caller: number[] = [],
    callee: number[] = [];
  const edgeRows: number[] = [];
  for (let u = 0; u < tree.size; u++) {
    const f = fns.functionOfNode[u]!;
    if (f < 0) continue;
    addInto(exclusive, f * R, ensemble.exclusive, u * R, R);
    if (fns.outermost[u]) addInto(inclusive, f * R, ensemble.inclusive, u * R, R);
    const own = kind[u] === NodeKind.Function || kind[u] === NodeKind.Region;
    if (own && (representative[f] === -1 || (tree.file(representative[f]!) === null && tree.file(u) !== null)))
      representative[f] = u;
    const p = parent[u]!;
    if (own && p >= 0 && fns.functionOfNode[p]! >= 0) {
      const key = fns.functionOfNode[p]! * F + f;
      let e = edgeIndex.get(key);
      if (e === undefined) {
        e = caller.length;
        edgeIndex.set(key, e);
        caller.push(fns.functionOfNode[p]!);
        callee.push(f);
      }
      edgeRows.push(e, u);
    }
  }
  const edgeInclusive = new Float64Array(caller.length * R).fill(NaN);
  for (let k = 0; k < edgeRows.length; k += 2)
    addInto(edgeInclusive, edgeRows[k]! * R, ensemble.inclusive, edgeRows[k + 1]! * R, R);
  const present = new Int32Array(F);
  for (let f = 0; f < F; f++)
    for (let r = 0; r < R; r++) if (exclusive[f * R + r] === exclusive[f * R + r]) present[f]!++;
  return {
    runCount: R,
    names: fns.names,
    inclusive,
    exclusive,
    present,
    functionOfNode: fns.functionOfNode,
    representative,
    edges: { caller: Int32Array.from(caller), callee: Int32Array.from(callee), inclusive: edgeInclusive },
  };
}

/** Run-to-run spread of one function, for CodeLens and hovers. */
export interface FunctionSpread {
  name: string;
  /** Source file and line of the function as the profile records them, when known. */
  file: string | null;
  line: number | null;
  present: number;
  missing: number;
  min: number;
  minRun: string | null;
  median: number;
  max: number;
  maxRun: string | null;
  mean: number;
  /** Coefficient of variation over runs (std / mean). */
  cv: number;
}

/** Per function: min / median / max over runs with the runs that hold them, and the CV. */
export function functionSpreads(
  ensemble: Ensemble,
  graph: EnsembleCallGraph,
  side: 'inclusive' | 'exclusive' = 'inclusive',
): FunctionSpread[] {
  const F = graph.names.length,
    R = graph.runCount;
  const s = matrixStatistics(side === 'inclusive' ? graph.inclusive : graph.exclusive, F, R);
  const runName = (r: number) => (r >= 0 ? ensemble.runs[r]!.name : null);
  return graph.names.map((name, f) => {
    const u = graph.representative[f]!;
    return {
      name,
      file: u >= 0 ? ensemble.tree.file(u) : null,
      line: u >= 0 ? ensemble.tree.line(u) : null,
      present: s.present[f]!,
      missing: R - s.present[f]!,
      min: s.min[f]!,
      minRun: runName(s.minRun[f]!),
      median: s.median[f]!,
      max: s.max[f]!,
      maxRun: runName(s.maxRun[f]!),
      mean: s.mean[f]!,
      cv: s.cv[f]!,
    };
  });
}
