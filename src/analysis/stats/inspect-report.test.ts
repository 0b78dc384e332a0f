import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectReport, MAX_PATH_CHARS, MAX_PATH_ENTRIES } from './inspect-report';
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

  it('bounds the names in all listed paths when the tree is a deep chain', () => {
    // A 3000-deep recursion: listing 5000 nodes would print 4.5 million path names.
    const outline = Array.from({ length: 3000 }, (_, d) => `${' '.repeat(d)}f${d}${d === 2999 ? ' = 1' : ''}`).join(
      '\n',
    );
    const r = inspectReport(profileFromOutline(outline));
    assert.equal(r.nodeCount, 3000);
    assert.equal(r.nodesTruncated, true);
    const entries = r.nodes.reduce((s, n) => s + n.path.length, 0);
    assert.ok(entries <= MAX_PATH_ENTRIES);
    // All nodes weigh the same: the shallowest come first, each with its complete path.
    assert.equal(r.nodes.length, 1413);
    assert.deepEqual(r.nodes[1412]!.path.slice(-2), ['f1411', 'f1412']);
    assert.equal(inspectReport(profileFromOutline(outline), { maxNodes: Infinity }).nodes.length, 3000);
  });

  it('bounds the characters in all listed paths when a name is megabytes long (fuzz: callgrind seed 2 #603)', () => {
    // A 2 MiB function name over 100 callees: every callee's path repeats it, 200 MiB of JSON in all,
    // which printing once failed on ("Invalid string length", 2.5 GB resident).
    const name = 'fn'.repeat(1 << 20);
    const outline = [name, ...Array.from({ length: 100 }, (_, k) => ` callee${k} = ${k + 1}`)].join('\n');
    const r = inspectReport(profileFromOutline(outline));
    assert.equal(r.nodeCount, 101);
    assert.equal(r.nodesTruncated, true);
    const chars = r.nodes.reduce((s, n) => s + n.path.reduce((t, x) => t + x.length, 0), 0);
    assert.ok(chars <= MAX_PATH_CHARS, `${chars} characters`);
    assert.ok(r.nodes.length >= 2, 'the root and its heaviest callees are listed');
    assert.equal(r.nodes[0]!.name, name);
    // The heaviest callees, each with its complete path.
    const callees = r.nodes.slice(1).map(n => n.name);
    assert.deepEqual(
      callees,
      Array.from({ length: callees.length }, (_, k) => `callee${100 - callees.length + k}`),
    );
    assert.deepEqual(r.nodes.at(-1)!.path, [name, 'callee99']);
    assert.ok(JSON.stringify(r).length < 2 * MAX_PATH_CHARS);
  });
});
