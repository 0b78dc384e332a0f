import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import { heaviestLeafPaths, hotPathFrom, rootHotPaths } from './hot-path';
import { twoRankProfile } from './test-fixtures';

const nodes = (path: { node: number }[]) => path.map(s => s.node);

describe('hot path', () => {
  it('follows the heaviest child while it holds the threshold share of the total', () => {
    const p = twoRankProfile();
    const [path, ...more] = rootHotPaths(p, 0);
    assert.equal(more.length, 0);
    assert.deepEqual(path, [
      { node: 0, depth: 0, inclusive: 60.5, exclusive: 2, share: 1, exclusiveShare: 2 / 60.5 },
      { node: 1, depth: 1, inclusive: 50, exclusive: 0, share: 50 / 60.5, exclusiveShare: 0 },
      { node: 2, depth: 2, inclusive: 40, exclusive: 40, share: 40 / 60.5, exclusiveShare: 40 / 60.5 },
    ]);
    assert.deepEqual(nodes(rootHotPaths(p, 0, 0.7)[0]!), [0, 1], 'a.c:12 holds 66 % < 70 %');
  });

  it('starts at a given node, which is always on its own path', () => {
    const p = twoRankProfile();
    assert.deepEqual(nodes(hotPathFrom(p, 0, 1)), [1, 2]);
    assert.deepEqual(
      hotPathFrom(p, 0, 4).map(s => [s.node, s.depth]),
      [[4, 1]],
    );
    assert.deepEqual(nodes(hotPathFrom(p, 0, 5, 0.9)), [5]);
    assert.throws(() => hotPathFrom(p, 0, 6), RangeError);
  });

  it('lists one path per heavy root, heaviest first, and breaks ties by the first child', () => {
    const p = profileFromOutline(`
small = 1
big
  left = 5
  right = 5
crumb = 0.01`);
    assert.deepEqual(rootHotPaths(p, 0).map(nodes), [[1, 2], [0]]);
    assert.deepEqual(rootHotPaths(p, 0, 0.5).map(nodes), [[1]], 'left holds 5/11.01 < 50 %');
  });

  it('ranks root-to-leaf paths by the leaf, lower id first on ties', () => {
    const p = twoRankProfile();
    assert.deepEqual(heaviestLeafPaths(p, 0, 3).map(nodes), [
      [0, 1, 2],
      [0, 1, 3],
      [0, 4],
    ]);
    const ties = profileFromOutline(`
r
  a = 2
  b = 3
  c = 2
  d = 0`);
    assert.deepEqual(
      heaviestLeafPaths(ties, 0, 10).map(nodes),
      [
        [0, 2],
        [0, 1],
        [0, 3],
      ],
      'costless d left out',
    );
    assert.deepEqual(heaviestLeafPaths(ties, 0, 0), []);
  });

  it('copes with empty, all-zero and single-context profiles', () => {
    const empty = profileFromOutline('');
    assert.deepEqual(rootHotPaths(empty, 0), []);
    assert.deepEqual(heaviestLeafPaths(empty, 0, 5), []);
    const zero = profileFromOutline('a\n  b = 0');
    assert.deepEqual(rootHotPaths(zero, 0), []);
    assert.deepEqual(hotPathFrom(zero, 0, 0), [
      { node: 0, depth: 0, inclusive: 0, exclusive: 0, share: 0, exclusiveShare: 0 },
    ]);
    assert.deepEqual(nodes(rootHotPaths(profileFromOutline('a\n  b = 3'), 0)[0]!), [0, 1]);
  });

  it('counts a recursive chain like any other path', () => {
    const p = profileFromOutline(`
fib = 1
  fib = 1
    fib = 4`);
    assert.deepEqual(
      rootHotPaths(p, 0)[0]!.map(s => s.inclusive),
      [6, 5, 4],
    );
  });
});
