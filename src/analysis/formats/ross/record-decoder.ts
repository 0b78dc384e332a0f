/**
 * Incremental decoders for ROSS's binary instrumentation files. Bytes are pushed in chunks of any
 * size (a whole file, 1 MiB reads, or the few bytes a tailed file grew by); every complete record
 * is handed to a sink at once, and a partial trailing record — even one that splits its header — is
 * kept until the rest arrives, never dropped (the ROSS-Vis reader drops it; a live monitor must
 * not, seed digest §6.1). The whole-file readers and the streaming monitor share these decoders.
 */
import { ProfileReadError } from '../reader';
import {
  decodeEnginePayload,
  ENGINE_HEADER_BYTES,
  ENGINE_LEVELS,
  ENGINE_PAYLOAD_BYTES,
  ENGINE_VALUE_COUNTS,
  engineFlag,
  EVENT_HEADER_BYTES,
  MAX_EVENT_MODEL_BYTES,
  MAX_MODEL_BYTES,
  MODEL_FLAG,
  MODEL_HEADER_BYTES,
  type EngineIds,
} from './record-layouts';
import type { EntityLevel } from '../../pdes/model/metrics';

/** A record that cannot be decoded: the message names the file, the byte offset and what was found. */
export class RossRecordError extends ProfileReadError {
  constructor(
    path: string,
    /** Byte offset of the bad record from the start of the file (or stream). */
    readonly offset: number,
    /** What was wrong, without the offset. */
    readonly what: string,
  ) {
    super(path, `${what} at byte offset ${offset}`);
    this.name = 'RossRecordError';
  }
}

/** One engine sample. The object and its `values` are reused: valid only during the sink call. */
export interface EngineRecord {
  level: EntityLevel;
  pe: number;
  /** KP id local to its PE (ROSS numbers KPs per PE); -1 for PE records. */
  kp: number;
  /** Global LP id; -1 for PE and KP records. */
  lp: number;
  /** The PE's GVT when the sample was taken (`Infinity` for ROSS's DBL_MAX after the end). */
  virtualTime: number;
  /** Wall-clock seconds since the start of the run. */
  realTime: number;
  /** Values in the order of the level's metric list (`PE_METRICS`, `KP_METRICS`, `LP_METRICS`). */
  values: Float64Array;
  /** Byte offset of the record in the file. */
  offset: number;
}

/** One model sample (`lp_metadata` + model bytes). Reused like {@link EngineRecord}; `payload` is a view. */
export interface ModelRecord {
  lp: number;
  kp: number;
  pe: number;
  /** The virtual-time sampling point. */
  virtualTime: number;
  realTime: number;
  payload: Uint8Array;
  offset: number;
}

export interface StatsRecordSink {
  engine(record: EngineRecord): void;
  model?(record: ModelRecord): void;
}

/** A partial record left at the end of the input. */
export interface TrailingBytes {
  /** Byte offset where the partial record starts. */
  offset: number;
  /** Bytes present. */
  bytes: number;
  /** Bytes the record needs (header length while the header itself is incomplete). */
  needed: number;
}

const DBL_MAX = Number.MAX_VALUE;
// Module-local bindings for the hot loops: a transpiled (unbundled) import is a getter call per use.
const decodePayload = decodeEnginePayload;
const flagOf = engineFlag;
const HEADER = ENGINE_HEADER_BYTES;
const LEVELS = ENGINE_LEVELS;
const EVENT_HEADER = EVENT_HEADER_BYTES;
const MAX_EVENT_MODEL = MAX_EVENT_MODEL_BYTES;
const EMPTY = new Uint8Array(0);

/** Base of both decoders: the carry-over of a partial trailing record and the file offset. */
abstract class ChunkedDecoder {
  private carry: Uint8Array = EMPTY;
  private decoded = 0;

  constructor(readonly path: string) {}

  /** Bytes decoded into complete records so far (the offset of the next record). */
  get offset(): number {
    return this.decoded;
  }

  /** Bytes held back waiting for the rest of their record. */
  get pendingBytes(): number {
    return this.carry.length;
  }

  /** Decodes every complete record in the bytes pushed so far; keeps the rest. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    let buf = chunk;
    if (this.carry.length) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry, 0);
      buf.set(chunk, this.carry.length);
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const used = this.decode(buf, view, this.decoded);
    this.decoded += used;
    // The caller may reuse its chunk, so a kept remainder is copied.
    this.carry = used < buf.length ? buf.slice(used) : EMPTY;
  }

  /** Ends the input: null when it ended on a record boundary, else the partial record. */
  finish(): TrailingBytes | null {
    if (!this.carry.length) return null;
    const bytes = this.carry.length;
    return { offset: this.decoded, bytes, needed: this.needed(this.carry) };
  }

  /** Decodes records from `buf[0…]`, whose first byte is at `fileOffset`; returns the bytes used. */
  protected abstract decode(buf: Uint8Array, view: DataView, fileOffset: number): number;
  /** Length of the record starting at buf[0], or of its header while the header is incomplete. */
  protected abstract needed(buf: Uint8Array): number;
}

/**
 * Decodes `*-gvt.bin`, `*-rt.bin` and `*-analysis-lps.bin`. Engine and model records are told apart
 * by their leading (flag, size) pair: (0, 104), (1, 44) or (2, 48) is an engine record, anything else
 * must be an `lp_metadata` header with flag 3 — when `modelRecords` allows them (only virtual-time
 * sampling writes them). Anything else is a {@link RossRecordError} naming the byte offset.
 */
export class RossStatsDecoder extends ChunkedDecoder {
  private readonly ids: EngineIds = { pe: -1, kp: -1, lp: -1 };
  private readonly valueBuffers = ENGINE_VALUE_COUNTS.map(n => new Float64Array(n));
  private readonly engineRecord: EngineRecord = {
    level: 'pe',
    pe: 0,
    kp: -1,
    lp: -1,
    virtualTime: 0,
    realTime: 0,
    values: this.valueBuffers[0]!,
    offset: 0,
  };
  private readonly modelRecord: ModelRecord = {
    lp: 0,
    kp: 0,
    pe: 0,
    virtualTime: 0,
    realTime: 0,
    payload: EMPTY,
    offset: 0,
  };
  /** Records decoded, by kind. */
  readonly counts = { pe: 0, kp: 0, lp: 0, model: 0 };

  constructor(
    private readonly sink: StatsRecordSink,
    path: string,
    private readonly options: { modelRecords?: boolean } = {},
  ) {
    super(path);
  }

  protected needed(buf: Uint8Array): number {
    if (buf.length < 8) return ENGINE_HEADER_BYTES;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const flag = engineFlag(view.getInt32(0, true), view.getInt32(4, true));
    if (flag >= 0) return ENGINE_HEADER_BYTES + ENGINE_PAYLOAD_BYTES[flag]!;
    if (buf.length < MODEL_HEADER_BYTES) return MODEL_HEADER_BYTES;
    return MODEL_HEADER_BYTES + view.getInt32(40, true);
  }

  protected decode(buf: Uint8Array, view: DataView, fileOffset: number): number {
    const end = buf.length;
    let pos = 0;
    while (end - pos >= 8) {
      const rawFlag = view.getInt32(pos, true);
      const rawSize = view.getInt32(pos + 4, true);
      const flag = flagOf(rawFlag, rawSize);
      if (flag >= 0) {
        const length = HEADER + rawSize;
        if (end - pos < length) break;
        const rec = this.engineRecord;
        const values = this.valueBuffers[flag]!;
        decodePayload(view, pos + HEADER, flag, this.ids, values);
        rec.level = LEVELS[flag]!;
        rec.pe = this.ids.pe;
        rec.kp = this.ids.kp;
        rec.lp = this.ids.lp;
        rec.virtualTime = finiteTime(view.getFloat64(pos + 8, true));
        rec.realTime = view.getFloat64(pos + 16, true);
        rec.values = values;
        rec.offset = fileOffset + pos;
        this.counts[rec.level]++;
        this.sink.engine(rec);
        pos += length;
        continue;
      }
      if (!this.options.modelRecords) throw this.unknown(fileOffset + pos, rawFlag, rawSize);
      if (end - pos < MODEL_HEADER_BYTES) break;
      const size = view.getInt32(pos + 40, true);
      const modelFlag = view.getInt32(pos + 44, true);
      if (modelFlag !== MODEL_FLAG || size <= 0 || size > MAX_MODEL_BYTES)
        throw this.unknown(fileOffset + pos, rawFlag, rawSize);
      const length = MODEL_HEADER_BYTES + size;
      if (end - pos < length) break;
      const rec = this.modelRecord;
      rec.lp = Number(view.getBigUint64(pos, true));
      rec.kp = Number(view.getBigUint64(pos + 8, true));
      rec.pe = Number(view.getBigUint64(pos + 16, true));
      rec.virtualTime = finiteTime(view.getFloat64(pos + 24, true));
      rec.realTime = view.getFloat64(pos + 32, true);
      rec.payload = buf.subarray(pos + MODEL_HEADER_BYTES, pos + length);
      rec.offset = fileOffset + pos;
      this.counts.model++;
      this.sink.model?.(rec);
      pos += length;
    }
    return pos;
  }

  private unknown(offset: number, flag: number, size: number): RossRecordError {
    const expected =
      flag >= 0 && flag <= 2
        ? ` (a ${ENGINE_LEVELS[flag]!.toUpperCase()} record has ${ENGINE_PAYLOAD_BYTES[flag]} bytes)`
        : this.options.modelRecords
          ? ' (neither an engine record nor an lp_metadata header with flag 3)'
          : ' (engine records have flag 0, 1 or 2)';
    return new RossRecordError(this.path, offset, `unknown record: flag ${flag}, size ${size}${expected}`);
  }
}

/** One traced event; reused like {@link EngineRecord}. */
export interface TracedEvent {
  src: number;
  dst: number;
  sendTime: number;
  recvTime: number;
  realTime: number;
  modelBytes: number;
  offset: number;
}

/**
 * Decodes `*-evtrace.bin`: 24-byte headers with source and destination LP, each followed by its
 * model bytes. The format has no magic or flag, so a record is taken for corrupt when its model
 * size is implausible (over 64 KiB).
 */
export class RossEventTraceDecoder extends ChunkedDecoder {
  private readonly event: TracedEvent = {
    src: 0,
    dst: 0,
    sendTime: 0,
    recvTime: 0,
    realTime: 0,
    modelBytes: 0,
    offset: 0,
  };
  /** Events decoded. */
  count = 0;

  constructor(
    private readonly onEvent: (event: TracedEvent) => void,
    path: string,
  ) {
    super(path);
  }

  protected needed(buf: Uint8Array): number {
    if (buf.length < EVENT_HEADER_BYTES) return EVENT_HEADER_BYTES;
    return EVENT_HEADER_BYTES + new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getUint32(20, true);
  }

  protected decode(buf: Uint8Array, view: DataView, fileOffset: number): number {
    const end = buf.length;
    const ev = this.event;
    let pos = 0;
    while (end - pos >= EVENT_HEADER) {
      const model = view.getUint32(pos + 20, true);
      if (model > MAX_EVENT_MODEL)
        throw new RossRecordError(
          this.path,
          fileOffset + pos,
          `implausible event record: ${model} bytes of model data`,
        );
      const length = EVENT_HEADER + model;
      if (end - pos < length) break;
      ev.src = view.getUint32(pos, true);
      ev.dst = view.getUint32(pos + 4, true);
      ev.sendTime = view.getFloat32(pos + 8, true);
      ev.recvTime = view.getFloat32(pos + 12, true);
      ev.realTime = view.getFloat32(pos + 16, true);
      ev.modelBytes = model;
      ev.offset = fileOffset + pos;
      this.count++;
      this.onEvent(ev);
      pos += length;
    }
    return pos;
  }
}

/** ROSS writes DBL_MAX for "no GVT yet / after the end"; views and JSON take it as Infinity. */
function finiteTime(t: number): number {
  return t >= DBL_MAX ? Infinity : t;
}
