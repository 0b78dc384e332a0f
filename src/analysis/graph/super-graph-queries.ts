import type { NodeMetricValues } from '../../shared/callflow-protocol';
import type { Profile } from '../model/profile';
import { sankeyNodeIds } from './node-membership';
import { superGraph, type SuperGraph, type SuperGraphOptions } from './super-graph';

/**
 * Questions the CallFlow panel asks about the super graph it shows, answered where the model lives
 * (the analysis service). `graphOf` supplies the graphs — the service's cache, so a question about
 * the graph on screen never builds it again.
 */
export type SuperGraphQuery =
  /** The supernode ids that hold these call-tree nodes, in the graph built with `options`. */
  | { kind: 'nodeIds'; options: SuperGraphOptions; nodes: number[] }
  /**
   * Per-context inclusive and exclusive values of one supernode of the graph built with `options`
   * (the graph on screen) for each of the first `maxMetrics` metrics, over the same call-tree nodes.
   */
  | { kind: 'nodeMetrics'; options: SuperGraphOptions; nodeId: string; maxMetrics: number };

export interface SuperGraphQueryResults {
  nodeIds: string[];
  nodeMetrics: NodeMetricValues[];
}

export function answerSuperGraphQuery<K extends SuperGraphQuery['kind']>(
  profile: Profile,
  query: Extract<SuperGraphQuery, { kind: K }>,
  graphOf?: (options: SuperGraphOptions) => SuperGraph,
): SuperGraphQueryResults[K];
export function answerSuperGraphQuery(
  profile: Profile,
  query: SuperGraphQuery,
  graphOf: (options: SuperGraphOptions) => SuperGraph = o => superGraph(profile, o),
): SuperGraphQueryResults[SuperGraphQuery['kind']] {
  switch (query.kind) {
    case 'nodeIds':
      return sankeyNodeIds(graphOf(query.options), query.nodes);
    case 'nodeMetrics':
      return supernodeMetrics(profile, graphOf(query.options), query.nodeId, query.maxMetrics);
  }
}

/** Answers already given, per graph (a graph is immutable once built; the cache drops it, the WeakMap follows). */
const answered = new WeakMap<SuperGraph, Map<string, NodeMetricValues[]>>();

/**
 * The values of every metric (up to `maxMetrics`) for one supernode of `graph`, over its own
 * call-tree nodes: inclusive = Σ of its entry nodes (never nested), exclusive = Σ of its members,
 * per selected context — the rule the super graph sums the shown metric by (super-graph.ts, step 6),
 * so the shown metric's answer equals the node's own values. One pass over the node's members per
 * metric, from the graph the panel already has: no graph is built per metric, and a node the filter
 * keeps for the shown metric is the same set of calling contexts in every metric. [] for an unknown id.
 */
export function supernodeMetrics(
  profile: Profile,
  graph: SuperGraph,
  nodeId: string,
  maxMetrics: number,
): NodeMetricValues[] {
  let memo = answered.get(graph);
  const key = `${maxMetrics}\u0000${nodeId}`;
  const hit = memo?.get(key);
  if (hit) return hit;
  const node = graph.nodes.find(x => x.id === nodeId);
  if (!node) return [];
  const row = new Float64Array(profile.contextCount);
  const sel = graph.contexts;
  const K = sel.length;
  const count = Math.max(0, Math.min(profile.metrics.length, Math.floor(maxMetrics)));
  const out: NodeMetricValues[] = [];
  for (let m = 0; m < count; m++) {
    const metric = profile.metrics[m]!;
    const inclusive = new Float64Array(K);
    const exclusive = new Float64Array(K);
    if (m === graph.metric) {
      inclusive.set(node.inclusiveByContext);
      exclusive.set(node.exclusiveByContext);
    } else {
      // Row by row through the Profile, which may keep its metrics sparse.
      for (const e of node.entries)
        for (const i of e.nodes) {
          profile.contextRow('inclusive', m, i, row);
          for (let k = 0; k < K; k++) inclusive[k]! += row[sel[k]!]!;
        }
      for (const i of node.members) {
        profile.contextRow('exclusive', m, i, row);
        for (let k = 0; k < K; k++) exclusive[k]! += row[sel[k]!]!;
      }
    }
    out.push({
      name: metric.label || metric.name,
      unit: metric.unit,
      inclusive: Array.from(inclusive),
      exclusive: Array.from(exclusive),
    });
  }
  if (!memo) answered.set(graph, (memo = new Map()));
  memo.set(key, out);
  return out;
}
