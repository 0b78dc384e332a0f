import * as vscode from 'vscode';
import {
  type MemoryDataMessage,
  type MemoryHostToView,
  type MemoryPanelData,
  type MemoryScopeAction,
  type MemorySelectionMode,
  type MemorySelectionTarget,
  type MemoryViewToHost,
} from '../../shared/memory-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { DatasetManager } from '../datasets/dataset-manager';
import { MemoryDataset } from '../datasets/memory-dataset';
import { memoryFollowsSelection } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Context key: the active dataset is memory samples (shows Show Memory View in the palette). */
export const HAS_MEMORY = 'hpcLens.hasMemorySamples';

/** What the editor overlays show after a selection: the selection's samples, or all of them. */
export interface MemoryFollow {
  dataset: string;
  /** Samples of the editor profile the overlays now read (all visible ones when nothing is selected). */
  samples: number;
  selection: boolean;
}

/**
 * The Memory view (MemAxes) of the active memory-samples dataset: the machine with the samples'
 * load, code and variable bars, parallel histograms with metric strips and cluster markers. Every
 * computation runs in the memory system, in the dataset's worker; this forwards the view's
 * requests and posts the answers. After each selection the editor's overlays follow it: the
 * selection's editor profile is shown in the dataset's place (one follow in flight, the latest
 * selection wins), unless `hpcLens.memory.followSelection` is off.
 */
export class MemoryPanel implements vscode.Disposable {
  private readonly host: WebviewHost<MemoryHostToView, MemoryViewToHost>;
  /** The dataset of all samples the panel shows. */
  private shown: MemoryDataset | undefined;
  private last: MemoryPanelData | undefined;
  private following = false;
  private followAgain: MemoryDataset | undefined;
  /** Selections are applied in order: each waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly subs: vscode.Disposable[];
  private readonly sent = new vscode.EventEmitter<MemoryHostToView>();
  /** Fires for every message the host sends the view (tests wait for data, strips, clusters). */
  readonly onDidSend = this.sent.event;
  private readonly followed = new vscode.EventEmitter<MemoryFollow>();
  /** Fires when the editor overlays follow a selection (or all samples again). */
  readonly onDidFollow = this.followed.event;

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly navigator: SourceNavigator,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.memory',
      title: vscode.l10n.t('HPC Lens: Memory'),
      view: 'memory',
      onMessage: m => this.onMessage(m),
      // Every page load starts from the panel's data.
      onReady: () => {
        this.shown = undefined;
        return this.update();
      },
      onDidDispose: () => {
        this.shown = undefined;
        this.last = undefined;
      },
    });
    this.subs = [
      datasets.onDidChange(ds => {
        void vscode.commands.executeCommand('setContext', HAS_MEMORY, ds?.wholeRun instanceof MemoryDataset);
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
  /** The data the view shows now. */
  get current(): MemoryPanelData | undefined {
    return this.last;
  }

  /** The memory dataset the active dataset belongs to (a selection's belongs to its samples). */
  private activeMemory(): MemoryDataset | undefined {
    const whole = this.datasets.active?.wholeRun;
    return whole instanceof MemoryDataset ? whole : undefined;
  }

  /** Shows the panel; `focus` (a CodeLens click) selects the samples of that source line. */
  async show(focus?: { file: string; line: number }): Promise<void> {
    const ds = this.activeMemory();
    if (!ds) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'HPC Lens: the Memory view needs memory samples as the active dataset (a MemAxes or Mitos CSV, perf script memory samples, or a MemAxes run folder): open one with HPC Lens: Open Profile….',
        ),
      );
      return;
    }
    const created = this.host.show();
    if (!created && this.shown !== ds) await this.update();
    if (focus && typeof focus.file === 'string' && Number.isInteger(focus.line))
      await this.select('new', { kind: 'line', file: focus.file, line: focus.line }, 'editor');
  }

  /** Applies a selection as the view would (tests, the CodeLens); resolves with the data posted. */
  select(
    mode: MemorySelectionMode,
    target: MemorySelectionTarget,
    origin: MemoryDataMessage['origin'] = 'panel',
  ): Promise<MemoryPanelData | undefined> {
    return this.enqueue(ds => ds.request({ kind: 'select', mode, target }), origin);
  }

  /** Clears, hides or shows samples as the view's buttons do. */
  scope(action: MemoryScopeAction): Promise<MemoryPanelData | undefined> {
    return this.enqueue(ds => ds.request({ kind: 'scope', action }), 'panel');
  }

  private enqueue(
    ask: (ds: MemoryDataset) => Promise<MemoryPanelData>,
    origin: MemoryDataMessage['origin'],
  ): Promise<MemoryPanelData | undefined> {
    const run = this.queue.then(async () => {
      const ds = this.shown ?? this.activeMemory();
      if (!ds) return undefined;
      try {
        const data = await ask(ds);
        if (ds === this.shown) this.post(data, origin);
        void this.follow(ds);
        return data;
      } catch (e) {
        this.fail(vscode.l10n.t('the Memory view could not apply the selection'), e, false);
        return undefined;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The editor overlays follow the selection: its editor profile in the dataset's place, or the dataset again. */
  private async follow(ds: MemoryDataset): Promise<void> {
    if (!memoryFollowsSelection()) return;
    if (this.following) {
      this.followAgain = ds;
      return;
    }
    this.following = true;
    try {
      for (let next: MemoryDataset | undefined = ds; next; next = this.followAgain) {
        this.followAgain = undefined;
        const selection = await next.selectionDataset();
        if (!(await this.datasets.showInPlace(next, selection))) continue;
        const shown = selection ?? next;
        const samples = shown.profile.total(Math.max(0, shown.profile.metricIndex('samples')));
        this.log.info(`overlays follow ${shown.name}`);
        this.followed.fire({ dataset: shown.name, samples, selection: selection !== null });
      }
    } catch (e) {
      this.log.error(`memory: the overlays could not follow the selection: ${(e as Error).message}`);
    } finally {
      this.following = false;
    }
  }

  private post(data: MemoryPanelData, origin: MemoryDataMessage['origin']): void {
    this.last = data;
    this.send({ type: 'memory/data', data, origin });
  }

  /** Shows the active memory dataset's data (initialising the view when it is another dataset than shown). */
  private async update(): Promise<void> {
    const ds = this.activeMemory();
    if (!ds) {
      this.shown = undefined;
      this.last = undefined;
      if (this.host.isReady)
        this.send({
          type: 'memory/unavailable',
          message: vscode.l10n.t(
            'The active dataset is not memory samples. Switch to a memory-samples dataset (a MemAxes or Mitos CSV, perf script memory samples, or a MemAxes run folder) to see it here.',
          ),
        });
      return;
    }
    if (!this.host.isReady || this.shown === ds) return;
    this.shown = ds;
    this.host.title = vscode.l10n.t('Memory: {0}', ds.name);
    try {
      const started = Date.now();
      const data = await ds.request({ kind: 'view' });
      if (this.shown !== ds) return;
      this.log.info(`memory view of ${ds.name}: ${data.all.samples} samples in ${Date.now() - started} ms`);
      this.post(data, 'open');
    } catch (e) {
      this.shown = undefined;
      this.fail(vscode.l10n.t('could not show the memory samples of {0}', ds.name), e, true);
    }
  }

  private send(m: MemoryHostToView): void {
    this.host.post(m);
    this.sent.fire(m);
  }

  private fail(what: string, e: unknown, replace: boolean): void {
    const message = `${what}: ${(e as Error).message ?? String(e)}`;
    this.log.error(message);
    if (replace) this.send({ type: 'memory/unavailable', message });
    else void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens: {0}', message));
  }

  private async onMessage(m: MemoryViewToHost): Promise<void> {
    const ds = this.shown;
    switch (m.type) {
      case 'ready':
      case 'log':
        return; // handled by the host
      case 'memory/select':
        await this.select(m.mode, m.target);
        return;
      case 'memory/scope':
        await this.scope(m.action);
        return;
      case 'memory/strip': {
        if (!ds) return;
        try {
          const strip = await ds.request({
            kind: 'strip',
            attribute: m.attribute,
            metric: m.metric,
            windows: m.windows,
          });
          if (ds === this.shown) this.send({ type: 'memory/strip', requestId: m.requestId, strip });
        } catch (e) {
          this.fail(vscode.l10n.t('metric strip along {0}', m.attribute), e, false);
        }
        return;
      }
      case 'memory/clusters': {
        if (!ds) return;
        try {
          const clusters = await ds.request({
            kind: 'clusters',
            attribute: m.attribute,
            metric: m.metric,
            count: m.count,
          });
          if (ds === this.shown) this.send({ type: 'memory/clusters', requestId: m.requestId, clusters });
        } catch (e) {
          this.fail(vscode.l10n.t('clusters along {0}', m.attribute), e, false);
        }
        return;
      }
      case 'memory/openSource':
        await this.navigator.open(m.file, m.line, `${m.file}:${m.line}`);
        return;
      default:
        assertNever(m, 'message from the memory view');
    }
  }

  dispose(): void {
    this.subs.forEach(s => s.dispose());
    this.sent.dispose();
    this.followed.dispose();
    this.host.dispose();
  }
}
