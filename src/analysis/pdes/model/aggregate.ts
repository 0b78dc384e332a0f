import type { PdesEntities } from './entities';
import { ENTITY_LEVELS, METRICS_BY_LEVEL, type EntityLevel } from './metrics';
import type { SampleSet } from './sample-set';

/**
 * One metric of a finer level rolled up to a coarser one (LP → KP or PE, KP → PE), for runs that
 * sampled only the finer level or for checking one level against the other: counters add over an
 * entity's children, gauges are the mean of the children that reported. Children whose placement
 * is unknown are left out. One series per entity of `to`, one value per tick.
 */
export function aggregateSeries(
  set: SampleSet,
  entities: PdesEntities,
  from: EntityLevel,
  to: EntityLevel,
  metric: string,
): Float64Array[] {
  if (ENTITY_LEVELS.indexOf(to) >= ENTITY_LEVELS.indexOf(from))
    throw new Error(`${from.toUpperCase()} series roll up to a coarser level, not to ${to.toUpperCase()}`);
  const table = set.table(from);
  const m = table.metricIndex(metric);
  if (m < 0) throw new Error(`${from.toUpperCase()} samples have no metric "${metric}"`);
  const gauge = METRICS_BY_LEVEL[from][m]!.kind === 'gauge';
  const ticks = set.tickCount;
  const n = entities.count(to);
  const out = Array.from({ length: n }, () => new Float64Array(ticks));
  const reported = gauge ? Array.from({ length: n }, () => new Float64Array(ticks)) : [];
  for (let child = 0; child < table.entityCount; child++) {
    const parent =
      from === 'lp' ? entities.lpAncestor(child, to) : entities.kpPe(child); /* from === 'kp', to === 'pe' */
    if (parent < 0 || parent >= n) continue;
    const series = table.series(m, child);
    const acc = out[parent]!;
    for (let t = 0; t < ticks; t++) {
      const v = series[t]!;
      if (!gauge) acc[t]! += v;
      else if (v === v) {
        acc[t]! += v;
        reported[parent]![t]!++;
      }
    }
  }
  if (gauge) out.forEach((acc, p) => acc.forEach((v, t) => (acc[t] = reported[p]![t] ? v / reported[p]![t]! : NaN)));
  return out;
}
