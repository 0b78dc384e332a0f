import { quantileSorted } from 'simple-statistics';
import { comparePaths } from '../formats/profile-folder';
import type { Ensemble, Side } from './ensemble';
import type { EnsembleRun, ParameterValue } from './ensemble-runs';

/**
 * Ordered ensembles (beyond CallFlow, §8 limitations 14 and 16): runs ordered by a parameter such as
 * the rank count, the problem size or a commit, a per-node series of runtime against that order
 * (for sparklines), and a score for nodes whose runtime does not follow the order — the
 * "out-of-order scaling" that box plots cannot show.
 */

/** A run's value of a parameter: its (user-editable) parameters first, then a scalar metadata key. */
export function runParameter(run: EnsembleRun, key: string): ParameterValue | undefined {
  if (key in run.parameters) return run.parameters[key];
  const v = run.metadata[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : v;
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

export interface ParameterKey {
  key: string;
  /** Runs with a value. */
  runs: number;
  /** Distinct values. */
  distinct: number;
  numeric: boolean;
  source: 'parameters' | 'metadata';
}

/**
 * Parameters the ensemble can be ordered by: every run-parameter key and every scalar metadata key
 * that takes at least two distinct values across runs (a constant cannot order anything).
 */
export function orderingKeys(ensemble: Ensemble): ParameterKey[] {
  const keys = new Map<string, 'parameters' | 'metadata'>();
  for (const run of ensemble.runs) {
    for (const k of Object.keys(run.parameters)) keys.set(k, 'parameters');
    for (const [k, v] of Object.entries(run.metadata))
      if (!keys.has(k) && (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean'))
        keys.set(k, 'metadata');
  }
  const out: ParameterKey[] = [];
  for (const [key, source] of keys) {
    const values = ensemble.runs.map(r => runParameter(r, key)).filter((v): v is ParameterValue => v !== undefined);
    const distinct = new Set(values).size;
    if (distinct < 2) continue;
    out.push({ key, runs: values.length, distinct, numeric: values.every(v => typeof v === 'number'), source });
  }
  return out.sort(
    (a, b) =>
      Number(b.source === 'parameters') - Number(a.source === 'parameters') ||
      b.runs - a.runs ||
      (a.key < b.key ? -1 : 1),
  );
}

export interface RunOrder {
  key: string;
  /** True when every value is a number (numeric order); otherwise natural text order (`run9` < `run10`). */
  numeric: boolean;
  /** Distinct parameter values in order. */
  levels: ParameterValue[];
  /** Runs of each level, ascending run index. */
  runsAtLevel: number[][];
  /** Every run with a value, in order (ties by run index). */
  order: number[];
  /** Runs without the parameter (not in the order). */
  unordered: number[];
}

/** Orders the runs by a parameter. Throws when no run has it. */
export function orderRuns(ensemble: Ensemble, key: string): RunOrder {
  const values = ensemble.runs.map(r => runParameter(r, key));
  const present = values.map((_, r) => r).filter(r => values[r] !== undefined);
  if (present.length === 0) throw new Error(`no run has the parameter "${key}"`);
  const numeric = present.every(r => typeof values[r] === 'number');
  const cmp = (a: ParameterValue, b: ParameterValue) =>
    numeric ? (a as number) - (b as number) : comparePaths(String(a), String(b));
  const order = present.slice().sort((a, b) => cmp(values[a]!, values[b]!) || a - b);
  const levels: ParameterValue[] = [];
  const runsAtLevel: number[][] = [];
  for (const r of order) {
    const v = values[r]!;
    if (levels.length === 0 || cmp(levels[levels.length - 1]!, v) !== 0) {
      levels.push(v);
      runsAtLevel.push([]);
    }
    runsAtLevel[runsAtLevel.length - 1]!.push(r);
  }
  return {
    key,
    numeric,
    levels,
    runsAtLevel,
    order,
    unordered: values.map((_, r) => r).filter(r => values[r] === undefined),
  };
}

/**
 * A node's runtime per level of the order: the median over the level's runs where the node exists
 * (repetitions of one configuration collapse to one point), NaN where it exists in none. `scratch`
 * (≥ runCount values) avoids an allocation per call in scans over all nodes.
 */
export function levelSeries(
  ensemble: Ensemble,
  order: RunOrder,
  node: number,
  side: Side,
  scratch?: Float64Array,
): Float64Array {
  const vec = ensemble.values(node, side);
  const out = new Float64Array(order.levels.length).fill(NaN);
  const buf = scratch && scratch.length >= ensemble.runCount ? scratch : new Float64Array(ensemble.runCount);
  order.runsAtLevel.forEach((runs, l) => {
    let n = 0;
    for (const r of runs) {
      const v = vec[r]!;
      if (v === v) buf[n++] = v;
    }
    if (n === 1) out[l] = buf[0]!;
    else if (n > 1) out[l] = quantileSorted(buf.subarray(0, n).sort() as unknown as number[], 0.5);
  });
  return out;
}

export interface OrderScore {
  /** Trend of the series: +1 rising with the order, −1 falling, 0 flat (least-squares slope over the present levels, or the expected direction when given). */
  direction: -1 | 0 | 1;
  /** Σ |steps against the trend| / Σ |steps| between consecutive present levels, in [0, 1]: 0 = monotone. */
  outOfOrder: number;
  /** Largest step against the trend relative to the larger of its two values, in [0, 1]. */
  worstReversal: number;
  /** Steps against the trend beyond the tolerance: levels `from` → `to` (indices into the order's levels) and the change. */
  inversions: { from: number; to: number; change: number }[];
}

export interface OrderScoreOptions {
  /**
   * A step against the trend is an inversion when it exceeds this fraction of the larger of its two
   * values (default 0.1: run-to-run noise of a few percent never counts).
   */
  tolerance?: number;
  /** The direction the runtime should follow (e.g. −1 for strong scaling by rank count); default: the fitted trend. */
  expect?: -1 | 1;
}

/** How well a series follows its trend (see {@link OrderScore}). NaN levels are skipped. */
export function orderScore(series: ArrayLike<number>, options: OrderScoreOptions = {}): OrderScore {
  const tolerance = options.tolerance ?? 0.1;
  const xs: number[] = [],
    ys: number[] = [];
  for (let l = 0; l < series.length; l++) {
    const v = series[l]!;
    if (v === v) {
      xs.push(l);
      ys.push(v);
    }
  }
  const n = ys.length;
  if (n < 2) return { direction: 0, outOfOrder: 0, worstReversal: 0, inversions: [] };
  let direction: -1 | 0 | 1 = options.expect ?? 0;
  if (!options.expect) {
    const mx = xs.reduce((a, b) => a + b, 0) / n,
      my = ys.reduce((a, b) => a + b, 0) / n;
    let sxy = 0;
    for (let k = 0; k < n; k++) sxy += (xs[k]! - mx) * (ys[k]! - my);
    direction = sxy > 0 ? 1 : sxy < 0 ? -1 : 0;
  }
  let total = 0,
    against = 0,
    worstReversal = 0;
  const inversions: OrderScore['inversions'] = [];
  for (let k = 0; k + 1 < n; k++) {
    const d = ys[k + 1]! - ys[k]!;
    total += Math.abs(d);
    if (direction !== 0 && Math.sign(d) === -direction) {
      against += Math.abs(d);
      const relative = Math.abs(d) / Math.max(Math.abs(ys[k]!), Math.abs(ys[k + 1]!));
      if (relative > worstReversal) worstReversal = relative;
      if (relative > tolerance) inversions.push({ from: xs[k]!, to: xs[k + 1]!, change: d });
    }
  }
  return { direction, outOfOrder: total > 0 ? against / total : 0, worstReversal, inversions };
}

export interface OutOfOrderNode {
  node: number;
  score: OrderScore;
  /** Largest inversion, in the metric's unit. */
  largest: number;
}

export interface OutOfOrderOptions extends OrderScoreOptions {
  /** Ignore nodes whose max over runs is below this share of the largest root value (default 0.001). */
  minShare?: number;
}

/**
 * Nodes whose runtime does not follow the order: at least one inversion beyond the tolerance,
 * largest inversion (in the metric's unit) first. O(nodes × runs).
 */
export function outOfOrderNodes(
  ensemble: Ensemble,
  order: RunOrder,
  side: Side,
  options: OutOfOrderOptions = {},
): OutOfOrderNode[] {
  let top = 0;
  for (const r of ensemble.tree.roots()) for (const v of ensemble.values(r, 'inclusive')) if (v > top) top = v;
  const floor = (options.minShare ?? 0.001) * top;
  const out: OutOfOrderNode[] = [];
  const scratch = new Float64Array(ensemble.runCount);
  for (let u = 0; u < ensemble.size; u++) {
    const series = levelSeries(ensemble, order, u, side, scratch);
    let max = -Infinity;
    for (const v of series) if (v > max) max = v;
    if (!(max >= floor) || max <= 0) continue;
    const score = orderScore(series, options);
    if (score.inversions.length === 0) continue;
    out.push({ node: u, score, largest: Math.max(...score.inversions.map(i => Math.abs(i.change))) });
  }
  return out.sort((a, b) => b.largest - a.largest || a.node - b.node);
}
