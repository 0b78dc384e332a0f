import * as vscode from 'vscode';
import { summarizeProfile, summaryToCsv, summaryToMarkdown } from '../../analysis/stats/summary-export';
import { SideBarView } from '../views/side-bar-views';
import type { ProfileManager } from '../profile-manager';
import type { SourceNavigator } from '../source-navigator';
import type { SankeyPanel } from '../webviews/sankey-panel';

/** Command ids, kept in step with package.json by the integration tests. */
export const Command = {
  openProfile: 'hpcLens.openProfile',
  openProfileFromExplorer: 'hpcLens.openProfileFromExplorer',
  showSankey: 'hpcLens.showSankey',
  toggleOverlays: 'hpcLens.toggleOverlays',
  selectMetric: 'hpcLens.selectMetric',
  closeProfile: 'hpcLens.closeProfile',
  revealNode: 'hpcLens.revealNode',
  showHotPath: 'hpcLens.showHotPath',
  showTopLines: 'hpcLens.showTopLines',
  showLoadImbalance: 'hpcLens.showLoadImbalance',
  exportSummary: 'hpcLens.exportSummary',
} as const;

interface Services {
  profiles: ProfileManager;
  sankey: SankeyPanel;
  navigator: SourceNavigator;
}

export function registerCommands({ profiles, sankey, navigator }: Services): vscode.Disposable[] {
  const reg = vscode.commands.registerCommand;
  return [
    reg(Command.openProfile, async (uri?: vscode.Uri) => {
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: 'Open a profile or trace',
          openLabel: 'Open in HPC Lens',
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: false,
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        });
        uri = picked?.[0];
      }
      if (uri) return (await profiles.open(uri)) !== undefined;
      return false;
    }),
    reg(Command.openProfileFromExplorer, async (uri?: vscode.Uri) => {
      uri ??= vscode.window.activeTextEditor?.document.uri;
      return uri ? (await profiles.open(uri)) !== undefined : false;
    }),
    reg(Command.showSankey, () => sankey.show()),
    reg(Command.toggleOverlays, async () => {
      const cfg = vscode.workspace.getConfiguration('hpcLens');
      await cfg.update('overlays.enabled', !cfg.get<boolean>('overlays.enabled', true), vscode.ConfigurationTarget.Global);
    }),
    reg(Command.selectMetric, async () => {
      const lp = profiles.active;
      if (!lp) return;
      const items = lp.profile.metrics.map((m, i) => ({
        label: m.label,
        description: `${m.name}${m.unit ? ` · ${m.unit}` : ''} · ${m.kind}`,
        picked: i === lp.metric,
        index: i,
      }));
      const choice = await vscode.window.showQuickPick(items, { title: 'HPC Lens: metric for overlays and views' });
      if (choice) await profiles.setMetric(choice.index);
    }),
    reg(Command.closeProfile, () => profiles.close()),
    reg(Command.revealNode, (file: string, line: number | null, name: string) => navigator.open(file, line, name)),
    reg(Command.showHotPath, () => vscode.commands.executeCommand(`${SideBarView.hotPaths}.focus`)),
    reg(Command.showTopLines, () => vscode.commands.executeCommand(`${SideBarView.topLines}.focus`)),
    reg(Command.showLoadImbalance, () => vscode.commands.executeCommand(`${SideBarView.imbalance}.focus`)),
    // Opens the summary as an untitled document the user can save anywhere (`format` skips the picker).
    reg(Command.exportSummary, async (format?: 'markdown' | 'csv') => {
      const lp = profiles.active;
      if (!lp) return undefined;
      format ??= (await vscode.window.showQuickPick(
        [{ label: 'Markdown', format: 'markdown' as const }, { label: 'CSV', format: 'csv' as const }],
        { title: 'HPC Lens: export hot paths, top lines, top functions and load imbalance as' },
      ))?.format;
      if (!format) return undefined;
      const summary = summarizeProfile(lp.profile, lp.metric);
      const content = format === 'markdown' ? summaryToMarkdown(summary) : summaryToCsv(summary);
      const doc = await vscode.workspace.openTextDocument({ content, language: format === 'markdown' ? 'markdown' : 'plaintext' });
      await vscode.window.showTextDocument(doc);
      return doc;
    }),
  ];
}
