import { fSurvival } from '../stats/distributions';

/**
 * Vector autoregression (Hamilton 1994, ch. 11) for the seed's causality view (thesis §6.3.4):
 * y_τ = c + A_1·y_{τ−1} + … + A_p·y_{τ−p} + u_τ fitted by least squares, equation by equation
 * with the shared regressors [1, y_{τ−1}, …, y_{τ−p}]; the lag chosen by AIC as statsmodels'
 * `VAR.fit(maxlags, ic='aic', trend='c')` does; Granger causality F-tests, orthogonalised impulse
 * responses and the forecast-error variance decomposition. Data are t rows of d variables
 * (time-major).
 */
export interface VarFit {
  /** Variables (equations). */
  dims: number;
  /** Lag order p. */
  lag: number;
  /** Observations used: rows − p. */
  observations: number;
  /** Regressors per equation: 1 + d·p. */
  regressors: number;
  /** Residual degrees of freedom: observations − regressors. */
  dfResidual: number;
  /** Intercepts c (d). */
  intercept: Float64Array;
  /** A_l[i][j] at `coefficients[(l − 1)·d² + i·d + j]`: the effect of variable j at lag l on variable i. */
  coefficients: Float64Array;
  /** Residual covariance with the degrees-of-freedom correction (statsmodels' `sigma_u`), d × d. */
  residualCovariance: Float64Array;
  /** Residual sum of squares per equation. */
  rss: Float64Array;
  /** (XᵀX)⁻¹, regressors × regressors (shared by all equations). */
  xtxInverse: Float64Array;
  /** Akaike's criterion: ln det Σ̂_mle + 2·(p·d² + d)/observations. */
  aic: number;
  /** A tiny ridge was needed to invert XᵀX (collinear variables). */
  regularised: boolean;
}

/** Fits a VAR(p) with intercept to rows [from, from + rows) of `data`; null when there are too few rows. */
export function fitVar(data: Float64Array, dims: number, lag: number, from = 0, rows?: number): VarFit | null {
  const total = rows ?? data.length / dims - from;
  const T = total - lag;
  const k = 1 + dims * lag;
  if (lag < 1 || T <= k) return null;
  // XᵀX and XᵀY, accumulated row by row without materialising X.
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k * dims);
  const x = new Float64Array(k);
  for (let tau = lag; tau < total; tau++) {
    regressorRow(data, dims, lag, from + tau, x);
    const y = (from + tau) * dims;
    for (let a = 0; a < k; a++) {
      const xa = x[a]!;
      if (xa === 0) continue;
      const ra = a * k;
      for (let b = a; b < k; b++) xtx[ra + b]! += xa * x[b]!;
      const ya = a * dims;
      for (let j = 0; j < dims; j++) xty[ya + j]! += xa * data[y + j]!;
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) xtx[a * k + b] = xtx[b * k + a]!;
  const inverse = invertSymmetric(xtx, k);
  if (!inverse) return null;
  const { matrix: A, regularised } = inverse;
  // B = (XᵀX)⁻¹ XᵀY, k × d.
  const B = new Float64Array(k * dims);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      const w = A[a * k + b]!;
      if (w === 0) continue;
      for (let j = 0; j < dims; j++) B[a * dims + j]! += w * xty[b * dims + j]!;
    }
  // Residuals: their cross products and per-equation sums of squares.
  const cross = new Float64Array(dims * dims);
  const resid = new Float64Array(dims);
  for (let tau = lag; tau < total; tau++) {
    regressorRow(data, dims, lag, from + tau, x);
    const y = (from + tau) * dims;
    for (let j = 0; j < dims; j++) {
      let fitted = 0;
      for (let a = 0; a < k; a++) fitted += x[a]! * B[a * dims + j]!;
      resid[j] = data[y + j]! - fitted;
    }
    for (let i = 0; i < dims; i++) for (let j = i; j < dims; j++) cross[i * dims + j]! += resid[i]! * resid[j]!;
  }
  for (let i = 0; i < dims; i++) for (let j = 0; j < i; j++) cross[i * dims + j] = cross[j * dims + i]!;
  const df = T - k;
  const residualCovariance = cross.map(v => v / df);
  const rss = Float64Array.from({ length: dims }, (_, i) => cross[i * dims + i]!);
  const logDet = logDetSymmetric(
    cross.map(v => v / T),
    dims,
  );
  const intercept = B.slice(0, dims);
  const coefficients = new Float64Array(lag * dims * dims);
  for (let l = 0; l < lag; l++)
    for (let j = 0; j < dims; j++)
      for (let i = 0; i < dims; i++) coefficients[l * dims * dims + i * dims + j] = B[(1 + l * dims + j) * dims + i]!;
  return {
    dims,
    lag,
    observations: T,
    regressors: k,
    dfResidual: df,
    intercept,
    coefficients,
    residualCovariance,
    rss,
    xtxInverse: A,
    aic: logDet + (2 * (lag * dims * dims + dims)) / T,
    regularised,
  };
}

/** [1, y_{τ−1}, …, y_{τ−p}] for the row at absolute index `row`. */
function regressorRow(data: Float64Array, dims: number, lag: number, row: number, out: Float64Array): void {
  out[0] = 1;
  for (let l = 1; l <= lag; l++) {
    const src = (row - l) * dims;
    out.set(data.subarray(src, src + dims), 1 + (l - 1) * dims);
  }
}

/**
 * The VAR whose lag (1…maxLag) has the lowest AIC, the criteria compared on the same observations
 * (the rows after the largest lag, as statsmodels' `select_order`), then refitted on all rows.
 * Lags that leave too few observations are skipped; null when none fits.
 */
export function selectVar(
  data: Float64Array,
  dims: number,
  maxLag: number,
  from = 0,
  rows?: number,
): { fit: VarFit; aic: number[] } | null {
  const total = rows ?? data.length / dims - from;
  // The largest lag whose residuals on the common sample keep d degrees of freedom (a singular
  // residual covariance has no finite AIC).
  let top = Math.max(1, Math.floor(maxLag));
  while (top > 1 && total - top - (1 + dims * top) < dims) top--;
  const aic: number[] = [];
  let best = -1;
  for (let p = 1; p <= top; p++) {
    const fit = fitVar(data, dims, p, from + top - p, total - top + p);
    aic.push(fit ? fit.aic : NaN);
    if (fit && Number.isFinite(fit.aic) && (best < 0 || fit.aic < aic[best - 1]!)) best = p;
  }
  if (best < 0) return null;
  const fit = fitVar(data, dims, best, from, total);
  return fit ? { fit, aic } : null;
}

/**
 * Arithmetic of {@link selectVar} on `rows` time points of d variables (multiply–adds): per lag p
 * tried, XᵀX (T·k²/2), its inverse (k³/3), the coefficients (k²·d) and the residuals (T·k·d),
 * with k = 1 + d·p regressors and T = rows − p observations. Progressive fits price the next
 * window with it.
 */
export function varFitCost(rows: number, dims: number, maxLag: number): number {
  let top = Math.max(1, Math.floor(maxLag));
  while (top > 1 && rows - top - (1 + dims * top) < dims) top--;
  let cost = 0;
  for (let p = 1; p <= top; p++) {
    const k = 1 + dims * p,
      T = Math.max(0, rows - p);
    cost += (T * k * k) / 2 + (k * k * k) / 3 + k * k * dims + T * k * dims;
  }
  return cost;
}

/**
 * Granger causality of `causing` on `caused` within a fitted VAR: the F-test that the p lag
 * coefficients of `causing` in the equation of `caused` are all zero, F = (b_Rᵀ·(A_RR)⁻¹·b_R / p)
 * / σ̂², with A = (XᵀX)⁻¹ and σ̂² = RSS/df — the restricted-versus-unrestricted regression test
 * (Hamilton 1994 §11.2), F(p, df) under the null.
 */
export function grangerTest(
  fit: VarFit,
  caused: number,
  causing: number,
): { F: number; df1: number; df2: number; pValue: number } {
  const { dims: d, lag: p, regressors: k, xtxInverse: A, coefficients } = fit;
  const idx = Array.from({ length: p }, (_, l) => 1 + l * d + causing);
  const b = idx.map((_, l) => coefficients[l * d * d + caused * d + causing]!);
  const block = new Float64Array(p * p);
  idx.forEach((r, a) => idx.forEach((c, bb) => (block[a * p + bb] = A[r * k + c]!)));
  const inv = invertSymmetric(block, p);
  const sigma2 = fit.rss[caused]! / fit.dfResidual;
  if (!inv || !(sigma2 > 0)) return { F: NaN, df1: p, df2: fit.dfResidual, pValue: NaN };
  let wald = 0;
  for (let a = 0; a < p; a++) for (let c = 0; c < p; c++) wald += b[a]! * inv.matrix[a * p + c]! * b[c]!;
  const F = wald / p / sigma2;
  return { F, df1: p, df2: fit.dfResidual, pValue: fSurvival(F, p, fit.dfResidual) };
}

/**
 * Orthogonalised impulse responses Θ_0 … Θ_h (Hamilton 1994 §11.4, statsmodels `orth_ma_rep`):
 * Θ_s = Φ_s·P with Φ_0 = I, Φ_s = Σ_{l=1}^{min(s,p)} Φ_{s−l}·A_l and P the lower Cholesky factor of
 * the residual covariance. `result[s][i·d + j]` is the response of variable i, s steps after a
 * one-standard-deviation orthogonal shock in variable j (in the variables' order).
 */
export function orthogonalImpulseResponses(fit: VarFit, horizon: number): Float64Array[] {
  const d = fit.dims;
  const P = choleskyLower(fit.residualCovariance, d, true)!.factor;
  const phi: Float64Array[] = [identity(d)];
  for (let s = 1; s <= horizon; s++) {
    const next = new Float64Array(d * d);
    for (let l = 1; l <= Math.min(s, fit.lag); l++) {
      const prev = phi[s - l]!;
      const Al = fit.coefficients.subarray((l - 1) * d * d, l * d * d);
      for (let i = 0; i < d; i++)
        for (let m = 0; m < d; m++) {
          const w = prev[i * d + m]!;
          if (w === 0) continue;
          for (let j = 0; j < d; j++) next[i * d + j]! += w * Al[m * d + j]!;
        }
    }
    phi.push(next);
  }
  return phi.map(F => multiply(F, P, d));
}

/**
 * Forecast-error variance decomposition of the (h+1)-step-ahead forecast (statsmodels
 * `fevd(h + 1).decomp[:, h]`): `result[i·d + j]` is the share of variable i's forecast-error
 * variance due to orthogonal shocks in variable j, Σ_{s≤h} Θ_s[i,j]² / Σ_{s≤h} Σ_m Θ_s[i,m]².
 */
export function varianceDecomposition(fit: VarFit, horizon: number, responses?: Float64Array[]): Float64Array {
  const d = fit.dims;
  const theta = responses ?? orthogonalImpulseResponses(fit, horizon);
  const out = new Float64Array(d * d);
  for (let s = 0; s <= horizon; s++) for (let c = 0; c < d * d; c++) out[c]! += theta[s]![c]! ** 2;
  for (let i = 0; i < d; i++) {
    let total = 0;
    for (let j = 0; j < d; j++) total += out[i * d + j]!;
    for (let j = 0; j < d; j++) out[i * d + j] = total > 0 ? out[i * d + j]! / total : NaN;
  }
  return out;
}

function identity(d: number): Float64Array {
  const I = new Float64Array(d * d);
  for (let i = 0; i < d; i++) I[i * d + i] = 1;
  return I;
}

function multiply(A: Float64Array, B: Float64Array, d: number): Float64Array {
  const C = new Float64Array(d * d);
  for (let i = 0; i < d; i++)
    for (let m = 0; m < d; m++) {
      const a = A[i * d + m]!;
      if (a === 0) continue;
      for (let j = 0; j < d; j++) C[i * d + j]! += a * B[m * d + j]!;
    }
  return C;
}

/**
 * Lower Cholesky factor of a symmetric matrix, or null when it is not positive definite: a pivot
 * below 1e-12 of its diagonal entry counts as zero (collinear columns leave rounding-level pivots).
 * With `semidefinite`, zero pivots give zero columns instead of failing (a constant residual).
 */
export function choleskyLower(S: ArrayLike<number>, n: number, semidefinite = false): { factor: Float64Array } | null {
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const original = S[j * n + j]!;
    let diag = original;
    for (let m = 0; m < j; m++) diag -= L[j * n + m]! ** 2;
    if (!(diag > 1e-12 * Math.abs(original)) || !(diag > 1e-300)) {
      if (!semidefinite || diag < -1e-9 * Math.abs(original)) return null;
      continue; // a zero column
    }
    const ljj = Math.sqrt(diag);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = S[i * n + j]!;
      for (let m = 0; m < j; m++) s -= L[i * n + m]! * L[j * n + m]!;
      L[i * n + j] = s / ljj;
    }
  }
  return { factor: L };
}

/** ln det of a symmetric positive definite matrix (−Infinity when it is not). */
function logDetSymmetric(S: Float64Array, n: number): number {
  const chol = choleskyLower(S, n);
  if (!chol) return -Infinity;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.log(chol.factor[i * n + i]!);
  return 2 * s;
}

/**
 * Inverse of a symmetric positive definite matrix by Cholesky. Collinear regressors make it
 * singular; then a ridge of 1e-10, 1e-8, … of the mean diagonal is added before giving up.
 */
function invertSymmetric(S: Float64Array, n: number): { matrix: Float64Array; regularised: boolean } | null {
  let meanDiag = 0;
  for (let i = 0; i < n; i++) meanDiag += S[i * n + i]! / n;
  for (let attempt = 0; attempt < 5; attempt++) {
    const ridge = attempt === 0 ? 0 : meanDiag * 10 ** (-12 + 2 * attempt);
    const M = ridge ? S.map((v, p) => (p % (n + 1) === 0 ? v + ridge : v)) : S;
    const chol = choleskyLower(M, n);
    if (!chol) continue;
    const L = chol.factor;
    // L⁻¹ by forward substitution, then S⁻¹ = L⁻ᵀ·L⁻¹.
    const Li = new Float64Array(n * n);
    for (let c = 0; c < n; c++) {
      Li[c * n + c] = 1 / L[c * n + c]!;
      for (let i = c + 1; i < n; i++) {
        let s = 0;
        for (let m = c; m < i; m++) s += L[i * n + m]! * Li[m * n + c]!;
        Li[i * n + c] = -s / L[i * n + i]!;
      }
    }
    const inv = new Float64Array(n * n);
    for (let a = 0; a < n; a++)
      for (let b = a; b < n; b++) {
        let s = 0;
        for (let m = b; m < n; m++) s += Li[m * n + a]! * Li[m * n + b]!;
        inv[a * n + b] = s;
        inv[b * n + a] = s;
      }
    return { matrix: inv, regularised: ridge > 0 };
  }
  return null;
}
