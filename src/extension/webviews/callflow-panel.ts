import * as vscode from 'vscode';
import { assertNever } from '../../shared/webview-protocol';
import type {
  CallflowRequest,
  CallflowViewState,
  CallflowData,
  CallflowHostToView,
  CallflowNodeData,
  CallflowViewToHost,
  CallflowWireState,
} from '../../shared/callflow-protocol';
import {
  callflowGraph,
  unpackCallflowData,
  unpackCallflowState,
  type PackedCallflowData,
} from '../../shared/callflow-packing';
import type { SuperGraphDataOptions } from '../../analysis/graph/super-graph-data';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { callflowFilter, moduleMap } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import {
  applyCallflowRequest,
  graphPlan,
  initialCallflowState,
  parsePersistedFilters,
  PERSISTED_FILTERS_KEY,
  persistedFilterOf,
  shownOptions,
  viewState,
  type CallflowState,
} from './callflow-state';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** The correlation view offers at most this many metrics (each one super graph in the service). */
const MAX_CORRELATION_METRICS = 12;

/** How long the selected node's entry-function lines stay marked in the editor. */
const ENTRY_FLASH_MS = 2500;

/** What the panel last sent and what changed it (the extension's tests follow these events). */
export interface CallflowUpdate {
  data: PackedCallflowData | undefined;
  callflow: CallflowWireState | undefined;
  /** Why the request was refused, when it was. */
  error?: string;
}

/**
 * The CallFlow panel: the Sankey of the super graph with its linked views (histogram, correlation,
 * brush split, two runs side by side). One panel; it follows the active dataset and metric. The
 * host keeps the filter/repopulate/split/brush/selection state per dataset (the filter and what
 * repopulation shows again also across window reloads, in the workspace state) and asks the
 * analysis service for the graphs (cached there per option set), sending only level-of-detail
 * data; a selected node's entry-function lines flash in the editor.
 */
export class CallflowPanel implements vscode.Disposable {
  private readonly host: WebviewHost<CallflowHostToView, CallflowViewToHost>;
  /** The graph on screen as the service packed it: forwarded to the page as is, read one node at a time. */
  private data: PackedCallflowData | undefined;
  private callflow: CallflowWireState | undefined;
  private readonly subs: vscode.Disposable[];
  /** Filter, repopulations, splits, brush, selection and mode, per dataset (by its key: a reload from disk keeps them). */
  private readonly states = new Map<string, CallflowState>();
  /** The filter choices remembered from earlier sessions, by dataset key. */
  private readonly remembered: ReturnType<typeof parsePersistedFilters>;
  private inFlight = 0;
  /** A highlight asked for while the graph was being computed (base node ids). */
  private pendingBases: ReadonlySet<string> | undefined;
  private readonly updated = new vscode.EventEmitter<CallflowUpdate>();
  /** Fires after each recomputation was posted, or a request was refused. */
  readonly onDidUpdate = this.updated.event;
  /** The entry function the last node selection opened. */
  lastSelection: { nodeId: string; file: string; line: number | null; lines: number[] } | undefined;
  private readonly entryFlash = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });

  constructor(
    private readonly env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly navigator: SourceNavigator,
    /** Where each dataset's filter choice is remembered (the workspace state). */
    private readonly memento?: vscode.Memento,
  ) {
    this.remembered = parsePersistedFilters(memento?.get(PERSISTED_FILTERS_KEY));
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.callflow',
      title: vscode.l10n.t('HPC Lens: CallFlow'),
      view: 'callflow',
      iconPath: vscode.Uri.joinPath(env.extensionUri, 'media', 'sankey.svg'),
      onMessage: m => this.onMessage(m),
      onReady: first => {
        // A reloaded page starts empty: send it what is on screen.
        if (!first && this.data) this.host.post({ type: 'graph', data: this.data, callflow: this.callflow! });
      },
      onDidDispose: () => {
        this.data = undefined;
        this.callflow = undefined;
      },
    });
    this.subs = [
      datasets.onDidChange(() => {
        if (this.host.isOpen) void this.update();
      }),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens.callflow') || e.affectsConfiguration('hpcLens.moduleMap')) {
          // Read now, so a bad value is reported when it is set, not on the next use.
          callflowFilter(warning => this.warn(warning));
          if (this.host.isOpen) void this.update();
        }
      }),
    ];
  }

  private warn(message: string): void {
    this.env.log.warn(message);
    void vscode.window.showWarningMessage(vscode.l10n.t('HPC Lens: {0}', message));
  }

  /** The options every graph of the panel starts from: the module map and the settings' filter. */
  private baseOptions(): SuperGraphDataOptions {
    return {
      moduleMap: moduleMap(msg => this.env.log.warn(msg)),
      filter: { ...callflowFilter(warning => this.warn(warning)) },
    };
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }
  /** The graph on screen, unpacked (for the extension's tests). */
  get currentData(): CallflowData | undefined {
    return this.data && unpackCallflowData(this.data);
  }
  /** The CallFlow state sent with the data (mode, second graph, brush, selection), the second graph unpacked. */
  get currentCallflow(): CallflowViewState | undefined {
    return this.callflow && unpackCallflowState(this.callflow);
  }
  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }

  show(): void {
    if (!this.datasets.active) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('HPC Lens: open a profile first (HPC Lens: Open Profile…).'),
      );
      return;
    }
    this.host.show();
    void this.update();
  }

  /**
   * Highlights the Sankey node(s) that hold these call-tree nodes (split nodes by their base), in
   * the open panel or in the next one shown; returns the node ids.
   */
  async highlight(cctNodes: readonly number[]): Promise<string[]> {
    const ds = this.datasets.active;
    if (!ds) return [];
    // Membership in the unsplit graph with the panel's module map and filter (splits of a node share its base id).
    const { splits: _splits, reveal: _reveal, ...unsplit } = shownOptions(this.stateOf(ds), this.baseOptions());
    const ids = await ds.superGraphQuery<'nodeIds'>({
      kind: 'nodeIds',
      options: { ...unsplit, metric: ds.metric },
      nodes: [...cctNodes],
    });
    if (this.datasets.active !== ds) return [];
    const bases = new Set(ids);
    // The graph is being (re)computed (e.g. the panel was just shown): mark the nodes once it is there.
    if (!this.data || this.inFlight > 0) {
      this.pendingBases = bases;
      return [];
    }
    return this.markBases(bases);
  }

  /** Applies a CallFlow request as the webview would send it (palette commands). */
  request(request: CallflowRequest): void {
    this.onCallflowRequest(request);
  }

  private markBases(bases: ReadonlySet<string>): string[] {
    const ids: string[] = [];
    const graph = this.data && callflowGraph(this.data);
    for (let i = 0; graph && i < graph.nodeCount; i++) {
      const id = graph.id(i);
      if (bases.has(id) || bases.has(graph.baseId(i))) ids.push(id);
    }
    this.host.post({ type: 'highlight', nodeIds: ids });
    return ids;
  }

  /** The key a dataset's state is kept by: its entry in the Datasets view (a reload from disk keeps it). */
  private keyOf(ds: Dataset): string {
    const record = this.datasets.records.find(r => r.opened === ds || r.shown === ds);
    return record?.key ?? `${ds.kind}:${ds.uri.toString()}`;
  }

  private stateOf(ds: Dataset): CallflowState {
    const key = this.keyOf(ds);
    let s = this.states.get(key);
    if (!s) this.states.set(key, (s = initialCallflowState(this.remembered.get(key))));
    return s;
  }

  private setState(ds: Dataset, next: CallflowState): void {
    const key = this.keyOf(ds);
    const before = this.states.get(key);
    this.states.set(key, next);
    if (before && before.filter === next.filter && before.repopulate === next.repopulate) return;
    const kept = persistedFilterOf(next);
    if (kept) this.remembered.set(key, kept);
    else this.remembered.delete(key);
    void Promise.resolve(this.memento?.update(PERSISTED_FILTERS_KEY, Object.fromEntries(this.remembered))).catch(e =>
      this.env.log.warn(`could not remember the CallFlow filter: ${(e as Error).message}`),
    );
  }

  /**
   * Repopulations that found nothing to show again because the function is no longer in the
   * profile (it changed on reload) are reported and forgotten; those whose node or fold is gone
   * under the present filter stay (the view lists them) and apply again when it comes back.
   */
  private reportMisses(ds: Dataset, data: PackedCallflowData): void {
    const gone = (data.header.graph.unmatchedRepopulate ?? []).filter(u => u.reason === 'unknown-function');
    if (!gone.length) return;
    const state = this.stateOf(ds);
    this.setState(ds, {
      ...state,
      repopulate: state.repopulate.filter(r => !gone.some(g => g.node === r.node && g.function === r.function)),
    });
    this.warn(
      vscode.l10n.t(
        'CallFlow cannot show {0} again: {1} no longer in {2} (it changed since it was shown).',
        gone.map(g => g.function).join(', '),
        gone.length === 1 ? vscode.l10n.t('it is') : vscode.l10n.t('they are'),
        ds.name,
      ),
    );
  }

  private async update(): Promise<void> {
    const ds = this.datasets.active;
    if (!ds) {
      this.host.dispose();
      return;
    }
    const ticket = this.host.begin();
    this.inFlight++;
    const state = this.stateOf(ds);
    const baseline = ds.baseline;
    const canCompare = baseline !== undefined;
    const plan = graphPlan(state, this.baseOptions(), ds.profile.contextCount, canCompare, vscode.l10n);
    try {
      let data: PackedCallflowData;
      let second: PackedCallflowData | undefined;
      let labels = plan.labels;
      if (plan.secondIsBaseline && baseline) {
        // Side by side: run A (the baseline) above run B, the same metric by name in both.
        const metricA = baseline.profile.metricIndex(ds.metricDescriptor.name);
        const baseName = baseline.name;
        const ownName = ds.uri.path.split('/').pop() ?? 'comparison';
        [data, second] = await Promise.all([
          baseline.superGraph(
            { ...plan.first, metric: metricA >= 0 ? metricA : baseline.profile.primaryMetric },
            baseName,
          ),
          ds.superGraph(plan.second, ownName),
        ]);
        labels = [vscode.l10n.t('A: {0}', baseName), vscode.l10n.t('B: {0}', ownName)];
      } else {
        [data, second] = await Promise.all([
          ds.superGraph(plan.first),
          plan.second ? ds.superGraph(plan.second) : Promise.resolve(undefined),
        ]);
      }
      if (!this.host.isCurrent(ticket) || this.datasets.active !== ds) return;
      this.data = data;
      this.callflow = viewState(state, canCompare, second, labels);
      this.host.title = vscode.l10n.t('HPC Lens: {0}', ds.name);
      this.reportMisses(ds, data);
      this.host.post({ type: 'graph', data: this.data, callflow: this.callflow });
      if (this.pendingBases) {
        const bases = this.pendingBases;
        this.pendingBases = undefined;
        this.markBases(bases);
      }
    } catch (e) {
      if (!this.host.isCurrent(ticket)) return;
      const message = e instanceof Error ? e.message : String(e);
      this.env.log.error(`call graph: ${message}`);
      this.host.post({ type: 'error', message });
    } finally {
      this.inFlight--;
      if (this.host.isCurrent(ticket)) this.updated.fire({ data: this.data, callflow: this.callflow });
    }
  }

  private onCallflowRequest(m: CallflowRequest): void {
    const ds = this.datasets.active;
    if (!ds) return;
    if (m.type === 'callflow/requestNodeMetrics') {
      void this.sendNodeMetrics(ds, m.nodeId);
      return;
    }
    const before = this.stateOf(ds);
    const canCompare = ds.baseline !== undefined;
    const graph = this.data && callflowGraph(this.data);
    const next = applyCallflowRequest(before, m, graph, ds.profile.contextCount, canCompare, vscode.l10n);
    if ('error' in next) {
      void vscode.window.showWarningMessage(vscode.l10n.t('HPC Lens: {0}', next.error));
      // The webview undoes its optimistic UI state (e.g. a mode toggle) with the unchanged state.
      if (this.data)
        this.host.post({ type: 'graph', data: this.data, callflow: this.callflow ?? viewState(before, canCompare) });
      this.updated.fire({ data: this.data, callflow: this.callflow, error: next.error });
      return;
    }
    this.setState(ds, next);
    if (m.type === 'callflow/select') {
      this.callflow = this.callflow ? { ...this.callflow, selected: next.selected } : this.callflow;
      if (m.nodeId) void this.showEntryLines(m.nodeId);
      this.updated.fire({ data: this.data, callflow: this.callflow });
      return;
    }
    // A brush alone changes no graph until "Split by selection"; remember it and echo the state.
    if (m.type === 'callflow/brush' && next.mode !== 'brush' && before.mode !== 'brush') {
      this.callflow = this.callflow ? { ...this.callflow, brushed: next.brushed } : this.callflow;
      this.updated.fire({ data: this.data, callflow: this.callflow });
      return;
    }
    void this.update();
  }

  /** The node with this id in the graphs on screen. */
  private nodeOf(nodeId: string): CallflowNodeData | undefined {
    const first = this.data && callflowGraph(this.data).nodeById(nodeId);
    return first ?? (this.callflow?.second && callflowGraph(this.callflow.second).nodeById(nodeId));
  }

  /** Opens the selected node's hottest entry function and flashes every entry line of that file. */
  private async showEntryLines(nodeId: string): Promise<void> {
    const node = this.nodeOf(nodeId);
    if (!node) return;
    const target = node.entry.file ? node.entry : node.entries?.find(e => e.file);
    if (!target?.file) {
      void vscode.window.setStatusBarMessage(
        vscode.l10n.t('HPC Lens: no source location recorded for {0}', node.label),
        4000,
      );
      return;
    }
    const file = target.file;
    const lines = [...new Set((node.entries ?? []).filter(e => e.file === file && e.line !== null).map(e => e.line!))];
    if (target.line !== null && !lines.includes(target.line)) lines.push(target.line);
    this.lastSelection = { nodeId, file, line: target.line, lines };
    const editor = await this.navigator.open(file, target.line, target.name);
    if (!editor) return;
    const ranges = lines
      .filter(l => l >= 1 && l <= editor.document.lineCount)
      .map(l => new vscode.Range(l - 1, 0, l - 1, 0));
    editor.setDecorations(this.entryFlash, ranges);
    setTimeout(() => editor.setDecorations(this.entryFlash, []), ENTRY_FLASH_MS);
  }

  /**
   * Per-context values of every metric (up to MAX_CORRELATION_METRICS) for one node of the graph on
   * screen over all ranks: the service answers from that cached graph, summing each metric over the
   * node's own call-tree nodes.
   */
  private async sendNodeMetrics(ds: Dataset, nodeId: string): Promise<void> {
    const options = { ...shownOptions(this.stateOf(ds), this.baseOptions()), metric: ds.metric };
    const metrics = await ds.superGraphQuery<'nodeMetrics'>({
      kind: 'nodeMetrics',
      options,
      nodeId,
      maxMetrics: MAX_CORRELATION_METRICS,
    });
    if (this.datasets.active === ds) this.host.post({ type: 'callflow/nodeMetrics', nodeId, metrics });
  }

  private onMessage(m: CallflowViewToHost): void {
    switch (m.type) {
      case 'ready':
      case 'log':
        return; // handled by the host
      case 'openSource': {
        // By reference into what was sent: the page can open only locations it was shown.
        const node = this.nodeOf(m.nodeId);
        const entry = m.entry < 0 ? node?.entry : node?.entries?.[m.entry];
        if (entry?.file) void this.navigator.open(entry.file, entry.line, entry.name);
        return;
      }
      case 'openFilteredCallee': {
        const callee = this.nodeOf(m.nodeId)?.filteredCallees?.[m.callee];
        if (callee?.file) void this.navigator.open(callee.file, callee.line, callee.name);
        else if (callee)
          void vscode.window.setStatusBarMessage(
            vscode.l10n.t('HPC Lens: no source location recorded for {0}', callee.name),
            4000,
          );
        return;
      }
      case 'callflow/filter':
      case 'callflow/repopulate':
      case 'callflow/unrepopulate':
      case 'callflow/split':
      case 'callflow/unsplit':
      case 'callflow/reveal':
      case 'callflow/select':
      case 'callflow/brush':
      case 'callflow/mode':
      case 'callflow/requestNodeMetrics':
        this.onCallflowRequest(m);
        return;
      default:
        assertNever(m, 'message from the CallFlow panel');
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.updated.dispose();
    this.entryFlash.dispose();
    this.host.dispose();
  }
}
