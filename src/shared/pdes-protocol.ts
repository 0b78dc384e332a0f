/**
 * Messages between the extension host and the PDES webview (thesis ch. 5's offline system, issue 19),
 * types only apart from the settings' key list. The host keeps the panel's state per PDES dataset
 * — the analysis options the panel changed over the settings `hpcLens.pdes.*`, the brushed range and
 * edited segment bounds among them, and the selection — asks the PDES system for every view's data
 * (level-of-detail: decimated lines, one point per entity, per-segment rings and ribbons) and sends
 * it whole; the view draws it and posts the user's changes back. Entities are referred to by their
 * index at the analysed level (`PdesViews.entities`); clusters by their canonical number.
 */
import type { PdesAnalysisOptions } from '../analysis/pdes/analysis-options';
import type { PdesPick, PdesRunSummary, PdesViewState, PdesViews } from '../analysis/pdes/panel-views';
import type { PdesSelection } from '../analysis/pdes/selection';
import { NO_DRILL_DOWN, type TopologyDrillDown, type TopologyViewEvent } from './topology-protocol';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

/** The options that are settings (`hpcLens.pdes.<key>`): every analysis option but the panel's range and segment bounds. */
export const PDES_SETTING_KEYS = [
  'level',
  'timeAxis',
  'detailMetrics',
  'clusterMetrics',
  'clustering',
  'clusters',
  'restarts',
  'distance',
  'dtwWindow',
  'twedNu',
  'twedLambda',
  'projection',
  'perplexity',
  'tsneIterations',
  'changePointMetrics',
  'significance',
  'permutations',
  'minSegmentSize',
  'overviewStatistic',
  'communicationWeight',
  'innerRingMetric',
  'outerRingMetric',
  'ringEncoding',
  'ribbonThreshold',
  'seed',
] as const satisfies readonly (keyof PdesAnalysisOptions)[];

export type PdesSettingKey = (typeof PDES_SETTING_KEYS)[number];

/** What the panel keeps per PDES dataset (and across window reloads). */
export interface PdesPanelState {
  /** Options the panel set over the settings, the brushed `range` and edited `changePoints` included. */
  options: Partial<PdesAnalysisOptions>;
  selection: PdesSelection;
  /** Keep unselected lines, dimmed, in the detail views (the seed's "remove unselected lines", off). */
  keepUnselected: boolean;
  /** Segment whose matrix is shown; null for the one with the most traffic. */
  matrixSegment: number | null;
  /** Segment whose router values the dragonfly view shows; null for the whole run. */
  networkSegment: number | null;
  /** The dragonfly view's drill-down. */
  networkDrill: TopologyDrillDown;
}

export const EMPTY_PDES_PANEL_STATE: PdesPanelState = Object.freeze({
  options: {},
  selection: {},
  keepUnselected: false,
  matrixSegment: null,
  networkSegment: null,
  networkDrill: NO_DRILL_DOWN,
}) as PdesPanelState;

/**
 * The views request's `state` for a panel state: the panel, the screenshot script and the benches
 * ask the service the same way (a stroke or lasso in `pick` first becomes the selection).
 */
export function pdesViewState(
  state: PdesPanelState,
  view: { width: number; pick?: PdesPick; handlers?: unknown },
): Omit<PdesViewState, 'handlers'> & { handlers?: unknown } {
  return {
    selection: state.selection,
    keepUnselected: state.keepUnselected,
    width: view.width,
    ...(view.handlers !== undefined ? { handlers: view.handlers } : {}),
    ...(view.pick ? { pick: view.pick } : {}),
    ...(state.matrixSegment !== null ? { matrixSegment: state.matrixSegment } : {}),
    networkSegment: state.networkSegment,
    networkDrill: state.networkDrill,
  };
}

/** Options whose change makes entity indices or cluster numbers of a selection mean something else. */
export const SELECTION_RESETTING_OPTIONS: readonly (keyof PdesAnalysisOptions)[] = ['level', 'timeAxis'];
export const CLUSTER_RESETTING_OPTIONS: readonly (keyof PdesAnalysisOptions)[] = [
  'clusterMetrics',
  'clustering',
  'clusters',
  'restarts',
  'distance',
  'dtwWindow',
  'twedNu',
  'twedLambda',
  'seed',
  'range',
  'detailMetrics',
];

/** Host → view. */
export type PdesHostToView =
  /** Every view of the shown run for the panel's state (after any change). */
  | {
      type: 'pdes/views';
      title: string;
      run: PdesRunSummary;
      views: PdesViews;
      state: PdesPanelState;
      /** The options as the settings give them (what Reset returns to; controls mark the panel's changes). */
      settings: Partial<PdesAnalysisOptions>;
    }
  /** The analysis is running (fraction in [0, 1] and its phase), or done (null). */
  | { type: 'pdes/progress'; fraction: number | null; message: string }
  /** Nothing to show: no PDES run is open, or it has no behaviour series. */
  | { type: 'pdes/unavailable'; message: string }
  | ErrorMessage;

export const PDES_HOST_TO_VIEW_TYPES: Readonly<Record<PdesHostToView['type'], true>> = {
  'pdes/views': true,
  'pdes/progress': true,
  'pdes/unavailable': true,
  error: true,
};

/** View → host. */
export type PdesViewToHost =
  | CommonViewToHost
  /** Sets analysis options over the settings (a control, the overview's brush as `range`, edited `changePoints`). */
  | { type: 'pdes/options'; options: Partial<PdesAnalysisOptions> }
  /** Back to the settings: drops the panel's options (range and edited segments included). */
  | { type: 'pdes/resetOptions' }
  /** A new selection (value filters, the right-click cluster filter, clearing a pick). */
  | { type: 'pdes/selection'; selection: PdesSelection }
  /** Removes unselected lines from the detail views, or keeps them dimmed. */
  | { type: 'pdes/keepUnselected'; keep: boolean }
  /** A stroke in a detail view or a lasso in a similarity view (data coordinates): its entities become the selection. */
  | { type: 'pdes/pick'; pick: PdesPick }
  /** The segment whose communication matrix to show (null: the busiest). */
  | { type: 'pdes/matrixSegment'; segment: number | null }
  /** The detail views' plot width in pixels (lines are decimated to it). */
  | { type: 'pdes/width'; width: number }
  /** The segment whose router values the dragonfly view shows (null: the whole run). */
  | { type: 'pdes/networkSegment'; segment: number | null }
  /** What the dragonfly view's topology component reported (drill-down; hover and select are the view's own). */
  | { type: 'pdes/topology'; event: TopologyViewEvent }
  /** Opens an LP type's forward or reverse event handler in the editor. */
  | { type: 'pdes/openHandler'; lpType: string; which: 'forward' | 'reverse' };
