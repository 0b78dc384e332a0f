import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { PairIndex } from './pair-index';

describe('pair index', () => {
  it('gives each distinct pair one id in order of first sight, through growth, like a Map', () => {
    const index = new PairIndex(4);
    const reference = new Map<string, number>();
    const rnd = seededRandom(11);
    for (let k = 0; k < 20000; k++) {
      const a = Math.floor(rnd() * 300),
        b = Math.floor(rnd() * 300);
      const key = `${a},${b}`;
      if (!reference.has(key)) reference.set(key, reference.size);
      assert.equal(index.add(a, b), reference.get(key));
    }
    assert.equal(index.size, reference.size);
    for (const [key, id] of reference) {
      const [a, b] = key.split(',').map(Number);
      assert.equal(index.get(a!, b!), id);
    }
    assert.equal(index.get(301, 0), -1);
    assert.equal(index.get(0, 2 ** 31 - 1), -1);
  });
});
