import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCctDb } from './cct-db';
import { u64Word } from './db-file';
import { encodeDatabase } from './test-db-writer';

/** A small cct.db, and the same bytes placed one byte off a word boundary (as a slice of a larger read may be). */
function cctBytes(): { aligned: Uint8Array; unaligned: Uint8Array } {
  const aligned = encodeDatabase({
    metrics: [{ name: 'CPUTIME (sec)' }],
    files: ['/src/a.c'],
    entries: [{ id: 1, kind: 1, children: [{ id: 2, type: 'line', file: 0, line: 7, self: { 0: [1.5], 1: [2] } }] }],
    profiles: [0, 1].map(rank => [['RANK', rank]]),
  }).cct;
  const room = new Uint8Array(aligned.byteLength + 1);
  room.set(aligned, 1);
  return { aligned: new Uint8Array(aligned), unaligned: room.subarray(1) };
}

describe('DbFile words', () => {
  it('reads the file as little-endian 32- and 16-bit words, whether its bytes are aligned or not', () => {
    const { aligned, unaligned } = cctBytes();
    for (const bytes of [aligned, unaligned]) {
      const file = parseCctDb('cct.db', bytes).file;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      assert.equal(file.words.length, Math.floor(bytes.byteLength / 4));
      assert.equal(file.halves.length, Math.floor(bytes.byteLength / 2));
      for (let k = 0; k < file.words.length; k++) assert.equal(file.words[k], view.getUint32(4 * k, true), `word ${k}`);
      for (let k = 0; k < file.halves.length; k++) assert.equal(file.halves[k], view.getUint16(2 * k, true));
      assert.equal(file.words, file.words, 'made once');
    }
  });

  it('u64Word joins a low and a high word as DbFile.u64 does', () => {
    assert.equal(u64Word(Uint32Array.of(7, 0), 0), 7);
    assert.equal(u64Word(Uint32Array.of(0, 5, 3), 1), 5 + 3 * 2 ** 32);
  });
});
