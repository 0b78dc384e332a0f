/**
 * Messages between the extension host and the live PDES monitor view (thesis ch. 6): the host
 * forwards what the monitor's worker pushes (ticks, notices, the end) in batches, and answers the
 * view's refreshes with the views' data computed in that worker. The view draws; it computes nothing
 * but what it shows of the data it was sent.
 */
import type { SamplingMode } from '../analysis/pdes/model/sample-set';
import type { PdesTickUpdate, StreamChangePoint } from '../analysis/pdes/stream/stream-analyser';
import type { BehaviourWindow, CausalityTableRow, DiffMatrix, MatrixView } from '../analysis/pdes/stream/stream-views';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

/** One tick as the summary views keep it (every tick, even when the view was not redrawn). */
export interface MonitorTickPoint {
  tick: number;
  time: number;
  means: { top: number; bottom: number };
  changePoint: StreamChangePoint | null;
}

/** What the monitor follows. */
export interface MonitorSourceInfo {
  /** The file, or tcp://127.0.0.1:PORT. */
  source: string;
  kind: 'file' | 'replay' | 'socket';
  mode: SamplingMode;
  tracePath: string | null;
  expectedPes: number;
}

/** How the view wants its views: what the user chose in it. */
export interface MonitorViewOptions {
  granularity: 'pe' | 'kp';
  /** Drill-down of the live matrix into the KPs of two PEs (PE indices), or none. */
  drill: { rowPe: number; colPe: number } | null;
  causalityDirection: 'from' | 'to';
  causalitySort: 'metric' | 'pValue' | 'impulse' | 'varianceShare';
  /** The bottom behaviour view's metric (a causality row's click), or null for the setting's. */
  bottomMetric: string | null;
  /** The base-time tick of the diff matrices (a click on a summary view), or null for none. */
  baseTick: number | null;
}

/** Host → view. */
export type PdesMonitorHostToView =
  | { type: 'monitor/started'; info: MonitorSourceInfo }
  /** The ticks since the last batch (oldest first) and the newest one in full. */
  | { type: 'monitor/ticks'; points: MonitorTickPoint[]; latest: PdesTickUpdate }
  /** The views' data for a refresh the view asked for. */
  | {
      type: 'monitor/views';
      requestId: number;
      top: BehaviourWindow | null;
      bottom: BehaviourWindow | null;
      matrix: MatrixView | null;
      causality: CausalityTableRow[];
      /** The base matrix (the tick the user chose on a summary view) and each change point's difference from it. */
      base: MatrixView | null;
      diffs: DiffMatrix[];
    }
  /** Every tick so far (a reopened or reloaded view rebuilds its summary views from it). */
  | { type: 'monitor/history'; points: MonitorTickPoint[] }
  /**
   * Entities to highlight: a lasso's, or a change point's top PC1 loadings (**Show**, with the change
   * point and what the editor shows for them: the handlers with CodeLenses, or why none).
   */
  | { type: 'monitor/selection'; entities: number[]; reason: string; changePoint?: number; editor?: string }
  | { type: 'monitor/paused'; paused: boolean }
  | { type: 'monitor/notice'; message: string }
  /** Tailing stopped on bad input; the message names the file and the byte offset. */
  | { type: 'monitor/failed'; message: string }
  | { type: 'monitor/ended'; ticks: number; reason: string }
  | ErrorMessage;

/** View → host. */
export type PdesMonitorViewToHost =
  | CommonViewToHost
  /** Asks for the views' data now (sent after ticks arrive, one at a time). */
  | { type: 'monitor/refresh'; requestId: number; options: MonitorViewOptions }
  | { type: 'monitor/pause' }
  | { type: 'monitor/resume' }
  | { type: 'monitor/stop' }
  | { type: 'monitor/lasso'; view: 'top' | 'bottom'; polygon: [number, number][] }
  /** **Show** on a change point: the host selects its top PC1-loading entities. */
  | { type: 'monitor/show'; changePoint: number };

/** Every message type the host sends the monitor view: the view accepts only these. */
export const PDES_MONITOR_HOST_TO_VIEW_TYPES: Readonly<Record<PdesMonitorHostToView['type'], true>> = {
  'monitor/started': true,
  'monitor/ticks': true,
  'monitor/views': true,
  'monitor/history': true,
  'monitor/selection': true,
  'monitor/paused': true,
  'monitor/notice': true,
  'monitor/failed': true,
  'monitor/ended': true,
  error: true,
};
