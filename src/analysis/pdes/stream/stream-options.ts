import { AFF_DEFAULTS } from '../../series/aff-change-detector';
import { SERIES_SEED } from '../../series/k-means';
import type { CommunicationWeight } from '../model/communication';
import { METRIC, type EntityLevel } from '../model/metrics';

/**
 * Every setting of the live PDES monitor (issue #20, thesis ch. 6), with the seed's defaults. The
 * extension exposes them as `hpcLens.pdes.stream.<group>.<name>` (e.g.
 * `hpcLens.pdes.stream.clustering.k`); top-level ones as `hpcLens.pdes.stream.<name>`.
 */
export interface PdesStreamOptions {
  /** Entity level the behaviour analyses run on (default `kp`; PE when a run samples no KPs). */
  level: EntityLevel;
  /** Metric of the top behaviour view (default secondary rollbacks, thesis §6.5.1). */
  topMetric: string;
  /** Metric of the bottom behaviour view (default network sends). */
  bottomMetric: string;
  /** Ticks a tick waits for: PEs that must have moved past it (0: every PE seen so far). */
  expectedPes: number;
  /**
   * When several ticks complete at once, run the progressive analyses (clustering, projections,
   * causality) on the newest only and count the others as skipped (default true; thesis §6.2: keep
   * up by analysing the latest data). Change points still see every tick; raw data is never dropped.
   */
  skipStaleTicks: boolean;
  /** Ticks the behaviour views show (their sliding window; default 100). */
  window: number;
  /** Seed of every random choice (batch sampling, k-means++), varied per tick. */
  seed: number;
  changePoints: ChangePointOptions;
  clustering: ClusteringOptions;
  projection: ProjectionOptions;
  causality: CausalityOptions;
  matrix: MatrixOptions;
}

export interface ChangePointOptions {
  /** The view whose metric the detection follows (default `top`). */
  view: 'top' | 'bottom';
  /** AFF significance level α (default 0.01). */
  alpha: number;
  /** AFF burn-in length (default 10). */
  burnIn: number;
  /** AFF step size η (default 0.01). */
  eta: number;
  /** λ bounds (default [0.6, 1]). */
  lambdaMin: number;
  lambdaMax: number;
  /** Incremental PCA forgetting factor (default 1: none). */
  forgettingFactor: number;
  /** Keep PC1's sign by its cosine with the previous PC1 (default true). */
  signCoherence: boolean;
  /** Entities a change point's **Show** selects: the largest |PC1 loadings| (default 10). */
  topEntities: number;
}

export interface ClusteringOptions {
  /** Metric clustered (default: the top view's). */
  metric: string | null;
  /** Clusters (default 3). */
  k: number;
  /** Latency budget (default 50 ms). */
  budgetMs: number;
  /** Entities drawn from each previous cluster per mini-batch (default 10). */
  batchPerCluster: number;
  /** Most recent time points clustered (0: the whole series, the seed's). */
  maxTimePoints: number;
}

export interface ProjectionOptions {
  /** Latency budget per view (default 10 ms). */
  budgetMs: number;
  /** Entities per incremental-PCA batch (default 10). */
  batchSize: number;
  /** Most recent time points projected (default 1,000; 0 for all). */
  maxTimePoints: number;
  /** Align each layout to the previous one (default true). */
  procrustes: boolean;
}

export interface CausalityOptions {
  /** Metrics of the causality table (those the entity level samples; the top metric is always in). */
  metrics: string[];
  /** Latency budget (default 100 ms). */
  budgetMs: number;
  /** Time points of the first fit (default 10). */
  initialPoints: number;
  /** Largest VAR lag tried by AIC (default 5). */
  maxLag: number;
  /** Rows below this p-value are flagged (default 0.05). */
  pThreshold: number;
  /** Steps after the shock at which IR and VD are read (default 1). */
  horizon: number;
  /** Which way the table reads by default (default `from`: what drives the top metric). */
  direction: 'from' | 'to';
}

export interface MatrixOptions {
  /** Granularity of the live, base and diff matrices (default `pe`; `kp` for every KP). */
  granularity: 'pe' | 'kp';
  /**
   * How PE cells combine their KPs' counts: `mean` (the reference code's: summed over the target
   * PE's KPs, averaged over the source PE's KPs) or `sum`.
   */
  aggregation: 'mean' | 'sum';
  /** Cell value: events sent, received, their sum or their maximum (default sends). */
  weight: CommunicationWeight;
}

export const PDES_STREAM_DEFAULTS: PdesStreamOptions = {
  level: 'kp',
  topMetric: METRIC.secondaryRollbacks,
  bottomMetric: METRIC.networkSends,
  expectedPes: 0,
  skipStaleTicks: true,
  window: 100,
  seed: SERIES_SEED,
  changePoints: {
    view: 'top',
    ...AFF_DEFAULTS,
    forgettingFactor: 1,
    signCoherence: true,
    topEntities: 10,
  },
  clustering: { metric: null, k: 3, budgetMs: 50, batchPerCluster: 10, maxTimePoints: 0 },
  projection: { budgetMs: 10, batchSize: 10, maxTimePoints: 1000, procrustes: true },
  causality: {
    // The reference server's default set (seed digest §2.5.4); RbTime is PE-only.
    metrics: [
      METRIC.networkRecvs,
      METRIC.networkSends,
      METRIC.eventsProcessed,
      METRIC.eventsRolledBack,
      METRIC.secondaryRollbacks,
      'rollback_time',
      METRIC.totalRollbacks,
      METRIC.primaryRollbacks,
    ],
    budgetMs: 100,
    initialPoints: 10,
    maxLag: 5,
    pThreshold: 0.05,
    horizon: 1,
    direction: 'from',
  },
  matrix: { granularity: 'pe', aggregation: 'mean', weight: 'sends' },
};

/** Options with some groups or fields given. */
export type PdesStreamSettings = Partial<
  Omit<PdesStreamOptions, 'changePoints' | 'clustering' | 'projection' | 'causality' | 'matrix'>
> & {
  changePoints?: Partial<ChangePointOptions>;
  clustering?: Partial<ClusteringOptions>;
  projection?: Partial<ProjectionOptions>;
  causality?: Partial<CausalityOptions>;
  matrix?: Partial<MatrixOptions>;
};

/** Fills in defaults and checks ranges; a bad value is a RangeError naming the setting. */
export function resolvePdesStreamOptions(settings: PdesStreamSettings = {}): PdesStreamOptions {
  const d = PDES_STREAM_DEFAULTS;
  const o: PdesStreamOptions = {
    ...d,
    ...definedOnly(settings),
    changePoints: { ...d.changePoints, ...definedOnly(settings.changePoints) },
    clustering: { ...d.clustering, ...definedOnly(settings.clustering) },
    projection: { ...d.projection, ...definedOnly(settings.projection) },
    causality: { ...d.causality, ...definedOnly(settings.causality) },
    matrix: { ...d.matrix, ...definedOnly(settings.matrix) },
  };
  const check = (ok: boolean, name: string, value: unknown) => {
    if (!ok) throw new RangeError(`hpcLens.pdes.stream.${name}: ${JSON.stringify(value)} is out of range`);
  };
  check(['pe', 'kp', 'lp'].includes(o.level), 'level', o.level);
  check(Number.isInteger(o.expectedPes) && o.expectedPes >= 0, 'expectedPes', o.expectedPes);
  check(Number.isInteger(o.window) && o.window >= 2, 'window', o.window);
  const cp = o.changePoints;
  check(cp.alpha > 0 && cp.alpha < 1, 'changePoints.alpha', cp.alpha);
  check(Number.isInteger(cp.burnIn) && cp.burnIn >= 2, 'changePoints.burnIn', cp.burnIn);
  check(cp.eta >= 0, 'changePoints.eta', cp.eta);
  check(cp.lambdaMin > 0 && cp.lambdaMin <= cp.lambdaMax && cp.lambdaMax <= 1, 'changePoints.lambdaMin', cp.lambdaMin);
  check(cp.forgettingFactor > 0 && cp.forgettingFactor <= 1, 'changePoints.forgettingFactor', cp.forgettingFactor);
  check(Number.isInteger(cp.topEntities) && cp.topEntities >= 1, 'changePoints.topEntities', cp.topEntities);
  check(Number.isInteger(o.clustering.k) && o.clustering.k >= 1, 'clustering.k', o.clustering.k);
  check(o.clustering.budgetMs >= 0, 'clustering.budgetMs', o.clustering.budgetMs);
  check(o.clustering.batchPerCluster >= 1, 'clustering.batchPerCluster', o.clustering.batchPerCluster);
  check(o.clustering.maxTimePoints >= 0, 'clustering.maxTimePoints', o.clustering.maxTimePoints);
  check(o.projection.budgetMs >= 0, 'projection.budgetMs', o.projection.budgetMs);
  check(o.projection.batchSize >= 1, 'projection.batchSize', o.projection.batchSize);
  check(o.projection.maxTimePoints >= 0, 'projection.maxTimePoints', o.projection.maxTimePoints);
  const c = o.causality;
  check(c.budgetMs >= 0, 'causality.budgetMs', c.budgetMs);
  check(Number.isInteger(c.initialPoints) && c.initialPoints >= 3, 'causality.initialPoints', c.initialPoints);
  check(Number.isInteger(c.maxLag) && c.maxLag >= 1, 'causality.maxLag', c.maxLag);
  check(c.pThreshold > 0 && c.pThreshold < 1, 'causality.pThreshold', c.pThreshold);
  check(Number.isInteger(c.horizon) && c.horizon >= 0, 'causality.horizon', c.horizon);
  check(['sends', 'receives', 'sum', 'max'].includes(o.matrix.weight), 'matrix.weight', o.matrix.weight);
  return o;
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  // Groups (plain objects) merge separately; null is a value (e.g. "the top view's metric").
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && (v === null || typeof v !== 'object' || Array.isArray(v))),
  ) as Partial<T>;
}
