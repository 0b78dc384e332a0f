import * as path from 'node:path';
import * as vscode from 'vscode';
import { contextNoun } from '../../analysis/model/context';
import { formatDelta, mergeDiffLines, type DiffLine } from '../../analysis/graph/profile-diff';
import { formatValue } from '../../analysis/stats/format';
import type { AnalysisService, OpenedProfile } from '../../service/analysis-service';
import { diffFunctionAt, diffLinesOf, type DiffSummary } from '../../service/diff-summary';
import type { SourceResolver } from '../source-resolver';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { SideBarLists } from '../../service/derived-data';
import type { PackedCallflowData } from '../../shared/callflow-packing';
import { Dataset, deriveOptions, type LensContent, type LineMarks } from './dataset';
import type { ProfileDataset } from './profile-dataset';

/**
 * Compare Two Profiles: the comparison run as the profile the views show, matched by calling
 * context against a baseline run. Lines that got more expensive or cheaper are marked instead of
 * the heat, and the CodeLens shows each function's change (means over contexts, so runs with
 * different rank counts compare). The baseline is loaded with it and freed with it.
 */
export class DiffDataset extends Dataset {
  readonly kind = 'diff';
  /** The comparison of the selected metric. */
  diff: DiffSummary | undefined;
  /** Per workspace file URI, the recorded files (indices into `diff.lines.files`) that resolve to it. */
  private filesOf = new Map<string, number[]>();
  /** Changed and unchanged lines per workspace file URI, unpacked when an editor shows the file. */
  private readonly linesOf = new Map<string, DiffLine[]>();
  private byName = new Map<string, number>();

  constructor(
    service: AnalysisService,
    opened: OpenedProfile,
    uri: vscode.Uri,
    private readonly base: ProfileDataset,
  ) {
    super(service, opened, uri);
  }

  override get baseline(): ProfileDataset {
    return this.base;
  }

  override get name(): string {
    return `Δ ${path.basename(this.baseline.uri.fsPath)} → ${path.basename(this.uri.fsPath)}`;
  }

  override get sourceUris(): vscode.Uri[] {
    return [this.baseline.uri, this.uri];
  }

  /** A comparison needs the metric in both runs. */
  override selectableMetrics(): number[] {
    return super.selectableMetrics().filter(i => this.baseline.profile.metricIndex(this.profile.metrics[i]!.name) >= 0);
  }

  protected override async afterDerive(resolver: SourceResolver): Promise<void> {
    const diff = await this.compare();
    const filesOf = new Map<string, number[]>();
    await Promise.all(
      diff.lines.files.map(async (rec, k) => {
        const uri = await resolver.resolve(rec);
        if (!uri) return;
        const key = uri.toString();
        const list = filesOf.get(key);
        if (list) list.push(k);
        else filesOf.set(key, [k]);
      }),
    );
    this.diff = diff;
    this.byName = new Map(diff.functions.names.map((name, f) => [name, f]));
    this.filesOf = filesOf;
    this.linesOf.clear();
  }

  /** The comparison of the selected metric, its lists cut with the side bar's settings. */
  private compare(): Promise<DiffSummary> {
    const o = deriveOptions();
    return this.service.diff({
      baseline: this.baseline.handle,
      comparison: this.handle,
      metric: this.metricDescriptor.name,
      options: { threshold: o.hotPathThreshold, limit: o.listLength },
    });
  }

  /** The side bar shows the comparison: both runs' values and the change, largest change first. */
  protected override async computeSideBarLists(): Promise<SideBarLists> {
    const lists = await super.computeSideBarLists();
    const o = deriveOptions();
    let diff = this.diff;
    if (!diff || diff.lists.threshold !== o.hotPathThreshold || diff.lists.limit !== o.listLength) {
      const metric = this.metric;
      diff = await this.compare();
      if (metric === this.metric) this.diff = diff;
    }
    return { ...lists, diff: diff.lists };
  }

  /** The compared run's graph with every node's values in both runs (coloured by the change). */
  override superGraph(options: SuperGraphDataOptions = {}, title = this.name): Promise<PackedCallflowData> {
    // A graph over some contexts only (a brush) is of the compared run alone.
    if (options.contexts) return super.superGraph(options, title);
    return this.service.superGraph({
      dataset: this.handle,
      title,
      options: { metric: this.metric, ...options },
      baseline: { dataset: this.baseline.handle, title: this.baseline.name },
    });
  }

  /** Export Summary of a comparison: both files, both totals and what changed. */
  override exportSummary(format: 'markdown' | 'csv'): Promise<string> {
    return this.service.exportSummary({
      dataset: this.handle,
      metric: this.metric,
      format,
      baseline: this.baseline.handle,
    });
  }

  /** The changed and unchanged lines of a workspace file (both runs' recorded paths that resolve to it, merged). */
  private diffLines(key: string): DiffLine[] | undefined {
    const d = this.diff;
    const files = this.filesOf.get(key);
    if (!d || !files) return undefined;
    let lines = this.linesOf.get(key);
    if (!lines) this.linesOf.set(key, (lines = mergeDiffLines(files.map(k => diffLinesOf(d, k)))));
    return lines;
  }

  /** `↑ +405 ms (+50%) vs baseline · 811 ms → 1.22 s` (inclusive, means over contexts). */
  override lens(fn: number): LensContent | undefined {
    const name = this.functions.names[fn]!;
    const f = this.byName.get(name);
    if (f === undefined || !this.diff) return undefined;
    const d = diffFunctionAt(this.diff, f);
    const metric = this.metricDescriptor;
    const fmt = (v: number) => formatValue(v, metric.unit);
    const delta = d.comparisonInclusive - d.baselineInclusive;
    const title =
      delta === 0
        ? `$(dash) ${vscode.l10n.t('unchanged vs baseline · {0}', fmt(d.baselineInclusive))}`
        : `${delta > 0 ? '$(arrow-up)' : '$(arrow-down)'} ${vscode.l10n.t(
            '{0} vs baseline · {1} → {2}',
            formatDelta(d.baselineInclusive, d.comparisonInclusive, fmt),
            fmt(d.baselineInclusive),
            fmt(d.comparisonInclusive),
          )}`;
    return {
      title,
      tooltip: vscode.l10n.t(
        '{0}: inclusive {1}, mean over {2}, in {3}. Exclusive {4} → {5}. Click to show the call graph of the comparison run.',
        name,
        metric.label,
        contextNoun(this.profile.contexts),
        this.name,
        fmt(d.baselineExclusive),
        fmt(d.comparisonExclusive),
      ),
      command: 'hpcLens.showCallflow',
      arguments: [{ focusFunction: name }],
    };
  }

  override lineMarks(uri: vscode.Uri): LineMarks | undefined {
    const lines = this.diffLines(uri.toString());
    const d = this.diff;
    return lines && d
      ? { kind: 'changes', lines, unit: d.metric.unit, larger: Math.max(d.baselineTotal, d.comparisonTotal) }
      : undefined;
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.baseline.close()]);
  }
}
