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

/** Whether the workspace (or one of its folders) lists profiles to open in `hpcLens.openOnStartup`. */
function workspaceListsProfiles(): boolean {
  const listed = (i: { workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined) =>
    (Array.isArray(i?.workspaceValue) && i.workspaceValue.length > 0) ||
    (Array.isArray(i?.workspaceFolderValue) && i.workspaceFolderValue.length > 0);
  return (
    listed(vscode.workspace.getConfiguration('hpcLens').inspect(Setting.openOnStartup)) ||
    (vscode.workspace.workspaceFolders ?? []).some(f =>
      listed(vscode.workspace.getConfiguration('hpcLens', f.uri).inspect(Setting.openOnStartup)),
    )
  );
}

/**
 * In Restricted Mode the profiles a workspace lists in `hpcLens.openOnStartup` are not opened (a
 * repository must not make us parse files); a status-bar item says so and leads to Workspace Trust,
 * instead of the profiles being skipped without a hint. Null when there is nothing to say.
 */
export function restrictedModeStatusItem(): vscode.StatusBarItem | null {
  if (vscode.workspace.isTrusted || !workspaceListsProfiles()) return null;
  const item = vscode.window.createStatusBarItem('hpcLens.restrictedMode', vscode.StatusBarAlignment.Left, 0);
  item.name = vscode.l10n.t('HPC Lens Restricted Mode');
  item.text = `$(shield) ${vscode.l10n.t('HPC Lens: trust the workspace to open its profiles')}`;
  item.tooltip = vscode.l10n.t(
    'This workspace lists profiles in hpcLens.openOnStartup; in Restricted Mode HPC Lens does not open them. Trust the workspace to open them, or open a profile yourself (HPC Lens: Open Profile…).',
  );
  item.command = 'workbench.trust.manage';
  item.show();
  return item;
}

/**
 * Tells the user (once per window, and in the log) which of the workspace's settings HPC Lens ignores
 * until the workspace is trusted, and shows the Restricted Mode status-bar item when the workspace's
 * profiles are held back; `onTrusted` runs when trust is granted (sources are mapped again, the
 * workspace's profiles opened).
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
  let restricted = restrictedModeStatusItem();
  if (restricted) log.info(vscode.l10n.t('Restricted Mode: the profiles this workspace lists are not opened.'));
  const granted = vscode.workspace.onDidGrantWorkspaceTrust(() => {
    log.info(vscode.l10n.t('The workspace is trusted: its HPC Lens settings apply.'));
    restricted?.dispose();
    restricted = null;
    onTrusted();
  });
  return { dispose: () => (granted.dispose(), restricted?.dispose()) };
}
