import { throwIfAborted } from '../model/cancellation';
import { canonicalLabels } from './cluster-labels';
import { asCondensed } from './distance-matrix';

/**
 * A dendrogram in SciPy's linkage layout: row r merges clusters `left[r]` and `right[r]` at
 * `heights[r]` into a cluster of `sizes[r]` items. Ids below `leaves` are single items; id
 * leaves + s is the cluster made by row s. Rows are in increasing height.
 */
export interface Dendrogram {
  leaves: number;
  left: Int32Array;
  right: Int32Array;
  heights: Float64Array;
  sizes: Int32Array;
}

/**
 * Agglomerative clustering with complete linkage (thesis §5.3.2): the distance between two clusters
 * is the largest distance between their members. Nearest-neighbour-chain algorithm (Murtagh 1983;
 * Müllner 2011 §3) with the Lance–Williams update d(k, i∪j) = max(d(k, i), d(k, j)): O(n²) time and
 * one condensed copy of the distances, the same dendrogram as the naive O(n³) algorithm because
 * complete linkage is reducible. Takes condensed or square distances.
 */
export function completeLinkage(
  distances: Float64Array,
  n: number,
  options: { signal?: AbortSignal } = {},
): Dendrogram {
  const D = asCondensed(distances, n).slice();
  const rowStart = new Float64Array(n);
  for (let i = 0; i < n; i++) rowStart[i] = n * i - (i * (i + 1)) / 2 - i - 1;
  const at = (i: number, j: number) => (i < j ? rowStart[i]! + j : rowStart[j]! + i);
  const active = new Uint8Array(n).fill(1);
  // Merges as found (slot ids: a merged cluster lives on in the slot of its second member).
  const foundA = new Int32Array(Math.max(0, n - 1)),
    foundB = new Int32Array(Math.max(0, n - 1)),
    foundH = new Float64Array(Math.max(0, n - 1));
  const chain = new Int32Array(n);
  let chainLength = 0,
    firstActive = 0;
  for (let merge = 0; merge < n - 1; merge++) {
    if ((merge & 63) === 0) throwIfAborted(options.signal);
    if (chainLength === 0) {
      while (!active[firstActive]) firstActive++;
      chain[chainLength++] = firstActive;
    }
    // Grow the chain of nearest neighbours until its last two are each other's nearest.
    const { a, b, dab } = ((): { a: number; b: number; dab: number } => {
      for (;;) {
        const a = chain[chainLength - 1]!;
        const previous = chainLength > 1 ? chain[chainLength - 2]! : -1;
        // Nearest active neighbour of a; prefer the previous chain element on ties (termination).
        let b = previous,
          dab = previous >= 0 ? D[at(a, previous)]! : Infinity;
        for (let x = 0; x < n; x++) {
          if (!active[x] || x === a) continue;
          const v = D[at(a, x)]!;
          if (v < dab) {
            dab = v;
            b = x;
          }
        }
        if (b === previous) return { a, b, dab };
        chain[chainLength++] = b;
      }
    })();
    chainLength -= 2;
    // Merge a into b's slot (kept active), with the complete-linkage update.
    for (let x = 0; x < n; x++) {
      if (!active[x] || x === a || x === b) continue;
      const ax = D[at(a, x)]!,
        bx = D[at(b, x)]!;
      D[at(b, x)] = ax > bx ? ax : bx;
    }
    active[a] = 0;
    foundA[merge] = a;
    foundB[merge] = b;
    foundH[merge] = dab;
  }
  return toLinkage(foundA, foundB, foundH, n);
}

/** Sorts the found merges by height (stable) and renames slots to SciPy cluster ids via union–find. */
function toLinkage(foundA: Int32Array, foundB: Int32Array, foundH: Float64Array, n: number): Dendrogram {
  const m = foundH.length;
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => foundH[x]! - foundH[y]! || x - y);
  const parent = new Int32Array(n).map((_, i) => i);
  const clusterId = new Int32Array(n).map((_, i) => i);
  const size = new Int32Array(n).fill(1);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const left = new Int32Array(m),
    right = new Int32Array(m),
    heights = new Float64Array(m),
    sizes = new Int32Array(m);
  order.forEach((f, r) => {
    const ra = find(foundA[f]!),
      rb = find(foundB[f]!);
    const ia = clusterId[ra]!,
      ib = clusterId[rb]!;
    left[r] = Math.min(ia, ib);
    right[r] = Math.max(ia, ib);
    heights[r] = foundH[f]!;
    sizes[r] = size[ra]! + size[rb]!;
    parent[ra] = rb;
    size[rb] = sizes[r]!;
    clusterId[rb] = n + r;
  });
  return { leaves: n, left, right, heights, sizes };
}

/**
 * Cuts a dendrogram into k clusters (applies its first n − k merges): canonical labels, cluster 0
 * holding item 0. Ties at the cut height follow the dendrogram's row order.
 */
export function cutDendrogram(dendrogram: Dendrogram, k: number): Int32Array {
  const n = dendrogram.leaves;
  if (!Number.isInteger(k) || k < 1 || k > Math.max(1, n))
    throw new RangeError(`a dendrogram of ${n} items cuts into 1…${n} clusters, not ${k}`);
  const parent = new Int32Array(2 * n).map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (let r = 0; r < n - k; r++) {
    parent[find(dendrogram.left[r]!)] = n + r;
    parent[find(dendrogram.right[r]!)] = n + r;
  }
  const roots = new Int32Array(n);
  for (let i = 0; i < n; i++) roots[i] = find(i);
  return canonicalLabels(roots).labels;
}

/** Complete-linkage clusters cut at k, with the dendrogram (for views that draw sub-groups). */
export function completeLinkageClusters(
  distances: Float64Array,
  n: number,
  k = 3,
  options: { signal?: AbortSignal } = {},
): { labels: Int32Array; dendrogram: Dendrogram } {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (n < k) throw new RangeError(`complete linkage needs at least k = ${k} items, got ${n}`);
  const dendrogram = completeLinkage(distances, n, options);
  return { labels: cutDendrogram(dendrogram, k), dendrogram };
}
