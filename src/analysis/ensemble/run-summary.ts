import { createHash } from 'node:crypto';
import { promises, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CallTreeColumns } from '../model/call-tree';
import type { ExecutionContext } from '../model/context';
import { inclusiveFromExclusive } from '../model/derive';
import type { MetricDescriptor } from '../model/metric';
import { Profile, type LazyContextValues, type MetadataValue } from '../model/profile';
import { zlib } from '../formats/io/zlib';

/**
 * Run summaries (issue 17; CallFlow thesis ch. 4 §4.3 keeps per-run aggregates so the ensemble view
 * never re-reads raw profiles): one compact binary file per run holding what an ensemble reads —
 * the run's calling-context tree (name, file, line, module, kind, call line per node), per-node
 * inclusive and exclusive totals over contexts of every metric (see {@link storesInclusiveTotals}), per-rank values of the nodes that
 * carry at least {@link RANK_DETAIL_SHARE} of some metric (the call sites box plots and rank
 * diffs show), the contexts, and the run's metadata. Module and function aggregates follow from
 * the tree and the totals exactly, so they are not stored twice.
 *
 * Layout (little-endian; format 2):
 *   8 bytes  magic `HPCLSUM\n`
 *   u32      format version ({@link SUMMARY_FORMAT_VERSION}); another version is refused, not guessed
 *            (a reader ignores it and rebuilds the summary from its profile)
 *   u32      header length H, then H bytes of JSON: {@link SummaryHeader} (the key says which file
 *            this summarises and whether it is current without reading anything else), padded to 8
 *   u32      section count S, u32 0, then S entries of u32 raw length, u32 stored length, u32
 *            CRC-32 of the stored bytes, u32 coding (0 raw, 1 deflated, 2 doubles byte-shuffled then
 *            deflated); padded to 8
 *   sections each starting at a multiple of 8, in this order: metadata JSON; string table (u32
 *            count, u32 offsets, UTF-8); tree columns at their narrowest width; detail node ids;
 *            per metric its totals (inclusive unless recorded exclusive, then exclusive) as doubles;
 *            per metric the detail nodes' per-rank rows (inclusive, then exclusive). The totals an open
 *            reads are raw while the summary stays within {@link SIZE_BUDGET} of its profile, so
 *            they are read in place; per-rank rows, read only on demand, are always packed.
 */

export const SUMMARY_MAGIC = 'HPCLSUM\n';
export const SUMMARY_FORMAT_VERSION = 2;
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

/** The metadata section. */
interface MetaJson {
  format: string;
  path: string;
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
    for (const e of await promises.readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const s = await promises.stat(p);
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

/**
 * Sections of a summary, in file order (then, per metric, its totals; then, per metric, its
 * per-rank rows). Each is checksummed and deflated only when that pays (see {@link DEFLATE_WHEN_SAVING}).
 */
const enum Section {
  Meta = 0,
  Strings = 1,
  Tree = 2,
  Detail = 3,
  Values = 4,
}

/** How a section's bytes are stored. */
const enum Coding {
  Raw = 0,
  Deflated = 1,
  /** Doubles byte-shuffled (byte k of every value together, so similar exponents sit side by side), then deflated. */
  ShuffledDeflated = 2,
}

/**
 * Metadata, strings and the tree are deflated when that saves at least this share of their bytes
 * (they shrink 5–50×).
 */
const DEFLATE_WHEN_SAVING = 0.25;
/**
 * What a summary may take of its profile's bytes (issue 17: ≤ 10 %). Within it, the per-node totals
 * are stored raw: measured on 1,000 runs × 10⁴ nodes, noisy timings (every mantissa bit random)
 * deflate by only 13 %, and inflating and unshuffling them was 1.6 s of a 3.4 s open, where raw
 * doubles are read in place. Beyond it (small profiles in compact formats) they are deflated.
 */
const SIZE_BUDGET = 0.1;
/** Bytes per entry of the section table: raw length, stored length, CRC-32 of the stored bytes, coding. */
const SECTION_ENTRY = 16;

const pad8 = (n: number): number => (n + 7) & ~7;

/** The smallest unsigned width (0 = all zero, 1, 2 bytes) holding every value, or 4 (int32) for the rest. */
function columnWidth(col: Int32Array): 0 | 1 | 2 | 4 {
  let max = 0;
  for (let i = 0; i < col.length; i++) {
    const v = col[i]!;
    if (v < 0) return 4;
    if (v > max) max = v;
  }
  return max === 0 ? 0 : max < 256 ? 1 : max < 65536 ? 2 : 4;
}

/**
 * The tree section: a width byte per integer column (parent distance, name, file, line, module, call
 * line), padded to 8, then each column at its width (padded to 8, so every column can be read in
 * place), then the kinds. Ids and lines mostly fit 16 bits; absent files, lines and modules take no
 * bytes at all.
 */
function encodeTree(columns: readonly Int32Array[], kind: Uint8Array): Uint8Array {
  const widths = columns.map(columnWidth);
  const n = kind.length;
  let size = 8;
  for (const w of widths) size += pad8(w * n);
  const out = new Uint8Array(size + n);
  out.set(widths, 0);
  let at = 8;
  columns.forEach((col, c) => {
    const w = widths[c]!;
    if (w === 1) out.set(Uint8Array.from(col), at);
    else if (w === 2) out.set(new Uint8Array(Uint16Array.from(col).buffer), at);
    else if (w === 4) out.set(new Uint8Array(col.buffer, col.byteOffset, col.byteLength), at);
    at += pad8(w * n);
  });
  out.set(kind, at);
  return out;
}

function bytesOf(a: Int32Array | Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function asBytes(b: Uint8Array): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Stores byte k of every `width`-byte value together (plane k), which deflate compresses far better. */
function shuffle(bytes: Uint8Array, width: number): Uint8Array {
  const count = bytes.length / width;
  const out = new Uint8Array(bytes.length);
  for (let b = 0; b < width; b++) for (let i = 0, o = b * count; i < count; i++) out[o + i] = bytes[i * width + b]!;
  return out;
}

/** Inverse of `shuffle(…, 8)`, the 8 planes gathered into two 32-bit little-endian words per value. */
function unshuffle8(bytes: Uint8Array): Uint8Array {
  const n = bytes.length >>> 3;
  const words = new Uint32Array(2 * n);
  for (let i = 0, o = 0; i < n; i++, o += 2) {
    words[o] = bytes[i]! | (bytes[n + i]! << 8) | (bytes[2 * n + i]! << 16) | (bytes[3 * n + i]! << 24);
    words[o + 1] = bytes[4 * n + i]! | (bytes[5 * n + i]! << 8) | (bytes[6 * n + i]! << 16) | (bytes[7 * n + i]! << 24);
  }
  return new Uint8Array(words.buffer);
}

/**
 * A section as stored: deflated (doubles byte-shuffled first, when that deflates smaller) if that
 * saves at least `minSaving` of its bytes, else raw.
 */
function pack(
  raw: Uint8Array,
  doubles: boolean,
  minSaving: number,
): { raw: Uint8Array; bytes: Uint8Array; coding: Coding } {
  if (raw.length < 64) return { raw, bytes: raw, coding: Coding.Raw };
  let best = { raw, bytes: asBytes(zlib().deflateSync(raw, { level: 6 })), coding: Coding.Deflated };
  if (doubles) {
    const shuffled = asBytes(zlib().deflateSync(shuffle(raw, 8), { level: 6 }));
    if (shuffled.length < best.bytes.length) best = { raw, bytes: shuffled, coding: Coding.ShuffledDeflated };
  }
  return best.bytes.length <= raw.length * (1 - minSaving) ? best : { raw, bytes: raw, coding: Coding.Raw };
}

/** A string table as u32 count, u32 byte offsets (count + 1), then the UTF-8 bytes. */
function encodeStrings(strings: readonly string[]): Uint8Array {
  const encoder = new TextEncoder();
  const encoded = strings.map(s => encoder.encode(s));
  const offsets = new Uint32Array(strings.length + 2);
  offsets[0] = strings.length;
  for (let k = 0; k < encoded.length; k++) offsets[k + 2] = offsets[k + 1]! + encoded[k]!.length;
  return concat([bytesOf(offsets), ...encoded]);
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
  const meta: MetaJson = {
    format: profile.format,
    path: profile.path,
    contexts: [...profile.contexts],
    metrics: [...profile.metrics],
    primaryMetric: profile.primaryMetric,
    metadata: profile.data.metadata,
    warnings: [...profile.warnings],
    nodes: n,
    detail: detail.length,
  };
  const stored = [
    pack(new TextEncoder().encode(JSON.stringify(meta)), false, DEFLATE_WHEN_SAVING),
    pack(encodeStrings(profile.data.strings), false, DEFLATE_WHEN_SAVING),
    pack(
      encodeTree([parentDelta, cols.name, cols.file, cols.line, cols.module, cols.callLine], cols.kind),
      false,
      DEFLATE_WHEN_SAVING,
    ),
    pack(bytesOf(detail), false, DEFLATE_WHEN_SAVING),
  ];
  profile.metrics.forEach((d, m) => {
    if (storesInclusiveTotals(d)) stored.push(pack(bytesOf(profile.inclusiveTotals(m)), true, 0));
    stored.push(pack(bytesOf(profile.exclusiveTotals(m)), true, 0));
  });
  const totalsEnd = stored.length;
  // Per-rank rows are read only when a view asks for a run's ranks, never at open: as small as they go.
  // One section per metric, inclusive rows then exclusive ones: a leaf's are equal, which deflate finds.
  const KC = detail.length * C;
  for (let m = 0; m < profile.metrics.length; m++) {
    // Rows read one by one from the profile's sparse form: no node × rank matrix is made for them.
    const rows = new Float64Array(2 * KC);
    (['inclusive', 'exclusive'] as const).forEach((side, s) => {
      for (let k = 0; k < detail.length; k++)
        profile.contextRow(side, m, detail[k]!, rows.subarray(s * KC + k * C, s * KC + (k + 1) * C));
    });
    stored.push(pack(bytesOf(rows), true, 0));
  }
  // The size budget is spent on open speed: the totals every open reads go raw (read in place, never
  // inflated) while the summary stays within SIZE_BUDGET of the profile's bytes.
  let size = stored.reduce((sum, x) => sum + pad8(x.bytes.length) + SECTION_ENTRY, 512);
  for (let k = Section.Values; k < totalsEnd; k++) {
    const x = stored[k]!;
    if (x.coding === Coding.Raw || size + x.raw.length - x.bytes.length > SIZE_BUDGET * key.size) continue;
    size += x.raw.length - x.bytes.length;
    stored[k] = { raw: x.raw, bytes: x.raw, coding: Coding.Raw };
  }
  const header: SummaryHeader = {
    key,
    format: profile.format,
    nodes: n,
    contexts: C,
    rankDetailNodes: detail.length,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const table = pad8(16 + headerBytes.length);
  let at = pad8(table + 8 + SECTION_ENTRY * stored.length);
  const offsets = stored.map((s, k) => {
    const o = at;
    at = k === stored.length - 1 ? at + s.bytes.length : pad8(at + s.bytes.length);
    return o;
  });
  const out = new Uint8Array(at);
  out.set(new TextEncoder().encode(SUMMARY_MAGIC), 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, SUMMARY_FORMAT_VERSION, true);
  dv.setUint32(12, headerBytes.length, true);
  out.set(headerBytes, 16);
  dv.setUint32(table, stored.length, true);
  stored.forEach((s, k) => {
    const e = table + 8 + SECTION_ENTRY * k;
    dv.setUint32(e, s.raw.length, true);
    dv.setUint32(e + 4, s.bytes.length, true);
    dv.setUint32(e + 8, zlib().crc32(s.bytes), true);
    dv.setUint32(e + 12, s.coding, true);
    out.set(s.bytes, offsets[k]!);
  });
  return out;
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

/** The header of a summary (no section read): enough to tell whether it is current. Throws {@link SummaryError}. */
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
  return { header, payloadOffset: pad8(16 + h) };
}

/** A decoded summary: its key and the run as a Profile (per-rank rows beyond the detail nodes are their mean). */
export interface RunSummary {
  header: SummaryHeader;
  profile: Profile;
}

/**
 * The strings of the summaries decoded together (one ensemble's runs, which share most function
 * names): a string's UTF-8 bytes are hashed and compared with those met before, and a string met
 * before is handed out again as the same JS string. At 1,000 runs of 2,500 strings each this makes
 * 2,500 strings instead of 2.5 million (decoding, hashing them again in every run's lookups, and
 * collecting them cost a quarter of the open).
 */
class SummaryStringPool {
  private slots = new Int32Array(1 << 12).fill(-1);
  private hashes = new Int32Array(1 << 10);
  private starts = new Int32Array((1 << 10) + 1);
  private bytes = new Uint8Array(1 << 16);
  private readonly values: string[] = [];
  private readonly decoder = new TextDecoder();

  get size(): number {
    return this.values.length;
  }

  /** The strings whose UTF-8 bytes are `blob[offsets[k] … offsets[k + 1])`, k < count. */
  table(blob: Uint8Array, offsets: Uint32Array, count: number): string[] {
    const out = new Array<string>(count);
    for (let k = 0; k < count; k++) out[k] = this.values[this.id(blob, offsets[k]!, offsets[k + 1]!)]!;
    return out;
  }

  private id(blob: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5 | 0;
    for (let b = start; b < end; b++) h = Math.imul(h ^ blob[b]!, 16777619);
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]!;
      if (id < 0) return this.add(blob, start, end, h, s);
      if (this.hashes[id] !== h) continue;
      const from = this.starts[id]!;
      if (this.starts[id + 1]! - from !== len) continue;
      let b = 0;
      while (b < len && this.bytes[from + b] === blob[start + b]) b++;
      if (b === len) return id;
    }
  }

  private add(blob: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const id = this.values.length;
    this.values.push(this.decoder.decode(blob.subarray(start, end)));
    if (id + 1 >= this.hashes.length) {
      this.hashes = grown(this.hashes, this.hashes.length * 2);
      this.starts = grown(this.starts, this.hashes.length + 1);
    }
    const from = this.starts[id]!;
    if (from + end - start > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(2 * this.bytes.length, from + end - start));
      bigger.set(this.bytes);
      this.bytes = bigger;
    }
    this.bytes.set(blob.subarray(start, end), from);
    this.starts[id + 1] = from + end - start;
    this.hashes[id] = h;
    this.slots[slot] = id;
    if (2 * this.values.length > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      const mask = this.slots.length - 1;
      for (let k = 0; k < this.values.length; k++) {
        let s = this.hashes[k]! & mask;
        while (this.slots[s]! >= 0) s = (s + 1) & mask;
        this.slots[s] = k;
      }
    }
    return id;
  }
}

function grown(a: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

type Corrupt = (detail: string) => SummaryError;

/** The string table section (see {@link encodeStrings}), its strings taken from the pool. */
function decodeStrings(bytes: Uint8Array, pool: SummaryPool, corrupt: Corrupt): string[] {
  if (bytes.length < 4) throw corrupt('no string table');
  const count = view(bytes, 0, 1, Uint32Array)[0]!;
  if (8 + 4 * count > bytes.length) throw corrupt(`string table of ${count} strings`);
  const offsets = view(bytes, 4, count + 1, Uint32Array);
  const blob = bytes.subarray(8 + 4 * count);
  for (let k = 0; k < count; k++)
    if (offsets[k]! > offsets[k + 1]! || offsets[k + 1]! > blob.length) throw corrupt(`string ${k} out of bounds`);
  return pool.strings.table(blob, offsets, count);
}

/** The tree section (see {@link encodeTree}) as columns, with the largest string id they use. */
function decodeTree(bytes: Uint8Array, n: number, corrupt: Corrupt): { columns: CallTreeColumns; maxStringId: number } {
  let at = 8;
  const int32Column = (width: number): Int32Array => {
    const length = pad8(width * n);
    if (at + length + n > bytes.length) throw corrupt('tree section too short');
    const from = at;
    at += length;
    if (width === 0) return new Int32Array(n);
    if (width === 4) return view(bytes, from, n, Int32Array);
    const out = new Int32Array(n);
    out.set(width === 1 ? bytes.subarray(from, from + n) : view(bytes, from, n, Uint16Array));
    return out;
  };
  const [parentDelta, name, file, line, module, callLine] = [0, 1, 2, 3, 4, 5].map(c => {
    const w = bytes[c];
    if (w !== 0 && w !== 1 && w !== 2 && w !== 4) throw corrupt(`tree column ${c} has width ${w}`);
    return int32Column(w);
  }) as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  if (at + n !== bytes.length) throw corrupt('tree section of the wrong size');
  const parent = new Int32Array(n);
  let maxStringId = 0;
  for (let i = 0; i < n; i++) {
    const d = parentDelta[i]!;
    if (d < 0 || d > i) throw corrupt(`node ${i} has its parent ${d} nodes before it`);
    parent[i] = d === 0 ? -1 : i - d;
    const least = Math.min(name[i]!, file[i]!, module[i]!);
    if (least < 0) throw corrupt(`string id ${least} at node ${i}`);
    maxStringId = Math.max(maxStringId, name[i]!, file[i]!, module[i]!);
  }
  const kind = view(bytes, at, n, Uint8Array);
  return { columns: { parent, name, file, line, module, callLine, kind }, maxStringId };
}

/**
 * What the summaries decoded together (one ensemble's runs) share: their strings, and the decoded
 * string tables and trees of runs whose sections are byte for byte the same — the runs of one
 * program mostly have the same tree, and those runs then skip inflating and checking it. The
 * shared tables and columns are read-only, like every built call tree's.
 */
export class SummaryPool {
  readonly strings = new SummaryStringPool();
  private readonly sections = new Map<number, { kind: number; stored: Uint8Array; value: unknown }[]>();

  /** The decoded value of a section whose stored bytes were decoded before, else `decode()`'s (kept). */
  shared<T>(kind: number, entry: { crc: number; stored: Uint8Array }, decode: () => T): T {
    let list = this.sections.get(entry.crc);
    if (!list) this.sections.set(entry.crc, (list = []));
    const stored = entry.stored;
    const hit = list.find(
      s => s.kind === kind && s.stored.length === stored.length && Buffer.compare(s.stored, stored) === 0,
    );
    if (hit) return hit.value as T;
    const value = decode();
    list.push({ kind, stored, value });
    return value;
  }
}

export interface DecodeOptions {
  /** What this summary shares with the others decoded for the same ensemble (default: nothing). */
  pool?: SummaryPool;
}

/**
 * Decodes a summary into a Profile an ensemble reads like the original: same tree, strings,
 * contexts, metrics and metadata, the exact per-node totals, and per-rank matrices made on first
 * use — exact for the detail nodes, each context holding the node's mean over contexts elsewhere.
 * Every section's checksum is verified here; stored totals and rows are read in place, and the
 * per-rank rows are only indexed (and inflated, if they were deflated) when first read.
 * Throws {@link SummaryError} for anything that is not a complete summary of this version.
 */
export function decodeRunSummary(bytes: Uint8Array, file: string, options: DecodeOptions = {}): RunSummary {
  const { header, payloadOffset: table } = readSummaryHeader(bytes, file);
  const corrupt = (detail: string) => new SummaryError(file, 'corrupt', detail);
  if (table + 8 > bytes.length) throw new SummaryError(file, 'truncated', 'no section table');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = dv.getUint32(table, true);
  if (count < Section.Values || count > 1 << 16) throw corrupt(`${count} sections`);
  let at = pad8(table + 8 + SECTION_ENTRY * count);
  if (at > bytes.length) throw new SummaryError(file, 'truncated', 'section table past the end');
  const entries: { raw: number; coding: Coding; crc: number; stored: Uint8Array }[] = [];
  for (let k = 0; k < count; k++) {
    const e = table + 8 + SECTION_ENTRY * k;
    const raw = dv.getUint32(e, true),
      length = dv.getUint32(e + 4, true),
      coding = dv.getUint32(e + 12, true) as Coding;
    if (at + length > bytes.length)
      throw new SummaryError(file, 'truncated', `section ${k} ends ${at + length - bytes.length} bytes past the end`);
    const stored = bytes.subarray(at, at + length);
    const crc = dv.getUint32(e + 8, true);
    if (zlib().crc32(stored) !== crc) throw corrupt(`section ${k} fails its checksum`);
    if (coding !== Coding.Raw && coding !== Coding.Deflated && coding !== Coding.ShuffledDeflated)
      throw corrupt(`section ${k} has coding ${coding}`);
    if (coding === Coding.Raw && raw !== length) throw corrupt(`section ${k}: ${length} bytes stored for ${raw}`);
    entries.push({ raw, coding, crc, stored });
    at = k === count - 1 ? at + length : pad8(at + length);
  }
  if (at !== bytes.length) throw corrupt(`${bytes.length - at} bytes after the last section`);
  /** Section k's bytes (inflated if deflated: into a new, aligned buffer). */
  const section = (k: number): Uint8Array => {
    const { raw, coding, stored } = entries[k]!;
    if (coding === Coding.Raw) return stored;
    let out: Uint8Array;
    try {
      // One output chunk of the exact size: zlib's default 16 kB chunks are concatenated (copied) at the end.
      out = zlib().inflateSync(stored, raw >= 64 ? { chunkSize: raw } : {});
    } catch (e) {
      throw corrupt(e instanceof Error ? e.message : String(e));
    }
    if (out.length !== raw) throw corrupt(`section ${k} inflates to ${out.length} bytes, not ${raw}`);
    if (coding === Coding.ShuffledDeflated) {
      if (raw % 8 !== 0) throw corrupt(`section ${k} of ${raw} bytes is not doubles`);
      return unshuffle8(out);
    }
    return out;
  };

  let meta: MetaJson;
  try {
    meta = JSON.parse(new TextDecoder().decode(section(Section.Meta))) as MetaJson;
  } catch (e) {
    if (e instanceof SummaryError) throw e;
    throw corrupt(`metadata: ${e instanceof Error ? e.message : String(e)}`);
  }
  const n = meta.nodes,
    C = meta.contexts.length,
    K = meta.detail,
    M = meta.metrics.length;
  const totalSections = Section.Values + meta.metrics.reduce((s, d) => s + (storesInclusiveTotals(d) ? 2 : 1), 0) + M;
  if (count !== totalSections) throw corrupt(`${count} sections where the metadata needs ${totalSections}`);

  const pool = options.pool ?? new SummaryPool();
  const strings = pool.shared(Section.Strings, entries[Section.Strings]!, () =>
    decodeStrings(section(Section.Strings), pool, corrupt),
  );
  const { columns: tree, maxStringId } = pool.shared(Section.Tree, entries[Section.Tree]!, () =>
    decodeTree(section(Section.Tree), n, corrupt),
  );
  if (tree.parent.length !== n) throw corrupt(`a tree of ${tree.parent.length} nodes, not ${n}`);
  if (maxStringId >= strings.length) throw corrupt(`string id ${maxStringId} is not in the table of ${strings.length}`);
  const parent = tree.parent;

  const float64 = (k: number, values: number, what: string): Float64Array => {
    const b = section(k);
    if (b.length !== values * 8) throw corrupt(`${what}: ${b.length} bytes for ${values} values`);
    return view(b, 0, values, Float64Array);
  };
  let next = Section.Values;
  const totals = meta.metrics.map(d => {
    const inclusive = storesInclusiveTotals(d) ? float64(next++, n, `${d.name} inclusive totals`) : null;
    const exclusive = float64(next++, n, `${d.name} exclusive totals`);
    return { inclusive: inclusive ?? inclusiveFromExclusive(parent, exclusive, 1), exclusive };
  });
  const detailBytes = section(Section.Detail);
  if (detailBytes.length !== 4 * K) throw corrupt(`detail list of ${detailBytes.length} bytes for ${K} nodes`);
  const detail = view(detailBytes, 0, K, Int32Array);
  for (let k = 0; k < K; k++) if (detail[k]! < 0 || detail[k]! >= n) throw corrupt(`detail node ${detail[k]}`);
  const rowSections = next;
  for (let s = rowSections; s < count; s++)
    if (entries[s]!.raw !== 16 * K * C) throw corrupt(`per-rank rows of ${entries[s]!.raw} bytes for 2 × ${K} × ${C}`);

  // Made on first read of a per-rank value: most runs of a large ensemble are never asked for one.
  const rowCache = new Map<number, { inclusive: Float64Array; exclusive: Float64Array }>();
  const rowsOf = (side: 'inclusive' | 'exclusive', m: number): Float64Array => {
    let rows = rowCache.get(m);
    if (!rows) {
      const both = float64(rowSections + m, 2 * K * C, 'per-rank rows');
      rowCache.set(m, (rows = { inclusive: both.subarray(0, K * C), exclusive: both.subarray(K * C) }));
    }
    return rows[side];
  };
  // The detail position of node i, -1 when it has no per-rank row. The writer lists detail nodes in
  // ascending order, so a binary search finds them without a node-sized index per run (a selection
  // reads a few rows in each of a thousand runs: the index cost more than the reads).
  let ascending: boolean | undefined;
  const detailAscending = (): boolean => {
    if (ascending === undefined) {
      ascending = true;
      for (let k = 1; k < K && ascending; k++) ascending = detail[k - 1]! < detail[k]!;
    }
    return ascending;
  };
  let detailRow: Int32Array | null = null;
  const detailOf = (i: number): number => {
    if (detailAscending()) {
      let lo = 0,
        hi = K - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1,
          d = detail[mid]!;
        if (d === i) return mid;
        if (d < i) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    }
    if (!detailRow) {
      detailRow = new Int32Array(n).fill(-1);
      for (let k = 0; k < K; k++) detailRow[detail[k]!] = k;
    }
    return detailRow[i]!;
  };
  const lazy: LazyContextValues = {
    matrix: (side, m) => {
      const total = totals[m]![side],
        kept = rowsOf(side, m);
      const matrix = new Float64Array(n * C);
      if (C === 0) return matrix;
      for (let i = 0; i < n; i++) matrix.fill(total[i]! / C, i * C, (i + 1) * C);
      for (let k = 0; k < K; k++) matrix.set(kept.subarray(k * C, (k + 1) * C), detail[k]! * C);
      return matrix;
    },
    row: (side, m, i, out) => {
      const k = detailOf(i);
      if (k >= 0) out.set(rowsOf(side, m).subarray(k * C, (k + 1) * C));
      else out.fill(totals[m]![side][i]! / C, 0, C);
    },
    rows: (side, m, nodes, out) => {
      // Both lists ascending: one merge walk, no per-node search (an unordered detail list falls back).
      if (!detailAscending()) {
        for (let j = 0; j < nodes.length; j++) lazy.row(side, m, nodes[j]!, out.subarray(j * C, (j + 1) * C));
        return;
      }
      const total = totals[m]![side];
      let kept: Float64Array | null = null;
      for (let j = 0, k = 0; j < nodes.length; j++) {
        const i = nodes[j]!,
          at = j * C;
        while (k < K && detail[k]! < i) k++;
        if (k < K && detail[k] === i) {
          kept ??= rowsOf(side, m);
          for (let c = 0, from = k * C; c < C; c++) out[at + c] = kept[from + c]!;
        } else {
          const v = total[i]! / C;
          for (let c = 0; c < C; c++) out[at + c] = v;
        }
      }
    },
  };
  let profile: Profile;
  try {
    profile = new Profile(
      {
        format: meta.format,
        path: meta.path,
        strings,
        tree,
        contexts: meta.contexts,
        metrics: meta.metrics,
        exclusive: meta.metrics.map(() => null),
        inclusive: meta.metrics.map(() => null),
        primaryMetric: meta.primaryMetric,
        metadata: meta.metadata,
        warnings: meta.warnings,
      },
      lazy,
    );
  } catch (e) {
    throw corrupt(e instanceof Error ? e.message : String(e));
  }
  totals.forEach((t, m) => profile.adoptTotals(m, t));
  return { header, profile };
}

type View<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** `count` values of a typed array at `offset` in `bytes`: in place when aligned, else a copy. */
function view<T>(bytes: Uint8Array, offset: number, count: number, type: View<T>): T {
  const at = bytes.byteOffset + offset;
  if (at % type.BYTES_PER_ELEMENT === 0) return new type(bytes.buffer, at, count);
  return new type(bytes.slice(offset, offset + count * type.BYTES_PER_ELEMENT).buffer, 0, count);
}
