/**
 * Metric-based clustering along one continuous attribute (MemAxes §7.3). The samples are sorted by
 * the attribute; the leaves are windows of w samples starting every Δ samples (MemAxes' defaults
 * w = 1000, Δ = 600; the short window left at the end is merged into its predecessor). Adjacent
 * subsets only are merged, the pair whose metric values are closest first (distance |m(A) − m(B)|),
 * and a merged node holds the union of its children's samples (their overlap counted once) with
 * its metric recomputed on that union. Every node is therefore a contiguous range of the sorted
 * samples, and the tree is binary with one root.
 *
 * A merge updates the per-resource counts as A + B − (A ∩ B), where A ∩ B is the Δ-window overlap
 * of the two ranges, so a merge costs O(w + resources) and the whole tree O(N/Δ · (w + resources)
 * + (N/Δ)²) for the neighbour scan: the paper's O(k·w log w) bound without its sort.
 */
import { DepthCounter, type MemoryMetric } from './depth-scores';
import { sizeOf, toIndexSet, type IndexSet } from './index-set';
import type { MemoryAnalysis } from './memory-analysis';
import type { SampleAttribute } from './model/memory-samples';

/** MemAxes' released defaults. */
export const DEFAULT_CLUSTER_WINDOW = 1000;
export const DEFAULT_CLUSTER_STRIDE = 600;

export interface ClusterNode {
  /** The node's samples are `order[start, end)`. */
  start: number;
  end: number;
  /** The attribute's range over the node's samples. */
  min: number;
  max: number;
  /** The metric of the node's samples (NaN when the metric has no value, e.g. no resource was hit). */
  value: number;
  /** Children (-1 for leaves) and parent (-1 for the root). */
  left: number;
  right: number;
  parent: number;
  /** The merge step that made the node (0 first); -1 for leaves. */
  step: number;
}

export interface ClusterTree {
  attribute: string;
  metric: MemoryMetric;
  window: number;
  stride: number;
  /** Sample indices sorted by the attribute (ties by index); samples without a value are left out. */
  order: Int32Array;
  /** Leaves first (in attribute order), then merged nodes in merge order. */
  nodes: ClusterNode[];
  leaves: number;
  /** The root node; -1 when there are no samples. */
  root: number;
}

export interface ClusterOptions {
  /** Leaf window in samples (default 1000). */
  window?: number;
  /** Stride between leaf starts in samples (default 600); must not exceed the window. */
  stride?: number;
  /** The samples to cluster (null: all). */
  set?: IndexSet | null;
}

/** Clusters the samples along an attribute with a metric. Only quantitative attributes have an order to cluster along. */
export function clusterAlongAttribute(
  analysis: MemoryAnalysis,
  attribute: SampleAttribute,
  metric: MemoryMetric,
  options: ClusterOptions = {},
): ClusterTree {
  const { window = DEFAULT_CLUSTER_WINDOW, stride = DEFAULT_CLUSTER_STRIDE, set = null } = options;
  if (attribute.kind !== 'quantitative')
    throw new Error(`clustering needs a continuous attribute; "${attribute.name}" has no meaningful order`);
  if (!(window >= 1 && stride >= 1 && stride <= window)) throw new RangeError('clustering needs 1 ≤ stride ≤ window');
  const counter = new DepthCounter(analysis, metric);
  const values = attribute.values;

  // Sort the samples by the attribute; samples without a value have no place along it.
  const m = sizeOf(set, values.length);
  const order = new Int32Array(m);
  let n = 0;
  for (let k = 0; k < m; k++) {
    const i = set ? set[k]! : k;
    if (values[i]! === values[i]!) order[n++] = i;
  }
  const sorted = order.slice(0, n).sort((a, b) => values[a]! - values[b]! || a - b);

  const nodes: ClusterNode[] = [];
  const vectors: ReturnType<DepthCounter['vectors']>[] = [];
  const makeLeaf = (start: number, end: number) => {
    const v = counter.vectors();
    counter.addRange(v, sorted, start, end);
    vectors.push(v);
    nodes.push({
      start,
      end,
      min: values[sorted[start]!]!,
      max: values[sorted[end - 1]!]!,
      value: counter.value(v),
      left: -1,
      right: -1,
      parent: -1,
      step: -1,
    });
  };
  if (n > 0) {
    if (n <= window) makeLeaf(0, n);
    else {
      let s = 0;
      for (; s + window <= n; s += stride) makeLeaf(s, s + window);
      const last = nodes[nodes.length - 1]!;
      if (last.end < n) {
        // The short window left at the end joins its predecessor.
        counter.addRange(vectors[vectors.length - 1]!, sorted, last.end, n);
        last.end = n;
        last.max = values[sorted[n - 1]!]!;
        last.value = counter.value(vectors[vectors.length - 1]!);
      }
    }
  }
  const leaves = nodes.length;

  // Adjacent merging over a linked list of the active nodes.
  const next = new Int32Array(2 * leaves).fill(-1);
  const prev = new Int32Array(2 * leaves).fill(-1);
  for (let k = 0; k < leaves; k++) {
    next[k] = k + 1 < leaves ? k + 1 : -1;
    prev[k] = k - 1;
  }
  let head = leaves ? 0 : -1;
  for (let step = 0; step < leaves - 1; step++) {
    let best = -1,
      bestDistance = Infinity;
    for (let a = head; next[a]! >= 0; a = next[a]!) {
      const d = distance(nodes[a]!.value, nodes[next[a]!]!.value);
      if (d < bestDistance || best < 0) {
        best = a;
        bestDistance = d;
      }
    }
    const a = best,
      b = next[a]!;
    const A = nodes[a]!,
      B = nodes[b]!;
    const v = counter.vectors();
    const va = vectors[a]!,
      vb = vectors[b]!;
    for (let r = 0; r < counter.resources; r++) {
      v.samples[r] = va.samples[r]! + vb.samples[r]!;
      v.cycles[r] = va.cycles[r]! + vb.cycles[r]!;
    }
    // The overlap of the two ranges was counted twice.
    for (let k = B.start; k < A.end; k++) counter.add(v, sorted[k]!, -1);
    const id = nodes.length;
    nodes.push({
      start: A.start,
      end: B.end,
      min: A.min,
      max: B.max,
      value: counter.value(v),
      left: a,
      right: b,
      parent: -1,
      step,
    });
    vectors.push(v);
    A.parent = B.parent = id;
    vectors[a] = vectors[b] = EMPTY;
    // Splice the new node in place of a and b.
    prev[id] = prev[a]!;
    next[id] = next[b]!;
    if (prev[a]! >= 0) next[prev[a]!] = id;
    else head = id;
    if (next[b]! >= 0) prev[next[b]!] = id;
  }
  return { attribute: attribute.name, metric, window, stride, order: sorted, nodes, leaves, root: head };
}

const EMPTY = { samples: new Float64Array(0), cycles: new Float64Array(0) };

/** |a − b|; a missing value is far from any value and as close as can be to another missing one. */
function distance(a: number, b: number): number {
  const na = a !== a,
    nb = b !== b;
  if (na || nb) return na && nb ? 0 : Infinity;
  return Math.abs(a - b);
}

/**
 * The nodes at `depth` below the root (the root is depth 0), with leaves that end higher up in
 * their place: MemAxes' tree-depth picker. In attribute order.
 */
export function clustersAtDepth(tree: ClusterTree, depth: number): number[] {
  if (tree.root < 0) return [];
  const out: number[] = [];
  const walk = (node: number, d: number) => {
    const x = tree.nodes[node]!;
    if (d === depth || x.left < 0) out.push(node);
    else {
      walk(x.left, d + 1);
      walk(x.right, d + 1);
    }
  };
  walk(tree.root, 0);
  return out;
}

/** The k clusters left before the last k − 1 merges, in attribute order. */
export function cutClusters(tree: ClusterTree, k: number): number[] {
  if (tree.root < 0) return [];
  const out = [tree.root];
  while (out.length < k) {
    let latest = -1;
    for (let j = 0; j < out.length; j++)
      if (tree.nodes[out[j]!]!.step >= 0 && (latest < 0 || tree.nodes[out[j]!]!.step > tree.nodes[out[latest]!]!.step))
        latest = j;
    if (latest < 0) break;
    const node = tree.nodes[out[latest]!]!;
    out.splice(latest, 1, node.left, node.right);
  }
  return out;
}

/** The samples of a cluster as an index set (for selecting it). */
export function clusterSamples(tree: ClusterTree, node: number): IndexSet {
  const x = tree.nodes[node]!;
  return toIndexSet(tree.order.subarray(x.start, x.end));
}

/**
 * Where consecutive clusters meet, as positions in the sorted samples: the middle of their overlap
 * (adjacent windows share w − Δ samples).
 */
export function clusterBoundaries(tree: ClusterTree, clusters: readonly number[]): number[] {
  const out: number[] = [];
  for (let j = 1; j < clusters.length; j++) {
    const a = tree.nodes[clusters[j - 1]!]!,
      b = tree.nodes[clusters[j]!]!;
    out.push((b.start + Math.min(a.end, b.end)) / 2);
  }
  return out;
}
