import * as vscode from 'vscode';
import type { CallflowRequest, CallflowViewState, FromWebview, SankeyData, ToWebview } from '../../shared/protocol';
import { isEnsembleMessage } from '../../shared/ensemble-protocol';
import { isTimelineMessage } from '../../shared/timeline-protocol';
import type { ProfileManager } from '../profile-manager';
import { sankeyDataOf, type LoadedProfile } from '../profile-session';
import { moduleMap } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import { applyCallflowRequest, graphPlan, initialCallflowState, viewState, type CallflowState } from './callflow-state';
import { createViewPanel } from './webview-html';

export interface RenderReport {
  nodeCount: number;
  linkCount: number;
}

/** The correlation view offers at most this many metrics (each costs one super graph on request). */
const MAX_CORRELATION_METRICS = 12;

/** How long the selected node's entry-function lines stay marked in the editor. */
const ENTRY_FLASH_MS = 2500;

/**
 * The CallFlow panel: the Sankey of the super graph with its linked views (histogram, correlation,
 * brush split, two runs side by side). One panel; it follows the active dataset and metric. The
 * host keeps the split/brush/selection state per dataset, recomputes the graphs on every request
 * and sends only level-of-detail data; a selected node's entry-function lines flash in the editor.
 */
export class SankeyPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private data: SankeyData | undefined;
  private callflow: CallflowViewState | undefined;
  private renderWaiters: ((r: RenderReport) => void)[] = [];
  private readonly subs: vscode.Disposable[];
  lastRender: RenderReport | undefined;
  /** The node ids the webview last reported as highlighted (Reveal Current Line, CodeLens clicks). */
  lastHighlight: string[] | undefined;
  /** A highlight asked for before the webview was ready; sent after the data. */
  private pendingHighlight: string[] | undefined;
  private highlightWaiters: ((ids: string[]) => void)[] = [];
  /** Split, brush, selection and mode, per loaded dataset. */
  private readonly states = new WeakMap<LoadedProfile, CallflowState>();
  /** Orders recomputations: only the latest one posts. */
  private generation = 0;
  private inFlight = 0;
  /** A highlight asked for while the graph was being computed (base node ids). */
  private pendingBases: ReadonlySet<string> | undefined;
  private updateWaiters: (() => void)[] = [];
  /** Why the last CallFlow request was refused, if it was. */
  lastRequestError: string | undefined;
  /** The file:line of the entry function the last selection opened. */
  lastSelection: { nodeId: string; file: string; line: number | null; lines: number[] } | undefined;
  private readonly entryFlash = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly profiles: ProfileManager,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs = [
      profiles.onDidChange(() => {
        if (this.panel) void this.update();
      }),
    ];
  }

  get currentData(): SankeyData | undefined {
    return this.data;
  }
  /** The CallFlow state sent with the data (mode, second graph, brush, selection). */
  get currentCallflow(): CallflowViewState | undefined {
    return this.callflow;
  }

  show(): void {
    if (!this.profiles.active) {
      void vscode.window.showInformationMessage('HPC Lens: open a profile first (HPC Lens: Open Profile…).');
      return;
    }
    if (this.panel) {
      // Beside the code it explains: a panel sharing the active editor's column would cover it.
      const sharesColumn =
        this.panel.viewColumn !== undefined && this.panel.viewColumn === vscode.window.activeTextEditor?.viewColumn;
      this.panel.reveal(sharesColumn ? vscode.ViewColumn.Beside : undefined, true);
      void this.update();
      return;
    }
    // The page's `ready` cannot arrive before this tick ends, so the listeners below still see it.
    const panel = createViewPanel(this.extensionUri, 'hpcLens.sankey', 'HPC Lens: Call Graph', 'sankey');
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'sankey.svg');
    this.panel = panel;
    this.ready = false;
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    });
    void this.update();
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /**
   * Highlights the Sankey node(s) that hold these call-tree nodes (split nodes by their base), in
   * the open panel or in the next one shown; returns the node ids.
   */
  async highlight(cctNodes: readonly number[]): Promise<string[]> {
    const lp = this.profiles.active;
    if (!lp) return [];
    // Membership by the unsplit graph with the panel's module map (splits of a node share its base
    // id), asked of the analysis worker: the graph of a big profile is not built on this thread.
    const ids = await lp.superGraphQuery<'nodeIds'>({
      kind: 'nodeIds',
      options: { metric: lp.metric, moduleMap: moduleMap(msg => this.log.warn(msg)) },
      nodes: [...cctNodes],
    });
    if (this.profiles.active !== lp) return [];
    const bases = new Set(ids);
    // The graph is being (re)computed (e.g. the panel was just shown): mark the nodes once it is there.
    if (!this.data || this.inFlight > 0) {
      this.pendingBases = bases;
      return [];
    }
    return this.markBases(bases);
  }

  private markBases(bases: ReadonlySet<string>): string[] {
    const ids = (this.data?.nodes ?? [])
      .filter(n => bases.has(n.id) || (n.baseId !== undefined && bases.has(n.baseId)))
      .map(n => n.id);
    if (this.ready) this.post({ type: 'highlight', nodeIds: ids });
    else this.pendingHighlight = ids;
    return ids;
  }

  /** Resolves with the node ids of the next highlight the webview reports. */
  nextHighlight(): Promise<string[]> {
    return new Promise(resolve => this.highlightWaiters.push(resolve));
  }

  /** Resolves with the next render report from the webview. */
  nextRender(): Promise<RenderReport> {
    return new Promise(resolve => this.renderWaiters.push(resolve));
  }

  /** Resolves once the next recomputation of the graphs has been posted (or refused). */
  nextUpdate(): Promise<void> {
    return new Promise(resolve => this.updateWaiters.push(resolve));
  }

  /** Sends a message as the host would (used by commands and by automation in tests). */
  post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  /** Applies a CallFlow request as if the webview had sent it (palette commands). */
  request(request: CallflowRequest): void {
    this.onMessage(request);
  }

  private stateOf(lp: LoadedProfile): CallflowState {
    let s = this.states.get(lp);
    if (!s) {
      s = initialCallflowState();
      this.states.set(lp, s);
    }
    return s;
  }

  private async update(): Promise<void> {
    const lp = this.profiles.active;
    if (!lp) {
      this.panel?.dispose();
      return;
    }
    const generation = ++this.generation;
    this.inFlight++;
    const state = this.stateOf(lp);
    const canCompare = lp.baseline !== undefined;
    const contextCount = lp.profile.contextCount;
    const plan = graphPlan(state, { moduleMap: moduleMap(msg => this.log.warn(msg)) }, contextCount, canCompare);
    try {
      let data: SankeyData;
      let second: SankeyData | undefined;
      let labels = plan.labels;
      if (plan.secondIsBaseline && lp.baseline) {
        // Side by side: run A (the baseline) above run B, the same metric by name in both.
        const name = lp.profile.metrics[lp.metric]!.name;
        const metricA = lp.baseline.profile.metricIndex(name);
        const baseName = lp.baseline.uri.path.split('/').pop() ?? 'baseline';
        const ownName = lp.uri.path.split('/').pop() ?? 'comparison';
        data = await sankeyDataOf(lp.baseline.profile, baseName, {
          ...plan.first,
          metric: metricA >= 0 ? metricA : lp.baseline.profile.primaryMetric,
        });
        second = await lp.sankey(plan.second);
        second = { ...second, title: ownName };
        labels = [`A: ${baseName}`, `B: ${ownName}`];
      } else {
        [data, second] = await Promise.all([
          lp.sankey(plan.first),
          plan.second ? lp.sankey(plan.second) : Promise.resolve(undefined),
        ]);
      }
      if (generation !== this.generation || this.profiles.active !== lp || !this.panel) return;
      this.data = data;
      this.callflow = viewState(state, canCompare, second, labels);
      this.panel.title = `HPC Lens: ${lp.name}`;
      if (this.ready) this.post({ type: 'sankey', data: this.data, callflow: this.callflow });
      if (this.pendingBases) {
        const bases = this.pendingBases;
        this.pendingBases = undefined;
        this.markBases(bases);
      }
    } catch (e) {
      if (generation !== this.generation) return;
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`call graph: ${message}`);
      if (this.ready) this.post({ type: 'error', message });
    } finally {
      this.inFlight--;
      if (generation === this.generation) {
        const waiters = this.updateWaiters;
        this.updateWaiters = [];
        waiters.forEach(w => w());
      }
    }
  }

  private onCallflowRequest(m: CallflowRequest): void {
    const lp = this.profiles.active;
    if (!lp) return;
    if (m.type === 'callflow/requestNodeMetrics') {
      void this.sendNodeMetrics(lp, m.nodeId);
      return;
    }
    const before = this.stateOf(lp);
    const next = applyCallflowRequest(before, m, this.data, lp.profile.contextCount, lp.baseline !== undefined);
    if ('error' in next) {
      this.lastRequestError = next.error;
      void vscode.window.showWarningMessage(`HPC Lens: ${next.error}`);
      // The webview undoes its optimistic UI state (e.g. a mode toggle) with the unchanged state.
      if (this.ready && this.data)
        this.post({
          type: 'sankey',
          data: this.data,
          callflow: this.callflow ?? viewState(before, lp.baseline !== undefined),
        });
      const waiters = this.updateWaiters;
      this.updateWaiters = [];
      waiters.forEach(w => w());
      return;
    }
    this.lastRequestError = undefined;
    this.states.set(lp, next);
    if (m.type === 'callflow/select') {
      this.callflow = this.callflow ? { ...this.callflow, selected: next.selected } : this.callflow;
      if (m.nodeId) void this.showEntryLines(m.nodeId);
      const waiters = this.updateWaiters;
      this.updateWaiters = [];
      waiters.forEach(w => w());
      return;
    }
    // A brush alone changes no graph until "Split by selection"; remember it and echo the state.
    if (m.type === 'callflow/brush' && next.mode !== 'brush' && before.mode !== 'brush') {
      this.callflow = this.callflow ? { ...this.callflow, brushed: next.brushed } : this.callflow;
      const waiters = this.updateWaiters;
      this.updateWaiters = [];
      waiters.forEach(w => w());
      return;
    }
    void this.update();
  }

  /** Opens the selected node's hottest entry function and flashes every entry line of that file. */
  private async showEntryLines(nodeId: string): Promise<void> {
    const node = this.data?.nodes.find(n => n.id === nodeId) ?? this.callflow?.second?.nodes.find(n => n.id === nodeId);
    if (!node) return;
    const target = node.entry.file ? node.entry : node.entries?.find(e => e.file);
    if (!target?.file) {
      void vscode.window.setStatusBarMessage(`HPC Lens: no source location recorded for ${node.label}`, 4000);
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

  /** Per-context values of every metric (up to MAX_CORRELATION_METRICS) for one node, with the panel's splits. */
  private async sendNodeMetrics(lp: LoadedProfile, nodeId: string): Promise<void> {
    const state = this.stateOf(lp);
    // No filter: a node kept for the shown metric must exist for every other metric too.
    const options = {
      moduleMap: moduleMap(msg => this.log.warn(msg)),
      splits: state.splits,
      reveal: state.reveal,
      filter: { threshold: 0 },
    };
    const metrics = await lp.superGraphQuery<'nodeMetrics'>({
      kind: 'nodeMetrics',
      options,
      nodeId,
      maxMetrics: MAX_CORRELATION_METRICS,
    });
    if (this.profiles.active === lp) this.post({ type: 'callflow/nodeMetrics', nodeId, metrics });
  }

  private onMessage(m: FromWebview): void {
    if (isTimelineMessage(m) || isEnsembleMessage(m)) return; // the other panels' messages
    if (m.type.startsWith('callflow/')) {
      this.onCallflowRequest(m as CallflowRequest);
      return;
    }
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (this.data)
          this.post({ type: 'sankey', data: this.data, ...(this.callflow ? { callflow: this.callflow } : {}) });
        if (this.pendingHighlight) {
          this.post({ type: 'highlight', nodeIds: this.pendingHighlight });
          this.pendingHighlight = undefined;
        }
        break;
      case 'highlighted': {
        this.lastHighlight = m.nodeIds;
        const waiters = this.highlightWaiters;
        this.highlightWaiters = [];
        waiters.forEach(w => w(m.nodeIds));
        break;
      }
      case 'rendered': {
        this.lastRender = { nodeCount: m.nodeCount, linkCount: m.linkCount };
        const waiters = this.renderWaiters;
        this.renderWaiters = [];
        waiters.forEach(w => w(this.lastRender!));
        break;
      }
      case 'openSource':
        void this.navigator.open(m.file, m.line, m.name);
        break;
      case 'log':
        if (m.level === 'error') this.log.error(`[sankey] ${m.message}`);
        else this.log.info(`[sankey] ${m.message}`);
        break;
      default:
        this.log.warn(`unknown message from the Sankey webview: ${JSON.stringify(m)}`);
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.entryFlash.dispose();
    this.panel?.dispose();
  }
}
