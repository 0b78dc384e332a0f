import * as vscode from 'vscode';
import { formatValue } from '../analysis/stats/format';
import { md } from '../analysis/stats/summary-export';
import type { DatasetManager } from './datasets/dataset-manager';

/** Shows the active dataset and metric, and every loaded dataset in the tooltip; a click picks another metric. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hpcLens.status', vscode.StatusBarAlignment.Left, 10);
  private readonly sub: vscode.Disposable;

  constructor(private readonly profiles: DatasetManager) {
    this.item.name = 'HPC Lens';
    this.item.command = 'hpcLens.selectMetric';
    this.sub = profiles.onDidChangeDatasets(() => this.update());
  }

  /** The tooltip as last shown (for tests). */
  get tooltip(): string {
    return this.item.tooltip instanceof vscode.MarkdownString
      ? this.item.tooltip.value
      : String(this.item.tooltip ?? '');
  }
  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const ds = this.profiles.active;
    if (!ds) {
      this.item.hide();
      return;
    }
    const m = ds.metricDescriptor;
    const others = this.profiles.records.length - 1;
    this.item.text = `$(flame) ${ds.name} · ${m.label}${others > 0 ? ` (+${others})` : ''}`;
    const lines = [
      `**HPC Lens** · ${vscode.l10n.t('{0}, {1} nodes, {2} contexts', md(ds.profile.format), ds.profile.tree.size, ds.profile.contextCount)}`,
      '',
      vscode.l10n.t('Total {0}: {1}', md(m.label), formatValue(ds.total, m.unit)),
      '',
      vscode.l10n.t('Loaded datasets:'),
      '',
      ...this.profiles.records.map(r => {
        const metric = r.shown.metricDescriptor.label;
        return r.shown === ds
          ? `- **${md(r.shown.name)}** · ${md(metric)} ${vscode.l10n.t('(active)')}`
          : `- ${md(r.shown.name)} · ${md(metric)}`;
      }),
      '',
      vscode.l10n.t('Click to choose another metric; switch datasets in the Datasets view.'),
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n'));
    this.item.show();
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
