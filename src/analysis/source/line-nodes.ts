import type { FunctionTotals } from '../model/aggregates';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';

export interface NodesAtLine {
  /** Call-tree nodes: those recorded at the line, else the frames of the function around it. */
  nodes: number[];
  /** True when nodes are recorded at the line itself; false for the enclosing function's frames. */
  exact: boolean;
  /** Function index (of `totals`) the line belongs to, -1 when none. */
  function: number;
}

const ownsCost = (kind: number) => kind === NodeKind.Function || kind === NodeKind.Region;

/**
 * The reverse of the editor overlays: which call-tree nodes stand for a source line. `files` are
 * the paths the profile records for one workspace file (several recorded paths may map onto it).
 * Nodes recorded at the line come first (statements, call sites, a function's own line); when there
 * are none, the line belongs to the function of these files that starts last at or above it (its
 * first recorded line), and the result is that function's frames whose code lies in these files.
 */
export function nodesAtLine(
  profile: Profile,
  files: ReadonlySet<string>,
  line: number,
  totals: FunctionTotals,
): NodesAtLine {
  const tree = profile.tree;
  const { file, line: lineCol, kind, parent } = tree.columns;
  const fileIds = new Set<number>();
  for (let i = 0; i < tree.size && fileIds.size < files.size; i++) {
    const f = file[i]!;
    if (f !== 0 && !fileIds.has(f) && files.has(tree.strings.get(f))) fileIds.add(f);
  }
  const exact: number[] = [];
  const start = new Map<number, number>(); // function → first recorded line in these files
  for (let i = 0; i < tree.size; i++) {
    if (!fileIds.has(file[i]!) || lineCol[i]! <= 0) continue;
    if (lineCol[i] === line) exact.push(i);
    const f = totals.functionOfNode[i]!;
    if (f >= 0 && (!start.has(f) || lineCol[i]! < start.get(f)!)) start.set(f, lineCol[i]!);
  }
  if (exact.length) return { nodes: exact, exact: true, function: totals.functionOfNode[exact[0]!]! };
  let best = -1,
    bestStart = 0;
  for (const [f, s] of start)
    if (s <= line && (best < 0 || s > bestStart || (s === bestStart && f < best))) {
      best = f;
      bestStart = s;
    }
  if (best < 0) return { nodes: [], exact: false, function: -1 };
  // The frames that own the function's nodes in these files.
  const frames = new Set<number>();
  for (let i = 0; i < tree.size; i++) {
    if (totals.functionOfNode[i] !== best || !fileIds.has(file[i]!)) continue;
    let v = i;
    while (v >= 0 && !ownsCost(kind[v]!)) v = parent[v]!;
    if (v >= 0) frames.add(v);
  }
  return { nodes: [...frames].sort((a, b) => a - b), exact: false, function: best };
}
