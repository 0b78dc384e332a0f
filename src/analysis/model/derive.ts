/**
 * Derivations between inclusive and exclusive values on node-major matrices (value of node i in
 * context c at i * contexts + c). Both rely on parents preceding children, so one reverse scan
 * suffices: O(nodes × contexts), no recursion.
 */

/** inclusive[i] = exclusive[i] + Σ inclusive of i's children. */
export function inclusiveFromExclusive(parent: Int32Array, exclusive: Float64Array, contexts: number): Float64Array {
  const inclusive = exclusive.slice();
  for (let i = parent.length - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p < 0) continue;
    const from = i * contexts;
    const to = p * contexts;
    for (let c = 0; c < contexts; c++) inclusive[to + c]! += inclusive[from + c]!;
  }
  return inclusive;
}

/** exclusive[i] = inclusive[i] − Σ inclusive of i's children. */
export function exclusiveFromInclusive(parent: Int32Array, inclusive: Float64Array, contexts: number): Float64Array {
  const exclusive = inclusive.slice();
  for (let i = parent.length - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p < 0) continue;
    const from = i * contexts;
    const to = p * contexts;
    for (let c = 0; c < contexts; c++) exclusive[to + c]! -= inclusive[from + c]!;
  }
  return exclusive;
}

/** Per-node sum over contexts of a node-major matrix. */
export function sumOverContexts(matrix: Float64Array, contexts: number): Float64Array {
  const n = contexts === 0 ? 0 : matrix.length / contexts;
  const out = new Float64Array(n);
  for (let i = 0, k = 0; i < n; i++) {
    let s = 0;
    for (let c = 0; c < contexts; c++) s += matrix[k++]!;
    out[i] = s;
  }
  return out;
}
