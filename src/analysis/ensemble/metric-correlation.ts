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
  const heaviest = rowMaxima(values.inclusive, S, K);
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
    out.callSites.push(sites.names[cs]!);
    addPoints(out, out.callSites.length - 1, cs * K, scope.runs, values);
  }
  return out;
}

/*
 * The loops over call sites × runs are small functions of their own: run once per selection, V8
 * compiles them quickly (inlined in `metricCorrelation` they ran interpreted while it compiled).
 */

/** Max of each row of a rows × K matrix (-Infinity for a row of NaN). */
function rowMaxima(matrix: Float64Array, rows: number, K: number): Float64Array {
  const out = new Float64Array(rows).fill(-Infinity);
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < K; k++) {
      const v = matrix[r * K + k]!;
      if (v > out[r]!) out[r] = v;
    }
  return out;
}

/** One call site's points: its row (from `at`) of the run values, where it exists. */
function addPoints(
  out: MetricCorrelationData,
  index: number,
  at: number,
  runs: Int32Array,
  values: CallSiteRunValues,
): void {
  for (let k = 0; k < runs.length; k++) {
    const inc = values.inclusive[at + k]!;
    if (inc !== inc) continue;
    out.callSite.push(index);
    out.run.push(runs[k]!);
    out.inclusive.push(inc);
    out.exclusive.push(values.exclusive[at + k]!);
  }
}
