/**
 * Packed payloads: bulk numeric data as named typed-array columns in ONE ArrayBuffer, with a small
 * JSON header beside it. What crosses threads this way is transferred, not cloned: Node's worker
 * `postMessage(msg, [buffer])` moves the buffer, and VS Code's `webview.postMessage` (extensions on
 * engines ≥ 1.57) sends ArrayBuffers beside the message's JSON instead of as JSON arrays, so neither
 * side walks a million numbers. Decoding makes views into the buffer, never copies.
 *
 * Encoding always copies the columns into a fresh buffer, so the sender never transfers (detaches)
 * memory it keeps, such as a cached analysis or a model in shared memory.
 */

/** Every typed-array kind a column may have, by constructor name (also the wire name). */
const COLUMN_TYPES = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;

export type ColumnType = keyof typeof COLUMN_TYPES;
export type PackedColumn =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** Where one column lies in the payload's buffer. */
export interface ColumnSlot {
  type: ColumnType;
  /** Byte offset into `buffer` (a multiple of 8) and the element count. */
  offset: number;
  length: number;
}

/**
 * The wire form: `header` is plain JSON, `columns` says where each named column lies in `buffer`.
 * `C` names the columns, so a protocol type states which of its fields are packed.
 */
export interface PackedPayload<H, C extends string = string> {
  packed: 'columns/1';
  header: H;
  columns: Record<C, ColumnSlot>;
  buffer: ArrayBuffer;
}

/** A payload's columns as views into its buffer (typed by the encoder's column record). */
export type DecodedColumns<T extends Record<string, PackedColumn>> = { [K in keyof T]: T[K] };

const ALIGN = 8;
const aligned = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

function columnType(c: PackedColumn): ColumnType {
  const name = c.constructor.name as ColumnType;
  if (!(name in COLUMN_TYPES)) throw new TypeError(`packed payload: ${c.constructor.name} is not a typed array column`);
  return name;
}

/**
 * Packs `header` and `columns` into one fresh buffer (each column 8-byte aligned). Columns may be
 * views into larger or shared buffers: only their own bytes are copied.
 */
export function encodePayload<H, T extends Record<string, PackedColumn>>(
  header: H,
  columns: T,
): PackedPayload<H, Extract<keyof T, string>> {
  const slots = {} as Record<string, ColumnSlot>;
  let size = 0;
  for (const [name, c] of Object.entries(columns)) {
    slots[name] = { type: columnType(c), offset: size, length: c.length };
    size = aligned(size + c.byteLength);
  }
  const buffer = new ArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  for (const [name, c] of Object.entries(columns))
    bytes.set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength), slots[name]!.offset);
  return { packed: 'columns/1', header, columns: slots as Record<Extract<keyof T, string>, ColumnSlot>, buffer };
}

/** The columns of a payload as views into its buffer (no copy). Throws on a malformed directory. */
export function decodeColumns<T extends Record<string, PackedColumn>>(
  payload: PackedPayload<unknown, Extract<keyof T, string>>,
): DecodedColumns<T> {
  const out = {} as Record<string, PackedColumn>;
  const { buffer } = payload;
  for (const [name, slot] of Object.entries(payload.columns) as [string, ColumnSlot][]) {
    const Ctor = COLUMN_TYPES[slot.type];
    if (!Ctor) throw new TypeError(`packed payload: column ${name} has unknown type ${String(slot.type)}`);
    const end = slot.offset + slot.length * Ctor.BYTES_PER_ELEMENT;
    if (slot.offset % ALIGN !== 0 || end > buffer.byteLength)
      throw new RangeError(
        `packed payload: column ${name} (${slot.offset}…${end}) lies outside its ${buffer.byteLength}-byte buffer`,
      );
    out[name] = new Ctor(buffer, slot.offset, slot.length);
  }
  return out as DecodedColumns<T>;
}

export function isPackedPayload(v: unknown): v is PackedPayload<unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { packed?: unknown }).packed === 'columns/1' &&
    (v as { buffer?: unknown }).buffer instanceof ArrayBuffer
  );
}

/** The buffers to transfer with a message holding these payloads, each once (a payload may appear twice). */
export function payloadTransferList(...payloads: (PackedPayload<unknown> | undefined | null)[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const p of payloads) if (p && p.buffer.byteLength > 0) out.add(p.buffer);
  return [...out];
}

/**
 * Strings of a payload interned into one table for its header: columns then carry an Int32 index
 * (-1 for null), and a name repeated on many rows crosses once.
 */
export class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

  add(s: string | null | undefined): number {
    if (s === null || s === undefined) return -1;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.index.set(s, i);
    }
    return i;
  }
}

/** A typed-array constructor of a column spec (`{ name: Float64Array, … }`). */
export type ColumnConstructor = new (length: number) => PackedColumn;
/** The columns a spec describes, each as an instance of its constructor. */
export type ColumnsOf<S extends Record<string, ColumnConstructor>> = { [K in keyof S]: InstanceType<S[K]> };

/** Allocates every column of `spec`, `sizeOf(name)` elements each (zero-filled). */
export function allocateColumns<S extends Record<string, ColumnConstructor>>(
  spec: S,
  sizeOf: (name: Extract<keyof S, string>) => number,
): ColumnsOf<S> {
  const out = {} as Record<string, PackedColumn>;
  for (const [name, Ctor] of Object.entries(spec)) out[name] = new Ctor(sizeOf(name as Extract<keyof S, string>));
  return out as ColumnsOf<S>;
}

/** A null source line in an Int32 line column. */
export const NO_LINE = -2147483648;
export const packLine = (l: number | null): number => (l === null ? NO_LINE : l);
export const unpackLine = (l: number): number | null => (l === NO_LINE ? null : l);

/**
 * A record's fields that have no column (sent in the header beside it), or null when it has none:
 * a field added to a protocol later still crosses, in JSON, until it gets a column.
 */
export function unpackedFields<T extends object>(record: T, packed: ReadonlySet<string>): Partial<T> | null {
  let extra: Partial<T> | null = null;
  for (const key of Object.keys(record) as (keyof T & string)[])
    if (!packed.has(key) && record[key] !== undefined) (extra ??= {} as Partial<T>)[key] = record[key];
  return extra;
}

/**
 * What every packed graph's reader shares: its string table and its nodes' ids (an Int32 column of
 * string indices), looked up by id through an index made on the first lookup. A subclass makes node
 * `i` as the views' object.
 */
export abstract class PackedNodesReader<N> {
  private ids: Map<string, number> | undefined;

  protected constructor(
    /** Names the payload in errors ("packed Sankey graph"). */
    private readonly what: string,
    private readonly strings: readonly string[],
    private readonly nodeIds: Int32Array,
  ) {}

  get nodeCount(): number {
    return this.nodeIds.length;
  }

  protected str(i: number): string {
    const v = this.strings[i];
    if (v === undefined) throw new RangeError(`${this.what}: no string ${i}`);
    return v;
  }
  protected strOrNull(i: number): string | null {
    return i < 0 ? null : this.str(i);
  }

  /** The id of node `i`, without making the node. */
  id(i: number): string {
    return this.str(this.nodeIds[i]!);
  }

  /** Index of the node with this id, or -1. */
  indexOf(id: string): number {
    if (!this.ids) {
      this.ids = new Map();
      for (let i = 0; i < this.nodeCount; i++) this.ids.set(this.id(i), i);
    }
    return this.ids.get(id) ?? -1;
  }

  /** Node `i` as the views' object. */
  abstract node(i: number): N;

  /** The node with this id, or undefined. */
  nodeById(id: string): N | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.node(i);
  }
}
