import { GrowableFloat64, GrowableInt32, GrowableUint8 } from './growable';
import type { StringTable } from './string-table';
import {
  TraceEventKind,
  type DataMovementKind,
  type FlowKind,
  type MemoryKind,
  type TraceCounterSeries,
  type TraceData,
  type TraceTrack,
} from './trace';

/**
 * Collects a trace row by row for any reader; `finish()` hands out the tight, sorted columns.
 * Times are nanoseconds from the origin (see trace.ts). Events may be added in any order; they are
 * sorted by (track, start, depth) at the end (a reader that adds them in that order pays one scan).
 * Flow and data-movement rows refer to events by the index `addSlice` returned; those references are
 * remapped by the sort.
 */
export class TraceBuilder {
  readonly tracks: TraceTrack[] = [];
  originNs = '0';

  private readonly evTrack = new GrowableInt32(1024);
  private readonly evStart = new GrowableFloat64(1024);
  private readonly evDuration = new GrowableFloat64(1024);
  private readonly evNode = new GrowableInt32(1024);
  private readonly evDepth = new GrowableInt32(1024);
  private readonly evKind = new GrowableUint8(1024);
  private readonly evCategory = new GrowableInt32(1024);
  private readonly evName = new GrowableInt32(1024);

  private readonly series: TraceCounterSeries[] = [];
  private readonly ctSeries = new GrowableInt32();
  private readonly ctTime = new GrowableFloat64();
  private readonly ctValue = new GrowableFloat64();

  private readonly flKind = new GrowableUint8();
  private readonly flId = new GrowableInt32();
  /** Flow numbers of the flow ids readers give as text (kept out of the shared string table). */
  private readonly flowNumbers = new Map<string, number>();
  private readonly flFromTrack = new GrowableInt32();
  private readonly flFromTime = new GrowableFloat64();
  private readonly flFromEvent = new GrowableInt32();
  private readonly flToTrack = new GrowableInt32();
  private readonly flToTime = new GrowableFloat64();
  private readonly flToEvent = new GrowableInt32();

  private readonly dmKind = new GrowableUint8();
  private readonly dmBytes = new GrowableFloat64();
  private readonly dmSrc = new GrowableInt32();
  private readonly dmDst = new GrowableInt32();
  private readonly dmStart = new GrowableFloat64();
  private readonly dmDuration = new GrowableFloat64();
  private readonly dmTrack = new GrowableInt32();
  private readonly dmEvent = new GrowableInt32();
  private readonly dmNode = new GrowableInt32();
  private readonly dmSource = new GrowableInt32();
  // Optional data-movement columns, kept only when a reader fills them (see addDataMovement).
  private readonly dmSrcKind = new GrowableUint8();
  private readonly dmDstKind = new GrowableUint8();
  private readonly dmMigration = new GrowableUint8();
  private dmHasKinds = false;
  private dmHasMigration = false;

  private readonly memTime = new GrowableFloat64();
  private readonly memDevice = new GrowableInt32();
  private readonly memBytes = new GrowableFloat64();
  private readonly memAllocated = new GrowableFloat64();
  private readonly memReserved = new GrowableFloat64();

  private readonly pfStart = new GrowableFloat64();
  private readonly pfDuration = new GrowableFloat64();
  private readonly pfDevice = new GrowableInt32();
  private readonly pfCount = new GrowableFloat64();

  /** @param strings the profile's string table (categories and names are interned into it). */
  constructor(readonly strings: StringTable) {}

  get eventCount(): number {
    return this.evTrack.length;
  }

  /** Adds a track; tracks are kept in the order they are added (the display order). */
  addTrack(
    track: Omit<TraceTrack, 'context' | 'sortIndex' | 'rank' | 'thread' | 'gpuDevice' | 'gpuStream'> &
      Partial<TraceTrack>,
  ): number {
    this.tracks.push({ rank: -1, thread: -1, gpuDevice: -1, gpuStream: -1, context: -1, sortIndex: 0, ...track });
    return this.tracks.length - 1;
  }

  /** Adds an event row and returns its index (valid for flow and data-movement references). */
  addEvent(
    kind: TraceEventKind,
    track: number,
    start: number,
    duration: number,
    node: number,
    depth: number,
    category: string,
    name: string,
  ): number {
    this.evTrack.push(track);
    this.evStart.push(start);
    this.evDuration.push(duration);
    this.evNode.push(node);
    this.evDepth.push(depth);
    this.evKind.push(kind);
    this.evCategory.push(category ? this.strings.intern(category) : 0);
    return this.evName.push(this.strings.intern(name));
  }

  addSlice(
    track: number,
    start: number,
    duration: number,
    node: number,
    depth: number,
    category: string,
    name: string,
  ): number {
    return this.addEvent(TraceEventKind.Slice, track, start, duration, node, depth, category, name);
  }

  /**
   * {@link addEvent} for `count` rows of one track at once, from columns (names as string-table ids,
   * no category): copied natively, without a call per row, which is what a small trace read in a
   * fresh process spends its time on while the code still runs in the interpreter.
   */
  addEvents(
    track: number,
    count: number,
    rows: {
      kind: Uint8Array;
      start: Float64Array;
      duration: Float64Array;
      node: Int32Array;
      depth: Int32Array;
      name: Int32Array;
    },
  ): void {
    const at = this.evTrack.length;
    this.evTrack.reserve(count).fill(track, at, at + count);
    this.evCategory.reserve(count).fill(0, at, at + count);
    this.evKind.reserve(count).set(rows.kind.subarray(0, count), at);
    this.evStart.reserve(count).set(rows.start.subarray(0, count), at);
    this.evDuration.reserve(count).set(rows.duration.subarray(0, count), at);
    this.evNode.reserve(count).set(rows.node.subarray(0, count), at);
    this.evDepth.reserve(count).set(rows.depth.subarray(0, count), at);
    this.evName.reserve(count).set(rows.name.subarray(0, count), at);
    for (const g of [
      this.evTrack,
      this.evCategory,
      this.evKind,
      this.evStart,
      this.evDuration,
      this.evNode,
      this.evDepth,
      this.evName,
    ])
      g.length = at + count;
  }

  /** Id of a new counter series on a track. */
  addCounterSeries(track: number, name: string, unit = ''): number {
    this.series.push({ track, name, unit });
    return this.series.length - 1;
  }

  addCounterSample(series: number, time: number, value: number): void {
    this.ctSeries.push(series);
    this.ctTime.push(time);
    this.ctValue.push(value);
  }

  /**
   * An arrow from (track, time) to (track, time); events are `addEvent` indices or -1. `id` names the
   * flow: text (numbered here) or the reader's own flow number (≥ 0), one or the other per trace.
   */
  addFlow(
    kind: FlowKind,
    id: string | number,
    from: { track: number; time: number; event: number },
    to: { track: number; time: number; event: number },
  ): void {
    this.flKind.push(kind);
    let flow = typeof id === 'number' ? id : this.flowNumbers.get(id);
    if (flow === undefined) this.flowNumbers.set(id as string, (flow = this.flowNumbers.size));
    this.flId.push(flow);
    this.flFromTrack.push(from.track);
    this.flFromTime.push(from.time);
    this.flFromEvent.push(from.event);
    this.flToTrack.push(to.track);
    this.flToTime.push(to.time);
    this.flToEvent.push(to.event);
  }

  addDataMovement(r: {
    kind: DataMovementKind;
    bytes: number;
    srcDevice: number;
    dstDevice: number;
    start: number;
    duration: number;
    track: number;
    event: number;
    node: number;
    sourceNode: number;
    /** Memory kinds of the ends (MemoryKind), when the format records them. */
    srcKind?: MemoryKind;
    dstKind?: MemoryKind;
    /** True for a unified-memory migration, false for an explicit copy, absent when unknown. */
    migration?: boolean;
  }): void {
    this.dmKind.push(r.kind);
    this.dmBytes.push(r.bytes);
    this.dmSrc.push(r.srcDevice);
    this.dmDst.push(r.dstDevice);
    this.dmStart.push(r.start);
    this.dmDuration.push(r.duration);
    this.dmTrack.push(r.track);
    this.dmEvent.push(r.event);
    this.dmNode.push(r.node);
    this.dmSource.push(r.sourceNode);
    if (r.srcKind !== undefined || r.dstKind !== undefined) this.dmHasKinds = true;
    this.dmSrcKind.push(r.srcKind ?? 0);
    this.dmDstKind.push(r.dstKind ?? 0);
    if (r.migration !== undefined) this.dmHasMigration = true;
    this.dmMigration.push(r.migration ? 1 : 0);
  }

  /** An allocator event (PyTorch `[memory]`): signed bytes on a device (-1 = host), and the allocator's totals when recorded. */
  addMemoryEvent(time: number, device: number, bytes: number, totalAllocated = NaN, totalReserved = NaN): void {
    this.memTime.push(time);
    this.memDevice.push(device);
    this.memBytes.push(bytes);
    this.memAllocated.push(totalAllocated);
    this.memReserved.push(totalReserved);
  }

  /** Unified-memory page faults: `count` faults on a GPU (device ≥ 0, over `duration`) or on the CPU (device -1). */
  addPageFault(start: number, duration: number, device: number, count: number): void {
    this.pfStart.push(start);
    this.pfDuration.push(duration);
    this.pfDevice.push(device);
    this.pfCount.push(count);
  }

  finish(): TraceData {
    const n = this.evTrack.length;
    const order = this.eventOrder();
    const rank = new Int32Array(n);
    for (let k = 0; k < n; k++) rank[order[k]!] = k;
    const inOrder = isIdentity(order);
    const pick = <T extends Int32Array | Float64Array | Uint8Array>(g: { finish(): T }): T => {
      const src = g.finish();
      if (inOrder) return src;
      const out = new (src.constructor as { new (n: number): T })(n);
      for (let k = 0; k < n; k++) out[k] = src[order[k]!]!;
      return out;
    };
    const events = {
      track: pick(this.evTrack),
      start: pick(this.evStart),
      duration: pick(this.evDuration),
      node: pick(this.evNode),
      depth: pick(this.evDepth),
      kind: pick(this.evKind),
      category: pick(this.evCategory),
      name: pick(this.evName),
    };
    const trackEventStart = new Int32Array(this.tracks.length + 1);
    for (let k = 0; k < n; k++) trackEventStart[events.track[k]! + 1]!++;
    for (let t = 0; t < this.tracks.length; t++) trackEventStart[t + 1]! += trackEventStart[t]!;
    const remap = (g: GrowableInt32) => {
      const a = g.finish();
      for (let i = 0; i < a.length; i++) if (a[i]! >= 0) a[i] = rank[a[i]!]!;
      return a;
    };

    // Counter samples sorted by series, then time (stable).
    const cn = this.ctSeries.length;
    const cs = this.ctSeries.finish(),
      ct = this.ctTime.finish(),
      cv = this.ctValue.finish();
    const corder = Array.from({ length: cn }, (_, i) => i).sort((a, b) => cs[a]! - cs[b]! || ct[a]! - ct[b]! || a - b);
    const seriesStart = new Int32Array(this.series.length + 1);
    for (let i = 0; i < cn; i++) seriesStart[cs[i]! + 1]!++;
    for (let s = 0; s < this.series.length; s++) seriesStart[s + 1]! += seriesStart[s]!;

    let lo = Infinity,
      hi = -Infinity;
    for (let k = 0; k < n; k++) {
      const s = events.start[k]!;
      if (s < lo) lo = s;
      const e = s + events.duration[k]!;
      if (e > hi) hi = e;
    }
    for (let i = 0; i < cn; i++) {
      const t = ct[i]!;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }

    const trace: TraceData = {
      originNs: this.originNs,
      tracks: this.tracks.slice(),
      events,
      trackEventStart,
      counters: {
        series: this.series.slice(),
        seriesStart,
        time: Float64Array.from(corder, i => ct[i]!),
        value: Float64Array.from(corder, i => cv[i]!),
      },
      flows: {
        kind: this.flKind.finish(),
        id: this.flId.finish(),
        fromTrack: this.flFromTrack.finish(),
        fromTime: this.flFromTime.finish(),
        fromEvent: remap(this.flFromEvent),
        toTrack: this.flToTrack.finish(),
        toTime: this.flToTime.finish(),
        toEvent: remap(this.flToEvent),
      },
      dataMovement: {
        kind: this.dmKind.finish(),
        bytes: this.dmBytes.finish(),
        srcDevice: this.dmSrc.finish(),
        dstDevice: this.dmDst.finish(),
        start: this.dmStart.finish(),
        duration: this.dmDuration.finish(),
        track: this.dmTrack.finish(),
        event: remap(this.dmEvent),
        node: this.dmNode.finish(),
        sourceNode: this.dmSource.finish(),
      },
      timeRange: lo <= hi ? [lo, hi] : [0, 0],
    };
    this.finishOptional(trace);
    return trace;
  }

  /** The optional tables and columns, present only when a reader filled them; rows in time order. */
  private finishOptional(trace: TraceData): void {
    const dm = trace.dataMovement;
    if (this.dmHasKinds) {
      dm.srcKind = this.dmSrcKind.finish();
      dm.dstKind = this.dmDstKind.finish();
    }
    if (this.dmHasMigration) dm.migration = this.dmMigration.finish();
    const byTime = (time: GrowableFloat64): Int32Array =>
      Int32Array.from({ length: time.length }, (_, i) => i).sort((a, b) => time.get(a) - time.get(b) || a - b);
    const take = <T extends Float64Array | Int32Array>(col: T, order: Int32Array): T => {
      const out = new (col.constructor as { new (n: number): T })(order.length);
      for (let k = 0; k < order.length; k++) out[k] = col[order[k]!]!;
      return out;
    };
    if (this.memTime.length) {
      const o = byTime(this.memTime);
      trace.memory = {
        time: take(this.memTime.finish(), o),
        device: take(this.memDevice.finish(), o),
        bytes: take(this.memBytes.finish(), o),
        totalAllocated: take(this.memAllocated.finish(), o),
        totalReserved: take(this.memReserved.finish(), o),
      };
    }
    if (this.pfStart.length) {
      const o = byTime(this.pfStart);
      trace.pageFaults = {
        start: take(this.pfStart.finish(), o),
        duration: take(this.pfDuration.finish(), o),
        device: take(this.pfDevice.finish(), o),
        count: take(this.pfCount.finish(), o),
      };
    }
  }

  /** Row order by (track, start, depth), stable; the identity when the rows were added in that order. */
  private eventOrder(): Int32Array {
    const n = this.evTrack.length;
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
    const track = this.evTrack.view(),
      start = this.evStart.view(),
      depth = this.evDepth.view();
    const before = (a: number, b: number) => track[a]! - track[b]! || start[a]! - start[b]! || depth[a]! - depth[b]!;
    // Readers mostly add events in order: check that inline, without a call per event.
    let sorted = true;
    for (let k = 1; k < n && sorted; k++) {
      const d = track[k - 1]! - track[k]! || start[k - 1]! - start[k]! || depth[k - 1]! - depth[k]!;
      if (d > 0) sorted = false;
    }
    if (sorted) return order;
    return Int32Array.from(Array.from(order).sort((a, b) => before(a, b) || a - b));
  }
}

function isIdentity(order: Int32Array): boolean {
  for (let k = 0; k < order.length; k++) if (order[k] !== k) return false;
  return true;
}

/**
 * Nests the slices of one track by time. `idx` lists the slices (indices into `start`/`duration`),
 * and is reordered in place into (start ascending, duration descending, index ascending) order.
 * Returns per listed slice its parent (an index, or -1) and depth, in `idx` order. A slice is the
 * child of the innermost open slice that it starts within, even if it ends after it (overlapping
 * slices, which lenient readers keep, are nested by their start).
 */
export function nestSlices(
  idx: Int32Array,
  start: Float64Array,
  duration: Float64Array,
): { parent: Int32Array; depth: Int32Array } {
  const arr = Array.from(idx).sort((a, b) => start[a]! - start[b]! || duration[b]! - duration[a]! || a - b);
  idx.set(arr);
  const parent = new Int32Array(idx.length);
  const depth = new Int32Array(idx.length);
  const stack: number[] = [];
  const stackEnd: number[] = [];
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const s = start[i]!;
    // A zero-length slice contains nothing; a slice contains those that start before its end.
    while (stack.length && !(s < stackEnd[stackEnd.length - 1]!)) {
      stack.pop();
      stackEnd.pop();
    }
    parent[k] = stack.length ? stack[stack.length - 1]! : -1;
    depth[k] = stack.length;
    stack.push(i);
    stackEnd.push(s + duration[i]!);
  }
  return { parent, depth };
}
