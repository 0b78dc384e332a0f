import type { Profile } from '../model/profile';
import { filterCallTree, functionIndex, type FilterBy } from './callflow-filter';
import { compileModuleMap, type CompiledModuleMap, type ModuleRule } from './module-map';

/**
 * CallFlow's super graph (seed-callflow §1.4, §2.1–2.4, §2.7), built from the calling-context tree
 * in a few linear passes over typed arrays.
 *
 * 1. Filter (thesis §3.2.1, see callflow-filter.ts): a function is kept when the total inclusive
 *    value of its outermost instances (or its total exclusive value) reaches `threshold` × the root
 *    inclusive value; an instance is drawn when its function and every function above it are kept
 *    (by exclusive value: when it is a kept call site or leads to one). Every other instance is
 *    folded into its nearest drawn ancestor: its time stays in that ancestor's inclusive value, shows
 *    as part of the caller's gap (height − Σ outgoing edges) and is reported as `filteredInclusive`
 *    and, per function, as `filteredCallees` — never added to exclusive.
 * 2. Repopulate (thesis §3.5): a request (supernode, function) draws again the instances of that
 *    function folded directly into that supernode; their own callees stay folded (into them) and can
 *    be repopulated in turn. Requests are replayed on every computation, so removing one undoes it.
 * 3. Group (§1.7): each function gets a group — the first matching user module-map rule, else its
 *    load module, else (when the profile names at least two load modules) its caller's group, else
 *    its own name. Loops and statements belong to their function's group. `groupBy: 'function'`
 *    merges by function name instead (the call graph of §1.3, still cycle-free).
 * 4. Aggregate (§2.2): consecutive call-tree nodes of one group on a path form one supernode
 *    instance. A group entered again further down a path gets its own supernode (`lib1#2`), so
 *    `lib1 → lib2 → lib1` has two lib1 nodes. Groups that still form a cycle across paths (A → B
 *    on one path, B → A on another) are keyed by their level on the module path too (`A@2`, `A@3`),
 *    which orders every edge between them; a deterministic back-edge pass is the safety net (it
 *    can only fire on reveals within one supernode) and reports what it drops.
 * 5. Split (§2.3): by entry function (`lib5-foo`: one node per entry function, the entries' sub-flows)
 *    or by caller (`MPI-Hypre`: one node per calling supernode), and reveal a function (pull it and
 *    the module code below it out of its supernode as `module-function`).
 * 6. Metrics (§1.4, §2.7) per supernode and per selected context: exclusive = Σ member exclusive;
 *    inclusive = Σ inclusive of the nodes that enter the supernode on each path (never nested, so
 *    nothing counts twice); an edge A→B carries the inclusive value of B's entries whose caller is in A.
 *
 * With a context subset (`contexts`, e.g. brushed ranks) every sum — the filter's threshold and
 * per-function totals included — is over those contexts only, as if the profile held just them.
 *
 * Same profile and options → same node ids, order and values. Split, reveal and repopulate requests
 * name supernodes by id (`module`, `module#k`), which survive recomputation, not by array index.
 */

export type { FilterBy } from './callflow-filter';
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

/** Draw again a function the filter folded into a supernode (thesis §3.5 "repopulation"). */
export interface RepopulateRequest {
  /** Id of the supernode it is folded into, or that node's base id (every part of a split node). */
  node: string;
  /** Name of the folded function (one of the node's `filteredCallees`). */
  function: string;
}

/**
 * Why a repopulate request re-added nothing: the profile has no function of that name (e.g. it
 * changed on reload), no supernode has that id, or the function is not folded into that node
 * (e.g. a lower threshold already draws it).
 */
export type RepopulateMiss = 'unknown-function' | 'unknown-node' | 'not-folded';

export interface SuperGraphOptions {
  /** Metric index (default: the profile's primary metric). */
  metric?: number;
  /** Share of the root inclusive value below which a function is removed (default 0.001 = 0.1 %), and by which side. */
  filter?: { threshold?: number; by?: FilterBy };
  moduleMap?: readonly ModuleRule[] | CompiledModuleMap;
  groupBy?: 'module' | 'function';
  splits?: readonly SplitRequest[];
  reveal?: readonly RevealRequest[];
  /** Folded functions drawn again under the supernode they were folded into, in any order. */
  repopulate?: readonly RepopulateRequest[];
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

/** A function the filter folded into a supernode: what "Show filtered callees" lists. */
export interface FilteredCallee {
  name: string;
  /** Σ inclusive of its folded instances called from the supernode (never nested, so no double count). */
  inclusive: number;
  /** Those instances (call-tree nodes whose caller is a member of the supernode), in tree order. */
  nodes: Int32Array;
  /** The heaviest of them (its source location). */
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
  /** Inclusive value of callees folded by the filter: part of the gap below the outgoing edges. */
  filteredInclusive: number;
  /** The folded callees by function, largest inclusive first (Σ inclusive = `filteredInclusive`). */
  filteredCallees: FilteredCallee[];
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
   * The filter applied: share and absolute threshold; functions (by name) in the profile and drawn;
   * call-tree nodes in the profile, folded into callers (after repopulation) and drawn again by
   * repopulation; and the inclusive value of whole call-tree roots it removed (in `total` but in no
   * node: tiny roots such as MPI_Init called outside main).
   */
  filter: {
    threshold: number;
    by: FilterBy;
    absolute: number;
    totalFunctions: number;
    keptFunctions: number;
    removedFunctions: number;
    totalNodes: number;
    removedNodes: number;
    repopulatedNodes: number;
    removedRootInclusive: number;
  };
  /** Supernode index of every call-tree node, -1 for nodes folded by the filter. */
  superOf: Int32Array;
  /** Split, reveal and repopulate requests that named no supernode (or function) of this graph. */
  unmatched: string[];
  /** The repopulate requests that re-added nothing, and why. */
  unmatchedRepopulate: (RepopulateRequest & { reason: RepopulateMiss })[];
  /** Call-tree parent column (for `supernodeOfNode`). */
  readonly parent: Int32Array;
}

const NO_VALUES = new Float64Array(0);
const NO_NODES = new Int32Array(0);
/** Shared by every supernode with no folded callee (replaced, never pushed to). */
const NO_CALLEES = Object.freeze([]) as unknown as FilteredCallee[];

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
  const { parent, name } = tree.columns;
  const strings = tree.strings;
  const sel = selectedContexts(profile, options.contexts);
  const K = sel.length;
  const allSelected = K === C && sel.every((c, k) => c === k);
  // Per-node sums over the selected contexts: every value below is a sum of these (O(1) per node);
  // per-context values are summed on first use, for the supernodes and edges a view reads.
  const incS = allSelected ? profile.inclusiveTotals(m) : profile.contextSubsetSums('inclusive', m, sel);
  const excS = allSelected ? profile.exclusiveTotals(m) : profile.contextSubsetSums('exclusive', m, sel);
  const fi = functionIndex(tree);
  const { owner, fnKey } = fi;

  // 1. Filter by per-function totals.
  let total = 0;
  for (const r of tree.roots()) total += incS[r]!;
  const filtered = filterCallTree(tree, incS, excS, total, threshold, by);
  const kept = filtered.drawn;

  // 2–5. Supernodes; repopulation replays its requests until none re-adds anything more.
  let asg = assignSupernodes(profile, options, kept);
  const repopulate = options.repopulate ?? [];
  const repopulateUsed = new Uint8Array(repopulate.length);
  let repopulatedNodes = 0;
  if (repopulate.length) {
    const wanted = new Map<string, Map<number, number[]>>(); // node id → function name id → requests
    repopulate.forEach((r, k) => {
      const nm = strings.find(r.function);
      if (nm < 0) return;
      let byName = wanted.get(r.node);
      if (!byName) wanted.set(r.node, (byName = new Map()));
      const list = byName.get(nm);
      if (list) list.push(k);
      else byName.set(nm, [k]);
    });
    for (;;) {
      let added = 0;
      for (let i = 0; i < n; i++) {
        if (kept[i] || owner[i] !== i) continue;
        const p = parent[i]!;
        const sp = p >= 0 ? asg.superOf[p]! : -1;
        if (sp < 0) continue;
        const sn = asg.nodes[sp]!;
        const hits = [
          wanted.get(sn.id)?.get(name[i]!),
          sn.base !== sn.id ? wanted.get(sn.base)?.get(name[i]!) : undefined,
        ];
        for (const list of hits)
          if (list) {
            kept[i] = 1;
            for (const k of list) repopulateUsed[k] = 1;
          }
        if (kept[i]) added++;
      }
      if (added === 0) break;
      // Loops and statements come back with the function that owns them.
      for (let i = 0; i < n; i++)
        if (!kept[i] && owner[i] !== i && kept[owner[i]!]) {
          kept[i] = 1;
          added++;
        }
      repopulatedNodes += added;
      asg = assignSupernodes(profile, options, kept);
    }
  }
  const { superOf, isEntry, nodes } = asg;

  // 6. Values: per node and selected context; edges, entry functions and folded callees are groups
  // of call-tree nodes by (supernode, supernode) or (supernode, function), found by counting sorts
  // (sequential passes; hashing 10⁵ pairs is dominated by cache misses).
  const S = nodes.length;
  const store = new SupernodeValues(profile, m, sel);
  nodes.forEach((nd, s) => {
    nd.attach(store, s);
    nd.filteredInclusive = 0;
  });
  const nodeInclusive = new Float64Array(S);
  const nodeExclusive = new Float64Array(S);
  const filteredInclusive = new Float64Array(S);
  let entryTotal = 0,
    foldedTops = 0;
  for (let i = 0; i < n; i++) {
    if (isEntry[i]) entryTotal++;
    else if (superOf[i]! < 0 && parent[i]! >= 0 && superOf[parent[i]!]! >= 0) foldedTops++;
  }
  const entryNode = new Int32Array(entryTotal);
  const entryOwner = new Int32Array(entryTotal);
  const entryFn = new Int32Array(entryTotal);
  const topNode = new Int32Array(foldedTops);
  const topCaller = new Int32Array(foldedTops);
  const topFn = new Int32Array(foldedTops);
  let edgeCount = 0;
  for (let i = 0, a = 0, t = 0; i < n; i++) {
    const p = parent[i]!;
    if (isEntry[i]) {
      entryNode[a] = i;
      entryOwner[a] = superOf[i]!;
      entryFn[a++] = fnKey[i]!;
      if (p >= 0) edgeCount++;
    } else if (superOf[i]! < 0 && p >= 0 && superOf[p]! >= 0) {
      topNode[t] = i;
      topCaller[t] = superOf[p]!;
      topFn[t++] = fnKey[i]!;
    }
  }
  const callFrom = new Int32Array(edgeCount);
  const callTo = new Int32Array(edgeCount);
  const callNode = new Int32Array(edgeCount);
  for (let a = 0, c = 0; a < entryTotal; a++) {
    const p = parent[entryNode[a]!]!;
    if (p < 0) continue;
    callFrom[c] = superOf[p]!;
    callTo[c] = entryOwner[a]!;
    callNode[c++] = entryNode[a]!;
  }
  const calls = groupPairs(callFrom, callTo, S, S);
  // Usually every supernode is entered through one function only (always when grouping by name):
  // then the supernode alone is the key, one counting sort instead of two.
  const firstFn = new Int32Array(S).fill(-1);
  let oneEntryFunction = true;
  for (let a = 0; a < entryTotal && oneEntryFunction; a++) {
    const sa = entryOwner[a]!;
    if (firstFn[sa] === -1) firstFn[sa] = entryFn[a]!;
    else if (firstFn[sa] !== entryFn[a]) oneEntryFunction = false;
  }
  const entryGroups = oneEntryFunction ? groupBy(entryOwner, S) : groupPairs(entryOwner, entryFn, S, fi.count);
  const entryOfNode = new Int32Array(n).fill(-1);
  for (let a = 0; a < entryTotal; a++) entryOfNode[entryNode[a]!] = entryGroups.groupOf[a]!;
  const E = calls.start.length - 1;
  const edgeValue = new Float64Array(E);
  for (let c = 0; c < edgeCount; c++) edgeValue[calls.groupOf[c]!]! += incS[callNode[c]!]!;

  const EF = entryGroups.start.length - 1;
  const efInclusive = new Float64Array(EF);
  const efExclusive = new Float64Array(EF);
  const memberCount = new Int32Array(S + 1);
  let removedRootInclusive = 0;
  let removedNodes = 0;
  for (let i = 0; i < n; i++) {
    const s = superOf[i]!;
    if (s < 0) {
      removedNodes++;
      const p = parent[i]!;
      if (p < 0) removedRootInclusive += incS[i]!;
      else if (superOf[p]! >= 0) filteredInclusive[superOf[p]!]! += incS[i]!;
      continue;
    }
    memberCount[s + 1]!++;
    nodeExclusive[s]! += excS[i]!;
    // An entry function's own exclusive: its entry nodes and the loops and statements they own (an
    // owner precedes what it owns, so its entry function is known by now).
    const ef = entryOfNode[i]!;
    if (ef >= 0) {
      nodeInclusive[s]! += incS[i]!;
      efInclusive[ef]! += incS[i]!;
      efExclusive[ef]! += excS[i]!;
    } else {
      const o = owner[i]!;
      if (o !== i && entryOfNode[o]! >= 0 && superOf[o] === s) efExclusive[entryOfNode[o]!]! += excS[i]!;
    }
  }

  for (let s = 0; s < S; s++) memberCount[s + 1]! += memberCount[s]!;
  const memberList = (store.members = new Int32Array(memberCount[S]!));
  store.memberStart = memberCount;
  const fill = memberCount.slice(0, S);
  for (let i = 0; i < n; i++) {
    const s = superOf[i]!;
    if (s >= 0) memberList[fill[s]!++] = i;
  }
  for (let s = 0; s < S; s++) {
    const nd = nodes[s]!;
    nd.inclusive = nodeInclusive[s]!;
    nd.exclusive = nodeExclusive[s]!;
    nd.filteredInclusive = filteredInclusive[s]!;
  }
  // Entry nodes by supernode (the per-context inclusive values sum them): entries of one supernode
  // are one run of the entry groups' order, which is by supernode first.
  const entryStart = new Int32Array(S + 1);
  for (let a = 0; a < entryTotal; a++) entryStart[entryOwner[a]! + 1]!++;
  for (let s = 0; s < S; s++) entryStart[s + 1]! += entryStart[s]!;
  const entryList = new Int32Array(entryTotal);
  for (let k = 0; k < entryTotal; k++) entryList[k] = entryNode[entryGroups.order[k]!]!;
  store.entries = entryList;
  store.entryStart = entryStart;

  const byValue = <T extends { inclusive: number; name: string }>(a: T, b: T) =>
    b.inclusive - a.inclusive || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  forEachGroup(entryGroups, entryNode, (ef, a, list, from, to) => {
    let hottest = list[from]!;
    for (let k = from + 1; k < to; k++) if (incS[list[k]!]! > incS[hottest]!) hottest = list[k]!;
    nodes[entryOwner[a]!]!.entries.push(
      new EntryRecord(strings.get(name[hottest]!), efInclusive[ef]!, efExclusive[ef]!, hottest, list, from, to),
    );
  });
  for (const nd of nodes) if (nd.entries.length > 1) nd.entries.sort(byValue);
  if (foldedTops > 0) {
    const topGroups = groupPairs(topCaller, topFn, S, fi.count);
    forEachGroup(topGroups, topNode, (_, t, list, from, to) => {
      let hottest = list[from]!,
        inclusive = 0;
      for (let k = from; k < to; k++) {
        const i = list[k]!;
        inclusive += incS[i]!;
        if (incS[i]! > incS[hottest]!) hottest = i;
      }
      const nd = nodes[topCaller[t]!]!;
      if (nd.filteredCallees === NO_CALLEES) nd.filteredCallees = [];
      nd.filteredCallees.push(new CalleeRecord(strings.get(fi.fnName[topFn[t]!]!), inclusive, hottest, list, from, to));
    });
    for (const nd of nodes) if (nd.filteredCallees.length > 1) nd.filteredCallees.sort(byValue);
  }

  // Edges by (caller, callee), the order of the groups.
  const allEdges: SuperEdge[] = new Array<SuperEdge>(E);
  const edgeCalls = new Int32Array(edgeCount);
  for (let k = 0; k < edgeCount; k++) edgeCalls[k] = callNode[calls.order[k]!]!;
  const edgeStore = new EdgeValues(store, edgeCalls, calls.start);
  for (let e = 0; e < E; e++) {
    const first = calls.order[calls.start[e]!]!;
    const from = callFrom[first]!,
      to = callTo[first]!;
    allEdges[e] = new SuperEdgeRecord(nodes[from]!.id, nodes[to]!.id, from, to, edgeValue[e]!, edgeStore, e);
  }
  const { kept: edges, dropped } = isAcyclicFlow(S, allEdges)
    ? { kept: allEdges, dropped: [] }
    : dropBackEdges(nodes, allEdges);

  const unmatched: string[] = [];
  for (const s of options.splits ?? [])
    if (!asg.usedRequests.has(`split ${s.node}`)) unmatched.push(`split ${s.mode} ${s.node}`);
  for (const r of options.reveal ?? [])
    if (![...asg.usedRequests].some(u => u.startsWith(`reveal ${r.node}`) && u.endsWith(` ${r.function}`)))
      unmatched.push(`reveal ${r.function} in ${r.node}`);
  const unmatchedRepopulate: SuperGraph['unmatchedRepopulate'] = [];
  if (repopulate.length) {
    const ids = new Set<string>();
    for (const nd of nodes) ids.add(nd.id).add(nd.base);
    repopulate.forEach((r, k) => {
      if (repopulateUsed[k]) return;
      const nm = strings.find(r.function);
      const reason: RepopulateMiss =
        nm < 0 || fi.fnOfName[nm]! < 0 ? 'unknown-function' : !ids.has(r.node) ? 'unknown-node' : 'not-folded';
      unmatchedRepopulate.push({ node: r.node, function: r.function, reason });
      unmatched.push(`repopulate ${r.function} in ${r.node}`);
    });
  }

  let keptFunctions = 0;
  const fnDrawn = new Uint8Array(fi.count);
  for (let i = 0; i < n; i++)
    if (kept[i] && !fnDrawn[fnKey[i]!]) {
      fnDrawn[fnKey[i]!] = 1;
      keptFunctions++;
    }

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
      absolute: filtered.absolute,
      totalFunctions: fi.count,
      keptFunctions,
      removedFunctions: fi.count - keptFunctions,
      totalNodes: n,
      removedNodes,
      repopulatedNodes,
      removedRootInclusive,
    },
    superOf,
    unmatched,
    unmatchedRepopulate,
    parent,
  };
}

/** Supernode membership of the drawn call-tree nodes (steps 3–5), before any value is summed. */
interface Assignment {
  /** Supernode of every drawn node, -1 for folded ones. */
  superOf: Int32Array;
  /** 1 on nodes through which control enters their supernode. */
  isEntry: Uint8Array;
  /** Supernodes in order of first entry (tree order), values still zero. */
  nodes: SupernodeRecord[];
  /** Split and reveal requests that matched (`split id`, `reveal id function`). */
  usedRequests: Set<string>;
}

function assignSupernodes(profile: Profile, options: SuperGraphOptions, kept: Uint8Array): Assignment {
  const tree = profile.tree;
  const n = tree.size;
  const { parent, name } = tree.columns;
  const strings = tree.strings;
  const { owner } = functionIndex(tree);
  const { start: childStart, list: childList } = tree.childIndex();
  const allRoots = tree.roots();

  // Group of each function node.
  const group = groupColumn(profile, options, owner, kept);
  const groupName = group.names;
  const g = group.ids;

  // Module entries: one depth-first walk counts, for every node that enters a group, how often
  // that group was entered above it on its path (its occurrence) and its level on the module path.
  const occurrence = new Int32Array(n); // > 0 on module entries
  const level = new Int32Array(n); // module entries from the root down to the node's entry
  {
    const stack = new Int32Array(2 * n + 1);
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
  // Dense keys by counting sorts (no hashing per node): `plainOf` (group, occurrence) of every
  // module entry, then `levelOf` (plain key, level) of the entries of levelled keys.
  let entryTotal = 0,
    maxOccurrence = 0,
    maxLevel = 0;
  for (let i = 0; i < n; i++)
    if (kept[i] && occurrence[i]! > 0) {
      entryTotal++;
      maxOccurrence = Math.max(maxOccurrence, occurrence[i]!);
      maxLevel = Math.max(maxLevel, level[i]!);
    }
  const entryNodes = new Int32Array(entryTotal);
  const entryGroup = new Int32Array(entryTotal);
  const entryOccurrence = new Int32Array(entryTotal);
  for (let i = 0, a = 0; i < n; i++)
    if (kept[i] && occurrence[i]! > 0) {
      entryNodes[a] = i;
      entryGroup[a] = g[i]!;
      entryOccurrence[a++] = occurrence[i]!;
    }
  const plains = groupPairs(entryGroup, entryOccurrence, groupName.length, maxOccurrence + 1);
  const P = plains.start.length - 1;
  const plainOf = new Int32Array(n).fill(-1); // the (group, occurrence) instance holding each kept node
  for (let a = 0; a < entryTotal; a++) plainOf[entryNodes[a]!] = plains.groupOf[a]!;
  for (let i = 0; i < n; i++) if (kept[i] && occurrence[i] === 0) plainOf[i] = plainOf[parent[i]!]!;
  const levelled = plainKeysOnCycles(n, parent, kept, occurrence, plainOf, P);
  let levelledEntries = 0;
  for (let a = 0; a < entryTotal; a++) if (levelled[plains.groupOf[a]!]) levelledEntries++;
  const levelledPlain = new Int32Array(levelledEntries);
  const levelledLevel = new Int32Array(levelledEntries);
  const levelledNode = new Int32Array(levelledEntries);
  for (let a = 0, k = 0; a < entryTotal; a++)
    if (levelled[plains.groupOf[a]!]) {
      levelledPlain[k] = plains.groupOf[a]!;
      levelledLevel[k] = level[entryNodes[a]!]!;
      levelledNode[k++] = entryNodes[a]!;
    }
  const levels = groupPairs(levelledPlain, levelledLevel, P, maxLevel + 1);
  const levelOf = new Int32Array(n).fill(-1);
  for (let k = 0; k < levelledEntries; k++) levelOf[levelledNode[k]!] = levels.groupOf[k]!;
  const plainId: (string | undefined)[] = new Array<string | undefined>(P);
  const plainBaseOf = new Int32Array(P).fill(-1);
  const levelledBase = new Int32Array(levels.start.length - 1).fill(-1);

  // Supernodes, in tree order (parents first), with splits and reveals.
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
  const partIndex = new Map<number, number>(); // base × (entry name | caller node | revealed name) → supernode
  const SN = strings.size;
  const superOf = new Int32Array(n).fill(-1);
  const isEntry = new Uint8Array(n);
  const nodes: SupernodeRecord[] = [];
  const nodeBase: number[] = [];
  const revealed: number[] = []; // name id a `function` node was revealed for, else -1
  const indexOfId = new Map<string, number>();
  // Ids of unsplit nodes (`group`, `group#k`, `group@l`, `group#k@l`) are distinct by construction
  // unless a group's own name ends like a generated one, or parts (`base-suffix`) are made: only
  // then are ids looked up (hashing 10⁵ fresh strings is most of this pass on large trees).
  const checkIds = splitOf.size > 0 || revealOf.size > 0 || groupName.some(gn => /[#@]\d+$/.test(gn));
  const node = (id: string, b: number, kindOf: SuperNodeKind, fn: number): number => {
    let sn = checkIds ? indexOfId.get(id) : undefined;
    if (sn === undefined) {
      sn = nodes.length;
      if (checkIds) indexOfId.set(id, sn);
      const base = bases[b]!;
      nodes.push(new SupernodeRecord(id, base.module, kindOf, base.id, base.occurrence, base.level));
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
    const pk = plainOf[i]!;
    const byLevel = levelled[pk] === 1;
    const lv = level[i]!;
    let b = byLevel ? levelledBase[levelOf[i]!]! : plainBaseOf[pk]!;
    if (b < 0) {
      const plain = (plainId[pk] ??= occ === 1 ? groupName[gi]! : `${groupName[gi]!}#${occ}`);
      const id = byLevel ? `${plain}@${lv}` : plain;
      b = bases.length;
      if (byLevel) levelledBase[levelOf[i]!] = b;
      else plainBaseOf[pk] = b;
      const split = splitOf.size ? (splitOf.get(id) ?? splitOf.get(plain)) : undefined;
      const splitEntries = split?.entries ? new Set(split.entries.map(e => strings.find(e))) : null;
      bases.push({
        id,
        module: groupName[gi]!,
        occurrence: occ,
        level: byLevel ? lv : 0,
        split,
        splitEntries,
        reveal: revealOf.size ? (revealOf.get(id) ?? revealOf.get(plain)) : undefined,
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
  return { superOf, isEntry, nodes, usedRequests };
}

/**
 * Members and entry nodes of all supernodes of one graph, and the per-context sums over them, made
 * on first use through the Profile's rows: a view reads the per-context values of the supernodes it
 * shows (a guarded Sankey at most 2,000 of 10⁴–10⁵), so the graph itself sums only totals.
 */
class SupernodeValues {
  members = NO_NODES;
  /** Members of supernode s: members[memberStart[s]] … members[memberStart[s + 1] − 1]. */
  memberStart = NO_NODES;
  /** Entry nodes of supernode s: entries[entryStart[s]] … entries[entryStart[s + 1] − 1]. */
  entries = NO_NODES;
  entryStart = NO_NODES;
  readonly #row: Float64Array;
  readonly #all: boolean;

  constructor(
    readonly profile: Profile,
    readonly metric: number,
    readonly selected: Int32Array,
  ) {
    this.#row = new Float64Array(profile.contextCount);
    this.#all = selected.length === profile.contextCount && selected.every((c, k) => c === k);
  }

  get contexts(): number {
    return this.selected.length;
  }

  /** Σ over list[from … to) of the nodes' values per selected context. */
  sum(side: 'inclusive' | 'exclusive', list: Int32Array, from: number, to: number): Float64Array {
    const K = this.selected.length;
    const out = new Float64Array(K);
    const row = this.#row;
    for (let q = from; q < to; q++) {
      this.profile.contextRow(side, this.metric, list[q]!, row);
      if (this.#all) for (let k = 0; k < K; k++) out[k]! += row[k]!;
      else for (let k = 0; k < K; k++) out[k]! += row[this.selected[k]!]!;
    }
    return out;
  }
}

/**
 * A supernode whose per-context values and members are views into its graph's arrays, made on
 * first use: a graph of 10⁵ supernodes (a CCT at threshold 0) would otherwise allocate 3 × 10⁵
 * views, of which the Sankey message reads a few thousand.
 */
class SupernodeRecord implements SuperNode {
  // NaN, not 0: the fields hold doubles from the start, so storing the first fractional value does
  // not make V8 migrate every record made so far. The values pass sets all three before any read.
  inclusive = NaN;
  exclusive = NaN;
  filteredInclusive = NaN;
  filteredCallees: FilteredCallee[] = NO_CALLEES;
  entries: EntryFunction[] = [];
  #store: SupernodeValues | null = null;
  #index = -1;
  #inc?: Float64Array;
  #exc?: Float64Array;
  #members?: Int32Array;

  constructor(
    public id: string,
    public module: string,
    public kind: SuperNodeKind,
    public base: string,
    public occurrence: number,
    public level: number,
  ) {}

  attach(store: SupernodeValues, index: number): void {
    this.#store = store;
    this.#index = index;
  }

  get inclusiveByContext(): Float64Array {
    const st = this.#store;
    return (this.#inc ??= st
      ? st.sum('inclusive', st.entries, st.entryStart[this.#index]!, st.entryStart[this.#index + 1]!)
      : NO_VALUES);
  }
  set inclusiveByContext(v: Float64Array) {
    this.#inc = v;
  }
  get exclusiveByContext(): Float64Array {
    const st = this.#store;
    return (this.#exc ??= st
      ? st.sum('exclusive', st.members, st.memberStart[this.#index]!, st.memberStart[this.#index + 1]!)
      : NO_VALUES);
  }
  set exclusiveByContext(v: Float64Array) {
    this.#exc = v;
  }
  get members(): Int32Array {
    const st = this.#store;
    return (this.#members ??= st
      ? st.members.subarray(st.memberStart[this.#index]!, st.memberStart[this.#index + 1]!)
      : NO_NODES);
  }
  set members(v: Int32Array) {
    this.#members = v;
  }
}

/** Call-tree nodes that are a slice of a shared list, as a view made on first use (see SupernodeRecord). */
class NodeSlice {
  #list: Int32Array;
  #from: number;
  #to: number;
  #nodes?: Int32Array;

  constructor(list: Int32Array, from: number, to: number) {
    this.#list = list;
    this.#from = from;
    this.#to = to;
  }

  get nodes(): Int32Array {
    return (this.#nodes ??= this.#list.subarray(this.#from, this.#to));
  }
  set nodes(v: Int32Array) {
    this.#nodes = v;
  }
}

class EntryRecord extends NodeSlice implements EntryFunction {
  constructor(
    public name: string,
    public inclusive: number,
    public exclusive: number,
    public hottest: number,
    list: Int32Array,
    from: number,
    to: number,
  ) {
    super(list, from, to);
  }
}

class CalleeRecord extends NodeSlice implements FilteredCallee {
  constructor(
    public name: string,
    public inclusive: number,
    public hottest: number,
    list: Int32Array,
    from: number,
    to: number,
  ) {
    super(list, from, to);
  }
}

/** The call-tree nodes behind every superedge of one graph (edge e: calls[start[e] … start[e + 1])). */
class EdgeValues {
  constructor(
    readonly values: SupernodeValues,
    readonly calls: Int32Array,
    readonly start: Int32Array,
  ) {}
}

/** A superedge whose per-context values are a view made on first use (see SupernodeRecord). */
class SuperEdgeRecord implements SuperEdge {
  #store: EdgeValues;
  #edge: number;
  #values?: Float64Array;

  constructor(
    public source: string,
    public target: string,
    public from: number,
    public to: number,
    public value: number,
    store: EdgeValues,
    edge: number,
  ) {
    this.#store = store;
    this.#edge = edge;
  }

  get valueByContext(): Float64Array {
    const st = this.#store;
    return (this.#values ??= st.values.sum('inclusive', st.calls, st.start[this.#edge]!, st.start[this.#edge + 1]!));
  }
  set valueByContext(v: Float64Array) {
    this.#values = v;
  }
}

/** Items grouped by a pair of keys: `order` lists the items by (a, b), ties in item order. */
interface PairGroups {
  order: Int32Array;
  /** Group g holds order[start[g]] … order[start[g + 1] − 1]. */
  start: Int32Array;
  /** Group of each item. */
  groupOf: Int32Array;
}

/** Groups items 0 … N−1 by (a[item], b[item]), keys in [0, aRange) × [0, bRange): two stable counting sorts. */
function groupPairs(a: Int32Array, b: Int32Array, aRange: number, bRange: number): PairGroups {
  const N = a.length;
  const identity = new Int32Array(N);
  for (let k = 0; k < N; k++) identity[k] = k;
  const order = countingOrder(countingOrder(identity, b, bRange), a, aRange);
  const groupOf = new Int32Array(N);
  const starts = new Int32Array(N + 1);
  let groups = 0,
    lastA = -1,
    lastB = -1;
  for (let k = 0; k < N; k++) {
    const item = order[k]!;
    const ak = a[item]!,
      bk = b[item]!;
    if (ak !== lastA || bk !== lastB) {
      starts[groups++] = k;
      lastA = ak;
      lastB = bk;
    }
    groupOf[item] = groups - 1;
  }
  starts[groups] = N;
  return { order, start: starts.slice(0, groups + 1), groupOf };
}

/**
 * Calls `emit` once per group, in group order, with the group's first item and the `values` of
 * its items (ascending item order) as a slice of one shared array.
 */
function forEachGroup(
  groups: PairGroups,
  values: Int32Array,
  emit: (group: number, first: number, list: Int32Array, from: number, to: number) => void,
): void {
  const list = new Int32Array(groups.order.length);
  for (let k = 0; k < list.length; k++) list[k] = values[groups.order[k]!]!;
  for (let g = 0; g + 1 < groups.start.length; g++)
    if (groups.start[g]! < groups.start[g + 1]!)
      emit(g, groups.order[groups.start[g]!]!, list, groups.start[g]!, groups.start[g + 1]!);
}

/** Groups items 0 … N−1 by key[item] ∈ [0, range) (every key in use): one stable counting sort. */
function groupBy(key: Int32Array, range: number): PairGroups {
  const N = key.length;
  const identity = new Int32Array(N);
  for (let k = 0; k < N; k++) identity[k] = k;
  const order = countingOrder(identity, key, range);
  const start = new Int32Array(range + 1);
  for (let k = 0; k < N; k++) start[key[k]! + 1]!++;
  for (let g = 0; g < range; g++) start[g + 1]! += start[g]!;
  return { order, start, groupOf: key };
}

/** `order` stably sorted by key[order[k]] ∈ [0, range): a counting sort. */
function countingOrder(order: Int32Array, key: Int32Array, range: number): Int32Array {
  const start = new Int32Array(range + 1);
  for (const e of order) start[key[e]! + 1]!++;
  for (let k = 0; k < range; k++) start[k + 1]! += start[k]!;
  const out = new Int32Array(order.length);
  for (const e of order) out[start[key[e]!]!++] = e;
  return out;
}

/** Kahn's algorithm over supernode indices: true when the edges close no cycle (the usual case). */
function isAcyclicFlow(S: number, edges: readonly { from: number; to: number }[]): boolean {
  const indeg = new Int32Array(S);
  const start = new Int32Array(S + 1);
  for (const e of edges) {
    indeg[e.to]!++;
    start[e.from + 1]!++;
  }
  for (let s = 0; s < S; s++) start[s + 1]! += start[s]!;
  const out = new Int32Array(edges.length);
  const fill = start.slice(0, S);
  for (const e of edges) out[fill[e.from]!++] = e.to;
  const queue = new Int32Array(S);
  let head = 0,
    tail = 0;
  for (let s = 0; s < S; s++) if (indeg[s] === 0) queue[tail++] = s;
  while (head < tail) {
    const s = queue[head++]!;
    for (let k = start[s]!; k < start[s + 1]!; k++) if (--indeg[out[k]!]! === 0) queue[tail++] = out[k]!;
  }
  return tail === S;
}

/**
 * Which (group, occurrence) keys lie on a cycle of the graph whose nodes are those keys and whose
 * edges are the module entries (strongly connected components of more than one node; Tarjan's
 * algorithm, iterative), as flags per plain key. Splits only refine these nodes, so levelling these
 * keys leaves no cycle after any split either.
 */
function plainKeysOnCycles(
  n: number,
  parent: Int32Array,
  kept: Uint8Array,
  occurrence: Int32Array,
  plainOf: Int32Array,
  P: number,
): Uint8Array {
  let calls = 0;
  for (let i = 0; i < n; i++) if (kept[i] && occurrence[i]! > 0 && parent[i]! >= 0) calls++;
  const from = new Int32Array(calls),
    to = new Int32Array(calls);
  for (let i = 0, c = 0; i < n; i++)
    if (kept[i] && occurrence[i]! > 0 && parent[i]! >= 0) {
      from[c] = plainOf[parent[i]!]!;
      to[c++] = plainOf[i]!;
    }
  // Distinct edges in (from, to) order are the adjacency lists.
  const edges = groupPairs(from, to, P, P);
  const start = new Int32Array(P + 1);
  const out = new Int32Array(edges.start.length - 1);
  for (let e = 0; e + 1 < edges.start.length; e++) {
    const first = edges.order[edges.start[e]!]!;
    start[from[first]! + 1]!++;
    out[e] = to[first]!;
  }
  for (let v = 0; v < P; v++) start[v + 1]! += start[v]!;
  const result = new Uint8Array(P);
  const index = new Int32Array(P).fill(-1),
    low = new Int32Array(P),
    next = new Int32Array(P),
    onStack = new Uint8Array(P);
  const sccStack = new Int32Array(P);
  const work = new Int32Array(P);
  let sccTop = 0,
    counter = 0;
  for (let root = 0; root < P; root++) {
    if (index[root] !== -1) continue;
    let top = 0;
    work[top++] = root;
    index[root] = low[root] = counter++;
    next[root] = start[root]!;
    sccStack[sccTop++] = root;
    onStack[root] = 1;
    while (top > 0) {
      const v = work[top - 1]!;
      if (next[v]! < start[v + 1]!) {
        const w = out[next[v]!++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          next[w] = start[w]!;
          sccStack[sccTop++] = w;
          onStack[w] = 1;
          work[top++] = w;
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      top--;
      if (top > 0) {
        const u = work[top - 1]!;
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const bottom = sccStack.lastIndexOf(v, sccTop - 1);
        if (sccTop - bottom > 1) for (let k = bottom; k < sccTop; k++) result[sccStack[k]!] = 1;
        for (let k = bottom; k < sccTop; k++) onStack[sccStack[k]!] = 0;
        sccTop = bottom;
      }
    }
  }
  return result;
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

/**
 * `callersOf` for every supernode at once, in one pass over the edges; with `keep`, only between
 * the supernodes it marks (the others get an empty list).
 */
export function callersByNode(graph: SuperGraph, keep?: Uint8Array): CallerShare[][] {
  const out: CallerShare[][] = new Array<CallerShare[]>(graph.nodes.length);
  for (const e of graph.edges) {
    if (keep && !(keep[e.to] && keep[e.from])) continue;
    const into = graph.nodes[e.to]!.inclusive;
    (out[e.to] ??= []).push({ node: e.from, id: e.source, value: e.value, share: into > 0 ? e.value / into : 0 });
  }
  for (let s = 0; s < out.length; s++) {
    const list = (out[s] ??= []);
    if (list.length > 1) list.sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1));
  }
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
