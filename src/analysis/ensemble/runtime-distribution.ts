import type { DistributionHistogram, RuntimeDistributionData } from '../../shared/ensemble-protocol';
import { binOf } from '../stats/histogram';
import type { RankValues } from './call-site-boxes';
import { binCount, type BinRule } from './node-statistics';
import { supernodeValuesOverRuns, type CallSiteRunValues, type SupernodeScope } from './supernode-scope';

/**
 * Histogram of ensemble values with the target's values counted on the same edges: the union range
 * of both (CallFlow's `abs`/`rel` bars), equal-width bins (`auto` = Freedman–Diaconis on the
 * ensemble's values). NaN (missing) values are never counted. `target` null = not in target mode.
 */
export function distributionHistogram(
  values: Float64Array,
  target: Float64Array | null,
  bins: BinRule,
  unit: string,
): DistributionHistogram {
  const present = values.filter(v => v === v);
  const targetPresent = target ? target.filter(v => v === v) : new Float64Array(0);
  let min = Infinity,
    max = -Infinity;
  for (const a of [present, targetPresent])
    for (const v of a) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  const n = binCount(bins, bins === 'auto' ? present.slice().sort() : present);
  if (min > max) {
    min = 0;
    max = 0;
  }
  const edges = Array.from({ length: n + 1 }, (_, b) => (b === n ? max : min + (b * (max - min)) / n));
  const count = (a: Float64Array) => {
    const c = new Array<number>(n).fill(0);
    for (const v of a) c[binOf(v, min, max, n)]!++;
    return c;
  };
  return { edges, counts: count(present), targetCounts: target ? count(targetPresent) : null, unit };
}

/** Mean of each row's present values (a small function: V8 compiles its loop early). */
function presentMeans(matrix: Float64Array, present: Int32Array, S: number, K: number): Float64Array {
  const out = new Float64Array(S).fill(NaN);
  for (let cs = 0; cs < S; cs++) {
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const v = matrix[cs * K + k]!;
      if (v === v) sum += v;
    }
    if (present[cs]! > 0) out[cs] = sum / present[cs]!;
  }
  return out;
}

function concat(arrays: readonly (Float64Array | null)[]): Float64Array {
  let n = 0;
  for (const a of arrays) if (a) n += a.length;
  const out = new Float64Array(n);
  let at = 0;
  for (const a of arrays)
    if (a) {
      out.set(a, at);
      at += a.length;
    }
  return out;
}

/**
 * Runtime distribution of the selected supernode (§4.6) on the scope's side, in its three modes:
 * per call site (its mean over the selected runs where it exists; the target's: its value in the
 * target run), per selected run (the supernode's value; the target: one count), per rank (every rank
 * of every selected run; the target's ranks).
 */
export function runtimeDistribution(
  scope: SupernodeScope,
  callSiteValues: CallSiteRunValues,
  targetCallSiteValues: CallSiteRunValues | null,
  ranks: RankValues,
  targetRanks: RankValues | null,
  bins: BinRule,
): RuntimeDistributionData {
  const { side, runs } = scope;
  const K = runs.length;
  const S = callSiteValues.present.length;
  const perSite = side === 'inclusive' ? callSiteValues.inclusive : callSiteValues.exclusive;
  const siteMeans = presentMeans(perSite, callSiteValues.present, S, K);
  const targetRun = scope.target >= 0 ? Int32Array.of(scope.target) : null;
  const targetSites = targetCallSiteValues
    ? side === 'inclusive'
      ? targetCallSiteValues.inclusive
      : targetCallSiteValues.exclusive
    : null;
  return {
    callsite: distributionHistogram(siteMeans, targetSites, bins, 'call sites'),
    run: distributionHistogram(
      supernodeValuesOverRuns(scope, side),
      targetRun ? supernodeValuesOverRuns(scope, side, targetRun) : null,
      bins,
      'runs',
    ),
    rank: distributionHistogram(
      concat(ranks.supernode),
      targetRanks ? concat(targetRanks.supernode) : null,
      bins,
      'ranks',
    ),
  };
}
