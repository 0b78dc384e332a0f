import * as vscode from 'vscode';
import type { AnalysisService } from '../../service/analysis-service';
import { SideBarView } from '../views/side-bar-views';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { SourceNavigator } from '../source-navigator';
import type { CallflowPanel } from '../webviews/callflow-panel';
import type { DmvPanel } from '../webviews/dmv-panel';
import type { DmvFocus } from '../../shared/dmv-protocol';
import type { EnsemblePanel } from '../webviews/ensemble-panel';
import type { TimelinePanel } from '../webviews/timeline-panel';
import type { TraceAnalysisPanel } from '../webviews/trace-analysis-panel';
import type { DatasetRecord } from '../datasets/dataset-manager';
import type { PdesPanel } from '../webviews/pdes-panel';
import type { OpenHandlerArgs } from '../datasets/pdes-dataset';
import { functionFrames } from '../overlays/reveal-current-line';
import { openEnsembleCommand } from './open-ensemble';

/** Command ids, kept in step with package.json by the integration tests. */
export const Command = {
  openProfile: 'hpcLens.openProfile',
  openProfileFromExplorer: 'hpcLens.openProfileFromExplorer',
  showCallflow: 'hpcLens.showCallflow',
  showCallflowSideBySide: 'hpcLens.showCallflowSideBySide',
  toggleOverlays: 'hpcLens.toggleOverlays',
  selectMetric: 'hpcLens.selectMetric',
  closeProfile: 'hpcLens.closeProfile',
  revealNode: 'hpcLens.revealNode',
  showHotPath: 'hpcLens.showHotPath',
  showTopLines: 'hpcLens.showTopLines',
  showLoadImbalance: 'hpcLens.showLoadImbalance',
  exportSummary: 'hpcLens.exportSummary',
  compareProfiles: 'hpcLens.compareProfiles',
  openEnsemble: 'hpcLens.openEnsemble',
  showEnsemble: 'hpcLens.showEnsemble',
  revealCurrentLine: 'hpcLens.revealCurrentLine',
  showTimeline: 'hpcLens.showTimeline',
  useTimelineWindowForOverlays: 'hpcLens.useTimelineWindowForOverlays',
  useWholeRunForOverlays: 'hpcLens.useWholeRunForOverlays',
  showDataMovement: 'hpcLens.showDataMovement',
  showMemory: 'hpcLens.showMemory',
  analyseTrace: 'hpcLens.analyseTrace',
  revealTraceAnalysisPath: 'hpcLens.revealTraceAnalysisPath',
  showPdesAnalysis: 'hpcLens.showPdesAnalysis',
  openPdesHandler: 'hpcLens.pdes.openHandler',
} as const;

interface Services {
  profiles: DatasetManager;
  service: AnalysisService;
  callflow: CallflowPanel;
  navigator: SourceNavigator;
  timeline: TimelinePanel;
  ensemble: EnsemblePanel;
  dmv: DmvPanel;
  traceAnalysis: TraceAnalysisPanel;
  pdes: PdesPanel;
}

export function registerCommands({
  profiles,
  callflow,
  navigator,
  timeline,
  ensemble,
  dmv,
  traceAnalysis,
  pdes,
}: Services): vscode.Disposable[] {
  const reg = vscode.commands.registerCommand;
  return [
    // From the Datasets view's context menu the clicked dataset (made active first), else the active one.
    reg(Command.analyseTrace, async (clicked?: unknown) => {
      const record = profiles.records.find(r => r === clicked) as DatasetRecord | undefined;
      if (record && record !== profiles.activeRecord) await profiles.activate(record);
      return traceAnalysis.analyse();
    }),
    reg(Command.revealTraceAnalysisPath, (path: number) => traceAnalysis.revealPath(path)),
    reg(Command.showTimeline, () => timeline.show()),
    reg(Command.useTimelineWindowForOverlays, () => timeline.useWindowForOverlays()),
    reg(Command.useWholeRunForOverlays, () => timeline.useWholeRunForOverlays()),
    reg(Command.openEnsemble, (clicked?: unknown, selected?: unknown) =>
      openEnsembleCommand(profiles, clicked, selected),
    ),
    reg(Command.openProfile, async (uri?: vscode.Uri) => {
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: vscode.l10n.t('Open a profile or trace'),
          openLabel: vscode.l10n.t('Open in HPC Lens'),
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: false,
          defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
        });
        uri = picked?.[0];
      }
      if (uri) return (await profiles.open(uri)) !== undefined;
      return false;
    }),
    reg(Command.openProfileFromExplorer, async (uri?: vscode.Uri) => {
      uri ??= vscode.window.activeTextEditor?.document.uri;
      return uri ? (await profiles.open(uri)) !== undefined : false;
    }),
    // From a CodeLens: `{ focusFunction }` also highlights the node(s) holding that function.
    reg(Command.showEnsemble, (arg?: { focusFunction?: string }) => ensemble.show(arg?.focusFunction)),
    reg(Command.showCallflow, (arg?: { focusFunction?: string }) => {
      // An ensemble's call graph is the ensemble-Sankey with its linked views.
      if (profiles.active?.kind === 'ensemble') return ensemble.show(arg?.focusFunction);
      callflow.show();
      const lp = profiles.active;
      if (lp && typeof arg?.focusFunction === 'string') void callflow.highlight(functionFrames(lp, arg.focusFunction));
    }),
    // A diff dataset's two runs as two Sankeys on one scale (the request explains itself when there is no diff).
    reg(Command.showCallflowSideBySide, () => {
      callflow.show();
      if (profiles.active) callflow.request({ type: 'callflow/mode', mode: 'sideBySide' });
    }),
    reg(Command.toggleOverlays, async () => {
      const cfg = vscode.workspace.getConfiguration('hpcLens');
      await cfg.update(
        'overlays.enabled',
        !cfg.get<boolean>('overlays.enabled', true),
        vscode.ConfigurationTarget.Global,
      );
    }),
    reg(Command.selectMetric, async () => {
      const ds = profiles.active;
      if (!ds) return;
      const items = ds.selectableMetrics().map(i => {
        const m = ds.profile.metrics[i]!;
        return {
          label: m.label,
          description: `${m.name}${m.unit ? ` · ${m.unit}` : ''} · ${m.kind}`,
          picked: i === ds.metric,
          index: i,
        };
      });
      const choice = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('HPC Lens: metric for overlays and views'),
      });
      if (choice) await profiles.setMetric(choice.index);
    }),
    // Baseline and comparison from two file pickers, or as arguments (tests, other extensions).
    reg(Command.compareProfiles, async (baseline?: vscode.Uri, comparison?: vscode.Uri) => {
      const pick = async (title: string, openLabel: string) =>
        (
          await vscode.window.showOpenDialog({
            title,
            openLabel,
            canSelectFiles: true,
            canSelectFolders: true,
            canSelectMany: false,
            defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
          })
        )?.[0];
      baseline ??= await pick(
        vscode.l10n.t('Compare Two Profiles: the baseline run (1 of 2)'),
        vscode.l10n.t('Use as Baseline'),
      );
      if (!baseline) return false;
      comparison ??= await pick(
        vscode.l10n.t('Compare Two Profiles: the run to compare with the baseline (2 of 2)'),
        vscode.l10n.t('Compare with Baseline'),
      );
      if (!comparison) return false;
      return (await profiles.compare(baseline, comparison)) !== undefined;
    }),
    reg(Command.closeProfile, () => profiles.close()),
    reg(Command.revealNode, (file: string, line: number | null, name: string) => navigator.open(file, line, name)),
    reg(Command.showHotPath, () => vscode.commands.executeCommand(`${SideBarView.hotPaths}.focus`)),
    reg(Command.showTopLines, () => vscode.commands.executeCommand(`${SideBarView.topLines}.focus`)),
    reg(Command.showLoadImbalance, () => vscode.commands.executeCommand(`${SideBarView.imbalance}.focus`)),
    // Opens the summary as an untitled document the user can save anywhere (`format` skips the picker).
    reg(Command.exportSummary, async (format?: 'markdown' | 'csv') => {
      const lp = profiles.active;
      if (!lp) return undefined;
      format ??= (
        await vscode.window.showQuickPick(
          [
            { label: 'Markdown', format: 'markdown' as const },
            { label: 'CSV', format: 'csv' as const },
          ],
          { title: vscode.l10n.t('HPC Lens: export hot paths, top lines, top functions and load imbalance as') },
        )
      )?.format;
      if (!format) return undefined;
      const content = await lp.exportSummary(format);
      const doc = await vscode.workspace.openTextDocument({
        content,
        language: format === 'markdown' ? 'markdown' : 'plaintext',
      });
      await vscode.window.showTextDocument(doc);
      return doc;
    }),
    // From a flag's CodeLens: `{ focus }` opens the panel on the flag's time span.
    reg(Command.showDataMovement, (arg?: { focus?: DmvFocus }) => dmv.show(arg?.focus)),
    reg(Command.showPdesAnalysis, () => pdes.show()),
    // From a handler CodeLens: the LP type's other handler (forward ↔ reverse).
    reg(Command.openPdesHandler, (arg?: OpenHandlerArgs) =>
      arg ? pdes.openHandler(arg.lpType, arg.which, true) : Promise.resolve(false),
    ),
  ];
}
