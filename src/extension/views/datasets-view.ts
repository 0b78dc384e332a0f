import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatasetKind } from '../datasets/dataset';
import type { DatasetManager, DatasetRecord } from '../datasets/dataset-manager';
import { datasetDescription, datasetTooltip, type DatasetFacts } from '../datasets/dataset-summary';
import { DiffDataset } from '../datasets/diff-dataset';
import { EnsembleDataset } from '../datasets/ensemble-dataset';

export const DATASETS_VIEW = 'hpcLens.datasets';

/** Command ids of the Datasets view, kept in step with package.json by the integration tests. */
export const DatasetCommand = {
  activate: 'hpcLens.activateDataset',
  close: 'hpcLens.closeDataset',
  closeAll: 'hpcLens.closeAllDatasets',
  reload: 'hpcLens.reloadDataset',
  revealInExplorer: 'hpcLens.revealDatasetInExplorer',
  revealInOS: 'hpcLens.revealDatasetInOS',
  copyPath: 'hpcLens.copyDatasetPath',
} as const;

const KIND_ICON: Record<DatasetKind, string> = {
  profile: 'list-tree',
  trace: 'pulse',
  diff: 'diff',
  ensemble: 'layers',
  window: 'pulse',
  memory: 'server-process',
  pdes: 'server-process',
};

/** One row of the Datasets view as shown (for tests and the status bar). */
export interface DatasetEntry {
  label: string;
  description: string;
  tooltip: string;
  kind: DatasetKind;
  active: boolean;
  /** Name of the dataset's selected metric. */
  metric: string;
}

/** Size on disk: a diff shows its comparison run's. */
function facts(r: DatasetRecord, active: boolean): DatasetFacts {
  const d = r.shown;
  const opened = r.opened;
  return {
    kind: opened.kind,
    name: d.name,
    profile: d.profile,
    path: d.uri.fsPath,
    baselinePath: opened instanceof DiffDataset ? opened.baseline.uri.fsPath : undefined,
    size: r.stamps[r.stamps.length - 1]?.size,
    metric: d.metric,
    active,
    ...(opened instanceof EnsembleDataset ? { ensemble: opened } : {}),
    ...(opened.systemFacts() ? { system: opened.systemFacts()! } : {}),
  };
}

export function datasetEntry(r: DatasetRecord, active: boolean): DatasetEntry {
  const f = facts(r, active);
  return {
    label: f.name,
    description: datasetDescription(f, vscode.l10n),
    tooltip: datasetTooltip(f, vscode.l10n),
    kind: r.opened.kind,
    active,
    metric: r.shown.metricDescriptor.name,
  };
}

/** The loaded datasets, in the order they were opened; the active one is highlighted. A click activates. */
class DatasetsTreeProvider implements vscode.TreeDataProvider<DatasetRecord>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly profiles: DatasetManager) {
    this.sub = profiles.onDidChangeDatasets(() => this.changed.fire());
  }

  getTreeItem(d: DatasetRecord): vscode.TreeItem {
    const active = this.profiles.activeRecord === d;
    const e = datasetEntry(d, active);
    // The whole label highlighted marks the active dataset without a second column of icons.
    const item = new vscode.TreeItem(active ? { label: e.label, highlights: [[0, e.label.length]] } : e.label);
    item.id = d.key;
    item.description = active ? `● ${e.description}` : e.description;
    const tooltip = new vscode.MarkdownString(e.tooltip, true);
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      KIND_ICON[e.kind],
      active ? new vscode.ThemeColor('charts.orange') : undefined,
    );
    item.contextValue = `hpcLens.dataset.${e.kind}${active ? '.active' : ''}`;
    item.accessibilityInformation = {
      label: `${e.label}, ${e.kind}${active ? `, ${vscode.l10n.t('active')}` : ''}, ${e.description}`,
    };
    item.command = { command: DatasetCommand.activate, title: vscode.l10n.t('Activate Dataset'), arguments: [d] };
    return item;
  }

  getChildren(d?: DatasetRecord): DatasetRecord[] {
    return d ? [] : [...this.profiles.records];
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}

/** From a view row the dataset itself; from the palette a quick pick (undefined when dismissed). */
async function pickDataset(profiles: DatasetManager, arg: unknown, title: string): Promise<DatasetRecord | undefined> {
  if (typeof arg === 'number') return profiles.records[arg];
  if (arg && typeof arg === 'object' && profiles.records.includes(arg as DatasetRecord)) return arg as DatasetRecord;
  if (profiles.records.length === 0) return undefined;
  const items = profiles.records.map(d => {
    const e = datasetEntry(d, d === profiles.activeRecord);
    return {
      label: `$(${KIND_ICON[e.kind]}) ${e.label}`,
      description: e.active ? vscode.l10n.t('active · {0}', e.description) : e.description,
      dataset: d,
    };
  });
  return (await vscode.window.showQuickPick(items, { title, matchOnDescription: true }))?.dataset;
}

/** The files a dataset was read from (a diff: baseline and comparison). */
function datasetUris(d: DatasetRecord): vscode.Uri[] {
  return d.opened.sourceUris;
}

/** Registers the Datasets view and its commands. */
export function registerDatasetsView(profiles: DatasetManager): {
  entries(): DatasetEntry[];
  disposables: vscode.Disposable[];
} {
  const provider = new DatasetsTreeProvider(profiles);
  const view = vscode.window.createTreeView(DATASETS_VIEW, { treeDataProvider: provider });
  const describeView = () => {
    view.description = profiles.records.length > 1 ? vscode.l10n.t('{0} loaded', profiles.records.length) : undefined;
  };
  const reg = vscode.commands.registerCommand;
  return {
    entries: () => profiles.records.map(d => datasetEntry(d, d === profiles.activeRecord)),
    disposables: [
      provider,
      view,
      profiles.onDidChangeDatasets(describeView),
      reg(DatasetCommand.activate, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: switch to dataset'));
        if (d) await profiles.activate(d);
        return d !== undefined;
      }),
      reg(DatasetCommand.close, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: close dataset'));
        if (d) await profiles.closeDataset(d);
        return d !== undefined;
      }),
      reg(DatasetCommand.closeAll, () => profiles.closeAll()),
      reg(DatasetCommand.reload, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: reload dataset from disk'));
        return d ? (await profiles.reload(d)) !== undefined : false;
      }),
      reg(DatasetCommand.revealInExplorer, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: reveal dataset in the Explorer'));
        if (d) await vscode.commands.executeCommand('revealInExplorer', datasetUris(d).at(-1));
      }),
      reg(DatasetCommand.revealInOS, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: reveal dataset in the file manager'));
        if (d) await vscode.commands.executeCommand('revealFileInOS', datasetUris(d).at(-1));
      }),
      reg(DatasetCommand.copyPath, async (arg?: unknown) => {
        const d = await pickDataset(profiles, arg, vscode.l10n.t('HPC Lens: copy dataset path'));
        if (!d) return undefined;
        const text = datasetUris(d)
          .map(u => u.fsPath)
          .join('\n');
        await vscode.env.clipboard.writeText(text);
        void vscode.window.setStatusBarMessage(
          vscode.l10n.t(
            'Copied {0} path',
            datasetUris(d)
              .map(u => path.basename(u.fsPath))
              .join(vscode.l10n.t(' and ')),
          ),
          3000,
        );
        return text;
      }),
    ],
  };
}
