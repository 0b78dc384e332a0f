/**
 * Messages between the extension host and the CallFlow (Sankey) webview, one union per direction,
 * and the level-of-detail data they carry. Types only: both sides import this file.
 */
import type { PackedCallflowData } from './callflow-packing';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

/** A node of the module-level Sankey: one module (or a re-entry of it further down the call paths). */
export interface CallflowNodeData {
  /** Stable id within one graph (used by links). */
  id: string;
  /** Display name, e.g. `libstencil.so`. */
  label: string;
  /** Module the node stands for. */
  module: string;
  /** Inclusive value of the module's entry calls on this path position (metric unit). */
  inclusive: number;
  /** Exclusive value: the cost spent in the module itself. */
  exclusive: number;
  /** Inclusive share of the profile total, 0..1. */
  share: number;
  /** Max/mean imbalance of the inclusive value across execution contexts (1 = balanced). */
  imbalance: number;
  /** Hottest entry function of this node, with its source location when known (click target). */
  entry: { name: string; file: string | null; line: number | null };
  /** What the node is: a module (or its re-entry), a split component by entry function or by caller, or a revealed function. */
  kind?: 'module' | 'entry' | 'caller' | 'function';
  /** Id of the unsplit supernode this node comes from (== id for modules): the key to split or unsplit by. */
  baseId?: string;
  /** 1 for the module's first entry on a path, 2 for a re-entry below it (a duplicate label), … */
  occurrence?: number;
  /** Per selected context, in `CallflowData.contexts` order; present up to `MAX_RAW_CONTEXT_VALUES` contexts. */
  contextValues?: { inclusive: number[]; exclusive: number[] };
  /** Fixed-bin per-context histograms (the mini histogram on the bar and the histogram view), sent only beyond `MAX_RAW_CONTEXT_VALUES` contexts: below it the views bin `contextValues`. */
  histogram?: { inclusive: BinnedHistogram; exclusive: BinnedHistogram };
  /** Entry functions (where control enters the node), largest inclusive first, with source locations (at most `MAX_ENTRIES_SENT`). */
  entries?: { name: string; inclusive: number; exclusive: number; file: string | null; line: number | null }[];
  /** How many entry functions the node has in all (more than `entries` holds when capped). */
  entryCount?: number;
  /** Calling nodes with the inclusive value each sends in, and its share of this node's inclusive value. */
  callers?: { id: string; value: number; share: number }[];
  /** Call-tree nodes and distinct functions the node covers. */
  memberCount?: number;
  functionCount?: number;
  /** Inclusive value of callees removed by the filter (counted in this node's gap below its outgoing links). */
  filteredInclusive?: number;
  /**
   * The functions the filter folded into this node, largest inclusive first (at most
   * `MAX_ENTRIES_SENT`; Σ inclusive of all of them = `filteredInclusive`): what "Show filtered
   * callees (k)" lists. `count` is the number of call-tree instances; the location is the heaviest's.
   * Re-add one with a repopulate request `{ node: <this id>, function: name }`.
   */
  filteredCallees?: { name: string; inclusive: number; count: number; file: string | null; line: number | null }[];
  /** How many functions were folded into this node in all (k of "Show filtered callees (k)"). */
  filteredCalleeCount?: number;
  /** Inclusive value flowing into callees the supernode guard left out (also in the gap below the links). */
  omittedInclusive?: number;
  /** A comparison's graph (`CallflowData.diff`): this node in both runs, means over each run's contexts. */
  diff?: CallflowNodeDiff;
}

/** A supernode in the two runs of a comparison (matched by id; 0 in the run without it). */
export interface CallflowNodeDiff {
  baseline: { inclusive: number; exclusive: number };
  compare: { inclusive: number; exclusive: number };
  status: 'matched' | 'added';
}

/**
 * The graph of a comparison (Compare Two Profiles): the compared run's super graph, each node with
 * its values in both runs; node colour is the change of inclusive value on a symmetric red (slower)
 * / green (faster) scale. Values are means over each run's contexts (how the comparison matches
 * runs with different rank counts).
 */
export interface CallflowDiffData {
  baselineTitle: string;
  compareTitle: string;
  baselineTotal: number;
  compareTotal: number;
  /** Contexts each run's values are means over. */
  baselineContexts: number;
  compareContexts: number;
  /** Supernodes only the baseline has (not drawn), and their inclusive value. */
  removed: { count: number; inclusive: number };
}

/** An equal-width histogram of per-context values. */
export interface BinnedHistogram {
  /** Value axis of the bins; `log` needs positive values (else the builder uses `linear`). */
  scale: 'linear' | 'log';
  min: number;
  max: number;
  /** bins + 1 ascending edges; the last bin includes its upper edge. */
  edges: number[];
  counts: number[];
  /** Bin of each selected context (omitted beyond `MAX_RAW_CONTEXT_VALUES` contexts). */
  binOf?: number[];
}

/** Beyond this many contexts, nodes carry histograms only, not one value per context. */
export const MAX_RAW_CONTEXT_VALUES = 4096;

/** Entry functions sent per node (the tooltip lists the largest; a split by entry still covers all). */
export const MAX_ENTRIES_SENT = 50;

export interface CallflowLinkData {
  source: string;
  target: string;
  /** Inclusive value that flows over the call edge(s) between the two modules. */
  value: number;
}

/**
 * The CallFlow filter applied to a graph and what it removed. The header reads "0.1 % filter:
 * `keptFunctions` of `totalFunctions` functions kept, `removedNodes` nodes folded into callers".
 */
export interface CallflowFilterData {
  threshold: number;
  by: 'inclusive' | 'exclusive';
  /** Call-tree nodes folded into their callers (after repopulation). */
  removedNodes: number;
  removedFunctions: number;
  /** Distinct functions in the profile, and those with at least one drawn instance. */
  totalFunctions?: number;
  keptFunctions?: number;
  /** Call-tree nodes in the profile, and those drawn again by repopulation. */
  totalNodes?: number;
  repopulatedNodes?: number;
}

/**
 * A repopulate request that re-added nothing: no such function (e.g. gone after a reload), no such
 * node, or not folded there (e.g. the threshold now draws it).
 */
export interface RepopulateMissData {
  node: string;
  function: string;
  reason: 'unknown-function' | 'unknown-node' | 'not-folded';
}

/**
 * The supernode guard: the super graph had `supernodes`, the message carries the heaviest `shown`,
 * each with a path from a root; `omitted` were left out and their `omittedInclusive` time shows in
 * their callers' bars (each node's `omittedInclusive`).
 */
export interface SupernodeGuardData {
  limit: number;
  supernodes: number;
  shown: number;
  omitted: number;
  omittedInclusive: number;
}

/** Level-of-detail Sankey data: aggregated by module, never the whole call tree. */
export interface CallflowData {
  title: string;
  metric: { name: string; unit: string };
  total: number;
  nodes: CallflowNodeData[];
  links: CallflowLinkData[];
  /** The contexts (ranks, threads) the values are computed over: a brushed subset or all of them. */
  contexts?: { count: number; indices: number[]; labels: string[] };
  /** Links the back-edge pass removed to keep the graph acyclic (normally none). */
  droppedLinks?: CallflowLinkData[];
  /**
   * The filter that was applied: share of the root inclusive value, by inclusive or exclusive value,
   * and what it removed (the header: see `filterHeadline`).
   */
  filter?: CallflowFilterData;
  /** Repopulate requests in effect (thesis §3.5), so the view can list them and "Hide again". */
  repopulate?: { node: string; function: string }[];
  /** Repopulate requests that re-added nothing, and why (also listed in `unmatched`). */
  unmatchedRepopulate?: RepopulateMissData[];
  /** Present when the super graph had more supernodes than the message carries (see `SupernodeGuardData`). */
  guard?: SupernodeGuardData;
  /** Split and reveal requests in effect, so the view can show and undo them. */
  splits?: { node: string; mode: 'entry' | 'caller'; entries?: string[] }[];
  reveal?: { node: string; function: string }[];
  /** Split or reveal requests that named no node of this graph (e.g. after a filter change). */
  unmatched?: string[];
  histogramBins?: number;
  /** Present when the graph is a comparison's (CallflowDiffData). */
  diff?: CallflowDiffData;
}

/** Host → CallFlow panel. */
export type CallflowHostToView =
  /**
   * The graph to draw, packed (callflow-packing.ts: its nodes and links as typed-array columns in
   * one transferred buffer); `callflow` carries the panel's state (mode, second graph — packed too —,
   * brush, selection). The view unpacks both into `CallflowData` and `CallflowViewState`.
   */
  | { type: 'graph'; data: PackedCallflowData; callflow?: CallflowWireState }
  /** Per-context values of every metric for one node (the correlation view's axes), on request. */
  | { type: 'callflow/nodeMetrics'; nodeId: string; metrics: NodeMetricValues[] }
  /** Mark these nodes (Reveal Current Line, a CodeLens click) and scroll the first into view; [] clears. */
  | { type: 'highlight'; nodeIds: string[] }
  | ErrorMessage;

/** CallFlow panel → host. */
export type CallflowViewToHost =
  | CommonViewToHost
  /** Open the source of one of a node's entry functions (index into its `entries`, -1 for `entry`); the host looks the location up in the data it sent. */
  | { type: 'openSource'; nodeId: string; entry: number }
  /** Open the source of a function folded into a node (index into its `filteredCallees`), looked up in the data sent. */
  | { type: 'openFilteredCallee'; nodeId: string; callee: number }
  | CallflowRequest;

/** What the CallFlow panel shows: one graph, brushed ranks over the rest, or two runs side by side. */
export type CallflowMode = 'single' | 'brush' | 'sideBySide';

/** The CallFlow panel's state, kept by the host per dataset and sent with the data. */
export interface CallflowViewState {
  mode: CallflowMode;
  /** The graph drawn below `data`: the ranks outside the brush (mode `brush`) or run B (`sideBySide`, `data` is run A). */
  second?: CallflowData;
  /** Captions of `data` and `second`. */
  labels?: [string, string];
  /** Brushed contexts (profile context indices), or null. */
  brushed: number[] | null;
  /** The selected node (histogram and correlation views follow it). */
  selected: string | null;
  /** The active dataset compares two runs, so side by side is available. */
  canCompare: boolean;
}

/** `CallflowViewState` as the `graph` message carries it: the second graph packed. */
export type CallflowWireState = Omit<CallflowViewState, 'second'> & { second?: PackedCallflowData };

/** One metric's per-context values for a node, in the graph's context order. */
export interface NodeMetricValues {
  name: string;
  unit: string;
  inclusive: number[];
  exclusive: number[];
}

/** Webview → host requests of the CallFlow panel; the host keeps the state and sends new data. */
export type CallflowRequest =
  | { type: 'callflow/split'; nodeId: string; mode: 'entry' | 'caller' }
  /** Undo the split of the supernode this node belongs to (its base id). */
  | { type: 'callflow/unsplit'; nodeId: string }
  /** Show one function of a node as its own node (CallFlow's reveal call site). */
  | { type: 'callflow/reveal'; nodeId: string; function: string }
  /** Select a node: the host highlights its entry functions' lines in the editor. */
  | { type: 'callflow/select'; nodeId: string | null }
  /** Ranks brushed in the histogram (profile context indices), null to clear. */
  | { type: 'callflow/brush'; contexts: number[] | null }
  | { type: 'callflow/mode'; mode: CallflowMode }
  | { type: 'callflow/requestNodeMetrics'; nodeId: string }
  /**
   * The CallFlow filter for this dataset (thesis §3.2.1): `threshold` a share of the total, 0 … 1
   * (0.001 = 0.1 %), applied by inclusive or exclusive value. Kept per dataset over the settings'.
   */
  | { type: 'callflow/filter'; threshold: number; by: 'inclusive' | 'exclusive' }
  /** Show a function folded into a node again, under that node (thesis §3.5; one of its `filteredCallees`). */
  | { type: 'callflow/repopulate'; nodeId: string; function: string }
  /** Hide again what repopulation showed: one function under one node, everything under a node, or all (no fields). */
  | { type: 'callflow/unrepopulate'; nodeId?: string; function?: string };

/** Every message type the host sends the CallFlow panel: the view accepts only these (a record, so a new type must be listed). */
export const CALLFLOW_HOST_TO_VIEW_TYPES: Readonly<Record<CallflowHostToView['type'], true>> = {
  graph: true,
  'callflow/nodeMetrics': true,
  highlight: true,
  error: true,
};
