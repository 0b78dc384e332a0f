import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  interquartileRange,
  mean,
  median,
  quantile,
  sampleKurtosis,
  sampleSkewness,
  sampleStandardDeviation,
} from 'simple-statistics';
import { buildEnsemble } from './ensemble';
import {
  computeNodeStatistics,
  freedmanDiaconisBins,
  histogramCountScale,
  runHistogram,
  summarizeNode,
} from './node-statistics';
import { runsFromOutlines } from './testing/outline-runs';

/** An ensemble whose node `main/work` has the given exclusive values per run (NaN = missing in that run). */
function ensembleOf(values: number[]) {
  const outlines: Record<string, string> = {};
  values.forEach((v, r) => {
    outlines[`run${r}`] = Number.isNaN(v) ? 'main = 1' : `main = 1\n  work = ${v}`;
  });
  const e = buildEnsemble(runsFromOutlines(outlines));
  return { e, work: e.tree.path(1).join('/') === 'main/work' ? 1 : -1 };
}

describe('per-node statistics over runs', () => {
  const values = [3.1, 4.7, 2.2, 9.8, 5.5, 4.1, 6.3, 3.9, 30, 4.4];

  it('match simple-statistics and hand values', () => {
    const { e, work } = ensembleOf(values);
    const s = computeNodeStatistics(e, 'exclusive');
    assert.equal(s.min[work], 2.2);
    assert.equal(s.max[work], 30);
    assert.equal(e.runs[s.minRun[work]!]!.name, 'run2');
    assert.equal(e.runs[s.maxRun[work]!]!.name, 'run8');
    assert.ok(Math.abs(s.mean[work]! - mean(values)) < 1e-12);
    assert.equal(s.median[work], median(values));
    assert.equal(s.q1[work], quantile(values, 0.25));
    assert.equal(s.q3[work], quantile(values, 0.75));
    assert.ok(Math.abs(s.std[work]! - sampleStandardDeviation(values)) < 1e-12);
    assert.ok(Math.abs(s.cv[work]! - sampleStandardDeviation(values) / mean(values)) < 1e-12);
    assert.ok(Math.abs(s.skewness[work]! - sampleSkewness(values)) < 1e-12);
    assert.ok(Math.abs(s.kurtosis[work]! - sampleKurtosis(values)) < 1e-12);
    // numpy: np.percentile([1, 2, 3, 4], 25) = 1.75 (linear interpolation).
    const small = ensembleOf([4, 1, 3, 2]);
    const t = computeNodeStatistics(small.e, 'exclusive');
    assert.equal(t.q1[small.work], 1.75);
    assert.equal(t.median[small.work], 2.5);
    assert.equal(t.q3[small.work], 3.25);
  });

  it('quartiles equal simple-statistics on sorted data for random vectors of many sizes', () => {
    let seed = 1;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const n of [1, 2, 3, 4, 5, 7, 10, 33, 100]) {
      const v = Array.from({ length: n }, () => Math.round(rand() * 50) / 10);
      const { e, work } = ensembleOf(v);
      const s = computeNodeStatistics(e, 'exclusive');
      for (const [p, got] of [
        [0.25, s.q1[work]],
        [0.5, s.median[work]],
        [0.75, s.q3[work]],
      ] as const) {
        assert.ok(Math.abs(got! - quantile(v, p)) < 1e-12, `n=${n} p=${p}`);
      }
    }
  });

  it('exclude missing runs from every number and count them (missing ≠ 0)', () => {
    const { e, work } = ensembleOf([5, NaN, 7, NaN, 6]);
    const s = computeNodeStatistics(e, 'exclusive');
    assert.equal(s.present[work], 3);
    assert.equal(s.min[work], 5);
    assert.equal(s.mean[work], 6);
    const sum = summarizeNode(e, work, 'exclusive');
    assert.equal(sum.missing, 2);
    assert.deepEqual(sum.missingRuns, ['run1', 'run3']);
    assert.equal(sum.histogram.missing, 2);
    assert.equal(
      [...sum.histogram.counts].reduce((a, b) => a + b, 0),
      3,
    );
    assert.deepEqual([...sum.histogram.binOfRun].filter(b => b < 0).length, 2);
  });

  it('flag 1.5×IQR outliers with run names and set whiskers at the last values inside the fences', () => {
    const { e, work } = ensembleOf(values);
    const sum = summarizeNode(e, work, 'exclusive');
    const iqr = interquartileRange(values);
    assert.ok(Math.abs(sum.iqr - iqr) < 1e-12);
    // Q3 + 1.5·IQR ≈ 8.95: 9.8 and 30 are outliers.
    assert.deepEqual(
      sum.outliers.map(o => [o.name, o.value]),
      [
        ['run3', 9.8],
        ['run8', 30],
      ],
    );
    assert.equal(sum.whiskerLow, 2.2);
    assert.equal(sum.whiskerHigh, 6.3);
    assert.equal(summarizeNode(e, work, 'exclusive', { iqrFactor: 10 }).outliers.length, 1);
    assert.equal(sum.maxRun, 'run8');
    assert.ok(Math.abs(sum.imbalance - (30 - mean(values)) / mean(values)) < 1e-12);
  });

  it('statistics that need more runs are NaN, not made up', () => {
    const { e, work } = ensembleOf([2, 4]);
    const s = computeNodeStatistics(e, 'exclusive');
    assert.ok(Number.isNaN(s.skewness[work]!) && Number.isNaN(s.kurtosis[work]!));
    const one = ensembleOf([2]);
    const t = computeNodeStatistics(one.e, 'exclusive');
    assert.equal(t.std[one.work], 0);
  });
});

describe('run histograms', () => {
  it('AT-7: a bimodal run vector (9 runs near min, 9 near max) fills the first and last bins, empty middle', () => {
    const low = Array.from({ length: 9 }, (_, i) => 10 + i * 0.01);
    const high = Array.from({ length: 9 }, (_, i) => 20 - i * 0.01);
    const { e, work } = ensembleOf([...low, ...high]);
    const h = summarizeNode(e, work, 'exclusive').histogram;
    assert.equal(h.counts.length, 20);
    assert.equal(h.counts[0], 9);
    assert.equal(h.counts[19], 9);
    assert.equal(
      [...h.counts.slice(1, 19)].reduce((a, b) => a + b, 0),
      0,
    );
    assert.deepEqual(h.runsInBin[0], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(h.min, 10);
    assert.equal(h.max, 20);
    // The global count scale is the largest bin over all nodes: 18 runs of `main` share one bin.
    assert.equal(histogramCountScale(e, 'exclusive'), 18);
    assert.equal(histogramCountScale(e, 'exclusive', 20, [work]), 9);
  });

  it('edges span [min, max], the max lands in the last bin, a constant vector goes to the middle bin', () => {
    const h = runHistogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5);
    assert.deepEqual([...h.edges], [0, 2, 4, 6, 8, 10]);
    assert.deepEqual([...h.counts], [2, 2, 2, 2, 3]);
    const c = runHistogram([4, 4, NaN, 4], 20);
    assert.deepEqual([...c.binOfRun], [10, 10, -1, 10]);
    assert.throws(() => runHistogram([1, 2], 0), /positive integer/);
  });

  it('Freedman–Diaconis: width 2·IQR·n^(−1/3), clamped, with a Sturges fallback when IQR = 0', () => {
    // 0..99: IQR = 49.5, width = 99 / 4.6416 ≈ 21.33 → ⌈99 / 21.33⌉ = 5 bins (numpy's 'fd' gives 5 too).
    const uniform = Array.from({ length: 100 }, (_, i) => i);
    assert.equal(freedmanDiaconisBins(uniform), 5);
    assert.equal(runHistogram(uniform, 'auto').counts.length, 5);
    // Most values equal, two outliers: IQR 0 → Sturges ⌈log2 20⌉ + 1 = 6.
    const spiky = [...Array.from({ length: 18 }, () => 5), 1, 9].sort((a, b) => a - b);
    assert.equal(freedmanDiaconisBins(spiky), 6);
    assert.equal(freedmanDiaconisBins([3, 3, 3]), 1);
    assert.equal(freedmanDiaconisBins([1]), 1);
    // A long tail cannot explode the bin count.
    const tail = [...Array.from({ length: 1000 }, (_, i) => i / 1000), 1e9];
    assert.equal(freedmanDiaconisBins(tail), 100);
  });
});
