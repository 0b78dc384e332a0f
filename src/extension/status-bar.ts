import * as vscode from 'vscode';
import { formatValue } from '../analysis/stats/format';
import { md } from '../analysis/stats/summary-export';
import type { ProfileManager } from './profile-manager';

/** Shows the active dataset and metric, and every loaded dataset in the tooltip; a click picks another metric. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hpcLens.status', vscode.StatusBarAlignment.Left, 10);
  private readonly sub: vscode.Disposable;

  constructor(private readonly profiles: ProfileManager) {
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
    const lp = this.profiles.active;
    if (!lp) {
      this.item.hide();
      return;
    }
    const m = lp.profile.metrics[lp.metric]!;
    const others = this.profiles.datasets.length - 1;
    this.item.text = `$(flame) ${lp.name} · ${m.label}${others > 0 ? ` (+${others})` : ''}`;
    const lines = [
      `**HPC Lens** · ${md(lp.profile.format)}, ${lp.profile.tree.size} nodes, ${lp.profile.contextCount} contexts`,
      '',
      `Total ${md(m.label)}: ${formatValue(lp.total, m.unit)}`,
      '',
      'Loaded datasets:',
      '',
      ...this.profiles.datasets.map(d => {
        const metric = d.loaded.profile.metrics[d.loaded.metric]!.label;
        return d.loaded === lp
          ? `- **${md(d.loaded.name)}** · ${md(metric)} (active)`
          : `- ${md(d.loaded.name)} · ${md(metric)}`;
      }),
      '',
      'Click to choose another metric; switch datasets in the Datasets view.',
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n'));
    this.item.show();
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
