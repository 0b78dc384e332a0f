import * as vscode from 'vscode';
import { formatShare, formatValue } from '../../analysis/stats/format';
import type { ProfileManager } from '../profile-manager';
import { heatMinShare, overlaysEnabled } from '../settings';

export const HEAT_LEVELS = 5;

/**
 * Gutter heat on lines that carry cost: five levels, each a gutter bar (light/dark variants), a
 * faint line tint (`hpcLens.heatBackground1` … 5) and an overview-ruler mark (`hpcLens.heat1` … 5),
 * all themable. Only visible
 * editors are decorated; the level is the line's exclusive cost relative to the hottest line of
 * the same file.
 */
export class HeatDecorations implements vscode.Disposable {
  private readonly types: vscode.TextEditorDecorationType[];
  private readonly subs: vscode.Disposable[];
  /** Number of decorated lines per document URI, as last applied (for the status bar and tests). */
  readonly applied = new Map<string, number>();

  constructor(extensionUri: vscode.Uri, private readonly profiles: ProfileManager) {
    this.types = Array.from({ length: HEAT_LEVELS }, (_, k) => {
      const icon = (theme: string) => vscode.Uri.joinPath(extensionUri, 'media', 'heat', `heat-${k + 1}-${theme}.svg`);
      return vscode.window.createTextEditorDecorationType({
        light: { gutterIconPath: icon('light') },
        dark: { gutterIconPath: icon('dark') },
        gutterIconSize: 'contain',
        // A whole-line tint as well: visible in every host (web workbenches may not load gutter icons).
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor(`hpcLens.heatBackground${k + 1}`),
        overviewRulerColor: new vscode.ThemeColor(`hpcLens.heat${k + 1}`),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      });
    });
    this.subs = [
      profiles.onDidChange(() => this.refresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('hpcLens')) this.refresh(); }),
    ];
    this.refresh();
  }

  refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  private decorate(editor: vscode.TextEditor): void {
    const key = editor.document.uri.toString();
    const lp = this.profiles.active;
    const overlay = lp && overlaysEnabled() ? lp.overlayFor(editor.document.uri) : undefined;
    const perLevel: vscode.DecorationOptions[][] = this.types.map(() => []);
    if (lp && overlay && lp.total > 0) {
      const unit = lp.profile.metrics[lp.metric]!.unit;
      const label = lp.profile.metrics[lp.metric]!.label;
      const min = heatMinShare();
      let max = 0;
      for (const l of overlay.lines) max = Math.max(max, l.exclusive);
      for (const l of overlay.lines) {
        const share = l.exclusive / lp.total;
        if (l.exclusive <= 0 || share < min || l.line > editor.document.lineCount) continue;
        const level = Math.min(HEAT_LEVELS - 1, Math.floor((l.exclusive / max) * HEAT_LEVELS - 1e-9));
        const hover = new vscode.MarkdownString(`**HPC Lens** · ${label}: ${formatValue(l.exclusive, unit)} exclusive on this line (${formatShare(share)} of ${lp.name})`);
        perLevel[level]!.push({ range: new vscode.Range(l.line - 1, 0, l.line - 1, 0), hoverMessage: hover });
      }
    }
    this.types.forEach((t, k) => editor.setDecorations(t, perLevel[k]!));
    const count = perLevel.reduce((a, l) => a + l.length, 0);
    if (count) this.applied.set(key, count); else this.applied.delete(key);
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.types.forEach(t => t.dispose());
  }
}
