/**
 * The memory panel's protocol (MemAxes, seed 002): what the memory-samples system answers and the
 * panel draws — the machine with the samples' load on it, the code and variable bars, parallel
 * histograms, metric strips and cluster markers — and the selections the panel asks for. The
 * webview gets level-of-detail data only (bins, loads per resource, top lists), never the samples.
 */
import type { MachineDepth } from '../analysis/topology/machine';
import type { Topology, TopologyValues } from '../analysis/topology/topology';
import type { TopologyViewData } from './topology-protocol';
import type { CommonViewToHost, ErrorMessage } from './webview-protocol';

/** Scores of one depth of the machine (MemAxes §7.1, seed digest §2.1.3). */
export type MemoryScore = 'latency' | 'imbalance' | 'cv' | 'maxOverMean' | 'gini';

/** A metric: a score at a depth, e.g. NUMA imbalance, L2 latency. */
export interface MemoryMetricSpec {
  score: MemoryScore;
  depth: MachineDepth;
}

/** The metrics the strips and clustering offer, in menu order. */
export const MEMORY_SCORES: readonly MemoryScore[] = ['imbalance', 'latency', 'cv', 'maxOverMean', 'gini'];
export const MEMORY_DEPTHS: readonly MachineDepth[] = ['pu', 'l1', 'l2', 'l3', 'numa'];
export const MEMORY_SCORE_LABELS: Record<MemoryScore, string> = {
  latency: 'latency',
  imbalance: 'imbalance',
  cv: 'CV',
  maxOverMean: 'max/mean',
  gini: 'Gini',
};
export const MEMORY_DEPTH_LABELS: Record<MachineDepth, string> = {
  pu: 'PU',
  l1: 'L1',
  l2: 'L2',
  l3: 'L3',
  numa: 'NUMA',
};

/** `NUMA imbalance`, `L2 latency`. */
export function memoryMetricLabel(m: MemoryMetricSpec): string {
  return `${MEMORY_DEPTH_LABELS[m.depth]} ${MEMORY_SCORE_LABELS[m.score]}`;
}

/** The serving levels, indexed as in every `level…` array (0 unresolved, 1 L1 … 4 RAM). */
export const MEMORY_LEVELS = ['unresolved', 'L1', 'L2', 'L3', 'RAM'] as const;

/** Cost of a line or variable with its split over serving levels (indexed by {@link MEMORY_LEVELS}). */
export interface MemoryCostRow {
  cycles: number;
  samples: number;
  levelSamples: number[];
  levelCycles: number[];
}

export interface MemoryLineRow extends MemoryCostRow {
  file: string;
  line: number;
}

export interface MemoryVariableRow extends MemoryCostRow {
  name: string;
}

/** One histogram of the parallel histograms: counts of the visible samples per bin, and of the selection. */
export interface MemoryHistogram {
  attribute: string;
  kind: 'quantitative' | 'qualitative';
  /** The bins' value range; for string attributes [0, categories − 1]. NaN when the attribute has no values. */
  min: number;
  max: number;
  /** One bin per category, for string attributes. */
  categories?: string[];
  visible: Float64Array;
  selected: Float64Array | null;
}

/** Scores of one depth over the focus (the selection, or every visible sample). */
export interface MemoryDepthRow {
  depth: MachineDepth;
  resources: number;
  /** L_d: mean cycles per access over resources with samples (NaN when none has). */
  latency: number;
  imbalance: number;
  cv: number;
  maxOverMean: number;
  gini: number;
  /** The resource farthest from the mean (null when all are equal), the busiest and the idlest. */
  extreme: { node: number; label: string } | null;
  busiest: { node: number; label: string } | null;
  idlest: { node: number; label: string } | null;
}

/** Samples, cycles and transactions of a set of samples on the machine (per node; links: per NUMA link). */
export interface MemoryLoad {
  samples: TopologyValues;
  cycles: TopologyValues;
  transactions: TopologyValues;
  /** Samples whose CPU is not in the topology: kept in every count, on no resource. */
  unplaced: { samples: number; cycles: number };
}

/** Everything the panel draws for the current scope. */
export interface MemoryPanelData {
  title: string;
  /** `memaxes` or `perf-mem`, and the file's dialect. */
  format: string;
  dialect: string;
  samplesPath: string;
  topologyPath: string | null;
  /** Every sample of the dataset. */
  all: { samples: number; cycles: number };
  /** The visible samples (hidden ones left out), and the selection among them (null: none). */
  visible: { samples: number; cycles: number };
  selected: { samples: number; cycles: number } | null;
  /** The focus (selection, or all visible samples): its share of all cycles of the dataset. */
  focusShare: number;
  /** The machine (null without a topology: the code and variable views still work). */
  topology: Topology | null;
  /**
   * The machine as the shared topology view draws it (null without a topology): the focus's
   * cycles, samples and cycles per access on the resources (node measures 0–2, colour by cycles
   * or samples normalised per depth, YlOrRd), transactions on the links to the parents (width),
   * and the resources a selection was made on marked selected.
   */
  machineView: TopologyViewData | null;
  /** The visible samples' load, and the selection's apart (MemAxes keeps `tot` and `sel` apart). */
  total: MemoryLoad | null;
  selection: MemoryLoad | null;
  depths: MemoryDepthRow[];
  /** The top files (2) with their top lines (8 each), and the top variables (8), by cycles over the focus. */
  files: { file: string; cycles: number; samples: number; lines: MemoryLineRow[] }[];
  variables: MemoryVariableRow[];
  histograms: MemoryHistogram[];
  warnings: string[];
}

/** What a selection is made of, in the view it was made in. */
export type MemorySelectionTarget =
  /** Brushed ranges on one or more axes of the parallel histograms (inclusive; category ids for string axes): samples inside every range. */
  | { kind: 'ranges'; ranges: { attribute: string; min: number; max: number }[] }
  /** A resource or PU of the machine (the samples attributed to it). */
  | { kind: 'node'; node: number }
  | { kind: 'line'; file: string; line: number }
  | { kind: 'file'; file: string }
  | { kind: 'variable'; name: string }
  /** A cluster marker: a node of the clustering along `attribute` with `metric`. */
  | { kind: 'cluster'; attribute: string; metric: MemoryMetricSpec; node: number };

export type MemorySelectionMode = 'new' | 'append' | 'filter';

/** Scope actions: clear the selection, hide the selected or the unselected samples, show every sample again. */
export type MemoryScopeAction = 'clear' | 'hideSelected' | 'hideUnselected' | 'showAll';

/** A metric strip along an attribute (MemAxes §7.2). */
export interface MemoryStripData {
  attribute: string;
  metric: MemoryMetricSpec;
  min: number;
  max: number;
  windows: { lo: number; hi: number; samples: number; value: number }[];
  /** The window with the highest value; -1 when all are empty. */
  peak: number;
}

/**
 * Cluster markers along an attribute (MemAxes §7.3): the `count` clusters left before the last
 * `count` − 1 merges of the tree (a cut of the merge hierarchy), in attribute order.
 */
export interface MemoryClusterData {
  attribute: string;
  metric: MemoryMetricSpec;
  count: number;
  /** Leaves of the tree (windows of w samples every Δ); no more clusters than that. */
  leaves: number;
  clusters: {
    /** The tree node (what selecting the cluster names). */
    node: number;
    /** Its samples are positions [start, end) of the samples sorted by the attribute (neighbours overlap by w − Δ). */
    start: number;
    end: number;
    min: number;
    max: number;
    value: number;
    /** The cluster's load on the machine (its mini sunburst); null without a topology. */
    cycles: Float64Array | null;
    samplesPerNode: Float64Array | null;
    /** The same load for the shared topology view (the marker's mini sunburst); null without a topology. */
    machineView: TopologyViewData | null;
  }[];
}

// ── Messages ─────────────────────────────────────────────────────────────────────────────────────

/** Host → view: the panel's data (after opening, and after every selection). */
export interface MemoryDataMessage {
  type: 'memory/data';
  data: MemoryPanelData;
  /** Where the selection was made (the view keeps its brushes when it made it itself). */
  origin: 'open' | 'panel' | 'editor';
}

export type MemoryHostToView =
  | MemoryDataMessage
  | { type: 'memory/strip'; requestId: number; strip: MemoryStripData }
  | { type: 'memory/clusters'; requestId: number; clusters: MemoryClusterData }
  | { type: 'memory/unavailable'; message: string }
  | ErrorMessage;

export type MemoryViewToHost =
  | CommonViewToHost
  | { type: 'memory/select'; mode: MemorySelectionMode; target: MemorySelectionTarget }
  | { type: 'memory/scope'; action: MemoryScopeAction }
  | { type: 'memory/strip'; requestId: number; attribute: string; metric: MemoryMetricSpec; windows: number }
  | { type: 'memory/clusters'; requestId: number; attribute: string; metric: MemoryMetricSpec; count: number }
  | { type: 'memory/openSource'; file: string; line: number };

/** Every message type the host sends the memory view: the view accepts only these. */
export const MEMORY_HOST_TO_VIEW_TYPES: Readonly<Record<MemoryHostToView['type'], true>> = {
  'memory/data': true,
  'memory/strip': true,
  'memory/clusters': true,
  'memory/unavailable': true,
  error: true,
};
