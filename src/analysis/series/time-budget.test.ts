import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { steppingClock, TimeBudget } from './time-budget';

describe('time budget bookkeeping (injected clock)', () => {
  it('counts elapsed and remaining time from the clock', () => {
    const clock = steppingClock(0, 100);
    const budget = new TimeBudget(50, clock);
    clock.now = 130;
    assert.equal(budget.elapsed(), 30);
    assert.equal(budget.remaining(), 20);
    clock.now = 160;
    assert.equal(budget.remaining(), -10);
  });

  it('stops a loop before the unit that would overrun, counting the reserve', () => {
    // Each unit costs 7 ms on the fake clock after 3 ms of setup: 47 ms fit 6 units, 4 with a 14 ms reserve.
    for (const [reserve, expected] of [
      [0, 6],
      [14, 4],
    ] as const) {
      const clock = steppingClock(0);
      const budget = new TimeBudget(50, clock);
      clock.now = 3; // setup before the loop
      budget.startLaps();
      let units = 0;
      do {
        clock.now += 7;
        assert.equal(budget.lap(), 7);
        units++;
      } while (budget.allowsAnother(reserve));
      assert.equal(units, expected, `reserve ${reserve}`);
      assert.ok(budget.elapsed() + reserve <= 50, `${budget.elapsed()} ms used`);
    }
  });

  it('estimates the next unit by the costliest so far', () => {
    const clock = steppingClock(0);
    const budget = new TimeBudget(100, clock);
    for (const cost of [2, 9, 4]) {
      clock.now += cost;
      budget.lap();
    }
    assert.equal(budget.estimatedUnitCost, 9);
    assert.equal(budget.allowsAnother(), true);
    clock.now = 92;
    assert.equal(budget.allowsAnother(), false);
  });

  it('a stepping clock advances by its step per reading', () => {
    const clock = steppingClock(5, 1);
    assert.deepEqual([clock(), clock(), clock()], [1, 6, 11]);
    assert.throws(() => new TimeBudget(-1), /≥ 0 ms/);
  });
});
