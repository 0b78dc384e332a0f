import { GrowableFloat64 } from '../../model/growable';
import { AffChangeDetector } from '../../series/aff-change-detector';
import { OnlinePc1Reducer } from '../../series/online-reduction';
import { procrustes2d } from '../../series/procrustes';
import { progressiveCausality, type CausalityRow, type CausalityState } from '../../series/progressive-causality';
import { progressiveKMeans } from '../../series/progressive-k-means';
import { progressivePca } from '../../series/progressive-projection';
import { systemClock, type Clock } from '../../series/time-budget';
import { METRICS_BY_LEVEL, type EntityLevel } from '../model/metrics';
import type { SeriesTable } from '../model/sample-set';
import type { PdesStreamCache, StreamTotals } from './stream-cache';
import type { PdesStreamOptions } from './stream-options';

/** A detected change point, numbered ①②③… as the views label it. */
export interface StreamChangePoint {
  /** 1-based number shown in the behaviour, summary and diff views. */
  number: number;
  tick: number;
  /** GVT (or wall-clock seconds for real-time sampling) of the tick. */
  time: number;
  pValue: number;
  /** Entities with the largest |PC1 loading| when it was detected, largest first: what **Show** selects. */
  topEntities: number[];
}

/** The latest progressive clustering (of the clustering metric, the top view's by default). */
export interface StreamClustering {
  tick: number;
  metric: string;
  /** Cluster of each entity, stable from tick to tick (colours). */
  labels: Int32Array;
  k: number;
  /** Members per cluster ("Cluster-0 (16)"). */
  sizes: number[];
  /** Entities used by the mini-batches, of `total` (the "141/256 entities" badge). */
  processed: number;
  total: number;
  /** Entities whose colour changed since the previous clustering. */
  changed: number;
  ms: number;
}

/** The latest progressive projection of one behaviour view's metric. */
export interface StreamProjection {
  tick: number;
  metric: string;
  /** One point per entity, interleaved x, y (PC1, PC2), aligned to the previous layout. */
  coordinates: Float64Array;
  processed: number;
  total: number;
  /** Procrustes moved it onto the previous layout (false for the first layout). */
  aligned: boolean;
  /** The alignment reflected the fresh layout (a PCA sign flip undone). */
  reflected: boolean;
  ms: number;
}

/** The latest causality table, relative to the metric of interest (the top view's). */
export interface StreamCausality {
  tick: number;
  /** Metric ids of the table, in variable order. */
  metrics: string[];
  target: string;
  /** The contiguous recent time points the VAR was fitted on. */
  points: number;
  lag: number;
  /** What drives the target / what the target drives (see {@link CausalityRow}). */
  from: CausalityRow[];
  to: CausalityRow[];
  /** Metrics constant over the window (left out). */
  constant: string[];
  ms: number;
}

/** What one tick brought: plain data (typed arrays included) for the panel, the CLI and the cache. */
export interface PdesTickUpdate {
  tick: number;
  /** The tick's grouping key (GVT, round number). */
  key: number;
  /** GVT, or wall-clock seconds for real-time sampling. */
  time: number;
  /** Entities of the analysed level. */
  entities: number;
  level: EntityLevel;
  /** Everything ingested so far. */
  totals: StreamTotals;
  /** The progressive analyses ran on this tick (false when it was stale or could not run). */
  analysed: boolean;
  /** Stale ticks skipped so far. */
  skippedTicks: number;
  /** A change point detected at this tick. */
  changePoint: StreamChangePoint | null;
  /** The reduced value fed to the change detector and its state. */
  cpd: { value: number; pValue: number; lambda: number; burnIn: boolean } | null;
  /** The latest results (from this tick when `analysed`, else from an earlier one). */
  clustering: StreamClustering | null;
  projections: { top: StreamProjection | null; bottom: StreamProjection | null };
  causality: StreamCausality | null;
  /** This tick's values of the two behaviour views' metrics, one per entity. */
  columns: { top: Float64Array; bottom: Float64Array };
  /** Their means over the entities (the summary views). */
  means: { top: number; bottom: number };
  /** Analyses that could not run, with the reason. */
  skipped: string[];
  /** Things the user should know (entities grew, a restart). */
  notices: string[];
  /** Milliseconds per method on this tick. */
  timings: { changePoints: number; clustering: number; projection: number; causality: number; total: number };
}

/** One line of the tick history a reopened panel rebuilds from. */
export interface PdesTickSummary {
  tick: number;
  time: number;
  analysed: boolean;
  /** Reduced CPD value (NaN before PC1 exists). */
  cpdValue: number;
  /** Number of the change point detected here, 0 for none. */
  changePoint: number;
}

/**
 * The per-tick analyses of a monitored run (thesis §6.3, seed digest §2.6): on every complete tick
 * the change-point reduction and AFF step (cheap, never skipped); on ticks that are not stale the
 * progressive clustering of the clustering metric, the progressive projections of both behaviour
 * views' metrics aligned by Procrustes, and the progressive causality of the metrics' reduced
 * series — each under its own budget. State carries over between ticks (labels, layouts, the VAR
 * window) so colours, positions and signs stay put.
 */
export class PdesStreamAnalyser {
  level: EntityLevel | null = null;
  entities = 0;
  skippedTicks = 0;
  readonly changePoints: StreamChangePoint[] = [];
  readonly history: PdesTickSummary[] = [];
  clustering: StreamClustering | null = null;
  projections: { top: StreamProjection | null; bottom: StreamProjection | null } = { top: null, bottom: null };
  causality: StreamCausality | null = null;
  private cpd: { reducer: OnlinePc1Reducer; detector: AffChangeDetector } | null = null;
  private causal: {
    metrics: string[];
    indices: number[];
    reducers: OnlinePc1Reducer[];
    rows: GrowableFloat64;
    target: number;
    state: CausalityState | null;
  } | null = null;

  constructor(
    readonly options: PdesStreamOptions,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Analyses complete tick `tick`; `progressive` runs the budgeted methods too. */
  analyse(cache: PdesStreamCache, tick: number, progressive: boolean): PdesTickUpdate {
    const start = this.clock();
    const o = this.options;
    const notices: string[] = [];
    const skipped: string[] = [];
    const level = this.resolveLevel(cache);
    const table = cache.samples.table(level);
    const n = table.entityCount;
    if (n !== this.entities) {
      if (this.entities > 0)
        notices.push(`${level.toUpperCase()}s went from ${this.entities} to ${n}: the analyses start over.`);
      this.reset(n, level);
    }
    const topMetric = requireMetric(table, o.topMetric);
    const bottomMetric = requireMetric(table, o.bottomMetric);
    const top = columnOf(table, topMetric, tick, n);
    const bottom = columnOf(table, bottomMetric, tick, n);

    // Change points on every tick.
    const cpdColumn = o.changePoints.view === 'top' ? top : bottom;
    let changePoint: StreamChangePoint | null = null;
    let cpd: PdesTickUpdate['cpd'] = null;
    if (n > 0) {
      const reduced = this.cpd!.reducer.update(cpdColumn);
      if (reduced.value !== null) {
        const step = this.cpd!.detector.update(reduced.value);
        cpd = { value: reduced.value, pValue: step.pValue, lambda: step.lambda, burnIn: step.burnIn };
        if (step.change) {
          changePoint = {
            number: this.changePoints.length + 1,
            tick,
            time: cache.tickTime(tick),
            pValue: step.pValue,
            topEntities: topLoadings(this.cpd!.reducer.loadings, n, o.changePoints.topEntities),
          };
          this.changePoints.push(changePoint);
        }
      }
      this.updateCausalSeries(table, tick, n);
    }
    if (n === 1) skipped.push('one entity: PCA and clustering skipped (they need at least 2 entities)');
    const cpdMs = this.clock() - start;

    let clusteringMs = 0,
      projectionMs = 0,
      causalityMs = 0;
    const analysed = progressive && n >= 2;
    if (analysed) {
      const t0 = this.clock();
      this.cluster(table, tick, n);
      clusteringMs = this.clock() - t0;
      const t1 = this.clock();
      this.projections = {
        top: this.project(table, topMetric, tick, n, this.projections.top),
        bottom: this.project(table, bottomMetric, tick, n, this.projections.bottom),
      };
      projectionMs = this.clock() - t1;
      const t2 = this.clock();
      const reason = this.runCausality(tick);
      if (reason) skipped.push(`causality: ${reason}`);
      causalityMs = this.clock() - t2;
    } else if (!progressive) this.skippedTicks++;

    this.history.push({
      tick,
      time: cache.tickTime(tick),
      analysed,
      cpdValue: cpd ? cpd.value : NaN,
      changePoint: changePoint ? changePoint.number : 0,
    });
    return {
      tick,
      key: cache.samples.tickKey(tick),
      time: cache.tickTime(tick),
      entities: n,
      level,
      totals: cache.totals,
      analysed,
      skippedTicks: this.skippedTicks,
      changePoint,
      cpd,
      clustering: this.clustering,
      projections: this.projections,
      causality: this.causality,
      columns: { top, bottom },
      means: { top: mean(top), bottom: mean(bottom) },
      skipped,
      notices,
      timings: {
        changePoints: cpdMs,
        clustering: clusteringMs,
        projection: projectionMs,
        causality: causalityMs,
        total: this.clock() - start,
      },
    };
  }

  /** The level analysed: the configured one when the stream samples it, else the first that has entities. */
  private resolveLevel(cache: PdesStreamCache): EntityLevel {
    if (this.level && cache.samples.table(this.level).entityCount > 0) return this.level;
    const candidates: EntityLevel[] = [this.options.level, 'kp', 'pe', 'lp'];
    this.level = candidates.find(l => cache.samples.table(l).records > 0) ?? this.options.level;
    return this.level;
  }

  private reset(n: number, level: EntityLevel): void {
    const o = this.options;
    this.entities = n;
    this.cpd =
      n > 0
        ? {
            reducer: new OnlinePc1Reducer(n, {
              forgettingFactor: o.changePoints.forgettingFactor,
              signCoherence: o.changePoints.signCoherence,
            }),
            detector: new AffChangeDetector(o.changePoints),
          }
        : null;
    const available = new Set(METRICS_BY_LEVEL[level].map(m => m.id));
    const metrics = [...new Set([o.topMetric, ...o.causality.metrics])].filter(m => available.has(m));
    this.causal =
      n > 0
        ? {
            metrics,
            indices: metrics.map(id => METRICS_BY_LEVEL[level].findIndex(m => m.id === id)),
            reducers: metrics.map(
              () => new OnlinePc1Reducer(n, { forgettingFactor: o.changePoints.forgettingFactor, signCoherence: true }),
            ),
            rows: new GrowableFloat64(),
            target: metrics.indexOf(o.topMetric),
            state: null,
          }
        : null;
    this.clustering = null;
    this.projections = { top: null, bottom: null };
    this.causality = null;
  }

  /** Each causality metric's n series reduced to one value per tick (seed digest §2.5.4 step 1). */
  private updateCausalSeries(table: SeriesTable, tick: number, n: number): void {
    const c = this.causal!;
    const values = c.indices.map((m, j) => c.reducers[j]!.update(columnOf(table, m, tick, n)).value);
    // The reducers gain their component on the same tick; before that there is nothing to fit.
    if (values.some(v => v === null)) return;
    for (const v of values) c.rows.push(v!);
  }

  private cluster(table: SeriesTable, tick: number, n: number): void {
    const o = this.options;
    const metric = requireMetric(table, o.clustering.metric ?? o.topMetric);
    const rows = seriesRows(table, metric, tick, n, o.clustering.maxTimePoints);
    const previous = this.clustering && this.clustering.labels.length === n ? this.clustering.labels : null;
    const r = progressiveKMeans(rows, previous, {
      k: o.clustering.k,
      budgetMs: o.clustering.budgetMs,
      batchPerCluster: o.clustering.batchPerCluster,
      seed: o.seed + tick,
      clock: this.clock,
    });
    const sizes = new Array<number>(r.k).fill(0);
    for (const l of r.labels) sizes[l]!++;
    this.clustering = {
      tick,
      metric: table.metrics[metric]!.id,
      labels: r.labels,
      k: r.k,
      sizes,
      processed: r.processed,
      total: r.total,
      changed: r.changed,
      ms: r.fitMs + r.assignMs,
    };
  }

  private project(
    table: SeriesTable,
    metric: number,
    tick: number,
    n: number,
    previous: StreamProjection | null,
  ): StreamProjection {
    const o = this.options.projection;
    const start = this.clock();
    const rows = seriesRows(table, metric, tick, n, o.maxTimePoints);
    const p = progressivePca(rows, {
      budgetMs: o.budgetMs,
      batchSize: o.batchSize,
      labels: this.clustering?.labels ?? null,
      seed: this.options.seed + tick,
      clock: this.clock,
    });
    let coordinates = p.coordinates;
    let aligned = false,
      reflected = false;
    if (o.procrustes && previous && previous.coordinates.length === coordinates.length) {
      const fit = procrustes2d(previous.coordinates, coordinates);
      coordinates = fit.aligned;
      aligned = true;
      reflected = fit.reflection;
    }
    return {
      tick,
      metric: table.metrics[metric]!.id,
      coordinates,
      processed: p.processed,
      total: p.total,
      aligned,
      reflected,
      ms: this.clock() - start,
    };
  }

  /** Runs the progressive VAR; returns why it could not, or null. */
  private runCausality(tick: number): string | null {
    const c = this.causal!;
    const o = this.options.causality;
    if (c.target < 0) return `the top metric is not sampled at this level`;
    const d = c.metrics.length;
    const t = c.rows.length / d;
    const start = this.clock();
    const r = progressiveCausality(c.rows.view(), t, d, c.target, c.state, {
      budgetMs: o.budgetMs,
      initialPoints: o.initialPoints,
      maxLag: o.maxLag,
      pThreshold: o.pThreshold,
      horizon: o.horizon,
      clock: this.clock,
    });
    if ('skipped' in r) return r.skipped;
    c.state = r.state;
    this.causality = {
      tick,
      metrics: c.metrics,
      target: c.metrics[c.target]!,
      points: r.points,
      lag: r.lag,
      from: r.from,
      to: r.to,
      constant: r.constant.map(j => c.metrics[j]!),
      ms: this.clock() - start,
    };
    return null;
  }
}

function requireMetric(table: SeriesTable, id: string): number {
  const m = table.metricIndex(id);
  if (m < 0)
    throw new RangeError(
      `${table.level.toUpperCase()} samples have no metric "${id}" (they have ${table.metrics.map(x => x.id).join(', ')})`,
    );
  return m;
}

/** Tick `tick` of metric m for entities 0…n−1; an entity without a record reads 0. */
function columnOf(table: SeriesTable, m: number, tick: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let e = 0; e < n; e++) {
    const v = table.value(m, e, tick);
    out[e] = Number.isFinite(v) ? v : 0;
  }
  return out;
}

/**
 * Entities' series of metric m up to tick `tick` (the last `maxTimePoints` when > 0): views of the
 * table for counters, copies with gaps as 0 for gauges (an absent record reads NaN there).
 */
function seriesRows(table: SeriesTable, m: number, tick: number, n: number, maxTimePoints: number): Float64Array[] {
  const end = tick + 1;
  const from = maxTimePoints > 0 ? Math.max(0, end - maxTimePoints) : 0;
  const gauge = table.metrics[m]!.kind === 'gauge';
  return Array.from({ length: n }, (_, e) => {
    const row = table.series(m, e).subarray(from, end);
    return gauge ? row.map(v => (Number.isFinite(v) ? v : 0)) : row;
  });
}

function topLoadings(loadings: Float64Array | null, n: number, count: number): number[] {
  if (!loadings) return n === 1 ? [0] : [];
  return Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => Math.abs(loadings[b]!) - Math.abs(loadings[a]!) || a - b)
    .slice(0, Math.min(count, n));
}

function mean(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return values.length ? s / values.length : NaN;
}
