import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { squareFromCondensed } from './distance-matrix';
import { pairwiseDistances } from './distances';
import { jacobiEigen } from './linear-algebra';
import { classicalMds } from './mds';
import { seriesMatrix } from './series-matrix';
import { plantedClusters } from './testing/synthetic-series';

const distancesOf = (pts: Float64Array, n: number, d: number) => pairwiseDistances(seriesMatrix(pts, n, d));

/** Rotation (and reflection) that best maps `b` onto `a`, both centred n × 2: orthogonal Procrustes in closed form. */
function alignedError(a: Float64Array, b: Float64Array, n: number): number {
  const centre = (x: Float64Array) => {
    let mx = 0,
      my = 0;
    for (let i = 0; i < n; i++) {
      mx += x[2 * i]! / n;
      my += x[2 * i + 1]! / n;
    }
    return x.map((v, p) => v - (p % 2 ? my : mx));
  };
  const A = centre(a),
    B = centre(b);
  let best = Infinity;
  // The optimal orthogonal map is a rotation or a reflection; search the angle finely for each.
  for (const flip of [1, -1])
    for (let step = 0; step < 3600; step++) {
      const th = (step / 3600) * 2 * Math.PI;
      const c = Math.cos(th),
        s = Math.sin(th);
      let err = 0;
      for (let i = 0; i < n; i++) {
        const x = B[2 * i]!,
          y = flip * B[2 * i + 1]!;
        err = Math.max(err, Math.hypot(c * x - s * y - A[2 * i]!, s * x + c * y - A[2 * i + 1]!));
      }
      best = Math.min(best, err);
    }
  return best;
}

describe('classical MDS', () => {
  it('hand-computed: the corners of a 2 × 2 square have eigenvalues 4 and 4 and come back as the square', () => {
    // Centred corners (±1, ±1): B = X Xᵀ, whose non-zero eigenvalues are those of XᵀX = diag(4, 4).
    const pts = Float64Array.from([1, 1, -1, 1, -1, -1, 1, -1]);
    const { coordinates, eigenvalues } = classicalMds(distancesOf(pts, 4, 2), 4);
    eigenvalues.forEach(v => assert.ok(Math.abs(v - 4) < 1e-9, `eigenvalue ${v}`));
    assert.ok(alignedError(pts, coordinates, 4) < 2e-3);
  });

  it('recovers known planar coordinates up to rotation and reflection, from condensed or square input', () => {
    const rand = seededRandom(31);
    const n = 40;
    const pts = Float64Array.from({ length: n * 2 }, () => rand() * 10 - 5);
    const d = distancesOf(pts, n, 2);
    const fromCondensed = classicalMds(d, n);
    assert.ok(alignedError(pts, fromCondensed.coordinates, n) < 0.01);
    assert.deepEqual(classicalMds(squareFromCondensed(d, n), n).coordinates, fromCondensed.coordinates);
  });

  it('non-Euclidean (DTW) distances of planted groups still give three separated groups', () => {
    const { series, labels } = plantedClusters({ entities: 30, timePoints: 50, seed: 2 });
    const { coordinates } = classicalMds(pairwiseDistances(series, { measure: 'dtw' }), 30);
    const centroid = (g: number) => {
      let x = 0,
        y = 0,
        c = 0;
      for (let i = 0; i < 30; i++)
        if (labels[i] === g) {
          x += coordinates[2 * i]!;
          y += coordinates[2 * i + 1]!;
          c++;
        }
      return [x / c, y / c] as const;
    };
    // Every point is nearer its own group's centroid than any other's.
    for (let i = 0; i < 30; i++) {
      const d = [0, 1, 2].map(g =>
        Math.hypot(coordinates[2 * i]! - centroid(g)[0], coordinates[2 * i + 1]! - centroid(g)[1]),
      );
      assert.equal(d.indexOf(Math.min(...d)), labels[i]);
    }
  });

  it('Jacobi: eigenpairs of a symmetric 3 × 3 matrix', () => {
    // [[2, -1, 0], [-1, 2, -1], [0, -1, 2]] has eigenvalues 2 − √2, 2, 2 + √2.
    const { values } = jacobiEigen(Float64Array.from([2, -1, 0, -1, 2, -1, 0, -1, 2]), 3);
    const sorted = [...values].sort((a, b) => a - b);
    [2 - Math.SQRT2, 2, 2 + Math.SQRT2].forEach((v, i) => assert.ok(Math.abs(sorted[i]! - v) < 1e-12));
  });

  it('stops on an aborted signal', () => {
    const d = distancesOf(
      Float64Array.from({ length: 100 }, (_, i) => Math.sin(i)),
      50,
      2,
    );
    assert.throws(() => classicalMds(d, 50, 2, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  });
});
