/**
 * Runs a CommonJS bundle (dist/cli-main.js, dist/analysis-worker-main.js) through vm.Script with
 * V8's code cache, so a fresh process deserialises the bytecode of the functions an earlier run
 * compiled instead of parsing and compiling 2 MB of JavaScript again. vm.Script's cachedData works on
 * every Node VS Code ships (module.enableCompileCache only from Node 22.1). The one implementation
 * behind both launchers (src/cli/launch.ts, src/service/analysis-worker-launch.ts).
 *
 * The cache is one file per bundle build and Node version in a cache directory. V8 rejects a file
 * that is corrupt, truncated or made for other code (`state` is then 'rejected'); the run goes on
 * compiling from source and the next save replaces the file. Saving is left to the bundle (warm-up.ts
 * saves after running the hot paths, so the cache also holds their lazily compiled functions).
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { tierShortRun } from './short-run-tiering';

/** 'accepted': V8 used the stored cache; 'rejected': it refused it (corrupt or stale); 'created': there was none. */
export type CodeCacheState = 'accepted' | 'rejected' | 'created';

/** What a bundle run through {@link runWithCodeCache} sees as `globalThis.__hpcLensCodeCache`. */
export interface CodeCacheHook {
  readonly file: string;
  readonly state: CodeCacheState;
  /** Stores the code compiled so far (never throws: a read-only cache directory only costs speed). */
  save(): void;
}

/** The hook of the bundle this code runs in, when a launcher started it with a code cache. */
export function currentCodeCache(): CodeCacheHook | undefined {
  return (globalThis as { __hpcLensCodeCache?: CodeCacheHook }).__hpcLensCodeCache;
}

/**
 * The cache file for `script` in `dir`: named by the bundle's size and time and Node's version, so a
 * rebuild never reads a stale file, and by the tag of the V8 flags it is made under (short-run-tiering.ts).
 */
export function codeCacheFile(script: string, dir: string, tag = ''): string {
  let stamp = 'unknown';
  try {
    const s = statSync(script);
    stamp = `${s.size}-${Math.round(s.mtimeMs)}`;
  } catch {
    /* loading the script reports a missing bundle */
  }
  return join(dir, `${basename(script, '.js')}${tag ? `.${tag}` : ''}-${stamp}-${process.version}.bin`);
}

/**
 * The code-cache folder of a process outside VS Code (the CLI): $HPC_LENS_CODE_CACHE, else
 * $XDG_CACHE_HOME/hpc-lens, else ~/.cache/hpc-lens; null when HPC_LENS_CODE_CACHE is `off` or `0`.
 */
export function userCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env['HPC_LENS_CODE_CACHE'];
  if (chosen === 'off' || chosen === '0') return null;
  if (chosen) return chosen;
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'hpc-lens');
}

/**
 * What a short-lived process's launcher does (the CLI, dist/read-once.js): chooses V8's tiering by the
 * size of the input paths among `args` (short-run-tiering.ts), then runs `main` with the code cache
 * in {@link userCodeCacheDir} made under that choice, or plainly when the cache is off.
 */
export function launchWithUserCodeCache(main: string, args: readonly string[]): void {
  const { tag } = tierShortRun(args);
  const cacheDir = userCodeCacheDir();
  if (cacheDir) runWithCodeCache(main, cacheDir, tag);
  else createRequire(main)(main);
}

/**
 * Runs `script` as a CommonJS module with the code cache in `cacheDir`; returns (and publishes) its
 * hook. `tag` names the V8 flags set beyond the defaults (V8 rejects a cache made under other flags).
 */
export function runWithCodeCache(script: string, cacheDir: string, tag = ''): CodeCacheHook {
  const file = codeCacheFile(script, cacheDir, tag);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(file);
  } catch {
    /* no cache yet */
  }
  // A shebang line is no JavaScript inside the module wrapper.
  const source = readSource(script).replace(/^#!.*/, '');
  const compiled = new Script(wrap(source), {
    filename: script,
    cachedData,
    // Lets the bundle's own import() work as it would under require (Node 21+; undefined before).
    importModuleDynamically: (vmConstants as Partial<typeof vmConstants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const hook: CodeCacheHook = {
    file,
    state: cachedData === undefined ? 'created' : compiled.cachedDataRejected ? 'rejected' : 'accepted',
    save: () => saveCodeCache(file, compiled),
  };
  (globalThis as { __hpcLensCodeCache?: CodeCacheHook }).__hpcLensCodeCache = hook;
  const module = { exports: {} };
  const run = compiled.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(script), module, script, dirname(script));
  return hook;
}

/**
 * The text of `script`: an ASCII file (esbuild.mjs escapes the bundles' few non-ASCII characters) is
 * decoded as Latin-1, a plain copy into a one-byte string, where UTF-8 decoding of the 2.7 MB CLI
 * bundle costs every start about 7 ms more CPU; any other file as UTF-8.
 */
export function readSource(script: string): string {
  const bytes = readFileSync(script);
  return (isAscii as ((b: Uint8Array) => boolean) | undefined)?.(bytes)
    ? bytes.toString('latin1')
    : bytes.toString('utf8');
}

/**
 * Writes the cache through a temporary file per process and thread (a random name: importing
 * node:worker_threads for the thread's id would cost every CLI start 4 ms) and a rename, so
 * concurrent saves never interleave; then removes the caches of earlier builds of the same bundle.
 */
function saveCodeCache(file: string, compiled: Script): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, compiled.createCachedData());
    renameSync(tmp, file);
    for (const name of readdirSync(dir))
      if (name !== basename(file) && sameBundle(name, file)) rmSync(join(dir, name), { force: true });
  } catch {
    /* a cache that cannot be written only costs the next start its speed */
  }
}

/** `other` is a cache of the same bundle as `file`, for another build or Node version (the names differ only in the stamp). */
function sameBundle(other: string, file: string): boolean {
  const stem = (name: string) => /^(.*)-(?:\d+-\d+|unknown)-v[\d.]+\.bin$/.exec(name)?.[1];
  const mine = stem(basename(file));
  return mine !== undefined && stem(other) === mine;
}
