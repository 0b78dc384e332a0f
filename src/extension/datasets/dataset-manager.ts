import * as path from 'node:path';
import { escapeControl, MESSAGE_LIMIT } from '../../analysis/errors/escape-control';
import * as vscode from 'vscode';
import type { AnalysisService } from '../../service/analysis-service';
import { CancelledError, WorkerLimitError } from '../../service/worker-pool';
import type { TimelineWindow } from '../../shared/timeline-protocol';
import { analysisLimits, ensembleSummaryCacheLimits, Setting } from '../settings';
import type { SourceResolver } from '../source-resolver';
import type { Dataset, DatasetKind } from './dataset';
import { DatasetList } from './dataset-list';
import { DiffDataset } from './diff-dataset';
import { EnsembleDataset, ensembleLabel } from './ensemble-dataset';
import {
  datasetKey,
  parsePersistedDatasets,
  PERSISTED_DATASETS_KEY,
  startupPlan,
  type PersistedDataset,
  type PersistedDatasets,
} from './persisted-datasets';
import { ProfileDataset } from './profile-dataset';
import { systemDataset } from './system-datasets';
import { WindowDataset } from './window-dataset';

/** Size and modification time of a file, or of all files of a folder (HPCToolkit, TAU). */
interface DiskStamp {
  size: number;
  mtime: number;
}

/**
 * One entry of the Datasets view: how it was opened (what a window reload restores), what it was
 * read from, and the dataset the overlays show now — replaced when it is reloaded from disk, and by
 * a window of its trace while the overlays follow a timeline window.
 */
export interface DatasetRecord {
  readonly source: PersistedDataset;
  readonly key: string;
  /** What was opened; a window of it takes its place in `shown`. */
  opened: Dataset;
  /** What the overlays show: `opened`, or a window of its trace. */
  shown: Dataset;
  /** The file(s) as they were when read (a diff: baseline, then comparison). */
  stamps: DiskStamp[];
  /** Path mappings or search roots changed while it was not active: map its sources again when activated. */
  stale: boolean;
  /** A dataset a panel owns while it lives (the run a live monitor follows): never remembered or reloaded. */
  readonly live?: boolean;
}

/** What a restore after a window reload did. */
export interface RestoreReport {
  restored: number;
  /** Datasets whose file or folder no longer exists (dropped, not retried). */
  missing: string[];
  /** Datasets that could not be read any more, with the reason. */
  failed: string[];
}

/** Cap on the files summed for a folder's size on disk (an HPCToolkit database has a few dozen). */
const FOLDER_FILE_LIMIT = 20000;

async function statOnDisk(uri: vscode.Uri): Promise<DiskStamp> {
  const st = await vscode.workspace.fs.stat(uri);
  if (!(st.type & vscode.FileType.Directory)) return { size: st.size, mtime: st.mtime };
  const stamp = { size: 0, mtime: st.mtime };
  let files = 0;
  const walk = async (dir: vscode.Uri): Promise<void> => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
      if (files >= FOLDER_FILE_LIMIT) return;
      const child = vscode.Uri.joinPath(dir, name);
      if (type & vscode.FileType.Directory) {
        await walk(child);
        continue;
      }
      const s = await vscode.workspace.fs.stat(child);
      files++;
      stamp.size += s.size;
      stamp.mtime = Math.max(stamp.mtime, s.mtime);
    }
  };
  await walk(uri);
  return stamp;
}

const sameStamp = (a: DiskStamp, b: DiskStamp) => a.size === b.size && a.mtime === b.mtime;

/** A dataset's file or folder does not exist (any more). */
class MissingFile extends Error {
  constructor(readonly uri: vscode.Uri) {
    super(vscode.l10n.t('{0}: no such file or folder', uri.fsPath));
  }
}

async function statOrMissing(uri: vscode.Uri): Promise<DiskStamp> {
  try {
    return await statOnDisk(uri);
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') throw new MissingFile(uri);
    throw e;
  }
}

/** Where one load reports progress: increments of the notification's 100 and a message prefix. */
interface ProgressSlice {
  progress: vscode.Progress<{ message?: string; increment?: number }>;
  /** Share of the notification this load may fill. */
  span: number;
  prefix: string;
}

/** The message for a failed load: the worker's limits name the setting that raises them. */
export function loadErrorMessage(e: unknown): string {
  if (e instanceof WorkerLimitError)
    return e.limit === 'time'
      ? `${e.message} (hpcLens.${Setting.parseTimeoutSeconds} = ${e.value})`
      : vscode.l10n.t('{0}; raise {1} to read it', e.message, `hpcLens.${Setting.workerMemoryLimitMb}`);
  // Messages quote file content: escaped and bounded, one line, as the CLI prints them.
  return escapeControl(e instanceof Error ? e.message : String(e), MESSAGE_LIMIT);
}

/**
 * Owns the loaded datasets (an ordered list with one active) and remembers them in the workspace
 * state so a window reload brings them back. Opening reads in the analysis service behind a
 * cancellable progress notification; a failure leaves the datasets as they were and says which
 * file and why. Opening something already loaded makes it active again (offering a reload when it
 * changed on disk). Closing a dataset frees it in the service at once.
 */
export class DatasetManager implements vscode.Disposable {
  private readonly list = new DatasetList<DatasetRecord>();
  private readonly changed = new vscode.EventEmitter<Dataset | undefined>();
  /** The active dataset, or its metric, changed (what the overlays and analysis views follow). */
  readonly onDidChange = this.changed.event;
  private readonly listChanged = new vscode.EventEmitter<void>();
  /** Datasets were opened, closed, reloaded or activated, or a metric changed (the Datasets view, the status bar). */
  readonly onDidChangeDatasets = this.listChanged.event;
  /** The last error shown to the user (kept for the status bar and for tests). */
  lastError: string | undefined;
  /** The last "files not included in the ensemble" warning (for tests). */
  lastEnsembleWarning: string | undefined;
  private restoring = false;
  /** Counts what the user opened or activated, so a slow restore does not take the active dataset back. */
  private userActivations = 0;

  constructor(
    private readonly service: AnalysisService,
    private readonly resolver: SourceResolver,
    private readonly log: vscode.LogOutputChannel,
    private readonly state?: vscode.Memento,
    /** Folder of the run summaries the service makes of ensemble runs it parsed (issue 17): a reopen reads those. */
    private readonly summaryCache?: string,
  ) {}

  /** What the overlays show. */
  get active(): Dataset | undefined {
    return this.list.active?.shown;
  }
  get activeRecord(): DatasetRecord | undefined {
    return this.list.active;
  }
  get records(): readonly DatasetRecord[] {
    return this.list.all;
  }

  /** Opens a profile or trace; resolves to the dataset, or undefined when it failed or was cancelled. */
  async open(uri: vscode.Uri): Promise<Dataset | undefined> {
    const name = path.basename(uri.fsPath);
    return this.openSource(
      { source: 'file', uri: uri.toString() },
      vscode.l10n.t('HPC Lens: opening {0}', name),
      vscode.l10n.t('HPC Lens could not open {0}', name),
    );
  }

  /** Compare Two Profiles: the diff of `comparison` against `baseline` becomes the active dataset. */
  async compare(baseline: vscode.Uri, comparison: vscode.Uri): Promise<Dataset | undefined> {
    const names = [baseline, comparison].map(u => path.basename(u.fsPath));
    return this.openSource(
      { source: 'diff', baseline: baseline.toString(), comparison: comparison.toString() },
      vscode.l10n.t('HPC Lens: comparing {0} with {1}', names[1]!, names[0]!),
      vscode.l10n.t('HPC Lens could not compare the profiles'),
    );
  }

  /**
   * Open Folder as Ensemble…: every profile in the folder (or the selected files and folders) is a
   * run, read in the analysis service behind one cancellable notification. Files that fail are
   * listed in one warning and the log while the others load; fewer than 2 readable runs is an error.
   */
  async openEnsemble(uris: readonly vscode.Uri[]): Promise<Dataset | undefined> {
    const name = uris.length === 1 ? path.basename(uris[0]!.fsPath) : vscode.l10n.t('{0} selections', uris.length);
    const d = await this.openSource(
      { source: 'ensemble', uris: uris.map(u => u.toString()) },
      vscode.l10n.t('HPC Lens: opening {0} as an ensemble', name),
      vscode.l10n.t('HPC Lens could not open {0} as an ensemble', name),
    );
    if (d instanceof EnsembleDataset && this.list.active?.opened === d) this.reportEnsembleErrors(d);
    return d;
  }

  private async openSource(source: PersistedDataset, title: string, failure: string): Promise<Dataset | undefined> {
    const existing = this.list.find(d => d.key === datasetKey(source));
    if (existing) {
      await this.activate(existing);
      void this.offerReloadIfChanged(existing);
      return existing.shown;
    }
    return this.loadWithProgress(source, title, failure);
  }

  private reportEnsembleErrors(d: EnsembleDataset): void {
    const left = [
      ...d.skipped.map(s => ({ name: s.name, reason: vscode.l10n.t('left out: {0}', s.reason) })),
      ...d.errors,
    ];
    for (const e of left) this.log.warn(`${d.name}: ${e.name}: ${e.reason}`);
    if (left.length === 0) return;
    const message =
      left.length === 1
        ? vscode.l10n.t(
            'HPC Lens: {0} opened with {1} runs; {2} file was not included — {3}',
            d.name,
            d.runCount,
            left.length,
            describeLoadErrors(left),
          )
        : vscode.l10n.t(
            'HPC Lens: {0} opened with {1} runs; {2} files were not included — {3}',
            d.name,
            d.runCount,
            left.length,
            describeLoadErrors(left),
          );
    this.lastEnsembleWarning = message;
    void vscode.window.showWarningMessage(message);
  }

  /** Makes a loaded dataset the active one (mapping its sources again if the mappings changed meanwhile). */
  async activate(record: DatasetRecord): Promise<void> {
    if (this.list.indexOf(record) < 0) return;
    this.userActivations++;
    if (record.stale) {
      await record.shown.derive(record.shown.metric, this.resolver);
      record.stale = false;
    }
    if (this.list.active === record) return;
    this.list.activate(record);
    await this.announce();
  }

  async setMetric(metric: number): Promise<void> {
    const d = this.list.active;
    if (!d) return;
    await d.shown.derive(metric, this.resolver);
    this.changed.fire(d.shown);
    this.listChanged.fire();
    this.save();
  }

  /**
   * Use This Window for Overlays: the active trace's place is taken by its profile over `window`
   * (and lanes), derived with the source mappings; a window shown before is freed.
   */
  async showWindow(window: TimelineWindow, tracks: number[] | null): Promise<Dataset | undefined> {
    const r = this.list.active;
    if (!r) return undefined;
    const whole = r.opened;
    const opened = await this.service.openWindow({ dataset: whole.handle, window, tracks });
    const windowed = new WindowDataset(this.service, opened, whole, window, tracks);
    await windowed.derive(whole.metric, this.resolver);
    if (this.list.active !== r) {
      await windowed.close();
      return undefined;
    }
    await this.replaceShown(r, windowed);
    return windowed;
  }

  /** Use Whole Run for Overlays: the trace itself again. */
  async showWholeRun(): Promise<void> {
    const r = this.list.active;
    if (!r || r.shown === r.opened) return;
    await this.replaceShown(r, r.opened);
  }

  /**
   * Shows `next` in place of the loaded dataset `opened` — a dataset derived from it, like the
   * editor profile of the Memory view's selection — or `opened` itself again (null). `next` is
   * derived first with the metric shown now; what was shown in `opened`'s place before is freed.
   * False, with `next` freed, when `opened` is no longer loaded.
   */
  async showInPlace(opened: Dataset, next: Dataset | null): Promise<boolean> {
    const find = () => this.list.find(d => d.opened === opened);
    let r = find();
    if (r && next) await next.derive(metricFor(next, r.shown.metricDescriptor.name), this.resolver);
    r = find();
    if (!r) {
      await next?.close().catch(() => undefined);
      return false;
    }
    if (r.shown === (next ?? r.opened)) return true;
    await this.replaceShown(r, next ?? r.opened);
    return true;
  }

  private async replaceShown(r: DatasetRecord, next: Dataset): Promise<void> {
    const before = r.shown;
    r.shown = next;
    if (before !== r.opened && before !== next) void before.close().catch(() => undefined);
    await this.announce();
  }

  /**
   * Lists a dataset a panel owns while it lives — the run a live PDES monitor follows — and makes it
   * active (again, when already listed). It is derived here with its primary metric; a window reload
   * does not bring it back, and it cannot be reloaded from disk. The panel removes it with closeLive.
   */
  async showLive(dataset: Dataset): Promise<void> {
    const listed = this.list.find(r => r.opened === dataset);
    if (listed) return this.activate(listed);
    await dataset.derive(metricFor(dataset, undefined), this.resolver);
    const record: DatasetRecord = {
      source: { source: 'file', uri: dataset.uri.toString() },
      key: `live:${dataset.handle}`,
      opened: dataset,
      shown: dataset,
      stamps: [],
      stale: false,
      live: true,
    };
    this.userActivations++;
    this.list.add(record);
    await this.announce();
  }

  /** Removes a dataset showLive listed (its panel closed); the one used before it becomes active. */
  async closeLive(dataset: Dataset): Promise<void> {
    const r = this.list.find(d => d.live === true && d.opened === dataset);
    if (r) await this.closeDataset(r);
  }

  /** Maps recorded paths again (after path mappings or search roots changed): now for the active dataset, the others when activated. */
  async remap(): Promise<void> {
    for (const d of this.list.all) if (d !== this.list.active) d.stale = true;
    if (this.list.active) await this.setMetric(this.list.active.shown.metric);
  }

  /** Closes the active dataset; the one used before it becomes active (a closed diff returns to a profile). */
  async close(): Promise<void> {
    const d = this.list.active;
    if (d) await this.closeDataset(d);
  }

  async closeDataset(record: DatasetRecord): Promise<void> {
    if (this.list.indexOf(record) < 0) return;
    // A closed comparison returns to the profile the user was on, not to another comparison.
    this.list.remove(record, candidate => record.opened.kind !== 'diff' || candidate.opened.kind !== 'diff');
    await this.announce();
    await freeRecord(record);
  }

  async closeAll(): Promise<void> {
    if (this.list.size === 0) return;
    const all = [...this.list.all];
    this.list.clear();
    await this.announce();
    await Promise.all(all.map(freeRecord));
  }

  /** Reads a dataset from disk again, in place, keeping its metric when the new file still has it. */
  async reload(record: DatasetRecord): Promise<Dataset | undefined> {
    if (this.list.indexOf(record) < 0 || record.live) return undefined;
    const metric = record.shown.metricDescriptor.name;
    const name = record.opened.name;
    const fresh = await this.withNotification(
      vscode.l10n.t('HPC Lens: reloading {0}', name),
      vscode.l10n.t('HPC Lens could not reload {0}', name),
      (slice, token) => this.build({ ...record.source, metric }, slice, token),
    );
    if (!fresh) return undefined;
    if (this.list.indexOf(record) < 0) {
      await freeRecord(fresh);
      return undefined;
    }
    this.list.replace(record, fresh);
    this.log.info(`reloaded ${fresh.opened.name}`);
    await this.announce();
    await freeRecord(record);
    return fresh.shown;
  }

  /**
   * After a window reload: reopens the remembered datasets and the `hpcLens.openOnStartup` files
   * (each once) in the background behind one progress notification, then restores the active
   * dataset and every metric. Datasets whose files vanished are reported once and forgotten.
   */
  async restore(startupUris: readonly vscode.Uri[]): Promise<RestoreReport> {
    const report: RestoreReport = { restored: 0, missing: [], failed: [] };
    const { state, problems } = parsePersistedDatasets(this.state?.get(PERSISTED_DATASETS_KEY));
    for (const p of problems) this.log.warn(`remembered datasets: ${p}`);
    const plan = startupPlan(
      state,
      startupUris.map(u => u.toString()),
    );
    if (plan.datasets.length === 0) return report;
    const activationsBefore = this.userActivations;
    this.restoring = true;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title:
            plan.datasets.length === 1
              ? vscode.l10n.t('HPC Lens: restoring {0} dataset', plan.datasets.length)
              : vscode.l10n.t('HPC Lens: restoring {0} datasets', plan.datasets.length),
          cancellable: true,
        },
        async (progress, token) => {
          for (const [i, entry] of plan.datasets.entries()) {
            if (token.isCancellationRequested) break;
            if (this.list.find(d => d.key === datasetKey(entry))) continue;
            const label = describeSource(entry);
            try {
              const d = await this.build(
                entry,
                { progress, span: 100 / plan.datasets.length, prefix: `${path.basename(label)}: ` },
                token,
              );
              // The remembered active dataset becomes active as soon as it is back, unless the user chose another meanwhile.
              const mine = this.userActivations === activationsBefore;
              this.list.add(d, this.list.active === undefined || (mine && i === plan.active));
              report.restored++;
              this.log.info(`restored ${d.opened.name}`);
              await this.announce();
            } catch (e) {
              if (e instanceof CancelledError) break;
              if (e instanceof MissingFile) report.missing.push(label);
              else report.failed.push(`${label}: ${loadErrorMessage(e)}`);
            }
          }
        },
      );
    } finally {
      this.restoring = false;
      this.save();
    }
    if (report.missing.length || report.failed.length) {
      const parts = [];
      if (report.missing.length) parts.push(vscode.l10n.t('no longer exist: {0}', report.missing.join(', ')));
      if (report.failed.length) parts.push(vscode.l10n.t('could not be read: {0}', report.failed.join('; ')));
      const message = vscode.l10n.t(
        'HPC Lens did not restore {0} dataset(s) that {1}.',
        report.missing.length + report.failed.length,
        parts.join(vscode.l10n.t('; and ')),
      );
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
    return report;
  }

  /** The datasets as remembered across a window reload (each with its metric by name). */
  snapshot(): PersistedDatasets {
    const kept = this.list.all.filter(d => !d.live);
    const datasets = kept.map(d => ({ ...d.source, metric: d.shown.metricDescriptor.name }));
    return { version: 1, datasets, active: this.list.active ? kept.indexOf(this.list.active) : -1 };
  }

  private save(): void {
    if (this.restoring || !this.state) return;
    void Promise.resolve(this.state.update(PERSISTED_DATASETS_KEY, this.snapshot())).catch(e =>
      this.log.warn(`could not remember the datasets: ${(e as Error).message}`),
    );
  }

  /** Tells the views which dataset is active now and remembers the list. */
  private async announce(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'hpcLens.hasProfile', this.list.size > 0);
    this.changed.fire(this.active);
    this.listChanged.fire();
    this.save();
  }

  private async offerReloadIfChanged(d: DatasetRecord): Promise<void> {
    const uris = d.opened.sourceUris;
    try {
      const now = await Promise.all(uris.map(u => statOrMissing(u)));
      if (now.every((s, i) => d.stamps[i] && sameStamp(s, d.stamps[i]))) return;
    } catch (e) {
      if (!(e instanceof MissingFile)) return;
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'HPC Lens: {0} no longer exists on disk; the loaded copy stays until you close it.',
          d.opened.name,
        ),
      );
      return;
    }
    this.log.info(`${d.opened.name} changed on disk since it was read`);
    const reload = vscode.l10n.t('Reload');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('HPC Lens: {0} changed on disk since it was read.', d.opened.name),
      reload,
    );
    if (choice === reload) await this.reload(d);
  }

  private async loadWithProgress(
    source: PersistedDataset,
    title: string,
    failure: string,
  ): Promise<Dataset | undefined> {
    const started = Date.now();
    const d = await this.withNotification(title, failure, (slice, token) => this.build(source, slice, token));
    if (!d) return undefined;
    this.userActivations++;
    this.list.add(d);
    const ds = d.opened;
    const p = ds.profile;
    if (ds instanceof DiffDataset)
      this.log.info(
        `compared ${ds.name} (${ds.diff?.matchedNodes ?? 0} matched contexts) in ${Date.now() - started} ms`,
      );
    else
      this.log.info(
        `opened ${ds.uri.fsPath} (${p.format}, ${p.tree.size} nodes, ${p.contextCount} contexts, ${ds.files.size} source files mapped) in ${Date.now() - started} ms`,
      );
    for (const w of p.warnings) this.log.warn(`${ds.name}: ${w}`);
    this.lastError = undefined;
    await this.announce();
    return ds;
  }

  /** Runs one load behind its own cancellable notification; errors are shown and kept in `lastError`. */
  private async withNotification(
    title: string,
    failure: string,
    load: (slice: ProgressSlice, token: vscode.CancellationToken) => Promise<DatasetRecord>,
  ): Promise<DatasetRecord | undefined> {
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => load({ progress, span: 100, prefix: '' }, token),
      );
    } catch (e) {
      if (e instanceof CancelledError) {
        this.log.info(`${title.replace(/^HPC Lens: /, '')} was cancelled`);
        void vscode.window.showInformationMessage(vscode.l10n.t('{0} was cancelled.', title));
        return undefined;
      }
      const message = loadErrorMessage(e);
      this.lastError = message;
      this.log.error(`${failure}: ${message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('{0}: {1}', failure, message));
      return undefined;
    }
  }

  /** Reads a dataset's file(s) in the analysis service and derives the overlays for its (remembered) metric. */
  private async build(
    source: PersistedDataset,
    slice: ProgressSlice,
    token?: vscode.CancellationToken,
  ): Promise<DatasetRecord> {
    const abort = new AbortController();
    const sub = token?.onCancellationRequested(() => abort.abort());
    const handles: number[] = [];
    try {
      const uris = sourceUris(source).map(u => vscode.Uri.parse(u));
      // A vanished file fails here, before any worker starts.
      const stamps: DiskStamp[] = [];
      for (const uri of uris) stamps.push(await statOrMissing(uri));
      const limits = analysisLimits();
      const report = (prefix: string, span: number) => {
        let reported = 0;
        return (fraction: number, message?: string) => {
          slice.progress.report({
            increment: Math.max(0, (fraction - reported) * span),
            message: `${prefix}${message ?? ''}`.trim(),
          });
          reported = Math.max(reported, fraction);
        };
      };
      let dataset: Dataset;
      if (source.source === 'ensemble') {
        const paths = uris.map(u => u.fsPath);
        const e = await this.service.openEnsemble(
          {
            paths,
            limits,
            ...(source.metric ? { metric: source.metric } : {}),
            ...(this.summaryCache
              ? { summaryCache: this.summaryCache, summaryCacheLimits: ensembleSummaryCacheLimits() }
              : {}),
          },
          { signal: abort.signal, onProgress: report(slice.prefix, slice.span) },
        );
        handles.push(e.dataset);
        this.log.info(
          `Ensemble ${paths.join(', ')}: ${e.sources.summaries} runs from summaries, ${e.sources.profiles} profiles parsed`,
        );
        dataset = new EnsembleDataset(
          this.service,
          e,
          vscode.Uri.file(e.data.path),
          ensembleLabel(paths, e.data.path),
          uris,
        );
      } else {
        const read = [];
        for (const uri of uris) {
          const prefix = uris.length > 1 ? `${slice.prefix}${path.basename(uri.fsPath)}: ` : slice.prefix;
          const o = await this.service.open(
            { path: uri.fsPath, limits },
            { signal: abort.signal, onProgress: report(prefix, slice.span / uris.length) },
          );
          handles.push(o.dataset);
          read.push({ uri, o });
        }
        slice.progress.report({
          message: `${slice.prefix}${read.length > 1 ? vscode.l10n.t('matching calling contexts') : vscode.l10n.t('mapping source files')}`,
        });
        const [first, second] = read;
        // A comparison shows the compared run; the baseline comes with it.
        dataset = second
          ? new DiffDataset(this.service, second.o, second.uri, new ProfileDataset(this.service, first!.o, first!.uri))
          : ((first!.o.system && systemDataset(this.service, first!.o, first!.uri)) ??
            new ProfileDataset(this.service, first!.o, first!.uri));
      }
      await dataset.derive(metricFor(dataset, source.metric), this.resolver);
      const { metric: _remembered, ...identity } = source;
      return { source: identity, key: datasetKey(source), opened: dataset, shown: dataset, stamps, stale: false };
    } catch (e) {
      // Nothing half-loaded stays in the service.
      await Promise.all(handles.map(dataset => this.service.close({ dataset }).catch(() => undefined)));
      if (abort.signal.aborted && !(e instanceof CancelledError)) throw new CancelledError(source.source);
      throw e;
    } finally {
      sub?.dispose();
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.listChanged.dispose();
  }
}

/** Frees what a record holds in the service (its dataset, and a window shown in its place). */
async function freeRecord(r: DatasetRecord): Promise<void> {
  const all = new Set([r.opened, r.shown]);
  await Promise.all([...all].map(d => d.close().catch(() => undefined)));
}

/** The remembered metric when the dataset offers it, else the baseline's or the default. */
function metricFor(d: Dataset, remembered: string | undefined): number {
  const p = d.profile;
  const selectable = new Set(d.selectableMetrics());
  const ok = (name: string | undefined) => name !== undefined && selectable.has(p.metricIndex(name));
  if (ok(remembered)) return p.metricIndex(remembered!);
  if (d instanceof DiffDataset) {
    const b = d.baseline.profile;
    const name = b.metrics[b.primaryMetric]?.name;
    if (ok(name)) return p.metricIndex(name!);
  }
  return selectable.has(p.primaryMetric) ? p.primaryMetric : ([...selectable][0] ?? p.primaryMetric);
}

/** A short name for a remembered dataset in messages. */
function describeSource(d: PersistedDataset): string {
  const base = (u: string) => path.basename(vscode.Uri.parse(u).fsPath);
  if (d.source === 'ensemble')
    return vscode.l10n.t('ensemble {0}', d.uris.map(u => vscode.Uri.parse(u).fsPath).join(', '));
  return d.source === 'file' ? vscode.Uri.parse(d.uri).fsPath : `Δ ${base(d.baseline)} → ${base(d.comparison)}`;
}

/** The file(s) or folder(s) a dataset is read from. */
function sourceUris(d: PersistedDataset): string[] {
  return d.source === 'file' ? [d.uri] : d.source === 'diff' ? [d.baseline, d.comparison] : d.uris;
}

/** The per-file errors as one line for a message (the first few). */
export function describeLoadErrors(errors: readonly { name: string; reason: string }[], shown = 3): string {
  const list = errors
    .slice(0, shown)
    .map(e => `${e.name}: ${e.reason}`)
    .join('; ');
  return errors.length > shown
    ? vscode.l10n.t('{0}; and {1} more (see the HPC Lens output)', list, errors.length - shown)
    : list;
}

/** The kind of a record's dataset as the Datasets view shows it (a window keeps its trace's icon). */
export function recordKind(r: DatasetRecord): DatasetKind {
  return r.opened.kind;
}
