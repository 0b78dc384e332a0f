import * as vscode from 'vscode';
import type { DatasetManager } from '../datasets/dataset-manager';

/**
 * Open Folder as Ensemble…: from the palette a folder picker (several folders or files may be
 * picked); from the Explorer the clicked folder, or the whole multi-selection as one ensemble.
 * Resolves to true when an ensemble was opened.
 */
export async function openEnsembleCommand(
  datasets: DatasetManager,
  clicked?: unknown,
  selected?: unknown,
): Promise<boolean> {
  let uris = uriList(selected);
  if (uris.length < 2) uris = clicked instanceof vscode.Uri ? [clicked] : uriList(clicked);
  if (uris.length === 0) {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Open a folder of runs as an ensemble (or pick several runs)'),
      openLabel: vscode.l10n.t('Open as Ensemble'),
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: true,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    uris = picked ?? [];
  }
  if (uris.length === 0) return false;
  return (await datasets.openEnsemble(uris)) !== undefined;
}

function uriList(v: unknown): vscode.Uri[] {
  return Array.isArray(v) ? v.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
}
