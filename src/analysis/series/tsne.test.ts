import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { pairwiseDistances } from './distances';
import { SERIES_SEED } from './k-means';
import { seriesMatrix } from './series-matrix';
import { conditionalAffinities, tsne, tsneAffinities, tsneAsync, usablePerplexity } from './tsne';

/** n points in `dims` dimensions around `clusters` well-separated centres (labels in blocks). */
function blobs(n: number, dims: number, clusters: number, seed: number, spread = 1) {
  const rand = seededRandom(seed),
    normal = gaussianFrom(rand);
  const centres = Array.from({ length: clusters }, () => Array.from({ length: dims }, () => 20 * rand()));
  const labels = Int32Array.from({ length: n }, (_, i) => Math.floor((i * clusters) / n));
  const pts = new Float64Array(n * dims);
  for (let i = 0; i < n; i++)
    for (let d = 0; d < dims; d++) pts[i * dims + d] = centres[labels[i]!]![d]! + spread * normal();
  return { distances: pairwiseDistances(seriesMatrix(pts, n, dims)), labels };
}

/** Share of each point's k nearest neighbours in the layout that carry its own label. */
function neighbourAgreement(Y: Float64Array, labels: Int32Array, k: number): number {
  const n = labels.length;
  let same = 0;
  for (let i = 0; i < n; i++) {
    const order = Array.from({ length: n }, (_, j) => j)
      .filter(j => j !== i)
      .sort(
        (a, b) =>
          Math.hypot(Y[2 * a]! - Y[2 * i]!, Y[2 * a + 1]! - Y[2 * i + 1]!) -
          Math.hypot(Y[2 * b]! - Y[2 * i]!, Y[2 * b + 1]! - Y[2 * i + 1]!),
      );
    for (const j of order.slice(0, k)) if (labels[j] === labels[i]) same++;
  }
  return same / (n * k);
}

/** Exact t-SNE (O(n²) gradient), the same optimiser: the oracle for θ = 0. */
function exactTsne(distances: Float64Array, n: number, iterations: number): Float64Array {
  const P = tsneAffinities(distances, n, 30);
  const dense = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let p = P.rowStart[i]!; p < P.rowStart[i + 1]!; p++) dense[i * n + P.columns[p]!] = P.values[p]!;
  const normal = gaussianFrom(seededRandom(SERIES_SEED));
  const Y = Float64Array.from({ length: 2 * n }, () => 1e-4 * normal());
  const update = new Float64Array(2 * n),
    gains = new Float64Array(2 * n).fill(1);
  const eta = Math.max(n / 12 / 4, 50);
  for (let it = 0; it < iterations; it++) {
    const factor = it < 250 ? 12 : 1,
      momentum = it < 250 ? 0.5 : 0.8;
    let Z = 0;
    const W = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        W[i * n + j] = 1 / (1 + (Y[2 * i]! - Y[2 * j]!) ** 2 + (Y[2 * i + 1]! - Y[2 * j + 1]!) ** 2);
        Z += W[i * n + j]!;
      }
    const grad = new Float64Array(2 * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const m = (factor * dense[i * n + j]! - W[i * n + j]! / Z) * W[i * n + j]!;
        grad[2 * i]! += 4 * m * (Y[2 * i]! - Y[2 * j]!);
        grad[2 * i + 1]! += 4 * m * (Y[2 * i + 1]! - Y[2 * j + 1]!);
      }
    for (let c = 0; c < 2 * n; c++) {
      const g = grad[c]!;
      gains[c] = Math.max(0.01, g > 0 !== update[c]! > 0 ? gains[c]! + 0.2 : gains[c]! * 0.8);
      update[c] = momentum * update[c]! - eta * gains[c]! * g;
      Y[c]! += update[c]!;
    }
    for (const off of [0, 1]) {
      let m = 0;
      for (let i = 0; i < n; i++) m += Y[2 * i + off]! / n;
      for (let i = 0; i < n; i++) Y[2 * i + off]! -= m;
    }
  }
  return Y;
}

describe('t-SNE input affinities', () => {
  it('bisects each bandwidth to the perplexity: rows sum to 1 with entropy log(perplexity)', () => {
    const { distances } = blobs(100, 5, 2, 1);
    const { probabilities, K } = conditionalAffinities(distances, 100, 10);
    assert.equal(K, 30);
    for (let i = 0; i < 100; i++) {
      const row = probabilities.subarray(i * K, (i + 1) * K);
      const sum = row.reduce((s, p) => s + p, 0);
      const entropy = -row.reduce((s, p) => s + (p > 0 ? p * Math.log(p) : 0), 0);
      assert.ok(Math.abs(sum - 1) < 1e-12);
      assert.ok(Math.abs(entropy - Math.log(10)) < 1e-4, `row ${i}: entropy ${entropy}`);
    }
  });

  it('symmetric joint affinities summing to 1; perplexity clamped for few points', () => {
    const { distances } = blobs(40, 3, 2, 2);
    const P = tsneAffinities(distances, 40);
    assert.equal(P.perplexity, 13);
    const at = (i: number, j: number) => {
      for (let p = P.rowStart[i]!; p < P.rowStart[i + 1]!; p++) if (P.columns[p] === j) return P.values[p]!;
      return 0;
    };
    let sum = 0;
    for (let i = 0; i < 40; i++)
      for (let p = P.rowStart[i]!; p < P.rowStart[i + 1]!; p++) {
        sum += P.values[p]!;
        assert.ok(Math.abs(P.values[p]! - at(P.columns[p]!, i)) < 1e-15);
      }
    assert.ok(Math.abs(sum - 1) < 1e-12);
    assert.equal(usablePerplexity(30, 256), 30);
    assert.equal(usablePerplexity(30, 3), 1);
  });
});

describe('Barnes–Hut t-SNE', () => {
  it('with θ = 0 the quadtree sums are exact: the same steps as an O(n²) t-SNE', () => {
    // Twelve steps: the early-exaggeration dynamics amplify rounding differences (about ×10 per step
    // later on), so a long run would only compare the rounding, not the sums.
    const { distances } = blobs(60, 4, 3, 3);
    const bh = tsne(distances, 60, { theta: 0, iterations: 12 });
    const exact = exactTsne(distances, 60, 12);
    let err = 0,
      scale = 0;
    for (let c = 0; c < 120; c++) {
      err = Math.max(err, Math.abs(bh.coordinates[c]! - exact[c]!));
      scale = Math.max(scale, Math.abs(exact[c]!));
    }
    assert.ok(scale > 1 && err <= 1e-9 * scale, `max difference ${err} at scale ${scale}`);
  });

  it('separates planted clusters (θ = 0.5): ≥ 98% of 10 nearest layout neighbours share the label', () => {
    const { distances, labels } = blobs(240, 20, 4, 7);
    const r = tsne(distances, 240);
    assert.ok(neighbourAgreement(r.coordinates, labels, 10) >= 0.98);
    assert.ok(r.klDivergence > 0 && r.klDivergence < 2, `KL ${r.klDivergence}`);
    assert.equal(r.perplexity, 30);
    assert.equal(r.iterations, 1000);
  });

  it('keeps subclusters apart that sit inside one cluster (local structure)', () => {
    // Two tight groups 3 units apart inside a wide cloud 40 units away from a third group.
    const rand = seededRandom(13),
      normal = gaussianFrom(rand);
    const n = 90,
      dims = 5;
    const labels = Int32Array.from({ length: n }, (_, i) => (i < 30 ? 0 : i < 60 ? 1 : 2));
    const centre = [[0], [3], [40]];
    const pts = Float64Array.from(
      { length: n * dims },
      (_, p) => (p % dims === 0 ? centre[labels[Math.floor(p / dims)]!]![0]! : 0) + 0.3 * normal(),
    );
    const r = tsne(pairwiseDistances(seriesMatrix(pts, n, dims)), n, { perplexity: 10 });
    assert.ok(neighbourAgreement(r.coordinates, labels, 5) >= 0.97);
  });

  it('is deterministic for a seed and starts elsewhere for another; MDS start works too', () => {
    const { distances, labels } = blobs(50, 3, 2, 5);
    const a = tsne(distances, 50, { iterations: 200 }),
      b = tsne(distances, 50, { iterations: 200 });
    assert.deepEqual(a.coordinates, b.coordinates);
    assert.notDeepEqual(tsne(distances, 50, { iterations: 200, seed: 2 }).coordinates, a.coordinates);
    const mds = tsne(distances, 50, { init: 'mds', perplexity: 10 });
    assert.ok(neighbourAgreement(mds.coordinates, labels, 5) >= 0.98);
  });

  it('copes with tiny inputs and coincident points', () => {
    assert.equal(tsne(new Float64Array(0), 1).coordinates.length, 2);
    const four = tsne(pairwiseDistances(seriesMatrix(Float64Array.from([0, 1, 5, 6]), 4, 1)), 4, { iterations: 300 });
    assert.ok(four.coordinates.every(Number.isFinite));
    assert.equal(four.perplexity, 1);
    // Ten points at one place and ten at another: zero distances within each group.
    const pts = Float64Array.from({ length: 20 }, (_, i) => (i < 10 ? 0 : 1));
    const r = tsne(pairwiseDistances(seriesMatrix(pts, 20, 1)), 20, { iterations: 300 });
    assert.ok(r.coordinates.every(Number.isFinite));
    assert.ok(
      neighbourAgreement(
        r.coordinates,
        Int32Array.from({ length: 20 }, (_, i) => (i < 10 ? 0 : 1)),
        5,
      ) >= 0.9,
    );
  });

  it('reports progress; an abort from a timer stops the asynchronous run', async () => {
    const { distances } = blobs(80, 3, 2, 6);
    const seen: number[] = [];
    tsne(distances, 80, { iterations: 50, onProgress: f => seen.push(f) });
    assert.deepEqual(seen, [0.2, 0.4, 0.6, 0.8, 1]);
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    await assert.rejects(tsneAsync(distances, 80, { signal: controller.signal, sliceMs: 0 }), { name: 'AbortError' });
    const done = await tsneAsync(distances, 80, { iterations: 30 });
    assert.deepEqual(done.coordinates, tsne(distances, 80, { iterations: 30 }).coordinates);
  });
});
