import * as vscode from 'vscode';
import { WorkerPool } from '../service/worker-pool';
import { Command, registerCommands } from './commands/register-commands';
import { registerSourceCommands } from './commands/source-commands';
import { DatasetManager } from './datasets/dataset-manager';
import { ProfileCodeLensProvider } from './overlays/code-lens';
import { DataMovementDecorations } from './overlays/data-movement-decorations';
import { HeatDecorations } from './overlays/heat-decorations';
import { ProfileHoverProvider } from './overlays/profile-hover';
import { LineRevealer, revealableTrees } from './overlays/reveal-current-line';
import { SourceEdits } from './overlays/source-edits';
import { analysisPoolSettings, Setting } from './settings';
import { SourceNavigator } from './source-navigator';
import { SourceResolver } from './source-resolver';
import { StatusBar } from './status-bar';
import { watchWorkspaceTrust } from './workspace-trust';
import { createTestApi, type HpcLensTestApi } from './testing/test-api';
import { registerDataMovementView } from './views/data-movement-view';
import { registerDatasetsView } from './views/datasets-view';
import { registerSideBarViews } from './views/side-bar-views';
import { EnsemblePanel } from './webviews/ensemble-panel';
import { CallflowPanel } from './webviews/callflow-panel';
import { TimelinePanel } from './webviews/timeline-panel';
import { DmvPanel } from './webviews/dmv-panel';
import { MemoryPanel } from './webviews/memory-panel';
import { TraceAnalysisPanel } from './webviews/trace-analysis-panel';
import { registerTraceAnalysisView } from './views/trace-analysis-view';
import { PdesMonitorPanel } from './webviews/pdes-monitor-panel';
import { registerMonitorPdesRun } from './commands/monitor-pdes-run';
import { PdesPanel } from './webviews/pdes-panel';

/**
 * Activation (on HPC Lens's commands and views, and in workspaces holding profiles): the analysis
 * service in worker threads, the datasets, the editor overlays, the side-bar views and the panels.
 * In test mode (ExtensionMode.Test) it returns the API the extension-host tests drive; otherwise
 * nothing — no test hook runs in a user's editor.
 */
export function activate(context: vscode.ExtensionContext): HpcLensTestApi | undefined {
  const log = vscode.window.createOutputChannel('HPC Lens', { log: true });
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const service = new WorkerPool({
    workerScript: vscode.Uri.joinPath(context.extensionUri, 'dist', 'analysis-worker.js').fsPath,
    codeCacheDir: vscode.Uri.joinPath(context.globalStorageUri, 'code-cache').fsPath,
    ...analysisPoolSettings(),
    log: m => log.info(m),
  });
  const resolver = new SourceResolver(service, context.workspaceState);
  const datasets = new DatasetManager(
    service,
    resolver,
    log,
    context.workspaceState,
    vscode.Uri.joinPath(context.globalStorageUri, 'ensemble-summaries').fsPath,
  );
  const navigator = new SourceNavigator(resolver);
  const edits = new SourceEdits(datasets);
  const lenses = new ProfileCodeLensProvider(datasets, edits);
  const heat = new HeatDecorations(context.extensionUri, datasets, edits);
  const dataMovement = new DataMovementDecorations(context.extensionUri, datasets, resolver, edits);
  const dataMovementView = registerDataMovementView(datasets);
  const env = { extensionUri: context.extensionUri, log, testMode };
  const callflow = new CallflowPanel(env, datasets, navigator, context.workspaceState);
  const timeline = new TimelinePanel(env, datasets, service, navigator, log);
  const ensemble = new EnsemblePanel(env, datasets, service, navigator, context.workspaceState);
  const dmv = new DmvPanel(env, datasets, service, navigator, log);
  const memory = new MemoryPanel(env, datasets, navigator, log);
  const traceAnalysis = new TraceAnalysisPanel(env, datasets, service, navigator, resolver, timeline, log);
  const traceAnalysisView = registerTraceAnalysisView(datasets);
  const pdesMonitor = new PdesMonitorPanel(env, service, log, datasets);
  const pdes = new PdesPanel(env, datasets, service, navigator, log, context.workspaceState);
  const status = new StatusBar(datasets);
  const sideBar = registerSideBarViews(datasets);
  const trees = revealableTrees(sideBar);
  const revealer = new LineRevealer(datasets, resolver, edits, callflow, () => trees);
  const datasetsView = registerDatasetsView(datasets);
  context.subscriptions.push(
    log,
    { dispose: () => service.dispose() },
    datasets,
    edits,
    navigator,
    lenses,
    heat,
    callflow,
    timeline,
    ensemble,
    pdes,
    status,
    dataMovement,
    ...dataMovementView.disposables,
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new ProfileHoverProvider(datasets, edits)),
    vscode.commands.registerCommand(Command.revealCurrentLine, async () => {
      const r = await revealer.revealCurrentLine();
      if (r?.nodes.length && timeline.isOpen) await timeline.highlightNode(r.nodes);
      return r;
    }),
    vscode.workspace.onDidChangeConfiguration(e => {
      if (e.affectsConfiguration('hpcLens.analysis')) service.configure(analysisPoolSettings());
    }),
    resolver,
    ...registerSourceCommands({ profiles: datasets, resolver, navigator, log }),
    dmv,
    memory,
    vscode.commands.registerCommand(Command.showMemory, (focus?: { file: string; line: number }) => memory.show(focus)),
    ...registerCommands({
      profiles: datasets,
      service,
      callflow,
      navigator,
      timeline,
      ensemble,
      dmv,
      traceAnalysis,
      pdes,
    }),
    ...sideBar.disposables,
    ...datasetsView.disposables,
    traceAnalysis,
    ...traceAnalysisView.disposables,
    pdesMonitor,
    registerMonitorPdesRun(pdesMonitor),
  );
  // Restricted settings the workspace sets are ignored until it is trusted; trusting it maps sources again.
  const restored = restoreSession(datasets);
  const trust = watchWorkspaceTrust(log, () => {
    resolver.reset();
    void restoreSession(datasets);
  });
  context.subscriptions.push(trust);
  // Warm the analysis workers once the restore is under way: the first open then runs compiled code.
  setTimeout(
    () =>
      void service.warm({}).then(
        w => log.info(`analysis workers ready: warm-up ${w.ms.toFixed(0)} ms, code cache ${w.codeCache}`),
        e => log.warn(`analysis worker warm-up failed: ${(e as Error).message}`),
      ),
    0,
  );
  if (!testMode) return undefined;
  return createTestApi({
    service,
    datasets,
    restored,
    status,
    heat,
    dataMovement,
    dataMovementView,
    callflow,
    timeline,
    ensemble,
    edits,
    sideBar,
    trees,
    resolver,
    dmv,
    memory,
    trust,
    traceAnalysis,
    traceAnalysisView,
    pdesMonitor,
    pdes,
  });
}

/**
 * Reopens the datasets of the last session and the profiles a workspace asks for in
 * `hpcLens.openOnStartup` (e.g. the demo workspace), each once. In an untrusted workspace VS Code
 * hides the workspace's value of that restricted setting, so a repository cannot make us parse files.
 */
function restoreSession(datasets: DatasetManager) {
  const startup = (vscode.workspace.workspaceFolders ?? []).flatMap(folder =>
    vscode.workspace
      .getConfiguration('hpcLens', folder.uri)
      .get<string[]>(Setting.openOnStartup, [])
      .map(p => (p.startsWith('/') ? vscode.Uri.file(p) : vscode.Uri.joinPath(folder.uri, p))),
  );
  return datasets.restore(startup);
}

export function deactivate(): void {}
