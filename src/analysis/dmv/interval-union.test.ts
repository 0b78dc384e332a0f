import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { LaneUnionBuilder } from './interval-union';

describe('lane unions', () => {
  it('merges overlapping and nested intervals per lane; busy time counts each instant once', () => {
    const b = new LaneUnionBuilder(2);
    // Lane 0: [0,10) ∪ [2,5) nested ∪ [8,12) overlapping ∪ [20,25) → [0,12), [20,25).
    b.add(0, 0, 10);
    b.add(0, 2, 5);
    b.add(0, 8, 12);
    b.add(0, 20, 25);
    b.add(1, 5, 6);
    b.add(1, 4, 4); // empty: dropped
    const u = b.build();
    assert.deepEqual(Array.from(u.start), [0, 20, 5]);
    assert.deepEqual(Array.from(u.end), [12, 25, 6]);
    assert.equal(u.total, 18);
    assert.equal(u.coveredOnLane(0, 5, 22), 9);
    assert.equal(u.covered(5, 22), 10);
    assert.equal(u.covered(12, 20), 0);
    assert.equal(u.activeLanes, 2);
    const bins = new Float64Array(3);
    u.addToBins(0, 10, 3, bins);
    assert.deepEqual(Array.from(bins), [11, 2, 5]);
  });

  it('agrees with a brute-force count on random intervals, in any insertion order', () => {
    const rnd = seededRandom(3);
    const lanes = 3;
    const b = new LaneUnionBuilder(lanes);
    const covered = Array.from({ length: lanes }, () => new Uint8Array(1000));
    for (let i = 0; i < 300; i++) {
      const l = Math.floor(rnd() * lanes);
      const s = Math.floor(rnd() * 990),
        e = s + 1 + Math.floor(rnd() * 30);
      b.add(l, s, Math.min(e, 1000));
      covered[l]!.fill(1, s, Math.min(e, 1000));
    }
    const u = b.build();
    for (let q = 0; q < 50; q++) {
      const t0 = Math.floor(rnd() * 1000),
        t1 = t0 + Math.floor(rnd() * 300);
      let expect = 0;
      for (let l = 0; l < lanes; l++) for (let t = t0; t < Math.min(t1, 1000); t++) expect += covered[l]![t]!;
      assert.equal(u.covered(t0, t1), expect);
    }
    const bins = new Float64Array(7);
    u.addToBins(100, 120, 7, bins);
    bins.forEach((v, k) => assert.equal(v, u.covered(100 + k * 120, 100 + (k + 1) * 120)));
  });
});
