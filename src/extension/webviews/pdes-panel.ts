import * as vscode from 'vscode';
import type { PdesPick, PdesViews } from '../../analysis/pdes/panel-views';
import type { AnalysisService } from '../../service/analysis-service';
import {
  pdesViewState,
  type PdesHostToView,
  type PdesPanelState,
  type PdesViewToHost,
} from '../../shared/pdes-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { DatasetManager, DatasetRecord } from '../datasets/dataset-manager';
import { PdesDataset } from '../datasets/pdes-dataset';
import { PdesHandlerDataset } from '../datasets/pdes-handler-dataset';
import { pdesAnalysisSettings, pdesHandlers, Setting } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import { nextState, readState } from './pdes-panel-state';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Context key: some loaded dataset is a PDES run (enables Show PDES Analysis). */
export const HAS_PDES_RUN = 'hpcLens.hasPdesRun';
/** Workspace state: the panel's state per PDES dataset (by dataset key), restored after a window reload. */
export const PDES_PANEL_STATES_KEY = 'hpcLens.pdesPanels';
/** Panel states remembered (the most recent). */
const REMEMBERED_STATES = 32;
/** Detail-view width asked before the page measured its own. */
const DEFAULT_WIDTH = 900;

/** What the panel posted last (the extension's tests follow these). */
export interface PdesUpdate {
  views?: PdesViews;
  state?: PdesPanelState;
  error?: string;
  unavailable?: string;
}

/**
 * The PDES panel (thesis ch. 5's offline system, issue 19): the overview with its range brush, two
 * detail views with their similarity views, the per-segment circular views, a segment's
 * communication matrix, the dragonfly network and the model's handlers, over one PDES run. It
 * follows the active dataset when that is a PDES run (and keeps showing its run otherwise). The
 * panel's state — options changed over the settings, range, edited segments, selection — is kept
 * per run in the run's dataset (whose handler CodeLenses follow the selection) and remembered in
 * the workspace state; every change asks the PDES system, in the run's worker, for all views at
 * once. A newer request cancels the one in flight, which stops a long analysis between slices.
 */
export class PdesPanel implements vscode.Disposable {
  private readonly host: WebviewHost<PdesHostToView, PdesViewToHost>;
  private shown: PdesDataset | undefined;
  private width = DEFAULT_WIDTH;
  private inflight: AbortController | undefined;
  private last: PdesUpdate = {};
  private readonly subs: vscode.Disposable[];
  private readonly updated = new vscode.EventEmitter<PdesUpdate>();
  /** Fires after views (or an error) were posted. */
  readonly onDidUpdate = this.updated.event;

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly service: AnalysisService,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
    private readonly memento?: vscode.Memento,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.pdes',
      title: vscode.l10n.t('HPC Lens: PDES Analysis'),
      view: 'pdes',
      onMessage: m => this.onMessage(m),
      onReady: () => this.refresh(),
      onDidDispose: () => {
        this.inflight?.abort();
        this.shown = undefined;
      },
    });
    this.subs = [
      datasets.onDidChangeDatasets(() => this.datasetsChanged()),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration(`hpcLens.${Setting.pdesHandlers}`)) void this.reloadRuns();
        else if (e.affectsConfiguration('hpcLens.pdes')) void this.settingsChanged();
      }),
    ];
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }
  /** The run on screen. */
  get dataset(): PdesDataset | undefined {
    return this.shown;
  }
  /** What was posted last. */
  get current(): PdesUpdate {
    return this.last;
  }
  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }

  /** Shows the panel for the active PDES run (or the last one shown); explains itself when there is none. */
  show(): boolean {
    const active = this.datasets.active;
    const run = active instanceof PdesDataset ? active : this.shownIfLoaded();
    if (!run) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'HPC Lens: the PDES analysis needs a ROSS or CODES run: open its output folder with HPC Lens: Open Profile… (or switch to one in the Datasets view).',
        ),
      );
      return false;
    }
    const changed = run !== this.shown;
    this.shown = run;
    if (!this.host.show() && changed) void this.refresh();
    return true;
  }

  private shownIfLoaded(): PdesDataset | undefined {
    const s = this.shown;
    return s && this.datasets.records.some(r => r.opened === s) ? s : undefined;
  }

  /** New datasets get their remembered panel state; the panel follows the active PDES run. */
  private datasetsChanged(): void {
    const records = this.datasets.records;
    void vscode.commands.executeCommand(
      'setContext',
      HAS_PDES_RUN,
      records.some(r => r.opened instanceof PdesDataset),
    );
    for (const r of records)
      if (r.opened instanceof PdesDataset && !r.opened.stateRestored) this.restoreState(r, r.opened);
    if (!this.host.isOpen) return;
    const active = this.datasets.active;
    if (active instanceof PdesDataset && active !== this.shown) {
      this.shown = active;
      void this.refresh();
    } else if (this.shown && !this.shownIfLoaded()) {
      this.shown = undefined;
      this.inflight?.abort();
      const message = vscode.l10n.t('The PDES run was closed. Open a ROSS or CODES output folder to analyse it here.');
      this.last = { unavailable: message };
      this.post({ type: 'pdes/unavailable', message });
    }
  }

  private restoreState(record: DatasetRecord, d: PdesDataset): void {
    d.stateRestored = true;
    const state = readState(this.memento?.get<Record<string, unknown>>(PDES_PANEL_STATES_KEY)?.[record.key]);
    if (!state) return;
    d.panelState = state;
    void d.refreshActivity();
  }

  private remember(d: PdesDataset): void {
    if (!this.memento) return;
    const record = this.datasets.records.find(r => r.opened === d);
    if (!record) return;
    const all = { ...(this.memento.get<Record<string, unknown>>(PDES_PANEL_STATES_KEY) ?? {}) };
    delete all[record.key];
    all[record.key] = d.panelState;
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - REMEMBERED_STATES))) delete all[k];
    void Promise.resolve(this.memento.update(PDES_PANEL_STATES_KEY, all)).catch(e =>
      this.log.warn(`could not remember the PDES panel state: ${(e as Error).message}`),
    );
  }

  /** Settings changed: every PDES run's CodeLenses, and the panel, follow. */
  private async settingsChanged(): Promise<void> {
    for (const r of this.datasets.records) if (r.opened instanceof PdesDataset) void r.opened.refreshActivity();
    if (this.host.isOpen) await this.refresh();
  }

  /** `hpcLens.pdes.handlers` changed: the runs' editor profiles (handlers at their lines) are read again. */
  private async reloadRuns(): Promise<void> {
    for (const r of [...this.datasets.records])
      if (r.opened instanceof PdesDataset) {
        const fresh = await this.datasets.reload(r);
        if (fresh instanceof PdesDataset && this.shown === r.opened) this.shown = fresh;
      }
    if (this.host.isOpen) await this.refresh();
  }

  /** Changes the shown run's state and asks for its views again. */
  private async update(change: (s: PdesPanelState) => PdesPanelState): Promise<void> {
    const d = this.shown;
    if (!d) return;
    d.panelState = change(d.panelState);
    this.remember(d);
    await this.refresh();
  }

  /**
   * Asks the PDES system for every view of the shown run's state (cancelling the request in flight),
   * with a stroke or lasso to apply to the selection first.
   */
  async refresh(pick?: PdesPick): Promise<void> {
    const d =
      this.shown ??
      this.shownIfLoaded() ??
      (this.datasets.active instanceof PdesDataset ? this.datasets.active : undefined);
    if (!this.host.isReady) return;
    if (!d) {
      this.post({
        type: 'pdes/unavailable',
        message: vscode.l10n.t('No PDES run is open. Open a ROSS or CODES output folder with HPC Lens: Open Profile….'),
      });
      return;
    }
    this.shown = d;
    this.host.title = vscode.l10n.t('PDES: {0}', d.name);
    this.inflight?.abort();
    const abort = new AbortController();
    this.inflight = abort;
    const ticket = this.host.begin();
    const state = d.panelState;
    const settings = pdesAnalysisSettings();
    let announced = false;
    const started = Date.now();
    try {
      const views = await this.service.systemRequest<'pdes', 'views'>(
        {
          dataset: d.handle,
          system: 'pdes',
          request: {
            kind: 'views',
            options: { ...settings, ...state.options },
            state: pdesViewState(state, { width: this.width, pick, handlers: pdesHandlers() }),
          },
        },
        {
          signal: abort.signal,
          onProgress: (fraction, message) => {
            if (!this.host.isCurrent(ticket)) return;
            announced = true;
            this.post({ type: 'pdes/progress', fraction, message: message ?? '' });
          },
        },
      );
      if (!this.host.isCurrent(ticket) || d !== this.shown) return;
      if (announced) this.log.info(`PDES analysis of ${d.name}: ${Date.now() - started} ms`);
      // A pick resolved into the selection; the CodeLenses follow it.
      const next = { ...d.panelState, selection: views.selection };
      d.panelState = next;
      this.remember(d);
      d.setActivity(views.handlers);
      this.last = { views, state: next };
      this.post({ type: 'pdes/views', title: d.name, run: d.run, views, state: next, settings });
    } catch (e) {
      if (abort.signal.aborted || !this.host.isCurrent(ticket)) return;
      const message = (e as Error).message ?? String(e);
      if (/no PDES behaviour views/.test(message)) {
        this.last = { unavailable: message };
        this.post({
          type: 'pdes/unavailable',
          message: vscode.l10n.t('{0} has no behaviour series to analyse: {1}', d.name, message.replace(/^.*?: /, '')),
        });
      } else {
        this.log.error(`PDES analysis of ${d.name}: ${message}`);
        this.last = { ...this.last, error: message };
        this.post({ type: 'error', message });
      }
    } finally {
      if (this.inflight === abort) this.inflight = undefined;
      if (announced && this.host.isCurrent(ticket)) this.post({ type: 'pdes/progress', fraction: null, message: '' });
    }
  }

  private post(m: PdesHostToView): void {
    this.host.post(m);
    if (m.type === 'pdes/views' || m.type === 'error' || m.type === 'pdes/unavailable') this.updated.fire(this.last);
  }

  private async onMessage(m: PdesViewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
      case 'log':
        return; // handled by the host
      case 'pdes/options':
      case 'pdes/resetOptions':
      case 'pdes/selection':
      case 'pdes/keepUnselected':
      case 'pdes/matrixSegment':
      case 'pdes/networkSegment':
        return this.update(s => nextState(s, m));
      case 'pdes/topology':
        // Hover and select stay in the view; a drill-down asks for the network again.
        if (m.event.type === 'topology/expand' || m.event.type === 'topology/collapse')
          return this.update(s => nextState(s, m));
        return;

      case 'pdes/pick':
        // The system resolves the stroke or lasso against the selection; its answer carries the new one.
        return this.refresh(m.pick);
      case 'pdes/width':
        if (Math.abs(m.width - this.width) < 8) return;
        this.width = Math.max(100, Math.round(m.width));
        return this.refresh();
      case 'pdes/openHandler':
        await this.openHandler(m.lpType, m.which);
        return;
      default:
        assertNever(m, 'message from the PDES view');
    }
  }

  /**
   * Opens an LP type's handler of the shown (or active) run; from a CodeLens, of the active run
   * (which may be a live monitor's).
   */
  async openHandler(lpType: string, which: 'forward' | 'reverse', fromLens = false): Promise<boolean> {
    const active = this.datasets.active;
    const d =
      (fromLens && active instanceof PdesHandlerDataset ? active : undefined) ??
      this.shown ??
      (active instanceof PdesDataset ? active : undefined);
    const at = d?.handlerLocation(lpType, which);
    if (!at) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('HPC Lens: no {0} handler of {1} is configured; set it in hpcLens.pdes.handlers.', which, lpType),
      );
      return false;
    }
    return (await this.navigator.open(at.file, at.line > 0 ? at.line : null, at.name)) !== undefined;
  }

  dispose(): void {
    this.inflight?.abort();
    this.subs.forEach(s => s.dispose());
    this.updated.dispose();
    this.host.dispose();
  }
}
