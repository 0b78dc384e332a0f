import {
  ENGINE_HEADER_BYTES,
  ENGINE_PAYLOAD_BYTES,
  encodeEnginePayload,
  EVENT_HEADER_BYTES,
  MODEL_FLAG,
  MODEL_HEADER_BYTES,
  type EngineIds,
} from './record-layouts';

/**
 * Writes ROSS instrumentation records byte for byte as ROSS does (the layouts of
 * `record-layouts.ts`), for the seeded generator and for tests. Records accumulate in growing
 * buffers; {@link bytes} returns what was written.
 */
export class RossRecordWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private length = 0;

  get byteLength(): number {
    return this.length;
  }

  /** An engine record: flag 0 (PE), 1 (KP) or 2 (LP); `values` in the level's metric order. */
  engine(flag: 0 | 1 | 2, ids: EngineIds, virtualTime: number, realTime: number, values: ArrayLike<number>): this {
    const size = ENGINE_PAYLOAD_BYTES[flag]!;
    const at = this.reserve(ENGINE_HEADER_BYTES + size);
    this.view.setInt32(at, flag, true);
    this.view.setInt32(at + 4, size, true);
    this.view.setFloat64(at + 8, virtualTime === Infinity ? Number.MAX_VALUE : virtualTime, true);
    this.view.setFloat64(at + 16, realTime, true);
    encodeEnginePayload(this.view, at + ENGINE_HEADER_BYTES, flag, ids, values);
    return this;
  }

  /** A model record: `lp_metadata` and the model's payload. */
  model(lp: number, kp: number, pe: number, virtualTime: number, realTime: number, payload: Uint8Array): this {
    const at = this.reserve(MODEL_HEADER_BYTES + payload.length);
    this.view.setBigUint64(at, BigInt(lp), true);
    this.view.setBigUint64(at + 8, BigInt(kp), true);
    this.view.setBigUint64(at + 16, BigInt(pe), true);
    this.view.setFloat64(at + 24, virtualTime, true);
    this.view.setFloat64(at + 32, realTime, true);
    this.view.setInt32(at + 40, payload.length, true);
    this.view.setInt32(at + 44, MODEL_FLAG, true);
    this.buf.set(payload, at + MODEL_HEADER_BYTES);
    return this;
  }

  /** An event-trace record and its model bytes. */
  event(
    src: number,
    dst: number,
    sendTime: number,
    recvTime: number,
    realTime: number,
    model: Uint8Array = EMPTY,
  ): this {
    const at = this.reserve(EVENT_HEADER_BYTES + model.length);
    this.view.setUint32(at, src, true);
    this.view.setUint32(at + 4, dst, true);
    this.view.setFloat32(at + 8, sendTime, true);
    this.view.setFloat32(at + 12, recvTime, true);
    this.view.setFloat32(at + 16, realTime, true);
    this.view.setUint32(at + 20, model.length, true);
    this.buf.set(model, at + EVENT_HEADER_BYTES);
    return this;
  }

  /** Raw bytes (for corrupt-input tests). */
  raw(bytes: Uint8Array): this {
    this.buf.set(bytes, this.reserve(bytes.length));
    return this;
  }

  /** The bytes written so far (a copy). */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  private reserve(n: number): number {
    if (this.length + n > this.buf.length) {
      let cap = this.buf.length * 2;
      while (cap < this.length + n) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }
}

const EMPTY = new Uint8Array(0);
