import type { Profile } from '../model/profile';
import { contextKindNoun } from '../stats/comparable-contexts';
import { formatValue } from '../stats/format';
import { DEFAULT_HOT_PATH_THRESHOLD } from '../stats/hot-path';
import { csvCell, md, table } from '../stats/summary-export';
import { diffLists, type DiffImbalanceSide, type DiffLists, type DiffRow } from './diff-lists';
import { diffProfiles, formatDelta } from './profile-diff';

/** Everything Export Summary writes for a comparison: both runs, the metric, both totals and the lists of changes. */
export interface DiffProfileSummary {
  baseline: { path: string; format: string; contexts: number; total: number };
  comparison: { path: string; format: string; contexts: number; total: number };
  metric: { name: string; label: string; unit: string };
  lists: DiffLists;
}

export function summarizeDiff(
  baseline: Profile,
  comparison: Profile,
  metricName?: string,
  options: { threshold?: number; limit?: number } = {},
): DiffProfileSummary {
  const diff = diffProfiles(baseline, comparison, metricName);
  const side = (p: Profile, total: number) => ({ path: p.path, format: p.format, contexts: p.contextCount, total });
  return {
    baseline: side(baseline, diff.baselineTotal),
    comparison: side(comparison, diff.comparisonTotal),
    metric: diff.metric,
    lists: diffLists(baseline, comparison, diff, {
      threshold: options.threshold ?? DEFAULT_HOT_PATH_THRESHOLD,
      limit: options.limit ?? 20,
    }),
  };
}

const imbalanceText = (s: DiffImbalanceSide | null) =>
  s ? `${s.imbalance.toFixed(2)}× over ${s.compared} ${contextKindNoun(s.contextKind, s.compared)}` : '–';

/**
 * The comparison as Markdown. Layout (stable; sections always present, `_None._` when empty):
 *
 *   # HPC Lens comparison
 *   - Baseline / Compared / Metric bullets (totals as means over each run's contexts, and Δ)
 *   ## Hot path of the change   | Depth | Node | Location | Baseline | Compared | Δ |
 *   ## Top lines by change      | # | Location | Baseline | Compared | Δ |        (own cost)
 *   ## Top functions by change  | # | Function | Location | Baseline | Compared | Δ |   (exclusive)
 *   ## Load imbalance by change | # | Function | Baseline | Compared | Δ cost |
 */
export function diffSummaryToMarkdown(s: DiffProfileSummary): string {
  const v = (x: number) => formatValue(x, s.metric.unit);
  const delta = (r: { baseline: number; comparison: number }) => formatDelta(r.baseline, r.comparison, v);
  const where = (r: DiffRow) => (r.file ? (r.line ? `${r.file}:${r.line}` : r.file) : '');
  const run = (r: DiffProfileSummary['baseline']) =>
    `${md(r.path)} (${md(r.format)}, ${r.contexts} context${r.contexts === 1 ? '' : 's'}), total ${md(v(r.total))}`;
  const out: string[] = [
    '# HPC Lens comparison',
    '',
    `- **Baseline:** ${run(s.baseline)}`,
    `- **Compared:** ${run(s.comparison)}`,
    `- **Metric:** ${md(s.metric.label)}${s.metric.unit ? ` (${md(s.metric.unit)})` : ''}, mean over each run's contexts; total ${md(v(s.baseline.total))} → ${md(v(s.comparison.total))}, Δ ${md(formatDelta(s.baseline.total, s.comparison.total, v))}`,
  ];
  const section = (title: string, header: string[], rows: string[][]) => {
    out.push('', `## ${title}`, '');
    if (rows.length === 0) out.push('_None._');
    else table(out, header, rows);
  };
  const L = s.lists;
  section(
    'Hot path of the change',
    ['Depth', 'Node', 'Location', 'Baseline', 'Compared', 'Δ'],
    L.hotPath.map((r, k) => [String(k), r.name, where(r), v(r.baseline), v(r.comparison), delta(r)]),
  );
  section(
    'Top lines by change',
    ['#', 'Location', 'Baseline', 'Compared', 'Δ'],
    L.topLines.map((r, k) => [String(k + 1), where(r), v(r.baseline), v(r.comparison), delta(r)]),
  );
  if (L.topLines.length === 0 && L.lineInfo !== 'lines')
    out.push('', 'Neither run records source lines (function- or region-level data).');
  section(
    'Top functions by change',
    ['#', 'Function', 'Location', 'Baseline', 'Compared', 'Δ'],
    L.topFunctions.map((r, k) => [String(k + 1), r.name, where(r), v(r.baseline), v(r.comparison), delta(r)]),
  );
  section(
    'Load imbalance by change',
    ['#', 'Function', 'Baseline', 'Compared', 'Δ cost'],
    L.imbalance.map((r, k) => [
      String(k + 1),
      r.name,
      imbalanceText(r.baseline),
      imbalanceText(r.comparison),
      `${r.delta >= 0 ? '+' : '−'}${(Math.abs(r.delta) * 100).toFixed(1)} pp`,
    ]),
  );
  return out.join('\n') + '\n';
}

/** Columns of diffSummaryToCsv, in order. */
export const DIFF_SUMMARY_CSV_COLUMNS = [
  'section',
  'rank',
  'name',
  'file',
  'line',
  'metric',
  'unit',
  'baseline',
  'compared',
  'delta',
  'status',
  'baseline_path',
  'compared_path',
] as const;

/**
 * The comparison as one RFC 4180 table (CRLF, a header row), one row per entry: `total` (the two
 * runs' totals), `hot-path` (rank = depth), `top-lines`, `top-functions` (exclusive), and
 * `imbalance` (baseline/compared = max/mean, delta = change of the imbalance cost as a fraction).
 * Values are raw means over each run's contexts in the metric's unit.
 */
export function diffSummaryToCsv(s: DiffProfileSummary): string {
  type Row = Partial<Record<(typeof DIFF_SUMMARY_CSV_COLUMNS)[number], string | number | null>>;
  const common = {
    metric: s.metric.name,
    unit: s.metric.unit,
    baseline_path: s.baseline.path,
    compared_path: s.comparison.path,
  };
  const rows: Row[] = [
    {
      section: 'total',
      rank: 1,
      ...common,
      baseline: s.baseline.total,
      compared: s.comparison.total,
      delta: s.comparison.total - s.baseline.total,
    },
  ];
  const entry = (section: string, r: DiffRow, rank: number): Row => ({
    section,
    rank,
    name: r.name,
    file: r.file,
    line: r.line,
    ...common,
    baseline: r.baseline,
    compared: r.comparison,
    delta: r.delta,
    status: r.status,
  });
  s.lists.hotPath.forEach((r, k) => rows.push(entry('hot-path', r, k)));
  s.lists.topLines.forEach((r, k) => rows.push(entry('top-lines', r, k + 1)));
  s.lists.topFunctions.forEach((r, k) => rows.push(entry('top-functions', r, k + 1)));
  s.lists.imbalance.forEach((r, k) =>
    rows.push({
      section: 'imbalance',
      rank: k + 1,
      name: r.name,
      file: r.file,
      line: r.line,
      ...common,
      baseline: r.baseline?.imbalance ?? null,
      compared: r.comparison?.imbalance ?? null,
      delta: r.delta,
    }),
  );
  return (
    [
      DIFF_SUMMARY_CSV_COLUMNS.join(','),
      ...rows.map(r => DIFF_SUMMARY_CSV_COLUMNS.map(c => csvCell(r[c])).join(',')),
    ].join('\r\n') + '\r\n'
  );
}
