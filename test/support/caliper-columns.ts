import assert from 'node:assert/strict';
import { isBookkeepingAttribute } from '../../src/analysis/formats/caliper/attributes';
import type { Profile } from '../../src/analysis/model/profile';

/**
 * The values of a Hatchet column of a Caliper profile (any form) in our model, for
 * checkAgainstOracle. Hatchet keeps every Caliper column as it is; `X (inc)` is Hatchet's inclusive
 * partner of `X`. A column that is inclusive by Caliper's naming (`…#inclusive#…`) is compared on
 * our inclusive side whether Hatchet lists it as exclusive (json-split, caveat 13) or inclusive
 * (.cali, caveat 17): its per-node values are the same numbers either way.
 *
 * Bookkeeping columns (`min#min#aggregate.slot`, the "Node order" of region profiles) are not
 * metrics in our model, so they are skipped (null).
 */
export function caliperColumnValues(profile: Profile, hatchetColumn: string): Float64Array | null {
  const inc = hatchetColumn.endsWith(' (inc)');
  const name = inc ? hatchetColumn.slice(0, -' (inc)'.length) : hatchetColumn;
  if (isBookkeepingAttribute(name)) return null;
  const m = profile.metricIndex(name);
  assert.ok(m >= 0, `metric ${name} missing; we have ${profile.metrics.map(x => x.name).join(', ')}`);
  const d = profile.metrics[m]!;
  const inclusiveSide = inc || d.kind === 'inclusive';
  return inclusiveSide ? profile.inclusiveTotals(m) : profile.exclusiveTotals(m);
}
