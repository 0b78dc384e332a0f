import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { isGzip } from './io/file-input';
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
    return { path, isDirectory: true, size: 0, head: '', tail: '', entries: await readdir(path), gzip: false };
  }
  // Synchronous reads of at most 128 KiB: microseconds, where async calls cost a thread-pool hop each.
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const headLen = Math.min(SAMPLE_BYTES, size);
    const head = Buffer.alloc(headLen);
    readSync(fd, head, 0, headLen, 0);
    if (isGzip(head)) {
      return { path, isDirectory: false, size, head: gunzipPrefix(head).toString('utf8'), tail: '', entries: [], gzip: true };
    }
    let tail = Buffer.alloc(0);
    if (size > SAMPLE_BYTES) {
      const tailLen = Math.min(SAMPLE_BYTES, size - SAMPLE_BYTES);
      tail = Buffer.alloc(tailLen);
      readSync(fd, tail, 0, tailLen, size - tailLen);
    }
    return { path, isDirectory: false, size, head: head.toString('utf8'), tail: tail.toString('utf8'), entries: [], gzip: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * The start of the decompressed content of a gzip prefix. Highly compressible data can expand a
 * thousandfold, so shorter prefixes are tried when the output would exceed the sample size. A
 * corrupt stream yields nothing to sniff.
 */
function gunzipPrefix(prefix: Buffer): Buffer {
  for (const len of [prefix.length, 8192, 1024, 128]) {
    try {
      const out = gunzipSync(prefix.subarray(0, len), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 4 * SAMPLE_BYTES });
      return out.subarray(0, SAMPLE_BYTES);
    } catch (e) {
      if (!(e instanceof RangeError)) return Buffer.alloc(0);
    }
  }
  return Buffer.alloc(0);
}
