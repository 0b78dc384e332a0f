import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  choleskyLower,
  fitVar,
  grangerTest,
  orthogonalImpulseResponses,
  selectVar,
  varianceDecomposition,
} from './var-model';

/**
 * 40 × 3 rows of y₀ = 0.5·y₀(−1) + e₀, y₁ = 0.3·y₁(−1) + 0.8·y₀(−1) + e₁, y₂ = e₂ + 0.2·e₀ (NumPy
 * generator seed 7, rounded to 3 decimals). Reference values: NumPy least squares, restricted
 * regressions and SciPy's F tail, computed independently of this code.
 */
const DATA = Float64Array.from(
  (
    '0,0,0,0.001,0.299,-0.274,-0.890,-0.364,-1.170,-0.385,0.519,-0.480,-0.813,0.338,0.233,-0.301,-1.479,' +
    '-0.008,0.545,-2.029,-0.319,-1.629,-1.462,-2.222,-1.050,-3.009,0.224,-0.368,-1.929,-2.485,-0.723,-0.922,' +
    '0.006,-1.891,-1.332,-1.285,-1.755,-0.852,-0.969,-0.910,-0.775,-0.590,-0.567,-0.850,0.041,-1.508,-0.632,' +
    '1.114,-2.301,-0.537,-0.190,-1.792,-0.002,0.634,-2.095,-1.360,0.337,-1.236,-1.401,-0.104,0.049,0.029,' +
    '-0.542,0.228,-0.415,0.168,-1.073,-0.522,-0.434,0.362,0.130,-1.144,-0.614,0.976,-2.151,-0.770,-0.296,' +
    '1.164,0.304,-1.032,-0.231,-0.098,1.458,-0.478,-0.353,0.711,-0.182,-0.374,-1.183,-0.051,-0.630,0.512,' +
    '0.564,-0.339,0.318,-0.345,0.882,-0.182,0.794,-0.850,0.998,-1.946,-2.460,-0.685,-1.307,-1.066,0.071,' +
    '-0.799,-1.157,-0.626,0.368,-0.755,-1.319,0.667,0.142,-2.033,0.025,0.107,-1.551,0.267'
  )
    .split(',')
    .map(Number),
);

const near = (actual: ArrayLike<number>, expected: number[], tol: number, what: string) =>
  expected.forEach((e, i) => assert.ok(Math.abs(actual[i]! - e) < tol, `${what}[${i}]: ${actual[i]} vs ${e}`));

describe('VAR: least squares, AIC order, Granger, impulse responses, variance decomposition', () => {
  it('selects lag 1 by AIC on the common sample and fits it like NumPy', () => {
    const sel = selectVar(DATA, 3, 3)!;
    near(sel.aic, [-0.8305397291956385, -0.6483321230879526, -0.6619417610124747], 1e-10, 'AIC');
    const fit = sel.fit;
    assert.equal(fit.lag, 1);
    assert.equal(fit.observations, 39);
    assert.ok(Math.abs(fit.aic - -0.9631803305040929) < 1e-10);
    near(fit.intercept, [-0.45525997, -0.14110518, -0.40505738], 1e-7, 'intercept');
    near(
      fit.coefficients,
      [0.37322632, -0.06107198, 0.08322445, 0.29477668, 0.42201102, -0.01605023, -0.30378556, 0.26282003, 0.02969065],
      1e-7,
      'A1',
    );
    near(
      fit.residualCovariance,
      [0.59177665, 0.02522022, 0.17229418, 0.02522022, 0.73900374, -0.12454473, 0.17229418, -0.12454473, 0.7272494],
      1e-7,
      'Σu',
    );
  });

  it('Granger F-tests equal restricted-regression tests', () => {
    const fit = fitVar(DATA, 3, 1)!;
    const g01 = grangerTest(fit, 1, 0);
    assert.deepEqual([g01.df1, g01.df2], [1, 35]);
    assert.ok(Math.abs(g01.F - 2.7422203147993494) < 1e-9);
    assert.ok(Math.abs(g01.pValue - 0.10666902460829449) < 1e-9);
    assert.ok(Math.abs(grangerTest(fit, 1, 2).pValue - 0.9211994440093942) < 1e-9);
    assert.ok(Math.abs(grangerTest(fit, 0, 1).pValue - 0.6487425156292775) < 1e-9);
    const fit2 = fitVar(DATA, 3, 2)!;
    const g2 = grangerTest(fit2, 1, 0);
    assert.deepEqual([g2.df1, g2.df2], [2, 31]);
    assert.ok(Math.abs(g2.F - 1.8261109154465298) < 1e-9);
    assert.ok(Math.abs(g2.pValue - 0.1779403426389672) < 1e-9);
    near(
      fit2.coefficients.subarray(9),
      [-0.19623304, 0.29083733, 0.04151808, -0.27168791, 0.1479188, 0.16271544, -0.22423799, 0.0735824, 0.21787662],
      1e-7,
      'A2',
    );
  });

  it('orthogonalised impulse responses and FEVD match the NumPy recursion', () => {
    const fit = fitVar(DATA, 3, 1)!;
    const theta = orthogonalImpulseResponses(fit, 1);
    near(
      theta[1]!,
      [0.30374952, -0.06524008, 0.06727885, 0.2370036, 0.36498345, -0.01297504, -0.21842688, 0.2212113, 0.02400199],
      1e-7,
      'Θ1',
    );
    // Θ0 is the Cholesky factor of Σu.
    near(theta[0]!, [...choleskyLower(fit.residualCovariance, 3)!.factor], 1e-15, 'Θ0');
    near(
      varianceDecomposition(fit, 1),
      [
        0.9873233, 0.00614336796, 0.00653333235, 0.0616500825, 0.938168613, 0.000181304992, 0.118710522, 0.0879428325,
        0.793346646,
      ],
      1e-8,
      'FEVD',
    );
    const fit2 = fitVar(DATA, 3, 2)!;
    near(
      orthogonalImpulseResponses(fit2, 3)[3]!,
      [-0.01770497, 0.16190684, -0.03108588, -0.05355434, 0.22900834, 0.01298376, -0.07329771, 0.12701679, 0.00385975],
      1e-7,
      'Θ3 of VAR(2)',
    );
    near(
      varianceDecomposition(fit2, 3),
      [0.92408889, 0.06975896, 0.00615215, 0.06058763, 0.92398745, 0.01542492, 0.11995831, 0.16115459, 0.71888709],
      1e-7,
      'FEVD of VAR(2) at h = 3',
    );
  });

  it('refuses too few rows; fits collinear variables with a ridge', () => {
    assert.equal(fitVar(DATA.subarray(0, 15), 3, 1), null, '5 rows cannot hold 4 regressors and residual freedom');
    assert.equal(selectVar(DATA.subarray(0, 12), 3, 5), null);
    // A window: rows 10…39 only.
    assert.equal(fitVar(DATA, 3, 1, 10, 30)!.observations, 29);
    // A duplicated variable makes XᵀX singular.
    const dup = new Float64Array(40 * 4);
    for (let r = 0; r < 40; r++) {
      dup.set(DATA.subarray(r * 3, r * 3 + 3), r * 4);
      dup[r * 4 + 3] = DATA[r * 3]!;
    }
    const fit = fitVar(dup, 4, 1);
    assert.ok(fit && fit.regularised);
  });
});
