/**
 * Stable cluster identities across ticks (thesis §6.3.2: "cluster-ID consistency"; seed digest §5.3
 * item 4: Hungarian matching on the full contingency table instead of the greedy pass). New
 * clusters take the identity of the previous cluster they share most members with.
 */

/**
 * Minimum-cost assignment (Hungarian algorithm with potentials, O(r²·c)) for an r × c cost matrix
 * (row-major): the column of each row, −1 for the rows left over when r > c.
 */
export function hungarianAssignment(cost: ArrayLike<number>, rows: number, cols: number): Int32Array {
  if (cost.length !== rows * cols) throw new RangeError(`a ${rows} × ${cols} cost matrix needs ${rows * cols} values`);
  if (rows > cols) {
    // Solve the transpose (fewer rows than columns) and invert the answer.
    const t = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) t[j * rows + i] = cost[i * cols + j]!;
    const colOfRow = new Int32Array(rows).fill(-1);
    hungarianAssignment(t, cols, rows).forEach((i, j) => {
      if (i >= 0) colOfRow[i] = j;
    });
    return colOfRow;
  }
  // 1-based arrays of the classic formulation; p[j] is the row matched to column j.
  const u = new Float64Array(rows + 1),
    v = new Float64Array(cols + 1),
    p = new Int32Array(cols + 1),
    way = new Int32Array(cols + 1),
    minv = new Float64Array(cols + 1),
    used = new Uint8Array(cols + 1);
  for (let i = 1; i <= rows; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity,
        j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * cols + (j - 1)]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  const colOfRow = new Int32Array(rows).fill(-1);
  for (let j = 1; j <= cols; j++) if (p[j]! > 0) colOfRow[p[j]! - 1] = j - 1;
  return colOfRow;
}

/**
 * Renames the clusters of `next` (labels 0…k−1) after those of `previous` (any non-negative
 * labels, −1 for entities without one): the assignment that maximises the number of entities
 * keeping their label (Hungarian on the overlap table). Clusters without a partner take the
 * smallest labels not in use. Returns the relabelled copy and the new → stable label map.
 */
export function matchLabels(
  previous: ArrayLike<number>,
  next: ArrayLike<number>,
  k: number,
): { labels: Int32Array; mapping: Int32Array } {
  const n = next.length;
  if (previous.length !== n)
    throw new RangeError(`label matching needs equal lengths, got ${previous.length} and ${n}`);
  let prevK = 0;
  for (let i = 0; i < n; i++) if (previous[i]! + 1 > prevK) prevK = previous[i]! + 1;
  const mapping = new Int32Array(k).fill(-1);
  if (prevK > 0) {
    const overlap = new Float64Array(k * prevK);
    for (let i = 0; i < n; i++) {
      const a = next[i]!,
        b = previous[i]!;
      if (a >= 0 && a < k && b >= 0) overlap[a * prevK + b]!--;
    }
    hungarianAssignment(overlap, k, prevK).forEach((b, a) => {
      // A pairing with no shared member keeps no identity worth keeping.
      if (b >= 0 && overlap[a * prevK + b]! < 0) mapping[a] = b;
    });
  }
  const taken = new Set<number>(Array.from(mapping).filter(x => x >= 0));
  let free = 0;
  for (let a = 0; a < k; a++) {
    if (mapping[a]! >= 0) continue;
    while (taken.has(free)) free++;
    mapping[a] = free;
    taken.add(free);
  }
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) labels[i] = next[i]! >= 0 ? mapping[next[i]!]! : -1;
  return { labels, mapping };
}
