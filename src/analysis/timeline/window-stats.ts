import { inclusiveFromExclusive } from '../model/derive';
import type { MetricDescriptor } from '../model/metric';
import { Profile } from '../model/profile';
import { DATA_MOVEMENT_KIND_NAMES, TraceEventKind } from '../model/trace';
import { dataMovementInWindow } from './flows-and-copies';
import type { TimelineIndex, TimeWindow } from './timeline-index';

/** Time of one function (event name) inside a window. */
export interface WindowFunctionRow {
  /** String id of the name (the colour key of tiles in function mode). */
  nameId: number;
  name: string;
  /** ns inside the window, summed over the lanes; a function nested in itself is counted once. */
  inclusive: number;
  /** ns inside the window not inside a deeper slice. */
  exclusive: number;
  /** Slices of this function overlapping the window. */
  count: number;
  /** Samples in the window whose path contains the function / whose leaf it is. */
  samples: number;
  samplesExclusive: number;
}

export interface WindowLaneRow {
  track: number;
  /** ns covered by the lane's outermost slices (or sample holds when those cover more). */
  busy: number;
  idle: number;
}

export interface WindowStatistics {
  window: TimeWindow;
  tracks: number[];
  /** Sorted by inclusive time, then exclusive, then name. */
  functions: WindowFunctionRow[];
  lanes: WindowLaneRow[];
  /**
   * Bytes moved per direction (data-movement kind name), apportioned to the window: an operation
   * overlapping the window by a fraction f of its duration contributes f × its bytes (a constant
   * rate over the copy); an instantaneous one counts fully when it starts inside the window.
   */
  bytes: Record<string, { count: number; bytes: number }>;
  /** Events overlapping the window on those lanes: slices, instants, samples. */
  eventCount: number;
}

/** Visitor of one lane's events overlapping a window, in (start, depth) order. */
interface WindowVisitor {
  /** A slice with its time clipped to the window, and the enclosing slice's row (or -1). */
  slice(row: number, clipped: number, parentRow: number, stack: readonly number[], depth: number): void;
  instant?(row: number): void;
  /** A sample taken inside the window (samples the index treats as redundant are skipped). */
  sample?(row: number): void;
}

/**
 * Walks the events of track t overlapping [t0, t1) with the stack of open slices: the slices
 * already open at t0 (one binary search per depth), then the rows starting inside the window.
 * O(depth × log n + k).
 */
export function sweepWindow(index: TimelineIndex, t: number, window: TimeWindow, v: WindowVisitor): void {
  const ev = index.trace.events;
  const { start: t0, end: t1 } = window;
  const stack: number[] = [];
  const clip = (r: number) => Math.max(0, Math.min(ev.start[r]! + ev.duration[r]!, t1) - Math.max(ev.start[r]!, t0));
  // Slices open at t0 (started before it, still running), outermost first.
  for (let d = 0; d < index.trackDepths(t); d++) {
    const r = index.sliceAt(t, d, t0);
    if (r < 0 || ev.start[r]! >= t0) break;
    v.slice(r, clip(r), stack.length ? stack[stack.length - 1]! : -1, stack, d);
    stack.push(r);
  }
  const open = stack.length;
  // Rows of the track starting in [t0, t1).
  let lo = index.trace.trackEventStart[t]!,
    hi = index.trace.trackEventStart[t + 1]!;
  const end = hi;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (ev.start[m]! < t0) lo = m + 1;
    else hi = m;
  }
  const samplePositions = sampleSet(index, t, window);
  for (let r = lo; r < end && ev.start[r]! < t1; r++) {
    const kind = ev.kind[r]!;
    if (kind === TraceEventKind.Slice) {
      const d = ev.depth[r]!;
      if (d < open && stack[d] === r) continue;
      stack.length = Math.min(stack.length, d);
      v.slice(r, clip(r), d > 0 && stack.length ? stack[stack.length - 1]! : -1, stack, d);
      stack.push(r);
    } else if (kind === TraceEventKind.Instant) v.instant?.(r);
    else if (samplePositions.has(r)) v.sample?.(r);
  }
}

function sampleSet(index: TimelineIndex, t: number, window: TimeWindow): Set<number> {
  const [lo, hi] = index.samplesIn(t, window.start, window.end);
  const s = new Set<number>();
  for (let p = lo; p < hi; p++) s.add(index.sampleRows[p]!);
  return s;
}

/** All tracks with events, or the given subset, checked. */
function laneList(index: TimelineIndex, tracks?: readonly number[]): number[] {
  if (!tracks) return Array.from({ length: index.trackCount }, (_, t) => t);
  for (const t of tracks)
    if (!(t >= 0 && t < index.trackCount)) throw new RangeError(`no lane ${t} (the trace has ${index.trackCount})`);
  return [...tracks];
}

function checkWindow(w: TimeWindow): void {
  if (!(Number.isFinite(w.start) && Number.isFinite(w.end) && w.end > w.start))
    throw new RangeError(`empty or invalid window [${w.start}, ${w.end})`);
}

/** Per-function time, busy/idle per lane, bytes per direction and the event count of a window. */
export function windowStatistics(
  index: TimelineIndex,
  window: TimeWindow,
  tracks?: readonly number[],
): WindowStatistics {
  checkWindow(window);
  const lanes = laneList(index, tracks);
  const ev = index.trace.events;
  const nodeName = index.profile.tree.columns.name;
  const rows = new Map<number, WindowFunctionRow>();
  const strings = index.profile.data.strings;
  const row = (id: number) => {
    let x = rows.get(id);
    if (!x)
      rows.set(
        id,
        (x = {
          nameId: id,
          name: strings[id] || '(unnamed)',
          inclusive: 0,
          exclusive: 0,
          count: 0,
          samples: 0,
          samplesExclusive: 0,
        }),
      );
    return x;
  };
  let eventCount = 0;
  const laneRows: WindowLaneRow[] = [];
  for (const t of lanes) {
    sweepWindow(index, t, window, {
      slice(r, clipped, parent, stack) {
        eventCount++;
        const f = row(ev.name[r]!);
        f.count++;
        f.exclusive += clipped;
        if (parent >= 0) row(ev.name[parent]!).exclusive -= clipped;
        let nested = false;
        for (const s of stack)
          if (ev.name[s] === ev.name[r]) {
            nested = true;
            break;
          }
        if (!nested) f.inclusive += clipped;
      },
      instant() {
        eventCount++;
      },
      sample(r) {
        eventCount++;
        const leaf = ev.node[r]!;
        if (leaf < 0) return;
        row(nodeName[leaf]!).samplesExclusive++;
        const seen = new Set<number>();
        for (let n = leaf; n >= 0; n = index.nodeParent[n]!) {
          const id = nodeName[n]!;
          if (!seen.has(id)) {
            seen.add(id);
            row(id).samples++;
          }
        }
      },
    });
    const busy = index.busy(t, window.start, window.end);
    laneRows.push({ track: t, busy, idle: window.end - window.start - busy });
  }
  const bytes: Record<string, { count: number; bytes: number }> = {};
  const dm = index.trace.dataMovement;
  const moved = dataMovementInWindow(index, window, lanes);
  for (let i = 0; i < moved.rows.length; i++) {
    const k = DATA_MOVEMENT_KIND_NAMES[dm.kind[moved.rows[i]!]!] ?? 'other';
    const e = (bytes[k] ??= { count: 0, bytes: 0 });
    e.count++;
    e.bytes += moved.bytesInWindow[i]!;
  }
  const functions = [...rows.values()].sort(
    (a, b) =>
      b.inclusive - a.inclusive ||
      b.exclusive - a.exclusive ||
      b.samples - a.samples ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return { window, tracks: lanes, functions, lanes: laneRows, bytes, eventCount };
}

/** The metric a windowed profile carries: slice time inside the window, in ns. */
export const TIME_IN_WINDOW: MetricDescriptor = {
  name: 'time in window',
  label: 'Time in window',
  sourceKeys: [],
  unit: 'ns',
  kind: 'both',
  aggregation: 'sum',
};
export const SAMPLES_IN_WINDOW: MetricDescriptor = {
  name: 'samples in window',
  label: 'Samples in window',
  sourceKeys: [],
  unit: 'samples',
  kind: 'both',
  aggregation: 'sum',
};
export const BYTES_IN_WINDOW: MetricDescriptor = {
  name: 'bytes in window',
  label: 'Bytes moved in window',
  sourceKeys: [],
  unit: 'bytes',
  kind: 'both',
  aggregation: 'sum',
};

/**
 * The profile of a window (and optionally a subset of lanes), for "Use This Window for Overlays":
 * the same call tree, contexts, strings and trace (shared, not copied), with metrics restricted to
 * the window:
 *  - `time in window` (ns): per node × context (the lane's context), slice time clipped to the
 *    window minus the clipped time of its child slices (exclusive); inclusive is derived from the
 *    tree, so Σ exclusive over a subtree = inclusive, and the total equals Σ over the lanes of the
 *    time covered by their outermost slices in the window.
 *  - `samples in window`: sample counts at the leaf (only when the window holds samples the index
 *    keeps; HPCToolkit trace.db samples are already slices).
 *  - `bytes in window`: data movement apportioned to the window (see WindowStatistics.bytes) at
 *    the operation's node (only when the trace has data movement).
 * Cost O(events in window × depth + nodes × contexts).
 */
export function profileForWindow(index: TimelineIndex, window: TimeWindow, tracks?: readonly number[]): Profile {
  checkWindow(window);
  const lanes = laneList(index, tracks);
  const profile = index.profile;
  const ev = index.trace.events;
  const nodes = profile.tree.size,
    contexts = profile.contextCount;
  const time = new Float64Array(nodes * contexts);
  const samples = new Float64Array(nodes * contexts);
  let sampleCount = 0;
  for (const t of lanes) {
    const ctx = index.trace.tracks[t]!.context;
    if (ctx < 0) continue;
    sweepWindow(index, t, window, {
      slice(r, clipped, parent) {
        const node = ev.node[r]!;
        if (node >= 0) time[node * contexts + ctx]! += clipped;
        const pn = parent >= 0 ? ev.node[parent]! : -1;
        if (pn >= 0) time[pn * contexts + ctx]! -= clipped;
      },
      sample(r) {
        const node = ev.node[r]!;
        if (node >= 0) {
          samples[node * contexts + ctx]!++;
          sampleCount++;
        }
      },
    });
  }
  const metrics: MetricDescriptor[] = [TIME_IN_WINDOW];
  const exclusive: Float64Array[] = [time];
  if (sampleCount > 0) {
    metrics.push(SAMPLES_IN_WINDOW);
    exclusive.push(samples);
  }
  const dm = index.trace.dataMovement;
  if (dm.kind.length > 0) {
    const bytes = new Float64Array(nodes * contexts);
    const moved = dataMovementInWindow(index, window, lanes);
    for (let i = 0; i < moved.rows.length; i++) {
      const r = moved.rows[i]!;
      const ctx = index.trace.tracks[dm.track[r]!]?.context ?? -1;
      const node = dm.node[r]!;
      if (ctx >= 0 && node >= 0) bytes[node * contexts + ctx]! += moved.bytesInWindow[i]!;
    }
    metrics.push(BYTES_IN_WINDOW);
    exclusive.push(bytes);
  }
  const { parent } = profile.tree.columns;
  return new Profile({
    ...profile.data,
    metrics,
    exclusive,
    inclusive: exclusive.map(e => inclusiveFromExclusive(parent, e, contexts)),
    primaryMetric: 0,
    metadata: {
      ...profile.data.metadata,
      'timeline window (ns)': [window.start, window.end],
      'timeline lanes': tracks ? lanes.length : 'all',
    },
    warnings: profile.data.warnings,
  });
}
