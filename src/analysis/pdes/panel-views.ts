import type { TopologyDrillDown } from '../../shared/topology-protocol';
import { dragonflyShapeFromConfig, type DragonflyShape } from '../topology/dragonfly';
import { dragonflyViewData } from './dragonfly-view';
import { networkViewData, type PdesNetworkView } from './network-view';
import type { PdesAnalysisOptions, TickRange } from './analysis-options';
import {
  handlerActivity,
  type HandlerActivity,
  type HandlerScope,
  type PdesHandlerMap,
  type PdesHandlerSource,
} from './handlers';
import type { HandlerSourceLocation } from './handler-sources';
import { lpTypeTable } from './lp-types';
import { weighted, type CommunicationWeight } from './model/communication';
import type { EntityLevel, PdesMetric } from './model/metrics';
import type { LpPlacement } from './model/placement';
import type { PdesRun } from './model/pdes-run';
import type { PdesAnalysis, PdesAnalysisMetrics, PdesChangePoints } from './pdes-analysis';
import { pdesReport, type PdesReport } from './pdes-report';
import { traceScope, type PdesSegment, type SegmentCommunication, type TraceScope } from './segments';
import { selectEntities, selectionMask, type PdesSelection, type Point2 } from './selection';
import {
  circularViewData,
  detailStrokeSelection,
  detailViewData,
  overviewData,
  similarityLassoSelection,
  similarityViewData,
  type CircularViewData,
  type DetailViewData,
  type OverviewData,
  type SimilarityViewData,
} from './view-data';

/**
 * Everything the PDES panel draws for one state (thesis §5.3, Fig 5.7): the run's summary, the
 * overview, two detail views, two similarity views, the per-segment circular views, a segment's
 * communication matrix and the handler activity of the selection — assembled from the view-data
 * functions over one analysis and one selection, so every view shows the same entities ("a filter
 * in any view removes the entity from all views", seed digest §3.1.5). A stroke or lasso (`pick`)
 * is resolved here against the selection it was drawn on and becomes the selection's picked
 * entities. Pure: the PDES system caches the analysis and the segment communication around it.
 */

/** What a PDES run is, for the Datasets view, the panel's header and the editor (the system's `opened`). */
export interface PdesRunSummary {
  name: string;
  path: string;
  /** The model's program (`phold`, `model-net-synthetic-dragonfly-all`), else the folder's name. */
  program: string;
  entities: { pe: number; kp: number; lp: number };
  totals: PdesReport['totals'] | null;
  samples: NonNullable<PdesReport['samples']>;
  eventTrace: { events: number; scope: TraceScope; sameProcessShare: number | null } | null;
  links: PdesReport['links'] | null;
  dragonfly: DragonflyShape | null;
  /** LP types with their LP counts and configured handlers; `found` says whether the handler's file was found. */
  lpTypes: { name: string; lps: number; handler: PdesHandlerSource | null; found: boolean }[];
  placement: LpPlacement;
  warnings: string[];
  /** Malformed `hpcLens.pdes.handlers` entries, one sentence each. */
  handlerProblems: string[];
}

export async function pdesRunSummary(
  run: PdesRun,
  handlers: PdesHandlerMap,
  sources: ReadonlyMap<string, HandlerSourceLocation>,
  handlerProblems: string[] = [],
): Promise<PdesRunSummary> {
  const report = await pdesReport(run);
  const types = lpTypeTable(run);
  const lps = new Int32Array(types.names.length);
  for (const t of types.typeOf) if (t >= 0) lps[t]!++;
  const trace = run.eventTrace;
  return {
    name: run.name,
    path: run.path,
    program: run.command?.program.split(/[\\/]/).pop() || run.name,
    entities: report.entities,
    totals: report.totals ?? null,
    samples: report.samples ?? {},
    eventTrace: trace
      ? { events: trace.count, scope: traceScope(run), sameProcessShare: report.eventTrace?.sameProcessShare ?? null }
      : null,
    links: report.links ?? null,
    dragonfly: run.codesConfig ? dragonflyShapeFromConfig(run.codesConfig) : null,
    lpTypes: types.names
      .map((name, t) => ({
        name,
        lps: lps[t]!,
        handler: handlers[name] ?? null,
        found: sources.get(name)?.found ?? false,
      }))
      .filter(t => t.lps > 0),
    placement: run.placement,
    warnings: [...run.warnings],
    handlerProblems,
  };
}

/** A stroke in a detail view or a lasso in a similarity view, in the view's data coordinates. */
export interface PdesPick {
  view: 'detail' | 'similarity';
  index: 0 | 1;
  points: Point2[];
}

/** The panel's state as the views need it. */
export interface PdesViewState {
  selection?: PdesSelection;
  /** Keep unselected lines (dimmed) in the detail views instead of removing them. */
  keepUnselected?: boolean;
  /** Pixels of a detail view's plot (lines are decimated to it). */
  width?: number;
  handlers?: PdesHandlerMap;
  pick?: PdesPick;
  /** Segment whose communication matrix to show (default: the one with the most traffic). */
  matrixSegment?: number;
  /** Segment whose router values the dragonfly view shows (null or absent: the whole run). */
  networkSegment?: number | null;
  /** The dragonfly view's drill-down (groups expanded or folded). */
  networkDrill?: TopologyDrillDown;
  /** Marks the dragonfly view holds (its reported capacity). */
  networkMaxNodes?: number;
}

/** A segment's communication among the selected entities, as a matrix view draws it. */
export interface MatrixViewData {
  segment: number;
  label: string;
  /** The rows' level: the behaviour level, or PEs when more entities are selected than a matrix can show. */
  level: EntityLevel;
  weight: CommunicationWeight;
  scope: TraceScope;
  /** Rows (= columns) in order: behaviour entity indices (PE indices at PE level), grouped by PE. */
  rows: Int32Array;
  rowLabels: string[];
  /** Cluster per row (−1 for PE rows aggregated from several clusters). */
  rowClusters: Int32Array;
  /** PE blocks along the axes. */
  groups: { label: string; first: number; count: number }[];
  /** Row-major weighted events per sample of the segment. */
  values: Float64Array;
  max: number;
}

/** What the handler CodeLenses show for a selection: events per LP type of its LPs, and which entities it holds. */
export interface SelectionActivity {
  rows: HandlerActivity[];
  /** Selected entities of `level`, of `total`. */
  selected: number;
  total: number;
  level: EntityLevel;
}

/** The handler activity of the selected entities of the scope's level. */
export function selectionActivity(
  run: PdesRun,
  scope: HandlerScope,
  selected: Int32Array,
  handlers?: PdesHandlerMap,
): SelectionActivity {
  return {
    rows: handlerActivity(run, scope, selected, handlers),
    selected: selected.length,
    total: scope.behaviour.count,
    level: scope.behaviour.level,
  };
}

/** Rows above which the matrix aggregates the selection to PEs (a cell would be under a pixel). */
export const MATRIX_MAX_ROWS = 400;

export interface PdesViews {
  options: PdesAnalysisOptions;
  level: EntityLevel;
  axis: PdesAnalysisOptions['timeAxis'];
  timeLabel: string;
  range: TickRange;
  /** Samples on the time axis in all. */
  ticks: number;
  /** Each sample's time (a copy: the overview's brush and segment edits map positions to sample indices). */
  time: Float64Array;
  /** The level's metrics (what the metric pickers offer). */
  levelMetrics: readonly PdesMetric[];
  metrics: PdesAnalysisMetrics;
  clustering: { algorithm: string; measure: string; k: number; sizes: number[] };
  changePoints: PdesChangePoints;
  segments: PdesSegment[];
  /** Every entity of the level: id, label and PE. */
  entities: { ids: Int32Array; labels: string[]; pe: Int32Array };
  /** The selection the views were computed with (a pick resolved into `entities`), and its members. */
  selection: PdesSelection;
  selected: Int32Array;
  /** Why a pick changed nothing (it crossed or enclosed no selected entity); null otherwise. */
  pickNote: string | null;
  overview: OverviewData;
  details: [DetailViewData, DetailViewData];
  similarity: [SimilarityViewData, SimilarityViewData];
  circular: CircularViewData;
  matrix: MatrixViewData | null;
  handlers: SelectionActivity;
  /** The dragonfly network (null when the run names no dragonfly). */
  network: PdesNetworkView | null;
  notes: string[];
}

/** The entities a selection keeps (cluster filter, picks, value filters) over the analysed range. */
export function selectedEntities(analysis: PdesAnalysis, selection: PdesSelection): Int32Array {
  return selectEntities(analysis.behaviour, analysis.range, analysis.clustering.labels, selection);
}

/** The selection after a pick: the picked entities among those selected before (the pick's candidates). */
export function applyPick(
  analysis: PdesAnalysis,
  selection: PdesSelection,
  pick: PdesPick,
): { selection: PdesSelection; note: string | null } {
  const before = selectedEntities(analysis, selection);
  const picked =
    pick.view === 'detail'
      ? detailStrokeSelection(analysis, pick.index, before, pick.points)
      : similarityLassoSelection(analysis, pick.index, before, pick.points);
  if (!picked.length)
    return {
      selection,
      note:
        pick.view === 'detail'
          ? 'The stroke crossed no selected line: the selection is unchanged.'
          : 'The lasso enclosed no selected point: the selection is unchanged.',
    };
  return { selection: { ...selection, entities: Array.from(picked) }, note: null };
}

export function pdesViews(
  run: PdesRun,
  analysis: PdesAnalysis,
  state: PdesViewState,
  communication: SegmentCommunication | null,
): PdesViews {
  let selection = state.selection ?? {};
  let pickNote: string | null = null;
  if (state.pick) ({ selection, note: pickNote } = applyPick(analysis, selection, state.pick));
  const selected = selectedEntities(analysis, selection);
  const b = analysis.behaviour;
  const width = state.width ?? 1000;
  const detail = (view: 0 | 1) =>
    detailViewData(analysis, view, selected, { width, keepUnselected: state.keepUnselected ?? false });
  const circular = circularViewData(run, analysis, selected, communication);
  // A CODES config whose dragonfly cannot be built leaves its view out, not the panel.
  const notes = [...analysis.notes];
  let network: PdesNetworkView | null = null;
  try {
    network = networkOf(run, analysis, selected, state);
  } catch (e) {
    notes.push(`The dragonfly view is left out: ${(e as Error).message}.`);
  }
  return {
    options: analysis.options,
    level: b.level,
    axis: b.axis,
    timeLabel: b.timeLabel,
    range: analysis.range,
    ticks: b.ticks,
    time: Float64Array.from(b.time),
    levelMetrics: b.metrics,
    metrics: analysis.metrics,
    clustering: {
      algorithm: analysis.clustering.algorithm,
      measure: analysis.clustering.measure,
      k: analysis.clustering.k,
      sizes: Array.from(analysis.clustering.sizes),
    },
    changePoints: analysis.changePoints,
    segments: analysis.segments,
    // Copies: the answer's buffers are transferred out of the worker, and the behaviour keeps its own.
    entities: {
      ids: Int32Array.from(b.ids),
      labels: Array.from({ length: b.count }, (_, i) => b.label(i)),
      pe: Int32Array.from(b.pe),
    },
    selection,
    selected: Int32Array.from(selected),
    pickNote,
    overview: overviewData(analysis, selected, { width }),
    details: [detail(0), detail(1)],
    similarity: [similarityViewData(analysis, 0, selected), similarityViewData(analysis, 1, selected)],
    circular,
    matrix: communication ? matrixViewData(run, analysis, selected, communication, state.matrixSegment) : null,
    handlers: selectionActivity(run, analysis, selected, state.handlers),
    network,
    notes,
  };
}

/** The dragonfly view of a CODES run, or null when the run names no dragonfly. */
function networkOf(
  run: PdesRun,
  analysis: PdesAnalysis,
  selected: Int32Array,
  state: PdesViewState,
): PdesNetworkView | null {
  const d = dragonflyViewData(run, analysis, selected);
  return d
    ? networkViewData(d, {
        segment: state.networkSegment ?? null,
        ...(state.networkDrill ? { drill: state.networkDrill } : {}),
        ...(state.networkMaxNodes ? { maxNodes: state.networkMaxNodes } : {}),
      })
    : null;
}

/**
 * A segment's communication matrix ([T6] Fig 6.5 (e), the matrix plots [P] §6 asks for next to the
 * circular views): rows are the selected entities grouped by PE (or their PEs when more than
 * {@link MATRIX_MAX_ROWS} are selected), cells the weighted events per sample between them.
 */
export function matrixViewData(
  run: PdesRun,
  analysis: PdesAnalysis,
  selected: Int32Array,
  communication: SegmentCommunication,
  segment?: number,
): MatrixViewData | null {
  const segments = communication.segments;
  if (!segments.length) return null;
  const b = analysis.behaviour;
  const mask = selectionMask(b.count, selected);
  const total = (s: number) => {
    const p = segments[s]!;
    let sum = 0;
    for (let i = 0; i < p.counts.length; i++) if (mask[p.src[i]!] && mask[p.dst[i]!]) sum += p.counts[i]!;
    return sum;
  };
  let s = segment !== undefined && segment >= 0 && segment < segments.length ? segment : -1;
  if (s < 0) {
    s = 0;
    let best = -1;
    segments.forEach((_, k) => {
      const t = total(k);
      if (t > best) [best, s] = [t, k];
    });
  }
  const pes = run.entities.count('pe');
  const toPes = b.level !== 'pe' && selected.length > MATRIX_MAX_ROWS && pes > 0;
  // Rows grouped by PE, then by index; entities on no PE come last.
  const order = Array.from(selected).sort((x, y) => peKey(b.pe[x]!) - peKey(b.pe[y]!) || x - y);
  const rows = toPes ? Int32Array.from(new Set(order.map(e => b.pe[e]!).filter(p => p >= 0))) : Int32Array.from(order);
  const n = rows.length;
  const rowOf = new Int32Array(toPes ? pes : b.count).fill(-1);
  rows.forEach((r, i) => (rowOf[r] = i));
  const counts = new Float64Array(n * n);
  const p = segments[s]!;
  for (let i = 0; i < p.counts.length; i++) {
    const a = p.src[i]!,
      c = p.dst[i]!;
    if (!mask[a] || !mask[c]) continue;
    const ra = toPes ? (b.pe[a]! >= 0 ? rowOf[b.pe[a]!]! : -1) : rowOf[a]!;
    const rc = toPes ? (b.pe[c]! >= 0 ? rowOf[b.pe[c]!]! : -1) : rowOf[c]!;
    if (ra >= 0 && rc >= 0) counts[ra * n + rc]! += p.counts[i]!;
  }
  const weight = analysis.options.communicationWeight;
  const values = weighted({ level: toPes ? 'pe' : b.level, size: n, counts, events: 0 }, weight);
  let max = 0;
  for (const v of values) if (v > max) max = v;
  const peOfRow = (i: number) => (toPes ? rows[i]! : b.pe[rows[i]!]!);
  const groups: MatrixViewData['groups'] = [];
  for (let i = 0; i < n; i++) {
    const pe = peOfRow(i);
    const last = groups[groups.length - 1];
    if (last && peOfRow(last.first) === pe) last.count++;
    else groups.push({ label: pe >= 0 ? run.entities.label('pe', pe) : 'no PE', first: i, count: 1 });
  }
  const labels = analysis.clustering.labels;
  return {
    segment: s,
    label: analysis.segments[s]?.label ?? String(s),
    level: toPes ? 'pe' : b.level,
    weight,
    scope: communication.scope,
    rows,
    rowLabels: Array.from(rows, r => (toPes ? run.entities.label('pe', r) : b.label(r))),
    rowClusters: Int32Array.from(rows, r => (toPes ? -1 : labels[r]!)),
    groups,
    values,
    max,
  };
}

/** Sort key putting entities on no PE (−1) last. */
function peKey(pe: number): number {
  return pe >= 0 ? pe : Number.MAX_SAFE_INTEGER;
}
