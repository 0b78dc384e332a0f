import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../stats/seeded-random';
import { checksums, checksumsByByte, readTarArchive, TAR_BLOCK } from './tar-archive';
import { tarArchive } from './test-cubex';

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString();

/** Rewrites a header's checksum after editing it, as a writer would. */
function resum(archive: Buffer, at: number): void {
  archive.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += archive[at + i]!;
  archive.write(sum.toString(8).padStart(6, '0') + '\0 ', at + 148, 'latin1');
}

describe('tar archive reader', () => {
  it('lists files with short, GNU long, pax and ustar-prefix names', () => {
    const long = `${'directory/'.repeat(12)}anchor.xml`;
    for (const longNames of ['gnu', 'pax'] as const) {
      const { files, warnings } = readTarArchive(
        tarArchive(
          [
            { name: 'a.txt', data: Buffer.from('alpha') },
            { name: long, data: Buffer.from('beta') },
          ],
          { longNames },
        ),
      );
      assert.deepEqual([...files.keys()], ['a.txt', long], longNames);
      assert.equal(text(files.get(long)), 'beta');
      assert.deepEqual(warnings, []);
    }
    const prefixed = tarArchive([{ name: 'anchor.xml', data: Buffer.from('x') }]);
    prefixed.write('cube/run1', 345, 'latin1');
    resum(prefixed, 0);
    assert.deepEqual([...readTarArchive(prefixed).files.keys()], ['cube/run1/anchor.xml']);
  });

  it('reads old v7 headers (no ustar magic) and empty files, and skips directories', () => {
    const archive = tarArchive([
      { name: 'dir/', data: Buffer.alloc(0) },
      { name: 'empty', data: Buffer.alloc(0) },
      { name: './b', data: Buffer.from('b') },
    ]);
    archive[156] = 0x35; // directory
    resum(archive, 0);
    archive.fill(0, 512 + 257, 512 + 265);
    resum(archive, 512);
    const { files } = readTarArchive(archive);
    assert.deepEqual([...files.keys()], ['empty', 'b']);
    assert.equal(files.get('empty')!.length, 0);
  });

  it('rejects corruption with the entry and byte offset', () => {
    const good = tarArchive([
      { name: 'a', data: Buffer.from('x'.repeat(600)) },
      { name: 'b', data: Buffer.from('y') },
    ]);
    const cases: [Uint8Array, RegExp][] = [
      [good.subarray(0, 100), /too short to be a tar archive \(100 bytes/],
      [good.subarray(0, 1000), /truncated: entry 1 \("a"\) at byte 0 holds 600 bytes but only 488 follow/],
      [good.subarray(0, 1536), /ends after 1 entries without the end-of-archive marker/],
      [Buffer.concat([good.subarray(0, 1536), Buffer.alloc(100)]), /header of entry 2 at byte 1536 is cut off/],
    ];
    const badSize = Buffer.from(good);
    badSize.write('00000001x00\0', 124, 'latin1');
    resum(badSize, 0);
    cases.push([badSize, /entry 1 \("a"\) at byte 0 has a malformed size field/]);
    const laterBad = Buffer.from(good);
    laterBad[1536 + 1] = 0x41;
    cases.push([
      laterBad,
      /entry 2 \("bA"\) at byte 1536 has a bad checksum \(stored \d+, computed \d+\): the archive is corrupt/,
    ]);
    for (const [bytes, reason] of cases) assert.throws(() => readTarArchive(bytes), reason);
  });

  it('accepts headers that are all wrong in the same way (Cube 4.8) with a warning', () => {
    const { files, warnings } = readTarArchive(
      tarArchive(
        [
          { name: 'a', data: Buffer.from('1') },
          { name: 'b', data: Buffer.from('2') },
        ],
        { checksum: c => c - 3 },
      ),
    );
    assert.equal(text(files.get('b')), '2');
    assert.match(warnings[0]!, /Cube 4\.8/);
  });

  it('sums a header four bytes a step exactly as byte by byte, on aligned and unaligned headers', () => {
    const random = seededRandom(24);
    const bytes = new Uint8Array(3 * TAR_BLOCK);
    for (let k = 0; k < 2000; k++) {
      // Headers of high bytes only, of low bytes only and of a mix: every lane at its largest.
      const mode = k % 3;
      for (let i = 0; i < bytes.length; i++)
        bytes[i] =
          mode === 0
            ? 128 + Math.floor(random() * 128)
            : mode === 1
              ? Math.floor(random() * 128)
              : Math.floor(random() * 256);
      if (k === 0) bytes.fill(255);
      for (const offset of [0, TAR_BLOCK, 1, 3]) {
        const header = bytes.subarray(offset, offset + TAR_BLOCK);
        assert.deepEqual(checksums(header), checksumsByByte(header));
      }
    }
  });
});
