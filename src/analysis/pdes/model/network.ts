/**
 * CODES network output beside the ROSS samples (data-sources §14): per-packet and per-router-hop
 * traces (one text file per PE), end-of-run link and terminal statistics, and the model samples the
 * dragonfly-dally model writes at virtual-time points. Columnar: one typed array per field.
 */

/** Fields read from `packet-latency/packets-delay-gid=<pe>.txt`, as CODES names them. */
export const PACKET_FIELDS = [
  'src_terminal',
  'dest_terminal',
  'packet_size',
  'src_router_id',
  'src_group_id',
  'dst_router_id',
  'dst_group_id',
  'packet_id',
  'start',
  'end',
  'latency',
] as const;
export type PacketField = (typeof PACKET_FIELDS)[number];

/** Fields read from `router-timing/router-timing-gid=<pe>.txt`, as CODES names them. */
export const ROUTER_HOP_FIELDS = [
  'router_id',
  'group_id',
  'output_port',
  'output_chan',
  'to_terminal',
  'is_global',
  'packet_size',
  'output_vc_occupancy',
  'output_queued_count',
  'router_queueing_delay',
  'actual_router_delay',
  'now',
  'packet_id',
  'src_terminal',
  'dest_terminal',
  'next_stop',
] as const;
export type RouterHopField = (typeof ROUTER_HOP_FIELDS)[number];

/** Rows of a per-PE CODES trace, all files together. Times are nanoseconds of simulated time. */
export interface NetworkTraceTable<F extends string> {
  count: number;
  /** The PE (the `gid=` of the file) that wrote each row. */
  pe: Int32Array;
  columns: Record<F, Float64Array>;
}

export type PacketTable = NetworkTraceTable<PacketField>;
export type RouterHopTable = NetworkTraceTable<RouterHopField>;

/** Dragonfly link classes: terminal–router (`CN`), intra-group (`L`), inter-group (`G`). */
export type DragonflyLinkType = 'CN' | 'L' | 'G';
export const DRAGONFLY_LINK_TYPES: readonly DragonflyLinkType[] = ['CN', 'L', 'G'];

/** `lp-io/dragonfly-link-stats`: one row per directed link, at the end of the run. */
export interface LinkStats {
  count: number;
  srcId: Int32Array;
  /** 0 terminal (`T`), 1 router (`R`). */
  srcIsRouter: Uint8Array;
  dstId: Int32Array;
  dstIsRouter: Uint8Array;
  /** Index into {@link DRAGONFLY_LINK_TYPES}. */
  type: Uint8Array;
  /** Bytes sent over the link. */
  traffic: Float64Array;
  /** Nanoseconds the link's buffer was full. */
  saturation: Float64Array;
  /** Chunks that stalled on the link. */
  stalled: Float64Array;
}

/** `lp-io/dragonfly-cn-stats`: one row per terminal (compute node) at the end of the run. */
export interface TerminalStats {
  count: number;
  lp: Int32Array;
  terminal: Int32Array;
  /** Bytes. */
  dataSent: Float64Array;
  dataReceived: Float64Array;
  /** Nanoseconds. */
  avgLatency: Float64Array;
  maxLatency: Float64Array;
  minLatency: Float64Array;
  packetsFinished: Float64Array;
  avgHops: Float64Array;
  /** Nanoseconds, averaged over rails. */
  busyTime: Float64Array;
}

/**
 * CODES dragonfly-dally router samples (`dfly_router_sample`): one row per router and virtual-time
 * point, the last sample kept when a point repeats. Per-port fields are `radix` values per row,
 * row-major. Values cover the interval since the previous point.
 */
export interface RouterSamples {
  count: number;
  radix: number;
  lp: Int32Array;
  router: Int32Array;
  /** The virtual-time sampling point (ns). */
  time: Float64Array;
  endTime: Float64Array;
  forwardEvents: Float64Array;
  reverseEvents: Float64Array;
  /** Per port (ns). */
  busyTime: Float64Array;
  /** Per port (bytes). */
  linkTraffic: Float64Array;
  stalledChunks: Float64Array;
  vcOccupancy: Float64Array;
  queuedCount: Float64Array;
}

/**
 * CODES dragonfly-dally terminal samples (`dfly_cn_sample`): one row per terminal and point.
 * Rail arrays are summed over rails.
 */
export interface TerminalSamples {
  count: number;
  rails: number;
  lp: Int32Array;
  terminal: Int32Array;
  time: Float64Array;
  finishedChunks: Float64Array;
  dataSize: Float64Array;
  finishedHops: Float64Array;
  finishedChunksTime: Float64Array;
  packetsGenerated: Float64Array;
  packetsFinished: Float64Array;
  minimalFinished: Float64Array;
  nonMinimalFinished: Float64Array;
  endTime: Float64Array;
  forwardEvents: Float64Array;
  reverseEvents: Float64Array;
  busyTime: Float64Array;
  stalledChunks: Float64Array;
}

/** Model samples of a run's virtual-time sampling, by the layout they were recognised as. */
export interface ModelSamples {
  routers: RouterSamples | null;
  terminals: TerminalSamples | null;
  /** Model records of a layout this reader does not know (another model), by payload size. */
  unknown: Map<number, number>;
  /** Distinct virtual-time points, ascending. */
  points: Float64Array;
}

/** Link counts by type. */
export function linkCounts(stats: LinkStats): { total: number; byType: { CN: number; L: number; G: number } } {
  const by = [0, 0, 0];
  for (const t of stats.type) by[t]!++;
  return { total: stats.count, byType: { CN: by[0]!, L: by[1]!, G: by[2]! } };
}
