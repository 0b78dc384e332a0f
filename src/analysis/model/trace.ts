/**
 * The trace model: what happened when, on which execution context. Every trace format (Chrome
 * trace-event JSON / Kineto, Nsight Systems, OTF2, HPCToolkit trace.db, perf, pprof) fills the same
 * columns through {@link TraceBuilder} (trace-builder.ts), and every trace also yields the profile
 * (call tree × contexts) that holds it, so all profile views work on traces.
 *
 * Time: every time in this model is an integer number of **nanoseconds relative to the trace
 * origin** ({@link TraceData.originNs}), stored in Float64Array columns. Integers are exact in a
 * double below 2^53 ns ≈ 104 days after the origin, far longer than any traced run. The origin is
 * kept separately, as a decimal string, because absolute clocks (e.g. Unix-epoch nanoseconds,
 * ~1.7·10^18) are beyond 2^53.
 *
 * Events are one global columnar table sorted by track, then start time, then depth; the events of
 * track t are the rows `trackEventStart[t] … trackEventStart[t + 1] - 1`. Counter samples, flows and
 * data-movement records have tables of their own.
 */

/** What a track is the timeline of. Stored as names in {@link TraceTrack.kind}. */
export type TrackKind =
  /** A CPU thread (or a whole process/rank when the format has no threads). */
  | 'thread'
  /** A GPU device's stream (CUDA stream, HIP stream, SYCL queue). */
  | 'gpu-stream'
  /** Asynchronous slices that belong to no thread (Chrome `b`/`e`, NVTX ranges spanning threads). */
  | 'async'
  /** Counter series only. */
  | 'counter';

export interface TraceTrack {
  /** Short name, e.g. `thread 25738 (python)`, `stream 7`, `counter: memory`. */
  name: string;
  kind: TrackKind;
  /** Name of the process (rank) the track belongs to, e.g. `python [GPU 0]`, `rank 3`. */
  process: string;
  /** The format's own process and thread ids as written (Chrome pid/tid, OTF2 location, …). */
  pid: string;
  tid: string;
  /** MPI rank, thread id, GPU device and stream when known, else -1. */
  rank: number;
  thread: number;
  gpuDevice: number;
  gpuStream: number;
  /** Index of the track's execution context in {@link ProfileData.contexts}; -1 for counter-only tracks. */
  context: number;
  /** The tracks are stored in display order; this is the format's own sort hint (0 when absent). */
  sortIndex: number;
}

/** What an event row is. */
export const TraceEventKind = {
  /** A time interval of a call-tree node (Chrome X or B/E, OTF2 enter/leave, CUPTI activities). */
  Slice: 0,
  /** A point in time (Chrome i/I/n, markers); `node` is the enclosing slice's node, or -1. */
  Instant: 1,
  /** A sampled call path (Chrome P / top-level samples, perf, trace.db); `node` is the leaf, `duration` 0. */
  Sample: 2,
} as const;
export type TraceEventKind = (typeof TraceEventKind)[keyof typeof TraceEventKind];

/** The event table, one row per event, sorted by (track, start, depth). Strings are ids into ProfileData.strings. */
export interface TraceEventColumns {
  track: Int32Array;
  /** Nanoseconds from the origin. */
  start: Float64Array;
  /** Nanoseconds (0 for instants and samples). */
  duration: Float64Array;
  /** Call-tree node of the slice or sample; for instants the enclosing slice's node (-1 when none). */
  node: Int32Array;
  /** Nesting depth on the track (0 = outermost slice). */
  depth: Int32Array;
  kind: Uint8Array;
  category: Int32Array;
  name: Int32Array;
}

/** Counter series: names and the track each belongs to. */
export interface TraceCounterSeries {
  track: number;
  name: string;
  unit: string;
}

/** Counter samples, sorted by series then time; series s has rows `seriesStart[s] … seriesStart[s + 1] - 1`. */
export interface TraceCounterColumns {
  series: TraceCounterSeries[];
  seriesStart: Int32Array;
  /** Nanoseconds from the origin. */
  time: Float64Array;
  value: Float64Array;
}

/** What a flow arrow stands for. */
export const FlowKind = {
  Generic: 0,
  /** A CPU-side launch (cudaLaunchKernel, cudaMemcpyAsync) to the GPU activity it started. */
  Launch: 1,
  /** A message send to its receive (MPI point-to-point). */
  Message: 2,
} as const;
export type FlowKind = (typeof FlowKind)[keyof typeof FlowKind];
export const FLOW_KIND_NAMES = ['generic', 'launch', 'message'] as const;

/** Flow arrows between two points of two tracks (one row per arrow). */
export interface TraceFlowColumns {
  kind: Uint8Array;
  /**
   * The flow the arrow belongs to: arrows with the same number are one flow (Chrome `cat` + `id`, MPI
   * tag/communicator, …), numbered per trace in the order first met. Not a string id: a trace has as
   * many flows as launches, and their ids would crowd the profile's string table.
   */
  id: Int32Array;
  fromTrack: Int32Array;
  fromTime: Float64Array;
  /** Row of the slice the arrow leaves from, or -1. */
  fromEvent: Int32Array;
  toTrack: Int32Array;
  toTime: Float64Array;
  toEvent: Int32Array;
}

/** Kinds of data movement. */
export const DataMovementKind = {
  HostToDevice: 0,
  DeviceToHost: 1,
  DeviceToDevice: 2,
  Peer: 3,
  Memset: 4,
  /** A copy whose direction the format does not say. */
  Other: 5,
} as const;
export type DataMovementKind = (typeof DataMovementKind)[keyof typeof DataMovementKind];
export const DATA_MOVEMENT_KIND_NAMES = [
  'host-to-device',
  'device-to-host',
  'device-to-device',
  'peer',
  'memset',
  'other',
] as const;

/** Bytes moved (or set) by copies and memsets, one row per operation, in event order. */
export interface DataMovementColumns {
  kind: Uint8Array;
  bytes: Float64Array;
  /** Device ids; -1 for the host or when unknown. */
  srcDevice: Int32Array;
  dstDevice: Int32Array;
  /** Nanoseconds from the origin. */
  start: Float64Array;
  duration: Float64Array;
  track: Int32Array;
  /** Row of the operation's slice in the event table, or -1. */
  event: Int32Array;
  /** The operation's call-tree node; its ancestors are the issuing call path (the CPU launch, Python frames). */
  node: Int32Array;
  /** Nearest node on the path (the node itself or an ancestor) with a source file and line, or -1. */
  sourceNode: Int32Array;
  /** Memory kinds of the source and destination ({@link MemoryKind}), when the format records them. */
  srcKind?: Uint8Array;
  dstKind?: Uint8Array;
  /** 1 for a unified-memory (UVM) migration the driver made, 0 for an explicit copy; absent when the format cannot tell. */
  migration?: Uint8Array;
}

/**
 * Memory kinds of a copy's ends, numbered as CUPTI's `CUpti_ActivityMemoryKind` (readers translate
 * their format's own numbering, e.g. Nsight's `ENUM_CUDA_MEM_KIND`, into this one).
 */
export const MemoryKind = {
  Unknown: 0,
  Pageable: 1,
  Pinned: 2,
  Device: 3,
  Array: 4,
  Managed: 5,
  DeviceStatic: 6,
  ManagedStatic: 7,
} as const;
export type MemoryKind = (typeof MemoryKind)[keyof typeof MemoryKind];
/** Names as Kineto writes them in copy names (`Memcpy HtoD (Pageable -> Device)`), by MemoryKind. */
export const MEMORY_KIND_NAMES = [
  'Unknown',
  'Pageable',
  'Pinned',
  'Device',
  'Array',
  'Managed',
  'Device Static',
  'Managed Static',
] as const;

/** The MemoryKind a name stands for (`Pageable`, `pinned`, `Managed Static`…), case-insensitive; Unknown when none. */
export function memoryKindOf(name: string): MemoryKind {
  const k = MEMORY_KIND_NAMES.findIndex(n => n.toLowerCase() === name.trim().toLowerCase());
  return (k > 0 ? k : MemoryKind.Unknown) as MemoryKind;
}

/**
 * Allocator events (PyTorch's `[memory]` instants with `profile_memory=True`): one row per
 * allocation (bytes > 0) or free (bytes < 0), in time order.
 */
export interface MemoryEventColumns {
  /** Nanoseconds from the origin. */
  time: Float64Array;
  /** Device id; -1 for the host. */
  device: Int32Array;
  /** Signed size of the allocation (+) or free (−), bytes. */
  bytes: Float64Array;
  /** The allocator's own running totals after the event when recorded (NaN when absent), bytes. */
  totalAllocated: Float64Array;
  totalReserved: Float64Array;
}

/** Unified-memory page faults (Nsight `CUDA_UM_CPU_PAGE_FAULT_EVENTS` / `CUDA_UM_GPU_PAGE_FAULT_EVENTS`), in time order. */
export interface PageFaultColumns {
  /** Nanoseconds from the origin. */
  start: Float64Array;
  /** Nanoseconds (0 for CPU faults, which are instants). */
  duration: Float64Array;
  /** The faulting GPU's device id; -1 for a CPU fault. */
  device: Int32Array;
  /** Faults the row stands for (GPU fault groups batch several). */
  count: Float64Array;
}

/** A trace as plain, transferable data (attached to ProfileData as `trace`). */
export interface TraceData {
  /** Absolute time of t = 0 in the file's clock, as decimal integer nanoseconds ("0" when the clock is relative). */
  originNs: string;
  /** Tracks in display order. */
  tracks: TraceTrack[];
  events: TraceEventColumns;
  trackEventStart: Int32Array;
  counters: TraceCounterColumns;
  flows: TraceFlowColumns;
  dataMovement: DataMovementColumns;
  /** [first, last] instant covered by any event, in nanoseconds from the origin ([0, 0] when empty). */
  timeRange: [number, number];
  /** Allocator events, for formats that record them (Kineto `[memory]`). */
  memory?: MemoryEventColumns;
  /** Unified-memory page faults, for formats that record them (Nsight Systems). */
  pageFaults?: PageFaultColumns;
}

/** The buffers of a trace, for transfer between threads. */
export function traceBuffers(trace: TraceData): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (cols: object) => {
    for (const c of Object.values(cols)) if (ArrayBuffer.isView(c)) out.add(c.buffer as ArrayBuffer);
  };
  add(trace.events);
  add(trace.counters);
  add(trace.flows);
  add(trace.dataMovement);
  if (trace.memory) add(trace.memory);
  if (trace.pageFaults) add(trace.pageFaults);
  out.add(trace.trackEventStart.buffer as ArrayBuffer);
  return [...out];
}

/** Totals of the data-movement table, per kind name. */
export function dataMovementTotals(dm: DataMovementColumns): {
  count: number;
  bytes: number;
  byKind: Record<string, { count: number; bytes: number }>;
} {
  const byKind: Record<string, { count: number; bytes: number }> = {};
  let bytes = 0;
  for (let i = 0; i < dm.kind.length; i++) {
    const k = DATA_MOVEMENT_KIND_NAMES[dm.kind[i]!] ?? 'other';
    const b = dm.bytes[i]!;
    const e = (byKind[k] ??= { count: 0, bytes: 0 });
    e.count++;
    e.bytes += b;
    bytes += b;
  }
  return { count: dm.kind.length, bytes, byKind };
}
