import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { correlationFit, correlationPValue, logGamma, regularizedBeta, studentTCdf } from './correlation-stats';

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

describe('correlation statistics', () => {
  test('log-gamma and the incomplete beta match known values', () => {
    close(logGamma(5), Math.log(24), 1e-12, 'ln Γ(5)');
    close(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-12, 'ln Γ(½)');
    close(regularizedBeta(0.5, 2, 2), 0.5, 1e-12, 'I_½(2,2)');
    close(regularizedBeta(0.3, 1, 1), 0.3, 1e-12, 'uniform');
    close(regularizedBeta(0.2, 2, 3), 0.1808, 1e-12, 'I_0.2(2,3)'); // 1 − Σ binomial terms, exact
    assert.throws(() => regularizedBeta(0.5, 0, 1), /a, b > 0/);
  });

  test('Student-t CDF against table values', () => {
    close(studentTCdf(0, 7), 0.5, 1e-12, 't=0');
    close(studentTCdf(2.228138851986, 10), 0.975, 1e-9, 't_.975,10');
    close(studentTCdf(12.7062047361747, 1), 0.975, 1e-9, 't_.975,1 (Cauchy)');
    close(studentTCdf(1, 1), 0.75, 1e-12, 'Cauchy at 1');
    close(studentTCdf(-2.5705818366147, 5), 0.025, 1e-9, 't_.025,5');
    close(studentTCdf(1.95996398454, 1e7), 0.975, 1e-6, 'normal limit');
  });

  test('p-value of r: a t-test with n − 2 degrees of freedom', () => {
    // r = 0.5 over 20 points: t = 0.5·√(18/0.75) = 2.4495, two-sided p = 0.0247696 (scipy.stats.t.sf).
    close(correlationPValue(0.5, 20), 0.0247695588041097, 1e-12, 'r=0.5, n=20');
    close(correlationPValue(-0.5, 20), 0.0247695588041097, 1e-12, 'symmetric in r');
    close(correlationPValue(0, 10), 1, 1e-12, 'r = 0');
    assert.equal(correlationPValue(1, 10), 0);
    assert.ok(Number.isNaN(correlationPValue(0.9, 2)), 'no degrees of freedom');
  });

  test('fit: slope, intercept, r, r² on a noisy line; constant variables give NaN r', () => {
    const xs = [1, 2, 3, 4, 5, 6];
    const ys = [2.1, 3.9, 6.2, 7.8, 10.1, 12.0];
    const fit = correlationFit(xs, ys)!;
    // Reference: scipy.stats.linregress / pearsonr.
    close(fit.slope, 1.9914285714285715, 1e-12, 'slope');
    close(fit.intercept, 0.04666666666666597, 1e-12, 'intercept');
    close(fit.r, 0.9992296688695033, 1e-12, 'r');
    close(fit.r2, 0.9992296688695033 ** 2, 1e-12, 'r²');
    close(fit.p, 8.898865148010043e-7, 1e-15, 'p');
    const flat = correlationFit([1, 2, 3], [4, 4, 4])!;
    assert.ok(Number.isNaN(flat.r));
    assert.equal(flat.slope, 0);
    assert.equal(correlationFit([1], [2]), null);
  });
});
