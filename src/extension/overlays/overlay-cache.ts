import { functionTotals, lineCosts, type FunctionTotals } from '../../analysis/model/aggregates';
import type { Profile } from '../../analysis/model/profile';

/**
 * Per-(profile, metric) results the overlays share, computed on first use. Keyed weakly on the
 * profile, so closing a profile frees them.
 */
interface MetricCache {
  totals?: FunctionTotals;
  hottestLine?: number;
}

const caches = new WeakMap<Profile, Map<number, MetricCache>>();

function cacheOf(profile: Profile, m: number): MetricCache {
  let byMetric = caches.get(profile);
  if (!byMetric) caches.set(profile, (byMetric = new Map()));
  let c = byMetric.get(m);
  if (!c) byMetric.set(m, (c = {}));
  return c;
}

/**
 * Stores results computed elsewhere (the analysis worker derives them with the overlays), so the
 * first hover or global heat scale does not walk the whole profile on the host's thread.
 */
export function seedMetricCache(profile: Profile, m: number, values: MetricCache): void {
  const c = cacheOf(profile, m);
  if (values.totals) c.totals = values.totals;
  if (values.hottestLine !== undefined) c.hottestLine = values.hottestLine;
}

/** functionTotals(profile, m), once per profile and metric. */
export function cachedFunctionTotals(profile: Profile, m: number): FunctionTotals {
  const c = cacheOf(profile, m);
  return (c.totals ??= functionTotals(profile, m));
}

/** The largest exclusive value of any source line of the whole profile (every file, mapped or not). */
export function hottestLineValue(profile: Profile, m: number): number {
  const c = cacheOf(profile, m);
  if (c.hottestLine === undefined) {
    let max = 0;
    for (const lines of lineCosts(profile, m).values()) for (const l of lines) if (l.exclusive > max) max = l.exclusive;
    c.hottestLine = max;
  }
  return c.hottestLine;
}
