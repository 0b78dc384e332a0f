import { NodeKind, type CallTreeBuilder } from '../../model/call-tree';
import { GrowableInt32 } from '../../model/growable';
import type { Profile } from '../../model/profile';
import type { ProfileBuilder } from '../../model/profile-builder';
import { ProfileReadError } from '../reader';
import { caliperMajorVersion, parseSourceLocation } from './attributes';
import { planMetrics, primaryMetricOf, type ValueColumn } from './metrics';

/**
 * The records of a Caliper profile as every form yields them once its call tree is in the builder:
 * one row per record, each with its tree node, rank, sampled source location and module, and its
 * values. Rows are read through functions so that each reader keeps its own compact storage.
 */
export interface CaliperRows {
  readonly count: number;
  /** The value columns (structural attributes such as the path or mpi.rank are not among them). */
  readonly columns: readonly ValueColumn[];
  /** Model node of row r, or -1 for a global record (no region), which is dropped as Hatchet does. */
  node(r: number): number;
  /** mpi.rank of row r (NaN when the row has none); null when the profile has no rank attribute. */
  readonly rank: ((r: number) => number) | null;
  /** `sourceloc#cali.sampler.pc` label of row r; null when the profile has no such attribute. */
  readonly location: ((r: number) => string | null) | null;
  /** `module#cali.sampler.pc` of row r; null when the profile has no such attribute. */
  readonly module: ((r: number) => string | null) | null;
  /** Calls `add` with the column index and value of every value of row r (NaN = missing). */
  forEachValue(r: number, add: (column: number, value: number) => void): void;
  /**
   * The same rows as typed columns, when the form stores them so (json-split): `node` and `rank` per
   * row, and `values(column)` with one value per row (NaN = missing). Assembly then runs column by
   * column over typed arrays instead of calling the functions above per row and value.
   */
  readonly columnar?: {
    readonly node: Int32Array;
    readonly rank: Float64Array | null;
    values(column: number): Float64Array;
    /**
     * The sampled source location of each row that has a tree node, as a key per row (one per
     * distinct label, so rows are grouped without a string per row) and the label of a key; a row
     * without a location has the key of `UNKNOWN:0`. Present when the form has locations.
     */
    readonly location?: { readonly key: Int32Array; text(key: number): string };
  };
}

/** Collation class of an ASCII code unit: 1 punctuation or symbol, 2 digit, 3 letter, 0 anything else. */
function collationClass(c: number): number {
  if (c >= 48 && c <= 57) return 2;
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return 3;
  return c >= 32 && c < 127 ? 1 : 0;
}

/**
 * The sign of `a.localeCompare(b)`, answered without it when the strings first differ, after the
 * same ASCII prefix, at two ASCII digits (which every locale orders as their code units) or at a
 * punctuation or symbol character and a letter or digit (Unicode collation puts punctuation and
 * symbols before digits and letters; locales that ignore punctuation are not told apart). Locations
 * of one function differ so (`file.c:12` / `file.c:9`, `UNKNOWN:0` / `/src/…`). Anything else asks
 * localeCompare, whose first call in a process creates ICU's collator: ~6 ms of a first read.
 */
export function compareLikeLocale(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i) && a.charCodeAt(i) < 128) i++;
  if (i < n) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    const cx = collationClass(x);
    const cy = collationClass(y);
    if (cx === 2 && cy === 2) return x < y ? -1 : 1;
    if (cx === 1 && cy >= 2) return -1;
    if (cy === 1 && cx >= 2) return 1;
  }
  return a.localeCompare(b);
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

/**
 * The columnar form of the location step below, with the same result: nodes are visited in the
 * order of their first row, a node at one location takes it, a node at several gets one statement
 * child per location (sorted by label). Each distinct label is parsed once, and only nodes at
 * several locations keep lists of rows.
 */
function locateColumnar(
  tree: CallTreeBuilder,
  count: number,
  node: Int32Array,
  location: { readonly key: Int32Array; text(key: number): string },
  rowTarget: Int32Array,
  statementChildren: [child: number, parent: number][],
): void {
  const { key } = location;
  const firstKey = new Int32Array(tree.size).fill(-1);
  const several = new Uint8Array(tree.size);
  const order = new GrowableInt32();
  for (let r = 0; r < count; r++) {
    const t = node[r]!;
    if (t < 0) continue;
    const k = key[r]!,
      f = firstKey[t]!;
    if (f === -1) {
      firstKey[t] = k;
      order.push(t);
    } else if (f !== k) several[t] = 1;
  }
  const rowsAt = new Map<number, Map<number, number[]>>();
  for (let r = 0; r < count; r++) {
    const t = node[r]!;
    if (t < 0) continue;
    if (several[t] === 0) {
      rowTarget[r] = t;
      continue;
    }
    let locs = rowsAt.get(t);
    if (!locs) rowsAt.set(t, (locs = new Map()));
    let list = locs.get(key[r]!);
    if (!list) locs.set(key[r]!, (list = []));
    list.push(r);
  }
  // Per key: its parsed location (file string id once interned, in first-use order as setLocation
  // would; -1 not parsed yet, 0 no file), and line.
  let keys = 0;
  for (let r = 0; r < count; r++) if (key[r]! >= keys) keys = key[r]! + 1;
  const fileOf = new Int32Array(keys).fill(-1);
  const lineOf = new Int32Array(keys);
  const parse = (k: number): void => {
    if (fileOf[k] !== -1) return;
    const { file, line } = parseSourceLocation(location.text(k));
    fileOf[k] = file ? tree.strings.intern(file) : 0;
    lineOf[k] = line ?? 0;
  };
  const nodes = order.view();
  for (let j = 0; j < nodes.length; j++) {
    const t = nodes[j]!;
    if (several[t] === 0) {
      const k = firstKey[t]!;
      parse(k);
      if (fileOf[k]! > 0) tree.setLocationId(t, fileOf[k]!, lineOf[k]!);
      continue;
    }
    const locs = [...rowsAt.get(t)!].map(([k, list]) => [location.text(k), list] as const);
    for (const [text, list] of locs.sort((a, c) => compareLikeLocale(a[0], c[0]))) {
      const { file, line } = parseSourceLocation(text);
      const name = file ? `${basename(file)}:${line ?? 0}` : text;
      const child = tree.add(t, name, NodeKind.Statement, { file, line });
      statementChildren.push([child, t]);
      for (const r of list) rowTarget[r] = child;
    }
  }
}

/**
 * Turns the rows into contexts, source locations, modules and metric values, and builds the
 * profile. The builder already holds the call tree and the run metadata. With a source-location
 * attribute, a node sampled at one location takes it, and a node sampled at several gets one
 * statement child per location (as Hatchet does). `caliperMajor` is the Caliper version assumed
 * when the metadata does not give one (it decides the unit of `time.duration`).
 */
export function assembleCaliperProfile(
  b: ProfileBuilder,
  rows: CaliperRows,
  noMetricsReason: string,
  caliperMajor: number | null = null,
): Profile {
  const { count } = rows;

  // Contexts: one per rank that has records, in rank order (Hatchet gives every node a row per such
  // rank). Ranks that never appear get none, so per-rank means are over the ranks that ran.
  const rankContext: number[] = [];
  let unknownRankContext = -1;
  const rankOf = rows.rank;
  const columnar = rows.columnar;
  if (rankOf) {
    const present = new Set<number>();
    if (columnar?.rank) {
      const { node, rank: ranks } = columnar;
      let last = -1;
      for (let r = 0; r < count; r++) {
        const rank = ranks[r]!;
        // Rows come in runs of one rank or cycle through few: skip the Set for a repeat.
        if (rank === last || node[r]! < 0) continue;
        if (Number.isInteger(rank) && rank >= 0) present.add((last = rank));
      }
    } else {
      for (let r = 0; r < count; r++) {
        if (rows.node(r) < 0) continue;
        const rank = rankOf(r);
        if (Number.isInteger(rank) && rank >= 0) present.add(rank);
      }
    }
    for (const k of [...present].sort((a, c) => a - c)) rankContext[k] = b.context({ rank: k });
  }
  // Without ranks every row is in the one context, made on first use as b.context({}) would make it.
  let single = -1;
  const contextOfRow = (r: number): number => {
    if (!rankOf) return single >= 0 ? single : (single = b.context({}));
    const rank = rankOf(r);
    if (Number.isInteger(rank) && rank >= 0) return rankContext[rank]!;
    if (unknownRankContext < 0) {
      unknownRankContext = b.context({ rank: -1 });
      b.warnings.push('some records have no mpi.rank; their values are kept in a separate context');
    }
    return unknownRankContext;
  };

  const rowTarget = new Int32Array(count).fill(-1);
  const statementChildren: [child: number, parent: number][] = [];
  const locationOf = rows.location;
  if (columnar?.location) {
    locateColumnar(b.tree, count, columnar.node, columnar.location, rowTarget, statementChildren);
  } else if (locationOf) {
    const locationsOf = new Map<number, Map<string, number[]>>();
    for (let r = 0; r < count; r++) {
      const node = rows.node(r);
      if (node < 0) continue;
      const loc = locationOf(r) ?? 'UNKNOWN:0';
      let locs = locationsOf.get(node);
      if (!locs) locationsOf.set(node, (locs = new Map()));
      let list = locs.get(loc);
      if (!list) locs.set(loc, (list = []));
      list.push(r);
    }
    for (const [node, locs] of locationsOf) {
      if (locs.size === 1) {
        const [loc, list] = [...locs][0]!;
        const { file, line } = parseSourceLocation(loc);
        if (file) b.tree.setLocation(node, file, line);
        for (const r of list) rowTarget[r] = node;
        continue;
      }
      for (const [loc, list] of [...locs].sort((a, c) => compareLikeLocale(a[0], c[0]))) {
        const { file, line } = parseSourceLocation(loc);
        const name = file ? `${basename(file)}:${line ?? 0}` : loc;
        const child = b.tree.add(node, name, NodeKind.Statement, { file, line });
        statementChildren.push([child, node]);
        for (const r of list) rowTarget[r] = child;
      }
    }
  } else if (columnar) {
    rowTarget.set(columnar.node);
  } else {
    for (let r = 0; r < count; r++) rowTarget[r] = rows.node(r);
  }

  // Load modules: a node takes the module of its samples; a function whose statements all share a
  // module takes that one too.
  const moduleOf = rows.module;
  if (moduleOf) {
    for (let r = 0; r < count; r++) {
      const t = rowTarget[r]!;
      if (t < 0 || b.tree.moduleId(t) !== 0) continue;
      const m = moduleOf(r);
      if (m) b.tree.setModule(t, m);
    }
    const agreed = new Map<number, number>(); // function node → module id, or -1 on conflict
    for (const [child, parent] of statementChildren) {
      const m = b.tree.moduleId(child);
      if (m === 0) continue;
      const seen = agreed.get(parent);
      agreed.set(parent, seen === undefined || seen === m ? m : -1);
    }
    for (const [parent, m] of agreed)
      if (m > 0 && b.tree.moduleId(parent) === 0) b.tree.setModule(parent, b.tree.strings.get(m));
    b.tree.inferModulesByName();
  }

  const plans = planMetrics(rows.columns, caliperMajorVersion(b.metadata) ?? caliperMajor);
  if (plans.length === 0) {
    if (b.tree.size > 0) throw new ProfileReadError(b.path, noMetricsReason);
    b.warnings.push('the profile holds no performance records');
    return b.build(0);
  }
  const metricIds = plans.map(p => b.addMetric(p.descriptor));
  // Column index → (metric, side): a flat lookup instead of a search per value.
  let maxColumn = -1;
  for (const c of rows.columns) maxColumn = Math.max(maxColumn, c.index);
  const metricOfColumn = new Int32Array(maxColumn + 1).fill(-1);
  const inclusiveColumn = new Uint8Array(maxColumn + 1);
  plans.forEach((p, k) => {
    if (p.exclusiveColumn >= 0) metricOfColumn[p.exclusiveColumn] = metricIds[k]!;
    if (p.inclusiveColumn >= 0) {
      metricOfColumn[p.inclusiveColumn] = metricIds[k]!;
      inclusiveColumn[p.inclusiveColumn] = 1;
    }
  });
  if (columnar) {
    // Column by column: each metric's values still arrive in row order, so every sum is the same.
    const rowContext = new Int32Array(count);
    for (let r = 0; r < count; r++) if (rowTarget[r]! >= 0) rowContext[r] = contextOfRow(r);
    for (const c of rows.columns) {
      const m = metricOfColumn[c.index]!;
      if (m < 0) continue;
      b.addRows(
        m,
        inclusiveColumn[c.index] === 1 ? 'inclusive' : 'exclusive',
        rowTarget,
        rowContext,
        columnar.values(c.index),
      );
    }
    return b.build(primaryMetricOf(plans.map(p => p.descriptor)));
  }
  let node = -1;
  let ctx = -1;
  const add = (column: number, value: number): void => {
    const m = column < metricOfColumn.length ? metricOfColumn[column]! : -1;
    if (m < 0) return;
    if (inclusiveColumn[column]) b.addInclusive(m, node, ctx, value);
    else b.addExclusive(m, node, ctx, value);
  };
  for (let r = 0; r < count; r++) {
    node = rowTarget[r]!;
    if (node < 0) continue;
    ctx = contextOfRow(r);
    rows.forEachValue(r, add);
  }
  return b.build(primaryMetricOf(plans.map(p => p.descriptor)));
}
