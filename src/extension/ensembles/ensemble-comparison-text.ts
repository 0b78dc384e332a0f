import { formatDelta } from '../../analysis/graph/profile-diff';
import { formatValue } from '../../analysis/stats/format';
import type { MetricDescriptor } from '../../analysis/model/metric';
import type { EnsembleLoadedProfile } from './ensemble-dataset';

/** What a CodeLens (title) and a hover (one Markdown line) say about a function in the panel's mode. */
export interface ComparisonText {
  title: string;
  tooltip: string;
  markdown: string;
}

/**
 * A function's line in the editor when the Ensemble CallFlow panel compares runs (CallFlow §4.8):
 * in diff mode the regression of compare over baseline (`+0.84 s (+23%) clang_64 vs gcc_64`), in
 * target mode where the target run sits among the runs (`run 216_cores 2.1 s · 92nd percentile`).
 * Values are the function's inclusive value per run (mean over the run's ranks); a run without the
 * function is said to lack it, never taken as 0. Undefined in summary mode or for unknown functions.
 */
export function ensembleComparisonText(
  lp: EnsembleLoadedProfile,
  metric: MetricDescriptor,
  fn: string,
): ComparisonText | undefined {
  const c = lp.comparison;
  if (c.mode === 'summary') return undefined;
  const ep = lp.ensemble;
  const values = ep.functionValues(metric.name, fn);
  if (!values) return undefined;
  const runs = ep.ensembleOf(metric.name).runs;
  const name = (r: number) => runs[r]?.name ?? `#${r}`;
  // Run names in the hover are code spans: `27_cores` must not turn into Markdown emphasis.
  const code = (r: number) => `\`${name(r).replace(/`/g, "'")}\``;
  const fmt = (v: number) => formatValue(v, metric.unit);
  if (c.mode === 'diff' && c.diff) {
    const { baseline, compare } = c.diff;
    const b = values[baseline]!,
      v = values[compare]!;
    const pair = `${name(compare)} vs ${name(baseline)}`;
    const tooltip = `${fn}: ${metric.label}, inclusive, mean over each run's ranks; Ensemble CallFlow diff ${pair} (compare − baseline, positive = slower).`;
    if (b !== b && v !== v) return undefined;
    if (b !== b)
      return {
        title: `$(diff-added) only in ${name(compare)} · ${fmt(v)} (not in ${name(baseline)})`,
        tooltip,
        markdown: `**Diff ${code(compare)} vs ${code(baseline)}:** only in ${code(compare)} (${fmt(v)})`,
      };
    if (v !== v)
      return {
        title: `$(diff-removed) only in ${name(baseline)} · ${fmt(b)} (not in ${name(compare)})`,
        tooltip,
        markdown: `**Diff ${code(compare)} vs ${code(baseline)}:** only in ${code(baseline)} (${fmt(b)})`,
      };
    const delta = v - b;
    const change = delta === 0 ? 'unchanged' : formatDelta(b, v, fmt);
    const icon = delta > 0 ? '$(arrow-up)' : delta < 0 ? '$(arrow-down)' : '$(dash)';
    const verdict = delta > 0 ? 'slower' : delta < 0 ? 'faster' : 'unchanged';
    return {
      title: `${icon} ${change} ${pair} · ${fmt(b)} → ${fmt(v)}`,
      tooltip,
      markdown: `**Diff ${code(compare)} vs ${code(baseline)}:** ${change} (${verdict}) · ${fmt(b)} → ${fmt(v)}`,
    };
  }
  if (c.mode === 'target' && c.target !== null) {
    const t = values[c.target]!;
    const tooltip = `${fn}: ${metric.label}, inclusive, mean over each run's ranks; where the Ensemble CallFlow target run sits among the runs that have the function.`;
    if (t !== t)
      return {
        title: `$(target) not in target run ${name(c.target)}`,
        tooltip,
        markdown: `**Target ${code(c.target)}:** the function does not run there`,
      };
    let below = 0,
      equal = 0,
      n = 0;
    for (const v of values) {
      if (v !== v) continue;
      n++;
      if (v < t) below++;
      else if (v === t) equal++;
    }
    const percentile = Math.round((100 * (below + 0.5 * equal)) / n);
    const text = `${fmt(t)} · ${ordinal(percentile)} percentile of ${n} run${n === 1 ? '' : 's'}`;
    return { title: `$(target) ${name(c.target)} ${text}`, tooltip, markdown: `**Target ${code(c.target)}:** ${text}` };
  }
  return undefined;
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
