import { NodeKind } from './call-tree';
import type { Profile } from './profile';

/** Function-like node kinds: they own the statements and loops below them. */
function ownsCost(kind: number): boolean {
  return kind === NodeKind.Function || kind === NodeKind.Region;
}

export interface FunctionTotals {
  /** Function names, one entry per distinct function. */
  names: string[];
  /** Σ exclusive over contexts of the function's own nodes and the statements/loops it owns. */
  exclusive: Float64Array;
  /** Σ inclusive over contexts of the function's outermost nodes (recursion counted once). */
  inclusive: Float64Array;
  /** Function index of every call-tree node (its own function, or the function that owns it), or -1. */
  functionOfNode: Int32Array;
  /** 1 for nodes that are the outermost frame of their function on their path. */
  outermost: Uint8Array;
}

/**
 * Totals per function for metric m, in O(n): exclusive cost is charged to the owning function;
 * inclusive cost is taken only at nodes with no ancestor of the same function, so recursive calls
 * are not counted twice. Functions are identified by name.
 */
export function functionTotals(profile: Profile, m: number): FunctionTotals {
  const tree = profile.tree;
  const { parent, kind, name } = tree.columns;
  const excl = profile.exclusiveTotals(m);
  const incl = profile.inclusiveTotals(m);
  const indexOfName = new Map<number, number>();
  const names: string[] = [];
  const functionOfNode = new Int32Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    if (ownsCost(kind[i]!)) {
      let f = indexOfName.get(name[i]!);
      if (f === undefined) {
        f = names.length;
        indexOfName.set(name[i]!, f);
        names.push(tree.strings.get(name[i]!));
      }
      functionOfNode[i] = f;
    } else {
      functionOfNode[i] = parent[i]! >= 0 ? functionOfNode[parent[i]!]! : -1;
    }
  }
  const exclusive = new Float64Array(names.length);
  for (let i = 0; i < tree.size; i++) if (functionOfNode[i]! >= 0) exclusive[functionOfNode[i]!]! += excl[i]!;

  // Depth-first walk with a count of active frames per function: only the outermost frame adds.
  const inclusive = new Float64Array(names.length);
  const active = new Int32Array(names.length);
  const outermost = new Uint8Array(tree.size);
  const stack: number[] = [];
  for (const r of tree.roots()) stack.push(r);
  // The child index itself, not a subarray per node (10⁶ allocations on large profiles).
  const { start, list } = tree.childIndex();
  while (stack.length) {
    const v = stack.pop()!;
    if (v < 0) {
      const i = ~v;
      if (ownsCost(kind[i]!)) active[functionOfNode[i]!]!--;
      continue;
    }
    if (ownsCost(kind[v]!)) {
      const f = functionOfNode[v]!;
      if (active[f] === 0) {
        inclusive[f]! += incl[v]!;
        outermost[v] = 1;
      }
      active[f]!++;
    }
    stack.push(~v);
    for (let k = start[v + 1]! - 1; k >= start[v]!; k--) stack.push(list[k]!);
  }
  return { names, exclusive, inclusive, functionOfNode, outermost };
}

export interface LineCost {
  line: number;
  /** Σ exclusive over contexts of the nodes at this line. */
  exclusive: number;
  /** Call-tree nodes located at this line. */
  nodes: number[];
}

/**
 * The node whose source line each node's own cost belongs to (-1: none): its own file and line.
 * Where frames' lines are call-stack lines (ProfileData.callStackLines: Kineto), an event without
 * a location (an operator, a runtime call, a GPU kernel under its launch) belongs to the innermost
 * enclosing frame that has one — the Python `file(line)` or C `file(line)` frame of its call
 * stack, the line whose execution it is.
 */
export function lineOwners(profile: Profile): Int32Array {
  const tree = profile.tree;
  const { parent, file, line } = tree.columns;
  const trace = profile.data.callStackLines === true;
  const owner = new Int32Array(tree.size).fill(-1);
  // Parents precede children in the tree's columns.
  for (let i = 0; i < tree.size; i++) {
    if (file[i] !== 0 && line[i]! > 0) owner[i] = i;
    else if (trace && parent[i]! >= 0) owner[i] = owner[parent[i]!]!;
  }
  return owner;
}

/**
 * Exclusive cost per source line, grouped by the file path as the profile records it. Every node
 * contributes its exclusive value to its line (lineOwners: its own, or in a trace the innermost
 * enclosing frame's); the model keeps exclusive values disjoint, so nothing is counted twice.
 */
export function lineCosts(profile: Profile, m: number): Map<string, LineCost[]> {
  const tree = profile.tree;
  const excl = profile.exclusiveTotals(m);
  const byFile = new Map<number, Map<number, LineCost>>();
  const { file, line } = tree.columns;
  const owner = lineOwners(profile);
  for (let i = 0; i < tree.size; i++) {
    const o = owner[i]!;
    if (o < 0) continue;
    const f = file[o]!,
      l = line[o]!;
    let lines = byFile.get(f);
    if (!lines) byFile.set(f, (lines = new Map()));
    let c = lines.get(l);
    if (!c) lines.set(l, (c = { line: l, exclusive: 0, nodes: [] }));
    c.exclusive += excl[i]!;
    c.nodes.push(i);
  }
  const out = new Map<string, LineCost[]>();
  for (const [f, lines] of byFile)
    out.set(
      tree.strings.get(f),
      [...lines.values()].sort((a, b) => a.line - b.line),
    );
  return out;
}

/** Inclusive value per function and context (function-major), from the outermost frames. */
export function functionInclusiveByContext(profile: Profile, m: number, totals: FunctionTotals): Float64Array {
  const C = profile.contextCount;
  const { offsets, contexts, values } = profile.sparse('inclusive', m);
  const out = new Float64Array(totals.names.length * C);
  for (let i = 0; i < profile.tree.size; i++) {
    if (!totals.outermost[i]) continue;
    const base = totals.functionOfNode[i]! * C;
    for (let k = offsets[i]!, end = offsets[i + 1]!; k < end; k++) out[base + contexts[k]!]! += values[k]!;
  }
  return out;
}
