import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ProfileReadError } from '../reader';

/** Options shared by every way of reading an input file. */
export interface InputOptions {
  /** Checked between chunks; when aborted the read rejects with an Error named 'AbortError'. */
  signal?: AbortSignal;
  /** Fraction of the file consumed so far, in [0, 1] (compressed bytes for gzip files). */
  onProgress?: (fraction: number) => void;
  /** Bytes per read (default 1 MiB). */
  chunkSize?: number;
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
 * The bytes of a file in chunks, gunzipped transparently when the file is gzip-compressed (by
 * content, not by name). Memory stays bounded by the chunk size. A truncated or corrupt gzip stream
 * ends in a ProfileReadError naming the file.
 */
export async function* readChunks(path: string, options: InputOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortError(path, signal);
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 1 << 20));
  const small = readSmallFile(path, chunkSize);
  if (small && !isGzip(small)) {
    if (small.length) yield small;
    onProgress?.(1);
    return;
  }
  const total = (await stat(path)).size;
  const gzip = total >= 2 && isGzip(await firstBytes(path, 2));
  const file = createReadStream(path, { highWaterMark: chunkSize });
  let consumed = 0;
  file.on('data', c => {
    consumed += (c as Buffer).length;
  });
  const source = gzip ? file.pipe(createGunzip({ chunkSize: Math.max(64, chunkSize) })) : file;
  if (gzip) file.on('error', e => source.destroy(e));
  try {
    for await (const chunk of source) {
      if (signal?.aborted) throw abortError(path, signal);
      yield chunk as Buffer;
      onProgress?.(total ? consumed / total : 1);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (gzip && typeof code === 'string' && code.startsWith('Z_')) {
      throw new ProfileReadError(path, `the gzip data is truncated or corrupt (${(e as Error).message})`, { cause: e });
    }
    throw e;
  } finally {
    file.destroy();
    if (source !== file) source.destroy();
  }
}

/**
 * Calls `onLine` for every line of a text file (gzip or not), without the line terminator (`\n` or
 * `\r\n`); line numbers are 1-based. UTF-8 is decoded across chunk boundaries, and no string larger
 * than one chunk plus one line is ever built.
 */
export async function forEachLine(
  path: string,
  onLine: (line: string, lineNumber: number) => void,
  options: InputOptions = {},
): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lineNumber = 0;
  const emit = (text: string, final: boolean) => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(text.slice(start, end), ++lineNumber);
      start = nl + 1;
    }
    carry = text.slice(start);
    if (final && carry.length) {
      onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, ++lineNumber);
      carry = '';
    }
  };
  for await (const chunk of readChunks(path, options)) emit(carry + decoder.decode(chunk, { stream: true }), false);
  emit(carry + decoder.decode(), true);
}

/**
 * The whole (gunzipped) content of a binary file, for formats that need random access (HPCToolkit
 * databases, CUBE). Binary buffers are not strings, so V8's string limit does not apply; `maxBytes`
 * guards against absurd sizes with a clear error instead of an allocation failure.
 */
export async function readBytes(path: string, options: InputOptions & { maxBytes?: number } = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? 4 * 1024 ** 3;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of readChunks(path, options)) {
    size += chunk.length;
    if (size > maxBytes)
      throw new ProfileReadError(path, `the file is larger than ${maxBytes} bytes, the limit for this format`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
