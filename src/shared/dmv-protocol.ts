/**
 * Messages between the extension host and the DMV webview (data movement views, thesis ch. 7), one
 * union per direction. The panel follows the active dataset: a trace shows its clock, metric tracks,
 * communication matrix, hardware, application and event views and its flags, all linked by one time
 * window; an ensemble of traces shows the grid of clocks. Everything is computed by the data-movement
 * system in the dataset's worker (src/service/systems/data-movement-system.ts,
 * src/analysis/dmv/panel-data.ts); times are ns from the trace origin, bytes in bytes.
 */
import type { FlagKind } from '../analysis/dmv/flags';
import type { DmvCellCopies, DmvEnsembleResult, DmvOverviewResult, DmvWindowData } from '../analysis/dmv/panel-data';
import type { TimelineWindow } from './timeline-protocol';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

/** What each data-movement flag is called in the panel, the Data Movement view and the CodeLens. */
export const FLAG_LABELS: Readonly<Record<FlagKind, string>> = {
  'pageable-copy': 'Pageable copies',
  'alternating-transfers': 'H↔D copies alternating around short kernels',
  'small-copy-storm': 'Small-copy storm',
  'copy-without-overlap': 'Copies not overlapping compute',
  'uvm-fault-storm': 'Unified-memory page-fault storm',
};

/** A time interval of the trace (the clock's inner arc). */
export type DmvWindow = TimelineWindow;

/** Which grid the ensemble shows: each run on its own clock, or all on the longest run's sectors. */
export type DmvEnsembleMode = 'own' | 'compare';

/** Host → view: a trace is shown (sent again when the trace, the category rules or the added files change). */
export interface DmvInitMessage {
  type: 'dmv/init';
  title: string;
  overview: DmvOverviewResult;
  /** The window the editor's overlays show (Use This Window for Overlays), or null for the whole run. */
  overlayWindow: DmvWindow | null;
  /** Start on this window (a flag's CodeLens opened the panel), else the overlay window or the whole run. */
  focus: DmvFocus | null;
}

/** Where to look first: a flag's time span and its line. */
export interface DmvFocus {
  window: DmvWindow;
  /** The flag to select (kind and issuing line). */
  flag: { kind: string; file: string | null; line: number | null } | null;
}

/** Host → view: the views of one window (the answer to `dmv/requestWindow`). */
export interface DmvWindowMessage {
  type: 'dmv/window';
  requestId: number;
  data: DmvWindowData;
}

export type DmvHostToView =
  | DmvInitMessage
  | DmvWindowMessage
  /** A matrix cell's copies and issuing lines. */
  | { type: 'dmv/cell'; data: DmvCellCopies }
  /** An ensemble of traces: the grid of clocks. */
  | { type: 'dmv/ensemble'; title: string; grid: DmvEnsembleResult; mode: DmvEnsembleMode; sort: boolean }
  /** The overlays now follow this window (or the whole run). */
  | { type: 'dmv/overlayWindow'; window: DmvWindow | null }
  /** Look at this window and flag (a flag's CodeLens, with the panel already showing the trace). */
  | { type: 'dmv/focus'; focus: DmvFocus }
  /** The active dataset is neither a trace nor an ensemble of traces. */
  | { type: 'dmv/unavailable'; message: string }
  | ErrorMessage;

/** View → host: the views of a window (a sector click, a play step, a flag). */
export interface DmvWindowRequest {
  type: 'dmv/requestWindow';
  /** Echoed back; only the latest request's answer is drawn. */
  requestId: number;
  /** null: the whole run. */
  window: DmvWindow | null;
  /** Groups of events the user expanded in this window. */
  expanded: number[];
  /** About the metric rows' width in pixels. */
  metricPoints: number;
  /** The utilisation glyph's two metrics (ids), or null for CPU and GPU utilisation. */
  glyph: { left: string; right: string } | null;
  /** Device boxes the hardware drawing holds at its size (the topology component's capacity); absent until known. */
  hardwareNodes?: number;
}

export type DmvViewToHost =
  | CommonViewToHost
  | DmvWindowRequest
  | { type: 'dmv/cell'; src: number; dst: number; window: DmvWindow | null }
  /** Open a source line (an application-view node, a copy's or a flag's issuing line). */
  | { type: 'dmv/openSource'; file: string; line: number | null; name: string }
  /** Open the source of an event of the event view (its nearest frame with a file). */
  | { type: 'dmv/openEvent'; row: number }
  /** Use This Window for Overlays (null: Use Whole Run for Overlays). */
  | { type: 'dmv/useWindowForOverlays'; window: DmvWindow | null }
  /** Ask for the ensemble grid again. */
  | { type: 'dmv/ensemble'; mode: DmvEnsembleMode; sort: boolean }
  /** Open one run of the ensemble as the active dataset (its own views). */
  | { type: 'dmv/openRun'; path: string }
  /** Add (pick a file) or remove `nvidia-smi topo -m` output or an nvidia-smi CSV. */
  | { type: 'dmv/file'; kind: 'topology' | 'nvidiaSmi'; action: 'add' | 'remove' };

/** Every message type the host sends the DMV view: the view accepts only these. */
export const DMV_HOST_TO_VIEW_TYPES: Readonly<Record<DmvHostToView['type'], true>> = {
  'dmv/init': true,
  'dmv/window': true,
  'dmv/cell': true,
  'dmv/ensemble': true,
  'dmv/overlayWindow': true,
  'dmv/focus': true,
  'dmv/unavailable': true,
  error: true,
};
