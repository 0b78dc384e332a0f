import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jacobiEigen } from './linear-algebra';
import { progressivePca } from './progressive-projection';
import { stratifiedOrder } from './progressive-k-means';
import { plantedClusters } from './testing/synthetic-series';
import { steppingClock } from './time-budget';
import { seededRandom } from '../stats/seeded-random';

function rowsOf(values: Float64Array, n: number, t: number): Float64Array[] {
  return Array.from({ length: n }, (_, i) => values.subarray(i * t, (i + 1) * t));
}

describe('progressive PCA projection', () => {
  it('equals the batch PCA projection (up to sign) of rank-2 series when every entity fits in the budget', () => {
    const n = 50,
      t = 12;
    // Series a_i·sin + b_i·ramp + level: two directions, so keeping two components loses nothing.
    const rand = seededRandom(3);
    const rows = Array.from({ length: n }, () => {
      const a = 3 * rand(),
        b = rand() - 0.5;
      return Float64Array.from({ length: t }, (_, j) => a * Math.sin(j) + b * j + 2);
    });
    const p = progressivePca(rows, { budgetMs: Infinity, batchSize: 7 });
    assert.equal(p.processed, n);
    assert.equal(p.batches, Math.ceil(n / 7));
    // Batch PCA: eigenvectors of the t × t scatter matrix.
    const mean = new Float64Array(t);
    rows.forEach(r => r.forEach((v, j) => (mean[j]! += v / n)));
    const S = new Float64Array(t * t);
    for (const r of rows)
      for (let a = 0; a < t; a++) for (let b = 0; b < t; b++) S[a * t + b]! += (r[a]! - mean[a]!) * (r[b]! - mean[b]!);
    const { values, vectors } = jacobiEigen(S, t);
    const order = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]!);
    for (let c = 0; c < 2; c++) {
      const v = order[c]!;
      const ref = rows.map(r => r.reduce((s, x, j) => s + (x - mean[j]!) * vectors[j * t + v]!, 0));
      const sign = Math.sign(ref[0]! * p.coordinates[c]!) || 1;
      ref.forEach((x, i) => assert.ok(Math.abs(sign * x - p.coordinates[2 * i + c]!) < 1e-8, `PC${c + 1} of ${i}`));
      assert.ok(Math.abs(p.singularValues[c]! ** 2 - values[v]!) < 1e-8 * values[order[0]!]!);
    }
  });

  it('separates planted clusters', () => {
    const n = 90,
      t = 60;
    const { series, labels } = plantedClusters({ entities: n, timePoints: t, seed: 8, noise: 0.1 });
    const p = progressivePca(rowsOf(series.values, n, t), { budgetMs: Infinity });
    const centre = [0, 1, 2].map(g => {
      const m = [...labels.keys()].filter(i => labels[i] === g);
      return [0, 1].map(c => m.reduce((s, i) => s + p.coordinates[2 * i + c]!, 0) / m.length);
    });
    for (let i = 0; i < n; i++) {
      const d = centre.map(([x, y]) => Math.hypot(p.coordinates[2 * i]! - x!, p.coordinates[2 * i + 1]! - y!));
      assert.equal(d.indexOf(Math.min(...d)), labels[i], `entity ${i} is nearest its own group's centre`);
    }
  });

  it('budget bookkeeping: stops feeding batches when the next one (and the projection reserve) would not fit', () => {
    const n = 200,
      t = 30;
    const { series } = plantedClusters({ entities: n, timePoints: t, seed: 1 });
    const rows = rowsOf(series.values, n, t);
    const plain = progressivePca(rows, { budgetMs: 10, reserveProjection: false, clock: steppingClock(1) });
    assert.ok(plain.processed < n && plain.processed >= 10);
    assert.equal(plain.processed, 10 * plain.batches);
    assert.ok(plain.fitMs <= 11);
    assert.equal(plain.coordinates.length, 2 * n, 'every entity is projected');
    const reserved = progressivePca(rows, { budgetMs: 10, clock: steppingClock(1) });
    assert.ok(reserved.batches < plain.batches);
  });

  it('visits one entity of each previous cluster in turn', () => {
    const labels = Int32Array.from([0, 0, 0, 0, 1, 1, 2]);
    const order = stratifiedOrder(7, labels, seededRandom(1));
    assert.deepEqual(
      [...order.subarray(0, 3)].map(i => labels[i]),
      [0, 1, 2],
    );
    assert.deepEqual(
      [...order].map(i => labels[i]),
      [0, 1, 2, 0, 1, 0, 0],
    );
    assert.deepEqual([...order].sort(), [0, 1, 2, 3, 4, 5, 6]);
    assert.throws(() => progressivePca([[1, 2]]), /at least 2 entities/);
  });
});
