import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { AffChangeDetector } from './aff-change-detector';

/** Unit-variance Gaussian samples whose mean steps through `levels`, `segment` samples each. */
function steppedStream(levels: number[], segment: number, seed: number): number[] {
  const normal = gaussianFrom(seededRandom(seed));
  return Array.from({ length: levels.length * segment }, (_, i) => levels[Math.floor(i / segment)]! + normal());
}

const LEVELS = [0, 3, 0, -3, 0, 3, 0];
const SEGMENT = 100;
/** "Within a few samples": the detection delay allowed after each planted shift. */
const WITHIN = 10;

describe('AFF change detector (Bodenham & Adams 2017, ffstream)', () => {
  it('estimates the burn-in mean and sample standard deviation, and decides nothing before it ends', () => {
    const det = new AffChangeDetector({ burnIn: 4 });
    const steps = [1, 2, 3, 6].map(x => det.update(x));
    assert.ok(steps.every(s => s.burnIn && !s.change && s.pValue === 1 && s.lambda === 1));
    // Mean 3, sample variance ((−2)² + (−1)² + 0² + 3²) / 3 = 14/3.
    assert.equal(det.reference.mean, 3);
    assert.ok(Math.abs(det.reference.sigma - Math.sqrt(14 / 3)) < 1e-12);
    assert.equal(det.burningIn, false);
  });

  it('flags a jump at once, restarts the burn-in and finds the next jump', () => {
    const det = new AffChangeDetector({ burnIn: 5 });
    const xs = [0.1, -0.1, 0.2, -0.2, 0, 0.1, -0.1, 8, 8.1, 7.9, 8.2, 7.8, 8, 8.1, 7.9, 0, 0];
    const flagged = xs.map(x => det.update(x).change);
    assert.deepEqual(det.changes, [7, 15]);
    assert.equal(flagged.filter(Boolean).length, 2);
    // The observation after a flag opens a new burn-in of 5.
    assert.equal(det.burningIn, true);
    assert.equal(det.update(0).burnIn, true);
  });

  it('lowers λ after a shift and keeps it within its bounds', () => {
    const det = new AffChangeDetector({ lambdaMin: 0.7 });
    const lambdas = steppedStream([0, 4], 60, 2).map(x => det.update(x).lambda);
    assert.ok(
      lambdas.slice(0, 10).every(l => l === 1),
      'λ is fixed during the first burn-in',
    );
    assert.ok(Math.min(...lambdas.slice(60, 75)) < 0.95, 'λ drops once the mean moves');
    assert.ok(lambdas.every(l => l >= 0.7 && l <= 1));
  });

  it('seed acceptance: every 3σ shift of a fixed stream flagged within a few samples', () => {
    const det = new AffChangeDetector();
    steppedStream(LEVELS, SEGMENT, 1).forEach(x => det.update(x));
    for (let c = SEGMENT; c < LEVELS.length * SEGMENT; c += SEGMENT)
      assert.ok(
        det.changes.some(f => f >= c && f < c + WITHIN),
        `shift at ${c} flagged within ${WITHIN} (flags ${det.changes})`,
      );
  });

  it('seed acceptance over 50 seeds: ≥ 95 % of shifts flagged within a few samples, ≤ 1 false alarm per 100 stationary samples', () => {
    let shifts = 0,
      found = 0,
      delay = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const det = new AffChangeDetector();
      steppedStream(LEVELS, SEGMENT, seed).forEach(x => det.update(x));
      for (let c = SEGMENT; c < LEVELS.length * SEGMENT; c += SEGMENT) {
        shifts++;
        const f = det.changes.find(i => i >= c && i < c + WITHIN);
        if (f !== undefined) {
          found++;
          delay += f - c;
        }
      }
    }
    assert.ok(found / shifts >= 0.95, `${found} of ${shifts} shifts flagged within ${WITHIN} samples`);
    assert.ok(delay / found <= 4, `mean delay ${delay / found}`);

    let alarms = 0,
      samples = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const det = new AffChangeDetector();
      for (const x of steppedStream([0], 1000, 1000 + seed)) det.update(x);
      alarms += det.changes.length;
      samples += 1000;
    }
    assert.ok((100 * alarms) / samples <= 1, `${alarms} false alarms in ${samples} stationary samples`);
  });

  it('refuses non-finite observations and bad options', () => {
    assert.throws(() => new AffChangeDetector().update(NaN), /finite/);
    assert.throws(() => new AffChangeDetector({ alpha: 0 }), /alpha/);
    assert.throws(() => new AffChangeDetector({ burnIn: 1 }), /burn-in/);
    assert.throws(() => new AffChangeDetector({ lambdaMin: 0.9, lambdaMax: 0.8 }), /λ bounds/);
  });
});
