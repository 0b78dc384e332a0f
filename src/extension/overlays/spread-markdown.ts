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
    `${metric.label} per ${noun.replace(/s$/, '')}, sorted: ${fv(s.min)} … ${fv(s.max)}`,
  );
  // Imbalance only over comparable contexts (imbalance.ts): never a CPU thread against a GPU stream.
  const fi = subject.kind === 'function' ? ds.functionImbalance(subject.fn) : undefined;
  const imbalance = fi
    ? ` · imbalance ${fi.imbalance.toFixed(2)}× max/mean over ${fi.compared} ${fi.noun}`
    : subject.kind === 'line' && ds.imbalances.contextsAreUnits
      ? ` · imbalance ${s.imbalance.toFixed(2)}× max/mean`
      : '';
  return (
    `**${md(metric.label)} across ${C} ${noun}** (inclusive, sorted)\n\n` +
    `![${md(metric.label)} per ${noun}, sorted](${uri})\n\n` +
    `min ${fv(s.min)} · mean ${fv(s.mean)} · max ${fv(s.max)} on ${md(p.contexts[s.maxContext]!.label)}${imbalance}\n\n`
  );
}

/** Run-to-run spread of a function: `min 1.2 s · median 1.5 s · max 2.9 s (run clang_64) · CV 18%`, and the runs it is in when not all. */
export function spreadText(s: FunctionSpread, unit: string): string {
  const fmt = (v: number) => formatValue(v, unit);
  let text = `min ${fmt(s.min)} · median ${fmt(s.median)} · max ${fmt(s.max)}${s.maxRun !== null ? ` (run ${s.maxRun})` : ''}`;
  if (s.present > 1 && Number.isFinite(s.cv)) text += ` · CV ${Math.round(s.cv * 100)}%`;
  if (s.missing > 0) text += ` · in ${s.present} of ${s.present + s.missing} runs`;
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
    `${metric.label} per run, sorted: ${fv(sorted[0]!)} … ${fv(sorted[sorted.length - 1]!)}`,
  );
  let text = `**${md(metric.label)} across ${runs.length} of ${runCount} runs** (inclusive, mean over each run's ranks, sorted)\n\n`;
  text += `![${md(metric.label)} per run, sorted](${uri})\n\n`;
  if (spread) text += `${md(spreadText(spread, metric.unit))}\n\n`;
  const slowest = runs[runs.length - 1]!,
    fastest = runs[0]!;
  text += `slowest ${code(slowest.run)} ${fv(slowest.v)} · fastest ${code(fastest.run)} ${fv(fastest.v)}${runs.length < runCount ? ` · missing in ${runCount - runs.length} run${runCount - runs.length === 1 ? '' : 's'}` : ''}\n\n`;
  if (runs.length <= RUNS_LISTED) {
    text += '| run | value |\n|:--|--:|\n';
    for (const x of [...runs].reverse()) text += `| ${md(x.run)} | ${fv(x.v)} |\n`;
    text += '\n';
  }
  return text;
}
