import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FunctionSpread } from '../../analysis/ensemble/ensemble-functions';
import type {
  AnalysisService,
  EnsembleComparison,
  EnsembleComparisonValues,
  EnsembleRunSummary,
  OpenedEnsemble,
} from '../../service/analysis-service';
import type { RunLoadError } from '../../analysis/ensemble/ensemble-runs';
import { runSpreadMarkdown, spreadText } from '../overlays/spread-markdown';
import type { SourceResolver } from '../source-resolver';
import { Dataset, type HoverSubject, type LensContent } from './dataset';
import { ensembleComparisonText, type ComparisonText } from './ensemble-comparison-text';

const SUMMARY: EnsembleComparison = { mode: 'summary', target: null, diff: null };

/**
 * An ensemble: the runs' union calling-context tree as a profile whose contexts are the runs (each
 * value the run's mean over its ranks), so heat, hot paths, top lists and the Sankey read it like
 * any profile. Its CodeLens and hovers show the run-to-run spread, or — while the Ensemble CallFlow
 * panel compares a target run or two runs — that comparison. The statistics stay in the analysis
 * service; this holds the small per-function tables the editor shows.
 */
export class EnsembleDataset extends Dataset {
  readonly kind = 'ensemble';
  readonly runs: EnsembleRunSummary[];
  readonly errors: RunLoadError[];
  readonly skipped: { name: string; reason: string }[];
  private readonly comparisonChanged = new vscode.EventEmitter<EnsembleComparison>();
  /** Fires when the Ensemble CallFlow panel changes mode, target or diff pair (CodeLens and hovers follow). */
  readonly onDidChangeComparison = this.comparisonChanged.event;
  private current: EnsembleComparison = SUMMARY;
  private spreads = new Map<string, FunctionSpread>();
  private compared: { values: EnsembleComparisonValues; index: Map<string, number> } | undefined;

  constructor(
    service: AnalysisService,
    opened: OpenedEnsemble,
    uri: vscode.Uri,
    private readonly label: string,
    private readonly sources: vscode.Uri[],
  ) {
    super(service, opened, uri);
    this.runs = opened.runs;
    this.errors = opened.errors;
    this.skipped = opened.skipped;
  }

  override get name(): string {
    return this.label;
  }

  override get sourceUris(): vscode.Uri[] {
    return this.sources;
  }

  get runCount(): number {
    return this.runs.length;
  }

  /** What the editor overlays compare: the ensemble's spread, one target run against it, or two runs. */
  get comparison(): EnsembleComparison {
    return this.current;
  }

  /** Follows the Ensemble CallFlow panel's mode; resolves once the CodeLens and hovers can show it. */
  async setComparison(c: EnsembleComparison): Promise<void> {
    const same =
      c.mode === this.current.mode &&
      c.target === this.current.target &&
      c.diff?.baseline === this.current.diff?.baseline &&
      c.diff?.compare === this.current.diff?.compare;
    this.current = c;
    if (same) return;
    await this.loadComparison();
    if (this.current === c) this.comparisonChanged.fire(c);
  }

  protected override async afterDerive(_resolver: SourceResolver): Promise<void> {
    const metric = this.metricDescriptor.name;
    const [spreads] = await Promise.all([
      this.service.ensembleSpreads({ dataset: this.handle, metric }),
      this.loadComparison(),
    ]);
    this.spreads = new Map(spreads.map(s => [s.name, s]));
  }

  private async loadComparison(): Promise<void> {
    const c = this.current;
    const values =
      c.mode === 'summary'
        ? null
        : await this.service.ensembleComparison({
            dataset: this.handle,
            metric: this.metricDescriptor.name,
            comparison: c,
          });
    if (c !== this.current) return;
    this.compared = values ? { values, index: new Map(values.names.map((n, f) => [n, f])) } : undefined;
  }

  private comparisonText(fn: string): ComparisonText | undefined {
    const c = this.compared;
    const f = c?.index.get(fn);
    if (!c || f === undefined) return undefined;
    const row = { first: c.values.first[f]!, second: c.values.second[f]!, present: c.values.present[f]! };
    return ensembleComparisonText(
      this.current,
      row,
      this.runs.map(r => r.name),
      this.metricDescriptor,
      fn,
    );
  }

  override lens(fn: number): LensContent | undefined {
    const name = this.functions.names[fn]!;
    const metric = this.metricDescriptor;
    // The Ensemble CallFlow panel compares a target run or two runs: the lens says that instead.
    const compared = this.comparisonText(name);
    if (compared)
      return {
        title: compared.title,
        tooltip: `${compared.tooltip} ${vscode.l10n.t('Click to show the function in Ensemble CallFlow.')}`,
        command: 'hpcLens.showEnsemble',
        arguments: [{ focusFunction: name }],
      };
    const spread = this.spreads.get(name);
    if (!spread) return super.lens(fn);
    const incl = this.functions.inclusive[fn]!;
    const excl = this.functions.exclusive[fn]!;
    return {
      title: `$(flame) ${vscode.l10n.t('{0} inclusive · {1} exclusive · {2}', this.share(incl), this.share(excl), spreadText(spread, metric.unit))}`,
      tooltip: vscode.l10n.t(
        "{0}: {1}, inclusive, per run (mean over each run's ranks) across the {2} runs of {3}; runs without the function are left out of min/median/max and CV. Click to show the function in the call graph.",
        name,
        metric.label,
        this.runCount,
        this.name,
      ),
      command: 'hpcLens.showCallflow',
      arguments: [{ focusFunction: name }],
    };
  }

  /** The runs' spread of the subject (and the panel's comparison of its function), instead of the spread over ranks. */
  override async hoverSpread(subject: HoverSubject): Promise<string> {
    const metric = this.metricDescriptor;
    let text = `*${vscode.l10n.t("Values above: sums over the {0} runs of each run's mean over its ranks; shares are of the ensemble's total.", this.runCount)}*\n\n`;
    const f = subject.kind === 'line' ? subject.owner : subject.fn;
    const fn = f >= 0 ? this.functions.names[f]! : undefined;
    const compared = fn !== undefined ? this.comparisonText(fn) : undefined;
    if (compared) text += `${compared.markdown}\n\n`;
    const values = await this.service.ensembleValues({
      dataset: this.handle,
      metric: metric.name,
      of: subject.kind === 'line' ? { nodes: subject.nodes } : { fn: fn! },
    });
    if (values)
      text += runSpreadMarkdown(
        values,
        this.runs.map(r => r.name),
        metric,
        subject.kind === 'function' && fn !== undefined ? this.spreads.get(fn) : undefined,
      );
    return text;
  }

  override async close(): Promise<void> {
    this.comparisonChanged.dispose();
    await super.close();
  }
}

/** The ensemble's name in the Datasets view: its folder, or the common folder of several selections. */
export function ensembleLabel(paths: readonly string[], folder: string): string {
  return paths.length === 1
    ? path.basename(folder)
    : vscode.l10n.t('{0} ({1} selected)', path.basename(folder) || folder, paths.length);
}
