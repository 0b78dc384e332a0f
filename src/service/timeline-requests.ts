/**
 * The timeline's requests, answered where the trace lives: in the persistent analysis worker
 * (parse-worker.ts calls `timelineRequest` for its `timeline` messages), never on the extension
 * host's thread — zoomed-out tiles of a 10⁷-event trace take seconds. Everything the worker side
 * needs is here, so the module can move to another worker unchanged. Pure TypeScript: no vscode.
 */
import type { Profile, ProfileData } from '../analysis/model/profile';
import {
  buildLaneTree,
  clusterLaneGroups,
  filterLanes,
  laneTitles,
  sortLanes,
  visibleRows,
  type LaneGroup,
} from '../analysis/timeline/lanes';
import { eventAt, eventDetails, eventsOfNode } from '../analysis/timeline/lookup';
import { dataMovementInWindow, flowsInWindow } from '../analysis/timeline/flows-and-copies';
import { computeMinimap, computeTiles, type ColourBy, type TileResult } from '../analysis/timeline/tiles';
import { TimelineIndex, type TimeWindow } from '../analysis/timeline/timeline-index';
import { profileForWindow, windowStatistics } from '../analysis/timeline/window-stats';
import { DATA_MOVEMENT_KIND_NAMES, FLOW_KIND_NAMES } from '../analysis/model/trace';
import { transferables } from './shared-memory';
import type {
  TimelineCopyMarker,
  TimelineInitResult,
  TimelineEventDetailsMessage,
  TimelineFlow,
  TimelineLaneRow,
  TimelineLaneSort,
  TimelineTilesPayload,
  TimelineWindowStatsMessage,
} from '../shared/timeline-protocol';

// Tests and scripts read the init result from here, beside the request that makes it.
export type { TimelineInitResult } from '../shared/timeline-protocol';

/** Beyond this many copies in a window, direction markers are left out (the tiles still show the copies' colours). */
export const MAX_COPY_MARKERS = 20000;
/** Beyond this many flows in a window, arrows are left out (they would be a solid smear). */
export const MAX_FLOW_ARROWS = 5000;
/** Depth rows of one lane's depth view (call stack over time). */
export const MAX_DEPTH_VIEW_ROWS = 24;

export type TimelineWorkerRequest =
  | { kind: 'init'; minimapWidth: number }
  | { kind: 'rows'; filter: string; sort: TimelineLaneSort; collapsed: string[] }
  /** Per call-tree node, the class colouring by class shows (a trace analysis's), or null to drop it. */
  | { kind: 'nodeClasses'; classes: Uint8Array | null }
  | {
      kind: 'tiles';
      window: TimeWindow;
      tracks: number[];
      width: number;
      depth: number;
      colourBy: ColourBy;
      depthViews: number[];
    }
  | { kind: 'hover'; track: number; time: number; depth?: number }
  | { kind: 'event'; row: number }
  | { kind: 'windowStats'; window: TimeWindow; tracks: number[] | null }
  | { kind: 'eventsOfNode'; nodes: number[]; window: TimeWindow; tracks: number[] }
  | { kind: 'profileForWindow'; window: TimeWindow; tracks: number[] | null };

export interface TimelineTilesResult {
  tiles: TimelineTilesPayload;
  flows: TimelineFlow[];
  copies: TimelineCopyMarker[];
  /** Per depth-view lane (as asked): one tile payload per call depth 0 … min(depths, MAX_DEPTH_VIEW_ROWS) - 1. */
  depthViews: { track: number; depths: TimelineTilesPayload[] }[];
}

/** The windowed profile's own columns; the host rebuilds the Profile over the whole run's shared data. */
export type WindowProfileColumns = Pick<
  ProfileData,
  'metrics' | 'exclusive' | 'inclusive' | 'primaryMetric' | 'metadata'
>;

export interface TimelineResults {
  init: TimelineInitResult;
  rows: TimelineLaneRow[];
  nodeClasses: null;
  tiles: TimelineTilesResult;
  hover: TimelineEventDetailsMessage['details'];
  event: TimelineEventDetailsMessage['details'];
  windowStats: Omit<TimelineWindowStatsMessage, 'type'>;
  eventsOfNode: { rows: Int32Array[]; spans: Float64Array[] };
  profileForWindow: WindowProfileColumns;
}

interface TimelineState {
  index: TimelineIndex;
  tree: LaneGroup[];
  /** Lane titles without their group (cluster bands mix processes), made on first use. */
  titles?: string[];
}

/** One index per profile the worker holds (built on the first request, O(events)). */
const states = new WeakMap<Profile, TimelineState>();

function stateOf(profile: Profile): TimelineState {
  let s = states.get(profile);
  if (!s) {
    const index = new TimelineIndex(profile);
    states.set(profile, (s = { index, tree: buildLaneTree(index.trace.tracks) }));
  }
  return s;
}

/** Answers one request about `profile`; `transfer` lists buffers the answer can hand over without a copy. */
export function timelineRequest(
  profile: Profile,
  req: TimelineWorkerRequest,
): { result: TimelineResults[TimelineWorkerRequest['kind']]; transfer: ArrayBuffer[] } {
  const s = stateOf(profile);
  const { index } = s;
  switch (req.kind) {
    case 'init': {
      // Depth 1 where there is one: depth 0 is `main` (or the profiler step) for the whole run in most traces.
      const minimap = tilesPayload(
        computeMinimap(index, req.minimapWidth, Math.min(1, Math.max(0, index.maxDepths - 1))),
      );
      const result: TimelineInitResult = {
        timeRange: [...index.trace.timeRange] as [number, number],
        originNs: index.trace.originNs,
        rows: laneRows(s.tree, new Set()),
        maxDepth: index.maxDepths,
        minimap,
        trackCount: index.trackCount,
        eventCount: index.trace.events.track.length,
      };
      return { result, transfer: payloadBuffers(minimap) };
    }
    case 'rows': {
      const filtered = filterLanes(s.tree, req.filter);
      const sorted =
        req.sort.by === 'clusters'
          ? clusterLaneGroups(filtered, req.sort.bands, (s.titles ??= laneTitles(index.trace.tracks)))
          : sortLanes(filtered, index, req.sort);
      return { result: laneRows(sorted, new Set(req.collapsed)), transfer: [] };
    }
    case 'nodeClasses':
      index.setNodeClasses(req.classes);
      return { result: null, transfer: [] };
    case 'tiles': {
      const tiles = tilesPayload(
        computeTiles(index, {
          window: req.window,
          tracks: req.tracks,
          width: req.width,
          depth: req.depth,
          colourBy: req.colourBy,
        }),
      );
      const depthViews = req.depthViews
        .filter(t => req.tracks.includes(t))
        .map(t => ({
          track: t,
          depths: Array.from({ length: Math.min(index.trackDepths(t), MAX_DEPTH_VIEW_ROWS) }, (_, d) =>
            tilesPayload(
              computeTiles(index, {
                window: req.window,
                tracks: [t],
                width: req.width,
                depth: d,
                colourBy: req.colourBy,
              }),
            ),
          ),
        }));
      const result: TimelineTilesResult = {
        tiles,
        flows: flows(index, req.window, req.tracks),
        copies: copies(index, req.window, req.tracks),
        depthViews,
      };
      return { result, transfer: [tiles, ...depthViews.flatMap(v => v.depths)].flatMap(payloadBuffers) };
    }
    case 'hover': {
      // The frame the view shows there: at the asked depth, or the innermost where the stack is shallower (tiles.ts' rule).
      let row = req.depth !== undefined ? eventAt(index, req.track, req.time, req.depth) : -1;
      if (row < 0) row = eventAt(index, req.track, req.time);
      return { result: row >= 0 ? eventDetails(index, row) : null, transfer: [] };
    }
    case 'event':
      return { result: eventDetails(index, req.row), transfer: [] };
    case 'windowStats': {
      const w = windowStatistics(index, req.window, req.tracks ?? undefined);
      return {
        result: { window: w.window, functions: w.functions, lanes: w.lanes, bytes: w.bytes, eventCount: w.eventCount },
        transfer: [],
      };
    }
    case 'eventsOfNode': {
      // Per lane, the union of the nodes' events (a line maps to several calling contexts).
      const perNode = req.nodes.map(n => eventsOfNode(index, n, req.window, req.tracks));
      const rows = req.tracks.map((_, i) => Int32Array.from(new Set(perNode.flatMap(p => [...p[i]!]))).sort());
      const ev = index.trace.events;
      const spans = rows.map(r => {
        const s = new Float64Array(r.length * 2);
        r.forEach((row, k) => {
          s[2 * k] = ev.start[row]!;
          s[2 * k + 1] = ev.start[row]! + ev.duration[row]!;
        });
        return s;
      });
      return { result: { rows, spans }, transfer: [...rows, ...spans].map(r => r.buffer as ArrayBuffer) };
    }
    case 'profileForWindow': {
      const p = profileForWindow(index, req.window, req.tracks ?? undefined);
      const d = p.data;
      const result: WindowProfileColumns = {
        metrics: d.metrics,
        exclusive: d.exclusive,
        inclusive: d.inclusive,
        primaryMetric: d.primaryMetric,
        metadata: d.metadata,
      };
      return { result, transfer: transferables([d.exclusive, d.inclusive]) };
    }
  }
}

/** The lane rows to draw: the (filtered, sorted) tree with collapsed groups folded. */
function laneRows(tree: readonly LaneGroup[], collapsed: ReadonlySet<string>): TimelineLaneRow[] {
  return visibleRows(tree, collapsed).map(r =>
    r.type === 'group'
      ? {
          type: 'group',
          id: r.group.id,
          label: r.group.label,
          kind: r.group.kind,
          level: r.level,
          collapsed: r.collapsed,
        }
      : {
          type: 'lane',
          id: r.lane.id,
          track: r.lane.track,
          label: r.lane.label,
          kind: r.lane.kind,
          level: r.level,
          ...(r.lane.height !== undefined ? { height: r.lane.height } : {}),
        },
  );
}

/** tiles.ts TileResult as the message carries it (the name map as pairs). */
export function tilesPayload(t: TileResult): TimelineTilesPayload {
  return {
    window: t.window,
    width: t.width,
    depth: t.depth,
    colourBy: t.colourBy,
    tracks: t.tracks,
    key: t.key,
    share: t.share,
    busy: t.busy,
    detail: t.detail,
    events: t.events,
    names: [...t.names],
  };
}

function payloadBuffers(p: TimelineTilesPayload): ArrayBuffer[] {
  const e = p.events;
  return [
    p.tracks,
    p.key,
    p.share,
    p.busy,
    p.detail,
    e.laneStart,
    e.row,
    e.start,
    e.duration,
    e.depth,
    e.kind,
    e.key,
    e.node,
  ].map(a => a.buffer as ArrayBuffer);
}

function flows(index: TimelineIndex, window: TimeWindow, tracks: readonly number[]): TimelineFlow[] {
  const rows = flowsInWindow(index, window, tracks);
  if (rows.length > MAX_FLOW_ARROWS) return [];
  const f = index.trace.flows;
  return Array.from(rows, r => ({
    fromTrack: f.fromTrack[r]!,
    fromTime: f.fromTime[r]!,
    toTrack: f.toTrack[r]!,
    toTime: f.toTime[r]!,
    kind: FLOW_KIND_NAMES[f.kind[r]!] ?? 'generic',
  }));
}

function copies(index: TimelineIndex, window: TimeWindow, tracks: readonly number[]): TimelineCopyMarker[] {
  const moved = dataMovementInWindow(index, window, tracks);
  if (moved.rows.length > MAX_COPY_MARKERS) return [];
  const dm = index.trace.dataMovement;
  return Array.from(moved.rows, r => ({
    track: dm.track[r]!,
    start: dm.start[r]!,
    duration: dm.duration[r]!,
    direction: DATA_MOVEMENT_KIND_NAMES[dm.kind[r]!] ?? 'other',
    bytes: dm.bytes[r]!,
  }));
}
