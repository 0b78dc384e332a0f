import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { standardDeviation } from 'simple-statistics';
import { scoreResources } from './resource-scores';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} ≈ ${b}`);

describe('resource scores', () => {
  it('score 1, 2, 3, 4 samples (hand-checked)', () => {
    const s = scoreResources([1, 2, 3, 4], [10, 40, 30, 8]);
    close(s.mean, 2.5);
    close(s.std, standardDeviation([1, 2, 3, 4])); // population σ = √1.25
    close(s.imbalance, 1.5 / Math.sqrt(1.25));
    close(s.cv, Math.sqrt(1.25) / 2.5);
    close(s.maxOverMean, 4 / 2.5);
    // Σ|xi − xj| over ordered pairs = 20; 20 / (2 · 4² · 2.5) = 0.25.
    close(s.gini, 0.25);
    close(s.latency, (10 / 1 + 40 / 2 + 30 / 3 + 8 / 4) / 4);
    assert.equal(s.extreme, 3);
    assert.equal(s.max, 3);
    assert.equal(s.min, 0);
  });

  it('skip resources without samples in the mean latency', () => {
    const s = scoreResources([2, 0, 4, 0], [40, 0, 40, 0]);
    close(s.latency, (20 + 10) / 2);
    assert.ok(Number.isNaN(scoreResources([0, 0], [0, 0]).latency));
  });

  it('give I = 0 and name no extreme when all resources are equal (σ = 0)', () => {
    const s = scoreResources([337, 337], [90000, 91000]);
    assert.equal(s.imbalance, 0);
    assert.equal(s.cv, 0);
    assert.equal(s.maxOverMean, 1);
    assert.equal(s.gini, 0);
    assert.equal(s.extreme, -1);
  });

  it('give I = 1 for any two unequal resources, so CV, max/mean and Gini tell 282 vs 0 apart', () => {
    const skew = scoreResources([282, 0], [120000, 0]);
    const mild = scoreResources([1968, 2046], [1, 1]);
    assert.equal(skew.imbalance, 1);
    assert.equal(mild.imbalance, 1);
    assert.deepEqual([skew.cv, skew.maxOverMean, skew.gini], [1, 2, 0.5]);
    assert.ok(mild.cv < 0.02 && mild.gini < 0.01);
    // A tie in |s − μ| names the busier resource.
    assert.equal(skew.extreme, 0);
    assert.equal(mild.extreme, 1);
  });

  it('reach √(n − 1) for a single outlier and name it', () => {
    const counts = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 50];
    const s = scoreResources(counts, counts);
    close(s.imbalance, Math.sqrt(15));
    assert.equal(s.extreme, 15);
    close(s.gini, 1 - 1 / 16);
  });

  it('handle no resources and all-zero counts', () => {
    const none = scoreResources([], []);
    assert.deepEqual(
      [none.resources, none.imbalance, none.cv, none.gini, none.extreme, none.max],
      [0, 0, 0, 0, -1, -1],
    );
    const zero = scoreResources([0, 0, 0], [0, 0, 0]);
    assert.deepEqual([zero.imbalance, zero.cv, zero.maxOverMean, zero.gini], [0, 0, 0, 0]);
  });
});
