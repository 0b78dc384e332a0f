import * as vscode from 'vscode';
import { formatValue } from '../analysis/stats/format';
import type { ProfileManager } from './profile-manager';

/** Shows the active profile and metric; a click picks another metric. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hpcLens.status', vscode.StatusBarAlignment.Left, 10);
  private readonly sub: vscode.Disposable;

  constructor(profiles: ProfileManager) {
    this.item.name = 'HPC Lens';
    this.item.command = 'hpcLens.selectMetric';
    this.sub = profiles.onDidChange(lp => {
      if (!lp) { this.item.hide(); return; }
      const m = lp.profile.metrics[lp.metric]!;
      this.item.text = `$(flame) ${lp.name} · ${m.label}`;
      this.item.tooltip = `HPC Lens: ${lp.uri.fsPath}\n${lp.profile.format}, ${lp.profile.tree.size} nodes, ${lp.profile.contextCount} contexts\nTotal ${m.label}: ${formatValue(lp.total, m.unit)}\nClick to choose another metric.`;
      this.item.show();
    });
  }

  dispose(): void { this.sub.dispose(); this.item.dispose(); }
}
