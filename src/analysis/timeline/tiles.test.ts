import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TraceEventKind } from '../model/trace';
import { randomTraceProfile } from './testing/random-trace';
import { TimelineIndex } from './timeline-index';
import { syntheticTraceProfile } from './testing/synthetic-trace';
import type { SummaryLevel } from './tile-summary';
import { columnBounds, computeMinimap, computeTiles, Keyer, type ColourBy, type TileResult } from './tiles';

/** Per slice row: its depth-(d+1) slices starting inside it on its track (by the definition's O(n²) scan, once per index). */
const childCache = new WeakMap<TimelineIndex, Map<number, number[]>>();
function childrenOf(ix: TimelineIndex, t: number, r: number): number[] {
  let m = childCache.get(ix);
  if (!m) childCache.set(ix, (m = new Map()));
  let kids = m.get(r);
  if (kids) return kids;
  const ev = ix.trace.events;
  const lo = ix.trace.trackEventStart[t]!,
    hi = ix.trace.trackEventStart[t + 1]!;
  const s = ev.start[r]!,
    e = s + ev.duration[r]!;
  kids = [];
  for (let q = lo; q < hi; q++)
    if (
      ev.kind[q] === TraceEventKind.Slice &&
      ev.depth[q] === ev.depth[r]! + 1 &&
      ev.start[q]! >= s &&
      ev.start[q]! < e
    )
      kids.push(q);
  m.set(r, kids);
  return kids;
}

/** Column result by definition: per slice at depth j ≤ d its clipped time, minus its depth-(j+1) children's when j < d; samples by their frame at depth d. */
function bruteColumn(
  ix: TimelineIndex,
  t: number,
  a: number,
  b: number,
  d: number,
  keyer: Keyer,
): { key: number; share: number; busy: number; weights: Map<number, number> } {
  const ev = ix.trace.events;
  const w = new Map<number, number>();
  const add = (k: number, v: number) => w.set(k, (w.get(k) ?? 0) + v);
  const clip = (s: number, e: number) => Math.max(0, Math.min(e, b) - Math.max(s, a));
  let sliceBusy = 0,
    sampleBusy = 0;
  const lo = ix.trace.trackEventStart[t]!,
    hi = ix.trace.trackEventStart[t + 1]!;
  for (let r = lo; r < hi; r++) {
    if (ev.kind[r] !== TraceEventKind.Slice || ev.depth[r]! > d) continue;
    const s = ev.start[r]!,
      e = s + ev.duration[r]!;
    let own = clip(s, e);
    if (ev.depth[r] === 0) sliceBusy += own;
    if (ev.depth[r]! < d && clip(s, e) > 0)
      for (const q of childrenOf(ix, t, r)) own -= clip(ev.start[q]!, ev.start[q]! + ev.duration[q]!);
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
  let key = -1,
    best = 0;
  for (const [k, v] of w)
    if (v > 1e-9 && (v > best + 1e-6 || (Math.abs(v - best) <= 1e-6 && k < key))) {
      key = k;
      best = v;
    }
  return {
    weights: w,
    key,
    share: Math.min(1, best / (b - a)),
    busy: Math.min(1, Math.max(sliceBusy, sampleBusy) / (b - a)),
  };
}

/** Exact weights (ns) of every key in bin i of a summary level, and the time its top-2 list dropped (cached per index). */
const binCache = new WeakMap<TimelineIndex, Map<string, { weights: Map<number, number>; dropped: number }>>();
function binWeights(
  ix: TimelineIndex,
  t: number,
  lvl: SummaryLevel,
  i: number,
  d: number,
  keyer: Keyer,
): { weights: Map<number, number>; dropped: number } {
  let cache = binCache.get(ix);
  if (!cache) binCache.set(ix, (cache = new Map()));
  const id = `${t}:${d}:${keyer.colourBy}:${lvl.binWidth}:${i}`;
  let got = cache.get(id);
  if (got) return got;
  const s = lvl.start + i * lvl.binWidth;
  const { weights } = bruteColumn(ix, t, s, s + lvl.binWidth, d, keyer);
  const total = [...weights.values()].reduce((x, v) => x + v, 0);
  const stored = i >= 0 && i < lvl.key1.length ? (lvl.share1[i]! + lvl.share2[i]!) * lvl.binWidth : 0;
  got = { weights, dropped: Math.max(0, total - stored) };
  cache.set(id, got);
  return got;
}

/**
 * Checks a column answered from the summary against the accuracy rule of TileSummary: busy within
 * the two finest bins cut by the edges; each key's time is its exact time in the bins the column
 * touches, each pro-rated by the fraction of it inside the column, less at most what those bins'
 * top-2 lists dropped (pro-rated too); the chosen key is the heaviest by that measure.
 */
function checkSummarised(ix: TimelineIndex, r: TileResult, lane: number, c: number, keyer: Keyer, where: string): void {
  const t = r.tracks[lane]!,
    at = lane * r.width + c;
  const [a, b] = columnBounds(r.window, r.width, c);
  const want = bruteColumn(ix, t, a, b, r.depth, keyer);
  const summary = ix.tileSummary,
    grid = summary.grid(t)!;
  assert.ok(
    Math.abs(r.busy[at]! - want.busy) <= (2 * grid.w0) / (b - a) + 1e-4,
    `busy ${where}: ${r.busy[at]} vs ${want.busy} (w0 ${grid.w0})`,
  );
  const L = summary.levelFor(t, (r.window.end - r.window.start) / r.width);
  const lvl = summary.level(t, r.depth, r.colourBy, L)!;
  assert.equal(lvl.binWidth, r.resolution![lane], `resolution ${where}`);
  assert.ok(lvl.binWidth <= (b - a) * (1 + 1e-9), `bins at most a column wide ${where}`);
  const lo = (a - lvl.start) / lvl.binWidth,
    hi = (b - lvl.start) / lvl.binWidth;
  const proRated = new Map<number, number>();
  let dropped = 0,
    touched = 0;
  for (let i = Math.max(0, Math.floor(lo)); i < Math.min(lvl.key1.length, Math.ceil(hi)); i++) {
    const f = Math.min(i + 1, hi) - Math.max(i, lo);
    if (f <= 0) continue;
    const bin = binWeights(ix, t, lvl, i, r.depth, keyer);
    for (const [k, v] of bin.weights) proRated.set(k, (proRated.get(k) ?? 0) + f * v);
    dropped += f * bin.dropped;
    touched++;
  }
  assert.ok(touched <= 3, `a column touches at most 3 bins ${where}`);
  const eps = 1e-4 * (b - a);
  const heaviest = Math.max(0, ...proRated.values());
  const k = r.key[at]!;
  if (k < 0) {
    assert.ok(heaviest <= dropped + eps, `key ${where}: nothing chosen but ${heaviest} ns of one key`);
    return;
  }
  const got = r.share[at]! * (b - a),
    exactK = proRated.get(k) ?? 0;
  assert.ok(
    got <= exactK + eps && got >= exactK - dropped - eps,
    `share ${where}: ${got} ns vs ${exactK} ns pro-rated (dropped ${dropped})`,
  );
  assert.ok(
    exactK >= heaviest - dropped - eps,
    `key ${where}: ${k} has ${exactK} ns, another key ${heaviest} ns (dropped ${dropped})`,
  );
}

function checkExact(r: TileResult, lane: number, c: number, want: ReturnType<typeof bruteColumn>, where: string): void {
  const at = lane * r.width + c;
  const [a, b] = columnBounds(r.window, r.width, c);
  assert.ok(Math.abs(r.busy[at]! - want.busy) < 1e-4, `busy ${where}: ${r.busy[at]} vs ${want.busy}`);
  assert.ok(Math.abs(r.share[at]! - want.share) < 1e-4, `share ${where}: ${r.share[at]} vs ${want.share}`);
  // The dominant key, or one tied with it (equal time up to rounding).
  if (want.share > 1e-4 && r.key[at] !== want.key)
    assert.ok(
      Math.abs((want.weights.get(r.key[at]!) ?? 0) / (b - a) - want.share) < 1e-6,
      `key ${where}: ${r.key[at]} vs ${want.key}`,
    );
}

describe('timeline tiles', () => {
  for (const [seed, slices] of [
    [1, 60],
    [2, 60],
    [3, 60],
    [4, 60],
    [5, 60],
    [6, 300],
    [7, 300],
  ] as const) {
    it(`match a brute-force reference at several zooms and depths, exactly and from the summary (seed ${seed}, ${slices} slices per lane)`, () => {
      const ix = new TimelineIndex(randomTraceProfile(seed, 4, slices));
      const tracks = Array.from({ length: ix.trackCount }, (_, t) => t);
      const windows = [
        { start: 0, end: 10_000 },
        { start: 1234.5, end: 3456.7 },
        { start: 5000, end: 5100 },
        { start: 7000, end: 7003 },
        { start: -500, end: 12_000 },
      ];
      let summarised = 0,
        exact = 0;
      for (const colourBy of ['function', 'module'] as ColourBy[]) {
        const keyer = new Keyer(ix, colourBy);
        for (const window of windows)
          for (const depth of [0, 1, 2, 5])
            for (const width of [1, 4, 37, 150]) {
              const strict = computeTiles(ix, { window, tracks, width, depth, colourBy, exact: true });
              const r = computeTiles(ix, { window, tracks, width, depth, colourBy });
              for (let i = 0; i < tracks.length; i++) {
                if (r.resolution![i]! > 0) summarised++;
                else exact++;
                assert.equal(strict.resolution![i], 0);
                for (let c = 0; c < width; c++) {
                  const [a, b] = columnBounds(window, width, c);
                  const want = bruteColumn(ix, tracks[i]!, a, b, depth, keyer);
                  const where = `lane ${i} column ${c} of ${width} window [${window.start}, ${window.end}) depth ${depth} ${colourBy}`;
                  checkExact(strict, i, c, want, `${where} (exact)`);
                  if (r.resolution![i] === 0) checkExact(r, i, c, want, where);
                  else checkSummarised(ix, r, i, c, keyer, where);
                }
              }
            }
      }
      assert.ok(summarised > 0 && exact > 0, `both paths ran: ${summarised} lanes from the summary, ${exact} exact`);
    });
  }

  it('answers the whole-run view of a dense trace from the summary: exact on whole bins without dropped keys, busy within the finest bins', () => {
    const ix = new TimelineIndex(
      syntheticTraceProfile({ ranks: 2, threadsPerRank: 2, streamsPerRank: 2, targetEvents: 20_000 }),
    );
    const [lo, hi] = ix.trace.timeRange;
    const tracks = Array.from({ length: ix.trackCount }, (_, t) => t);
    const keyer = new Keyer(ix, 'function');
    for (const depth of [0, 3]) {
      const r = computeTiles(ix, {
        window: { start: lo, end: hi },
        tracks,
        width: 200,
        depth,
        minPixelsPerEvent: Infinity,
      });
      const strict = computeTiles(ix, {
        window: { start: lo, end: hi },
        tracks,
        width: 200,
        depth,
        minPixelsPerEvent: Infinity,
        exact: true,
      });
      let agree = 0;
      for (let i = 0; i < tracks.length; i++) {
        assert.ok(r.resolution![i]! > 0, `lane ${i} depth ${depth} answered from the summary`);
        for (let c = 0; c < 200; c++) {
          checkSummarised(ix, r, i, c, keyer, `lane ${i} column ${c} depth ${depth}`);
          if (r.key[i * 200 + c] === strict.key[i * 200 + c]) agree++;
        }
      }
      // Not a bound but a sanity figure: at 2–3 bins per column nearly every dominant key is the exact one.
      assert.ok(
        agree / (tracks.length * 200) > 0.9,
        `depth ${depth}: ${agree} of ${tracks.length * 200} keys agree with the exact tiles`,
      );
    }
    // A bin-aligned window whose columns are whole bins: where no key was dropped, the result is exact.
    const t = 0,
      grid = ix.tileSummary.grid(t)!;
    const L = 3,
      bw = grid.w0 * 2 ** L,
      width = 64;
    const window = { start: grid.origin + 4 * bw, end: grid.origin + 4 * bw + 2 * bw * width };
    const r = computeTiles(ix, { window, tracks: [t], width, depth: 1, minPixelsPerEvent: Infinity });
    assert.equal(r.resolution![0], 2 * bw, 'columns one level-(L+1) bin wide use level L+1');
    const lvl = ix.tileSummary.level(t, 1, 'function', L + 1)!;
    let exactColumns = 0;
    for (let c = 0; c < width; c++) {
      const [a, b] = columnBounds(window, width, c);
      const i = Math.round((a - lvl.start) / lvl.binWidth);
      const want = bruteColumn(ix, t, a, b, 1, keyer);
      const total = [...want.weights.values()].reduce((s, v) => s + v, 0);
      if (Math.abs(total - (lvl.share1[i]! + lvl.share2[i]!) * lvl.binWidth) > 1e-3 * lvl.binWidth) continue; // keys dropped
      exactColumns++;
      checkExact(r, 0, c, want, `aligned column ${c}`);
    }
    assert.ok(exactColumns > width / 4, `${exactColumns} of ${width} aligned columns had every key in their top-2`);
    assert.ok(ix.tileSummary.memoryBytes > 0);
  });

  it('names every key it returns, from the profile strings', () => {
    const p = randomTraceProfile(9);
    const ix = new TimelineIndex(p);
    const r = computeTiles(ix, { window: { start: 0, end: 10_000 }, tracks: [0, 1, 2, 3, 4], width: 100, depth: 1 });
    for (const k of r.key) if (k >= 0) assert.equal(r.names.get(k), p.data.strings[k]);
    const m = computeTiles(ix, {
      window: { start: 0, end: 10_000 },
      tracks: [0],
      width: 100,
      depth: 0,
      colourBy: 'module',
    });
    assert.ok(
      [...m.names.values()].every(n => ['app', 'libmpi.so', 'libc.so'].includes(n)),
      [...m.names.values()].join(),
    );
  });

  it('switches a lane to full detail when its visible events fit width / minPixelsPerEvent', () => {
    const ix = new TimelineIndex(randomTraceProfile(3));
    const wide = computeTiles(ix, { window: { start: 0, end: 10_000 }, tracks: [0], width: 100, depth: 0 });
    assert.equal(wide.detail[0], 0, 'whole run, 100 px: too many events for detail');
    assert.equal(wide.events.laneStart[1], 0);
    const ev = ix.trace.events;
    const mid = ev.start[ix.trace.trackEventStart[0]! + 30]!;
    const w0 = mid - 200,
      w1 = mid + 200;
    const narrow = computeTiles(ix, { window: { start: w0, end: w1 }, tracks: [0], width: 1600, depth: 0 });
    assert.equal(narrow.detail[0], 1);
    const n = narrow.events.laneStart[1]!;
    assert.ok(n > 0);
    // Exactly the slices/instants overlapping the window, in table order.
    const want: number[] = [];
    for (let r = ix.trace.trackEventStart[0]!; r < ix.trace.trackEventStart[1]!; r++) {
      const s = ev.start[r]!,
        e = s + ev.duration[r]!;
      if (ev.kind[r] === TraceEventKind.Instant ? s >= w0 && s < w1 : s < w1 && (e > w0 || (e === s && s >= w0)))
        want.push(r);
    }
    assert.deepEqual(Array.from(narrow.events.row.subarray(0, n)), want);
    for (let k = 0; k < n; k++) assert.equal(narrow.events.start[k], ev.start[narrow.events.row[k]!]);
    const never = computeTiles(ix, {
      window: { start: w0, end: w1 },
      tracks: [0],
      width: 1600,
      depth: 0,
      minPixelsPerEvent: Infinity,
    });
    assert.equal(never.detail[0], 0);
  });

  it('computes the mini-map over the whole run and rejects bad requests', () => {
    const ix = new TimelineIndex(randomTraceProfile(4));
    const m = computeMinimap(ix, 64);
    assert.equal(m.key.length, ix.trackCount * 64);
    assert.ok(m.busy.some(x => x > 0));
    assert.throws(
      () => computeTiles(ix, { window: { start: 5, end: 5 }, tracks: [0], width: 10, depth: 0 }),
      /empty or inverted window/,
    );
    assert.throws(
      () => computeTiles(ix, { window: { start: 0, end: 5 }, tracks: [99], width: 10, depth: 0 }),
      /no lane 99/,
    );
    assert.throws(
      () => computeTiles(ix, { window: { start: 0, end: 5 }, tracks: [0], width: 0, depth: 0 }),
      /positive integer/,
    );
  });
});
