import type { MetricCorrelationData } from '../../shared/ensemble-protocol';
import type { CallSiteRunValues, CallSites, SupernodeScope } from './supernode-scope';

/** Scatter points sent at most; the heaviest call sites' points go first. */
export const MAX_CORRELATION_POINTS = 20_000;

/**
 * Metric correlation (§4.5): one point per call site × selected run where the call site exists, at
 * that run's inclusive and exclusive value of the call site (means over the run's ranks; inclusive
 * over its outermost nodes, exclusive over all nodes it owns). Call sites go heaviest first (max
 * inclusive over the selected runs); whole call sites are sent until the next would pass `maxPoints`.
 */
export function metricCorrelation(
  scope: SupernodeScope,
  sites: CallSites,
  values: CallSiteRunValues,
  maxPoints = MAX_CORRELATION_POINTS,
): MetricCorrelationData {
  const K = scope.runs.length,
    S = sites.names.length;
  const heaviest = new Float64Array(S).fill(-Infinity);
  for (let cs = 0; cs < S; cs++)
    for (let k = 0; k < K; k++) {
      const v = values.inclusive[cs * K + k]!;
      if (v > heaviest[cs]!) heaviest[cs] = v;
    }
  const order = Array.from({ length: S }, (_, cs) => cs)
    .filter(cs => values.present[cs]! > 0)
    .sort((a, b) => heaviest[b]! - heaviest[a]! || a - b);
  const out: MetricCorrelationData = {
    callSites: [],
    callSite: [],
    run: [],
    inclusive: [],
    exclusive: [],
    truncated: 0,
  };
  let full = false;
  for (const cs of order) {
    const n = values.present[cs]!;
    if (full || out.run.length + n > maxPoints) {
      full = true;
      out.truncated += n;
      continue;
    }
    const index = out.callSites.length;
    out.callSites.push(sites.names[cs]!);
    for (let k = 0; k < K; k++) {
      const inc = values.inclusive[cs * K + k]!;
      if (inc !== inc) continue;
      out.callSite.push(index);
      out.run.push(scope.runs[k]!);
      out.inclusive.push(inc);
      out.exclusive.push(values.exclusive[cs * K + k]!);
    }
  }
  return out;
}
