import { GrowableInt32 } from '../../model/growable';
import type { PdesEntities } from '../../pdes/model/entities';
import type { SampleSet } from '../../pdes/model/sample-set';
import type { ModelSampleCollector } from './codes-model-samples';
import type { EngineRecord, ModelRecord, StatsRecordSink } from './record-decoder';

/**
 * Routes decoded stats records into a run: interns the entity each engine record names, places LPs
 * on their KP and PE (an LP record names all three), merges the values into the sample set's tick,
 * and hands model records to a collector. The whole-file reader and a live monitor (which pushes a
 * tailed file's new bytes through a {@link RossStatsDecoder} into this sink) share it.
 */
export class EngineSampleIngest implements StatsRecordSink {
  /** Records that repeated an entity within a tick (virtual-time sampling re-samples after rollbacks). */
  repeats = 0;
  /** Per level, the last tick each entity reported in (entities report their ticks in order). */
  private readonly lastTick = { pe: new GrowableInt32(), kp: new GrowableInt32(), lp: new GrowableInt32() };

  constructor(
    private readonly entities: PdesEntities,
    private readonly set: SampleSet,
    private readonly models?: { collector: ModelSampleCollector; lpTypeName?: (lp: number) => string | undefined },
  ) {}

  /** Merges one record; returns the index of the tick it went into. */
  engine(rec: EngineRecord): number {
    const e = this.entities;
    let entity: number;
    if (rec.level === 'pe') entity = e.internPe(rec.pe);
    else if (rec.level === 'kp') entity = e.internKp(rec.pe, rec.kp);
    else {
      entity = e.internLp(rec.lp);
      const kp = e.internKp(rec.pe, rec.kp);
      e.placeLp(entity, e.kpPe(kp), kp);
    }
    const tick = this.set.add(rec.level, entity, rec.pe, rec.virtualTime, rec.realTime, rec.values);
    const last = this.lastTick[rec.level];
    while (last.length <= entity) last.push(-1);
    if (last.get(entity) === tick) this.repeats++;
    else last.set(entity, tick);
    return tick;
  }

  model(rec: ModelRecord): void {
    this.models?.collector.add(rec, this.models.lpTypeName?.(rec.lp));
  }
}
