/**
 * Messages between the extension host and the timeline webview, one union per direction (types
 * and two formatting helpers both sides use). Times are ns from the trace origin; typed arrays travel
 * as-is through postMessage (structured clone). Computation lives in src/analysis/timeline/:
 * tiles.ts (computeTiles, computeMinimap), window-stats.ts (windowStatistics, profileForWindow),
 * lookup.ts (eventAt, eventDetails, eventsOfNode), lanes.ts, flows-and-copies.ts, colors.ts.
 */
import type { EventDetails } from '../analysis/timeline/lookup';
import type { ColourBy, TileResult } from '../analysis/timeline/tiles';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

export interface TimelineWindow {
  start: number;
  end: number;
}

/** A lane row of the lane list (see lanes.ts visibleRows). */
export type TimelineLaneRow =
  | {
      type: 'group';
      id: string;
      label: string;
      kind: 'process' | 'gpu-device' | 'async' | 'counters' | 'cluster';
      level: number;
      collapsed: boolean;
    }
  | {
      type: 'lane';
      id: string;
      track: number;
      label: string;
      kind: 'thread' | 'gpu-stream' | 'async' | 'counter';
      level: number;
      /** Row height in px when not the default (the members of a cluster band). */
      height?: number;
    };

/** A cluster band of a trace analysis (lanes.ts ClusterBandSpec): the representative's track first. */
export interface TimelineClusterBand {
  label: string;
  tracks: number[];
  weight: number;
}

export type TimelineLaneSort =
  | { by: 'display' }
  | { by: 'name' }
  | { by: 'busy' }
  | { by: 'node'; node: number }
  /** Grouped and ordered by the clusters of a trace analysis, band heights ∝ log₂(size + 1). */
  | { by: 'clusters'; bands: TimelineClusterBand[] };

/** What the analysis worker answers to a timeline `init` request. */
export interface TimelineInitResult {
  timeRange: [number, number];
  originNs: string;
  rows: TimelineLaneRow[];
  maxDepth: number;
  minimap: TimelineTilesPayload;
  trackCount: number;
  eventCount: number;
}

/** Host → view: the trace is open (sent once; the mini-map is computed once per trace). */
export interface TimelineInitMessage extends TimelineInitResult {
  type: 'timeline/init';
  title: string;
  /** The dataset shows a window of the run in the overlays (Use This Window for Overlays), or null for the whole run. */
  overlayWindow: TimelineWindow | null;
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
  /** Lanes (tracks) drawn as a depth view: the call stack over time, one row per depth. */
  depthViews: number[];
  /** Draw the iteration bands of the trace analysis's main loop (when there is one). */
  iterations?: boolean;
}

/** tiles.ts TileResult as it crosses postMessage: the name dictionary as pairs. */
export interface TimelineTilesPayload extends Omit<TileResult, 'names' | 'resolution'> {
  /** [key id, display name] for every key present; colour = colors.ts colourOf(name). */
  names: [number, string][];
}

/** A flow arrow: from/to lane (track) and time, kind name. */
export interface TimelineFlow {
  fromTrack: number;
  fromTime: number;
  toTrack: number;
  toTime: number;
  kind: 'generic' | 'launch' | 'message';
}

/** A copy or memset on a data-movement lane (direction: a DATA_MOVEMENT_KIND_NAMES name). */
export interface TimelineCopyMarker {
  track: number;
  start: number;
  duration: number;
  direction: string;
  bytes: number;
}

export interface TimelineTilesMessage {
  type: 'timeline/tiles';
  requestId: number;
  tiles: TimelineTilesPayload;
  /** Flow arrows in the window (empty when there are too many to draw). */
  flows: TimelineFlow[];
  /** Copies and memsets in the window, for the direction markers (empty when there are too many). */
  copies: TimelineCopyMarker[];
  /** Per lane shown as a depth view: its tiles at each call depth 0, 1, … */
  depthViews: { track: number; depths: TimelineTilesPayload[] }[];
  /** Iterations of the analysed main loop on the asked lanes: [start, end, …] and identifiers (when asked for). */
  iterations?: TimelineIterationSpans[];
}

/** A lane's iterations of one loop in a window (view-data.ts iterationSpans). */
export interface TimelineIterationSpans {
  track: number;
  spans: Float64Array;
  ids: Int32Array;
}

/** What the timeline shows of a trace analysis (HPC Lens: Analyse Trace). */
export interface TimelineAnalysisInfo {
  /** Cluster bands, in the analysis's order (the representative's lane first in each). */
  bands: TimelineClusterBand[];
  /** Group the lanes by cluster now (the panel's switch). */
  byCluster: boolean;
  /** The loop whose iterations can be banded, or null. */
  loopName: string | null;
  /** The call depth of the deepest significant path (the automatic depth), −1 without one. */
  depth: number;
}

/** Host → view: a trace analysis of this trace arrived or changed (null: none). */
export interface TimelineAnalysisMessage {
  type: 'timeline/analysis';
  analysis: TimelineAnalysisInfo | null;
}

/** Host → view: show and select a window (an iteration or a segment of the trace analysis); tracks: null = all lanes. */
export interface TimelineShowWindowMessage {
  type: 'timeline/showWindow';
  window: TimelineWindow;
  tracks: number[] | null;
  label: string;
}

/** View → host: the pointer is over (track, time[, depth]); the host answers with eventDetails. */
export interface TimelineHoverMessage {
  type: 'timeline/hover';
  requestId: number;
  track: number;
  time: number;
  depth?: number;
}
export interface TimelineEventDetailsMessage {
  type: 'timeline/eventDetails';
  requestId: number;
  /** The event under the pointer, or null when nothing is there. */
  details: EventDetails | null;
}

/** View → host: click (open source of the event's nearest located node). */
export interface TimelineOpenSourceMessage {
  type: 'timeline/openSource';
  row: number;
}

/** View → host: a time range was selected (lanes: null = all). */
export interface TimelineSelectWindowMessage {
  type: 'timeline/selectWindow';
  window: TimelineWindow;
  tracks: number[] | null;
}

/** Host → view: window-stats.ts WindowStatistics for the selection. */
export interface TimelineWindowStatsMessage {
  type: 'timeline/windowStats';
  window: TimelineWindow;
  functions: {
    nameId: number;
    name: string;
    inclusive: number;
    exclusive: number;
    count: number;
    samples: number;
    samplesExclusive: number;
  }[];
  lanes: { track: number; busy: number; idle: number }[];
  bytes: Record<string, { count: number; bytes: number }>;
  eventCount: number;
}

/** View → host: re-weight the editor overlays to a window (profileForWindow), or back to the whole run (window null). */
export interface TimelineUseWindowMessage {
  type: 'timeline/useWindowForOverlays';
  window: TimelineWindow | null;
  tracks: number[] | null;
}

/** Host → view: highlight the events of a node (Sankey or editor selection), per visible lane. */
export interface TimelineHighlightMessage {
  type: 'timeline/highlight';
  node: number | null;
  name: string;
  tracks: number[];
  /** Per listed lane: the event rows, and their extents as [start, end, start, end, …]. */
  rows: Int32Array[];
  spans: Float64Array[];
}

/** Host → view: the overlays now follow this window (null: the whole run). */
export interface TimelineOverlayWindowMessage {
  type: 'timeline/overlayWindow';
  window: TimelineWindow | null;
}

/** Host → view: the active dataset has no timeline (or it could not be read); shown instead of the lanes. */
export interface TimelineUnavailableMessage {
  type: 'timeline/unavailable';
  message: string;
}

/** View → host: lane list changes. */
export interface TimelineLanesMessage {
  type: 'timeline/lanes';
  filter: string;
  sort: TimelineLaneSort;
  collapsed: string[];
}

export type TimelineHostToView =
  | TimelineInitMessage
  | TimelineTilesMessage
  | TimelineEventDetailsMessage
  | TimelineWindowStatsMessage
  | TimelineHighlightMessage
  | { type: 'timeline/rows'; rows: TimelineLaneRow[] }
  | TimelineOverlayWindowMessage
  | TimelineUnavailableMessage
  | TimelineAnalysisMessage
  | TimelineShowWindowMessage
  | ErrorMessage;
export type TimelineViewToHost =
  | CommonViewToHost
  | TimelineTileRequestMessage
  | TimelineHoverMessage
  | TimelineOpenSourceMessage
  | TimelineSelectWindowMessage
  | TimelineUseWindowMessage
  | TimelineLanesMessage
  /** The toolbar's Analyse Trace. */
  | { type: 'timeline/analyse' };

/** The time unit that reads best for a span or step of `ns` nanoseconds. */
export function timeUnitFor(ns: number): { unit: 'ns' | 'µs' | 'ms' | 's'; scale: number } {
  const a = Math.abs(ns);
  return a >= 1e9
    ? { unit: 's', scale: 1e9 }
    : a >= 1e6
      ? { unit: 'ms', scale: 1e6 }
      : a >= 1e3
        ? { unit: 'µs', scale: 1e3 }
        : { unit: 'ns', scale: 1 };
}

/** A window as `12.3–45.6 ms` (both ends in the unit of the end, relative to the trace origin). */
export function formatWindow(w: TimelineWindow): string {
  const { unit, scale } = timeUnitFor(Math.max(Math.abs(w.start), Math.abs(w.end)));
  const span = (w.end - w.start) / scale;
  // Enough decimals that the two ends differ when the window is narrow.
  const decimals = Math.min(6, Math.max(1, Math.ceil(-Math.log10(Math.max(span, 1e-9))) + 2));
  const f = (x: number) => (x / scale).toFixed(decimals);
  return `${f(w.start)}–${f(w.end)} ${unit}`;
}

/** Every message type the host sends the timeline view: the view accepts only these (a record, so a new type must be listed). */
export const TIMELINE_HOST_TO_VIEW_TYPES: Readonly<Record<TimelineHostToView['type'], true>> = {
  'timeline/init': true,
  'timeline/tiles': true,
  'timeline/eventDetails': true,
  'timeline/windowStats': true,
  'timeline/highlight': true,
  'timeline/rows': true,
  'timeline/overlayWindow': true,
  'timeline/unavailable': true,
  'timeline/analysis': true,
  'timeline/showWindow': true,
  error: true,
};
