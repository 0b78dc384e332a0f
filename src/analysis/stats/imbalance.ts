import { functionInclusiveByContext, functionTotals, type FunctionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import { summarizeRows, type ContextSummary } from './context-summary';
import { shareOf } from './share';

export interface ImbalanceOptions {
  /** Entries to return (default 20). */
  limit?: number;
  /**
   * Ignore entries whose inclusive value is below this share of the total (default 0.01): a
   * 10 µs node idle on most ranks has a huge max/mean that says nothing about the run.
   */
  floor?: number;
}

export interface ImbalanceEntry extends ContextSummary {
  /** Call-tree node (for nodeImbalance) or function index (for functionImbalance). */
  id: number;
  /** Node or function name. */
  name: string;
  /** Inclusive value summed over contexts. */
  inclusive: number;
  /** inclusive / profile total. */
  share: number;
}

/**
 * Call-tree nodes ranked by max/mean of their inclusive value across contexts (largest first,
 * then the larger share, then the lower id), among nodes holding at least `floor` of the total.
 * Filtering first keeps the per-context statistics to the few significant nodes: O(n × C).
 */
export function nodeImbalance(profile: Profile, m: number, options: ImbalanceOptions = {}): ImbalanceEntry[] {
  const tree = profile.tree;
  return rankByImbalance(profile, m, profile.inclusive(m), profile.inclusiveTotals(m), i => tree.name(i), options);
}

/** Functions ranked like nodeImbalance, on their inclusive value (recursion counted once). */
export function functionImbalance(
  profile: Profile,
  m: number,
  options: ImbalanceOptions = {},
  totals: FunctionTotals = functionTotals(profile, m),
): ImbalanceEntry[] {
  const byContext = functionInclusiveByContext(profile, m, totals);
  return rankByImbalance(profile, m, byContext, totals.inclusive, f => totals.names[f]!, options);
}

function rankByImbalance(
  profile: Profile,
  m: number,
  matrix: Float64Array,
  sums: Float64Array,
  name: (id: number) => string,
  options: ImbalanceOptions,
): ImbalanceEntry[] {
  const { limit = 20, floor = 0.01 } = options;
  const C = profile.contextCount;
  const total = profile.total(m);
  if (!(total > 0)) return [];
  const ids: number[] = [];
  for (let i = 0; i < sums.length; i++) if (sums[i]! > 0 && sums[i]! >= floor * total) ids.push(i);
  const rows = new Float64Array(ids.length * C);
  ids.forEach((id, r) => rows.set(matrix.subarray(id * C, (id + 1) * C), r * C));
  const entries = summarizeRows(rows, C).map((s, r) => ({
    id: ids[r]!,
    name: name(ids[r]!),
    inclusive: sums[ids[r]!]!,
    share: shareOf(sums[ids[r]!]!, total),
    ...s,
  }));
  entries.sort((a, b) => b.imbalance - a.imbalance || b.share - a.share || a.id - b.id);
  return entries.slice(0, limit);
}
