import { join } from 'node:path';
import type { ProfileBuilder } from '../../model/profile-builder';
import { TraceBuilder } from '../../model/trace-builder';
import { LineTimeline, nodeDepths } from '../hpctoolkit-metadb/trace-timeline';
import { readBytes } from '../io/file-input';
import { ProfileReadError, throwIfAborted, type ReadOptions } from '../reader';
import type { Experiment } from './experiment-xml';
import { FIRST_GPU_STREAM_THREAD, rankThreadOf } from './metric-db';

/**
 * The `.hpctrace` files of an HPCToolkit classic database (hpcrun's traces, one per rank × thread
 * or GPU stream; `../shared/spec/data-sources.md`, addendum, and HPCToolkit's `hpcrun-fmt.h`):
 *
 *   offset  0  18 bytes  tag "HPCRUN-trace______"
 *   offset 18   5 bytes  version, e.g. "01.01"
 *   offset 23   1 byte   'b' (big-endian, what hpcrun writes)
 *   offset 24  u64       flags; bit 0 (data-centric) adds a u32 metric id to every record
 *   then (from the TraceDB's db-header-sz) records: u64 time in the TraceDB's ticks (`u` per second),
 *   u32 call-path id — the `it` of an `<S>` or `<C>` element of experiment.xml.
 */
const TAG = 'HPCRUN-trace______';
const DATA_CENTRIC_FLAG = 1;
const TWO_32 = 2 ** 32;

export function isHpcTraceName(name: string): boolean {
  return name.endsWith('.hpctrace');
}

/** One trace file's records as u32 halves of the time (u64 exceeds 2^53) and call-path ids. */
export interface HpcTrace {
  path: string;
  rank: number;
  thread: number;
  hi: Uint32Array;
  lo: Uint32Array;
  id: Uint32Array;
  /** Bytes after the last whole record (a truncated file). */
  trailing: number;
}

export function parseHpcTrace(path: string, bytes: Uint8Array, headerBytes: number): Omit<HpcTrace, 'rank' | 'thread'> {
  const fail = (reason: string): never => {
    throw new ProfileReadError(path, reason);
  };
  if (bytes.length < Math.max(24, headerBytes))
    fail(`truncated hpctrace: the header needs ${Math.max(24, headerBytes)} bytes, the file has ${bytes.length}`);
  const text = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (text(0, 18) !== TAG) fail(`not an hpctrace file: wrong magic ${JSON.stringify(text(0, 18))} (expected "${TAG}")`);
  const order = text(23, 24);
  if (order !== 'b' && order !== 'l') fail(`unknown byte order ${JSON.stringify(order)} (expected "b" or "l")`);
  const little = order === 'l';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = headerBytes >= 32 ? view.getUint32(little ? 24 : 28, little) : 0;
  const size = flags & DATA_CENTRIC_FLAG ? 16 : 12;
  const count = Math.floor((bytes.length - headerBytes) / size);
  const hi = new Uint32Array(count),
    lo = new Uint32Array(count),
    id = new Uint32Array(count);
  for (let k = 0, at = headerBytes; k < count; k++, at += size) {
    hi[k] = view.getUint32(little ? at + 4 : at, little);
    lo[k] = view.getUint32(little ? at : at + 4, little);
    id[k] = view.getUint32(at + 8, little);
  }
  return { path, hi, lo, id, trailing: bytes.length - headerBytes - count * size };
}

/** Reads the traces named `names` in `dir` (rank and thread from each name, as for metric-db files). */
export async function readHpcTraces(
  dir: string,
  names: readonly string[],
  headerBytes: number,
  { signal, limits }: ReadOptions,
): Promise<HpcTrace[]> {
  const out: HpcTrace[] = [];
  for (const name of names) {
    throwIfAborted(signal);
    const path = join(dir, name);
    const rt = rankThreadOf(name);
    if (!rt)
      throw new ProfileReadError(
        path,
        'cannot tell the rank and thread from the file name (expected <program>-<rank>-<thread>-<host>-<pid>-<gen>.hpctrace)',
      );
    out.push({ ...parseHpcTrace(path, await readBytes(path, { signal, limits }), headerBytes), ...rt });
  }
  return out.sort((x, y) => x.rank - y.rank || x.thread - y.thread);
}

/**
 * Fills `b.trace` from the traces, as hpctraceviewer draws them: a sample holds until the next one of
 * its track, its call path being the sampled node and its ancestors (one slice per frame, so the
 * timeline can be cut at any depth; LineTimeline). Id 0 and ids experiment.xml does not list are
 * gaps; a track's last sample holds until the database's last timestamp. Times are ns from the
 * earliest sample. `contextOf` gives the model context of a rank × thread.
 */
export function addHpcTraceTimeline(
  b: ProfileBuilder,
  exp: Experiment,
  traces: readonly HpcTrace[],
  contextOf: (rank: number, thread: number) => number,
  signal?: AbortSignal,
): number {
  const ticks = exp.traceDb?.ticksPerSecond ?? 1e9;
  let minHi = Infinity,
    minLo = Infinity,
    maxHi = -1,
    maxLo = -1;
  for (const t of traces) {
    for (let k = 0; k < t.hi.length; k++) {
      const hi = t.hi[k]!,
        lo = t.lo[k]!;
      if (hi < minHi || (hi === minHi && lo < minLo)) [minHi, minLo] = [hi, lo];
      if (hi > maxHi || (hi === maxHi && lo > maxLo)) [maxHi, maxLo] = [hi, lo];
    }
    if (t.trailing)
      b.warnings.push(
        `${t.path}: ${t.trailing} bytes after the last whole record (a truncated trace); they are ignored`,
      );
  }
  if (maxHi < 0) return 0;
  const nsPerTick = 1e9 / ticks;
  const span = ((maxHi - minHi) * TWO_32 + (maxLo - minLo)) * nsPerTick;
  if (!(span <= Number.MAX_SAFE_INTEGER))
    throw new ProfileReadError(traces[0]!.path, `the trace times span ${span.toExponential(3)} ns: a time is corrupt`);

  const parent = exp.parent;
  const { depthOfNode, maxDepth } = nodeDepths(parent);
  const names = Array.from({ length: parent.length }, (_, n) => b.tree.nameOf(n));
  const tb = new TraceBuilder(b.tree.strings);
  tb.originNs = (BigInt(minHi) * BigInt(TWO_32) + BigInt(minLo)).toString();
  const timeline = new LineTimeline(depthOfNode, parent, maxDepth);
  const nameOfNode = new Int32Array(parent.length).fill(-1);
  let unknown = 0,
    unsorted = 0,
    samples = 0;
  for (const t of traces) {
    throwIfAborted(signal);
    const gpu = t.thread >= FIRST_GPU_STREAM_THREAD;
    const track = tb.addTrack({
      name: gpu ? `GPU stream ${t.thread - FIRST_GPU_STREAM_THREAD}` : `thread ${t.thread}`,
      kind: gpu ? 'gpu-stream' : 'thread',
      process: `rank ${t.rank}`,
      pid: String(t.rank),
      tid: String(t.thread),
      rank: t.rank,
      thread: gpu ? -1 : t.thread,
      gpuStream: gpu ? t.thread - FIRST_GPU_STREAM_THREAD : -1,
      context: contextOf(t.rank, t.thread),
    });
    const n = t.hi.length;
    const time = new Float64Array(n);
    for (let k = 0; k < n; k++) time[k] = ((t.hi[k]! - minHi) * TWO_32 + (t.lo[k]! - minLo)) * nsPerTick;
    let order: number[] | null = null;
    for (let k = 1; k < n; k++)
      if (time[k]! < time[k - 1]!) {
        order = Array.from({ length: n }, (_, j) => j).sort((x, y) => time[x]! - time[y]! || x - y);
        unsorted++;
        break;
      }
    timeline.reset();
    for (let j = 0; j < n; j++) {
      const k = order ? order[j]! : j;
      const id = t.id[k]!;
      const node = id === 0 ? -1 : (exp.traceIds.get(id) ?? -2);
      if (node === -2) unknown++;
      if (node < 0) timeline.gap(time[k]!);
      else {
        timeline.sample(time[k]!, node);
        samples++;
      }
    }
    timeline.gap(span);
    timeline.emit(tb, track, names, nameOfNode);
  }
  if (unsorted)
    b.warnings.push(`${unsorted} .hpctrace file${unsorted === 1 ? ' is' : 's are'} not sorted by time; sorted`);
  if (unknown)
    b.warnings.push(`${unknown} trace samples name call paths experiment.xml does not list; they are shown as gaps`);
  b.trace = tb.finish();
  b.metadata['hpctrace files'] = traces.length;
  return samples;
}
