/**
 * Reading OTF2's elementary encodings from one buffer chunk (OTF2's `OTF2_Buffer` layer):
 * `u8`, compressed unsigned integers (a length byte 0–8 followed by that many bytes of the value in
 * the file's byte order; 0x00 means 0 and 0xff the type's maximum), full-width integers, doubles
 * and NUL-terminated strings. Every read is bounds-checked against the record's end so that a
 * damaged file ends in a clear error, never in garbage or an exception from the typed arrays.
 */
export class Otf2FormatError extends Error {}

const TWO_32 = 4294967296;
const utf8 = new TextDecoder('utf-8');
const SCRATCH = new DataView(new ArrayBuffer(8));

export class Otf2Cursor {
  pos = 0;
  /** Reads must stay below this offset (the end of the current record or chunk). */
  end: number;
  /** High and low 32-bit words of the last `u64Parts`/`fullU64Parts` read (exact 64-bit values). */
  hi = 0;
  lo = 0;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    public littleEndian = true,
  ) {
    this.end = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  fail(what: string): never {
    throw new Otf2FormatError(`${what} at byte ${this.pos} of a ${this.bytes.length}-byte chunk`);
  }

  need(n: number, what: string): void {
    if (this.pos + n > this.end) this.fail(`truncated ${what}`);
  }

  u8(): number {
    if (this.pos >= this.end) this.fail('truncated record');
    return this.bytes[this.pos++]!;
  }

  /** A compressed unsigned integer as a number (exact below 2^53; the all-ones value is -1). */
  u64(): number {
    this.u64Parts();
    if (this.hi === 0xffffffff && this.lo === 0xffffffff) return -1;
    return this.hi * TWO_32 + this.lo;
  }

  /** A compressed 32-bit reference; OTF2_UNDEFINED_UINT32 (all ones) becomes -1. */
  u32(): number {
    const v = this.u64();
    return v === 0xffffffff ? -1 : v;
  }

  /** A compressed signed 64-bit integer (two's complement in the compressed bytes). */
  i64(): number {
    this.u64Parts();
    return this.hi >= 0x80000000 ? (this.hi - TWO_32) * TWO_32 + this.lo : this.hi * TWO_32 + this.lo;
  }

  /** A compressed unsigned 64-bit integer into `hi`/`lo`. */
  u64Parts(): void {
    const size = this.u8();
    if (size === 0) {
      this.hi = 0;
      this.lo = 0;
      return;
    }
    if (size === 0xff) {
      this.hi = 0xffffffff;
      this.lo = 0xffffffff;
      return;
    }
    if (size > 8) this.fail(`invalid compressed-integer length ${size}`);
    this.need(size, 'compressed integer');
    const b = this.bytes,
      p = this.pos;
    let hi = 0,
      lo = 0;
    // Little endian stores the low bytes first; big endian the low `size` bytes of the big-endian form.
    for (let k = 0; k < size; k++) {
      const byte = this.littleEndian ? b[p + k]! : b[p + size - 1 - k]!;
      if (k < 4) lo += byte * 2 ** (8 * k);
      else hi += byte * 2 ** (8 * (k - 4));
    }
    this.hi = hi;
    this.lo = lo;
    this.pos = p + size;
  }

  /** A full-width (uncompressed) unsigned 64-bit integer into `hi`/`lo`. */
  fullU64Parts(): void {
    this.need(8, '64-bit value');
    const v = this.view,
      p = this.pos;
    if (this.littleEndian) {
      this.lo = v.getUint32(p, true);
      this.hi = v.getUint32(p + 4, true);
    } else {
      this.hi = v.getUint32(p, false);
      this.lo = v.getUint32(p + 4, false);
    }
    this.pos = p + 8;
  }

  fullU64(): number {
    this.fullU64Parts();
    return this.hi * TWO_32 + this.lo;
  }

  fullU32(): number {
    this.need(4, '32-bit value');
    const v = this.view.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8, 'double');
    const v = this.view.getFloat64(this.pos, this.littleEndian);
    this.pos += 8;
    return v;
  }

  /** The double whose bit pattern is in `hi`/`lo` (metric values are stored as compressed bits). */
  partsAsDouble(): number {
    SCRATCH.setUint32(0, this.hi);
    SCRATCH.setUint32(4, this.lo);
    return SCRATCH.getFloat64(0);
  }

  string(): string {
    const b = this.bytes;
    let q = this.pos;
    while (q < this.end && b[q] !== 0) q++;
    if (q >= this.end) this.fail('unterminated string');
    const s = utf8.decode(b.subarray(this.pos, q));
    this.pos = q + 1;
    return s;
  }
}
