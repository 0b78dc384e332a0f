import { NodeKind } from './call-tree';
import type { Profile } from './profile';

/**
 * Where a node's source is: its own location, else that of its heaviest child statement (sampling
 * profiles put locations on statement children of the function).
 */
export function sourceOf(profile: Profile, node: number): { file: string | null; line: number | null } {
  const tree = profile.tree;
  if (tree.file(node)) return { file: tree.file(node), line: tree.line(node) };
  const incl = profile.inclusiveTotals(profile.primaryMetric);
  let best = -1;
  for (const c of tree.children(node)) {
    if (tree.kind(c) === NodeKind.Statement && tree.file(c) && (best < 0 || incl[c]! > incl[best]!)) best = c;
  }
  return best >= 0 ? { file: tree.file(best), line: tree.line(best) } : { file: null, line: null };
}
