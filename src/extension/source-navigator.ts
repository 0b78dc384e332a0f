import * as vscode from 'vscode';
import type { SourceResolver } from './source-resolver';

/** Opens a profile's source location in an editor and flashes the line so the eye finds it. */
export class SourceNavigator implements vscode.Disposable {
  private readonly flash = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });

  constructor(private readonly resolver: SourceResolver) {}

  /** Opens `file` (as recorded in the profile) at 1-based `line`; returns the editor or undefined. */
  async open(file: string, line: number | null, name: string): Promise<vscode.TextEditor | undefined> {
    const uri = await this.resolver.resolve(file);
    if (!uri) {
      void vscode.window.showWarningMessage(`HPC Lens: cannot find ${file} (for ${name}) in this workspace. Add its folder to "hpcLens.sourceSearchRoots".`);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const l = Math.max(0, Math.min((line ?? 1) - 1, doc.lineCount - 1));
    const range = new vscode.Range(l, 0, l, 0);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: range, preserveFocus: false });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    editor.setDecorations(this.flash, [range]);
    setTimeout(() => editor.setDecorations(this.flash, []), 1500);
    return editor;
  }

  dispose(): void { this.flash.dispose(); }
}
