import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DmvWindowData } from '../../analysis/dmv/panel-data';
import type { AnalysisService } from '../../service/analysis-service';
import type { DataMovementRequest } from '../../service/systems/data-movement-system';
import type { SystemResult } from '../../service/systems';
import type {
  DmvEnsembleMode,
  DmvFocus,
  DmvHostToView,
  DmvViewToHost,
  DmvWindow,
  DmvWindowRequest,
} from '../../shared/dmv-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { dmvCategoryRules } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import { openEventSource } from './open-event-source';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

type Kind = DataMovementRequest['kind'];

/**
 * DMV, the data movement views of thesis ch. 7, in one panel that follows the active dataset. For a
 * trace: the 12-sector clock (with play), the metric timeline and utilisation glyph, the
 * communication matrix, the host–GPU hardware view, the application view, the event view (grouped
 * above 1,000 events) and the data-movement flags, all linked by one time window (a sector click, a
 * play step, a flag); a matrix cell lists its copies and their issuing lines. For an ensemble of
 * traces (Open Folder as Ensemble…): the grid of clocks. Every view is computed by the data-movement
 * system in the dataset's worker; window requests are kept to one in flight, a newer one replacing
 * the waiting one, so play and quick clicks never queue stale answers.
 */
export class DmvPanel implements vscode.Disposable {
  private readonly host: WebviewHost<DmvHostToView, DmvViewToHost>;
  /** The dataset on screen: a trace's whole run, or an ensemble. */
  private shown: Dataset | undefined;
  /** The category rules the shown overview was computed with. */
  private rulesKey = '';
  private windowBusy = false;
  private waitingWindow: DmvWindowRequest | undefined;
  private focus: DmvFocus | null = null;
  private ensemble: { mode: DmvEnsembleMode; sort: boolean } = { mode: 'own', sort: false };
  private readonly subs: vscode.Disposable[];
  private readonly sent = new vscode.EventEmitter<DmvHostToView>();
  /** Fires for every message the host sends the view (tests wait for windows, cells, grids). */
  readonly onDidSend = this.sent.event;
  /** The views of the last window sent (for tests and the status of the panel). */
  lastWindow: DmvWindowData | undefined;

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly service: AnalysisService,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.dmv',
      title: vscode.l10n.t('HPC Lens: Data Movement'),
      view: 'dmv',
      iconPath: vscode.Uri.joinPath(env.extensionUri, 'media', 'data-movement', 'copy-dark.svg'),
      onMessage: m => this.onMessage(m),
      // Every page load starts from the init message.
      onReady: () => {
        this.shown = undefined;
        return this.update();
      },
      onDidDispose: () => {
        this.shown = undefined;
        this.lastWindow = undefined;
      },
    });
    this.subs = [
      datasets.onDidChange(() => {
        if (this.host.isOpen) void this.update();
      }),
      vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('hpcLens.dmv') && this.host.isOpen) {
          this.shown = undefined;
          void this.update();
        }
      }),
    ];
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }
  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }

  /** Shows the panel on the active trace or ensemble; `focus` (a flag's CodeLens) selects a window and flag. */
  show(focus?: DmvFocus): void {
    const active = this.datasets.active;
    if (!active || (!active.wholeRun.profile.trace && active.kind !== 'ensemble')) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'HPC Lens: Data Movement needs a trace with GPU activity (Kineto/PyTorch profiler, Nsight Systems) or an ensemble of traces as the active dataset.',
        ),
      );
      return;
    }
    this.focus = focus ?? null;
    if (!this.host.show()) void this.update();
  }

  /**
   * Adds (or, with null, removes) the node's `nvidia-smi topo -m` output or an nvidia-smi CSV for the
   * trace on screen; read in the dataset's worker. Resolves to false when it could not be read.
   */
  async setFile(kind: 'topology' | 'nvidiaSmi', uri: vscode.Uri | null): Promise<boolean> {
    const ds = this.shown;
    if (!ds || ds.kind === 'ensemble') return false;
    const file = uri ? uri.fsPath : null;
    try {
      const files = await this.request(
        ds,
        kind === 'topology' ? { kind: 'files', topology: file } : { kind: 'files', nvidiaSmi: file },
      );
      const warning = kind === 'topology' ? files.topology?.warning : null;
      if (warning)
        void vscode.window.showWarningMessage(
          vscode.l10n.t('HPC Lens: the communication matrix is shown without link types: {0}', warning),
        );
    } catch (e) {
      const message = (e as Error).message;
      this.log.error(`data movement: ${message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens could not read {0}: {1}', file ?? '', message));
      return false;
    }
    this.shown = undefined;
    await this.update();
    return true;
  }

  /** Shows the active dataset: a trace's views, an ensemble's grid, or why there is nothing to show. */
  private async update(): Promise<void> {
    const active = this.datasets.active;
    if (!active) {
      this.host.dispose();
      return;
    }
    if (!this.host.isReady) return;
    if (active.kind === 'ensemble') return this.showEnsemble(active);
    const whole = active.wholeRun;
    if (!whole.profile.trace) {
      this.shown = undefined;
      this.send({
        type: 'dmv/unavailable',
        message: vscode.l10n.t(
          '{0} is not a trace: it has no timeline of GPU activity. Switch to a trace (Kineto, Nsight Systems) or an ensemble of traces.',
          whole.name,
        ),
      });
      return;
    }
    const rulesKey = JSON.stringify(dmvCategoryRules() ?? null);
    if (this.shown === whole && this.rulesKey === rulesKey) {
      this.send({ type: 'dmv/overlayWindow', window: active.overlayWindow });
      if (this.focus) this.send({ type: 'dmv/focus', focus: this.focus });
      this.focus = null;
      return;
    }
    this.shown = whole;
    this.rulesKey = rulesKey;
    this.host.title = vscode.l10n.t('Data Movement: {0}', whole.name);
    try {
      const started = Date.now();
      const overview = await this.request(whole, { kind: 'overview', rules: dmvCategoryRules() });
      if (this.shown !== whole) return;
      this.log.info(
        `data movement of ${whole.name}: ${overview.counts.events} events, ${overview.counts.copies} copies, ${overview.flags.length} flags in ${Date.now() - started} ms`,
      );
      for (const w of overview.warnings) this.log.warn(`${whole.name}: ${w}`);
      this.send({
        type: 'dmv/init',
        title: whole.name,
        overview,
        overlayWindow: active.overlayWindow,
        focus: this.focus,
      });
      this.focus = null;
    } catch (e) {
      this.shown = undefined;
      this.fail(vscode.l10n.t('could not show the data movement of {0}', whole.name), e);
    }
  }

  private async showEnsemble(ds: Dataset): Promise<void> {
    if (this.shown !== ds) this.ensemble = { mode: 'own', sort: false };
    this.shown = ds;
    this.host.title = vscode.l10n.t('Data Movement: {0}', ds.name);
    try {
      const grid = await this.request(ds, { kind: 'ensemble', rules: dmvCategoryRules(), ...this.ensemble });
      if (this.shown === ds) this.send({ type: 'dmv/ensemble', title: ds.name, grid, ...this.ensemble });
    } catch (e) {
      this.shown = undefined;
      this.fail(vscode.l10n.t('could not show {0} as a trace ensemble', ds.name), e);
    }
  }

  private send(m: DmvHostToView): void {
    if (m.type === 'dmv/window') this.lastWindow = m.data;
    this.host.post(m);
    this.sent.fire(m);
  }

  private fail(what: string, e: unknown): void {
    const message = `${what}: ${(e as Error).message ?? String(e)}`;
    this.log.error(message);
    this.send({ type: 'dmv/unavailable', message });
  }

  private request<K extends Kind>(
    ds: Dataset,
    request: Extract<DataMovementRequest, { kind: K }>,
  ): Promise<SystemResult<'dataMovement', K>> {
    return this.service.systemRequest({ dataset: ds.handle, system: 'dataMovement', request });
  }

  private async onMessage(m: DmvViewToHost): Promise<void> {
    const ds = this.shown;
    try {
      switch (m.type) {
        case 'ready':
        case 'log':
          return; // handled by the host
        case 'dmv/requestWindow':
          this.waitingWindow = m;
          if (ds) await this.pumpWindows(ds);
          return;
        case 'dmv/cell': {
          if (!ds) return;
          const data = await this.request(ds, {
            kind: 'cell',
            rules: dmvCategoryRules(),
            src: m.src,
            dst: m.dst,
            window: m.window,
          });
          if (ds === this.shown) this.send({ type: 'dmv/cell', data });
          return;
        }
        case 'dmv/openSource':
          await this.navigator.open(m.file, m.line, m.name);
          return;
        case 'dmv/openEvent': {
          if (ds) await openEventSource(this.service, this.navigator, ds, m.row);
          return;
        }
        case 'dmv/useWindowForOverlays':
          await this.useWindowForOverlays(m.window);
          return;
        case 'dmv/ensemble':
          this.ensemble = { mode: m.mode, sort: m.sort };
          if (ds?.kind === 'ensemble') await this.showEnsemble(ds);
          return;
        case 'dmv/openRun':
          await this.datasets.open(vscode.Uri.file(m.path));
          return;
        case 'dmv/file': {
          if (m.action === 'remove') {
            await this.setFile(m.kind, null);
            return;
          }
          const picked = await vscode.window.showOpenDialog({
            title:
              m.kind === 'topology'
                ? vscode.l10n.t('The output of nvidia-smi topo -m on the node the trace was recorded on')
                : vscode.l10n.t('GPU metrics written by nvidia-smi --query-gpu=timestamp,… --format=csv'),
            openLabel: vscode.l10n.t('Add to Data Movement'),
            canSelectFiles: true,
            canSelectFolders: false,
            canSelectMany: false,
            defaultUri: ds ? vscode.Uri.file(path.dirname(ds.uri.fsPath)) : undefined,
          });
          if (picked?.[0]) await this.setFile(m.kind, picked[0]);
          return;
        }
        default:
          assertNever(m, 'message from the data movement view');
      }
    } catch (e) {
      this.log.error(`data movement ${m.type}: ${(e as Error).message}`);
      this.send({ type: 'error', message: (e as Error).message });
    }
  }

  /** Use This Window for Overlays (null: the whole run again), as the timeline's button does. */
  async useWindowForOverlays(window: DmvWindow | null): Promise<boolean> {
    const active = this.datasets.active;
    if (!active?.wholeRun.profile.trace) return false;
    if (!window) {
      await this.datasets.showWholeRun();
      return true;
    }
    const windowed = await this.datasets.showWindow(window, null);
    if (windowed) this.log.info(`overlays follow ${windowed.name}`);
    return windowed !== undefined;
  }

  /** Answers the latest waiting window request; one in flight, so play and quick clicks ask only for where they end. */
  private async pumpWindows(ds: Dataset): Promise<void> {
    if (this.windowBusy) return;
    this.windowBusy = true;
    try {
      while (this.waitingWindow && ds === this.shown) {
        const m = this.waitingWindow;
        this.waitingWindow = undefined;
        const data = await this.request(ds, {
          kind: 'window',
          rules: dmvCategoryRules(),
          options: {
            window: m.window,
            expanded: m.expanded,
            metricPoints: m.metricPoints,
            glyph: m.glyph,
            ...(m.hardwareNodes !== undefined ? { hardwareNodes: m.hardwareNodes } : {}),
          },
        });
        if (ds === this.shown) this.send({ type: 'dmv/window', requestId: m.requestId, data });
      }
    } finally {
      this.windowBusy = false;
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.sent.dispose();
    this.host.dispose();
  }
}
