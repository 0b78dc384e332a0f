import type { NvidiaSmiTopology } from '../topology/host-gpu';
import { gpuLinkType } from '../formats/nvidia-smi-topo';
import type { DataMovementColumns } from '../model/trace';
import { dataMovementSites, type DataMovementSite } from '../stats/data-movement-sites';
import { dataMovementInWindow } from '../timeline/flows-and-copies';
import type { TimeWindow } from '../timeline/timeline-index';
import { CopyClass, dmvDeviceName, HOST, UNKNOWN_DEVICE, type DmvIndex } from './dmv-index';

/** One cell of the communication matrix: the copies from `src` to `dst`. */
export interface MatrixCell {
  /** Device ids: HOST (-1), a GPU (≥ 0) or UNKNOWN_DEVICE (-2). */
  src: number;
  dst: number;
  /** Explicit copies (in a window: those overlapping it). */
  count: number;
  /** Their bytes (in a window: each copy's share of its time inside the window). */
  bytes: number;
  /** Σ of their durations, ns. */
  durationNs: number;
  /** bytes / Σ duration in bytes per second; null without recorded time. */
  bandwidth: number | null;
  /** Copies among `count` whose size the trace does not give. */
  withoutBytes: number;
  /** Unified-memory migrations along the same path (not counted in count/bytes). */
  migrations: number;
  migrationBytes: number;
  /** Path type between the two devices from `nvidia-smi topo -m` (`NV2`, `SYS`…); null when unknown. */
  linkType: string | null;
}

/** Host and GPUs × host and GPUs, bytes copied from row to column (thesis §7.4, communication view). */
export interface CommunicationMatrix {
  /** Row and column devices: the host, every GPU, and `unknown` when some copies lack a device. */
  devices: number[];
  /** `host`, `GPU 0`, …, `unknown`. */
  names: string[];
  /** Row-major: cell (i, j) is `cells[i * devices.length + j]`. */
  cells: MatrixCell[];
  /** The largest cell's bytes (the top of the white → red scale). */
  maxBytes: number;
  /** Copies that could not be placed fully: no device (direction or GPU missing) or no size. */
  unknown: { withoutDevices: number; withoutBytes: number; bytes: number };
  /** Link types were asked for and could not be read (the caller passes the reason). */
  warnings: string[];
}

export interface MatrixOptions {
  /** Only copies overlapping this window (bytes pro rata of their time inside it). */
  window?: TimeWindow;
  /** `nvidia-smi topo -m` of the node, for link types; null or absent: no link types. */
  topology?: NvidiaSmiTopology | null;
  /** Why the topology could not be read (an unparsable file): the matrix carries it as a warning. */
  topologyError?: string;
}

/**
 * The communication matrix from the copies themselves (`srcDevice` → `dstDevice`; direction from the
 * copy kind), not hard-coded as in the DMVis prototype. Memsets are not transfers and stay out.
 * O(copies) for the whole trace, O(log n + copies in the window) for a window.
 */
export function communicationMatrix(index: DmvIndex, options: MatrixOptions = {}): CommunicationMatrix {
  const { rows, weight } = copiesIn(index, options.window);
  const dm = index.trace.dataMovement;
  let hasUnknown = false;
  for (const i of rows)
    if (
      index.copyClass[i] !== CopyClass.Memset &&
      (index.copySrc[i] === UNKNOWN_DEVICE || index.copyDst[i] === UNKNOWN_DEVICE)
    )
      hasUnknown = true;
  const devices = [HOST, ...index.devices, ...(hasUnknown ? [UNKNOWN_DEVICE] : [])];
  const at = new Map(devices.map((d, i) => [d, i]));
  const n = devices.length;
  const topo = options.topology ?? null;
  const cells: MatrixCell[] = [];
  for (const s of devices)
    for (const d of devices)
      cells.push({
        src: s,
        dst: d,
        count: 0,
        bytes: 0,
        durationNs: 0,
        bandwidth: null,
        withoutBytes: 0,
        migrations: 0,
        migrationBytes: 0,
        linkType: topo && s >= 0 && d >= 0 ? gpuLinkType(topo, s, d) : null,
      });
  const unknown = { withoutDevices: 0, withoutBytes: 0, bytes: 0 };
  rows.forEach((i, k) => {
    const cls = index.copyClass[i]!;
    if (cls === CopyClass.Memset) return;
    const cell = cells[at.get(index.copySrc[i]!)! * n + at.get(index.copyDst[i]!)!]!;
    const bytes = dm.bytes[i]! > 0 ? dm.bytes[i]! * weight[k]! : 0;
    if (cls === CopyClass.Migration) {
      cell.migrations++;
      cell.migrationBytes += bytes;
      return;
    }
    cell.count++;
    cell.bytes += bytes;
    cell.durationNs += dm.duration[i]!;
    const lost = index.copySrc[i] === UNKNOWN_DEVICE || index.copyDst[i] === UNKNOWN_DEVICE;
    if (lost) {
      unknown.withoutDevices++;
      unknown.bytes += bytes;
    }
    if (index.copyWithoutBytes[i]) {
      cell.withoutBytes++;
      unknown.withoutBytes++;
    }
  });
  let maxBytes = 0;
  for (const c of cells) {
    if (c.durationNs > 0 && c.bytes > 0) c.bandwidth = (c.bytes / c.durationNs) * 1e9;
    if (c.bytes > maxBytes) maxBytes = c.bytes;
  }
  return {
    devices,
    names: devices.map(dmvDeviceName),
    cells,
    maxBytes,
    unknown,
    warnings: options.topologyError ? [`link types are not shown: ${options.topologyError}`] : [],
  };
}

/** Rows of the explicit copies of one cell (in a window: those overlapping it), by start. */
export function matrixCellCopies(index: DmvIndex, src: number, dst: number, window?: TimeWindow): Int32Array {
  const { rows } = copiesIn(index, window);
  return Int32Array.from(
    rows.filter(i => index.copyClass[i] === CopyClass.Copy && index.copySrc[i] === src && index.copyDst[i] === dst),
  );
}

/** The lines (or launching functions) that issued a cell's copies, most bytes first: what a cell click lists. */
export function matrixCellSites(index: DmvIndex, src: number, dst: number, window?: TimeWindow): DataMovementSite[] {
  return dataMovementSites(
    subsetOf(index.trace.dataMovement, matrixCellCopies(index, src, dst, window)),
    index.profile.tree,
  ).sites;
}

/** The rows of a data-movement table as a table of their own (for per-subset statistics). */
export function subsetOf(dm: DataMovementColumns, rows: ArrayLike<number>): DataMovementColumns {
  const pick = <T extends Uint8Array | Int32Array | Float64Array>(col: T): T => {
    const out = new (col.constructor as { new (n: number): T })(rows.length);
    for (let k = 0; k < rows.length; k++) out[k] = col[rows[k]!]!;
    return out;
  };
  const out: DataMovementColumns = {
    kind: pick(dm.kind),
    bytes: pick(dm.bytes),
    srcDevice: pick(dm.srcDevice),
    dstDevice: pick(dm.dstDevice),
    start: pick(dm.start),
    duration: pick(dm.duration),
    track: pick(dm.track),
    event: pick(dm.event),
    node: pick(dm.node),
    sourceNode: pick(dm.sourceNode),
  };
  if (dm.srcKind) out.srcKind = pick(dm.srcKind);
  if (dm.dstKind) out.dstKind = pick(dm.dstKind);
  if (dm.migration) out.migration = pick(dm.migration);
  return out;
}

/** Data-movement rows overlapping a window (all rows without one) and the share of each counted there. */
function copiesIn(index: DmvIndex, window?: TimeWindow): { rows: number[]; weight: Float64Array } {
  const dm = index.trace.dataMovement;
  if (!window) {
    const rows = Array.from({ length: dm.kind.length }, (_, i) => i);
    return { rows, weight: new Float64Array(rows.length).fill(1) };
  }
  // The timeline's rule: each copy's bytes spread evenly over its time (an instantaneous one counts whole).
  const { rows, bytesInWindow } = dataMovementInWindow(index.timeline, window);
  const weight = Float64Array.from(rows, (i, k) => (dm.bytes[i]! > 0 ? bytesInWindow[k]! / dm.bytes[i]! : 1));
  return { rows: Array.from(rows), weight };
}
