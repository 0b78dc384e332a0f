import { NodeKind, type CallTree } from '../model/call-tree';

/**
 * CallFlow's filter of the calling-context tree (thesis §3.2.1): which call-tree nodes the super
 * graph draws and which it folds into their callers.
 *
 * - A **function** (identified by name) is kept when its filtered value reaches `threshold` × Σ root
 *   inclusive: with `by: 'inclusive'` the total inclusive value of its outermost instances
 *   (recursion counts once), with `by: 'exclusive'` the total exclusive value of all its instances.
 *   Filtering per function, not per node, never loses a function that matters in aggregate even
 *   when each of its thousands of calling contexts is tiny (AT-17).
 * - An **instance** is drawn, by inclusive value, only when its function and every function on its
 *   path from the root are kept: a kept function reached through a removed wrapper stays folded
 *   (the thesis' filter removes whole subtrees, which is what makes 0.1 % remove 70–80 % of the
 *   nodes). By exclusive value a caller with little time of its own leads to the expensive callees,
 *   so the ancestor paths of the kept call sites are drawn too (as CallFlow's reference code does)
 *   — through callers that matter by inclusive or by exclusive value: a kept function called from
 *   thousands of insignificant contexts (Go's `time.Now` under every wrapper) would otherwise drag
 *   all of them in, which is what a filter is there to prevent; those call sites fold into the
 *   nearest significant caller.
 * - Every other instance is **folded** into its nearest drawn ancestor: its time stays in that
 *   ancestor's inclusive value (the part of the bar below its outgoing links), never as exclusive.
 * Loops and statements share the fate of the function that owns them. Threshold 0 draws everything.
 */

export type FilterBy = 'inclusive' | 'exclusive';

/** Function-like kinds own the loops and statements below them. */
export function ownsCost(kind: number): boolean {
  return kind === NodeKind.Function || kind === NodeKind.Region;
}

/** Which function every call-tree node belongs to. Depends only on the tree: cached per tree. */
export interface FunctionIndex {
  /** The function-like node (or root) that owns each node: itself for functions. */
  owner: Int32Array;
  /** Dense function id of each node (its owner's name), 0 … count − 1. */
  fnKey: Int32Array;
  /** Name (string id) of each function id. */
  fnName: Int32Array;
  /** Function id of each string id, -1 for strings that name no function. */
  fnOfName: Int32Array;
  count: number;
}

const indexCache = new WeakMap<CallTree, FunctionIndex>();

export function functionIndex(tree: CallTree): FunctionIndex {
  let index = indexCache.get(tree);
  if (index) return index;
  const n = tree.size;
  const { parent, kind, name } = tree.columns;
  const owner = new Int32Array(n);
  const fnOfName = new Int32Array(tree.strings.size).fill(-1);
  const fnKey = new Int32Array(n);
  const names: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p < 0 || ownsCost(kind[i]!)) {
      owner[i] = i;
      const nm = name[i]!;
      if (fnOfName[nm] === -1) {
        fnOfName[nm] = names.length;
        names.push(nm);
      }
    } else owner[i] = owner[p]!;
    fnKey[i] = fnOfName[name[owner[i]!]!]!;
  }
  index = { owner, fnKey, fnName: Int32Array.from(names), fnOfName, count: names.length };
  indexCache.set(tree, index);
  return index;
}

export interface CallTreeFilter {
  threshold: number;
  by: FilterBy;
  /** threshold × Σ root inclusive. */
  absolute: number;
  /** Per function id: the value compared with `absolute`. */
  functionValue: Float64Array;
  /** Per function id: 1 when the function reaches the threshold. */
  functionKept: Uint8Array;
  /** Per call-tree node: 1 when drawn, 0 when folded into its nearest drawn ancestor. */
  drawn: Uint8Array;
}

/**
 * Applies the filter. `inclusive` and `exclusive` are per-node values over the selected contexts;
 * `total` is Σ root inclusive of those. O(n) with one depth-first pass for the outermost instances.
 */
export function filterCallTree(
  tree: CallTree,
  inclusive: Float64Array,
  exclusive: Float64Array,
  total: number,
  threshold: number,
  by: FilterBy,
): CallTreeFilter {
  const n = tree.size;
  const { parent } = tree.columns;
  const { owner, fnKey, count } = functionIndex(tree);
  const absolute = threshold * total;
  const functionValue = new Float64Array(count);
  if (by === 'exclusive') {
    for (let i = 0; i < n; i++) functionValue[fnKey[i]!]! += exclusive[i]!;
  } else outermostInclusive(tree, owner, fnKey, inclusive, functionValue);
  const functionKept = new Uint8Array(count);
  for (let f = 0; f < count; f++) functionKept[f] = threshold === 0 || functionValue[f]! >= absolute ? 1 : 0;

  const drawn = new Uint8Array(n);
  if (threshold === 0) drawn.fill(1);
  else if (by === 'inclusive') {
    // Parents precede children: one forward scan decides every node from its parent.
    for (let i = 0; i < n; i++) {
      const p = parent[i]!;
      drawn[i] = functionKept[fnKey[i]!]! && (p < 0 || drawn[p]!) ? 1 : 0;
    }
  } else {
    // Significant callers: kept by exclusive value, or by the inclusive rule's value.
    const byInclusive = new Float64Array(count);
    outermostInclusive(tree, owner, fnKey, inclusive, byInclusive);
    const reachable = new Uint8Array(n); // every function from the root down to here is significant
    for (let i = 0; i < n; i++) {
      const f = fnKey[i]!,
        p = parent[i]!;
      reachable[i] = (functionKept[f] || byInclusive[f]! >= absolute) && (p < 0 || reachable[p]) ? 1 : 0;
    }
    for (let i = 0; i < n; i++) if (owner[i] === i && functionKept[fnKey[i]!] && reachable[i]) drawn[i] = 1;
    // Ancestor paths of kept call sites (all reachable): the function owning a drawn site's caller, and up.
    for (let i = n - 1; i >= 0; i--) if (drawn[i] && parent[i]! >= 0) drawn[owner[parent[i]!]!] = 1;
    for (let i = 0; i < n; i++) if (owner[i] !== i) drawn[i] = drawn[owner[i]!]!;
  }
  return { threshold, by, absolute, functionValue, functionKept, drawn };
}

/** Σ inclusive of each function's outermost instances (recursion counted once), by function id. */
function outermostInclusive(
  tree: CallTree,
  owner: Int32Array,
  fnKey: Int32Array,
  inclusive: Float64Array,
  out: Float64Array,
): void {
  const { start, list } = tree.childIndex();
  const active = new Int32Array(out.length);
  const roots = tree.roots();
  const stack = new Int32Array(2 * tree.size + 1);
  let top = 0;
  for (let r = roots.length - 1; r >= 0; r--) stack[top++] = roots[r]!;
  while (top > 0) {
    const v = stack[--top]!;
    if (v < 0) {
      active[fnKey[~v]!]!--;
      continue;
    }
    if (owner[v] === v) {
      const f = fnKey[v]!;
      if (active[f] === 0) out[f]! += inclusive[v]!;
      active[f]!++;
      stack[top++] = ~v;
    }
    for (let c = start[v + 1]! - 1; c >= start[v]!; c--) stack[top++] = list[c]!;
  }
}
