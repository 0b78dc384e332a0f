import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TraceEventKind } from '../model/trace';
import { randomTraceProfile } from './testing/random-trace';
import { TimelineIndex } from './timeline-index';
import { columnBounds, computeMinimap, computeTiles, Keyer, type ColourBy } from './tiles';

/** Column result by definition: per slice at depth j ≤ d its clipped time, minus its depth-(j+1) children's when j < d; samples by their frame at depth d. */
function bruteColumn(ix: TimelineIndex, t: number, a: number, b: number, d: number, keyer: Keyer): { key: number; share: number; busy: number; weights: Map<number, number> } {
  const ev = ix.trace.events;
  const w = new Map<number, number>();
  const add = (k: number, v: number) => w.set(k, (w.get(k) ?? 0) + v);
  const clip = (s: number, e: number) => Math.max(0, Math.min(e, b) - Math.max(s, a));
  let sliceBusy = 0, sampleBusy = 0;
  const lo = ix.trace.trackEventStart[t]!, hi = ix.trace.trackEventStart[t + 1]!;
  for (let r = lo; r < hi; r++) {
    if (ev.kind[r] !== TraceEventKind.Slice || ev.depth[r]! > d) continue;
    const s = ev.start[r]!, e = s + ev.duration[r]!;
    let own = clip(s, e);
    if (ev.depth[r] === 0) sliceBusy += own;
    if (ev.depth[r]! < d) {
      for (let q = lo; q < hi; q++) {
        if (ev.kind[q] === TraceEventKind.Slice && ev.depth[q] === ev.depth[r]! + 1 && ev.start[q]! >= s && ev.start[q]! < e) own -= clip(ev.start[q]!, ev.start[q]! + ev.duration[q]!);
      }
    }
    if (own !== 0) add(keyer.ofSlice(r), own);
  }
  for (let p = ix.sampleStart[t]!; p < ix.sampleStart[t + 1]!; p++) {
    const r = ix.sampleRows[p]!;
    const c = clip(ev.start[r]!, ev.start[r]! + ix.sampleHold[p]!);
    if (c <= 0) continue;
    let n = ev.node[r]!;
    while (ix.nodeDepth[n]! > d) n = ix.nodeParent[n]!;
    add(keyer.ofNode(n), c);
    sampleBusy += c;
  }
  let key = -1, best = 0;
  for (const [k, v] of w) if (v > 1e-9 && (v > best + 1e-6 || (Math.abs(v - best) <= 1e-6 && k < key))) { key = k; best = v; }
  return { weights: w, key, share: Math.min(1, best / (b - a)), busy: Math.min(1, Math.max(sliceBusy, sampleBusy) / (b - a)) };
}

describe('timeline tiles', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`match a brute-force reference at several zooms and depths (seed ${seed})`, () => {
      const ix = new TimelineIndex(randomTraceProfile(seed));
      const tracks = Array.from({ length: ix.trackCount }, (_, t) => t);
      const windows = [{ start: 0, end: 10_000 }, { start: 1234.5, end: 3456.7 }, { start: 5000, end: 5100 }, { start: 7000, end: 7003 }, { start: -500, end: 12_000 }];
      for (const colourBy of ['function', 'module'] as ColourBy[]) {
        const keyer = new Keyer(ix, colourBy);
        for (const window of windows) for (const depth of [0, 1, 2, 5]) for (const width of [1, 37, 150]) {
          const r = computeTiles(ix, { window, tracks, width, depth, colourBy });
          for (let i = 0; i < tracks.length; i++) for (let c = 0; c < width; c++) {
            const [a, b] = columnBounds(window, width, c);
            const want = bruteColumn(ix, tracks[i]!, a, b, depth, keyer);
            const at = i * width + c;
            const where = `lane ${i} column ${c} of ${width} window [${window.start}, ${window.end}) depth ${depth} ${colourBy}`;
            assert.ok(Math.abs(r.busy[at]! - want.busy) < 1e-4, `busy ${where}: ${r.busy[at]} vs ${want.busy}`);
            assert.ok(Math.abs(r.share[at]! - want.share) < 1e-4, `share ${where}: ${r.share[at]} vs ${want.share}`);
            // The dominant key, or one tied with it (equal time up to rounding).
            if (want.share > 1e-4 && r.key[at] !== want.key) assert.ok(Math.abs((want.weights.get(r.key[at]!) ?? 0) / (b - a) - want.share) < 1e-6, `key ${where}: ${r.key[at]} vs ${want.key}`);
          }
        }
      }
    });
  }

  it('names every key it returns, from the profile strings', () => {
    const p = randomTraceProfile(9);
    const ix = new TimelineIndex(p);
    const r = computeTiles(ix, { window: { start: 0, end: 10_000 }, tracks: [0, 1, 2, 3, 4], width: 100, depth: 1 });
    for (const k of r.key) if (k >= 0) assert.equal(r.names.get(k), p.data.strings[k]);
    const m = computeTiles(ix, { window: { start: 0, end: 10_000 }, tracks: [0], width: 100, depth: 0, colourBy: 'module' });
    assert.ok([...m.names.values()].every(n => ['app', 'libmpi.so', 'libc.so'].includes(n)), [...m.names.values()].join());
  });

  it('switches a lane to full detail when its visible events fit width / minPixelsPerEvent', () => {
    const ix = new TimelineIndex(randomTraceProfile(3));
    const wide = computeTiles(ix, { window: { start: 0, end: 10_000 }, tracks: [0], width: 100, depth: 0 });
    assert.equal(wide.detail[0], 0, 'whole run, 100 px: too many events for detail');
    assert.equal(wide.events.laneStart[1], 0);
    const ev = ix.trace.events;
    const mid = ev.start[ix.trace.trackEventStart[0]! + 30]!;
    const w0 = mid - 200, w1 = mid + 200;
    const narrow = computeTiles(ix, { window: { start: w0, end: w1 }, tracks: [0], width: 1600, depth: 0 });
    assert.equal(narrow.detail[0], 1);
    const n = narrow.events.laneStart[1]!;
    assert.ok(n > 0);
    // Exactly the slices/instants overlapping the window, in table order.
    const want: number[] = [];
    for (let r = ix.trace.trackEventStart[0]!; r < ix.trace.trackEventStart[1]!; r++) {
      const s = ev.start[r]!, e = s + ev.duration[r]!;
      if (ev.kind[r] === TraceEventKind.Instant ? s >= w0 && s < w1 : s < w1 && (e > w0 || (e === s && s >= w0))) want.push(r);
    }
    assert.deepEqual(Array.from(narrow.events.row.subarray(0, n)), want);
    for (let k = 0; k < n; k++) assert.equal(narrow.events.start[k], ev.start[narrow.events.row[k]!]);
    const never = computeTiles(ix, { window: { start: w0, end: w1 }, tracks: [0], width: 1600, depth: 0, minPixelsPerEvent: Infinity });
    assert.equal(never.detail[0], 0);
  });

  it('computes the mini-map over the whole run and rejects bad requests', () => {
    const ix = new TimelineIndex(randomTraceProfile(4));
    const m = computeMinimap(ix, 64);
    assert.equal(m.key.length, ix.trackCount * 64);
    assert.ok(m.busy.some(x => x > 0));
    assert.throws(() => computeTiles(ix, { window: { start: 5, end: 5 }, tracks: [0], width: 10, depth: 0 }), /empty or inverted window/);
    assert.throws(() => computeTiles(ix, { window: { start: 0, end: 5 }, tracks: [99], width: 10, depth: 0 }), /no lane 99/);
    assert.throws(() => computeTiles(ix, { window: { start: 0, end: 5 }, tracks: [0], width: 0, depth: 0 }), /positive integer/);
  });
});
