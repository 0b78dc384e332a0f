import { DATA_MOVEMENT_KIND_NAMES, MEMORY_KIND_NAMES, type TrackKind } from '../model/trace';
import { dataMovementSites, DIRECTION_LABELS, type DataMovementSite } from '../stats/data-movement-sites';
import type { TimeWindow } from '../timeline/timeline-index';
import type { HostGpuTopology, NvidiaSmiTopology } from '../topology/host-gpu';
import { topologyViewData } from '../topology/topology-view-data';
import type { TopologyViewData } from '../../shared/topology-protocol';
import { applicationView, type ApplicationView } from './application-view';
import { CLASS_COUNT, classValues, DmvCategory, type ClassValues } from './categories';
import { dmvClock, summariseWindow, type BinSummary, type DmvClock } from './clock';
import type { ClockGrid } from './trace-ensemble';
import { CopyClass, dmvDeviceName, HOST, UNKNOWN_DEVICE, type DmvIndex } from './dmv-index';
import type { DmvFlag } from './flags';
import { expandGroup, MAX_VISIBLE_EVENTS, visibleEvents, type VisibleEvents } from './grouping';
import { hardwareView, type HardwareView } from './hardware';
import { communicationMatrix, matrixCellCopies, subsetOf, type CommunicationMatrix } from './matrix';
import {
  metricPeak,
  metricWindowSeries,
  orderByVariance,
  utilisationGlyph,
  type MetricTrack,
  type UtilisationGlyph,
} from './metrics';

/**
 * What DMV's panel is sent (thesis §7.4's views, level of detail): the trace's overview once, and
 * per time window every view that follows the window, computed together so one clock click or play
 * step updates them in one answer. Pure functions over a {@link DmvIndex} and the metric tracks; the
 * data-movement system (src/service/systems) calls them in the dataset's worker. Times in ns from the
 * trace origin, bytes in bytes.
 */

/** A metric track as listed (the series come per window). */
export interface DmvMetricInfo {
  id: string;
  name: string;
  unit: string;
  source: MetricTrack['source'];
  device: number | null;
  /** Largest value over the whole run (null for an empty track). */
  peak: number | null;
}

export interface DmvTrackInfo {
  track: number;
  name: string;
  process: string;
  kind: TrackKind;
  /** GPU device of a stream, else -1. */
  device: number;
}

/** The whole run: what the panel opens with. */
export interface DmvOverview {
  path: string;
  format: string;
  range: TimeWindow;
  /** Absolute time of t = 0 (decimal ns; "0" when the trace's clock is relative). */
  originNs: string;
  /** Busy time per class over the whole run (ns, summed over tracks). */
  busy: ClassValues;
  counts: {
    events: number;
    /** Explicit copies, memsets, unified-memory migrations and page faults. */
    copies: number;
    memsets: number;
    migrations: number;
    faults: number;
    /** Copies whose size or devices the trace does not give (the matrix's "unknown"). */
    withoutBytes: number;
    withoutDevices: number;
  };
  clock: DmvClock;
  /** Rows and columns of the matrix, hardware nodes: the host then each GPU. */
  devices: { id: number; name: string }[];
  tracks: DmvTrackInfo[];
  metrics: DmvMetricInfo[];
  flags: DmvFlag[];
}

export function dmvOverview(index: DmvIndex, metrics: readonly MetricTrack[], flags: DmvFlag[]): DmvOverview {
  const busy = new Float64Array(CLASS_COUNT);
  index.classUnions.forEach((u, c) => (busy[c] = u.total));
  const dm = index.trace.dataMovement;
  let copies = 0,
    memsets = 0,
    migrations = 0,
    withoutBytes = 0,
    withoutDevices = 0;
  for (let i = 0; i < dm.kind.length; i++) {
    const cls = index.copyClass[i]!;
    if (cls === CopyClass.Memset) memsets++;
    else if (cls === CopyClass.Migration) migrations++;
    else {
      copies++;
      if (index.copyWithoutBytes[i]) withoutBytes++;
      if (index.copySrc[i] === UNKNOWN_DEVICE || index.copyDst[i] === UNKNOWN_DEVICE) withoutDevices++;
    }
  }
  let faults = 0;
  const pf = index.trace.pageFaults;
  if (pf) for (let i = 0; i < pf.count.length; i++) faults += pf.count[i]!;
  return {
    path: index.profile.path,
    format: index.profile.format,
    range: { ...index.range },
    originNs: index.trace.originNs,
    busy: classValues(busy),
    counts: {
      events: index.trace.events.kind.length,
      copies,
      memsets,
      migrations,
      faults,
      withoutBytes,
      withoutDevices,
    },
    clock: dmvClock(index, index.range),
    devices: [HOST, ...index.devices].map(id => ({ id, name: dmvDeviceName(id) })),
    tracks: index.trace.tracks.map((t, track) => ({
      track,
      name: t.name,
      process: t.process,
      kind: t.kind,
      device: t.kind === 'gpu-stream' ? t.gpuDevice : -1,
    })),
    metrics: metrics.map(m => {
      const peak = metricPeak(m);
      return { id: m.id, name: m.name, unit: m.unit, source: m.source, device: m.device, peak: peak?.value ?? null };
    }),
    flags,
  };
}

/** The files added to a trace and what became of them. */
export interface DmvFiles {
  /** `nvidia-smi topo -m`: link types, or the warning saying why there are none. */
  topology: { path: string; linkTypes: boolean; warning: string | null } | null;
  /** `nvidia-smi --format=csv`: the metric tracks it gave and the warnings (alignment, skipped rows). */
  nvidiaSmi: { path: string; tracks: number; warnings: string[] } | null;
}

export interface DmvOverviewResult extends DmvOverview {
  files: DmvFiles;
  /** Category rules that could not be used (the others apply), file warnings. */
  warnings: string[];
}

/** The trace ensemble's grid of clocks. */
export interface DmvEnsembleResult extends ClockGrid {
  /** The folder or files the ensemble was opened from. */
  path: string;
}

/** A metric row of the window: ordered by its variance there (thesis §7.4), drawn from its series. */
export interface DmvMetricRow extends Omit<DmvMetricInfo, 'peak'> {
  variance: number;
  /** Samples in the window, or per bucket the min and max (metricWindowSeries). */
  series: { time: Float64Array; min: Float64Array; max: Float64Array };
}

/** One item of the event view: an event, or a group of events (above {@link MAX_VISIBLE_EVENTS}). */
export type DmvEventItem =
  | {
      type: 'event';
      row: number;
      name: string;
      category: DmvCategory;
      track: number;
      start: number;
      end: number;
      /** Bytes of a copy or memset (0 for other events). */
      bytes: number;
    }
  | {
      type: 'group';
      /** The group's key (expand it by sending it back). */
      key: number;
      kind: 'context' | 'span';
      label: string;
      start: number;
      end: number;
      tracks: number[];
      /** Members per class. */
      classes: number[];
      /** Events in the group. */
      count: number;
      /** The class with the most members (the group's colour). */
      category: DmvCategory;
    };

export interface DmvEvents {
  /** Events overlapping the window. */
  total: number;
  grouped: boolean;
  /** Items shown (events and groups), by start; at most `maxItems`. */
  items: DmvEventItem[];
  /** Items left out because expanded groups exceeded the budget. */
  truncated: number;
  /** Tracks with an item, ascending (the event view's lanes). */
  tracks: number[];
}

export interface DmvWindowOptions {
  /** The window; null for the whole run. */
  window: TimeWindow | null;
  /** Keys of groups the user expanded (double click) in this window. */
  expanded?: readonly number[];
  /** Points per metric row (about the row's width in pixels). */
  metricPoints?: number;
  /** The utilisation glyph's two metrics by id; null: CPU and the busiest GPU's utilisation when both exist. */
  glyph?: { left: string; right: string } | null;
  /**
   * Device boxes the hardware drawing holds (the topology component reports it for its size): more
   * GPUs than that are folded into aggregates (`4 GPUs` of a NUMA node). Default: every device.
   */
  hardwareNodes?: number;
  /** Grouping threshold (default 1,000, DMVis'). */
  maxVisible?: number;
  /** Topology of the node for link types (and the base hardware topology built from it). */
  topology?: NvidiaSmiTopology | null;
  topologyError?: string;
  hardwareBase?: HostGpuTopology;
}

/** Everything that follows the window (the clock's arc, a sector click, a play step). */
export interface DmvWindowData {
  window: TimeWindow;
  summary: BinSummary;
  matrix: CommunicationMatrix;
  hardware: HardwareView;
  /**
   * The hardware view's drawing: the host–GPU topology for the shared topology component (the
   * `graph` layout), GPUs and host coloured by utilisation in the window on DMV's white → red scale
   * (0–100 %), links as wide as the bytes the window moved over them.
   */
  hardwareDrawing: TopologyViewData;
  metrics: DmvMetricRow[];
  glyph: UtilisationGlyph | null;
  application: ApplicationView;
  events: DmvEvents;
}

/** Items at most, even after expanding groups (a span group of 10⁵ events expands to this many). */
const MAX_ITEMS = 5000;

export function dmvWindowData(
  index: DmvIndex,
  metrics: readonly MetricTrack[],
  options: DmvWindowOptions,
): DmvWindowData {
  const window = options.window ?? { ...index.range };
  const matrix = communicationMatrix(index, {
    window,
    topology: options.topology ?? null,
    ...(options.topologyError ? { topologyError: options.topologyError } : {}),
  });
  const points = Math.max(16, Math.min(4000, Math.round(options.metricPoints ?? 400)));
  const rows: DmvMetricRow[] = orderByVariance(metrics, window).map(({ track, variance }) => {
    const m = metrics[track]!;
    return {
      id: m.id,
      name: m.name,
      unit: m.unit,
      source: m.source,
      device: m.device,
      variance,
      series: metricWindowSeries(m, window, points),
    };
  });
  const hardware = hardwareView(index, window, options.topology ?? null, options.hardwareBase);
  return {
    window,
    summary: summariseWindow(index, window),
    matrix,
    hardware,
    hardwareDrawing: hardwareDrawing(hardware, options.hardwareNodes),
    metrics: rows,
    glyph: glyphOf(metrics, window, options.glyph ?? null, Math.min(200, points)),
    application: applicationView(index, window),
    events: eventItems(index, window, options.expanded ?? [], options.maxVisible ?? MAX_VISIBLE_EVENTS),
  };
}

/** The hardware view as the shared topology component draws it (see DmvWindowData.hardwareDrawing). */
export function hardwareDrawing(hw: HardwareView, maxNodes?: number): TopologyViewData {
  const gpuName = new Map(hw.gpus.map(g => [g.node, g.name ?? undefined]));
  return topologyViewData(hw.topology, {
    layout: 'graph',
    nodeMeasures: [hw.utilisation],
    linkMeasures: [hw.traffic],
    colour: { domain: [0, 100], scheme: 'Reds', normalise: 'all' },
    detail: node => gpuName.get(node),
    ...(maxNodes !== undefined && maxNodes > 0 ? { maxNodes } : {}),
  });
}

/** The glyph's two tracks: those asked for, else CPU utilisation and the busiest GPU's. */
function glyphOf(
  metrics: readonly MetricTrack[],
  window: TimeWindow,
  pick: { left: string; right: string } | null,
  bins: number,
): UtilisationGlyph | null {
  const byId = (id: string) => metrics.find(m => m.id === id);
  let left = pick ? byId(pick.left) : byId('utilisation:CPU');
  let right = pick ? byId(pick.right) : undefined;
  if (!pick) {
    const gpus = metrics.filter(m => m.source === 'utilisation' && m.device !== null && m.device >= 0);
    right = gpus.sort((a, b) => (metricPeak(b)?.value ?? 0) - (metricPeak(a)?.value ?? 0))[0];
    if (!left) [left, right] = [right, metrics.find(m => m !== right)];
  }
  if (!left || !right || !(window.end > window.start)) return null;
  return utilisationGlyph(left, right, window, bins);
}

/** The window's events as the view draws them: grouped above the threshold, expanded groups opened. */
export function eventItems(
  index: DmvIndex,
  window: TimeWindow,
  expanded: readonly number[],
  maxVisible = MAX_VISIBLE_EVENTS,
): DmvEvents {
  let visible: VisibleEvents = visibleEvents(index, window, { maxVisible });
  for (const key of expanded) visible = expandGroup(index, visible, key);
  const ev = index.trace.events;
  const bytesOfRow = copyBytesByEvent(index);
  const items: DmvEventItem[] = [];
  const tracks = new Set<number>();
  for (const it of visible.items.slice(0, MAX_ITEMS)) {
    if (it.type === 'event') {
      const r = it.row;
      tracks.add(ev.track[r]!);
      items.push({
        type: 'event',
        row: r,
        name: index.strings.get(ev.name[r]!),
        category: index.category[r] as DmvCategory,
        track: ev.track[r]!,
        start: ev.start[r]!,
        end: ev.start[r]! + ev.duration[r]!,
        bytes: Math.max(0, bytesOfRow.get(r) ?? 0),
      });
    } else {
      const g = it.group;
      for (const t of g.tracks) tracks.add(t);
      let category: DmvCategory = DmvCategory.Other;
      g.classes.forEach((n, c) => {
        if (n > 0 && (category === DmvCategory.Other || n > g.classes[category]!)) category = c as DmvCategory;
      });
      items.push({
        type: 'group',
        key: g.key,
        kind: g.kind,
        label: g.label,
        start: g.start,
        end: g.end,
        tracks: g.tracks,
        classes: g.classes,
        count: g.rows.length,
        category,
      });
    }
  }
  return {
    total: visible.total,
    grouped: visible.grouped,
    items,
    truncated: Math.max(0, visible.items.length - MAX_ITEMS),
    tracks: [...tracks].sort((a, b) => a - b),
  };
}

const copyBytes = new WeakMap<DmvIndex, Map<number, number>>();

/** Bytes of the copy or memset each event row stands for (built once per index). */
function copyBytesByEvent(index: DmvIndex): Map<number, number> {
  let m = copyBytes.get(index);
  if (!m) {
    const dm = index.trace.dataMovement;
    m = new Map();
    for (let i = 0; i < dm.kind.length; i++) if (dm.event[i]! >= 0) m.set(dm.event[i]!, dm.bytes[i]!);
    copyBytes.set(index, m);
  }
  return m;
}

/** One copy of a matrix cell, with where it was issued. */
export interface DmvCopyRow {
  /** Data-movement row. */
  row: number;
  /** Its event row (for the timeline), or -1. */
  event: number;
  start: number;
  duration: number;
  bytes: number;
  /** `H→D`, `D→H`, … */
  direction: string;
  /** `Pageable → Device` when the trace records memory kinds, else null. */
  memory: string | null;
  /** The issuing line (nearest frame with one), or null. */
  file: string | null;
  line: number | null;
  /** The function at that line, or the call that issued the copy. */
  name: string;
}

/** A matrix cell clicked: its copies (by start) and the lines that issued them (most bytes first). */
export interface DmvCellCopies {
  src: number;
  dst: number;
  /** `host → GPU 0`. */
  label: string;
  window: TimeWindow | null;
  count: number;
  bytes: number;
  copies: DmvCopyRow[];
  /** Copies left out of `copies` (at most `maxCopies` are listed). */
  truncated: number;
  sites: DataMovementSite[];
}

export function dmvCellCopies(
  index: DmvIndex,
  src: number,
  dst: number,
  window: TimeWindow | null,
  maxCopies = 200,
): DmvCellCopies {
  const rows = matrixCellCopies(index, src, dst, window ?? undefined);
  const dm = index.trace.dataMovement;
  const tree = index.profile.tree;
  let bytes = 0;
  for (const i of rows) bytes += dm.bytes[i]! > 0 ? dm.bytes[i]! : 0;
  const copies: DmvCopyRow[] = Array.from(rows.subarray(0, maxCopies), i => {
    const s = dm.sourceNode[i]!;
    const n = dm.node[i]!;
    const memory =
      dm.srcKind && dm.dstKind && (dm.srcKind[i] || dm.dstKind[i])
        ? `${MEMORY_KIND_NAMES[dm.srcKind[i]!] ?? 'Unknown'} → ${MEMORY_KIND_NAMES[dm.dstKind[i]!] ?? 'Unknown'}`
        : null;
    return {
      row: i,
      event: dm.event[i]!,
      start: dm.start[i]!,
      duration: dm.duration[i]!,
      bytes: Math.max(0, dm.bytes[i]!),
      direction: DIRECTION_LABELS[dm.kind[i]!] ?? DATA_MOVEMENT_KIND_NAMES[dm.kind[i]!] ?? 'copy',
      memory,
      file: s >= 0 ? tree.file(s) : null,
      line: s >= 0 ? tree.line(s) : null,
      name: s >= 0 ? tree.name(s) : n >= 0 ? tree.name(n) : '(unattributed)',
    };
  });
  return {
    src,
    dst,
    label: `${dmvDeviceName(src)} → ${dmvDeviceName(dst)}`,
    window,
    count: rows.length,
    bytes,
    copies,
    truncated: Math.max(0, rows.length - maxCopies),
    sites: dataMovementSites(subsetOf(dm, rows), tree).sites,
  };
}
