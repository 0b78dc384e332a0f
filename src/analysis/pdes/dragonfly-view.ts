import {
  dragonflyLinkValues,
  dragonflyShapeFromConfig,
  dragonflyTopology,
  routerBusyTime,
  routerLinkTraffic,
  type DragonflyShape,
} from '../topology/dragonfly';
import type { Topology } from '../topology/topology';
import { lpsOfEntities, lpTypeTable } from './lp-types';
import type { RouterSamples } from './model/network';
import type { PdesAnalysis } from './pdes-analysis';
import type { PdesRun } from './model/pdes-run';

/**
 * The dragonfly view's data (issue 19; seed digest §5.3 item 7): the CODES network as a topology
 * (groups, routers, terminals, local / global / terminal links), with link traffic, saturation and
 * stalled chunks from `lp-io/dragonfly-link-stats` (end of run), router busy time and port traffic
 * from the model samples of virtual-time sampling — per segment of the analysis as well, since those
 * samples are time-resolved — and the routers and terminals whose LPs belong to the selected
 * entities. Scales are shared across segments, like the circular views'.
 */
export interface DragonflyViewData {
  shape: DragonflyShape;
  topology: Topology;
  /** Node index of each group, router id and terminal id. */
  groupNode: Int32Array;
  routerNode: Int32Array;
  terminalNode: Int32Array;
  /** Per link (topology link order), end of run; null without the link stats. */
  links: { traffic: Float64Array; saturation: Float64Array; stalledChunks: Float64Array; unmatched: number } | null;
  /** Router busy time (ns, summed over ports and sampling points) and port traffic (bytes), from the model samples. */
  routers: DragonflyRouterValues | null;
  /** Largest values, for colour scales shared by every segment. */
  scales: {
    linkTraffic: number;
    linkSaturation: number;
    /** Over routers: whole run, and any one segment. */
    routerBusy: number;
    routerBusyPerSegment: number;
    portTrafficPerSegment: number;
  };
  /** 1 for routers / terminals whose LP belongs to a selected entity. */
  selectedRouters: Uint8Array;
  selectedTerminals: Uint8Array;
  notes: string[];
}

export interface DragonflyRouterValues {
  /** Per router id, whole run. */
  busyTime: Float64Array;
  /** Per link (router ports only), whole run. */
  portTraffic: Float64Array;
  /** Per segment of the analysis (null when the segments have no virtual-time extent). */
  segments: { label: string; busyTime: Float64Array; portTraffic: Float64Array }[] | null;
  /** Sampling points after the analysed range's last sample (in no segment). */
  pointsOutside: number;
}

/** Null when the run names no dragonfly (no CODES config with dragonfly PARAMS). */
export function dragonflyViewData(
  run: PdesRun,
  analysis: PdesAnalysis | null,
  selected: ArrayLike<number>,
): DragonflyViewData | null {
  const shape = run.codesConfig && dragonflyShapeFromConfig(run.codesConfig);
  if (!shape) return null;
  const notes: string[] = [];
  const { topology, index } = dragonflyTopology(shape, run.files.codesConfig ?? run.name);
  const routerIds = index.routerNode.length;
  let links: DragonflyViewData['links'] = null;
  if (run.links) {
    const v = dragonflyLinkValues(topology, index, run.links);
    links = {
      traffic: v.traffic.link,
      saturation: v.saturation.link,
      stalledChunks: v.stalledChunks.link,
      unmatched: v.unmatched,
    };
    if (v.unmatched) notes.push(`${v.unmatched} rows of the link stats name no link of the configured dragonfly.`);
  }
  let routers: DragonflyRouterValues | null = null;
  const samples = run.modelSamples?.routers;
  if (samples && samples.count) {
    if (samples.radix !== index.radix)
      notes.push(
        `Router samples have ${samples.radix} ports where the dragonfly has ${index.radix}: port traffic is left out.`,
      );
    const busyOf = (s: RouterSamples) => routerBusyTime(topology, index, s).node;
    const perRouter = (nodeValues: Float64Array) => Float64Array.from(index.routerNode, n => nodeValues[n]!);
    const windows = analysis ? segmentWindows(analysis) : null;
    let pointsOutside = 0;
    let segments: DragonflyRouterValues['segments'] = null;
    if (windows) {
      segments = windows.map(w => {
        const part = routerRows(samples, row => samples.time[row]! > w.from && samples.time[row]! <= w.to);
        return {
          label: w.label,
          busyTime: perRouter(busyOf(part)),
          portTraffic: routerLinkTraffic(topology, index, part).link,
        };
      });
      const last = windows[windows.length - 1]!.to;
      const first = windows[0]!.from;
      const points = run.modelSamples!.points;
      for (const p of points) if (p > last || p <= first) pointsOutside++;
    } else if (analysis) notes.push('The samples have no virtual times: router values are for the whole run only.');
    routers = {
      busyTime: perRouter(busyOf(samples)),
      portTraffic: routerLinkTraffic(topology, index, samples).link,
      segments,
      pointsOutside,
    };
  }
  // Routers and terminals of the selected entities' LPs.
  const selectedRouters = new Uint8Array(routerIds);
  const selectedTerminals = new Uint8Array(index.terminalNode.length);
  if (analysis) {
    const types = lpTypeTable(run);
    const isRouter = types.names.map(n => /router/i.test(n));
    const isTerminal = types.names.map(n => !/router/i.test(n) && /dragonfly/i.test(n));
    for (const lp of lpsOfEntities(run, analysis.behaviour.level, selected)) {
      const t = types.typeOf[lp]!,
        k = types.ordinal[lp]!;
      if (t < 0) continue;
      if (isRouter[t] && k < routerIds) selectedRouters[k] = 1;
      else if (isTerminal[t] && k < selectedTerminals.length) selectedTerminals[k] = 1;
    }
  }
  const max = (a: ArrayLike<number> | undefined) => {
    let m = 0;
    if (a) for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
    return m;
  };
  return {
    shape,
    topology,
    groupNode: index.groupNode,
    routerNode: index.routerNode,
    terminalNode: index.terminalNode,
    links,
    routers,
    scales: {
      linkTraffic: max(links?.traffic),
      linkSaturation: max(links?.saturation),
      routerBusy: max(routers?.busyTime),
      routerBusyPerSegment: Math.max(0, ...(routers?.segments ?? []).map(s => max(s.busyTime))),
      portTrafficPerSegment: Math.max(0, ...(routers?.segments ?? []).map(s => max(s.portTraffic))),
    },
    selectedRouters,
    selectedTerminals,
    notes,
  };
}

/**
 * Each segment's extent in virtual time, (from, to]: from the GVT of the sample before it (−∞ for
 * the first sample of the run) to the GVT of its last sample (∞ for real-time samples taken after
 * the end of the simulation). Null when a sample has no GVT (NaN: a round some PE never reported).
 */
function segmentWindows(analysis: PdesAnalysis): { label: string; from: number; to: number }[] | null {
  const vt = analysis.behaviour.virtualTimes;
  const out = analysis.segments.map(s => ({
    label: s.label,
    from: s.start === 0 ? -Infinity : vt[s.start - 1]!,
    to: vt[s.end - 1]!,
  }));
  return out.every(w => !Number.isNaN(w.from) && !Number.isNaN(w.to)) ? out : null;
}

/** The rows of router samples that pass `keep`, as router samples. */
function routerRows(s: RouterSamples, keep: (row: number) => boolean): RouterSamples {
  const rows: number[] = [];
  for (let r = 0; r < s.count; r++) if (keep(r)) rows.push(r);
  const R = s.radix;
  const pick = <T extends Float64Array | Int32Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(rows.length);
    rows.forEach((r, i) => (out[i] = column[r]!));
    return out;
  };
  const ports = (column: Float64Array) => {
    const out = new Float64Array(rows.length * R);
    rows.forEach((r, i) => out.set(column.subarray(r * R, (r + 1) * R), i * R));
    return out;
  };
  return {
    count: rows.length,
    radix: R,
    lp: pick(s.lp),
    router: pick(s.router),
    time: pick(s.time),
    endTime: pick(s.endTime),
    forwardEvents: pick(s.forwardEvents),
    reverseEvents: pick(s.reverseEvents),
    busyTime: ports(s.busyTime),
    linkTraffic: ports(s.linkTraffic),
    stalledChunks: ports(s.stalledChunks),
    vcOccupancy: ports(s.vcOccupancy),
    queuedCount: ports(s.queuedCount),
  };
}
