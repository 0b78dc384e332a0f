/**
 * Every parameter of the automated trace analysis (Wei & Mellor-Crummey, "Automated analysis of
 * time series data to understand parallel program behaviors", ICS '18), with the paper's values as
 * defaults. Each one becomes the VS Code setting `hpcLens.traceAnalysis.<name>`; values the paper
 * leaves open (marked "our choice") are documented where they are used.
 */
export interface TraceAnalysisOptions {
  /** Sampling period V in seconds; null estimates it as the median gap between consecutive samples. */
  samplingPeriod: number | null;
  /** Algorithm 1: an iteration identifier with at least this many children is accepted (paper: 5). */
  childNumAcc: number;
  /** Algorithm 1: an identifier with one child lasting at least this many sampling periods is accepted (paper: 5). */
  childDurAcc: number;
  /** A loop whose rejected iterations cover more than this share of it becomes a profile node (paper: 0.5). */
  rejectedShare: number;
  /** Algorithm 2: differences up to this many sampling periods per compared gap are noise (paper: 2). */
  gapTolerance: number;
  /** Algorithm 3: clusters closer than this difference ratio are always merged (paper: 0.02). */
  ratioMin: number;
  /** Algorithm 3: merging goes on while the closest pair is under this fraction of the farthest (paper: 0.25). */
  ratioRel: number;
  /** Algorithm 3: at most this many clusters; 0 = max(2, ⌈log₂ M⌉) for M instances (paper: O(log₂ M)). */
  maxClusters: number;
  /** Run one merge pass over the final clusters, so identical instances merge even when M ≤ K (our choice). */
  finalMergePass: boolean;
  /** Difference of a subtree against an absent one: 'recursive' forgives the tolerance per gap (paper), 'flat' once. */
  dummyMode: 'recursive' | 'flat';
  /** A call path is significant when its loss exceeds this share of the run time (paper: 0.001). */
  significanceRatio: number;
  /** …and explains more than this share of the loss summed over its subtree (paper: 0.7). */
  originDepthRatio: number;
  /** Table 2: a segment's imb(S), Σimb or Σwait is High from this share of the run time on (our choice: 0.01). */
  highShare: number;
  /** Table 2: imb(S) is High only when it is also at least this share of the segment's Σimb (our choice: 0.25). */
  imbSRelative: number;
  /** Synchronization routines (Table 1, avg − min); `PMPI_` matches as `MPI_`, a trailing `*` is a prefix. */
  syncNames: string[];
  /** Waiting routines (Table 1, wait = avg); same matching as syncNames. */
  waitNames: string[];
  /** Name prefixes of runtime frames (MPI, OpenMP, threads): the outermost one is a leaf of the analysis. */
  runtimePrefixes: string[];
  /** Regular expressions (case-insensitive) for explicit iteration markers of instrumented traces. */
  iterationMarkers: string[];
  /** For instrumented traces (no sampling): the time that plays V in the acceptance test, in seconds (our choice: 1 ms). */
  instrumentedResolution: number;
  /** Where the frames that stayed on the stack between two samples come from (see tct.ts). */
  lca: 'auto' | 'slices' | 'prefix';
  /** A control-flow file (format in control-flow.ts); empty = source order. */
  cfgFile: string;
  /** Cluster threads with different entry points (main thread, workers, GPU streams) separately (our choice: on). */
  separateRoles: boolean;
  /** Report a child that alone carries ≥ originDepthRatio of a significant node's loss instead of the node (our choice: off). */
  drillToOrigin: boolean;
}

export const DEFAULT_SYNC_NAMES = [
  'MPI_Barrier',
  'MPI_Allreduce',
  'MPI_Alltoall',
  'MPI_Alltoallv',
  'MPI_Alltoallw',
  'MPI_Allgather',
  'MPI_Allgatherv',
  'MPI_Reduce_scatter*',
  'GOMP_barrier*',
  '__kmpc_barrier',
  '__kmp_join_barrier',
  '__kmp_fork_barrier',
  'omp_barrier*',
  'pthread_barrier_wait',
];

export const DEFAULT_WAIT_NAMES = [
  'MPI_Send',
  'MPI_Ssend',
  'MPI_Recv',
  'MPI_Sendrecv',
  'MPI_Sendrecv_replace',
  'MPI_Wait*',
  'MPI_Probe',
  'MPI_Bcast',
  'MPI_Reduce',
  'MPI_Gather*',
  'MPI_Scatter*',
  'omp_set_lock',
  'omp_set_nest_lock',
  'pthread_mutex_lock',
  'pthread_cond_wait',
  'cudaDeviceSynchronize',
  'cudaStreamSynchronize',
  'cudaEventSynchronize',
];

export const DEFAULT_TRACE_ANALYSIS_OPTIONS: Readonly<TraceAnalysisOptions> = Object.freeze({
  samplingPeriod: null,
  childNumAcc: 5,
  childDurAcc: 5,
  rejectedShare: 0.5,
  gapTolerance: 2,
  ratioMin: 0.02,
  ratioRel: 0.25,
  maxClusters: 0,
  finalMergePass: true,
  dummyMode: 'recursive',
  significanceRatio: 0.001,
  originDepthRatio: 0.7,
  highShare: 0.01,
  imbSRelative: 0.25,
  syncNames: DEFAULT_SYNC_NAMES,
  waitNames: DEFAULT_WAIT_NAMES,
  runtimePrefixes: ['MPI_', 'PMPI_', 'GOMP_', '__kmpc_', '__kmp_', 'omp_', 'pthread_'],
  iterationMarkers: ['^ProfilerStep#\\d+$', '(^|[^a-z])(step|iteration|iter)([^a-z]|$)'],
  instrumentedResolution: 0.001,
  lca: 'auto',
  cfgFile: '',
  separateRoles: true,
  drillToOrigin: false,
});

/** Bad options or input the analysis cannot work with; the message says what and why. */
export class TraceAnalysisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceAnalysisError';
  }
}

/** Defaults overlaid with `partial`, checked: a value out of range is a TraceAnalysisError naming the option. */
export function resolveOptions(partial: Partial<TraceAnalysisOptions> = {}): TraceAnalysisOptions {
  const o: TraceAnalysisOptions = { ...DEFAULT_TRACE_ANALYSIS_OPTIONS, ...stripUndefined(partial) };
  const fail = (name: keyof TraceAnalysisOptions, why: string) => {
    throw new TraceAnalysisError(`option ${name} = ${JSON.stringify(o[name])}: ${why}`);
  };
  if (o.samplingPeriod !== null && !(Number.isFinite(o.samplingPeriod) && o.samplingPeriod > 0))
    fail('samplingPeriod', 'the sampling period must be a positive number of seconds (or null to estimate it)');
  const nonNegative: (keyof TraceAnalysisOptions)[] = [
    'childNumAcc',
    'childDurAcc',
    'gapTolerance',
    'ratioMin',
    'ratioRel',
    'maxClusters',
    'significanceRatio',
    'originDepthRatio',
    'highShare',
    'imbSRelative',
  ];
  for (const k of nonNegative)
    if (!(typeof o[k] === 'number' && Number.isFinite(o[k]) && o[k] >= 0)) fail(k, 'must be a number ≥ 0');
  if (!(o.rejectedShare >= 0 && o.rejectedShare <= 1)) fail('rejectedShare', 'must be in [0, 1]');
  if (!(o.instrumentedResolution > 0)) fail('instrumentedResolution', 'must be a positive number of seconds');
  if (o.maxClusters !== 0 && o.maxClusters < 2) fail('maxClusters', 'must be 0 (automatic) or at least 2');
  if (!['recursive', 'flat'].includes(o.dummyMode)) fail('dummyMode', "must be 'recursive' or 'flat'");
  if (!['auto', 'slices', 'prefix'].includes(o.lca)) fail('lca', "must be 'auto', 'slices' or 'prefix'");
  for (const k of ['syncNames', 'waitNames', 'runtimePrefixes', 'iterationMarkers'] as const)
    if (!Array.isArray(o[k]) || o[k].some(s => typeof s !== 'string')) fail(k, 'must be a list of strings');
  // iterationMarkers are compiled (RE2, linear time) where they are used: constructs.ts markerPatterns.
  return o;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** K of Algorithm 3 for M instances: the option, or max(2, ⌈log₂ M⌉) (K < 2 would never end the recursion). */
export function clusterLimit(options: Pick<TraceAnalysisOptions, 'maxClusters'>, instances: number): number {
  if (options.maxClusters >= 2) return options.maxClusters;
  return Math.max(2, Math.ceil(Math.log2(Math.max(1, instances))));
}
