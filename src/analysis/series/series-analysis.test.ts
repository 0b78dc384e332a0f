import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adjustedRandIndex } from './cluster-labels';
import { pairwiseDistances } from './distances';
import { featureSeries } from './preprocess';
import { clusterSeries, projectDistances, seriesDistances } from './series-analysis';
import { seriesMatrix } from './series-matrix';
import { plantedClusters } from './testing/synthetic-series';

describe('series analysis pipeline', () => {
  // Two metrics of the same 48 entities: the groups show in the first; the second, on a scale a
  // thousand times larger, is the same wave for everyone and must not swamp the first.
  const { series: rollbacks, labels } = plantedClusters({ entities: 48, timePoints: 60, seed: 12 });
  const sends = seriesMatrix(
    Float64Array.from({ length: 48 * 60 }, (_, p) => 1000 + 50 * Math.sin((p % 60) * 0.37)),
    48,
    60,
  );
  const features = featureSeries([rollbacks, sends]);

  it('every algorithm recovers the planted groups from scaled, concatenated metrics', () => {
    for (const algorithm of ['k-means', 'pam', 'complete-linkage'] as const) {
      const r = clusterSeries(features, { algorithm });
      assert.equal(adjustedRandIndex(r.labels, labels), 1, algorithm);
      assert.deepEqual([...r.sizes], [16, 16, 16]);
      assert.equal(r.k, 3);
    }
    const pamDtw = clusterSeries(features, { measure: 'dtw' });
    assert.equal(pamDtw.algorithm, 'pam');
    assert.equal(pamDtw.medoids!.length, 3);
    assert.equal(adjustedRandIndex(pamDtw.labels, labels), 1);
    assert.ok(clusterSeries(features, { algorithm: 'complete-linkage', measure: 'twed' }).dendrogram);
  });

  it('reuses a given distance matrix, which the projection shares', () => {
    const distances = seriesDistances(features, { measure: 'dtw', window: 4 });
    assert.deepEqual(distances, pairwiseDistances(features, { measure: 'dtw', window: 4 }));
    const r = clusterSeries(features, { measure: 'dtw', distances });
    assert.equal(r.distances, distances);
    const mds = projectDistances(distances, 48);
    const tsne = projectDistances(distances, 48, { method: 'tsne', perplexity: 10, iterations: 300 });
    assert.equal(mds.length, 96);
    assert.equal(tsne.length, 96);
    assert.throws(() => clusterSeries(features, { distances: new Float64Array(3) }), /3 cells; 48 entities need 1128/);
  });

  it('refuses k-means with an elastic distance and unknown names', () => {
    assert.throws(() => clusterSeries(features, { algorithm: 'k-means', measure: 'dtw' }), /Euclidean distance only/);
    assert.throws(() => clusterSeries(features, { algorithm: 'ward' as never }), /unknown clustering algorithm ward/);
    assert.throws(
      () => projectDistances(new Float64Array(1), 2, { method: 'umap' as never }),
      /unknown projection method umap/,
    );
  });
});
