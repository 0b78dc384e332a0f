import * as vscode from 'vscode';
import { Profile } from '../../analysis/model/profile';
import type { FromWebview, ToWebview } from '../../shared/protocol';
import {
  formatWindow,
  isTimelineMessage,
  type TimelineHostToView,
  type TimelineInitMessage,
  type TimelineRenderedMessage,
  type TimelineTileRequestMessage,
  type TimelineViewToHost,
  type TimelineWindow,
  type TimelineWindowStatsMessage,
} from '../../shared/timeline-protocol';
import type { ProfileManager } from '../profile-manager';
import { LoadedProfile } from '../profile-session';
import type { SourceNavigator } from '../source-navigator';
import { analysisWorkerOf } from '../workers/parse-client';
import { timelineRequest, type TimelineResults, type TimelineWorkerRequest } from '../workers/timeline-requests';
import { createViewPanel } from './webview-html';

/** Context key: the active dataset is a trace (shows Show Timeline in the palette). */
export const HAS_TRACE = 'hpcLens.hasTrace';
/** Context key: the overlays show a window of the run (enables Use Whole Run for Overlays). */
export const OVERLAY_WINDOW = 'hpcLens.overlaysFollowWindow';
/** Width of the mini-map's tiles (the whole run; the view scales it to its width). */
const MINIMAP_WIDTH = 1024;

/** The active dataset's profile restricted to a window of its trace (Use This Window for Overlays). */
export class WindowedProfile extends LoadedProfile {
  constructor(
    profile: Profile,
    readonly whole: LoadedProfile,
    readonly window: TimelineWindow,
    readonly tracks: number[] | null,
  ) {
    super(profile, whole.uri);
  }

  override get name(): string {
    return `${this.whole.name} [${formatWindow(this.window)}${this.tracks ? `, ${this.tracks.length} lane${this.tracks.length === 1 ? '' : 's'}` : ''}]`;
  }
}

/** The whole-run dataset behind a (possibly windowed) loaded profile. */
export function wholeRunOf(lp: LoadedProfile): LoadedProfile {
  return lp instanceof WindowedProfile ? lp.whole : lp;
}

/**
 * The timeline of the active trace: one panel that follows the active dataset. Every computation
 * (tiles, mini-map, lookups, window statistics, the windowed profile) runs in the analysis worker
 * that holds the trace; tile requests are kept to one in flight, later ones replacing the waiting
 * one, so panning never queues up stale frames.
 */
export class TimelinePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  /** The whole-run profile the panel shows (a windowed dataset still shows its whole run). */
  private shown: LoadedProfile | undefined;
  private init: TimelineInitMessage | undefined;
  private tilesBusy = false;
  private waitingTiles: TimelineTileRequestMessage | undefined;
  private hoverBusy = false;
  private waitingHover: Extract<TimelineViewToHost, { type: 'timeline/hover' }> | undefined;
  /** The last window and lanes the view asked tiles for (where highlights are looked up). */
  private lastTiles: TimelineTileRequestMessage | undefined;
  private readonly subs: vscode.Disposable[];
  private renderWaiters: ((r: TimelineRenderedMessage) => void)[] = [];
  private messageWaiters: { type: TimelineHostToView['type']; resolve: (m: TimelineHostToView) => void }[] = [];
  lastRender: TimelineRenderedMessage | undefined;
  lastStats: TimelineWindowStatsMessage | undefined;
  /** The window the view last selected (what Use This Window for Overlays applies). */
  selection: { window: TimelineWindow; tracks: number[] | null } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly profiles: ProfileManager,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subs = [
      profiles.onDidChange(lp => {
        void vscode.commands.executeCommand('setContext', HAS_TRACE, !!lp?.profile.trace);
        void vscode.commands.executeCommand('setContext', OVERLAY_WINDOW, lp instanceof WindowedProfile);
        if (this.panel) void this.update();
      }),
    ];
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(): void {
    const lp = this.profiles.active;
    if (!lp?.profile.trace) {
      void vscode.window.showInformationMessage(
        'HPC Lens: the timeline needs a trace (Chrome/Kineto, Nsight Systems, OTF2, HPCToolkit trace.db, perf, pprof…) as the active dataset.',
      );
      return;
    }
    if (this.panel) {
      this.panel.reveal(undefined, true);
      void this.update();
      return;
    }
    // The page's `ready` cannot arrive before this tick ends, so the listeners below still see it.
    const panel = createViewPanel(this.extensionUri, 'hpcLens.timeline', 'HPC Lens: Timeline', 'timeline');
    this.panel = panel;
    this.ready = false;
    this.shown = undefined;
    panel.webview.onDidReceiveMessage((m: FromWebview) => {
      void this.onMessage(m);
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      this.shown = undefined;
      this.init = undefined;
    });
  }

  /** Sends a message as the host would (automation in tests). */
  post(message: ToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  /** Resolves with the next frame the view reports as drawn. */
  nextRender(): Promise<TimelineRenderedMessage> {
    return new Promise(resolve => this.renderWaiters.push(resolve));
  }

  /** Resolves with the next message of this type the host sends the view. */
  nextMessage<T extends TimelineHostToView['type']>(type: T): Promise<Extract<TimelineHostToView, { type: T }>> {
    return new Promise(resolve =>
      this.messageWaiters.push({ type, resolve: resolve as (m: TimelineHostToView) => void }),
    );
  }

  /**
   * Highlights the events of call-tree nodes (and their subtrees) in the window on screen: for an
   * editor line (Reveal Current Line) or a Sankey node. [] clears. Returns the number of events marked.
   */
  async highlightNode(nodes: readonly number[]): Promise<number> {
    const lp = this.shown;
    const req = this.lastTiles;
    if (!lp || !req || !this.ready) return 0;
    if (nodes.length === 0) {
      this.send({ type: 'timeline/highlight', node: null, name: '', tracks: [], rows: [], spans: [] });
      return 0;
    }
    const { rows, spans } = await this.request(lp, {
      kind: 'eventsOfNode',
      nodes: [...nodes],
      window: req.window,
      tracks: req.tracks,
    });
    this.send({
      type: 'timeline/highlight',
      node: nodes[0]!,
      name: lp.profile.tree.name(nodes[0]!),
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
    const active = this.profiles.active;
    if (!active?.profile.trace) {
      void vscode.window.showInformationMessage('HPC Lens: the active dataset has no timeline.');
      return false;
    }
    if (!window) {
      void vscode.window.showInformationMessage('HPC Lens: select a time range in the timeline first (shift-drag).');
      return false;
    }
    const whole = wholeRunOf(active);
    const cols = await this.request(whole, { kind: 'profileForWindow', window, tracks });
    const windowed = new WindowedProfile(new Profile({ ...whole.profile.data, ...cols }), whole, window, tracks);
    await this.profiles.replaceActive(windowed);
    this.log.info(`overlays follow ${windowed.name}`);
    this.send({ type: 'timeline/overlayWindow', window });
    return true;
  }

  /** Use Whole Run for Overlays: back to the trace's own profile. */
  async useWholeRunForOverlays(): Promise<void> {
    const active = this.profiles.active;
    if (!(active instanceof WindowedProfile)) return;
    await this.profiles.replaceActive(active.whole, active.whole.metric);
    this.send({ type: 'timeline/overlayWindow', window: null });
  }

  /** Shows the active dataset's trace, initialising the view when it is another trace than shown. */
  private async update(): Promise<void> {
    const active = this.profiles.active;
    if (!active) {
      this.panel?.dispose();
      return;
    }
    if (!this.ready) return;
    const whole = wholeRunOf(active);
    if (!whole.profile.trace) {
      this.shown = undefined;
      this.init = undefined;
      this.send({
        type: 'timeline/unavailable',
        message: `${whole.name} is not a trace: it has no timeline. Switch to a trace dataset to see it here.`,
      });
      return;
    }
    const overlayWindow = active instanceof WindowedProfile ? active.window : null;
    if (this.shown === whole && this.init) {
      this.send({ type: 'timeline/overlayWindow', window: overlayWindow });
      return;
    }
    this.shown = whole;
    this.panel!.title = `Timeline: ${whole.name}`;
    try {
      const started = Date.now();
      const r = await this.request(whole, { kind: 'init', minimapWidth: MINIMAP_WIDTH });
      if (this.shown !== whole) return;
      this.init = {
        type: 'timeline/init',
        title: whole.name,
        timeRange: r.timeRange,
        originNs: r.originNs,
        rows: r.rows,
        maxDepth: r.maxDepth,
        minimap: r.minimap,
        trackCount: r.trackCount,
        eventCount: r.eventCount,
        overlayWindow,
      };
      this.log.info(
        `timeline of ${whole.name}: ${r.trackCount} lanes, ${r.eventCount} events, index and mini-map in ${Date.now() - started} ms`,
      );
      this.send(this.init);
    } catch (e) {
      this.shown = undefined;
      this.fail(`could not show the timeline of ${whole.name}`, e);
    }
  }

  private send(m: TimelineHostToView): void {
    const waiting = this.messageWaiters.filter(w => w.type === m.type);
    this.messageWaiters = this.messageWaiters.filter(w => w.type !== m.type);
    waiting.forEach(w => w.resolve(m));
    this.post(m);
  }

  private fail(what: string, e: unknown): void {
    const message = `${what}: ${(e as Error).message ?? String(e)}`;
    this.log.error(message);
    this.send({ type: 'timeline/unavailable', message });
  }

  /** A request to the analysis worker that holds the trace (on this thread only when no worker holds it). */
  private request<K extends TimelineWorkerRequest['kind']>(
    lp: LoadedProfile,
    req: Extract<TimelineWorkerRequest, { kind: K }>,
  ): Promise<TimelineResults[K]> {
    const worker = analysisWorkerOf(lp.profile);
    if (worker) return worker.timeline(lp.profile, req);
    this.log.warn(`timeline: ${lp.name} is not held by the analysis worker; computing on the extension host`);
    return Promise.resolve(timelineRequest(lp.profile, req).result as TimelineResults[K]);
  }

  private async onMessage(m: FromWebview): Promise<void> {
    if (m.type === 'ready') {
      if (m.view === 'timeline') {
        this.ready = true;
        this.init = undefined;
        this.shown = undefined;
        await this.update();
      }
      return;
    }
    if (m.type === 'log') {
      if (m.level === 'error') this.log.error(`[timeline] ${m.message}`);
      else this.log.info(`[timeline] ${m.message}`);
      return;
    }
    if (!isTimelineMessage(m)) return;
    const lp = this.shown;
    try {
      switch (m.type) {
        case 'timeline/requestTiles':
          this.waitingTiles = m;
          if (lp) await this.pumpTiles(lp);
          break;
        case 'timeline/hover':
          this.waitingHover = m;
          if (lp) await this.pumpHover(lp);
          break;
        case 'timeline/openSource': {
          if (!lp) break;
          const d = await this.request(lp, { kind: 'event', row: m.row });
          if (d?.source) await this.navigator.open(d.source.file, d.source.line, lp.profile.tree.name(d.source.node));
          else
            void vscode.window.showInformationMessage(
              `HPC Lens: ${d?.name ?? 'this event'} has no source location in the trace.`,
            );
          break;
        }
        case 'timeline/selectWindow': {
          if (!lp) break;
          this.selection = { window: m.window, tracks: m.tracks };
          const stats = await this.request(lp, { kind: 'windowStats', window: m.window, tracks: m.tracks });
          this.lastStats = { type: 'timeline/windowStats', ...stats };
          this.send(this.lastStats);
          break;
        }
        case 'timeline/useWindowForOverlays':
          if (m.window) await this.useWindowForOverlays(m.window, m.tracks);
          else await this.useWholeRunForOverlays();
          break;
        case 'timeline/lanes': {
          if (!lp) break;
          const rows = await this.request(lp, { kind: 'rows', filter: m.filter, sort: m.sort, collapsed: m.collapsed });
          if (lp === this.shown) this.send({ type: 'timeline/rows', rows });
          break;
        }
        case 'timeline/rendered': {
          this.lastRender = m;
          const waiters = this.renderWaiters;
          this.renderWaiters = [];
          waiters.forEach(w => w(m));
          break;
        }
      }
    } catch (e) {
      this.log.error(`timeline ${m.type}: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(`HPC Lens timeline: ${(e as Error).message}`);
    }
  }

  /** Answers the latest waiting tile request; one in flight, so a fast pan asks only for where it ends. */
  private async pumpTiles(lp: LoadedProfile): Promise<void> {
    if (this.tilesBusy) return;
    this.tilesBusy = true;
    try {
      while (this.waitingTiles && lp === this.shown) {
        const m = this.waitingTiles;
        this.waitingTiles = undefined;
        this.lastTiles = m;
        const r = await this.request(lp, {
          kind: 'tiles',
          window: m.window,
          tracks: m.tracks,
          width: m.width,
          depth: m.depth,
          colourBy: m.colourBy,
          depthViews: m.depthViews,
        });
        if (lp === this.shown) this.send({ type: 'timeline/tiles', requestId: m.requestId, ...r });
      }
    } finally {
      this.tilesBusy = false;
    }
  }

  private async pumpHover(lp: LoadedProfile): Promise<void> {
    if (this.hoverBusy) return;
    this.hoverBusy = true;
    try {
      while (this.waitingHover && lp === this.shown) {
        const m = this.waitingHover;
        this.waitingHover = undefined;
        const details = await this.request(lp, { kind: 'hover', track: m.track, time: m.time, depth: m.depth });
        this.send({ type: 'timeline/eventDetails', requestId: m.requestId, details });
      }
    } finally {
      this.hoverBusy = false;
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.panel?.dispose();
  }
}
