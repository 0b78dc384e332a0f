import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StringTable } from './string-table';
import { TraceEventKind } from './trace';
import { TraceBuilder } from './trace-builder';

interface Row {
  kind: TraceEventKind;
  track: number;
  start: number;
  duration: number;
  node: number;
  depth: number;
  name: string;
}

// Two tracks, the second added first and one row out of order, so finish() has to sort.
const ROWS: Row[] = [
  { kind: TraceEventKind.Slice, track: 1, start: 0, duration: 5, node: 0, depth: 0, name: 'main' },
  { kind: TraceEventKind.Sample, track: 1, start: 0, duration: 0, node: 0, depth: 0, name: 'main' },
  { kind: TraceEventKind.Slice, track: 0, start: 2, duration: 3, node: 1, depth: 1, name: 'solve' },
  { kind: TraceEventKind.Slice, track: 0, start: 1, duration: 4, node: 0, depth: 0, name: 'main' },
  { kind: TraceEventKind.Sample, track: 0, start: 2, duration: 0, node: 1, depth: 1, name: 'solve' },
];

function builder(): TraceBuilder {
  const tb = new TraceBuilder(new StringTable());
  tb.addTrack({ name: 'thread 0', kind: 'thread', process: 'rank 0', pid: '0', tid: '0' });
  tb.addTrack({ name: 'thread 1', kind: 'thread', process: 'rank 0', pid: '0', tid: '1' });
  return tb;
}

describe('TraceBuilder.addEvents', () => {
  it('gives the trace that adding the same rows one at a time gives, sorted or not', () => {
    for (const rows of [ROWS, [...ROWS].sort((a, b) => a.track - b.track || a.start - b.start || a.depth - b.depth)]) {
      const one = builder();
      for (const r of rows) one.addEvent(r.kind, r.track, r.start, r.duration, r.node, r.depth, '', r.name);
      const bulk = builder();
      for (const track of [1, 0]) {
        const mine = rows.filter(r => r.track === track);
        // Longer columns than the count: only the first `count` rows are taken.
        const column = <T extends Int32Array | Float64Array | Uint8Array>(
          ctor: { new (n: number): T },
          f: (r: Row) => number,
        ): T => {
          const out = new ctor(mine.length + 3);
          mine.forEach((r, k) => (out[k] = f(r)));
          return out;
        };
        bulk.addEvents(track, mine.length, {
          kind: column(Uint8Array, r => r.kind),
          start: column(Float64Array, r => r.start),
          duration: column(Float64Array, r => r.duration),
          node: column(Int32Array, r => r.node),
          depth: column(Int32Array, r => r.depth),
          name: column(Int32Array, r => bulk.strings.intern(r.name)),
        });
      }
      // The same rows, tracks grouped: finish() puts both in (track, start, depth) order.
      const expected = one.finish();
      const actual = bulk.finish();
      assert.deepEqual(actual.events, expected.events);
      assert.deepEqual(actual.trackEventStart, expected.trackEventStart);
      assert.deepEqual(bulk.strings.toArray(), one.strings.toArray());
      assert.deepEqual(Array.from(actual.events.start), [1, 2, 2, 0, 0]);
    }
  });
});
