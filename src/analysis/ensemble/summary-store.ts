import { mkdir, open, readdir, rename, stat, unlink, utimes, writeFile, type FileHandle } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { findProfiles, readProfile } from '../formats';
import { isAbortError, throwIfAborted } from '../formats/reader';
import { comparePaths, runNames } from '../formats/profile-folder';
import type { Profile } from '../model/profile';
import { commonFolder, describeRun, noRunReadable, type RunLoadError, type RunProfile } from './ensemble-runs';
import {
  cachedSummaryName,
  decodeRunSummary,
  encodeRunSummary,
  readSummaryHeader,
  sameKey,
  SUMMARY_SUFFIX,
  summaryKeyOf,
  SummaryPool,
  type SummaryKey,
} from './run-summary';

/**
 * Where summaries live and how runs are found (issue 17): `hpc-lens summarize` writes one summary per
 * profile (beside it, or mirrored under `--out`); opening an ensemble reads a run's summary whenever
 * one is current — found in the given folders, beside the profile, or in the extension's cache —
 * and reads the profile only when none is (then caches the summary it makes).
 */

/** A profile to summarise or read: its absolute path and its path relative to what was given. */
export interface RunTarget {
  path: string;
  relativePath: string;
}

export interface FoundRuns {
  profiles: RunTarget[];
  /** `.hlsum` files found (absolute paths). */
  summaries: string[];
  errors: RunLoadError[];
  /** The folder names and mirrored summary paths are relative to. */
  base: string;
}

const GLOB = /[*?[]/;

/** `*`, `?`, `[…]` within a segment and `**` for any depth, as a regular expression over `/` paths. */
function globRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
      if (pattern[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i);
      if (end < 0) re += '\\[';
      else {
        re += pattern.slice(i, end + 1).replace(/^\[!/, '[^');
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Paths matching a glob (shells expand globs, but `sbatch --wrap` users may quote them). */
async function expandGlob(pattern: string): Promise<string[]> {
  const abs = resolve(pattern);
  const parts = abs.split(sep);
  const first = parts.findIndex(p => GLOB.test(p));
  const root = parts.slice(0, first).join(sep) || sep;
  const re = globRegExp(abs.split(sep).join('/'));
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 20) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (re.test(p.split(sep).join('/'))) out.push(p);
      else if (e.isDirectory()) await walk(p, depth + 1);
    }
  };
  await walk(root, 0);
  return out.sort();
}

/** A summary, or one being written (`….hlsum.<pid>.<random>.tmp`). */
function isSummaryOrPartial(name: string): boolean {
  return name.endsWith(SUMMARY_SUFFIX) || /\.hlsum\.\d+\.\w+\.tmp$/.test(name);
}

async function walkSummaries(folder: string, out: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const p = join(folder, e.name);
    if (e.isDirectory()) await walkSummaries(p, out);
    else if (e.isFile() && e.name.endsWith(SUMMARY_SUFFIX)) out.push(p);
  }
}

/**
 * The profiles and summaries that files, folders and globs name, in a stable order (folders in
 * findProfiles' natural path order, then argument order). A folder is scanned for profiles by
 * content and for `.hlsum` files by name.
 */
export async function findRuns(args: readonly string[], signal?: AbortSignal): Promise<FoundRuns> {
  if (args.length === 0) throw new Error('no profiles given');
  const profiles: { path: string; relativeTo: string; relativePath?: string }[] = [];
  const summaries: string[] = [];
  const errors: RunLoadError[] = [];
  const roots: string[] = [];
  const add = async (given: string): Promise<void> => {
    throwIfAborted(signal);
    const p = resolve(given);
    const st = await stat(p).catch(() => null);
    if (!st) {
      if (GLOB.test(given)) {
        const matches = await expandGlob(given);
        if (matches.length === 0) errors.push({ path: given, name: given, reason: 'no file matches this pattern' });
        for (const m of matches) await add(m);
      } else errors.push({ path: p, name: basename(p), reason: 'no such file or folder' });
      return;
    }
    if (st.isFile() && p.endsWith(SUMMARY_SUFFIX)) {
      summaries.push(p);
      roots.push(dirname(p));
    } else if (st.isDirectory()) {
      roots.push(p);
      const scan = await findProfiles(p, { ...(signal ? { signal } : {}), skip: isSummaryOrPartial });
      // A folder a reader claims whole (an HPCToolkit database) is itself the one profile.
      for (const f of scan.profiles) profiles.push({ path: f.path, relativeTo: p, relativePath: f.relativePath });
      errors.push(...scan.errors.map(e => ({ path: e.path, name: e.relativePath, reason: e.reason })));
      const found: string[] = [];
      await walkSummaries(p, found);
      // Natural order of the mirrored paths, as findProfiles orders the profiles (8_ranks before 16_ranks).
      const rel = (f: string) => relative(p, f).split(sep).join('/');
      summaries.push(...found.sort((a, b) => comparePaths(rel(a), rel(b))));
    } else {
      profiles.push({ path: p, relativeTo: dirname(p) });
      roots.push(dirname(p));
    }
  };
  for (const a of args) await add(a);
  const base =
    args.length === 1 &&
    roots.length === 1 &&
    (await stat(resolve(args[0]!)).then(
      s => s.isDirectory(),
      () => false,
    ))
      ? roots[0]!
      : profiles.length + summaries.length > 0
        ? commonFolder([...profiles.map(p => p.path), ...summaries])
        : process.cwd();
  const seen = new Set<string>();
  const unique = profiles.filter(p => (seen.has(p.path) ? false : (seen.add(p.path), true)));
  return {
    profiles: unique.map(p => ({
      path: p.path,
      relativePath: relative(base, p.path).split(sep).join('/') || (p.relativePath ?? basename(p.path)),
    })),
    summaries: [...new Set(summaries)],
    errors,
    base,
  };
}

/** A shard of a run list: every `count`-th run starting at `index` (a Slurm array task's share). */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `I/N` (0 ≤ I < N); the message says why another text is refused. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`--shard takes I/N, e.g. 3/64 (got "${text}")`);
  const index = Number(m[1]),
    count = Number(m[2]);
  if (count < 1) throw new Error(`--shard ${text}: N must be at least 1`);
  if (index >= count) throw new Error(`--shard ${text}: I must be below N (shards are numbered 0 to ${count - 1})`);
  return { index, count };
}

export interface SummarizeOptions {
  /** Folder the summaries are written under, mirroring the runs' relative paths (default: beside each profile). */
  out?: string;
  shard?: Shard;
  signal?: AbortSignal;
  /** After each run: runs done and in the shard, and what happened to this one. */
  onRun?: (done: number, total: number, run: SummarizedRun) => void;
  read?: (path: string, signal?: AbortSignal) => Promise<Profile>;
}

export interface SummarizedRun {
  path: string;
  summary: string;
  outcome: 'written' | 'current' | 'failed';
  reason?: string;
  /** Bytes of the profile and of its summary (written or current). */
  profileBytes?: number;
  summaryBytes?: number;
}

export interface SummarizeReport {
  /** Runs found in all shards. */
  found: number;
  runs: SummarizedRun[];
  errors: RunLoadError[];
}

/** Where `summarize` puts the summary of a run. */
export function summaryPathOf(target: RunTarget, out: string | undefined): string {
  return out ? join(resolve(out), ...target.relativePath.split('/')) + SUMMARY_SUFFIX : target.path + SUMMARY_SUFFIX;
}

/** Reads a summary file's key (its first bytes only), or null when it is missing or not a summary of this version. */
async function keyOfSummaryFile(file: string): Promise<SummaryKey | null> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    let size = 4096;
    for (;;) {
      const buffer = new Uint8Array(size);
      const { bytesRead } = await handle.read(buffer, 0, size, 0);
      const head = buffer.subarray(0, bytesRead);
      if (head.length >= 16) {
        const needed = 16 + new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(12, true);
        if (needed > head.length && bytesRead === size && needed < 1 << 24) {
          size = needed;
          continue;
        }
      }
      return readSummaryHeader(head, file).header.key;
    }
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/** Writes through a temporary file and a rename, so a reader or a concurrent shard never sees half a summary. */
async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

async function summarizeOne(target: RunTarget, file: string, read: SummarizeOptions['read'], signal?: AbortSignal) {
  const key = await summaryKeyOf(target.path);
  const existing = await keyOfSummaryFile(file);
  if (existing && sameKey(existing, key)) return { key, bytes: null };
  const profile = await (read ?? ((p: string, s?: AbortSignal) => readProfile(p, s ? { signal: s } : {})))(
    target.path,
    signal,
  );
  const bytes = encodeRunSummary(profile, key);
  await writeAtomically(file, bytes);
  return { key, bytes, profile };
}

/**
 * `hpc-lens summarize`: one summary per run of this shard, skipping runs whose summary is current.
 * A run that fails is reported with its reason and the others go on.
 */
export async function summarizeRuns(args: readonly string[], options: SummarizeOptions = {}): Promise<SummarizeReport> {
  const { signal } = options;
  const found = await findRuns(args, signal);
  const shard = options.shard ?? { index: 0, count: 1 };
  const mine = found.profiles.filter((_, k) => k % shard.count === shard.index);
  const runs: SummarizedRun[] = [];
  for (const target of mine) {
    throwIfAborted(signal);
    const summary = summaryPathOf(target, options.out);
    let run: SummarizedRun;
    try {
      const done = await summarizeOne(target, summary, options.read, signal);
      const summaryBytes = done.bytes ? done.bytes.length : (await stat(summary)).size;
      run = {
        path: target.path,
        summary,
        outcome: done.bytes ? 'written' : 'current',
        profileBytes: done.key.size,
        summaryBytes,
      };
    } catch (e) {
      if (isAbortError(e) || signal?.aborted) throw e;
      run = { path: target.path, summary, outcome: 'failed', reason: e instanceof Error ? e.message : String(e) };
    }
    runs.push(run);
    options.onRun?.(runs.length, mine.length, run);
  }
  return { found: found.profiles.length, runs, errors: found.errors };
}

export interface OpenRunsOptions {
  /** Folder of summaries this reader may create (the extension's storage); none: summaries are only read. */
  cacheDir?: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /** Summaries that were ignored (corrupt, other version) and profiles re-read, for the log. */
  log?: (message: string) => void;
  read?: (path: string, signal?: AbortSignal) => Promise<Profile>;
  /** How many runs are read at once (default 2). */
  concurrency?: number;
}

export interface OpenedRuns {
  runs: RunProfile[];
  errors: RunLoadError[];
  /** The folder the runs are named relative to. */
  folder: string;
  /** How many runs came from summaries and how many profiles were parsed. */
  fromSummaries: number;
  parsed: number;
}

interface Source {
  /** The profile's path (from the summary's key when only the summary is at hand). */
  profile: string;
  /** Candidate summary files, most specific first. */
  summaries: string[];
  /** Whether the profile itself was given (found in a folder or named). */
  given: boolean;
}

/**
 * The runs of an ensemble, from summaries wherever they are current: a summary is used when its
 * profile is gone (summaries copied off the cluster) or unchanged (same size, mtime and reader
 * version); a changed profile is read again, alone. A summary that cannot be decoded is logged and
 * rebuilt from its profile, never shown to the user as an error. Fewer than one readable run rejects.
 */
export async function openRuns(args: readonly string[], options: OpenRunsOptions = {}): Promise<OpenedRuns> {
  const { signal, onProgress, log, cacheDir } = options;
  const found = await findRuns(args, signal);
  const read = options.read ?? ((p: string, s?: AbortSignal) => readProfile(p, s ? { signal: s } : {}));
  const sources = new Map<string, Source>();
  for (const t of found.profiles) {
    const candidates = [t.path + SUMMARY_SUFFIX];
    if (cacheDir) candidates.push(join(cacheDir, cachedSummaryName(t.path)));
    sources.set(t.path, { profile: t.path, summaries: candidates, given: true });
  }
  for (const file of found.summaries) {
    const key = await keyOfSummaryFile(file);
    if (!key) {
      log?.(`${file}: not a readable summary of this version; ignored`);
      continue;
    }
    const s = sources.get(key.path);
    if (s) s.summaries.unshift(file);
    else sources.set(key.path, { profile: key.path, summaries: [file], given: false });
  }
  const list = [...sources.values()];
  if (list.length === 0) throw new Error(`no profiles or summaries found in ${args.join(', ')}`);
  const rel = list.map(s => {
    const t = found.profiles.find(p => p.path === s.profile);
    return t?.relativePath;
  });
  const base = commonFolder(list.map(s => s.profile));
  const relativePaths = list.map(
    (s, i) => rel[i] ?? (relative(base, s.profile).split(sep).join('/') || basename(s.profile)),
  );
  const names = runNames(relativePaths);

  const results: (RunProfile | null)[] = new Array(list.length).fill(null);
  // The runs of one program share most strings, and often their tree: decoded once for all of them.
  const pool = new SummaryPool();
  const touches: Promise<void>[] = [];
  const errors: RunLoadError[] = [...found.errors];
  let fromSummaries = 0,
    parsed = 0,
    next = 0,
    done = 0;
  const loadOne = async (k: number): Promise<Profile> => {
    const s = list[k]!;
    const current = await summaryKeyOf(s.profile).catch(() => null);
    for (const file of s.summaries) {
      // Synchronous: a summary is small and this runs in an analysis worker or the CLI; at 1,000 runs
      // the round trips of asynchronous reads through a busy thread pool cost more than the reads.
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      try {
        const { header } = readSummaryHeader(bytes, file);
        // A summary whose profile is gone stands for it; one whose profile changed is stale.
        if (current && !sameKey(header.key, current)) {
          log?.(`${file}: ${s.profile} changed since it was summarised; reading the profile`);
          continue;
        }
        const summary = decodeRunSummary(bytes, file, { pool });
        fromSummaries++;
        // A cached summary's modification time is its last use, which pruneSummaryCache ages it by.
        if (cacheDir && resolve(dirname(file)) === resolve(cacheDir)) {
          const now = new Date();
          touches.push(utimes(file, now, now).catch(() => undefined));
        }
        return summary.profile;
      } catch (e) {
        log?.(`${e instanceof Error ? e.message : String(e)}; rebuilding it from the profile`);
      }
    }
    if (!current) throw new Error(`${s.profile}: the profile is gone and no usable summary of it was found`);
    const profile = await read(s.profile, signal);
    parsed++;
    if (cacheDir) {
      const bytes = encodeRunSummary(profile, current);
      await writeAtomically(join(cacheDir, cachedSummaryName(s.profile)), bytes).catch((e: unknown) =>
        log?.(`could not cache the summary of ${s.profile}: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    return profile;
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      throwIfAborted(signal);
      const k = next++;
      if (k >= list.length) return;
      try {
        const profile = await loadOne(k);
        results[k] = { run: describeRun(profile, names[k]!, relativePaths[k]!), profile };
      } catch (e) {
        if (isAbortError(e) || signal?.aborted) throw e;
        errors.push({ path: list[k]!.profile, name: names[k]!, reason: e instanceof Error ? e.message : String(e) });
      }
      done++;
      onProgress?.(done / list.length, `Read ${done} of ${list.length} runs (${names[k]})`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, options.concurrency ?? 2), list.length) }, worker));
  await Promise.all(touches);
  throwIfAborted(signal);
  const runs = results.filter((r): r is RunProfile => r !== null);
  if (runs.length === 0) throw noRunReadable(list.length, 'runs', errors);
  const folder = args.length === 1 ? resolve(args[0]!) : found.base;
  return { runs, errors, folder, fromSummaries, parsed };
}

export interface PruneOptions {
  /** A cached summary not used for this many days is removed (0: never for its age). */
  maxAgeDays: number;
  /** Beyond this many bytes, the least recently used summaries are removed until under it (0: no cap). */
  maxBytes: number;
  /** The time to measure ages from (ms since the epoch; default now). */
  now?: number;
}

export interface PruneReport {
  kept: number;
  keptBytes: number;
  removed: { file: string; reason: 'source gone' | 'stale' | 'unreadable' | 'unused' | 'over the size cap' }[];
}

/** A summary write that never finished (its process died) is removed after this long. */
const ABANDONED_WRITE_MS = 3_600_000;

/**
 * Prunes the extension's summary cache (a flat folder of `<sha1 of the profile path>.hlsum`, see
 * {@link cachedSummaryName}): summaries whose profile is gone or changed (never read again: a cached
 * summary is only looked up for a profile that is opened), unreadable ones, ones unused for
 * `maxAgeDays` (opening an ensemble touches the cached summaries it reads), then the least recently
 * used until the folder is under `maxBytes`. Summaries elsewhere (written by `hpc-lens summarize`)
 * are the user's and never touched. A missing folder prunes to nothing.
 */
export async function pruneSummaryCache(dir: string, options: PruneOptions): Promise<PruneReport> {
  const now = options.now ?? Date.now();
  const report: PruneReport = { kept: 0, keptBytes: 0, removed: [] };
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const live: { file: string; bytes: number; used: number }[] = [];
  const remove = async (file: string, reason: PruneReport['removed'][number]['reason']) => {
    await unlink(file).then(
      () => report.removed.push({ file, reason }),
      () => undefined,
    );
  };
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = join(dir, e.name);
    const st = await stat(file).catch(() => null);
    if (!st) continue;
    if (/\.hlsum\.\d+\.\w+\.tmp$/.test(e.name)) {
      if (now - st.mtimeMs > ABANDONED_WRITE_MS) await remove(file, 'unreadable');
      continue;
    }
    if (!e.name.endsWith(SUMMARY_SUFFIX)) continue;
    const key = await keyOfSummaryFile(file);
    if (!key || cachedSummaryName(key.path) !== e.name) {
      await remove(file, 'unreadable');
      continue;
    }
    const source = await summaryKeyOf(key.path).catch(() => null);
    if (!source) await remove(file, 'source gone');
    else if (!sameKey(source, key)) await remove(file, 'stale');
    else if (options.maxAgeDays > 0 && now - st.mtimeMs > options.maxAgeDays * 86_400_000) await remove(file, 'unused');
    else live.push({ file, bytes: st.size, used: st.mtimeMs });
  }
  let bytes = live.reduce((s, f) => s + f.bytes, 0);
  live.sort((a, b) => a.used - b.used || a.file.localeCompare(b.file));
  for (const f of live) {
    if (options.maxBytes > 0 && bytes > options.maxBytes) {
      await remove(f.file, 'over the size cap');
      bytes -= f.bytes;
    } else {
      report.kept++;
      report.keptBytes += f.bytes;
    }
  }
  return report;
}
