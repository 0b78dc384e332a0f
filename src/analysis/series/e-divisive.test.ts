import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import {
  defaultMinSegmentSize,
  eDivisive,
  eDivisiveAsync,
  eDivisiveFromDistances,
  timePointDistances,
} from './e-divisive';
import { seriesMatrix, type SeriesMatrix } from './series-matrix';
import { plantedShifts } from './testing/synthetic-series';

/** Q̂ of Matteson & James (2014) eq. 6 over every (τ, κ) of [0, T), straight from the definition. */
function bruteForceBest(D: Float64Array, T: number, minSize: number): { split: number; statistic: number } {
  let best = { split: -1, statistic: -Infinity };
  for (let tau = minSize; tau <= T - minSize; tau++)
    for (let kappa = tau + minSize; kappa <= T; kappa++) {
      const n = tau,
        m = kappa - tau;
      let between = 0,
        withinX = 0,
        withinY = 0;
      for (let i = 0; i < tau; i++) for (let j = tau; j < kappa; j++) between += D[i * T + j]!;
      for (let i = 0; i < tau; i++) for (let k = i + 1; k < tau; k++) withinX += D[i * T + k]!;
      for (let j = tau; j < kappa; j++) for (let k = j + 1; k < kappa; k++) withinY += D[j * T + k]!;
      const e = (2 / (n * m)) * between - withinX / ((n * (n - 1)) / 2) - withinY / ((m * (m - 1)) / 2);
      const q = ((n * m) / (n + m)) * e;
      if (q > best.statistic) best = { split: tau, statistic: q };
    }
  return best;
}

const single = (xs: number[]) => seriesMatrix(Float64Array.from(xs), 1, xs.length);

describe('E-Divisive', () => {
  it('hand-computed: 0,0,0,0,10,10,10,10 splits at 4 with Q̂ = (4·4/8)·(2·160/16) = 40', () => {
    // X = four 0s, Y = four 10s: 16 cross pairs at distance 10, no spread within either side.
    const r = eDivisive(single([0, 0, 0, 0, 10, 10, 10, 10]), {
      minSegmentSize: 2,
      permutations: 0,
      significance: 1,
      maxChangePoints: 1,
    });
    assert.equal(r.changePoints.length, 1);
    assert.equal(r.changePoints[0]!.index, 4);
    assert.ok(Math.abs(r.changePoints[0]!.statistic - 40) < 1e-12);
  });

  it('the O(N²) split search equals the definition on random multivariate data (α = 1 and 0.5)', () => {
    const rand = seededRandom(17);
    for (let trial = 0; trial < 8; trial++) {
      const T = 14 + trial,
        n = 3;
      const m = seriesMatrix(
        Float64Array.from({ length: n * T }, (_, p) => rand() + (p % T > T / 2 ? 0.5 : 0)),
        n,
        T,
      );
      for (const exponent of [1, 0.5]) {
        const D = timePointDistances([m], exponent);
        const expected = bruteForceBest(D, T, 3);
        const r = eDivisiveFromDistances(D, T, {
          minSegmentSize: 3,
          permutations: 0,
          significance: 1,
          maxChangePoints: 1,
        });
        assert.equal(r.changePoints[0]!.index, expected.split, `trial ${trial} α ${exponent}`);
        assert.ok(Math.abs(r.changePoints[0]!.statistic - expected.statistic) < 1e-9 * Math.abs(expected.statistic));
      }
    }
  });

  it('finds planted mean shifts within ±2 samples, with small p-values, over many seeds', () => {
    const planted = [60, 130];
    for (let seed = 1; seed <= 6; seed++) {
      const m = plantedShifts({ entities: 16, timePoints: 200, changePoints: planted, seed });
      const r = eDivisive(m, { seed });
      assert.equal(r.changePoints.length, 2, `seed ${seed}: ${r.changePoints.map(c => c.index).join(', ')}`);
      r.changePoints.forEach((c, i) => {
        assert.ok(Math.abs(c.index - planted[i]!) <= 2, `seed ${seed}: ${c.index} vs ${planted[i]}`);
        assert.ok(c.pValue <= 0.05);
      });
      assert.ok(r.rejectedPValue !== null && r.rejectedPValue > 0.05);
      assert.deepEqual(
        r.segments.map(s => [s.start, s.end]),
        [
          [0, r.changePoints[0]!.index],
          [r.changePoints[0]!.index, r.changePoints[1]!.index],
          [r.changePoints[1]!.index, 200],
        ],
      );
      assert.equal(r.segments[0]!.pValue, null);
      assert.equal(r.segments[1]!.pValue, r.changePoints[0]!.pValue);
    }
  });

  it('reports no change on stationary noise in most seeds', () => {
    let quiet = 0;
    const seeds = 20;
    for (let seed = 1; seed <= seeds; seed++) {
      const r = eDivisive(plantedShifts({ entities: 8, timePoints: 120, changePoints: [], seed: 100 + seed }), {
        seed,
      });
      if (r.changePoints.length === 0) quiet++;
    }
    // The first test is at level 0.05; allow a few false alarms among 20 seeds.
    assert.ok(quiet >= 17, `${quiet} of ${seeds} seeds without change points`);
  });

  it('stacks several metrics: a shift in the second metric alone is found', () => {
    const calm = plantedShifts({ entities: 6, timePoints: 100, changePoints: [], seed: 3 });
    const shifted = plantedShifts({ entities: 6, timePoints: 100, changePoints: [40], shift: 2, affected: 1, seed: 4 });
    const r = eDivisive([calm, shifted]);
    assert.deepEqual(
      r.changePoints.map(c => Math.abs(c.index - 40) <= 2),
      [true],
    );
    assert.throws(() => eDivisive([calm, single([1, 2, 3])]), /metric 1 has 3 time points where metric 0 has 100/);
  });

  it('is deterministic for a seed; defaults and validation', () => {
    const m = plantedShifts({ entities: 4, timePoints: 80, changePoints: [30], seed: 9 });
    assert.deepEqual(eDivisive(m, { seed: 5 }), eDivisive(m, { seed: 5 }));
    assert.equal(defaultMinSegmentSize(40), 3);
    assert.equal(defaultMinSegmentSize(500), 25);
    assert.equal(eDivisive(m).minSegmentSize, 4);
    assert.deepEqual(eDivisive(single([1, 2, 3, 4, 5])).changePoints, [], 'too short to split');
    assert.throws(() => eDivisive(m, { exponent: 2 }), /α must be in \(0, 2\)/);
    assert.throws(() => eDivisive(m, { minSegmentSize: 1 }), /at least 2/);
    assert.throws(() => eDivisive(single([1, NaN, 3])), /entity 0 at time point 1 is NaN/);
    assert.throws(() => eDivisive(m, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    const none: SeriesMatrix[] = [];
    assert.throws(() => eDivisive(none), /at least one metric/);
  });

  it('the asynchronous form gives the same result and stops on an abort fired from a timer', async () => {
    const m = plantedShifts({ entities: 8, timePoints: 150, changePoints: [70], seed: 2 });
    assert.deepEqual(await eDivisiveAsync(m, { sliceMs: 0 }), eDivisive(m));
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    await assert.rejects(eDivisiveAsync(m, { signal: controller.signal, sliceMs: 0 }), { name: 'AbortError' });
    await assert.rejects(eDivisiveAsync([]), /at least one metric/);
  });
});
