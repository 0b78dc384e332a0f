/**
 * The data the Trace Analysis panel, the timeline and the editor get of a trace analysis (built by
 * ../view-data.ts in the worker holding the analysis). Plain types only, so the shared protocol can
 * name them. Lanes are named as the timeline names them; times are ns from the trace origin unless
 * a field says seconds.
 */

/**
 * One merge of Algorithm 3: the two clusters' diffRatio, the rule that allowed it (below Ratio_min,
 * closest pair below Ratio_rel × the farthest pair, or more than K clusters), and the farthest pair then.
 */
export interface ClusterMerge {
  ratio: number;
  rule: 'ratioMin' | 'ratioRel' | 'maxClusters';
  farthest: number;
}

/** A set of lane names in few characters: the numbers that vary as ranges (`{8–15}`), and the whole (`rank 8–15`). */
export interface LaneSetLabel {
  /** `{8–15}`, `{0–7, 16–23}`; a single lane's own name; `rank 0, rank 5, … (+6)` when names share no pattern. */
  short: string;
  /** The names with the varying number as ranges: `rank 8–15 · thread 0`, `rank {0–7, 16} · thread 0`. */
  text: string;
}

export interface ClusterView {
  index: number;
  role: number;
  roleName: string;
  size: number;
  label: LaneSetLabel;
  representative: { lane: number; track: number; name: string };
  /** diffRatio of the representative to the cluster's average, and of the cluster to its nearest neighbour (null when alone). */
  representativeDistance: number;
  nearestDistance: number | null;
  /** Band height weight log₂(size + 1) (paper §3.4). */
  weight: number;
  /** The widest merge that formed the cluster (null for one lane). */
  widestMerge: ClusterMerge | null;
}

export interface LoopView {
  index: number;
  role: number;
  name: string;
  file: string | null;
  line: number | null;
  implicit: boolean;
  accepted: boolean;
  iterations: number;
  ids: number;
  acceptedIds: number;
  rejectedIds: number;
  instances: number;
  profileInstances: number;
  lanes: number;
  /** Mean share of the run per lane. */
  share: number;
  /** Iteration clusters of one instance on a representative lane, run-length encoded (identifiers + 1). */
  strip: { cluster: number; from: number; to: number }[];
  /** Distinct iteration clusters in the strip. */
  iterationClusters: number;
  /** Iteration durations over every lane and instance (ns); NaN when none was accepted. */
  meanIteration: number;
  minIteration: number;
  maxIteration: number;
}

export interface PathView {
  index: number;
  role: number;
  path: string[];
  name: string;
  file: string | null;
  line: number | null;
  /** First call-tree node of the path's construct (-1 for iterations and implicit loops). */
  node: number;
  class: 'computation' | 'wait' | 'sync';
  iteration: number | null;
  /** Seconds. */
  imbalance: number;
  wait: number;
  /** Table 1's loss: what removing the imbalance and the waiting would save (s). */
  saving: number;
  min: number;
  avg: number;
  max: number;
  byImbalance: boolean;
  byWait: boolean;
  maxLane: string | null;
  minLane: string | null;
  maxCluster: number;
  minCluster: number;
  startNs: number | null;
  endNs: number | null;
  /** The segment the path belongs to. */
  segment: number;
}

export interface SegmentView {
  index: number;
  role: number;
  roleName: string;
  startNs: number | null;
  endNs: number | null;
  /** Table 2 row (0 = no significant loss). */
  row: number;
  diagnosis: string;
  /** Seconds. */
  imbS: number;
  waitS: number;
  sumImb: number;
  sumWait: number;
  projectedSaving: number;
  paths: number[];
  sync: number | null;
}

/** A cluster band of the timeline: the representative's lane first. */
export interface ClusterBand {
  cluster: number;
  label: string;
  tracks: number[];
  weight: number;
}

export interface TraceAnalysisView {
  /** V in seconds, null for instrumented traces. */
  samplingPeriod: number | null;
  /** Seconds. */
  runTime: number;
  lanes: number;
  events: number;
  skipped: { name: string; reason: string }[];
  notes: string[];
  roles: { name: string; lanes: number; clusters: number[] }[];
  clusters: ClusterView[];
  loops: LoopView[];
  paths: PathView[];
  segments: SegmentView[];
  /** Σ projected savings of every segment (s), the what-if with all of them fixed. */
  totalSaving: number;
  /** The timeline's cluster bands (lanes grouped and ordered by cluster). */
  bands: ClusterBand[];
  /** The call depth of the deepest significant path (the timeline's automatic depth), −1 without any. */
  depth: number;
  /** Per role whose lanes all fell into one cluster: why, in the paper's terms (shown with the clusters). */
  oneCluster: { role: number; text: string }[];
}

/**
 * Lanes × iterations of one loop for the panel's iteration view, at most `maxRows` × `maxColumns`
 * cells. Rows are the lanes in cluster order (representatives first), binned within each cluster
 * when there are more lanes than rows; columns are a lane's k-th iteration of the loop (identifiers
 * repeat when the loop runs several times per lane), binned when there are more than `maxColumns`.
 * A cell holds the mean iteration duration of its lanes and iterations and their most common
 * iteration cluster.
 */
export interface IterationMatrix {
  loop: number;
  rows: {
    /** Lane indices [from, to) in laneOrder. */
    from: number;
    to: number;
    cluster: number;
    label: string;
    tracks: number[];
  }[];
  columns: {
    /** Occurrences [from, to) (a lane's k-th iteration). */
    from: number;
    to: number;
    /** Iteration identifier (+1, as users count) of the first occurrence on the first lane that has it. */
    iteration: number;
    /** Earliest start and latest end over the column's lanes (ns). */
    start: number;
    end: number;
    meanDuration: number;
    /** Iteration cluster on the first row's representative lane, −1 when it lacks the column. */
    cluster: number;
  }[];
  /** rows × columns, row-major: mean duration (ns), NaN where no lane has that iteration. */
  duration: Float64Array;
  /** rows × columns: the most common iteration cluster, −1 where empty. */
  cluster: Int32Array;
  /** Duration range over the cells, for the colour scale. */
  min: number;
  max: number;
  /** Occurrences per lane at most (columns before binning). */
  occurrences: number;
}
