import { functionTotals, type FunctionTotals } from '../model/aggregates';
import type { CallGraphData } from '../model/call-graph';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { functionIndex } from './function-rows';
import { outermostByKey } from './outermost-by-key';
import { shareOf } from './share';

/** Cost flowing along one caller → callee edge, seen from the function asked about. */
export interface CallEdge {
  /** The other function: its index into functionTotals(profile, m).names, or -1 if the call tree lacks it. */
  function: number;
  name: string;
  /** Cost of the callee spent on behalf of the caller, summed over contexts (recursion counted once). */
  value: number;
  /** value / the function's inclusive value. */
  share: number;
  /** Calls along the edge, when the format states them (call-graph formats), else null. */
  calls: number | null;
  /** Distinct call lines in the caller's source, ascending. */
  callLines: number[];
}

export interface CallersCallees {
  function: number;
  name: string;
  inclusive: number;
  exclusive: number;
  /** Largest value first, then by name. */
  callers: CallEdge[];
  callees: CallEdge[];
  /** `call-graph`: the file's own arc costs (gprof, callgrind, gprof2dot); `call-tree`: aggregated over the CCT. */
  source: 'call-graph' | 'call-tree';
}

/**
 * Callers and callees of a function (by name or by index into functionTotals). Uses the profile's
 * call graph when it states a cost for metric m on every arc involved, since those are the numbers
 * the tool printed; otherwise aggregates over every frame of the function in the call tree. Returns
 * null for a name the profile does not have. O(n) (plus the arcs).
 */
export function callersCallees(
  profile: Profile,
  m: number,
  fn: string | number,
  totals: FunctionTotals = functionTotals(profile, m),
): CallersCallees | null {
  const f = functionIndex(totals, fn);
  if (f < 0) return null;
  const base = {
    function: f,
    name: totals.names[f]!,
    inclusive: totals.inclusive[f]!,
    exclusive: totals.exclusive[f]!,
  };
  const fromGraph = profile.callGraph && edgesFromCallGraph(profile, profile.callGraph, m, base.name, totals);
  if (fromGraph) {
    const inclusive = Number.isNaN(fromGraph.inclusive) ? base.inclusive : fromGraph.inclusive;
    const finish = (edges: CallEdge[]) => sortEdges(edges.map(e => ({ ...e, share: shareOf(e.value, inclusive) })));
    return {
      ...base,
      inclusive,
      exclusive: fromGraph.exclusive,
      callers: finish(fromGraph.callers),
      callees: finish(fromGraph.callees),
      source: 'call-graph',
    };
  }
  return { ...base, ...edgesFromCallTree(profile, m, f, totals), source: 'call-tree' };
}

/**
 * Every frame of f whose parent belongs to g is a g → f call (and a frame of h under f an f → h
 * call). Each edge is a key for outermostByKey, so a frame is summed only when no ancestor frame
 * made the same call: a recursive call's cost is already inside the outer one.
 */
function edgesFromCallTree(
  profile: Profile,
  m: number,
  f: number,
  totals: FunctionTotals,
): Pick<CallersCallees, 'callers' | 'callees'> {
  const tree = profile.tree;
  const { parent, kind, callLine } = tree.columns;
  const owner = totals.functionOfNode;
  const edges: { other: number; caller: boolean; callee: boolean; value: number; lines: Set<number> }[] = [];
  const callerEdge = new Map<number, number>();
  const calleeEdge = new Map<number, number>();
  const edgeOf = (map: Map<number, number>, other: number, caller: boolean, callee: boolean) => {
    let e = map.get(other);
    if (e === undefined) {
      map.set(other, (e = edges.length));
      edges.push({ other, caller, callee, value: 0, lines: new Set() });
    }
    return e;
  };
  const key = new Int32Array(tree.size).fill(-1);
  for (let i = 0; i < tree.size; i++) {
    const p = parent[i]!;
    if (p < 0 || (kind[i] !== NodeKind.Function && kind[i] !== NodeKind.Region)) continue;
    const caller = owner[p]!,
      callee = owner[i]!;
    if (caller < 0) continue;
    // A self-call f → f is one edge, listed among both the callers and the callees.
    if (callee === f) key[i] = edgeOf(callerEdge, caller, true, caller === f);
    else if (caller === f) key[i] = edgeOf(calleeEdge, callee, false, true);
    else continue;
    if (callLine[i]! > 0) edges[key[i]!]!.lines.add(callLine[i]!);
  }
  const outermost = outermostByKey(tree, key, edges.length);
  const incl = profile.inclusiveTotals(m);
  for (let i = 0; i < tree.size; i++) if (outermost[i]) edges[key[i]!]!.value += incl[i]!;

  const inclusive = totals.inclusive[f]!;
  const toEdge = (e: (typeof edges)[number]): CallEdge => ({
    function: e.other,
    name: totals.names[e.other]!,
    value: e.value,
    share: shareOf(e.value, inclusive),
    calls: null,
    callLines: [...e.lines].sort((a, b) => a - b),
  });
  return {
    callers: sortEdges(edges.filter(e => e.caller).map(toEdge)),
    callees: sortEdges(edges.filter(e => e.callee).map(toEdge)),
  };
}

interface GraphEdges {
  inclusive: number;
  exclusive: number;
  callers: CallEdge[];
  callees: CallEdge[];
}

/**
 * The arcs into and out of every graph function named `name` (a name may stand for several graph
 * functions, e.g. one per file; the call tree merges them by name too), grouped by the other
 * function's name. Null when some arc does not state a cost for metric m.
 */
function edgesFromCallGraph(
  profile: Profile,
  graph: CallGraphData,
  m: number,
  name: string,
  totals: FunctionTotals,
): GraphEdges | null {
  const strings = profile.tree.strings;
  const nameOf = (g: number) => strings.get(graph.functions.name[g]!);
  const cost = graph.arcs.cost[m];
  if (!cost) return null;
  const mine = new Set<number>();
  for (let g = 0; g < graph.functions.name.length; g++) if (nameOf(g) === name) mine.add(g);
  if (mine.size === 0) return null;

  const group = () => new Map<string, { value: number; calls: number; stated: boolean; lines: Set<number> }>();
  const callers = group(),
    callees = group();
  const add = (into: ReturnType<typeof group>, other: string, a: number) => {
    let e = into.get(other);
    if (!e) into.set(other, (e = { value: 0, calls: 0, stated: false, lines: new Set() }));
    e.value += cost[a]!;
    if (!Number.isNaN(graph.arcs.calls[a]!)) {
      e.calls += graph.arcs.calls[a]!;
      e.stated = true;
    }
    if (graph.arcs.callLine[a]! > 0) e.lines.add(graph.arcs.callLine[a]!);
  };
  const { caller, callee } = graph.arcs;
  for (let a = 0; a < caller.length; a++) {
    const into = mine.has(callee[a]!),
      out = mine.has(caller[a]!);
    if (!into && !out) continue;
    if (Number.isNaN(cost[a]!)) return null;
    if (into) add(callers, nameOf(caller[a]!), a);
    if (out) add(callees, nameOf(callee[a]!), a);
  }

  let inclusive = 0,
    exclusive = 0;
  for (const g of mine) {
    inclusive += graph.functions.total[m]![g]!;
    exclusive += graph.functions.self[m]![g]!;
  }
  const toEdges = (grouped: ReturnType<typeof group>): CallEdge[] =>
    [...grouped].map(([other, e]) => ({
      function: totals.names.indexOf(other),
      name: other,
      value: e.value,
      share: 0,
      calls: e.stated ? e.calls : null,
      callLines: [...e.lines].sort((x, y) => x - y),
    }));
  return { inclusive, exclusive, callers: toEdges(callers), callees: toEdges(callees) };
}

function sortEdges(edges: CallEdge[]): CallEdge[] {
  return edges.sort((a, b) => b.value - a.value || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
