import type { Profile } from '../model/profile';
import { DataMovementKind, FlowKind, TraceEventKind, type TraceData } from '../model/trace';
import { IntervalIndex } from '../timeline/flows-and-copies';
import { TimelineIndex, type TimeWindow } from '../timeline/timeline-index';
import { compileCategoryRules, DmvCategory, eventCategories, type CompiledRules } from './categories';
import { LaneUnionBuilder, OrderedLaneUnionBuilder, type LaneUnions } from './interval-union';

// Hot loops read these as plain constants (imported enum objects cost a property read, or under tsx a getter call, per use).
const DM = DmvCategory.DataMovement,
  GPU = DmvCategory.GpuCompute,
  RUNTIME = DmvCategory.Runtime,
  CPU = DmvCategory.CpuCompute;
const SLICE = TraceEventKind.Slice,
  SAMPLE = TraceEventKind.Sample;

/** What a row of the data-movement table is, for DMV. */
export const CopyClass = {
  /** An explicit copy (cudaMemcpy*, `.to(device)`). */
  Copy: 0,
  /** A unified-memory migration the driver made on a page fault or prefetch. */
  Migration: 1,
  Memset: 2,
} as const;
export type CopyClass = (typeof CopyClass)[keyof typeof CopyClass];

/** Device id of the host in DMV's device lists; device ids ≥ 0 are GPUs. */
export const HOST = -1;
/** Stands for the end of a copy whose device the trace does not say. */
export const UNKNOWN_DEVICE = -2;

/** `host`, `GPU 3` or `unknown`: DMV's device names (thesis §7.4's communication matrix rows). */
export function dmvDeviceName(device: number): string {
  return device === HOST ? 'host' : device >= 0 ? `GPU ${device}` : 'unknown';
}

export interface DmvIndexOptions {
  /** User category rules (setting `hpcLens.dmv.categoryRules`), raw or compiled. */
  rules?: unknown;
  /** The trace's timeline index when the caller has one (else built on first use). */
  timeline?: TimelineIndex;
}

/**
 * Everything DMV's views read, derived once from a trace in O(n) typed-array passes (a sort only for
 * the per-device unions of several streams):
 * - the class of every event (categories.ts);
 * - per class, the union of its intervals on each track (busy time, thesis §7.3);
 * - per GPU device the union of its activity over all streams, and its kernels alone; per CPU track
 *   the union of runtime and CPU work (occupancy, hardware utilisation);
 * - per copy its class (copy, migration, memset), the GPU it involves and whether its size and devices
 *   are known; an interval index over copies for windows;
 * - per event its enclosing slice and, for GPU work, the CPU call that launched it (correlation).
 * Every window query is then O(lanes · log n + copies in the window).
 */
export class DmvIndex {
  readonly trace: TraceData;
  /** [first, last] nanoseconds of the trace (its time range). */
  readonly range: TimeWindow;
  readonly rules: CompiledRules;
  /** Class of every event row (DmvCategory). */
  readonly category: Uint8Array;
  /** Per class (DataMovement … CpuCompute): union of the class's slices per track (lanes = tracks). */
  readonly classUnions: LaneUnions[];
  /** GPU device ids, ascending: every device with a stream, a copy or an entry in `deviceProperties`. */
  readonly devices: number[];
  /** Lane of each device in the device unions, by device id. */
  readonly deviceLane: Map<number, number>;
  /** Per device: the union of data movement and GPU compute over all its streams. */
  readonly deviceBusy: LaneUnions;
  /** Per device: the union of its kernels (GPU compute) over all its streams. */
  readonly deviceKernels: LaneUnions;
  /** CPU tracks with runtime or CPU-compute slices, in track order. */
  readonly hostTracks: number[];
  /** Per host track: the union of its runtime and CPU-compute slices. */
  readonly hostBusy: LaneUnions;
  /** Per data-movement row: CopyClass. */
  readonly copyClass: Uint8Array;
  /** Per data-movement row: the GPU the operation involves (destination of H→D, source otherwise), or -1. */
  readonly copyDevice: Int32Array;
  /** Per data-movement row: matrix ends, with UNKNOWN_DEVICE where the trace does not say. */
  readonly copySrc: Int32Array;
  readonly copyDst: Int32Array;
  /** Per data-movement row: 1 when its size is missing (no positive byte count). */
  readonly copyWithoutBytes: Uint8Array;
  /** Copies (all rows) by time, for window queries. */
  readonly copyIndex: IntervalIndex;
  /** Per event row: the innermost slice enclosing it on its track, or -1. */
  readonly parentRow: Int32Array;
  /** Per event row: the CPU slice that launched it (Launch flows: correlation id), or -1. */
  readonly launcherRow: Int32Array;

  constructor(
    readonly profile: Profile,
    options: DmvIndexOptions = {},
  ) {
    const trace = profile.trace;
    if (!trace) throw new Error(`${profile.path}: not a trace (DMV needs a timeline of events)`);
    this.trace = trace;
    this.timelineIndex = options.timeline;
    this.range = { start: trace.timeRange[0], end: trace.timeRange[1] };
    this.rules = isCompiled(options.rules) ? options.rules : compileCategoryRules(options.rules);
    this.category = eventCategories(trace, profile.tree.strings, this.rules);

    const ev = trace.events;
    const n = ev.kind.length;
    const tracks = trace.tracks;

    // Devices: streams, copies and device properties.
    const ids = new Set<number>();
    for (const t of tracks) if (t.kind === 'gpu-stream' && t.gpuDevice >= 0) ids.add(t.gpuDevice);
    const dm = trace.dataMovement;
    for (let i = 0; i < dm.kind.length; i++) {
      if (dm.srcDevice[i]! >= 0) ids.add(dm.srcDevice[i]!);
      if (dm.dstDevice[i]! >= 0) ids.add(dm.dstDevice[i]!);
    }
    for (const d of deviceIdsOf(profile.metadata['deviceProperties'])) ids.add(d);
    this.devices = [...ids].sort((a, b) => a - b);
    this.deviceLane = new Map(this.devices.map((d, i) => [d, i]));

    // Class unions per track, device unions, host unions — one pass over the events (in track, start order).
    const classBuilders = [0, 1, 2, 3].map(() => new OrderedLaneUnionBuilder(tracks.length));
    const deviceBuilder = new LaneUnionBuilder(this.devices.length);
    const kernelBuilder = new LaneUnionBuilder(this.devices.length);
    const trackDeviceLane = tracks.map(t =>
      t.kind === 'gpu-stream' && t.gpuDevice >= 0 ? this.deviceLane.get(t.gpuDevice)! : -1,
    );
    // Host lanes: the CPU tracks that have runtime or CPU-compute slices.
    const hostWork = new Uint8Array(tracks.length);
    for (let k = 0; k < n; k++) {
      const c = this.category[k]!;
      if (c === RUNTIME || c === CPU) hostWork[ev.track[k]!] = 1;
    }
    this.hostTracks = [];
    const hostLaneOfTrack = new Int32Array(tracks.length).fill(-1);
    tracks.forEach((track, t) => {
      if (!hostWork[t] || track.kind === 'gpu-stream') return;
      hostLaneOfTrack[t] = this.hostTracks.length;
      this.hostTracks.push(t);
    });
    const hostBuilder = new OrderedLaneUnionBuilder(this.hostTracks.length);
    for (let k = 0; k < n; k++) {
      const c = this.category[k]!;
      if (c > CPU) continue;
      const s = ev.start[k]!,
        e = s + ev.duration[k]!;
      const t = ev.track[k]!;
      classBuilders[c]!.add(t, s, e);
      const lane = trackDeviceLane[t]!;
      if (lane >= 0 && (c === DM || c === GPU)) {
        deviceBuilder.add(lane, s, e);
        if (c === GPU) kernelBuilder.add(lane, s, e);
      } else if (hostLaneOfTrack[t]! >= 0 && (c === RUNTIME || c === CPU)) hostBuilder.add(hostLaneOfTrack[t]!, s, e);
    }
    this.classUnions = classBuilders.map(b => b.build());
    this.deviceBusy = deviceBuilder.build();
    this.deviceKernels = kernelBuilder.build();
    this.hostBusy = hostBuilder.build();

    // Copies.
    const m = dm.kind.length;
    this.copyClass = new Uint8Array(m);
    this.copyDevice = new Int32Array(m);
    this.copySrc = new Int32Array(m);
    this.copyDst = new Int32Array(m);
    this.copyWithoutBytes = new Uint8Array(m);
    for (let i = 0; i < m; i++) {
      const kind = dm.kind[i]!;
      this.copyClass[i] =
        kind === DataMovementKind.Memset
          ? CopyClass.Memset
          : dm.migration?.[i] === 1
            ? CopyClass.Migration
            : CopyClass.Copy;
      const [src, dst] = copyEnds(kind, dm.srcDevice[i]!, dm.dstDevice[i]!);
      this.copySrc[i] = src;
      this.copyDst[i] = dst;
      this.copyDevice[i] =
        kind === DataMovementKind.HostToDevice ? Math.max(-1, dst) : Math.max(-1, src >= 0 ? src : dst);
      this.copyWithoutBytes[i] = dm.bytes[i]! > 0 ? 0 : 1;
    }
    const copyEnd = new Float64Array(m);
    for (let i = 0; i < m; i++) copyEnd[i] = dm.start[i]! + dm.duration[i]!;
    this.copyIndex = new IntervalIndex(dm.start, copyEnd);

    // Enclosing slices: rows are sorted by (track, start, depth), so the last slice seen at depth d − 1
    // on the same track is the parent of a row at depth d.
    this.parentRow = new Int32Array(n).fill(-1);
    let maxDepth = 0;
    for (let k = 0; k < n; k++) if (ev.depth[k]! > maxDepth) maxDepth = ev.depth[k]!;
    const open = new Int32Array(maxDepth + 1);
    for (let t = 0; t < tracks.length; t++) {
      let top = 0; // open[0 … top - 1]: the last slice seen at each depth
      for (let k = trace.trackEventStart[t]!; k < trace.trackEventStart[t + 1]!; k++) {
        const kind = ev.kind[k]!;
        if (kind === SAMPLE) continue;
        const d = ev.depth[k]!;
        // Readers give every row the depth of its nesting, so the depth alone names the parent.
        if (d > 0 && d - 1 < top) this.parentRow[k] = open[d - 1]!;
        if (kind === SLICE) {
          open[d] = k;
          top = d + 1;
        }
      }
    }
    this.launcherRow = new Int32Array(n).fill(-1);
    const fl = trace.flows;
    for (let i = 0; i < fl.kind.length; i++) {
      if (fl.kind[i] !== FlowKind.Launch) continue;
      const to = fl.toEvent[i]!,
        from = fl.fromEvent[i]!;
      if (to >= 0 && from >= 0 && this.launcherRow[to] === -1) this.launcherRow[to] = from;
    }
  }

  private timelineIndex: TimelineIndex | undefined;
  /** The timeline index of the trace (per-lane event search), shared with the timeline views. */
  get timeline(): TimelineIndex {
    return (this.timelineIndex ??= new TimelineIndex(this.profile));
  }

  get strings() {
    return this.profile.tree.strings;
  }

  /** Runtime of the trace in nanoseconds (its range's length). */
  get runtime(): number {
    return this.range.end - this.range.start;
  }
}

function isCompiled(r: unknown): r is CompiledRules {
  return !!r && typeof r === 'object' && !Array.isArray(r) && Array.isArray((r as CompiledRules).rules);
}

/** Ids of Kineto's `deviceProperties` entries (`[{id: 0, name: …}, …]`). */
export function deviceIdsOf(props: unknown): number[] {
  if (!Array.isArray(props)) return [];
  const out: number[] = [];
  for (const p of props) {
    const id = p && typeof p === 'object' ? (p as Record<string, unknown>)['id'] : undefined;
    if (typeof id === 'number' && Number.isInteger(id) && id >= 0) out.push(id);
  }
  return out;
}

/** Source and destination of a copy for the matrix: the host is HOST, a missing device UNKNOWN_DEVICE. */
function copyEnds(kind: number, src: number, dst: number): [number, number] {
  const gpu = (d: number) => (d >= 0 ? d : UNKNOWN_DEVICE);
  switch (kind) {
    case DataMovementKind.HostToDevice:
      return [HOST, gpu(dst)];
    case DataMovementKind.DeviceToHost:
      return [gpu(src), HOST];
    case DataMovementKind.DeviceToDevice:
    case DataMovementKind.Peer:
      return [gpu(src), gpu(dst)];
    case DataMovementKind.Memset:
      return [gpu(dst), gpu(dst)];
    default:
      // A copy of unknown direction: neither end is known.
      return [UNKNOWN_DEVICE, UNKNOWN_DEVICE];
  }
}
