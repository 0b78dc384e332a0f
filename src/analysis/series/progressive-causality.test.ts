import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { progressiveCausality, type ProgressiveCausalityResult } from './progressive-causality';
import { steppingClock } from './time-budget';

/** Metrics of the seed's case study (thesis §6.5.1): NetworkSend drives RbSec at lag 1; W is white noise. */
const RECV = 0,
  SEND = 1,
  PROCESSED = 2,
  RBSEC = 3,
  WHITE = 4;

function simulate(seed: number, t: number): Float64Array {
  const normal = gaussianFrom(seededRandom(seed));
  const d = 5;
  const y = new Float64Array(t * d);
  for (let r = 1; r < t; r++) {
    const p = (r - 1) * d,
      c = r * d;
    y[c + RECV] = 0.5 * y[p + RECV]! + normal();
    y[c + SEND] = 0.5 * y[p + SEND]! + normal();
    y[c + PROCESSED] = 0.3 * y[p + PROCESSED]! + normal();
    y[c + RBSEC] = 0.4 * y[p + RBSEC]! + 0.8 * y[p + SEND]! + normal();
    y[c + WHITE] = normal();
  }
  return y;
}

function result(r: ProgressiveCausalityResult | { skipped: string }): ProgressiveCausalityResult {
  if ('skipped' in r) throw new Error(r.skipped);
  return r;
}

describe('progressive causality (VAR on the most recent contiguous points)', () => {
  it('seed acceptance: NetworkSend → RbSec is flagged with the largest impulse response; white noise at the nominal rate', () => {
    const seeds = 500;
    let sendFlagged = 0,
      sendLargest = 0,
      whiteFlagged = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const r = result(progressiveCausality(simulate(seed, 200), 200, 5, RBSEC, null, { budgetMs: Infinity }));
      assert.equal(r.points, 200);
      const send = r.from.find(x => x.variable === SEND)!;
      if (send.flagged && send.pValue < 0.05) sendFlagged++;
      if (r.from.every(x => x === send || Math.abs(x.impulse) < Math.abs(send.impulse))) sendLargest++;
      if (r.from.find(x => x.variable === WHITE)!.flagged) whiteFlagged++;
    }
    assert.equal(sendFlagged, seeds);
    assert.equal(sendLargest, seeds);
    // A correctly sized 5 % test flags white noise in 5 % of seeds by construction: 25 of these 500
    // (5.2 % over 1,000 seeds), so "not flagged in ≥ 95 % of seeds" holds at the nominal level.
    assert.ok(whiteFlagged / seeds <= 0.05, `white noise flagged in ${whiteFlagged} of ${seeds} seeds`);
  });

  it('from- and to-rows: the target drives nothing back; shares add up to one per equation', () => {
    const r = result(progressiveCausality(simulate(3, 300), 300, 5, SEND, null, { budgetMs: Infinity }));
    const rb = r.to.find(x => x.variable === RBSEC)!;
    assert.ok(rb.flagged, 'NetworkSend Granger-causes RbSec (to-direction from NetworkSend)');
    assert.ok(r.from.every(x => !x.flagged || x.pValue < 0.05));
    assert.deepEqual(
      r.from.map(x => x.variable),
      [RECV, PROCESSED, RBSEC, WHITE],
    );
    const own = 1 - r.from.reduce((s, x) => s + x.varianceShare, 0);
    assert.ok(own > 0.8 && own <= 1, `NetworkSend's own share ${own}`);
  });

  it('budget bookkeeping: s grows by s·√(t_r / t_c) until all points are used (injected clock)', () => {
    // Every clock reading advances 1 ms, so a fit measures 1 ms. From s = 12 the √-rule asks for
    // ⌊12·√97⌋ = 118, but at the first fit's pace 118 points (194× its arithmetic, more lags) would
    // take 194 ms of the 97 left: the step is capped at 52; from there ⌊52·√94⌋ ≥ 500.
    const options = { budgetMs: 100, initialPoints: 12, clock: steppingClock(1) };
    const r = result(progressiveCausality(simulate(1, 500), 500, 5, RBSEC, null, options));
    assert.equal(r.fits, 3);
    assert.equal(r.points, 500);
    assert.deepEqual(r.state, { points: 500, lastFitMs: 1 });
    // A budget used up after the first fit stops there.
    const tight = result(
      progressiveCausality(simulate(1, 500), 500, 5, RBSEC, null, { ...options, budgetMs: 2, clock: steppingClock(1) }),
    );
    assert.equal(tight.points, 12);
    assert.equal(tight.fits, 1);
    // The seed's s = 10 is too short for 5 metrics (a VAR needs 2d + 2 = 12): it grows to 20 first.
    const short = result(
      progressiveCausality(simulate(1, 500), 500, 5, RBSEC, null, { budgetMs: 5, clock: steppingClock(1) }),
    );
    assert.equal(short.points, 20);
    // The next tick shrinks a window whose fit overran the budget: 400·√(100/400) = 200.
    const next = result(
      progressiveCausality(
        simulate(1, 500),
        500,
        5,
        RBSEC,
        { points: 400, lastFitMs: 400 },
        {
          budgetMs: 100,
          clock: steppingClock(200),
        },
      ),
    );
    assert.equal(next.points, 200);
    assert.equal(next.fits, 1);
  });

  it('does not start a first feasible VAR that would overrun the budget', () => {
    // 300 metrics need 602 points for lag 1: about 0.5 G multiply–adds, far beyond 5 ms.
    const d = 300,
      t = 700;
    const r = progressiveCausality(
      new Float64Array(t * d).map((_, i) => Math.sin(i * 0.37 + (i % d))),
      t,
      d,
      0,
      null,
      {
        budgetMs: 5,
        clock: steppingClock(0),
      },
    );
    assert.ok('skipped' in r);
    assert.match(r.skipped, /a VAR of 300 metrics on 602 points would take about \d+ ms, over the 5 ms budget/);
  });

  it('leaves constant metrics out and skips a constant target', () => {
    const y = simulate(5, 120);
    for (let r = 0; r < 120; r++) y[r * 5 + WHITE] = 7;
    const r = result(progressiveCausality(y, 120, 5, RBSEC, null, { budgetMs: Infinity }));
    assert.deepEqual(r.constant, [WHITE]);
    const white = r.from.find(x => x.variable === WHITE)!;
    assert.ok(Number.isNaN(white.pValue) && !white.flagged);
    const skipped = progressiveCausality(y, 120, 5, WHITE, null);
    assert.ok('skipped' in skipped && /constant/.test(skipped.skipped));
    assert.ok('skipped' in progressiveCausality(y, 2, 5, RBSEC, null));
  });
});
