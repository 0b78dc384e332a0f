import * as vscode from 'vscode';
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleProjectionData,
  EnsembleRenderedMessage,
  EnsembleRequest,
  EnsembleViewState,
} from '../shared/ensemble-protocol';
import type { CallflowViewState, SankeyData, ToWebview } from '../shared/protocol';
import { Command, registerCommands } from './commands/register-commands';
import { registerSourceCommands } from './commands/source-commands';
import { ProfileCodeLensProvider } from './overlays/code-lens';
import { DataMovementDecorations, type DataMovementLine } from './overlays/data-movement-decorations';
import { HeatDecorations, type DiffMarks, type HeatLine } from './overlays/heat-decorations';
import { ProfileHoverProvider } from './overlays/profile-hover';
import { LineRevealer, revealableTrees, type LineReveal } from './overlays/reveal-current-line';
import { SourceEdits } from './overlays/source-edits';
import { ProfileManager, type RestoreReport } from './profile-manager';
import { SourceNavigator } from './source-navigator';
import { SourceResolver } from './source-resolver';
import { StatusBar } from './status-bar';
import { startAnalysisWorker } from './workers/parse-client';
import { registerSideBarViews, type SideBarViewId } from './views/side-bar-views';
import type { AnalysisEntry } from './views/analysis-tree';
import { registerDataMovementView } from './views/data-movement-view';
import { registerDatasetsView, type DatasetEntry } from './views/datasets-view';
import { EnsemblePanel } from './webviews/ensemble-panel';
import type { EnsembleTimings } from './webviews/ensemble-session';
import { SankeyPanel, type RenderReport } from './webviews/sankey-panel';
import { TimelinePanel } from './webviews/timeline-panel';
import type {
  TimelineHostToView,
  TimelineRenderedMessage,
  TimelineWindow,
  TimelineWindowStatsMessage,
} from '../shared/timeline-protocol';

/** What `activate` returns: a small API for other extensions and for the integration tests. */
export interface HpcLensApi {
  /** Settles when the datasets of the last session and those listed in `hpcLens.openOnStartup` have been opened (or failed). */
  readonly startup: Promise<void>;
  /** The loaded datasets as the Datasets view lists them; activate or close one by its index there. */
  datasets: {
    entries(): DatasetEntry[];
    activate(index: number): Promise<void>;
    close(index: number): Promise<void>;
    /** Selects the active dataset's metric by name (what the metric picker does); false when it has none of that name. */
    setMetric(name: string): Promise<boolean>;
    /** What restoring the last session did (settles with `startup`). */
    readonly restored: Promise<RestoreReport>;
    /** The status bar item's text and Markdown tooltip. */
    statusBar(): { text: string; tooltip: string };
  };
  open(uri: vscode.Uri): Promise<boolean>;
  readonly active:
    { name: string; format: string; nodes: number; contexts: number; metric: string; mappedFiles: number } | undefined;
  readonly lastError: string | undefined;
  /** Heat-decorated lines currently applied to the document. */
  decoratedLines(uri: vscode.Uri): number;
  /** The heat-marked lines of the document (line, level, after-line text when shown), as last applied. */
  heatLines(uri: vscode.Uri): readonly HeatLine[];
  /** The regression and improvement lines a diff dataset (Compare Two Profiles) marks in the document. */
  diffDecorations(uri: vscode.Uri): DiffMarks;
  /** The lines marked as issuing copies in the document (line, dominant direction, after-line text when shown), once the active dataset's markers are applied. */
  dataMovementLines(uri: vscode.Uri): Promise<readonly DataMovementLine[]>;
  /** The rows of the Data Movement view (source locations; directions and call paths as children). */
  dataMovementEntries(): readonly AnalysisEntry[];
  /** The timeline panel: what it drew last, messages to it and from the host, the window used for the overlays. */
  timeline: {
    readonly isOpen: boolean;
    readonly lastRender: TimelineRenderedMessage | undefined;
    nextRender(): Promise<TimelineRenderedMessage>;
    post(message: ToWebview): void;
    nextMessage<T extends TimelineHostToView['type']>(type: T): Promise<Extract<TimelineHostToView, { type: T }>>;
    readonly lastStats: TimelineWindowStatsMessage | undefined;
    readonly selection: { window: TimelineWindow; tracks: number[] | null } | undefined;
    /** Marks the events of these call-tree nodes (and their subtrees) in the window on screen; returns how many. */
    highlightNode(nodes: readonly number[]): Promise<number>;
  };
  sankey: {
    readonly data: SankeyData | undefined;
    readonly lastRender: RenderReport | undefined;
    nextRender(): Promise<RenderReport>;
    post(message: ToWebview): void;
    /** The node ids the webview last reported as highlighted, and the next such report. */
    readonly lastHighlight: string[] | undefined;
    nextHighlight(): Promise<string[]>;
    /** CallFlow: the state sent with the data (mode, second graph, brush, selection). */
    readonly callflow: CallflowViewState | undefined;
    /** Resolves after the next recomputation the panel posts (or refuses: see lastRequestError). */
    nextUpdate(): Promise<void>;
    readonly lastRequestError: string | undefined;
    /** The entry function (file:line, and all its entry lines in that file) the last node selection opened. */
    readonly lastSelection: { nodeId: string; file: string; line: number | null; lines: number[] } | undefined;
  };
  /** Ensemble CallFlow: the data on screen, the state, what the webview drew, requests as if from the webview. */
  ensemble: {
    readonly isOpen: boolean;
    readonly data: EnsembleGraphData | undefined;
    readonly detail: EnsembleDetailData | null | undefined;
    readonly projection: EnsembleProjectionData | undefined;
    readonly state: EnsembleViewState | undefined;
    readonly lastRender: EnsembleRenderedMessage | undefined;
    nextRender(): Promise<EnsembleRenderedMessage>;
    request(request: EnsembleRequest): Promise<void>;
    post(message: ToWebview): void;
    readonly lastRequestError: string | undefined;
    readonly lastTimings: EnsembleTimings;
  };
  /** Overlays that follow edits, and Reveal Current Line. */
  editing: {
    /** Why the document's overlays are hidden (`source changed since the profile`), or undefined. */
    staleReason(uri: vscode.Uri): string | undefined;
    /** What the last HPC Lens: Reveal Current Line in Views found and showed. */
    readonly lastReveal: LineReveal | undefined;
    /** The labels of the rows selected in a side-bar view. */
    selection(view: SideBarViewId): string[];
  };
  /** The rows a side-bar view shows now (top level; a hot path's steps nest as children). */
  viewEntries(view: SideBarViewId): readonly AnalysisEntry[];
  /** How a recorded source path resolves here, and the active profile's files that do not resolve. */
  sources: {
    resolution(recorded: string): Promise<{ kind: string; uri?: string; candidates?: string[] }>;
    unresolved(): Promise<{ recorded: string; kind: string; candidates: string[] }[]>;
  };
}

export function activate(context: vscode.ExtensionContext): HpcLensApi {
  const log = vscode.window.createOutputChannel('HPC Lens', { log: true });
  context.subscriptions.push(
    startAnalysisWorker(
      vscode.Uri.joinPath(context.extensionUri, 'dist', 'parse-worker.js').fsPath,
      context.globalStorageUri.fsPath,
      m => log.info(m),
    ),
  );
  const resolver = new SourceResolver(context.workspaceState);
  const profiles = new ProfileManager(context.extensionUri, resolver, log, context.workspaceState);
  const navigator = new SourceNavigator(resolver);
  const edits = new SourceEdits(profiles);
  const lenses = new ProfileCodeLensProvider(profiles, edits);
  const heat = new HeatDecorations(context.extensionUri, profiles, edits);
  const dataMovement = new DataMovementDecorations(context.extensionUri, profiles, resolver, edits);
  const dataMovementView = registerDataMovementView(profiles);
  const sankey = new SankeyPanel(context.extensionUri, profiles, navigator, log);
  const timeline = new TimelinePanel(context.extensionUri, profiles, navigator, log);
  const ensemble = new EnsemblePanel(context.extensionUri, profiles, navigator, log);
  const status = new StatusBar(profiles);
  const sideBar = registerSideBarViews(profiles);
  const trees = revealableTrees(sideBar);
  const revealer = new LineRevealer(profiles, resolver, edits, sankey, () => trees);
  const datasetsView = registerDatasetsView(profiles);
  context.subscriptions.push(
    log,
    profiles,
    edits,
    navigator,
    lenses,
    heat,
    sankey,
    timeline,
    ensemble,
    status,
    dataMovement,
    ...dataMovementView.disposables,
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new ProfileHoverProvider(profiles, edits)),
    vscode.commands.registerCommand(Command.revealCurrentLine, async () => {
      const r = await revealer.revealCurrentLine();
      if (r?.nodes.length && timeline.isOpen) await timeline.highlightNode(r.nodes);
      return r;
    }),
    resolver,
    ...registerSourceCommands({ profiles, resolver, navigator, log }),
    ...registerCommands({ profiles, sankey, navigator, timeline, ensemble }),
    ...sideBar.disposables,
    ...datasetsView.disposables,
  );
  const restored = restoreSession(profiles);
  const startup = restored.then(() => undefined);
  return {
    startup,
    datasets: {
      entries: () => datasetsView.entries(),
      activate: async i => {
        const d = profiles.datasets[i];
        if (d) await profiles.activate(d);
      },
      close: async i => {
        const d = profiles.datasets[i];
        if (d) await profiles.closeDataset(d);
      },
      setMetric: async name => {
        const m = profiles.active?.profile.metricIndex(name) ?? -1;
        if (m >= 0) await profiles.setMetric(m);
        return m >= 0;
      },
      restored,
      statusBar: () => ({ text: status.text, tooltip: status.tooltip }),
    },
    open: async uri => (await profiles.open(uri)) !== undefined,
    get active() {
      const lp = profiles.active;
      if (!lp) return undefined;
      return {
        name: lp.name,
        format: lp.profile.format,
        nodes: lp.profile.tree.size,
        contexts: lp.profile.contextCount,
        metric: lp.profile.metrics[lp.metric]!.name,
        mappedFiles: lp.files.size,
      };
    },
    get lastError() {
      return profiles.lastError;
    },
    decoratedLines: uri => heat.applied.get(uri.toString()) ?? 0,
    heatLines: uri => heat.marked.get(uri.toString()) ?? [],
    diffDecorations: uri => heat.diffMarked.get(uri.toString()) ?? { regressions: [], improvements: [] },
    dataMovementLines: async uri => {
      await dataMovement.ready;
      return dataMovement.marked.get(uri.toString()) ?? [];
    },
    dataMovementEntries: () => dataMovementView.provider.entries,
    timeline: {
      get isOpen() {
        return timeline.isOpen;
      },
      get lastRender() {
        return timeline.lastRender;
      },
      nextRender: () => timeline.nextRender(),
      post: m => timeline.post(m),
      nextMessage: type => timeline.nextMessage(type),
      get lastStats() {
        return timeline.lastStats;
      },
      get selection() {
        return timeline.selection;
      },
      highlightNode: nodes => timeline.highlightNode(nodes),
    },
    sankey: {
      get data() {
        return sankey.currentData;
      },
      get lastRender() {
        return sankey.lastRender;
      },
      nextRender: () => sankey.nextRender(),
      post: m => sankey.post(m),
      get lastHighlight() {
        return sankey.lastHighlight;
      },
      nextHighlight: () => sankey.nextHighlight(),
      get callflow() {
        return sankey.currentCallflow;
      },
      nextUpdate: () => sankey.nextUpdate(),
      get lastRequestError() {
        return sankey.lastRequestError;
      },
      get lastSelection() {
        return sankey.lastSelection;
      },
    },
    ensemble: {
      get isOpen() {
        return ensemble.isOpen;
      },
      get data() {
        return ensemble.data;
      },
      get detail() {
        return ensemble.detail;
      },
      get projection() {
        return ensemble.projection;
      },
      get state() {
        return ensemble.state?.view;
      },
      get lastRender() {
        return ensemble.lastRender;
      },
      nextRender: () => ensemble.nextRender(),
      request: r => ensemble.request(r),
      post: m => ensemble.post(m),
      get lastRequestError() {
        return ensemble.lastRequestError;
      },
      get lastTimings() {
        return ensemble.lastTimings;
      },
    },
    editing: {
      staleReason: uri => edits.staleReason(uri),
      get lastReveal() {
        return revealer.last;
      },
      selection: view => trees.get(view)?.view.selection.map(e => e.label) ?? [],
    },
    viewEntries: view => sideBar.providers.get(view)?.entries ?? [],
    sources: {
      resolution: async recorded => {
        const r = await resolver.resolution(recorded);
        return {
          kind: r.kind,
          uri: 'uri' in r ? r.uri.toString() : undefined,
          candidates: r.kind === 'ambiguous' ? r.candidates.map(c => c.toString()) : undefined,
        };
      },
      unresolved: async () => {
        const lp = profiles.active;
        const list = lp ? await resolver.unresolved(lp.profile) : [];
        return list.map(u => ({
          recorded: u.recorded,
          kind: u.resolution.kind,
          candidates: u.resolution.kind === 'ambiguous' ? u.resolution.candidates.map(c => c.toString()) : [],
        }));
      },
    },
  };
}

/**
 * Reopens the datasets of the last session and the profiles a workspace asks for in
 * `hpcLens.openOnStartup` (e.g. the demo workspace), each once. In an untrusted workspace VS Code
 * hides the workspace's value of that restricted setting, so a repository cannot make us parse files.
 */
function restoreSession(profiles: ProfileManager): Promise<RestoreReport> {
  const startup = (vscode.workspace.workspaceFolders ?? []).flatMap(folder =>
    vscode.workspace
      .getConfiguration('hpcLens', folder.uri)
      .get<string[]>('openOnStartup', [])
      .map(p => (p.startsWith('/') ? vscode.Uri.file(p) : vscode.Uri.joinPath(folder.uri, p))),
  );
  return profiles.restore(startup);
}

export function deactivate(): void {}
