import { asFastBuffer, utf8, type FastBuffer } from '../io/byte-strings';
import { ProfileReadError } from '../reader';

/**
 * One `*.db` file of an HPCToolkit v4 database held in memory, with little-endian accessors that
 * check every offset against the file size. Every problem ends in a ProfileReadError naming the
 * file and what is wrong (the formats are binary: a bad pointer must never become a RangeError).
 *
 * Common header (FORMATS.md, "Common file structure"): `HPCTOOLKIT`, a 4-byte format tag, u8 major
 * (4), u8 minor, then `{u64 size, u64 pointer}` per section from 0x10; an 8-byte footer ends the file.
 */

export const MAGIC = 'HPCTOOLKIT';
const SUPPORTED_MAJOR_VERSION = 4;

/** The format tag at 0x0a and the footer of each file of a v4 database. */
export const DB_FORMATS = {
  meta: { tag: 'meta', footer: '_meta.db' },
  profile: { tag: 'prof', footer: '_prof.db' },
  cct: { tag: 'ctxt', footer: '__ctx.db' },
  trace: { tag: 'trce', footer: 'trace.db' },
} as const;
export type DbFormat = keyof typeof DB_FORMATS;

export interface Section {
  name: string;
  offset: number;
  size: number;
}

const TWO_32 = 2 ** 32;

/** Whether this machine stores numbers little-endian, as the database files do. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

export class DbFile {
  readonly view: DataView;
  readonly size: number;
  readonly minorVersion: number;
  readonly sections: readonly Section[];
  /** `bytes` as a Buffer, made on the first string read. */
  private fast: FastBuffer | null = null;
  private wordView: Uint32Array | null = null;
  private halfView: Uint16Array | null = null;

  /** Validates the common header and footer; `sectionNames` are the sections this reader needs, in header order. */
  constructor(
    readonly path: string,
    readonly bytes: Uint8Array,
    format: DbFormat,
    sectionNames: readonly string[],
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.size = bytes.byteLength;
    const { tag, footer } = DB_FORMATS[format];
    const headerSize = 0x10 + 0x10 * sectionNames.length;
    if (this.size < MAGIC.length || this.ascii(0, MAGIC.length) !== MAGIC) {
      throw this.error(`not an HPCToolkit database file (the magic "${MAGIC}" is missing)`);
    }
    if (this.size < 0x10)
      throw this.error(`the file is truncated: ${this.size} bytes, shorter than the 16-byte header`);
    const actualTag = this.ascii(0x0a, 4);
    if (actualTag !== tag)
      throw this.error(`wrong file type: the header says "${printable(actualTag)}", expected "${tag}"`);
    const major = this.bytes[0x0e]!;
    this.minorVersion = this.bytes[0x0f]!;
    if (major !== SUPPORTED_MAJOR_VERSION) {
      throw this.error(
        `unsupported format version ${major}.${this.minorVersion} (HPC Lens reads version ${SUPPORTED_MAJOR_VERSION}.x)`,
      );
    }
    if (this.size < headerSize + footer.length)
      throw this.error(
        `the file is truncated: ${this.size} bytes, too short for its ${headerSize}-byte header and footer`,
      );
    const actualFooter = this.ascii(this.size - footer.length, footer.length);
    if (actualFooter !== footer)
      throw this.error(`the file is truncated or damaged: it does not end with the footer "${footer}"`);
    this.sections = sectionNames.map((name, i) => {
      const size = this.u64(0x10 + 0x10 * i);
      const offset = this.u64(0x18 + 0x10 * i);
      if (offset + size > this.size) {
        throw this.error(
          `the ${name} section (${size} bytes at offset ${offset}) extends past the end of the file (${this.size} bytes)`,
        );
      }
      return { name, offset, size };
    });
  }

  error(reason: string): ProfileReadError {
    return new ProfileReadError(this.path, reason);
  }

  /** Checks that `count` records of `stride` bytes at `offset` lie inside `within` (default: the file). */
  checkRange(offset: number, count: number, stride: number, what: string, within?: Section): void {
    const lo = within ? within.offset : 0;
    const hi = within ? within.offset + within.size : this.size;
    const end = offset + count * stride;
    if (!(offset >= lo && end <= hi && Number.isSafeInteger(end))) {
      const where = within ? `the ${within.name} section (offsets ${lo}–${hi})` : `the file (${this.size} bytes)`;
      throw this.error(`${what} (${count} × ${stride} bytes at offset ${offset}) lies outside ${where}`);
    }
  }

  /**
   * The array of fixed-size structures a section opens with (format 4.0's common header: u64 pointer,
   * u32 count, u8 structure size), checked to lie in the file: `what` names the structures in
   * errors, `minSize` is their size in format 4.0 and `headerSize` the section's header.
   */
  structArray(
    section: Section,
    what: string,
    minSize: number,
    headerSize = 0x0d,
  ): { pointer: number; count: number; size: number } {
    if (section.size < headerSize)
      throw this.error(
        `the ${section.name} section is ${section.size} bytes, too small for its ${headerSize}-byte header`,
      );
    const pointer = this.u64(section.offset);
    const count = this.u32(section.offset + 0x08);
    const size = this.u8(section.offset + 0x0c);
    if (count > 0 && size < minSize)
      throw this.error(`the ${what} are ${size} bytes, smaller than the ${minSize} bytes of format 4.0`);
    this.checkRange(pointer, count, size, `the ${what}`, section);
    return { pointer, count, size };
  }

  u8(offset: number): number {
    this.check(offset, 1);
    return this.bytes[offset]!;
  }
  u16(offset: number): number {
    this.check(offset, 2);
    return this.view.getUint16(offset, true);
  }
  u32(offset: number): number {
    this.check(offset, 4);
    return this.view.getUint32(offset, true);
  }

  /**
   * A u64 as a number. Pointers, sizes and counts beyond 2^53 cannot address a real file; they come
   * out as large numbers (no longer exact) and fail the next bounds check.
   */
  u64(offset: number): number {
    this.check(offset, 8);
    const high = this.view.getUint32(offset + 4, true);
    const low = this.view.getUint32(offset, true);
    // A pointer below 2^32 stays a small integer: arithmetic on it and DataView reads at it skip the
    // conversion of a heap number (a call per read in code V8 has not optimised yet).
    return high === 0 ? low : low + high * TWO_32;
  }

  /**
   * The file as little-endian 32-bit words (word k is bytes 4k…4k+3), made on first use, so a record's
   * fields are element loads rather than a DataView call each (what a cold process pays most for).
   * A view of the bytes where the host is little-endian and they are 4-byte aligned; else a copy read
   * word by word (a big-endian host reads the same numbers).
   */
  get words(): Uint32Array {
    return (this.wordView ??= leWords(this.bytes, this.view, 4) as Uint32Array);
  }

  /** The file as little-endian 16-bit words (see {@link words}). */
  get halves(): Uint16Array {
    return (this.halfView ??= leWords(this.bytes, this.view, 2) as Uint16Array);
  }

  /** A u64 that must be exact (e.g. an instruction offset). */
  bigU64(offset: number): bigint {
    this.check(offset, 8);
    return this.view.getBigUint64(offset, true);
  }

  /**
   * The NUL-terminated UTF-8 string at `offset`. `what` names it in errors, followed by `index` when
   * given: the name of the thousandth function is only spelled out when it is wrong, not for every
   * function a cold process reads.
   */
  cString(offset: number, what: string, index?: number): string {
    if (!(offset > 0 && offset < this.size))
      throw this.error(`${named(what, index)}: string pointer ${offset} lies outside the file (${this.size} bytes)`);
    const end = this.bytes.indexOf(0, offset);
    if (end < 0)
      throw this.error(
        `${named(what, index)}: the string at offset ${offset} has no terminating NUL before the end of the file`,
      );
    // TextDecoder's reading (one leading byte order mark is not text; bad sequences become U+FFFD),
    // through Buffer's native slice: no view object and no decoder call per string.
    const b = this.bytes;
    const start = b[offset] === 0xef && b[offset + 1] === 0xbb && b[offset + 2] === 0xbf ? offset + 3 : offset;
    return utf8((this.fast ??= asFastBuffer(b)), Math.min(start, end), end);
  }

  private ascii(offset: number, length: number): string {
    return String.fromCharCode(...this.bytes.subarray(offset, offset + length));
  }

  private check(offset: number, width: number): void {
    if (!(offset >= 0 && offset + width <= this.size)) {
      throw this.error(
        `read of ${width} bytes at offset ${offset} lies outside the file (${this.size} bytes): the file is truncated or a pointer is corrupt`,
      );
    }
  }
}

/** The little-endian u64 at 32-bit word `w` of {@link DbFile.words} as a number (as DbFile.u64, for offsets already checked). */
export function u64Word(words: Uint32Array, w: number): number {
  const high = words[w + 1]!;
  return high === 0 ? words[w]! : words[w]! + high * TWO_32;
}

function leWords(bytes: Uint8Array, view: DataView, width: 2 | 4): Uint16Array | Uint32Array {
  const count = Math.floor(bytes.byteLength / width);
  if (HOST_LITTLE_ENDIAN && bytes.byteOffset % width === 0)
    return width === 4
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, count)
      : new Uint16Array(bytes.buffer, bytes.byteOffset, count);
  const out = width === 4 ? new Uint32Array(count) : new Uint16Array(count);
  for (let k = 0; k < count; k++) out[k] = width === 4 ? view.getUint32(4 * k, true) : view.getUint16(2 * k, true);
  return out;
}

/** `what`, or `what index` (see DbFile.cString). */
export function named(what: string, index?: number): string {
  return index === undefined ? what : `${what} ${index}`;
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, c => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** True when `head` (the start of a file, decoded as text) is the header of a v4 `meta.db`. */
export function isMetaDbHead(head: string): boolean {
  return head.startsWith(MAGIC + DB_FORMATS.meta.tag);
}
