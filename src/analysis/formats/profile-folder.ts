import { promises } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { sampleFile } from './file-sample';
// index.ts re-exports this module; both only use each other's functions at call time, so the cycle is harmless.
import { chooseFormat, FORMATS } from './registry';
import { isAbortError, ProfileReadError, throwIfAborted, type FormatSniffer } from './reader';
import { fileSystemReason, fromFileSystemError, isFileSystemError } from './io/fs-errors';

/**
 * Profile discovery in a folder tree: the base of "a folder of several profiles is an ensemble".
 * Every file and directory is judged by content through the formats' `sniff` (as `readProfile`
 * does), never by extension.
 */

/** A readable profile found in a folder tree. */
export interface FoundProfile {
  /** Absolute path of the file, or of the directory a reader claims as one profile. */
  path: string;
  /** Path relative to the scanned folder, with `/` separators. */
  relativePath: string;
  /** Id of the reader whose sniff claims it. */
  readerId: string;
  isDirectory: boolean;
  /** Short unique name of the run within the scan; see {@link runNames}. */
  runName: string;
  /** Run parameters read from the relative path; see {@link parametersFromPath}. */
  parameters: Record<string, string | number>;
}

/** An entry that could not be examined (the scan goes on without it). */
export interface FolderScanError {
  path: string;
  relativePath: string;
  reason: string;
}

export interface FolderScan {
  folder: string;
  /** In a stable order: by relative path, numbers within names compared by value. */
  profiles: FoundProfile[];
  errors: FolderScanError[];
}

export interface FindProfilesOptions {
  signal?: AbortSignal;
  /** Entries examined / entries discovered so far, in [0, 1]; reaches 1 when done. */
  onProgress?: (fraction: number, message?: string) => void;
  /** How many directory levels below the folder are searched (default 10; 0 = the folder's own entries). */
  maxDepth?: number;
  /** The formats consulted (default: every format HPC Lens reads). */
  formats?: readonly FormatSniffer[];
  /** How many entries are examined at once (default 8). */
  concurrency?: number;
  /** Entry names not to examine (e.g. run summaries, which no reader claims; sniffing them costs a read each). */
  skip?: (name: string) => boolean;
}

/** The directories above an entry, by device and inode, to notice symbolic-link loops. */
interface Ancestry {
  identity: string;
  parent: Ancestry | null;
}

interface Task {
  path: string;
  relativePath: string;
  depth: number;
  ancestors: Ancestry | null;
}

/**
 * Walks a folder tree and returns every profile in it. A directory that a reader claims (an
 * HPCToolkit database, a TAU profile directory) is one profile and is not descended into; files no
 * reader claims are skipped, as are hidden entries (names starting with `.`), special files and
 * links back to a directory above; entries that cannot be examined are reported in `errors` rather
 * than ending the scan. If the folder itself is claimed by a reader, it is the only profile.
 */
export async function findProfiles(folder: string, options: FindProfilesOptions = {}): Promise<FolderScan> {
  const { signal, onProgress } = options;
  const formats = options.formats ?? FORMATS;
  const maxDepth = options.maxDepth ?? 10;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const root = resolve(folder);
  throwIfAborted(signal);
  const rootStat = await promises.stat(root).catch((e: unknown) => {
    throw fromFileSystemError(e, folder);
  });
  if (!rootStat.isDirectory()) throw new ProfileReadError(folder, 'not a folder');

  const found: Omit<FoundProfile, 'runName' | 'parameters'>[] = [];
  const errors: FolderScanError[] = [];
  const queue: Task[] = [{ path: root, relativePath: '', depth: 0, ancestors: null }];
  let next = 0;
  let discovered = 1;
  let examined = 0;
  let reported = 0;
  const progress = () => {
    const f = Math.min(0.99, examined / discovered);
    if (f > reported) {
      reported = f;
      onProgress?.(f, `Looking for profiles (${examined} entries)`);
    }
  };

  const examine = async (task: Task): Promise<void> => {
    const st = await promises.stat(task.path);
    let ancestors = task.ancestors;
    if (st.isDirectory()) {
      // A link back to a directory above would loop; other links are walked like any folder.
      const identity = `${st.dev}:${st.ino}`;
      for (let a = ancestors; a; a = a.parent) if (a.identity === identity) return;
      ancestors = { identity, parent: ancestors };
    } else if (!st.isFile() || st.size === 0) {
      return;
    }
    const sample = await sampleFile(task.path);
    const format = chooseFormat(sample, formats);
    if (format) {
      found.push({
        path: task.path,
        relativePath: task.relativePath || '.',
        readerId: format.id,
        isDirectory: sample.isDirectory,
      });
      return;
    }
    if (!sample.isDirectory || task.depth > maxDepth) return;
    for (const entry of sample.entries) {
      if (entry.startsWith('.') || options.skip?.(entry)) continue;
      queue.push({
        path: join(task.path, entry),
        relativePath: task.relativePath ? `${task.relativePath}/${entry}` : entry,
        depth: task.depth + 1,
        ancestors,
      });
      discovered++;
    }
  };

  // A fixed pool of workers drains the queue; a worker that finds it empty while others are still
  // listing directories waits for them, so the pool ends only when no work can appear any more.
  let active = 0;
  let wake: (() => void) | null = null;
  const worker = async (): Promise<void> => {
    for (;;) {
      throwIfAborted(signal);
      const task = next < queue.length ? queue[next++] : undefined;
      if (!task) {
        if (active === 0) {
          wake?.();
          return;
        }
        await new Promise<void>(r => {
          const prev = wake;
          wake = () => {
            prev?.();
            r();
          };
        });
        continue;
      }
      active++;
      try {
        await examine(task);
      } catch (e) {
        if (isAbortError(e)) throw e;
        errors.push({ path: task.path, relativePath: task.relativePath || '.', reason: describeError(e) });
      } finally {
        active--;
        examined++;
        progress();
        const w = wake;
        wake = null;
        w?.();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  throwIfAborted(signal);

  found.sort((a, b) => comparePaths(a.relativePath, b.relativePath));
  errors.sort((a, b) => comparePaths(a.relativePath, b.relativePath));
  const names = runNames(
    found.map(p => (p.relativePath === '.' ? basename(root) : p.relativePath)),
    found.map(p => p.isDirectory),
  );
  const profiles = found.map((p, i) => ({
    ...p,
    runName: names[i]!,
    parameters: parametersFromPath(p.relativePath === '.' ? basename(root) : p.relativePath),
  }));
  onProgress?.(1);
  return { folder: root, profiles, errors };
}

function describeError(e: unknown): string {
  // ENOENT during a search is a link to nowhere or an entry removed meanwhile: say so.
  if ((e as NodeJS.ErrnoException).code === 'ENOENT')
    return 'not found (a broken symbolic link, or removed during the search)';
  if (isFileSystemError(e)) return fileSystemReason(e);
  return e instanceof ProfileReadError ? e.reason : e instanceof Error ? e.message : String(e);
}

/** Splits names into runs of digits and of other characters, so `9_cores` sorts before `27_cores`. */
function naturalParts(s: string): (string | number)[] {
  return s.match(/\d+|\D+/g)?.map(p => (/^\d/.test(p) ? Number(p) : p)) ?? [];
}

/** Orders relative paths segment by segment, numbers inside names by value; ties by code units. */
export function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = naturalParts(sa[i]!);
    const pb = naturalParts(sb[i]!);
    for (let k = 0; k < Math.min(pa.length, pb.length); k++) {
      const x = pa[k]!;
      const y = pb[k]!;
      if (x === y) continue;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      if (typeof x === 'number') return -1;
      if (typeof y === 'number') return 1;
      return x < y ? -1 : 1;
    }
    if (pa.length !== pb.length) return pa.length - pb.length;
    if (sa[i] !== sb[i]) return sa[i]! < sb[i]! ? -1 : 1;
  }
  if (sa.length !== sb.length) return sa.length - sb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `27_cores.cali` → `27_cores`, `x.json.gz` → `x`; names whose last dot part is not a word keep it. */
function withoutExtension(name: string): string {
  const plain = name.replace(/\.(gz|bz2|xz|zst)$/i, '');
  return plain.replace(/(.)\.[A-Za-z][A-Za-z0-9]*$/, '$1');
}

/**
 * Short unique run names for a set of profiles, from their relative paths: file extensions are
 * dropped, then the leading folders all paths share, then the last segment when every path ends in
 * the same name (an ensemble of `<config>/Base_Seq-default.cali` is named by its configs). So
 * `lulesh-mpi-scaling-5runs/27_cores.cali` → `27_cores`, and
 * `rajaperf/gcc10.3.1_1048576/O3/1/Base_Seq-default.cali` → `gcc10.3.1_1048576/O3/1`. Names that
 * would still collide (e.g. `a.json` beside `a.cali`) keep their whole relative path.
 */
export function runNames(relativePaths: readonly string[], isDirectory: readonly boolean[] = []): string[] {
  const segments = relativePaths.map((p, i) => {
    const s = p.split('/').filter(x => x !== '' && x !== '.');
    if (s.length && !isDirectory[i]) s[s.length - 1] = withoutExtension(s[s.length - 1]!);
    return s;
  });
  if (segments.length === 0) return [];
  let common = 0;
  const shortest = Math.min(...segments.map(s => s.length));
  while (common < shortest - 1 && segments.every(s => s[common] === segments[0]![common])) common++;
  let names = segments.map(s => s.slice(common));
  const last = names[0]![names[0]!.length - 1];
  if (names.length > 1 && names.every(s => s.length > 1 && s[s.length - 1] === last))
    names = names.map(s => s.slice(0, -1));
  const joined = names.map(s => s.join('/'));
  const count = new Map<string, number>();
  for (const n of joined) count.set(n, (count.get(n) ?? 0) + 1);
  return joined.map((n, i) => (count.get(n)! > 1 ? relativePaths[i]! : n));
}

const COUNT_WORDS = new Set([
  'cores',
  'core',
  'ranks',
  'rank',
  'procs',
  'processes',
  'nodes',
  'node',
  'threads',
  'thread',
  'gpus',
  'gpu',
  'tasks',
  'pes',
  'nprocs',
]);
const COMPILER =
  /^(gcc|g\+\+|gnu|clang|llvm|icc|icpc|icx|icpx|ifort|ifx|intel|oneapi|xl|xlc|xlC|xlf|nvhpc|nvc|nvcc|pgi|cce|cray|aocc|rocmcc|hipcc|armclang|fujitsu|fcc)-?\d[\w.]*$/i;
const OPTIMISATION = /^-?(O[0-3sgz]|Ofast)$/;

function parameterValue(text: string): string | number {
  return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * Run parameters written into a profile's relative path, by conservative rules. The extension of the
 * file name is ignored; each segment is split at `_` and `,` into tokens, and:
 *
 * - `key=value` → `{ key: value }` (`n=16` → `{ n: 16 }`);
 * - a count with its unit, `27_cores`, `cores_27` or `64ranks` (units: cores, ranks, procs,
 *   processes, nodes, threads, gpus, tasks, pes) → `{ cores: 27 }` (the unit in the plural);
 * - a compiler name with a version, `clang10`, `gcc10.3.1`, `intel-19` → `{ compiler: … }`;
 * - an optimisation level, `O0`…`O3`, `Os`, `Ofast` → `{ optimization: 'O3' }`;
 * - any other integer token (a problem size, a repetition) → `{ param1: …, param2: … }`, numbered
 *   in path order so runs laid out alike line up; but only in a segment whose every token is an
 *   integer or one of the parameters above (so `gcc10.3.1_1048576` and `1` count, while the id in
 *   `230525-151723_1930647_FSY8b8` does not).
 *
 * Anything else (words, names with dashes) is not a parameter. A key seen twice keeps its first
 * value. Numbers are numbers; everything else stays text.
 */
export function parametersFromPath(relativePath: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  const set = (key: string, value: string | number) => {
    if (!(key in out)) out[key] = value;
  };
  const segments = relativePath.split(/[\\/]/).filter(s => s !== '' && s !== '.');
  if (segments.length) segments[segments.length - 1] = withoutExtension(segments[segments.length - 1]!);
  let unnamed = 0;
  for (const segment of segments) {
    const tokens = segment.split(/[_,]/).filter(t => t !== '');
    const used = new Uint8Array(tokens.length);
    tokens.forEach((t, i) => {
      const kv = /^([A-Za-z][\w.-]*)=(.+)$/.exec(t);
      if (kv) {
        set(kv[1]!, parameterValue(kv[2]!));
        used[i] = 1;
        return;
      }
      const joined = /^(\d+)([A-Za-z]+)$/.exec(t);
      if (joined && COUNT_WORDS.has(joined[2]!.toLowerCase())) {
        set(plural(joined[2]!), Number(joined[1]));
        used[i] = 1;
        return;
      }
      if (COMPILER.test(t)) {
        set('compiler', t);
        used[i] = 1;
        return;
      }
      if (OPTIMISATION.test(t)) {
        set('optimization', t.replace(/^-/, ''));
        used[i] = 1;
      }
    });
    // Counts written as two tokens: `27_cores` or `cores_27`.
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (used[i] || used[i + 1]) continue;
      const [a, b] = [tokens[i]!, tokens[i + 1]!];
      if (/^\d+$/.test(a) && COUNT_WORDS.has(b.toLowerCase())) {
        set(plural(b), Number(a));
        used[i] = used[i + 1] = 1;
      } else if (/^\d+$/.test(b) && COUNT_WORDS.has(a.toLowerCase())) {
        set(plural(a), Number(b));
        used[i] = used[i + 1] = 1;
      }
    }
    // Bare integers count only in segments made of parameters alone (`gcc10_1048576`, `1`), not
    // in names like `230525-151723_1930647_FSY8b8` where they are dates or process ids.
    if (tokens.every((t, i) => used[i] || /^\d+$/.test(t))) {
      tokens.forEach((t, i) => {
        if (!used[i]) set(`param${++unnamed}`, Number(t));
      });
    }
  }
  return out;
}

function plural(word: string): string {
  const w = word.toLowerCase();
  if (w === 'processes' || w === 'nprocs' || w.endsWith('s')) return w;
  return `${w}s`;
}
