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
 * Which of `keys` (full names, `hpcLens.…`) the workspace's settings files set. In restricted mode
 * VS Code hides the workspace's values of restricted settings from extensions, `inspect()` included,
 * so the files are searched for the keys; they are read to tell the user, never applied.
 */
async function keysTheWorkspaceSets(keys: readonly string[]): Promise<string[]> {
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
  return keys.filter(key => {
    const set = new RegExp(`"${key.replace(/\./g, '\\.')}"\\s*:`);
    return texts.some(text => set.test(text));
  });
}

/** The restricted settings this workspace (or one of its folders) sets, which are ignored while it is untrusted. */
export async function ignoredWorkspaceSettings(): Promise<string[]> {
  if (vscode.workspace.isTrusted) return [];
  return keysTheWorkspaceSets(RESTRICTED_SETTINGS.map(key => `hpcLens.${key}`));
}

/**
 * In Restricted Mode the profiles a workspace lists in `hpcLens.openOnStartup` are not opened (a
 * repository must not make us parse files); a status-bar item says so and leads to Workspace Trust,
 * instead of the profiles being skipped without a hint. Null when there is nothing to say.
 */
export async function restrictedModeStatusItem(): Promise<vscode.StatusBarItem | null> {
  if (vscode.workspace.isTrusted) return null;
  if (!(await keysTheWorkspaceSets([`hpcLens.${Setting.openOnStartup}`])).length) return null;
  if (vscode.workspace.isTrusted) return null;
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

/** What watchWorkspaceTrust keeps: the Restricted Mode status-bar item while it shows (tests read it). */
export interface WorkspaceTrustWatch extends vscode.Disposable {
  readonly restrictedModeItem: vscode.StatusBarItem | null;
}

/**
 * Tells the user (once per window, and in the log) which of the workspace's settings HPC Lens ignores
 * until the workspace is trusted, and shows the Restricted Mode status-bar item when the workspace's
 * profiles are held back; `onTrusted` runs when trust is granted (sources are mapped again, the
 * workspace's profiles opened).
 */
export function watchWorkspaceTrust(log: vscode.LogOutputChannel, onTrusted: () => void): WorkspaceTrustWatch {
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
  let restricted: vscode.StatusBarItem | null = null;
  let disposed = false;
  void restrictedModeStatusItem().then(item => {
    if (disposed || vscode.workspace.isTrusted) return item?.dispose();
    restricted = item;
    if (item) log.info(vscode.l10n.t('Restricted Mode: the profiles this workspace lists are not opened.'));
  });
  const granted = vscode.workspace.onDidGrantWorkspaceTrust(() => {
    log.info(vscode.l10n.t('The workspace is trusted: its HPC Lens settings apply.'));
    restricted?.dispose();
    restricted = null;
    onTrusted();
  });
  return {
    get restrictedModeItem() {
      return restricted;
    },
    dispose: () => {
      disposed = true;
      granted.dispose();
      restricted?.dispose();
    },
  };
}
