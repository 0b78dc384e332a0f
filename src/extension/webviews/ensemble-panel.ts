import * as vscode from 'vscode';
import type {
  EnsembleDetailData,
  EnsembleGraphData,
  EnsembleHostToView,
  EnsembleProjectionData,
  EnsembleRenderedMessage,
  EnsembleRequest,
  EnsembleViewToHost,
} from '../../shared/ensemble-protocol';
import type { FromWebview, ToWebview } from '../../shared/protocol';
import { isEnsemble, type EnsembleLoadedProfile } from '../ensembles/ensemble-dataset';
import type { ProfileManager } from '../profile-manager';
import { moduleMap } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import { EnsembleSession, type EnsembleTimings } from './ensemble-session';
import type { EnsemblePanelState } from './ensemble-state';
import { createViewPanel } from './webview-html';

/** Context key: some loaded dataset is an ensemble (enables Show Ensemble CallFlow). */
const HAS_ENSEMBLE = 'hpcLens.hasEnsemble';

const comparisonOf = (s: EnsemblePanelState) => ({ mode: s.view.mode, target: s.view.target, diff: s.view.diff });

/**
 * Ensemble CallFlow (seed-callflow §4): the ensemble-Sankey with its five linked views — supernode
 * hierarchy, call-site correspondence, metric correlation, runtime distribution and parameter
 * projection — in three modes (ensemble summary, target vs ensemble, target vs target). One panel;
 * it follows the active dataset when that is an ensemble. The host keeps the state per dataset,
 * recomputes on each request what the request invalidates (graph, or only the selected node's
 * detail) and sends level-of-detail data; the mode also drives the editor's CodeLens and hovers.
 */
export class EnsemblePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private readonly sessions = new WeakMap<EnsembleLoadedProfile, EnsembleSession>();
  /** The session whose data is on screen. */
  private shown: EnsembleSession | undefined;
  private generation = 0;
  private readonly subs: vscode.Disposable[];
  private renderWaiters: ((m: EnsembleRenderedMessage) => void)[] = [];
  private updateWaiters: (() => void)[] = [];
  lastRender: EnsembleRenderedMessage | undefined;
  lastRequestError: string | undefined;
  lastTimings: EnsembleTimings = {};

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly profiles: ProfileManager,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs = [
      profiles.onDidChange(lp => {
        void vscode.commands.executeCommand(
          'setContext',
          HAS_ENSEMBLE,
          profiles.datasets.some(d => isEnsemble(d.loaded)),
        );
        if (isEnsemble(lp)) lp.comparison = comparisonOf(this.sessionOf(lp).state);
        if (this.panel) void this.update('graph');
      }),
    ];
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }
  get data(): EnsembleGraphData | undefined {
    return this.shown?.computed?.data;
  }
  get detail(): EnsembleDetailData | null | undefined {
    return this.shown?.computed?.detail;
  }
  get projection(): EnsembleProjectionData | undefined {
    return this.shown?.computed?.projection;
  }
  get state(): EnsemblePanelState | undefined {
    const lp = this.profiles.active;
    return isEnsemble(lp) ? this.sessionOf(lp).state : undefined;
  }

  /**
   * Shows the panel for the active ensemble; explains itself when the active dataset is not one.
   * With `focusFunction` (a CodeLens click) the supernode holding that function gets selected.
   */
  show(focusFunction?: string): boolean {
    const lp = this.profiles.active;
    if (!isEnsemble(lp)) {
      void vscode.window.showInformationMessage(
        'HPC Lens: Ensemble CallFlow needs an ensemble: use HPC Lens: Open Folder as Ensemble… (or switch to one in the Datasets view).',
      );
      return false;
    }
    this.sessionOf(lp).focusFunction = focusFunction;
    if (this.panel) {
      this.panel.reveal(undefined, true);
      void this.update('graph');
      return true;
    }
    // The page's `ready` cannot arrive before this tick ends, so the listeners below still see it.
    const panel = createViewPanel(this.extensionUri, 'hpcLens.ensemble', 'HPC Lens: Ensemble', 'ensemble');
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'sankey.svg');
    this.panel = panel;
    this.ready = false;
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      this.shown = undefined;
    });
    void this.update('graph');
    return true;
  }

  /** Applies a request as if the webview had sent it (palette commands, tests); resolves once it is answered. */
  async request(request: EnsembleRequest): Promise<void> {
    const done = this.nextUpdate();
    this.onRequest(request);
    await done;
  }

  nextRender(): Promise<EnsembleRenderedMessage> {
    return new Promise(resolve => this.renderWaiters.push(resolve));
  }
  nextUpdate(): Promise<void> {
    return new Promise(resolve => this.updateWaiters.push(resolve));
  }

  post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  private sessionOf(lp: EnsembleLoadedProfile): EnsembleSession {
    let s = this.sessions.get(lp);
    if (!s) {
      s = new EnsembleSession(lp.ensemble, {
        title: lp.name,
        metric: () => lp.profile.metrics[lp.metric]!.name,
        moduleMap: () => moduleMap(msg => this.log.warn(msg)),
      });
      this.sessions.set(lp, s);
    }
    return s;
  }

  private onRequest(request: EnsembleRequest): void {
    const lp = this.profiles.active;
    if (!isEnsemble(lp)) return this.settle();
    const session = this.sessionOf(lp);
    const applied = session.apply(request);
    if ('error' in applied) {
      this.lastRequestError = applied.error;
      void vscode.window.showWarningMessage(`HPC Lens: ${applied.error}`);
      // The webview undoes its optimistic UI with the unchanged state.
      this.postDetail(session);
      return this.settle();
    }
    this.lastRequestError = undefined;
    lp.comparison = comparisonOf(session.state);
    if (request.type === 'ensemble/select' && request.nodeId) this.openSelected(session, request.nodeId);
    if (applied.scope === 'state') {
      this.postDetail(session);
      return this.settle();
    }
    void this.update(applied.scope);
  }

  /** Recomputes what changed and posts it; only the latest of overlapping updates posts. */
  private async update(scope: 'graph' | 'detail'): Promise<void> {
    const lp = this.profiles.active;
    if (!isEnsemble(lp)) {
      // Keep the panel (the user may switch back); say why it is empty.
      this.shown = undefined;
      if (this.ready)
        this.post({
          type: 'error',
          message: `The active dataset${lp ? ` (${lp.name})` : ''} is not an ensemble. Switch to an ensemble in the Datasets view, or use HPC Lens: Open Folder as Ensemble….`,
        });
      return this.settle();
    }
    const generation = ++this.generation;
    // Let the webview's pending messages (and other extensions) run before the computation.
    await new Promise(resolve => setImmediate(resolve));
    if (generation !== this.generation) return;
    const session = this.sessionOf(lp);
    try {
      const c = session.compute(this.shown === session ? scope : 'graph');
      if (generation !== this.generation || this.profiles.active !== lp || !this.panel) return;
      const graphSent = scope === 'graph' || this.shown !== session;
      this.shown = session;
      this.lastTimings = session.timings;
      this.panel.title = `HPC Lens: ${lp.name} (ensemble)`;
      if (this.ready && graphSent)
        this.post({
          type: 'ensemble/graph',
          data: c.data,
          state: session.state.view,
          projection: c.projection,
        } satisfies EnsembleHostToView);
      this.postDetail(session);
      this.log.info(
        `ensemble ${scope}: ${Object.entries(session.timings)
          .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
          .join(', ')}`,
      );
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`ensemble view: ${message}`);
      if (this.ready) this.post({ type: 'error', message });
    } finally {
      if (generation === this.generation) this.settle();
    }
  }

  private postDetail(session: EnsembleSession): void {
    if (this.ready && this.shown === session)
      this.post({
        type: 'ensemble/detail',
        detail: session.computed?.detail ?? null,
        state: session.state.view,
      } satisfies EnsembleHostToView);
  }

  private settle(): void {
    const waiters = this.updateWaiters;
    this.updateWaiters = [];
    waiters.forEach(w => w());
  }

  /** A selected supernode opens its hottest entry function, as in the single-run Sankey. */
  private openSelected(session: EnsembleSession, nodeId: string): void {
    const node = session.computed?.data.nodes.find(n => n.id === nodeId);
    const entry = node?.entries.find(e => e.file);
    if (entry?.file) void this.navigator.open(entry.file, entry.line, entry.name);
  }

  private onMessage(m: FromWebview | EnsembleViewToHost): void {
    if (m.type === 'ensemble/rendered') {
      this.lastRender = m;
      const waiters = this.renderWaiters;
      this.renderWaiters = [];
      waiters.forEach(w => w(m));
      return;
    }
    if (m.type.startsWith('ensemble/')) {
      this.onRequest(m as EnsembleRequest);
      return;
    }
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        const s = this.shown;
        if (s?.computed) {
          this.post({
            type: 'ensemble/graph',
            data: s.computed.data,
            state: s.state.view,
            projection: s.computed.projection,
          });
          this.postDetail(s);
        }
        break;
      }
      case 'openSource':
        void this.navigator.open(m.file, m.line, m.name);
        break;
      case 'log':
        if (m.level === 'error') this.log.error(`[ensemble] ${m.message}`);
        else this.log.info(`[ensemble] ${m.message}`);
        break;
      default:
        break;
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.panel?.dispose();
  }
}
