import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDES_STREAM_DEFAULTS, resolvePdesStreamOptions } from './stream-options';

describe('live monitor settings', () => {
  it('default to the seed’s values', () => {
    const o = resolvePdesStreamOptions();
    assert.deepEqual(o, PDES_STREAM_DEFAULTS);
    assert.deepEqual(
      [
        o.changePoints.alpha,
        o.changePoints.burnIn,
        o.changePoints.eta,
        o.changePoints.lambdaMin,
        o.changePoints.lambdaMax,
      ],
      [0.01, 10, 0.01, 0.6, 1],
    );
    assert.equal(o.changePoints.forgettingFactor, 1);
    assert.deepEqual([o.clustering.k, o.clustering.budgetMs], [3, 50]);
    assert.equal(o.projection.budgetMs, 10);
    assert.deepEqual(
      [o.causality.budgetMs, o.causality.initialPoints, o.causality.maxLag, o.causality.pThreshold],
      [100, 10, 5, 0.05],
    );
    assert.equal(o.topMetric, 'secondary_rollbacks');
  });

  it('merge given fields group by group, keep null as a value, and name a bad one', () => {
    const o = resolvePdesStreamOptions({
      window: 50,
      clustering: { k: 4, metric: null },
      causality: { metrics: ['network_sends'] },
    });
    assert.equal(o.window, 50);
    assert.deepEqual(o.clustering, { ...PDES_STREAM_DEFAULTS.clustering, k: 4 });
    assert.deepEqual(o.causality.metrics, ['network_sends']);
    assert.equal(resolvePdesStreamOptions({ clustering: { k: undefined } }).clustering.k, 3);
    assert.throws(
      () => resolvePdesStreamOptions({ changePoints: { alpha: 2 } }),
      /hpcLens\.pdes\.stream\.changePoints\.alpha: 2 is out of range/,
    );
    assert.throws(() => resolvePdesStreamOptions({ matrix: { weight: 'bytes' as never } }), /matrix\.weight/);
  });
});
