import assert from 'node:assert/strict';
import { it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import { sankeyNodeIds } from './node-membership';
import { superGraph } from './super-graph';
import { LIB1_LIB2_LIB1 } from './test-fixtures/synthetic-runs';

// Node ids in outline order: 0 main, 1 lib1_api, 2 lib1_work, 3 lib2_run, 4 lib1_callback, 5 lib1_helper.
it('finds the Sankey node of a call-tree node, including a re-entry of the module further down', () => {
  const g = superGraph(profileFromOutline(LIB1_LIB2_LIB1), { filter: { threshold: 0 } });
  assert.deepEqual(sankeyNodeIds(g, [2]), ['lib1']);
  assert.deepEqual(sankeyNodeIds(g, [5]), ['lib1#2']);
  assert.deepEqual(sankeyNodeIds(g, [5, 3, 1, 2]), ['lib1', 'lib2', 'lib1#2']);
  assert.deepEqual(sankeyNodeIds(g, []), []);
  assert.throws(() => sankeyNodeIds(g, [99]), /call-tree node 99 does not exist/);
});

it('a node the filter removed counts in its nearest kept ancestor', () => {
  // lib1_helper (1 of 16) falls below a 10 % filter; its time is counted in lib1_callback's node.
  const g = superGraph(profileFromOutline(LIB1_LIB2_LIB1), { filter: { threshold: 0.1 } });
  assert.deepEqual(sankeyNodeIds(g, [5]), sankeyNodeIds(g, [4]));
});
