import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { AffChangeDetector } from './aff-change-detector';
import { OnlinePc1Reducer } from './online-reduction';

/** 256 entities: a high-variance group (the first 64) shares a positive burst at ticks 60–69. */
function stream(seed: number, t = 120, n = 256): Float64Array[] {
  const normal = gaussianFrom(seededRandom(seed));
  const shared = Array.from({ length: t }, () => normal());
  return Array.from({ length: t }, (_, tau) =>
    Float64Array.from({ length: n }, (_, i) =>
      i < 64 ? 5 + 2 * shared[tau]! + 0.3 * normal() + (tau >= 60 && tau < 70 ? 12 : 0) : 1 + 0.3 * normal(),
    ),
  );
}

describe('online PC1 reduction with sign coherence', () => {
  it('shows a positive burst of the high-variance group as a positive peak', () => {
    const reducer = new OnlinePc1Reducer(256);
    const values = stream(1).map(x => reducer.update(x).value);
    assert.equal(values[0], null, 'no component after one time point');
    const before = values.slice(40, 60).map(Number);
    const burst = values.slice(60, 70).map(Number);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    assert.ok(mean(burst) > mean(before) + 5, `burst ${mean(burst)} vs before ${mean(before)}`);
  });

  it('undoes an injected PC1 sign flip: the reduced series and its change points are unchanged', () => {
    const data = stream(2, 200);
    const run = (coherent: boolean, inject: boolean) => {
      const reducer = new OnlinePc1Reducer(256, { signCoherence: coherent });
      const aff = new AffChangeDetector();
      const values: number[] = [];
      data.forEach((x, tau) => {
        // Flip the model's PC1 behind the reducer's back every 25 ticks, as an SVD may.
        if (inject && tau > 30 && tau % 25 === 0) reducer.pca!.negateComponent(0);
        const v = reducer.update(x).value;
        if (v !== null) {
          values.push(v);
          aff.update(v);
        }
      });
      return { values, changes: aff.changes, flips: reducer.flips };
    };
    const clean = run(true, false);
    const flipped = run(true, true);
    assert.equal(flipped.flips - clean.flips, 6, 'every injected flip is undone');
    assert.deepEqual(flipped.values, clean.values);
    assert.deepEqual(flipped.changes, clean.changes, 'no sign-flip peak in the change-point stream');
    // The burst (ticks 60–69) is one positive excursion; without coherence a flip at tick 55 or 80
    // turns the stretches between flips upside down.
    const raw = run(false, true);
    const opposite = raw.values.filter((v, i) => Math.abs(v + clean.values[i]!) < 1e-9 * (1 + Math.abs(v))).length;
    assert.ok(opposite > 50, `${opposite} values of the raw reduction are sign-flipped`);
  });

  it('passes a single entity through', () => {
    const reducer = new OnlinePc1Reducer(1);
    assert.deepEqual(reducer.update([4.5]), { value: 4.5, flipped: false });
    assert.equal(reducer.loadings, null);
  });
});
