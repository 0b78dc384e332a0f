import { TraceEventKind } from '../model/trace';
import { eventsInWindow } from '../timeline/tiles';
import type { TimeWindow } from '../timeline/timeline-index';
import { CLASS_COUNT, DmvCategory } from './categories';
import type { DmvIndex } from './dmv-index';

const SAMPLE = TraceEventKind.Sample,
  CPU = DmvCategory.CpuCompute;

/**
 * Event grouping for DMV's event timeline (thesis §7.4: "above 1000 events, events are clustered by
 * correlation ID; double-click expands a cluster"). A group is a correlation context: a CPU call
 * with the calls nested in it and the GPU work they launched (GPU activities join the CPU call with
 * their correlation id, through the trace's launch flows). When the window shows more than
 * `maxVisible` events, they are grouped by their enclosing call at the deepest nesting level that
 * still leaves at most `maxVisible` items, so groups are as fine as the budget allows.
 */
export interface EventGroup {
  /** The event row of the call the group stands for (its context). */
  key: number;
  /**
   * `context`: one call and what it launched (key = its row). `span`: adjacent outermost contexts of one
   * track in one time slice of the window, when even those are too many to show (key < 0).
   */
  kind: 'context' | 'span';
  /** Its name: `aten::conv2d`, `model.py(123): get_output_embeddings`; `412 events` for a span. */
  label: string;
  /** Member rows (the window's events in the group, the context itself included when visible), by start. */
  rows: Int32Array;
  /** Earliest start and latest end of the members, ns from the origin. */
  start: number;
  end: number;
  /** Tracks the members lie on, ascending. */
  tracks: number[];
  /** Members per class (data movement, GPU compute, runtime, CPU compute). */
  classes: number[];
}

export type VisibleItem = { type: 'event'; row: number } | { type: 'group'; group: EventGroup };

export interface VisibleEvents {
  /** Events overlapping the window (slices and instants). */
  total: number;
  grouped: boolean;
  /** Nesting depth of the calls the groups stand for (-1 when not grouped, 0 for span groups too). */
  depth: number;
  /** Events and groups, by start. */
  items: VisibleItem[];
}

/** DMVis' clustering threshold (thesis §7.4). */
export const MAX_VISIBLE_EVENTS = 1000;

export interface VisibleEventsOptions {
  maxVisible?: number;
  /** Tracks to show (default: all). */
  tracks?: readonly number[];
}

/** The events of a window, grouped by correlation context when there are more than `maxVisible`. */
export function visibleEvents(index: DmvIndex, window: TimeWindow, options: VisibleEventsOptions = {}): VisibleEvents {
  const max = options.maxVisible ?? MAX_VISIBLE_EVENTS;
  const ev = index.trace.events;
  const rows: number[] = [];
  const tracks = options.tracks ?? index.trace.tracks.map((_, t) => t);
  for (const t of tracks)
    for (const r of eventsInWindow(index.timeline, t, window)) if (ev.kind[r] !== SAMPLE) rows.push(r);
  const byStart = (a: number, b: number) => ev.start[a]! - ev.start[b]! || a - b;
  if (rows.length <= max)
    return {
      total: rows.length,
      grouped: false,
      depth: -1,
      items: rows.sort(byStart).map(row => ({ type: 'event', row })),
    };

  // The call each event is charged to: GPU work to the CPU call that launched it.
  const context = Int32Array.from(rows, r => (index.launcherRow[r]! >= 0 ? index.launcherRow[r]! : r));
  let maxDepth = 0;
  for (const c of context) maxDepth = Math.max(maxDepth, ev.depth[c]!);
  const keyAt = (c: number, d: number): number => {
    let k = c;
    for (let depth = ev.depth[k]!; depth > d && index.parentRow[k]! >= 0; depth--) k = index.parentRow[k]!;
    return k;
  };
  const stamp = new Int32Array(ev.kind.length);
  let epoch = 0;
  const countAt = (d: number): number => {
    epoch++;
    let n = 0;
    for (const c of context) {
      const k = keyAt(c, d);
      if (stamp[k] !== epoch) {
        stamp[k] = epoch;
        n++;
      }
    }
    return n;
  };
  // Deeper levels refine shallower ones, so the item count grows with the depth: binary search.
  let lo = 0,
    hi = maxDepth;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (countAt(mid) <= max) lo = mid;
    else hi = mid - 1;
  }
  const depth = lo;
  // Even the outermost contexts are too many: merge those of one track that start in one of
  // `slices` equal slices of the window (level of detail; each span holds whole contexts).
  let spans = 0;
  if (depth === 0 && countAt(0) > max) {
    const active = new Set<number>();
    for (const c of context) active.add(ev.track[keyAt(c, 0)]!);
    spans = Math.max(1, Math.floor(max / active.size));
  }
  const width = (window.end - window.start) / Math.max(1, spans);
  const spanOf = (k: number) =>
    -1 - (ev.track[k]! * spans + Math.max(0, Math.min(spans - 1, Math.floor((ev.start[k]! - window.start) / width))));

  const members = new Map<number, number[]>();
  rows.forEach((r, i) => {
    let k = keyAt(context[i]!, depth);
    if (spans) k = spanOf(k);
    let l = members.get(k);
    if (!l) members.set(k, (l = []));
    l.push(r);
  });
  const items: VisibleItem[] = [];
  for (const [key, list] of members) {
    if (list.length === 1) {
      items.push({ type: 'event', row: list[0]! });
      continue;
    }
    let start = Infinity,
      end = -Infinity;
    const trackSet = new Set<number>();
    const classes = new Array<number>(CLASS_COUNT).fill(0);
    for (const r of list) {
      start = Math.min(start, ev.start[r]!);
      end = Math.max(end, ev.start[r]! + ev.duration[r]!);
      trackSet.add(ev.track[r]!);
      const c = index.category[r]!;
      if (c <= CPU) classes[c]!++;
    }
    list.sort(byStart);
    items.push({
      type: 'group',
      group: {
        key,
        kind: key < 0 ? 'span' : 'context',
        label: key < 0 ? `${list.length} events` : index.strings.get(ev.name[key]!),
        rows: Int32Array.from(list),
        start,
        end,
        tracks: [...trackSet].sort((a, b) => a - b),
        classes,
      },
    });
  }
  items.sort((a, b) => startOf(ev.start, a) - startOf(ev.start, b));
  return { total: rows.length, grouped: true, depth, items };
}

/** A group's member rows in place of the group (a double click), keeping the items in start order. */
export function expandGroup(index: DmvIndex, visible: VisibleEvents, key: number): VisibleEvents {
  const ev = index.trace.events;
  const items: VisibleItem[] = [];
  for (const it of visible.items) {
    if (it.type === 'group' && it.group.key === key)
      for (const row of it.group.rows) items.push({ type: 'event', row });
    else items.push(it);
  }
  items.sort((a, b) => startOf(ev.start, a) - startOf(ev.start, b));
  return { ...visible, items };
}

function startOf(start: Float64Array, it: VisibleItem): number {
  return it.type === 'event' ? start[it.row]! : it.group.start;
}
