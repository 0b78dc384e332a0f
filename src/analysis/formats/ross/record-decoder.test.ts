import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KP_METRICS, LP_METRICS, PE_METRICS } from '../../pdes/model/metrics';
import { ProfileReadError } from '../reader';
import {
  RossEventTraceDecoder,
  RossRecordError,
  RossStatsDecoder,
  type EngineRecord,
  type ModelRecord,
  type TracedEvent,
} from './record-decoder';
import { RossRecordWriter } from './record-writer';

const PE_VALUES = [120, 1, 30, 9, 4, 2, 17, 11, 12, 1, 0, 3, 75.5, 0.25, 0.5, 0.125, 0, 0, 1.5, 0.75, 0.5, 0, 0, 0, 0];
const KP_VALUES = [40, 0, 10, 5, 2, 6, 7, -3.5, 80];
const LP_VALUES = [12, 0, 4, 3, 2, 123456789012, 66.5];

/** PE 0 with one KP and one LP, at GVT 100 then after the end (DBL_MAX). */
function engineBytes(): Uint8Array {
  return new RossRecordWriter()
    .engine(0, { pe: 0, kp: -1, lp: -1 }, 100, 1.5, PE_VALUES)
    .engine(1, { pe: 0, kp: 3, lp: -1 }, 100, 1.5, KP_VALUES)
    .engine(2, { pe: 0, kp: 3, lp: 7 }, 100, 1.5, LP_VALUES)
    .engine(0, { pe: 0, kp: -1, lp: -1 }, Infinity, 2.5, PE_VALUES)
    .bytes();
}

interface Seen {
  level: string;
  pe: number;
  kp: number;
  lp: number;
  virtualTime: number;
  realTime: number;
  values: number[];
  offset: number;
}

function collect(modelRecords = false) {
  const engine: Seen[] = [];
  const model: (Omit<ModelRecord, 'payload'> & { payload: number[] })[] = [];
  const decoder = new RossStatsDecoder(
    {
      engine: (r: EngineRecord) => engine.push({ ...r, values: [...r.values] }),
      model: (r: ModelRecord) => model.push({ ...r, payload: [...r.payload] }),
    },
    'x-gvt.bin',
    { modelRecords },
  );
  return { engine, model, decoder };
}

/** Pushes `bytes` split at the given positions. */
function pushSplit(decoder: { push(c: Uint8Array): void }, bytes: Uint8Array, cuts: number[]): void {
  let prev = 0;
  for (const c of [...cuts, bytes.length]) {
    decoder.push(bytes.slice(prev, c));
    prev = c;
  }
}

describe('RossStatsDecoder', () => {
  it('decodes PE, KP and LP records into the metric order, deriving primary rollbacks', () => {
    const { engine, decoder } = collect();
    decoder.push(engineBytes());
    assert.equal(decoder.finish(), null);
    assert.equal(engine.length, 4);
    const [pe, kp, lp, last] = engine;
    assert.deepEqual([pe!.level, pe!.pe, pe!.virtualTime, pe!.realTime, pe!.offset], ['pe', 0, 100, 1.5, 0]);
    assert.equal(pe!.values.length, PE_METRICS.length);
    assert.deepEqual(pe!.values.slice(0, 25), PE_VALUES);
    assert.equal(pe!.values[25], 9 - 4, 'primary = total − secondary');
    assert.deepEqual([kp!.level, kp!.pe, kp!.kp, kp!.offset], ['kp', 0, 3, 128]);
    assert.equal(kp!.values.length, KP_METRICS.length);
    assert.deepEqual(kp!.values, [...KP_VALUES, 5 - 2]);
    assert.deepEqual([lp!.level, lp!.pe, lp!.kp, lp!.lp, lp!.offset], ['lp', 0, 3, 7, 196]);
    assert.equal(lp!.values.length, LP_METRICS.length);
    assert.deepEqual(lp!.values, LP_VALUES);
    assert.equal(last!.virtualTime, Infinity, 'DBL_MAX after the end is Infinity');
    assert.deepEqual(decoder.counts, { pe: 2, kp: 1, lp: 1, model: 0 });
  });

  it('yields the same records for every way of splitting the bytes, header splits included', () => {
    const bytes = engineBytes();
    const whole = collect();
    whole.decoder.push(bytes);
    for (let cut = 1; cut < bytes.length; cut++) {
      const split = collect();
      pushSplit(split.decoder, bytes, [cut]);
      assert.deepEqual(split.engine, whole.engine, `split at byte ${cut}`);
      assert.equal(split.decoder.finish(), null);
    }
    // Byte by byte: every header is split.
    const trickle = collect();
    pushSplit(
      trickle.decoder,
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
    );
    assert.deepEqual(trickle.engine, whole.engine);
  });

  it('keeps a partial record until its rest arrives, and reports it when the input ends', () => {
    const bytes = engineBytes();
    const { engine, decoder } = collect();
    decoder.push(bytes.slice(0, 134)); // the PE record (128 B) and 6 bytes of the KP header
    assert.equal(engine.length, 1);
    assert.equal(decoder.offset, 128);
    assert.equal(decoder.pendingBytes, 6);
    assert.deepEqual(decoder.finish(), { offset: 128, bytes: 6, needed: 24 }, 'flag and size incomplete');
    decoder.push(bytes.slice(134, 140));
    assert.deepEqual(decoder.finish(), { offset: 128, bytes: 12, needed: 68 }, 'flag and size known: the KP record');
    decoder.push(bytes.slice(140, 160));
    assert.deepEqual(decoder.finish(), { offset: 128, bytes: 32, needed: 68 });
    decoder.push(bytes.slice(160));
    assert.equal(engine.length, 4);
    assert.equal(decoder.finish(), null);
  });

  it('does not depend on the caller keeping its chunk', () => {
    const bytes = engineBytes();
    const { engine, decoder } = collect();
    const chunk = new Uint8Array(100);
    for (let at = 0; at < bytes.length; at += 100) {
      const n = Math.min(100, bytes.length - at);
      chunk.set(bytes.subarray(at, at + n));
      decoder.push(chunk.subarray(0, n));
      chunk.fill(0xff); // the caller reuses its buffer
    }
    const whole = collect();
    whole.decoder.push(bytes);
    assert.deepEqual(engine, whole.engine);
  });

  it('names the byte offset of an unknown flag or a wrong size', () => {
    const good = engineBytes();
    const bad = new RossRecordWriter()
      .raw(good)
      .raw(new Uint8Array(new Int32Array([7, 12, 0, 0, 0, 0]).buffer))
      .bytes();
    const { decoder } = collect();
    assert.throws(
      () => decoder.push(bad),
      (e: Error) => {
        assert.ok(e instanceof RossRecordError && e instanceof ProfileReadError);
        assert.equal(e.offset, good.length);
        assert.equal(e.path, 'x-gvt.bin');
        assert.match(
          e.message,
          new RegExp(`^x-gvt\\.bin: unknown record: flag 7, size 12 .* at byte offset ${good.length}$`),
        );
        return true;
      },
    );
    const wrongSize = new Uint8Array(new Int32Array([1, 40, 0, 0, 0, 0]).buffer);
    assert.throws(
      () => collect().decoder.push(wrongSize),
      /flag 1, size 40 \(a KP record has 44 bytes\) at byte offset 0/,
    );
  });

  it('reads model records (lp_metadata, flag 3) only where virtual-time sampling writes them', () => {
    const payload = Uint8Array.from({ length: 20 }, (_, i) => i);
    const bytes = new RossRecordWriter()
      .engine(1, { pe: 1, kp: 0, lp: -1 }, 50, 1, KP_VALUES)
      .model(17, 2, 1, 10000, 1.25, payload)
      .engine(1, { pe: 1, kp: 0, lp: -1 }, 60, 2, KP_VALUES)
      .bytes();
    const vt = collect(true);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const split = collect(true);
      pushSplit(split.decoder, bytes, [cut]);
      assert.equal(split.engine.length, 2);
      assert.deepEqual(split.model, [
        { lp: 17, kp: 2, pe: 1, virtualTime: 10000, realTime: 1.25, payload: [...payload], offset: 68 },
      ]);
    }
    vt.decoder.push(bytes);
    assert.equal(vt.decoder.counts.model, 1);
    assert.throws(() => collect(false).decoder.push(bytes), /unknown record: flag 17, size 0 .* at byte offset 68/);
  });

  it('rejects an lp_metadata header whose flag is not 3', () => {
    const bytes = new RossRecordWriter().model(5, 0, 0, 1, 1, new Uint8Array(8)).bytes();
    new DataView(bytes.buffer).setInt32(44, 9, true);
    assert.throws(() => collect(true).decoder.push(bytes), /at byte offset 0/);
  });
});

describe('RossEventTraceDecoder', () => {
  const bytes = new RossRecordWriter()
    .event(3, 4, 10.5, 11, 2.5, Uint8Array.of(1, 2, 3, 4))
    .event(4, 3, 11, 12.25, 2.75)
    .event(9, 1, 12, 13, 3, Uint8Array.of(9, 9, 9, 9))
    .bytes();

  function decodeAll(cuts: number[]): TracedEvent[] {
    const out: TracedEvent[] = [];
    const d = new RossEventTraceDecoder(e => out.push({ ...e }), 'x-evtrace.bin');
    pushSplit(d, bytes, cuts);
    assert.equal(d.finish(), null);
    return out;
  }

  it('decodes sender, receiver, times and skips the model bytes, however the bytes are split', () => {
    const whole = decodeAll([]);
    assert.deepEqual(
      whole.map(e => [e.src, e.dst, e.sendTime, e.recvTime, e.realTime, e.modelBytes, e.offset]),
      [
        [3, 4, 10.5, 11, 2.5, 4, 0],
        [4, 3, 11, 12.25, 2.75, 0, 28],
        [9, 1, 12, 13, 3, 4, 52],
      ],
    );
    for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(decodeAll([cut]), whole, `split at ${cut}`);
  });

  it('reports a truncated last event and an implausible model size with its offset', () => {
    const d = new RossEventTraceDecoder(() => {}, 'x-evtrace.bin');
    d.push(bytes.slice(0, bytes.length - 3));
    assert.deepEqual(d.finish(), { offset: 52, bytes: 25, needed: 28 });
    const bad = new RossRecordWriter().raw(bytes).event(1, 2, 0, 0, 0).bytes();
    new DataView(bad.buffer).setUint32(bytes.length + 20, 1 << 20, true);
    assert.throws(
      () => new RossEventTraceDecoder(() => {}, 'x-evtrace.bin').push(bad),
      new RegExp(`implausible event record: 1048576 bytes of model data at byte offset ${bytes.length}`),
    );
  });
});
