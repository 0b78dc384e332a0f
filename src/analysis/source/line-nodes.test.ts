import assert from 'node:assert/strict';
import { it } from 'node:test';
import { functionTotals } from '../model/aggregates';
import { profileFromOutline } from '../model/test-profiles';
import { nodesAtLine } from './line-nodes';

const SOURCE = `
main m.c:1 = 1
  m.c:3 m.c:3 = 2
  solve s.c:10 = 1
    s.c:12 s.c:12 = 30
    s.c:14 s.c:14 = 5
    io o.c:5 = 2
  solve s.c:10 = 4
    s.c:12 s.c:12 = 7
  post s.c:40 = 1`;

it('reverse lookup: the nodes recorded at a line, else the frames of the function around it', () => {
  const p = profileFromOutline(SOURCE);
  const t = functionTotals(p, 0);
  const s = new Set(['s.c']);
  // Ids: 0 main, 1 m.c:3, 2 solve, 3 s.c:12, 4 s.c:14, 5 io, 6 solve, 7 s.c:12, 8 post.
  assert.deepEqual(nodesAtLine(p, s, 12, t), { nodes: [3, 7], exact: true, function: t.names.indexOf('solve') });
  assert.deepEqual(nodesAtLine(p, s, 13, t), { nodes: [2, 6], exact: false, function: t.names.indexOf('solve') });
  assert.deepEqual(nodesAtLine(p, s, 41, t), { nodes: [8], exact: false, function: t.names.indexOf('post') });
  assert.deepEqual(
    nodesAtLine(p, s, 9, t),
    { nodes: [], exact: false, function: -1 },
    'above every function of the file',
  );
  assert.deepEqual(nodesAtLine(p, new Set(['m.c', '/elsewhere/m.c']), 3, t).nodes, [1]);
  assert.deepEqual(nodesAtLine(p, new Set(['x.c']), 12, t).nodes, [], 'a file the profile does not know');
});
