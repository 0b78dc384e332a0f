import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatasetList } from './dataset-list';

const listOf = (...names: string[]) => {
  const l = new DatasetList<string>();
  for (const n of names) l.add(n);
  return l;
};

test('datasets keep the order they were opened in; the last added is active', () => {
  const l = listOf('a', 'b', 'c');
  assert.deepEqual(l.all, ['a', 'b', 'c']);
  assert.equal(l.active, 'c');
  l.add('b');
  assert.deepEqual(l.all, ['a', 'b', 'c'], 'adding a listed one only activates it');
  assert.equal(l.active, 'b');
});

test('closing the active dataset returns to the one used before it', () => {
  const l = listOf('a', 'b', 'c');
  l.activate('a');
  assert.equal(l.remove('a'), true);
  assert.equal(l.active, 'c');
  assert.equal(l.remove('b'), false, 'closing an inactive one keeps the active one');
  assert.equal(l.active, 'c');
  l.remove('c');
  assert.equal(l.active, undefined);
  assert.equal(l.size, 0);
});

test('a preference skips recently used datasets it rejects (a closed diff returns to a profile)', () => {
  const l = listOf('p1', 'p2', 'Δ1', 'Δ2');
  l.remove('Δ2', c => !c.startsWith('Δ'));
  assert.equal(l.active, 'p2');
  const only = listOf('Δ1', 'Δ2');
  only.remove('Δ2', c => !c.startsWith('Δ'));
  assert.equal(only.active, 'Δ1', 'with nothing preferred, the most recent one');
});

test('a dataset added without activation becomes active when the active one closes and none was used', () => {
  const l = new DatasetList<string>();
  l.add('a');
  l.add('b', false);
  l.add('c', false);
  assert.equal(l.active, 'a');
  l.remove('a');
  assert.equal(l.active, 'b', 'the next in the list');
});

test('a reload replaces in place, keeping the position and the active state', () => {
  const l = listOf('a', 'b');
  l.replace('b', 'b2');
  assert.deepEqual(l.all, ['a', 'b2']);
  assert.equal(l.active, 'b2');
  assert.throws(() => l.replace('zz', 'y'), /not in the list/);
  assert.throws(() => l.activate('zz'), /not in the list/);
});
