import type { PdesEntities } from '../../pdes/entities';
import type { SampleSet } from '../../pdes/sample-set';
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
  private readonly seen = new Set<number>();

  constructor(
    private readonly entities: PdesEntities,
    private readonly set: SampleSet,
    private readonly models?: { collector: ModelSampleCollector; lpTypeName?: (lp: number) => string | undefined },
  ) {}

  engine(rec: EngineRecord): void {
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
    // Entity indices stay below 2^21 and levels take 2 bits, so the key is exact in a double.
    const key = (tick * 4 + (rec.level === 'pe' ? 0 : rec.level === 'kp' ? 1 : 2)) * 2097152 + entity;
    if (this.seen.has(key)) this.repeats++;
    else this.seen.add(key);
  }

  model(rec: ModelRecord): void {
    this.models?.collector.add(rec, this.models.lpTypeName?.(rec.lp));
  }
}
