import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { PairIndex } from './pair-index';
import { compileModuleMap, type CompiledModuleMap, type ModuleRule } from './module-map';

/**
 * CallFlow's super graph (seed-callflow §1.4, §2.1–2.4, §2.7), built from the calling-context tree
 * in a few linear passes over typed arrays.
 *
 * 1. Filter (§2.1, the paper's rule, not the reference code's): a function is kept when its total
 *    inclusive (or exclusive) value over all its call-tree instances — outermost instances only, so
 *    recursion counts once — is at least `threshold` × the root inclusive value. Ancestors of kept
 *    nodes are always kept so every kept node stays connected to its root. A removed node's time
 *    stays in its ancestors' inclusive values: it shows as part of the caller's gap (height − Σ
 *    outgoing edges) and is reported separately as `filteredInclusive`, never added to exclusive.
 * 2. Group (§1.7): each function gets a group — the first matching user module-map rule, else its
 *    load module, else (when the profile names at least two load modules) its caller's group, else
 *    its own name. Loops and statements belong to their function's group. `groupBy: 'function'`
 *    merges by function name instead (the call graph of §1.3, still cycle-free).
 * 3. Aggregate (§2.2): consecutive call-tree nodes of one group on a path form one supernode
 *    instance. A group entered again further down a path gets its own supernode (`lib1#2`), so
 *    `lib1 → lib2 → lib1` has two lib1 nodes. Groups that still form a cycle across paths (A → B
 *    on one path, B → A on another) are keyed by their level on the module path too (`A@2`, `A@3`),
 *    which orders every edge between them; a deterministic back-edge pass is the safety net (it
 *    can only fire on reveals within one supernode) and reports what it drops.
 * 4. Split (§2.3): by entry function (`lib5-foo`: one node per entry function, the entries' sub-flows)
 *    or by caller (`MPI-Hypre`: one node per calling supernode), and reveal a function (pull it and
 *    the module code below it out of its supernode as `module-function`).
 * 5. Metrics (§1.4, §2.7) per supernode and per selected context: exclusive = Σ member exclusive;
 *    inclusive = Σ inclusive of the nodes that enter the supernode on each path (never nested, so
 *    nothing counts twice); an edge A→B carries the inclusive value of B's entries whose caller is in A.
 *
 * With a context subset (`contexts`, e.g. brushed ranks) every sum — the filter's threshold and
 * per-function totals included — is over those contexts only, as if the profile held just them.
 *
 * Same profile and options → same node ids, order and values. Split and reveal requests name
 * supernodes by id (`module`, `module#k`), which survive recomputation, not by array index.
 */

export type FilterBy = 'inclusive' | 'exclusive';
export type SplitMode = 'entry' | 'caller';
export type SuperNodeKind = 'module' | 'entry' | 'caller' | 'function';

export interface SplitRequest {
  /** Id of the supernode to split, e.g. `MPI` or `lib1#2`. */
  node: string;
  mode: SplitMode;
  /** For `entry`: the entry functions that get their own node (default: every entry function). */
  entries?: readonly string[];
}

export interface RevealRequest {
  /** Id of the (unsplit) supernode the function lives in. */
  node: string;
  /** Function name to pull out. */
  function: string;
}

export interface SuperGraphOptions {
  /** Metric index (default: the profile's primary metric). */
  metric?: number;
  /** Share of the root inclusive value below which a function is removed (default 0.001 = 0.1 %), and by which side. */
  filter?: { threshold?: number; by?: FilterBy };
  moduleMap?: readonly ModuleRule[] | CompiledModuleMap;
  groupBy?: 'module' | 'function';
  splits?: readonly SplitRequest[];
  reveal?: readonly RevealRequest[];
  /** Compute over these context indices only (e.g. brushed ranks); default: all contexts. */
  contexts?: Int32Array | readonly number[];
}

export const DEFAULT_FILTER_THRESHOLD = 0.001;

export interface EntryFunction {
  name: string;
  /** Σ inclusive of the nodes through which this function enters the supernode. */
  inclusive: number;
  /** Σ exclusive of those nodes and the loops and statements they own. */
  exclusive: number;
  /** The call-tree entry nodes, in tree order. */
  nodes: Int32Array;
  /** The entry node with the largest inclusive value (the click target). */
  hottest: number;
}

export interface SuperNode {
  /** Stable id: `module`, `module#2` for a re-entry, `module-entry`, `module-caller` after splits. */
  id: string;
  /** The group (module) it stands for. */
  module: string;
  kind: SuperNodeKind;
  /** Id of the unsplit supernode it comes from (== id for `module` nodes). */
  base: string;
  /** 1 for the first entry of the module on a path, 2 for a re-entry below it, … */
  occurrence: number;
  /** Level on the module path (≥ 1) for supernodes keyed by level to break a cross-path cycle (id `module@level`), else 0. */
  level: number;
  /** Σ over the selected contexts. */
  inclusive: number;
  exclusive: number;
  /** Per selected context (in `graph.contexts` order). */
  inclusiveByContext: Float64Array;
  exclusiveByContext: Float64Array;
  /** Inclusive value of callees removed by the filter: part of the gap below the outgoing edges. */
  filteredInclusive: number;
  /** Entry functions by inclusive value, largest first. */
  entries: EntryFunction[];
  /** Call-tree nodes the supernode covers, in tree order. */
  members: Int32Array;
}

export interface SuperEdge {
  source: string;
  target: string;
  /** Indices into `graph.nodes`. */
  from: number;
  to: number;
  /** Inclusive value flowing into the target through this caller (Σ over the selected contexts). */
  value: number;
  valueByContext: Float64Array;
}

export interface SuperGraph {
  nodes: SuperNode[];
  edges: SuperEdge[];
  /** Edges the back-edge pass removed (empty unless the aggregation met a cross-path cycle). */
  droppedEdges: SuperEdge[];
  metric: number;
  /** The selected context indices. */
  contexts: Int32Array;
  /** Σ root inclusive over the selected contexts: 100 % for shares. */
  total: number;
  /**
   * The filter applied: share and absolute threshold, what it removed, and the inclusive value of
   * whole call-tree roots it removed (in `total` but in no node: tiny roots such as MPI_Init called
   * outside main).
   */
  filter: {
    threshold: number;
    by: FilterBy;
    absolute: number;
    removedNodes: number;
    removedFunctions: number;
    keptFunctions: number;
    removedRootInclusive: number;
  };
  /** Supernode index of every call-tree node, -1 for nodes removed by the filter. */
  superOf: Int32Array;
  /** Split and reveal requests that named no supernode of this graph. */
  unmatched: string[];
  /** Call-tree parent column (for `supernodeOfNode`). */
  readonly parent: Int32Array;
}

/** Function-like kinds own the loops and statements below them. */
function ownsCost(kind: number): boolean {
  return kind === NodeKind.Function || kind === NodeKind.Region;
}

function selectedContexts(profile: Profile, contexts: SuperGraphOptions['contexts']): Int32Array {
  const C = profile.contextCount;
  if (!contexts) return Int32Array.from({ length: C }, (_, c) => c);
  const sel = Int32Array.from(contexts);
  if (sel.length === 0) throw new RangeError('the context subset is empty');
  const seen = new Uint8Array(C);
  for (const c of sel) {
    if (!(Number.isInteger(c) && c >= 0 && c < C))
      throw new RangeError(`context ${c} does not exist (the profile has ${C})`);
    if (seen[c]) throw new RangeError(`context ${c} is selected twice`);
    seen[c] = 1;
  }
  return sel;
}

/** Per-node values summed over the selected contexts (the cached totals when all are selected). */
function nodeSums(matrix: Float64Array, all: Float64Array | null, n: number, C: number, sel: Int32Array): Float64Array {
  if (all) return all;
  const out = new Float64Array(n);
  const K = sel.length;
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * C;
    for (let k = 0; k < K; k++) s += matrix[row + sel[k]!]!;
    out[i] = s;
  }
  return out;
}

export function superGraph(profile: Profile, options: SuperGraphOptions = {}): SuperGraph {
  const m = options.metric ?? profile.primaryMetric;
  if (!(Number.isInteger(m) && m >= 0 && m < profile.metrics.length))
    throw new RangeError(`metric ${m} does not exist (the profile has ${profile.metrics.length})`);
  const threshold = options.filter?.threshold ?? DEFAULT_FILTER_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1))
    throw new RangeError(`filter threshold ${threshold} must be a share between 0 and 1`);
  const by: FilterBy = options.filter?.by ?? 'inclusive';
  const tree = profile.tree;
  const n = tree.size;
  const C = profile.contextCount;
  const { parent, kind, name } = tree.columns;
  const strings = tree.strings;
  const sel = selectedContexts(profile, options.contexts);
  const K = sel.length;
  const allSelected = K === C && sel.every((c, k) => c === k);
  const incl = profile.inclusive(m);
  const excl = profile.exclusive(m);
  const incS = nodeSums(incl, allSelected ? profile.inclusiveTotals(m) : null, n, C, sel);
  const excS = nodeSums(excl, allSelected ? profile.exclusiveTotals(m) : null, n, C, sel);

  // Owning function of each node, and a dense function key (functions are identified by name).
  const owner = new Int32Array(n);
  const fnOfName = new Int32Array(strings.size).fill(-1);
  const fnKey = new Int32Array(n);
  let fnCount = 0;
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p < 0 || ownsCost(kind[i]!)) {
      owner[i] = i;
      const nm = name[i]!;
      if (fnOfName[nm] === -1) fnOfName[nm] = fnCount++;
    } else owner[i] = owner[p]!;
    fnKey[i] = fnOfName[name[owner[i]!]!]!;
  }

  // Children of each node in one flat index (no per-node arrays: this runs on 10⁶-node trees).
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) childStart[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const childList = new Int32Array(childStart[n]!);
  const fillAt = childStart.slice(0, n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) childList[fillAt[parent[i]!]!++] = i;
  const stack = new Int32Array(2 * n + 1);
  const allRoots = tree.roots();

  // 1. Filter by per-function totals.
  let total = 0;
  for (const r of allRoots) total += incS[r]!;
  const absolute = threshold * total;
  const fnValue = new Float64Array(fnCount);
  if (by === 'exclusive') {
    for (let i = 0; i < n; i++) fnValue[fnKey[i]!]! += excS[i]!;
  } else {
    // Outermost frames only (recursion counted once): a depth-first walk with active counts per function.
    const active = new Int32Array(fnCount);
    let top = 0;
    for (let r = allRoots.length - 1; r >= 0; r--) stack[top++] = allRoots[r]!;
    while (top > 0) {
      const v = stack[--top]!;
      if (v < 0) {
        active[fnKey[~v]!]!--;
        continue;
      }
      if (owner[v] === v) {
        const f = fnKey[v]!;
        if (active[f] === 0) fnValue[f]! += incS[v]!;
        active[f]!++;
        stack[top++] = ~v;
      }
      for (let c = childStart[v + 1]! - 1; c >= childStart[v]!; c--) stack[top++] = childList[c]!;
    }
  }
  const kept = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (owner[i] === i && fnValue[fnKey[i]!]! >= absolute) kept[i] = 1;
  // Keep ancestor paths: a kept function keeps the function that owns its call site, and so on up.
  for (let i = n - 1; i >= 0; i--) if (kept[i] && parent[i]! >= 0) kept[owner[parent[i]!]!] = 1;
  let removedNodes = 0;
  const fnKept = new Uint8Array(fnCount);
  for (let i = 0; i < n; i++) {
    if (owner[i] !== i) kept[i] = kept[owner[i]!]!;
    if (kept[i]) fnKept[fnKey[i]!] = 1;
    else removedNodes++;
  }
  let keptFunctions = 0;
  for (let f = 0; f < fnCount; f++) keptFunctions += fnKept[f]!;

  // 2. Group of each function node.
  const group = groupColumn(profile, options, owner, kept);
  const groupName = group.names;
  const g = group.ids;

  // 3. Module entries: one depth-first walk counts, for every node that enters a group, how often
  // that group was entered above it on its path (its occurrence) and its level on the module path.
  const occurrence = new Int32Array(n); // > 0 on module entries
  const level = new Int32Array(n); // module entries from the root down to the node's entry
  {
    const active = new Int32Array(groupName.length);
    let top = 0;
    for (let r = allRoots.length - 1; r >= 0; r--) if (kept[allRoots[r]!]) stack[top++] = allRoots[r]!;
    while (top > 0) {
      const i = stack[--top]!;
      if (i < 0) {
        active[g[~i]!]!--;
        continue;
      }
      const p = parent[i]!;
      if (p >= 0 && g[p] === g[i]) level[i] = level[p]!;
      else {
        occurrence[i] = ++active[g[i]!]!;
        level[i] = (p >= 0 ? level[p]! : 0) + 1;
        stack[top++] = ~i;
      }
      for (let c = childStart[i + 1]! - 1; c >= childStart[i]!; c--)
        if (kept[childList[c]!]) stack[top++] = childList[c]!;
    }
  }
  // Occurrence keys prevent cycles along a path, not across paths (A → B on one path, B → A on
  // another). Groups × occurrences on such cycles are keyed by level too: an edge between them then
  // always goes one level down, so none can remain (CallFlow's reference code tags re-entries with
  // their level the same way). The unlevelled key is kept for everything else.
  const levelled = occurrencesOnCycles(n, parent, kept, g, occurrence);

  // 4. Supernodes, in tree order (parents first), with splits and reveals.
  const splitOf = new Map<string, SplitRequest>();
  for (const sp of options.splits ?? []) splitOf.set(sp.node, sp);
  const revealOf = new Map<string, Set<string>>();
  for (const r of options.reveal ?? []) {
    let set = revealOf.get(r.node);
    if (!set) revealOf.set(r.node, (set = new Set()));
    set.add(r.function);
  }
  const usedRequests = new Set<string>();
  interface Base {
    id: string;
    module: string;
    occurrence: number;
    level: number;
    split: SplitRequest | undefined;
    splitEntries: Set<number> | null;
    reveal: Set<string> | undefined;
    plain: number;
  }
  const bases: Base[] = [];
  const plainBase: ({ id: string; byLevel: boolean; base: number } | undefined)[][] = []; // [group][occurrence]
  const levelledBase = new Map<string, number>(); // `group occurrence level` → base
  const partIndex = new Map<number, number>(); // base × (entry name | caller node | revealed name) → supernode
  const SN = strings.size;
  const superOf = new Int32Array(n).fill(-1);
  const isEntry = new Uint8Array(n);
  const nodes: SuperNode[] = [];
  const nodeBase: number[] = [];
  const revealed: number[] = []; // name id a `function` node was revealed for, else -1
  const indexOfId = new Map<string, number>();
  const node = (id: string, b: number, kindOf: SuperNodeKind, fn: number): number => {
    let sn = indexOfId.get(id);
    if (sn === undefined) {
      sn = nodes.length;
      indexOfId.set(id, sn);
      const base = bases[b]!;
      nodes.push({
        id,
        module: base.module,
        kind: kindOf,
        base: base.id,
        occurrence: base.occurrence,
        level: base.level,
        inclusive: 0,
        exclusive: 0,
        inclusiveByContext: new Float64Array(0),
        exclusiveByContext: new Float64Array(0),
        filteredInclusive: 0,
        entries: [],
        members: new Int32Array(0),
      });
      nodeBase.push(b);
      revealed.push(fn);
    }
    return sn;
  };
  /** The component node of base b under key, named `base-suffix`, created on first use. */
  const part = (b: number, key: number, kindOf: SuperNodeKind, suffix: number | string, fn: number): number => {
    const k = b * 0x80000000 + key;
    let sn = partIndex.get(k);
    if (sn === undefined)
      partIndex.set(
        k,
        (sn = node(`${bases[b]!.id}-${typeof suffix === 'number' ? strings.get(suffix) : suffix}`, b, kindOf, fn)),
      );
    return sn;
  };
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    const p = parent[i]!;
    const gi = g[i]!;
    const nm = name[i]!;
    const occ = occurrence[i]!;
    if (occ === 0) {
      const sp = superOf[p]!;
      const b = nodeBase[sp]!;
      const reveal = bases[b]!.reveal;
      if (reveal && owner[i] === i && revealed[sp] !== nm && reveal.has(strings.get(nm))) {
        usedRequests.add(`reveal ${bases[b]!.id} ${strings.get(nm)}`);
        superOf[i] = part(b, SN + nm, 'function', nm, nm);
        isEntry[i] = 1;
      } else superOf[i] = sp;
      continue;
    }
    const byGroup = (plainBase[gi] ??= []);
    let plain = byGroup[occ];
    if (plain === undefined) {
      const id = occ === 1 ? groupName[gi]! : `${groupName[gi]!}#${occ}`;
      byGroup[occ] = plain = { id, byLevel: levelled.has(gi * 0x10000 + occ), base: -1 };
    }
    const lv = level[i]!;
    let b = plain.byLevel ? levelledBase.get(`${gi} ${occ} ${lv}`) : plain.base >= 0 ? plain.base : undefined;
    if (b === undefined) {
      const id = plain.byLevel ? `${plain.id}@${lv}` : plain.id;
      b = bases.length;
      if (plain.byLevel) levelledBase.set(`${gi} ${occ} ${lv}`, b);
      else plain.base = b;
      const split = splitOf.get(id) ?? splitOf.get(plain.id);
      const splitEntries = split?.entries ? new Set(split.entries.map(e => strings.find(e))) : null;
      bases.push({
        id,
        module: groupName[gi]!,
        occurrence: occ,
        level: plain.byLevel ? lv : 0,
        split,
        splitEntries,
        reveal: revealOf.get(id) ?? revealOf.get(plain.id),
        plain: -1,
      });
    }
    const base = bases[b]!;
    let sn: number;
    if (base.split?.mode === 'entry' && (!base.splitEntries || base.splitEntries.has(nm))) {
      usedRequests.add(`split ${base.split.node}`);
      sn = part(b, nm, 'entry', nm, -1);
    } else if (base.split?.mode === 'caller' && p >= 0) {
      usedRequests.add(`split ${base.split.node}`);
      const caller = superOf[p]!;
      sn = part(b, 2 * SN + caller, 'caller', nodes[caller]!.id, -1);
    } else if (base.reveal?.has(strings.get(nm))) {
      usedRequests.add(`reveal ${base.id} ${strings.get(nm)}`);
      sn = part(b, SN + nm, 'function', nm, nm);
    } else {
      if (base.plain < 0) base.plain = node(base.id, b, 'module', -1);
      sn = base.plain;
    }
    superOf[i] = sn;
    isEntry[i] = 1;
  }

  // 5. Values: per node and selected context; edges and entry functions from the entry nodes.
  const S = nodes.length;
  const incBy = new Float64Array(S * K);
  const excBy = new Float64Array(S * K);
  const edgeIndex = new PairIndex(4 * S);
  const edgeFrom: number[] = [],
    edgeTo: number[] = [];
  let edgeBy = new Float64Array(16 * K);
  const entryIndex = new PairIndex(4 * S); // supernode × function → entry function
  const entryOfNode = new Int32Array(n).fill(-1);
  let efNode = new Int32Array(256),
    efHottest = new Int32Array(256),
    efCount = new Int32Array(256);
  let efInclusive = new Float64Array(256),
    efExclusive = new Float64Array(256),
    efHottestValue = new Float64Array(256);
  const memberCount = new Int32Array(S + 1);
  let removedRootInclusive = 0;
  for (let i = 0; i < n; i++) {
    const s = superOf[i]!;
    if (s < 0) {
      const p = parent[i]!;
      if (p < 0) removedRootInclusive += incS[i]!;
      else if (superOf[p]! >= 0) nodes[superOf[p]!]!.filteredInclusive += incS[i]!;
      continue;
    }
    memberCount[s + 1]!++;
    const row = i * C,
      out = s * K;
    for (let k = 0; k < K; k++) excBy[out + k]! += excl[row + sel[k]!]!;
    // An entry function's own exclusive: its entry nodes and the loops and statements they own (an
    // owner precedes what it owns, so its entry function is known by now).
    const o = owner[i]!;
    if (o !== i && entryOfNode[o]! >= 0 && superOf[o] === s) efExclusive[entryOfNode[o]!]! += excS[i]!;
    if (!isEntry[i]) continue;
    for (let k = 0; k < K; k++) incBy[out + k]! += incl[row + sel[k]!]!;
    const p = parent[i]!;
    if (p >= 0) {
      const from = superOf[p]!;
      const e = edgeIndex.add(from, s);
      if (e === edgeFrom.length) {
        edgeFrom.push(from);
        edgeTo.push(s);
        if ((e + 1) * K > edgeBy.length) {
          const grown = new Float64Array(edgeBy.length * 2);
          grown.set(edgeBy);
          edgeBy = grown;
        }
      }
      for (let k = 0; k < K; k++) edgeBy[e * K + k]! += incl[row + sel[k]!]!;
    }
    const ef = entryIndex.add(s, fnKey[i]!);
    if (ef === efNode.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const g2 = new (a.constructor as new (n: number) => T)(a.length * 2);
        g2.set(a);
        return g2;
      };
      efNode = grow(efNode);
      efHottest = grow(efHottest);
      efCount = grow(efCount);
      efInclusive = grow(efInclusive);
      efExclusive = grow(efExclusive);
      efHottestValue = grow(efHottestValue);
    }
    const v = incS[i]!;
    if (efCount[ef] === 0) {
      efNode[ef] = s;
      efHottest[ef] = i;
      efHottestValue[ef] = v;
    }
    efCount[ef]!++;
    efInclusive[ef]! += v;
    if (v > efHottestValue[ef]!) {
      efHottest[ef] = i;
      efHottestValue[ef] = v;
    }
    efExclusive[ef]! += excS[i]!;
    entryOfNode[i] = ef;
  }

  for (let s = 0; s < S; s++) memberCount[s + 1]! += memberCount[s]!;
  const memberList = new Int32Array(memberCount[S]!);
  const fill = memberCount.slice(0, S);
  for (let i = 0; i < n; i++) {
    const s = superOf[i]!;
    if (s >= 0) memberList[fill[s]!++] = i;
  }

  nodes.forEach((nd, s) => {
    nd.inclusiveByContext = incBy.subarray(s * K, (s + 1) * K);
    nd.exclusiveByContext = excBy.subarray(s * K, (s + 1) * K);
    nd.inclusive = sum(nd.inclusiveByContext);
    nd.exclusive = sum(nd.exclusiveByContext);
    nd.members = memberList.subarray(memberCount[s]!, memberCount[s + 1]!);
  });
  // Entry nodes of each entry function as slices of one array.
  const EF = entryIndex.size;
  const efStart = new Int32Array(EF + 1);
  for (let ef = 0; ef < EF; ef++) efStart[ef + 1] = efStart[ef]! + efCount[ef]!;
  const efList = new Int32Array(efStart[EF]!);
  const efFill = efStart.slice(0, EF);
  for (let i = 0; i < n; i++) {
    const ef = entryOfNode[i]!;
    if (ef >= 0) efList[efFill[ef]!++] = i;
  }
  for (let ef = 0; ef < EF; ef++) {
    nodes[efNode[ef]!]!.entries.push({
      name: strings.get(name[efHottest[ef]!]!),
      inclusive: efInclusive[ef]!,
      exclusive: efExclusive[ef]!,
      nodes: efList.subarray(efStart[ef]!, efStart[ef + 1]!),
      hottest: efHottest[ef]!,
    });
  }
  for (const nd of nodes)
    nd.entries.sort((a, b) => b.inclusive - a.inclusive || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const allEdges: SuperEdge[] = edgeFrom.map((from, e) => {
    const valueByContext = edgeBy.slice(e * K, (e + 1) * K);
    const to = edgeTo[e]!;
    return { source: nodes[from]!.id, target: nodes[to]!.id, from, to, value: sum(valueByContext), valueByContext };
  });
  allEdges.sort((a, b) => a.from - b.from || a.to - b.to);
  const { kept: edges, dropped } = dropBackEdges(nodes, allEdges);

  const unmatched: string[] = [];
  for (const s of options.splits ?? [])
    if (!usedRequests.has(`split ${s.node}`)) unmatched.push(`split ${s.mode} ${s.node}`);
  for (const r of options.reveal ?? [])
    if (![...usedRequests].some(u => u.startsWith(`reveal ${r.node}`) && u.endsWith(` ${r.function}`)))
      unmatched.push(`reveal ${r.function} in ${r.node}`);

  return {
    nodes,
    edges,
    droppedEdges: dropped,
    metric: m,
    contexts: sel,
    total,
    filter: {
      threshold,
      by,
      absolute,
      removedNodes,
      removedFunctions: fnCount - keptFunctions,
      keptFunctions,
      removedRootInclusive,
    },
    superOf,
    unmatched,
    parent,
  };
}

/**
 * The (group, occurrence) pairs — keys `group × 0x10000 + occurrence` — that lie on a cycle of the
 * graph whose nodes are those pairs and whose edges are the module entries (strongly connected
 * components of more than one node; Tarjan's algorithm, iterative). Splits only refine these nodes,
 * so levelling these keys leaves no cycle after any split either.
 */
function occurrencesOnCycles(
  n: number,
  parent: Int32Array,
  kept: Uint8Array,
  g: Int32Array,
  occurrence: Int32Array,
): Set<number> {
  // Key of the (group, occurrence) instance holding each node: its own on entries, else its parent's.
  const keyOf = new Int32Array(n).fill(-1);
  const dense = new Map<number, number>();
  const keys: number[] = [];
  const pairs = new PairIndex(64);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    const occ = occurrence[i]!;
    if (occ === 0) {
      keyOf[i] = keyOf[parent[i]!]!;
      continue;
    }
    const key = g[i]! * 0x10000 + occ;
    let d = dense.get(key);
    if (d === undefined) {
      d = keys.length;
      dense.set(key, d);
      keys.push(key);
      out.push([]);
    }
    keyOf[i] = d;
    const p = parent[i]!;
    if (p >= 0) {
      const before = pairs.size;
      pairs.add(keyOf[p]!, d);
      if (pairs.size > before) out[keyOf[p]!]!.push(d);
    }
  }
  const S = keys.length;
  const index = new Int32Array(S).fill(-1),
    low = new Int32Array(S),
    onStack = new Uint8Array(S);
  const sccStack: number[] = [];
  const result = new Set<number>();
  let counter = 0;
  for (let root = 0; root < S; root++) {
    if (index[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = counter++;
    sccStack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const frame = work[work.length - 1]!;
      const v = frame[0];
      if (frame[1] < out[v]!.length) {
        const w = out[v]![frame[1]++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          sccStack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1]![0];
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = sccStack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (component.length > 1) for (const c of component) result.add(keys[c]!);
      }
    }
  }
  return result;
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]!;
  return s;
}

/**
 * The group of every kept node as a dense id with names. Rules are evaluated once per distinct
 * (name, load module[, file]) of a function node, not once per node.
 */
function groupColumn(
  profile: Profile,
  options: SuperGraphOptions,
  owner: Int32Array,
  kept: Uint8Array,
): { ids: Int32Array; names: string[] } {
  const tree = profile.tree;
  const n = tree.size;
  const { parent, name, file, module } = tree.columns;
  const strings = tree.strings;
  const ids = new Int32Array(n).fill(-1);
  const names: string[] = [];
  const idOfName = new Map<string, number>();
  const intern = (s: string) => {
    let id = idOfName.get(s);
    if (id === undefined) {
      id = names.length;
      idOfName.set(s, id);
      names.push(s);
    }
    return id;
  };

  // Group of an interned string (a module or function name), cached by string id.
  const groupOfId = new Int32Array(strings.size).fill(-1);
  const groupOfString = (sid: number) => {
    let gid = groupOfId[sid]!;
    if (gid < 0) groupOfId[sid] = gid = intern(strings.get(sid));
    return gid;
  };
  if (options.groupBy === 'function') {
    for (let i = 0; i < n; i++) if (kept[i]) ids[i] = owner[i] === i ? groupOfString(name[i]!) : ids[owner[i]!]!;
    return { ids, names };
  }
  const map =
    options.moduleMap === undefined
      ? null
      : 'moduleOf' in options.moduleMap
        ? (options.moduleMap as CompiledModuleMap)
        : (options.moduleMap as readonly ModuleRule[]).length
          ? compileModuleMap(options.moduleMap as readonly ModuleRule[])
          : null;
  // Unknown-module frames inherit their caller's group only when the profile really names modules.
  const distinct = new Set<number>();
  for (let i = 0; i < n && distinct.size < 2; i++) if (module[i] !== 0) distinct.add(module[i]!);
  const inherit = distinct.size >= 2;
  const S = strings.size;
  const cache = new Map<number | string, number>(); // (name, module[, file]) → group id, -2 = no rule matched
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    if (owner[i] !== i) {
      ids[i] = ids[owner[i]!]!;
      continue;
    }
    let gid = -2;
    if (map) {
      const key = map.usesFile ? `${name[i]},${module[i]},${file[i]}` : name[i]! * S + module[i]!;
      const hit = cache.get(key);
      if (hit !== undefined) gid = hit;
      else {
        const mod = map.moduleOf(strings.get(name[i]!), tree.file(i), tree.module(i));
        gid = mod === null ? -2 : intern(mod);
        cache.set(key, gid);
      }
    }
    if (gid < 0) {
      const p = parent[i]!;
      if (module[i] !== 0 && inherit) gid = groupOfString(module[i]!);
      else if (inherit && p >= 0) gid = ids[p]!;
      else gid = groupOfString(name[i]!);
    }
    ids[i] = gid;
  }
  return { ids, names };
}

/**
 * Removes edges that close a cycle. Depth-first from the nodes nobody calls (largest inclusive
 * first), following each node's edges by decreasing value, so the heaviest flows survive and the
 * result is the same for the same input (CallFlow's reference code visits nodes in random order).
 */
export function dropBackEdges<E extends { from: number; to: number; value: number }>(
  nodes: readonly { id: string; inclusive: number }[],
  edges: readonly E[],
): { kept: E[]; dropped: E[] } {
  const S = nodes.length;
  const out: E[][] = Array.from({ length: S }, () => []);
  const indegree = new Int32Array(S);
  for (const e of edges) {
    out[e.from]!.push(e);
    indegree[e.to]!++;
  }
  const byWeight = (a: number, b: number) =>
    nodes[b]!.inclusive - nodes[a]!.inclusive || (nodes[a]!.id < nodes[b]!.id ? -1 : 1);
  for (const list of out) list.sort((a, b) => b.value - a.value || byWeight(a.to, b.to));
  const order = Array.from({ length: S }, (_, s) => s).sort(
    (a, b) => (indegree[a] === 0 ? 0 : 1) - (indegree[b] === 0 ? 0 : 1) || byWeight(a, b),
  );
  const state = new Uint8Array(S); // 0 new, 1 on the stack, 2 done
  const dropped = new Set<E>();
  for (const root of order) {
    if (state[root]) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const list = out[top[0]]!;
      if (top[1] >= list.length) {
        state[top[0]] = 2;
        stack.pop();
        continue;
      }
      const e = list[top[1]++]!;
      if (state[e.to] === 1) dropped.add(e);
      else if (state[e.to] === 0) {
        state[e.to] = 1;
        stack.push([e.to, 0]);
      }
    }
  }
  return { kept: edges.filter(e => !dropped.has(e)), dropped: edges.filter(e => dropped.has(e)) };
}

/**
 * The supernode that holds a call-tree node, or — for a node the filter removed — the supernode of
 * its nearest kept ancestor (where its time is counted). -1 when no ancestor is kept.
 */
export function supernodeOfNode(graph: SuperGraph, cctNode: number): number {
  if (!(cctNode >= 0 && cctNode < graph.superOf.length))
    throw new RangeError(`call-tree node ${cctNode} does not exist`);
  for (let v = cctNode; v >= 0; v = graph.parent[v]!) if (graph.superOf[v]! >= 0) return graph.superOf[v]!;
  return -1;
}

export interface CallerShare {
  node: number;
  id: string;
  value: number;
  share: number;
}

/** Callers of supernode `s` with the inclusive value each sends into it and its share of s's inclusive value, largest first. */
export function callersOf(graph: SuperGraph, s: number): CallerShare[] {
  return callersByNode(graph)[s]!;
}

/** `callersOf` for every supernode at once, in one pass over the edges. */
export function callersByNode(graph: SuperGraph): CallerShare[][] {
  const out: CallerShare[][] = graph.nodes.map(() => []);
  for (const e of graph.edges) {
    const into = graph.nodes[e.to]!.inclusive;
    out[e.to]!.push({ node: e.from, id: e.source, value: e.value, share: into > 0 ? e.value / into : 0 });
  }
  for (const list of out) list.sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1));
  return out;
}

/** The complement of a context subset: brushing splits the contexts into the brushed ones and the rest. */
export function complementContexts(contextCount: number, subset: ArrayLike<number>): Int32Array {
  const inSubset = new Uint8Array(contextCount);
  for (let k = 0; k < subset.length; k++) inSubset[subset[k]!] = 1;
  const out: number[] = [];
  for (let c = 0; c < contextCount; c++) if (!inSubset[c]) out.push(c);
  return Int32Array.from(out);
}
