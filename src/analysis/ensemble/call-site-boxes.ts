import { MAX_OUTLIERS, type BoxStatistics, type CallSiteBox, type CallSiteSort } from '../../shared/ensemble-protocol';
import { sourceOf } from '../model/node-source';
import type { Profile } from '../model/profile';
import { valueBox, type ValueBox } from './node-statistics';
import type { CallSiteRunValues, CallSites, SupernodeScope } from './supernode-scope';

/** Box plots sent at most (the first by the chosen sort). */
export const MAX_CALL_SITE_BOXES = 50;

/** Values per (run, rank) of one call site, run after run. */
export interface CallSiteRanks {
  values: Float64Array;
  /** The run of each block of values and where the block starts in `values` (`starts` has one more entry: the end). */
  runs: Int32Array;
  starts: Int32Array;
}

export interface RankValues {
  /** Per call site (in `CallSites` order), over the walked runs where it exists. */
  callSites: CallSiteRanks[];
  /** The supernode's per-rank values in each walked run (null where the supernode is missing). */
  supernode: (Float64Array | null)[];
}

/**
 * Per-rank values of every call site and of the supernode itself in the given runs, on the scope's
 * side: exclusive = Σ over the nodes a call site owns (the supernode: over all members), inclusive
 * = Σ over the outermost function nodes of a call site (the supernode: over its entry nodes). One
 * pass over each distinct node → union node map (runs of one program share theirs), never one
 * lookup per union node per run, then per run one `contextRows` call for the rows that add to a sum:
 * O(Σ distinct map sizes + read rows × ranks).
 */
export function rankValues(scope: SupernodeScope, sites: CallSites, runs: Int32Array): RankValues {
  const S = sites.names.length;
  const siteOf = scope.side === 'inclusive' ? sites.inclusiveOf : sites.exclusiveOf;
  // First pass: which runs hold the supernode and how many values each call site gets, so every
  // output is one typed array written in place (no growing, no per-run accumulator to copy and clear).
  const layout = layOutRuns(scope, sites, runs, siteOf);
  const { valueCount, blockCount } = layout;
  const valueStart = new Int32Array(S + 1);
  for (let cs = 0; cs < S; cs++) valueStart[cs + 1] = valueStart[cs]! + valueCount[cs]!;
  const out: RankOutput = {
    values: new Float64Array(valueStart[S]!),
    valueStart,
    own: new Float64Array(layout.ownCount),
    blockRuns: Array.from({ length: S }, (_, cs) => new Int32Array(blockCount[cs]!)),
    blockStarts: Array.from({ length: S }, (_, cs) => new Int32Array(blockCount[cs]! + 1)),
    supernode: new Array<Float64Array | null>(runs.length).fill(null),
  };
  fillRuns(scope, runs, siteOf, layout, out);
  return {
    callSites: out.blockRuns.map((r, cs) => {
      out.blockStarts[cs]![r.length] = valueCount[cs]!;
      return {
        values: out.values.subarray(valueStart[cs]!, valueStart[cs + 1]!),
        runs: r,
        starts: out.blockStarts[cs]!,
      };
    }),
    supernode: out.supernode,
  };
}

/** Which of the walked runs hold the supernode (their plan, null elsewhere) and the sizes of {@link rankValues}' outputs. */
interface RunLayout {
  plans: (RunPlan | null)[];
  /** Contexts of each walked run. */
  contexts: Int32Array;
  /** Per call site: values and blocks (runs) it gets. */
  valueCount: Int32Array;
  blockCount: Int32Array;
  /** Values of the supernode itself over all walked runs. */
  ownCount: number;
  /** The most row values one run reads. */
  maxReads: number;
}

/** Where {@link rankValues} writes: every call site's values in one array (from `valueStart[cs]`), the supernode's in another. */
interface RankOutput {
  values: Float64Array;
  valueStart: Int32Array;
  own: Float64Array;
  blockRuns: Int32Array[];
  blockStarts: Int32Array[];
  supernode: (Float64Array | null)[];
}

/*
 * The two passes over runs are functions of their own, each small: V8 compiles them quickly with
 * complete feedback (one large function was compiled on stack replacement, 20–150 ms of compiler
 * time, and thrown away again at the first path not yet taken, selection after selection).
 */

function layOutRuns(scope: SupernodeScope, sites: CallSites, runs: Int32Array, siteOf: Int32Array): RunLayout {
  const { ensemble, entries } = scope;
  const S = sites.names.length,
    K = runs.length;
  let scratch = new Int32Array(0);
  // Runs of one program mostly share their tree and with it their node → union node map (the
  // ensemble keeps one map per distinct tree): what a run's nodes contribute is worked out once per map.
  const byMap = new Map<Int32Array, RunPlan>();
  const layout: RunLayout = {
    plans: new Array<RunPlan | null>(K).fill(null),
    contexts: new Int32Array(K),
    valueCount: new Int32Array(S),
    blockCount: new Int32Array(S),
    ownCount: 0,
    maxReads: 0,
  };
  for (let k = 0; k < K; k++) {
    const run = runs[k]!;
    let present = false;
    for (const u of entries)
      if (ensemble.isPresent(u, run)) {
        present = true;
        break;
      }
    if (!present) continue;
    const map = ensemble.unionNodes(run);
    let plan = byMap.get(map);
    if (!plan) {
      if (scratch.length < map.length) scratch = new Int32Array(map.length);
      byMap.set(map, (plan = runPlan(map, scope, siteOf, sites.presenceOf, scope.side === 'exclusive', scratch)));
    }
    const C = ensemble.profile(run).contextCount;
    layout.plans[k] = plan;
    layout.contexts[k] = C;
    layout.ownCount += C;
    if (plan.reads.length * C > layout.maxReads) layout.maxReads = plan.reads.length * C;
    countBlocks(plan.touched, C, layout.valueCount, layout.blockCount);
  }
  return layout;
}

/**
 * Second pass: per run holding the supernode, one `contextRows` call for the rows that add to a sum
 * (row by row: a run read from its summary never builds its node × rank matrix for a selection),
 * added in the run's node order (the order they always added in) straight into the call sites'
 * values, which start at zero.
 */
function fillRuns(
  scope: SupernodeScope,
  runs: Int32Array,
  siteOf: Int32Array,
  layout: RunLayout,
  out: RankOutput,
): void {
  const { ensemble } = scope;
  const S = out.blockRuns.length;
  const entry = scope.side === 'exclusive' ? null : scope.isEntry;
  const written = new Int32Array(S),
    blocks = new Int32Array(S);
  // Where this run's values of each touched call site go in `out.values` (-1: not touched in this run).
  const destOf = new Int32Array(S).fill(-1);
  const rows = new Float64Array(layout.maxReads);
  let ownAt = 0;
  for (let k = 0; k < runs.length; k++) {
    const plan = layout.plans[k];
    if (!plan) continue;
    const run = runs[k]!,
      C = layout.contexts[k]!;
    const p = ensemble.profile(run);
    const m = p.metricIndex(ensemble.metric.name);
    if (m < 0) throw new Error(`a run's profile lacks the ensemble's metric ${ensemble.metric.name}`);
    const own = out.own.subarray(ownAt, ownAt + C);
    ownAt += C;
    openBlocks(plan.touched, run, C, out.blockRuns, out.blockStarts, blocks, written, out.valueStart, destOf);
    p.contextRows(scope.side, m, plan.reads, rows);
    addRows(rows, plan.reads, ensemble.unionNodes(run), C, entry, siteOf, own, out.values, destOf);
    out.supernode[k] = own;
    // Every row added belongs to a touched call site: an owned loop or statement exists in a run
    // only below its owner.
    closeBlocks(plan.touched, destOf);
  }
}

function closeBlocks(touched: Int32Array, destOf: Int32Array): void {
  for (let j = 0; j < touched.length; j++) destOf[touched[j]!] = -1;
}

/** Per run: the loops over call sites, small functions V8 optimises early in a first selection. */
function countBlocks(touched: Int32Array, C: number, valueCount: Int32Array, blockCount: Int32Array): void {
  for (let j = 0; j < touched.length; j++) {
    const cs = touched[j]!;
    valueCount[cs]! += C;
    blockCount[cs]!++;
  }
}

/** Starts this run's block of values of each touched call site and says where it goes (`destOf`). */
function openBlocks(
  touched: Int32Array,
  run: number,
  C: number,
  blockRuns: Int32Array[],
  blockStarts: Int32Array[],
  blocks: Int32Array,
  written: Int32Array,
  valueStart: Int32Array,
  destOf: Int32Array,
): void {
  for (let j = 0; j < touched.length; j++) {
    const cs = touched[j]!,
      b = blocks[cs]!++;
    blockRuns[cs]![b] = run;
    blockStarts[cs]![b] = written[cs]!;
    destOf[cs] = valueStart[cs]! + written[cs]!;
    written[cs]! += C;
  }
}

/**
 * Adds the j-th row of `rows` (run node `reads[j]`, union node u) to the supernode's `own` (every row,
 * or only entry nodes' when `entry` is given) and to its call site's values in `out` (from
 * `destOf[call site]`). A small function of its own: called once per run, V8 optimises it after a
 * few runs, where one loop inlined in `rankValues` ran interpreted through a first selection.
 */
function addRows(
  rows: Float64Array,
  reads: Int32Array,
  map: Int32Array,
  C: number,
  entry: Uint8Array | null,
  siteOf: Int32Array,
  own: Float64Array,
  out: Float64Array,
  destOf: Int32Array,
): void {
  for (let j = 0; j < reads.length; j++) {
    const u = map[reads[j]!]!,
      at = j * C;
    if (!entry || entry[u]) for (let c = 0; c < C; c++) own[c]! += rows[at + c]!;
    const cs = siteOf[u]!;
    if (cs < 0) continue;
    const base = destOf[cs]!;
    if (base < 0) throw new Error(`call site ${cs} adds values in a run where it does not exist`);
    for (let c = 0; c < C; c++) out[base + c]! += rows[at + c]!;
  }
}

/** What the nodes of runs sharing one node → union node map contribute to {@link rankValues}' sums. */
interface RunPlan {
  /** Positions (ascending) of the run's nodes whose rows add to the supernode's or a call site's values. */
  reads: Int32Array;
  /** Call sites (in order of first node) that exist in such a run: each gets a block of values. */
  touched: Int32Array;
}

/**
 * One scan of the map: of the supernode's nodes, those whose rows are summed (every member on the
 * exclusive side; on the inclusive side only entry nodes and outermost function nodes, not the
 * loops, statements and nested calls below them), and the call sites present.
 */
function runPlan(
  map: Int32Array,
  scope: SupernodeScope,
  siteOf: Int32Array,
  presenceOf: Int32Array,
  ownAll: boolean,
  hits: Int32Array,
): RunPlan {
  const h = collectMembers(map, scope.inSupernode, hits);
  const reads: number[] = [],
    touched: number[] = [];
  const stamp = new Set<number>();
  for (let j = 0; j < h; j++) {
    const i = hits[j]!,
      u = map[i]!;
    if (ownAll || scope.isEntry[u] || siteOf[u]! >= 0) reads.push(i);
    const pr = presenceOf[u]!;
    if (pr >= 0 && !stamp.has(pr)) {
      stamp.add(pr);
      touched.push(pr);
    }
  }
  return { reads: Int32Array.from(reads), touched: Int32Array.from(touched) };
}

/** Writes the positions i with `flag[map[i]]` set into `out` and returns how many (a tight loop V8 optimises on its own). */
function collectMembers(map: Int32Array, flag: Uint8Array, out: Int32Array): number {
  let h = 0;
  for (let i = 0; i < map.length; i++) if (flag[map[i]!]) out[h++] = i;
  return h;
}

/** The run and rank of the value at `position` of a call site's per-rank values. */
function runAndRank(scope: SupernodeScope, ranks: CallSiteRanks, position: number): { run: number; rank: number } {
  let lo = 0,
    hi = ranks.runs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranks.starts[mid]! <= position) lo = mid;
    else hi = mid - 1;
  }
  const run = ranks.runs[lo]!;
  const c = position - ranks.starts[lo]!;
  const ctx = scope.ensemble.contexts(run)[c];
  return { run, rank: ctx && ctx.rank >= 0 ? ctx.rank : c };
}

function boxOf(scope: SupernodeScope, ranks: CallSiteRanks, b: ValueBox): BoxStatistics {
  return {
    count: b.count,
    min: b.min,
    q1: b.q1,
    median: b.median,
    q3: b.q3,
    max: b.max,
    mean: b.mean,
    variance: b.variance,
    imbalance: b.imbalance,
    skewness: b.skewness,
    kurtosis: b.kurtosis,
    whiskerLow: b.whiskerLow,
    whiskerHigh: b.whiskerHigh,
    outliers: Array.from(b.outliers, pos => ({ value: ranks.values[pos]!, ...runAndRank(scope, ranks, pos) })),
    outlierCount: b.outlierCount,
  };
}

/** `module › entry › … › call site`: the component path of a union node inside the supernode. */
export function componentPath(scope: SupernodeScope, module: string, node: number): string {
  const tree = scope.ensemble.tree;
  const names: string[] = [];
  for (let v = node; v >= 0 && scope.inSupernode[v]; v = tree.parent(v)) names.push(tree.name(v));
  names.reverse();
  const shown = names.length > 4 ? [names[0]!, '…', ...names.slice(-2)] : names;
  // A module named after its function (no load module) would repeat it.
  return (shown[0] === module ? shown : [module, ...shown]).join(' › ');
}

export interface CallSiteBoxOptions {
  iqrFactor: number;
  sort: CallSiteSort;
  /** The supernode's module, first in each component path. */
  module: string;
  /** Source locations come from this profile (the ensemble profile: the union tree with totals). */
  profile: Profile;
  /** Default {@link MAX_CALL_SITE_BOXES}. */
  maxBoxes?: number;
}

/**
 * One box plot per call site over every rank of every selected run where it exists (§4.4), and over
 * the target run's ranks in target mode; sorted (mean, max, imbalance, variance: largest first;
 * name: ascending), the first `maxBoxes` sent.
 */
export function callSiteBoxes(
  scope: SupernodeScope,
  sites: CallSites,
  runValues: CallSiteRunValues,
  ranks: RankValues,
  targetRanks: RankValues | null,
  options: CallSiteBoxOptions,
): { boxes: CallSiteBox[]; truncated: number } {
  const maxBoxes = options.maxBoxes ?? MAX_CALL_SITE_BOXES;
  // Every call site's statistics decide the order; outliers, source and path only for the boxes sent.
  const rows: { cs: number; name: string; stats: ValueBox; sortValue: number }[] = [];
  for (let cs = 0; cs < sites.names.length; cs++) {
    const r = ranks.callSites[cs]!;
    if (r.values.length === 0) continue;
    const stats = valueBox(r.values, options.iqrFactor, MAX_OUTLIERS);
    const sortValue =
      options.sort === 'max'
        ? stats.max
        : options.sort === 'imbalance'
          ? stats.imbalance
          : options.sort === 'variance'
            ? stats.variance
            : stats.mean;
    rows.push({ cs, name: sites.names[cs]!, stats, sortValue });
  }
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  rows.sort(options.sort === 'name' ? byName : (a, b) => b.sortValue - a.sortValue || byName(a, b));
  const boxes = rows.slice(0, maxBoxes).map(({ cs, name, stats }): CallSiteBox => {
    // The heaviest function node gives the source location and the path (max over selected runs).
    const heaviness = scope.maxInclusive;
    let hottest = -1;
    for (const u of sites.nodes[cs]!)
      if (heaviness[u] === heaviness[u] && (hottest < 0 || heaviness[u]! > heaviness[hottest]!)) hottest = u;
    if (hottest < 0) hottest = sites.nodes[cs]![0]!;
    const { file, line } = sourceOf(options.profile, hottest);
    const contexts = sites.nodes[cs]!.length;
    const box: CallSiteBox = {
      name,
      file,
      line,
      ensemble: boxOf(scope, ranks.callSites[cs]!, stats),
      present: runValues.present[cs]!,
      path: componentPath(scope, options.module, hottest) + (contexts > 1 ? ` (${contexts} calling contexts)` : ''),
    };
    if (targetRanks) {
      const t = targetRanks.callSites[cs]!;
      box.target = t.values.length ? boxOf(scope, t, valueBox(t.values, options.iqrFactor, MAX_OUTLIERS)) : null;
    }
    return box;
  });
  return { boxes, truncated: Math.max(0, rows.length - maxBoxes) };
}
