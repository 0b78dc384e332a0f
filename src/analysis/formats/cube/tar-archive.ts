/**
 * A small, strict reader of tar archives held in memory (CUBE4 `.cubex` files are plain tars). It
 * handles POSIX ustar (with the name prefix field), GNU long names (`L` entries), pax `path`
 * records and old v7 headers, and checks every header's checksum and every bound, so a truncated
 * or corrupted archive is reported instead of yielding half an entry.
 */

import { CubeFormatError } from './cube-format-error';

export const TAR_BLOCK = 512;

export interface TarArchive {
  /** Regular files by name (a later entry of the same name replaces an earlier one, as tar does). */
  files: Map<string, Uint8Array>;
  /** Things tolerated, e.g. the checksum bug of Cube 4.8's writer. */
  warnings: string[];
}

const decoder = new TextDecoder('utf-8');

/** Header types that describe the next entry rather than being one: GNU long name/link, pax local/global. */
const EXTENSION_TYPES = new Set(['L', 'K', 'x', 'g']);

/** True when the block starts like a tar header with the ustar magic (POSIX `ustar\0` or GNU `ustar `). */
export function hasUstarMagic(header: Uint8Array): boolean {
  return (
    header.length >= 263 &&
    header[257] === 0x75 &&
    header[258] === 0x73 &&
    header[259] === 0x74 &&
    header[260] === 0x61 &&
    header[261] === 0x72 &&
    (header[262] === 0 || header[262] === 0x20)
  );
}

/** The NUL-terminated string of a header field. */
export function headerString(header: Uint8Array, start: number, length: number): string {
  let end = start;
  while (end < start + length && header[end] !== 0) end++;
  return decoder.decode(header.subarray(start, end));
}

/** An octal number field (NUL or space terminated), or GNU base-256 when the high bit is set; -1 if malformed. */
function numberField(header: Uint8Array, start: number, length: number): number {
  if (header[start]! & 0x80) {
    if (header[start] === 0xff) return -1; // negative base-256: never a valid size
    let n = header[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + header[i]!;
    return n;
  }
  let i = start;
  const end = start + length;
  while (i < end && header[i] === 0x20) i++;
  let n = 0;
  let digits = 0;
  for (; i < end; i++) {
    const c = header[i]!;
    if (c === 0 || c === 0x20) break;
    if (c < 0x30 || c > 0x37) return -1;
    n = n * 8 + (c - 0x30);
    digits++;
  }
  for (; i < end; i++) if (header[i] !== 0 && header[i] !== 0x20) return -1;
  return digits > 0 ? n : -1;
}

/**
 * Sums of the header bytes with the checksum field read as spaces, unsigned and signed (old tars).
 * Four bytes a step where the header is 4-byte aligned (it is in a file read whole): a fresh process
 * runs this in the interpreter, where a loop over 512 bytes cost ~30 µs a header, 3× the word loop.
 * The byte pairs add up in two 16-bit lanes (at most 2 × 255 × 128 each) and the high bits in four
 * 8-bit lanes (at most 128 each), so no lane overflows.
 */
export function checksums(header: Uint8Array): [number, number] {
  if (header.byteOffset % 4 !== 0) return checksumsByByte(header);
  const words = new Uint32Array(header.buffer, header.byteOffset, TAR_BLOCK / 4);
  let pairs = 0;
  let high = 0;
  for (let k = 0; k < TAR_BLOCK / 4; k++) {
    if (k === CHECKSUM_WORD) {
      k++; // the checksum field, bytes 148-155, is words 37 and 38
      continue;
    }
    const w = words[k]!;
    pairs += (w & 0x00ff00ff) + ((w >>> 8) & 0x00ff00ff);
    high += (w >>> 7) & 0x01010101;
  }
  const unsigned = (pairs & 0xffff) + (pairs >>> 16) + 8 * 0x20;
  const highBytes = (high & 0xff) + ((high >>> 8) & 0xff) + ((high >>> 16) & 0xff) + (high >>> 24);
  return [unsigned, unsigned - 256 * highBytes];
}

const CHECKSUM_WORD = 148 / 4;

/** {@link checksums} a byte at a time, for a header that is not 4-byte aligned. */
export function checksumsByByte(header: Uint8Array): [number, number] {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < TAR_BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return [unsigned, signed];
}

function isZeroBlock(block: Uint8Array): boolean {
  for (let i = 0; i < TAR_BLOCK; i++) if (block[i] !== 0) return false;
  return true;
}

/** The `path` record of a pax extended header (`<length> <key>=<value>\n` records), or null. */
function paxPath(data: Uint8Array): string | null {
  let path: string | null = null;
  let i = 0;
  while (i < data.length) {
    let j = i;
    while (j < data.length && data[j] !== 0x20) j++;
    const length = Number(decoder.decode(data.subarray(i, j)));
    if (!Number.isInteger(length) || length <= 0 || i + length > data.length)
      throw new CubeFormatError('a pax extended header has a malformed record');
    const record = decoder.decode(data.subarray(j + 1, i + length - 1));
    const eq = record.indexOf('=');
    if (eq > 0 && record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    i += length;
  }
  return path;
}

/**
 * Lists the regular files of a tar archive. Every header's checksum is verified; an archive whose
 * headers are all wrong in the same way (Cube 4.8's writer computed them wrongly) is read with a
 * warning, but a single bad header among good ones is corruption. The archive must end with the
 * end-of-archive marker, so truncation at an entry boundary is caught too.
 */
export function readTarArchive(bytes: Uint8Array): TarArchive {
  const files = new Map<string, Uint8Array>();
  const warnings: string[] = [];
  let offset = 0;
  let entry = 0;
  let longName: string | null = null;
  let paxName: string | null = null;
  let badChecksums = 0;
  let firstBad = '';
  for (;;) {
    if (offset + TAR_BLOCK > bytes.length) {
      if (entry === 0 && offset === 0)
        throw new CubeFormatError(
          `the file is too short to be a tar archive (${bytes.length} bytes, a header alone has ${TAR_BLOCK})`,
        );
      throw new CubeFormatError(
        offset === bytes.length
          ? `the archive is truncated: it ends after ${entry} entries without the end-of-archive marker`
          : `the archive is truncated: the header of entry ${entry + 1} at byte ${offset} is cut off`,
      );
    }
    const header = bytes.subarray(offset, offset + TAR_BLOCK);
    if (isZeroBlock(header)) break;
    entry++;
    const rawName = headerString(header, 0, 100);
    const where = `entry ${entry} ("${rawName}") at byte ${offset}`;
    const stored = numberField(header, 148, 8);
    const [unsigned, signed] = checksums(header);
    const checksumOk = stored === unsigned || stored === signed;
    if (!checksumOk) {
      if (badChecksums < entry - 1)
        throw new CubeFormatError(
          `the tar header of ${where} has a bad checksum (stored ${stored}, computed ${unsigned}): the archive is corrupt`,
        );
      if (!hasUstarMagic(header))
        throw new CubeFormatError(`${where} is not a tar header (bad checksum and no ustar magic)`);
      if (badChecksums++ === 0) firstBad = `${where} has a bad checksum (stored ${stored}, computed ${unsigned})`;
    } else if (badChecksums > 0) {
      throw new CubeFormatError(
        `the tar header of ${firstBad} while later headers are correct: the archive is corrupt`,
      );
    }
    const size = numberField(header, 124, 12);
    if (size < 0) throw new CubeFormatError(`the tar header of ${where} has a malformed size field`);
    const start = offset + TAR_BLOCK;
    if (start + size > bytes.length) {
      throw new CubeFormatError(
        `the archive is truncated: ${where} holds ${size} bytes but only ${bytes.length - start} follow`,
      );
    }
    const data = bytes.subarray(start, start + size);
    const type = String.fromCharCode(header[156]!);
    if (type === 'L') {
      longName = headerString(data, 0, data.length);
    } else if (type === 'x') {
      paxName = paxPath(data);
    } else if (type === '0' || type === '\0' || type === '7') {
      let name = rawName;
      const prefix = hasUstarMagic(header) && header[262] === 0 ? headerString(header, 345, 155) : '';
      if (prefix) name = `${prefix}/${name}`;
      name = paxName ?? longName ?? name;
      files.set(name.replace(/^(\.\/)+/, ''), data);
    }
    // Long-name and pax records apply to the next real entry only.
    if (!EXTENSION_TYPES.has(type)) {
      longName = null;
      paxName = null;
    }
    offset = start + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  if (badChecksums > 0) {
    warnings.push(
      `every tar header has a wrong checksum (a known bug of the Cube 4.8 writer); the archive was read anyway`,
    );
  }
  return { files, warnings };
}
