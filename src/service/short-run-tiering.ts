/**
 * V8's tiering for a short-lived process (the CLI, dist/read-once.js), chosen by the size of its input
 * before anything runs. V8 tunes its optimising compiler (TurboFan) for long-lived pages: a function
 * that has run a fixed amount of bytecode (the interrupt budget) is compiled on background threads.
 * A process that reads a 0.1–2 MB profile and exits ends before most of that code would pay off:
 * reading HPCToolkit's osu-allgather (0.8 MB), the main thread ran 27 ms while four compiler threads
 * used 60 ms of CPU, competing with it for the machine's cores, and the main thread was no faster for
 * them. Four times V8's budget leaves that compilation to the functions that really run hot (the
 * tokenizers' loops) and halves the read's CPU with the main thread's time unchanged. Below 128 KiB
 * nothing is worth a flag (and loading `node:v8` costs 1.5 ms); above 2 MiB V8's own tiering is kept
 * (`--max-opt=1`, no optimising compiler at all, made 0.5–2 MB JSON reads 1.5–3× slower).
 *
 * The code cache (code-cache.ts) records the flags it was made with and V8 rejects it under others,
 * so each choice has its own cache file ({@link ShortRunTiering.tag}). Kept tiny: only Node built-ins,
 * as the launchers that call it.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What {@link chooseShortRunTiering} chose: V8 flags, and the tag that names their code cache ('' for none). */
export interface ShortRunTiering {
  readonly flags: readonly string[];
  readonly tag: string;
}

export const DEFAULT_TIERING: ShortRunTiering = { flags: [], tag: '' };

/** Below this many input bytes a read ends before V8 optimises anything: no flag. */
export const SMALL_INPUT_BYTES = 128 << 10;
/** Above this many input bytes (decompressed) V8's own tiering is kept (json-split reads of 2–14 MB were not reliably faster). */
export const LARGE_INPUT_BYTES = 2 << 20;
/** V8's interrupt budget (Node 20, V8 11.3: 66 KiB of bytecode) times this factor between the two. */
const BUDGET_FACTOR = 4;
const V8_INTERRUPT_BUDGET = 67584;

/** The tiering for a process whose input is `bytes` long (decompressed). */
export function chooseShortRunTiering(bytes: number): ShortRunTiering {
  if (!(bytes >= SMALL_INPUT_BYTES && bytes <= LARGE_INPUT_BYTES)) return DEFAULT_TIERING;
  return { flags: [`--interrupt-budget=${V8_INTERRUPT_BUDGET * BUDGET_FACTOR}`], tag: `budget${BUDGET_FACTOR}` };
}

/**
 * Bytes a process would read from the paths among `args` (arguments that start with `-` and paths that
 * do not exist are left out): a file's size (a gzip file's decompressed size, from its trailer), a
 * directory's files and those of its subdirectories one level down. Stops counting past `cap`.
 */
export function inputBytes(args: readonly string[], cap = LARGE_INPUT_BYTES + 1): number {
  let total = 0;
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    total += pathBytes(arg, 1, cap - total);
    if (total > cap) break;
  }
  return total;
}

function pathBytes(path: string, depth: number, cap: number): number {
  try {
    const st = statSync(path);
    if (st.isFile()) return fileBytes(path, st.size);
    if (!st.isDirectory() || depth < 0) return 0;
    let total = 0;
    for (const name of readdirSync(path)) {
      total += pathBytes(join(path, name), depth - 1, cap - total);
      if (total > cap) break;
    }
    return total;
  } catch {
    return 0;
  }
}

/** A file's size, or for a gzip file the larger of it and the decompressed size its trailer gives (mod 2^32). */
function fileBytes(path: string, size: number): number {
  if (size < 18) return size;
  let fd = -1;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    if (readSync(fd, head, 0, 2, 0) !== 2 || head[0] !== 0x1f || head[1] !== 0x8b) return size;
    const end = fstatSync(fd).size;
    if (readSync(fd, head, 0, 4, end - 4) !== 4) return size;
    return Math.max(size, head.readUInt32LE(0));
  } catch {
    return size;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/**
 * Chooses the tiering for a process about to read the paths among `args` and sets its V8 flags. Call
 * before the bundle is compiled, so the code cache is checked and saved under the same flags.
 */
export function tierShortRun(args: readonly string[]): ShortRunTiering {
  const tiering = chooseShortRunTiering(inputBytes(args));
  if (tiering.flags.length > 0) {
    // node:v8 is loaded only here: its 1.5 ms would be most of a small file's read.
    const v8 = require('node:v8') as typeof import('node:v8');
    for (const flag of tiering.flags) v8.setFlagsFromString(flag);
  }
  return tiering;
}
