import * as path from 'node:path';
import * as vscode from 'vscode';
import { isAbortError } from '../../analysis/model/cancellation';
import type { AnalysisService } from '../../service/analysis-service';
import type { TraceAnalysisAnswer } from '../../service/systems/trace-analysis-system';
import type {
  TraceAnalysisHostToView,
  TraceAnalysisResultMessage,
  TraceAnalysisViewToHost,
} from '../../shared/trace-analysis-protocol';
import { assertNever } from '../../shared/webview-protocol';
import type { Dataset } from '../datasets/dataset';
import type { DatasetManager } from '../datasets/dataset-manager';
import { changedTraceAnalysisOptions, traceAnalysisOptions } from '../settings';
import type { SourceNavigator } from '../source-navigator';
import type { SourceResolver } from '../source-resolver';
import type { TimelineAnalysisOverlay, TimelinePanel } from './timeline-panel';
import { WebviewHost, type WebviewEnvironment } from './webview-host';

/** Context key: the active trace has an analysis (the Trace Analysis view lists its paths). */
export const HAS_TRACE_ANALYSIS = 'hpcLens.hasTraceAnalysis';

/** What the panel last did, for the extension's tests. */
export type TraceAnalysisUpdate =
  | { kind: 'result'; dataset: string; result: TraceAnalysisResultMessage }
  | { kind: 'failed'; dataset: string; message: string }
  | { kind: 'cancelled'; dataset: string };

/**
 * The Trace Analysis panel (Wei & Mellor-Crummey's automated analysis): runs the analysis of the
 * active trace in the analysis service — in the worker holding the trace, split over both workers,
 * behind a cancellable progress notification — and shows its clusters, loops and iterations,
 * significant call paths and diagnosed segments. It links them with the editor (a path opens its
 * line; the trace's significant call sites get CodeLenses) and with the timeline (an iteration or a
 * segment shows that window there; lanes by cluster, colours by class, iteration bands).
 */
export class TraceAnalysisPanel implements vscode.Disposable {
  private readonly host: WebviewHost<TraceAnalysisHostToView, TraceAnalysisViewToHost>;
  /** The last result per whole-run dataset (the view and its meta), kept while the dataset is. */
  private readonly results = new WeakMap<Dataset, TraceAnalysisResultMessage>();
  private running: { dataset: Dataset; abort: AbortController; promise: Promise<boolean> } | undefined;
  private readonly subs: vscode.Disposable[];
  private readonly updated = new vscode.EventEmitter<TraceAnalysisUpdate>();
  /** Fires after each analysis finished, failed or was cancelled. */
  readonly onDidUpdate = this.updated.event;
  private readonly sent = new vscode.EventEmitter<TraceAnalysisHostToView>();
  /** Every message the host sends the view (tests wait for the iteration matrix). */
  readonly onDidSend = this.sent.event;

  constructor(
    env: WebviewEnvironment,
    private readonly datasets: DatasetManager,
    private readonly service: AnalysisService,
    private readonly navigator: SourceNavigator,
    private readonly resolver: SourceResolver,
    private readonly timeline: TimelinePanel,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.host = new WebviewHost(env, {
      viewType: 'hpcLens.traceAnalysis',
      title: vscode.l10n.t('HPC Lens: Trace Analysis'),
      view: 'trace-analysis',
      onMessage: m => this.onMessage(m),
      onReady: () => this.showActive(),
    });
    this.subs = [
      datasets.onDidChange(ds => {
        void vscode.commands.executeCommand('setContext', HAS_TRACE_ANALYSIS, !!ds?.traceAnalysis);
        if (this.host.isOpen) this.showActive();
      }),
      timeline.onDidRequestAnalysis(() => void this.analyse()),
    ];
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }
  /** The page's test agent (test mode only). */
  get testAgent() {
    return this.host.testAgent;
  }
  /** The result on screen for the active trace, if any. */
  get current(): TraceAnalysisResultMessage | undefined {
    const ds = this.datasets.active?.wholeRun;
    return ds ? this.results.get(ds) : undefined;
  }

  /**
   * HPC Lens: Analyse Trace — shows the panel and analyses the active trace (or `dataset`) with the
   * current settings; the service answers at once when nothing changed since the last run.
   * Resolves true when a result is shown.
   */
  async analyse(dataset?: Dataset): Promise<boolean> {
    const ds = (dataset ?? this.datasets.active)?.wholeRun;
    if (!ds?.profile.trace) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'HPC Lens: Analyse Trace needs a trace (OTF2, HPCToolkit trace.db, Chrome/Kineto, Nsight Systems, perf…) as the active dataset.',
        ),
      );
      return false;
    }
    this.host.show();
    this.host.title = vscode.l10n.t('Trace Analysis: {0}', ds.name);
    if (this.running?.dataset === ds) return this.running.promise;
    this.running?.abort.abort();
    const abort = new AbortController();
    const promise = this.run(ds, abort);
    this.running = { dataset: ds, abort, promise };
    try {
      return await promise;
    } finally {
      if (this.running?.promise === promise) this.running = undefined;
    }
  }

  /** Shows the panel with significant path `path` selected (a CodeLens or side-bar click). */
  async revealPath(path: number): Promise<void> {
    if (!this.current) {
      if (!(await this.analyse())) return;
    } else this.host.show();
    this.send({ type: 'traceAnalysis/selectPath', path });
  }

  private async run(ds: Dataset, abort: AbortController): Promise<boolean> {
    const options = traceAnalysisOptions();
    const title = ds.name;
    const started = Date.now();
    try {
      const answer = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('HPC Lens: analysing {0}', title),
          cancellable: true,
        },
        (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          let last = 0;
          this.send({ type: 'traceAnalysis/running', title, fraction: 0, message: vscode.l10n.t('starting') });
          return this.service.systemRequest<'traceAnalysis', 'analyse'>(
            { dataset: ds.handle, system: 'traceAnalysis', request: { kind: 'analyse', options } },
            {
              signal: abort.signal,
              onProgress: (fraction, message) => {
                const pct = Math.round(fraction * 100);
                if (pct > last) {
                  progress.report({ increment: pct - last, message: message ?? '' });
                  last = pct;
                }
                this.send({ type: 'traceAnalysis/running', title, fraction, message: message ?? '' });
              },
            },
          ) as Promise<TraceAnalysisAnswer>;
        },
      );
      const result: TraceAnalysisResultMessage = {
        type: 'traceAnalysis/result',
        title,
        view: answer.view,
        ms: answer.ms,
        split: answer.split,
        changedOptions: changedTraceAnalysisOptions(options),
      };
      this.results.set(ds, result);
      await ds.setTraceAnalysis(answer.view, this.resolver);
      await this.timeline.setAnalysis(ds, timelineOverlay(answer));
      void vscode.commands.executeCommand('setContext', HAS_TRACE_ANALYSIS, true);
      this.log.info(
        `trace analysis of ${title}: ${answer.view.lanes} lanes, ${answer.view.clusters.length} clusters, ${answer.view.loops.length} loops, ${answer.view.paths.length} significant paths, ${answer.view.segments.length} segments in ${Math.round(answer.ms)} ms${answer.split ? ' (two workers)' : ''}; ${Date.now() - started} ms to the panel`,
      );
      if (this.datasets.active?.wholeRun === ds) this.send(result);
      this.updated.fire({ kind: 'result', dataset: title, result });
      return true;
    } catch (e) {
      if (isAbortError(e) || abort.signal.aborted) {
        this.unavailable(ds, vscode.l10n.t('The analysis was cancelled.'));
        this.updated.fire({ kind: 'cancelled', dataset: title });
        return false;
      }
      const message = (e as Error).message ?? String(e);
      this.log.error(`trace analysis of ${title}: ${message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens: cannot analyse {0}: {1}', title, message));
      this.unavailable(ds, vscode.l10n.t('The analysis failed: {0}', message));
      this.updated.fire({ kind: 'failed', dataset: title, message });
      return false;
    }
  }

  private unavailable(ds: Dataset, message: string): void {
    if (this.datasets.active?.wholeRun !== ds) return;
    this.send({ type: 'traceAnalysis/unavailable', title: ds.name, message, canAnalyse: true });
  }

  /** What the panel shows for the active dataset: its kept result, or an offer to analyse it. */
  private showActive(): void {
    const ds = this.datasets.active?.wholeRun;
    if (!ds?.profile.trace) {
      this.send({
        type: 'traceAnalysis/unavailable',
        title: ds?.name ?? '',
        message: ds
          ? vscode.l10n.t('{0} is not a trace: it has no timeline to analyse.', ds.name)
          : vscode.l10n.t('Open a trace to analyse it.'),
        canAnalyse: false,
      });
      return;
    }
    this.host.title = vscode.l10n.t('Trace Analysis: {0}', ds.name);
    const kept = this.results.get(ds);
    if (kept) this.send(kept);
    else if (this.running?.dataset !== ds)
      this.send({
        type: 'traceAnalysis/unavailable',
        title: ds.name,
        message: vscode.l10n.t(
          'Find the iterations, the ranks and threads that behave alike, and where time is lost to imbalance and waiting.',
        ),
        canAnalyse: true,
      });
  }

  private send(m: TraceAnalysisHostToView): void {
    this.host.post(m);
    this.sent.fire(m);
  }

  private async onMessage(m: TraceAnalysisViewToHost): Promise<void> {
    const ds = this.datasets.active?.wholeRun;
    const view = ds ? this.results.get(ds)?.view : undefined;
    try {
      switch (m.type) {
        case 'ready':
        case 'log':
          return;
        case 'traceAnalysis/analyse':
          await this.analyse();
          return;
        case 'traceAnalysis/cancel':
          this.running?.abort.abort();
          return;
        case 'traceAnalysis/requestIterations': {
          if (!ds || !view) return;
          const matrix = await this.service.systemRequest<'traceAnalysis', 'iterations'>({
            dataset: ds.handle,
            system: 'traceAnalysis',
            request: { kind: 'iterations', loop: m.loop, rows: m.rows, columns: m.columns },
          });
          this.send({ type: 'traceAnalysis/iterations', matrix: matrix as never });
          return;
        }
        case 'traceAnalysis/showWindow':
          await this.timeline.showWindow({ start: m.start, end: m.end }, m.tracks, m.label);
          return;
        case 'traceAnalysis/useWindowForOverlays':
          await this.timeline.useWindowForOverlays({ start: m.start, end: m.end }, null);
          return;
        case 'traceAnalysis/openSource': {
          const p = view?.paths[m.path];
          if (!p) return;
          if (p.file) await this.navigator.open(p.file, p.line, p.name);
          else
            void vscode.window.showInformationMessage(
              vscode.l10n.t('HPC Lens: {0} has no source location in the trace.', p.name),
            );
          if (p.node >= 0 && this.timeline.isOpen) await this.timeline.highlightNode([p.node]);
          return;
        }
        case 'traceAnalysis/openSourceLocation':
          await this.navigator.open(m.file, m.line, path.basename(m.file));
          return;
        case 'traceAnalysis/timelineByCluster':
          if (ds) await this.timeline.showByCluster(ds, m.on);
          return;
        case 'traceAnalysis/openSettings':
          await vscode.commands.executeCommand('workbench.action.openSettings', 'hpcLens.traceAnalysis');
          return;
        default:
          assertNever(m, 'message from the trace analysis view');
      }
    } catch (e) {
      this.log.error(`trace analysis ${m.type}: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('HPC Lens trace analysis: {0}', (e as Error).message));
    }
  }

  dispose(): void {
    this.running?.abort.abort();
    this.subs.forEach(s => s.dispose());
    this.updated.dispose();
    this.sent.dispose();
    this.host.dispose();
  }
}

function timelineOverlay(answer: TraceAnalysisAnswer): TimelineAnalysisOverlay {
  const loop = answer.view.loops.find(l => l.accepted && l.acceptedIds > 0);
  return { view: answer.view, nodeClass: answer.nodeClass, loop: loop ? loop.index : null };
}
