/**
 * How the editor shows a dataset a system opened (a PDES run, memory samples): one Dataset class per
 * system, by system name. A system without an entry is shown as a plain profile of its editor profile.
 * A new system adds one line here, next to its line in src/service/systems/index.ts.
 */
import type * as vscode from 'vscode';
import type { AnalysisService, OpenedSystemDataset } from '../../service/analysis-service';
import type { SystemName } from '../../service/systems';
import type { Dataset } from './dataset';
import { MemoryDataset } from './memory-dataset';
import { PdesDataset } from './pdes-dataset';

type SystemDatasetFactory<S extends SystemName> = (
  service: AnalysisService,
  opened: OpenedSystemDataset<S>,
  uri: vscode.Uri,
) => Dataset;

export const SYSTEM_DATASETS: { readonly [S in SystemName]?: SystemDatasetFactory<S> } = {
  memory: MemoryDataset.opened,
  pdes: (service, opened, uri) => new PdesDataset(service, opened, uri),
};

/** The dataset for what a system opened, or undefined when the system has no class of its own. */
export function systemDataset(
  service: AnalysisService,
  opened: OpenedSystemDataset,
  uri: vscode.Uri,
): Dataset | undefined {
  const make = SYSTEM_DATASETS[opened.system] as SystemDatasetFactory<SystemName> | undefined;
  return make?.(service, opened, uri);
}
