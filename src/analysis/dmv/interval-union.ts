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
    // Counting sort by lane, then by start within a lane.
    const laneStart = new Int32Array(this.lanes + 1);
    for (let i = 0; i < n; i++) laneStart[lane[i]! + 1]!++;
    for (let l = 0; l < this.lanes; l++) laneStart[l + 1]! += laneStart[l]!;
    const order = new Int32Array(n);
    const fill = laneStart.slice(0, this.lanes);
    for (let i = 0; i < n; i++) order[fill[lane[i]!]!++] = i;
    for (let l = 0; l < this.lanes; l++) {
      const a = laneStart[l]!,
        b = laneStart[l + 1]!;
      let sorted = true;
      for (let k = a + 1; k < b && sorted; k++) if (s[order[k]!]! < s[order[k - 1]!]!) sorted = false;
      if (!sorted)
        order.set(
          Array.from(order.subarray(a, b)).sort((x, y) => s[x]! - s[y]! || x - y),
          a,
        );
    }
    // Merge per lane.
    const outStart = new GrowableFloat64(Math.max(16, n >> 1)),
      outEnd = new GrowableFloat64(Math.max(16, n >> 1));
    const outLane = new Int32Array(this.lanes + 1);
    for (let l = 0; l < this.lanes; l++) {
      outLane[l] = outStart.length;
      let cs = NaN,
        ce = NaN;
      for (let k = laneStart[l]!; k < laneStart[l + 1]!; k++) {
        const i = order[k]!;
        if (s[i]! > ce) {
          outStart.push(cs);
          outEnd.push(ce);
          cs = s[i]!;
          ce = e[i]!;
        } else if (Number.isNaN(cs)) {
          cs = s[i]!;
          ce = e[i]!;
        } else if (e[i]! > ce) ce = e[i]!;
      }
      if (!Number.isNaN(cs)) {
        outStart.push(cs);
        outEnd.push(ce);
      }
    }
    outLane[this.lanes] = outStart.length;
    return new LaneUnions(outLane, outStart.finish(), outEnd.finish());
  }
}
