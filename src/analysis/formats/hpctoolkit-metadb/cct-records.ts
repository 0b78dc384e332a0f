import type { CctDb } from './cct-db';
import { u64Word } from './db-file';

/**
 * The value records the model uses, gathered from cct.db into profile.db's order. cct.db holds the
 * values of each context metric by metric (FORMATS.md, "Context-Major Sparse Value Block"), so only
 * the scopes the model uses are touched: profile.db interleaves every scope of every metric (on
 * lammps-openmp 13,462 of its 25,733 application records are scopes the model leaves alone), and
 * reading it meant walking all of them. Walking contexts in ctxId order and metrics in id order, then bucketing by
 * profile, gives each profile's records in the order profile.db lists them (contexts ascending,
 * metrics ascending within a context), so sums over them come out bit for bit the same.
 */

/** Actions of a metric id besides a slot (hpctoolkit-metadb.ts): a scope the model does not use, an id meta.db does not list. */
export const UNUSED_METRIC = -1;
export const UNKNOWN_METRIC = -2;

const VALUE_BYTES = 12;
const METRIC_INDEX_BYTES = 10;

export interface GatherInput {
  cct: CctDb;
  /** By metric id: an execution-scope slot s (≥ 0), a point-scope slot s as -3 - s, or one of the two actions above. */
  actionOf: Int32Array;
  /** Node by context id where the ids are dense (else shorter); `nodeOfCtx` for any id (-1: meta.db does not list it). */
  nodeOfId: Int32Array;
  nodeOfCtx: (ctxId: number) => number;
  /**
   * Per profile.db profile, how many value records it holds (its `nValues`): room enough for its
   * records here, so they go straight to their place in one pass. Profile indices past it have no
   * values to give.
   */
  capacity: ArrayLike<number>;
  /**
   * Takes each point-scope value (metrics without an execution scope), in ctxId order: a profile's
   * values per node and context are summed in profile order either way.
   */
  point: (slot: number, node: number, profile: number, value: number) => void;
}

/**
 * The execution-scope records of each profile (by profile index) at contexts meta.db lists: `slot`,
 * `node` and `value` of records `start[p] … end[p]`.
 */
export interface GatheredRecords {
  start: Int32Array;
  end: Int32Array;
  slot: Int32Array;
  node: Int32Array;
  value: Float64Array;
  /** Values of metric ids meta.db does not describe; point-scope values of contexts it does not list. */
  unknownMetricValues: number;
  unlistedPointValues: number;
}

/**
 * Gathers the records, or returns null when cct.db cannot be read this way (blocks off the format's
 * alignment, more records for a profile than profile.db holds): the caller then reads profile.db.
 * Every block, and every metric-index entry that is used, is checked against the file as
 * forEachContextValue checks it.
 */
export function gatherProfileRecords(input: GatherInput): GatheredRecords | null {
  const { cct, actionOf, nodeOfId, nodeOfCtx, capacity } = input;
  const profiles = capacity.length;
  const { file } = cct;
  if (cct.pCtxs % 8 !== 0 || cct.szCtx % 8 !== 0) return null;
  // Header and index fields as element loads of the file's words, not a DataView call each.
  const { words, halves } = file;
  const size = file.size;
  // Each profile's records from start[p]; next[p] is where its next one goes.
  const start = new Int32Array(profiles + 1);
  for (let p = 0; p < profiles; p++) start[p + 1] = start[p]! + capacity[p]!;
  const next = start.slice(0, profiles);
  const slot = new Int32Array(start[profiles]!);
  const nodeOf = new Int32Array(start[profiles]!);
  const value = new Float64Array(start[profiles]!);
  const view = file.view;
  // Point-scope values (slot, node, profile, value), rare: metrics without an execution scope.
  const points: number[] = [];
  let unknownMetricValues = 0;
  let unlistedPointValues = 0;
  // u64 fields are read through a call only when their high word is set (files past 4 GiB): a call per
  // field is what a cold process pays most for.
  for (let ctxId = 0, h = cct.pCtxs / 4, stride = cct.szCtx / 4; ctxId < cct.count; ctxId++, h += stride) {
    const nValues = words[h + 1] === 0 ? words[h]! : u64Word(words, h);
    const nMetrics = halves[2 * h + 8]!;
    if (nValues === 0 && nMetrics === 0) continue;
    const pValues = words[h + 3] === 0 ? words[h + 2]! : u64Word(words, h + 2);
    const pIndices = words[h + 7] === 0 ? words[h + 6]! : u64Word(words, h + 6);
    if (!(pValues + nValues * VALUE_BYTES <= size))
      file.checkRange(pValues, nValues, VALUE_BYTES, `the values of context ${ctxId}`);
    if (!(pIndices + nMetrics * METRIC_INDEX_BYTES <= size))
      file.checkRange(pIndices, nMetrics, METRIC_INDEX_BYTES, `the metric index of context ${ctxId}`);
    if (pValues % 4 !== 0 || pIndices % 2 !== 0) return null;
    const node = ctxId < nodeOfId.length ? nodeOfId[ctxId]! : nodeOfCtx(ctxId);
    const first = pValues / 4;
    for (let j = 0, at = pIndices / 2; j < nMetrics; j++, at += 5) {
      const metricId = halves[at]!;
      const action = metricId < actionOf.length ? actionOf[metricId]! : UNKNOWN_METRIC;
      // Scopes the model does not use (most entries) are passed over unread.
      if (action === UNUSED_METRIC) continue;
      if (node < 0 && action >= 0) continue;
      // Entry j's values run from its start to entry j + 1's (the last entry's to nValues).
      const from =
        (halves[at + 3]! | halves[at + 4]!) === 0 ? halves[at + 1]! + halves[at + 2]! * 0x10000 : u64Of(halves, at + 1);
      const end =
        j + 1 === nMetrics
          ? nValues
          : (halves[at + 8]! | halves[at + 9]!) === 0
            ? halves[at + 6]! + halves[at + 7]! * 0x10000
            : u64Of(halves, at + 6);
      if (!(from <= end && end <= nValues))
        throw file.error(
          `context ${ctxId}: the metric index entry ${j} spans values ${from}–${end}, outside 0–${nValues} or backwards`,
        );
      if (action === UNKNOWN_METRIC) unknownMetricValues += end - from;
      else if (node < 0) {
        if (ctxId !== 0) unlistedPointValues += end - from;
      } else if (action < 0) {
        for (let w = first + 3 * from, last = first + 3 * end; w < last; w += 3)
          points.push(-3 - action, node, words[w]!, view.getFloat64(4 * w + 4, true));
      } else {
        for (let w = first + 3 * from, last = first + 3 * end; w < last; w += 3) {
          const profile = words[w]!;
          if (profile >= profiles) continue;
          const k = next[profile]!++;
          // More records than profile.db holds for this profile: the two files disagree.
          if (k >= start[profile + 1]!) return null;
          slot[k] = action;
          nodeOf[k] = node;
          value[k] = view.getFloat64(4 * w + 4, true);
        }
      }
    }
  }
  // Handed over only now: a null return above must leave the caller nothing to undo.
  for (let k = 0; k < points.length; k += 4) input.point(points[k]!, points[k + 1]!, points[k + 2]!, points[k + 3]!);
  return { start, end: next, slot, node: nodeOf, value, unknownMetricValues, unlistedPointValues };
}

/** A little-endian u64 in four 16-bit words from `h` (the metric index is only 2-byte aligned). */
function u64Of(halves: Uint16Array, h: number): number {
  const low = halves[h]! + halves[h + 1]! * 0x10000;
  const high = halves[h + 2]! + halves[h + 3]! * 0x10000;
  return high === 0 ? low : low + high * 2 ** 32;
}
