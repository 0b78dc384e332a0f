import { communicationMatrix, matrixRows, sameProcessShare } from './model/communication';
import type { EntityLevel } from './model/metrics';
import { METRIC } from './model/metrics';
import { linkCounts } from './model/network';
import type { PdesRun } from './model/pdes-run';
import type { SampleSet, SamplingMode } from './model/sample-set';

/**
 * The stable JSON schema of `hpc-lens pdes --json DIR` (issue #19), key order as documented. Each
 * field is absent when the folder lacks what it needs: `totals` without samples or `ross.csv`,
 * `samples` without stats files, `eventTrace` without a trace, `communication` without a trace or
 * an LP→PE map, `clusters`/`changePoints` without behaviour series or analyses, `links` without
 * `lp-io/dragonfly-link-stats`.
 */
export interface PdesReport {
  entities: { pe: number; kp: number; lp: number };
  totals?: { eventsProcessed: number; rollbacks: number; primaryRollbacks: number; secondaryRollbacks: number };
  /** Sample rounds (ticks) per sampling mode. */
  samples?: { gvt?: number; rt?: number; vt?: number };
  eventTrace?: { events: number; sameProcessShare?: number };
  /** Whole-run events sent from row PE to column PE. */
  communication?: { level: 'pe'; matrix: number[][] };
  /** Clusters of the behaviour entities (their indices: global KP numbers at KP level). */
  clusters?: { members: number[] }[];
  /** Tick indices where a new segment starts. */
  changePoints?: number[];
  links?: { total: number; byType: { CN: number; L: number; G: number } };
}

/**
 * The series the behaviour analyses (clustering, change points) run on: one metric of one entity
 * level on one time axis, one series per entity. The seed's default is KP secondary rollbacks over
 * GVT rounds ([T5] §5.4: "mean secondary rollbacks of all KPs against GVT").
 */
export interface BehaviourSeries {
  mode: SamplingMode;
  level: EntityLevel;
  metric: string;
  /** Entity indices, in the order of `series`. */
  entities: number[];
  /** One series per entity, one value per tick (views into the sample set). */
  series: Float64Array[];
  /** The tick axis: the GVT (gvt, vt) or wall-clock seconds (rt) of each tick. */
  time: Float64Array;
}

export interface BehaviourOptions {
  /** Sampling mode (time axis); default: GVT, else real time, else virtual time. */
  mode?: SamplingMode;
  /** Default `kp`, else the finest level with samples. */
  level?: EntityLevel;
  /** Default secondary rollbacks (events processed at LP level, which has no rollback counts). */
  metric?: string;
}

/** The default behaviour series of a run (see {@link BehaviourSeries}), or null when it has no samples. */
export function behaviourSeries(run: PdesRun, options: BehaviourOptions = {}): BehaviourSeries | null {
  const mode = options.mode ?? (['gvt', 'rt', 'vt'] as const).find(m => run.samples[m]?.tickCount);
  const set = mode ? run.samples[mode] : undefined;
  if (!mode || !set || !set.tickCount) return null;
  const level =
    options.level ?? (['kp', 'pe', 'lp'] as const).find(l => set.table(l).records > 0 && set.table(l).entityCount > 0);
  if (!level) return null;
  const table = set.table(level);
  const metric = options.metric ?? (level === 'lp' ? METRIC.eventsProcessed : METRIC.secondaryRollbacks);
  if (table.metricIndex(metric) < 0) return null;
  const ticks = set.ticks;
  return {
    mode,
    level,
    metric,
    entities: Array.from({ length: table.entityCount }, (_, i) => i),
    series: table.matrix(metric),
    time: mode === 'rt' ? ticks.realTime : ticks.virtualTime,
  };
}

/**
 * Where the report gets clusters and change points: the offline analyses (pdes-analysis.ts, through
 * pdesReportAnalyses), which may run on the panel's own level, axis and metrics rather than the
 * default series passed in. Without them, or when one returns null, the report leaves `clusters`
 * and `changePoints` out.
 */
export interface PdesReportAnalyses {
  clusters?(series: BehaviourSeries): Promise<{ members: number[] }[] | null> | { members: number[] }[] | null;
  changePoints?(series: BehaviourSeries): Promise<number[] | null> | number[] | null;
}

/** Builds the `hpc-lens pdes --json` object (the same function the PDES panel's summary uses). */
export async function pdesReport(run: PdesRun, analyses: PdesReportAnalyses = {}): Promise<PdesReport> {
  const e = run.entities;
  const s = run.summary;
  const report: PdesReport = {
    entities: {
      pe: e.count('pe') || (s?.totalPe ?? 0),
      kp: e.count('kp') || (s?.totalKp ?? 0),
      lp: e.count('lp') || (s?.totalLp ?? 0),
    },
  };
  const totals = runTotals(run);
  if (totals) report.totals = totals;
  const samples: NonNullable<PdesReport['samples']> = {};
  for (const m of ['gvt', 'rt', 'vt'] as const) if (run.samples[m]) samples[m] = run.samples[m]!.tickCount;
  if (Object.keys(samples).length) report.samples = samples;
  const trace = run.eventTrace;
  if (trace) {
    const share = sameProcessShare(trace, e);
    report.eventTrace = { events: trace.count };
    if (Number.isFinite(share)) report.eventTrace.sameProcessShare = Math.round(share * 1e4) / 1e4;
    if (run.placement.pe !== 'none' && e.count('pe') > 0) {
      const m = communicationMatrix(trace, e, 'pe');
      report.communication = { level: 'pe', matrix: matrixRows(m.counts, m.size) };
    }
  }
  const series = behaviourSeries(run);
  const clusters = series && analyses.clusters ? await analyses.clusters(series) : null;
  if (clusters) report.clusters = clusters;
  const changePoints = series && analyses.changePoints ? await analyses.changePoints(series) : null;
  if (changePoints) report.changePoints = changePoints;
  if (run.links) report.links = linkCounts(run.links);
  return report;
}

/**
 * The run's totals: the real-time samples when present (ROSS samples them to the end of the run,
 * so they add up to `ross.csv`), else `ross.csv`, else the GVT or virtual-time samples (which stop
 * at the last sample).
 */
export function runTotals(run: PdesRun): PdesReport['totals'] | null {
  const fromSet = (set: SampleSet) => {
    const table = set.pe.records ? set.pe : set.kp.records ? set.kp : null;
    return table
      ? {
          eventsProcessed: table.total(METRIC.eventsProcessed),
          rollbacks: table.total(METRIC.totalRollbacks),
          primaryRollbacks: table.total(METRIC.primaryRollbacks),
          secondaryRollbacks: table.total(METRIC.secondaryRollbacks),
        }
      : null;
  };
  const rt = run.samples.rt && fromSet(run.samples.rt);
  if (rt) return rt;
  const s = run.summary;
  if (s)
    return {
      eventsProcessed: s.eventsProcessed,
      rollbacks: s.rollbacks,
      primaryRollbacks: s.primaryRollbacks,
      secondaryRollbacks: s.secondaryRollbacks,
    };
  for (const m of ['gvt', 'vt'] as const) {
    const t = run.samples[m] && fromSet(run.samples[m]!);
    if (t) return t;
  }
  return null;
}
