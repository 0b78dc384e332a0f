import type { Profile } from '../model/profile';

export interface HotPathStep {
  node: number;
  depth: number;
  /** Inclusive share of the total. */
  share: number;
}

/**
 * The hot call path: from the heaviest root, follow the heaviest child while its inclusive share
 * stays at or above `threshold` (hpcviewer's hot-path rule).
 */
export function hotPath(profile: Profile, m: number, threshold = 0.05): HotPathStep[] {
  const incl = profile.inclusiveTotals(m);
  const total = profile.total(m);
  if (!(total > 0)) return [];
  const tree = profile.tree;
  const heaviest = (ids: ArrayLike<number>): number => {
    let best = -1;
    for (let k = 0; k < ids.length; k++) if (best < 0 || incl[ids[k]!]! > incl[best]!) best = ids[k]!;
    return best;
  };
  const out: HotPathStep[] = [];
  for (let n = heaviest(tree.roots()), depth = 0; n >= 0; n = heaviest(tree.children(n)), depth++) {
    const share = incl[n]! / total;
    if (share < threshold) break;
    out.push({ node: n, depth, share });
  }
  return out;
}

export interface RankedNode {
  node: number;
  value: number;
  share: number;
}

/** The `count` nodes with the largest exclusive value (summed over contexts), largest first. */
export function topNodes(profile: Profile, m: number, count: number): RankedNode[] {
  const excl = profile.exclusiveTotals(m);
  const total = profile.total(m);
  const ids = Array.from({ length: excl.length }, (_, i) => i).filter(i => excl[i]! !== 0);
  ids.sort((a, b) => excl[b]! - excl[a]! || a - b);
  return ids.slice(0, count).map(node => ({ node, value: excl[node]!, share: total > 0 ? excl[node]! / total : 0 }));
}
