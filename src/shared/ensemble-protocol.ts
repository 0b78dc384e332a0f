/**
 * Messages between the extension host and the Ensemble CallFlow webview (seed-callflow §4), types
 * only. The host keeps the panel's state per ensemble dataset and sends level-of-detail data: the
 * ensemble super graph (a few dozen supernodes with their run histograms) and, for the selected
 * supernode only, the linked views' data — never the union tree or the runs' profiles.
 *
 * Conventions: runs are referred to by their index in the ensemble (`EnsembleRunInfo.index`);
 * a value that does not exist in a run (the node is missing there) is `null`, never 0; "value" of a
 * run is that run's mean over its own ranks, so runs with different rank counts compare.
 */
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

import type { CallflowFilterData, RepopulateMissData, SupernodeGuardData } from './callflow-protocol';
import type { EnsembleDetailWire, PackedEnsembleGraph } from './ensemble-packing';

/** CallFlow §4.8: the ensemble's distributions; one target run over them; the difference of two runs. */
export type EnsembleMode = 'summary' | 'target' | 'diff';
export type EnsembleSide = 'inclusive' | 'exclusive';
/** Runtime-distribution view's y axis: call sites, runs or ranks per bin (§4.6). */
export type DistributionMode = 'callsite' | 'run' | 'rank';
export type CallSiteSort = 'mean' | 'max' | 'imbalance' | 'variance' | 'name';
/** Projection input: run parameters + runtimes (the research's), or distances between the runs' call trees. */
export type ProjectionInput = 'parameters' | 'structure';

/** Display options the user changes in the panel; the host keeps them per dataset. */
export interface EnsembleOptions {
  /** Run vector the gradient fill, text guides and linked views use (default inclusive). */
  gradientSide: EnsembleSide;
  /** Max over runs drawn as the node border (default exclusive, switchable). */
  borderSide: EnsembleSide;
  /** Histogram bins (default 20) or `auto` (Freedman–Diaconis). */
  bins: number | 'auto';
  textGuides: boolean;
  /** Run parameter the ordered ensemble follows (sparklines), or null. */
  orderBy: string | null;
  /** Box-plot outlier fence (default 1.5 × IQR). */
  iqrFactor: number;
  distributionMode: DistributionMode;
  callSiteSort: CallSiteSort;
  projectionInput: ProjectionInput;
  /** k-means clusters of the parameter projection (CallFlow §4.9: default 3, 2–8). */
  clusters: number;
}

export const DEFAULT_ENSEMBLE_OPTIONS: EnsembleOptions = {
  gradientSide: 'inclusive',
  borderSide: 'exclusive',
  bins: 20,
  textGuides: false,
  orderBy: null,
  iqrFactor: 1.5,
  distributionMode: 'run',
  callSiteSort: 'mean',
  projectionInput: 'parameters',
  clusters: 3,
};

/** The panel's state: sent with every graph, changed by requests. */
export interface EnsembleViewState {
  mode: EnsembleMode;
  /** Target run (mode `target`); the host picks the slowest run when the mode is entered without one. */
  target: number | null;
  /** The pair of mode `diff`: colour = compare − baseline (positive = slower = red). */
  diff: { baseline: number; compare: number } | null;
  /** The run subset every view is computed over (lasso, a text-guide bin), or null for all runs. */
  runs: number[] | null;
  /** Selected supernode id; the linked views follow it. */
  selected: string | null;
  options: EnsembleOptions;
}

export interface EnsembleRunInfo {
  index: number;
  name: string;
  /** Path relative to the ensemble folder. */
  path: string;
  format: string;
  ranks: number;
  parameters: Record<string, string | number>;
  /** Root inclusive value (mean over the run's ranks): the run's runtime. */
  total: number;
}

/** A histogram of a run vector over [min, max] of its present runs (bin 0 = lowest values). */
export interface EnsembleHistogram {
  min: number;
  max: number;
  counts: number[];
}

export interface EnsembleNodeData {
  id: string;
  label: string;
  module: string;
  kind: 'module' | 'entry' | 'caller' | 'function';
  /** Id of the unsplit supernode (the key to unsplit by). */
  baseId: string;
  occurrence: number;
  /** Maxima over the selected runs (each run's value = mean over its ranks); height = maxInclusive. */
  maxInclusive: number;
  maxExclusive: number;
  /** Minima over the selected runs where the node exists. */
  minInclusive: number;
  minExclusive: number;
  /** Runs holding the maxima (run indices). */
  maxInclusiveRun: number;
  maxExclusiveRun: number;
  /** Selected runs in which the node exists. */
  present: number;
  /**
   * Per selected run (in `EnsembleGraphData.selectedRuns` order), null where the node is missing.
   * Sent up to `MAX_RUN_VALUES` selected runs (the text guides list run names per bin from these).
   */
  runValues?: { inclusive: (number | null)[]; exclusive: (number | null)[] };
  /** Histograms over the selected runs where the node exists (the gradient fill), per side. */
  gradient: { inclusive: EnsembleHistogram; exclusive: EnsembleHistogram };
  /** Mode `target`: the target's values (null = missing in the target) and bins (-1 = missing). */
  target?: { inclusive: number | null; exclusive: number | null; binInclusive: number; binExclusive: number };
  /** Mode `diff`: compare − baseline of the exclusive (§2.10) and inclusive values; null when the node is missing in both runs. */
  diff?: { exclusive: number | null; inclusive: number | null; baseline: number | null; compare: number | null };
  /** Ordered ensemble: the node's value at each level of `order.levels` (mean of the runs at that level; null = missing at every run of it). */
  sparkline?: { inclusive: (number | null)[]; exclusive: (number | null)[]; outOfOrder: boolean };
  /** Entry functions (largest max-inclusive first), with source locations: click targets and the split list. */
  entries: { name: string; maxInclusive: number; file: string | null; line: number | null }[];
  entryCount: number;
  /** Calling nodes and the max-over-runs flow each sends in. */
  callers: { id: string; value: number }[];
  memberCount: number;
  functionCount: number;
  /**
   * Functions the filter folded into this node (at most `MAX_ENTRIES_SENT`, largest first): max over
   * the selected runs of their folded instances' inclusive value, instance count, heaviest location.
   * Re-added by a repopulate request `{ node: <this id>, function: name }` (same rule as the Sankey).
   */
  filteredCallees?: { name: string; maxInclusive: number; count: number; file: string | null; line: number | null }[];
  filteredCalleeCount?: number;
  /** Max over the selected runs of the flow into callees the supernode guard left out. */
  omittedInclusive?: number;
}

export interface EnsembleLinkData {
  source: string;
  target: string;
  /** Max over the selected runs of the flow (the ensemble edge; cannot conserve flow, hence tapered ends). */
  value: number;
  /** Mode `target`: the target run's flow on this edge (0 when absent). */
  targetValue?: number;
  /** Mode `diff`: compare − baseline flow. */
  diff?: number;
}

/** Above this many selected runs, nodes carry histograms only, not one value per run. */
export const MAX_RUN_VALUES = 4096;

export interface EnsembleGraphData {
  title: string;
  metric: { name: string; unit: string };
  /** Every run of the ensemble (the selection lists and the target dropdown). */
  runs: EnsembleRunInfo[];
  /** Run indices the graph is computed over (all, or the subset), ascending. */
  selectedRuns: number[];
  nodes: EnsembleNodeData[];
  links: EnsembleLinkData[];
  /** The largest bin count of any node's histogram, per side: one count → colour scale for every gradient (§4.2). */
  countScale: { inclusive: number; exclusive: number };
  /** Domains of the border colour: [min, max] over nodes of the max-over-runs value, per side. */
  borderDomain: { inclusive: [number, number]; exclusive: [number, number] };
  /** Mode `diff`: M = max |diff| over nodes (exclusive); the diverging scale is [−M, +M] (AT-9). */
  diffDomain?: number;
  /**
   * Ordered ensemble: the parameter, its levels in order, and the runs at each level; `unordered`:
   * the selected runs without the parameter (in no level, so in no sparkline), when there are any.
   */
  order?: { key: string; levels: (string | number)[]; runsAtLevel: number[][]; unordered?: number[] };
  /** Parameters the runs can be ordered by (keys with ≥ 2 distinct values). */
  orderKeys: string[];
  /** The filter applied (same rule and fields as `CallflowData.filter`; counts over the union call tree). */
  filter: CallflowFilterData;
  splits: { node: string; mode: 'entry' | 'caller' }[];
  /** Repopulate requests in effect and those that re-added nothing (as in `CallflowData`). */
  repopulate?: { node: string; function: string }[];
  unmatchedRepopulate?: RepopulateMissData[];
  /** As `CallflowData.guard` (values are maxima over the runs). */
  guard?: SupernodeGuardData;
  unmatched: string[];
  bins: number;
  /** Runs the ensemble left out (no such metric) and files that could not be read. */
  warnings: string[];
}

/** Five-number summary and more of a set of per-rank values (§4.4). */
export interface BoxStatistics {
  count: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  variance: number;
  /** (max − mean) / mean; max when the mean is 0. */
  imbalance: number;
  skewness: number | null;
  kurtosis: number | null;
  /** Whisker ends: the most extreme values within iqrFactor × IQR of the quartiles. */
  whiskerLow: number;
  whiskerHigh: number;
  /** Values beyond the fences with their run and rank (at most `MAX_OUTLIERS`, the most extreme first). */
  outliers: { value: number; run: number; rank: number }[];
  outlierCount: number;
}

export const MAX_OUTLIERS = 200;

/** One call site (function) inside the selected supernode: box plots across the ranks of all selected runs. */
export interface CallSiteBox {
  name: string;
  file: string | null;
  line: number | null;
  /** Over every rank of every selected run where the call site exists. */
  ensemble: BoxStatistics;
  /** Over the target run's ranks (mode `target`), null when missing in the target. */
  target?: BoxStatistics | null;
  /** Selected runs in which the call site exists. */
  present: number;
  /** Union call-tree nodes folded into this call site. */
  path: string;
}

/** A node of the supernode hierarchy (icicle, §2.9, §4.3), flat with parent links, parents first. */
export interface HierarchyNodeData {
  /** -1 for the roots (the supernode's entry call sites). */
  parent: number;
  name: string;
  file: string | null;
  line: number | null;
  kind: 'function' | 'loop' | 'statement' | 'other';
  /** Max over the selected runs (width of the bar = maxInclusive). */
  maxInclusive: number;
  maxExclusive: number;
  /** Histogram of the gradient side over selected runs where it exists. */
  gradient: EnsembleHistogram;
  present: number;
  /** Mode `target`: whether the call site exists in the target run (drawn unfilled when not) and its value. */
  inTarget?: boolean;
  targetValue?: number | null;
  /** Reveal target in the Sankey: the function name (reveal request) inside supernode `baseId`. */
  function: string;
}

export interface SupernodeHierarchyData {
  nodes: HierarchyNodeData[];
  /** Call sites left out for size (the lightest, by max inclusive), if any. */
  truncated: number;
  countScale: number;
}

/** Metric correlation (§4.5): one point per call site × selected run (mean over ranks), columnar. */
export interface MetricCorrelationData {
  callSites: string[];
  callSite: number[];
  run: number[];
  inclusive: number[];
  exclusive: number[];
  /** Points left out for size (the view says so). */
  truncated: number;
}

export interface DistributionHistogram {
  edges: number[];
  /** Ensemble counts per bin (selected runs). */
  counts: number[];
  /** Mode `target`: the target's counts on the same edges (union range), null outside target mode. */
  targetCounts: number[] | null;
  /** What one count is: call sites, runs or ranks. */
  unit: string;
}

/** Runtime distribution (§4.6) in its three y-axis modes, all sent so switching is instant. */
export interface RuntimeDistributionData {
  callsite: DistributionHistogram;
  run: DistributionHistogram;
  rank: DistributionHistogram;
}

/** Everything the linked views show for the selected supernode. */
export interface EnsembleDetailData {
  nodeId: string;
  label: string;
  side: EnsembleSide;
  hierarchy: SupernodeHierarchyData;
  callSites: CallSiteBox[];
  /** Call sites beyond those sent (the heaviest by the sort are sent). */
  callSitesTruncated: number;
  correlation: MetricCorrelationData;
  distribution: RuntimeDistributionData;
}

/** Parameter projection (§2.11, §4.7, experimental): one point per run. */
export interface EnsembleProjectionData {
  input: ProjectionInput;
  /** Features that went into the distances (parameters, runtimes), or a description of the structure distance. */
  features: string[];
  points: { run: number; x: number; y: number; cluster: number }[];
  k: number;
  /** Why there is no projection (fewer runs than clusters, no varying feature), else null. */
  unavailable: string | null;
}

/** The linked views below the Sankey; the panel shows two at a time, side by side. */
export type LinkedViewName = 'icicle' | 'boxes' | 'correlation' | 'distribution' | 'projection';

/** Host → view. */
export type EnsembleHostToView =
  /** The graph packed (`ensemble-packing.ts`): its buffer crosses beside the JSON, the page unpacks it. */
  | { type: 'ensemble/graph'; data: PackedEnsembleGraph; state: EnsembleViewState; projection: EnsembleProjectionData }
  /** The selected node's linked-view data (sent after the graph, and on selection), its correlation points packed. */
  | { type: 'ensemble/detail'; detail: EnsembleDetailWire | null; state: EnsembleViewState }
  | ErrorMessage;

/** View → host requests; the host updates its state and answers with new data. */
export type EnsembleRequest =
  | { type: 'ensemble/select'; nodeId: string | null }
  | { type: 'ensemble/mode'; mode: EnsembleMode }
  | { type: 'ensemble/target'; run: number }
  | { type: 'ensemble/diff'; baseline: number; compare: number }
  /** Restrict every view to these runs (lasso, text-guide bin), null for all. */
  | { type: 'ensemble/runs'; runs: number[] | null }
  | { type: 'ensemble/options'; options: Partial<EnsembleOptions> }
  | { type: 'ensemble/split'; nodeId: string; mode: 'entry' | 'caller' }
  | { type: 'ensemble/unsplit'; nodeId: string }
  /**
   * Show one function of a supernode as its own node (icicle click), with `via`, the functions on
   * its calling path inside the supernode (outermost first), so the chain entry → … → call site
   * appears as component nodes and edges (CallFlow's component path, paper §4.4.2).
   */
  | { type: 'ensemble/reveal'; nodeId: string; function: string; via?: string[] }
  /** The CallFlow filter (as `callflow/filter`: a share of the total by inclusive or exclusive value). */
  | { type: 'ensemble/filter'; threshold: number; by: 'inclusive' | 'exclusive' }
  /** Show a function folded into a node again (one of its `filteredCallees`), and hide it again. */
  | { type: 'ensemble/repopulate'; nodeId: string; function: string }
  | { type: 'ensemble/unrepopulate'; nodeId?: string; function?: string };

/**
 * What a click asks to open, by reference into the data the host sent: a supernode's entry function
 * (`entry` indexes its `entries`), a node of the selected supernode's hierarchy, or a call site of
 * its box plots. The host looks the file and line up itself, so a page can only open what it was shown.
 */
export type EnsembleSourceRef =
  | { kind: 'entry'; nodeId: string; entry: number }
  | { kind: 'hierarchy'; index: number }
  | { kind: 'callSite'; index: number }
  /** A function folded into a node: `index` into its `filteredCallees`. */
  | { kind: 'filteredCallee'; nodeId: string; index: number };

/** View → host. */
export type EnsembleViewToHost = CommonViewToHost | EnsembleRequest | { type: 'openSource'; ref: EnsembleSourceRef };

/** Every message type the host sends the ensemble view: the view accepts only these (a record, so a new type must be listed). */
export const ENSEMBLE_HOST_TO_VIEW_TYPES: Readonly<Record<EnsembleHostToView['type'], true>> = {
  'ensemble/graph': true,
  'ensemble/detail': true,
  error: true,
};
