/**
 * Node colours of the CallFlow views (pure): a sequential scale of exclusive or inclusive value
 * (one domain shared by every graph on screen, so two runs side by side compare by colour), and a
 * symmetric diverging scale of the per-rank difference between the brushed ranks and the rest.
 */
import { interpolateLab, piecewise } from 'd3';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';

export type ColourBy = 'exclusive' | 'inclusive';

export const valueOf = (n: CallflowNodeData, by: ColourBy): number => (by === 'exclusive' ? n.exclusive : n.inclusive);

/** Upper end of the sequential domain: the largest value over all nodes of all graphs (0 when none). */
export function sharedDomain(graphs: readonly CallflowData[], by: ColourBy): number {
  let max = 0;
  for (const g of graphs)
    for (const n of g.nodes) {
      const v = valueOf(n, by);
      if (Number.isFinite(v) && v > max) max = v;
    }
  return max;
}

/** Position 0..1 of a value on a sequential domain [0, max]. */
export function sequentialPosition(value: number, max: number): number {
  return max > 0 && Number.isFinite(value) ? Math.max(0, Math.min(1, value / max)) : 0;
}

/** Contexts a graph's values cover (its brushed subset, or all). */
const contextCount = (g: CallflowData): number => g.contexts?.indices.length ?? g.contexts?.count ?? 1;

/**
 * Per node id present in `top`: mean exclusive per rank in `top` minus that in `bottom` (0 when the
 * node is absent below), and the symmetric domain bound max |difference|.
 */
export function exclusiveDifference(
  top: CallflowData,
  bottom: CallflowData,
): { byId: Map<string, number>; bound: number } {
  const kt = Math.max(1, contextCount(top)),
    kb = Math.max(1, contextCount(bottom));
  const below = new Map(bottom.nodes.map(n => [n.id, n.exclusive / kb]));
  const above = new Map(top.nodes.map(n => [n.id, n.exclusive / kt]));
  const byId = new Map<string, number>();
  let bound = 0;
  for (const id of new Set([...above.keys(), ...below.keys()])) {
    const d = (above.get(id) ?? 0) - (below.get(id) ?? 0);
    byId.set(id, d);
    bound = Math.max(bound, Math.abs(d));
  }
  return { byId, bound };
}

/**
 * Blue → grey → red (ColorBrewer RdBu ends): the middle is a mid grey rather than RdBu's near-white,
 * so that "no difference" bars stay visible on light and dark themes alike.
 */
const diverging = piecewise(interpolateLab, ['#2166ac', '#6a9fcb', '#9a9a9a', '#e0876a', '#b2182b']);

/** Diverging colour, symmetric about 0: positive (more time in the brushed ranks) red, negative blue, 0 neutral grey. */
export function divergingColour(difference: number, bound: number): string {
  const t = bound > 0 && Number.isFinite(difference) ? Math.max(-1, Math.min(1, difference / bound)) : 0;
  return diverging(0.5 + t / 2);
}

/**
 * A comparison's graph (CallflowData.diff): per node id, the change of its inclusive value
 * (compared − baseline, means per context), and the symmetric bound max |change|.
 */
export function runDifference(data: CallflowData): { byId: Map<string, number>; bound: number } | null {
  if (!data.diff) return null;
  const byId = new Map<string, number>();
  let bound = 0;
  for (const n of data.nodes) {
    if (!n.diff) continue;
    const d = n.diff.compare.inclusive - n.diff.baseline.inclusive;
    byId.set(n.id, d);
    if (Number.isFinite(d)) bound = Math.max(bound, Math.abs(d));
  }
  return { byId, bound };
}

/**
 * Green → grey → red: faster runs green, slower red (the editor's regression/improvement marks),
 * the middle a mid grey that stays visible on light and dark themes.
 */
const slowerFaster = piecewise(interpolateLab, ['#1a9641', '#9a9a9a', '#c62828']);

/** A change on the symmetric scale [−bound, +bound]: positive (slower) red, negative (faster) green, 0 grey. */
export function changeColour(change: number, bound: number): string {
  const t = bound > 0 && Number.isFinite(change) ? Math.max(-1, Math.min(1, change / bound)) : 0;
  return slowerFaster(0.5 + t / 2);
}
