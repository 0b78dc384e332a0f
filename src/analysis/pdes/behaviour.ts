import type { SeriesMatrix } from '../series/series-matrix';
import { aggregateSeries } from './model/aggregate';
import type { TickRange } from './analysis-options';
import type { EventTimeAxis } from './model/event-trace';
import { ENTITY_LEVELS, METRICS_BY_LEVEL, type EntityLevel, type PdesMetric } from './model/metrics';
import type { PdesRun } from './model/pdes-run';
import { SAMPLING_MODES, type SampleSet, type SamplingMode } from './model/sample-set';

/**
 * The behaviour data of the offline views (thesis §5.3.1, seed digest §1.4): n entities of one
 * level × every metric of that level × t samples of one time axis, each metric an entity-major
 * {@link SeriesMatrix} (one row per entity) as the series library consumes it. Built once per
 * (level, axis) and asked for metrics as views need them.
 *
 * Series come from the level's own samples, or are rolled up from a finer level that was sampled
 * (counters add, gauges average: aggregate.ts) when the run did not sample this one. Gauges have
 * NaN where an entity did not report; distances need numbers, so a gap takes the entity's previous
 * value (its state stands until the next sample), or its first value before it first reported.
 */
export class PdesBehaviour {
  /** Entities (n) and samples (t). */
  readonly count: number;
  readonly ticks: number;
  /** Each entity's id as the JSON report and the labels use: PE id, global KP number, LP global id. */
  readonly ids: Int32Array;
  /** PE index of each entity (the entity itself at PE level); -1 for an LP placed nowhere. */
  readonly pe: Int32Array;
  /** x of each sample: GVT (`gvt`, `vt`) or seconds since the first sample (`rt`); sample indices when those are not finite. */
  readonly time: Float64Array;
  /** What `time` is, for the axis title. */
  readonly timeLabel: string;
  /** Sample times on the event trace's clock (virtual or wall-clock) and which event time they compare with. */
  readonly edgeTimes: Float64Array;
  readonly eventAxis: EventTimeAxis;
  /** The GVT at each sample, whatever the axis (model samples are placed by it). */
  readonly virtualTimes: Float64Array;
  /** Metrics of the level, in ROSS's order. */
  readonly metrics: readonly PdesMetric[];
  private readonly cache = new Map<string, SeriesMatrix>();

  constructor(
    private readonly run: PdesRun,
    readonly samples: SampleSet,
    readonly axis: SamplingMode,
    readonly level: EntityLevel,
    /** The level whose samples the series come from (finer than `level` when rolled up). */
    readonly sampledLevel: EntityLevel,
  ) {
    const e = run.entities;
    this.count = e.count(level);
    this.ticks = samples.tickCount;
    this.metrics = METRICS_BY_LEVEL[level].filter(m => metricIndexIn(sampledLevel, m.id) >= 0);
    this.ids = Int32Array.from({ length: this.count }, (_, i) =>
      level === 'pe' ? e.peId(i) : level === 'kp' ? i : e.lpGid(i),
    );
    this.pe = Int32Array.from({ length: this.count }, (_, i) =>
      level === 'pe' ? i : level === 'kp' ? e.kpPe(i) : e.lpPe(i),
    );
    const ticks = samples.ticks;
    const realTime = axis === 'rt';
    this.virtualTimes = Float64Array.from(ticks.virtualTime);
    this.edgeTimes = realTime ? Float64Array.from(ticks.realTime) : this.virtualTimes;
    this.eventAxis = realTime ? 'real' : 'receive';
    const origin = realTime ? this.edgeTimes[0]! : 0;
    const time = this.edgeTimes.map(v => v - origin);
    if (time.every(Number.isFinite)) {
      this.time = time;
      this.timeLabel = realTime ? 'Real time (s)' : 'GVT';
    } else {
      this.time = Float64Array.from({ length: this.ticks }, (_, i) => i);
      this.timeLabel = 'Sample';
    }
  }

  /** The metric's description (a RangeError naming the level's metrics when it has no such metric). */
  metric(id: string): PdesMetric {
    const m = this.metrics.find(x => x.id === id);
    if (!m)
      throw new RangeError(
        `${this.level.toUpperCase()} series have no metric "${id}" (they have ${this.metrics.map(x => x.id).join(', ')})`,
      );
    return m;
  }

  has(id: string): boolean {
    return this.metrics.some(m => m.id === id);
  }

  /** What views print for an entity: `PE 3`, `PE 3 · KP 5`, `LP 17`. */
  label(i: number): string {
    return this.run.entities.label(this.level, i);
  }

  /** Every entity's series of a metric over all samples, gaps filled (cached; do not modify). */
  series(id: string): SeriesMatrix {
    let m = this.cache.get(id);
    if (!m) {
      const info = this.metric(id);
      const n = this.count,
        t = this.ticks;
      const values = new Float64Array(n * t);
      if (this.sampledLevel === this.level) {
        const table = this.samples.table(this.level);
        const k = table.metricIndex(id);
        for (let i = 0; i < n; i++) values.set(table.series(k, i), i * t);
      } else {
        const rows = aggregateSeries(this.samples, this.run.entities, this.sampledLevel, this.level, id);
        rows.forEach((row, i) => values.set(row, i * t));
      }
      if (info.kind === 'gauge') fillGaps(values, n, t);
      m = { values, entities: n, timePoints: t };
      this.cache.set(id, m);
    }
    return m;
  }

  /** A metric over samples [range.from, range.to) (a copy, entity-major). */
  window(id: string, range: TickRange): SeriesMatrix {
    const full = this.series(id);
    if (range.from === 0 && range.to === this.ticks) return full;
    return sliceTicks(full, range);
  }
}

/** The samples [from, to) of every row (a copy). */
export function sliceTicks(m: SeriesMatrix, range: TickRange): SeriesMatrix {
  const w = range.to - range.from;
  const out = new Float64Array(m.entities * w);
  for (let i = 0; i < m.entities; i++)
    out.set(m.values.subarray(i * m.timePoints + range.from, i * m.timePoints + range.to), i * w);
  return { values: out, entities: m.entities, timePoints: w };
}

/** NaN gaps take the previous value of their row; leading gaps the first value; all-NaN rows become 0. */
function fillGaps(values: Float64Array, n: number, t: number): void {
  for (let i = 0; i < n; i++) {
    const base = i * t;
    let first = -1;
    for (let s = 0; s < t; s++)
      if (values[base + s] === values[base + s]) {
        first = s;
        break;
      }
    if (first < 0) {
      values.fill(0, base, base + t);
      continue;
    }
    let last = values[base + first]!;
    for (let s = 0; s < t; s++) {
      const v = values[base + s]!;
      if (v === v) last = v;
      else values[base + s] = last;
    }
  }
}

function metricIndexIn(level: EntityLevel, id: string): number {
  return METRICS_BY_LEVEL[level].findIndex(m => m.id === id);
}

/** The behaviour data a run offers for a level and time axis, or why it has none. */
export type BehaviourResult = { behaviour: PdesBehaviour; notes: string[] } | { behaviour: null; reason: string };

/**
 * The behaviour data for the asked level and axis, falling back (with a note saying so) when the
 * run lacks them: another sampling mode when it has no samples of the asked one (GVT, then real
 * time, then virtual time); a roll-up from a finer sampled level when the level itself was not
 * sampled; else the finest coarser level that was sampled.
 */
export function pdesBehaviour(run: PdesRun, level: EntityLevel, axis: SamplingMode): BehaviourResult {
  const notes: string[] = [];
  const modes = [axis, ...SAMPLING_MODES.filter(m => m !== axis)];
  const mode = modes.find(m => (run.samples[m]?.tickCount ?? 0) > 0);
  if (!mode)
    return { behaviour: null, reason: 'the run has no engine samples (no *-gvt.bin, *-rt.bin or *-analysis-lps.bin)' };
  if (mode !== axis) notes.push(`No ${AXIS_NAMES[axis]} samples: the views use ${AXIS_NAMES[mode]} samples.`);
  const set = run.samples[mode]!;
  const sampled = (l: EntityLevel) => set.table(l).records > 0 && set.table(l).entityCount > 0;
  const placed = (from: EntityLevel, to: EntityLevel) =>
    from === 'kp' ? true : to === 'pe' ? run.placement.pe !== 'none' : run.placement.kp !== 'none';
  const at = ENTITY_LEVELS.indexOf(level);
  if (sampled(level)) return { behaviour: new PdesBehaviour(run, set, mode, level, level), notes };
  for (const finer of ENTITY_LEVELS.slice(at + 1))
    if (sampled(finer) && placed(finer, level) && run.entities.count(level) > 0) {
      notes.push(`${level.toUpperCase()}s were not sampled: their series add up their ${finer.toUpperCase()}s.`);
      return { behaviour: new PdesBehaviour(run, set, mode, level, finer), notes };
    }
  for (const other of [...ENTITY_LEVELS.slice(0, at).reverse(), ...ENTITY_LEVELS.slice(at + 1)])
    if (sampled(other)) {
      notes.push(`${level.toUpperCase()}s were not sampled: the views show ${other.toUpperCase()}s.`);
      return { behaviour: new PdesBehaviour(run, set, mode, other, other), notes };
    }
  return { behaviour: null, reason: `the ${AXIS_NAMES[mode]} samples hold no PE, KP or LP records` };
}

const AXIS_NAMES: Record<SamplingMode, string> = { gvt: 'GVT', rt: 'real-time', vt: 'virtual-time' };
