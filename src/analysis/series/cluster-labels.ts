/**
 * Cluster labels are canonical in this library: clusters are numbered in order of their first
 * member, so cluster 0 is the one holding entity 0, cluster 1 the one holding the lowest entity
 * outside cluster 0, and so on. The same partition then gets the same numbers (and colours)
 * whichever algorithm, restart or seed found it.
 */

/** Renumbers labels in order of first appearance; returns the new labels and old → new mapping. */
export function canonicalLabels(labels: Int32Array): { labels: Int32Array; mapping: Map<number, number> } {
  const mapping = new Map<number, number>();
  const out = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const old = labels[i]!;
    let next = mapping.get(old);
    if (next === undefined) {
      next = mapping.size;
      mapping.set(old, next);
    }
    out[i] = next;
  }
  return { labels: out, mapping };
}

/** Number of members of each cluster 0 … k−1. */
export function clusterSizes(labels: Int32Array, k: number): Int32Array {
  const sizes = new Int32Array(k);
  for (let i = 0; i < labels.length; i++) sizes[labels[i]!]!++;
  return sizes;
}

const pairs = (x: number) => (x * (x - 1)) / 2;

/**
 * Adjusted Rand index (Hubert & Arabie 1985) between two labellings of the same items: 1 for the
 * same partition whatever the numbering, about 0 for independent ones, negative below chance.
 * Two partitions that are both all-in-one (or all singletons) agree fully: 1.
 */
export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  if (b.length !== n)
    throw new RangeError(`adjusted Rand index needs labellings of equal length, got ${n} and ${b.length}`);
  const joint = new Map<string, number>(),
    rowSums = new Map<number, number>(),
    colSums = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const x = a[i]!,
      y = b[i]!;
    const key = `${x}\u0000${y}`;
    joint.set(key, (joint.get(key) ?? 0) + 1);
    rowSums.set(x, (rowSums.get(x) ?? 0) + 1);
    colSums.set(y, (colSums.get(y) ?? 0) + 1);
  }
  let index = 0,
    rows = 0,
    cols = 0;
  for (const c of joint.values()) index += pairs(c);
  for (const c of rowSums.values()) rows += pairs(c);
  for (const c of colSums.values()) cols += pairs(c);
  const expected = n > 1 ? (rows * cols) / pairs(n) : 0;
  const max = (rows + cols) / 2;
  if (max === expected) return 1;
  return (index - expected) / (max - expected);
}
