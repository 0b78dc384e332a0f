import * as vscode from 'vscode';
import type { AnalysisService } from '../../service/analysis-service';
import type { EnsembleTimings, EnsembleViewAnswer } from '../../service/ensemble-session';
import {
  ensembleGraph,
  unpackEnsembleDetail,
  unpackEnsembleGraph,
  type EnsembleDetailWire,
  type PackedEnsembleGraph,
} from '../../shared/ensemble-packing';
import {
  DEFAULT_ENSEMBLE_OPTIONS,
  type EnsembleDetailData,
  type EnsembleGraphData,
  type EnsembleHostToView,
  type EnsembleOptions,
  type EnsembleProjectionData,
  type EnsembleRequest,
  type EnsembleSourceRef,
  type EnsembleViewState,
  type EnsembleViewToHost,
} from '../../shared/ensemble-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { DatasetManager } from '../datasets/dataset-manager';
import { EnsembleDataset } from '../datasets/ensemble-dataset';
import { callflowFilter, ensembleClusters, moduleMap } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import {
  ensembleOptionsKey,
  rememberedEnsembleOptions,
  rememberEnsembleOptions,
  type OptionsMemento,
} from './ensemble-options-memory';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Context key: some loaded dataset is an ensemble (enables Show Ensemble CallFlow). */
const HAS_ENSEMBLE = 'hpcLens.hasEnsemble';

/** What the panel shows now (the extension's tests follow these events). */
export interface EnsembleUpdate {
  /** The graph as sent: packed (`currentData` unpacks it for the tests). */
  data: PackedEnsembleGraph | undefined;
  /** As sent: the correlation points packed (`currentDetail` unpacks them for the tests). */
  detail: EnsembleDetailWire | null;
  projection: EnsembleProjectionData | undefined;
  state: EnsembleViewState | undefined;
  timings: EnsembleTimings;
  /** Why the request was refused, when it was. */
  error?: string;
}

/**
 * Ensemble CallFlow (CallFlow §4): the ensemble-Sankey with its five linked views — supernode
 * hierarchy, call-site correspondence, metric correlation, runtime distribution and parameter
 * projection — in three modes (ensemble summary, target vs ensemble, target vs target). One panel;
 * it follows the active dataset when that is an ensemble. The panel's state lives with the
 * ensemble in the analysis service (one session per dataset), which recomputes on each request
 * what it invalidates and answers level-of-detail data; the mode also drives the editor's CodeLens
 * and hovers.
 */
export class EnsemblePanel implements vscode.Disposable {
  private readonly host: WebviewHost<EnsembleHostToView, EnsembleViewToHost>;
  /** The ensemble whose data is on screen, and that data. */
  private shown: EnsembleDataset | undefined;
  /** Forwarded to the page as the service packed it; single nodes are read through its reader. */
  private data: PackedEnsembleGraph | undefined;
  private unpacked: { from: PackedEnsembleGraph; data: EnsembleGraphData } | undefined;
  private projection: EnsembleProjectionData | undefined;
  private detail: EnsembleDetailWire | null = null;
  private unpackedDetail: { from: EnsembleDetailWire; detail: EnsembleDetailData } | undefined;
  private state: EnsembleViewState | undefined;
  private timings: EnsembleTimings = {};
  /** A function whose supernode the next graph selects (a CodeLens click). */
  private focusFunction: string | undefined;
  private readonly subs: vscode.Disposable[];
  private readonly updated = new vscode.EventEmitter<EnsembleUpdate>();
  /** Fires after each answer was posted, or a request was refused. */
  readonly onDidUpdate = this.updated.event;
  /** Requests are answered one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly service: AnalysisService,
    private readonly navigator: SourceNavigator,
    /** Where the options chosen per ensemble are remembered across sessions (workspaceState). */
    private readonly memory?: OptionsMemento,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.ensemble',
      title: vscode.l10n.t('HPC Lens: Ensemble'),
      view: 'ensemble',
      iconPath: vscode.Uri.joinPath(env.extensionUri, 'media', 'sankey.svg'),
      onMessage: m => this.onMessage(m),
      onReady: first => {
        if (!first) this.enqueue(null);
      },
      onDidDispose: () => {
        this.shown = undefined;
        this.data = undefined;
      },
    });
    this.subs = [
      datasets.onDidChange(() => {
        void vscode.commands.executeCommand(
          'setContext',
          HAS_ENSEMBLE,
          datasets.records.some(r => r.opened instanceof EnsembleDataset),
        );
        if (this.host.isOpen) this.enqueue(null);
      }),
      vscode.workspace.onDidChangeConfiguration(e => {
        // The settings' filter applies to ensembles without a filter of their own.
        if (e.affectsConfiguration('hpcLens.callflow') && this.host.isOpen) this.enqueue(null);
      }),
    ];
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }
  /** What is on screen. */
  get current(): EnsembleUpdate {
    return {
      data: this.data,
      detail: this.detail,
      projection: this.projection,
      state: this.state,
      timings: this.timings,
    };
  }
  /** The graph on screen, unpacked once per graph (for the extension's tests; the panel itself never unpacks). */
  get currentData(): EnsembleGraphData | undefined {
    if (!this.data) return undefined;
    if (this.unpacked?.from !== this.data) this.unpacked = { from: this.data, data: unpackEnsembleGraph(this.data) };
    return this.unpacked.data;
  }
  /** The linked views' data on screen, unpacked once per answer (for the extension's tests). */
  get currentDetail(): EnsembleDetailData | null {
    if (!this.detail) return null;
    if (this.unpackedDetail?.from !== this.detail)
      this.unpackedDetail = { from: this.detail, detail: unpackEnsembleDetail(this.detail) };
    return this.unpackedDetail.detail;
  }
  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }

  /**
   * Shows the panel for the active ensemble; explains itself when the active dataset is not one.
   * With `focusFunction` (a CodeLens click) the supernode holding that function gets selected.
   */
  show(focusFunction?: string): boolean {
    if (!(this.datasets.active instanceof EnsembleDataset)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'HPC Lens: Ensemble CallFlow needs an ensemble: use HPC Lens: Open Folder as Ensemble… (or switch to one in the Datasets view).',
        ),
      );
      return false;
    }
    this.focusFunction = focusFunction;
    this.host.show();
    this.enqueue(null);
    return true;
  }

  /** Applies a request as the webview would send it (palette commands); resolves once it is answered. */
  request(request: EnsembleRequest): Promise<void> {
    return this.enqueue(request);
  }

  private enqueue(request: EnsembleRequest | null): Promise<void> {
    this.queue = this.queue
      .then(() => this.answer(request))
      .catch(e => {
        this.host.post({ type: 'error', message: (e as Error).message });
      });
    return this.queue;
  }

  /** Sends the request (null: none, answer with the whole graph) to the ensemble's session and posts what it recomputed. */
  private async answer(request: EnsembleRequest | null): Promise<void> {
    const ds = this.datasets.active;
    if (!(ds instanceof EnsembleDataset)) {
      // Keep the panel (the user may switch back); say why it is empty.
      this.shown = undefined;
      this.data = undefined;
      this.host.post({
        type: 'error',
        message: ds
          ? vscode.l10n.t(
              'The active dataset ({0}) is not an ensemble. Switch to an ensemble in the Datasets view, or use HPC Lens: Open Folder as Ensemble….',
              ds.name,
            )
          : vscode.l10n.t(
              'The active dataset is not an ensemble. Switch to an ensemble in the Datasets view, or use HPC Lens: Open Folder as Ensemble….',
            ),
      });
      this.updated.fire(this.current);
      return;
    }
    if (!this.host.isOpen) return;
    const focusFunction = this.focusFunction;
    this.focusFunction = undefined;
    // The settings give the defaults; what the user chose for this ensemble before wins over them.
    const startedWith: EnsembleOptions = { ...DEFAULT_ENSEMBLE_OPTIONS, clusters: ensembleClusters() };
    const memoryKey = ensembleOptionsKey(ds.sourceUris.map(u => u.toString()));
    let r: EnsembleViewAnswer;
    try {
      r = await this.service.ensembleView({
        dataset: ds.handle,
        request,
        metric: ds.metricDescriptor.name,
        title: ds.name,
        moduleMap: moduleMap(),
        filter: { ...callflowFilter() },
        defaults: {
          clusters: startedWith.clusters,
          ...(this.memory ? rememberedEnsembleOptions(this.memory, memoryKey) : {}),
        },
        ...(focusFunction !== undefined ? { focusFunction } : {}),
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.host.post({ type: 'error', message });
      this.updated.fire({ ...this.current, error: message });
      return;
    }
    if (this.datasets.active !== ds) return;
    if (r.error) {
      void vscode.window.showWarningMessage(vscode.l10n.t('HPC Lens: {0}', r.error));
      // The webview undoes its optimistic UI with the unchanged state.
      if (this.shown === ds) this.host.post({ type: 'ensemble/detail', detail: this.detail, state: r.state });
      this.updated.fire({ ...this.current, error: r.error });
      return;
    }
    await ds.setComparison(r.comparison);
    if (this.memory) void rememberEnsembleOptions(this.memory, memoryKey, r.state.options, startedWith);
    this.shown = ds;
    this.state = r.state;
    this.detail = r.detail;
    this.timings = r.timings;
    this.host.title = vscode.l10n.t('HPC Lens: {0} (ensemble)', ds.name);
    if (r.graph) {
      this.data = r.graph.data;
      this.projection = r.graph.projection;
    }
    // The session sends the graph when it changed, or when asked (a panel showing it for the first time).
    if (r.graph && this.data && this.projection)
      this.host.post({ type: 'ensemble/graph', data: this.data, state: r.state, projection: this.projection });
    this.host.post({ type: 'ensemble/detail', detail: r.detail, state: r.state });
    if (request?.type === 'ensemble/select' && request.nodeId)
      this.openSource({ kind: 'entry', nodeId: request.nodeId, entry: -1 });
    this.updated.fire(this.current);
  }

  /** Opens a location the page was shown, looked up by reference in the data sent. */
  private openSource(ref: EnsembleSourceRef): void {
    let target: { file: string | null; line: number | null; name: string } | undefined;
    const graph = this.data && ensembleGraph(this.data);
    const node = ref.kind === 'entry' || ref.kind === 'filteredCallee' ? (graph?.indexOf(ref.nodeId) ?? -1) : -1;
    if (ref.kind === 'entry') {
      const entries = node >= 0 ? graph!.entries(node) : [];
      target = ref.entry < 0 ? entries.find(e => e.file) : entries[ref.entry];
    } else if (ref.kind === 'hierarchy') {
      const h = this.detail?.hierarchy.nodes[ref.index];
      target = h && { file: h.file, line: h.line, name: h.name };
    } else if (ref.kind === 'callSite') {
      const c = this.detail?.callSites[ref.index];
      target = c && { file: c.file, line: c.line, name: c.name };
    } else {
      const c = node >= 0 ? graph!.filteredCallees(node)?.[ref.index] : undefined;
      target = c && { file: c.file, line: c.line, name: c.name };
    }
    if (target?.file) void this.navigator.open(target.file, target.line, target.name);
  }

  private onMessage(m: EnsembleViewToHost): void {
    switch (m.type) {
      case 'ready':
      case 'log':
        return; // handled by the host
      case 'openSource':
        this.openSource(m.ref);
        return;
      case 'ensemble/select':
      case 'ensemble/mode':
      case 'ensemble/target':
      case 'ensemble/diff':
      case 'ensemble/runs':
      case 'ensemble/options':
      case 'ensemble/split':
      case 'ensemble/unsplit':
      case 'ensemble/reveal':
      case 'ensemble/filter':
      case 'ensemble/repopulate':
      case 'ensemble/unrepopulate':
        void this.enqueue(m);
        return;
      default:
        assertNever(m, 'message from the ensemble view');
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.updated.dispose();
    this.host.dispose();
  }
}
