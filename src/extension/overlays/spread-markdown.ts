import * as vscode from 'vscode';
import type { FunctionSpread } from '../../analysis/ensemble/ensemble-functions';
import { contextNoun } from '../../analysis/model/context';
import type { MetricDescriptor } from '../../analysis/model/metric';
import { formatValue } from '../../analysis/stats/format';
import { functionRows } from '../../analysis/stats/function-rows';
import { nodeSetByContext, spreadOf } from '../../analysis/stats/line-details';
import { distributionOf, sortedBarSparkline } from '../../analysis/stats/rank-distribution';
import { md } from '../../analysis/stats/summary-export';
import type { Dataset, HoverSubject } from '../datasets/dataset';
import { cachedFunctionTotals } from './overlay-cache';

/** Sparkline fill: an explicit colour (images get no theme colour), readable on light and dark. */
const SPARKLINE_COLOR = '#e8772b';
/** Per-run values listed in an ensemble hover before they are only summarised. */
const RUNS_LISTED = 8;

/** A name as inline code (Markdown escapes do not apply inside code spans). */
export function code(name: string): string {
  return `\`${name.replace(/`/g, "'").replace(/\r\n|\r|\n/g, ' ')}\``;
}

function sparklineImage(sorted: Float64Array, title: string): string {
  const svg = sortedBarSparkline(sorted, { width: 160, height: 28, color: SPARKLINE_COLOR, title });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/**
 * The hover's spread over the profile's contexts (ranks, threads) of the selected metric, inclusive:
 * a sorted-bar sparkline, min/mean/max with the context holding the max, and max/mean imbalance.
 * Empty for a single context.
 */
export function rankSpreadMarkdown(ds: Dataset, subject: HoverSubject): string {
  const p = ds.profile;
  const m = ds.metric;
  const C = p.contextCount;
  if (C <= 1) return '';
  const metric = ds.metricDescriptor;
  const values =
    subject.kind === 'line'
      ? nodeSetByContext(p, m, subject.nodes, 'inclusive')
      : functionRows(p, m, cachedFunctionTotals(p, m), [subject.fn], 'inclusive');
  const s = spreadOf(values);
  const noun = contextNoun(p.contexts);
  const fv = (v: number) => formatValue(v, metric.unit);
  const dist = distributionOf(values);
  const uri = sparklineImage(
    dist.sorted,
    vscode.l10n.t('{0} per {1}, sorted: {2} … {3}', metric.label, noun.replace(/s$/, ''), fv(s.min), fv(s.max)),
  );
  // Imbalance only over comparable contexts (imbalance.ts): never a CPU thread against a GPU stream.
  const fi = subject.kind === 'function' ? ds.functionImbalance(subject.fn) : undefined;
  const imbalance = fi
    ? ` · ${vscode.l10n.t('imbalance {0}× max/mean over {1} {2}', fi.imbalance.toFixed(2), fi.compared, fi.noun)}`
    : subject.kind === 'line' && ds.imbalances.contextsAreUnits
      ? ` · ${vscode.l10n.t('imbalance {0}× max/mean', s.imbalance.toFixed(2))}`
      : '';
  return (
    `**${vscode.l10n.t('{0} across {1} {2}', md(metric.label), C, noun)}** ${vscode.l10n.t('(inclusive, sorted)')}\n\n` +
    `![${vscode.l10n.t('{0} per {1}, sorted', md(metric.label), noun)}](${uri})\n\n` +
    `${vscode.l10n.t('min {0} · mean {1} · max {2} on {3}', fv(s.min), fv(s.mean), fv(s.max), md(p.contexts[s.maxContext]!.label))}${imbalance}\n\n`
  );
}

/** Run-to-run spread of a function: `min 1.2 s · median 1.5 s · max 2.9 s (run clang_64) · CV 18%`, and the runs it is in when not all. */
export function spreadText(s: FunctionSpread, unit: string): string {
  const fmt = (v: number) => formatValue(v, unit);
  let text = vscode.l10n.t('min {0} · median {1} · max {2}', fmt(s.min), fmt(s.median), fmt(s.max));
  if (s.maxRun !== null) text += ` ${vscode.l10n.t('(run {0})', s.maxRun)}`;
  if (s.present > 1 && Number.isFinite(s.cv)) text += ` · ${vscode.l10n.t('CV {0}%', Math.round(s.cv * 100))}`;
  if (s.missing > 0) text += ` · ${vscode.l10n.t('in {0} of {1} runs', s.present, s.present + s.missing)}`;
  return text;
}

/**
 * An ensemble hover's run-to-run section: the per-run values (mean over each run's ranks) of the
 * function or the line's nodes as a sorted sparkline, the spread, and the slowest and fastest runs.
 * Runs without the function or line are left out (and counted), never drawn as zeros.
 */
export function runSpreadMarkdown(
  values: Float64Array,
  runNames: readonly string[],
  metric: MetricDescriptor,
  spread: FunctionSpread | undefined,
): string {
  const runCount = runNames.length;
  const runs = Array.from(values, (v, r) => ({ run: runNames[r] ?? `#${r}`, v }))
    .filter(x => x.v === x.v)
    .sort((a, b) => a.v - b.v);
  if (runs.length === 0) return '';
  const fv = (v: number) => formatValue(v, metric.unit);
  const sorted = Float64Array.from(runs, x => x.v);
  const uri = sparklineImage(
    sorted,
    vscode.l10n.t('{0} per run, sorted: {1} … {2}', metric.label, fv(sorted[0]!), fv(sorted[sorted.length - 1]!)),
  );
  let text = `**${vscode.l10n.t('{0} across {1} of {2} runs', md(metric.label), runs.length, runCount)}** ${vscode.l10n.t("(inclusive, mean over each run's ranks, sorted)")}\n\n`;
  text += `![${vscode.l10n.t('{0} per run, sorted', md(metric.label))}](${uri})\n\n`;
  if (spread) text += `${md(spreadText(spread, metric.unit))}\n\n`;
  const slowest = runs[runs.length - 1]!,
    fastest = runs[0]!;
  const missing = runCount - runs.length;
  text += vscode.l10n.t(
    'slowest {0} {1} · fastest {2} {3}',
    code(slowest.run),
    fv(slowest.v),
    code(fastest.run),
    fv(fastest.v),
  );
  if (missing > 0)
    text += ` · ${missing === 1 ? vscode.l10n.t('missing in {0} run', missing) : vscode.l10n.t('missing in {0} runs', missing)}`;
  text += '\n\n';
  if (runs.length <= RUNS_LISTED) {
    text += `| ${vscode.l10n.t('run')} | ${vscode.l10n.t('value')} |\n|:--|--:|\n`;
    for (const x of [...runs].reverse()) text += `| ${md(x.run)} | ${fv(x.v)} |\n`;
    text += '\n';
  }
  return text;
}
