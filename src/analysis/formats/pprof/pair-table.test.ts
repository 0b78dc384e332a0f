import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../stats/seeded-random';
import { PairTable } from './pair-table';

describe('PairTable', () => {
  it('agrees with a Map through many growths', () => {
    const t = new PairTable(4);
    const ref = new Map<string, number>();
    const rnd = seededRandom(5);
    for (let k = 0; k < 20000; k++) {
      const a = Math.floor(rnd() * 3000),
        b = Math.floor(rnd() * 50);
      const key = `${a}/${b}`;
      const want = ref.get(key) ?? -1;
      assert.equal(t.get(a, b), want);
      if (want < 0) {
        ref.set(key, k);
        t.set(a, b, k);
      }
    }
    assert.equal(t.size, ref.size);
    for (const [key, v] of ref) {
      const [a, b] = key.split('/').map(Number);
      assert.equal(t.get(a!, b!), v);
    }
    assert.equal(t.get(3001, 0), -1);
  });
});
