import * as path from 'node:path';
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { loadEnsemble, type RunLoadError } from '../../analysis/ensemble';
import { EnsembleProfile } from '../../analysis/ensemble/ensemble-profile';
import { findProfiles } from '../../analysis/formats';
import { LoadedProfile } from '../profile-session';
import { ParseCancelled, parseInWorker } from '../workers/parse-client';
import type { EnsembleMode } from '../../shared/ensemble-protocol';

/**
 * An ensemble dataset: the ensemble as a profile whose contexts are the runs (heat, hot paths, top
 * lists and the Sankey read it like any profile), plus the ensemble itself for run-to-run spreads.
 */
export class EnsembleLoadedProfile extends LoadedProfile {
  private readonly comparisonChanged = new vscode.EventEmitter<EnsembleComparison>();
  /** Fires when the Ensemble CallFlow panel changes mode, target or diff pair (CodeLens and hovers follow). */
  readonly onDidChangeComparison = this.comparisonChanged.event;
  private current: EnsembleComparison = { mode: 'summary', target: null, diff: null };

  constructor(
    readonly ensemble: EnsembleProfile,
    uri: vscode.Uri,
    private readonly label: string,
  ) {
    super(ensemble.profile, uri);
  }

  override get name(): string {
    return this.label;
  }

  /** What the editor overlays compare: the ensemble's spread, one target run against it, or two runs. */
  get comparison(): EnsembleComparison {
    return this.current;
  }

  set comparison(c: EnsembleComparison) {
    const same =
      c.mode === this.current.mode &&
      c.target === this.current.target &&
      c.diff?.baseline === this.current.diff?.baseline &&
      c.diff?.compare === this.current.diff?.compare;
    this.current = c;
    if (!same) this.comparisonChanged.fire(c);
  }
}

/** The ensemble panel's analytic mode as the editor overlays use it (CallFlow §4.8). */
export interface EnsembleComparison {
  mode: EnsembleMode;
  target: number | null;
  diff: { baseline: number; compare: number } | null;
}

export function isEnsemble(lp: LoadedProfile | undefined): lp is EnsembleLoadedProfile {
  return lp instanceof EnsembleLoadedProfile;
}

export interface LoadEnsembleDatasetOptions {
  workerScript: string;
  signal: AbortSignal;
  onProgress: (fraction: number, message: string) => void;
  /** Metric to open with, when every run has it. */
  metric?: string;
}

/**
 * Reads an ensemble in the analysis worker: one folder (every profile in its tree), or several
 * Explorer selections (files are runs; folders contribute every profile inside them). Files that
 * fail are kept in `ensemble.errors` while the rest load; fewer than 2 readable runs is an error.
 */
export async function loadEnsembleDataset(
  uris: readonly vscode.Uri[],
  options: LoadEnsembleDatasetOptions,
): Promise<EnsembleLoadedProfile> {
  const { signal } = options;
  const paths = uris.map(u => u.fsPath);
  try {
    let target: string | string[];
    const scanErrors: RunLoadError[] = [];
    if (paths.length === 1) target = paths[0]!;
    else {
      target = [];
      for (const p of paths) {
        if (!(await stat(p)).isDirectory()) {
          target.push(p);
          continue;
        }
        const scan = await findProfiles(p, { signal });
        if (scan.profiles.length === 0)
          scanErrors.push({ path: p, name: path.basename(p), reason: 'no profiles found in this folder' });
        target.push(...scan.profiles.map(f => f.path));
        scanErrors.push(...scan.errors.map(e => ({ path: e.path, name: e.relativePath, reason: e.reason })));
      }
      if (target.length === 0) throw new Error(`no profiles found in ${paths.map(p => path.basename(p)).join(', ')}`);
    }
    const loaded = await loadEnsemble(target, {
      signal,
      onProgress: options.onProgress,
      read: (file, s) => parseInWorker(file, { workerScript: options.workerScript, ...(s ? { signal: s } : {}) }),
    });
    options.onProgress(1, `building the union of ${loaded.runs.length} runs`);
    const errors = [...scanErrors, ...loaded.errors];
    const folder = paths.length === 1 ? paths[0]! : commonFolder(paths);
    const ensemble = new EnsembleProfile(loaded.runs, {
      path: folder,
      errors,
      ...(options.metric ? { metric: options.metric } : {}),
    });
    const label =
      paths.length === 1 ? path.basename(folder) : `${path.basename(folder) || folder} (${paths.length} selected)`;
    return new EnsembleLoadedProfile(ensemble, vscode.Uri.file(folder), label);
  } catch (e) {
    if (signal.aborted) throw new ParseCancelled(paths.join(', '));
    throw e;
  }
}

function commonFolder(paths: readonly string[]): string {
  const split = paths.map(p => path.dirname(p).split(path.sep));
  const first = split[0]!;
  let n = 0;
  while (n < first.length && split.every(s => s[n] === first[n])) n++;
  return first.slice(0, n).join(path.sep) || path.sep;
}

/** The per-file errors as one line for a message (the first few) and as lines for the log. */
export function describeLoadErrors(errors: readonly RunLoadError[], shown = 3): string {
  const list = errors
    .slice(0, shown)
    .map(e => `${e.name}: ${e.reason}`)
    .join('; ');
  return errors.length > shown ? `${list}; and ${errors.length - shown} more (see the HPC Lens output)` : list;
}
