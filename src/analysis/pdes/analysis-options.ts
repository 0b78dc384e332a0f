import { TWED_DEFAULTS, type DistanceMeasure } from '../series/distances';
import { SERIES_SEED } from '../series/k-means';
import type { ClusteringAlgorithm, ProjectionMethod } from '../series/series-analysis';
import type { CommunicationWeight } from './model/communication';
import { ENTITY_LEVELS, METRIC, type EntityLevel } from './model/metrics';
import { SAMPLING_MODES, type SamplingMode } from './model/sample-set';

/**
 * Every parameter of the offline PDES analyses (thesis ch. 5, Li et al. 2019 §4; seed digest
 * §2.1–2.4, §3.1) with the seed's defaults. Each key is a setting `hpcLens.pdes.<key>`, flat so the
 * settings map one to one; `range` and `changePoints` are panel state (the overview's brush and the
 * user's edited segment bounds), not settings.
 */
export interface PdesAnalysisOptions {
  /** Entities the behaviour views show: PEs, KPs or LPs (default KP, as in every case study). */
  level: EntityLevel;
  /** The time axis, i.e. which sampling mode's samples: GVT rounds (default), virtual time or real time. */
  timeAxis: SamplingMode;
  /**
   * Metrics of the top and bottom detail views and of their similarity views (default secondary
   * then primary rollbacks, the seed's Fig 5.7). At LP level, which has no rollback counts, metrics
   * the level lacks become events rolled back and events processed.
   */
  detailMetrics: [string, string];
  /**
   * Metrics clustered together, each min–max scaled to [0, 1] and concatenated (thesis §5.3.2);
   * empty (the default) means the top detail view's metric.
   */
  clusterMetrics: string[];
  /** k-means (best of `restarts` k-means++ starts, Hartigan transfers), PAM or complete linkage. */
  clustering: ClusteringAlgorithm;
  /** k (3 in every case study). */
  clusters: number;
  /** k-means starts (10, the seed's). */
  restarts: number;
  /** Distance between series for PAM, complete linkage and both projections. */
  distance: DistanceMeasure;
  /** DTW's Sakoe–Chiba half-width in samples; null means 10 % of the series length. */
  dtwWindow: number | null;
  /** TWED stiffness ν (Marteau 2009: small) and deletion penalty λ. */
  twedNu: number;
  twedLambda: number;
  /** Dimension reduction of the similarity views: classical MDS (global) or Barnes–Hut t-SNE (local). */
  projection: ProjectionMethod;
  /** t-SNE perplexity (30, the seed's; 5–50 is usual) and iterations. */
  perplexity: number;
  tsneIterations: number;
  /** Metrics E-Divisive runs on, all entities' series together; empty means the cluster metrics. */
  changePointMetrics: string[];
  /** Significance level of E-Divisive's permutation test (0.05) and its permutations (199, `ecp`'s). */
  significance: number;
  permutations: number;
  /** Smallest segment in samples; null means max(3, ⌊t/20⌋) (`ecp`'s 30 is too long for tens of GVT rounds). */
  minSegmentSize: number | null;
  /** What the overview plots across entities at each sample: max, mean (the seed's example) or std. */
  overviewStatistic: OverviewStatistic;
  /** What a ribbon shows between two PEs: events sent, received, their sum or their maximum. */
  communicationWeight: CommunicationWeight;
  /** Inner and outer ring metrics of the circular views (primary and secondary rollbacks, [T5] §5.4). */
  innerRingMetric: string;
  outerRingMetric: string;
  /** Rings as circular bar charts coloured by cluster, or as circular heatmaps. */
  ringEncoding: RingEncoding;
  /** Ribbons below this many events per sample are hidden (0: none). */
  ribbonThreshold: number;
  /** Seed of every random choice (k-means starts, permutations, t-SNE start). */
  seed: number;
  /** Panel state: the samples [from, to) the overview's brush selects; null for all. */
  range: TickRange | null;
  /** Panel state: segment starts the user set by hand (sample indices); null for the detected change points. */
  changePoints: number[] | null;
}

/** Samples [from, to) of the time axis. */
export interface TickRange {
  from: number;
  to: number;
}

export type OverviewStatistic = 'max' | 'mean' | 'std';
export type RingEncoding = 'bars' | 'heatmap';

export const PDES_ANALYSIS_DEFAULTS: Readonly<PdesAnalysisOptions> = Object.freeze({
  level: 'kp',
  timeAxis: 'gvt',
  detailMetrics: [METRIC.secondaryRollbacks, METRIC.primaryRollbacks],
  clusterMetrics: [],
  clustering: 'k-means',
  clusters: 3,
  restarts: 10,
  distance: 'euclidean',
  dtwWindow: null,
  twedNu: TWED_DEFAULTS.nu,
  twedLambda: TWED_DEFAULTS.lambda,
  projection: 'mds',
  perplexity: 30,
  tsneIterations: 1000,
  changePointMetrics: [],
  significance: 0.05,
  permutations: 199,
  minSegmentSize: null,
  overviewStatistic: 'mean',
  communicationWeight: 'sends',
  innerRingMetric: METRIC.primaryRollbacks,
  outerRingMetric: METRIC.secondaryRollbacks,
  ringEncoding: 'bars',
  ribbonThreshold: 0,
  seed: SERIES_SEED,
  range: null,
  changePoints: null,
} satisfies PdesAnalysisOptions) as Readonly<PdesAnalysisOptions>;

const CLUSTERING: readonly ClusteringAlgorithm[] = ['k-means', 'pam', 'complete-linkage'];
const DISTANCES: readonly DistanceMeasure[] = ['euclidean', 'dtw', 'twed'];
const PROJECTIONS: readonly ProjectionMethod[] = ['mds', 'tsne'];
const STATISTICS: readonly OverviewStatistic[] = ['max', 'mean', 'std'];
const WEIGHTS: readonly CommunicationWeight[] = ['sends', 'receives', 'sum', 'max'];
const ENCODINGS: readonly RingEncoding[] = ['bars', 'heatmap'];

/**
 * The defaults overridden by `given` (settings as read, possibly partial), checked: a value of the
 * wrong kind is a RangeError naming the setting and what it accepts. Metric ids are checked later,
 * against the level's metrics (see behaviour.ts).
 */
export function resolvePdesAnalysisOptions(given: Partial<PdesAnalysisOptions> = {}): PdesAnalysisOptions {
  const o: PdesAnalysisOptions = { ...PDES_ANALYSIS_DEFAULTS, ...definedOnly(given) };
  oneOf('level', o.level, ENTITY_LEVELS);
  oneOf('timeAxis', o.timeAxis, SAMPLING_MODES);
  oneOf('clustering', o.clustering, CLUSTERING);
  oneOf('distance', o.distance, DISTANCES);
  oneOf('projection', o.projection, PROJECTIONS);
  oneOf('overviewStatistic', o.overviewStatistic, STATISTICS);
  oneOf('communicationWeight', o.communicationWeight, WEIGHTS);
  oneOf('ringEncoding', o.ringEncoding, ENCODINGS);
  if (!Array.isArray(o.detailMetrics) || o.detailMetrics.length !== 2 || !o.detailMetrics.every(isName))
    fail('detailMetrics', o.detailMetrics, 'two metric ids (top and bottom detail views)');
  for (const key of ['clusterMetrics', 'changePointMetrics'] as const)
    if (!Array.isArray(o[key]) || !o[key].every(isName)) fail(key, o[key], 'a list of metric ids');
  for (const key of ['innerRingMetric', 'outerRingMetric'] as const)
    if (!isName(o[key])) fail(key, o[key], 'a metric id');
  wholeAtLeast('clusters', o.clusters, 1);
  wholeAtLeast('restarts', o.restarts, 1);
  wholeAtLeast('tsneIterations', o.tsneIterations, 1);
  wholeAtLeast('permutations', o.permutations, 0);
  if (o.dtwWindow !== null) wholeAtLeast('dtwWindow', o.dtwWindow, 0);
  if (o.minSegmentSize !== null) wholeAtLeast('minSegmentSize', o.minSegmentSize, 2);
  if (!(o.twedNu >= 0)) fail('twedNu', o.twedNu, 'a number ≥ 0');
  if (!(o.twedLambda >= 0)) fail('twedLambda', o.twedLambda, 'a number ≥ 0');
  if (!(o.perplexity > 0)) fail('perplexity', o.perplexity, 'a number > 0 (5–50 is usual)');
  if (!(o.significance > 0 && o.significance < 1)) fail('significance', o.significance, 'a level in (0, 1)');
  if (!(o.ribbonThreshold >= 0)) fail('ribbonThreshold', o.ribbonThreshold, 'a number ≥ 0');
  if (!Number.isInteger(o.seed)) fail('seed', o.seed, 'a whole number');
  if (
    o.range !== null &&
    !(Number.isInteger(o.range.from) && Number.isInteger(o.range.to) && o.range.from < o.range.to)
  )
    fail('range', o.range, 'whole sample indices { from, to } with from < to');
  if (o.changePoints !== null && (!Array.isArray(o.changePoints) || !o.changePoints.every(Number.isInteger)))
    fail('changePoints', o.changePoints, 'a list of sample indices');
  return {
    ...o,
    detailMetrics: [o.detailMetrics[0], o.detailMetrics[1]],
    clusterMetrics: [...o.clusterMetrics],
    changePointMetrics: [...o.changePointMetrics],
    changePoints: o.changePoints && [...o.changePoints],
  };
}

function definedOnly<T extends object>(given: T): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function isName(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function oneOf<T>(key: keyof PdesAnalysisOptions, value: T, allowed: readonly T[]): void {
  if (!allowed.includes(value)) fail(key, value, allowed.join(', '));
}

function wholeAtLeast(key: keyof PdesAnalysisOptions, value: number, min: number): void {
  if (!(Number.isInteger(value) && value >= min)) fail(key, value, `a whole number ≥ ${min}`);
}

function fail(key: keyof PdesAnalysisOptions, value: unknown, expected: string): never {
  throw new RangeError(`hpcLens.pdes.${key} is ${JSON.stringify(value)}; expected ${expected}`);
}
