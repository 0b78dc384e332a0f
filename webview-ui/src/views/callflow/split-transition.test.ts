import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PHASE_MS, planTransition } from './split-transition';

describe('split transition plan', () => {
  const before = [
    { id: 'root', x0: 0, y0: 0, x1: 10, y1: 100 },
    { id: 'lib', x0: 100, y0: 10, x1: 110, y1: 70 },
  ];
  const after = [
    { id: 'root', x0: 0, y0: 0, x1: 10, y1: 100 },
    { id: 'lib:entry:a', baseId: 'lib', x0: 100, y0: 5, x1: 110, y1: 40 },
    { id: 'lib:entry:b', baseId: 'lib', x0: 100, y0: 50, x1: 110, y1: 75 },
    { id: 'fresh', x0: 200, y0: 0, x1: 210, y1: 5 },
  ];

  test('three phases in order: links out, nodes move, links in', () => {
    const plan = planTransition(before, after, false);
    assert.deepEqual(
      plan.phases.map(p => p.name),
      ['fade-out', 'move', 'fade-in'],
    );
    for (let i = 1; i < plan.phases.length; i++) {
      const prev = plan.phases[i - 1]!;
      assert.equal(plan.phases[i]!.delay, prev.delay + prev.duration, 'each phase starts when the previous ends');
    }
    assert.equal(plan.total, PHASE_MS.fadeOut + PHASE_MS.move + PHASE_MS.fadeIn);
  });

  test('split parts start at their base bar; new nodes without a past are not moved', () => {
    const plan = planTransition(before, after, false);
    const a = plan.moves.find(m => m.id === 'lib:entry:a')!;
    assert.deepEqual(a.from, { x0: 100, y0: 10, x1: 110, y1: 70 });
    assert.equal(a.entering, true);
    assert.equal(plan.moves.find(m => m.id === 'root')!.entering, false);
    assert.ok(!plan.moves.some(m => m.id === 'fresh'));
  });

  test('un-split: the base starts over the union of its parts', () => {
    const plan = planTransition(after, before, false);
    assert.deepEqual(plan.moves.find(m => m.id === 'lib')!.from, { x0: 100, y0: 5, x1: 110, y1: 75 });
  });

  test('reduced motion: no phases', () => {
    const plan = planTransition(before, after, true);
    assert.equal(plan.phases.length, 0);
    assert.equal(plan.total, 0);
  });
});
