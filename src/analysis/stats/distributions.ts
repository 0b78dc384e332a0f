import { gammaln } from 'simple-statistics';

/**
 * Tail probabilities of the distributions the streaming analyses test against: the standard normal
 * (AFF change detection), F (Granger causality) and χ² (Wald tests). simple-statistics supplies
 * log Γ (Lanczos); its erf is good to 1e-7 only and it has no incomplete beta or gamma, so those are
 * evaluated here with the classic series and continued fractions (Press et al., Numerical Recipes
 * §6.2 and §6.4), accurate to about 1e-13 relative on the ranges used.
 */

const EPS = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 1000;

/** P(Z ≤ z) for a standard normal Z, through erf(|z|/√2) = P(½, z²/2). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return NaN;
  if (z === 0) return 0.5;
  const tail = 0.5 * regularizedGammaQ(0.5, (z * z) / 2);
  return z < 0 ? tail : 1 - tail;
}

/** Two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|). */
export function normalTwoSidedP(z: number): number {
  if (Number.isNaN(z)) return NaN;
  return z === 0 ? 1 : regularizedGammaQ(0.5, (z * z) / 2);
}

/**
 * Regularised lower incomplete gamma P(a, x) = γ(a, x) / Γ(a), for a > 0 and x ≥ 0: the series for
 * x < a + 1, else 1 − the continued fraction of Q (Numerical Recipes §6.2).
 */
export function regularizedGammaP(a: number, x: number): number {
  checkPositive('a', a);
  if (!(x >= 0)) throw new RangeError(`incomplete gamma: x must be ≥ 0, got ${x}`);
  if (x === 0) return 0;
  if (x === Infinity) return 1;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

/** Regularised upper incomplete gamma Q(a, x) = 1 − P(a, x), computed without cancellation in the tail. */
export function regularizedGammaQ(a: number, x: number): number {
  checkPositive('a', a);
  if (!(x >= 0)) throw new RangeError(`incomplete gamma: x must be ≥ 0, got ${x}`);
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let ap = a,
    sum = 1 / a,
    del = sum;
  for (let n = 0; n < MAX_ITERATIONS; n++) {
    ap++;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - gammaln(a));
}

/** Q(a, x) by the modified Lentz continued fraction. */
function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a,
    c = 1 / TINY,
    d = 1 / b,
    h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - gammaln(a)) * h;
}

/**
 * Regularised incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1], by the continued fraction,
 * using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where it converges faster (Numerical Recipes §6.4).
 */
export function regularizedBeta(x: number, a: number, b: number): number {
  checkPositive('a', a);
  checkPositive('b', b);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incomplete beta: x must be in [0, 1], got ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(x, a, b)) / a
    : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b,
    qap = a + 1,
    qam = a - 1;
  let c = 1,
    d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** P(F ≥ f) for F ~ F(d1, d2): I_{d2/(d2 + d1 f)}(d2/2, d1/2). */
export function fSurvival(f: number, d1: number, d2: number): number {
  checkPositive('d1', d1);
  checkPositive('d2', d2);
  if (Number.isNaN(f)) return NaN;
  if (f <= 0) return 1;
  if (f === Infinity) return 0;
  return regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** P(X ≥ x) for X ~ χ²(k): Q(k/2, x/2). */
export function chiSquaredSurvival(x: number, k: number): number {
  checkPositive('k', k);
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  return regularizedGammaQ(k / 2, x / 2);
}

function checkPositive(name: string, v: number): void {
  if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${name} must be a positive number, got ${v}`);
}
