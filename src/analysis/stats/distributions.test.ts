import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chiSquaredSurvival,
  fSurvival,
  normalCdf,
  normalTwoSidedP,
  regularizedBeta,
  regularizedGammaP,
  regularizedGammaQ,
} from './distributions';

const close = (actual: number, expected: number, tol: number, what = '') =>
  assert.ok(
    Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)),
    `${what} ${actual} vs ${expected} (tol ${tol})`,
  );

describe('distribution tails', () => {
  it('normal: known quantiles and the two-sided p-value', () => {
    close(normalCdf(0), 0.5, 1e-9);
    close(normalCdf(1.959963984540054), 0.975, 1e-13);
    close(normalCdf(-2.575829303548901), 0.005, 1e-13);
    close(normalTwoSidedP(1.959963984540054), 0.05, 1e-13);
    close(normalTwoSidedP(-1.959963984540054), 0.05, 1e-13);
    assert.equal(normalTwoSidedP(0), 1);
  });

  it('incomplete gamma: closed forms for integer shapes, P + Q = 1', () => {
    for (const x of [0.01, 0.5, 1, 3, 10, 40]) {
      close(regularizedGammaP(1, x), 1 - Math.exp(-x), 1e-13, `P(1, ${x})`);
      // P(3, x) = 1 − e^{−x}(1 + x + x²/2)
      close(regularizedGammaQ(3, x), Math.exp(-x) * (1 + x + (x * x) / 2), 1e-12, `Q(3, ${x})`);
      for (const a of [0.5, 2.5, 7, 30]) close(regularizedGammaP(a, x) + regularizedGammaQ(a, x), 1, 1e-13);
    }
    assert.equal(regularizedGammaP(2, 0), 0);
    assert.throws(() => regularizedGammaP(0, 1), /a must be a positive number/);
  });

  it('incomplete beta: x^a for b = 1, symmetry, one half at the median of a symmetric beta', () => {
    for (const x of [0.001, 0.2, 0.5, 0.9, 0.999]) {
      close(regularizedBeta(x, 3.5, 1), x ** 3.5, 1e-12, `I_${x}(3.5, 1)`);
      close(regularizedBeta(x, 2, 5) + regularizedBeta(1 - x, 5, 2), 1, 1e-13);
    }
    close(regularizedBeta(0.5, 7, 7), 0.5, 1e-13);
    close(regularizedBeta(0.5, 40.5, 40.5), 0.5, 1e-12);
    assert.equal(regularizedBeta(0, 2, 3), 0);
    assert.equal(regularizedBeta(1, 2, 3), 1);
  });

  it('F tail: closed forms for 2 numerator or denominator degrees of freedom, table critical values', () => {
    for (const f of [0.1, 1, 3.3, 12]) {
      for (const d2 of [3, 10, 57]) close(fSurvival(f, 2, d2), (1 + (2 * f) / d2) ** (-d2 / 2), 1e-12, `F(2, ${d2})`);
      for (const d1 of [1, 4, 9]) close(fSurvival(f, d1, 2), 1 - ((d1 * f) / (2 + d1 * f)) ** (d1 / 2), 1e-12);
    }
    // Upper 5 % and 1 % points of F and a value off the tables (SciPy 1.17: f.isf, f.sf).
    close(fSurvival(4.964602743730711, 1, 10), 0.05, 1e-9);
    close(fSurvival(2.9222771906450373, 3, 30), 0.05, 1e-9);
    close(fSurvival(3.6990188114125706, 5, 30), 0.01, 1e-9);
    close(fSurvival(2.3053182416752254, 5, 100), 0.05, 1e-9);
    close(fSurvival(1.7, 7, 13), 0.1938999632126117, 1e-12);
    close(regularizedBeta(0.3, 2.5, 7.5), 0.6789434858661821, 1e-12);
    close(regularizedGammaP(3.3, 4.2), 0.738048185170642, 1e-12);
    assert.equal(fSurvival(0, 3, 4), 1);
    assert.equal(fSurvival(Infinity, 3, 4), 0);
  });

  it('χ² tail: exp(−x/2) for 2 degrees of freedom, the normal for 1, the 5 % points', () => {
    for (const x of [0.3, 2, 9, 50]) {
      close(chiSquaredSurvival(x, 2), Math.exp(-x / 2), 1e-12, `χ²(2) at ${x}`);
      close(chiSquaredSurvival(x, 1), 2 * (1 - normalCdf(Math.sqrt(x))), 1e-12, `χ²(1) at ${x}`);
    }
    close(chiSquaredSurvival(3.841458820694124, 1), 0.05, 1e-9);
    close(chiSquaredSurvival(18.307038053275146, 10), 0.05, 1e-9);
    close(chiSquaredSurvival(124.34211340400408, 100), 0.05, 1e-9);
  });
});
