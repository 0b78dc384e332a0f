import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SERIES_SEED } from '../series/k-means';
import { PDES_ANALYSIS_DEFAULTS, resolvePdesAnalysisOptions } from './analysis-options';

describe('PDES analysis options', () => {
  it("have the seed's defaults", () => {
    const o = resolvePdesAnalysisOptions();
    assert.deepEqual(o, {
      level: 'kp',
      timeAxis: 'gvt',
      detailMetrics: ['secondary_rollbacks', 'primary_rollbacks'],
      clusterMetrics: [],
      clustering: 'k-means',
      clusters: 3,
      restarts: 10,
      distance: 'euclidean',
      dtwWindow: null,
      twedNu: 0.001,
      twedLambda: 1,
      projection: 'mds',
      perplexity: 30,
      tsneIterations: 1000,
      changePointMetrics: [],
      significance: 0.05,
      permutations: 199,
      minSegmentSize: null,
      overviewStatistic: 'mean',
      communicationWeight: 'sends',
      innerRingMetric: 'primary_rollbacks',
      outerRingMetric: 'secondary_rollbacks',
      ringEncoding: 'bars',
      ribbonThreshold: 0,
      seed: SERIES_SEED,
      range: null,
      changePoints: null,
    });
    assert.notEqual(o.detailMetrics, PDES_ANALYSIS_DEFAULTS.detailMetrics, 'lists are copies');
  });

  it('take given values over the defaults, ignoring undefined ones', () => {
    const o = resolvePdesAnalysisOptions({
      level: 'pe',
      clustering: 'pam',
      clusters: 5,
      dtwWindow: 4,
      level2: 1,
    } as never);
    assert.deepEqual([o.level, o.clustering, o.clusters, o.dtwWindow, o.timeAxis], ['pe', 'pam', 5, 4, 'gvt']);
    assert.equal(resolvePdesAnalysisOptions({ level: undefined }).level, 'kp');
  });

  it('reject values of the wrong kind, naming the setting and what it accepts', () => {
    const bad: [object, RegExp][] = [
      [{ level: 'node' }, /hpcLens\.pdes\.level is "node"; expected pe, kp, lp/],
      [{ timeAxis: 'wall' }, /timeAxis.*expected gvt, rt, vt/],
      [{ clustering: 'dbscan' }, /clustering.*k-means, pam, complete-linkage/],
      [{ distance: 'cosine' }, /distance.*euclidean, dtw, twed/],
      [{ clusters: 0 }, /clusters is 0; expected a whole number ≥ 1/],
      [{ clusters: 2.5 }, /clusters/],
      [{ permutations: -1 }, /permutations/],
      [{ minSegmentSize: 1 }, /minSegmentSize is 1; expected a whole number ≥ 2/],
      [{ significance: 1 }, /significance is 1; expected a level in \(0, 1\)/],
      [{ perplexity: 0 }, /perplexity/],
      [{ twedNu: -0.1 }, /twedNu/],
      [{ detailMetrics: ['a'] }, /detailMetrics.*two metric ids/],
      [{ clusterMetrics: 'a' }, /clusterMetrics.*a list of metric ids/],
      [{ range: { from: 5, to: 5 } }, /range.*from < to/],
      [{ changePoints: [1.5] }, /changePoints/],
      [{ ringEncoding: 'pie' }, /ringEncoding.*bars, heatmap/],
      [{ communicationWeight: 'bytes' }, /communicationWeight.*sends, receives, sum, max/],
    ];
    for (const [given, message] of bad) assert.throws(() => resolvePdesAnalysisOptions(given), message);
  });
});
