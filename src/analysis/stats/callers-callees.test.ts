import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { Profile } from '../model/profile';
import { profileFromOutline } from '../model/test-profiles';
import { callersCallees } from './callers-callees';
import { callLineProfile } from './test-fixtures';

const edges = (list: { name: string; value: number; share: number; calls: number | null; callLines: number[] }[]) =>
  list.map(e => [e.name, e.value, e.share, e.calls, e.callLines]);

describe('callers and callees', () => {
  it('aggregates every frame of the function in the call tree, recursion counted once', () => {
    const work = callersCallees(callLineProfile(), 0, 'work')!;
    assert.equal(work.source, 'call-tree');
    assert.deepEqual([work.inclusive, work.exclusive], [48, 48]);
    assert.deepEqual(edges(work.callers), [
      ['main', 48, 1, null, [5, 7]],
      ['work', 8, 8 / 48, null, [30]],
    ]);
    assert.deepEqual(edges(work.callees), [['work', 8, 8 / 48, null, [30]]]);
    const main = callersCallees(callLineProfile(), 0, 0)!;
    assert.deepEqual(
      [main.name, main.callers, edges(main.callees)],
      ['main', [], [['work', 48, 48 / 56, null, [5, 7]]]],
    );
  });

  it('uses the call graph arc costs when the profile has them', () => {
    const work = callersCallees(callLineProfile({ statedCost: true }), 0, 'work')!;
    assert.equal(work.source, 'call-graph');
    assert.deepEqual([work.inclusive, work.exclusive], [45, 42]);
    assert.deepEqual(edges(work.callers), [
      ['main', 40, 40 / 45, 3, [5, 7]],
      ['work', 7, 7 / 45, 3, [30]],
    ]);
    assert.deepEqual(edges(work.callees), [['work', 7, 7 / 45, 3, [30]]]);
    // An arc without a cost for the metric: the tree's numbers, not a partial graph.
    assert.equal(callersCallees(callLineProfile({ statedCost: false }), 0, 'work')!.source, 'call-tree');
  });

  it('orders ties by name and handles unknown functions', () => {
    const p = profileFromOutline('main = 1\n  b = 2\n  a = 2\n  c = 3');
    assert.deepEqual(
      callersCallees(p, 0, 'main')!.callees.map(e => e.name),
      ['c', 'a', 'b'],
    );
    assert.equal(callersCallees(p, 0, 'nope'), null);
    assert.throws(() => callersCallees(p, 0, 9), RangeError);
    assert.equal(callersCallees(profileFromOutline(''), 0, 'main'), null);
    const zero = callersCallees(profileFromOutline('main\n  f = 0'), 0, 'f')!;
    assert.deepEqual(edges(zero.callers), [['main', 0, 0, null, []]]);
  });

  it("callgrind: the call tree agrees with the file's own arc costs", async () => {
    const p = await readProfile('samples/heat-stencil/profiles/callgrind.out.heat-stencil-4ranks');
    const { callGraph: _graph, ...treeOnly } = p.data;
    const q = new Profile(treeOnly);
    for (const fn of ['rank_main', 'MPI_Sendrecv', 'run_timesteps']) {
      const fromGraph = callersCallees(p, 0, fn)!,
        fromTree = callersCallees(q, 0, fn)!;
      assert.deepEqual([fromGraph.source, fromTree.source], ['call-graph', 'call-tree']);
      for (const side of ['callers', 'callees'] as const) {
        assert.deepEqual(
          fromTree[side].map(e => e.name),
          fromGraph[side].map(e => e.name),
          `${fn} ${side}`,
        );
        fromTree[side].forEach((e, k) =>
          assert.ok(Math.abs(e.value - fromGraph[side][k]!.value) < 1e-6, `${fn} → ${e.name}`),
        );
      }
    }
    const jacobi = callersCallees(p, 0, 'jacobi_sweep')!;
    assert.deepEqual(edges(jacobi.callers), [['run_timesteps', jacobi.inclusive, 1, 400, [149]]]);
  });
});
