import { open, readdir, stat } from 'node:fs/promises';
import type { FileSample } from './reader';

const SAMPLE_BYTES = 64 * 1024;

/** Reads the head and tail of a file (or lists a directory) for content sniffing. */
export async function sampleFile(path: string): Promise<FileSample> {
  const st = await stat(path);
  if (st.isDirectory()) {
    return { path, isDirectory: true, size: 0, head: '', tail: '', entries: await readdir(path) };
  }
  const fh = await open(path, 'r');
  try {
    const headLen = Math.min(SAMPLE_BYTES, st.size);
    const head = Buffer.alloc(headLen);
    await fh.read(head, 0, headLen, 0);
    let tail = Buffer.alloc(0);
    if (st.size > SAMPLE_BYTES) {
      const tailLen = Math.min(SAMPLE_BYTES, st.size - SAMPLE_BYTES);
      tail = Buffer.alloc(tailLen);
      await fh.read(tail, 0, tailLen, st.size - tailLen);
    }
    return { path, isDirectory: false, size: st.size, head: head.toString('utf8'), tail: tail.toString('utf8'), entries: [] };
  } finally {
    await fh.close();
  }
}
