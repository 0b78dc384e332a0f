import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallTreeBuilder, NodeKind } from '../../model/call-tree';
import { StackInterner } from './stack-interner';

describe('StackInterner', () => {
  it('shares stack prefixes, reads leaf-first and root-first stacks alike and tracks depth', () => {
    const tree = new CallTreeBuilder();
    const s = new StackInterner(tree);
    const main = s.frame('main', { file: 'a.c' });
    const work = s.frame('work', { module: 'libw.so' });
    const line = s.frame('a.c:7', { file: 'a.c', line: 7 }, NodeKind.Statement);
    assert.equal(s.frame('main', { file: 'a.c' }), main, 'frames are interned');
    assert.notEqual(s.frame('main', { file: 'b.c' }), main, 'attributes are part of a frame');
    const leaf = s.path([main, work, line], 3, true);
    assert.equal(s.path(Int32Array.of(line, work, main), 3, false), leaf);
    assert.equal(s.path([main, work], 2, true), tree.finish().parent(leaf));
    assert.equal(s.path([], 0, true), -1);
    assert.equal(s.depth(leaf), 2);
    assert.equal(s.frameName(s.frameOf(leaf)), 'a.c:7');
    const t = tree.finish();
    assert.equal(t.size, 3);
    assert.equal(t.kind(leaf), NodeKind.Statement);
    assert.equal(t.line(leaf), 7);
    assert.equal(t.module(t.parent(leaf)), 'libw.so');
  });
});
