import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heaviestWithPaths } from './supernode-guard';

describe('supernode guard', () => {
  // 0 → 1 → 3, 0 → 2 → 4, 2 → 5; heights 100, 30, 60, 25, 50, 10. 3 is light but heavier than 5.
  const values = [100, 30, 60, 25, 50, 10];
  const edges = [
    { from: 0, to: 1, value: 30 },
    { from: 0, to: 2, value: 60 },
    { from: 1, to: 3, value: 25 },
    { from: 2, to: 4, value: 50 },
    { from: 2, to: 5, value: 10 },
  ];

  it('keeps everything at or under the limit', () => {
    const g = heaviestWithPaths(values, edges, 6);
    assert.deepEqual([...g.keep], [1, 1, 1, 1, 1, 1]);
    assert.equal(g.omitted, 0);
  });

  it('keeps the heaviest with a path from a root and reports what flows into the rest', () => {
    const g = heaviestWithPaths(values, edges, 4);
    // 0, 2, 4 (60, 50 reach 0 through 2), then 1 (30) fits; 3 would be the fifth.
    assert.deepEqual([...g.keep], [1, 1, 1, 0, 1, 0]);
    assert.equal(g.shown, 4);
    assert.equal(g.omitted, 2);
    assert.deepEqual([...g.omittedOutflow], [0, 25, 10, 0, 0, 0]);
  });

  it('skips a node whose path does not fit and takes a lighter one that does', () => {
    // Limit 2: 0, then 2; 4 needs nothing new but the limit is reached.
    assert.deepEqual([...heaviestWithPaths(values, edges, 2).keep], [1, 0, 1, 0, 0, 0]);
    // A heavy node deep below light ones: its path (3 nodes) does not fit in 2, the root does.
    const deep = heaviestWithPaths(
      [10, 1, 1, 9],
      [
        { from: 0, to: 1, value: 9 },
        { from: 1, to: 2, value: 9 },
        { from: 2, to: 3, value: 9 },
      ],
      3,
    );
    assert.deepEqual([...deep.keep], [1, 1, 1, 0], "3's chain does not fit; lighter nodes fill the budget");
  });

  it('follows the heaviest caller and survives cycles and odd values', () => {
    const g = heaviestWithPaths(
      [NaN, 5, 5, 9],
      [
        { from: 1, to: 3, value: 2 },
        { from: 2, to: 3, value: 7 },
        { from: 3, to: 1, value: 1 },
        { from: 2, to: 2, value: 1 },
      ],
      2,
    );
    assert.deepEqual([...g.keep], [0, 0, 1, 1], '3 comes with its heaviest caller, 2');
  });

  it('looks beyond the heaviest 4 × limit candidates when none of their paths fits', () => {
    // Root 0 (1), middles 1–8 (0.5), heavy leaves 9–16 (10) below each middle: a leaf needs 3 nodes.
    const values = [1, ...Array<number>(8).fill(0.5), ...Array<number>(8).fill(10)];
    const edges = Array.from({ length: 8 }, (_, k) => [
      { from: 0, to: 1 + k, value: 10.5 },
      { from: 1 + k, to: 9 + k, value: 10 },
    ]).flat();
    const g = heaviestWithPaths(values, edges, 2);
    assert.deepEqual(
      [...g.keep.keys()].filter(v => g.keep[v]),
      [0, 1],
    );
    assert.equal(g.omitted, 15);
  });
});
