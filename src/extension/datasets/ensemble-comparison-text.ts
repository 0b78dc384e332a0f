import * as vscode from 'vscode';
import { formatDelta } from '../../analysis/graph/profile-diff';
import type { MetricDescriptor } from '../../analysis/model/metric';
import { formatValue } from '../../analysis/stats/format';
import type { EnsembleComparison } from '../../service/analysis-service';

/** What a CodeLens (title) and a hover (one Markdown line) say about a function in the panel's mode. */
export interface ComparisonText {
  title: string;
  tooltip: string;
  markdown: string;
}

/** One function's values for the comparison (EnsembleComparisonValues, one row). */
export interface ComparisonRow {
  /** Mode `diff`: baseline value; mode `target`: the target's value (NaN = missing there). */
  first: number;
  /** Mode `diff`: compare value; mode `target`: the target's percentile among the runs that have the function. */
  second: number;
  /** Runs that have the function. */
  present: number;
}

/**
 * A function's line in the editor when the Ensemble CallFlow panel compares runs (CallFlow §4.8):
 * in diff mode the regression of compare over baseline (`+0.84 s (+23%) clang_64 vs gcc_64`), in
 * target mode where the target run sits among the runs (`run 216_cores 2.1 s · 92nd percentile`).
 * Values are the function's inclusive value per run (mean over the run's ranks); a run without the
 * function is said to lack it, never taken as 0. Undefined in summary mode.
 */
export function ensembleComparisonText(
  c: EnsembleComparison,
  row: ComparisonRow,
  runNames: readonly string[],
  metric: MetricDescriptor,
  fn: string,
): ComparisonText | undefined {
  const name = (r: number) => runNames[r] ?? `#${r}`;
  // Run names in the hover are code spans: `27_cores` must not turn into Markdown emphasis.
  const code = (r: number) => `\`${name(r).replace(/`/g, "'")}\``;
  const fmt = (v: number) => formatValue(v, metric.unit);
  if (c.mode === 'diff' && c.diff) {
    const { baseline, compare } = c.diff;
    const b = row.first,
      v = row.second;
    const pair = vscode.l10n.t('{0} vs {1}', name(compare), name(baseline));
    const tooltip = vscode.l10n.t(
      "{0}: {1}, inclusive, mean over each run's ranks; Ensemble CallFlow diff {2} (compare − baseline, positive = slower).",
      fn,
      metric.label,
      pair,
    );
    const heading = `**${vscode.l10n.t('Diff {0} vs {1}:', code(compare), code(baseline))}**`;
    if (b !== b && v !== v) return undefined;
    if (b !== b)
      return {
        title: `$(diff-added) ${vscode.l10n.t('only in {0} · {1} (not in {2})', name(compare), fmt(v), name(baseline))}`,
        tooltip,
        markdown: `${heading} ${vscode.l10n.t('only in {0} ({1})', code(compare), fmt(v))}`,
      };
    if (v !== v)
      return {
        title: `$(diff-removed) ${vscode.l10n.t('only in {0} · {1} (not in {2})', name(baseline), fmt(b), name(compare))}`,
        tooltip,
        markdown: `${heading} ${vscode.l10n.t('only in {0} ({1})', code(baseline), fmt(b))}`,
      };
    const delta = v - b;
    const change = delta === 0 ? vscode.l10n.t('unchanged') : formatDelta(b, v, fmt);
    const icon = delta > 0 ? '$(arrow-up)' : delta < 0 ? '$(arrow-down)' : '$(dash)';
    const verdict =
      delta > 0 ? vscode.l10n.t('slower') : delta < 0 ? vscode.l10n.t('faster') : vscode.l10n.t('unchanged');
    return {
      title: `${icon} ${change} ${pair} · ${fmt(b)} → ${fmt(v)}`,
      tooltip,
      markdown: `${heading} ${change} (${verdict}) · ${fmt(b)} → ${fmt(v)}`,
    };
  }
  if (c.mode === 'target' && c.target !== null) {
    const t = row.first;
    const tooltip = vscode.l10n.t(
      "{0}: {1}, inclusive, mean over each run's ranks; where the Ensemble CallFlow target run sits among the runs that have the function.",
      fn,
      metric.label,
    );
    const heading = `**${vscode.l10n.t('Target {0}:', code(c.target))}**`;
    if (t !== t)
      return {
        title: `$(target) ${vscode.l10n.t('not in target run {0}', name(c.target))}`,
        tooltip,
        markdown: `${heading} ${vscode.l10n.t('the function does not run there')}`,
      };
    const n = row.present;
    const percentile = ordinal(Math.round(row.second));
    const text =
      n === 1
        ? vscode.l10n.t('{0} · {1} percentile of {2} run', fmt(t), percentile, n)
        : vscode.l10n.t('{0} · {1} percentile of {2} runs', fmt(t), percentile, n);
    return { title: `$(target) ${name(c.target)} ${text}`, tooltip, markdown: `${heading} ${text}` };
  }
  return undefined;
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
