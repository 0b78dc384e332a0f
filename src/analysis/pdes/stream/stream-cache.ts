import { RossEventTraceDecoder, RossStatsDecoder, type EngineRecord } from '../../formats/ross/record-decoder';
import { EngineSampleIngest } from '../../formats/ross/sample-ingest';
import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import { entityOfLp, PdesEntities } from '../model/entities';
import { EventTrace } from '../model/event-trace';
import { METRIC, type EntityLevel } from '../model/metrics';
import { SampleSet, type SamplingMode } from '../model/sample-set';

/** Run totals in the `hpc-lens pdes --json` shape. */
export interface StreamTotals {
  eventsProcessed: number;
  rollbacks: number;
  primaryRollbacks: number;
  secondaryRollbacks: number;
}

export interface StreamCacheInit {
  /** Sampling mode of the stats stream (its ticks: GVT rounds, real-time or virtual-time intervals). */
  mode: SamplingMode;
  /** Name of the stats source, for messages (a file path, `tcp://127.0.0.1:port`). */
  path: string;
  /** Name of the event-trace source, when there is one. */
  tracePath?: string;
  /** Entities declared up front (natural order, LP placement for the communication views). */
  entities?: PdesEntities;
  /** PEs a tick waits for (0: every PE seen so far). */
  expectedPes?: number;
}

/** Communication of one tick at the cache's {@link PdesStreamCache.commLevel}: sender·2²⁰ + receiver → events. */
export type TickCommunication = Map<number, number>;

const PAIR = 1048576;

/**
 * The append-only store of a monitored run: every record and event pushed, grouped into ticks by
 * time key (a GVT round, a real-time or virtual-time interval). Bytes arrive in chunks of any size
 * (a partial record waits for its rest); records update their tick's PE, KP and LP series in a
 * {@link SampleSet}, and a tick is *complete* once every expected PE has reported a later tick —
 * the order in which the analyses take them. Event-trace events go to the communication of the
 * complete tick whose interval holds their time (receive time for GVT and virtual-time ticks,
 * wall-clock time for real-time ticks), or wait until that tick completes. Nothing is dropped:
 * records and events for ticks already complete still land in them and are counted as late. A
 * reopened panel rebuilds its history from here.
 */
export class PdesStreamCache {
  readonly mode: SamplingMode;
  readonly entities: PdesEntities;
  readonly samples: SampleSet;
  readonly trace: EventTrace;
  /** Entity level of the tick communication: KPs when LPs are placed on KPs, else PEs, else none. */
  readonly commLevel: EntityLevel | null;
  /** Ticks 0 … completeTicks − 1 are complete. */
  completeTicks = 0;
  /** Records that arrived for a tick already complete. */
  lateRecords = 0;
  /** Events that arrived for a tick already complete. */
  lateEvents = 0;
  /** Events whose sender or receiver is no placed LP (left out of matrices). */
  unplacedEvents = 0;
  private statsDecoder: RossStatsDecoder;
  private readonly traceDecoder: RossEventTraceDecoder;
  private readonly ingest: EngineSampleIngest;
  private readonly expectedPes: number;
  /** Per PE id, the largest tick key it has reported. */
  private readonly peKeys = new Map<number, number>();
  private readonly sums = { pe: new Float64Array(4), kp: new Float64Array(4) };
  private readonly totalIndex: Record<'pe' | 'kp', number[]>;
  private readonly lookup: Int32Array | null;
  private readonly comm: TickCommunication[] = [];
  private readonly trailing: TickCommunication = new Map();
  /** Interval ends of complete ticks (key or wall-clock time). */
  private readonly edges = new GrowableFloat64();
  /** Events waiting for their tick, earliest time first. */
  private readonly pending = new EventHeap(i => this.eventTime(i));

  constructor(init: StreamCacheInit) {
    this.mode = init.mode;
    this.entities = init.entities ?? new PdesEntities();
    this.samples = new SampleSet(init.mode);
    this.trace = new EventTrace();
    this.expectedPes = init.expectedPes ?? 0;
    this.ingest = new EngineSampleIngest(this.entities, this.samples);
    this.statsDecoder = this.newStatsDecoder(init.path);
    this.traceDecoder = new RossEventTraceDecoder(ev => {
      this.trace.append(ev.src, ev.dst, ev.sendTime, ev.recvTime, ev.realTime);
      this.trace.modelBytes = ev.modelBytes;
      this.binEvent(this.trace.count - 1);
    }, init.tracePath ?? 'event trace');
    const e = this.entities;
    let kpPlaced = false,
      pePlaced = false;
    for (let lp = 0; lp < e.count('lp'); lp++) {
      if (e.lpKp(lp) >= 0) kpPlaced = true;
      if (e.lpPe(lp) >= 0) pePlaced = true;
    }
    this.commLevel = kpPlaced ? 'kp' : pePlaced ? 'pe' : null;
    this.lookup = this.commLevel ? e.lpLookup(this.commLevel) : null;
    const indices = (level: 'pe' | 'kp') =>
      [METRIC.eventsProcessed, METRIC.totalRollbacks, METRIC.primaryRollbacks, METRIC.secondaryRollbacks].map(id =>
        this.samples.table(level).metricIndex(id),
      );
    this.totalIndex = { pe: indices('pe'), kp: indices('kp') };
  }

  /**
   * Starts a new stats byte stream (a new socket connection) on a record boundary, keeping every
   * tick; returns the bytes of a partial record the previous stream ended with (0 when none).
   */
  restartStatsStream(path: string): number {
    const partial = this.statsDecoder.pendingBytes;
    this.statsDecoder = this.newStatsDecoder(path);
    return partial;
  }

  private newStatsDecoder(path: string): RossStatsDecoder {
    const sink = { engine: (rec: EngineRecord) => this.onRecord(rec) };
    // Virtual-time sampling interleaves model records (lp_metadata) with the engine records.
    return new RossStatsDecoder(sink, path, { modelRecords: this.mode === 'vt' });
  }

  /** Pushes appended bytes of the stats stream; returns the number of complete ticks. */
  pushStats(chunk: Uint8Array): number {
    try {
      this.statsDecoder.push(chunk);
    } finally {
      // Records before a bad one are in: their ticks complete all the same.
      this.advance(false);
    }
    return this.completeTicks;
  }

  /** Pushes appended bytes of the event trace. */
  pushTrace(chunk: Uint8Array): void {
    this.traceDecoder.push(chunk);
  }

  /**
   * The input ended (or went idle for good): every tick is complete, and events past the last
   * tick's interval (a trace runs on after the last sample) go to {@link afterLastTick}.
   */
  finish(): number {
    this.advance(true);
    if (this.lookup) while (this.pending.size) this.count(-1, this.pending.pop());
    return this.completeTicks;
  }

  /** Communication after the last tick's interval, once the input has ended. */
  get afterLastTick(): TickCommunication {
    return this.trailing;
  }

  /** Bytes of the stats stream decoded into records, and held back as a partial record. */
  get statsBytes(): { decoded: number; pending: number } {
    return { decoded: this.statsDecoder.offset, pending: this.statsDecoder.pendingBytes };
  }

  /** Records decoded so far, by kind. */
  get recordCounts(): { pe: number; kp: number; lp: number; model: number } {
    return { ...this.statsDecoder.counts };
  }

  /** Everything ingested so far, from PE records when the stream has them, else from KP records. */
  get totals(): StreamTotals {
    const s = this.samples.pe.records ? this.sums.pe : this.sums.kp;
    return { eventsProcessed: s[0]!, rollbacks: s[1]!, primaryRollbacks: s[2]!, secondaryRollbacks: s[3]! };
  }

  /** The time a view shows for a tick: its GVT (GVT and virtual-time sampling) or wall-clock seconds. */
  tickTime(t: number): number {
    return this.mode === 'rt' ? this.samples.tickRealTime(t) : this.samples.tickVirtualTime(t);
  }

  /** A complete tick's communication (empty without a trace or a placement). */
  tickCommunication(t: number): TickCommunication {
    return this.comm[t] ?? new Map();
  }

  /** Events after the last complete tick's interval, waiting for their tick (a trace runs past the last sample). */
  get pendingEvents(): number {
    return this.pending.size;
  }

  private onRecord(rec: EngineRecord): void {
    const tick = this.ingest.engine(rec);
    if (tick < this.completeTicks) this.lateRecords++;
    const key = this.samples.tickKey(tick);
    const seen = this.peKeys.get(rec.pe);
    if (seen === undefined || key > seen) this.peKeys.set(rec.pe, key);
    if (rec.level !== 'lp') {
      const sums = this.sums[rec.level];
      this.totalIndex[rec.level].forEach((m, i) => (sums[i]! += rec.values[m]!));
    }
  }

  /** Completes the ticks every expected PE has moved past (or all of them at the end). */
  private advance(all: boolean): void {
    const ticks = this.samples.tickCount;
    let frontier = Infinity;
    if (!all) {
      if (this.peKeys.size === 0 || this.peKeys.size < this.expectedPes) return;
      for (const k of this.peKeys.values()) if (k < frontier) frontier = k;
    }
    while (this.completeTicks < ticks && this.samples.tickKey(this.completeTicks) < frontier) {
      const t = this.completeTicks++;
      this.comm[t] = new Map();
      this.edges.push(this.mode === 'rt' ? this.samples.tickRealTime(t) : this.samples.tickKey(t));
      this.binPending(t);
    }
  }

  private eventTime(i: number): number {
    const c = this.trace.columns;
    return this.mode === 'rt' ? c.realTime[i]! : c.recvTime[i]!;
  }

  /** Puts a new event in its complete tick, or keeps it until its tick completes. */
  private binEvent(i: number): void {
    if (!this.lookup) return;
    const time = this.eventTime(i);
    const edges = this.edges.view();
    if (!edges.length || time > edges[edges.length - 1]!) {
      this.pending.push(i);
      return;
    }
    // First interval (edges[t−1], edges[t]] holding the time.
    let lo = 0,
      hi = edges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (time <= edges[mid]!) hi = mid;
      else lo = mid + 1;
    }
    this.lateEvents++;
    this.count(lo, i);
  }

  /** Moves the waiting events of tick t's interval into it. */
  private binPending(t: number): void {
    const edge = this.edges.get(t);
    while (this.pending.size && this.eventTime(this.pending.peek()) <= edge) this.count(t, this.pending.pop());
  }

  private count(t: number, i: number): void {
    const { src, dst } = this.trace.columns;
    const a = entityOfLp(this.lookup!, src[i]!);
    const b = entityOfLp(this.lookup!, dst[i]!);
    if (a < 0 || b < 0) {
      this.unplacedEvents++;
      return;
    }
    const m = t < 0 ? this.trailing : this.comm[t]!;
    const key = a * PAIR + b;
    m.set(key, (m.get(key) ?? 0) + 1);
  }
}

/** Sender and receiver of a {@link TickCommunication} key. */
export function communicationPair(key: number): [number, number] {
  const a = Math.floor(key / PAIR);
  return [a, key - a * PAIR];
}

/** A binary min-heap of event indices by event time: waiting events leave in time order, O(log n) each. */
class EventHeap {
  private readonly items = new GrowableInt32();

  constructor(private readonly time: (event: number) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): number {
    return this.items.get(0);
  }

  push(event: number): void {
    let at = this.items.push(event);
    const t = this.time(event);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = this.items.get(parent);
      if (this.time(p) <= t) break;
      this.items.set(at, p);
      at = parent;
    }
    this.items.set(at, event);
  }

  pop(): number {
    const items = this.items;
    const top = items.get(0);
    const last = items.get(items.length - 1);
    items.length--;
    const n = items.length;
    if (n > 0) {
      const t = this.time(last);
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && this.time(items.get(child + 1)) < this.time(items.get(child))) child++;
        if (this.time(items.get(child)) >= t) break;
        items.set(at, items.get(child));
        at = child;
      }
      items.set(at, last);
    }
    return top;
  }
}
