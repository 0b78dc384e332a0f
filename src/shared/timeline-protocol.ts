/**
 * Messages between the extension host and the timeline webview (types only; the view engineer
 * wires them into protocol.ts's unions). Times are ns from the trace origin; typed arrays travel
 * as-is through postMessage (structured clone). Computation lives in src/analysis/timeline/:
 * tiles.ts (computeTiles, computeMinimap), window-stats.ts (windowStatistics, profileForWindow),
 * lookup.ts (eventAt, eventDetails, eventsOfNode), lanes.ts, flows-and-copies.ts, colors.ts.
 */
import type { ColourBy } from '../analysis/timeline/tiles';

export interface TimelineWindow {
  start: number;
  end: number;
}

/** A lane row of the lane list (see lanes.ts visibleRows). */
export type TimelineLaneRow =
  | { type: 'group'; id: string; label: string; kind: 'process' | 'gpu-device' | 'async' | 'counters'; level: number; collapsed: boolean }
  | { type: 'lane'; id: string; track: number; label: string; kind: 'thread' | 'gpu-stream' | 'async' | 'counter'; level: number };

export type TimelineLaneSort = { by: 'display' } | { by: 'name' } | { by: 'busy' } | { by: 'node'; node: number };

/** Host → view: the trace is open (sent once; the mini-map is computed once per trace). */
export interface TimelineInitMessage {
  type: 'timeline/init';
  title: string;
  timeRange: [number, number];
  originNs: string;
  rows: TimelineLaneRow[];
  maxDepth: number;
  minimap: TimelineTilesPayload;
}

/** View → host: draw this window (sent on pan/zoom, debounced to one in flight). */
export interface TimelineTileRequestMessage {
  type: 'timeline/requestTiles';
  /** Echoed back so stale answers can be dropped. */
  requestId: number;
  window: TimelineWindow;
  /** Track indices of the visible lanes, top to bottom. */
  tracks: number[];
  width: number;
  depth: number;
  colourBy: ColourBy;
}

/** The data of tiles.ts TileResult, with the name dictionary as pairs. */
export interface TimelineTilesPayload {
  window: TimelineWindow;
  width: number;
  depth: number;
  colourBy: ColourBy;
  tracks: Int32Array;
  key: Int32Array;
  share: Float32Array;
  busy: Float32Array;
  detail: Uint8Array;
  events: {
    laneStart: Int32Array; row: Int32Array; start: Float64Array; duration: Float64Array;
    depth: Int32Array; kind: Uint8Array; key: Int32Array; node: Int32Array;
  };
  /** [key id, display name] for every key present; colour = colors.ts colourOf(name). */
  names: [number, string][];
}

export interface TimelineTilesMessage {
  type: 'timeline/tiles';
  requestId: number;
  tiles: TimelineTilesPayload;
  /** Flow arrows in the window: from/to lane (track) and time, kind name. */
  flows: { fromTrack: number; fromTime: number; toTrack: number; toTime: number; kind: 'generic' | 'launch' | 'message' }[];
}

/** View → host: the pointer is over (track, time[, depth]); the host answers with eventDetails. */
export interface TimelineHoverMessage { type: 'timeline/hover'; requestId: number; track: number; time: number; depth?: number }
export interface TimelineEventDetailsMessage {
  type: 'timeline/eventDetails';
  requestId: number;
  /** lookup.ts EventDetails, or null when nothing is there. */
  details: {
    row: number; kind: 'slice' | 'instant' | 'sample'; name: string; category: string; start: number; duration: number;
    depth: number; track: number; trackName: string; process: string; node: number; callPath: string[];
    source: { node: number; file: string; line: number | null } | null;
    copy: { direction: string; bytes: number; bytesPerSecond: number | null; srcDevice: number; dstDevice: number } | null;
  } | null;
}

/** View → host: click (open source of the event's nearest located node). */
export interface TimelineOpenSourceMessage { type: 'timeline/openSource'; row: number }

/** View → host: a time range was selected (lanes: null = all). */
export interface TimelineSelectWindowMessage { type: 'timeline/selectWindow'; window: TimelineWindow; tracks: number[] | null }

/** Host → view: window-stats.ts WindowStatistics for the selection. */
export interface TimelineWindowStatsMessage {
  type: 'timeline/windowStats';
  window: TimelineWindow;
  functions: { nameId: number; name: string; inclusive: number; exclusive: number; count: number; samples: number; samplesExclusive: number }[];
  lanes: { track: number; busy: number; idle: number }[];
  bytes: Record<string, { count: number; bytes: number }>;
  eventCount: number;
}

/** View → host: re-weight the editor overlays to a window (profileForWindow), or back to the whole run (window null). */
export interface TimelineUseWindowMessage { type: 'timeline/useWindowForOverlays'; window: TimelineWindow | null; tracks: number[] | null }

/** Host → view: highlight the events of a node (Sankey or editor selection), per visible lane. */
export interface TimelineHighlightMessage { type: 'timeline/highlight'; node: number | null; rows: Int32Array[] }

/** View → host: lane list changes. */
export interface TimelineLanesMessage { type: 'timeline/lanes'; filter: string; sort: TimelineLaneSort; collapsed: string[] }

export type TimelineHostToView = TimelineInitMessage | TimelineTilesMessage | TimelineEventDetailsMessage | TimelineWindowStatsMessage | TimelineHighlightMessage
  | { type: 'timeline/rows'; rows: TimelineLaneRow[] };
export type TimelineViewToHost = TimelineTileRequestMessage | TimelineHoverMessage | TimelineOpenSourceMessage | TimelineSelectWindowMessage
  | TimelineUseWindowMessage | TimelineLanesMessage;
