import { GrowableFloat64, GrowableInt32 } from '../model/growable';

/**
 * Unions of time intervals, one per lane (a track, a GPU device…), stored as sorted, disjoint
 * intervals per lane with prefix sums of their lengths. "How long is lane L busy in [t0, t1)" is two
 * binary searches; spreading every lane's busy time over equal bins (the clock's sectors) is one pass.
 * Busy time in DMV is exactly this: the length of the union of a class's intervals on a lane, summed
 * over lanes (thesis §7.3; overlapping intervals on one lane, such as nested calls, count once).
 */
export class LaneUnions {
  /** Lane l holds intervals `laneStart[l] … laneStart[l + 1] - 1`. */
  readonly laneStart: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Σ of lengths of the intervals before each position (length intervals + 1). */
  private readonly prefix: Float64Array;

  constructor(laneStart: Int32Array, start: Float64Array, end: Float64Array) {
    this.laneStart = laneStart;
    this.start = start;
    this.end = end;
    this.prefix = new Float64Array(start.length + 1);
    for (let i = 0; i < start.length; i++) this.prefix[i + 1] = this.prefix[i]! + (end[i]! - start[i]!);
  }

  get laneCount(): number {
    return this.laneStart.length - 1;
  }

  /** Lanes with at least one interval (a listed GPU the run never used is not counted in its occupancy). */
  get activeLanes(): number {
    let k = 0;
    for (let l = 0; l < this.laneCount; l++) if (this.laneStart[l + 1]! > this.laneStart[l]!) k++;
    return k;
  }

  /** Σ of every lane's busy time. */
  get total(): number {
    return this.prefix[this.prefix.length - 1]!;
  }

  /** Busy time of lane l inside [t0, t1). */
  coveredOnLane(l: number, t0: number, t1: number): number {
    const a = this.laneStart[l]!,
      b = this.laneStart[l + 1]!;
    if (a === b || t1 <= t0) return 0;
    // First interval ending after t0, first starting at or after t1.
    let lo = a,
      hi = b;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (this.end[m]! > t0) hi = m;
      else lo = m + 1;
    }
    let h = lo,
      e = b;
    while (h < e) {
      const m = (h + e) >>> 1;
      if (this.start[m]! < t1) h = m + 1;
      else e = m;
    }
    if (h <= lo) return 0;
    let sum = this.prefix[h]! - this.prefix[lo]!;
    if (this.start[lo]! < t0) sum -= t0 - this.start[lo]!;
    if (this.end[h - 1]! > t1) sum -= this.end[h - 1]! - Math.max(t1, this.start[h - 1]!);
    return Math.max(0, sum);
  }

  /** Σ over lanes of the busy time inside [t0, t1). */
  covered(t0: number, t1: number): number {
    let s = 0;
    for (let l = 0; l < this.laneCount; l++) s += this.coveredOnLane(l, t0, t1);
    return s;
  }

  /**
   * Adds every lane's busy time to `bins` equal bins of `width` from `origin` (bin k is
   * [origin + k·width, origin + (k+1)·width)), splitting intervals at bin edges; time outside the bins
   * is dropped. `out[k * stride + offset]` receives bin k (so several classes can share one array).
   */
  addToBins(origin: number, width: number, bins: number, out: Float64Array, stride = 1, offset = 0): void {
    if (!(width > 0) || bins <= 0) return;
    const endAll = origin + width * bins;
    const n = this.start.length;
    for (let i = 0; i < n; i++) {
      let s = this.start[i]!;
      const e = Math.min(this.end[i]!, endAll);
      if (s < origin) s = origin;
      if (e <= s) continue;
      let k = Math.floor((s - origin) / width);
      while (s < e && k < bins) {
        const edge = origin + (k + 1) * width;
        const piece = Math.min(e, edge) - s;
        out[k * stride + offset]! += piece;
        s = edge;
        k++;
      }
    }
  }
}

/**
 * Collects intervals lane by lane and merges them into a {@link LaneUnions}. Intervals of one lane
 * must come in start order when `sorted` is true (a trace's events are: track, then start); otherwise
 * each lane's intervals are sorted at the end. Lanes are numbered 0 … lanes − 1.
 */
export class LaneUnionBuilder {
  private readonly lane = new GrowableInt32(1024);
  private readonly s = new GrowableFloat64(1024);
  private readonly e = new GrowableFloat64(1024);

  constructor(private readonly lanes: number) {}

  add(lane: number, start: number, end: number): void {
    if (!(end > start)) return;
    this.lane.push(lane);
    this.s.push(start);
    this.e.push(end);
  }

  build(): LaneUnions {
    const n = this.lane.length;
    const lane = this.lane.finish(),
      s = this.s.finish(),
      e = this.e.finish();
    // Counting sort by lane (stable: a lane's intervals keep their order).
    const laneStart = new Int32Array(this.lanes + 1);
    for (let i = 0; i < n; i++) laneStart[lane[i]! + 1]!++;
    for (let l = 0; l < this.lanes; l++) laneStart[l + 1]! += laneStart[l]!;
    const ls = new Float64Array(n),
      le = new Float64Array(n);
    const fill = laneStart.slice(0, this.lanes);
    for (let i = 0; i < n; i++) {
      const k = fill[lane[i]!]!++;
      ls[k] = s[i]!;
      le[k] = e[i]!;
    }
    const outStart = new GrowableFloat64(Math.max(16, n >> 1)),
      outEnd = new GrowableFloat64(Math.max(16, n >> 1));
    const outLane = new Int32Array(this.lanes + 1);
    for (let l = 0; l < this.lanes; l++) {
      outLane[l] = outStart.length;
      const a = laneStart[l]!,
        b = laneStart[l + 1]!;
      let sorted = true;
      for (let k = a + 1; k < b && sorted; k++) if (ls[k]! < ls[k - 1]!) sorted = false;
      if (sorted) {
        // Merge in start order.
        let cs = NaN,
          ce = NaN;
        for (let k = a; k < b; k++) {
          if (Number.isNaN(cs)) {
            cs = ls[k]!;
            ce = le[k]!;
          } else if (ls[k]! > ce) {
            outStart.push(cs);
            outEnd.push(ce);
            cs = ls[k]!;
            ce = le[k]!;
          } else if (le[k]! > ce) ce = le[k]!;
        }
        if (!Number.isNaN(cs)) {
          outStart.push(cs);
          outEnd.push(ce);
        }
        continue;
      }
      // Several sorted streams interleaved (a GPU's streams): the union is where the number of open
      // intervals is positive, found from the starts and the ends sorted on their own (native sorts).
      const starts = ls.subarray(a, b).sort(),
        ends = le.subarray(a, b).sort();
      let open = 0,
        j = 0;
      for (let k = 0; k < starts.length; k++) {
        const t = starts[k]!;
        while (ends[j]! < t) {
          if (--open === 0) outEnd.push(ends[j]!);
          j++;
        }
        if (open++ === 0) outStart.push(t);
      }
      while (j < ends.length) {
        if (--open === 0) outEnd.push(ends[j]!);
        j++;
      }
    }
    outLane[this.lanes] = outStart.length;
    return new LaneUnions(outLane, outStart.finish(), outEnd.finish());
  }
}

/**
 * Merges intervals that arrive lane by lane in start order (lanes ascending, starts ascending within a
 * lane), as a trace's event table delivers them (track, then start): the union is built on the fly,
 * without keeping the raw intervals. An interval out of that order is an error (use LaneUnionBuilder).
 */
export class OrderedLaneUnionBuilder {
  private readonly s = new GrowableFloat64(1024);
  private readonly e = new GrowableFloat64(1024);
  private readonly laneStart: Int32Array;
  private lane = -1;
  private cs = NaN;
  private ce = NaN;

  constructor(private readonly lanes: number) {
    this.laneStart = new Int32Array(lanes + 1);
  }

  add(lane: number, start: number, end: number): void {
    if (!(end > start)) return;
    if (lane !== this.lane) {
      if (lane < this.lane) throw new Error(`lane ${lane} after lane ${this.lane}: intervals must come lane by lane`);
      this.close(lane);
    } else if (start < this.cs) throw new Error(`lane ${lane}: interval at ${start} after one at ${this.cs}`);
    else if (start <= this.ce) {
      if (end > this.ce) this.ce = end;
      return;
    } else {
      this.s.push(this.cs);
      this.e.push(this.ce);
    }
    this.cs = start;
    this.ce = end;
  }

  build(): LaneUnions {
    this.close(this.lanes);
    return new LaneUnions(this.laneStart, this.s.finish(), this.e.finish());
  }

  /** Ends the open lane and opens `next` (lanes in between stay empty). */
  private close(next: number): void {
    if (this.lane >= 0 && !Number.isNaN(this.cs)) {
      this.s.push(this.cs);
      this.e.push(this.ce);
    }
    for (let l = this.lane + 1; l <= next; l++) this.laneStart[l] = this.s.length;
    this.lane = next;
    this.cs = this.ce = NaN;
  }
}
