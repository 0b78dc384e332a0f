import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allIndices,
  clearSelection,
  differenceOf,
  focusOf,
  hideSelected,
  hideUnselected,
  indicesWhere,
  intersectionOf,
  select,
  showAll,
  toIndexSet,
  unionOf,
  type SampleScope,
} from './index-set';

const set = (...xs: number[]) => Int32Array.from(xs);
const list = (s: Int32Array | null) => (s ? [...s] : null);

describe('index sets', () => {
  it('union, intersection and difference of sorted sets', () => {
    assert.deepEqual(list(unionOf(set(1, 3, 5), set(2, 3, 9))), [1, 2, 3, 5, 9]);
    assert.deepEqual(list(intersectionOf(set(1, 3, 5, 9), set(2, 3, 9))), [3, 9]);
    assert.deepEqual(list(differenceOf(set(1, 3, 5, 9), set(2, 3, 9))), [1, 5]);
    assert.deepEqual(list(unionOf(set(), set(4))), [4]);
    assert.deepEqual(list(intersectionOf(set(), set(4))), []);
  });

  it('builds sets from predicates and from arbitrary indices', () => {
    assert.deepEqual(list(allIndices(4)), [0, 1, 2, 3]);
    assert.deepEqual(list(indicesWhere(10, i => i % 3 === 0)), [0, 3, 6, 9]);
    assert.deepEqual(list(indicesWhere(10, i => i % 3 === 0, set(1, 3, 4, 9))), [3, 9]);
    assert.deepEqual(list(toIndexSet([5, 1, 5, 3, 1])), [1, 3, 5]);
  });

  it('selects new, append and filter among the visible samples', () => {
    let s: SampleScope = { visible: null, selected: null };
    s = select(s, set(1, 2, 3), 'new');
    assert.deepEqual(list(s.selected), [1, 2, 3]);
    s = select(s, set(7, 8), 'append');
    assert.deepEqual(list(s.selected), [1, 2, 3, 7, 8]);
    s = select(s, set(2, 3, 4, 8), 'filter');
    assert.deepEqual(list(s.selected), [2, 3, 8]);
    s = select(s, set(5), 'new');
    assert.deepEqual(list(s.selected), [5]);
    // Filtering with nothing selected narrows everything visible.
    assert.deepEqual(list(select(clearSelection(s), set(4, 6), 'filter').selected), [4, 6]);
  });

  it('hides selected or unselected samples and shows them again', () => {
    let s: SampleScope = select({ visible: null, selected: null }, set(1, 2), 'new');
    s = hideSelected(s, 5);
    assert.deepEqual(list(s.visible), [0, 3, 4]);
    assert.equal(s.selected, null);
    // Hidden samples cannot be selected.
    s = select(s, set(1, 3), 'new');
    assert.deepEqual(list(s.selected), [3]);
    s = hideUnselected(s);
    assert.deepEqual(list(s.visible), [3]);
    assert.deepEqual(list(focusOf(s)), [3]);
    s = showAll(select(s, set(3), 'new'));
    assert.equal(s.visible, null);
    assert.deepEqual(list(s.selected), [3]);
  });
});
