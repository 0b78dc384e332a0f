import * as vscode from 'vscode';
import type { MonitorSource } from '../../analysis/pdes/stream/monitor-protocol';
import type { PdesTickUpdate } from '../../analysis/pdes/stream/stream-analyser';
import type { PdesStreamSettings } from '../../analysis/pdes/stream/stream-options';
import type { AnalysisService, DatasetHandle, OpenedSystem } from '../../service/analysis-service';
import type { PdesOpenSettings } from '../../service/systems/pdes-system';
import type { PdesMonitorEvent, PdesMonitorShape } from '../../service/systems/pdes-monitor-system';
import type {
  MonitorSourceInfo,
  MonitorTickPoint,
  PdesMonitorHostToView,
  PdesMonitorViewToHost,
} from '../../shared/pdes-monitor-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { DatasetManager } from '../datasets/dataset-manager';
import { PdesMonitorDataset } from '../datasets/pdes-monitor-dataset';
import { showEditorNote } from './pdes-monitor-show';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Ticks are forwarded to the view at most this often; the ones in between reach it in the same batch. */
const BATCH_MS = 100;

/**
 * The live PDES monitor (thesis ch. 6): one panel following one source — a growing ROSS stats file,
 * a replay, or a localhost socket. The monitor runs as a dataset of the analysis service in its own
 * worker; this forwards its ticks to the view in batches (so a fast replay never floods the page)
 * and answers the view's refreshes, one at a time, with the views' data computed in that worker.
 * Closing the panel stops the monitor.
 */
export class PdesMonitorPanel implements vscode.Disposable {
  private readonly host: WebviewHost<PdesMonitorHostToView, PdesMonitorViewToHost>;
  private dataset: DatasetHandle | undefined;
  private opened: OpenedSystem<'pdesMonitor'> | undefined;
  /** The followed run as the editor shows it, listed from the first Show on (its handler CodeLenses). */
  private editor: PdesMonitorDataset | undefined;
  private info: MonitorSourceInfo | undefined;
  private stopListening: (() => void) | undefined;
  private points: MonitorTickPoint[] = [];
  private latest: PdesTickUpdate | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private waitingRefresh: Extract<PdesMonitorViewToHost, { type: 'monitor/refresh' }> | undefined;
  private ended: { ticks: number; reason: string } | undefined;
  private readonly sent = new vscode.EventEmitter<PdesMonitorHostToView>();
  /** Fires for every message the host sends the view (tests wait for ticks and the end). */
  readonly onDidSend = this.sent.event;

  constructor(
    env: WebviewEnvironment,
    private readonly service: AnalysisService,
    private readonly log: vscode.LogOutputChannel,
    private readonly datasets: DatasetManager,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.pdesMonitor',
      title: vscode.l10n.t('HPC Lens: PDES Monitor'),
      view: 'pdes-monitor',
      onMessage: m => this.onMessage(m),
      onReady: () => this.replayState(),
      onDidDispose: () => void this.stopMonitor(),
    });
  }

  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }

  /**
   * Starts following `source` (stopping what the panel followed before) and shows the panel.
   * `editor`: `hpcLens.pdes.handlers` and the source roots, for Show's handler CodeLenses.
   */
  async start(
    source: MonitorSource,
    settings: PdesStreamSettings | undefined,
    editor?: PdesOpenSettings,
  ): Promise<boolean> {
    await this.stopMonitor();
    this.host.show();
    try {
      const opened = await this.service.openSystem({
        system: 'pdesMonitor',
        args: { source, settings, ...(editor ? { editor } : {}) },
      });
      this.dataset = opened.dataset;
      this.opened = opened;
      const { editor: _editor, ...info } = opened.opened;
      this.info = { ...info, kind: source.kind };
      this.host.title = vscode.l10n.t('PDES Monitor: {0}', shortName(opened.opened.source));
      this.stopListening = this.service.onSystemEvent(opened.dataset, e => this.onEvent(e as PdesMonitorEvent));
      this.log.info(`PDES monitor: following ${opened.opened.source} (${opened.opened.mode})`);
      await this.replayState();
      return true;
    } catch (e) {
      const message = (e as Error).message;
      this.log.error(`PDES monitor: ${message}`);
      this.send({ type: 'error', message });
      void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens: the PDES monitor could not start: {0}', message));
      return false;
    }
  }

  /** Sends the view everything it needs after a (re)load: the source, every tick so far, the end. */
  private async replayState(): Promise<void> {
    const dataset = this.dataset;
    if (!this.info || dataset === undefined) return;
    this.send({ type: 'monitor/started', info: this.info });
    // Ticks pushed before the panel listened are in the worker's cache: the summary series hold them all.
    const [top, bottom, history] = await Promise.all([
      this.ask({ kind: 'summary', view: 'top' }).catch(() => null),
      this.ask({ kind: 'summary', view: 'bottom' }).catch(() => null),
      this.ask({ kind: 'history' }),
    ]);
    if (dataset !== this.dataset) return;
    const changeAt = new Map(history.changePoints.map(c => [c.tick, c]));
    const points: MonitorTickPoint[] = history.ticks.map(t => ({
      tick: t.tick,
      time: t.time,
      means: { top: top?.mean[t.tick] ?? NaN, bottom: bottom?.mean[t.tick] ?? NaN },
      changePoint: changeAt.get(t.tick) ?? null,
    }));
    this.points = [];
    this.send({ type: 'monitor/history', points });
    if (history.latest) this.send({ type: 'monitor/ticks', points: [], latest: history.latest });
    // A replay can end (or fail) before the panel listens, while the monitor's editor profile is built.
    if (history.failure && !this.ended) this.send({ type: 'monitor/failed', message: history.failure });
    this.ended ??= history.ended ?? undefined;
    if (this.ended) this.send({ type: 'monitor/ended', ...this.ended });
  }

  private onEvent(e: PdesMonitorEvent): void {
    switch (e.type) {
      case 'started':
        return;
      case 'tick':
        this.points.push(pointOf(e.update));
        this.latest = e.update;
        if (e.update.changePoint) this.announceChangePoint(e.update);
        this.scheduleFlush();
        return;
      case 'resumed':
        this.points = [];
        this.latest = undefined;
        void this.replayState();
        return;
      case 'notice':
        this.log.info(`PDES monitor: ${e.message}`);
        this.send({ type: 'monitor/notice', message: e.message });
        return;
      case 'error':
        this.flush();
        this.log.error(`PDES monitor: ${e.message}`);
        this.send({ type: 'monitor/failed', message: e.message });
        void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens: the PDES monitor stopped: {0}', e.message));
        return;
      case 'ended':
        this.flush();
        this.ended = { ticks: e.ticks, reason: e.reason };
        this.log.info(`PDES monitor: ended after ${e.ticks} ticks (${e.reason})`);
        this.send({ type: 'monitor/ended', ...this.ended });
        return;
      default:
        assertNever(e, 'event of the PDES monitor');
    }
  }

  /** A change point notifies (thesis §6.4); Show highlights the entities that load PC1 most. */
  private announceChangePoint(u: PdesTickUpdate): void {
    const cp = u.changePoint!;
    const show = vscode.l10n.t('Show');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('HPC Lens: change point {0} at tick {1} (p = {2})', cp.number, cp.tick, cp.pValue.toPrecision(2)),
        show,
      )
      .then(choice => {
        if (choice === show) void this.showChangePoint(cp.number);
      });
  }

  /**
   * **Show**: highlights the change point's top PC1-loading entities in the views, and puts the
   * handler CodeLenses on the model's source for their LPs (the followed run becomes the active dataset).
   */
  private async showChangePoint(changePoint: number): Promise<void> {
    const shown = await this.ask({ kind: 'show', changePoint });
    if (!shown) return;
    const editor = await this.showHandlers(changePoint);
    this.host.show();
    this.send({
      type: 'monitor/selection',
      entities: shown.entities,
      reason: vscode.l10n.t('change point {0}: {1}', changePoint, shown.labels.slice(0, 8).join(', ')),
      changePoint,
      editor,
    });
  }

  /** Moves the handler CodeLenses to a change point's entities; says what the editor shows, or why nothing. */
  private async showHandlers(changePoint: number): Promise<string> {
    const opened = this.opened;
    if (!opened) return '';
    let d = this.editor;
    const fresh = !d || d.closed;
    if (fresh) {
      d = this.editor = PdesMonitorDataset.of(this.service, opened);
      if (!d)
        return vscode.l10n.t(
          'No handler CodeLenses: the run’s LPs are unknown (no ross.csv, command.txt or ross_all_lp_stats/ beside the stats file).',
        );
      d.follow(changePoint);
    } else await d!.show(changePoint);
    try {
      await this.datasets.showLive(d!);
    } catch (e) {
      this.log.error(`PDES monitor: the handler CodeLenses: ${(e as Error).message}`);
      return vscode.l10n.t('No handler CodeLenses: {0}', (e as Error).message);
    }
    if (opened !== this.opened) return '';
    return showEditorNote(d!.shownActivity, d!.run, d!.name, vscode.l10n);
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.latest) return;
    this.send({ type: 'monitor/ticks', points: this.points, latest: this.latest });
    this.points = [];
    this.latest = undefined;
  }

  private async onMessage(m: PdesMonitorViewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
      case 'log':
        return;
      case 'monitor/refresh':
        this.waitingRefresh = m;
        if (!this.refreshing) await this.refresh();
        return;
      case 'monitor/pause':
      case 'monitor/resume': {
        const paused = m.type === 'monitor/pause';
        await this.ask({ kind: paused ? 'pause' : 'resume' });
        this.send({ type: 'monitor/paused', paused });
        return;
      }
      case 'monitor/stop':
        await this.ask({ kind: 'stop' });
        return;
      case 'monitor/lasso': {
        const entities = await this.ask({ kind: 'lasso', view: m.view, polygon: m.polygon });
        this.send({
          type: 'monitor/selection',
          entities,
          reason: vscode.l10n.t('lasso in the {0} view', m.view),
        });
        return;
      }
      case 'monitor/show':
        await this.showChangePoint(m.changePoint);
        return;
      default:
        assertNever(m, 'message from the PDES monitor view');
    }
  }

  /** Answers the newest refresh the view asked for; one at a time, later ones replacing a waiting one. */
  private async refresh(): Promise<void> {
    this.refreshing = true;
    try {
      while (this.waitingRefresh && this.dataset !== undefined) {
        const r = this.waitingRefresh;
        this.waitingRefresh = undefined;
        const o = r.options;
        const matrix = { granularity: o.granularity, ...(o.drill ? { drill: o.drill } : {}) };
        const [top, bottom, live, causality, base, diffs] = await Promise.all([
          this.ask({ kind: 'behaviour', view: 'top' }).catch(() => null),
          this.ask({ kind: 'behaviour', view: o.bottomMetric ?? 'bottom' }).catch(() => null),
          this.ask({ kind: 'live-matrix', matrix }).catch(() => null),
          this.ask({ kind: 'causality', direction: o.causalityDirection, sortBy: o.causalitySort }).catch(() => []),
          o.baseTick === null
            ? null
            : this.ask({ kind: 'base-matrix', tick: o.baseTick, matrix: { granularity: o.granularity } }).catch(
                () => null,
              ),
          o.baseTick === null
            ? []
            : this.ask({ kind: 'diff-matrices', baseTick: o.baseTick, matrix: { granularity: o.granularity } }).catch(
                () => [],
              ),
        ]);
        this.send({ type: 'monitor/views', requestId: r.requestId, top, bottom, matrix: live, causality, base, diffs });
      }
    } catch (e) {
      this.log.error(`PDES monitor: ${(e as Error).message}`);
    } finally {
      this.refreshing = false;
    }
  }

  /** One request to the monitor's worker. */
  private ask<R extends PdesMonitorShape['request']>(request: R): Promise<PdesMonitorShape['results'][R['kind']]> {
    if (this.dataset === undefined) return Promise.reject(new Error('the monitor is not running'));
    return this.service.systemRequest({
      dataset: this.dataset,
      system: 'pdesMonitor',
      request: request as never,
    }) as Promise<PdesMonitorShape['results'][R['kind']]>;
  }

  private send(m: PdesMonitorHostToView): void {
    this.host.post(m);
    this.sent.fire(m);
  }

  private async stopMonitor(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    const dataset = this.dataset;
    this.dataset = undefined;
    this.opened = undefined;
    // The handler CodeLenses go with the monitor.
    const editor = this.editor;
    this.editor = undefined;
    if (editor) await this.datasets.closeLive(editor).catch(() => undefined);
    this.info = undefined;
    this.ended = undefined;
    this.points = [];
    this.latest = undefined;
    if (dataset !== undefined) await this.service.close({ dataset }).catch(() => undefined);
  }

  dispose(): void {
    void this.stopMonitor();
    this.host.dispose();
    this.sent.dispose();
  }
}

function pointOf(u: PdesTickUpdate): MonitorTickPoint {
  return { tick: u.tick, time: u.time, means: u.means, changePoint: u.changePoint };
}

function shortName(source: string): string {
  return source.slice(source.lastIndexOf('/') + 1) || source;
}
