import { ColumnScratch, Keyer, laneColumns, type ColourBy, type ColumnOutput } from './lane-columns';
import type { TimelineIndex, TimeWindow } from './timeline-index';

/**
 * About this many events (slices of all depths and samples) per finest bin: fine enough that the
 * whole-run view of a dense lane is answered from bins, coarse enough that a pyramid costs at most
 * ~12 bytes per event of its lane. Narrower columns are computed exactly from the events, which is
 * then cheap since each holds a few events at most on average.
 */
const EVENTS_PER_FINE_BIN = 2;
const SHARE_SCALE = 65535;

/** A lane's bin grid: level L has bins of width `w0 · 2^L` from `origin`. */
export interface LaneGrid {
  origin: number;
  w0: number;
  bins: number;
  levels: number;
}

/** Top-2 keys per bin and their shares of the bin (quantised to 1/65535), all levels back to back. */
interface LanePyramid {
  levelStart: Int32Array;
  key1: Int32Array;
  key2: Int32Array;
  share1: Uint16Array;
  share2: Uint16Array;
}

/** One level of a lane's pyramid, for tests and diagnostics. */
export interface SummaryLevel {
  start: number;
  binWidth: number;
  key1: Int32Array;
  share1: Float32Array;
  key2: Int32Array;
  share2: Float32Array;
}

/**
 * Multi-resolution summary of each lane for zoomed-out tiles: a pyramid of fixed, power-of-two
 * time bins per lane and (depth, colour-by), holding per bin the two heaviest keys at that depth
 * with their time, plus per lane the cumulative busy time at the finest bins. A tile column is
 * answered from the level whose bins are at most one column wide (2–3 bins per column, the edge
 * bins pro-rated), so a frame costs O(W) per lane whatever the zoom.
 *
 * Accuracy: busy is exact up to the finest bins cut by the column's two edges (pro-rated, so off
 * by at most 2 · w0 of busy time). A key's time in a column is its exact time in each bin the
 * column touches times the fraction of that bin inside the column, less at most the (equally
 * pro-rated) time the bins' top-2 lists dropped; the dominant key is the heaviest by that measure.
 * So a column made of whole bins whose top-2 lists hold every key in them is exact, and the edges
 * are off by at most one bin (≤ one column) of time distributed evenly over the bin.
 *
 * Built lazily per lane and (depth, colour-by) on first use, in one exact pass over that lane's
 * events (laneColumns at the finest bins) plus O(bins) merges.
 */
export class TileSummary {
  private readonly grids: (LaneGrid | null | undefined)[];
  private readonly sliceCum: (Float64Array | null | undefined)[];
  private readonly sampleCum: (Float64Array | null | undefined)[];
  private readonly pyramids = new Map<string, (LanePyramid | undefined)[]>();
  private readonly scratch = new ColumnScratch();
  private readonly candKeys = new Int32Array(8);
  private readonly candWeights = new Float64Array(8);

  constructor(private readonly index: TimelineIndex) {
    this.grids = new Array(index.trackCount);
    this.sliceCum = new Array(index.trackCount);
    this.sampleCum = new Array(index.trackCount);
  }

  /** The bin grid of track t, or null when it has no slices or samples. */
  grid(t: number): LaneGrid | null {
    let g = this.grids[t];
    if (g === undefined) g = this.grids[t] = this.makeGrid(t);
    return g;
  }

  /** The pyramid level a column of width `colW` is answered from on track t, or -1 (exact from events). */
  levelFor(t: number, colW: number): number {
    const g = this.grid(t);
    if (!g || !(colW >= g.w0)) return -1;
    let L = Math.min(g.levels - 1, Math.floor(Math.log2(colW / g.w0)));
    while (L > 0 && g.w0 * 2 ** L > colW) L--;
    return L;
  }

  /**
   * Writes track t's columns for the window from the summary and returns the bin width used, or 0
   * (nothing written) when the columns are narrower than the finest bins.
   */
  columns(
    t: number,
    window: TimeWindow,
    width: number,
    depth: number,
    keyer: Keyer,
    out: ColumnOutput,
    at: number,
  ): number {
    const t0 = window.start,
      t1 = window.end,
      colW = (t1 - t0) / width;
    const L = this.levelFor(t, colW);
    if (L < 0) return 0;
    const g = this.grid(t)!;
    const p = this.pyramid(t, depth, keyer);
    const sc = this.sliceCumOf(t),
      mc = this.sampleCumOf(t);
    const w = g.w0 * 2 ** L,
      base = p.levelStart[L]!,
      nL = p.levelStart[L + 1]! - base;
    const { key1, key2, share1, share2 } = p;
    const { key, share, busy } = out;
    // A column touches at most 3 bins (bins are over half a column wide), so at most 6 candidate keys.
    const ck = this.candKeys,
      cw = this.candWeights;
    const inv = w / SHARE_SCALE;
    let prevS = sc ? cumulativeAt(sc, g, t0) : 0,
      prevM = mc ? cumulativeAt(mc, g, t0) : 0;
    for (let c = 0; c < width; c++) {
      const a = t0 + c * colW,
        b = c + 1 === width ? t1 : t0 + (c + 1) * colW;
      const lo = (a - g.origin) / w,
        hi = (b - g.origin) / w;
      const i0 = Math.max(0, Math.floor(lo)),
        i1 = Math.min(nL, Math.ceil(hi));
      let n = 0;
      for (let i = i0; i < i1; i++) {
        const f = (Math.min(i + 1, hi) - Math.max(i, lo)) * inv;
        const k1 = key1[base + i]!;
        if (!(f > 0) || k1 < 0) continue;
        let j = 0;
        while (j < n && ck[j] !== k1) j++;
        if (j === n) {
          ck[n] = k1;
          cw[n++] = f * share1[base + i]!;
        } else cw[j]! += f * share1[base + i]!;
        const k2 = key2[base + i]!;
        if (k2 < 0) continue;
        j = 0;
        while (j < n && ck[j] !== k2) j++;
        if (j === n) {
          ck[n] = k2;
          cw[n++] = f * share2[base + i]!;
        } else cw[j]! += f * share2[base + i]!;
      }
      // The heaviest candidate; ties go to the smaller key, as in the exact columns.
      let bk = -1,
        bw = 0;
      for (let j = 0; j < n; j++) {
        const x = cw[j]!;
        if (x > bw || (x === bw && x > 0 && ck[j]! < bk)) {
          bw = x;
          bk = ck[j]!;
        }
      }
      const s = sc ? cumulativeAt(sc, g, b) : 0,
        m = mc ? cumulativeAt(mc, g, b) : 0;
      key[at + c] = bk;
      share[at + c] = bk >= 0 ? Math.min(1, bw / (b - a)) : 0;
      busy[at + c] = Math.min(1, Math.max(0, s - prevS, m - prevM) / (b - a));
      prevS = s;
      prevM = m;
    }
    return w;
  }

  /** Level L of track t's pyramid at (depth, colour-by), with shares as fractions of a bin. */
  level(t: number, depth: number, colourBy: ColourBy, L: number): SummaryLevel | null {
    const g = this.grid(t);
    if (!g || L < 0 || L >= g.levels) return null;
    const p = this.pyramid(t, depth, new Keyer(this.index, colourBy));
    const a = p.levelStart[L]!,
      b = p.levelStart[L + 1]!;
    const toShare = (q: Uint16Array) => Float32Array.from(q.subarray(a, b), x => x / SHARE_SCALE);
    return {
      start: g.origin,
      binWidth: g.w0 * 2 ** L,
      key1: p.key1.slice(a, b),
      share1: toShare(p.share1),
      key2: p.key2.slice(a, b),
      share2: toShare(p.share2),
    };
  }

  /** Bytes held by the grids, busy sums and pyramids built so far. */
  get memoryBytes(): number {
    let b = 0;
    for (const c of this.sliceCum) if (c) b += c.byteLength;
    for (const c of this.sampleCum) if (c) b += c.byteLength;
    for (const lanes of this.pyramids.values()) {
      for (const p of lanes)
        if (p)
          b +=
            p.levelStart.byteLength + p.key1.byteLength + p.key2.byteLength + p.share1.byteLength + p.share2.byteLength;
    }
    return b;
  }

  private makeGrid(t: number): LaneGrid | null {
    const ix = this.index,
      ev = ix.trace.events;
    let first = Infinity,
      last = -Infinity,
      count = 0;
    for (let j = 0; j < ix.trackDepths(t); j++) {
      const g = ix.trackGroup[t]! + j;
      const a = ix.groupStart[g]!,
        b = ix.groupStart[g + 1]!;
      count += b - a;
      if (j > 0 || b <= a) continue;
      first = Math.min(first, ev.start[ix.rows[a]!]!);
      for (let p = a; p < b; p++) last = Math.max(last, ix.sliceEnd(ix.rows[p]!));
    }
    const sa = ix.sampleStart[t]!,
      sb = ix.sampleStart[t + 1]!;
    if (sb > sa) {
      count += sb - sa;
      first = Math.min(first, ev.start[ix.sampleRows[sa]!]!);
      last = Math.max(last, ev.start[ix.sampleRows[sb - 1]!]! + ix.sampleHold[sb - 1]!);
    }
    if (count === 0 || !(last > first)) return null;
    const origin = Math.floor(first),
      span = last - origin;
    const w0 = 2 ** Math.max(0, Math.ceil(Math.log2((EVENTS_PER_FINE_BIN * span) / count)));
    const bins = Math.max(1, Math.ceil(span / w0));
    return { origin, w0, bins, levels: Math.ceil(Math.log2(bins)) + 1 };
  }

  private sliceCumOf(t: number): Float64Array | null {
    const c = this.sliceCum[t];
    if (c !== undefined) return c;
    const g = this.grid(t)!,
      ix = this.index,
      ev = ix.trace.events;
    if (ix.trackDepths(t) === 0) return (this.sliceCum[t] = null);
    const cum = new Float64Array(g.bins + 1);
    if (ix.isOverlapping(t, 0)) {
      // Overlapping outermost slices (malformed input): let the index merge them bin by bin.
      for (let i = 0; i < g.bins; i++) cum[i + 1] = ix.sliceBusy(t, g.origin + i * g.w0, g.origin + (i + 1) * g.w0);
    } else {
      const grp = ix.trackGroup[t]!;
      for (let p = ix.groupStart[grp]!; p < ix.groupStart[grp + 1]!; p++) {
        const r = ix.rows[p]!;
        addInterval(cum, g, ev.start[r]!, ev.start[r]! + ev.duration[r]!);
      }
    }
    for (let i = 0; i < g.bins; i++) cum[i + 1]! += cum[i]!;
    return (this.sliceCum[t] = cum);
  }

  private sampleCumOf(t: number): Float64Array | null {
    const c = this.sampleCum[t];
    if (c !== undefined) return c;
    const ix = this.index,
      ev = ix.trace.events;
    const sa = ix.sampleStart[t]!,
      sb = ix.sampleStart[t + 1]!;
    if (sb <= sa) return (this.sampleCum[t] = null);
    const g = this.grid(t)!;
    const cum = new Float64Array(g.bins + 1);
    for (let q = sa; q < sb; q++) {
      const s = ev.start[ix.sampleRows[q]!]!;
      addInterval(cum, g, s, s + ix.sampleHold[q]!);
    }
    for (let i = 0; i < g.bins; i++) cum[i + 1]! += cum[i]!;
    return (this.sampleCum[t] = cum);
  }

  private pyramid(t: number, depth: number, keyer: Keyer): LanePyramid {
    const id = `${keyer.id}:${depth}`;
    let lanes = this.pyramids.get(id);
    if (!lanes) this.pyramids.set(id, (lanes = new Array(this.index.trackCount)));
    return (lanes[t] ??= this.buildPyramid(t, depth, keyer));
  }

  private buildPyramid(t: number, depth: number, keyer: Keyer): LanePyramid {
    const g = this.grid(t)!;
    const levelStart = new Int32Array(g.levels + 1);
    for (let L = 0, n = g.bins; L < g.levels; L++, n = Math.ceil(n / 2)) levelStart[L + 1] = levelStart[L]! + n;
    const total = levelStart[g.levels]!;
    const key1 = new Int32Array(total),
      key2 = new Int32Array(total);
    const s1 = new Float32Array(total),
      s2 = new Float32Array(total);
    // Finest level: the exact columns of the lane at the bin width (w0 is a power of two, so the bin edges are exact).
    const out: ColumnOutput = { key: key1, share: s1, busy: new Float32Array(g.bins), key2, share2: s2 };
    laneColumns(
      this.index,
      t,
      { start: g.origin, end: g.origin + g.bins * g.w0 },
      g.bins,
      depth,
      keyer,
      this.scratch,
      out,
      0,
    );
    // Coarser levels: each bin merges its two children's top-2 lists (weights halve with the doubled width).
    const sc = this.scratch;
    for (let L = 1; L < g.levels; L++) {
      const from = levelStart[L - 1]!,
        n = levelStart[L]! - from,
        to = levelStart[L]!;
      for (let i = 0; i < levelStart[L + 1]! - to; i++) {
        sc.size = 0;
        for (const child of [from + 2 * i, from + 2 * i + 1]) {
          if (child - from >= n) continue;
          if (key1[child]! >= 0) sc.add(key1[child]!, s1[child]! / 2);
          if (key2[child]! >= 0) sc.add(key2[child]!, s2[child]! / 2);
        }
        const b1 = sc.best(),
          b2 = b1 >= 0 ? sc.best(b1) : -1;
        key1[to + i] = b1 >= 0 ? sc.keys[b1]! : -1;
        s1[to + i] = b1 >= 0 ? sc.weights[b1]! : 0;
        key2[to + i] = b2 >= 0 ? sc.keys[b2]! : -1;
        s2[to + i] = b2 >= 0 ? sc.weights[b2]! : 0;
      }
    }
    const q = (s: Float32Array) => Uint16Array.from(s, x => Math.round(Math.min(1, Math.max(0, x)) * SHARE_SCALE));
    return { levelStart, key1, key2, share1: q(s1), share2: q(s2) };
  }
}

/** Adds the part of [s, e) in each finest bin to `perBin[i + 1]` (before the running sum). */
function addInterval(perBin: Float64Array, g: LaneGrid, s: number, e: number): void {
  if (!(e > s)) return;
  const u0 = (s - g.origin) / g.w0,
    u1 = (e - g.origin) / g.w0;
  const i0 = Math.max(0, Math.floor(u0)),
    i1 = Math.min(g.bins, Math.ceil(u1));
  for (let i = i0; i < i1; i++) perBin[i + 1]! += (Math.min(i + 1, u1) - Math.max(i, u0)) * g.w0;
}

/** Cumulative time to x, interpolated linearly inside the finest bin holding x. */
function cumulativeAt(cum: Float64Array, g: LaneGrid, x: number): number {
  const u = (x - g.origin) / g.w0;
  if (u <= 0) return 0;
  if (u >= g.bins) return cum[g.bins]!;
  const i = Math.floor(u);
  return cum[i]! + (u - i) * (cum[i + 1]! - cum[i]!);
}
