import { closeSync, createReadStream, fstatSync, openSync, promises, readFileSync, readSync, statSync } from 'node:fs';
import { DECOMPRESSION_RATIO_FLOOR, DEFAULT_INPUT_LIMITS, ProfileReadError, type InputLimits } from '../reader';
import { fromFileSystemError } from './fs-errors';
import { zlib } from './zlib';

/** Options shared by every way of reading an input file. */
export interface InputOptions {
  /** Checked between chunks; when aborted the read rejects with an Error named 'AbortError'. */
  signal?: AbortSignal;
  /** Fraction of the file consumed so far, in [0, 1] (compressed bytes for gzip files). */
  onProgress?: (fraction: number) => void;
  /** Bytes per read (default 1 MiB). */
  chunkSize?: number;
  /** Bounds on line length and decompression (defaults: DEFAULT_INPUT_LIMITS); readers pass ReadOptions.limits on. */
  limits?: InputLimits;
}

/** `n` bytes as a limit is stated in messages: `16 MiB`, `8 GiB`, `1500 bytes`. */
export function describeByteLimit(n: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (n >= size) return `${Number((n / size).toFixed(n % size ? 1 : 0))} ${unit}`;
  return `${n} bytes`;
}

/** The most bytes a gzip file of `compressedSize` bytes may decompress to under `limits`. */
export function decompressedByteLimit(compressedSize: number, limits: InputLimits = {}): number {
  const cap = limits.maxDecompressedBytes ?? DEFAULT_INPUT_LIMITS.maxDecompressedBytes;
  const ratio = limits.maxDecompressionRatio ?? DEFAULT_INPUT_LIMITS.maxDecompressionRatio;
  return Math.min(cap, Math.max(DECOMPRESSION_RATIO_FLOOR, ratio * compressedSize));
}

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

function abortError(path: string, signal: AbortSignal): Error {
  const err = new Error(`${path}: the operation was cancelled`, { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

async function firstBytes(path: string, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of createReadStream(path, { start: 0, end: n - 1 })) {
    chunks.push(c as Buffer);
    got += (c as Buffer).length;
  }
  return Buffer.concat(chunks, got);
}

/**
 * The whole file when it is at most `limit` bytes, else null. Reading a small file synchronously
 * costs microseconds, while each asynchronous fs call is a thread-pool round trip (~50 µs): for the
 * many small profiles users open, those round trips would dominate the read time.
 */
export function readSmallFile(path: string, limit: number): Buffer | null {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > limit) return null;
    const out = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, out, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return out.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole file decoded as UTF-8 when it is at most `limit` bytes, else null. One stat and one
 * `readFileSync(path, 'utf8')`, which reads and decodes in native code: in a fresh process a third
 * of the cost of open, fstat, read, close and `Buffer.toString`, whose first calls each run cold.
 * The text is what `Buffer.toString('utf8')` gives for the same bytes (a byte-order mark is kept;
 * invalid bytes become U+FFFD). A gzip file starts with U+001F U+FFFD ({@link startsLikeGzip}).
 * Null for anything but a regular file.
 */
export function readSmallText(path: string, limit: number): string | null {
  const st = statSync(path);
  // A device or pipe has no size to trust (/dev/zero would be read without end).
  if (!st.isFile() || st.size > limit) return null;
  const text = readFileSync(path, 'utf8');
  // The file may have grown since the stat; at least one byte per character.
  return text.length > limit ? null : text;
}

/** True when `text` may be gzip bytes decoded as UTF-8 (0x1f, then 0x8b, which is no UTF-8 lead byte). */
export function startsLikeGzip(text: string): boolean {
  return text.charCodeAt(0) === GZIP_MAGIC_0 && text.charCodeAt(1) === 0xfffd;
}

/**
 * The bytes of a file in chunks, gunzipped transparently when the file is gzip-compressed (by
 * content, not by name). Memory stays bounded by the chunk size. A truncated or corrupt gzip stream
 * ends in a ProfileReadError naming the file.
 */
export async function* readChunks(path: string, options: InputOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortError(path, signal);
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 1 << 20));
  let small: Buffer | null, total: number, gzip: boolean;
  try {
    small = readSmallFile(path, chunkSize);
    if (small && !isGzip(small)) {
      if (small.length) yield small;
      onProgress?.(1);
      return;
    }
    total = (await promises.stat(path)).size;
    gzip = total >= 2 && isGzip(await firstBytes(path, 2));
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
  const file = createReadStream(path, { highWaterMark: chunkSize });
  let consumed = 0;
  file.on('data', c => {
    consumed += (c as Buffer).length;
  });
  const source = gzip ? file.pipe(zlib().createGunzip({ chunkSize: Math.max(64, chunkSize) })) : file;
  if (gzip) file.on('error', e => source.destroy(e));
  // A decompression bomb (a few MB expanding to terabytes) stops at the limit with a clear error.
  const maxOutput = gzip ? decompressedByteLimit(total, options.limits) : Infinity;
  let produced = 0;
  try {
    for await (const chunk of source) {
      if (signal?.aborted) throw abortError(path, signal);
      produced += (chunk as Buffer).length;
      if (produced > maxOutput) throw decompressionError(path, total, maxOutput, options.limits);
      yield chunk as Buffer;
      onProgress?.(total ? consumed / total : 1);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (gzip && typeof code === 'string' && code.startsWith('Z_')) {
      throw new ProfileReadError(path, `the gzip data is truncated or corrupt (${(e as Error).message})`, { cause: e });
    }
    throw fromFileSystemError(e, path);
  } finally {
    file.destroy();
    if (source !== file) source.destroy();
  }
}

function decompressionError(path: string, compressed: number, limit: number, limits: InputLimits = {}): Error {
  const cap = limits.maxDecompressedBytes ?? DEFAULT_INPUT_LIMITS.maxDecompressedBytes;
  const ratio = limits.maxDecompressionRatio ?? DEFAULT_INPUT_LIMITS.maxDecompressionRatio;
  const which =
    limit >= cap
      ? `the limit maxDecompressedBytes`
      : `${ratio}× its ${describeByteLimit(compressed)} of compressed data (the limit maxDecompressionRatio; a decompression bomb?)`;
  return new ProfileReadError(path, `the gzip data decompresses to more than ${describeByteLimit(limit)}, ${which}`);
}

/** Files up to this size are read whole by {@link readSmallFileLines} (one chunk of {@link forEachLine}). */
const WHOLE_FILE_LINES_BYTES = 1 << 20;

/**
 * The lines of a small plain file exactly as {@link forEachLine} gives them (split on '\n' with a
 * '\r' before it dropped, a leading byte-order mark dropped as its decoder does, no empty last line
 * after a final newline), read at once by {@link readSmallText}: in a fresh process this spares the
 * line reader's first TextDecoder and its asynchronous chunks. Null when {@link forEachLine} must
 * read the file: larger than 1 MiB or than `limits.maxLineLength`, gzip, not openable (it reports
 * why), a cancelled read, or bytes that are not valid UTF-8 (the two decoders may replace them
 * differently). Calls `onProgress(1)` as the line reader does for a file in one chunk.
 */
export function readSmallFileLines(path: string, options: InputOptions = {}): string[] | null {
  if (options.signal?.aborted) return null;
  let text: string | null;
  try {
    text = readSmallText(path, Math.min(WHOLE_FILE_LINES_BYTES, options.limits?.maxLineLength ?? Infinity));
  } catch {
    return null;
  }
  // Gzip (U+001F U+FFFD) and invalid UTF-8 alike.
  if (text === null || text.includes('\uFFFD')) return null;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.charCodeAt(line.length - 1) === 13) lines[k] = line.slice(0, -1);
  }
  options.onProgress?.(1);
  return lines;
}

/**
 * Calls `onLine` for every line of a text file (gzip or not), without the line terminator (`\n` or
 * `\r\n`); line numbers are 1-based. UTF-8 is decoded across chunk boundaries. Linear in the input:
 * the pieces of a line that spans chunks are joined once, when its end arrives, and a line longer
 * than `limits.maxLineLength` (default 16 MiB) is a ProfileReadError naming the line, before it is
 * ever built.
 */
export async function forEachLine(
  path: string,
  onLine: (line: string, lineNumber: number) => void,
  options: InputOptions = {},
): Promise<void> {
  const maxLength = options.limits?.maxLineLength ?? DEFAULT_INPUT_LIMITS.maxLineLength;
  const decoder = new TextDecoder('utf-8');
  // The start of the current line, in pieces from earlier chunks.
  const pieces: string[] = [];
  let pending = 0;
  let lineNumber = 0;
  const tooLong = () =>
    new ProfileReadError(
      path,
      `line ${lineNumber + 1} is longer than ${describeByteLimit(maxLength)}, the longest line HPC Lens reads (the limit maxLineLength)`,
    );
  const emit = (line: string) => {
    onLine(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line, ++lineNumber);
  };
  const feed = (text: string) => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      if (pending + nl - start > maxLength) throw tooLong();
      if (pieces.length) {
        pieces.push(text.slice(start, nl));
        emit(pieces.join(''));
        pieces.length = 0;
        pending = 0;
      } else emit(text.slice(start, nl));
      start = nl + 1;
    }
    if (start < text.length) {
      pending += text.length - start;
      if (pending > maxLength) throw tooLong();
      pieces.push(start ? text.slice(start) : text);
    }
  };
  for await (const chunk of readChunks(path, options)) feed(decoder.decode(chunk, { stream: true }));
  feed(decoder.decode());
  if (pieces.length) emit(pieces.join(''));
}

/**
 * The whole (gunzipped) content of a binary file, for formats that need random access (HPCToolkit
 * databases, CUBE). Binary buffers are not strings, so V8's string limit does not apply; the size is
 * bounded by `maxBytes` (a format's own bound) and `limits.maxWholeFileBytes` (default 2 GiB), the
 * smaller of the two, with a clear error instead of an allocation failure or a swapping machine.
 */
export async function readBytes(path: string, options: InputOptions & { maxBytes?: number } = {}): Promise<Buffer> {
  const wholeFile = options.limits?.maxWholeFileBytes ?? DEFAULT_INPUT_LIMITS.maxWholeFileBytes;
  const maxBytes = Math.min(options.maxBytes ?? Infinity, wholeFile);
  const tooLarge = () =>
    new ProfileReadError(
      path,
      `the file is larger than ${describeByteLimit(maxBytes)}, ${
        maxBytes < wholeFile
          ? 'the limit for this kind of file'
          : 'the most HPC Lens reads into memory at once (the limit maxWholeFileBytes)'
      }`,
    );
  if (options.signal?.aborted) throw abortError(path, options.signal);
  // A small plain file (most files of a database): one synchronous read into a buffer of its size.
  let small: Buffer | null;
  try {
    small = readSmallFile(path, Math.floor(options.chunkSize ?? 1 << 20));
  } catch (e) {
    throw fromFileSystemError(e, path);
  }
  if (small && !isGzip(small)) {
    if (small.length > maxBytes) throw tooLarge();
    options.onProgress?.(1);
    return small;
  }
  // A plain file's size is known: refuse it before reading, and read it into one buffer of that
  // size (collecting chunks and concatenating them would need twice the memory at the end).
  const plainSize = plainFileSize(path);
  if (plainSize > maxBytes) throw tooLarge();
  let out = plainSize >= 0 ? Buffer.allocUnsafe(plainSize) : null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of readChunks(path, options)) {
    if (size + chunk.length > maxBytes) throw tooLarge();
    if (out && size + chunk.length <= out.length) out.set(chunk, size);
    else {
      // The file grew while it was read, or is compressed: collect chunks.
      if (out) chunks.push(out.subarray(0, size));
      out = null;
      chunks.push(chunk);
    }
    size += chunk.length;
  }
  return out ? out.subarray(0, size) : Buffer.concat(chunks, size);
}

/** The size of a file that is not gzip-compressed, or -1 (compressed, or not a regular file). */
function plainFileSize(path: string): number {
  let fd = -1;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) return -1;
    const magic = Buffer.alloc(2);
    return readSync(fd, magic, 0, 2, 0) === 2 && isGzip(magic) ? -1 : st.size;
  } catch (e) {
    throw fromFileSystemError(e, path);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}
