import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gaussianFrom, seededRandom, shuffleInPlace } from './seeded-random';

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

describe('gaussianFrom', () => {
  it('gives standard normal deviates: mean 0, variance 1, ~68% within one sigma, repeatable', () => {
    const normal = gaussianFrom(seededRandom(5));
    const xs = Array.from({ length: 20_000 }, () => normal());
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
    assert.ok(Math.abs(mean) < 0.03, `mean ${mean}`);
    assert.ok(Math.abs(variance - 1) < 0.04, `variance ${variance}`);
    const within = xs.filter(x => Math.abs(x) < 1).length / xs.length;
    assert.ok(Math.abs(within - 0.6827) < 0.015, `within one sigma ${within}`);
    const again = gaussianFrom(seededRandom(5));
    assert.deepEqual(
      Array.from({ length: 10 }, () => again()),
      xs.slice(0, 10),
    );
  });
});

describe('shuffleInPlace', () => {
  it('permutes (a range of) an array, every order about equally often', () => {
    const rand = seededRandom(8);
    const counts = new Map<string, number>();
    for (let r = 0; r < 6000; r++) {
      const key = shuffleInPlace([0, 1, 2], rand).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    assert.equal(counts.size, 6);
    for (const c of counts.values()) assert.ok(Math.abs(c - 1000) < 120, `count ${c}`);
    const typed = Int32Array.from([9, 1, 2, 3, 4, 9]);
    shuffleInPlace(typed, rand, 1, 5);
    assert.equal(typed[0], 9);
    assert.equal(typed[5], 9);
    assert.deepEqual([...typed.subarray(1, 5)].sort(), [1, 2, 3, 4]);
  });
});
