import {
  diffProfiles,
  type DiffFunction,
  type DiffLine,
  type DiffStatus,
  type DiffValues,
  type ProfileDiff,
} from '../analysis/graph/profile-diff';
import { diffLists, type DiffLists } from '../analysis/graph/diff-lists';
import type { Profile } from '../analysis/model/profile';
import { DEFAULT_HOT_PATH_THRESHOLD } from '../analysis/stats/hot-path';

/** DiffValues of many rows as columns, with each row's status. */
export interface PackedDiffValues {
  baselineInclusive: Float64Array;
  comparisonInclusive: Float64Array;
  baselineExclusive: Float64Array;
  comparisonExclusive: Float64Array;
  /** Index into {@link DIFF_STATUSES}. */
  status: Uint8Array;
}

export const DIFF_STATUSES: readonly DiffStatus[] = ['matched', 'removed', 'added'];

/**
 * A comparison as the editor uses it: per-function and per-line changes and the two totals, packed
 * into columns. Tens of thousands of line objects would cost the extension host a few hundred ms to
 * receive; columns arrive in a few, and a file's lines are unpacked when an editor shows it. The
 * merged calling-context tree stays where it was computed; only its size travels.
 */
export interface DiffSummary extends Omit<ProfileDiff, 'nodes' | 'functions' | 'lines'> {
  matchedNodes: number;
  /** Per function (by name), baseline functions first in their order, then added ones. */
  functions: { names: string[] } & PackedDiffValues;
  /** Per recorded source path: its lines are rows `fileStart[k]` … `fileStart[k + 1] - 1`, by line number. */
  lines: { files: string[]; fileStart: Int32Array; line: Int32Array } & PackedDiffValues;
  /** The side-bar lists of the comparison (what changed most first). */
  lists: DiffLists;
}

/** How the comparison's lists are cut: the hot-path threshold and the rows per list. */
export interface DiffListOptions {
  threshold: number;
  limit: number;
}

export const DEFAULT_DIFF_LIST_OPTIONS: DiffListOptions = { threshold: DEFAULT_HOT_PATH_THRESHOLD, limit: 50 };

function packValues(rows: readonly (DiffValues & { status: DiffStatus })[]): PackedDiffValues {
  const n = rows.length;
  const out: PackedDiffValues = {
    baselineInclusive: new Float64Array(n),
    comparisonInclusive: new Float64Array(n),
    baselineExclusive: new Float64Array(n),
    comparisonExclusive: new Float64Array(n),
    status: new Uint8Array(n),
  };
  rows.forEach((r, i) => {
    out.baselineInclusive[i] = r.baselineInclusive;
    out.comparisonInclusive[i] = r.comparisonInclusive;
    out.baselineExclusive[i] = r.baselineExclusive;
    out.comparisonExclusive[i] = r.comparisonExclusive;
    out.status[i] = DIFF_STATUSES.indexOf(r.status);
  });
  return out;
}

function valuesAt(p: PackedDiffValues, i: number): DiffValues & { status: DiffStatus } {
  return {
    baselineInclusive: p.baselineInclusive[i]!,
    comparisonInclusive: p.comparisonInclusive[i]!,
    baselineExclusive: p.baselineExclusive[i]!,
    comparisonExclusive: p.comparisonExclusive[i]!,
    status: DIFF_STATUSES[p.status[i]!]!,
  };
}

export function diffSummary(
  baseline: Profile,
  comparison: Profile,
  metric: string,
  options: DiffListOptions = DEFAULT_DIFF_LIST_OPTIONS,
): DiffSummary {
  const diff = diffProfiles(baseline, comparison, metric);
  const { nodes, functions, lines, ...rest } = diff;
  const files = [...lines.keys()];
  const fileStart = new Int32Array(files.length + 1);
  const rows: DiffLine[] = [];
  files.forEach((f, k) => {
    rows.push(...lines.get(f)!);
    fileStart[k + 1] = rows.length;
  });
  return {
    ...rest,
    matchedNodes: nodes.length,
    functions: { names: functions.map(f => f.name), ...packValues(functions) },
    lines: { files, fileStart, line: Int32Array.from(rows, r => r.line), ...packValues(rows) },
    lists: diffLists(baseline, comparison, diff, options),
  };
}

/** Function `f` of a packed comparison. */
export function diffFunctionAt(d: DiffSummary, f: number): DiffFunction {
  return { name: d.functions.names[f]!, ...valuesAt(d.functions, f) };
}

/** The lines of recorded file `k` of a packed comparison. */
export function diffLinesOf(d: DiffSummary, k: number): DiffLine[] {
  const out: DiffLine[] = [];
  for (let j = d.lines.fileStart[k]!; j < d.lines.fileStart[k + 1]!; j++)
    out.push({ line: d.lines.line[j]!, ...valuesAt(d.lines, j) });
  return out;
}
