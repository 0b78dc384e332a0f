import type { SuperGraph } from './super-graph';
import { supernodeOfNode } from './super-graph';

/**
 * The Sankey nodes that hold some call-tree nodes: each node's supernode (for a node the filter
 * removed, that of its nearest kept ancestor, where its time is counted), distinct, in graph
 * order. `graph` must be built with the options the Sankey shows (module map, filter, splits).
 */
export function sankeyNodeIds(graph: SuperGraph, nodes: Iterable<number>): string[] {
  const hit = new Set<number>();
  for (const n of nodes) {
    const s = supernodeOfNode(graph, n);
    if (s >= 0) hit.add(s);
  }
  return [...hit].sort((a, b) => a - b).map(s => graph.nodes[s]!.id);
}
