import { NodeKind } from '../../model/call-tree';
import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import type { ProfileBuilder } from '../../model/profile-builder';
import { FlowKind } from '../../model/trace';
import type { TraceBuilder } from '../../model/trace-builder';
import type { Otf2Cursor } from './cursor';
import { GroupType, Mapping, type IdMap, type Otf2Definitions, type Otf2LocalDefinitions } from './definitions';

/** Event record types this reader decodes (OTF2_EventType). */
const Ev = {
  Timestamp: 5,
  Enter: 12,
  Leave: 13,
  MpiSend: 14,
  MpiIsend: 15,
  MpiRecv: 18,
  MpiIrecv: 19,
  MpiCollectiveBegin: 22,
  MpiCollectiveEnd: 23,
  Metric: 31,
  ProgramBegin: 83,
  ProgramEnd: 84,
} as const;
/** Event names for the "skipped" warning. */
const EVENT_NAMES: Record<number, string> = {
  10: 'BufferFlush',
  11: 'MeasurementOnOff',
  16: 'MpiIsendComplete',
  17: 'MpiIrecvRequest',
  20: 'MpiRequestTest',
  21: 'MpiRequestCancelled',
  24: 'OmpFork',
  25: 'OmpJoin',
  26: 'OmpAcquireLock',
  27: 'OmpReleaseLock',
  28: 'OmpTaskCreate',
  29: 'OmpTaskSwitch',
  30: 'OmpTaskComplete',
  32: 'ParameterString',
  33: 'ParameterInt',
  34: 'ParameterUnsignedInt',
  53: 'ThreadFork',
  54: 'ThreadJoin',
  55: 'ThreadTeamBegin',
  56: 'ThreadTeamEnd',
  62: 'ThreadCreate',
  63: 'ThreadBegin',
  64: 'ThreadWait',
  65: 'ThreadEnd',
  66: 'CallingContextEnter',
  67: 'CallingContextLeave',
  68: 'CallingContextSample',
};
/** OTF2_Type values of metric samples. */
const TYPE_UINT64 = 4,
  TYPE_INT64 = 8,
  TYPE_DOUBLE = 10;
const TWO_32 = 4294967296;
/** Node-map key stride: (region, parent) pairs are packed into one number. */
const PARENT_SPACE = 2 ** 26;

/** One endpoint of an MPI point-to-point message, waiting for its partner. */
interface MessageEnd {
  track: number;
  time: number;
  slice: number;
}

/**
 * Turns the events of each location into slices, call-tree nodes, message flows and counter
 * samples. Locations are fed one at a time (`begin`, records, `end`); messages are matched across
 * locations in order per (communicator, tag, sender, receiver), which MPI's non-overtaking rule
 * makes exact for blocking and non-blocking point-to-point calls.
 */
export class Otf2Timeline {
  readonly skipped = new Map<number, number>();
  unmatchedLeaves = 0;
  unclosed = 0;
  unresolvedPeers = 0;
  collectives = 0;
  messages = 0;
  metricSamples = 0;

  /** (region, parent node) → node; packed into one number while both fit, else a string key. */
  private readonly nodeOf = new Map<number | string, number>();
  private readonly sends = new Map<string, MessageEnd[]>();
  private readonly recvs = new Map<string, MessageEnd[]>();
  /** Counter series of the current location: metric id → series id per member index. */
  private series = new Map<number, number[]>();
  private readonly nsPerTick: number;
  private readonly offHi: number;
  private readonly offLo: number;
  /** World rank → location id (the MPI COMM_LOCATIONS group), and a comm's group → world ranks. */
  private readonly commLocations: number[];

  // State of the location being read.
  private track = -1;
  private context = -1;
  private location = -1;
  private now = 0;
  private regionMap: IdMap | null = null;
  private metricMap: IdMap | null = null;
  private commMap: IdMap | null = null;
  private start = new GrowableFloat64(256);
  private dur = new GrowableFloat64(256);
  private node = new GrowableInt32(256);
  private depth = new GrowableInt32(256);
  private readonly stackSlice: number[] = [];
  private readonly stackRegion: number[] = [];
  private readonly stackChild: number[] = [];
  private excl = new Map<number, number>();
  private visits = new Map<number, number>();
  private bytes = new Map<number, number>();
  private pendingFlows: { from: MessageEnd; to: MessageEnd; key: string }[] = [];
  /** Clock corrections of the current location as (ticks, offset) and the first one after `now`. */
  private corrections: [number, number][] = [];
  private nextCorrection = 0;
  /** Message ends made on the current location (their slice is a local index until `end`). */
  private ownEnds: MessageEnd[] = [];
  private readonly nodeNames: string[] = [];

  constructor(
    private readonly defs: Otf2Definitions,
    private readonly b: ProfileBuilder,
    private readonly tb: TraceBuilder,
    private readonly metrics: { time: number; visits: number; bytes: number },
  ) {
    const { resolution, offsetHi, offsetLo } = defs.clock;
    this.nsPerTick = resolution > 0 ? 1e9 / resolution : 1;
    this.offHi = offsetHi;
    this.offLo = offsetLo;
    const groups = [...defs.groups.values()].filter(g => g.type === GroupType.CommLocations);
    this.commLocations = (groups.find(g => g.paradigm === 4 /* MPI */) ?? groups[0])?.members ?? [];
  }

  /** Starts a location: its track, profile context and local → global id maps. */
  begin(location: number, track: number, context: number, local: Otf2LocalDefinitions): void {
    const maps = local.maps;
    this.location = location;
    this.track = track;
    this.context = context;
    this.now = 0;
    this.regionMap = maps.get(Mapping.Region) ?? null;
    this.metricMap = maps.get(Mapping.Metric) ?? null;
    this.commMap = maps.get(Mapping.Comm) ?? null;
    this.series = new Map();
    this.corrections = local.clockOffsets
      .map(o => [this.ticks(o.hi, o.lo), o.offset] as [number, number])
      .sort((x, y) => x[0] - y[0]);
    this.nextCorrection = 0;
  }

  readonly onRecord = (type: number, c: Otf2Cursor): void => {
    switch (type) {
      case Ev.Timestamp:
        this.now = Math.round(this.corrected(this.ticks(c.hi, c.lo)) * this.nsPerTick);
        break;
      case Ev.Enter: {
        const local = c.hi * TWO_32 + c.lo;
        this.enter(this.regionMap ? this.regionMap.get(local) : local);
        break;
      }
      case Ev.Leave: {
        const local = c.hi * TWO_32 + c.lo;
        this.leave(this.regionMap ? this.regionMap.get(local) : local);
        break;
      }
      case Ev.MpiSend:
      case Ev.MpiIsend:
      case Ev.MpiRecv:
      case Ev.MpiIrecv: {
        const peer = c.u32();
        const comm = this.mapComm(c.u32());
        const tag = c.u32();
        const length = c.u64();
        this.message(type === Ev.MpiSend || type === Ev.MpiIsend, peer, comm, tag, length);
        break;
      }
      case Ev.MpiCollectiveBegin:
        break;
      case Ev.MpiCollectiveEnd: {
        c.u8(); // the collective operation
        this.mapComm(c.u32());
        c.u32(); // root
        const sent = c.u64();
        this.collectives++;
        if (sent > 0) this.addBytes(sent);
        break;
      }
      case Ev.Metric:
        this.metric(c);
        break;
      case Ev.ProgramBegin:
      case Ev.ProgramEnd:
        break;
      default:
        this.skipped.set(type, (this.skipped.get(type) ?? 0) + 1);
    }
  };

  /** Ends a location: closes what is still open, hands its slices to the trace, its values to the profile. */
  end(): void {
    while (this.stackSlice.length) {
      this.pop();
      this.unclosed++;
    }
    const base = this.tb.eventCount;
    for (let k = 0; k < this.start.length; k++) {
      const node = this.node.get(k);
      this.tb.addSlice(
        this.track,
        this.start.get(k),
        this.dur.get(k),
        node,
        this.depth.get(k),
        '',
        this.nodeNames[node]!,
      );
    }
    for (const e of this.ownEnds) if (e.slice >= 0) e.slice += base;
    for (const f of this.pendingFlows) {
      this.tb.addFlow(
        FlowKind.Message,
        `mpi ${f.key}`,
        { track: f.from.track, time: f.from.time, event: f.from.slice },
        { track: f.to.track, time: f.to.time, event: f.to.slice },
      );
    }
    this.ownEnds = [];
    this.pendingFlows = [];
    for (const [node, v] of this.excl) this.b.addExclusive(this.metrics.time, node, this.context, v);
    for (const [node, v] of this.visits) this.b.addExclusive(this.metrics.visits, node, this.context, v);
    for (const [node, v] of this.bytes) this.b.addExclusive(this.metrics.bytes, node, this.context, v);
    this.excl = new Map();
    this.visits = new Map();
    this.bytes = new Map();
    this.start = new GrowableFloat64(256);
    this.dur = new GrowableFloat64(256);
    this.node = new GrowableInt32(256);
    this.depth = new GrowableInt32(256);
  }

  /** Flows whose ends were both read; sends or receives without a partner are counted. */
  finish(): { unmatchedSends: number; unmatchedRecvs: number } {
    let unmatchedSends = 0,
      unmatchedRecvs = 0;
    for (const q of this.sends.values()) unmatchedSends += q.length;
    for (const q of this.recvs.values()) unmatchedRecvs += q.length;
    return { unmatchedSends, unmatchedRecvs };
  }

  /** Ticks since the global offset; exact in doubles, as the difference stays far below 2^53 for any real run. */
  private ticks(hi: number, lo: number): number {
    return (hi - this.offHi) * TWO_32 + (lo - this.offLo);
  }

  /**
   * Applies the location's clock offsets (Score-P measures them against rank 0 at initialisation and
   * finalisation), interpolated linearly between measurements and held constant outside them.
   */
  private corrected(t: number): number {
    const c = this.corrections;
    if (c.length === 0) return t;
    while (this.nextCorrection < c.length && c[this.nextCorrection]![0] <= t) this.nextCorrection++;
    const k = this.nextCorrection;
    if (k === 0) return t + c[0]![1];
    if (k === c.length) return t + c[k - 1]![1];
    const [t0, o0] = c[k - 1]!,
      [t1, o1] = c[k]!;
    return t + o0 + ((o1 - o0) * (t - t0)) / (t1 - t0);
  }

  private enter(region: number): void {
    const parent = this.stackSlice.length ? this.node.get(this.stackSlice[this.stackSlice.length - 1]!) : -1;
    const key =
      region < PARENT_SPACE && parent + 1 < PARENT_SPACE ? region * PARENT_SPACE + parent + 1 : `${region}:${parent}`;
    let node = this.nodeOf.get(key);
    if (node === undefined) {
      const r = this.defs.regions.get(region);
      const name = r ? this.defs.str(r.name) || this.defs.str(r.canonicalName) : '';
      const attrs = r && r.beginLine > 0 ? { file: this.defs.str(r.file), line: r.beginLine } : {};
      node = this.b.tree.add(parent, name || `region ${region}`, NodeKind.Function, attrs);
      this.nodeNames[node] = name || `region ${region}`;
      this.nodeOf.set(key, node);
    }
    const k = this.start.push(this.now);
    this.dur.push(0);
    this.node.push(node);
    this.depth.push(this.stackSlice.length);
    this.stackSlice.push(k);
    this.stackRegion.push(region);
    this.stackChild.push(0);
  }

  private leave(region: number): void {
    const n = this.stackRegion.length;
    if (n === 0) {
      this.unmatchedLeaves++;
      return;
    }
    if (this.stackRegion[n - 1] !== region) {
      // A leave that skips open regions closes them too (a lenient reading of a damaged trace).
      const at = this.stackRegion.lastIndexOf(region);
      if (at < 0) {
        this.unmatchedLeaves++;
        return;
      }
      while (this.stackRegion.length > at + 1) {
        this.pop();
        this.unclosed++;
      }
    }
    this.pop();
  }

  private pop(): void {
    const k = this.stackSlice.pop()!;
    this.stackRegion.pop();
    const children = this.stackChild.pop()!;
    const d = Math.max(0, this.now - this.start.get(k));
    this.dur.set(k, d);
    const node = this.node.get(k);
    this.excl.set(node, (this.excl.get(node) ?? 0) + Math.max(0, d - children));
    this.visits.set(node, (this.visits.get(node) ?? 0) + 1);
    const m = this.stackChild.length;
    if (m) this.stackChild[m - 1]! += d;
  }

  private mapComm(local: number): number {
    return this.commMap ? this.commMap.get(local) : local;
  }

  private addBytes(n: number): void {
    const top = this.stackSlice.length ? this.node.get(this.stackSlice[this.stackSlice.length - 1]!) : -1;
    if (top >= 0) this.bytes.set(top, (this.bytes.get(top) ?? 0) + n);
  }

  /** Location id of a rank of a communicator, or -1. */
  private peerLocation(comm: number, rank: number): number {
    const cm = this.defs.comms.get(comm);
    const group = cm ? this.defs.groups.get(cm.group) : undefined;
    if (!group || group.type === GroupType.CommSelf) return group ? this.location : -1;
    const world = group.type === GroupType.CommGroup ? group.members[rank] : rank;
    if (world === undefined) return -1;
    return group.type === GroupType.CommLocations ? world : (this.commLocations[world] ?? -1);
  }

  private message(isSend: boolean, peer: number, comm: number, tag: number, length: number): void {
    const other = this.peerLocation(comm, peer);
    if (other < 0) {
      this.unresolvedPeers++;
      return;
    }
    if (isSend) this.addBytes(length);
    const slice = this.stackSlice.length ? this.stackSlice[this.stackSlice.length - 1]! : -1;
    const here: MessageEnd = { track: this.track, time: this.now, slice };
    this.ownEnds.push(here);
    const key = isSend ? `${comm}:${tag}:${this.location}>${other}` : `${comm}:${tag}:${other}>${this.location}`;
    const partners = isSend ? this.recvs : this.sends;
    const waiting = partners.get(key);
    const partner = waiting?.shift();
    if (partner) {
      this.messages++;
      this.pendingFlows.push(isSend ? { from: here, to: partner, key } : { from: partner, to: here, key });
    } else {
      const own = isSend ? this.sends : this.recvs;
      let q = own.get(key);
      if (!q) own.set(key, (q = []));
      q.push(here);
    }
  }

  private metric(c: Otf2Cursor): void {
    const local = c.u32();
    const metric = this.metricMap ? this.metricMap.get(local) : local;
    const n = c.u8();
    if (n > c.end - c.pos) c.fail(`a metric event announces ${n} values in a ${c.end - c.pos}-byte record`);
    const typesAt = c.pos;
    c.pos += n;
    const members = this.defs.metricClasses.get(metric) ?? [];
    for (let i = 0; i < n; i++) {
      const t = c.bytes[typesAt + i]!;
      c.u64Parts();
      const value =
        t === TYPE_DOUBLE
          ? c.partsAsDouble()
          : t === TYPE_INT64 && c.hi >= 0x80000000
            ? (c.hi - TWO_32) * TWO_32 + c.lo
            : t === TYPE_UINT64 || t === TYPE_INT64
              ? c.hi * TWO_32 + c.lo
              : NaN;
      if (!Number.isFinite(value)) continue;
      let ids = this.series.get(metric);
      if (!ids) this.series.set(metric, (ids = []));
      let s = ids[i];
      if (s === undefined) {
        const m = this.defs.metricMembers.get(members[i] ?? -1);
        s = ids[i] = this.tb.addCounterSeries(
          this.track,
          m ? this.defs.str(m.name) : `metric ${metric}[${i}]`,
          m ? this.defs.str(m.unit) : '',
        );
      }
      this.tb.addCounterSample(s, this.now, value);
      this.metricSamples++;
    }
  }

  static skippedSummary(skipped: Map<number, number>): string {
    return [...skipped].map(([t, n]) => `${EVENT_NAMES[t] ?? `type ${t}`} ×${n}`).join(', ');
  }
}
