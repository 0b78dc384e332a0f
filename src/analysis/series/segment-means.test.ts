import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentBounds, segmentMatrixMeans, segmentMeans } from './segment-means';
import { seriesMatrix } from './series-matrix';

describe('segment means', () => {
  it('mean of each series per segment (hand-computed)', () => {
    const m = seriesMatrix(Float64Array.from([1, 3, 5, 10, 10, 4, 0, 0, 2, 2]), 2, 5);
    // Segments [0, 2), [2, 5): entity 0 → (1+3)/2 = 2, (5+10+10)/3; entity 1 → 2, 4/3.
    const out = segmentMeans(m, [2]);
    assert.equal(out.timePoints, 2);
    assert.deepEqual([...out.values], [2, 25 / 3, 2, 4 / 3]);
    assert.deepEqual([...segmentMeans(m, []).values], [29 / 5, 8 / 5]);
  });

  it('mean communication matrix per segment from per-step matrices', () => {
    // Three steps of a 2 × 2 matrix; segments [0, 1), [1, 3).
    const steps = Float64Array.from([1, 2, 3, 4, 10, 0, 0, 10, 20, 0, 2, 0]);
    assert.deepEqual([...segmentMatrixMeans(steps, 4, [1])], [1, 2, 3, 4, 15, 0, 1, 5]);
    assert.throws(() => segmentMatrixMeans(steps, 5, []), /not whole matrices of 5 cells/);
  });

  it('validates the change points a user edits', () => {
    assert.deepEqual(segmentBounds([3, 7], 10), [0, 3, 7, 10]);
    for (const bad of [[0], [10], [5, 5], [6, 4], [2.5]])
      assert.throws(() => segmentBounds(bad, 10), /increasing whole time points inside \(0, 10\)/);
  });
});
