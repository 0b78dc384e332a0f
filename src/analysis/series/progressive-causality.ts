import { systemClock, TimeBudget, type Clock } from './time-budget';
import {
  grangerTest,
  orthogonalImpulseResponses,
  selectVar,
  varFitCost,
  varianceDecomposition,
  type VarFit,
} from './var-model';

export interface ProgressiveCausalityOptions {
  /** Latency budget in milliseconds (default 100, the reference code's VAR latency). */
  budgetMs?: number;
  /** Time points of the first fit (default 10, the seed's s). */
  initialPoints?: number;
  /** Largest lag tried by AIC (default 5). */
  maxLag?: number;
  /** Flag p-values below this (default 0.05). */
  pThreshold?: number;
  /** Steps after the shock at which IR and VD are read (default 1, "one step later"). */
  horizon?: number;
  clock?: Clock;
}

/** Where the progressive fit of the previous tick ended: the next tick starts there. */
export interface CausalityState {
  points: number;
  lastFitMs: number;
}

/** One metric's line in the causality table, relative to the metric of interest. */
export interface CausalityRow {
  /** Index of the metric (variable) in the caller's list. */
  variable: number;
  /** Granger F statistic and its p-value (NaN when the metric was constant in the window). */
  F: number;
  pValue: number;
  /** p-value below the threshold. */
  flagged: boolean;
  /** Orthogonalised impulse response `horizon` steps after a one-s.d. shock. */
  impulse: number;
  /** Share of the forecast-error variance (0…1). */
  varianceShare: number;
}

export interface ProgressiveCausalityResult {
  /** The metric of interest. */
  target: number;
  /** Time points of the fit reported (the most recent ones, contiguous). */
  points: number;
  lag: number;
  /** VAR order selections run within the budget. */
  fits: number;
  /**
   * From-causality (what drives the target): Granger test of each metric on the target, the
   * target's response to a shock in the metric, the metric's share of the target's variance.
   */
  from: CausalityRow[];
  /** To-causality (what the target drives): the same with the roles swapped. */
  to: CausalityRow[];
  /** Metrics left out because they were constant in the window. */
  constant: number[];
  /** A ridge was needed (collinear metrics). */
  regularised: boolean;
  /** Where the next tick starts, and the last fit's duration (ms). */
  state: CausalityState;
  elapsedMs: number;
}

/**
 * Progressive causality among d metrics (thesis §6.3.4): a VAR fitted on the most recent s
 * contiguous time points (not randomly chosen rows, which would break the lag structure — seed
 * digest §2.5.4), s starting at 10 (or where the previous tick stopped, first shrunk by
 * √(budget / t_c) when that fit alone overran) and growing by s ← s·√(t_r / t_c) while time
 * remains (t_c: the last fit's duration, t_r: what is left of the budget) until s reaches all t
 * points — each step capped where the last fit's pace predicts that t_r runs out. From the last fit: Granger p-values from and to the metric of interest, the
 * orthogonalised impulse responses and the variance decomposition at `horizon`. `data` holds t
 * rows of d values (time-major); non-finite values count as 0. Null when the target is constant or
 * no window fits.
 */
export function progressiveCausality(
  data: Float64Array,
  t: number,
  d: number,
  target: number,
  state: CausalityState | null,
  options: ProgressiveCausalityOptions = {},
): ProgressiveCausalityResult | { skipped: string } {
  if (data.length < t * d) throw new RangeError(`causality: ${data.length} values for ${t} × ${d}`);
  if (target < 0 || target >= d) throw new RangeError(`causality: no metric ${target} among ${d}`);
  const budgetMs = options.budgetMs ?? 100;
  const clock = options.clock ?? systemClock;
  const budget = new TimeBudget(budgetMs, clock);
  const initial = Math.max(3, Math.floor(options.initialPoints ?? 10));
  const maxLag = Math.max(1, Math.floor(options.maxLag ?? 5));
  const horizon = Math.max(0, Math.floor(options.horizon ?? 1));
  const threshold = options.pThreshold ?? 0.05;
  if (t < 3) return { skipped: `causality needs at least 3 time points, has ${t}` };

  let s = state?.points ?? initial;
  if (state && state.lastFitMs > budgetMs) s = Math.floor(s * Math.sqrt(budgetMs / state.lastFitMs));
  s = Math.max(Math.min(initial, t), Math.min(t, s));

  let best: { fit: VarFit; s: number; kept: number[]; constant: number[] } | null = null;
  let fits = 0;
  let lastFitMs = 0;
  let reason = '';
  for (;;) {
    if (fits > 0 && !best) {
      // Before any fit succeeded the √-rule has no time to go by: the smallest feasible window is
      // priced at about 1 GFLOP/s and not started when it would overrun (many metrics make even
      // the smallest VAR expensive).
      const expected = varFitCost(s, d, maxLag) * 1e-6;
      if (expected > budget.remaining()) {
        reason = `a VAR of ${d} metrics on ${s} points would take about ${Math.round(expected)} ms, over the ${budgetMs} ms budget`;
        break;
      }
    }
    const start = clock();
    const window = windowOf(data, t, d, s);
    let fitted = false;
    if (!window.kept.includes(target)) reason = `the metric of interest is constant over the last ${s} points`;
    else {
      const sel = selectVar(window.values, window.kept.length, maxLag);
      fits++;
      if (sel) {
        best = { fit: sel.fit, s, kept: window.kept, constant: window.constant };
        fitted = true;
      } else reason = `${s} time points are too few for a VAR of ${window.kept.length} metrics`;
    }
    lastFitMs = clock() - start;
    if (s >= t) break;
    const remaining = budget.remaining();
    if (remaining <= 0) break;
    let next: number;
    // A window too short for any VAR grows to at least 2d + 2 points (lag 1 with d residual degrees of freedom).
    if (!fitted) next = Math.max(2 * s, 2 * window.kept.length + 2);
    else {
      next = Math.min(t, lastFitMs > 0 ? Math.floor(s * Math.sqrt(remaining / lastFitMs)) : t);
      // The rule assumes a cost quadratic in s; a longer window also admits more lags (k = 1 + d·p
      // regressors), so the step is capped where the last fit's pace predicts the remaining time
      // runs out.
      const m = window.kept.length;
      const msPerOp = lastFitMs / varFitCost(s, m, maxLag);
      if (lastFitMs > 0 && varFitCost(next, m, maxLag) * msPerOp > remaining) {
        let lo = s,
          hi = next;
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (varFitCost(mid, m, maxLag) * msPerOp <= remaining) lo = mid;
          else hi = mid;
        }
        next = lo;
      }
    }
    if (next <= s) break;
    s = Math.min(t, next);
  }
  const elapsedMs = budget.elapsed();
  if (!best) return { skipped: reason };

  const { fit, kept } = best;
  const local = kept.indexOf(target);
  const theta = orthogonalImpulseResponses(fit, horizon);
  const shares = varianceDecomposition(fit, horizon, theta);
  const m = fit.dims;
  const response = theta[horizon]!;
  const row = (variable: number, caused: number, causing: number): CausalityRow => {
    const g = grangerTest(fit, caused, causing);
    return {
      variable,
      F: g.F,
      pValue: g.pValue,
      flagged: g.pValue < threshold,
      impulse: response[caused * m + causing]!,
      varianceShare: shares[caused * m + causing]!,
    };
  };
  const blank = (variable: number): CausalityRow => ({
    variable,
    F: NaN,
    pValue: NaN,
    flagged: false,
    impulse: 0,
    varianceShare: 0,
  });
  const from: CausalityRow[] = [];
  const to: CausalityRow[] = [];
  for (let v = 0; v < d; v++) {
    if (v === target) continue;
    const j = kept.indexOf(v);
    from.push(j < 0 ? blank(v) : row(v, local, j));
    to.push(j < 0 ? blank(v) : row(v, j, local));
  }
  return {
    target,
    points: best.s,
    lag: fit.lag,
    fits,
    from,
    to,
    constant: best.constant,
    regularised: fit.regularised,
    state: { points: best.s, lastFitMs },
    elapsedMs,
  };
}

/** The last s rows with the columns that vary in them (non-finite values as 0). */
function windowOf(
  data: Float64Array,
  t: number,
  d: number,
  s: number,
): { values: Float64Array; kept: number[]; constant: number[] } {
  const from = t - s;
  const kept: number[] = [];
  const constant: number[] = [];
  const clean = (v: number) => (Number.isFinite(v) ? v : 0);
  for (let j = 0; j < d; j++) {
    const first = clean(data[from * d + j]!);
    let varies = false;
    for (let r = from + 1; r < t && !varies; r++) if (clean(data[r * d + j]!) !== first) varies = true;
    (varies ? kept : constant).push(j);
  }
  const values = new Float64Array(s * kept.length);
  for (let r = 0; r < s; r++) kept.forEach((j, c) => (values[r * kept.length + c] = clean(data[(from + r) * d + j]!)));
  return { values, kept, constant };
}
