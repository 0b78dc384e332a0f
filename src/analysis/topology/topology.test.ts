import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ancestorsOf, byOsIndex, childrenOf, depthsOf, emptyValues, nodesOfKind, TopologyBuilder } from './topology';

function smallMachine() {
  const b = new TopologyBuilder('tree', 'synthetic');
  const m = b.node('machine', 'machine');
  for (let s = 0; s < 2; s++) {
    const numa = b.node('numa', `NUMA ${s}`, m, s);
    for (let c = 0; c < 2; c++) {
      const l2 = b.node('l2', `L2 ${s * 2 + c}`, numa);
      b.node('pu', `PU ${s * 2 + c}`, l2, s * 2 + c);
    }
  }
  b.link(1, 6, 'cross-socket');
  return b.build();
}

describe('topology', () => {
  it('keeps parents before children and answers tree questions', () => {
    const t = smallMachine();
    assert.equal(t.nodes.length, 11);
    assert.deepEqual(childrenOf(t)[0], [1, 6]);
    assert.deepEqual([...depthsOf(t)].slice(0, 4), [0, 1, 2, 3]);
    assert.deepEqual(
      nodesOfKind(t, 'pu').map(i => t.nodes[i]!.osIndex),
      [0, 1, 2, 3],
    );
    const pu3 = byOsIndex(t, 'pu').get(3)!;
    assert.deepEqual(
      ancestorsOf(t, pu3).map(i => t.nodes[i]!.kind),
      ['pu', 'l2', 'numa', 'machine'],
    );
    assert.equal(byOsIndex(t, 'pu').has(9), false);
    const v = emptyValues(t, 'cycles', 'cycles');
    assert.equal(v.node.length, 11);
    assert.equal(v.link.length, 1);
  });

  it('refuses a parent or a link end that does not exist', () => {
    const b = new TopologyBuilder('tree', 'synthetic');
    assert.throws(() => b.node('pu', 'PU 0', 0), /parent 0 does not exist/);
    b.node('machine', 'm');
    assert.throws(() => b.link(0, 1, 'x'), /no such node/);
  });
});
