import * as path from 'node:path';
import * as vscode from 'vscode';
import { findFunctionDefinition } from '../analysis/source/function-definitions';
import type { Resolution, SourceResolver } from './source-resolver';

/**
 * Opens a profile's source location in an editor and flashes the line so the eye finds it. When the
 * recorded file is missing or ambiguous here, offers "Locate file…" and remembers the answer.
 */
export class SourceNavigator implements vscode.Disposable {
  private readonly flash = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });

  constructor(private readonly resolver: SourceResolver) {}

  /** Opens `file` (as recorded in the profile) at 1-based `line`, or without one at the definition of `name`; returns the editor or undefined. */
  async open(file: string, line: number | null, name: string): Promise<vscode.TextEditor | undefined> {
    const resolution = await this.resolver.resolution(file);
    let uri = 'uri' in resolution ? resolution.uri : undefined;
    if (!uri) {
      const base = path.posix.basename(file.replace(/\\/g, '/'));
      const message =
        resolution.kind === 'ambiguous'
          ? vscode.l10n.t(
              'HPC Lens: {0} (for {1}) matches {2} files in this workspace equally well. Which one was profiled?',
              base,
              name,
              resolution.candidates.length,
            )
          : vscode.l10n.t('HPC Lens: cannot find {0} (for {1}) in this workspace.', file, name);
      const locate = vscode.l10n.t('Locate file…');
      if ((await vscode.window.showWarningMessage(message, locate)) !== locate) return undefined;
      uri = await this.locate(file, resolution);
      if (!uri) return undefined;
    }
    return this.show(uri, line, name);
  }

  /**
   * Asks the user where `recorded` is (a quick pick among the ambiguous candidates, or an open
   * dialog) and remembers the answer in the workspace settings. `chosen` skips the asking.
   */
  async locate(recorded: string, resolution?: Resolution, chosen?: vscode.Uri): Promise<vscode.Uri | undefined> {
    resolution ??= await this.resolver.resolution(recorded);
    const base = path.posix.basename(recorded.replace(/\\/g, '/'));
    if (!chosen && resolution.kind === 'ambiguous') {
      const browse = {
        label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`,
        description: vscode.l10n.t('choose another file'),
        uri: undefined,
      };
      const items = [
        ...resolution.candidates.map(uri => ({
          label: `$(file) ${vscode.workspace.asRelativePath(uri)}`,
          description: uri.scheme === 'file' ? undefined : uri.authority,
          uri: uri as vscode.Uri | undefined,
        })),
        browse,
      ];
      const pick = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('HPC Lens: which file is {0}?', base),
        placeHolder: vscode.l10n.t('recorded as {0}; the answer is remembered in the workspace settings', recorded),
      });
      if (!pick) return undefined;
      chosen = pick.uri;
    }
    if (!chosen) {
      const picked = await vscode.window.showOpenDialog({
        title: vscode.l10n.t('Locate {0} (recorded as {1})', base, recorded),
        openLabel: vscode.l10n.t('Use this file'),
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      chosen = picked?.[0];
      if (!chosen) return undefined;
    }
    const mapping = await this.resolver.remember(recorded, chosen);
    void vscode.window.setStatusBarMessage(
      vscode.l10n.t('HPC Lens: {0} → {1} saved in hpcLens.pathMappings', mapping.from, mapping.to),
      5000,
    );
    return chosen;
  }

  private async show(uri: vscode.Uri, line: number | null, name: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    // No recorded line (a function known by file only): its definition, found by name, else the top.
    const at = line ?? findFunctionDefinition(doc.getText(), name) + 1;
    const l = Math.max(0, Math.min((at || 1) - 1, doc.lineCount - 1));
    const range = new vscode.Range(l, 0, l, 0);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.One,
      selection: range,
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    editor.setDecorations(this.flash, [range]);
    setTimeout(() => editor.setDecorations(this.flash, []), 1500);
    return editor;
  }

  dispose(): void {
    this.flash.dispose();
  }
}
