/**
 * Messages between the extension host and the Trace Analysis view (`trace-analysis`), one union per
 * direction. The analysis runs in the analysis service (src/service/systems/trace-analysis-system.ts);
 * the view gets its level-of-detail data (src/analysis/timeseries/view-data.ts): clusters, loops,
 * significant call paths, segments, and on demand the lanes × iterations matrix of one loop.
 * Times are ns from the trace origin, losses in seconds.
 */
import type { IterationMatrix, TraceAnalysisView } from '../analysis/timeseries/model/trace-analysis-view';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

export type {
  ClusterView,
  IterationMatrix,
  LoopView,
  PathView,
  SegmentView,
  TraceAnalysisView,
} from '../analysis/timeseries/model/trace-analysis-view';

/** Host → view: an analysis is under way (fraction in [0, 1]). */
export interface TraceAnalysisRunningMessage {
  type: 'traceAnalysis/running';
  title: string;
  fraction: number;
  message: string;
}

/** Host → view: the analysis of the active trace. */
export interface TraceAnalysisResultMessage {
  type: 'traceAnalysis/result';
  title: string;
  view: TraceAnalysisView;
  /** Analysis time (ms) and whether the lanes were split over two workers. */
  ms: number;
  split: boolean;
  /** Settings that differ from the paper's defaults, `name = value`. */
  changedOptions: string[];
}

/** Host → view: the lanes × iterations of a loop, as asked. */
export interface TraceAnalysisIterationsMessage {
  type: 'traceAnalysis/iterations';
  matrix: IterationMatrix;
}

/** Host → view: there is nothing to show (no trace, no analysis yet, it failed or was cancelled); `canAnalyse` offers the button. */
export interface TraceAnalysisUnavailableMessage {
  type: 'traceAnalysis/unavailable';
  title: string;
  message: string;
  canAnalyse: boolean;
}

/** Host → view: select a significant call path (a CodeLens or side-bar click). */
export interface TraceAnalysisSelectPathMessage {
  type: 'traceAnalysis/selectPath';
  path: number;
}

export type TraceAnalysisHostToView =
  | TraceAnalysisRunningMessage
  | TraceAnalysisResultMessage
  | TraceAnalysisIterationsMessage
  | TraceAnalysisUnavailableMessage
  | TraceAnalysisSelectPathMessage
  | ErrorMessage;

export type TraceAnalysisViewToHost =
  | CommonViewToHost
  /** Run (again) with the current settings. */
  | { type: 'traceAnalysis/analyse' }
  | { type: 'traceAnalysis/cancel' }
  /** The matrix of a loop at the view's resolution. */
  | { type: 'traceAnalysis/requestIterations'; loop: number; rows: number; columns: number }
  /** Show a window of the run (an iteration, a segment) in the timeline, selected; lanes: null = all. */
  | { type: 'traceAnalysis/showWindow'; start: number; end: number; tracks: number[] | null; label: string }
  /** Make the editor overlays follow a window of the run (Use This Window for Overlays). */
  | { type: 'traceAnalysis/useWindowForOverlays'; start: number; end: number }
  /** Open a call path's source line (and outline its events in an open timeline). */
  | { type: 'traceAnalysis/openSource'; path: number }
  /** Open a recorded source location (a loop's line). */
  | { type: 'traceAnalysis/openSourceLocation'; file: string; line: number | null }
  /** Group and order the timeline's lanes by cluster (or back to trace order). */
  | { type: 'traceAnalysis/timelineByCluster'; on: boolean }
  | { type: 'traceAnalysis/openSettings' };

/** Every message type the host sends the view: the view accepts only these. */
export const TRACE_ANALYSIS_HOST_TO_VIEW_TYPES: Readonly<Record<TraceAnalysisHostToView['type'], true>> = {
  'traceAnalysis/running': true,
  'traceAnalysis/result': true,
  'traceAnalysis/iterations': true,
  'traceAnalysis/unavailable': true,
  'traceAnalysis/selectPath': true,
  error: true,
};
