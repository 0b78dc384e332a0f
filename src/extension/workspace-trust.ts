import * as vscode from 'vscode';
import { Setting } from './settings';

/**
 * Settings a repository could use against its user: patterns matched against every recorded path or
 * function name, and folders searched for sources. package.json lists them (with openOnStartup) as
 * restricted configurations, so in an untrusted workspace VS Code hands us only the user's own
 * values; this says so once, when the workspace sets any of them.
 */
export const RESTRICTED_SETTINGS = [Setting.pathMappings, Setting.sourceSearchRoots, Setting.moduleMap] as const;

/**
 * The restricted settings this workspace (or one of its folders) sets, which are ignored while it is
 * untrusted. In restricted mode VS Code hides those values from extensions, `inspect()` included,
 * so the settings files are searched for the keys; they are read for this notice only, never applied.
 */
export async function ignoredWorkspaceSettings(): Promise<string[]> {
  if (vscode.workspace.isTrusted) return [];
  const files = (vscode.workspace.workspaceFolders ?? []).map(f =>
    vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
  );
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile && workspaceFile.scheme !== 'untitled') files.push(workspaceFile);
  const texts = await Promise.all(
    files.map(uri =>
      Promise.resolve(vscode.workspace.fs.readFile(uri)).then(
        bytes => new TextDecoder().decode(bytes),
        () => '',
      ),
    ),
  );
  return RESTRICTED_SETTINGS.map(key => `hpcLens.${key}`).filter(key => {
    const set = new RegExp(`"${key.replace(/\./g, '\\.')}"\\s*:`);
    return texts.some(text => set.test(text));
  });
}

/**
 * Tells the user (once per window, and in the log) which of the workspace's settings HPC Lens ignores
 * until the workspace is trusted; `onTrusted` runs when trust is granted (sources are mapped again).
 */
export function watchWorkspaceTrust(log: vscode.LogOutputChannel, onTrusted: () => void): vscode.Disposable {
  void ignoredWorkspaceSettings().then(ignored => {
    if (!ignored.length) return;
    const message = vscode.l10n.t(
      'HPC Lens ignores this workspace’s {0} until you trust it: they name patterns and folders applied to every profile.',
      ignored.join(', '),
    );
    log.warn(message);
    const manage = vscode.l10n.t('Manage Workspace Trust');
    void vscode.window.showInformationMessage(message, manage).then(choice => {
      if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  });
  return vscode.workspace.onDidGrantWorkspaceTrust(() => {
    log.info(vscode.l10n.t('The workspace is trusted: its HPC Lens settings apply.'));
    onTrusted();
  });
}
