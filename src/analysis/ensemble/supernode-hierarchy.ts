import type { HierarchyNodeData, SupernodeHierarchyData } from '../../shared/ensemble-protocol';
import { NodeKind } from '../model/call-tree';
import type { BinRule } from './node-statistics';
import { runHistogramCounts } from './node-statistics';
import { isFunctionLike, nodeRunValues, type MemberGradients, type SupernodeScope } from './supernode-scope';

/** Icicle bars sent at most: the heaviest by max inclusive, with all their ancestors. */
export const MAX_HIERARCHY_NODES = 2000;

export interface HierarchyOptions {
  bins: BinRule;
  /** Default {@link MAX_HIERARCHY_NODES}. */
  maxNodes?: number;
  /** The members' gradients already binned (with `bins` bins) by `callSiteRunValuesWithGradients`. */
  gradients?: MemberGradients;
}

function kindName(kind: number): HierarchyNodeData['kind'] {
  if (isFunctionLike(kind)) return 'function';
  if (kind === NodeKind.Loop) return 'loop';
  if (kind === NodeKind.Statement) return 'statement';
  return 'other';
}

/**
 * The supernode hierarchy (CallFlow §2.9, §4.3): breadth-first over the ensemble's union tree from
 * the supernode's entry nodes, staying inside the supernode, so every call site of any selected run
 * appears, each calling context on its own (a tree by construction). Children go heaviest first.
 * Nodes missing in every selected run are left out. Values are maxima over the selected runs;
 * each bar's gradient is the histogram of the gradient side over the selected runs where it exists.
 */
export function supernodeHierarchy(scope: SupernodeScope, options: HierarchyOptions): SupernodeHierarchyData {
  const { ensemble, runs, side, target, inSupernode } = scope;
  const tree = ensemble.tree;
  const { kind, parent: treeParent } = tree.columns;
  const maxNodes = options.maxNodes ?? MAX_HIERARCHY_NODES;
  if (!(Number.isInteger(maxNodes) && maxNodes >= 1))
    throw new RangeError(`the hierarchy needs room for at least one node, got ${maxNodes}`);

  const given = options.gradients && options.gradients.bins === options.bins ? options.gradients : undefined;
  const heaviness = scope.maxInclusive;
  const exists = (u: number) => heaviness[u] === heaviness[u];
  const byMaxInclusive = (a: number, b: number) => heaviness[b]! - heaviness[a]! || a - b;
  const order: number[] = [];
  const parentAt: number[] = [];
  const queue: { node: number; parent: number }[] = [];
  for (const u of [...scope.entries].filter(exists).sort(byMaxInclusive)) queue.push({ node: u, parent: -1 });
  for (let head = 0; head < queue.length; head++) {
    const { node: u, parent } = queue[head]!;
    const at = order.length;
    order.push(u);
    parentAt.push(parent);
    const children = [...tree.children(u)].filter(c => inSupernode[c] && exists(c));
    for (const c of children.sort(byMaxInclusive)) queue.push({ node: c, parent: at });
  }
  const maxInc = order.map(u => heaviness[u]!);

  // Level of detail: the heaviest nodes with their ancestors (an ancestor is at least as heavy, so
  // it is normally in already), in breadth-first order.
  let keep: Uint8Array | null = null;
  if (order.length > maxNodes) {
    keep = new Uint8Array(order.length);
    let kept = 0;
    const heaviest = order.map((_, i) => i).sort((a, b) => maxInc[b]! - maxInc[a]! || a - b);
    for (const i of heaviest) {
      let need = 0;
      for (let j = i; j >= 0 && !keep[j]; j = parentAt[j]!) need++;
      if (kept + need > maxNodes) continue;
      for (let j = i; j >= 0 && !keep[j]; j = parentAt[j]!) keep[j] = 1;
      kept += need;
      if (kept === maxNodes) break;
    }
  }

  const newIndex = new Int32Array(order.length).fill(-1);
  const nodes: HierarchyNodeData[] = [];
  let countScale = 0;
  order.forEach((u, i) => {
    if (keep && !keep[i]) return;
    newIndex[i] = nodes.length;
    const at = given ? given.position[u]! : -1;
    const h =
      at >= 0
        ? {
            min: given!.min[at]!,
            max: given!.max[at]!,
            counts: given!.counts.subarray(at * given!.bins, (at + 1) * given!.bins),
          }
        : runHistogramCounts(nodeRunValues(ensemble, u, side, runs), options.bins);
    let present = 0;
    for (const c of h.counts) {
      present += c;
      if (c > countScale) countScale = c;
    }
    let fn = u;
    while (!isFunctionLike(kind[fn]!) && treeParent[fn]! >= 0 && inSupernode[treeParent[fn]!]) fn = treeParent[fn]!;
    const node: HierarchyNodeData = {
      parent: parentAt[i]! >= 0 ? newIndex[parentAt[i]!]! : -1,
      name: tree.name(u),
      file: tree.file(u),
      line: tree.line(u),
      kind: kindName(kind[u]!),
      maxInclusive: maxInc[i]!,
      maxExclusive: scope.maxExclusive[u]!,
      gradient: { min: h.min, max: h.max, counts: Array.from(h.counts) },
      present,
      function: tree.name(fn),
    };
    if (target >= 0) {
      const t = ensemble.value(u, target, side);
      node.inTarget = t === t;
      node.targetValue = t === t ? t : null;
    }
    nodes.push(node);
  });
  return { nodes, truncated: order.length - nodes.length, countScale };
}
