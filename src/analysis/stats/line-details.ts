import type { CallTree } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { DATA_MOVEMENT_KIND_NAMES, type DataMovementColumns } from '../model/trace';
import { summarizeRows, type ContextSummary } from './context-summary';
import { formatShare, formatValue } from './format';

/**
 * What the editor shows for one source line: its value over a set of call-tree nodes (every node
 * recorded at that line), spread over contexts, the data it moves, and the after-line heat text.
 */

/** The nodes with no ancestor in the set: summing their inclusive values counts nested frames once. */
export function outermostNodes(tree: CallTree, nodes: readonly number[]): number[] {
  const set = new Set(nodes);
  return nodes.filter(n => {
    for (let p = tree.parent(n); p >= 0; p = tree.parent(p)) if (set.has(p)) return false;
    return true;
  });
}

export interface NodeSetValues {
  /** Σ over contexts of the inclusive values of the outermost nodes of the set. */
  inclusive: number;
  /** Σ over contexts of the exclusive values of every node of the set (exclusive values are disjoint). */
  exclusive: number;
}

/** Inclusive and exclusive value of a set of nodes (e.g. the nodes of one line) for metric m. */
export function nodeSetValues(profile: Profile, m: number, nodes: readonly number[]): NodeSetValues {
  const incl = profile.inclusiveTotals(m),
    excl = profile.exclusiveTotals(m);
  let inclusive = 0,
    exclusive = 0;
  for (const n of outermostNodes(profile.tree, nodes)) inclusive += incl[n]!;
  for (const n of nodes) exclusive += excl[n]!;
  return { inclusive, exclusive };
}

/** Per-context values of a set of nodes (inclusive over its outermost nodes, or exclusive over all), in `profile.contexts` order. */
export function nodeSetByContext(
  profile: Profile,
  m: number,
  nodes: readonly number[],
  side: 'inclusive' | 'exclusive',
): Float64Array {
  const { offsets, contexts, values } = profile.sparse(side, m);
  const out = new Float64Array(profile.contextCount);
  for (const n of side === 'inclusive' ? outermostNodes(profile.tree, nodes) : nodes)
    for (let k = offsets[n]!, end = offsets[n + 1]!; k < end; k++) out[contexts[k]!]! += values[k]!;
  return out;
}

/** min, mean, max, max/mean and the arg-max of per-context values (context-summary's rules). */
export function spreadOf(values: Float64Array): ContextSummary {
  return summarizeRows(values, values.length)[0] ?? { min: 0, mean: 0, max: 0, median: 0, imbalance: 0, maxContext: 0 };
}

/** Copies of one direction issued from a set of nodes. */
export interface DataMovementByKind {
  /** One of DATA_MOVEMENT_KIND_NAMES, e.g. `host-to-device`. */
  kind: string;
  count: number;
  bytes: number;
  /** Σ of the operations' durations, nanoseconds. */
  durationNs: number;
}

/**
 * Data-movement records issued from `nodes`, directly or through the calls they make (the issuing
 * node is one of them or below one of them), grouped by direction, most bytes first: a Python line
 * that calls `tensor.to("cuda")` moves the bytes the copies under that call move.
 * O(records × depth).
 */
export function dataMovementFrom(
  dm: DataMovementColumns,
  tree: CallTree,
  nodes: ReadonlySet<number>,
): DataMovementByKind[] {
  const byKind = new Map<string, DataMovementByKind>();
  for (let i = 0; i < dm.kind.length; i++) {
    let n = dm.node[i]!;
    while (n >= 0 && !nodes.has(n)) n = tree.parent(n);
    if (n < 0) continue;
    const kind = DATA_MOVEMENT_KIND_NAMES[dm.kind[i]!] ?? 'other';
    let e = byKind.get(kind);
    if (!e) byKind.set(kind, (e = { kind, count: 0, bytes: 0, durationNs: 0 }));
    e.count++;
    e.bytes += dm.bytes[i]!;
    e.durationNs += dm.duration[i]!;
  }
  return [...byKind.values()].sort((a, b) => b.bytes - a.bytes || (a.kind < b.kind ? -1 : 1));
}

/**
 * After-line heat text: `12% · 3.1 s · imbalance 2.3×` (share of the total, value, and max/mean
 * across contexts when there are several; `imbalance` null leaves it out).
 */
export function heatAnnotation(share: number, value: number, unit: string, imbalance: number | null): string {
  const parts = [formatShare(share), formatValue(value, unit)];
  if (imbalance !== null && imbalance > 0) parts.push(`imbalance ${imbalance.toFixed(1)}×`);
  return parts.join(' · ');
}

/** Heat level 0 … levels − 1 of a value relative to the hottest value `max` (the top bucket holds max itself). */
export function heatLevel(value: number, max: number, levels: number): number {
  if (!(max > 0) || !(value > 0)) return 0;
  return Math.max(0, Math.min(levels - 1, Math.floor((value / max) * levels - 1e-9)));
}
