import type { CallTree } from '../model/call-tree';

/**
 * Marks the nodes whose key (≥ 0; -1 = no key) is not already held by an ancestor: the outermost
 * occurrence of each key on every root-to-leaf path. Summing inclusive values over marked nodes
 * counts recursion once (a recursive call's cost is already inside its outer occurrence). One
 * iterative depth-first walk with an active count per key: O(n), no recursion.
 */
export function outermostByKey(tree: CallTree, key: Int32Array, keyCount: number): Uint8Array {
  const active = new Int32Array(keyCount);
  const outermost = new Uint8Array(tree.size);
  const stack: number[] = tree.roots().reverse();
  while (stack.length) {
    const v = stack.pop()!;
    if (v < 0) {
      const k = key[~v]!;
      if (k >= 0) active[k]!--;
      continue;
    }
    const k = key[v]!;
    if (k >= 0) {
      if (active[k] === 0) outermost[v] = 1;
      active[k]!++;
      stack.push(~v);
    }
    const ch = tree.children(v);
    for (let c = ch.length - 1; c >= 0; c--) stack.push(ch[c]!);
  }
  return outermost;
}
