import type { Ensemble, Side } from './ensemble';
import { binCount, binOf, DEFAULT_BINS, runHistogram, type BinRule, type RunHistogram } from './node-statistics';

/**
 * Comparisons within an ensemble (CallFlow §2.10, §4.8): the difference of two runs, and where one
 * target run sits in the ensemble's distribution of every node. Values are per-run means over
 * ranks, so runs with different rank counts compare.
 */

/** Presence of a node in the two runs of a diff. */
export const DiffPresence = { Both: 0, OnlyCompare: 1, OnlyBaseline: 2, Neither: 3 } as const;
export type DiffPresence = (typeof DiffPresence)[keyof typeof DiffPresence];

export interface RunDiff {
  baseline: number;
  compare: number;
  /** compare − baseline per union node; NaN unless the node exists in both runs (never a zero fill). */
  inclusive: Float64Array;
  exclusive: Float64Array;
  /** {@link DiffPresence} per node. */
  presence: Uint8Array;
}

/** Node-wise compare − baseline (positive = slower in the compare run). */
export function diffRuns(ensemble: Ensemble, baseline: number, compare: number): RunDiff {
  checkRun(ensemble, baseline);
  checkRun(ensemble, compare);
  const N = ensemble.size,
    R = ensemble.runCount;
  const inclusive = new Float64Array(N),
    exclusive = new Float64Array(N),
    presence = new Uint8Array(N);
  for (let u = 0; u < N; u++) {
    const b = ensemble.isPresent(u, baseline),
      c = ensemble.isPresent(u, compare);
    presence[u] =
      b && c ? DiffPresence.Both : c ? DiffPresence.OnlyCompare : b ? DiffPresence.OnlyBaseline : DiffPresence.Neither;
    inclusive[u] = ensemble.inclusive[u * R + compare]! - ensemble.inclusive[u * R + baseline]!;
    exclusive[u] = ensemble.exclusive[u * R + compare]! - ensemble.exclusive[u * R + baseline]!;
  }
  return { baseline, compare, inclusive, exclusive, presence };
}

/** `M = max |diff|` over the given values: the diverging colour scale is [−M, +M] (AT-9). */
export function symmetricDomain(diffs: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < diffs.length; i++) {
    const a = Math.abs(diffs[i]!);
    if (a > m) m = a;
  }
  return m;
}

/** One group (module, function) in a diff. */
export interface GroupDiff {
  name: string;
  /** Σ of the group's node exclusives in each run (over the nodes present there); NaN when the group is absent from that run. */
  baseline: number;
  compare: number;
  /** compare − baseline; NaN when the group is absent from either run. */
  diff: number;
  presence: DiffPresence;
}

/**
 * CallFlow's module diff (§2.10): Σ over the group's call sites of the mean-over-ranks exclusive in
 * the compare run minus the same in the baseline run. `groupOfNode` assigns each union node to a
 * group (-1 = none), e.g. modules from a module map or functions from the ensemble call graph.
 */
export function aggregateDiff(
  ensemble: Ensemble,
  baseline: number,
  compare: number,
  groupOfNode: ArrayLike<number>,
  groupNames: readonly string[],
): GroupDiff[] {
  checkRun(ensemble, baseline);
  checkRun(ensemble, compare);
  if (groupOfNode.length !== ensemble.size)
    throw new RangeError(`group map has ${groupOfNode.length} entries for ${ensemble.size} nodes`);
  const G = groupNames.length,
    R = ensemble.runCount;
  const b = new Float64Array(G).fill(NaN),
    c = new Float64Array(G).fill(NaN);
  for (let u = 0; u < ensemble.size; u++) {
    const g = groupOfNode[u]!;
    if (g < 0) continue;
    if (g >= G) throw new RangeError(`node ${u} is in group ${g}, but there are ${G} groups`);
    const vb = ensemble.exclusive[u * R + baseline]!,
      vc = ensemble.exclusive[u * R + compare]!;
    if (vb === vb) b[g] = b[g] === b[g] ? b[g]! + vb : vb;
    if (vc === vc) c[g] = c[g] === c[g] ? c[g]! + vc : vc;
  }
  return groupNames.map((name, g) => {
    const hb = b[g] === b[g],
      hc = c[g] === c[g];
    return {
      name,
      baseline: b[g]!,
      compare: c[g]!,
      diff: c[g]! - b[g]!,
      presence:
        hb && hc
          ? DiffPresence.Both
          : hc
            ? DiffPresence.OnlyCompare
            : hb
              ? DiffPresence.OnlyBaseline
              : DiffPresence.Neither,
    };
  });
}

/**
 * Module of every union node: the node's own module, else (statements, loops, call sites) the
 * module of its parent, else the function's own name — CallFlow's fallback when no module is known.
 */
export function modulesOfNodes(ensemble: Ensemble): { groupOfNode: Int32Array; names: string[] } {
  const tree = ensemble.tree;
  const ids = new Map<string, number>();
  const names: string[] = [];
  const out = new Int32Array(tree.size);
  const { parent, kind } = tree.columns;
  for (let u = 0; u < tree.size; u++) {
    const own = tree.module(u);
    const p = parent[u]!;
    if (!own && p >= 0 && (kind[u] === 1 || kind[u] === 2 || kind[u] === 3)) {
      out[u] = out[p]!;
      continue;
    }
    const name = own ?? tree.name(u);
    let g = ids.get(name);
    if (g === undefined) {
      g = names.length;
      ids.set(name, g);
      names.push(name);
    }
    out[u] = g;
  }
  return { groupOfNode: out, names };
}

export interface RankDiff {
  /** compare − baseline per context present in both runs (matched by rank, thread, GPU device and stream). */
  differences: Float64Array;
  /** Context labels of `differences`. */
  labels: string[];
  /** Contexts that exist in only one of the runs (left out, never zero-filled). */
  unmatched: number;
  histogram: RunHistogram;
}

/** Per-rank differences of one node between two runs, with their histogram (20 bins by default), or null when the node is missing in either run. */
export function rankDiff(
  ensemble: Ensemble,
  node: number,
  baseline: number,
  compare: number,
  side: Side = 'exclusive',
  bins: BinRule = DEFAULT_BINS,
): RankDiff | null {
  const vb = ensemble.perRank(node, baseline, side),
    vc = ensemble.perRank(node, compare, side);
  if (!vb || !vc) return null;
  const key = (c: { rank: number; thread: number; gpuDevice: number; gpuStream: number }) =>
    `${c.rank}/${c.thread}/${c.gpuDevice}/${c.gpuStream}`;
  const cb = ensemble.contexts(baseline),
    cc = ensemble.contexts(compare);
  const indexB = new Map(cb.map((c, i) => [key(c), i] as const));
  const diffs: number[] = [],
    labels: string[] = [];
  cc.forEach((c, i) => {
    const j = indexB.get(key(c));
    if (j === undefined) return;
    diffs.push(vc[i]! - vb[j]!);
    labels.push(c.label);
  });
  const differences = Float64Array.from(diffs);
  return {
    differences,
    labels,
    unmatched: cb.length + cc.length - 2 * diffs.length,
    histogram: runHistogram(differences, bins),
  };
}

/** Where a target run sits in each node's distribution over the runs. */
export interface TargetStatistics {
  target: number;
  side: Side;
  /** The target's value per node (NaN where the node is missing in the target). */
  value: Float64Array;
  /** Mid-rank percentile in [0, 100] among the node's present runs: 100·(below + ½·equal)/present. */
  percentile: Float64Array;
  /** (value − mean) / std over present runs (sample std, as the node statistics); 0 when all runs agree; NaN when missing. */
  zScore: Float64Array;
  /** The target's bin in the node's run histogram (for the target line); -1 when missing. */
  bin: Int32Array;
}

export function targetStatistics(
  ensemble: Ensemble,
  target: number,
  side: Side = 'inclusive',
  bins: BinRule = DEFAULT_BINS,
): TargetStatistics {
  checkRun(ensemble, target);
  if (typeof bins === 'number') binCount(bins, []);
  const N = ensemble.size,
    R = ensemble.runCount;
  const matrix = side === 'inclusive' ? ensemble.inclusive : ensemble.exclusive;
  const value = new Float64Array(N).fill(NaN),
    percentile = new Float64Array(N).fill(NaN),
    zScore = new Float64Array(N).fill(NaN);
  const bin = new Int32Array(N).fill(-1);
  for (let u = 0; u < N; u++) {
    const t = matrix[u * R + target]!;
    if (t !== t) continue;
    value[u] = t;
    // One pass: rank of the target, and the moments and range for z-score and bin.
    let below = 0,
      equal = 0,
      n = 0,
      sum = 0,
      min = Infinity,
      max = -Infinity;
    for (let r = 0; r < R; r++) {
      const v = matrix[u * R + r]!;
      if (v !== v) continue;
      n++;
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      if (v < t) below++;
      else if (v === t) equal++;
    }
    const mean = sum / n;
    let ss = 0;
    for (let r = 0; r < R; r++) {
      const v = matrix[u * R + r]!;
      if (v === v) ss += (v - mean) * (v - mean);
    }
    const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
    percentile[u] = (100 * (below + 0.5 * equal)) / n;
    zScore[u] = sd > 0 && max > min ? (t - mean) / sd : 0;
    bin[u] =
      typeof bins === 'number'
        ? binOf(t, min, max, bins)
        : runHistogram(ensemble.values(u, side), bins).binOfRun[target]!;
  }
  return { target, side, value, percentile, zScore, bin };
}

/**
 * CallFlow's default target: the run with the largest root inclusive time (mean over ranks), among
 * `runs` (default: all); the first such run on a tie.
 */
export function slowestRun(ensemble: Ensemble, runs?: ArrayLike<number>): number {
  return extremeRun(ensemble, runs, (a, b) => a > b);
}

/** The run with the smallest root inclusive time among `runs` (default: all): the default diff baseline. */
export function fastestRun(ensemble: Ensemble, runs?: ArrayLike<number>): number {
  return extremeRun(ensemble, runs, (a, b) => a < b);
}

function extremeRun(
  ensemble: Ensemble,
  runs: ArrayLike<number> | undefined,
  better: (a: number, b: number) => boolean,
): number {
  const n = runs ? runs.length : ensemble.runCount;
  let best = runs ? runs[0]! : 0,
    bestValue = ensemble.runTotal(best);
  for (let k = 1; k < n; k++) {
    const r = runs ? runs[k]! : k;
    const t = ensemble.runTotal(r);
    if (better(t, bestValue)) {
      bestValue = t;
      best = r;
    }
  }
  return best;
}

function checkRun(ensemble: Ensemble, run: number): void {
  if (!Number.isInteger(run) || run < 0 || run >= ensemble.runCount)
    throw new RangeError(`run ${run} is not in the ensemble (it has ${ensemble.runCount} runs)`);
}
