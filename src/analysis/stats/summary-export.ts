import { functionTotals } from '../model/aggregates';
import type { Profile } from '../model/profile';
import { formatShare, formatValue } from './format';
import { DEFAULT_HOT_PATH_THRESHOLD, rootHotPaths, type HotPath } from './hot-path';
import { contextKindNoun } from './comparable-contexts';
import { functionImbalance, nodeImbalance, type ImbalanceEntry, type ImbalanceRanking } from './imbalance';
import { topFunctions, topLines, type FunctionEntry, type RankBy, type TopLines } from './top-lists';

export interface SummaryOptions {
  /** Entries per ranked list (default 20). */
  limit?: number;
  /** Hot-path threshold as a share of the total (default 0.05). */
  threshold?: number;
  /** Imbalance significance floor as a share of the total (default 0.01). */
  floor?: number;
  /** What the top lists rank by (default exclusive). */
  by?: RankBy;
}

/** Everything the Export Summary command writes, for one profile and metric. */
export interface ProfileSummary {
  profile: Profile;
  metric: number;
  total: number;
  options: Required<SummaryOptions>;
  hotPaths: HotPath[];
  topLines: TopLines;
  topFunctions: FunctionEntry[];
  nodeImbalance: ImbalanceRanking;
  functionImbalance: ImbalanceRanking;
}

export function summarizeProfile(profile: Profile, m: number, options: SummaryOptions = {}): ProfileSummary {
  const opts = { limit: 20, threshold: DEFAULT_HOT_PATH_THRESHOLD, floor: 0.01, by: 'exclusive' as RankBy, ...options };
  const totals = functionTotals(profile, m);
  const ranked = { limit: opts.limit, by: opts.by };
  const imbalance = { limit: opts.limit, floor: opts.floor };
  return {
    profile,
    metric: m,
    total: profile.total(m),
    options: opts,
    hotPaths: rootHotPaths(profile, m, opts.threshold),
    topLines: topLines(profile, m, ranked),
    topFunctions: topFunctions(profile, m, ranked, totals),
    nodeImbalance: nodeImbalance(profile, m, imbalance),
    functionImbalance: functionImbalance(profile, m, imbalance, totals),
  };
}

const location = (file: string | null, line: number | null) => (file ? (line ? `${file}:${line}` : file) : '');

/**
 * The summary as GitHub-flavoured Markdown. Layout (stable; sections always present, `_None._`
 * when empty):
 *
 *   # HPC Lens summary
 *   - Profile / Metric / Settings bullets
 *   ## Hot path            | Depth | Node | Location | Inclusive | Share | Exclusive |  (one table per root path)
 *   ## Top lines           | # | Location | Self | Calls from line | Share | Min | Mean | Max |
 *   ## Top functions       | # | Function | Location | Exclusive | Inclusive | Share | Min | Mean | Max |
 *   ## Load imbalance      | # | Node | Call path | Max/mean | Over | Min | Mean | Max | Max at | Share | Cost |
 *   ## Function imbalance  | # | Function | Max/mean | Over | Min | Mean | Max | Max at | Share | Cost |
 *   ## Single-context functions | # | Function | Only on | Share |
 *
 * Min/mean/max of the top lists are across contexts of the ranked value; those of the imbalance
 * lists across the comparable units (`Over`: `4 ranks`), and `Cost` is the imbalance's share of
 * the run ((max/mean − 1) × share), what the lists rank by. Every cell is escaped, so names such as
 * `operator|` or `std::vector<T>` cannot break the table or turn into HTML.
 */
export function summaryToMarkdown(s: ProfileSummary): string {
  const { profile } = s;
  const metric = profile.metrics[s.metric]!;
  const v = (x: number) => formatValue(x, metric.unit);
  const tree = profile.tree;
  const out: string[] = [
    '# HPC Lens summary',
    '',
    `- **Profile:** ${md(profile.path)} (${md(profile.format)}, ${profile.contextCount} context${profile.contextCount === 1 ? '' : 's'})`,
    `- **Metric:** ${md(metric.label)}${metric.unit ? ` (${md(metric.unit)})` : ''}, total ${md(v(s.total))}`,
    `- **Settings:** hot-path threshold ${formatShare(s.options.threshold)} of the total, imbalance floor ${formatShare(s.options.floor)}, top ${s.options.limit} by ${s.options.by} value`,
  ];
  const section = (title: string, header: string[], rows: string[][]) => {
    out.push('', `## ${title}`, '');
    if (rows.length === 0) {
      out.push('_None._');
      return;
    }
    table(out, header, rows);
  };

  out.push('', '## Hot path', '');
  if (s.hotPaths.length === 0) out.push('_None._');
  s.hotPaths.forEach((path, k) => {
    if (s.hotPaths.length > 1) out.push(`${k ? '\n' : ''}### From ${md(tree.name(path[0]!.node))}`, '');
    table(
      out,
      ['Depth', 'Node', 'Location', 'Inclusive', 'Share', 'Exclusive'],
      path.map(p => [
        String(p.depth),
        tree.name(p.node),
        location(tree.file(p.node), tree.line(p.node)),
        v(p.inclusive),
        formatShare(p.share),
        v(p.exclusive),
      ]),
    );
  });
  section(
    `Top lines (${s.topLines.level} level)`,
    ['#', 'Location', 'Self', 'Calls from line', 'Share', 'Min', 'Mean', 'Max'],
    s.topLines.entries.map((e, k) => [
      String(k + 1),
      location(e.file, e.line),
      v(e.exclusive),
      v(e.calls),
      formatShare(e.share),
      v(e.contexts.min),
      v(e.contexts.mean),
      v(e.contexts.max),
    ]),
  );
  section(
    'Top functions',
    ['#', 'Function', 'Location', 'Exclusive', 'Inclusive', 'Share', 'Min', 'Mean', 'Max'],
    s.topFunctions.map((e, k) => [
      String(k + 1),
      e.name,
      location(e.file, e.line),
      v(e.exclusive),
      v(e.inclusive),
      formatShare(e.share),
      v(e.contexts.min),
      v(e.contexts.mean),
      v(e.contexts.max),
    ]),
  );
  section(
    'Load imbalance',
    ['#', 'Node', 'Call path', 'Max/mean', 'Over', 'Min', 'Mean', 'Max', 'Max at', 'Share', 'Cost'],
    s.nodeImbalance.entries.map((e, k) => [
      String(k + 1),
      e.name,
      tree.path(e.id).join(' › '),
      `${e.imbalance.toFixed(2)}×`,
      `${e.compared} ${contextKindNoun(e.contextKind, e.compared)}`,
      v(e.min),
      v(e.mean),
      v(e.max),
      e.maxLabel,
      formatShare(e.share),
      formatShare(e.severity),
    ]),
  );
  section(
    'Function imbalance',
    ['#', 'Function', 'Max/mean', 'Over', 'Min', 'Mean', 'Max', 'Max at', 'Share', 'Cost'],
    s.functionImbalance.entries.map((e, k) => [
      String(k + 1),
      e.name,
      `${e.imbalance.toFixed(2)}×`,
      `${e.compared} ${contextKindNoun(e.contextKind, e.compared)}`,
      v(e.min),
      v(e.mean),
      v(e.max),
      e.maxLabel,
      formatShare(e.share),
      formatShare(e.severity),
    ]),
  );
  section(
    'Single-context functions',
    ['#', 'Function', 'Only on', 'Share'],
    s.functionImbalance.singleContext.map((e, k) => [String(k + 1), e.name, e.context, formatShare(e.share)]),
  );
  return out.join('\n') + '\n';
}

/** Appends a GFM table (every cell escaped). */
export function table(out: string[], header: string[], rows: string[][]): void {
  const line = (cells: string[]) => `| ${cells.map(md).join(' | ')} |`;
  out.push(line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line));
}

/** Escapes text for a Markdown table cell: backslash-escapes what GFM would interpret, folds newlines. */
export function md(text: string): string {
  return text.replace(/[\\`*_[\]<>|&~]/g, c => `\\${c}`).replace(/\r\n|\r|\n/g, ' ');
}

/** Columns of summaryToCsv, in order. */
export const SUMMARY_CSV_COLUMNS = [
  'section',
  'rank',
  'name',
  'call_path',
  'file',
  'line',
  'metric',
  'unit',
  'value',
  'share',
  'exclusive',
  'inclusive',
  'calls',
  'min',
  'mean',
  'max',
  'imbalance',
  'max_context',
  'context_kind',
  'compared',
  'severity',
] as const;

/**
 * The summary as one RFC 4180 CSV table (CRLF line ends, a header row, quoting only where needed),
 * so a spreadsheet can filter it by `section`:
 *
 * - `hot-path`: rank = path number (1 = heaviest root) and the node's depth in `call_path`;
 *   value = inclusive.
 * - `top-lines`: value = the ranked figure; exclusive = self cost at the line, calls = cost of calls
 *   made from it, inclusive = both.
 * - `top-functions`: value = the ranked figure (exclusive or inclusive).
 * - `imbalance`, `function-imbalance`: value = inclusive; imbalance = max/mean over `compared`
 *   units of `context_kind` (min/mean/max too), `max_context` the unit's label, `severity` what
 *   the list ranks by ((imbalance − 1) × share).
 * - `single-context`: functions that ran in one unit only (`max_context`); value = inclusive.
 *
 * Numbers are raw (full precision, in the metric's unit); shares are fractions of the total
 * (0.25, not 25 %); `call_path` joins names with ` > `; `max_context` is the context's label;
 * cells that do not apply are empty.
 */
export function summaryToCsv(s: ProfileSummary): string {
  const { profile } = s;
  const tree = profile.tree;
  const metric = profile.metrics[s.metric]!;
  type Row = Partial<Record<(typeof SUMMARY_CSV_COLUMNS)[number], string | number | null>>;
  const rows: Row[] = [];
  const common = { metric: metric.name, unit: metric.unit };
  const spread = (c: { min: number; mean: number; max: number; imbalance: number; maxContext: number }) => ({
    min: c.min,
    mean: c.mean,
    max: c.max,
    imbalance: c.imbalance,
    max_context: profile.contexts[c.maxContext]?.label ?? c.maxContext,
  });
  s.hotPaths.forEach((path, k) =>
    path.forEach(p =>
      rows.push({
        section: 'hot-path',
        rank: k + 1,
        name: tree.name(p.node),
        call_path: tree.path(p.node).join(' > '),
        file: tree.file(p.node),
        line: tree.line(p.node),
        ...common,
        value: p.inclusive,
        share: p.share,
        exclusive: p.exclusive,
        inclusive: p.inclusive,
      }),
    ),
  );
  s.topLines.entries.forEach((e, k) =>
    rows.push({
      section: 'top-lines',
      rank: k + 1,
      file: e.file,
      line: e.line,
      ...common,
      value: e.value,
      share: e.share,
      exclusive: e.exclusive,
      inclusive: e.inclusive,
      calls: e.calls,
      ...spread(e.contexts),
    }),
  );
  s.topFunctions.forEach((e, k) =>
    rows.push({
      section: 'top-functions',
      rank: k + 1,
      name: e.name,
      file: e.file,
      line: e.line,
      ...common,
      value: e.value,
      share: e.share,
      exclusive: e.exclusive,
      inclusive: e.inclusive,
      ...spread(e.contexts),
    }),
  );
  const imbalance = (e: ImbalanceEntry) => ({
    min: e.min,
    mean: e.mean,
    max: e.max,
    imbalance: e.imbalance,
    max_context: e.maxLabel,
    context_kind: e.contextKind,
    compared: e.compared,
    severity: e.severity,
  });
  s.nodeImbalance.entries.forEach((e, k) =>
    rows.push({
      section: 'imbalance',
      rank: k + 1,
      name: e.name,
      call_path: tree.path(e.id).join(' > '),
      file: tree.file(e.id),
      line: tree.line(e.id),
      ...common,
      value: e.inclusive,
      share: e.share,
      inclusive: e.inclusive,
      ...imbalance(e),
    }),
  );
  s.functionImbalance.entries.forEach((e, k) =>
    rows.push({
      section: 'function-imbalance',
      rank: k + 1,
      name: e.name,
      ...common,
      value: e.inclusive,
      share: e.share,
      inclusive: e.inclusive,
      ...imbalance(e),
    }),
  );
  s.functionImbalance.singleContext.forEach((e, k) =>
    rows.push({
      section: 'single-context',
      rank: k + 1,
      name: e.name,
      ...common,
      value: e.inclusive,
      share: e.share,
      inclusive: e.inclusive,
      max_context: e.context,
      context_kind: e.contextKind,
      compared: 1,
    }),
  );
  const lines = [
    SUMMARY_CSV_COLUMNS.join(','),
    ...rows.map(r => SUMMARY_CSV_COLUMNS.map(c => csvCell(r[c])).join(',')),
  ];
  return lines.join('\r\n') + '\r\n';
}

/** One CSV cell: quoted when it holds a comma, quote, line break or edge space; quotes doubled. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `hpc-lens summary --json`: the Export Summary as JSON (the schema of the issue, exactly these keys). */
export interface SummaryJson {
  /** The hot path from the heaviest root. */
  hotPath: { name: string; file: string | null; line: number | null; inclusive: number; exclusive: number }[];
  topLines: { file: string; line: number; inclusive: number; exclusive: number }[];
  topFunctions: { name: string; file: string | null; line: number | null; inclusive: number; exclusive: number }[];
  /** Functions by imbalance over comparable contexts; `maxContext` is the label of the unit holding the max. */
  imbalance: { function: string; maxOverMean: number; share: number; contextKind: string; maxContext: string }[];
}

/** The summary as plain data: raw values in the metric's unit, shares as fractions. */
export function summaryToJson(s: ProfileSummary): SummaryJson {
  const tree = s.profile.tree;
  return {
    hotPath: (s.hotPaths[0] ?? []).map(p => ({
      name: tree.name(p.node),
      file: tree.file(p.node),
      line: tree.line(p.node),
      inclusive: p.inclusive,
      exclusive: p.exclusive,
    })),
    topLines: s.topLines.entries.map(e => ({
      file: e.file,
      line: e.line,
      inclusive: e.inclusive,
      exclusive: e.exclusive,
    })),
    topFunctions: s.topFunctions.map(e => ({
      name: e.name,
      file: e.file,
      line: e.line,
      inclusive: e.inclusive,
      exclusive: e.exclusive,
    })),
    imbalance: s.functionImbalance.entries.map(e => ({
      function: e.name,
      maxOverMean: e.imbalance,
      share: e.share,
      contextKind: e.contextKind,
      maxContext: e.maxLabel,
    })),
  };
}
