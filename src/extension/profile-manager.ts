import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Profile } from '../analysis/model/profile';
import { DatasetList } from './datasets/dataset-list';
import { datasetKindOf, type DatasetKind } from './datasets/dataset-summary';
import {
  datasetKey,
  parsePersistedDatasets,
  PERSISTED_DATASETS_KEY,
  startupPlan,
  type PersistedDataset,
  type PersistedDatasets,
} from './datasets/persisted-datasets';
import { LoadedProfile } from './profile-session';
import type { SourceResolver } from './source-resolver';
import { ParseCancelled, parseInWorker } from './workers/parse-client';
import {
  describeLoadErrors,
  isEnsemble,
  loadEnsembleDataset,
  type EnsembleLoadedProfile,
} from './ensembles/ensemble-dataset';
import type { RunLoadError } from '../analysis/ensemble';

/** Size and modification time of a file, or of all files of a folder (HPCToolkit, TAU). */
interface DiskStamp {
  size: number;
  mtime: number;
}

/** One loaded dataset: a profile, a trace (a profile with `.trace`) or a diff of two runs. */
export interface Dataset {
  /** How it was opened, which is also what is remembered across a window reload. */
  readonly source: PersistedDataset;
  readonly key: string;
  /** Replaced when the dataset is reloaded from disk; it keeps its own selected metric. */
  loaded: LoadedProfile;
  readonly kind: DatasetKind;
  /** The file(s) as they were when read (a diff: baseline, then comparison). */
  stamps: DiskStamp[];
  /** Path mappings or search roots changed while it was not active: map its sources again when activated. */
  stale: boolean;
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
    super(`${uri.fsPath}: no such file or folder`);
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

/**
 * Owns the loaded datasets (an ordered list with one active) and remembers them in the workspace
 * state so a window reload brings them back. Opening parses in a worker thread behind a cancellable
 * progress notification; a failure leaves the datasets as they were and says which file and why.
 * Opening something already loaded makes it active again (offering a reload when it changed on disk).
 */
export class ProfileManager implements vscode.Disposable {
  private readonly list = new DatasetList<Dataset>();
  private readonly changed = new vscode.EventEmitter<LoadedProfile | undefined>();
  /** The active dataset, or its metric, changed (what the overlays and analysis views follow). */
  readonly onDidChange = this.changed.event;
  private readonly listChanged = new vscode.EventEmitter<void>();
  /** Datasets were opened, closed, reloaded or activated, or a metric changed (the Datasets view, the status bar). */
  readonly onDidChangeDatasets = this.listChanged.event;
  /** The last error shown to the user (kept for the status bar and for tests). */
  lastError: string | undefined;
  private restoring = false;
  /** Counts what the user opened or activated, so a slow restore does not take the active dataset back. */
  private userActivations = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly resolver: SourceResolver,
    private readonly log: vscode.LogOutputChannel,
    private readonly state?: vscode.Memento,
  ) {}

  get active(): LoadedProfile | undefined {
    return this.list.active?.loaded;
  }
  get activeDataset(): Dataset | undefined {
    return this.list.active;
  }
  get datasets(): readonly Dataset[] {
    return this.list.all;
  }

  /** Opens a profile or trace; resolves to the loaded profile, or undefined when it failed or was cancelled. */
  async open(uri: vscode.Uri): Promise<LoadedProfile | undefined> {
    const source: PersistedDataset = { source: 'file', uri: uri.toString() };
    const existing = this.list.find(d => d.key === datasetKey(source));
    if (existing) {
      await this.activate(existing);
      void this.offerReloadIfChanged(existing);
      return existing.loaded;
    }
    const name = path.basename(uri.fsPath);
    return this.loadWithProgress(source, `HPC Lens: opening ${name}`, `HPC Lens could not open ${name}`);
  }

  /**
   * Compare Two Profiles: reads both in the parse worker and makes the diff of `comparison` against
   * `baseline` the active dataset. Resolves to it, or undefined when either failed or was cancelled.
   */
  async compare(baseline: vscode.Uri, comparison: vscode.Uri): Promise<LoadedProfile | undefined> {
    const source: PersistedDataset = {
      source: 'diff',
      baseline: baseline.toString(),
      comparison: comparison.toString(),
    };
    const existing = this.list.find(d => d.key === datasetKey(source));
    if (existing) {
      await this.activate(existing);
      void this.offerReloadIfChanged(existing);
      return existing.loaded;
    }
    const names = [baseline, comparison].map(u => path.basename(u.fsPath));
    return this.loadWithProgress(
      source,
      `HPC Lens: comparing ${names[1]} with ${names[0]}`,
      'HPC Lens could not compare the profiles',
    );
  }

  /**
   * Open Folder as Ensemble…: every profile in the folder (or the selected files and folders) is a
   * run, read in the worker behind one cancellable notification. Files that fail are listed in one
   * warning and the log while the others load; fewer than 2 readable runs is an error.
   */
  async openEnsemble(uris: readonly vscode.Uri[]): Promise<LoadedProfile | undefined> {
    const source: PersistedDataset = { source: 'ensemble', uris: uris.map(u => u.toString()) };
    const existing = this.list.find(d => d.key === datasetKey(source));
    if (existing) {
      await this.activate(existing);
      void this.offerReloadIfChanged(existing);
      return existing.loaded;
    }
    const name = uris.length === 1 ? path.basename(uris[0]!.fsPath) : `${uris.length} selections`;
    const loaded = await this.loadWithProgress(
      source,
      `HPC Lens: opening ${name} as an ensemble`,
      `HPC Lens could not open ${name} as an ensemble`,
    );
    if (isEnsemble(loaded)) this.reportEnsembleErrors(loaded);
    return loaded;
  }

  private reportEnsembleErrors(lp: EnsembleLoadedProfile): void {
    const { errors, ensemble } = lp.ensemble;
    const left = [...ensemble.skipped.map(s => ({ name: s.name, reason: `left out: ${s.reason}` })), ...errors];
    for (const e of left) this.log.warn(`${lp.name}: ${e.name}: ${e.reason}`);
    if (left.length === 0) return;
    const message = `HPC Lens: ${lp.name} opened with ${ensemble.runCount} runs; ${left.length} file${left.length === 1 ? ' was' : 's were'} not included — ${describeLoadErrors(left as RunLoadError[])}`;
    this.lastEnsembleWarning = message;
    void vscode.window.showWarningMessage(message);
  }

  /** The last "files not included in the ensemble" warning (for tests). */
  lastEnsembleWarning: string | undefined;

  /** Makes a loaded dataset the active one (mapping its sources again if the mappings changed meanwhile). */
  async activate(dataset: Dataset): Promise<void> {
    if (this.list.indexOf(dataset) < 0) return;
    this.userActivations++;
    if (dataset.stale) {
      await dataset.loaded.derive(dataset.loaded.metric, this.resolver);
      dataset.stale = false;
    }
    if (this.list.active === dataset) return;
    this.list.activate(dataset);
    await this.announce();
  }

  async setMetric(metric: number): Promise<void> {
    const d = this.list.active;
    if (!d) return;
    await d.loaded.derive(metric, this.resolver);
    this.changed.fire(d.loaded);
    this.listChanged.fire();
    this.save();
  }

  /**
   * Shows `loaded` in place of the active dataset's profile (the timeline's "Use This Window for
   * Overlays": a windowed profile of the same trace, and back), derived with the source mappings.
   */
  async replaceActive(loaded: LoadedProfile, metric = loaded.profile.primaryMetric): Promise<void> {
    const d = this.list.active;
    if (!d) return;
    await loaded.derive(metric, this.resolver);
    if (this.list.active !== d) return;
    d.loaded = loaded;
    await this.announce();
  }

  /** Maps recorded paths again (after path mappings or search roots changed): now for the active dataset, the others when activated. */
  async remap(): Promise<void> {
    for (const d of this.list.all) if (d !== this.list.active) d.stale = true;
    if (this.list.active) await this.setMetric(this.list.active.loaded.metric);
  }

  /** Closes the active dataset; the one used before it becomes active (a closed diff returns to a profile). */
  async close(): Promise<void> {
    const d = this.list.active;
    if (d) await this.closeDataset(d);
  }

  async closeDataset(dataset: Dataset): Promise<void> {
    if (this.list.indexOf(dataset) < 0) return;
    // A closed comparison returns to the profile the user was on, not to another comparison.
    this.list.remove(dataset, candidate => dataset.kind !== 'diff' || candidate.kind !== 'diff');
    await this.announce();
  }

  async closeAll(): Promise<void> {
    if (this.list.size === 0) return;
    this.list.clear();
    await this.announce();
  }

  /** Reads a dataset from disk again, in place, keeping its metric when the new file still has it. */
  async reload(dataset: Dataset): Promise<LoadedProfile | undefined> {
    if (this.list.indexOf(dataset) < 0) return undefined;
    const metric = dataset.loaded.profile.metrics[dataset.loaded.metric]?.name;
    const fresh = await this.withNotification(
      `HPC Lens: reloading ${dataset.loaded.name}`,
      `HPC Lens could not reload ${dataset.loaded.name}`,
      (slice, token) => this.build({ ...dataset.source, metric }, slice, token),
    );
    if (!fresh || this.list.indexOf(dataset) < 0) return undefined;
    const replacement: Dataset = { ...fresh, stale: false };
    this.list.replace(dataset, replacement);
    this.log.info(`reloaded ${replacement.loaded.name}`);
    await this.announce();
    return replacement.loaded;
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
    const restored = new Map<number, Dataset>();
    this.restoring = true;
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `HPC Lens: restoring ${plan.datasets.length} dataset${plan.datasets.length === 1 ? '' : 's'}`,
          cancellable: true,
        },
        async (progress, token) => {
          for (const [i, entry] of plan.datasets.entries()) {
            if (token.isCancellationRequested) break;
            const already = this.list.find(d => d.key === datasetKey(entry));
            if (already) {
              restored.set(i, already);
              continue;
            }
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
              restored.set(i, d);
              report.restored++;
              this.log.info(`restored ${d.loaded.name}`);
              await this.announce();
            } catch (e) {
              if (e instanceof ParseCancelled) break;
              if (e instanceof MissingFile) report.missing.push(label);
              else report.failed.push(`${label}: ${(e as Error).message}`);
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
      if (report.missing.length) parts.push(`no longer exist: ${report.missing.join(', ')}`);
      if (report.failed.length) parts.push(`could not be read: ${report.failed.join('; ')}`);
      const message = `HPC Lens did not restore ${report.missing.length + report.failed.length} dataset(s) that ${parts.join('; and ')}.`;
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
    return report;
  }

  /** The datasets as remembered across a window reload (each with its metric by name). */
  snapshot(): PersistedDatasets {
    const datasets = this.list.all.map(d => ({ ...d.source, metric: d.loaded.profile.metrics[d.loaded.metric]!.name }));
    return { version: 1, datasets, active: this.list.active ? this.list.indexOf(this.list.active) : -1 };
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

  private async offerReloadIfChanged(d: Dataset): Promise<void> {
    const uris = sourceUris(d.source);
    try {
      const now = await Promise.all(uris.map(u => statOrMissing(vscode.Uri.parse(u))));
      if (now.every((s, i) => d.stamps[i] && sameStamp(s, d.stamps[i]))) return;
    } catch (e) {
      if (!(e instanceof MissingFile)) return;
      void vscode.window.showWarningMessage(
        `HPC Lens: ${d.loaded.name} no longer exists on disk; the loaded copy stays until you close it.`,
      );
      return;
    }
    this.log.info(`${d.loaded.name} changed on disk since it was read`);
    const choice = await vscode.window.showInformationMessage(
      `HPC Lens: ${d.loaded.name} changed on disk since it was read.`,
      'Reload',
    );
    if (choice === 'Reload') await this.reload(d);
  }

  private async loadWithProgress(
    source: PersistedDataset,
    title: string,
    failure: string,
  ): Promise<LoadedProfile | undefined> {
    const started = Date.now();
    const d = await this.withNotification(title, failure, (slice, token) => this.build(source, slice, token));
    if (!d) return undefined;
    this.userActivations++;
    this.list.add(d);
    const p = d.loaded.profile;
    const name = d.loaded.name;
    if (d.loaded.diff)
      this.log.info(`compared ${name} (${d.loaded.diff.nodes.length} matched contexts) in ${Date.now() - started} ms`);
    else
      this.log.info(
        `opened ${d.loaded.uri.fsPath} (${p.format}, ${p.tree.size} nodes, ${p.contextCount} contexts, ${d.loaded.files.size} source files mapped) in ${Date.now() - started} ms`,
      );
    for (const w of p.warnings) this.log.warn(`${name}: ${w}`);
    this.lastError = undefined;
    await this.announce();
    return d.loaded;
  }

  /** Runs one load behind its own cancellable notification; errors are shown and kept in `lastError`. */
  private async withNotification(
    title: string,
    failure: string,
    load: (slice: ProgressSlice, token: vscode.CancellationToken) => Promise<Dataset>,
  ): Promise<Dataset | undefined> {
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => load({ progress, span: 100, prefix: '' }, token),
      );
    } catch (e) {
      if (e instanceof ParseCancelled) {
        this.log.info(`${title.replace(/^HPC Lens: /, '')} was cancelled`);
        void vscode.window.showInformationMessage(`${title} was cancelled.`);
        return undefined;
      }
      const message = (e as Error).message;
      this.lastError = message;
      this.log.error(`${failure}: ${message}`);
      void vscode.window.showErrorMessage(`${failure}: ${message}`);
      return undefined;
    }
  }

  /** Reads a dataset's file(s) in the worker and derives the overlays for its (remembered) metric. */
  private async build(
    source: PersistedDataset,
    slice: ProgressSlice,
    token?: vscode.CancellationToken,
  ): Promise<Dataset> {
    const abort = new AbortController();
    const sub = token?.onCancellationRequested(() => abort.abort());
    try {
      if (source.source === 'ensemble') return await this.buildEnsemble(source, slice, abort.signal);
      const uris = sourceUris(source);
      const parsed: { uri: vscode.Uri; profile: Profile; stamp: DiskStamp }[] = [];
      for (const u of uris) {
        const uri = vscode.Uri.parse(u);
        const stamp = await statOrMissing(uri); // a vanished file fails here, before the worker starts
        parsed.push({
          uri,
          stamp,
          profile: await this.parse(uri, abort.signal, {
            ...slice,
            span: slice.span / uris.length,
            prefix: uris.length > 1 ? `${slice.prefix}${path.basename(uri.fsPath)}: ` : slice.prefix,
          }),
        });
      }
      slice.progress.report({
        message: `${slice.prefix}${parsed.length > 1 ? 'matching calling contexts' : 'mapping source files'}`,
      });
      const [first, second] = parsed;
      const loaded = second
        ? new LoadedProfile(second.profile, second.uri, { profile: first!.profile, uri: first!.uri })
        : new LoadedProfile(first!.profile, first!.uri);
      await loaded.derive(this.metricFor(loaded, source.metric), this.resolver);
      const { metric: _remembered, ...identity } = source;
      return {
        source: identity,
        key: datasetKey(source),
        loaded,
        kind: datasetKindOf(loaded.profile, !!second),
        stamps: parsed.map(p => p.stamp),
        stale: false,
      };
    } finally {
      sub?.dispose();
    }
  }

  private async buildEnsemble(
    source: PersistedDataset & { source: 'ensemble' },
    slice: ProgressSlice,
    signal: AbortSignal,
  ): Promise<Dataset> {
    const uris = source.uris.map(u => vscode.Uri.parse(u));
    const stamps: DiskStamp[] = [];
    for (const uri of uris) stamps.push(await statOrMissing(uri));
    let reported = 0;
    const loaded = await loadEnsembleDataset(uris, {
      workerScript: vscode.Uri.joinPath(this.extensionUri, 'dist', 'parse-worker.js').fsPath,
      signal,
      ...(source.metric ? { metric: source.metric } : {}),
      onProgress: (fraction, message) => {
        slice.progress.report({
          increment: Math.max(0, (fraction - reported) * slice.span),
          message: `${slice.prefix}${message}`,
        });
        reported = Math.max(reported, fraction);
      },
    });
    await loaded.derive(this.metricFor(loaded, source.metric), this.resolver);
    const { metric: _remembered, ...identity } = source;
    return { source: identity, key: datasetKey(source), loaded, kind: 'ensemble', stamps, stale: false };
  }

  /** The remembered metric when the profile (and a diff's baseline) still has it, else the default. */
  private metricFor(lp: LoadedProfile, remembered: string | undefined): number {
    const p = lp.profile;
    const inBoth = (name: string | undefined) =>
      name !== undefined && p.metricIndex(name) >= 0 && (!lp.baseline || lp.baseline.profile.metricIndex(name) >= 0);
    if (inBoth(remembered)) return p.metricIndex(remembered!);
    if (lp.baseline) {
      const name = lp.baseline.profile.metrics[lp.baseline.profile.primaryMetric]?.name;
      if (inBoth(name)) return p.metricIndex(name!);
    }
    return p.primaryMetric;
  }

  private parse(uri: vscode.Uri, signal: AbortSignal, slice: ProgressSlice): Promise<Profile> {
    const workerScript = vscode.Uri.joinPath(this.extensionUri, 'dist', 'parse-worker.js').fsPath;
    let reported = 0;
    return parseInWorker(uri.fsPath, {
      workerScript,
      signal,
      onProgress: (fraction, message) => {
        slice.progress.report({
          increment: Math.max(0, (fraction - reported) * slice.span),
          message: `${slice.prefix}${message ?? ''}`.trim(),
        });
        reported = Math.max(reported, fraction);
      },
    });
  }

  dispose(): void {
    this.changed.dispose();
    this.listChanged.dispose();
  }
}

/** A short name for a remembered dataset in messages. */
function describeSource(d: PersistedDataset): string {
  const base = (u: string) => path.basename(vscode.Uri.parse(u).fsPath);
  if (d.source === 'ensemble') return `ensemble ${d.uris.map(u => vscode.Uri.parse(u).fsPath).join(', ')}`;
  return d.source === 'file' ? vscode.Uri.parse(d.uri).fsPath : `Δ ${base(d.baseline)} → ${base(d.comparison)}`;
}

/** The file(s) or folder(s) a dataset was read from. */
function sourceUris(d: PersistedDataset): string[] {
  return d.source === 'file' ? [d.uri] : d.source === 'diff' ? [d.baseline, d.comparison] : d.uris;
}
