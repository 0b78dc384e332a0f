import { MAX_OUTLIERS, type BoxStatistics, type CallSiteBox, type CallSiteSort } from '../../shared/ensemble-protocol';
import { sourceOf } from '../model/node-source';
import type { Profile } from '../model/profile';
import { valueBox } from './node-statistics';
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
  const { ensemble, isEntry, side, entries } = scope;
  const S = sites.names.length,
    K = runs.length;
  const siteOf = side === 'inclusive' ? sites.inclusiveOf : sites.exclusiveOf;
  const presenceOf = sites.presenceOf,
    ownAll = side === 'exclusive';
  let scratch = new Int32Array(0);
  // Runs of one program mostly share their tree and with it their node → union node map (the
  // ensemble keeps one map per distinct tree): what a run's nodes contribute is worked out once per map.
  const plans = new Map<Int32Array, RunPlan>();
  const planOf = (map: Int32Array): RunPlan => {
    let plan = plans.get(map);
    if (!plan) {
      if (scratch.length < map.length) scratch = new Int32Array(map.length);
      plans.set(map, (plan = runPlan(map, scope, siteOf, presenceOf, ownAll, scratch)));
    }
    return plan;
  };
  // First pass: which runs hold the supernode and how many values each call site gets, so every
  // output is one typed array written in place (no growing, no per-run accumulator to copy and clear).
  const runPlans: (RunPlan | null)[] = new Array<RunPlan | null>(K).fill(null);
  const contextsOf = new Int32Array(K);
  const valueCount = new Int32Array(S),
    blockCount = new Int32Array(S);
  let ownCount = 0,
    maxReads = 0;
  for (let k = 0; k < K; k++) {
    const run = runs[k]!;
    let present = false;
    for (const u of entries)
      if (ensemble.isPresent(u, run)) {
        present = true;
        break;
      }
    if (!present) continue;
    const plan = planOf(ensemble.unionNodes(run));
    const C = ensemble.profile(run).contextCount;
    runPlans[k] = plan;
    contextsOf[k] = C;
    ownCount += C;
    if (plan.reads.length * C > maxReads) maxReads = plan.reads.length * C;
    for (const cs of plan.touched) {
      valueCount[cs]! += C;
      blockCount[cs]!++;
    }
  }
  const valueStart = new Int32Array(S + 1);
  for (let cs = 0; cs < S; cs++) valueStart[cs + 1] = valueStart[cs]! + valueCount[cs]!;
  const all = new Float64Array(valueStart[S]!);
  const ownAllRuns = new Float64Array(ownCount);
  const blockRuns = Array.from({ length: S }, (_, cs) => new Int32Array(blockCount[cs]!));
  const blockStarts = Array.from({ length: S }, (_, cs) => new Int32Array(blockCount[cs]! + 1));
  const written = new Int32Array(S),
    blocks = new Int32Array(S);
  // Where this run's values of each touched call site go in `all` (-1: not touched in this run).
  const destOf = new Int32Array(S).fill(-1);
  const rows = new Float64Array(maxReads);
  const supernode: (Float64Array | null)[] = new Array<Float64Array | null>(K).fill(null);
  let ownAt = 0;
  for (let k = 0; k < K; k++) {
    const plan = runPlans[k];
    if (!plan) continue;
    const run = runs[k]!,
      C = contextsOf[k]!;
    const p = ensemble.profile(run);
    const m = p.metricIndex(ensemble.metric.name);
    if (m < 0) throw new Error(`a run's profile lacks the ensemble's metric ${ensemble.metric.name}`);
    const own = ownAllRuns.subarray(ownAt, ownAt + C);
    ownAt += C;
    const { reads, touched } = plan;
    for (const cs of touched) {
      blockRuns[cs]![blocks[cs]!] = run;
      blockStarts[cs]![blocks[cs]!++] = written[cs]!;
      destOf[cs] = valueStart[cs]! + written[cs]!;
      written[cs]! += C;
    }
    // Row by row: a run read from its summary never builds its node × rank matrix for a selection.
    // Only the rows that add to a sum are read, all at once, and added in the run's node order (the
    // order they always added in) straight into the call sites' values, which start at zero.
    p.contextRows(side, m, reads, rows);
    addRows(rows, reads, ensemble.unionNodes(run), C, ownAll ? null : isEntry, siteOf, own, all, destOf);
    supernode[k] = own;
    // Every row added belongs to a touched call site: an owned loop or statement exists in a run
    // only below its owner.
    for (const cs of touched) destOf[cs] = -1;
  }
  return {
    callSites: blockRuns.map((r, cs) => {
      blockStarts[cs]![r.length] = valueCount[cs]!;
      return { values: all.subarray(valueStart[cs]!, valueStart[cs + 1]!), runs: r, starts: blockStarts[cs]! };
    }),
    supernode,
  };
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

function boxOf(scope: SupernodeScope, ranks: CallSiteRanks, iqrFactor: number): BoxStatistics {
  const b = valueBox(ranks.values, iqrFactor, MAX_OUTLIERS);
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
  const rows: { box: CallSiteBox; sortValue: number }[] = [];
  for (let cs = 0; cs < sites.names.length; cs++) {
    const r = ranks.callSites[cs]!;
    if (r.values.length === 0) continue;
    const ensembleBox = boxOf(scope, r, options.iqrFactor);
    // The heaviest function node gives the source location and the path (max over selected runs).
    const heaviness = scope.maxInclusive;
    let hottest = -1;
    for (const u of sites.nodes[cs]!)
      if (heaviness[u] === heaviness[u] && (hottest < 0 || heaviness[u]! > heaviness[hottest]!)) hottest = u;
    if (hottest < 0) hottest = sites.nodes[cs]![0]!;
    const { file, line } = sourceOf(options.profile, hottest);
    const contexts = sites.nodes[cs]!.length;
    const box: CallSiteBox = {
      name: sites.names[cs]!,
      file,
      line,
      ensemble: ensembleBox,
      present: runValues.present[cs]!,
      path: componentPath(scope, options.module, hottest) + (contexts > 1 ? ` (${contexts} calling contexts)` : ''),
    };
    if (targetRanks) {
      const t = targetRanks.callSites[cs]!;
      box.target = t.values.length ? boxOf(scope, t, options.iqrFactor) : null;
    }
    const sortValue =
      options.sort === 'max'
        ? ensembleBox.max
        : options.sort === 'imbalance'
          ? ensembleBox.imbalance
          : options.sort === 'variance'
            ? ensembleBox.variance
            : ensembleBox.mean;
    rows.push({ box, sortValue });
  }
  const byName = (a: CallSiteBox, b: CallSiteBox) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  rows.sort(
    options.sort === 'name'
      ? (a, b) => byName(a.box, b.box)
      : (a, b) => b.sortValue - a.sortValue || byName(a.box, b.box),
  );
  return { boxes: rows.slice(0, maxBoxes).map(r => r.box), truncated: Math.max(0, rows.length - maxBoxes) };
}
