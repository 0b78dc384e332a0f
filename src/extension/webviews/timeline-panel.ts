import * as vscode from 'vscode';
import type { AnalysisService } from '../../service/analysis-service';
import type { TimelineResults, TimelineWorkerRequest } from '../../service/timeline-requests';
import {
  type TimelineHostToView,
  type TimelineInitMessage,
  type TimelineTileRequestMessage,
  type TimelineViewToHost,
  type TimelineWindow,
  type TimelineWindowStatsMessage,
} from '../../shared/timeline-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { TraceAnalysisView } from '../../analysis/timeseries/model/trace-analysis-view';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import type { SourceNavigator } from '../source-navigator';
import { openEventSource } from './open-event-source';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Context key: the active dataset is a trace (shows Show Timeline in the palette). */
export const HAS_TRACE = 'hpcLens.hasTrace';
/** Context key: the overlays show a window of the run (enables Use Whole Run for Overlays). */
export const OVERLAY_WINDOW = 'hpcLens.overlaysFollowWindow';
/** Width of the mini-map's tiles (the whole run; the view scales it to its width). */
const MINIMAP_WIDTH = 1024;

/** What the timeline shows of a trace analysis: cluster bands, class colours, the main loop's iterations, the automatic depth. */
export interface TimelineAnalysisOverlay {
  view: TraceAnalysisView;
  nodeClass: Uint8Array;
  /** The loop whose iterations are banded (the first accepted loop: the largest share), or null. */
  loop: number | null;
}

/**
 * The timeline of the active trace: one panel that follows the active dataset. Every computation
 * (tiles, mini-map, lookups, window statistics, the windowed profile) runs in the analysis service
 * where the trace lives; tile requests are kept to one in flight, later ones replacing the waiting
 * one, so panning never queues up stale frames.
 */
export class TimelinePanel implements vscode.Disposable {
  private readonly host: WebviewHost<TimelineHostToView, TimelineViewToHost>;
  /** The whole-run dataset the panel shows (a window of a trace still shows its whole run). */
  private shown: Dataset | undefined;
  private init: TimelineInitMessage | undefined;
  private tilesBusy = false;
  private waitingTiles: TimelineTileRequestMessage | undefined;
  private hoverBusy = false;
  private waitingHover: Extract<TimelineViewToHost, { type: 'timeline/hover' }> | undefined;
  /** The last window and lanes the view asked tiles for (where highlights are looked up). */
  private lastTiles: TimelineTileRequestMessage | undefined;
  private readonly subs: vscode.Disposable[];
  private readonly sent = new vscode.EventEmitter<TimelineHostToView>();
  /** Fires for every message the host sends the view (tests wait for window statistics, highlights…). */
  readonly onDidSend = this.sent.event;
  /** The window the view last selected (what Use This Window for Overlays applies). */
  selection: { window: TimelineWindow; tracks: number[] | null } | undefined;
  /** Trace analyses per whole-run dataset, with whether the lanes are grouped by cluster. */
  private readonly analyses = new WeakMap<Dataset, TimelineAnalysisOverlay & { byCluster: boolean }>();
  private readonly analyseAsked = new vscode.EventEmitter<void>();
  /** The view's Analyse Trace button. */
  readonly onDidRequestAnalysis = this.analyseAsked.event;
  /** A window to show once the view has the trace (asked before the page was ready). */
  private pendingWindow: Extract<TimelineHostToView, { type: 'timeline/showWindow' }> | undefined;

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly service: AnalysisService,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.timeline',
      title: vscode.l10n.t('HPC Lens: Timeline'),
      view: 'timeline',
      onMessage: m => this.onMessage(m),
      // Every page load starts from the init message.
      onReady: () => {
        this.init = undefined;
        this.shown = undefined;
        return this.update();
      },
      onDidDispose: () => {
        this.shown = undefined;
        this.init = undefined;
      },
    });
    this.subs = [
      datasets.onDidChange(ds => {
        void vscode.commands.executeCommand('setContext', HAS_TRACE, !!ds?.profile.trace);
        void vscode.commands.executeCommand('setContext', OVERLAY_WINDOW, !!ds?.overlayWindow);
        if (this.host.isOpen) void this.update();
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

  show(): void {
    // Show Timeline stays in the palette whatever is open (else typing it runs VS Code's own Timeline): say why not.
    const active = this.datasets.active;
    if (!active?.profile.trace) {
      const needs = vscode.l10n.t(
        'the timeline needs a trace (Chrome/Kineto, Nsight Systems, OTF2, HPCToolkit trace.db or .hpctrace files, perf, pprof…) as the active dataset.',
      );
      void vscode.window.showInformationMessage(
        active
          ? vscode.l10n.t('HPC Lens: {0} has no trace: {1}', active.name, needs)
          : vscode.l10n.t('HPC Lens: no dataset is open: {0}', needs),
      );
      return;
    }
    if (!this.host.show()) void this.update();
  }

  /**
   * Highlights the events of call-tree nodes (and their subtrees) in the window on screen: for an
   * editor line (Reveal Current Line) or a Sankey node. [] clears. Returns the number of events marked.
   */
  async highlightNode(nodes: readonly number[]): Promise<number> {
    const ds = this.shown;
    const req = this.lastTiles;
    if (!ds || !req || !this.host.isReady) return 0;
    if (nodes.length === 0) {
      this.send({ type: 'timeline/highlight', node: null, name: '', tracks: [], rows: [], spans: [] });
      return 0;
    }
    const { rows, spans } = await this.request(ds, {
      kind: 'eventsOfNode',
      nodes: [...nodes],
      window: req.window,
      tracks: req.tracks,
    });
    this.send({
      type: 'timeline/highlight',
      node: nodes[0]!,
      name: ds.profile.tree.name(nodes[0]!),
      tracks: req.tracks,
      rows,
      spans,
    });
    return rows.reduce((s, r) => s + r.length, 0);
  }

  /** Use This Window for Overlays: the active dataset shows the profile of `window` (the view's selection by default). */
  async useWindowForOverlays(
    window = this.selection?.window,
    tracks = this.selection?.tracks ?? null,
  ): Promise<boolean> {
    const active = this.datasets.active;
    if (!active?.profile.trace) {
      void vscode.window.showInformationMessage(vscode.l10n.t('HPC Lens: the active dataset has no timeline.'));
      return false;
    }
    if (!window) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('HPC Lens: select a time range in the timeline first (shift-drag).'),
      );
      return false;
    }
    const windowed = await this.datasets.showWindow(window, tracks);
    if (!windowed) return false;
    this.log.info(`overlays follow ${windowed.name}`);
    this.send({ type: 'timeline/overlayWindow', window });
    return true;
  }

  /** Use Whole Run for Overlays: back to the trace's own profile. */
  async useWholeRunForOverlays(): Promise<void> {
    if (!this.datasets.active?.overlayWindow) return;
    await this.datasets.showWholeRun();
    this.send({ type: 'timeline/overlayWindow', window: null });
  }

  /**
   * A trace analysis of `ds` (its whole run): the worker colours by class from now on, and the view
   * may group lanes by cluster, band the main loop's iterations and pick the automatic depth.
   */
  async setAnalysis(ds: Dataset, overlay: TimelineAnalysisOverlay | undefined): Promise<void> {
    const whole = ds.wholeRun;
    if (!overlay) this.analyses.delete(whole);
    else this.analyses.set(whole, { ...overlay, byCluster: this.analyses.get(whole)?.byCluster ?? true });
    await this.request(whole, { kind: 'nodeClasses', classes: overlay?.nodeClass ?? null });
    if (this.shown === whole) this.sendAnalysis(whole);
  }

  /** Groups the lanes by cluster (or puts them back in trace order) for the trace analysis of `ds`. */
  async showByCluster(ds: Dataset, on: boolean): Promise<void> {
    const a = this.analyses.get(ds.wholeRun);
    if (!a) return;
    a.byCluster = on;
    if (!this.host.isOpen) this.show();
    else if (this.shown === ds.wholeRun) this.sendAnalysis(ds.wholeRun);
  }

  /** Shows the timeline with `window` on screen and selected (its statistics, Use This Window for Overlays). */
  async showWindow(window: TimelineWindow, tracks: number[] | null, label: string): Promise<void> {
    const m = { type: 'timeline/showWindow' as const, window, tracks, label };
    if (!this.host.isOpen || !this.init) {
      this.pendingWindow = m;
      this.show();
      return;
    }
    this.host.show();
    this.send(m);
  }

  private sendAnalysis(whole: Dataset): void {
    const a = this.analyses.get(whole);
    this.send({
      type: 'timeline/analysis',
      analysis: a
        ? {
            bands: a.view.bands.map(b => ({ label: b.label, tracks: b.tracks, weight: b.weight })),
            byCluster: a.byCluster,
            loopName: a.loop !== null ? (a.view.loops[a.loop]?.name ?? null) : null,
            depth: a.view.depth,
          }
        : null,
    });
  }

  /** Shows the active dataset's trace, initialising the view when it is another trace than shown. */
  private async update(): Promise<void> {
    const active = this.datasets.active;
    if (!active) {
      this.host.dispose();
      return;
    }
    if (!this.host.isReady) return;
    const whole = active.wholeRun;
    if (!whole.profile.trace) {
      this.shown = undefined;
      this.init = undefined;
      this.send({
        type: 'timeline/unavailable',
        message: vscode.l10n.t(
          '{0} is not a trace: it has no timeline. Switch to a trace dataset to see it here.',
          whole.name,
        ),
      });
      return;
    }
    const overlayWindow = active.overlayWindow;
    if (this.shown === whole && this.init) {
      this.send({ type: 'timeline/overlayWindow', window: overlayWindow });
      return;
    }
    this.shown = whole;
    this.host.title = vscode.l10n.t('Timeline: {0}', whole.name);
    try {
      const started = Date.now();
      const r = await this.request(whole, { kind: 'init', minimapWidth: MINIMAP_WIDTH });
      if (this.shown !== whole) return;
      this.init = { type: 'timeline/init', title: whole.name, ...r, overlayWindow };
      this.log.info(
        `timeline of ${whole.name}: ${r.trackCount} lanes, ${r.eventCount} events, index and mini-map in ${Date.now() - started} ms`,
      );
      this.send(this.init);
      this.sendAnalysis(whole);
      if (this.pendingWindow) {
        this.send(this.pendingWindow);
        this.pendingWindow = undefined;
      }
    } catch (e) {
      this.shown = undefined;
      this.fail(vscode.l10n.t('could not show the timeline of {0}', whole.name), e);
    }
  }

  private send(m: TimelineHostToView): void {
    this.host.post(m);
    this.sent.fire(m);
  }

  private fail(what: string, e: unknown): void {
    const message = `${what}: ${(e as Error).message ?? String(e)}`;
    this.log.error(message);
    this.send({ type: 'timeline/unavailable', message });
  }

  private request<K extends TimelineWorkerRequest['kind']>(
    ds: Dataset,
    request: Extract<TimelineWorkerRequest, { kind: K }>,
  ): Promise<TimelineResults[K]> {
    return this.service.timeline<K>({ dataset: ds.handle, request });
  }

  private async onMessage(m: TimelineViewToHost): Promise<void> {
    const ds = this.shown;
    try {
      switch (m.type) {
        case 'ready':
        case 'log':
          return; // handled by the host
        case 'timeline/requestTiles':
          this.waitingTiles = m;
          if (ds) await this.pumpTiles(ds);
          return;
        case 'timeline/hover':
          this.waitingHover = m;
          if (ds) await this.pumpHover(ds);
          return;
        case 'timeline/openSource': {
          if (ds) await openEventSource(this.service, this.navigator, ds, m.row);
          return;
        }
        case 'timeline/selectWindow': {
          if (!ds) return;
          this.selection = { window: m.window, tracks: m.tracks };
          const stats = await this.request(ds, { kind: 'windowStats', window: m.window, tracks: m.tracks });
          this.send({ type: 'timeline/windowStats', ...stats } satisfies TimelineWindowStatsMessage);
          return;
        }
        case 'timeline/useWindowForOverlays':
          if (m.window) await this.useWindowForOverlays(m.window, m.tracks);
          else await this.useWholeRunForOverlays();
          return;
        case 'timeline/lanes': {
          if (!ds) return;
          const rows = await this.request(ds, {
            kind: 'rows',
            filter: m.filter,
            sort: m.sort,
            collapsed: m.collapsed,
          });
          if (ds === this.shown) this.send({ type: 'timeline/rows', rows });
          return;
        }
        case 'timeline/analyse':
          this.analyseAsked.fire();
          return;
        default:
          assertNever(m, 'message from the timeline view');
      }
    } catch (e) {
      this.log.error(`timeline ${m.type}: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens timeline: {0}', (e as Error).message));
    }
  }

  /** Answers the latest waiting tile request; one in flight, so a fast pan asks only for where it ends. */
  private async pumpTiles(ds: Dataset): Promise<void> {
    if (this.tilesBusy) return;
    this.tilesBusy = true;
    try {
      while (this.waitingTiles && ds === this.shown) {
        const m = this.waitingTiles;
        this.waitingTiles = undefined;
        this.lastTiles = m;
        const a = this.analyses.get(ds);
        const [r, iterations] = await Promise.all([
          this.request(ds, {
            kind: 'tiles',
            window: m.window,
            tracks: m.tracks,
            width: m.width,
            depth: m.depth,
            colourBy: m.colourBy === 'class' && !a ? 'function' : m.colourBy,
            depthViews: m.depthViews,
          }),
          m.iterations && a && a.loop !== null
            ? this.service.systemRequest<'traceAnalysis', 'iterationSpans'>({
                dataset: ds.handle,
                system: 'traceAnalysis',
                request: { kind: 'iterationSpans', loop: a.loop, tracks: m.tracks, window: m.window },
              })
            : undefined,
        ]);
        if (ds === this.shown)
          this.send({
            type: 'timeline/tiles',
            requestId: m.requestId,
            ...r,
            ...(iterations ? { iterations: iterations as never } : {}),
          });
      }
    } finally {
      this.tilesBusy = false;
    }
  }

  private async pumpHover(ds: Dataset): Promise<void> {
    if (this.hoverBusy) return;
    this.hoverBusy = true;
    try {
      while (this.waitingHover && ds === this.shown) {
        const m = this.waitingHover;
        this.waitingHover = undefined;
        const details = await this.request(ds, { kind: 'hover', track: m.track, time: m.time, depth: m.depth });
        this.send({ type: 'timeline/eventDetails', requestId: m.requestId, details });
      }
    } finally {
      this.hoverBusy = false;
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.sent.dispose();
    this.analyseAsked.dispose();
    this.host.dispose();
  }
}
