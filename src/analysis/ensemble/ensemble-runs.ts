import { basename, relative, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Profile } from '../model/profile';
import { findProfiles, readProfile } from '../formats';
import { isAbortError, throwIfAborted } from '../formats/reader';
import { parametersFromPath, runNames } from '../formats/profile-folder';

/** A run parameter: from the path (`27_cores` → cores: 27), from the file's metadata, or set by the user. */
export type ParameterValue = string | number;

/** One member of an ensemble, as the views list it. */
export interface EnsembleRun {
  /** Short unique name (`27_cores`, `gcc10.3.1_1048576/O3/1`). */
  name: string;
  /** The file or directory that was read. */
  path: string;
  /** Reader id. */
  format: string;
  /** The file's run metadata (Adiak keys, command line, …) as the reader found it. */
  metadata: Readonly<Record<string, unknown>>;
  /** Number of execution contexts (ranks × threads, GPU streams) in the profile. */
  contexts: number;
  /** MPI ranks: from the metadata (`mpi.world.size`, `jobsize`, …) when recorded, else distinct ranks among the contexts, else 1. */
  ranks: number;
  /**
   * Parameters of the run, first from its path; the user may edit this object (add, change, remove
   * keys) — ordering and projection read it at call time.
   */
  parameters: Record<string, ParameterValue>;
}

/** A run with the profile it was read from. */
export interface RunProfile {
  run: EnsembleRun;
  profile: Profile;
}

/** A file that could not be read; the other runs load regardless. */
export interface RunLoadError {
  path: string;
  /** The run name it would have had. */
  name: string;
  reason: string;
}

export interface LoadEnsembleOptions {
  /** How many profiles are read at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Fraction of files done in [0, 1], with a message naming the last file. */
  onProgress?: (fraction: number, message: string) => void;
  /** Reads one profile (default: `readProfile` in this thread; the host passes a worker-pool reader). */
  read?: (path: string, signal?: AbortSignal) => Promise<Profile>;
}

export interface LoadedRuns {
  /** In the order of the folder scan (natural path order) or of the given paths. */
  runs: RunProfile[];
  errors: RunLoadError[];
}

const RANK_KEYS = ['mpi.world.size', 'jobsize', 'mpi.size', 'numranks', 'num_ranks', 'nranks', 'ranks'];

/** Number of MPI ranks of a profile: recorded in its metadata, else counted among its contexts. */
export function rankCount(profile: Profile): number {
  for (const k of RANK_KEYS) {
    const v = Number(profile.metadata[k]);
    if (Number.isInteger(v) && v > 0) return v;
  }
  const ranks = new Set<number>();
  for (const c of profile.contexts) if (c.rank >= 0) ranks.add(c.rank);
  return Math.max(1, ranks.size);
}

/** Run description for a profile read from `path`, named `name`, with parameters parsed from `relativePath`. */
export function describeRun(profile: Profile, name: string, relativePath: string): EnsembleRun {
  return {
    name,
    path: profile.path,
    format: profile.format,
    metadata: profile.metadata,
    contexts: profile.contextCount,
    ranks: rankCount(profile),
    parameters: parametersFromPath(relativePath),
  };
}

/**
 * Reads the runs of an ensemble: every profile found in a folder tree (by content, as
 * `findProfiles` does), or the given list of paths. At most `concurrency` reads run at once; a file
 * that fails is listed in `errors` with its reason and the others still load (it rejects only
 * when no profile at all could be read); an aborted signal stops the remaining reads and rejects
 * with an AbortError.
 */
export async function loadEnsemble(
  folderOrPaths: string | readonly string[],
  options: LoadEnsembleOptions = {},
): Promise<LoadedRuns> {
  const { signal, onProgress } = options;
  const read = options.read ?? ((p: string, s?: AbortSignal) => readProfile(p, s ? { signal: s } : {}));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  throwIfAborted(signal);

  let targets: { path: string; name: string; relativePath: string }[];
  const errors: RunLoadError[] = [];
  if (
    typeof folderOrPaths === 'string' &&
    (await stat(folderOrPaths).then(
      s => s.isDirectory(),
      () => false,
    ))
  ) {
    const scan = await findProfiles(folderOrPaths, signal ? { signal } : {});
    if (scan.profiles.length === 0) throw new Error(`${folderOrPaths}: no profiles found in this folder`);
    targets = scan.profiles.map(p => ({
      path: p.path,
      name: p.runName,
      relativePath: p.relativePath === '.' ? basename(p.path) : p.relativePath,
    }));
    for (const e of scan.errors) errors.push({ path: e.path, name: e.relativePath, reason: e.reason });
  } else {
    const paths = (typeof folderOrPaths === 'string' ? [folderOrPaths] : [...folderOrPaths]).map(p => resolve(p));
    if (paths.length === 0) throw new Error('no profiles given for the ensemble');
    const base = commonFolder(paths);
    const rel = paths.map(p => relative(base, p) || basename(p));
    const names = runNames(rel);
    targets = paths.map((p, i) => ({ path: p, name: names[i]!, relativePath: rel[i]! }));
  }

  const results: (RunProfile | null)[] = new Array(targets.length).fill(null);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      throwIfAborted(signal);
      const k = next++;
      if (k >= targets.length) return;
      const t = targets[k]!;
      try {
        const profile = await read(t.path, signal);
        results[k] = { run: describeRun(profile, t.name, t.relativePath), profile };
      } catch (e) {
        if (isAbortError(e) || signal?.aborted) throw e;
        errors.push({ path: t.path, name: t.name, reason: e instanceof Error ? e.message : String(e) });
      }
      done++;
      onProgress?.(done / targets.length, `Read ${done} of ${targets.length} runs (${t.name})`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  throwIfAborted(signal);
  const runs = results.filter((r): r is RunProfile => r !== null);
  if (runs.length === 0) throw noRunReadable(targets.length, 'profiles', errors);
  return { runs, errors };
}

/** The error when none of `count` runs could be read, quoting the first reasons. */
export function noRunReadable(count: number, noun: string, errors: readonly RunLoadError[]): Error {
  const shown = errors
    .slice(0, 3)
    .map(e => `${e.name}: ${e.reason}`)
    .join('; ');
  return new Error(`none of the ${count} ${noun} could be read (${shown}${errors.length > 3 ? '; …' : ''})`);
}

/** The deepest folder holding every path (for naming an ensemble read from several selections). */
export function commonFolder(paths: readonly string[]): string {
  const split = paths.map(p => p.split('/').slice(0, -1));
  const first = split[0]!;
  let n = 0;
  while (n < first.length && split.every(s => s[n] === first[n])) n++;
  return first.slice(0, n).join('/') || '/';
}
