import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { buildEnsemble } from './ensemble';
import {
  classicalMds,
  euclideanDistances,
  jacobiEigen,
  kMeans,
  projectRuns,
  runFeatures,
  structureDistances,
} from './projection';
import { runsFromOutlines } from './testing/outline-runs';

function maxDistanceError(points: Float64Array, coords: Float64Array, n: number, d: number): number {
  const a = euclideanDistances(points, n, d),
    b = euclideanDistances(coords, n, 2);
  let err = 0;
  for (let i = 0; i < n * n; i++) err = Math.max(err, Math.abs(a[i]! - b[i]!));
  return err;
}

describe('classical MDS', () => {
  it('recovers a planar configuration up to rotation and reflection (all pairwise distances)', () => {
    // A 4 × 1 rectangle's corners and centre, plus a skewed point.
    const pts = Float64Array.from([0, 0, 4, 0, 4, 1, 0, 1, 2, 0.5, 3, -2]);
    const n = 6;
    const { coordinates, eigenvalues } = classicalMds(euclideanDistances(pts, n, 2), n, 2);
    assert.ok(maxDistanceError(pts, coordinates, n, 2) < 1e-9);
    assert.ok(eigenvalues[0]! >= eigenvalues[1]! && eigenvalues[1]! > 0);
  });

  it('recovers a random planar cloud of 200 points, and projects 3-D points onto their best plane', () => {
    const rand = seededRandom(3);
    const n = 200;
    const pts = Float64Array.from({ length: n * 2 }, () => rand() * 10);
    assert.ok(maxDistanceError(pts, classicalMds(euclideanDistances(pts, n, 2), n, 2).coordinates, n, 2) < 1e-7);
    // Points on a tilted plane in 3-D are still exactly 2-D.
    const p3 = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const x = pts[2 * i]!,
        y = pts[2 * i + 1]!;
      p3[3 * i] = x;
      p3[3 * i + 1] = y * 0.6;
      p3[3 * i + 2] = y * 0.8;
    }
    assert.ok(maxDistanceError(p3, classicalMds(euclideanDistances(p3, n, 3), n, 2).coordinates, n, 3) < 1e-7);
  });

  it('is deterministic and handles tiny inputs', () => {
    const pts = Float64Array.from([0, 0, 1, 0, 0, 2]);
    const d = euclideanDistances(pts, 3, 2);
    assert.deepEqual(classicalMds(d, 3).coordinates, classicalMds(d, 3).coordinates);
    assert.equal(classicalMds(new Float64Array(1), 1).coordinates.length, 2);
    assert.throws(() => classicalMds(new Float64Array(3), 2), /distance matrix/);
  });

  it('Jacobi eigen-decomposition of a small symmetric matrix', () => {
    const { values, vectors } = jacobiEigen(Float64Array.from([2, 1, 1, 2]), 2);
    assert.deepEqual(values.map(v => Math.round(v * 1e12) / 1e12).sort(), [1, 3]);
    const i3 = values[0]! > values[1]! ? 0 : 1;
    assert.ok(Math.abs(Math.abs(vectors[i3]!) - Math.SQRT1_2) < 1e-12);
  });
});

describe('k-means', () => {
  const blobs = (() => {
    const rand = seededRandom(11);
    const centres = [
      [0, 0],
      [10, 0],
      [5, 9],
    ];
    const out: number[] = [];
    for (let i = 0; i < 90; i++) {
      const c = centres[i % 3]!;
      out.push(c[0]! + rand() - 0.5, c[1]! + rand() - 0.5);
    }
    return Float64Array.from(out);
  })();

  it('separates three well-separated blobs and gives the same labels on every call', () => {
    const a = kMeans(blobs, 90, 2, 3),
      b = kMeans(blobs, 90, 2, 3);
    assert.deepEqual(a.labels, b.labels);
    for (let i = 3; i < 90; i++) assert.equal(a.labels[i], a.labels[i % 3]);
    assert.equal(new Set(a.labels).size, 3);
  });

  it('needs at least k points', () => {
    assert.throws(() => kMeans(new Float64Array(4), 2, 2, 3), /at least k = 3 points/);
    assert.throws(() => kMeans(new Float64Array(4), 2, 2, 0), /positive integer/);
    assert.deepEqual([...kMeans(new Float64Array(6), 3, 2, 3).labels].length, 3);
  });
});

describe('parameter projection', () => {
  const outlines: Record<string, string> = {};
  const configs: [string, number][] = [];
  for (const compiler of ['gcc10', 'clang12'])
    for (const ranks of [8, 16, 32]) configs.push([`${compiler}_${ranks}_ranks`, ranks]);
  for (const [name, ranks] of configs)
    outlines[name] = `main = 1\n  solve = ${64 / ranks}\n  ${ranks > 8 ? 'mpi' : 'serial'} = ${Math.log2(ranks)}`;
  const e = buildEnsemble(runsFromOutlines(outlines));

  it('builds min–max scaled features from parameters (text coded in natural order) and runtimes', () => {
    const f = runFeatures(e);
    assert.deepEqual(f.names, ['compiler', 'ranks', 'mean inclusive', 'mean exclusive']);
    const F = f.names.length;
    const col = (k: number) => Array.from({ length: e.runCount }, (_, r) => f.matrix[r * F + k]!);
    assert.deepEqual(col(0), [1, 1, 1, 0, 0, 0]); // clang12 < gcc10
    assert.deepEqual(
      col(1).map(v => v.toFixed(9)),
      [0, 8 / 24, 1, 0, 8 / 24, 1].map(v => v.toFixed(9)),
    );
    assert.ok(col(2).every(v => v >= 0 && v <= 1));
  });

  it('projects and clusters deterministically; no clusters with fewer runs than k', () => {
    const p = projectRuns(e);
    assert.equal(p.coordinates.length, 12);
    assert.deepEqual(p.clusters, projectRuns(e).clusters);
    assert.equal(new Set(p.clusters).size, 3);
    const two = buildEnsemble(runsFromOutlines({ a: 'main = 1', b: 'main = 2' }));
    assert.equal(projectRuns(two).clusters, null);
  });

  it('structure distances: 0 for the same tree shape, larger when nodes differ; missing weighs 0', () => {
    const d = structureDistances(e);
    const R = e.runCount;
    const r = (name: string) => e.runIndex(name);
    // Same ranks, different compiler: identical shapes.
    assert.ok(d[r('gcc10_8_ranks') * R + r('clang12_8_ranks')]! < 1e-12);
    // 8 ranks has `serial` where the others have `mpi`.
    assert.ok(d[r('gcc10_8_ranks') * R + r('gcc10_16_ranks')]! > d[r('gcc10_16_ranks') * R + r('gcc10_32_ranks')]!);
    for (let i = 0; i < R; i++) for (let j = 0; j < R; j++) assert.equal(d[i * R + j], d[j * R + i]);
    const s = projectRuns(e, { input: 'structure' });
    assert.equal(s.input, 'structure');
    assert.ok(s.clusters);
  });
});
