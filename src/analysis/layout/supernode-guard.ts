/**
 * The guard that keeps a Sankey drawable when the super graph is huge (a call-tree profile at a
 * very low threshold has 10⁵ supernodes; nobody can read, or send, that): keep the heaviest nodes
 * together with a path from a root to each — the chain of heaviest callers — so that every node
 * drawn is reachable, and say how many were left out. The time of a left-out callee stays in its
 * caller's bar, like filtered time (the part below the outgoing ribbons).
 */

/** Above this many supernodes the Sankey message keeps the heaviest with their paths. */
export const DEFAULT_SUPERNODE_LIMIT = 2000;

export interface GuardEdge {
  /** Node indices. */
  from: number;
  to: number;
  value: number;
}

export interface SupernodeGuard {
  /** 1 for the nodes kept, by input index. */
  keep: Uint8Array;
  /** Nodes kept and nodes left out. */
  shown: number;
  omitted: number;
  /** Per node: Σ flow of its edges into nodes left out (0 for nodes left out). */
  omittedOutflow: Float64Array;
}

/**
 * Keeps at most `limit` of the nodes whose heights are `values`: in decreasing value (ties: input order), each node with the chain of
 * its heaviest incoming edges up to a node already kept or a node nobody calls, when the whole chain
 * fits. Everything is kept when the graph has at most `limit` nodes. Cycles in the input are harmless.
 */
export function heaviestWithPaths(
  values: ArrayLike<number>,
  edges: readonly GuardEdge[],
  limit = DEFAULT_SUPERNODE_LIMIT,
): SupernodeGuard {
  const S = values.length;
  const keep = new Uint8Array(S);
  const omittedOutflow = new Float64Array(S);
  if (S <= limit) return { keep: keep.fill(1), shown: S, omitted: 0, omittedOutflow };
  const value = (v: number) => (Number.isFinite(values[v]!) ? values[v]! : 0);
  const flow = (e: GuardEdge) => (Number.isFinite(e.value) ? e.value : 0);
  // Heaviest caller of every node (by edge flow, then by the caller's value, then input order).
  const caller = new Int32Array(S).fill(-1);
  const callerFlow = new Float64Array(S);
  for (const e of edges) {
    if (e.from === e.to) continue;
    const c = caller[e.to]!;
    const better =
      c < 0 ||
      flow(e) > callerFlow[e.to]! ||
      (flow(e) === callerFlow[e.to]! && (value(e.from) > value(c) || (value(e.from) === value(c) && e.from < c)));
    if (better) {
      caller[e.to] = e.from;
      callerFlow[e.to] = flow(e);
    }
  }
  // Candidates in decreasing value: the heaviest 4 × limit first (a native sort finds the cutoff,
  // a comparator sort orders only those), all of them if paths use up the budget otherwise.
  const byValue = (a: number, b: number) => value(b) - value(a) || a - b;
  const sortedValues = Float64Array.from({ length: S }, (_, v) => value(v)).sort();
  const cutoff = sortedValues[Math.max(0, S - 4 * limit)]!;
  let order = Array.from({ length: S }, (_, v) => v)
    .filter(v => value(v) >= cutoff)
    .sort(byValue);
  const onPath = new Int32Array(S).fill(-1);
  let shown = 0;
  const path: number[] = [];
  for (let k = 0; k < S && shown < Math.max(0, limit); k++) {
    if (k === order.length) {
      if (order.length === S) break;
      order = Array.from({ length: S }, (_, v) => v).sort(byValue);
    }
    const v = order[k]!;
    if (keep[v]) continue;
    path.length = 0;
    for (let u = v; u >= 0 && !keep[u] && onPath[u] !== k; u = caller[u]!) {
      onPath[u] = k;
      path.push(u);
    }
    if (shown + path.length > limit) continue;
    for (const u of path) keep[u] = 1;
    shown += path.length;
  }
  for (const e of edges) if (keep[e.from] && !keep[e.to]) omittedOutflow[e.from]! += flow(e);
  return { keep, shown, omitted: S - shown, omittedOutflow };
}
