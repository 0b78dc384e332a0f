import { contextNoun } from '../../analysis/model/context';
import type { Profile } from '../../analysis/model/profile';
import { formatBytes, formatCount } from '../../analysis/stats/format';
import { md } from '../../analysis/stats/summary-export';
import type { RunLoadError } from '../../analysis/ensemble/ensemble-runs';
import type { EnsembleRunSummary } from '../../service/analysis-service';
import { english, type L10n } from '../l10n-text';
import type { DatasetKind } from './dataset';

/** An ensemble's runs and what was not included, as the Datasets view lists them. */
export interface EnsembleFacts {
  runs: readonly EnsembleRunSummary[];
  errors: readonly RunLoadError[];
  skipped: readonly { name: string; reason: string }[];
}

/** A system's dataset in the Datasets view: its row's parts after the format and size, and its tooltip's lines (Markdown). */
export interface SystemDatasetFacts {
  description: string[];
  tooltip: string[];
}

/** What the Datasets view says about one dataset. Pure: the view and its tests share it. */
export interface DatasetFacts {
  kind: DatasetKind;
  name: string;
  profile: Profile;
  /** Path of the file or folder (for a diff: the comparison run). */
  path: string;
  /** For a diff: the baseline run's path. */
  baselinePath?: string;
  /** Bytes on disk (a folder: all its files), undefined when unknown. */
  size: number | undefined;
  /** Index of the metric the overlays show. */
  metric: number;
  active: boolean;
  /** For an ensemble: its runs, and the files that could not be read. */
  ensemble?: EnsembleFacts;
  /** For a system's dataset: what it says of itself. */
  system?: SystemDatasetFacts;
}

/** `4 ranks`, `1 thread`, `8 contexts`. */
export function contextCountText(profile: Profile): string {
  const n = profile.contextCount;
  const noun = contextNoun(profile.contexts);
  return `${formatCount(n)} ${n === 1 ? noun.replace(/s$/, '') : noun}`;
}

/** `caliper-json-split · 41.2 kB · 4 ranks · 37 nodes` (traces add `· 12.3k events`). */
export function datasetDescription(f: DatasetFacts, l10n: L10n = english): string {
  const p = f.profile;
  if (f.ensemble) {
    const runs = f.ensemble.runs;
    const parts = [
      l10n.t('{0} runs', formatCount(runs.length)),
      [...new Set(runs.map(r => r.format))].join(', '),
      l10n.t('{0} union nodes', formatCount(p.tree.size)),
    ];
    if (f.ensemble.errors.length) parts.push(l10n.t('{0} unreadable', f.ensemble.errors.length));
    return parts.join(' · ');
  }
  const parts = [p.format];
  if (f.size !== undefined) parts.push(formatBytes(f.size));
  if (f.system) return [...parts, ...f.system.description].join(' · ');
  parts.push(contextCountText(p), l10n.t('{0} nodes', formatCount(p.tree.size)));
  if (p.trace) parts.push(l10n.t('{0} events', formatCount(p.trace.events.start.length)));
  return parts.join(' · ');
}

const METADATA_SHOWN = 6;

/** Scalar metadata worth a glance (strings, numbers, booleans), at most `METADATA_SHOWN`. */
function metadataHighlights(p: Profile): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(p.metadata)) {
    if (out.length >= METADATA_SHOWN) break;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      const text = String(v);
      out.push([k, text.length > 80 ? `${text.slice(0, 79)}…` : text]);
    }
  }
  return out;
}

/** The Markdown tooltip of a Datasets row: path(s), shape, metrics, metadata highlights, warnings. */
export function datasetTooltip(f: DatasetFacts, l10n: L10n = english): string {
  const p = f.profile;
  const lines = [`**${md(f.name)}**${f.active ? ` ${l10n.t('(active)')}` : ''}`, ''];
  if (f.baselinePath !== undefined)
    lines.push(l10n.t('Baseline: {0}', `\`${f.baselinePath}\``), '', l10n.t('Compared: {0}', `\`${f.path}\``));
  else lines.push(`\`${f.path}\``);
  lines.push('', md(datasetDescription(f, l10n)));
  if (p.trace) lines.push('', l10n.t('{0} tracks', formatCount(p.trace.tracks.length)));
  if (f.ensemble) lines.push('', ...ensembleLines(f.ensemble, l10n));
  if (f.system) lines.push('', ...f.system.tooltip);
  const metrics = p.metrics.map((m, i) => (i === f.metric ? `**${md(m.label)}**` : md(m.label)));
  lines.push('', l10n.t('Metrics: {0}', metrics.join(', ')));
  const meta = metadataHighlights(p);
  if (meta.length) lines.push('', ...meta.map(([k, v]) => `- ${md(k)}: ${md(v)}`));
  if (p.warnings.length && !f.ensemble)
    lines.push(
      '',
      `$(warning) ${
        p.warnings.length === 1
          ? l10n.t('{0} reader warning (see the HPC Lens output)', p.warnings.length)
          : l10n.t('{0} reader warnings (see the HPC Lens output)', p.warnings.length)
      }`,
    );
  return lines.join('\n');
}

/** Runs shown in an ensemble's tooltip; the rest are counted. */
const RUNS_SHOWN = 20;

/** An ensemble's runs with their parameters and ranks, then the files that could not be read and why. */
function ensembleLines(e: EnsembleFacts, l10n: L10n): string[] {
  const runs = e.runs;
  const out = [
    `**${l10n.t('Runs')}** ${l10n.t("(values: mean over each run's ranks; a context missing in a run counts 0 in sums and is left out of run-to-run spreads)")}`,
    '',
  ];
  for (const r of runs.slice(0, RUNS_SHOWN)) {
    const params = Object.entries(r.parameters)
      .map(([k, v]) => `${md(k)}=${md(String(v))}`)
      .join(', ');
    out.push(
      `- ${md(r.name)} · ${md(r.format)} · ${r.ranks === 1 ? l10n.t('{0} rank', formatCount(r.ranks)) : l10n.t('{0} ranks', formatCount(r.ranks))}${params ? ` · ${params}` : ''}`,
    );
  }
  if (runs.length > RUNS_SHOWN) out.push(`- … ${l10n.t('and {0} more', formatCount(runs.length - RUNS_SHOWN))}`);
  const problems = [
    ...e.skipped.map(s => l10n.t('{0}: left out, {1}', md(s.name), md(s.reason))),
    ...e.errors.map(err => `${md(err.name)}: ${md(err.reason)}`),
  ];
  if (problems.length)
    out.push(
      '',
      `$(error) **${
        problems.length === 1
          ? l10n.t('{0} file not in the ensemble', problems.length)
          : l10n.t('{0} files not in the ensemble', problems.length)
      }**`,
      '',
      ...problems.map(x => `- ${x}`),
    );
  return out;
}
