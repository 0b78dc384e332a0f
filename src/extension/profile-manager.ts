import * as path from 'node:path';
import * as vscode from 'vscode';
import { LoadedProfile } from './profile-session';
import type { SourceResolver } from './source-resolver';
import { ParseCancelled, parseInWorker } from './workers/parse-client';

/**
 * Owns the active profile. Opening parses in a worker thread behind a cancellable progress
 * notification; a failure leaves the previous profile in place and says which file and why.
 */
export class ProfileManager implements vscode.Disposable {
  private current: LoadedProfile | undefined;
  /** The profile that was active when a diff dataset replaced it; closing the diff brings it back. */
  private beforeDiff: LoadedProfile | undefined;
  private readonly changed = new vscode.EventEmitter<LoadedProfile | undefined>();
  readonly onDidChange = this.changed.event;
  /** The last error shown to the user (kept for the status bar and for tests). */
  lastError: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly resolver: SourceResolver,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get active(): LoadedProfile | undefined { return this.current; }

  /** Opens a profile; resolves to the loaded profile, or undefined when it failed or was cancelled. */
  async open(uri: vscode.Uri): Promise<LoadedProfile | undefined> {
    const name = path.basename(uri.fsPath);
    const workerScript = vscode.Uri.joinPath(this.extensionUri, 'dist', 'parse-worker.js').fsPath;
    const started = Date.now();
    try {
      const loaded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `HPC Lens: opening ${name}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          let reported = 0;
          try {
            const profile = await parseInWorker(uri.fsPath, {
              workerScript,
              signal: abort.signal,
              onProgress: (fraction, message) => {
                progress.report({ increment: Math.max(0, (fraction - reported) * 100), message });
                reported = Math.max(reported, fraction);
              },
            });
            progress.report({ message: 'mapping source files' });
            const lp = new LoadedProfile(profile, uri);
            await lp.derive(profile.primaryMetric, this.resolver);
            return lp;
          } finally {
            sub.dispose();
          }
        },
      );
      this.current = loaded;
      this.beforeDiff = undefined;
      this.lastError = undefined;
      const p = loaded.profile;
      this.log.info(`opened ${uri.fsPath} (${p.format}, ${p.tree.size} nodes, ${p.contextCount} contexts, ${loaded.files.size} source files mapped) in ${Date.now() - started} ms`);
      for (const w of p.warnings) this.log.warn(`${name}: ${w}`);
      await vscode.commands.executeCommand('setContext', 'hpcLens.hasProfile', true);
      this.changed.fire(loaded);
      return loaded;
    } catch (e) {
      if (e instanceof ParseCancelled) {
        this.log.info(`opening ${uri.fsPath} was cancelled`);
        void vscode.window.showInformationMessage(`HPC Lens: opening ${name} was cancelled.`);
        return undefined;
      }
      const message = (e as Error).message;
      this.lastError = message;
      this.log.error(`could not open ${uri.fsPath}: ${message}`);
      void vscode.window.showErrorMessage(`HPC Lens could not open ${name}: ${message.startsWith(uri.fsPath) ? message.slice(uri.fsPath.length + 2) : message}`);
      return undefined;
    }
  }

  /**
   * Compare Two Profiles: reads both in the parse worker and makes the diff of `comparison` against
   * `baseline` the active dataset. Resolves to it, or undefined when either failed or was cancelled.
   */
  async compare(baseline: vscode.Uri, comparison: vscode.Uri): Promise<LoadedProfile | undefined> {
    const names = [baseline, comparison].map(u => path.basename(u.fsPath));
    const workerScript = vscode.Uri.joinPath(this.extensionUri, 'dist', 'parse-worker.js').fsPath;
    const started = Date.now();
    let reading = baseline;
    try {
      const loaded = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `HPC Lens: comparing ${names[1]} with ${names[0]}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          try {
            const read = (uri: vscode.Uri) => {
              reading = uri;
              let reported = 0;
              return parseInWorker(uri.fsPath, {
                workerScript,
                signal: abort.signal,
                onProgress: (fraction, message) => {
                  progress.report({ increment: Math.max(0, (fraction - reported) * 50), message: `${path.basename(uri.fsPath)}: ${message ?? ''}`.trim() });
                  reported = Math.max(reported, fraction);
                },
              });
            };
            const base = await read(baseline);
            const cmp = await read(comparison);
            progress.report({ message: 'matching calling contexts' });
            const lp = new LoadedProfile(cmp, comparison, { profile: base, uri: baseline });
            const name = base.metrics[base.primaryMetric]?.name;
            const metric = name !== undefined && cmp.metricIndex(name) >= 0 ? cmp.metricIndex(name) : cmp.primaryMetric;
            await lp.derive(metric, this.resolver);
            return lp;
          } finally {
            sub.dispose();
          }
        },
      );
      if (this.current && !this.current.baseline) this.beforeDiff = this.current;
      this.current = loaded;
      this.lastError = undefined;
      this.log.info(`compared ${comparison.fsPath} with baseline ${baseline.fsPath} (${loaded.diff!.nodes.length} matched contexts) in ${Date.now() - started} ms`);
      await vscode.commands.executeCommand('setContext', 'hpcLens.hasProfile', true);
      this.changed.fire(loaded);
      return loaded;
    } catch (e) {
      if (e instanceof ParseCancelled) {
        this.log.info('comparing profiles was cancelled');
        void vscode.window.showInformationMessage('HPC Lens: comparing profiles was cancelled.');
        return undefined;
      }
      const message = (e as Error).message;
      this.lastError = message;
      this.log.error(`could not compare ${comparison.fsPath} with ${baseline.fsPath} (while reading ${reading.fsPath}): ${message}`);
      void vscode.window.showErrorMessage(`HPC Lens could not compare the profiles: ${message}`);
      return undefined;
    }
  }

  async setMetric(metric: number): Promise<void> {
    if (!this.current) return;
    await this.current.derive(metric, this.resolver);
    this.changed.fire(this.current);
  }

  /** Maps the active profile's recorded paths again (after path mappings or search roots changed). */
  async remap(): Promise<void> {
    if (this.current) await this.setMetric(this.current.metric);
  }

  async close(): Promise<void> {
    // Closing a diff dataset returns to the profile it replaced.
    if (this.current?.baseline && this.beforeDiff) {
      this.current = this.beforeDiff;
      this.beforeDiff = undefined;
      this.changed.fire(this.current);
      return;
    }
    this.current = undefined;
    this.beforeDiff = undefined;
    await vscode.commands.executeCommand('setContext', 'hpcLens.hasProfile', false);
    this.changed.fire(undefined);
  }

  dispose(): void { this.changed.dispose(); }
}
