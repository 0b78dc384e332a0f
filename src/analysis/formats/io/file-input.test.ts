import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readHeadBytes, sampleFile } from '../file-sample';
import { ProfileReadError } from '../reader';
import { forEachLine, readBytes, readChunks } from './file-input';

describe('file input', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-input-'));
  const write = (name: string, data: string | Uint8Array) => {
    const p = join(tmp, name);
    writeFileSync(p, data);
    return p;
  };
  const text = 'alpha\r\nβeta\n\ngamma ünïcode\nlast-without-newline';
  const expected = ['alpha', 'βeta', '', 'gamma ünïcode', 'last-without-newline'];

  it('splits lines across chunk boundaries, plain and gzip, with multi-byte characters', async () => {
    for (const [name, data] of [
      ['plain.txt', text],
      ['packed.txt.gz', gzipSync(text)],
      ['packed-no-suffix', gzipSync(text)],
    ] as const) {
      const path = write(name, data);
      for (const chunkSize of [1, 2, 3, 7, 1 << 20]) {
        const lines: string[] = [];
        const numbers: number[] = [];
        await forEachLine(
          path,
          (l, n) => {
            lines.push(l);
            numbers.push(n);
          },
          { chunkSize },
        );
        assert.deepEqual(lines, expected, `${name} chunk ${chunkSize}`);
        assert.deepEqual(numbers, [1, 2, 3, 4, 5]);
      }
    }
  });

  it('reads whole binary files, gunzipped, and reports progress up to 1', async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 31) & 0xff);
    const path = write('bin.gz', gzipSync(bytes));
    const progress: number[] = [];
    const got = await readBytes(path, { chunkSize: 4096, onProgress: f => progress.push(f) });
    assert.deepEqual(new Uint8Array(got), bytes);
    assert.ok(
      progress.length > 1 && progress.at(-1) === 1 && progress.every((f, i) => i === 0 || f >= progress[i - 1]!),
    );
  });

  it('names the file when gzip data is truncated, and honours cancellation', async () => {
    const packed = gzipSync(text.repeat(1000));
    const path = write('cut.gz', packed.subarray(0, packed.length - 20));
    await assert.rejects(
      readBytes(path),
      (e: Error) =>
        e instanceof ProfileReadError && e.message.startsWith(path) && /truncated or corrupt/.test(e.message),
    );
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      async () => {
        for await (const _ of readChunks(path, { signal: ac.signal })) {
          /* nothing */
        }
      },
      (e: Error) => e.name === 'AbortError',
    );
    await assert.rejects(readBytes(write('big', 'x'.repeat(100)), { maxBytes: 10 }), /larger than 10 bytes/);
  });

  it('samples the decompressed head of gzip files', async () => {
    const s = await sampleFile(write('sample.json.gz', gzipSync('{"traceEvents": []}')));
    assert.equal(s.gzip, true);
    assert.equal(s.head, '{"traceEvents": []}');
    const bomb = await sampleFile(write('zeros.gz', gzipSync(Buffer.alloc(50_000_000))));
    assert.ok(bomb.head.length > 0 && bomb.head.length <= 64 * 1024);
  });

  it('reads the first bytes of a file, gunzipped, for byte-level sniffers', () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 0xff);
    assert.deepEqual(new Uint8Array(readHeadBytes(write('raw.bin', bytes), 100)), bytes.subarray(0, 100));
    assert.deepEqual(
      new Uint8Array(readHeadBytes(write('packed.bin.gz', gzipSync(bytes)), 100)),
      bytes.subarray(0, 100),
    );
    assert.equal(readHeadBytes(join(tmp, 'missing.bin')).length, 0);
  });
});
