import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectReport } from './inspect-report';
import { profileFromOutline } from '../model/test-profiles';

describe('inspect report', () => {
  const p = profileFromOutline(`
main = 1
  solve = 2
    kernel = 40
    small = 1
  io = 3
    write = 30`);

  it('lists every node with its path when the tree is small', () => {
    const r = inspectReport(p);
    assert.equal(r.nodeCount, 6);
    assert.equal(r.nodesTruncated, false);
    assert.deepEqual(
      r.nodes.map(n => n.path.join('/')),
      ['main', 'main/solve', 'main/solve/kernel', 'main/solve/small', 'main/io', 'main/io/write'],
    );
    assert.equal(r.nodes[1]!.inclusive['time'], 43);
  });

  it('lists the heaviest nodes and their ancestors when the tree is large', () => {
    const r = inspectReport(p, { maxNodes: 2 });
    assert.equal(r.nodesTruncated, true);
    assert.equal(r.nodeCount, 6);
    // The two heaviest by inclusive are main (77) and solve (43); kernel (40) is third.
    assert.deepEqual(
      r.nodes.map(n => n.path.join('/')),
      ['main', 'main/solve'],
    );
    const three = inspectReport(p, { maxNodes: 3 });
    assert.deepEqual(
      three.nodes.map(n => n.name),
      ['main', 'solve', 'kernel'],
    );
    const deep = inspectReport(profileFromOutline('a = 1\n  b = 1\n    c = 100\n  d = 50'), { maxNodes: 1 });
    assert.deepEqual(
      deep.nodes.map(n => n.name),
      ['a'],
      'a node is listed with all its ancestors',
    );
  });
});
