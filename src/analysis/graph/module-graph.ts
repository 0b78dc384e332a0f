import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';

/**
 * A module-level call graph for the Sankey: consecutive call-tree nodes of the same module collapse
 * into one supernode, and a call from one module into another becomes a weighted edge.
 *
 * - A node without a module belongs to the module of its caller (so `_start` frames and unnamed
 *   helpers do not make their own boxes); nodes above the first known module are skipped.
 * - A module entered again further down a call path gets its own supernode (`lib1 → lib2 → lib1#2`),
 *   which keeps the graph acyclic by construction; a deterministic back-edge check is the safety net.
 * - Supernode inclusive = Σ inclusive of its entry nodes (outermost per path); exclusive = Σ exclusive
 *   of all nodes it holds; per-context inclusive values give the max/mean imbalance.
 */
export interface ModuleGraphNode {
  id: string;
  module: string;
  /** 1 for the first entry of the module on a path, 2 for a re-entry below it, … */
  occurrence: number;
  inclusive: number;
  exclusive: number;
  /** Inclusive per execution context. */
  inclusiveByContext: Float64Array;
  /** The entry call-tree node with the largest inclusive value. */
  hottestEntry: number;
}

export interface ModuleGraphEdge {
  source: string;
  target: string;
  value: number;
}

export interface ModuleGraph {
  nodes: ModuleGraphNode[];
  edges: ModuleGraphEdge[];
  /** Total of the metric (Σ root inclusive), for shares. */
  total: number;
  /** Edges dropped by the back-edge check (should be empty). */
  droppedEdges: ModuleGraphEdge[];
}

/**
 * The string id each node is grouped by: its load module, or — when the profile names fewer than
 * two modules (TAU, gprof text, Hatchet literals) — its function name, CallFlow's fallback, so the
 * graph still shows who calls whom. Loops and statements always belong to their function.
 */
function groupingColumn(profile: Profile): Int32Array {
  const { module, name, kind } = profile.tree.columns;
  const distinct = new Set<number>();
  for (let i = 0; i < module.length && distinct.size < 3; i++) if (module[i] !== 0) distinct.add(module[i]!);
  if (distinct.size >= 2) return module;
  const out = new Int32Array(name.length);
  for (let i = 0; i < out.length; i++) if (kind[i] !== NodeKind.Loop && kind[i] !== NodeKind.Statement) out[i] = name[i]!;
  return out;
}

export function moduleGraph(profile: Profile, m: number): ModuleGraph {
  const tree = profile.tree;
  const n = tree.size;
  const C = profile.contextCount;
  const { parent } = tree.columns;
  const module = groupingColumn(profile);
  const incl = profile.inclusive(m);
  const inclTotal = profile.inclusiveTotals(m);
  const exclTotal = profile.exclusiveTotals(m);

  // Effective module: own, else the caller's (parents come first, so one forward pass).
  const eff = new Int32Array(n);
  for (let i = 0; i < n; i++) eff[i] = module[i] !== 0 ? module[i]! : parent[i]! >= 0 ? eff[parent[i]!]! : 0;

  // Supernode of each node: same as the parent's while the module stays the same; otherwise the
  // module's next occurrence on this path (count of earlier entries of that module above it).
  const superOf = new Int32Array(n).fill(-1);
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const nodes: ModuleGraphNode[] = [];
  const edgeValues = new Map<string, number>();

  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    const mod = eff[i]!;
    if (mod === 0) continue;
    if (p >= 0 && eff[p] === mod) { superOf[i] = superOf[p]!; continue; }
    // Entry into a module: count how often it was entered above on this path.
    let occurrence = 1;
    for (let a = p; a >= 0; a = parent[a]!) {
      if (eff[a] === mod && (parent[a]! < 0 || eff[parent[a]!] !== mod)) occurrence++;
    }
    const name = tree.strings.get(mod);
    const key = occurrence === 1 ? name : `${name}#${occurrence}`;
    let s = keyIndex.get(key);
    if (s === undefined) {
      s = nodes.length;
      keyIndex.set(key, s);
      keys.push(key);
      nodes.push({ id: key, module: name, occurrence, inclusive: 0, exclusive: 0, inclusiveByContext: new Float64Array(C), hottestEntry: i });
    }
    superOf[i] = s;
    const node = nodes[s]!;
    // Only the outermost entry per path adds inclusive (a nested entry of the same supernode cannot
    // happen: re-entries get a new occurrence).
    node.inclusive += inclTotal[i]!;
    for (let c = 0; c < C; c++) node.inclusiveByContext[c]! += incl[i * C + c]!;
    if (inclTotal[i]! > inclTotal[node.hottestEntry]!) node.hottestEntry = i;
    const caller = p >= 0 ? superOf[p]! : -1;
    if (caller >= 0) {
      const ek = `${caller}\u0000${s}`;
      edgeValues.set(ek, (edgeValues.get(ek) ?? 0) + inclTotal[i]!);
    }
  }
  for (let i = 0; i < n; i++) if (superOf[i]! >= 0) nodes[superOf[i]!]!.exclusive += exclTotal[i]!;

  let edges: ModuleGraphEdge[] = [...edgeValues].map(([k, value]) => {
    const [a, b] = k.split('\u0000').map(Number);
    return { source: keys[a!]!, target: keys[b!]!, value };
  });
  edges.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  const { kept, dropped } = dropBackEdges(nodes.map(x => x.id), edges);
  edges = kept;
  return { nodes, edges, total: profile.total(m), droppedEdges: dropped };
}

/**
 * Removes edges that close a cycle, visiting nodes and edges in a fixed order so the result is the
 * same for the same input. With re-entry occurrences this finds nothing; it guards the renderer.
 */
export function dropBackEdges(ids: string[], edges: ModuleGraphEdge[]): { kept: ModuleGraphEdge[]; dropped: ModuleGraphEdge[] } {
  const out = new Map<string, ModuleGraphEdge[]>();
  for (const e of edges) { let l = out.get(e.source); if (!l) out.set(e.source, (l = [])); l.push(e); }
  const state = new Map<string, 1 | 2>(); // 1 on stack, 2 done
  const dropped = new Set<ModuleGraphEdge>();
  for (const root of ids) {
    if (state.has(root)) continue;
    const stack: [string, number][] = [[root, 0]];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const list = out.get(top[0]) ?? [];
      if (top[1] >= list.length) { state.set(top[0], 2); stack.pop(); continue; }
      const e = list[top[1]++]!;
      const s = state.get(e.target);
      if (s === 1) dropped.add(e);
      else if (s === undefined) { state.set(e.target, 1); stack.push([e.target, 0]); }
    }
  }
  return { kept: edges.filter(e => !dropped.has(e)), dropped: [...dropped] };
}
