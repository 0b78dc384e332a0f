import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, niceStep, timeTicks } from './time-axis';

describe('time axis', () => {
  test('steps are 1, 2 or 5 × 10ⁿ ns and at least the minimum spacing apart', () => {
    assert.equal(niceStep(1e9, 1000, 100), 1e8);
    assert.equal(niceStep(1e9, 1000, 120), 2e8);
    assert.equal(niceStep(3e6, 900, 90), 5e5);
    assert.equal(niceStep(10, 1000, 90), 1, 'never below 1 ns');
    for (const [span, w] of [
      [123456789, 800],
      [987, 640],
      [5e10, 1300],
    ] as const) {
      const s = niceStep(span, w, 90);
      assert.ok((s / span) * w >= 90, `${span}/${w}`);
      assert.match(String(s / 10 ** Math.floor(Math.log10(s))), /^(1|2|5)$/);
    }
  });

  test('labels use the unit of the magnitude with the decimals the step needs', () => {
    const t = timeTicks({ start: 0, end: 1e9 }, 1000, 90);
    assert.equal(t.unit, 's');
    assert.deepEqual(
      t.ticks.slice(0, 3).map(x => x.label),
      ['0.0 s', '0.1 s', '0.2 s'],
    );
    // 12.3 ms into the run, zoomed to 2 µs: milliseconds with four decimals.
    const z = timeTicks({ start: 12_300_000, end: 12_302_000 }, 1000, 90);
    assert.equal(z.unit, 'ms');
    assert.equal(z.step, 200);
    assert.deepEqual(
      z.ticks.slice(0, 2).map(x => x.label),
      ['12.3000 ms', '12.3002 ms'],
    );
    const ns = timeTicks({ start: 0, end: 500 }, 500, 90);
    assert.equal(ns.unit, 'ns');
    assert.equal(ns.ticks[1]!.label, '100 ns');
  });

  test('tick x positions map times linearly onto the width', () => {
    const t = timeTicks({ start: 50, end: 1050 }, 2000, 100);
    for (const x of t.ticks) assert.ok(Math.abs(x.x - (x.time - 50) * 2) < 1e-9);
    assert.ok(t.ticks[0]!.time >= 50 && t.ticks[t.ticks.length - 1]!.time <= 1050);
  });

  test('durations', () => {
    assert.equal(formatDuration(1_234_000), '1.23 ms');
    assert.equal(formatDuration(450), '450 ns');
    assert.equal(formatDuration(29_300_000), '29.3 ms');
    assert.equal(formatDuration(0), '0 ns');
  });
});
