/**
 * The sparse form of one side of a metric: node i's non-zero values are `values[offsets[i] …
 * offsets[i + 1])` in the contexts `contexts[…]` of the same range, in ascending context order
 * (compressed sparse rows). Profiles are mostly zeros — a trace's call path runs on one thread, a
 * GPU kernel on one stream, most HPCToolkit contexts see a few ranks — so a node × context matrix
 * costs 10–100× the values it holds (issue 24: a 5.2 MB database allocated 509 MB, a 2 GB trace
 * 9.7 GB). Totals and inclusive ↔ exclusive derivation run on this form; dense matrices are made
 * only for the few analyses that read every cell.
 *
 * The derivations add and subtract in the order the dense ones did (`derive.ts`: a node's own value,
 * then its children's from the last child to the first), so both forms give bit-identical values.
 */
import { GrowableFloat64, GrowableInt32 } from './growable';

export interface SparseMatrix {
  /** Int32Array(nodes + 1): node i's entries are [offsets[i], offsets[i + 1]). */
  offsets: Int32Array;
  /** Context of each entry, ascending within a node. */
  contexts: Int32Array;
  /** Non-zero, finite value of each entry. */
  values: Float64Array;
}

/** A node-major matrix or the sparse form: what ProfileData carries per metric and side. */
export type MetricValues = Float64Array | SparseMatrix;

export function isSparse(v: MetricValues): v is SparseMatrix {
  return !(v instanceof Float64Array);
}

/** Number of nodes a sparse matrix has rows for. */
export function sparseNodeCount(s: SparseMatrix): number {
  return s.offsets.length - 1;
}

/** A sparse matrix without values for `nodes` nodes. */
export function emptySparse(nodes: number): SparseMatrix {
  return { offsets: new Int32Array(nodes + 1), contexts: new Int32Array(0), values: new Float64Array(0) };
}

/** Checks the shape of a sparse matrix against the profile it belongs to (O(1)); throws on a mismatch. */
export function checkSparseShape(s: SparseMatrix, nodes: number, what: string): void {
  if (s.offsets.length !== nodes + 1)
    throw new Error(`${what}: offsets for ${s.offsets.length - 1} nodes, not ${nodes}`);
  const n = s.offsets[nodes]!;
  if (s.offsets[0] !== 0 || n !== s.contexts.length || n !== s.values.length)
    throw new Error(`${what}: offsets end at ${n} for ${s.contexts.length} contexts and ${s.values.length} values`);
}

/**
 * The sparse form of (node, context, value) triples in any order: values for one node and context
 * are summed in the order given (Hatchet's rule for repeated records), zeros left out. A counting
 * sort by node (stable, so each row keeps the order values came in), then each row sorted by context
 * only when it is not already (readers that append context by context, or node by node, never sort).
 */
export function sparseFromTriples(
  nodes: Int32Array,
  contexts: Int32Array,
  values: Float64Array,
  nodeCount: number,
  contextCount: number,
  /** The caller never passes a zero (ProfileBuilder's triples): rows already in order are then moved whole, not value by value. */
  nonZero = false,
): SparseMatrix {
  const count = values.length;
  const offsets = new Int32Array(nodeCount + 1);
  for (let k = 0; k < count; k++) offsets[nodes[k]! + 1]!++;
  for (let i = 0; i < nodeCount; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, nodeCount);
  const ctx = new Int32Array(count);
  const val = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const at = fill[nodes[k]!]!++;
    ctx[at] = contexts[k]!;
    val[at] = values[k]!;
  }
  // Compact each row in place: sort by context when needed, sum duplicates, drop zeros.
  const acc = new Float64Array(contextCount);
  const stamp = new Int32Array(contextCount);
  let write = 0;
  let start = 0;
  for (let i = 0; i < nodeCount; i++) {
    const end = offsets[i + 1]!;
    offsets[i] = write;
    let ascending = true;
    for (let k = start + 1; k < end && ascending; k++) ascending = ctx[k]! > ctx[k - 1]!;
    if (ascending && nonZero) {
      if (write !== start) {
        ctx.copyWithin(write, start, end);
        val.copyWithin(write, start, end);
      }
      write += end - start;
    } else if (ascending) {
      for (let k = start; k < end; k++)
        if (val[k] !== 0) {
          ctx[write] = ctx[k]!;
          val[write++] = val[k]!;
        }
    } else {
      let distinct = 0;
      for (let k = start; k < end; k++) {
        const c = ctx[k]!;
        if (stamp[c] !== i + 1) {
          stamp[c] = i + 1;
          acc[c] = val[k]!;
          ctx[start + distinct++] = c;
        } else acc[c]! += val[k]!;
      }
      // The distinct contexts were written over the row's first entries, which were already read.
      const row = ctx.subarray(start, start + distinct).sort();
      for (let k = 0; k < distinct; k++) {
        const c = row[k]!;
        if (acc[c] !== 0) {
          ctx[write] = c;
          val[write++] = acc[c]!;
        }
      }
    }
    start = end;
  }
  offsets[nodeCount] = write;
  return {
    offsets,
    contexts: write === count ? ctx : ctx.slice(0, write),
    values: write === count ? val : val.slice(0, write),
  };
}

/** The sparse form of a node-major nodes × contexts matrix. */
export function sparseFromDense(matrix: Float64Array, contextCount: number): SparseMatrix {
  const nodes = contextCount === 0 ? 0 : matrix.length / contextCount;
  let count = 0;
  for (let k = 0; k < matrix.length; k++) if (matrix[k] !== 0) count++;
  const offsets = new Int32Array(nodes + 1);
  const contexts = new Int32Array(count);
  const values = new Float64Array(count);
  let write = 0;
  for (let i = 0, k = 0; i < nodes; i++) {
    offsets[i] = write;
    for (let c = 0; c < contextCount; c++, k++) {
      const v = matrix[k]!;
      if (v !== 0) {
        contexts[write] = c;
        values[write++] = v;
      }
    }
  }
  offsets[nodes] = write;
  return { offsets, contexts, values };
}

/** The node-major nodes × contexts matrix of a sparse form. */
export function denseFromSparse(s: SparseMatrix, contextCount: number): Float64Array {
  const nodes = sparseNodeCount(s);
  const out = new Float64Array(nodes * contextCount);
  const { offsets, contexts, values } = s;
  for (let i = 0; i < nodes; i++) {
    const base = i * contextCount;
    for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) out[base + contexts[k]!] = values[k]!;
  }
  return out;
}

/** Node i's values over contexts, written to `out[0 … contextCount)` (zeros where nothing is stored). */
export function sparseRow(s: SparseMatrix, i: number, out: Float64Array, contextCount: number): void {
  out.fill(0, 0, contextCount);
  const { contexts, values } = s;
  for (let k = s.offsets[i]!, end = s.offsets[i + 1]!; k < end; k++) out[contexts[k]!] = values[k]!;
}

/**
 * The rows of `nodes` one after another into `out[0 … nodes.length × contextCount)`, as
 * {@link sparseRow} of each: one loop, no view per row (a selection reads a few hundred rows in each
 * of a thousand runs, and a subarray per row was most of its time).
 */
export function sparseRows(s: SparseMatrix, nodes: Int32Array, out: Float64Array, contextCount: number): void {
  out.fill(0, 0, nodes.length * contextCount);
  const { offsets, contexts, values } = s;
  for (let j = 0; j < nodes.length; j++) {
    const i = nodes[j]!,
      base = j * contextCount;
    for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) out[base + contexts[k]!] = values[k]!;
  }
}

/** Node i's value in context c (binary search in its row). */
export function sparseValue(s: SparseMatrix, i: number, c: number): number {
  let lo = s.offsets[i]!,
    hi = s.offsets[i + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = s.contexts[mid]!;
    if (x === c) return s.values[mid]!;
    if (x < c) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/** Per-node sum over contexts (in ascending context order, as the dense sum). */
export function sparseRowSums(s: SparseMatrix): Float64Array {
  const nodes = sparseNodeCount(s);
  const out = new Float64Array(nodes);
  const { offsets, values } = s;
  for (let i = 0; i < nodes; i++) {
    let sum = 0;
    for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) sum += values[k]!;
    out[i] = sum;
  }
  return out;
}

/**
 * Per-node sum over a subset of contexts (`subset`: distinct context indices, in any order), walking
 * only the stored values: O(non-zeros) instead of O(nodes × contexts). Bit-identical to adding a
 * dense row's values in `subset` order: zeros add nothing (the sum starts at +0 and never becomes
 * −0 in round-to-nearest), and a row's values in the subset are added in subset order — the row's
 * own (ascending) order when the subset ascends, else sorted by their place in the subset.
 */
export function sparseSubsetSums(s: SparseMatrix, subset: Int32Array, contextCount: number): Float64Array {
  const nodes = sparseNodeCount(s);
  const out = new Float64Array(nodes);
  // place[c]: where context c stands in the subset, -1 outside it.
  const place = new Int32Array(contextCount).fill(-1);
  let ascending = true;
  for (let k = 0; k < subset.length; k++) {
    place[subset[k]!] = k;
    if (k > 0 && subset[k]! < subset[k - 1]!) ascending = false;
  }
  const { offsets, contexts, values } = s;
  if (ascending) {
    for (let i = 0; i < nodes; i++) {
      let sum = 0;
      for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) if (place[contexts[k]!]! >= 0) sum += values[k]!;
      out[i] = sum;
    }
    return out;
  }
  // Insertion sort of each row's selected values by place (rows hold at most the subset's size).
  const rowPlace = new Int32Array(subset.length);
  const rowValue = new Float64Array(subset.length);
  for (let i = 0; i < nodes; i++) {
    let m = 0;
    for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) {
      const p = place[contexts[k]!]!;
      if (p < 0) continue;
      let j = m++;
      for (; j > 0 && rowPlace[j - 1]! > p; j--) {
        rowPlace[j] = rowPlace[j - 1]!;
        rowValue[j] = rowValue[j - 1]!;
      }
      rowPlace[j] = p;
      rowValue[j] = values[k]!;
    }
    let sum = 0;
    for (let j = 0; j < m; j++) sum += rowValue[j]!;
    out[i] = sum;
  }
  return out;
}

/** The call tree's child lists (CallTree.childIndex): node i's children are list[start[i] … start[i + 1]). */
export interface ChildIndex {
  start: Int32Array;
  list: Int32Array;
}

/**
 * One row at a time: a dense accumulator over contexts with a stamp per context marking the row
 * it was last touched by, so rows cost their entries, not the context count.
 */
class RowAccumulator {
  private readonly acc: Float64Array;
  private readonly stamp: Int32Array;
  private readonly touched: Int32Array;
  private count = 0;
  private row = 0;

  constructor(private readonly contextCount: number) {
    this.acc = new Float64Array(contextCount);
    this.stamp = new Int32Array(contextCount);
    this.touched = new Int32Array(contextCount);
  }

  begin(): void {
    this.row++;
    this.count = 0;
  }

  add(s: SparseMatrix, i: number, sign: 1 | -1): void {
    this.addRange(s.contexts, s.values, s.offsets[i]!, s.offsets[i + 1]!, sign);
  }

  /** Adds (or subtracts) entries [from, to) of a row. */
  addRange(contexts: Int32Array, values: Float64Array, from: number, to: number, sign: 1 | -1): void {
    const { acc, stamp, touched, row } = this;
    for (let k = from; k < to; k++) {
      const c = contexts[k]!;
      if (stamp[c] !== row) {
        stamp[c] = row;
        acc[c] = sign * values[k]!;
        touched[this.count++] = c;
      } else if (sign > 0) acc[c]! += values[k]!;
      else acc[c]! -= values[k]!;
    }
  }

  /** Contexts touched by the row so far (an upper bound on the entries {@link emitAt} writes). */
  get touchedCount(): number {
    return this.count;
  }

  /**
   * Writes the row's non-zero values in ascending context order at `contexts[at…]`, `values[at…]`
   * (room for {@link touchedCount} entries) and returns the end. Sorts few contexts in place, so a
   * row allocates nothing.
   */
  emitAt(contexts: Int32Array, values: Float64Array, at: number): number {
    const { acc, stamp, row, count, touched } = this;
    if (count * 8 > this.contextCount) {
      for (let c = 0; c < this.contextCount; c++)
        if (stamp[c] === row && acc[c] !== 0) {
          contexts[at] = c;
          values[at++] = acc[c]!;
        }
      return at;
    }
    if (count > 32) touched.subarray(0, count).sort();
    else
      for (let k = 1; k < count; k++) {
        const c = touched[k]!;
        let j = k - 1;
        for (; j >= 0 && touched[j]! > c; j--) touched[j + 1] = touched[j]!;
        touched[j + 1] = c;
      }
    for (let k = 0; k < count; k++) {
      const c = touched[k]!;
      if (acc[c] !== 0) {
        contexts[at] = c;
        values[at++] = acc[c]!;
      }
    }
    return at;
  }

  /** Appends the row's non-zero values in ascending context order. */
  emit(contexts: GrowableInt32, values: GrowableFloat64): void {
    const { acc, stamp, row, count } = this;
    if (count * 8 > this.contextCount) {
      for (let c = 0; c < this.contextCount; c++)
        if (stamp[c] === row && acc[c] !== 0) {
          contexts.push(c);
          values.push(acc[c]!);
        }
      return;
    }
    const sorted = this.touched.subarray(0, count).sort();
    for (let k = 0; k < count; k++) {
      const c = sorted[k]!;
      if (acc[c] !== 0) {
        contexts.push(c);
        values.push(acc[c]!);
      }
    }
  }
}

/** inclusive[i] = exclusive[i] + Σ inclusive of i's children (children first: a reverse scan). */
export function sparseInclusiveFromExclusive(
  children: ChildIndex,
  exclusive: SparseMatrix,
  contextCount: number,
): SparseMatrix {
  const nodes = sparseNodeCount(exclusive);
  // Rows are made last node first into one pair of arrays (grown by doubling), then copied into node order.
  const rowStart = new Int32Array(nodes);
  const rowEnd = new Int32Array(nodes);
  let capacity = Math.max(16, exclusive.values.length * 2);
  let ctx = new Int32Array(capacity);
  let val = new Float64Array(capacity);
  let length = 0;
  const acc = new RowAccumulator(contextCount);
  const { start, list } = children;
  for (let i = nodes - 1; i >= 0; i--) {
    acc.begin();
    acc.add(exclusive, i, 1);
    for (let k = start[i + 1]! - 1; k >= start[i]!; k--) {
      const child = list[k]!;
      acc.addRange(ctx, val, rowStart[child]!, rowEnd[child]!, 1);
    }
    if (length + acc.touchedCount > capacity) {
      capacity = Math.max(capacity * 2, length + acc.touchedCount);
      const c = new Int32Array(capacity),
        v = new Float64Array(capacity);
      c.set(ctx.subarray(0, length));
      v.set(val.subarray(0, length));
      ctx = c;
      val = v;
    }
    rowStart[i] = length;
    length = acc.emitAt(ctx, val, length);
    rowEnd[i] = length;
  }
  return inNodeOrder(rowStart, rowEnd, ctx, val);
}

/** exclusive[i] = inclusive[i] − Σ inclusive of i's children. */
export function sparseExclusiveFromInclusive(
  children: ChildIndex,
  inclusive: SparseMatrix,
  contextCount: number,
): SparseMatrix {
  const nodes = sparseNodeCount(inclusive);
  const offsets = new Int32Array(nodes + 1);
  const ctx = new GrowableInt32(inclusive.contexts.length);
  const val = new GrowableFloat64(inclusive.values.length);
  const acc = new RowAccumulator(contextCount);
  const { start, list } = children;
  for (let i = 0; i < nodes; i++) {
    offsets[i] = ctx.length;
    acc.begin();
    acc.add(inclusive, i, 1);
    for (let k = start[i + 1]! - 1; k >= start[i]!; k--) acc.add(inclusive, list[k]!, -1);
    acc.emit(ctx, val);
  }
  offsets[nodes] = ctx.length;
  return { offsets, contexts: ctx.finish(), values: val.finish() };
}

function inNodeOrder(rowStart: Int32Array, rowEnd: Int32Array, ctx: Int32Array, val: Float64Array): SparseMatrix {
  const nodes = rowStart.length;
  const offsets = new Int32Array(nodes + 1);
  for (let i = 0; i < nodes; i++) offsets[i + 1] = offsets[i]! + rowEnd[i]! - rowStart[i]!;
  const contexts = new Int32Array(offsets[nodes]!);
  const values = new Float64Array(offsets[nodes]!);
  // Element by element: rows are short, and a subarray per row would be two allocations per node.
  for (let i = 0; i < nodes; i++) {
    let at = offsets[i]!;
    for (let k = rowStart[i]!, end = rowEnd[i]!; k < end; k++, at++) {
      contexts[at] = ctx[k]!;
      values[at] = val[k]!;
    }
  }
  return { offsets, contexts, values };
}

/** The typed arrays' buffers of a sparse matrix (to transfer or share). */
export function sparseBuffers(s: SparseMatrix): ArrayBufferLike[] {
  return [s.offsets.buffer, s.contexts.buffer, s.values.buffer];
}
