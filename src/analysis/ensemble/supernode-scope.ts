import { NodeKind } from '../model/call-tree';
import type { SuperGraph } from '../graph/super-graph';
import type { Ensemble, Side } from './ensemble';
import { selectRuns } from './ensemble-graph';
import { binCount, histogramCountsInto } from './node-statistics';

/**
 * What every linked view of the selected supernode (CallFlow §4.3–4.6) starts from: the supernode's
 * union-tree nodes, the selected runs, the target run, and its call sites. Computed once per
 * selection and shared by the hierarchy, box, correlation and distribution builders.
 */
export interface SupernodeScope {
  ensemble: Ensemble;
  /** Index of the supernode in `graph.nodes`. */
  supernode: number;
  /** Union nodes of the supernode, in tree order (parents first). */
  members: Int32Array;
  /** 1 for the union nodes of the supernode. */
  inSupernode: Uint8Array;
  /** Members whose parent is outside the supernode: where it is entered (its inclusive value sums these). */
  entries: Int32Array;
  /** 1 on entry nodes. */
  isEntry: Uint8Array;
  /** Selected runs, ascending. */
  runs: Int32Array;
  /** Target run (mode `target`), or -1. */
  target: number;
  side: Side;
  /** Per union node (members only, else NaN): max over the selected runs, NaN when missing in all of them. */
  maxInclusive: Float64Array;
  maxExclusive: Float64Array;
}

/** Function-like nodes own the loops and statements below them (as in the super graph). */
export function isFunctionLike(kind: number): boolean {
  return kind === NodeKind.Function || kind === NodeKind.Region;
}

export function supernodeScope(
  ensemble: Ensemble,
  graph: SuperGraph,
  supernode: number,
  runs: readonly number[] | null,
  target: number | null,
  side: Side,
): SupernodeScope {
  const N = ensemble.size;
  if (graph.superOf.length !== N)
    throw new RangeError(
      `the super graph covers ${graph.superOf.length} call-tree nodes, the ensemble's union tree has ${N}`,
    );
  if (target !== null && !(Number.isInteger(target) && target >= 0 && target < ensemble.runCount))
    throw new RangeError(`target run ${target} is not in the ensemble (it has ${ensemble.runCount} runs)`);
  const members = graph.nodes[supernode]!.members;
  const inSupernode = new Uint8Array(N);
  for (const u of members) inSupernode[u] = 1;
  const parent = ensemble.tree.columns.parent;
  const isEntry = new Uint8Array(N);
  const entries: number[] = [];
  for (const u of members) {
    const p = parent[u]!;
    if (p < 0 || !inSupernode[p]) {
      isEntry[u] = 1;
      entries.push(u);
    }
  }
  const selected = selectRuns(runs, ensemble.runCount);
  const maxima = maximaOverRuns(ensemble.inclusive, ensemble.exclusive, ensemble.runCount, members, selected, N);
  return {
    ensemble,
    supernode,
    members,
    inSupernode,
    entries: Int32Array.from(entries),
    isEntry,
    runs: selected,
    target: target ?? -1,
    side,
    maxInclusive: maxima.inclusive,
    maxExclusive: maxima.exclusive,
  };
}

/** Per member: max over the runs of each matrix (NaN when missing in all), both in one pass over members × runs. */
function maximaOverRuns(
  inc: Float64Array,
  exc: Float64Array,
  R: number,
  nodes: Int32Array,
  runs: Int32Array,
  N: number,
): { inclusive: Float64Array; exclusive: Float64Array } {
  const inclusive = new Float64Array(N).fill(NaN),
    exclusive = new Float64Array(N).fill(NaN);
  const K = runs.length;
  for (let j = 0; j < nodes.length; j++) {
    const u = nodes[j]!,
      row = u * R;
    let mi = -Infinity,
      me = -Infinity;
    for (let k = 0; k < K; k++) {
      const at = row + runs[k]!;
      const vi = inc[at]!,
        ve = exc[at]!;
      if (vi > mi) mi = vi;
      if (ve > me) me = ve;
    }
    if (mi > -Infinity) inclusive[u] = mi;
    if (me > -Infinity) exclusive[u] = me;
  }
  return { inclusive, exclusive };
}

/**
 * The call sites of a supernode: the distinct function names among its nodes. Every member counts
 * toward the call site of its owner (the nearest function-like node at or above it inside the
 * supernode; a loop or statement with none is its own call site): exclusive values add over all
 * owned nodes, inclusive values over the outermost function nodes of each name only, so a
 * recursive function counts once on a path.
 */
export interface CallSites {
  names: string[];
  /** Per call site: its function nodes (union ids, tree order). */
  nodes: Int32Array[];
  /** Per union node: the call site whose inclusive value it adds to (outermost function nodes), else -1. */
  inclusiveOf: Int32Array;
  /** Per union node: the call site whose exclusive value it adds to (every member), else -1. */
  exclusiveOf: Int32Array;
  /** Per union node: the call site whose existence in a run it proves (function nodes), else -1. */
  presenceOf: Int32Array;
}

export function supernodeCallSites(scope: SupernodeScope): CallSites {
  const { ensemble, members, inSupernode } = scope;
  const tree = ensemble.tree;
  const N = tree.size;
  const { parent, kind, name } = tree.columns;
  const owner = new Int32Array(N).fill(-1);
  const exclusiveOf = new Int32Array(N).fill(-1),
    presenceOf = new Int32Array(N).fill(-1),
    inclusiveOf = new Int32Array(N).fill(-1);
  const siteOfName = new Map<number, number>();
  const names: string[] = [];
  const nodeLists: number[][] = [];
  for (const u of members) {
    const p = parent[u]!;
    const owned = p >= 0 && inSupernode[p] && !isFunctionLike(kind[u]!);
    owner[u] = owned ? owner[p]! : u;
    if (owned) {
      exclusiveOf[u] = exclusiveOf[owner[u]!]!;
      continue;
    }
    let cs = siteOfName.get(name[u]!);
    if (cs === undefined) {
      cs = names.length;
      siteOfName.set(name[u]!, cs);
      names.push(tree.name(u));
      nodeLists.push([]);
    }
    exclusiveOf[u] = presenceOf[u] = cs;
    nodeLists[cs]!.push(u);
  }
  // Outermost function nodes per call site: a depth-first walk inside the supernode with an active count per call site.
  const active = new Int32Array(names.length);
  const stack: number[] = [];
  for (let k = scope.entries.length - 1; k >= 0; k--) stack.push(scope.entries[k]!);
  while (stack.length) {
    const v = stack.pop()!;
    if (v < 0) {
      active[presenceOf[~v]!]!--;
      continue;
    }
    const cs = presenceOf[v]!;
    if (cs >= 0) {
      if (active[cs] === 0) inclusiveOf[v] = cs;
      active[cs]!++;
      stack.push(~v);
    }
    const ch = tree.children(v);
    for (let c = ch.length - 1; c >= 0; c--) if (inSupernode[ch[c]!]) stack.push(ch[c]!);
  }
  return { names, nodes: nodeLists.map(l => Int32Array.from(l)), inclusiveOf, exclusiveOf, presenceOf };
}

/** Each call site's value in each selected run (the run's mean over its ranks), call-site-major, NaN where missing. */
export interface CallSiteRunValues {
  /** `[callSite · runs + k]` for the k-th selected run. */
  inclusive: Float64Array;
  exclusive: Float64Array;
  /** Selected runs in which each call site exists. */
  present: Int32Array;
}

/** From the ensemble's per-run matrices: O(members × selected runs). */
export function callSiteRunValues(
  scope: SupernodeScope,
  sites: CallSites,
  runs: Int32Array = scope.runs,
): CallSiteRunValues {
  return memberRunPass(scope, sites, runs, 0).values;
}

/**
 * Every member's histogram of its values on the scope's side over the selected runs (the
 * hierarchy's gradients, as {@link runHistogramCounts} bins one node's run vector), by position in
 * `scope.members`.
 */
export interface MemberGradients {
  bins: number;
  /** Per union node: its position in `scope.members`, -1 outside the supernode. */
  position: Int32Array;
  /** Per member: [min, max] of its present values (NaN when missing in every selected run). */
  min: Float64Array;
  max: Float64Array;
  /** `[position · bins + bin]`. */
  counts: Int32Array;
}

/**
 * {@link callSiteRunValues} over the selected runs and the members' gradients with `bins` bins, in
 * one pass over members × runs: each member's run vector is gathered once and binned while it is
 * in cache, with nothing allocated per member.
 */
export function callSiteRunValuesWithGradients(
  scope: SupernodeScope,
  sites: CallSites,
  bins: number,
): { values: CallSiteRunValues; gradients: MemberGradients } {
  // The bin rule's own check and message.
  const pass = memberRunPass(scope, sites, scope.runs, binCount(bins, []));
  return { values: pass.values, gradients: pass.gradients! };
}

function memberRunPass(
  scope: SupernodeScope,
  sites: CallSites,
  runs: Int32Array,
  bins: number,
): { values: CallSiteRunValues; gradients: MemberGradients | null } {
  const { ensemble, members } = scope;
  const R = ensemble.runCount,
    K = runs.length,
    S = sites.names.length,
    M = members.length;
  const inclusive = new Float64Array(S * K),
    exclusive = new Float64Array(S * K);
  const seen = new Uint8Array(S * K);
  const inc = ensemble.inclusive,
    exc = ensemble.exclusive;
  const gradients: MemberGradients | null = bins
    ? {
        bins,
        position: new Int32Array(ensemble.size).fill(-1),
        min: new Float64Array(M),
        max: new Float64Array(M),
        counts: new Int32Array(M * bins),
      }
    : null;
  const sideMatrix = scope.side === 'inclusive' ? inc : exc;
  const row = new Float64Array(gradients ? K : 0);
  const range = new Float64Array(2);
  for (let at = 0; at < M; at++) {
    const u = members[at]!;
    const base = u * R;
    if (gradients) {
      const n = gatherRow(sideMatrix, base, runs, row, range);
      histogramCountsInto(row, K, range[0]!, range[1]!, gradients.counts, at * bins, bins);
      gradients.position[u] = at;
      gradients.min[at] = n ? range[0]! : NaN;
      gradients.max[at] = n ? range[1]! : NaN;
    }
    addCallSiteRow(
      inc,
      exc,
      base,
      runs,
      sites.inclusiveOf[u]!,
      sites.exclusiveOf[u]!,
      sites.presenceOf[u]!,
      inclusive,
      exclusive,
      seen,
    );
  }
  return { values: { inclusive, exclusive, present: countPresent(seen, S, K, inclusive, exclusive) }, gradients };
}

/** Runs in which each call site exists; its values are NaN in the others. */
function countPresent(
  seen: Uint8Array,
  S: number,
  K: number,
  inclusive: Float64Array,
  exclusive: Float64Array,
): Int32Array {
  const present = new Int32Array(S);
  for (let cs = 0; cs < S; cs++) {
    for (let k = 0; k < K; k++) {
      if (seen[cs * K + k]) present[cs]!++;
      else inclusive[cs * K + k] = exclusive[cs * K + k] = NaN;
    }
  }
  return present;
}

/*
 * The loops over runs are small functions of their own: called once per member, V8 optimises them
 * with complete feedback early in a first selection.
 */

/** Gathers a node's row over `runs` into `row`; [min, max] of its present values into `range`; returns how many are present. */
function gatherRow(
  matrix: Float64Array,
  base: number,
  runs: Int32Array,
  row: Float64Array,
  range: Float64Array,
): number {
  let n = 0,
    lo = Infinity,
    hi = -Infinity;
  for (let k = 0; k < runs.length; k++) {
    const v = matrix[base + runs[k]!]!;
    row[k] = v;
    if (v !== v) continue;
    n++;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  range[0] = lo;
  range[1] = hi;
  return n;
}

/** Adds a member's values over `runs` to its call sites (inclusive `i`, exclusive `x`, presence `pr`; -1: none). */
function addCallSiteRow(
  inc: Float64Array,
  exc: Float64Array,
  base: number,
  runs: Int32Array,
  i: number,
  x: number,
  pr: number,
  inclusive: Float64Array,
  exclusive: Float64Array,
  seen: Uint8Array,
): void {
  const K = runs.length;
  for (let k = 0; k < K; k++) {
    const vi = inc[base + runs[k]!]!;
    if (vi !== vi) continue;
    if (i >= 0) inclusive[i * K + k]! += vi;
    if (x >= 0) exclusive[x * K + k]! += exc[base + runs[k]!]!;
    if (pr >= 0) seen[pr * K + k] = 1;
  }
}

/** The supernode's value in each given run (exclusive = Σ members, inclusive = Σ entry nodes), NaN where it is missing. */
export function supernodeValuesOverRuns(
  scope: SupernodeScope,
  side: Side,
  runs: Int32Array = scope.runs,
): Float64Array {
  const { ensemble } = scope;
  const R = ensemble.runCount,
    K = runs.length;
  const matrix = side === 'inclusive' ? ensemble.inclusive : ensemble.exclusive;
  const nodes = side === 'inclusive' ? scope.entries : scope.members;
  const out = new Float64Array(K).fill(NaN);
  for (const u of nodes) {
    for (let k = 0; k < K; k++) {
      const v = matrix[u * R + runs[k]!]!;
      if (v !== v) continue;
      out[k] = out[k]! === out[k]! ? out[k]! + v : v;
    }
  }
  return out;
}

/** A node's value over the given runs (NaN where missing): a row of the ensemble's matrix, gathered. */
export function nodeRunValues(ensemble: Ensemble, node: number, side: Side, runs: Int32Array): Float64Array {
  const R = ensemble.runCount;
  const matrix = side === 'inclusive' ? ensemble.inclusive : ensemble.exclusive;
  const out = new Float64Array(runs.length);
  for (let k = 0; k < runs.length; k++) out[k] = matrix[node * R + runs[k]!]!;
  return out;
}
