import { functionTotals, lineCosts, lineOwners, type FunctionTotals } from '../model/aggregates';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { addSparseRow, summarizeRows, type ContextSummary } from './context-summary';
import { functionRows } from './function-rows';
import { outermostByKey } from './outermost-by-key';
import { shareOf } from './share';
import { topIndices } from './top-k';

/** Which value a top list ranks by: own cost, or own cost plus everything called. */
export type RankBy = 'exclusive' | 'inclusive';

export interface TopListOptions {
  /** Entries to return (default 20). */
  limit?: number;
  /** Default `exclusive`, what hpcviewer and callgrind_annotate rank by. */
  by?: RankBy;
}

export interface LineEntry {
  /** The file path as the profile records it. */
  file: string;
  line: number;
  /** Σ exclusive over contexts of the nodes at this line (its own cost). */
  exclusive: number;
  /** Σ inclusive of the calls made from this line (callees whose call line is here), recursion counted once. */
  calls: number;
  /** exclusive + calls. */
  inclusive: number;
  /** The ranked figure (`exclusive` or `inclusive`). */
  value: number;
  /** value / profile total. */
  share: number;
  /** How `value` spreads over the contexts. */
  contexts: ContextSummary;
  /** Call-tree nodes located at this line. */
  nodes: number[];
  /** Callee nodes called from this line (the outermost ones that carry `calls`). */
  callNodes: number[];
}

export interface TopLines {
  /**
   * `statement` when the profile has statement or loop nodes; `function` when lines only come
   * from function nodes (their definition or sample line), so line heat is function-level.
   */
  level: 'statement' | 'function';
  entries: LineEntry[];
}

/**
 * The heaviest source lines of metric m. Own cost comes from aggregates.lineCosts; the cost of
 * calls made from a line comes from the callees' call lines (CallTree.callLine), attributed to the
 * caller's file, and is kept as a separate figure so a line that only calls is not mistaken for a
 * line that computes. O(n × C) at most.
 */
export function topLines(profile: Profile, m: number, options: TopListOptions = {}): TopLines {
  const { limit = 20, by = 'exclusive' } = options;
  const tree = profile.tree;
  const C = profile.contextCount;
  const total = profile.total(m);
  const lines: Omit<LineEntry, 'inclusive' | 'value' | 'share' | 'contexts'>[] = [];
  const slotOf = new Map<string, number>();
  const slot = (file: string, line: number) => {
    const key = `${file}\n${line}`;
    let s = slotOf.get(key);
    if (s === undefined) {
      slotOf.set(key, (s = lines.length));
      lines.push({ file, line, exclusive: 0, calls: 0, nodes: [], callNodes: [] });
    }
    return s;
  };

  for (const [file, costs] of lineCosts(profile, m)) {
    for (const c of costs) Object.assign(lines[slot(file, c.line)]!, { exclusive: c.exclusive, nodes: c.nodes });
  }

  // A call is charged to the line it was made from, in the file of the caller (the nearest
  // enclosing node with a file: the caller's statement, loop or function).
  const { parent, file, callLine } = tree.columns;
  const fileOf = new Int32Array(tree.size);
  const callSlot = new Int32Array(tree.size).fill(-1);
  for (let i = 0; i < tree.size; i++) {
    const p = parent[i]!;
    fileOf[i] = file[i] || (p >= 0 ? fileOf[p]! : 0);
    if (callLine[i]! > 0 && p >= 0 && fileOf[p]! !== 0) callSlot[i] = slot(tree.strings.get(fileOf[p]!), callLine[i]!);
  }
  const outermostCall = outermostByKey(tree, callSlot, lines.length);
  const incl = profile.inclusiveTotals(m);
  for (let i = 0; i < tree.size; i++) {
    if (!outermostCall[i]) continue;
    const entry = lines[callSlot[i]!]!;
    entry.calls += incl[i]!;
    entry.callNodes.push(i);
  }

  const value = Float64Array.from(lines, l => (by === 'exclusive' ? l.exclusive : l.exclusive + l.calls));
  const top = topIndices(value, limit, s => value[s] !== 0);
  const rows = new Float64Array(top.length * C);
  const exclusiveValues = profile.sparse('exclusive', m);
  const inclusiveValues = by === 'inclusive' ? profile.sparse('inclusive', m) : null;
  top.forEach((s, r) => {
    for (const n of lines[s]!.nodes) addSparseRow(rows, r, exclusiveValues, n, C);
    if (inclusiveValues) for (const n of lines[s]!.callNodes) addSparseRow(rows, r, inclusiveValues, n, C);
  });
  const spread = summarizeRows(rows, C);
  const entries = top.map((s, r) => {
    const l = lines[s]!;
    return {
      ...l,
      inclusive: l.exclusive + l.calls,
      value: value[s]!,
      share: shareOf(value[s]!, total),
      contexts: spread[r]!,
    };
  });
  return { level: statementLevel(profile) ? 'statement' : 'function', entries };
}

/**
 * Whether line costs are statement-level: the profile has statement or loop nodes, or events that
 * hang under call-stack frames with lines (a Python `file(line)` frame is the line that ran).
 */
function statementLevel(profile: Profile): boolean {
  const { kind, line } = profile.tree.columns;
  for (let i = 0; i < kind.length; i++)
    if ((kind[i] === NodeKind.Statement || kind[i] === NodeKind.Loop) && line[i]! > 0) return true;
  if (!profile.data.callStackLines) return false;
  const owner = lineOwners(profile);
  for (let i = 0; i < owner.length; i++) if (owner[i]! >= 0 && owner[i] !== i) return true;
  return false;
}

/** What source information a profile has: lines, files without lines, or none (function- or region-level data). */
export type LineInformation = 'lines' | 'files' | 'none';

export function lineInformation(profile: Profile): LineInformation {
  const { file, line } = profile.tree.columns;
  let files = false;
  for (let i = 0; i < file.length; i++) {
    if (file[i] === 0) continue;
    if (line[i]! > 0) return 'lines';
    files = true;
  }
  return files ? 'files' : 'none';
}

export interface FunctionEntry {
  /** Index into aggregates.functionTotals(profile, m).names. */
  function: number;
  name: string;
  /** File and line of the function's first frame that has them (its definition for most formats). */
  file: string | null;
  line: number | null;
  /** Own cost plus the statements and loops it owns. */
  exclusive: number;
  /** Recursion counted once. */
  inclusive: number;
  value: number;
  share: number;
  contexts: ContextSummary;
}

/**
 * The heaviest functions of metric m, by exclusive (default) or inclusive value, from
 * aggregates.functionTotals. Pass `totals` when the caller already has them. O(n × C).
 */
/**
 * For each function in `functions`: its first frame (function or region node) that has a source
 * file, or -1 — where a list entry of that function leads when clicked. One O(n) scan.
 */
export function firstFramesOf(profile: Profile, totals: FunctionTotals, functions: readonly number[]): Int32Array {
  const rowOf = new Int32Array(totals.names.length).fill(-1);
  functions.forEach((f, r) => (rowOf[f] = r));
  const firstFrame = new Int32Array(functions.length).fill(-1);
  const { kind, file } = profile.tree.columns;
  for (let i = 0; i < profile.tree.size; i++) {
    const f = totals.functionOfNode[i]!;
    const r = f >= 0 ? rowOf[f]! : -1;
    if (r >= 0 && firstFrame[r]! < 0 && file[i] !== 0 && (kind[i] === NodeKind.Function || kind[i] === NodeKind.Region))
      firstFrame[r] = i;
  }
  return firstFrame;
}

export function topFunctions(
  profile: Profile,
  m: number,
  options: TopListOptions = {},
  totals: FunctionTotals = functionTotals(profile, m),
): FunctionEntry[] {
  const { limit = 20, by = 'exclusive' } = options;
  const tree = profile.tree;
  const C = profile.contextCount;
  const total = profile.total(m);
  const value = by === 'exclusive' ? totals.exclusive : totals.inclusive;
  const top = topIndices(value, limit, f => value[f] !== 0);
  const firstFrame = firstFramesOf(profile, totals, top);

  const rows = functionRows(profile, m, totals, top, by);
  const spread = summarizeRows(rows, C);
  return top.map((f, r) => ({
    function: f,
    name: totals.names[f]!,
    file: firstFrame[r]! >= 0 ? tree.file(firstFrame[r]!) : null,
    line: firstFrame[r]! >= 0 ? tree.line(firstFrame[r]!) : null,
    exclusive: totals.exclusive[f]!,
    inclusive: totals.inclusive[f]!,
    value: value[f]!,
    share: shareOf(value[f]!, total),
    contexts: spread[r]!,
  }));
}
