import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { isGzip, startsLikeGzip } from './io/file-input';
import { zlib } from './io/zlib';
import type { FileSample } from './reader';

const SAMPLE_BYTES = 64 * 1024;

/**
 * Reads the head and tail of a file (or lists a directory) for content sniffing. For a gzip file the
 * head is the start of the decompressed content (the tail is left empty: it cannot be had without
 * decompressing everything).
 */
export async function sampleFile(path: string): Promise<FileSample> {
  const st = statSync(path);
  if (st.isDirectory()) {
    return {
      path,
      isDirectory: true,
      size: 0,
      head: '',
      tail: '',
      entries: readdirSync(path),
      gzip: false,
      binary: false,
    };
  }
  if (st.isFile() && st.size <= SAMPLE_BYTES) {
    // A small file whole, read and decoded natively (see readSmallText); gzip takes the byte path below.
    const text = readFileSync(path, 'utf8');
    if (text.length <= SAMPLE_BYTES && !startsLikeGzip(text))
      return {
        path,
        isDirectory: false,
        size: st.size,
        head: text,
        tail: '',
        entries: [],
        gzip: false,
        binary: hasNul(text),
      };
  }
  // Synchronous reads of at most 128 KiB: microseconds, where async calls cost a thread-pool hop each.
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const headLen = Math.min(SAMPLE_BYTES, size);
    const head = Buffer.alloc(headLen);
    readSync(fd, head, 0, headLen, 0);
    if (isGzip(head)) {
      const text = gunzipPrefix(head).toString('utf8');
      return { path, isDirectory: false, size, head: text, tail: '', entries: [], gzip: true, binary: hasNul(text) };
    }
    let tail = Buffer.alloc(0);
    if (size > SAMPLE_BYTES) {
      const tailLen = Math.min(SAMPLE_BYTES, size - SAMPLE_BYTES);
      tail = Buffer.alloc(tailLen);
      readSync(fd, tail, 0, tailLen, size - tailLen);
    }
    const text = head.toString('utf8');
    return {
      path,
      isDirectory: false,
      size,
      head: text,
      tail: tail.toString('utf8'),
      entries: [],
      gzip: false,
      binary: hasNul(text),
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `maxBytes` of a file's content, gunzipped when the file is gzip-compressed; empty when
 * the file cannot be read. For sniffers that need bytes rather than UTF-8 text (protobuf) or the head
 * of a file inside a directory (experiment.xml, meta.db). Synchronous: a few KiB at most.
 */
export function readHeadBytes(path: string, maxBytes = SAMPLE_BYTES): Buffer {
  let fd = -1;
  try {
    fd = openSync(path, 'r');
    // Deflate can expand incompressible data a little (block headers), so gzip files get some slack.
    const raw = Buffer.alloc(maxBytes + 1024);
    const head = raw.subarray(0, readSync(fd, raw, 0, raw.length, 0));
    return (isGzip(head) ? gunzipPrefix(head) : head).subarray(0, maxBytes);
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function hasNul(text: string): boolean {
  return text.slice(0, 8192).includes('\0');
}

/**
 * The start of the decompressed content of a gzip prefix. Highly compressible data can expand a
 * thousandfold, so shorter prefixes are tried when the output would exceed the sample size. A
 * corrupt stream yields nothing to sniff.
 */
function gunzipPrefix(prefix: Buffer): Buffer {
  for (const len of [prefix.length, 8192, 1024, 128]) {
    try {
      const out = zlib().gunzipSync(prefix.subarray(0, len), {
        finishFlush: zlib().constants.Z_SYNC_FLUSH,
        maxOutputLength: 4 * SAMPLE_BYTES,
      });
      return out.subarray(0, SAMPLE_BYTES);
    } catch (e) {
      if (!(e instanceof RangeError)) return Buffer.alloc(0);
    }
  }
  return Buffer.alloc(0);
}
