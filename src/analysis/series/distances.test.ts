import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { condensedIndex, squareFromCondensed, asCondensed, distanceAt } from './distance-matrix';
import {
  balancedRowRanges,
  dtwDistance,
  euclideanDistance,
  pairwiseDistances,
  pairwiseDistancesAsync,
  pairwiseDistanceSteps,
  twedDistance,
} from './distances';
import { seriesMatrix } from './series-matrix';

const f = (xs: number[]) => Float64Array.from(xs);
const close = (a: number, b: number, msg = '') =>
  assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${msg} ${a} ≠ ${b}`);

/** Full-matrix DTW with the band written out: the textbook recursion, as an oracle. */
function naiveDtw(a: number[], b: number[], w: number): number {
  const n = a.length,
    m = b.length;
  const band = Math.max(w, Math.abs(n - m));
  const D = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  D[0]![0] = 0;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) {
      if (Math.abs(i - j) > band) continue;
      D[i]![j] = (a[i - 1]! - b[j - 1]!) ** 2 + Math.min(D[i - 1]![j]!, D[i]![j - 1]!, D[i - 1]![j - 1]!);
    }
  return Math.sqrt(D[n]![m]!);
}

/** Full-matrix TWED straight from Marteau's recursion, as an oracle. */
function naiveTwed(a: number[], b: number[], nu: number, lambda: number): number {
  const A = [0, ...a],
    B = [0, ...b];
  const ta = A.map((_, i) => i),
    tb = B.map((_, j) => j);
  const D = Array.from({ length: A.length }, () => new Array<number>(B.length).fill(Infinity));
  D[0]![0] = 0;
  for (let i = 1; i < A.length; i++)
    for (let j = 1; j < B.length; j++) {
      D[i]![j] = Math.min(
        D[i - 1]![j]! + Math.abs(A[i]! - A[i - 1]!) + nu * (ta[i]! - ta[i - 1]!) + lambda,
        D[i]![j - 1]! + Math.abs(B[j]! - B[j - 1]!) + nu * (tb[j]! - tb[j - 1]!) + lambda,
        D[i - 1]![j - 1]! +
          Math.abs(A[i]! - B[j]!) +
          Math.abs(A[i - 1]! - B[j - 1]!) +
          nu * (Math.abs(ta[i]! - tb[j]!) + Math.abs(ta[i - 1]! - tb[j - 1]!)),
      );
    }
  return D[a.length]![b.length]!;
}

describe('DTW', () => {
  it('hand-computed: [1,2,3] vs [2,3,4]', () => {
    // a1 = 1 must meet b1 = 2 (cost 1) and b3 = 4 must meet a3 = 3 (cost 1); the path
    // (1,2) (2,2) (3,3) (3,4) costs exactly that: DTW = √2. Without warping it is √(1+1+1).
    close(dtwDistance(f([1, 2, 3]), f([2, 3, 4])), Math.SQRT2);
    close(dtwDistance(f([1, 2, 3]), f([2, 3, 4]), 0), Math.sqrt(3));
    close(dtwDistance(f([1, 2, 3]), f([2, 3, 4]), 0), euclideanDistance(f([1, 2, 3]), f([2, 3, 4])));
  });

  it('hand-computed: a peak shifted by one sample costs nothing once the band allows the shift', () => {
    const a = f([0, 0, 1, 0]),
      b = f([0, 1, 0, 0]);
    close(dtwDistance(a, b, 0), Math.SQRT2);
    close(dtwDistance(a, b, 1), 0);
    close(dtwDistance(a, b), 0);
  });

  it('unequal lengths: the band widens to the length difference', () => {
    // [1, 1, 5] vs [1, 5]: a1 and a2 both meet b1 = 1, a3 meets b2 = 5.
    close(dtwDistance(f([1, 1, 5]), f([1, 5]), 0), 0);
    assert.equal(dtwDistance(f([]), f([])), 0);
    assert.equal(dtwDistance(f([1]), f([])), Infinity);
  });

  it('equals the full-matrix recursion on random series for every band width, with a shared workspace', () => {
    const rand = seededRandom(4);
    const scratch = new Float64Array(64);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + Math.floor(rand() * 12),
        m = 1 + Math.floor(rand() * 12);
      const a = Array.from({ length: n }, () => rand() * 4 - 2),
        b = Array.from({ length: m }, () => rand() * 4 - 2);
      for (const w of [0, 1, 2, 5, Infinity])
        close(dtwDistance(f(a), f(b), w, scratch), naiveDtw(a, b, w), `n ${n} m ${m} w ${w}`);
    }
  });

  it('is symmetric and zero on identical series', () => {
    const rand = seededRandom(6);
    const a = f(Array.from({ length: 30 }, rand)),
      b = f(Array.from({ length: 30 }, rand));
    close(dtwDistance(a, b, 3), dtwDistance(b, a, 3));
    assert.equal(dtwDistance(a, a, 3), 0);
  });
});

describe('TWED', () => {
  it('hand-computed: [1,3,1] vs [1,1] is 4 + ν + λ (match 1–1, match 3–1, delete the last 1 of a)', () => {
    // D(1,1) = 0; D(2,2) = D(1,1) + |3−1| + |1−1| = 2 (match, equal time stamps cost no ν);
    // D(3,2) = min(D(2,2) + |1−3| + ν + λ, D(3,1) + 0 + ν + λ, D(2,1) + 0 + |3−1| + 2ν)
    //        = min(4 + ν + λ, 4 + 3ν + 3λ, 4 + 3ν + λ) with D(3,1) = 4 + 2ν + 2λ, D(2,1) = 2 + ν + λ.
    close(twedDistance(f([1, 3, 1]), f([1, 1])), 4 + 0.001 + 1);
    close(twedDistance(f([1, 3, 1]), f([1, 1]), { nu: 0.5, lambda: 0.25 }), 4.75);
    close(twedDistance(f([1, 1]), f([1, 3, 1]), { nu: 0.5, lambda: 0.25 }), 4.75, 'symmetric');
  });

  it('hand-computed: on equal time stamps the diagonal match costs |aᵢ − bᵢ| + |aᵢ₋₁ − bᵢ₋₁| and no ν', () => {
    // [1, 2] vs [1, 3]: D(1,1) = 0, D(2,2) = |2 − 3| + |1 − 1| = 1; deleting costs at least λ = 1 more.
    close(twedDistance(f([1, 2]), f([1, 3])), 1);
    assert.equal(twedDistance(f([4, 5, 6]), f([4, 5, 6])), 0);
  });

  it('stiffness ν charges time-stamp gaps', () => {
    const a = f([1, 2]),
      b = f([1, 2]);
    // Same values, b sampled later (times 3, 4): the match adds ν(|1 − 3| + |0 − 0|) then ν(|2 − 4| + |1 − 3|).
    close(twedDistance(a, b, { nu: 0.1, lambda: 100, timesB: f([3, 4]) }), 0.1 * (2 + 4));
    assert.throws(() => twedDistance(a, b, { timesA: f([1]) }), /1 time stamps for 2 samples/);
    assert.throws(() => twedDistance(a, b, { nu: -1 }), /ν ≥ 0/);
  });

  it('equals the full-matrix recursion on random series; a wide band changes nothing', () => {
    const rand = seededRandom(9);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + Math.floor(rand() * 10),
        m = 1 + Math.floor(rand() * 10);
      const a = Array.from({ length: n }, () => rand() * 4),
        b = Array.from({ length: m }, () => rand() * 4);
      const nu = [0, 0.001, 0.5][trial % 3]!,
        lambda = [0, 1, 0.3][trial % 3]!;
      const expected = naiveTwed(a, b, nu, lambda);
      close(twedDistance(f(a), f(b), { nu, lambda }), expected, `n ${n} m ${m}`);
      close(twedDistance(f(a), f(b), { nu, lambda, window: 20 }), expected, `banded n ${n} m ${m}`);
      assert.ok(twedDistance(f(a), f(b), { nu, lambda, window: 0 }) >= expected - 1e-12);
    }
  });
});

describe('pairwise distances', () => {
  const rand = seededRandom(2);
  const n = 7,
    t = 9;
  const series = seriesMatrix(
    Float64Array.from({ length: n * t }, () => rand()),
    n,
    t,
  );
  const row = (i: number) => series.values.subarray(i * t, (i + 1) * t);

  it('condensed in SciPy pdist order, for each measure', () => {
    for (const measure of ['euclidean', 'dtw', 'twed'] as const) {
      const d = pairwiseDistances(series, { measure, window: 2, nu: 0.01, lambda: 0.5 });
      assert.equal(d.length, (n * (n - 1)) / 2);
      let p = 0;
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) {
          assert.equal(condensedIndex(i, j, n), p);
          assert.equal(condensedIndex(j, i, n), p);
          const expected =
            measure === 'euclidean'
              ? euclideanDistance(row(i), row(j))
              : measure === 'dtw'
                ? dtwDistance(row(i), row(j), 2)
                : twedDistance(row(i), row(j), { nu: 0.01, lambda: 0.5, window: 2 });
          close(d[p++]!, expected, `${measure} ${i}–${j}`);
        }
    }
  });

  it('DTW defaults to a band of 10% of the length', () => {
    const d = pairwiseDistances(series, { measure: 'dtw' });
    close(d[0]!, dtwDistance(row(0), row(1), 1));
  });

  it('row ranges fill disjoint parts of one matrix; balanced ranges cover every row with similar pair counts', () => {
    const whole = pairwiseDistances(series, { measure: 'dtw' });
    const out = new Float64Array(whole.length).fill(NaN);
    const ranges = balancedRowRanges(n, 3);
    assert.deepEqual(ranges[0]!.from, 0);
    assert.deepEqual(ranges.at(-1)!.to, n);
    for (const rows of ranges) {
      const steps = pairwiseDistanceSteps(series, out, { measure: 'dtw', rows });
      while (!steps.next().done);
    }
    assert.deepEqual(out, whole);
    const big = balancedRowRanges(1000, 4);
    const pairsIn = (r: { from: number; to: number }) => {
      let c = 0;
      for (let i = r.from; i < r.to; i++) c += 1000 - 1 - i;
      return c;
    };
    for (const r of big) assert.ok(Math.abs(pairsIn(r) / ((1000 * 999) / 2) - 0.25) < 0.01, JSON.stringify(r));
  });

  it('square and condensed forms convert both ways', () => {
    const d = pairwiseDistances(series);
    const sq = squareFromCondensed(d, n);
    assert.equal(sq[3 * n + 5], d[condensedIndex(3, 5, n)]);
    assert.equal(sq[5 * n + 3], sq[3 * n + 5]);
    assert.deepEqual(asCondensed(sq, n), d);
    assert.equal(asCondensed(d, n), d);
    assert.equal(distanceAt(d, 4, 4, n), 0);
    assert.throws(
      () => asCondensed(new Float64Array(5), n),
      /5 cells for 7 points \(expected 21 condensed or 49 square\)/,
    );
  });

  it('reports progress, stops on an aborted signal, and the async form yields the same matrix', async () => {
    const seen: number[] = [];
    pairwiseDistances(series, { onProgress: x => seen.push(x) });
    assert.equal(seen.length, n - 1);
    assert.equal(seen.at(-1), 1);
    const controller = new AbortController();
    const out = new Float64Array(21);
    const steps = pairwiseDistanceSteps(series, out, { signal: controller.signal });
    steps.next();
    controller.abort();
    assert.throws(() => steps.next(), { name: 'AbortError' });
    assert.deepEqual(
      await pairwiseDistancesAsync(series, { measure: 'dtw', sliceMs: 0 }),
      pairwiseDistances(series, { measure: 'dtw' }),
    );
    await assert.rejects(pairwiseDistancesAsync(series, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  });

  it('an abort fired from a timer stops a long asynchronous run between slices', async () => {
    const big = seriesMatrix(
      new Float64Array(300 * 400).map((_, p) => Math.sin(p)),
      300,
      400,
    );
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    await assert.rejects(pairwiseDistancesAsync(big, { measure: 'twed', signal: controller.signal, sliceMs: 0 }), {
      name: 'AbortError',
    });
  });
});
