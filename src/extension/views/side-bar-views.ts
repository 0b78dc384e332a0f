import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffImbalanceSide, DiffRow } from '../../analysis/graph/diff-lists';
import { formatDelta } from '../../analysis/graph/profile-diff';
import { contextNoun } from '../../analysis/model/context';
import type { Profile } from '../../analysis/model/profile';
import { contextKindNoun } from '../../analysis/stats/comparable-contexts';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { HotPath } from '../../analysis/stats/hot-path';
import type { LineInformation } from '../../analysis/stats/top-lists';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { SideBarLists } from '../../service/derived-data';
import { AnalysisTreeProvider, type AnalysisEntry, type AnalysisRows } from './analysis-tree';
import { markdownText as esc } from './markdown-text';

/** View ids, kept in step with package.json by the integration tests. */
export const SideBarView = {
  hotPaths: 'hpcLens.hotPaths',
  topLines: 'hpcLens.topLines',
  topFunctions: 'hpcLens.topFunctions',
  imbalance: 'hpcLens.imbalance',
} as const;
export type SideBarViewId = (typeof SideBarView)[keyof typeof SideBarView];

function nodeLocation(p: Profile, node: number): AnalysisEntry['location'] {
  const file = p.tree.file(node);
  return file ? { file, line: p.tree.line(node), name: p.tree.name(node) } : null;
}

function where(file: string | null, line: number | null): string {
  return file ? `\n\n${esc(file)}${line ? `:${line}` : ''}` : '';
}

function metricOf(lp: Dataset) {
  return lp.metricDescriptor;
}

/** Whether the dataset's contexts are the runs of an ensemble (its lists sum over runs). */
const overRuns = (p: Profile) => contextNoun(p.contexts) === 'runs';

// ── A comparison's rows: both runs' values and the change ────────────────────────────────────────

/** `+405 ms (+50%) · 811 ms → 1.22 s`: the change first, then both values. */
function diffDescription(r: DiffRow, unit: string): string {
  const fmt = (v: number) => formatValue(v, unit);
  return `${formatDelta(r.baseline, r.comparison, fmt)} · ${fmt(r.baseline)} → ${fmt(r.comparison)}`;
}

function diffEntry(lp: Dataset, r: DiffRow, what: string, icon?: string): AnalysisEntry {
  const { unit, label } = metricOf(lp);
  const fmt = (v: number) => formatValue(v, unit);
  const status =
    r.status === 'added'
      ? vscode.l10n.t(' (only in the compared run)')
      : r.status === 'removed'
        ? vscode.l10n.t(' (only in the baseline)')
        : '';
  return {
    label: r.name,
    description: diffDescription(r, unit),
    tooltip:
      vscode.l10n.t(
        '**{0}**{1}: {2} {3}, mean per context\n\nbaseline {4} → compared {5}: {6}',
        esc(r.name),
        status,
        what,
        esc(label),
        fmt(r.baseline),
        fmt(r.comparison),
        formatDelta(r.baseline, r.comparison, fmt),
      ) + where(r.file, r.line),
    location: r.file ? { file: r.file, line: r.line, name: r.name } : null,
    icon: icon ?? (r.delta > 0 ? 'arrow-up' : r.delta < 0 ? 'arrow-down' : 'dash'),
    ...(r.delta !== 0 ? { iconColor: r.delta > 0 ? 'charts.red' : 'charts.green' } : {}),
  };
}

/** Why a line list is empty: the data has no lines, or (with lines) nothing passed. */
function noLinesMessage(lp: Dataset, info: LineInformation): string | undefined {
  if (info === 'none')
    return vscode.l10n.t(
      '{0} records no source lines: its data is function- or region-level, so there are no lines to rank. Top Functions lists its functions.',
      lp.name,
    );
  if (info === 'files')
    return vscode.l10n.t('{0} records source files but no line numbers: there are no lines to rank.', lp.name);
  return undefined;
}

/** A comparison's headline: `Total +5.39 s (+11%) · 47.3 s → 52.6 s`, above its lists. */
function diffTotals(lp: Dataset, d: { baselineTotal: number; comparisonTotal: number }): string {
  const fmt = (v: number) => formatValue(v, metricOf(lp).unit);
  return vscode.l10n.t(
    'Total {0} · {1} → {2} (baseline → compared, mean per context)',
    formatDelta(d.baselineTotal, d.comparisonTotal, fmt),
    fmt(d.baselineTotal),
    fmt(d.comparisonTotal),
  );
}

// ── The views ────────────────────────────────────────────────────────────────────────────────────

/** hpcviewer's hot path from each heavy root, one expanded chain per root; of a comparison, the path along which the change concentrates. */
function hotPaths(lp: Dataset, s: SideBarLists): AnalysisEntry[] | AnalysisRows {
  if (s.diff) {
    const steps = s.diff.hotPath;
    const chain = (k: number): AnalysisEntry[] =>
      steps[k] ? [{ ...diffEntry(lp, steps[k], vscode.l10n.t('inclusive')), children: chain(k + 1) }] : [];
    return steps.length
      ? {
          rows: chain(0),
          message: `${diffTotals(lp, s.diff)}. ${vscode.l10n.t('Where the change concentrates: the child with the largest change, step by step.')}`,
        }
      : { rows: [], message: vscode.l10n.t('No change between the two runs.') };
  }
  const p = lp.profile;
  const { unit, label } = metricOf(lp);
  const chain = (path: HotPath, k: number): AnalysisEntry[] => {
    const step = path[k];
    if (!step) return [];
    const name = p.tree.name(step.node);
    return [
      {
        label: name,
        description: `${formatShare(step.share)} · ${formatValue(step.inclusive, unit)}`,
        tooltip: `${vscode.l10n.t(
          '**{0}**: {1} inclusive ({2}), {3} exclusive {4}',
          esc(name),
          formatValue(step.inclusive, unit),
          formatShare(step.share),
          formatValue(step.exclusive, unit),
          esc(label),
        )}${where(p.tree.file(step.node), p.tree.line(step.node))}`,
        location: nodeLocation(p, step.node),
        icon: k === path.length - 1 ? 'flame' : 'arrow-small-right',
        children: chain(path, k + 1),
      },
    ];
  };
  return s.hotPaths.flatMap(path => chain(path, 0));
}

function lines(lp: Dataset, s: SideBarLists): AnalysisEntry[] | AnalysisRows {
  if (s.diff) {
    const rows = s.diff.topLines.map(r => diffEntry(lp, r, vscode.l10n.t('own cost of the line,')));
    return {
      rows,
      ...(rows.length ? {} : { message: noLinesMessage(lp, s.diff.lineInfo) ?? vscode.l10n.t('No line changed.') }),
    };
  }
  const p = lp.profile;
  const { unit } = metricOf(lp);
  const runs = overRuns(p);
  const rows = s.topLines.map(e => ({
    label: `${path.basename(e.file)}:${e.line}`,
    description:
      `${formatShare(e.share)} · ${formatValue(e.exclusive, unit)}${e.calls > 0 ? ` · ${vscode.l10n.t('calls {0}', formatValue(e.calls, unit))}` : ''}` +
      (runs ? vscode.l10n.t(' · median per run {0}', formatValue(e.contexts.median, unit)) : ''),
    tooltip:
      `**${esc(e.file)}:${e.line}**\n\n${vscode.l10n.t(
        '{0} on this line{1}, {2} in calls made from it',
        formatValue(e.exclusive, unit),
        runs ? vscode.l10n.t(' (summed over the runs)') : '',
        formatValue(e.calls, unit),
      )}` +
      (p.contextCount > 1
        ? runs
          ? vscode.l10n.t(
              '\n\nper run: min {0} · median {1} · max {2} ({3})',
              formatValue(e.contexts.min, unit),
              formatValue(e.contexts.median, unit),
              formatValue(e.contexts.max, unit),
              esc(p.contexts[e.contexts.maxContext]!.label),
            )
          : vscode.l10n.t(
              '\n\nper {0}: min {1} · mean {2} · max {3} ({4})',
              contextNoun(p.contexts),
              formatValue(e.contexts.min, unit),
              formatValue(e.contexts.mean, unit),
              formatValue(e.contexts.max, unit),
              esc(p.contexts[e.contexts.maxContext]!.label),
            )
        : ''),
    location: { file: e.file, line: e.line, name: `${path.basename(e.file)}:${e.line}` },
    icon: 'symbol-number',
  }));
  const message = rows.length ? undefined : noLinesMessage(lp, s.lineInfo);
  return message ? { rows, message } : rows;
}

function functions(lp: Dataset, s: SideBarLists): AnalysisEntry[] | AnalysisRows {
  if (s.diff)
    return s.diff.topFunctions.length
      ? {
          rows: s.diff.topFunctions.map(r => diffEntry(lp, r, vscode.l10n.t('exclusive'))),
          message: diffTotals(lp, s.diff),
        }
      : { rows: [], message: vscode.l10n.t('No function changed.') };
  const { unit } = metricOf(lp);
  return s.topFunctions.map(e => ({
    label: e.name,
    description: `${formatShare(e.share)} · ${formatValue(e.exclusive, unit)}`,
    tooltip: `${vscode.l10n.t(
      '**{0}**: {1} exclusive, {2} inclusive',
      esc(e.name),
      formatValue(e.exclusive, unit),
      formatValue(e.inclusive, unit),
    )}${where(e.file, e.line)}`,
    location: e.file ? { file: e.file, line: e.line, name: e.name } : null,
    icon: 'symbol-function',
  }));
}

const imbalanceSide = (x: DiffImbalanceSide | null) => (x ? `${x.imbalance.toFixed(2)}×` : vscode.l10n.t('none'));

/**
 * Functions ranked by imbalance × share over comparable contexts (ranks, processes, threads; CPU and
 * GPU apart; only where the function's callers ran): both figures shown. By function, not by
 * call-tree node: threads and ranks often reach the same function along different paths (a thread's
 * entry point vs main), and per node each path then looks idle on all but one rank. Functions that
 * ran in one context only are listed apart.
 */
function imbalance(lp: Dataset, s: SideBarLists): AnalysisRows {
  const p = lp.profile;
  const { unit } = metricOf(lp);
  if (s.diff) {
    const rows = s.diff.imbalance.map(r => ({
      label: r.name,
      description: `${imbalanceSide(r.baseline)} → ${imbalanceSide(r.comparison)}`,
      tooltip:
        vscode.l10n.t(
          '**{0}**: load imbalance (max/mean) {1} in the baseline, {2} in the compared run; its cost changed by {3} points of the run',
          esc(r.name),
          imbalanceSide(r.baseline),
          imbalanceSide(r.comparison),
          `${r.delta >= 0 ? '+' : '−'}${(Math.abs(r.delta) * 100).toFixed(1)}`,
        ) + where(r.file, r.line),
      location: r.file ? { file: r.file, line: r.line, name: r.name } : null,
      icon: r.delta > 0 ? 'arrow-up' : r.delta < 0 ? 'arrow-down' : 'dash',
      ...(r.delta !== 0 ? { iconColor: r.delta > 0 ? 'charts.red' : 'charts.green' } : {}),
    }));
    return rows.length
      ? { rows }
      : {
          rows,
          message: vscode.l10n.t(
            'Neither run has contexts to compare (one rank, process or thread per run, or a single-process trace).',
          ),
        };
  }
  const r = s.imbalance;
  const frames = s.imbalanceFrames;
  const rows: AnalysisEntry[] = r.entries.map((e, k) => {
    const frame = frames[k]!;
    const over = `${e.compared} ${contextKindNoun(e.contextKind, e.compared)}`;
    return {
      label: e.name,
      description: vscode.l10n.t(
        '{0}× · {1} of total · max on {2}',
        e.imbalance.toFixed(2),
        formatShare(e.share),
        e.maxLabel,
      ),
      tooltip:
        vscode.l10n.t(
          '**{0}**: max/mean {1}× over {2} (where its callers ran) · {3} of the total\n\nmin {4} · mean {5} · max {6} ({7})\n\nThe imbalance costs {8} of the run ((max − mean) × {2}): what the list ranks by.',
          esc(e.name),
          e.imbalance.toFixed(2),
          over,
          formatShare(e.share),
          formatValue(e.min, unit),
          formatValue(e.mean, unit),
          formatValue(e.max, unit),
          esc(e.maxLabel),
          formatShare(e.severity),
        ) + (frame >= 0 ? where(p.tree.file(frame), p.tree.line(frame)) : ''),
      location: frame >= 0 ? nodeLocation(p, frame) : null,
      icon: 'warning',
    };
  });
  if (r.singleContext.length)
    rows.push({
      label: vscode.l10n.t('Single-context ({0})', r.singleContext.length),
      description: vscode.l10n.t('ran in one context only: nothing to compare'),
      tooltip: vscode.l10n.t(
        'Functions that ran in one rank, process or thread only, under callers that ran only there too (e.g. `main` outside the rank bodies): they are not imbalanced, they have no peers.',
      ),
      location: null,
      icon: 'circle-slash',
      collapsed: true,
      children: r.singleContext.map((e, j) => {
        const frame = frames[r.entries.length + j]!;
        return {
          label: e.name,
          description: vscode.l10n.t('only on {0} · {1} of total', e.context, formatShare(e.share)),
          tooltip:
            vscode.l10n.t(
              '**{0}**: ran on {1} only ({2} of the total)',
              esc(e.name),
              esc(e.context),
              formatShare(e.share),
            ) + (frame >= 0 ? where(p.tree.file(frame), p.tree.line(frame)) : ''),
          location: frame >= 0 ? nodeLocation(p, frame) : null,
          icon: 'symbol-function',
        };
      }),
    });
  if (r.entries.length) return { rows };
  const compared = r.groups.filter(g => g.units > 1);
  return {
    rows,
    message:
      compared.length === 0
        ? vscode.l10n.t(
            'Nothing to compare: {0} has {1}. Load imbalance compares ranks or processes (threads within one process of a profile); CPU threads and GPU streams are never compared with each other.',
            lp.name,
            r.groups.map(g => `${g.units} ${contextKindNoun(g.kind, g.units)}`).join(vscode.l10n.t(' and ')) ||
              vscode.l10n.t('no contexts'),
          )
        : vscode.l10n.t('No function holding at least 1% of the total ran in more than one context.'),
  };
}

/** The analysis views of the side bar: each view's data provider and its tree view (which reveals and selects rows). */
export interface SideBarViews {
  providers: Map<SideBarViewId, AnalysisTreeProvider>;
  views: Map<SideBarViewId, vscode.TreeView<AnalysisEntry>>;
  disposables: vscode.Disposable[];
}

/** Registers the four analysis views of the HPC Lens side bar. */
export function registerSideBarViews(profiles: DatasetManager): SideBarViews {
  const views: [SideBarViewId, (lp: Dataset, s: SideBarLists) => AnalysisEntry[] | AnalysisRows][] = [
    [SideBarView.hotPaths, hotPaths],
    [SideBarView.topLines, lines],
    [SideBarView.topFunctions, functions],
    [SideBarView.imbalance, imbalance],
  ];
  const providers = new Map<SideBarViewId, AnalysisTreeProvider>();
  // The lists come with the overlays' derivation; a changed setting recomputes them in the service.
  for (const [id, format] of views)
    providers.set(id, new AnalysisTreeProvider(profiles, async ds => format(ds, await ds.sideBarLists())));
  const treeViews = new Map<SideBarViewId, vscode.TreeView<AnalysisEntry>>();
  const subs: vscode.Disposable[] = [];
  for (const [id, provider] of providers) {
    const view = vscode.window.createTreeView(id, {
      treeDataProvider: provider,
      showCollapseAll: id === SideBarView.hotPaths,
    });
    // The message says why a list is empty (no lines, nothing to compare).
    subs.push(provider.onDidRefresh(() => (view.message = provider.message)));
    view.message = provider.message;
    treeViews.set(id, view);
  }
  return { providers, views: treeViews, disposables: [...providers.values(), ...treeViews.values(), ...subs] };
}
