import type { CallTreeBuilder, NodeKind } from '../../model/call-tree';

/**
 * Paths of names (region paths, call paths) collected while records stream in, before they become
 * the profile's call tree. A node is identified by its name path, as in Hatchet: two regions with
 * the same names from the root are one node, whatever attribute (function, loop, …) named them.
 * Nodes are created parents first, so the tree can be copied into a CallTreeBuilder in one pass.
 */
export class NameTree {
  // Plain arrays: the builtin push and element reads cost no call of ours in a cold process.
  private readonly parents: number[] = [];
  private readonly kinds: NodeKind[] = [];
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  get size(): number {
    return this.names.length;
  }

  /** The child of `parent` (-1 for a root) with this name, created on first use with `kind`. */
  child(parent: number, name: string, kind: NodeKind): number {
    const key = `${parent}\u0001${name}`;
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.parents.push(parent);
      this.kinds.push(kind);
      this.index.set(key, id);
    }
    return id;
  }

  /** The node at the end of `names` (root first) under `parent`, or `parent` for an empty path. */
  path(names: readonly string[], kind: (name: string, depth: number) => NodeKind, parent = -1): number {
    let node = parent;
    for (let d = 0; d < names.length; d++) node = this.child(node, names[d]!, kind(names[d]!, d));
    return node;
  }

  parent(node: number): number {
    return this.parents[node]!;
  }

  /** The copy of `node`'s path (root first) under `base`: for records whose path spans several context nodes. */
  graft(base: number, node: number): number {
    const chain: number[] = [];
    for (let n = node; n >= 0; n = this.parents[n]!) chain.push(n);
    let at = base;
    for (let k = chain.length - 1; k >= 0; k--) at = this.child(at, this.names[chain[k]!]!, this.kinds[chain[k]!]!);
    return at;
  }

  /**
   * Adds the nodes to the call tree in creation order and returns the model node of each (-1 for
   * nodes left out). With `used`, only the given nodes and their ancestors are added.
   */
  addTo(tree: CallTreeBuilder, used?: ArrayLike<number>): Int32Array {
    const n = this.names.length;
    let keep: Uint8Array | null = null;
    if (used) {
      keep = new Uint8Array(n);
      for (let k = 0; k < used.length; k++) {
        for (let v = used[k]!; v >= 0 && !keep[v]; v = this.parents[v]!) keep[v] = 1;
      }
    }
    const model = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      if (keep && !keep[i]) continue;
      const p = this.parents[i]!;
      model[i] = tree.add(p < 0 ? -1 : model[p]!, this.names[i] || '<unnamed>', this.kinds[i]!);
    }
    return model;
  }
}
