import { functionInclusiveByContext, functionTotals, type FunctionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import {
  comparableContexts,
  CONTEXT_KINDS,
  spreadOverUnits,
  type ComparableContexts,
  type ContextKind,
} from './comparable-contexts';
import { shareOf } from './share';
import { addSparseRow } from './context-summary';

export interface ImbalanceOptions {
  /** Entries to return, in each list (default 20). */
  limit?: number;
  /**
   * Ignore entries whose inclusive value is below this share of the total (default 0.01): a
   * 10 µs node idle on most ranks has a huge max/mean that says nothing about the run.
   */
  floor?: number;
}

export interface ImbalanceEntry {
  /** Call-tree node (for nodeImbalance) or function index (for functionImbalance). */
  id: number;
  /** Node or function name. */
  name: string;
  /** Inclusive value summed over contexts. */
  inclusive: number;
  /** inclusive / profile total. */
  share: number;
  /** Over the compared units (ranks, processes, threads…). */
  min: number;
  mean: number;
  max: number;
  /** max / mean over the compared units. */
  imbalance: number;
  /**
   * What the list ranks by: (imbalance − 1) × share, i.e. (max − mean) × units ÷ total — the share
   * of the run the other units would save if the work were balanced (Score-P's and hpcviewer's
   * imbalance in time): an imbalanced 0.1 % function is not the headline, and a balanced 100 % one
   * scores 0.
   */
  severity: number;
  /** What was compared and how many of them (units where the entry's parent ran). */
  contextKind: ContextKind;
  compared: number;
  /** The unit holding the max, by label (`rank 3`), and its context holding the most (index into `profile.contexts`). */
  maxLabel: string;
  maxContext: number;
}

/** An entry that ran in one unit only, under a parent that ran only there too: nothing to compare it with. */
export interface SingleContextEntry {
  id: number;
  name: string;
  inclusive: number;
  share: number;
  /** The unit it ran in (`rank 0`, `python [CPU]`). */
  context: string;
  contextKind: ContextKind;
}

/** Load imbalance of a profile's nodes or functions over comparable contexts. */
export interface ImbalanceRanking {
  /** By severity (then max/mean, share, id). */
  entries: ImbalanceEntry[];
  /** Listed apart, by share: frames that exist in one unit only. */
  singleContext: SingleContextEntry[];
  /** The groups compared: their kind and number of units (a group of 1 compares nothing). */
  groups: { kind: ContextKind; units: number }[];
}

/**
 * Call-tree nodes ranked by the imbalance of their inclusive value over comparable contexts
 * (comparable-contexts.ts), among nodes holding at least `floor` of the total. Filtering first
 * keeps the per-context statistics to the few significant nodes: O(n + k × C).
 */
export function nodeImbalance(profile: Profile, m: number, options: ImbalanceOptions = {}): ImbalanceRanking {
  const tree = profile.tree;
  const C = profile.contextCount;
  return rankByImbalance(
    profile,
    m,
    profile.inclusiveTotals(m),
    i => tree.name(i),
    (ids, rows, parents) =>
      ids.forEach((i, r) => {
        profile.contextRow('inclusive', m, i, rows.subarray(r * C, (r + 1) * C));
        const p = tree.columns.parent[i]!;
        profile.contextRow('inclusive', m, p >= 0 ? p : i, parents.subarray(r * C, (r + 1) * C));
      }),
    options,
  );
}

/** Functions ranked like nodeImbalance, on their inclusive value (recursion counted once). */
export function functionImbalance(
  profile: Profile,
  m: number,
  options: ImbalanceOptions = {},
  totals: FunctionTotals = functionTotals(profile, m),
  byContext: Float64Array = functionInclusiveByContext(profile, m, totals),
): ImbalanceRanking {
  const C = profile.contextCount;
  return rankByImbalance(
    profile,
    m,
    totals.inclusive,
    f => totals.names[f]!,
    (ids, rows, parents) => {
      ids.forEach((f, r) => rows.set(byContext.subarray(f * C, (f + 1) * C), r * C));
      parents.set(functionParentRows(profile, m, totals, ids));
    },
    options,
  );
}

/**
 * Per function (row r = functions[r]): the per-context inclusive values of the callers of its
 * outermost frames (a root frame stands for its own caller), to tell where it could have run.
 */
function functionParentRows(
  profile: Profile,
  m: number,
  totals: FunctionTotals,
  functions: readonly number[] | null,
): Float64Array {
  const C = profile.contextCount;
  const F = totals.names.length;
  const rowOf = functions ? new Int32Array(F).fill(-1) : null;
  functions?.forEach((f, r) => (rowOf![f] = r));
  const rows = new Float64Array((functions ? functions.length : F) * C);
  const incl = profile.sparse('inclusive', m);
  const parent = profile.tree.columns.parent;
  for (let i = 0; i < profile.tree.size; i++) {
    if (!totals.outermost[i]) continue;
    const f = totals.functionOfNode[i]!;
    const r = rowOf ? rowOf[f]! : f;
    if (r < 0) continue;
    addSparseRow(rows, r, incl, parent[i]! >= 0 ? parent[i]! : i, C);
  }
  return rows;
}

/** Per function: max/mean over comparable contexts (NaN when single-context), units compared, their kind (index into CONTEXT_KINDS). */
export interface FunctionImbalances {
  imbalance: Float64Array;
  compared: Int32Array;
  kind: Uint8Array;
  /** Every context is a unit of one comparable group (ranks of an MPI profile): a plain max/mean over contexts is an imbalance. */
  contextsAreUnits: boolean;
}

/** Every function's imbalance over comparable contexts (what the CodeLens shows). O(n × C). */
export function functionImbalances(
  profile: Profile,
  m: number,
  totals: FunctionTotals,
  byContext: Float64Array,
  cc: ComparableContexts = comparableContexts(profile),
): FunctionImbalances {
  const C = profile.contextCount;
  const F = totals.names.length;
  const parents = functionParentRows(profile, m, totals, null);
  const out: FunctionImbalances = {
    imbalance: new Float64Array(F).fill(NaN),
    compared: new Int32Array(F),
    kind: new Uint8Array(F),
    contextsAreUnits: cc.groups.length === 1 && cc.units.length === C && C > 1,
  };
  for (let f = 0; f < F; f++) {
    const s = spreadOverUnits(cc, byContext.subarray(f * C, (f + 1) * C), parents.subarray(f * C, (f + 1) * C));
    out.compared[f] = s.compared;
    if (s.compared >= 2) out.imbalance[f] = s.imbalance;
    out.kind[f] = CONTEXT_KINDS.indexOf(cc.groups[s.group]?.kind ?? 'process');
  }
  return out;
}

function rankByImbalance(
  profile: Profile,
  m: number,
  sums: Float64Array,
  name: (id: number) => string,
  fill: (ids: number[], rows: Float64Array, parents: Float64Array) => void,
  options: ImbalanceOptions,
): ImbalanceRanking {
  const { limit = 20, floor = 0.01 } = options;
  const C = profile.contextCount;
  const total = profile.total(m);
  const cc = comparableContexts(profile);
  const groups = cc.groups.map(g => ({ kind: g.kind, units: g.units.length }));
  if (!(total > 0)) return { entries: [], singleContext: [], groups };
  const ids: number[] = [];
  for (let i = 0; i < sums.length; i++) if (sums[i]! > 0 && sums[i]! >= floor * total) ids.push(i);
  const rows = new Float64Array(ids.length * C),
    parents = new Float64Array(ids.length * C);
  fill(ids, rows, parents);
  const entries: ImbalanceEntry[] = [];
  const singleContext: SingleContextEntry[] = [];
  ids.forEach((id, r) => {
    const s = spreadOverUnits(cc, rows.subarray(r * C, (r + 1) * C), parents.subarray(r * C, (r + 1) * C));
    if (s.maxUnit < 0) return;
    const unit = cc.units[s.maxUnit]!;
    const share = shareOf(sums[id]!, total);
    if (s.compared < 2) {
      singleContext.push({
        id,
        name: name(id),
        inclusive: sums[id]!,
        share,
        context: unit.label,
        contextKind: unit.kind,
      });
      return;
    }
    entries.push({
      id,
      name: name(id),
      inclusive: sums[id]!,
      share,
      min: s.min,
      mean: s.mean,
      max: s.max,
      imbalance: s.imbalance,
      severity: Math.max(0, s.imbalance - 1) * share,
      contextKind: unit.kind,
      compared: s.compared,
      maxLabel: unit.label,
      maxContext: s.maxContext,
    });
  });
  entries.sort((a, b) => b.severity - a.severity || b.imbalance - a.imbalance || b.share - a.share || a.id - b.id);
  singleContext.sort((a, b) => b.share - a.share || a.id - b.id);
  return { entries: entries.slice(0, limit), singleContext: singleContext.slice(0, limit), groups };
}
