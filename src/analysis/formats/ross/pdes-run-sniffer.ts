/**
 * The ROSS / CODES run sniffer: a module apart from the run reader (pdes-run-reader.ts), so that
 * detecting a run by content (Open Profile…, `hpc-lens inspect`) never loads the reader.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readHeadBytes } from '../file-sample';
import type { FileSample } from '../reader';
import {
  ENGINE_HEADER_BYTES,
  ENGINE_PAYLOAD_BYTES,
  engineFlag,
  EVENT_HEADER_BYTES,
  MAX_EVENT_MODEL_BYTES,
  MODEL_FLAG,
  MODEL_HEADER_BYTES,
} from './record-layouts';

/** `<prefix>-gvt.bin` and the other ROSS stats file names, by what they hold. */
export const STATS_FILE = /^(.*)-(gvt|rt|analysis-lps|evtrace)\.bin$/;

/**
 * Confidence in [0, 1] that a file or folder is ROSS / CODES output, from its content: a folder
 * whose `ross.csv` starts with ROSS's header, or holding (directly or in a stats folder below it)
 * a stats file whose first records decode; a single stats file whose first records decode; a folder
 * of CODES network output only (`lp-io/dragonfly-link-stats`, `packet-latency/`). For `hpc-lens
 * inspect` and Open Profile… to route the folder to {@link readPdesRun} (format `ross-codes`).
 */
export function sniffPdesRun(sample: FileSample): number {
  if (!sample.isDirectory) return sniffStatsFile(sample.path, sample.size);
  const entries = new Set(sample.entries);
  if (
    entries.has('ross.csv') &&
    /^\uFEFF?total_pe,total_kp,total_lp,/.test(readHeadBytes(join(sample.path, 'ross.csv'), 64).toString('utf8'))
  )
    return 0.95;
  const statsIn = (dir: string, names: readonly string[]) =>
    names.some(n => STATS_FILE.test(n) && sniffStatsFile(join(dir, n), fileSize(join(dir, n))) > 0);
  if (statsIn(sample.path, sample.entries)) return 0.9;
  for (const name of sample.entries.slice(0, 64)) {
    const sub = join(sample.path, name);
    if (isDirectory(sub) && statsIn(sub, listNames(sub))) return 0.9;
  }
  if (
    entries.has('lp-io') &&
    /link_type/.test(readHeadBytes(join(sample.path, 'lp-io', 'dragonfly-link-stats'), 256).toString('utf8'))
  )
    return 0.6;
  if (
    entries.has('packet-latency') &&
    listNames(join(sample.path, 'packet-latency')).some(n => /^packets-delay-gid=\d+\.txt$/.test(n))
  )
    return 0.6;
  return 0;
}

/**
 * A ROSS stats file by its first records: an engine header (flag, size) of a known kind with a
 * plausible real time, followed by another record header or the end of the file. Event traces have
 * no header to recognise, so a `*-evtrace.bin` is taken by name when its first record's model size
 * keeps it within the file.
 */
function sniffStatsFile(path: string, size: number): number {
  const head = readHeadBytes(path, 256);
  if (head.length < 8) return 0;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const flag = engineFlag(view.getInt32(0, true), view.getInt32(4, true));
  if (flag >= 0 && head.length >= ENGINE_HEADER_BYTES) {
    const realTime = view.getFloat64(16, true);
    if (!(realTime >= 0 && Number.isFinite(realTime))) return 0;
    const next = ENGINE_HEADER_BYTES + ENGINE_PAYLOAD_BYTES[flag]!;
    if (next === size) return 0.85;
    if (head.length < next + 8) return 0;
    const nextFlag = view.getInt32(next, true);
    const nextSize = view.getInt32(next + 4, true);
    const isModel = head.length >= next + MODEL_HEADER_BYTES && view.getInt32(next + 44, true) === MODEL_FLAG;
    return engineFlag(nextFlag, nextSize) >= 0 || isModel ? 0.9 : 0;
  }
  if (/-evtrace\.bin$/.test(basename(path)) && head.length >= EVENT_HEADER_BYTES) {
    const model = view.getUint32(20, true);
    return model <= MAX_EVENT_MODEL_BYTES && EVENT_HEADER_BYTES + model <= size ? 0.6 : 0;
  }
  return 0;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
