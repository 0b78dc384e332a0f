import * as vscode from 'vscode';
import type { AnalysisService } from '../../service/analysis-service';
import type { Dataset } from '../datasets/dataset';
import type { SourceNavigator } from '../source-navigator';

/**
 * Opens the source line of a trace event (its row in the trace's event table), as the timeline and
 * the DMV events view do on a click; says so when the trace gives the event no source location.
 */
export async function openEventSource(
  service: AnalysisService,
  navigator: SourceNavigator,
  ds: Dataset,
  row: number,
): Promise<void> {
  const d = await service.timeline({ dataset: ds.handle, request: { kind: 'event', row } });
  if (d?.source) await navigator.open(d.source.file, d.source.line, ds.profile.tree.name(d.source.node));
  else
    void vscode.window.showInformationMessage(
      vscode.l10n.t('HPC Lens: {0} has no source location in the trace.', d?.name ?? vscode.l10n.t('this event')),
    );
}
