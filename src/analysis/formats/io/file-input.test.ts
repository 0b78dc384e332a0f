import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readHeadBytes, sampleFile } from '../file-sample';
import { DEFAULT_INPUT_LIMITS, ProfileReadError } from '../reader';
import {
  decompressedByteLimit,
  describeByteLimit,
  forEachLine,
  readBytes,
  readChunks,
  readSmallFileLines,
  readSmallText,
  startsLikeGzip,
} from './file-input';

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

  it('reads small files whole as text, as Buffer.toString decodes them, and samples them so', async () => {
    const random = Uint8Array.from({ length: 4000 }, (_, i) => (i * 131 + (i >> 3) * 17) & 0xff);
    for (const [name, bytes] of [
      ['text.txt', Buffer.from(`\ufeff${text}`)],
      ['random.bin', Buffer.from(random)],
      ['cut.txt', Buffer.from([0x61, 0xe2, 0x82])],
      ['empty.txt', Buffer.alloc(0)],
    ] as const) {
      const path = write(name, bytes);
      assert.equal(readSmallText(path, bytes.length), bytes.toString('utf8'), name);
      const s = await sampleFile(path);
      assert.deepEqual(
        [s.head, s.size, s.tail, s.gzip, s.binary],
        [bytes.toString('utf8'), bytes.length, '', false, bytes.toString('utf8').slice(0, 8192).includes('\0')],
        name,
      );
    }
    assert.equal(readSmallText(write('big.txt', 'x'.repeat(100)), 99), null);
    // Devices and pipes are left to the byte path (/dev/zero has size 0 and no end).
    if (existsSync('/dev/zero')) {
      assert.equal(readSmallText('/dev/zero', 1000), null);
      const zero = await sampleFile('/dev/zero');
      assert.equal(zero.size, 0);
    }
    const gz = write('small.gz', gzipSync('hello'));
    assert.ok(startsLikeGzip(readSmallText(gz, 1000)!));
    assert.equal((await sampleFile(gz)).head, 'hello', 'a small gzip file is still gunzipped');
    assert.ok(!startsLikeGzip(text));
  });

  it("gives a small file's lines at once exactly as the line reader does, or leaves the file to it", async () => {
    const viaReader = async (path: string) => {
      const out: [string, number][] = [];
      await forEachLine(path, (line, n) => out.push([line, n]));
      return out;
    };
    for (const [name, content] of [
      ['plain.txt', text],
      ['final-newline.txt', `${text}\n`],
      ['crlf.txt', 'a\r\nb\r\n\r\nc\r\n'],
      ['cr-cr.txt', 'a\r\r\nb\rc\n\r'],
      ['bom.txt', `\ufeff${text}`],
      ['two-boms.txt', `\ufeff\ufeff${text}`],
      ['blank.txt', '\n\n\n'],
      ['empty.txt', ''],
    ] as const) {
      const path = write(name, content);
      let progress = 0;
      const lines = readSmallFileLines(path, { onProgress: f => (progress = f) });
      assert.ok(lines, name);
      assert.deepEqual(
        lines.map((l, k) => [l, k + 1]),
        await viaReader(path),
        name,
      );
      assert.equal(progress, 1);
    }
    assert.equal(readSmallFileLines(write('invalid.txt', Buffer.from([0x61, 0x0a, 0xff, 0x0a]))), null);
    assert.equal(readSmallFileLines(write('lines.gz', gzipSync(text))), null);
    assert.equal(readSmallFileLines(write('long.txt', text), { limits: { maxLineLength: 10 } }), null);
    assert.equal(readSmallFileLines(join(tmp, 'missing.txt')), null);
    const ac = new AbortController();
    ac.abort();
    assert.equal(readSmallFileLines(write('cancelled.txt', text), { signal: ac.signal }), null);
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

  it('joins a line that spans many chunks once, with the right text and number', async () => {
    const long = 'ab'.repeat(5000) + 'é';
    const path = write('long-line.txt', `first\r\n${long}\r\nlast`);
    for (const chunkSize of [3, 64, 1 << 20]) {
      const lines: [string, number][] = [];
      await forEachLine(path, (l, n) => lines.push([l, n]), { chunkSize });
      assert.deepEqual(lines, [
        ['first', 1],
        [long, 2],
        ['last', 3],
      ]);
    }
  });

  it('rejects a line longer than maxLineLength, naming the file and the line, plain and gzip', async () => {
    const body = 'ok\nfine\n' + 'x'.repeat(5000) + '\nnever reached\n';
    for (const [name, data] of [
      ['too-long.txt', body],
      ['too-long.txt.gz', gzipSync(body)],
    ] as const) {
      const path = write(name, data);
      const seen: number[] = [];
      for (const chunkSize of [7, 1 << 20]) {
        seen.length = 0;
        await assert.rejects(
          forEachLine(path, (_, n) => seen.push(n), { chunkSize, limits: { maxLineLength: 1000 } }),
          (e: Error) =>
            e instanceof ProfileReadError &&
            e.message ===
              `${path}: line 3 is longer than 1000 bytes, the longest line HPC Lens reads (the limit maxLineLength)`,
        );
        assert.deepEqual(seen, [1, 2], `${name} chunk ${chunkSize}`);
      }
      // A line of exactly the limit is fine.
      const lines: string[] = [];
      await forEachLine(path, l => lines.push(l), { limits: { maxLineLength: 5000 } });
      assert.equal(lines[2]!.length, 5000);
    }
    assert.equal(DEFAULT_INPUT_LIMITS.maxLineLength, 16 * 1024 * 1024);
  });

  it('stops a gzip file that decompresses beyond the limits with a clear error', async () => {
    const packed = gzipSync(Buffer.alloc(3_000_000, 0x61));
    const path = write('bomb.gz', packed);
    await assert.rejects(
      readBytes(path, { limits: { maxDecompressedBytes: 1_000_000 } }),
      (e: Error) =>
        e instanceof ProfileReadError &&
        e.message === `${path}: the gzip data decompresses to more than 976.6 KiB, the limit maxDecompressedBytes`,
    );
    assert.equal((await readBytes(path, { limits: { maxDecompressedBytes: 3_000_000 } })).length, 3_000_000);
    // The ratio applies above a floor of 64 MiB of output (small files compress well).
    assert.equal(decompressedByteLimit(1000), 64 * 1024 ** 2);
    assert.equal(decompressedByteLimit(10 * 1024 ** 2), 2000 * 1024 ** 2);
    assert.equal(decompressedByteLimit(1024 ** 3), 8 * 1024 ** 3);
    assert.equal(decompressedByteLimit(1024 ** 2, { maxDecompressionRatio: 1000 }), 1000 * 1024 ** 2);
    assert.equal(describeByteLimit(8 * 1024 ** 3), '8 GiB');
    assert.equal(describeByteLimit(16 * 1024 ** 2), '16 MiB');
  });

  it("bounds whole-file reads by maxWholeFileBytes (default 2 GiB) and by the format's own bound", async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 13) & 0xff);
    const path = write('whole.bin', bytes);
    assert.deepEqual(new Uint8Array(await readBytes(path, { chunkSize: 1000 })), bytes);
    await assert.rejects(
      readBytes(path, { limits: { maxWholeFileBytes: 4096 } }),
      (e: Error) =>
        e.message ===
        `${path}: the file is larger than 4 KiB, the most HPC Lens reads into memory at once (the limit maxWholeFileBytes)`,
    );
    await assert.rejects(
      readBytes(path, { maxBytes: 1024, limits: { maxWholeFileBytes: 4096 } }),
      (e: Error) => e.message === `${path}: the file is larger than 1 KiB, the limit for this kind of file`,
    );
    assert.equal(DEFAULT_INPUT_LIMITS.maxWholeFileBytes, 2 * 1024 ** 3);
  });
});
