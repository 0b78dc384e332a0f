import { functionTotals, lineOwners } from '../model/aggregates';
import { FrameKeys, fileBasename, isLocationKeyed } from '../model/frame-keys';
import type { Profile } from '../model/profile';

/**
 * Comparing two runs of a program: a baseline and a comparison profile, matched node by node.
 *
 * What identifies a node across runs: the path of frame keys from the root (model/frame-keys.ts, the
 * rule the ensemble union uses too).
 * Siblings with the same key in one profile (e.g. a function called from two call sites) fold into
 * one matched node whose values are their sum. Recursion needs nothing special: each level of a
 * recursive chain has its own path.
 *
 * All values are means over contexts (Σ over contexts ÷ context count), so a 4-rank run compares
 * with an 8-rank run per rank. Functions are matched by name, lines by (recorded file, line).
 */

export type DiffStatus = 'matched' | 'added' | 'removed';

/** A metric's value on both sides (means over contexts; 0 on the side where the item is absent). */
export interface DiffValues {
  baselineInclusive: number;
  comparisonInclusive: number;
  baselineExclusive: number;
  comparisonExclusive: number;
}

export interface DiffNode extends DiffValues {
  /** Index of the parent in `ProfileDiff.nodes`, -1 for a root (parents precede children). */
  parent: number;
  name: string;
  kind: number;
  /** File basename and line of the key, when part of it (statements, loops, call sites). */
  file: string | null;
  line: number | null;
  status: DiffStatus;
  /** The call-tree nodes of each profile folded into this one. */
  baselineNodes: number[];
  comparisonNodes: number[];
}

export interface DiffFunction extends DiffValues {
  name: string;
  status: DiffStatus;
}

export interface DiffLine extends DiffValues {
  line: number;
  status: DiffStatus;
}

export interface ProfileDiff {
  metric: { name: string; label: string; unit: string };
  baselineMetric: number;
  comparisonMetric: number;
  baselineContexts: number;
  comparisonContexts: number;
  /** The "100 %" of each side: Σ over roots of the inclusive value, mean over contexts. */
  baselineTotal: number;
  comparisonTotal: number;
  /** The merged calling-context tree, baseline order first, then nodes only the comparison has. */
  nodes: DiffNode[];
  /** Per function (by name), baseline functions first in their order, then added ones. */
  functions: DiffFunction[];
  /** Per recorded source path (as either profile records it), lines sorted by line number. */
  lines: Map<string, DiffLine[]>;
}

function statusOf(inBaseline: boolean, inComparison: boolean): DiffStatus {
  return inBaseline && inComparison ? 'matched' : inBaseline ? 'removed' : 'added';
}

const emptyValues = (): DiffValues => ({
  baselineInclusive: 0,
  comparisonInclusive: 0,
  baselineExclusive: 0,
  comparisonExclusive: 0,
});

/**
 * Per (file, line): the inclusive value of the nodes at that line that have no ancestor at the same
 * line (so a recursive statement is not counted twice), plus the exclusive value of all of them
 * (and, in a trace, of the unlocated events they enclose).
 */
function lineValues(p: Profile, m: number, scale: number): Map<string, Map<number, { incl: number; excl: number }>> {
  const tree = p.tree;
  const { file, line } = tree.columns;
  const incl = p.inclusiveTotals(m),
    excl = p.exclusiveTotals(m);
  const byFile = new Map<number, Map<number, { incl: number; excl: number }>>();
  // A trace's unlocated events count on their enclosing frame's line (aggregates.lineOwners).
  const owner = lineOwners(p);
  // Depth-first walk counting open frames per (file, line): only the outermost one adds its inclusive value.
  const open = new Map<number, Map<number, number>>();
  const stack: number[] = [];
  for (const r of tree.roots()) stack.push(r);
  while (stack.length) {
    const v = stack.pop()!;
    if (v < 0) {
      const i = ~v;
      const cnt = open.get(file[i]!)!;
      cnt.set(line[i]!, cnt.get(line[i]!)! - 1);
      continue;
    }
    const f = file[v]!,
      l = line[v]!;
    const o = owner[v]!;
    if (o >= 0 && o !== v) byFile.get(file[o]!)!.get(line[o]!)!.excl += excl[v]! * scale;
    if (f !== 0 && l > 0) {
      let lines = byFile.get(f);
      if (!lines) byFile.set(f, (lines = new Map()));
      let c = lines.get(l);
      if (!c) lines.set(l, (c = { incl: 0, excl: 0 }));
      c.excl += excl[v]! * scale;
      let cnt = open.get(f);
      if (!cnt) open.set(f, (cnt = new Map()));
      const n = cnt.get(l) ?? 0;
      if (n === 0) c.incl += incl[v]! * scale;
      cnt.set(l, n + 1);
      stack.push(~v);
    }
    const ch = tree.children(v);
    for (let k = ch.length - 1; k >= 0; k--) stack.push(ch[k]!);
  }
  const out = new Map<string, Map<number, { incl: number; excl: number }>>();
  for (const [f, lines] of byFile) out.set(tree.strings.get(f), lines);
  return out;
}

/**
 * Compares metric `metricName` (default: the comparison's primary metric) of two profiles. Throws
 * when either profile lacks the metric. O(n) hashing over both trees plus sorting of lines per file.
 */
export function diffProfiles(baseline: Profile, comparison: Profile, metricName?: string): ProfileDiff {
  const name = metricName ?? comparison.metrics[comparison.primaryMetric]?.name;
  if (name === undefined) throw new Error('the comparison profile has no metrics');
  const mb = baseline.metricIndex(name),
    mc = comparison.metricIndex(name);
  if (mb < 0 || mc < 0) {
    const missing = mb < 0 ? 'baseline' : 'comparison';
    throw new Error(
      `the ${missing} profile has no metric "${name}" (it has ${(mb < 0 ? baseline : comparison).metrics.map(m => m.name).join(', ') || 'none'})`,
    );
  }
  const desc = comparison.metrics[mc]!;
  const sb = 1 / Math.max(1, baseline.contextCount),
    sc = 1 / Math.max(1, comparison.contextCount);

  // Merged tree: (parent merged id, frame key id) → merged id.
  const nodes: DiffNode[] = [];
  const frameKeys = new FrameKeys();
  const childOf = new Map<string, number>();
  const add = (p: Profile, m: number, scale: number, side: 'baseline' | 'comparison') => {
    const tree = p.tree;
    const { parent, kind, name: nameCol, file, line } = tree.columns;
    const incl = p.inclusiveTotals(m),
      excl = p.exclusiveTotals(m);
    const merged = new Int32Array(tree.size);
    const keyOf = frameKeys.idsOf(tree);
    const fileKey = new Map<number, string>();
    for (let i = 0; i < tree.size; i++) {
      const k = kind[i]!;
      const nm = tree.strings.get(nameCol[i]!);
      let fb: string | null = null,
        ln: number | null = null;
      if (isLocationKeyed(k) && file[i]! !== 0 && line[i]! > 0) {
        const f = file[i]!;
        let b = fileKey.get(f);
        if (b === undefined) fileKey.set(f, (b = fileBasename(tree.strings.get(f))));
        fb = b;
        ln = line[i]!;
      }
      const kid = keyOf[i]!;
      const pm = parent[i]! >= 0 ? merged[parent[i]!]! : -1;
      const ck = `${pm}:${kid}`;
      let id = childOf.get(ck);
      if (id === undefined) {
        id = nodes.length;
        childOf.set(ck, id);
        nodes.push({
          parent: pm,
          name: nm,
          kind: k,
          file: fb,
          line: ln,
          status: 'matched',
          baselineNodes: [],
          comparisonNodes: [],
          ...emptyValues(),
        });
      }
      merged[i] = id;
      const d = nodes[id]!;
      if (side === 'baseline') {
        d.baselineNodes.push(i);
        d.baselineInclusive += incl[i]! * scale;
        d.baselineExclusive += excl[i]! * scale;
      } else {
        d.comparisonNodes.push(i);
        d.comparisonInclusive += incl[i]! * scale;
        d.comparisonExclusive += excl[i]! * scale;
      }
    }
  };
  add(baseline, mb, sb, 'baseline');
  add(comparison, mc, sc, 'comparison');
  for (const d of nodes) d.status = statusOf(d.baselineNodes.length > 0, d.comparisonNodes.length > 0);

  // Functions by name.
  const functions: DiffFunction[] = [];
  const fnIndex = new Map<string, number>();
  const seen = new Map<string, [boolean, boolean]>();
  for (const [p, m, scale, side] of [
    [baseline, mb, sb, 0],
    [comparison, mc, sc, 1],
  ] as const) {
    const t = functionTotals(p, m);
    t.names.forEach((fname, f) => {
      let i = fnIndex.get(fname);
      if (i === undefined) {
        fnIndex.set(fname, (i = functions.length));
        functions.push({ name: fname, status: 'matched', ...emptyValues() });
        seen.set(fname, [false, false]);
      }
      const d = functions[i]!;
      if (side === 0) {
        d.baselineInclusive += t.inclusive[f]! * scale;
        d.baselineExclusive += t.exclusive[f]! * scale;
      } else {
        d.comparisonInclusive += t.inclusive[f]! * scale;
        d.comparisonExclusive += t.exclusive[f]! * scale;
      }
      seen.get(fname)![side] = true;
    });
  }
  for (const d of functions) {
    const [b, c] = seen.get(d.name)!;
    d.status = statusOf(b, c);
  }

  // Lines by (recorded file, line).
  const lb = lineValues(baseline, mb, sb),
    lc = lineValues(comparison, mc, sc);
  const lines = new Map<string, DiffLine[]>();
  for (const f of new Set([...lb.keys(), ...lc.keys()])) {
    const a = lb.get(f),
      b = lc.get(f);
    const ls = new Set<number>([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
    const out: DiffLine[] = [];
    for (const l of ls) {
      const x = a?.get(l),
        y = b?.get(l);
      out.push({
        line: l,
        status: statusOf(x !== undefined, y !== undefined),
        baselineInclusive: x?.incl ?? 0,
        baselineExclusive: x?.excl ?? 0,
        comparisonInclusive: y?.incl ?? 0,
        comparisonExclusive: y?.excl ?? 0,
      });
    }
    lines.set(
      f,
      out.sort((p, q) => p.line - q.line),
    );
  }

  const total = (p: Profile, m: number, scale: number) => p.total(m) * scale;
  return {
    metric: { name: desc.name, label: desc.label, unit: desc.unit },
    baselineMetric: mb,
    comparisonMetric: mc,
    baselineContexts: baseline.contextCount,
    comparisonContexts: comparison.contextCount,
    baselineTotal: total(baseline, mb, sb),
    comparisonTotal: total(comparison, mc, sc),
    nodes,
    functions,
    lines,
  };
}

/**
 * Merges line lists of several recorded paths that map to one source file (the two runs may record
 * different directories), summing both sides per line. Input lists are sorted; so is the output.
 */
export function mergeDiffLines(lists: readonly (readonly DiffLine[])[]): DiffLine[] {
  if (lists.length === 1) return lists[0]!.slice();
  const by = new Map<number, DiffLine>();
  for (const list of lists)
    for (const l of list) {
      const d = by.get(l.line);
      if (!d) {
        by.set(l.line, { ...l });
        continue;
      }
      d.baselineInclusive += l.baselineInclusive;
      d.baselineExclusive += l.baselineExclusive;
      d.comparisonInclusive += l.comparisonInclusive;
      d.comparisonExclusive += l.comparisonExclusive;
      const b = d.status !== 'added' || l.status !== 'added',
        c = d.status !== 'removed' || l.status !== 'removed';
      d.status = b && c ? 'matched' : b ? 'removed' : 'added';
    }
  return [...by.values()].sort((a, b) => a.line - b.line);
}

/** `+0.84 s (+23%)`: the signed change and its relative size (no percentage when the baseline is 0). */
export function formatDelta(baseline: number, comparison: number, format: (v: number) => string): string {
  const d = comparison - baseline;
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
  let s = `${sign}${format(Math.abs(d))}`;
  if (baseline > 0) {
    const pct = (d / baseline) * 100;
    const a = Math.abs(pct);
    s += ` (${sign}${a >= 10 ? a.toFixed(0) : a.toFixed(1)}%)`;
  } else if (d !== 0) s += ' (new)';
  return s;
}

/** Whether a change is a regression (+1), an improvement (−1) or neither (0), given a noise floor. */
export function deltaDirection(baseline: number, comparison: number, minAbs: number): -1 | 0 | 1 {
  const d = comparison - baseline;
  if (Math.abs(d) <= minAbs || d === 0) return 0;
  return d > 0 ? 1 : -1;
}
