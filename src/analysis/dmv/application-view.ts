import { TraceEventKind } from '../model/trace';
import { topIndices } from '../stats/top-k';
import { dataMovementInWindow } from '../timeline/flows-and-copies';
import { eventsInWindow } from '../timeline/tiles';
import type { TimeWindow } from '../timeline/timeline-index';
import { CLASS_COUNT, classValues, DmvCategory, type ClassValues } from './categories';
import type { DmvIndex } from './dmv-index';

const SLICE = TraceEventKind.Slice;

/**
 * DMV's application view (thesis §7.4, view E): the calling-context tree coloured by class, the nodes
 * active in the window highlighted, and beside it bars of runtime and data movement per timeline
 * (track) and per event. Level of detail: only the window's events are visited, and at most
 * `maxNodes` nodes (the busiest in the window, with their ancestors) and `maxEvents` events are
 * returned, never the whole trace.
 */
export interface AppNode {
  /** Call-tree node. */
  node: number;
  /** Index of the parent in `nodes`, or -1. */
  parent: number;
  name: string;
  file: string | null;
  line: number | null;
  /**
   * The node's colour: the class of most of its own events' time or, for a frame without classified
   * events, of its subtree's (among the returned nodes).
   */
  category: DmvCategory;
  /** Σ of the node's own events' time inside the window (ns). */
  time: number;
  /** Per class, Σ of the events' time in the window over the returned subtree (ns). */
  byClass: ClassValues;
  /** The node has an event overlapping the window (it pulses). */
  active: boolean;
}

export interface AppTrackBar {
  track: number;
  name: string;
  process: string;
  /** Busy time per class in the window (ns). */
  busy: ClassValues;
  /** Bytes copied on the track in the window (explicit copies, migrations and memsets). */
  bytes: number;
}

export interface AppEventBar {
  row: number;
  name: string;
  category: DmvCategory;
  track: number;
  /** The event's time inside the window (ns). */
  time: number;
  /** Bytes of a copy inside the window (0 for other events). */
  bytes: number;
}

export interface ApplicationView {
  /** Parents before children. */
  nodes: AppNode[];
  /** Nodes with an event in the window (before the level-of-detail cut). */
  activeNodes: number;
  /** Tracks with anything in the window, in track order. */
  tracks: AppTrackBar[];
  /** The window's longest events (copies by bytes first, then time). */
  events: AppEventBar[];
}

export interface ApplicationViewOptions {
  maxNodes?: number;
  maxEvents?: number;
}

export function applicationView(
  index: DmvIndex,
  window: TimeWindow,
  options: ApplicationViewOptions = {},
): ApplicationView {
  const maxNodes = options.maxNodes ?? 300,
    maxEvents = options.maxEvents ?? 50;
  const tree = index.profile.tree;
  const ev = index.trace.events;
  const { start: t0, end: t1 } = window;
  const clipped = (r: number) => Math.max(0, Math.min(ev.start[r]! + ev.duration[r]!, t1) - Math.max(ev.start[r]!, t0));

  // Copies in the window: bytes per event row and per track.
  const copies = dataMovementInWindow(index.timeline, window);
  const dm = index.trace.dataMovement;
  const bytesOfRow = new Map<number, number>();
  const trackBytes = new Float64Array(index.trace.tracks.length);
  copies.rows.forEach((i, k) => {
    const b = copies.bytesInWindow[k]!;
    trackBytes[dm.track[i]!]! += b;
    if (dm.event[i]! >= 0) bytesOfRow.set(dm.event[i]!, b);
  });

  // Node times from the window's slices; event bars are picked after, from typed columns (no object per event).
  const own = new Map<number, Float64Array>();
  const sliceRows: number[] = [];
  for (let t = 0; t < index.trace.tracks.length; t++)
    for (const r of eventsInWindow(index.timeline, t, window)) {
      if (ev.kind[r] !== SLICE) continue;
      sliceRows.push(r);
      const node = ev.node[r]!;
      if (node < 0) continue;
      const time = clipped(r);
      const c = index.category[r]!;
      let v = own.get(node);
      if (!v) own.set(node, (v = new Float64Array(CLASS_COUNT + 1)));
      v[CLASS_COUNT]! += time;
      if (c < CLASS_COUNT) v[c]! += time;
    }
  const times = Float64Array.from(sliceRows, clipped);
  const bytes = Float64Array.from(sliceRows, r => bytesOfRow.get(r) ?? 0);
  // Copies by bytes first, then the rest by time (ties: earlier rows).
  const byBytes = topIndices(bytes, maxEvents, k => bytes[k]! > 0);
  const taken = new Set(byBytes);
  const byTime = topIndices(times, maxEvents - byBytes.length, k => !taken.has(k));
  const bars: AppEventBar[] = [...byBytes, ...byTime].map(k => {
    const r = sliceRows[k]!;
    return {
      row: r,
      name: index.strings.get(ev.name[r]!),
      category: index.category[r] as DmvCategory,
      track: ev.track[r]!,
      time: times[k]!,
      bytes: bytes[k]!,
    };
  });

  // The busiest nodes and their ancestors.
  const chosen = [...own.entries()]
    .sort((a, b) => b[1][CLASS_COUNT]! - a[1][CLASS_COUNT]! || a[0] - b[0])
    .slice(0, maxNodes);
  const keep = new Set<number>();
  for (const [node] of chosen) for (let n = node; n >= 0 && !keep.has(n); n = tree.parent(n)) keep.add(n);
  const ordered = [...keep].sort((a, b) => a - b); // parents precede children in the tree
  const at = new Map(ordered.map((n, i) => [n, i]));
  const incl = ordered.map(() => new Float64Array(CLASS_COUNT));
  for (const node of ordered) {
    const v = own.get(node);
    if (v)
      for (let n = node; n >= 0; n = tree.parent(n))
        for (let c = 0; c < CLASS_COUNT; c++) incl[at.get(n)!]![c]! += v[c]!;
  }
  const dominant = (v: Float64Array): DmvCategory => {
    let best = DmvCategory.Other as DmvCategory;
    for (let c = 0; c < CLASS_COUNT; c++)
      if (v[c]! > 0 && (best === DmvCategory.Other || v[c]! > v[best]!)) best = c as DmvCategory;
    return best;
  };
  const nodes: AppNode[] = ordered.map((n, i) => {
    const v = incl[i]!;
    // A node's own events give its colour; a frame without classified events takes its subtree's.
    const mine = own.get(n);
    const category = mine && dominant(mine) !== DmvCategory.Other ? dominant(mine) : dominant(v);
    const p = tree.parent(n);
    return {
      node: n,
      parent: p >= 0 ? at.get(p)! : -1,
      name: tree.name(n),
      file: tree.file(n),
      line: tree.line(n),
      category,
      time: own.get(n)?.[CLASS_COUNT] ?? 0,
      byClass: classValues(v),
      active: own.has(n),
    };
  });

  const tracks: AppTrackBar[] = [];
  index.trace.tracks.forEach((track, t) => {
    const busy = index.classUnions.map(u => u.coveredOnLane(t, t0, t1));
    if (busy.every(b => b === 0) && trackBytes[t] === 0) return;
    tracks.push({ track: t, name: track.name, process: track.process, busy: classValues(busy), bytes: trackBytes[t]! });
  });

  return { nodes, activeNodes: own.size, tracks, events: bars };
}
