import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { profileFromOutline } from '../model/test-profiles';
import { functionImbalance, nodeImbalance } from './imbalance';
import { callLineProfile, twoRankProfile } from './test-fixtures';

describe('load imbalance', () => {
  it('ranks nodes by max/mean above the significance floor, then by share', () => {
    const ranked = nodeImbalance(twoRankProfile(), 0);
    assert.deepEqual(
      ranked.map(e => [e.name, e.imbalance]),
      [
        ['a.c:12', 1.5],
        ['io', 1.5],
        ['solve', 1.4],
        ['main', 38 / 30.25],
        ['a.c:13', 1],
      ],
    );
    assert.deepEqual(ranked[1], {
      id: 4,
      name: 'io',
      inclusive: 8,
      share: 8 / 60.5,
      min: 2,
      mean: 4,
      max: 6,
      imbalance: 1.5,
      maxContext: 1,
    });
    // Without the floor the tiny node (0.8 % of the total, all on rank 1) tops the list.
    assert.deepEqual(
      nodeImbalance(twoRankProfile(), 0, { floor: 0, limit: 2 }).map(e => [e.name, e.imbalance]),
      [
        ['tiny', 2],
        ['a.c:12', 1.5],
      ],
    );
  });

  it('ranks functions on their inclusive value, recursion counted once', () => {
    assert.deepEqual(
      functionImbalance(callLineProfile(), 0).map(e => [e.name, e.min, e.max, e.maxContext]),
      [
        ['main', 22, 34, 1],
        ['work', 19, 29, 1],
      ],
      '34/28 > 29/24',
    );
    assert.deepEqual(
      functionImbalance(twoRankProfile(), 0).map(e => e.name),
      ['io', 'solve', 'main'],
    );
  });

  it('copes with one context, ties on the max, empty and all-zero profiles', () => {
    assert.deepEqual(
      nodeImbalance(profileFromOutline('a = 1\n  b = 2'), 0).map(e => [e.id, e.imbalance, e.maxContext]),
      [
        [0, 1, 0],
        [1, 1, 0],
      ],
    );
    assert.equal(nodeImbalance(profileFromOutline('a = 3 3', 2), 0)[0]!.maxContext, 0);
    assert.deepEqual(nodeImbalance(profileFromOutline(''), 0), []);
    assert.deepEqual(functionImbalance(profileFromOutline('a = 0 0', 2), 0), []);
  });

  it('Caliper regions: rank 0 checkpoints, so checkpoint tops the list', async () => {
    const p = await readProfile('samples/heat-stencil/profiles/heat-stencil-regions-4ranks.json');
    const ranked = nodeImbalance(p, 0);
    assert.ok(ranked.length > 0 && ranked.every(e => e.share >= 0.01 && e.imbalance >= 1));
    for (let k = 1; k < ranked.length; k++) assert.ok(ranked[k - 1]!.imbalance >= ranked[k]!.imbalance);
    const top = ranked[0]!;
    assert.deepEqual(
      [top.name, p.contexts[top.maxContext]!.label, ranked[1]!.name],
      ['checkpoint', 'rank 0', 'jacobi_sweep'],
    );
    assert.equal(top.max, p.inclusive(0)[top.id * 4 + top.maxContext]);
  });
});
