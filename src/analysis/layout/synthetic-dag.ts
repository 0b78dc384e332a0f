/**
 * A seeded, call-graph-like flow DAG for tests and benchmarks of the layout: a tree of calls
 * (each node's value splits among its children, the rest is exclusive) plus extra edges to nodes
 * further down, some of them spanning several levels, as a super graph has.
 */
import { seededRandom } from '../stats/seeded-random';
import type { FlowEdgeInput, FlowGraphInput, FlowNodeInput } from './callflow-layout';

export function syntheticFlowDag(nodeCount: number, seed = 1, extraEdgeShare = 0.3): FlowGraphInput {
  const random = seededRandom(seed);
  const nodes: FlowNodeInput[] = [];
  const edges: FlowEdgeInput[] = [];
  const depth: number[] = [];
  const value: number[] = [];
  // What a node has not yet passed on to its callees: the next callee takes part of it.
  const budget: number[] = [];
  for (let i = 0; i < nodeCount; i++) {
    if (i === 0) {
      value.push(1000);
      budget.push(1000);
      depth.push(0);
    } else {
      // Prefer recent parents a little, so the graph gets deep as well as wide.
      const parent = Math.floor(Math.pow(random(), 0.7) * i);
      const v = budget[parent]! * (0.2 + 0.5 * random());
      budget[parent] = budget[parent]! - v;
      value.push(v);
      budget.push(v);
      depth.push(depth[parent]! + 1);
      edges.push({ source: `n${parent}`, target: `n${i}`, value: v });
    }
    nodes.push({ id: `n${i}`, value: value[i]! });
  }
  // Extra calls from shallower to deeper nodes (never upwards, so no cycles), paid from the
  // caller's budget and added to the callee's value: flows never exceed node values.
  const extra = Math.floor(nodeCount * extraEdgeShare);
  for (let k = 0; k < extra && nodeCount > 2; k++) {
    const a = Math.floor(random() * nodeCount);
    const b = Math.floor(random() * nodeCount);
    if (depth[a]! >= depth[b]!) continue;
    const v = budget[a]! * 0.3 * random();
    budget[a] = budget[a]! - v;
    edges.push({ source: `n${a}`, target: `n${b}`, value: v });
    nodes[b] = { id: `n${b}`, value: nodes[b]!.value + v };
  }
  return { nodes, edges };
}
