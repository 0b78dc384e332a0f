import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATA_MOVEMENT_KIND_NAMES, TraceEventKind } from '../model/trace';
import { dataMovementInWindow, flowsInWindow } from './flows-and-copies';
import { randomTraceProfile } from './testing/random-trace';
import { syntheticTraceProfile } from './testing/synthetic-trace';
import { TimelineIndex, type TimeWindow } from './timeline-index';
import { profileForWindow, windowStatistics } from './window-stats';

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** Per function by definition: inclusive = union of its slices clipped (outermost of a recursion only), exclusive = clipped minus clipped children. */
function brute(ix: TimelineIndex, w: TimeWindow) {
  const ev = ix.trace.events,
    s = ix.profile.data.strings;
  const clip = (r: number) =>
    Math.max(0, Math.min(ev.start[r]! + ev.duration[r]!, w.end) - Math.max(ev.start[r]!, w.start));
  const incl = new Map<string, number>(),
    excl = new Map<string, number>(),
    samples = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busy = 0;
  for (let t = 0; t < ix.trackCount; t++) {
    const lo = ix.trace.trackEventStart[t]!,
      hi = ix.trace.trackEventStart[t + 1]!;
    const slices = [] as number[];
    for (let r = lo; r < hi; r++) if (ev.kind[r] === TraceEventKind.Slice) slices.push(r);
    const parentOf = (r: number) =>
      slices.find(
        q =>
          ev.depth[q] === ev.depth[r]! - 1 &&
          ev.start[q]! <= ev.start[r]! &&
          ev.start[r]! < ev.start[q]! + ev.duration[q]! + (ev.duration[q] === 0 ? 1 : 0),
      ) ?? -1;
    let sliceBusy = 0;
    for (const r of slices) {
      const c = clip(r),
        name = s[ev.name[r]!]!;
      if (ev.depth[r] === 0) sliceBusy += c;
      add(excl, name, c);
      const p = parentOf(r);
      if (p >= 0) add(excl, s[ev.name[p]!]!, -c);
      let nested = false;
      for (let q = p; q >= 0; q = parentOf(q)) if (ev.name[q] === ev.name[r]) nested = true;
      if (!nested) add(incl, name, c);
    }
    let sampleBusy = 0;
    for (let p = ix.sampleStart[t]!; p < ix.sampleStart[t + 1]!; p++) {
      const r = ix.sampleRows[p]!,
        st = ev.start[r]!;
      sampleBusy += Math.max(0, Math.min(st + ix.sampleHold[p]!, w.end) - Math.max(st, w.start));
      if (st >= w.start && st < w.end) add(samples, s[ev.name[r]!]!, 1);
    }
    busy += Math.max(sliceBusy, sampleBusy);
  }
  return { incl, excl, samples, busy };
}

describe('window statistics', () => {
  for (const seed of [11, 12, 13, 14]) {
    it(`match brute force, clipped at the window edges (seed ${seed})`, () => {
      const ix = new TimelineIndex(randomTraceProfile(seed));
      for (const w of [
        { start: 0, end: 10_000 },
        { start: 1111.5, end: 2222.25 },
        { start: 4000, end: 4001 },
        { start: 3000, end: 7000 },
      ]) {
        const st = windowStatistics(ix, w);
        const want = brute(ix, w);
        for (const [name, v] of want.incl)
          if (v > 0)
            close(
              st.functions.find(f => f.name === name)?.inclusive ?? 0,
              v,
              `${name} inclusive in [${w.start}, ${w.end})`,
            );
        for (const [name, v] of want.excl)
          close(st.functions.find(f => f.name === name)?.exclusive ?? 0, v, `${name} exclusive`);
        for (const [name, v] of want.samples)
          assert.equal(st.functions.find(f => f.name === name)?.samplesExclusive, v, `${name} samples`);
        close(
          st.lanes.reduce((s, l) => s + l.busy, 0),
          want.busy,
          'busy',
        );
        for (const l of st.lanes) close(l.busy + l.idle, w.end - w.start, 'busy + idle = window');
      }
    });
  }

  it('apportions bytes moved to the window at a constant rate, counting instantaneous copies whole', () => {
    const ix = new TimelineIndex(randomTraceProfile(21));
    const dm = ix.trace.dataMovement;
    for (const w of [
      { start: 0, end: 10_000 },
      { start: 2000, end: 6000 },
      { start: 4500, end: 4600 },
    ]) {
      const want: Record<string, number> = {};
      for (let i = 0; i < dm.kind.length; i++) {
        const s = dm.start[i]!,
          d = dm.duration[i]!;
        const part =
          d > 0 ? Math.max(0, Math.min(s + d, w.end) - Math.max(s, w.start)) / d : s >= w.start && s < w.end ? 1 : 0;
        if (part > 0)
          want[DATA_MOVEMENT_KIND_NAMES[dm.kind[i]!]!] =
            (want[DATA_MOVEMENT_KIND_NAMES[dm.kind[i]!]!] ?? 0) + part * dm.bytes[i]!;
      }
      const got = windowStatistics(ix, w).bytes;
      assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
      for (const k of Object.keys(want)) close(got[k]!.bytes, want[k]!, k);
    }
    const whole = dataMovementInWindow(ix, { start: -1, end: 20_000 });
    close(
      whole.bytesInWindow.reduce((a, b) => a + b, 0),
      dm.bytes.reduce((a, b) => a + b, 0),
      'every byte inside the whole run',
    );
  });

  it('restricts to a lane subset', () => {
    const ix = new TimelineIndex(randomTraceProfile(5));
    const all = windowStatistics(ix, { start: 0, end: 10_000 });
    const one = windowStatistics(ix, { start: 0, end: 10_000 }, [1]);
    assert.deepEqual(one.tracks, [1]);
    assert.equal(one.lanes.length, 1);
    assert.equal(one.lanes[0]!.busy, all.lanes[1]!.busy);
    assert.ok(one.eventCount < all.eventCount);
    assert.throws(() => windowStatistics(ix, { start: 3, end: 1 }), /empty or invalid window/);
    assert.throws(() => windowStatistics(ix, { start: 0, end: 1 }, [42]), /no lane 42/);
  });
});

describe('profileForWindow', () => {
  it('keeps Σ exclusive of a subtree = inclusive, and total = Σ lane busy from slices', () => {
    for (const seed of [31, 32, 33]) {
      const base = randomTraceProfile(seed);
      const ix = new TimelineIndex(base);
      for (const w of [
        { start: 0, end: 10_000 },
        { start: 2500, end: 3300 },
      ]) {
        const p = profileForWindow(ix, w);
        assert.equal(p.tree, p.tree);
        assert.equal(p.data.tree, base.data.tree, 'the tree columns are shared, not copied');
        assert.equal(p.metrics[0]!.name, 'time in window');
        const ex = p.exclusive(0),
          inc = p.inclusive(0),
          C = p.contextCount;
        // Inclusive of every node = Σ exclusive over its subtree, per context.
        const sub = new Float64Array(ex);
        for (let i = p.tree.size - 1; i >= 0; i--) {
          const q = p.tree.parent(i);
          if (q >= 0) for (let c = 0; c < C; c++) sub[q * C + c]! += sub[i * C + c]!;
        }
        for (let k = 0; k < sub.length; k++) close(inc[k]!, sub[k]!, `cell ${k}`);
        let sliceBusy = 0;
        for (let t = 0; t < ix.trackCount; t++) sliceBusy += ix.sliceBusy(t, w.start, w.end);
        close(p.total(0), sliceBusy, 'total = Σ outermost-slice time in the window');
        // Samples in the window are counted at their leaf.
        const si = p.metricIndex('samples in window');
        const st = windowStatistics(ix, w);
        assert.equal(
          p.total(si),
          st.functions.reduce((s, f) => s + f.samplesExclusive, 0),
        );
      }
      // The whole run reproduces the trace's own time metric.
      const whole = profileForWindow(ix, { start: -1, end: 20_000 });
      const own = base.exclusiveTotals(0),
        win = whole.exclusiveTotals(0);
      for (let i = 0; i < own.length; i++) close(win[i]!, own[i]!, `node ${i}`);
    }
  });

  it("on a lane subset counts only those lanes' contexts", () => {
    const ix = new TimelineIndex(randomTraceProfile(40));
    const p = profileForWindow(ix, { start: 0, end: 10_000 }, [2]);
    const ctx = ix.trace.tracks[2]!.context;
    const ex = p.exclusive(0);
    for (let k = 0; k < ex.length; k++) if (k % p.contextCount !== ctx) assert.equal(ex[k], 0);
    close(p.total(0), ix.sliceBusy(2, 0, 10_000), 'lane 2 busy');
  });
});

describe('synthetic large trace', () => {
  it('has the advertised shape: lanes, a straggler, flows and copies; the windowed profile of the run equals its time metric', () => {
    const p = syntheticTraceProfile({
      ranks: 8,
      threadsPerRank: 3,
      streamsPerRank: 2,
      targetEvents: 40_000,
      stragglerRank: 3,
    });
    const t = p.trace!;
    assert.equal(t.tracks.length, 8 * 5);
    assert.ok(Math.abs(t.events.track.length - 40_000) / 40_000 < 0.1, `${t.events.track.length} events`);
    const ix = new TimelineIndex(p);
    const [lo, hi] = t.timeRange;
    const st = windowStatistics(ix, { start: lo, end: hi });
    const compute = (r: number) =>
      windowStatistics(ix, { start: lo, end: hi }, [
        t.tracks.findIndex(k => k.rank === r && k.thread === 0),
      ]).functions.find(f => f.name === 'compute_stencil')!.inclusive;
    assert.ok(compute(3) > 1.4 * compute(0), 'the straggler computes ~60 % longer');
    const wait = (r: number) =>
      windowStatistics(ix, { start: lo, end: hi }, [
        t.tracks.findIndex(k => k.rank === r && k.thread === 0),
      ]).functions.find(f => f.name === 'MPI_Allreduce')!.inclusive;
    assert.ok(wait(0) > 5 * wait(3), 'the others wait for it in MPI_Allreduce');
    assert.ok(st.bytes['host-to-device']!.bytes > 0 && st.bytes['device-to-host']!.bytes > 0);
    assert.ok(flowsInWindow(ix, { start: lo, end: hi }).length === t.flows.kind.length);
    const whole = profileForWindow(ix, { start: lo, end: hi + 1 });
    close(whole.total(0), p.total(0), 'window = whole run');
  });
});
