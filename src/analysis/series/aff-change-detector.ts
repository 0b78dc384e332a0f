import { normalTwoSidedP } from '../stats/distributions';

/**
 * Online change detection in one stream by the adaptive forgetting factor (AFF) of Bodenham &
 * Adams (2017), "Continuous monitoring for changepoints in data streams using adaptive estimation",
 * as the seed's streaming CPD uses it (thesis §6.3.1) and as the authors' ffstream package
 * implements it (`AFFChangeDetector`):
 *
 * 1. Burn-in: B observations estimate the stream's mean μ and variance σ² (no forgetting).
 * 2. Monitoring: a forgetting-factor mean x̄ = m/w with m ← λm + x, w ← λw + 1, whose variance
 *    is u·σ² with u ← ((w−1)/w)²·u + (1/w)².
 * 3. λ follows gradient descent on the one-step prediction cost (x̄_prev − x)², scaled by 1/σ²:
 *    λ ← λ − η·∂/∂λ, through Δ ← λΔ + m, Ω ← λΩ + w, ∂x̄/∂λ = (Δ − x̄Ω)/w; clipped to
 *    [λ_min, λ_max].
 * 4. A change is flagged when x̄ falls outside the two-sided level-α limits of N(μ, u·σ²); the next
 *    observation starts a new burn-in and a new forgetting mean (λ carries on), so the detector
 *    finds any number of changes, each at least B observations after the previous.
 */
export interface AffOptions {
  /** Significance level α (default 0.01, the seed's). Larger is more sensitive, with more false alarms. */
  alpha?: number;
  /** Burn-in length B (default 10, ffstream's). */
  burnIn?: number;
  /** Step size η of the λ gradient descent (default 0.01). */
  eta?: number;
  /** Lower bound of λ (default 0.6). */
  lambdaMin?: number;
  /** Upper bound of λ (default 1). */
  lambdaMax?: number;
}

export const AFF_DEFAULTS: Required<AffOptions> = { alpha: 0.01, burnIn: 10, eta: 0.01, lambdaMin: 0.6, lambdaMax: 1 };

/** What one observation did to the detector. */
export interface AffStep {
  /** A change was flagged at this observation. */
  change: boolean;
  /** The observation was part of a burn-in (no decision possible). */
  burnIn: boolean;
  /** Two-sided p-value of x̄ against the burn-in estimate (1 during burn-in). */
  pValue: number;
  /** The forgetting factor after the observation. */
  lambda: number;
  /** The forgetting-factor mean x̄ after the observation. */
  mean: number;
}

/** A forgetting-factor estimator (ffstream's FFF): mean, variance and the variance scale u. */
class ForgettingMean {
  m = 0;
  w = 0;
  mean = 0;
  variance = 0;
  u = 0;
  private v = 0;

  reset(): void {
    this.m = this.w = this.mean = this.variance = this.u = this.v = 0;
  }

  update(x: number, lambda: number): void {
    this.m = lambda * this.m + x;
    this.w = lambda * this.w + 1;
    const w = this.w;
    const a = (w - 1) / w,
      b = 1 / w;
    this.u = a * a * this.u + b * b;
    // Variance with the previous mean (ffstream updates s² before x̄).
    const vOld = this.v;
    this.v = w * (1 - this.u);
    if (w > 1 && this.v > 0) {
      const d = this.mean - x;
      this.variance = ((lambda * vOld) / this.v) * this.variance + ((w - 1) / (w * this.v)) * d * d;
    }
    this.mean = (1 - b) * this.mean + b * x;
  }
}

export class AffChangeDetector {
  readonly options: Required<AffOptions>;
  /** The forgetting factor λ. */
  lambda = 1;
  /** Observations seen. */
  observations = 0;
  /** Indices (0-based, in observation order) of the flagged changes. */
  readonly changes: number[] = [];
  private readonly estimate = new ForgettingMean();
  private readonly burnInEstimate = new ForgettingMean();
  private omega = 0;
  private delta = 0;
  private meanDerivative = 0;
  private inBurnIn = true;
  private burnInCount = 0;
  private changeFlagged = false;
  private streamMean = 0;
  private streamSigma = 0;
  private scale = 0;

  constructor(options: AffOptions = {}) {
    this.options = { ...AFF_DEFAULTS, ...options };
    const { alpha, burnIn, eta, lambdaMin, lambdaMax } = this.options;
    if (!(alpha > 0 && alpha < 1)) throw new RangeError(`AFF: alpha must be in (0, 1), got ${alpha}`);
    if (!Number.isInteger(burnIn) || burnIn < 2) throw new RangeError(`AFF: the burn-in must be ≥ 2, got ${burnIn}`);
    if (!(eta >= 0)) throw new RangeError(`AFF: eta must be ≥ 0, got ${eta}`);
    if (!(lambdaMin > 0 && lambdaMin <= lambdaMax && lambdaMax <= 1))
      throw new RangeError(`AFF: λ bounds must satisfy 0 < min ≤ max ≤ 1, got [${lambdaMin}, ${lambdaMax}]`);
  }

  /** Whether the detector is in a burn-in. */
  get burningIn(): boolean {
    return this.inBurnIn;
  }

  /** The burn-in estimates the decision compares against (NaN before the first burn-in ends). */
  get reference(): { mean: number; sigma: number } {
    return this.observations > 0 && !this.inBurnIn
      ? { mean: this.streamMean, sigma: this.streamSigma }
      : { mean: NaN, sigma: NaN };
  }

  /** Feeds one observation. Non-finite values are refused (the caller decides how to fill gaps). */
  update(x: number): AffStep {
    if (!Number.isFinite(x)) throw new RangeError(`AFF: observations must be finite, got ${x}`);
    const index = this.observations++;
    if (this.changeFlagged) this.startBurnIn();
    let pValue = 1;
    let change = false;
    const burnIn = this.inBurnIn;
    if (burnIn) {
      // During a burn-in λ does not adapt (ffstream passes a zero scale).
      this.adapt(x, 0);
      this.burnInEstimate.update(x, 1);
      if (++this.burnInCount >= this.options.burnIn) this.stopBurnIn();
    } else {
      this.adapt(x, this.scale);
      const sd = Math.sqrt(this.estimate.u) * this.streamSigma;
      // A burn-in without spread: ffstream falls back to a unit standard deviation.
      pValue = normalTwoSidedP((this.estimate.mean - this.streamMean) / (sd > 0 ? sd : Math.sqrt(this.estimate.u)));
      change = pValue < this.options.alpha;
      this.changeFlagged = change;
      if (change) this.changes.push(index);
    }
    return { change, burnIn, pValue, lambda: this.lambda, mean: this.estimate.mean };
  }

  /** One AFF step: the λ gradient uses x̄ and ∂x̄/∂λ from before x. */
  private adapt(x: number, scale: number): void {
    const est = this.estimate;
    const lossDerivative = 2 * (est.mean - x) * this.meanDerivative;
    this.omega = this.lambda * this.omega + est.w;
    this.delta = this.lambda * this.delta + est.m;
    est.update(x, this.lambda);
    this.meanDerivative = (this.delta - est.mean * this.omega) / est.w;
    if (scale > 0) {
      const { eta, lambdaMin, lambdaMax } = this.options;
      this.lambda = Math.min(lambdaMax, Math.max(lambdaMin, this.lambda - eta * scale * lossDerivative));
    }
  }

  private startBurnIn(): void {
    this.inBurnIn = true;
    this.burnInCount = 0;
    this.burnInEstimate.reset();
    this.changeFlagged = false;
    // The forgetting mean restarts with the burn-in (λ carries on). ffstream keeps it, so after a
    // large jump its stale x̄ lags the new burn-in mean and is flagged a second time.
    this.estimate.reset();
    this.omega = this.delta = this.meanDerivative = 0;
  }

  private stopBurnIn(): void {
    this.inBurnIn = false;
    this.streamMean = this.burnInEstimate.mean;
    const variance = this.burnInEstimate.variance;
    this.streamSigma = Math.sqrt(variance);
    // ffstream scales the λ gradient by 1/σ² of the burn-in; a constant burn-in leaves it unscaled.
    this.scale = variance > 0 ? 1 / variance : 1;
  }
}
