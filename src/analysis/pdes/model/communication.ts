import { entityOfLp, type PdesEntities } from './entities';
import type { EventTimeAxis, EventTrace } from './event-trace';
import type { EntityLevel } from './metrics';

/**
 * Communication between entities from the event trace: how many events each entity sent to each
 * other one, whole-run or per time interval, at PE, KP or LP level (seed digest §1.4: weighted
 * graphs per sampling interval, event counts as weights). Dense n×n matrices, row = sender; LP-level
 * matrices of large models (7,776 LPs would need 480 MB) come as sparse pairs instead.
 */
export interface CommunicationMatrix {
  level: EntityLevel;
  /** Entities per side. */
  size: number;
  /** Events sent from row entity to column entity: `counts[src * size + dst]`. */
  counts: Float64Array;
  /** Events counted (both ends known and inside the interval). */
  events: number;
}

/** What a matrix cell shows (seed digest §1.4): events sent, received, their sum or their maximum. */
export type CommunicationWeight = 'sends' | 'receives' | 'sum' | 'max';

/** Matrices above this many entities per side are refused (use {@link communicationPairs}). */
export const MAX_DENSE_ENTITIES = 4096;

/** Whole-run matrix at `level`. */
export function communicationMatrix(
  trace: EventTrace,
  entities: PdesEntities,
  level: EntityLevel,
  range?: { axis: EventTimeAxis; from: number; to: number },
): CommunicationMatrix {
  const edges = range ? [range.from, range.to] : [-Infinity, Infinity];
  return intervalMatrices(trace, entities, level, edges, range?.axis ?? 'receive')[0]!;
}

/**
 * One matrix per time interval `(edges[k], edges[k+1]]` of the chosen event time (see
 * {@link EventTimeAxis}); events outside every interval are not counted. Interval bounds are
 * open below and closed above so that GVT-sampled intervals follow ROSS: events with timestamps up
 * to a GVT are committed by it.
 */
export function intervalMatrices(
  trace: EventTrace,
  entities: PdesEntities,
  level: EntityLevel,
  edges: ArrayLike<number>,
  axis: EventTimeAxis = 'receive',
): CommunicationMatrix[] {
  const size = entities.count(level);
  if (size > MAX_DENSE_ENTITIES)
    throw new Error(
      `${size} ${level.toUpperCase()}s are too many for dense matrices (at most ${MAX_DENSE_ENTITIES}); use communicationPairs`,
    );
  const intervals = Math.max(0, edges.length - 1);
  const out: CommunicationMatrix[] = Array.from({ length: intervals }, () => ({
    level,
    size,
    counts: new Float64Array(size * size),
    events: 0,
  }));
  if (!intervals) return out;
  const lookup = entities.lpLookup(level);
  const { src, dst } = trace.columns;
  const time = trace.times(axis);
  const lo = edges[0]!;
  const hi = edges[intervals]!;
  for (let i = 0; i < src.length; i++) {
    const a = entityOfLp(lookup, src[i]!);
    const b = entityOfLp(lookup, dst[i]!);
    if (a < 0 || b < 0) continue;
    const t = time[i]!;
    if (!(t > lo && t <= hi)) continue;
    const k = intervals === 1 ? 0 : intervalOf(edges, intervals, t);
    const m = out[k]!;
    m.counts[a * size + b]!++;
    m.events++;
  }
  return out;
}

/** Index k of the interval (edges[k], edges[k+1]] holding t (t is inside the outer bounds). */
function intervalOf(edges: ArrayLike<number>, intervals: number, t: number): number {
  let lo = 0;
  let hi = intervals - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t <= edges[mid + 1]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Interval edges for a sample set's ticks: interval k covers what happened after tick k−1's time
 * up to tick k's (the first from −∞), so interval matrices line up with the samples.
 */
export function tickEdges(tickTimes: ArrayLike<number>): Float64Array {
  const out = new Float64Array(tickTimes.length + 1);
  out[0] = -Infinity;
  for (let i = 0; i < tickTimes.length; i++) out[i + 1] = tickTimes[i]!;
  return out;
}

/** Sums matrices (e.g. the intervals of one segment between change points). */
export function sumMatrices(matrices: readonly CommunicationMatrix[]): CommunicationMatrix {
  if (!matrices.length) throw new Error('no matrices to sum');
  const first = matrices[0]!;
  const counts = new Float64Array(first.counts.length);
  let events = 0;
  for (const m of matrices) {
    if (m.size !== first.size) throw new Error('matrices of different sizes');
    for (let i = 0; i < counts.length; i++) counts[i]! += m.counts[i]!;
    events += m.events;
  }
  return { level: first.level, size: first.size, counts, events };
}

/**
 * The cell values a view shows: `sends` = the matrix (row sent to column), `receives` = its
 * transpose (row received from column), `sum` and `max` of the two directions.
 */
export function weighted(m: CommunicationMatrix, weight: CommunicationWeight): Float64Array {
  const n = m.size;
  const c = m.counts;
  if (weight === 'sends') return c.slice();
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const ij = c[i * n + j]!;
      const ji = c[j * n + i]!;
      out[i * n + j] = weight === 'receives' ? ji : weight === 'sum' ? ij + ji : Math.max(ij, ji);
    }
  return out;
}

/** Rows of a matrix as nested arrays (for JSON). */
export function matrixRows(values: Float64Array, size: number): number[][] {
  return Array.from({ length: size }, (_, i) => Array.from(values.subarray(i * size, (i + 1) * size)));
}

/**
 * The share of events whose sender and receiver sit on the same PE (ROSS's local, non-network
 * events), among events with both ends placed; NaN when none is.
 */
export function sameProcessShare(trace: EventTrace, entities: PdesEntities): number {
  const lookup = entities.lpLookup('pe');
  const { src, dst } = trace.columns;
  let placed = 0;
  let same = 0;
  for (let i = 0; i < src.length; i++) {
    const a = entityOfLp(lookup, src[i]!);
    const b = entityOfLp(lookup, dst[i]!);
    if (a < 0 || b < 0) continue;
    placed++;
    if (a === b) same++;
  }
  return placed ? same / placed : NaN;
}

/** Sparse sender → receiver counts at any level, sorted by sender then receiver. */
export interface CommunicationPairs {
  level: EntityLevel;
  src: Int32Array;
  dst: Int32Array;
  counts: Float64Array;
}

/** Sparse counterpart of {@link communicationMatrix}, for LP level on large models. */
export function communicationPairs(trace: EventTrace, entities: PdesEntities, level: EntityLevel): CommunicationPairs {
  return intervalPairs(trace, entities, level, [-Infinity, Infinity])[0]!;
}

/**
 * Sparse counterpart of {@link intervalMatrices}: one set of sender → receiver pairs per interval
 * `(edges[k], edges[k+1]]` of the chosen event time, at any level (KP or LP of large models, where
 * dense matrices would not fit). One pass over the trace, counting in dense matrices while all
 * intervals' cells stay within `maxDenseCells`, else in one hash map per interval.
 */
export function intervalPairs(
  trace: EventTrace,
  entities: PdesEntities,
  level: EntityLevel,
  edges: ArrayLike<number>,
  axis: EventTimeAxis = 'receive',
  maxDenseCells = DENSE_PAIR_CELLS,
): CommunicationPairs[] {
  const intervals = Math.max(0, edges.length - 1);
  const lookup = entities.lpLookup(level);
  const n = entities.count(level);
  const { src, dst } = trace.columns;
  const time = trace.times(axis);
  const lo = intervals ? edges[0]! : Infinity;
  const hi = intervals ? edges[intervals]! : -Infinity;
  // Dense counters while all intervals' matrices fit in a few MB (KP level), else one map per interval (LPs).
  const dense = n * n * intervals <= maxDenseCells ? new Float64Array(n * n * intervals) : null;
  const maps = dense ? [] : Array.from({ length: intervals }, () => new Map<number, number>());
  for (let i = 0; i < src.length; i++) {
    const a = entityOfLp(lookup, src[i]!);
    const b = entityOfLp(lookup, dst[i]!);
    if (a < 0 || b < 0) continue;
    const t = time[i]!;
    if (!(t > lo && t <= hi)) continue;
    const k = intervals === 1 ? 0 : intervalOf(edges, intervals, t);
    const key = a * n + b;
    if (dense) dense[k * n * n + key]!++;
    else maps[k]!.set(key, (maps[k]!.get(key) ?? 0) + 1);
  }
  return Array.from({ length: intervals }, (_, k) => {
    if (!dense) {
      const map = maps[k]!;
      const keys = Float64Array.from(map.keys()).sort();
      return pairsOf(
        level,
        n,
        keys.length,
        p => keys[p]!,
        p => map.get(keys[p]!)!,
      );
    }
    const cells = dense.subarray(k * n * n, (k + 1) * n * n);
    const nonzero = new Int32Array(cells.length);
    let m = 0;
    for (let c = 0; c < cells.length; c++) if (cells[c]) nonzero[m++] = c;
    return pairsOf(
      level,
      n,
      m,
      p => nonzero[p]!,
      p => cells[nonzero[p]!]!,
    );
  });
}

function pairsOf(
  level: EntityLevel,
  n: number,
  m: number,
  key: (p: number) => number,
  count: (p: number) => number,
): CommunicationPairs {
  const out = { level, src: new Int32Array(m), dst: new Int32Array(m), counts: new Float64Array(m) };
  for (let p = 0; p < m; p++) {
    const k = key(p);
    out.src[p] = Math.floor(k / n);
    out.dst[p] = k - out.src[p]! * n;
    out.counts[p] = count(p);
  }
  return out;
}

/** Cells (8 bytes each) up to which intervalPairs counts in dense matrices: 32 MB. */
const DENSE_PAIR_CELLS = 1 << 22;
