import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { IncrementalPca } from './incremental-pca';
import { jacobiEigen } from './linear-algebra';

/** Batch PCA of rows: mean, eigenvalues (descending) and unit eigenvectors of the scatter matrix. */
function batchPca(rows: Float64Array[]): { mean: Float64Array; values: number[]; vectors: Float64Array[] } {
  const d = rows[0]!.length;
  const mean = new Float64Array(d);
  for (const r of rows) r.forEach((v, j) => (mean[j]! += v / rows.length));
  const S = new Float64Array(d * d);
  for (const r of rows)
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) S[a * d + b]! += (r[a]! - mean[a]!) * (r[b]! - mean[b]!);
  const { values, vectors } = jacobiEigen(S, d);
  const order = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]!);
  return {
    mean,
    values: order.map(i => values[i]!),
    vectors: order.map(i => Float64Array.from({ length: d }, (_, r) => vectors[r * d + i]!)),
  };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

function randomRows(n: number, scales: number[], seed: number, noise = 0): Float64Array[] {
  const normal = gaussianFrom(seededRandom(seed));
  const d = scales.length;
  // A random rotation of axis-aligned scales, plus an offset, so neither mean nor axes are trivial.
  const basis = Array.from({ length: d }, () => Float64Array.from({ length: d }, () => normal()));
  for (let i = 0; i < d; i++) {
    for (let p = 0; p < i; p++) {
      const c = dot(basis[i]!, basis[p]!);
      basis[i]!.forEach((v, j) => (basis[i]![j] = v - c * basis[p]![j]!));
    }
    const norm = Math.sqrt(dot(basis[i]!, basis[i]!));
    basis[i]!.forEach((v, j) => (basis[i]![j] = v / norm));
  }
  return Array.from({ length: n }, () => {
    const row = Float64Array.from({ length: d }, (_, j) => 5 + j + noise * normal());
    scales.forEach((s, a) => {
      const z = s * normal();
      for (let j = 0; j < d; j++) row[j]! += z * basis[a]![j]!;
    });
    return row;
  });
}

describe('incremental PCA (Ross et al. 2008)', () => {
  it('equals batch PCA on rank-2 data, whatever the batch sizes', () => {
    const rows = randomRows(60, [4, 1.5, 0, 0, 0, 0, 0, 0], 3);
    const ref = batchPca(rows);
    for (const batch of [1, 7, 60]) {
      const pca = new IncrementalPca(8, { components: 2 });
      for (let i = 0; i < rows.length; i += batch) pca.partialFit(rows.slice(i, i + batch));
      assert.equal(pca.rank, 2);
      assert.equal(pca.samples, 60);
      pca.mean.forEach((v, j) => assert.ok(Math.abs(v - ref.mean[j]!) < 1e-10));
      for (let c = 0; c < 2; c++) {
        assert.ok(
          Math.abs(Math.abs(dot(pca.component(c), ref.vectors[c]!)) - 1) < 1e-9,
          `component ${c}, batch ${batch}`,
        );
        assert.ok(Math.abs(pca.singularValues[c]! ** 2 - ref.values[c]!) < 1e-8 * ref.values[0]!);
      }
    }
  });

  it('tracks the leading components of full-rank data with a spectral gap, one observation at a time', () => {
    const rows = randomRows(400, [6, 3, 0.3, 0.3, 0.3, 0.3], 9, 0.05);
    const ref = batchPca(rows);
    const pca = new IncrementalPca(6, { components: 2 });
    for (const r of rows) pca.partialFit([r]);
    assert.ok(Math.abs(dot(pca.component(0), ref.vectors[0]!)) > 0.999);
    assert.ok(Math.abs(dot(pca.component(1), ref.vectors[1]!)) > 0.995);
    assert.ok(Math.abs(dot(pca.component(0), pca.component(1))) < 1e-12, 'orthogonal');
    // Projections are the centred coordinates along the component.
    const x = rows[17]!;
    const expected = dot(
      x.map((v, j) => v - pca.mean[j]!),
      pca.component(0),
    );
    assert.ok(Math.abs(pca.project(x, 0) - expected) < 1e-12);
  });

  it('has no component after one observation and the difference direction after two', () => {
    const pca = new IncrementalPca(3, { components: 2 });
    pca.partialFit([[1, 2, 3]]);
    assert.equal(pca.rank, 0);
    pca.partialFit([[1, 4, 3]]);
    assert.equal(pca.rank, 1);
    assert.ok(Math.abs(Math.abs(pca.component(0)[1]!) - 1) < 1e-12);
    assert.deepEqual([...pca.mean], [1, 3, 3]);
    assert.ok(Math.abs(pca.singularValues[0]! - Math.SQRT2) < 1e-12);
  });

  it('forgets: with f < 1 the leading direction follows a switch of the dominant axis', () => {
    const normal = gaussianFrom(seededRandom(5));
    const pca = new IncrementalPca(2, { components: 1, forgettingFactor: 0.9 });
    const keep = new IncrementalPca(2, { components: 1 });
    for (let t = 0; t < 400; t++) {
      const row = t < 300 ? [3 * normal(), 0.3 * normal()] : [0.3 * normal(), 3 * normal()];
      pca.partialFit([row]);
      keep.partialFit([row]);
    }
    assert.ok(Math.abs(pca.component(0)[1]!) > 0.95, 'the forgetting model turned to the second axis');
    assert.ok(Math.abs(keep.component(0)[0]!) > 0.8, 'without forgetting the longer history still dominates');
  });

  it('rejects bad sizes', () => {
    assert.throws(() => new IncrementalPca(0), /dims ≥ 1/);
    assert.throws(() => new IncrementalPca(2, { forgettingFactor: 0 }), /forgetting factor/);
    assert.throws(() => new IncrementalPca(3).partialFit([[1, 2]]), /2 values, expected 3/);
  });
});
