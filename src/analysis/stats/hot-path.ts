import type { Profile } from '../model/profile';
import { shareOf } from './share';
import { topIndices } from './top-k';

/** One node on a hot path, with metric m summed over contexts. */
export interface HotPathStep {
  node: number;
  /** Depth in the call tree (roots are 0). */
  depth: number;
  inclusive: number;
  exclusive: number;
  /** inclusive / profile total. */
  share: number;
  /** exclusive / profile total. */
  exclusiveShare: number;
}

export type HotPath = HotPathStep[];

/** hpcviewer's default: a child stays on the hot path while it holds ≥ 5 % of the total. */
export const DEFAULT_HOT_PATH_THRESHOLD = 0.05;

/**
 * hpcviewer's hot path from `start`: follow the child with the largest inclusive value (the first
 * child on ties) while that child holds at least `threshold` of the profile total. `start` itself
 * is always the first step. A profile whose total is not positive has no heavy child, so the path
 * is `start` alone. O(n) for the profile total, then O(depth × fan-out).
 */
export function hotPathFrom(
  profile: Profile,
  m: number,
  start: number,
  threshold = DEFAULT_HOT_PATH_THRESHOLD,
): HotPath {
  if (!(start >= 0 && start < profile.tree.size)) throw new RangeError(`node ${start} does not exist`);
  return follow(profile, m, profile.total(m), start, threshold);
}

/**
 * The hot path of every root that itself holds at least `threshold` of the total, heaviest root
 * first (most profiles have one root; Caliper and sampling profiles often have several).
 */
export function rootHotPaths(profile: Profile, m: number, threshold = DEFAULT_HOT_PATH_THRESHOLD): HotPath[] {
  const total = profile.total(m);
  if (!(total > 0)) return [];
  const incl = profile.inclusiveTotals(m);
  const roots = profile.tree.roots();
  const heavy = topIndices(
    roots.map(r => incl[r]!),
    roots.length,
    k => incl[roots[k]!]! >= threshold * total,
  );
  return heavy.map(k => follow(profile, m, total, roots[k]!, threshold));
}

/**
 * The `count` heaviest root-to-leaf paths, ranked by the leaf's inclusive value (largest first,
 * lower node id on ties); leaves with no cost are left out. Each path ends at a distinct leaf,
 * so the paths are distinct. O(n log count) plus the path lengths.
 */
export function heaviestLeafPaths(profile: Profile, m: number, count: number): HotPath[] {
  const tree = profile.tree;
  const incl = profile.inclusiveTotals(m);
  const isLeaf = new Uint8Array(tree.size).fill(1);
  for (let i = 0; i < tree.size; i++) {
    const p = tree.parent(i);
    if (p >= 0) isLeaf[p] = 0;
  }
  const total = profile.total(m);
  const leaves = topIndices(incl, count, i => isLeaf[i] === 1 && incl[i]! > 0);
  return leaves.map(leaf => {
    const nodes: number[] = [];
    for (let n = leaf; n !== -1; n = tree.parent(n)) nodes.push(n);
    return nodes.reverse().map((node, depth) => step(profile, m, total, node, depth));
  });
}

function follow(profile: Profile, m: number, total: number, start: number, threshold: number): HotPath {
  const incl = profile.inclusiveTotals(m);
  const path = [step(profile, m, total, start, profile.tree.depth(start))];
  if (!(total > 0)) return path;
  for (let node = start; ;) {
    let heaviest = -1;
    for (const c of profile.tree.children(node)) if (heaviest < 0 || incl[c]! > incl[heaviest]!) heaviest = c;
    if (heaviest < 0 || incl[heaviest]! < threshold * total) return path;
    node = heaviest;
    path.push(step(profile, m, total, node, path[path.length - 1]!.depth + 1));
  }
}

function step(profile: Profile, m: number, total: number, node: number, depth: number): HotPathStep {
  const inclusive = profile.inclusiveTotals(m)[node]!;
  const exclusive = profile.exclusiveTotals(m)[node]!;
  return {
    node,
    depth,
    inclusive,
    exclusive,
    share: shareOf(inclusive, total),
    exclusiveShare: shareOf(exclusive, total),
  };
}
