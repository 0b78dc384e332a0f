import type { FunctionTotals } from '../model/aggregates';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';

/** Metrics that count entries into a frame: TAU `calls`, Score-P CUBE and OTF2 `visits`. */
const CALL_METRICS = new Set(['calls', 'visits']);

/**
 * How often each function of `totals` was called (recursive calls included), NaN when the profile
 * does not say. From the call graph when the format states one (gprof's per-function count, else
 * the sum over the arcs into the function, as callgrind gives them), otherwise from a call-count
 * metric summed over the function's frames. Caliper's `count` is left out on purpose: it counts
 * samples or snapshot records, not calls.
 */
export function functionCallCounts(profile: Profile, totals: FunctionTotals): Float64Array {
  const out = new Float64Array(totals.names.length).fill(NaN);
  const indexOf = new Map(totals.names.map((n, f) => [n, f]));
  const graph = profile.callGraph;
  if (graph) {
    const strings = profile.tree.strings;
    const { name, calls } = graph.functions;
    const intoArcs = new Float64Array(name.length).fill(NaN);
    for (let a = 0; a < graph.arcs.callee.length; a++) {
      const c = graph.arcs.calls[a]!,
        g = graph.arcs.callee[a]!;
      if (!Number.isNaN(c)) intoArcs[g] = Number.isNaN(intoArcs[g]!) ? c : intoArcs[g]! + c;
    }
    for (let g = 0; g < name.length; g++) {
      const f = indexOf.get(strings.get(name[g]!));
      const c = Number.isNaN(calls[g]!) ? intoArcs[g]! : calls[g]!;
      if (f === undefined || Number.isNaN(c)) continue;
      out[f] = Number.isNaN(out[f]!) ? c : out[f]! + c;
    }
    return out;
  }
  const m = profile.metrics.findIndex(d => CALL_METRICS.has(d.name) && d.unit === 'count');
  if (m < 0) return out;
  const excl = profile.exclusiveTotals(m);
  const { kind } = profile.tree.columns;
  for (let i = 0; i < kind.length; i++) {
    const f = totals.functionOfNode[i]!;
    if (f < 0 || (kind[i] !== NodeKind.Function && kind[i] !== NodeKind.Region)) continue;
    out[f] = Number.isNaN(out[f]!) ? excl[i]! : out[f]! + excl[i]!;
  }
  return out;
}
