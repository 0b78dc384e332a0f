import { DataMovementKind, type TraceData } from '../model/trace';
import { formatBytes, formatSeconds } from '../stats/format';
import type { IntervalIndex } from '../timeline/flows-and-copies';
import type { TimeWindow } from '../timeline/timeline-index';
import { CLASS_COUNT, classValues, type ClassValues } from './categories';
import { CopyClass } from './dmv-index';
import type { LaneUnions } from './interval-union';

/** What DMV's summaries are computed from: a {@link DmvIndex}, or a run digest of an ensemble. */
export interface BinSource {
  readonly classUnions: readonly LaneUnions[];
  readonly deviceBusy: LaneUnions;
  readonly hostBusy: LaneUnions;
  readonly copyClass: Uint8Array;
  readonly copyIndex: IntervalIndex;
  readonly trace: Pick<TraceData, 'dataMovement' | 'pageFaults'>;
}

/** Bytes per copy direction (explicit copies only). */
export interface DirectionBytes {
  hostToDevice: number;
  deviceToHost: number;
  deviceToDevice: number;
  peer: number;
  /** Copies whose direction the trace does not say. */
  other: number;
}

/** One time bin: a clock sector or a window. Times in nanoseconds from the trace origin. */
export interface BinSummary {
  start: number;
  end: number;
  /** Busy time per class inside the bin (ns; summed over tracks, each track's union counted once). */
  busy: ClassValues;
  /** Bytes of explicit copies inside the bin: a copy crossing an edge is split in proportion to its time there. */
  bytes: number;
  bytesByDirection: DirectionBytes;
  /** Bytes set by memsets, and moved by unified-memory migrations (neither counts as copied bytes). */
  memsetBytes: number;
  migrationBytes: number;
  /** Explicit copies starting in the bin. */
  copies: number;
  /** Unified-memory page faults starting in the bin. */
  faults: number;
  /** Share of the bin the CPU tracks (runtime or CPU work) and the GPUs (copies or kernels) are busy, in [0, 1]. */
  occupancy: { cpu: number; gpu: number };
}

const DIRECTION_KEYS: (keyof DirectionBytes)[] = [];
DIRECTION_KEYS[DataMovementKind.HostToDevice] = 'hostToDevice';
DIRECTION_KEYS[DataMovementKind.DeviceToHost] = 'deviceToHost';
DIRECTION_KEYS[DataMovementKind.DeviceToDevice] = 'deviceToDevice';
DIRECTION_KEYS[DataMovementKind.Peer] = 'peer';
DIRECTION_KEYS[DataMovementKind.Other] = 'other';

/**
 * Summaries of `bins` equal bins of `width` ns from `origin`: per class the busy time (split at bin
 * edges, thesis §7.3 / DMVis `np.digitize`), copied bytes per direction (each copy spread evenly over
 * its duration; an instantaneous one counts where it starts), page faults and occupancy.
 * O(intervals + copies in range); a single bin (a window) is O(lanes · log n + copies in it).
 */
export function binSummaries(src: BinSource, origin: number, width: number, bins: number): BinSummary[] {
  const busy = new Float64Array(bins * CLASS_COUNT);
  const cpu = new Float64Array(bins),
    gpu = new Float64Array(bins);
  const end = origin + width * bins;
  if (bins === 1) {
    for (let c = 0; c < CLASS_COUNT; c++) busy[c] = src.classUnions[c]!.covered(origin, end);
    cpu[0] = src.hostBusy.covered(origin, end);
    gpu[0] = src.deviceBusy.covered(origin, end);
  } else {
    for (let c = 0; c < CLASS_COUNT; c++) src.classUnions[c]!.addToBins(origin, width, bins, busy, CLASS_COUNT, c);
    src.hostBusy.addToBins(origin, width, bins, cpu);
    src.deviceBusy.addToBins(origin, width, bins, gpu);
  }
  // Occupancy is the mean over the lanes the run used (a GPU listed in deviceProperties but idle throughout is left out).
  const cpuLanes = src.hostBusy.activeLanes,
    gpuLanes = src.deviceBusy.activeLanes;
  const out: BinSummary[] = [];
  for (let k = 0; k < bins; k++) {
    const s = origin + k * width;
    out.push({
      start: s,
      end: k === bins - 1 ? end : s + width,
      busy: classValues(busy.subarray(k * CLASS_COUNT, (k + 1) * CLASS_COUNT)),
      bytes: 0,
      bytesByDirection: { hostToDevice: 0, deviceToHost: 0, deviceToDevice: 0, peer: 0, other: 0 },
      memsetBytes: 0,
      migrationBytes: 0,
      copies: 0,
      faults: 0,
      occupancy: { cpu: share(cpu[k]!, width * cpuLanes), gpu: share(gpu[k]!, width * gpuLanes) },
    });
  }
  if (!(width > 0) || bins <= 0) return out;
  const binOf = (t: number) => Math.min(bins - 1, Math.floor((t - origin) / width));

  const dm = src.trace.dataMovement;
  for (const i of src.copyIndex.query(origin, end)) {
    const s = dm.start[i]!,
      d = dm.duration[i]!,
      bytes = dm.bytes[i]! > 0 ? dm.bytes[i]! : 0;
    const cls = src.copyClass[i]!;
    const add = (k: number, b: number) => {
      const bin = out[k]!;
      if (cls === CopyClass.Memset) bin.memsetBytes += b;
      else if (cls === CopyClass.Migration) bin.migrationBytes += b;
      else {
        bin.bytes += b;
        bin.bytesByDirection[DIRECTION_KEYS[dm.kind[i]!] ?? 'other'] += b;
      }
    };
    if (s >= origin && s < end && cls === CopyClass.Copy) out[binOf(s)]!.copies++;
    if (!(d > 0)) {
      if (s >= origin && s < end) add(binOf(s), bytes);
      continue;
    }
    const a = Math.max(s, origin),
      e = Math.min(s + d, end);
    for (let k = binOf(a); k < bins && a < e; k++) {
      const lo = Math.max(a, origin + k * width),
        hi = Math.min(e, origin + (k + 1) * width);
      if (hi > lo) add(k, (bytes * (hi - lo)) / d);
      if (hi >= e) break;
    }
  }

  const pf = src.trace.pageFaults;
  if (pf) {
    const first = lowerBound(pf.start, origin);
    for (let i = first; i < pf.start.length && pf.start[i]! < end; i++)
      out[binOf(pf.start[i]!)]!.faults += pf.count[i]!;
  }
  return out;
}

/** The summary of one window (the clock's inner arc, the timeline's selection). */
export function summariseWindow(src: BinSource, window: TimeWindow): BinSummary {
  return binSummaries(src, window.start, Math.max(0, window.end - window.start), 1)[0]!;
}

/** The 12-sector clock glyph of one run (thesis §7.4, Fig. 7.6). */
export interface DmvClock {
  /** Start of sector 0 (ns from the origin). */
  start: number;
  /** Width of every sector (ns). */
  sectorWidth: number;
  sectors: BinSummary[];
  /** The run's own length (ns); in compare mode the sectors may reach past it. */
  runtime: number;
  /** Explicit copy bytes in the whole run. */
  bytes: number;
  /** Unified-memory page faults in the whole run. */
  faults: number;
  /** The glyph's labels: `1.17 s`, `116 MB`. */
  labels: { runtime: string; bytes: string };
}

/** Clock sectors: 12, as DMVis draws them (thesis §7.4). */
export const CLOCK_SECTORS = 12;
/** One play step moves the window by one sector every 2 s (DMVis' animation). */
export const PLAY_STEP_MS = 2000;

export interface ClockOptions {
  /** Sector count (default 12). */
  sectors?: number;
  /** Sector width in ns; default: the range's length / sectors. Compare mode passes the ensemble's. */
  sectorWidth?: number;
}

/** The clock of a range (a run's whole time range): `sectors` equal sectors from its start. */
export function dmvClock(src: BinSource, range: TimeWindow, options: ClockOptions = {}): DmvClock {
  const n = options.sectors ?? CLOCK_SECTORS;
  const runtime = Math.max(0, range.end - range.start);
  const width = options.sectorWidth ?? runtime / n;
  const sectors = binSummaries(src, range.start, width, n);
  let bytes = 0,
    faults = 0;
  for (const s of sectors) {
    bytes += s.bytes;
    faults += s.faults;
  }
  // A zero-length run has one instant: everything counts whole, in sector 0.
  if (!(width > 0)) {
    const all = summariseWindow(src, { start: range.start, end: range.start + 1 });
    bytes = all.bytes;
    faults = all.faults;
  }
  return {
    start: range.start,
    sectorWidth: width,
    sectors,
    runtime,
    bytes,
    faults,
    labels: clockLabels(runtime, bytes),
  };
}

/** `1.17 s` and `3 GB`: the runtime and bytes labels of a clock glyph. */
export function clockLabels(runtimeNs: number, bytes: number): { runtime: string; bytes: string } {
  return { runtime: formatSeconds(runtimeNs * 1e-9), bytes: formatBytes(bytes) };
}

/** The window a sector stands for: a sector click sets the timeline window to it. */
export function sectorWindow(clock: Pick<DmvClock, 'start' | 'sectorWidth'>, sector: number): TimeWindow {
  const start = clock.start + sector * clock.sectorWidth;
  return { start, end: start + clock.sectorWidth };
}

/** The sector holding time t (clamped to the clock), for hover and "which sector is this window in". */
export function sectorOf(clock: Pick<DmvClock, 'start' | 'sectorWidth' | 'sectors'>, t: number): number {
  if (!(clock.sectorWidth > 0)) return 0;
  return Math.max(0, Math.min(clock.sectors.length - 1, Math.floor((t - clock.start) / clock.sectorWidth)));
}

/**
 * The inner arc of a window: where it starts and ends as fractions of the clock's full turn (0 = 12
 * o'clock, 1 = all the way round), clipped to the clock; null when the window misses the clock.
 */
export function windowArc(clock: DmvClock, window: TimeWindow): { from: number; to: number } | null {
  const span = clock.sectorWidth * clock.sectors.length;
  if (!(span > 0)) return null;
  const from = Math.max(0, (window.start - clock.start) / span),
    to = Math.min(1, (window.end - clock.start) / span);
  return to > from || (to === from && window.end === window.start && from >= 0 && from <= 1) ? { from, to } : null;
}

/** The window of play step `step` (one sector per step, wrapping round the clock). */
export function playWindow(clock: DmvClock, step: number): TimeWindow {
  const n = clock.sectors.length;
  return sectorWindow(clock, ((step % n) + n) % n);
}

function share(part: number, whole: number): number {
  return whole > 0 ? Math.min(1, part / whole) : 0;
}

function lowerBound(a: Float64Array, t: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (a[m]! < t) lo = m + 1;
    else hi = m;
  }
  return lo;
}
