import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { SourceNavigator } from '../source-navigator';
import type { SourceResolver, UnresolvedFile } from '../source-resolver';

/** Command ids of source-path remapping, kept in step with package.json by the integration tests. */
export const SourceCommand = {
  showUnresolved: 'hpcLens.showUnresolvedSources',
  locate: 'hpcLens.locateSourceFile',
} as const;

interface Services {
  profiles: DatasetManager;
  resolver: SourceResolver;
  navigator: SourceNavigator;
  log: vscode.LogOutputChannel;
}

/**
 * "Show Unresolved Source Files…" and "Locate Source File…", and the wiring that re-derives the
 * active profile's overlays whenever the way paths resolve changes (settings, folders, answers).
 */
export function registerSourceCommands({ profiles, resolver, navigator, log }: Services): vscode.Disposable[] {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const remapSoon = () => {
    // Writing a setting and the configuration event that follows arrive together: remap once.
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // The service reports problems with the mappings while it applies them, during the re-map.
      void profiles.remap().then(
        () => resolver.mappingErrors.forEach(e => log.warn(e)),
        e => log.error(`could not re-map source files: ${(e as Error).message}`),
      );
    }, 50);
  };

  const showUnresolved = async (): Promise<vscode.Uri | undefined> => {
    const lp = profiles.active;
    if (!lp) {
      void vscode.window.showInformationMessage('HPC Lens: open a profile first.');
      return undefined;
    }
    const list = await resolver.unresolved(lp.profile);
    if (list.length === 0) {
      void vscode.window.showInformationMessage(
        `HPC Lens: every source file recorded in ${lp.name} maps onto a file here.`,
      );
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(list.map(item), {
      title: `HPC Lens: ${list.length} source file${list.length === 1 ? '' : 's'} of ${lp.name} not placed in this workspace`,
      placeHolder: 'Choose a file to locate it; the answer is remembered in hpcLens.pathMappings',
      matchOnDescription: true,
    });
    return pick ? navigator.locate(pick.file.recorded, pick.file.resolution) : undefined;
  };

  return [
    resolver.onDidChange(remapSoon),
    {
      dispose: () => {
        if (timer) clearTimeout(timer);
      },
    },
    vscode.commands.registerCommand(SourceCommand.showUnresolved, showUnresolved),
    // `recorded` as in the profile; `chosen` answers without asking (used by tests and other extensions).
    vscode.commands.registerCommand(SourceCommand.locate, (recorded?: string, chosen?: vscode.Uri) =>
      recorded ? navigator.locate(recorded, undefined, chosen) : showUnresolved(),
    ),
  ];
}

function item(file: UnresolvedFile): vscode.QuickPickItem & { file: UnresolvedFile } {
  const recorded = file.recorded.replace(/\\/g, '/');
  const r = file.resolution;
  return {
    label: `${r.kind === 'ambiguous' ? '$(files)' : '$(question)'} ${path.posix.basename(recorded)}`,
    description: path.posix.dirname(recorded),
    detail:
      r.kind === 'ambiguous'
        ? `Ambiguous, ${r.candidates.length} files match equally well: ${r.candidates.map(c => vscode.workspace.asRelativePath(c)).join(' · ')}`
        : 'Not found in the workspace or hpcLens.sourceSearchRoots',
    file,
  };
}
