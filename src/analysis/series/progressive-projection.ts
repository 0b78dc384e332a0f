import { seededRandom } from '../stats/seeded-random';
import { IncrementalPca } from './incremental-pca';
import { SERIES_SEED } from './k-means';
import { stratifiedOrder } from './progressive-k-means';
import { systemClock, TimeBudget, type Clock } from './time-budget';

export interface ProgressiveProjectionOptions {
  /** Latency budget of the fit in milliseconds (default 10, the reference code's). */
  budgetMs?: number;
  /** Entities per incremental-PCA batch (default 10, the reference code's first batch). */
  batchSize?: number;
  /** Previous cluster labels: batches then take entities from every cluster in turn. */
  labels?: ArrayLike<number> | null;
  /**
   * Keep time for projecting every entity inside the budget (default true); false gives the whole
   * budget to the fit, as the seed's Table 6.1 counts entities processed.
   */
  reserveProjection?: boolean;
  /** Seed of the visiting order (default SERIES_SEED). */
  seed?: number;
  clock?: Clock;
}

export interface ProgressiveProjection {
  /** n points, interleaved x (PC1), y (PC2). */
  coordinates: Float64Array;
  /** Entities fed to the incremental PCA within the budget. */
  processed: number;
  total: number;
  batches: number;
  /** Singular values of the two components (0 when the data have fewer directions). */
  singularValues: [number, number];
  fitMs: number;
  projectMs: number;
}

/**
 * Progressive dimensionality reduction of time series (thesis §6.3.3): the entities are the
 * observations and their series the features; a fresh incremental PCA (Ross et al. 2008) is fed
 * batches of entities — one from each previous cluster in turn — until the budget is spent or all
 * entities are used, then every entity is projected onto PC1 and PC2. Align the result to the
 * previous tick's layout with {@link procrustes2d}. Rows are the entities' series, all one length.
 */
export function progressivePca(
  rows: readonly ArrayLike<number>[],
  options: ProgressiveProjectionOptions = {},
): ProgressiveProjection {
  const n = rows.length;
  if (n < 2) throw new RangeError(`a projection needs at least 2 entities, got ${n}`);
  const dims = rows[0]!.length;
  if (dims < 1) throw new RangeError('a projection needs at least one time point');
  for (const r of rows) if (r.length !== dims) throw new RangeError('progressive PCA: rows of different lengths');
  const clock = options.clock ?? systemClock;
  const budget = new TimeBudget(options.budgetMs ?? 10, clock);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 10));
  const order = stratifiedOrder(n, options.labels ?? null, seededRandom(options.seed ?? SERIES_SEED));
  const pca = new IncrementalPca(dims, { components: 2 });
  const reserve = options.reserveProjection ?? true;
  let processed = 0,
    batches = 0,
    perEntityMs = 0;
  const batch: ArrayLike<number>[] = [];
  budget.startLaps();
  while (processed < n) {
    batch.length = 0;
    for (let b = processed; b < Math.min(n, processed + batchSize); b++) batch.push(rows[order[b]!]!);
    pca.partialFit(batch);
    processed += batch.length;
    batches++;
    // Projecting one entity costs about 2·dims operations; a batch update with r = k + m + 1 stacked
    // rows about (r²/2 + 2r)·dims (Gram matrix and components), so the lap prices a projection.
    const r = 2 + batch.length + 1;
    perEntityMs = Math.max(perEntityMs, (2 * budget.lap()) / ((r * r) / 2 + 2 * r));
    if (!budget.allowsAnother(reserve ? perEntityMs * n : 0)) break;
  }
  const fitMs = budget.elapsed();
  const projectStart = clock();
  const coordinates = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) for (let c = 0; c < pca.rank; c++) coordinates[2 * i + c] = pca.project(rows[i]!, c);
  return {
    coordinates,
    processed,
    total: n,
    batches,
    singularValues: [pca.singularValues[0]!, pca.components > 1 ? pca.singularValues[1]! : 0],
    fitMs,
    projectMs: clock() - projectStart,
  };
}
