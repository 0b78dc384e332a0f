import * as vscode from 'vscode';
import { Setting } from './settings';

/**
 * Settings a repository could use against its user: patterns matched against every recorded path or
 * function name, and folders searched for sources. package.json lists them (with openOnStartup) as
 * restricted configurations, so in an untrusted workspace VS Code hands us only the user's own
 * values; this says so once, when the workspace sets any of them.
 */
export const RESTRICTED_SETTINGS = [Setting.pathMappings, Setting.sourceSearchRoots, Setting.moduleMap] as const;

/** The restricted settings this workspace (or one of its folders) sets, which are ignored while it is untrusted. */
export function ignoredWorkspaceSettings(): string[] {
  if (vscode.workspace.isTrusted) return [];
  const cfg = vscode.workspace.getConfiguration('hpcLens');
  const folderValue = (key: string) =>
    (vscode.workspace.workspaceFolders ?? []).some(
      f => vscode.workspace.getConfiguration('hpcLens', f.uri).inspect(key)?.workspaceFolderValue !== undefined,
    );
  return RESTRICTED_SETTINGS.filter(key => cfg.inspect(key)?.workspaceValue !== undefined || folderValue(key)).map(
    key => `hpcLens.${key}`,
  );
}

/**
 * Tells the user (once per window, and in the log) which of the workspace's settings HPC Lens ignores
 * until the workspace is trusted; `onTrusted` runs when trust is granted (sources are mapped again).
 */
export function watchWorkspaceTrust(log: vscode.LogOutputChannel, onTrusted: () => void): vscode.Disposable {
  const ignored = ignoredWorkspaceSettings();
  if (ignored.length) {
    const message = vscode.l10n.t(
      'HPC Lens ignores this workspace’s {0} until you trust it: they name patterns and folders applied to every profile.',
      ignored.join(', '),
    );
    log.warn(message);
    const manage = vscode.l10n.t('Manage Workspace Trust');
    void vscode.window.showInformationMessage(message, manage).then(choice => {
      if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  }
  return vscode.workspace.onDidGrantWorkspaceTrust(() => {
    log.info(vscode.l10n.t('The workspace is trusted: its HPC Lens settings apply.'));
    onTrusted();
  });
}
