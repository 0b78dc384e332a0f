import { GrowableFloat64 } from '../../model/growable';
import { ENTITY_LEVELS, METRICS_BY_LEVEL, metricIndex, type EntityLevel, type PdesMetric } from './metrics';

/**
 * ROSS's three sampling modes (seed digest §1.2), which are also the three time axes of the views:
 * `gvt` samples after every n-th GVT computation, `rt` every n wall-clock milliseconds, `vt` at
 * virtual-time points (through analysis LPs).
 */
export type SamplingMode = 'gvt' | 'rt' | 'vt';

export const SAMPLING_MODES: readonly SamplingMode[] = ['gvt', 'rt', 'vt'];

/**
 * How records become ticks (one sample round of every entity):
 * - `virtual-time`: records with the same virtual time (the GVT at sampling) form one tick. GVT
 *   sampling stamps every PE's round with the same GVT; virtual-time sampling stamps the GVT at
 *   which each analysis LP ran, and repeats of an entity at one stamp merge into its tick.
 * - `ordinal`: each PE's k-th round is tick k. Real-time sampling runs on each PE's own clock, so
 *   the rounds of different PEs carry different times; a PE starts its next round when an entity
 *   it already reported in the current round reports again.
 */
export type TickGrouping = 'virtual-time' | 'ordinal';

export function defaultGrouping(mode: SamplingMode): TickGrouping {
  return mode === 'rt' ? 'ordinal' : 'virtual-time';
}

/**
 * Series of one entity level within a sample set: for every metric of the level and every entity,
 * one value per tick. Stored entity-major (one row per entity and metric) so an entity's series is
 * a contiguous view, the shape clustering and distances consume, and so ticks and entities can both
 * be appended while a run is monitored.
 *
 * Merging rule when one entity reports several times within a tick: counters (`delta`) add, since
 * each record counts what happened since the entity's previous record; gauges keep the last value.
 * Entities without a record in a tick have 0 for counters and NaN for gauges.
 */
export class SeriesTable {
  readonly metrics: readonly PdesMetric[];
  private readonly isGauge: Uint8Array;
  /**
   * One array per metric holding every entity's row: entity e's ticks start at `e * tickCapacity`.
   * Both capacities double as entities and ticks are appended, so a run of any size costs a few
   * allocations per metric (a typed array per entity and metric would cost tens of thousands).
   */
  private data: Float64Array[];
  private tickCapacity = 16;
  private entityCapacity = 16;
  private entities = 0;
  private ticks = 0;
  /** Records merged into this table. */
  records = 0;

  constructor(readonly level: EntityLevel) {
    this.metrics = METRICS_BY_LEVEL[level];
    this.isGauge = Uint8Array.from(this.metrics, m => (m.kind === 'gauge' ? 1 : 0));
    this.data = this.metrics.map((_, m) => this.blankBlock(m, this.entityCapacity * this.tickCapacity));
  }

  get entityCount(): number {
    return this.entities;
  }
  get tickCount(): number {
    return this.ticks;
  }

  /** Index of a metric id in this level's list (-1 when the level does not sample it). */
  metricIndex(id: string): number {
    return metricIndex(this.level, id);
  }

  /** The series of one metric and entity: a view of `tickCount` values, valid until the next append. */
  series(metric: number | string, entity: number): Float64Array {
    const m = typeof metric === 'number' ? metric : this.requireMetric(metric);
    if (entity < 0 || entity >= this.entities) return this.blankBlock(m, this.ticks);
    const at = entity * this.tickCapacity;
    return this.data[m]!.subarray(at, at + this.ticks);
  }

  /** One value (0 or NaN for an entity that never reported). */
  value(metric: number, entity: number, tick: number): number {
    return entity < this.entities
      ? this.data[metric]![entity * this.tickCapacity + tick]!
      : this.isGauge[metric]
        ? NaN
        : 0;
  }

  /** Series of every entity for a metric (views, valid until the next append). */
  matrix(metric: number | string): Float64Array[] {
    const m = typeof metric === 'number' ? metric : this.requireMetric(metric);
    return Array.from({ length: this.entities }, (_, e) => this.series(m, e));
  }

  /** Sum of a counter over all ticks and entities. */
  total(metric: number | string): number {
    let s = 0;
    for (const row of this.matrix(metric)) for (let t = 0; t < row.length; t++) s += row[t]!;
    return s;
  }

  /** Makes room for entity indices below `n`. */
  ensureEntities(n: number): void {
    if (n <= this.entities) return;
    if (n > this.entityCapacity) {
      let cap = this.entityCapacity;
      while (cap < n) cap *= 2;
      this.data = this.data.map((old, m) => {
        const next = this.blankBlock(m, cap * this.tickCapacity);
        next.set(old);
        return next;
      });
      this.entityCapacity = cap;
    }
    this.entities = n;
  }

  /** Makes room for tick indices below `n`. */
  ensureTicks(n: number): void {
    if (n <= this.ticks) return;
    if (n > this.tickCapacity) {
      let cap = this.tickCapacity;
      while (cap < n) cap *= 2;
      const old = this.tickCapacity;
      this.data = this.data.map((block, m) => {
        const next = this.blankBlock(m, this.entityCapacity * cap);
        for (let e = 0; e < this.entities; e++) next.set(block.subarray(e * old, e * old + this.ticks), e * cap);
        return next;
      });
      this.tickCapacity = cap;
    }
    this.ticks = n;
  }

  /** Merges one record's values (in metric order) into an entity's tick. */
  merge(entity: number, tick: number, values: ArrayLike<number>): void {
    if (entity >= this.entities) this.ensureEntities(entity + 1);
    if (tick >= this.ticks) this.ensureTicks(tick + 1);
    const at = entity * this.tickCapacity + tick;
    const data = this.data;
    for (let m = 0; m < data.length; m++) {
      if (this.isGauge[m]) data[m]![at] = values[m]!;
      else data[m]![at]! += values[m]!;
    }
    this.records++;
  }

  /** Reorders entities: new index i takes old index order[i]. */
  permuteEntities(order: Int32Array): void {
    this.ensureEntities(order.length);
    const cap = this.tickCapacity;
    this.data = this.data.map((block, m) => {
      const next = this.blankBlock(m, block.length);
      order.forEach((old, e) => next.set(block.subarray(old * cap, old * cap + this.ticks), e * cap));
      return next;
    });
  }

  /** Reorders ticks: new tick t takes old tick order[t]. */
  permuteTicks(order: Int32Array): void {
    const cap = this.tickCapacity;
    const copy = new Float64Array(this.ticks);
    for (const block of this.data)
      for (let e = 0; e < this.entities; e++) {
        const row = block.subarray(e * cap, e * cap + this.ticks);
        copy.set(row);
        for (let t = 0; t < order.length; t++) row[t] = copy[order[t]!]!;
      }
  }

  private requireMetric(id: string): number {
    const m = this.metricIndex(id);
    if (m < 0) throw new Error(`${this.level.toUpperCase()} samples have no metric "${id}"`);
    return m;
  }

  /** Values for absent records: 0 for counters, NaN for gauges. */
  private blankBlock(m: number, length: number): Float64Array {
    const r = new Float64Array(length);
    if (this.isGauge[m]) r.fill(NaN);
    return r;
  }
}

/**
 * The ticks of a sample set, in time order once {@link SampleSet.sortTicks} ran (readers do; a
 * monitor appends in arrival order).
 */
export interface TickTimes {
  count: number;
  /** The grouping key: virtual time for `virtual-time` grouping, the round number for `ordinal`. */
  key: Float64Array;
  /** The GVT at the sample (Infinity after the end of the simulation). */
  virtualTime: Float64Array;
  /** Wall-clock seconds since the start of the run (the earliest record of the tick). */
  realTime: Float64Array;
}

/**
 * All engine samples of one sampling mode: the tick axis and the PE, KP and LP series. Appendable:
 * {@link add} takes one record at a time (whole-file readers and the live monitor alike), grouping
 * records into ticks by the set's {@link TickGrouping}.
 */
export class SampleSet {
  readonly pe = new SeriesTable('pe');
  readonly kp = new SeriesTable('kp');
  readonly lp = new SeriesTable('lp');
  private readonly keys = new GrowableFloat64();
  private readonly virtualTimes = new GrowableFloat64();
  private readonly realTimes = new GrowableFloat64();
  private readonly tickByKey = new Map<number, number>();
  /** The last key looked up and its tick: records come in runs of one round. */
  private lastKey = NaN;
  private lastKeyTick = -1;
  /** Ordinal grouping: each PE's current round and the entities it reported in it. */
  private readonly rounds = new Map<number, { tick: number; seen: Set<number> }>();

  constructor(
    readonly mode: SamplingMode,
    readonly grouping: TickGrouping = defaultGrouping(mode),
  ) {}

  table(level: EntityLevel): SeriesTable {
    return level === 'pe' ? this.pe : level === 'kp' ? this.kp : this.lp;
  }

  get tickCount(): number {
    return this.keys.length;
  }

  /** The tick axis (views valid until the next append). */
  get ticks(): TickTimes {
    return {
      count: this.keys.length,
      key: this.keys.view(),
      virtualTime: this.virtualTimes.view(),
      realTime: this.realTimes.view(),
    };
  }

  /** Grouping key of tick t (see {@link TickTimes.key}). */
  tickKey(t: number): number {
    return this.keys.get(t);
  }

  /** GVT of tick t. */
  tickVirtualTime(t: number): number {
    return this.virtualTimes.get(t);
  }

  /** Wall-clock seconds of tick t (its earliest record). */
  tickRealTime(t: number): number {
    return this.realTimes.get(t);
  }

  /** Records merged, per level. */
  get records(): Record<EntityLevel, number> {
    return { pe: this.pe.records, kp: this.kp.records, lp: this.lp.records };
  }

  /**
   * Merges one engine record of `level` for entity index `entity`, reported by PE id `pe`, into its
   * tick; returns the tick index.
   */
  add(
    level: EntityLevel,
    entity: number,
    pe: number,
    virtualTime: number,
    realTime: number,
    values: ArrayLike<number>,
  ): number {
    const tick = this.tickOf(level, entity, pe, virtualTime, realTime);
    this.table(level).merge(entity, tick, values);
    return tick;
  }

  /** Sorts ticks by key when a reader appended them out of order; returns whether anything moved. */
  sortTicks(): boolean {
    const key = this.keys.view();
    let sorted = true;
    for (let i = 1; i < key.length && sorted; i++) if (key[i]! < key[i - 1]!) sorted = false;
    if (sorted) return false;
    const order = Int32Array.from({ length: key.length }, (_, i) => i).sort((a, b) => key[a]! - key[b]!);
    for (const col of [this.keys, this.virtualTimes, this.realTimes]) {
      const copy = col.finish();
      order.forEach((old, i) => col.set(i, copy[old]!));
    }
    for (const level of ENTITY_LEVELS) this.table(level).permuteTicks(order);
    this.tickByKey.clear();
    this.keys.view().forEach((k, i) => this.tickByKey.set(k, i));
    this.lastKey = NaN;
    return true;
  }

  /** Reorders one level's entities after {@link PdesEntities.sort}. */
  permuteEntities(level: EntityLevel, order: Int32Array): void {
    this.table(level).permuteEntities(order);
  }

  private tickOf(level: EntityLevel, entity: number, pe: number, virtualTime: number, realTime: number): number {
    if (this.grouping === 'virtual-time') {
      if (virtualTime === this.lastKey) {
        if (realTime < this.realTimes.get(this.lastKeyTick)) this.realTimes.set(this.lastKeyTick, realTime);
        return this.lastKeyTick;
      }
      let t = this.tickByKey.get(virtualTime);
      if (t === undefined) {
        t = this.appendTick(virtualTime, virtualTime, realTime);
        this.tickByKey.set(virtualTime, t);
      } else if (realTime < this.realTimes.get(t)) this.realTimes.set(t, realTime);
      this.lastKey = virtualTime;
      this.lastKeyTick = t;
      return t;
    }
    // An entity is identified across levels by a level-tagged number.
    const tag = entity * 3 + (level === 'pe' ? 0 : level === 'kp' ? 1 : 2);
    let round = this.rounds.get(pe);
    if (!round) {
      round = { tick: 0, seen: new Set() };
      this.rounds.set(pe, round);
    } else if (round.seen.has(tag)) {
      round.tick++;
      round.seen.clear();
    }
    round.seen.add(tag);
    const t = round.tick;
    if (t >= this.keys.length) {
      while (this.keys.length < t) this.appendTick(this.keys.length, NaN, NaN);
      this.appendTick(t, virtualTime, realTime);
    } else if (!(realTime >= this.realTimes.get(t))) {
      this.realTimes.set(t, realTime);
      if (Number.isNaN(this.virtualTimes.get(t))) this.virtualTimes.set(t, virtualTime);
    }
    return t;
  }

  private appendTick(key: number, virtualTime: number, realTime: number): number {
    const t = this.keys.push(key);
    this.virtualTimes.push(virtualTime);
    this.realTimes.push(realTime);
    for (const level of ENTITY_LEVELS) this.table(level).ensureTicks(t + 1);
    return t;
  }
}
