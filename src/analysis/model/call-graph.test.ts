import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallGraphBuilder } from './call-graph';
import { Profile } from './profile';
import { ProfileBuilder } from './profile-builder';
import { StringTable } from './string-table';
import { exclusiveTime } from './test-profiles';

describe('call graph', () => {
  it('finds functions by key, sums repeated arcs and line costs, keeps "not stated" apart from 0', () => {
    const g = new CallGraphBuilder(new StringTable(), 2);
    const main = g.function('main', { name: 'main', file: 'a.c', line: 3 });
    const f = g.function('f@lib', { name: 'f', id: '7', module: 'lib.so' });
    assert.equal(g.function('main', { name: 'other' }), main);
    g.addSelf(f, 0, 2);
    g.addSelf(f, 0, 3);
    g.addArc(main, f, 1, 10, [4, 40]);
    g.addArc(main, f, 2, 10, [1, 10]);
    g.addArc(main, f, 1, 12, null);
    g.addLineCosts(f, g.strings.intern('b.c'), 5, [1, 2]);
    g.addLineCosts(f, g.strings.intern('b.c'), 5, [1, 2]);
    const d = g.finish();
    const s = (id: number) => g.strings.get(id);
    assert.deepEqual([...d.functions.name].map(s), ['main', 'f']);
    assert.deepEqual([s(d.functions.id[1]!), s(d.functions.module[1]!), d.functions.line[0]], ['7', 'lib.so', 3]);
    assert.deepEqual([...d.functions.self[0]!], [0, 5]);
    assert.ok(Number.isNaN(d.functions.total[0]![0]!) && Number.isNaN(d.functions.calls[0]!));
    assert.deepEqual([...d.arcs.calls], [3, 1]);
    assert.deepEqual([...d.arcs.callLine], [10, 12]);
    assert.deepEqual([...d.arcs.cost[0]!].map(String), ['5', 'NaN']);
    assert.deepEqual([...d.arcs.cost[1]!].map(String), ['50', 'NaN']);
    assert.deepEqual([...d.lines.cost[1]!], [4]);
  });

  it('absorbs another graph by function key', () => {
    const strings = new StringTable();
    const a = new CallGraphBuilder(strings, 1),
      b = new CallGraphBuilder(strings, 1);
    const [x1, y1] = [a.function('x', { name: 'x' }), a.function('y', { name: 'y' })];
    const [y2, x2] = [b.function('y', { name: 'y' }), b.function('x', { name: 'x' })];
    a.addSelf(y1, 0, 1);
    b.addSelf(y2, 0, 2);
    a.addArc(x1, y1, 1, 0, [1]);
    b.addArc(x2, y2, 1, 0, [2]);
    a.absorb(b);
    const d = a.finish();
    assert.deepEqual([...d.functions.self[0]!], [0, 3]);
    assert.deepEqual([...d.arcs.cost[0]!], [3]);
  });

  it('travels with the profile, its buffers transferred', () => {
    const b = new ProfileBuilder('test', '<memory>');
    const m = b.addMetric(exclusiveTime());
    b.tree.add(-1, 'main', 0);
    b.addExclusive(m, 0, b.context({}), 1);
    const g = new CallGraphBuilder(b.tree.strings, 1);
    g.addSelf(g.function('main', { name: 'main' }), 0, 1);
    b.callGraph = g.finish();
    const { data, transfer } = b.build(m).toTransferable();
    assert.ok(transfer.includes(data.callGraph!.functions.self[0]!.buffer as ArrayBuffer));
    assert.ok(transfer.includes(data.callGraph!.arcs.caller.buffer as ArrayBuffer));
    const copy = new Profile(structuredClone(data, { transfer }));
    assert.equal(copy.tree.strings.get(copy.callGraph!.functions.name[0]!), 'main');
    assert.equal(copy.callGraph!.functions.self[0]![0], 1);
  });
});
