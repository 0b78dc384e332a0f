import { functionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import type { ContextKind } from '../stats/comparable-contexts';
import { functionImbalance } from '../stats/imbalance';
import { firstFramesOf, lineInformation, type LineInformation } from '../stats/top-lists';
import type { DiffStatus, ProfileDiff } from './profile-diff';

/**
 * The side-bar lists of a comparison (Compare Two Profiles): every list shows both runs' values and
 * the change, and ranks by the size of the change, |Δ| — what moved, not what is big. Values are
 * means over each run's contexts (profile-diff.ts), so runs with different rank counts compare.
 */

/** One row of a comparison list: where it is, both values and the change (comparison − baseline). */
export interface DiffRow {
  name: string;
  /** A source location to open (the comparison's frame, else the baseline's), when recorded. */
  file: string | null;
  line: number | null;
  baseline: number;
  comparison: number;
  delta: number;
  status: DiffStatus;
}

/** A function's load imbalance in each run (null where it has none to compare). */
export interface DiffImbalanceRow {
  name: string;
  file: string | null;
  line: number | null;
  baseline: DiffImbalanceSide | null;
  comparison: DiffImbalanceSide | null;
  /** comparison severity − baseline severity (a side without imbalance counts 0). */
  delta: number;
}

export interface DiffImbalanceSide {
  imbalance: number;
  /** (imbalance − 1) × share, what a profile's imbalance list ranks by. */
  severity: number;
  compared: number;
  contextKind: ContextKind;
  maxLabel: string;
}

export interface DiffLists {
  threshold: number;
  limit: number;
  /** The path along which the change concentrates: from the root with the largest |Δ|, the child with the largest |Δ| while it holds at least `threshold` of the larger total. Inclusive values. */
  hotPath: DiffRow[];
  /** Source lines by |Δ exclusive| (their own cost), as either run records the file. */
  topLines: DiffRow[];
  /** Functions by |Δ exclusive|. */
  topFunctions: DiffRow[];
  /** Functions by |Δ| of their imbalance cost. */
  imbalance: DiffImbalanceRow[];
  /** What source information the runs have (why the line list may be empty): the better of the two. */
  lineInfo: LineInformation;
  /** Both runs' totals (means per context, as every value of the comparison), for the views' headline. */
  baselineTotal: number;
  comparisonTotal: number;
}

const byDelta = (a: { delta: number; name: string }, b: { delta: number; name: string }) =>
  Math.abs(b.delta) - Math.abs(a.delta) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Every function of a comparison with its exclusive values, largest |Δ| first (`hpc-lens diff`, the Top Functions view). */
export function functionsByDelta(diff: ProfileDiff): DiffRow[] {
  return diff.functions
    .map(f => ({
      name: f.name,
      file: null,
      line: null,
      baseline: f.baselineExclusive,
      comparison: f.comparisonExclusive,
      delta: f.comparisonExclusive - f.baselineExclusive,
      status: f.status,
    }))
    .sort(byDelta);
}

/** The comparison's lists (see DiffLists). O(n) over the merged tree plus the two runs' imbalance. */
export function diffLists(
  baseline: Profile,
  comparison: Profile,
  diff: ProfileDiff,
  options: { threshold: number; limit: number },
): DiffLists {
  const { threshold, limit } = options;
  // Where a function's row leads: its first frame with a file in the comparison, else in the baseline.
  const mb = diff.baselineMetric,
    mc = diff.comparisonMetric;
  const tb = functionTotals(baseline, mb),
    tc = functionTotals(comparison, mc);
  const locationOf = new Map<string, { file: string; line: number | null }>();
  for (const [p, t] of [
    [baseline, tb],
    [comparison, tc],
  ] as const) {
    const all = t.names.map((_, f) => f);
    firstFramesOf(p, t, all).forEach((node, f) => {
      if (node >= 0) locationOf.set(t.names[f]!, { file: p.tree.file(node)!, line: p.tree.line(node) });
    });
  }
  const located = (name: string) => locationOf.get(name) ?? { file: null, line: null };

  const topFunctions = functionsByDelta(diff)
    .filter(r => r.delta !== 0)
    .slice(0, limit)
    .map(r => ({ ...r, ...located(r.name) }));

  const lines: DiffRow[] = [];
  for (const [file, list] of diff.lines)
    for (const l of list) {
      const delta = l.comparisonExclusive - l.baselineExclusive;
      if (delta === 0) continue;
      const base = file.slice(file.lastIndexOf('/') + 1);
      lines.push({
        name: `${base}:${l.line}`,
        file,
        line: l.line,
        baseline: l.baselineExclusive,
        comparison: l.comparisonExclusive,
        delta,
        status: l.status,
      });
    }
  lines.sort(byDelta);

  // The hot path of the change, on the merged calling-context tree.
  const nodes = diff.nodes;
  const children: number[][] = nodes.map(() => []);
  const roots: number[] = [];
  nodes.forEach((n, i) => (n.parent >= 0 ? children[n.parent]!.push(i) : roots.push(i)));
  const dIncl = (i: number) => nodes[i]!.comparisonInclusive - nodes[i]!.baselineInclusive;
  const floor = threshold * Math.max(diff.baselineTotal, diff.comparisonTotal);
  const hotPath: DiffRow[] = [];
  const largest = (list: number[]) =>
    list.reduce((b, i) => (b < 0 || Math.abs(dIncl(i)) > Math.abs(dIncl(b)) ? i : b), -1);
  for (
    let at = largest(roots);
    at >= 0 && Math.abs(dIncl(at)) > 0 && (hotPath.length === 0 || Math.abs(dIncl(at)) >= floor);
  ) {
    const n = nodes[at]!;
    const frame = n.comparisonNodes[0] ?? -1;
    const where =
      frame >= 0
        ? { file: comparison.tree.file(frame), line: comparison.tree.line(frame) }
        : n.baselineNodes[0] !== undefined
          ? { file: baseline.tree.file(n.baselineNodes[0]), line: baseline.tree.line(n.baselineNodes[0]) }
          : { file: null, line: null };
    hotPath.push({
      name: n.name,
      ...where,
      baseline: n.baselineInclusive,
      comparison: n.comparisonInclusive,
      delta: dIncl(at),
      status: n.status,
    });
    at = largest(children[at]!);
  }

  // Load imbalance of each run, matched by function name.
  const side = (p: Profile, m: number, t: typeof tb) => {
    const out = new Map<string, DiffImbalanceSide>();
    for (const e of functionImbalance(p, m, { limit: Infinity }, t).entries)
      out.set(e.name, {
        imbalance: e.imbalance,
        severity: e.severity,
        compared: e.compared,
        contextKind: e.contextKind,
        maxLabel: e.maxLabel,
      });
    return out;
  };
  const ib = side(baseline, mb, tb),
    ic = side(comparison, mc, tc);
  const imbalance: DiffImbalanceRow[] = [...new Set([...ib.keys(), ...ic.keys()])]
    .map(name => {
      const b = ib.get(name) ?? null,
        c = ic.get(name) ?? null;
      return { name, ...located(name), baseline: b, comparison: c, delta: (c?.severity ?? 0) - (b?.severity ?? 0) };
    })
    .sort(byDelta)
    .slice(0, limit);

  const info = [lineInformation(baseline), lineInformation(comparison)];
  return {
    threshold,
    limit,
    hotPath,
    topLines: lines.slice(0, limit),
    topFunctions,
    imbalance,
    lineInfo: info.includes('lines') ? 'lines' : info.includes('files') ? 'files' : 'none',
    baselineTotal: diff.baselineTotal,
    comparisonTotal: diff.comparisonTotal,
  };
}
