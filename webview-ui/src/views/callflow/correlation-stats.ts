/**
 * Statistics of the correlation view (pure): least-squares line, Pearson r, r² and the two-sided
 * p-value of r (t = r·√((n−2)/(1−r²)) with n−2 degrees of freedom). simple-statistics has no
 * Student-t CDF, so it is computed here from the regularized incomplete beta function.
 */
import { linearRegression, sampleCorrelation } from 'simple-statistics';

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1,
    d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b) for 0 ≤ x ≤ 1, a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incomplete beta needs a, b > 0 (got ${a}, ${b})`);
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast for x < (a+1)/(a+b+2); use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(x, a, b)) / a
    : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Student-t cumulative distribution P(T ≤ t) with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`Student-t needs df > 0 (got ${df})`);
  if (Number.isNaN(t)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Two-sided p-value of a Pearson correlation r over n points (H0: no correlation). */
export function correlationPValue(r: number, n: number): number {
  if (n < 3 || !Number.isFinite(r)) return NaN;
  const df = n - 2;
  if (Math.abs(r) >= 1) return 0;
  const t = r * Math.sqrt(df / (1 - r * r));
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

export interface CorrelationFit {
  n: number;
  slope: number;
  intercept: number;
  /** Pearson r (NaN when either variable is constant). */
  r: number;
  r2: number;
  /** Two-sided p-value of r; NaN with fewer than 3 points or a constant variable. */
  p: number;
}

/** Least-squares fit of y on x with r, r² and p; null with fewer than 2 points. */
export function correlationFit(xs: readonly number[], ys: readonly number[]): CorrelationFit | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return null;
  const pts: [number, number][] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) pts.push([xs[i]!, ys[i]!]);
  if (pts.length < 2) return null;
  const constantX = pts.every(p => p[0] === pts[0]![0]);
  const constantY = pts.every(p => p[1] === pts[0]![1]);
  const { m, b } = constantX ? { m: 0, b: pts.reduce((s, p) => s + p[1], 0) / pts.length } : linearRegression(pts);
  const r =
    constantX || constantY
      ? NaN
      : sampleCorrelation(
          pts.map(p => p[0]),
          pts.map(p => p[1]),
        );
  return { n: pts.length, slope: m, intercept: b, r, r2: r * r, p: correlationPValue(r, pts.length) };
}
