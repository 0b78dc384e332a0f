import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from './seeded-random';

describe('seededRandom', () => {
  it('repeats for a seed, differs across seeds, stays in [0, 1) and is roughly uniform', () => {
    const a = seededRandom(42),
      b = seededRandom(42),
      c = seededRandom(43);
    const xs = Array.from({ length: 10_000 }, () => a());
    assert.deepEqual(
      Array.from({ length: 10_000 }, () => b()),
      xs,
    );
    assert.notEqual(c(), xs[0]);
    assert.ok(xs.every(x => x >= 0 && x < 1));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  });
});
