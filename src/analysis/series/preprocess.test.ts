import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatenateMetrics, featureSeries, scaleMinMax, zNormalise } from './preprocess';
import { seriesMatrix } from './series-matrix';

const matrix = (rows: number[][]) => seriesMatrix(Float64Array.from(rows.flat()), rows.length, rows[0]!.length);

describe('series preprocessing', () => {
  it('min–max scales a metric over all entities and time points together', () => {
    const m = matrix([
      [2, 4, 6],
      [10, 2, 3],
    ]);
    // Range 2…10 over the whole metric: the second entity keeps its larger peak.
    assert.deepEqual([...scaleMinMax(m).values], [0, 0.25, 0.5, 1, 0, 0.125]);
    assert.deepEqual([...scaleMinMax(matrix([[7, 7]])).values], [0, 0]);
    assert.deepEqual([...m.values], [2, 4, 6, 10, 2, 3], 'input untouched');
  });

  it('z-normalises each series on its own; a constant series becomes zeros', () => {
    const z = zNormalise(
      matrix([
        [1, 2, 3],
        [5, 5, 5],
      ]),
    );
    const sd = Math.sqrt(2 / 3);
    const expected = [-1 / sd, 0, 1 / sd, 0, 0, 0];
    z.values.forEach((v, p) => assert.ok(Math.abs(v - expected[p]!) < 1e-12, `${p}: ${v}`));
  });

  it('concatenates metrics per entity, metric by metric', () => {
    const a = matrix([
      [1, 2],
      [3, 4],
    ]);
    const b = matrix([
      [10, 20, 30],
      [40, 50, 60],
    ]);
    const c = concatenateMetrics([a, b]);
    assert.equal(c.timePoints, 5);
    assert.deepEqual([...c.values], [1, 2, 10, 20, 30, 3, 4, 40, 50, 60]);
    assert.throws(() => concatenateMetrics([a, matrix([[1, 2]])]), /metric 1 has 1 entities where metric 0 has 2/);
    assert.throws(() => concatenateMetrics([]), /at least one metric/);
  });

  it('feature series: each metric scaled to [0, 1], then concatenated (the seed default)', () => {
    const rollbacks = matrix([
      [0, 100],
      [50, 0],
    ]);
    const sends = matrix([
      [1, 1.5],
      [2, 1],
    ]);
    assert.deepEqual([...featureSeries([rollbacks, sends]).values], [0, 1, 0, 0.5, 0.5, 0, 1, 0]);
    assert.deepEqual([...featureSeries(rollbacks, 'none').values], [0, 100, 50, 0]);
  });

  it('names the first non-finite value', () => {
    assert.throws(
      () =>
        scaleMinMax(
          matrix([
            [1, 2],
            [3, NaN],
          ]),
        ),
      /entity 1 at time point 1 is NaN/,
    );
    assert.throws(() => featureSeries(matrix([[Infinity]]), 'none'), /entity 0 at time point 0 is Infinity/);
    assert.throws(() => seriesMatrix(new Float64Array(5), 2, 3), /needs 6 values, got 5/);
  });
});
