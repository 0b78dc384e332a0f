/**
 * What `activate` returns in test mode (ExtensionMode.Test) only: the extension-host tests' view
 * into the running extension. Everything here observes product events or reads product state; the
 * webviews are read and driven through their test agents (`data-*` facts, real DOM events). In a
 * user's editor this module is never called.
 */
import * as vscode from 'vscode';
import type { WorkerPool } from '../../service/worker-pool';
import type { CallflowRequest, CallflowViewState, CallflowData } from '../../shared/callflow-protocol';
import type { EnsembleRequest } from '../../shared/ensemble-protocol';
import {
  ensembleDrawn,
  callflowDrawn,
  dmvDrawn,
  memoryDrawn,
  pdesDrawn,
  pdesMonitorDrawn,
  timelineDrawn,
  traceAnalysisDrawn,
} from '../../shared/test-facts';
import type {
  MemoryHostToView,
  MemoryScopeAction,
  MemorySelectionMode,
  MemorySelectionTarget,
} from '../../shared/memory-protocol';
import type { PdesPanel, PdesUpdate } from '../webviews/pdes-panel';
import { PdesDataset } from '../datasets/pdes-dataset';
import { PdesMonitorDataset } from '../datasets/pdes-monitor-dataset';
import type { TimelineHostToView, TimelineWindowStatsMessage } from '../../shared/timeline-protocol';
import { ignoredWorkspaceSettings, type WorkspaceTrustWatch } from '../workspace-trust';
import type { DatasetManager, RestoreReport } from '../datasets/dataset-manager';
import type { DataMovementDecorations, DataMovementLine } from '../overlays/data-movement-decorations';
import type { DiffMarks, HeatDecorations, HeatLine } from '../overlays/heat-decorations';
import type { RevealableTree } from '../overlays/reveal-current-line';
import type { SourceEdits } from '../overlays/source-edits';
import type { SourceResolver } from '../source-resolver';
import type { StatusBar } from '../status-bar';
import type { AnalysisEntry, AnalysisTreeProvider } from '../views/analysis-tree';
import { datasetEntry, type DatasetEntry } from '../views/datasets-view';
import type { SideBarViewId, SideBarViews } from '../views/side-bar-views';
import type { EnsemblePanel, EnsembleUpdate } from '../webviews/ensemble-panel';
import type { CallflowPanel } from '../webviews/callflow-panel';
import type { TimelinePanel } from '../webviews/timeline-panel';
import type { DmvPanel } from '../webviews/dmv-panel';
import type { DmvHostToView } from '../../shared/dmv-protocol';
import type { MemoryFollow, MemoryPanel } from '../webviews/memory-panel';
import type { TraceAnalysisPanel, TraceAnalysisUpdate } from '../webviews/trace-analysis-panel';
import type { TraceAnalysisHostToView } from '../../shared/trace-analysis-protocol';
import type { PdesMonitorPanel } from '../webviews/pdes-monitor-panel';
import type { PdesMonitorHostToView } from '../../shared/pdes-monitor-protocol';
import type { TestAgentClient } from '../webviews/webview-host';

export interface TestApiParts {
  service: WorkerPool;
  datasets: DatasetManager;
  restored: Promise<RestoreReport>;
  status: StatusBar;
  heat: HeatDecorations;
  dataMovement: DataMovementDecorations;
  dataMovementView: { provider: AnalysisTreeProvider };
  callflow: CallflowPanel;
  timeline: TimelinePanel;
  ensemble: EnsemblePanel;
  edits: SourceEdits;
  sideBar: SideBarViews;
  trees: ReadonlyMap<string, RevealableTree>;
  resolver: SourceResolver;
  trust: WorkspaceTrustWatch;
  dmv: DmvPanel;
  memory: MemoryPanel;
  traceAnalysis: TraceAnalysisPanel;
  traceAnalysisView: { provider: AnalysisTreeProvider };
  pdesMonitor: PdesMonitorPanel;
  pdes: PdesPanel;
}

function agentOf(panel: { testAgent: TestAgentClient | undefined }, what: string): TestAgentClient {
  const a = panel.testAgent;
  if (!a) throw new Error(`the ${what} panel is not open`);
  return a;
}

/** Resolves with the first event that passes `accept`. */
function nextEvent<T>(event: vscode.Event<T>, accept: (e: T) => boolean = () => true): Promise<T> {
  return new Promise(resolve => {
    const sub = event(e => {
      if (!accept(e)) return;
      sub.dispose();
      resolve(e);
    });
  });
}

export function createTestApi(p: TestApiParts) {
  // What the heat and copy markers last applied, per document (the decorations only fire events).
  const heatByUri = new Map<string, { heat: readonly HeatLine[]; changes: DiffMarks }>();
  p.heat.onDidApply(a => heatByUri.set(a.uri, { heat: a.heat, changes: a.changes }));
  const copiesByUri = new Map<string, readonly DataMovementLine[]>();
  p.dataMovement.onDidApply(a => copiesByUri.set(a.uri, a.lines));
  let callflowError: string | undefined;
  p.callflow.onDidUpdate(u => (callflowError = u.error));
  let ensembleError: string | undefined;
  p.ensemble.onDidUpdate(u => (ensembleError = u.error));
  let timelineStats: TimelineWindowStatsMessage | undefined;
  p.timeline.onDidSend(m => {
    if (m.type === 'timeline/windowStats') timelineStats = m;
  });
  const providers = new Map<SideBarViewId, AnalysisTreeProvider>(p.sideBar.providers);

  const api = {
    /** Settles when the datasets of the last session and those of `hpcLens.openOnStartup` are opened (or failed). */
    startup: p.restored.then(() => undefined),
    /** The analysis service (its pool), for checks of where datasets live. */
    service: p.service,
    datasets: {
      entries: (): DatasetEntry[] => p.datasets.records.map(r => datasetEntry(r, r === p.datasets.activeRecord)),
      activate: async (i: number) => {
        const r = p.datasets.records[i];
        if (r) await p.datasets.activate(r);
      },
      close: async (i: number) => {
        const r = p.datasets.records[i];
        if (r) await p.datasets.closeDataset(r);
      },
      /** Selects the active dataset's metric by name; false when it has none of that name. */
      setMetric: async (name: string) => {
        const m = p.datasets.active?.profile.metricIndex(name) ?? -1;
        if (m >= 0) await p.datasets.setMetric(m);
        return m >= 0;
      },
      restored: p.restored,
      statusBar: () => ({ text: p.status.text, tooltip: p.status.tooltip }),
      get lastEnsembleWarning() {
        return p.datasets.lastEnsembleWarning;
      },
    },
    open: async (uri: vscode.Uri) => (await p.datasets.open(uri)) !== undefined,
    get active() {
      const d = p.datasets.active;
      if (!d) return undefined;
      return {
        name: d.name,
        kind: d.kind,
        format: d.profile.format,
        nodes: d.profile.tree.size,
        contexts: d.profile.contextCount,
        metric: d.metricDescriptor.name,
        mappedFiles: d.files.size,
        handle: d.handle,
      };
    },
    get lastError() {
      return p.datasets.lastError;
    },
    decoratedLines: (uri: vscode.Uri) => heatByUri.get(uri.toString())?.heat.length ?? 0,
    heatLines: (uri: vscode.Uri): readonly HeatLine[] => heatByUri.get(uri.toString())?.heat ?? [],
    diffDecorations: (uri: vscode.Uri): DiffMarks =>
      heatByUri.get(uri.toString())?.changes ?? { regressions: [], improvements: [] },
    dataMovementLines: async (uri: vscode.Uri): Promise<readonly DataMovementLine[]> => {
      await p.dataMovement.ready;
      return copiesByUri.get(uri.toString()) ?? [];
    },
    dataMovementEntries: (): readonly AnalysisEntry[] => p.dataMovementView.provider.entries,
    /** The rows a side-bar view shows now (top level; a hot path's steps nest as children). */
    viewEntries: (view: SideBarViewId): readonly AnalysisEntry[] => providers.get(view)?.entries ?? [],
    /** The message a side-bar view shows above its rows (why it is empty, what it compares), if any. */
    viewMessage: (view: SideBarViewId): string | undefined => providers.get(view)?.message,
    /** The tree item VS Code gets for a row (its Markdown tooltip). */
    viewTreeItem: (view: SideBarViewId, row: AnalysisEntry): vscode.TreeItem => providers.get(view)!.getTreeItem(row),
    /** Resolves once a side-bar view shows rows that pass `accept`. */
    nextViewEntries: (view: SideBarViewId, accept: (rows: readonly AnalysisEntry[]) => boolean) => {
      const provider = providers.get(view)!;
      if (accept(provider.entries)) return Promise.resolve(provider.entries);
      return nextEvent(provider.onDidRefresh, () => accept(provider.entries)).then(() => provider.entries);
    },
    editing: {
      staleReason: (uri: vscode.Uri) => p.edits.staleReason(uri),
      selection: (view: SideBarViewId) => p.trees.get(view)?.view.selection.map(e => e.label) ?? [],
    },
    /** The workspace's restricted settings HPC Lens ignores while the workspace is untrusted. */
    ignoredWorkspaceSettings,
    /** The Restricted Mode status-bar item's text while it shows. */
    restrictedModeText: () => p.trust.restrictedModeItem?.text,
    sources: {
      /** Drops every cached answer, as a settings change would. */
      reset: () => p.resolver.reset(),
      resolution: async (recorded: string) => {
        const r = await p.resolver.resolution(recorded);
        return {
          kind: r.kind,
          uri: 'uri' in r ? r.uri.toString() : undefined,
          candidates: r.kind === 'ambiguous' ? r.candidates.map(c => c.toString()) : undefined,
        };
      },
      unresolved: async () => {
        const d = p.datasets.active;
        const list = d ? await p.resolver.unresolved(d.profile) : [];
        return list.map(u => ({
          recorded: u.recorded,
          kind: u.resolution.kind,
          candidates: u.resolution.kind === 'ambiguous' ? u.resolution.candidates.map(c => c.toString()) : [],
        }));
      },
    },
    callflow: {
      get isOpen() {
        return p.callflow.isOpen;
      },
      get data(): CallflowData | undefined {
        return p.callflow.currentData;
      },
      get callflow(): CallflowViewState | undefined {
        return p.callflow.currentCallflow;
      },
      get lastRequestError() {
        return callflowError;
      },
      get lastSelection() {
        return p.callflow.lastSelection;
      },
      /** Applies a request as the webview sends it and resolves after the host's answer. */
      request: async (r: CallflowRequest) => {
        const done = nextEvent(p.callflow.onDidUpdate);
        p.callflow.request(r);
        await done;
      },
      /** Resolves after the next recomputation was posted (or refused). */
      nextUpdate: () => nextEvent(p.callflow.onDidUpdate).then(() => undefined),
      get agent() {
        return agentOf(p.callflow, 'CallFlow');
      },
      /** What the page drew, from its `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.callflow, 'CallFlow');
        return callflowDrawn(s => agent.query(s));
      },
    },
    timeline: {
      get isOpen() {
        return p.timeline.isOpen;
      },
      get lastStats() {
        return timelineStats;
      },
      get selection() {
        return p.timeline.selection;
      },
      /** Resolves with the next message of this type the host sends the view. */
      nextMessage: <T extends TimelineHostToView['type']>(type: T) =>
        nextEvent(p.timeline.onDidSend, m => m.type === type) as Promise<Extract<TimelineHostToView, { type: T }>>,
      highlightNode: (nodes: readonly number[]) => p.timeline.highlightNode(nodes),
      get agent() {
        return agentOf(p.timeline, 'timeline');
      },
      /** What the last frame drew, from the canvas's `data-*` facts (undefined before the first frame). */
      drawn: () => {
        const agent = agentOf(p.timeline, 'timeline');
        return timelineDrawn(s => agent.query(s));
      },
    },
    traceAnalysis: {
      get isOpen() {
        return p.traceAnalysis.isOpen;
      },
      /** The result on screen for the active trace. */
      get current() {
        return p.traceAnalysis.current;
      },
      /** Resolves with the next finished, failed or cancelled analysis. */
      nextUpdate: (): Promise<TraceAnalysisUpdate> => nextEvent(p.traceAnalysis.onDidUpdate),
      /** Resolves with the next message of this type the host sends the view. */
      nextMessage: <T extends TraceAnalysisHostToView['type']>(type: T) =>
        nextEvent(p.traceAnalysis.onDidSend, m => m.type === type) as Promise<
          Extract<TraceAnalysisHostToView, { type: T }>
        >,
      /** The rows of the side-bar Trace Analysis view. */
      viewEntries: (): readonly AnalysisEntry[] => p.traceAnalysisView.provider.entries,
      get agent() {
        return agentOf(p.traceAnalysis, 'trace analysis');
      },
      /** What each view of the panel drew, from its `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.traceAnalysis, 'trace analysis');
        return traceAnalysisDrawn(s => agent.query(s));
      },
    },
    ensemble: {
      get isOpen() {
        return p.ensemble.isOpen;
      },
      get data() {
        return p.ensemble.currentData;
      },
      get detail() {
        return p.ensemble.currentDetail;
      },
      get projection() {
        return p.ensemble.current.projection;
      },
      get state() {
        return p.ensemble.current.state;
      },
      get lastRequestError() {
        return ensembleError;
      },
      get lastTimings() {
        return p.ensemble.current.timings;
      },
      /** Applies a request as the webview sends it; resolves once it is answered. */
      request: (r: EnsembleRequest) => p.ensemble.request(r),
      nextUpdate: (): Promise<EnsembleUpdate> => nextEvent(p.ensemble.onDidUpdate),
      get agent() {
        return agentOf(p.ensemble, 'ensemble');
      },
      /** Counts of what each view drew (`data-ensemble-view`/`data-drawn`) and of the Sankey's marks, with the page's mode. */
      drawn: () => {
        const agent = agentOf(p.ensemble, 'ensemble');
        return ensembleDrawn(s => agent.query(s));
      },
    },
    dmv: {
      get isOpen() {
        return p.dmv.isOpen;
      },
      /** The views of the last window the host sent. */
      get lastWindow() {
        return p.dmv.lastWindow;
      },
      /** Resolves with the next message of this type the host sends the view. */
      nextMessage: <T extends DmvHostToView['type']>(type: T) =>
        nextEvent(p.dmv.onDidSend, m => m.type === type) as Promise<Extract<DmvHostToView, { type: T }>>,
      /** Adds (or removes, null) an `nvidia-smi topo -m` or nvidia-smi CSV file, as the panel's buttons do after the picker. */
      setFile: (kind: 'topology' | 'nvidiaSmi', uri: vscode.Uri | null) => p.dmv.setFile(kind, uri),
      get agent() {
        return agentOf(p.dmv, 'data movement');
      },
      /** What each DMV view drew, from the page's `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.dmv, 'data movement');
        return dmvDrawn(s => agent.query(s));
      },
    },
    memory: {
      get isOpen() {
        return p.memory.isOpen;
      },
      /** The data the Memory view shows now. */
      get data() {
        return p.memory.current;
      },
      /** Applies a selection as the view does; resolves with the data posted. */
      select: (mode: MemorySelectionMode, target: MemorySelectionTarget) => p.memory.select(mode, target),
      scope: (action: MemoryScopeAction) => p.memory.scope(action),
      /** Resolves with the next message of this type the host sends the view. */
      nextMessage: <T extends MemoryHostToView['type']>(type: T) =>
        nextEvent(p.memory.onDidSend, m => m.type === type) as Promise<Extract<MemoryHostToView, { type: T }>>,
      /** Resolves when the editor overlays next follow a selection (or all samples again). */
      nextFollow: (accept: (f: MemoryFollow) => boolean = () => true): Promise<MemoryFollow> =>
        nextEvent(p.memory.onDidFollow, accept),
      get agent() {
        return agentOf(p.memory, 'Memory');
      },
      /** What the page drew, from its `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.memory, 'Memory');
        return memoryDrawn(s => agent.query(s));
      },
    },
    pdesMonitor: {
      /** Resolves with the next message of this type the host sends the monitor view. */
      nextMessage: <T extends PdesMonitorHostToView['type']>(type: T) =>
        nextEvent(p.pdesMonitor.onDidSend, m => m.type === type) as Promise<
          Extract<PdesMonitorHostToView, { type: T }>
        >,
      get agent() {
        return agentOf(p.pdesMonitor, 'PDES monitor');
      },
      /** What the monitor view drew, from its `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.pdesMonitor, 'PDES monitor');
        return pdesMonitorDrawn(s => agent.query(s));
      },
      /** The handler activity the active dataset's CodeLenses show when it is a live monitor's run (Show). */
      get handlerActivity() {
        const d = p.datasets.active;
        return d instanceof PdesMonitorDataset ? d.shownActivity : undefined;
      },
    },
    pdes: {
      get isOpen() {
        return p.pdes.isOpen;
      },
      /** What the panel posted last (views, state, error or why nothing can be shown). */
      get current(): PdesUpdate {
        return p.pdes.current;
      },
      /** Resolves with the next views, error or unavailability the panel posts. */
      nextUpdate: (): Promise<PdesUpdate> => nextEvent(p.pdes.onDidUpdate),
      /** The handler activity the active PDES run's CodeLenses show (undefined when the active dataset is no PDES run). */
      get handlerActivity() {
        const d = p.datasets.active;
        return d instanceof PdesDataset ? d.handlerActivity : undefined;
      },
      /** Resolves once the active PDES run's CodeLenses changed. */
      nextLenses: () => {
        const d = p.datasets.active;
        return d instanceof PdesDataset ? nextEvent(d.onDidChangeOverlays) : Promise.resolve();
      },
      get agent() {
        return agentOf(p.pdes, 'PDES');
      },
      /** What the page drew, from its `data-*` facts. */
      drawn: () => {
        const agent = agentOf(p.pdes, 'PDES');
        return pdesDrawn(s => agent.query(s));
      },
    },
  };
  return api;
}

/** The API the extension-host tests get from `activate` (test mode only). */
export type HpcLensTestApi = ReturnType<typeof createTestApi>;
