import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type { CallTreeColumns } from '../model/call-tree';
import type { ExecutionContext } from '../model/context';
import { inclusiveFromExclusive } from '../model/derive';
import type { MetricDescriptor } from '../model/metric';
import { Profile, type LazyContextValues, type MetadataValue } from '../model/profile';

/**
 * Run summaries (issue 17; CallFlow thesis ch. 4 §4.3 keeps per-run aggregates so the ensemble view
 * never re-reads raw profiles): one compact binary file per run holding what an ensemble reads —
 * the run's calling-context tree (name, file, line, module, kind, call line per node), per-node
 * inclusive and exclusive totals over contexts of every metric (see {@link storesInclusiveTotals}), per-rank values of the nodes that
 * carry at least {@link RANK_DETAIL_SHARE} of some metric (the call sites box plots and rank
 * diffs show), the contexts, and the run's metadata. Module and function aggregates follow from
 * the tree and the totals exactly, so they are not stored twice.
 *
 * Layout (little-endian):
 *   8 bytes  magic `HPCLSUM\n`
 *   u32      format version ({@link SUMMARY_FORMAT_VERSION}); another version is refused, not guessed
 *   u32      header length H, then H bytes of JSON: {@link SummaryHeader} (the key says which file
 *            this summarises and whether it is current without inflating anything)
 *   rest     zlib-deflated payload (its Adler-32 check catches corruption): u32 length + JSON of the
 *            small parts, then byte-shuffled columns (each value's byte k stored together — exponents
 *            of similar floats then sit side by side and deflate well).
 */

export const SUMMARY_MAGIC = 'HPCLSUM\n';
export const SUMMARY_FORMAT_VERSION = 1;
/** File name suffix of a summary: `runs/8_ranks.json` → `8_ranks.json.hlsum`. */
export const SUMMARY_SUFFIX = '.hlsum';
/**
 * Version of what the readers produce; bump it when a reader's output changes so every summary
 * made by the older readers counts as stale and is rebuilt.
 */
export const READER_VERSION = 1;
/** A node gets per-rank values when its inclusive value is at least this share of some metric's run total. */
export const RANK_DETAIL_SHARE = 0.001;
/** Trees this small keep per-rank values for every node (the summary is tiny anyway). */
export const RANK_DETAIL_ALL_BELOW = 512;

/** Which profile a summary was made from: it is current while all four still match. */
export interface SummaryKey {
  /** Absolute path of the profile (file or folder). */
  path: string;
  /** Bytes (of every file under a folder profile). */
  size: number;
  /** Last modification, ms since the epoch (latest of a folder profile's files). */
  mtimeMs: number;
  reader: number;
}

export interface SummaryHeader {
  key: SummaryKey;
  format: string;
  nodes: number;
  contexts: number;
  /** Nodes with per-rank values. */
  rankDetailNodes: number;
  /** Bytes of the inflated payload (absent in older summaries): inflating into one buffer of this size avoids copies. */
  payloadBytes?: number;
}

/** Why a file is not a usable summary: the caller ignores it (logged) and rebuilds it from the profile. */
export class SummaryError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'not a summary' | 'other version' | 'truncated' | 'corrupt',
    detail: string,
  ) {
    super(`${file}: ${reason} (${detail})`);
    this.name = 'SummaryError';
  }
}

interface PayloadJson {
  format: string;
  path: string;
  strings: string[];
  contexts: ExecutionContext[];
  metrics: MetricDescriptor[];
  primaryMetric: number;
  metadata: Record<string, MetadataValue>;
  warnings: string[];
  nodes: number;
  detail: number;
}

/** The key of the profile at `path` as it is on disk now. */
export async function summaryKeyOf(path: string): Promise<SummaryKey> {
  const st = statSync(path);
  if (!st.isDirectory()) return { path, size: st.size, mtimeMs: st.mtimeMs, reader: READER_VERSION };
  let size = 0,
    mtimeMs = st.mtimeMs;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const s = await stat(p);
        size += s.size;
        mtimeMs = Math.max(mtimeMs, s.mtimeMs);
      }
    }
  };
  await walk(path);
  return { path, size, mtimeMs, reader: READER_VERSION };
}

export function sameKey(a: SummaryKey, b: SummaryKey): boolean {
  return a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.reader === b.reader;
}

/** File name of a profile's summary in a cache folder: a hash of its path, so any path fits. */
export function cachedSummaryName(profilePath: string): string {
  return createHash('sha1').update(profilePath).digest('hex') + SUMMARY_SUFFIX;
}

/** Nodes that keep per-rank values (ascending). */
function rankDetailNodes(profile: Profile): Int32Array {
  const n = profile.tree.size;
  // One context: its row is the node's total, which the summary holds anyway.
  if (profile.contextCount <= 1) return new Int32Array(0);
  if (n <= RANK_DETAIL_ALL_BELOW) return Int32Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  profile.metrics.forEach((_, m) => {
    const inc = profile.inclusiveTotals(m);
    const floor = Math.abs(profile.total(m)) * RANK_DETAIL_SHARE;
    for (let i = 0; i < n; i++) if (Math.abs(inc[i]!) >= floor && floor > 0) keep[i] = 1;
  });
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return Int32Array.from(out);
}

/**
 * Whether a metric's inclusive totals are stored. A metric recorded exclusive has them derived on
 * decoding (sums over subtrees of non-negative costs: equal to the profile's up to rounding, 1e-15
 * relative); one recorded inclusive keeps both, since exclusive = inclusive − Σ children cancels and
 * would lose the small exclusive values.
 */
function storesInclusiveTotals(metric: MetricDescriptor): boolean {
  return metric.kind !== 'exclusive';
}

/** Stores byte k of every `width`-byte value together (plane k), which deflate compresses far better. */
function shuffle(bytes: Uint8Array, width: number): Uint8Array {
  const count = bytes.length / width;
  const out = new Uint8Array(bytes.length);
  for (let b = 0; b < width; b++) for (let i = 0, o = b * count; i < count; i++) out[o + i] = bytes[i * width + b]!;
  return out;
}

/**
 * Inverse of `shuffle(…, 8)` straight into doubles: the 8 planes are gathered into two 32-bit words
 * per value (little-endian, like every column of the format), 2.6× faster than byte by byte.
 */
function unshuffleFloat64(bytes: Uint8Array): Float64Array {
  const n = bytes.length >>> 3;
  const words = new Uint32Array(2 * n);
  const p1 = n,
    p2 = 2 * n,
    p3 = 3 * n,
    p4 = 4 * n,
    p5 = 5 * n,
    p6 = 6 * n,
    p7 = 7 * n;
  for (let i = 0, o = 0; i < n; i++, o += 2) {
    words[o] = bytes[i]! | (bytes[p1 + i]! << 8) | (bytes[p2 + i]! << 16) | (bytes[p3 + i]! << 24);
    words[o + 1] = bytes[p4 + i]! | (bytes[p5 + i]! << 8) | (bytes[p6 + i]! << 16) | (bytes[p7 + i]! << 24);
  }
  return new Float64Array(words.buffer);
}

function bytesOf(a: Int32Array | Float64Array | Uint8Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * Encodes a run summary of `profile` read from the file `key` describes. Reads the profile's
 * totals of every metric (computing them if needed) and per-rank rows of the detail nodes.
 */
export function encodeRunSummary(profile: Profile, key: SummaryKey): Uint8Array {
  const tree = profile.tree;
  const n = tree.size,
    C = profile.contextCount;
  const detail = rankDetailNodes(profile);
  const cols = tree.columns;
  // Parents as distance to the node (1 for a first child in preorder): small, repetitive numbers.
  const parentDelta = new Int32Array(n);
  for (let i = 0; i < n; i++) parentDelta[i] = cols.parent[i]! < 0 ? 0 : i - cols.parent[i]!;
  const json: PayloadJson = {
    format: profile.format,
    path: profile.path,
    strings: profile.data.strings,
    contexts: [...profile.contexts],
    metrics: [...profile.metrics],
    primaryMetric: profile.primaryMetric,
    metadata: profile.data.metadata,
    warnings: [...profile.warnings],
    nodes: n,
    detail: detail.length,
  };
  const parts: Uint8Array[] = [];
  // JSON ignores trailing spaces: padding it to a multiple of 8 (with its u32 length) aligns the
  // integer columns after it, which the decoder then reads in place instead of copying.
  const text = JSON.stringify(json);
  const unpadded = new TextEncoder().encode(text).length;
  const jsonBytes = new TextEncoder().encode(text + ' '.repeat((8 - ((4 + unpadded) % 8)) % 8));
  parts.push(new Uint8Array(Uint32Array.of(jsonBytes.length).buffer), jsonBytes);
  for (const col of [parentDelta, cols.name, cols.file, cols.line, cols.module, cols.callLine])
    parts.push(bytesOf(col).slice());
  parts.push(cols.kind.slice());
  profile.metrics.forEach((d, m) => {
    if (storesInclusiveTotals(d)) parts.push(shuffle(bytesOf(profile.inclusiveTotals(m)), 8));
    parts.push(shuffle(bytesOf(profile.exclusiveTotals(m)), 8));
  });
  parts.push(bytesOf(detail).slice());
  for (let m = 0; m < profile.metrics.length; m++) {
    for (const matrix of [profile.inclusive(m), profile.exclusive(m)]) {
      const rows = new Float64Array(detail.length * C);
      for (let k = 0; k < detail.length; k++) rows.set(matrix.subarray(detail[k]! * C, (detail[k]! + 1) * C), k * C);
      parts.push(shuffle(bytesOf(rows), 8));
    }
  }
  const raw = concat(parts);
  const payload = deflateSync(raw, { level: 6 });
  const header: SummaryHeader = {
    key,
    format: profile.format,
    nodes: n,
    contexts: C,
    rankDetailNodes: detail.length,
    payloadBytes: raw.length,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const head = new Uint8Array(16);
  head.set(new TextEncoder().encode(SUMMARY_MAGIC), 0);
  const dv = new DataView(head.buffer);
  dv.setUint32(8, SUMMARY_FORMAT_VERSION, true);
  dv.setUint32(12, headerBytes.length, true);
  return concat([head, headerBytes, payload]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The header of a summary (no inflating): enough to tell whether it is current. Throws {@link SummaryError}. */
export function readSummaryHeader(bytes: Uint8Array, file: string): { header: SummaryHeader; payloadOffset: number } {
  if (bytes.length < 16)
    throw new SummaryError(file, bytes.length === 0 ? 'truncated' : 'not a summary', `${bytes.length} bytes`);
  const magic = new TextDecoder().decode(bytes.subarray(0, 8));
  if (magic !== SUMMARY_MAGIC) throw new SummaryError(file, 'not a summary', 'no HPCLSUM signature');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== SUMMARY_FORMAT_VERSION)
    throw new SummaryError(file, 'other version', `format ${version}, this build reads ${SUMMARY_FORMAT_VERSION}`);
  const h = dv.getUint32(12, true);
  if (16 + h > bytes.length) throw new SummaryError(file, 'truncated', `header of ${h} bytes past the end`);
  let header: SummaryHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + h))) as SummaryHeader;
  } catch (e) {
    throw new SummaryError(file, 'corrupt', `header: ${e instanceof Error ? e.message : String(e)}`);
  }
  const k = header?.key;
  if (!k || typeof k.path !== 'string' || typeof k.size !== 'number' || typeof k.mtimeMs !== 'number')
    throw new SummaryError(file, 'corrupt', 'header has no source key');
  return { header, payloadOffset: 16 + h };
}

/** A decoded summary: its key and the run as a Profile (per-rank rows beyond the detail nodes are their mean). */
export interface RunSummary {
  header: SummaryHeader;
  profile: Profile;
}

/**
 * Decodes a summary into a Profile an ensemble reads like the original: same tree, strings,
 * contexts, metrics and metadata, the exact per-node totals, and per-rank matrices made on first
 * use — exact for the detail nodes, each context holding the node's mean over contexts elsewhere.
 * Throws {@link SummaryError} for anything that is not a complete summary of this version.
 */
export function decodeRunSummary(bytes: Uint8Array, file: string): RunSummary {
  const { header, payloadOffset } = readSummaryHeader(bytes, file);
  let raw: Uint8Array;
  try {
    const size = header.payloadBytes;
    // One output chunk of the exact size: zlib's default 16 kB chunks are concatenated (copied) at the end.
    raw = inflateSync(
      bytes.subarray(payloadOffset),
      typeof size === 'number' && size >= 64 && size < 2 ** 30 ? { chunkSize: size } : {},
    );
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new SummaryError(file, /unexpected end/i.test(msg) ? 'truncated' : 'corrupt', msg);
  }
  let at = 0;
  const take = (length: number): Uint8Array => {
    if (at + length > raw.length)
      throw new SummaryError(file, 'corrupt', `payload ends ${at + length - raw.length} bytes early`);
    const out = raw.subarray(at, at + length);
    at += length;
    return out;
  };
  const jsonLength = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, true);
  at = 4;
  let json: PayloadJson;
  try {
    json = JSON.parse(new TextDecoder().decode(take(jsonLength))) as PayloadJson;
  } catch (e) {
    if (e instanceof SummaryError) throw e;
    throw new SummaryError(file, 'corrupt', `payload: ${e instanceof Error ? e.message : String(e)}`);
  }
  const n = json.nodes,
    C = json.contexts.length,
    K = json.detail,
    M = json.metrics.length;
  const int32 = (count: number): Int32Array => {
    const b = take(count * 4);
    // In place when aligned (summaries written since payloadBytes pad their JSON for it), else a copy.
    return b.byteOffset % 4 === 0
      ? new Int32Array(b.buffer, b.byteOffset, count)
      : new Int32Array(new Uint8Array(b).buffer);
  };
  const float64 = (count: number) => unshuffleFloat64(take(count * 8));
  const parentDelta = int32(n);
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = parentDelta[i] === 0 ? -1 : i - parentDelta[i]!;
  const tree: CallTreeColumns = {
    parent,
    name: int32(n),
    file: int32(n),
    line: int32(n),
    module: int32(n),
    callLine: int32(n),
    kind: new Uint8Array(take(n)),
  };
  const totals: { inclusive: Float64Array; exclusive: Float64Array }[] = [];
  for (const d of json.metrics) {
    const inclusive = storesInclusiveTotals(d) ? float64(n) : null;
    const exclusive = float64(n);
    totals.push({ inclusive: inclusive ?? inclusiveFromExclusive(parent, exclusive, 1), exclusive });
  }
  const detail = int32(K);
  const rows: { inclusive: Float64Array; exclusive: Float64Array }[] = [];
  for (let m = 0; m < M; m++) rows.push({ inclusive: float64(K * C), exclusive: float64(K * C) });
  if (at !== raw.length) throw new SummaryError(file, 'corrupt', `${raw.length - at} bytes after the payload`);
  for (let i = 0; i < n; i++)
    if (parent[i]! >= i || parent[i]! < -1)
      throw new SummaryError(file, 'corrupt', `node ${i} has parent ${parent[i]}`);
  for (const col of [tree.name, tree.file, tree.module])
    for (let i = 0; i < n; i++)
      if (col[i]! < 0 || col[i]! >= json.strings.length)
        throw new SummaryError(file, 'corrupt', `string id ${col[i]} at node ${i}`);
  for (let k = 0; k < K; k++)
    if (detail[k]! < 0 || detail[k]! >= n) throw new SummaryError(file, 'corrupt', `detail node ${detail[k]}`);

  // Row k of the kept per-rank values belongs to node detail[k]; -1 for the other nodes.
  const detailRow = new Int32Array(n).fill(-1);
  for (let k = 0; k < K; k++) detailRow[detail[k]!] = k;
  const lazy: LazyContextValues = {
    matrix: (side, m) => {
      const total = totals[m]![side],
        kept = rows[m]![side];
      const matrix = new Float64Array(n * C);
      if (C === 0) return matrix;
      for (let i = 0; i < n; i++) matrix.fill(total[i]! / C, i * C, (i + 1) * C);
      for (let k = 0; k < K; k++) matrix.set(kept.subarray(k * C, (k + 1) * C), detail[k]! * C);
      return matrix;
    },
    row: (side, m, i, out) => {
      const k = detailRow[i]!;
      if (k >= 0) out.set(rows[m]![side].subarray(k * C, (k + 1) * C));
      else out.fill(totals[m]![side][i]! / C, 0, C);
    },
  };
  let profile: Profile;
  try {
    profile = new Profile(
      {
        format: json.format,
        path: json.path,
        strings: json.strings,
        tree,
        contexts: json.contexts,
        metrics: json.metrics,
        exclusive: json.metrics.map(() => null),
        inclusive: json.metrics.map(() => null),
        primaryMetric: json.primaryMetric,
        metadata: json.metadata,
        warnings: json.warnings,
      },
      lazy,
    );
  } catch (e) {
    throw new SummaryError(file, 'corrupt', e instanceof Error ? e.message : String(e));
  }
  totals.forEach((t, m) => profile.adoptTotals(m, t));
  return { header, profile };
}
