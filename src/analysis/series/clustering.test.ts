import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { adjustedRandIndex, canonicalLabels, clusterSizes } from './cluster-labels';
import { condensedIndex, squareFromCondensed } from './distance-matrix';
import { pairwiseDistances } from './distances';
import { completeLinkage, completeLinkageClusters, cutDendrogram } from './hierarchical';
import { kMeans } from './k-means';
import { pam } from './k-medoids';
import { seriesMatrix } from './series-matrix';
import { plantedClusters } from './testing/synthetic-series';

const line = (xs: number[]) => pairwiseDistances(seriesMatrix(Float64Array.from(xs), xs.length, 1));

describe('cluster labels', () => {
  it('canonical: numbered by first member', () => {
    assert.deepEqual([...canonicalLabels(Int32Array.from([2, 2, 0, 1, 0])).labels], [0, 0, 1, 2, 1]);
    assert.deepEqual([...clusterSizes(Int32Array.from([0, 0, 1, 2, 1]), 3)], [2, 2, 1]);
  });

  it('adjusted Rand index: the scikit-learn user-guide values', () => {
    // scikit-learn "Clustering performance evaluation", adjusted Rand index examples.
    assert.equal(adjustedRandIndex([0, 0, 1, 1], [1, 1, 0, 0]), 1);
    assert.ok(Math.abs(adjustedRandIndex([0, 0, 1, 1], [0, 0, 1, 2]) - 4 / 7) < 1e-12);
    assert.ok(Math.abs(adjustedRandIndex([0, 0, 1, 1], [0, 1, 0, 1]) - -0.5) < 1e-12);
    assert.equal(adjustedRandIndex([0, 0, 0], [5, 5, 5]), 1);
    assert.throws(() => adjustedRandIndex([0], [0, 1]), /equal length/);
  });
});

describe('k-means', () => {
  it('reaches the optimal partition of a small 1-D set (checked against every contiguous split)', () => {
    const xs = [0, 0.4, 1.1, 2.9, 3.1, 5, 5.2, 9, 9.5, 10];
    const best = { inertia: Infinity, a: 0, b: 0 };
    // In 1-D an optimal k-means partition is contiguous: try every pair of cut positions for k = 3.
    const sse = (part: number[]) => {
      const m = part.reduce((s, x) => s + x, 0) / part.length;
      return part.reduce((s, x) => s + (x - m) ** 2, 0);
    };
    for (let a = 1; a < xs.length; a++)
      for (let b = a + 1; b < xs.length; b++) {
        const v = sse(xs.slice(0, a)) + sse(xs.slice(a, b)) + sse(xs.slice(b));
        if (v < best.inertia) Object.assign(best, { inertia: v, a, b });
      }
    const r = kMeans(Float64Array.from(xs), xs.length, 1, 3);
    assert.ok(Math.abs(r.inertia - best.inertia) < 1e-12, `${r.inertia} vs ${best.inertia}`);
    assert.deepEqual(
      [...r.labels],
      xs.map((_, i) => (i < best.a ? 0 : i < best.b ? 1 : 2)),
    );
  });

  it('planted series clusters: ARI = 1, canonical labels, identical on every call', () => {
    const { series, labels } = plantedClusters({ entities: 60, timePoints: 80, seed: 3 });
    const a = kMeans(series.values, 60, 80, 3),
      b = kMeans(series.values, 60, 80, 3);
    assert.equal(adjustedRandIndex(a.labels, labels), 1);
    assert.deepEqual(a.labels, b.labels);
    assert.deepEqual(a.labels, labels, 'contiguous blocks come out numbered 0, 1, 2');
    assert.equal(a.centroids.length, 3 * 80);
  });

  it('best of 10 restarts with Hartigan transfers is never worse than one plain Lloyd start', () => {
    const rand = seededRandom(12);
    for (let trial = 0; trial < 20; trial++) {
      const n = 40;
      const pts = Float64Array.from({ length: n * 2 }, () => rand() * 10);
      const full = kMeans(pts, n, 2, 4, { seed: trial });
      const lloyd = kMeans(pts, n, 2, 4, { seed: trial, restarts: 1, hartigan: false });
      assert.ok(full.inertia <= lloyd.inertia + 1e-9, `trial ${trial}`);
      // The inertia is the sum of squared distances to the returned centroids.
      let check = 0;
      for (let i = 0; i < n; i++)
        for (let d = 0; d < 2; d++) check += (pts[i * 2 + d]! - full.centroids[full.labels[i]! * 2 + d]!) ** 2;
      assert.ok(Math.abs(check - full.inertia) < 1e-9);
    }
  });

  it('validates k and sizes; duplicates do not break it', () => {
    assert.throws(() => kMeans(new Float64Array(4), 2, 2, 3), /at least k = 3 points/);
    assert.throws(() => kMeans(new Float64Array(4), 2, 2, 0), /positive integer/);
    assert.throws(() => kMeans(new Float64Array(5), 2, 2, 1), /5 coordinates for 2 points × 2/);
    const same = kMeans(new Float64Array(6), 3, 2, 3);
    assert.equal(same.inertia, 0);
    assert.equal(same.labels.length, 3);
  });
});

describe('PAM (k-medoids)', () => {
  it('hand-computed: two groups on a line; BUILD then one SWAP', () => {
    // Items 0, 1, 2, 10, 11, 12. BUILD: totals 32, 30, 30, 30, 32 for 0…12 → item 2 first (lowest
    // index among the ties), then 11 (item 4); total 2+1+0+1+0+1 = 5. SWAP 2 → 1 gives 1+0+1+1+0+1 = 4.
    const r = pam(line([0, 1, 2, 10, 11, 12]), 6, 2);
    assert.deepEqual([...r.medoids], [1, 4]);
    assert.deepEqual([...r.labels], [0, 0, 0, 1, 1, 1]);
    assert.equal(r.cost, 4);
    assert.equal(r.swaps, 1);
  });

  it('equals exhaustive search over all medoid sets on small random sets (square input too)', () => {
    const rand = seededRandom(21);
    for (let trial = 0; trial < 15; trial++) {
      const n = 9;
      const pts = Float64Array.from({ length: n * 2 }, () => rand() * 10);
      const d = pairwiseDistances(seriesMatrix(pts, n, 2));
      let best = Infinity;
      for (let a = 0; a < n; a++)
        for (let b = a + 1; b < n; b++)
          for (let c = b + 1; c < n; c++) {
            let s = 0;
            for (let j = 0; j < n; j++) {
              const dj = (m: number) => (m === j ? 0 : d[condensedIndex(m, j, n)]!);
              s += Math.min(dj(a), dj(b), dj(c));
            }
            best = Math.min(best, s);
          }
      const r = pam(trial % 2 ? squareFromCondensed(d, n) : d, n, 3);
      // PAM is a local search: it reaches the optimum on these well-behaved sets, never below it.
      assert.ok(r.cost >= best - 1e-9);
      assert.ok(r.cost <= best * 1.05 + 1e-9, `trial ${trial}: ${r.cost} vs optimum ${best}`);
    }
  });

  it('planted series clusters under Euclidean, DTW and TWED: ARI = 1', () => {
    const { series, labels } = plantedClusters({ entities: 45, timePoints: 60, seed: 8 });
    for (const measure of ['euclidean', 'dtw', 'twed'] as const) {
      const r = pam(pairwiseDistances(series, { measure }), 45, 3);
      assert.equal(adjustedRandIndex(r.labels, labels), 1, measure);
      assert.deepEqual(r.labels, labels);
    }
  });
});

/** Naive O(n³) complete linkage: merge the closest pair of clusters by max member distance. */
function naiveCompleteHeights(d: Float64Array, n: number): number[] {
  let clusters = Array.from({ length: n }, (_, i) => [i]);
  const heights: number[] = [];
  const dd = (i: number, j: number) => (i === j ? 0 : d[condensedIndex(i, j, n)]!);
  while (clusters.length > 1) {
    let best = Infinity,
      bi = 0,
      bj = 1;
    for (let i = 0; i < clusters.length; i++)
      for (let j = i + 1; j < clusters.length; j++) {
        let m = 0;
        for (const a of clusters[i]!) for (const b of clusters[j]!) m = Math.max(m, dd(a, b));
        if (m < best) {
          best = m;
          bi = i;
          bj = j;
        }
      }
    heights.push(best);
    clusters = [...clusters.filter((_, x) => x !== bi && x !== bj), [...clusters[bi]!, ...clusters[bj]!]];
  }
  return heights;
}

describe('complete linkage', () => {
  it('hand-computed dendrogram of 0, 1, 3, 7 (SciPy linkage layout)', () => {
    // {0,1} at 1; {0,1}+{3} at max(3, 2) = 3; + {7} at max(7, 6, 4) = 7.
    const dg = completeLinkage(line([0, 1, 3, 7]), 4);
    assert.deepEqual([...dg.left], [0, 2, 3]);
    assert.deepEqual([...dg.right], [1, 4, 5]);
    assert.deepEqual([...dg.heights], [1, 3, 7]);
    assert.deepEqual([...dg.sizes], [2, 3, 4]);
    assert.deepEqual([...cutDendrogram(dg, 2)], [0, 0, 0, 1]);
    assert.deepEqual([...cutDendrogram(dg, 4)], [0, 1, 2, 3]);
    assert.deepEqual([...cutDendrogram(dg, 1)], [0, 0, 0, 0]);
    assert.throws(() => cutDendrogram(dg, 5), /cuts into 1…4 clusters, not 5/);
  });

  it('merge heights equal the naive algorithm on random points', () => {
    const rand = seededRandom(5);
    for (let trial = 0; trial < 10; trial++) {
      const n = 25;
      const d = pairwiseDistances(seriesMatrix(Float64Array.from({ length: n * 3 }, rand), n, 3));
      const dg = completeLinkage(d, n);
      const expected = naiveCompleteHeights(d, n).sort((a, b) => a - b);
      dg.heights.forEach((h, r) => assert.ok(Math.abs(h - expected[r]!) < 1e-12, `trial ${trial} row ${r}`));
      assert.equal(dg.sizes.at(-1), n);
    }
  });

  it('planted series clusters cut at k = 3: ARI = 1', () => {
    const { series, labels } = plantedClusters({ entities: 48, timePoints: 60, seed: 4 });
    for (const measure of ['euclidean', 'dtw'] as const) {
      const r = completeLinkageClusters(pairwiseDistances(series, { measure }), 48, 3);
      assert.deepEqual(r.labels, labels, measure);
    }
    assert.throws(() => completeLinkageClusters(new Float64Array(1), 2, 3), /at least k = 3 items/);
  });
});
