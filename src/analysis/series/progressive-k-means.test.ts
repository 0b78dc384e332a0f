import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { adjustedRandIndex } from './cluster-labels';
import { progressiveKMeans } from './progressive-k-means';
import { plantedClusters } from './testing/synthetic-series';
import { steppingClock } from './time-budget';

/** Rows (views) of a planted-clusters matrix, cut to the first `t` time points. */
function rowsOf(values: Float64Array, n: number, width: number, t = width): Float64Array[] {
  return Array.from({ length: n }, (_, i) => values.subarray(i * width, i * width + t));
}

describe('progressive mini-batch k-means', () => {
  it('recovers planted clusters when the budget allows a full pass', () => {
    const { series, labels: truth } = plantedClusters({ entities: 90, timePoints: 60, seed: 2, noise: 0.1 });
    const result = progressiveKMeans(rowsOf(series.values, 90, 60), null, { budgetMs: Infinity });
    assert.equal(result.processed, 90);
    assert.equal(result.total, 90);
    assert.equal(adjustedRandIndex(result.labels, truth), 1);
    assert.equal(result.labels[0], 0, 'labels are canonical without a previous tick');
    // Centres in label order: each is near the mean of its members.
    const members = [...result.labels.keys()].filter(i => result.labels[i] === 1);
    const mean = members.reduce((s, i) => s + series.values[i * 60 + 30]!, 0) / members.length;
    assert.ok(Math.abs(result.centroids[1 * 60 + 30]! - mean) < 0.2);
  });

  it('keeps cluster identities from tick to tick as the series grow (< 5 % colour changes)', () => {
    const n = 256,
      t = 120;
    // A stationary stream: three groups at levels 0, 1 and 2 with unit-variance noise.
    const normal = gaussianFrom(seededRandom(7));
    const truth = Int32Array.from({ length: n }, (_, i) => Math.floor((3 * i) / n));
    const values = Float64Array.from({ length: n * t }, (_, p) => truth[Math.floor(p / t)]! + normal());
    let previous: Int32Array | null = null;
    let worst = 0;
    for (let tick = 10; tick <= t; tick++) {
      const r = progressiveKMeans(rowsOf(values, n, t, tick), previous, { budgetMs: Infinity, seed: tick });
      if (previous) worst = Math.max(worst, r.changed / n);
      previous = r.labels;
    }
    assert.ok(worst < 0.05, `at most ${(100 * worst).toFixed(1)} % of entities changed colour in a tick`);
    assert.ok(adjustedRandIndex(previous!, truth) > 0.95);
  });

  it('renames a relabelled previous partition back: identities follow the previous labels', () => {
    const { series } = plantedClusters({ entities: 60, timePoints: 30, seed: 4, noise: 0.05 });
    const rows = rowsOf(series.values, 60, 30);
    const first = progressiveKMeans(rows, null, { budgetMs: Infinity });
    const renamed = first.labels.map(l => (l + 1) % 3);
    const second = progressiveKMeans(rows, renamed, { budgetMs: Infinity, seed: 99 });
    assert.deepEqual([...second.labels], [...renamed]);
    assert.equal(second.changed, 0);
  });

  it('budget bookkeeping: stratified batches stop when the next one (and the assignment reserve) would not fit', () => {
    const normal = gaussianFrom(seededRandom(1));
    const rows = Array.from({ length: 300 }, (_, i) => Float64Array.from({ length: 8 }, () => (i % 3) * 5 + normal()));
    const previous = Int32Array.from({ length: 300 }, (_, i) => i % 3);
    // The fake clock advances 1 ms per reading, so each batch costs the readings of its own bookkeeping.
    const plain = progressiveKMeans(rows, previous, {
      budgetMs: 20,
      batchPerCluster: 5,
      reserveAssignment: false,
      clock: steppingClock(1),
    });
    // 15 seed entities (5 per cluster), then batches of 15 while 20 ms allow another 1 ms unit.
    assert.ok(plain.processed < 300 && plain.processed > 15);
    assert.equal(plain.processed, 15 + 15 * plain.batches);
    // Within the budget but for the reading that measures it.
    assert.ok(plain.fitMs <= 21, `${plain.fitMs} ms`);
    const reserved = progressiveKMeans(rows, previous, {
      budgetMs: 20,
      batchPerCluster: 5,
      clock: steppingClock(1),
    });
    // The reserve (n × per-entity cost = 300 × 1/15 ms) leaves room for fewer batches.
    assert.ok(reserved.batches < plain.batches, `${reserved.batches} vs ${plain.batches}`);
    assert.ok(reserved.batches >= 1, 'at least one batch runs');
    // Every entity is still assigned, and the stratified start keeps the three groups apart.
    assert.equal(adjustedRandIndex(reserved.labels, previous), 1);
  });

  it('refuses fewer than 2 entities and rows of different lengths', () => {
    assert.throws(() => progressiveKMeans([[1, 2]], null), /at least 2 entities/);
    assert.throws(() => progressiveKMeans([[1, 2], [1]], null), /different lengths/);
    // k is capped at the number of entities.
    assert.equal(progressiveKMeans([[0], [5]], null, { k: 3 }).k, 2);
  });
});
