import { DATA_MOVEMENT_KIND_NAMES, TraceEventKind } from '../model/trace';
import { sampleHoldLookup } from './tiles';
import type { TimelineIndex, TimeWindow } from './timeline-index';

/**
 * The event under the pointer: on lane t at `time`, the slice at `depth` when given, else the
 * innermost slice; on lanes without a slice there, the sample whose hold covers `time`. -1 when
 * nothing is there. O(depth × log n).
 */
export function eventAt(index: TimelineIndex, t: number, time: number, depth?: number): number {
  if (!(t >= 0 && t < index.trackCount)) return -1;
  if (depth !== undefined) return index.sliceAt(t, depth, time);
  let found = -1;
  for (let d = 0; d < index.trackDepths(t); d++) {
    const r = index.sliceAt(t, d, time);
    if (r < 0) break;
    found = r;
  }
  if (found >= 0) return found;
  const [lo, hi] = index.samplesIn(t, time, time);
  const start = index.trace.events.start;
  for (let p = lo; p < Math.min(hi + 1, index.sampleStart[t + 1]!); p++) {
    const s = start[index.sampleRows[p]!]!;
    if (s <= time && time < s + index.sampleHold[p]!) return index.sampleRows[p]!;
  }
  return -1;
}

export interface EventDetails {
  row: number;
  kind: 'slice' | 'instant' | 'sample';
  name: string;
  category: string;
  /** ns from the trace origin; for a sample, `duration` is its hold. */
  start: number;
  duration: number;
  depth: number;
  track: number;
  trackName: string;
  process: string;
  node: number;
  /** Names from the root of the call tree down to the event's node (the issuing path for GPU work). */
  callPath: string[];
  /** Nearest node on the path (the node or an ancestor) with a source file, or null. */
  source: { node: number; file: string; line: number | null } | null;
  /** For copies and memsets: the data-movement record. */
  copy: {
    direction: string;
    bytes: number;
    bytesPerSecond: number | null;
    srcDevice: number;
    dstDevice: number;
  } | null;
}

const copyRowOfEvent = new WeakMap<TimelineIndex, Map<number, number>>();

/** Everything the model knows about an event row, for hovers and click-to-source. */
export function eventDetails(index: TimelineIndex, row: number): EventDetails {
  const ev = index.trace.events;
  if (!(row >= 0 && row < ev.track.length))
    throw new RangeError(`no event row ${row} (the trace has ${ev.track.length})`);
  const strings = index.profile.data.strings;
  const tree = index.profile.tree;
  const node = ev.node[row]!;
  const t = ev.track[row]!;
  const track = index.trace.tracks[t]!;
  const kind =
    ev.kind[row] === TraceEventKind.Slice ? 'slice' : ev.kind[row] === TraceEventKind.Instant ? 'instant' : 'sample';
  let source: EventDetails['source'] = null;
  for (let n = node; n >= 0 && !source; n = tree.parent(n)) {
    const file = tree.file(n);
    if (file) source = { node: n, file, line: tree.line(n) };
  }
  let byEvent = copyRowOfEvent.get(index);
  if (!byEvent) {
    byEvent = new Map();
    const e = index.trace.dataMovement.event;
    for (let i = 0; i < e.length; i++) if (e[i]! >= 0) byEvent.set(e[i]!, i);
    copyRowOfEvent.set(index, byEvent);
  }
  const dmRow = byEvent.get(row);
  const dm = index.trace.dataMovement;
  const copy =
    dmRow === undefined
      ? null
      : {
          direction: DATA_MOVEMENT_KIND_NAMES[dm.kind[dmRow]!] ?? 'other',
          bytes: dm.bytes[dmRow]!,
          bytesPerSecond: dm.duration[dmRow]! > 0 ? dm.bytes[dmRow]! / (dm.duration[dmRow]! * 1e-9) : null,
          srcDevice: dm.srcDevice[dmRow]!,
          dstDevice: dm.dstDevice[dmRow]!,
        };
  return {
    row,
    kind,
    name: strings[ev.name[row]!] ?? '',
    category: strings[ev.category[row]!] ?? '',
    start: ev.start[row]!,
    duration: kind === 'sample' ? sampleHoldLookup(index)(row) : ev.duration[row]!,
    depth: ev.depth[row]!,
    track: t,
    trackName: track.name,
    process: track.process,
    node,
    callPath: node >= 0 ? tree.path(node) : [],
    source,
    copy,
  };
}

/**
 * Slices (and kept samples) whose node is `node` or one of its descendants, per listed lane,
 * overlapping the window: what to highlight when a Sankey node or an editor line is selected.
 * O(nodes) for the subtree, then O(depth × log n + events in window) per lane.
 */
export function eventsOfNode(
  index: TimelineIndex,
  node: number,
  window: TimeWindow,
  tracks: readonly number[],
): Int32Array[] {
  const size = index.profile.tree.size;
  if (!(node >= 0 && node < size)) throw new RangeError(`no call-tree node ${node} (the tree has ${size})`);
  const inSubtree = new Uint8Array(size);
  inSubtree[node] = 1;
  const parent = index.nodeParent;
  for (let i = node + 1; i < size; i++) if (parent[i]! >= 0 && inSubtree[parent[i]!]) inSubtree[i] = 1;
  const ev = index.trace.events;
  return tracks.map(t => {
    const out: number[] = [];
    for (let d = 0; d < index.trackDepths(t); d++) {
      const [lo, hi] = index.slicesIn(t, d, window.start, window.end);
      for (let p = lo; p < hi; p++) {
        const r = index.rows[p]!;
        if (ev.node[r]! >= 0 && inSubtree[ev.node[r]!]) out.push(r);
      }
    }
    const [slo, shi] = index.samplesIn(t, window.start, window.end);
    for (let p = slo; p < shi; p++) {
      const r = index.sampleRows[p]!;
      if (ev.node[r]! >= 0 && inSubtree[ev.node[r]!]) out.push(r);
    }
    return Int32Array.from(out.sort((a, b) => a - b));
  });
}

/** Where to zoom for a double-click: the event's extent with `margin` × its duration either side (at least 1 µs wide). */
export function zoomToEvent(index: TimelineIndex, row: number, margin = 0.1): TimeWindow {
  const d = eventDetails(index, row);
  return windowAroundEvent(d.start, d.duration, margin);
}

/** An event's extent [start, start + duration) with `margin` × its duration either side, at least 1 µs wide (the view uses it too). */
export function windowAroundEvent(start: number, duration: number, margin = 0.1): TimeWindow {
  const width = Math.max(duration, 1000);
  return { start: start - width * margin, end: start + width * (1 + margin) };
}
