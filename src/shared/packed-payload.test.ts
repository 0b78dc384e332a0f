import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import {
  decodeColumns,
  encodePayload,
  isPackedPayload,
  payloadTransferList,
  StringTable,
  type PackedColumn,
} from './packed-payload';

describe('packed payload codec', () => {
  it('round-trips every typed-array kind, with the header as given', () => {
    const columns = {
      i8: Int8Array.of(-128, 0, 127),
      u8: Uint8Array.of(0, 255),
      u8c: Uint8ClampedArray.of(1, 2, 3),
      i16: Int16Array.of(-32768, 32767),
      u16: Uint16Array.of(65535),
      i32: Int32Array.of(-2147483648, 7, 2147483647),
      u32: Uint32Array.of(4294967295),
      f32: Float32Array.of(1.5, -0, Infinity),
      f64: Float64Array.of(Math.PI, NaN, -0, Number.MAX_VALUE),
      i64: BigInt64Array.of(-(2n ** 63n), 5n),
      u64: BigUint64Array.of(2n ** 64n - 1n),
    };
    const p = encodePayload({ title: 'x', n: 3 }, columns);
    assert.deepEqual(p.header, { title: 'x', n: 3 });
    const d = decodeColumns<typeof columns>(p);
    for (const [name, c] of Object.entries(columns) as [keyof typeof columns, PackedColumn][]) {
      assert.equal(d[name].constructor, c.constructor, name);
      assert.deepEqual(Array.from(d[name] as ArrayLike<unknown>), Array.from(c as ArrayLike<unknown>), name);
      // Views into the one buffer, 8-byte aligned: decoding copies nothing.
      assert.equal(d[name].buffer, p.buffer, name);
      assert.equal(d[name].byteOffset % 8, 0, name);
    }
    assert.ok(Object.is(d.f64[2], -0) && Number.isNaN(d.f64[1]));
  });

  it('keeps empty columns and an all-empty payload', () => {
    const p = encodePayload({}, { a: new Float64Array(0), b: Int32Array.of(4), c: new Uint8Array(0) });
    const d = decodeColumns<{ a: Float64Array; b: Int32Array; c: Uint8Array }>(p);
    assert.equal(d.a.length, 0);
    assert.deepEqual(Array.from(d.b), [4]);
    assert.equal(d.c.length, 0);
    const none = encodePayload({ k: 1 }, { a: new Float64Array(0) });
    assert.equal(none.buffer.byteLength, 0);
    assert.equal(decodeColumns<{ a: Float64Array }>(none).a.length, 0);
    assert.deepEqual(payloadTransferList(none), [], 'an empty buffer is not worth a transfer');
  });

  it('copies only a view’s own bytes out of a larger (or shared) buffer and leaves the source intact', () => {
    const big = new Float64Array(100).map((_, i) => i);
    const view = big.subarray(10, 13);
    const sharedBig = new Int32Array(new SharedArrayBuffer(64)).map((_, i) => -i);
    const p = encodePayload(null, { view, shared: sharedBig.subarray(3, 5) });
    assert.equal(p.buffer.byteLength, 3 * 8 + 8);
    const d = decodeColumns<{ view: Float64Array; shared: Int32Array }>(p);
    assert.deepEqual(Array.from(d.view), [10, 11, 12]);
    assert.deepEqual(Array.from(d.shared), [-3, -4]);
    assert.ok(p.buffer instanceof ArrayBuffer && !(p.buffer instanceof SharedArrayBuffer));
    // Transferring the payload detaches its own buffer, never the source's.
    structuredClone(p, { transfer: payloadTransferList(p) });
    assert.equal(p.buffer.byteLength, 0);
    assert.equal(big.length, 100);
    assert.equal(sharedBig[4], -4);
  });

  it('decodes columns at their offsets after a transfer through a MessagePort', async () => {
    const p = encodePayload({ rows: 3 }, { a: Uint8Array.of(1, 2, 3), b: Float64Array.of(0.5, 1.5, 2.5) });
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<unknown>(r => port2.once('message', r));
    port1.postMessage({ type: 'graph', data: p }, payloadTransferList(p));
    const m = (await got) as { data: typeof p };
    port1.close();
    port2.close();
    assert.equal(p.buffer.byteLength, 0, 'the sender’s buffer is detached: it was moved, not cloned');
    assert.ok(isPackedPayload(m.data));
    const d = decodeColumns<{ a: Uint8Array; b: Float64Array }>(m.data);
    assert.deepEqual(Array.from(d.a), [1, 2, 3]);
    assert.deepEqual(Array.from(d.b), [0.5, 1.5, 2.5]);
    assert.equal(d.b.byteOffset, 8);
  });

  it('lists each buffer once for a message holding the same payload twice', () => {
    const p = encodePayload(1, { a: Int32Array.of(1) });
    const q = encodePayload(2, { a: Int32Array.of(2) });
    const list = payloadTransferList(p, q, p, undefined, null);
    assert.deepEqual(list, [p.buffer, q.buffer]);
    // The list is valid for postMessage (a repeated buffer would throw DataCloneError).
    structuredClone({ first: p, again: p, q }, { transfer: list });
  });

  it('rejects a column lying outside its buffer, an unknown column type and a non-typed-array column', () => {
    const p = encodePayload(0, { a: Float64Array.of(1, 2) });
    assert.throws(
      () => decodeColumns({ ...p, columns: { a: { ...p.columns.a, length: 3 } } }),
      /column a \(0…24\) lies outside its 16-byte buffer/,
    );
    assert.throws(
      () => decodeColumns({ ...p, columns: { a: { ...p.columns.a, type: 'Array' as never } } }),
      /unknown type Array/,
    );
    assert.throws(
      () => encodePayload(0, { a: new DataView(new ArrayBuffer(8)) as never }),
      /DataView is not a typed array/,
    );
  });

  it('interns strings once, null as -1', () => {
    const t = new StringTable();
    assert.deepEqual(
      [t.add('a'), t.add('b'), t.add('a'), t.add(null), t.add(undefined), t.add('')],
      [0, 1, 0, -1, -1, 2],
    );
    assert.deepEqual(t.strings, ['a', 'b', '']);
  });
});
