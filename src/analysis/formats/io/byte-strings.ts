/**
 * Turning bytes into strings fast, for the byte-level tokenizers (JSON, XML): most of their time
 * goes into making strings, so the short ones go through `String.fromCharCode` or a byte-keyed
 * cache instead of a call into the native decoder.
 */

/** Node's Buffer has fast (undocumented but long-stable) slice decoders; fall back when absent. */
export interface FastBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const hasFastSlices =
  typeof (Buffer.prototype as Partial<FastBuffer>).latin1Slice === 'function' &&
  typeof (Buffer.prototype as Partial<FastBuffer>).utf8Slice === 'function';

const fromCharCode = String.fromCharCode;

export function asFastBuffer(chunk: Uint8Array): FastBuffer {
  return (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)) as FastBuffer;
}

/**
 * Latin-1 (here: ASCII) decode of `buf[start, end)`. Up to 8 bytes, `String.fromCharCode` with a
 * fixed number of arguments is about 5× faster than a call into the native slice decoder.
 */
export function latin1(buf: FastBuffer, start: number, end: number): string {
  const b = buf;
  const a = start;
  switch (end - start) {
    case 0:
      return '';
    case 1:
      return fromCharCode(b[a]!);
    case 2:
      return fromCharCode(b[a]!, b[a + 1]!);
    case 3:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!);
    case 4:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!);
    case 5:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!);
    case 6:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!);
    case 7:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!, b[a + 6]!);
    case 8:
      return fromCharCode(b[a]!, b[a + 1]!, b[a + 2]!, b[a + 3]!, b[a + 4]!, b[a + 5]!, b[a + 6]!, b[a + 7]!);
  }
  if (end - start <= 16) return latin1(buf, start, start + 8) + latin1(buf, start + 8, end);
  return hasFastSlices ? buf.latin1Slice(start, end) : buf.toString('latin1', start, end);
}

/** UTF-8 decode of `buf[start, end)`, replacing invalid sequences by U+FFFD like `TextDecoder`, keeping a BOM. */
export function utf8(buf: FastBuffer, start: number, end: number): string {
  return hasFastSlices ? buf.utf8Slice(start, end) : buf.toString('utf8', start, end);
}

/** Hex digit values, -1 for other bytes. */
export const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) HEX[0x41 + c] = HEX[0x61 + c] = 10 + c;

/**
 * Byte-keyed cache of decoded short strings (keys, names, enum-like values), shared by every
 * tokenizer of this isolate: a hit costs a hash and a compare, and no allocation.
 */
export const CACHE_MAX_LEN = 32;
const CACHE_SIZE = 4096;
const CACHE_MASK = CACHE_SIZE - 1;
const cacheStrings: string[] = new Array<string>(CACHE_SIZE).fill('');
const cacheLengths = new Uint8Array(CACHE_SIZE);
const cacheBytes = new Uint8Array(CACHE_SIZE * CACHE_MAX_LEN);

/**
 * Decodes the escape-free `buf[start, end)` (1..CACHE_MAX_LEN bytes) through the cache. `ascii`
 * says the bytes are all below 0x80 when the caller knows; otherwise it is found out here.
 */
export function cachedString(buf: FastBuffer, start: number, end: number, ascii?: boolean): string {
  const len = end - start;
  let h = len;
  let high = 0;
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    high |= c;
    h = Math.imul(h ^ c, 0x01000193);
  }
  h ^= h >>> 15;
  const slot = h & CACHE_MASK;
  const base = slot * CACHE_MAX_LEN;
  if (cacheLengths[slot] === len) {
    let k = 0;
    while (k < len && cacheBytes[base + k] === buf[start + k]) k++;
    if (k === len) return cacheStrings[slot]!;
  }
  const s = (ascii ?? high < 0x80) ? latin1(buf, start, end) : utf8(buf, start, end);
  cacheLengths[slot] = len;
  cacheStrings[slot] = s;
  for (let k = 0; k < len; k++) cacheBytes[base + k] = buf[start + k]!;
  return s;
}
