import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TraceEventKind } from '../model/trace';
import { eventAt, eventDetails, eventsOfNode, zoomToEvent } from './lookup';
import { randomTraceProfile } from './testing/random-trace';
import { syntheticTraceProfile } from './testing/synthetic-trace';
import { TimelineIndex } from './timeline-index';

describe('timeline lookup', () => {
  it('finds the slice under the pointer at a depth, the innermost one, or a sample hold', () => {
    const ix = new TimelineIndex(randomTraceProfile(7));
    const ev = ix.trace.events;
    for (let r = 0; r < ev.track.length; r++) {
      if (ev.kind[r] !== TraceEventKind.Slice || ev.duration[r] === 0) continue;
      const mid = ev.start[r]! + ev.duration[r]! / 2;
      assert.equal(eventAt(ix, ev.track[r]!, mid, ev.depth[r]!), r);
      const inner = eventAt(ix, ev.track[r]!, mid);
      assert.ok(ev.depth[inner]! >= ev.depth[r]!);
      assert.equal(
        eventAt(ix, ev.track[r]!, ev.start[r]! + ev.duration[r]!, ev.depth[r]!) === r,
        false,
        'half-open: the end is outside',
      );
    }
    const sampled = ix.trackCount - 1;
    const p = ix.sampleStart[sampled]!;
    const r = ix.sampleRows[p]!;
    assert.equal(eventAt(ix, sampled, ev.start[r]! + ix.sampleHold[p]! / 2), r);
    assert.equal(eventAt(ix, sampled, -5), -1);
  });

  it('details: call path, nearest source location, copy bytes and bandwidth', () => {
    const p = syntheticTraceProfile({ ranks: 2, threadsPerRank: 1, streamsPerRank: 2, targetEvents: 3000 });
    const ix = new TimelineIndex(p);
    const dm = ix.trace.dataMovement;
    const d = eventDetails(ix, dm.event[0]!);
    assert.equal(d.name, 'Memcpy HtoD');
    assert.deepEqual(d.callPath, ['main', 'timestep', 'compute_stencil', 'cudaMemcpyAsync', 'Memcpy HtoD']);
    assert.equal(d.source?.file, '/home/user/stencil/src/stencil.c');
    assert.equal(d.source?.line, 120);
    assert.equal(d.copy?.direction, 'host-to-device');
    assert.equal(d.copy?.bytes, 8 << 20);
    assert.equal(d.copy?.bytesPerSecond, (8 << 20) / (dm.duration[0]! * 1e-9));
    assert.equal(d.trackName, 'stream 1');
    assert.throws(() => eventDetails(ix, -1), /no event row/);
    const z = zoomToEvent(ix, dm.event[0]!);
    assert.ok(z.start < d.start && z.end > d.start + d.duration);
  });

  it('lists the events of a node and its descendants in a window, per lane', () => {
    const ix = new TimelineIndex(randomTraceProfile(8));
    const ev = ix.trace.events;
    const tree = ix.profile.tree;
    const root = tree.roots()[0]!;
    const window = { start: 2000, end: 6000 };
    const tracks = Array.from({ length: ix.trackCount }, (_, t) => t);
    const got = eventsOfNode(ix, root, window, tracks);
    const under = (n: number) => {
      for (let x = n; x >= 0; x = tree.parent(x)) if (x === root) return true;
      return false;
    };
    tracks.forEach((t, i) => {
      const want: number[] = [];
      for (let r = ix.trace.trackEventStart[t]!; r < ix.trace.trackEventStart[t + 1]!; r++) {
        if (ev.kind[r] === TraceEventKind.Instant || ev.node[r]! < 0 || !under(ev.node[r]!)) continue;
        const s = ev.start[r]!;
        if (ev.kind[r] === TraceEventKind.Sample) {
          const p = Array.from(ix.sampleRows).indexOf(r);
          if (s < window.end && (s + ix.sampleHold[p]! > window.start || s >= window.start)) want.push(r);
        } else if (
          s < window.end &&
          (s + ev.duration[r]! > window.start || (ev.duration[r] === 0 && s >= window.start))
        )
          want.push(r);
      }
      assert.deepEqual(Array.from(got[i]!), want, `lane ${t}`);
    });
  });
});
