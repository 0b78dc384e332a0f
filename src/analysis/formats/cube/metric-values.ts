import { zlib } from '../io/zlib';
import { CubeFormatError } from './cube-format-error';

/**
 * The binary half of a CUBE4 metric: `<id>.index` says which call-tree rows `<id>.data` holds, and
 * the data file holds one row of values per listed call-tree position, one value per location.
 *
 *   index: "CUBEX.INDEX", u32 endianness probe (1), u16 version (0), u8 format
 *          (1 = sparse: u32 n, then n u32 positions; 3 = dense: every position, nothing follows)
 *   data:  "CUBEX.DATA", rows × locations values of the metric's dtype, or
 *          "ZCUBEX.DATA", u64 n, n × (u64 uncompressed offset, u64 compressed offset, u64 size),
 *          then one zlib stream per row (size 0: the row was never written, all zero).
 *
 * Positions count call-tree nodes in the writer's per-metric order (see `cubeRowOrder`), not cnode
 * ids. All numbers use the byte order of the endianness probe.
 */

const INDEX_MAGIC = 'CUBEX.INDEX';
const DATA_MAGIC = 'CUBEX.DATA';
const COMPRESSED_DATA_MAGIC = 'ZCUBEX.DATA';
const INDEX_SPARSE = 1;
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const INDEX_DENSE = 3;

export interface CubeIndex {
  littleEndian: boolean;
  /** Call-tree positions of the data rows, or null for a dense index (one row per node, in order). */
  positions: Int32Array | null;
}

/** A numeric CUBE dtype: its size in bytes and how to read one value. */
export interface ScalarType {
  name: string;
  size: number;
  read(view: DataView, offset: number, littleEndian: boolean): number;
}

const float64: ScalarType['read'] = (v, o, le) => v.getFloat64(o, le);
const uint64: ScalarType['read'] = (v, o, le) =>
  le
    ? v.getUint32(o + 4, true) * 2 ** 32 + v.getUint32(o, true)
    : v.getUint32(o, false) * 2 ** 32 + v.getUint32(o + 4, false);
const int64: ScalarType['read'] = (v, o, le) =>
  le
    ? v.getInt32(o + 4, true) * 2 ** 32 + v.getUint32(o, true)
    : v.getInt32(o, false) * 2 ** 32 + v.getUint32(o + 4, false);

/** Cube's scalar dtypes (FLOAT is stored as a double, as Cube's own library reads it). */
const SCALAR_TYPES: Record<string, Omit<ScalarType, 'name'>> = {
  DOUBLE: { size: 8, read: float64 },
  FLOAT: { size: 8, read: float64 },
  MINDOUBLE: { size: 8, read: float64 },
  MAXDOUBLE: { size: 8, read: float64 },
  UINT64: { size: 8, read: uint64 },
  'UNSIGNED INTEGER': { size: 8, read: uint64 },
  INT64: { size: 8, read: int64 },
  INTEGER: { size: 8, read: int64 },
  'SIGNED INTEGER': { size: 8, read: int64 },
  UINT32: { size: 4, read: (v, o, le) => v.getUint32(o, le) },
  'UNSIGNED INT': { size: 4, read: (v, o, le) => v.getUint32(o, le) },
  INT32: { size: 4, read: (v, o, le) => v.getInt32(o, le) },
  INT: { size: 4, read: (v, o, le) => v.getInt32(o, le) },
  'SIGNED INT': { size: 4, read: (v, o, le) => v.getInt32(o, le) },
  UINT16: { size: 2, read: (v, o, le) => v.getUint16(o, le) },
  'UNSIGNED SHORT INT': { size: 2, read: (v, o, le) => v.getUint16(o, le) },
  INT16: { size: 2, read: (v, o, le) => v.getInt16(o, le) },
  'SHORT INT': { size: 2, read: (v, o, le) => v.getInt16(o, le) },
  'SIGNED SHORT INT': { size: 2, read: (v, o, le) => v.getInt16(o, le) },
  UINT8: { size: 1, read: (v, o) => v.getUint8(o) },
  CHAR: { size: 1, read: (v, o) => v.getUint8(o) },
  INT8: { size: 1, read: (v, o) => v.getInt8(o) },
};

/** The scalar type of a dtype string, or null for composite types (RATE, TAU_ATOMIC, NDOUBLES(n), …). */
export function scalarType(dtype: string): ScalarType | null {
  const name = dtype.trim().toUpperCase().replace(/\s+/g, ' ');
  const t = SCALAR_TYPES[name];
  return t ? { name, ...t } : null;
}

function startsWith(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads an index file; `nodeCount` bounds the positions it may list. */
export function parseCubeIndex(bytes: Uint8Array, nodeCount: number): CubeIndex {
  if (!startsWith(bytes, INDEX_MAGIC))
    throw new CubeFormatError(`wrong magic: an index file starts with "${INDEX_MAGIC}"`);
  const headerEnd = INDEX_MAGIC.length + 7;
  if (bytes.length < headerEnd)
    throw new CubeFormatError(`truncated: the index header needs ${headerEnd} bytes, the file has ${bytes.length}`);
  const view = viewOf(bytes);
  const probe = view.getUint32(INDEX_MAGIC.length, true);
  if (probe !== 1 && probe !== 0x01000000)
    throw new CubeFormatError(`bad endianness marker 0x${probe.toString(16)} (expected the number 1)`);
  const littleEndian = probe === 1;
  const version = view.getUint16(INDEX_MAGIC.length + 4, littleEndian);
  if (version !== 0) throw new CubeFormatError(`unsupported index version ${version} (HPC Lens reads version 0)`);
  const format = bytes[INDEX_MAGIC.length + 6]!;
  if (format === INDEX_DENSE) {
    if (bytes.length !== headerEnd)
      throw new CubeFormatError(
        `a dense index has no entries, but ${bytes.length - headerEnd} bytes follow its header`,
      );
    return { littleEndian, positions: null };
  }
  if (format !== INDEX_SPARSE)
    throw new CubeFormatError(`unsupported index format ${format} (HPC Lens reads sparse = 1 and dense = 3)`);
  if (bytes.length < headerEnd + 4) throw new CubeFormatError('truncated: the sparse index has no entry count');
  const n = view.getUint32(headerEnd, littleEndian);
  const expected = headerEnd + 4 + 4 * n;
  if (bytes.length !== expected)
    throw new CubeFormatError(
      `the index lists ${n} rows, which takes ${expected} bytes, but the file has ${bytes.length}`,
    );
  const positions = new Int32Array(n);
  const seen = new Uint8Array(nodeCount);
  for (let k = 0; k < n; k++) {
    const p = view.getUint32(headerEnd + 4 + 4 * k, littleEndian);
    if (p >= nodeCount)
      throw new CubeFormatError(
        `index entry ${k + 1} names call-tree position ${p}, but the call tree has ${nodeCount} nodes`,
      );
    if (seen[p]) throw new CubeFormatError(`index entry ${k + 1} repeats call-tree position ${p}`);
    seen[p] = 1;
    positions[k] = p;
  }
  return { littleEndian, positions };
}

/** Reads a data file into a row-major matrix (rows × locations) of doubles. */
export function decodeCubeData(
  bytes: Uint8Array,
  rows: number,
  locations: number,
  type: ScalarType,
  littleEndian: boolean,
): Float64Array {
  const rowBytes = locations * type.size;
  if (startsWith(bytes, COMPRESSED_DATA_MAGIC)) {
    const out = new Float64Array(rows * locations);
    decodeCompressedRows(
      bytes,
      rows,
      rowBytes,
      (row, raw) => decodeRow(viewOf(raw), 0, out, row * locations, locations, type, littleEndian),
      littleEndian,
    );
    return out;
  }
  if (!startsWith(bytes, DATA_MAGIC))
    throw new CubeFormatError(`wrong magic: a data file starts with "${DATA_MAGIC}" or "${COMPRESSED_DATA_MAGIC}"`);
  const expected = DATA_MAGIC.length + rows * rowBytes;
  if (bytes.length !== expected) {
    throw new CubeFormatError(
      `holds ${bytes.length - DATA_MAGIC.length} bytes of values, but ${rows} rows × ${locations} locations × ${type.size} bytes (${type.name}) need ${rows * rowBytes}`,
    );
  }
  // Little-endian doubles (nearly every file) are copied in one go into an aligned buffer.
  if (type.read === float64 && littleEndian && HOST_IS_LITTLE_ENDIAN) {
    const aligned = new Uint8Array(rows * rowBytes);
    aligned.set(bytes.subarray(DATA_MAGIC.length));
    return new Float64Array(aligned.buffer);
  }
  const out = new Float64Array(rows * locations);
  const view = viewOf(bytes);
  for (let r = 0; r < rows; r++)
    decodeRow(view, DATA_MAGIC.length + r * rowBytes, out, r * locations, locations, type, littleEndian);
  return out;
}

function decodeRow(
  view: DataView,
  offset: number,
  out: Float64Array,
  at: number,
  locations: number,
  type: ScalarType,
  littleEndian: boolean,
): void {
  const { size, read } = type;
  for (let c = 0; c < locations; c++) out[at + c] = read(view, offset + c * size, littleEndian);
}

/** Inflates the rows of a ZCUBEX.DATA file, handing each to `onRow` (rows of size 0 stay zero). */
function decodeCompressedRows(
  bytes: Uint8Array,
  rows: number,
  rowBytes: number,
  onRow: (row: number, raw: Uint8Array) => void,
  littleEndian: boolean,
): void {
  const countAt = COMPRESSED_DATA_MAGIC.length;
  if (bytes.length < countAt + 8) throw new CubeFormatError('truncated: the compressed data file has no row count');
  const view = viewOf(bytes);
  const n = uint64(view, countAt, littleEndian);
  if (n !== rows)
    throw new CubeFormatError(`the compressed data file has ${n} row headers, but the index lists ${rows} rows`);
  const segments = countAt + 8 + 24 * n;
  if (segments > bytes.length)
    throw new CubeFormatError(
      `truncated: ${n} compressed row headers need ${segments} bytes, the file has ${bytes.length}`,
    );
  for (let r = 0; r < n; r++) {
    const h = countAt + 8 + 24 * r;
    const uncompressedAt = uint64(view, h, littleEndian);
    const compressedAt = uint64(view, h + 8, littleEndian);
    const size = uint64(view, h + 16, littleEndian);
    if (size === 0) continue;
    if (uncompressedAt !== r * rowBytes)
      throw new CubeFormatError(
        `compressed row ${r + 1} claims uncompressed offset ${uncompressedAt}, expected ${r * rowBytes}`,
      );
    const start = segments + compressedAt;
    if (start + size > bytes.length)
      throw new CubeFormatError(
        `truncated: compressed row ${r + 1} needs bytes ${start}–${start + size}, the file has ${bytes.length}`,
      );
    let raw: Buffer;
    try {
      raw = zlib().inflateSync(bytes.subarray(start, start + size), { maxOutputLength: Math.max(1, rowBytes) });
    } catch (e) {
      throw new CubeFormatError(`compressed row ${r + 1} is corrupt (${(e as Error).message})`);
    }
    if (raw.length !== rowBytes)
      throw new CubeFormatError(`compressed row ${r + 1} inflates to ${raw.length} bytes, expected ${rowBytes}`);
    onRow(r, raw);
  }
}

/**
 * The node at each row position of a metric, in the order Cube's writer enumerates the call tree
 * for that metric: pre-order for exclusive metrics; for inclusive metrics, a walk that lists all
 * children of a node before descending into the first of them (cubew's "wide search"). `parent`
 * must be in pre-order (parents first, as anchor.xml nests them), so the exclusive order is the
 * identity.
 */
export function cubeRowOrder(parent: Int32Array, kind: 'exclusive' | 'inclusive'): Int32Array {
  const n = parent.length;
  const order = new Int32Array(n);
  if (kind === 'exclusive') {
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) start[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const children = new Int32Array(n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) children[fill[parent[i]!]!++] = i;
  let k = 0;
  const stack: number[] = [];
  for (let root = 0; root < n; root++) {
    if (parent[root] !== -1) continue;
    order[k++] = root;
    stack.push(root);
    while (stack.length) {
      const v = stack.pop()!;
      for (let j = start[v]!; j < start[v + 1]!; j++) order[k++] = children[j]!;
      for (let j = start[v + 1]! - 1; j >= start[v]!; j--) stack.push(children[j]!);
    }
  }
  return order;
}
