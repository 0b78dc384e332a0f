import { throwIfAborted } from '../model/cancellation';
import { condensedLength } from '../series/distance-matrix';
import { balancedRowRanges, pairwiseDistanceSteps, type PairwiseDistanceOptions } from '../series/distances';
import { eDivisiveSteps, timePointDistances, type ChangePoint } from '../series/e-divisive';
import { classicalMds } from '../series/mds';
import { featureSeries, scaleMinMax } from '../series/preprocess';
import { clusterSeries, type ClusteringAlgorithm } from '../series/series-analysis';
import type { SeriesMatrix } from '../series/series-matrix';
import { runSliced, runToEnd } from '../series/sliced';
import { tsneSteps, type TsneOptions } from '../series/tsne';
import { resolvePdesAnalysisOptions, type PdesAnalysisOptions, type TickRange } from './analysis-options';
import { pdesBehaviour, type PdesBehaviour } from './behaviour';
import { ENTITY_LEVELS, METRIC, METRICS_BY_LEVEL } from './model/metrics';
import type { PdesReportAnalyses } from './pdes-report';
import type { PdesRun } from './model/pdes-run';
import { segmentsFromStarts, type PdesSegment } from './segments';

/**
 * The offline PDES pipeline (thesis §5.3, seed digest §2.1): behaviour series of the chosen level
 * and time axis → clustering of the entities (k-means, PAM or complete linkage over Euclidean, DTW
 * or TWED distances of min–max-scaled, concatenated metrics) → a 2-D projection per detail view
 * (classical MDS or Barnes–Hut t-SNE of that view's metric) → E-Divisive change points over all
 * series → segments. Everything runs over the selected sample range.
 *
 * A {@link PdesAnalysisSession} holds one run and one set of options; the heavy steps (DTW / TWED
 * distance matrices, t-SNE) are exposed as jobs a host can split over worker threads
 * ({@link PdesAnalysisSession.heavyJobs}) and hand back ({@link PdesAnalysisSession.provide}); what
 * is not handed back is computed in place. View data (view-data.ts) are pure functions of the
 * resulting {@link PdesAnalysis}.
 */
export interface PdesAnalysis {
  options: PdesAnalysisOptions;
  behaviour: PdesBehaviour;
  /** Samples the analyses ran on. */
  range: TickRange;
  /** The metrics each part used, after the level's substitutions. */
  metrics: PdesAnalysisMetrics;
  clustering: PdesClustering;
  /** One projection per detail view (top, bottom). */
  projections: [PdesProjection, PdesProjection];
  changePoints: PdesChangePoints;
  segments: PdesSegment[];
  /** Things the user should know (fallbacks, substitutions, reduced k), one sentence each. */
  notes: string[];
}

export interface PdesAnalysisMetrics {
  detail: [string, string];
  cluster: string[];
  changePoints: string[];
  innerRing: string;
  outerRing: string;
}

export interface PdesClustering {
  /** The algorithm that ran (PAM when k-means was asked with an elastic distance). */
  algorithm: ClusteringAlgorithm;
  measure: PdesAnalysisOptions['distance'];
  k: number;
  /** Canonical cluster of each entity (cluster 0 holds entity 0). */
  labels: Int32Array;
  sizes: Int32Array;
  /** PAM: the medoid entity of each cluster. */
  medoids?: Int32Array;
}

export interface PdesProjection {
  metric: string;
  method: PdesAnalysisOptions['projection'];
  /** Point-major n × 2. */
  coordinates: Float64Array;
}

export interface PdesChangePoints {
  /** Metrics E-Divisive ran on. */
  metrics: string[];
  /** What E-Divisive found (absolute sample indices, time order). */
  detected: ChangePoint[];
  /** p-value of the first split that was not significant (null when none was tested). */
  rejectedPValue: number | null;
  minSegmentSize: number;
  /** The segment starts in use: the detected ones, or the user's edits. */
  starts: number[];
  edited: boolean;
}

/** A distance matrix to compute (condensed, SciPy `pdist` order): the features and the measure. */
export interface DistanceJob {
  kind: 'distances';
  key: string;
  features: SeriesMatrix;
  options: Pick<PairwiseDistanceOptions, 'measure' | 'window' | 'nu' | 'lambda'>;
}

/** A t-SNE layout to compute from the distances of job `distances`. */
export interface TsneJob {
  kind: 'tsne';
  key: string;
  distances: string;
  points: number;
  options: Pick<TsneOptions, 'perplexity' | 'iterations' | 'seed'>;
}

export type PdesHeavyJob = DistanceJob | TsneJob;

/** When the level lacks a metric, the detail views, rings and clustering use these (LPs hold no rollback counts). */
const LEVEL_FALLBACKS = [METRIC.eventsRolledBack, METRIC.eventsProcessed];

export class PdesAnalysisSession {
  readonly options: PdesAnalysisOptions;
  readonly behaviour: PdesBehaviour;
  readonly range: TickRange;
  readonly metrics: PdesAnalysisMetrics;
  readonly notes: string[];
  private readonly distances: Map<string, Float64Array>;
  private readonly layouts: Map<string, Float64Array>;

  /** A session over `run`; throws a RangeError when the run has no behaviour series (see {@link pdesAnalysisSession}). */
  constructor(
    readonly run: PdesRun,
    options: Partial<PdesAnalysisOptions> = {},
    caches?: { distances: Map<string, Float64Array>; layouts: Map<string, Float64Array> },
  ) {
    this.options = resolvePdesAnalysisOptions(options);
    const found = pdesBehaviour(run, this.options.level, this.options.timeAxis);
    if (!found.behaviour) throw new RangeError(`no PDES behaviour views for ${run.name}: ${found.reason}`);
    this.behaviour = found.behaviour;
    this.notes = [...found.notes];
    const b = this.behaviour;
    const r = this.options.range;
    this.range = r ? { from: Math.max(0, r.from), to: Math.min(b.ticks, r.to) } : { from: 0, to: b.ticks };
    if (!(this.range.to > this.range.from))
      throw new RangeError(`the range [${r!.from}, ${r!.to}) holds none of the ${b.ticks} samples`);
    const use = (id: string, slot: number, what: string) => {
      if (b.has(id)) return id;
      if (!ENTITY_LEVELS.some(l => METRICS_BY_LEVEL[l].some(m => m.id === id)))
        throw new RangeError(
          `"${id}" is no PDES metric (${b.level.toUpperCase()} metrics: ${b.metrics.map(m => m.id).join(', ')})`,
        );
      const instead = b.has(LEVEL_FALLBACKS[slot]!) ? LEVEL_FALLBACKS[slot]! : b.metrics[0]!.id;
      this.notes.push(
        `${b.level.toUpperCase()} samples have no ${id}: ${what} uses ${b.metric(instead).label.toLowerCase()}.`,
      );
      return instead;
    };
    const o = this.options;
    const detail: [string, string] = [
      use(o.detailMetrics[0], 0, 'the top detail view'),
      use(o.detailMetrics[1], 1, 'the bottom detail view'),
    ];
    const cluster = unique(o.clusterMetrics.length ? o.clusterMetrics.map(m => use(m, 0, 'clustering')) : [detail[0]]);
    this.metrics = {
      detail,
      cluster,
      changePoints: unique(
        o.changePointMetrics.length ? o.changePointMetrics.map(m => use(m, 0, 'change-point detection')) : cluster,
      ),
      innerRing: use(o.innerRingMetric, 0, 'the inner ring'),
      outerRing: use(o.outerRingMetric, 1, 'the outer ring'),
    };
    this.distances = caches?.distances ?? new Map();
    this.layouts = caches?.layouts ?? new Map();
  }

  /** A session with other options over the same run, sharing the computed distances and layouts. */
  withOptions(options: Partial<PdesAnalysisOptions>): PdesAnalysisSession {
    return new PdesAnalysisSession(
      this.run,
      { ...this.options, ...options },
      {
        distances: this.distances,
        layouts: this.layouts,
      },
    );
  }

  /** Min–max-scaled, concatenated series of `metrics` over the range: one feature row per entity. */
  features(metrics: readonly string[]): SeriesMatrix {
    return featureSeries(
      metrics.map(m => this.behaviour.window(m, this.range)),
      'min-max',
    );
  }

  /** The distance job for a set of metrics (its key names everything the matrix depends on). */
  distanceJob(metrics: readonly string[]): DistanceJob {
    const { key, options } = this.distanceKey(metrics);
    return { kind: 'distances', key, features: this.features(metrics), options };
  }

  private distanceKey(metrics: readonly string[]): { key: string; options: DistanceJob['options'] } {
    const o = this.options;
    const options: DistanceJob['options'] = { measure: o.distance };
    if (o.distance === 'dtw' && o.dtwWindow !== null) options.window = o.dtwWindow;
    if (o.distance === 'twed') Object.assign(options, { nu: o.twedNu, lambda: o.twedLambda });
    const key = JSON.stringify({
      metrics,
      range: this.range,
      level: this.behaviour.level,
      axis: this.behaviour.axis,
      ...options,
    });
    return { key, options };
  }

  /** The t-SNE job of detail view `view` (null under MDS). */
  tsneJob(view: 0 | 1): TsneJob | null {
    const o = this.options;
    if (o.projection !== 'tsne') return null;
    const distances = this.distanceKey([this.metrics.detail[view]]).key;
    const options = { perplexity: o.perplexity, iterations: o.tsneIterations, seed: o.seed };
    return {
      kind: 'tsne',
      key: JSON.stringify({ distances, ...options }),
      distances,
      points: this.behaviour.count,
      options,
    };
  }

  /**
   * The heavy steps still to do, for worker threads: DTW / TWED distance matrices (Euclidean ones
   * take milliseconds and are left out), then t-SNE layouts. A t-SNE job needs its distances first.
   * Distance jobs split by rows ({@link distanceJobParts}); the two t-SNE layouts (one per
   * similarity view) run one per worker.
   */
  heavyJobs(): PdesHeavyJob[] {
    const jobs: PdesHeavyJob[] = [];
    const seen = new Set<string>();
    if (this.options.distance !== 'euclidean')
      for (const metrics of this.distanceMetricSets()) {
        const { key } = this.distanceKey(metrics);
        if (!seen.has(key) && !this.distances.has(key)) jobs.push(this.distanceJob(metrics));
        seen.add(key);
      }
    for (const view of [0, 1] as const) {
      const job = this.tsneJob(view);
      if (job && !seen.has(job.key) && !this.layouts.has(job.key)) jobs.push(job);
      if (job) seen.add(job.key);
    }
    return jobs;
  }

  /** Hands back a job's result: a condensed distance matrix, or a t-SNE layout (n × 2). */
  provide(job: Pick<PdesHeavyJob, 'kind' | 'key'>, result: Float64Array): void {
    (job.kind === 'tsne' ? this.layouts : this.distances).set(job.key, result);
  }

  /** A distance matrix or layout computed or handed back so far, by job key (a t-SNE job's `distances` names its matrix). */
  result(key: string): Float64Array | undefined {
    return this.distances.get(key) ?? this.layouts.get(key);
  }

  /** The whole analysis, computed in place (heavy steps not provided included). */
  analysis(signal?: AbortSignal): PdesAnalysis {
    return runToEnd(this.analysisSteps(signal));
  }

  /** The analysis in slices between event-loop turns, so an abort from elsewhere stops it. */
  analysisAsync(signal?: AbortSignal, sliceMs?: number): Promise<PdesAnalysis> {
    return runSliced(this.analysisSteps(signal), signal, sliceMs);
  }

  /** The analysis as steps (one per row of a distance matrix, 10 t-SNE iterations, 16 permutations). */
  *analysisSteps(signal?: AbortSignal): Generator<unknown, PdesAnalysis, void> {
    const o = this.options;
    const b = this.behaviour;
    const n = b.count;
    const notes = [...this.notes];
    const needDistances = o.clustering !== 'k-means' || o.distance !== 'euclidean';
    // Clustering.
    let algorithm = o.clustering;
    if (algorithm === 'k-means' && o.distance !== 'euclidean') {
      algorithm = 'pam';
      notes.push(
        `k-means works with Euclidean distance only: PAM clustered the ${o.distance.toUpperCase()} distances.`,
      );
    }
    const k = Math.min(o.clusters, n);
    if (k < o.clusters) notes.push(`Only ${n} entities: ${k} clusters instead of ${o.clusters}.`);
    let clusterDistances: Float64Array | undefined;
    if (needDistances) clusterDistances = yield* this.distanceSteps(this.metrics.cluster, signal);
    throwIfAborted(signal);
    const features = this.features(this.metrics.cluster);
    // Min–max scaling maps a metric that never varies to zeros: every entity then behaves alike, and
    // any split into k clusters would be arbitrary.
    const flat = features.values.every(v => v === 0);
    if (flat && n > 0)
      notes.push(`${this.metrics.cluster.join(' and ')} do not vary over the range: all entities form one cluster.`);
    const clustering =
      n && !flat
        ? clusterSeries(features, {
            algorithm,
            k,
            measure: o.distance,
            restarts: o.restarts,
            seed: o.seed,
            ...(clusterDistances ? { distances: clusterDistances } : {}),
            ...(signal ? { signal } : {}),
          })
        : { labels: new Int32Array(n), sizes: Int32Array.from({ length: k }, (_, c) => (c === 0 ? n : 0)) };
    yield 'clustering';
    // One projection per detail view, from that view's metric alone.
    const projections: PdesProjection[] = [];
    for (const view of [0, 1] as const) {
      const metric = this.metrics.detail[view];
      const distances = yield* this.distanceSteps([metric], signal);
      let coordinates: Float64Array;
      const tsne = this.tsneJob(view);
      if (tsne) {
        coordinates = this.layouts.get(tsne.key) ?? (yield* tsneLayoutSteps(tsne, distances, signal));
        this.layouts.set(tsne.key, coordinates);
      } else
        coordinates = n > 0 ? classicalMds(distances, n, 2, signal ? { signal } : {}).coordinates : new Float64Array(0);
      projections.push({ metric, method: o.projection, coordinates });
      yield 'projection';
    }
    // Change points over all series of the change-point metrics.
    const T = this.range.to - this.range.from;
    const scaled = this.metrics.changePoints.map(m => scaleMinMax(b.window(m, this.range)));
    const found = yield* eDivisiveSteps(timePointDistances(scaled), T, {
      significance: o.significance,
      permutations: o.permutations,
      seed: o.seed,
      ...(o.minSegmentSize !== null ? { minSegmentSize: o.minSegmentSize } : {}),
      ...(signal ? { signal } : {}),
    });
    const detected = found.changePoints.map(c => ({ ...c, index: c.index + this.range.from }));
    const pValues = new Map(detected.map(c => [c.index, c.pValue]));
    const edited = o.changePoints !== null;
    const starts = edited ? [...new Set(o.changePoints)].sort((x, y) => x - y) : detected.map(c => c.index);
    // An edited start that is a detected change point keeps its p-value.
    const segments = segmentsFromStarts(starts, this.range, pValues);
    return {
      options: o,
      behaviour: b,
      range: this.range,
      metrics: this.metrics,
      clustering: {
        algorithm,
        measure: o.distance,
        k,
        labels: clustering.labels,
        sizes: clustering.sizes,
        ...('medoids' in clustering && clustering.medoids ? { medoids: clustering.medoids } : {}),
      },
      projections: [projections[0]!, projections[1]!],
      changePoints: {
        metrics: this.metrics.changePoints,
        detected,
        rejectedPValue: found.rejectedPValue,
        minSegmentSize: found.minSegmentSize,
        starts: segments.slice(1).map(s => s.start),
        edited,
      },
      segments,
      notes,
    };
  }

  /** The metric sets whose distances the analysis needs: the clustering's and each detail view's. */
  private distanceMetricSets(): string[][] {
    const sets: string[][] = [];
    if (this.options.clustering !== 'k-means' || this.options.distance !== 'euclidean') sets.push(this.metrics.cluster);
    sets.push([this.metrics.detail[0]], [this.metrics.detail[1]]);
    return sets;
  }

  private *distanceSteps(metrics: readonly string[], signal?: AbortSignal): Generator<unknown, Float64Array, void> {
    const { key } = this.distanceKey(metrics);
    let d = this.distances.get(key);
    if (!d) {
      const job = this.distanceJob(metrics);
      d = new Float64Array(condensedLength(job.features.entities));
      yield* distanceRowSteps(job, { from: 0, to: job.features.entities }, d, signal);
      this.distances.set(key, d);
    }
    return d;
  }
}

/** A session, or why the run has no behaviour views. */
export function pdesAnalysisSession(
  run: PdesRun,
  options: Partial<PdesAnalysisOptions> = {},
): { session: PdesAnalysisSession; reason: null } | { session: null; reason: string } {
  try {
    return { session: new PdesAnalysisSession(run, options), reason: null };
  } catch (e) {
    if (e instanceof RangeError && e.message.startsWith('no PDES behaviour views'))
      return { session: null, reason: e.message };
    throw e;
  }
}

/** Splits a distance job into `workers` consecutive row ranges holding about as many pairs each. */
export function distanceJobParts(job: DistanceJob, workers: number): { from: number; to: number }[] {
  return balancedRowRanges(job.features.entities, workers);
}

/**
 * Rows [rows.from, rows.to) of a distance job into `out` (the whole condensed matrix, e.g. over a
 * SharedArrayBuffer both workers write to): one step per row.
 */
export function distanceRowSteps(
  job: DistanceJob,
  rows: { from: number; to: number },
  out: Float64Array,
  signal?: AbortSignal,
): Generator<number, Float64Array, void> {
  return pairwiseDistanceSteps(job.features, out, { ...job.options, rows, ...(signal ? { signal } : {}) });
}

/** A t-SNE job's layout from its distances (one step per 10 iterations). */
export function* tsneLayoutSteps(
  job: TsneJob,
  distances: Float64Array,
  signal?: AbortSignal,
): Generator<number, Float64Array, void> {
  const result = yield* tsneSteps(distances, job.points, { ...job.options, ...(signal ? { signal } : {}) });
  return result.coordinates;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/**
 * The analysis with segment starts set by hand ([T5] §5.3.4: "segment boundaries can be edited"),
 * or back to the detected change points with null. Starts are sorted and deduplicated, and must lie
 * inside the analysed range (a RangeError otherwise). Only the segments change: the view data that
 * depend on them (circular views, per-segment means, markers) are recomputed from the result.
 */
export function editSegments(analysis: PdesAnalysis, starts: readonly number[] | null): PdesAnalysis {
  const detected = analysis.changePoints.detected;
  const edited = starts !== null;
  const use = edited ? [...new Set(starts)].sort((a, b) => a - b) : detected.map(c => c.index);
  const segments = segmentsFromStarts(use, analysis.range, new Map(detected.map(c => [c.index, c.pValue])));
  return {
    ...analysis,
    options: { ...analysis.options, changePoints: edited ? use : null },
    changePoints: { ...analysis.changePoints, starts: use, edited },
    segments,
  };
}

/**
 * The clusters and change points of `hpc-lens pdes --json` from the same session the panel uses:
 * each cluster's members as entity ids (PE ids, global KP numbers, LP ids) in cluster order, and the
 * segment starts as sample indices. Empty when the run has no behaviour series.
 */
export function pdesReportAnalyses(run: PdesRun, options: Partial<PdesAnalysisOptions> = {}): PdesReportAnalyses {
  const { session } = pdesAnalysisSession(run, options);
  if (!session) return {};
  let pending: Promise<PdesAnalysis> | undefined;
  const analysis = () => (pending ??= session.analysisAsync());
  return {
    clusters: async () => clusterMembers(await analysis()),
    changePoints: async () => (await analysis()).changePoints.starts,
  };
}

/** Each cluster's members as entity ids, ascending, in cluster order. */
export function clusterMembers(analysis: PdesAnalysis): { members: number[] }[] {
  const { labels, k } = analysis.clustering;
  const out = Array.from({ length: k }, () => ({ members: [] as number[] }));
  labels.forEach((c, e) => out[c]!.members.push(analysis.behaviour.ids[e]!));
  for (const c of out) c.members.sort((a, b) => a - b);
  return out;
}
