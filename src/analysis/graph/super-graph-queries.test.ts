import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sankeyNodeIds } from './node-membership';
import { superGraph } from './super-graph';
import { answerSuperGraphQuery } from './super-graph-queries';
import { LULESH_MODULE_MAP, luleshLike } from './test-fixtures/synthetic-runs';

describe('super-graph queries (what the Sankey panel asks the analysis worker)', () => {
  const p = luleshLike(8);
  const options = { metric: 0, moduleMap: LULESH_MODULE_MAP };
  const g = superGraph(p, options);

  it('nodeIds names the Sankey nodes holding the call-tree nodes, as in the graph built with the same options', () => {
    const mpi = [...Array(p.tree.size).keys()].filter(i => p.tree.name(i).startsWith('MPI_'));
    assert.ok(mpi.length > 0);
    const ids = answerSuperGraphQuery(p, { kind: 'nodeIds', options, nodes: mpi });
    assert.deepEqual(ids, sankeyNodeIds(g, mpi));
    assert.ok(ids.length > 0 && ids.every(id => id.startsWith('MPI')), ids.join(', '));
    assert.deepEqual(answerSuperGraphQuery(p, { kind: 'nodeIds', options, nodes: [] }), []);
  });

  it("nodeMetrics gives one node's per-rank inclusive and exclusive values per metric, none for an unknown node", () => {
    const node = g.nodes.find(n => n.id.startsWith('CalcForce'))!;
    const [time, ...rest] = answerSuperGraphQuery(p, {
      kind: 'nodeMetrics',
      options: { moduleMap: LULESH_MODULE_MAP },
      nodeId: node.id,
      maxMetrics: 12,
    });
    assert.equal(rest.length, 0, 'the fixture has one metric');
    assert.equal(time!.name, 'time');
    assert.deepEqual(time!.inclusive, Array.from(node.inclusiveByContext));
    assert.deepEqual(time!.exclusive, Array.from(node.exclusiveByContext));
    assert.deepEqual(
      answerSuperGraphQuery(p, { kind: 'nodeMetrics', options: {}, nodeId: 'no such node', maxMetrics: 12 }),
      [],
    );
    assert.deepEqual(
      answerSuperGraphQuery(p, {
        kind: 'nodeMetrics',
        options: { moduleMap: LULESH_MODULE_MAP },
        nodeId: node.id,
        maxMetrics: 0,
      }),
      [],
    );
  });
});
