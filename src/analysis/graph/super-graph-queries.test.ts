import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { sankeyNodeIds } from './node-membership';
import { superGraph } from './super-graph';
import { SuperGraphCache } from './super-graph-cache';
import { answerSuperGraphQuery } from './super-graph-queries';
import { LULESH_MODULE_MAP, luleshLike, randomCallTree } from './test-fixtures/synthetic-runs';

/** `p`'s call tree with a second metric (cycles, unrelated to time node by node) beside its time. */
function withCycles(p: Profile): Profile {
  const b = new ProfileBuilder('two-metrics', '<two-metrics>');
  const C = p.contextCount;
  const ctx = Array.from({ length: C }, (_, r) => b.context({ rank: r }));
  const desc = { sourceKeys: [] as string[], kind: 'exclusive' as const, aggregation: 'sum' as const };
  const time = b.addMetric({ ...desc, name: 'time', label: 'time', unit: 's' });
  const cycles = b.addMetric({ ...desc, name: 'cycles', label: 'cycles', unit: 'count' });
  const excl = p.exclusive(0);
  for (let i = 0; i < p.tree.size; i++) {
    const id = b.tree.add(p.tree.parent(i), p.tree.name(i), p.tree.kind(i), {
      module: p.tree.module(i),
      file: p.tree.file(i),
      line: p.tree.line(i),
    });
    for (let c = 0; c < C; c++) {
      b.addExclusive(time, id, ctx[c]!, excl[i * C + c]!);
      b.addExclusive(cycles, id, ctx[c]!, ((i * 7919 + c * 104729) % 1000) + 1);
    }
  }
  return b.build(time);
}

describe('super-graph queries (what the CallFlow panel asks the analysis worker)', () => {
  const p = luleshLike(8);
  const options = { metric: 0, moduleMap: LULESH_MODULE_MAP };
  const g = superGraph(p, options);

  it('nodeIds names the supernodes holding the call-tree nodes, as in the graph built with the same options', () => {
    const mpi = [...Array(p.tree.size).keys()].filter(i => p.tree.name(i).startsWith('MPI_'));
    assert.ok(mpi.length > 0);
    const ids = answerSuperGraphQuery(p, { kind: 'nodeIds', options, nodes: mpi });
    assert.deepEqual(ids, sankeyNodeIds(g, mpi));
    assert.ok(ids.length > 0 && ids.every(id => id.startsWith('MPI')), ids.join(', '));
    assert.deepEqual(answerSuperGraphQuery(p, { kind: 'nodeIds', options, nodes: [] }), []);
  });

  it("nodeMetrics gives one node's per-rank inclusive and exclusive values per metric, none for an unknown node", () => {
    const node = g.nodes.find(n => n.id.startsWith('CalcForce'))!;
    const [time, ...rest] = answerSuperGraphQuery(p, { kind: 'nodeMetrics', options, nodeId: node.id, maxMetrics: 12 });
    assert.equal(rest.length, 0, 'the fixture has one metric');
    assert.equal(time!.name, 'time');
    assert.deepEqual(time!.inclusive, Array.from(node.inclusiveByContext));
    assert.deepEqual(time!.exclusive, Array.from(node.exclusiveByContext));
    assert.deepEqual(
      answerSuperGraphQuery(p, { kind: 'nodeMetrics', options, nodeId: 'no such node', maxMetrics: 12 }),
      [],
    );
    assert.deepEqual(answerSuperGraphQuery(p, { kind: 'nodeMetrics', options, nodeId: node.id, maxMetrics: 0 }), []);
  });

  it('nodeMetrics sums every other metric over the same call-tree nodes: equal to that metric’s own graph when the membership is the same', () => {
    const two = withCycles(randomCallTree(7, 600, 3));
    for (const filter of [{ threshold: 0 }, { threshold: 0.01 }, { threshold: 0.01, by: 'exclusive' as const }]) {
      const shown = superGraph(two, { metric: 0, filter });
      for (const node of shown.nodes) {
        const [time, cycles] = answerSuperGraphQuery(
          two,
          { kind: 'nodeMetrics', options: { metric: 0, filter }, nodeId: node.id, maxMetrics: 12 },
          () => shown,
        );
        assert.equal(cycles!.name, 'cycles');
        assert.deepEqual(time!.inclusive, Array.from(node.inclusiveByContext));
        // By hand: cycles of the node's entry nodes (inclusive) and members (exclusive).
        const incl = two.inclusive(1),
          excl = two.exclusive(1);
        const C = two.contextCount;
        const wantIn = new Array<number>(C).fill(0),
          wantEx = new Array<number>(C).fill(0);
        for (const e of node.entries)
          for (const i of e.nodes) for (let c = 0; c < C; c++) wantIn[c]! += incl[i * C + c]!;
        for (const i of node.members) for (let c = 0; c < C; c++) wantEx[c]! += excl[i * C + c]!;
        assert.deepEqual(cycles!.inclusive, wantIn, `${node.id} inclusive cycles`);
        assert.deepEqual(cycles!.exclusive, wantEx, `${node.id} exclusive cycles`);
      }
    }
    // At threshold 0 membership does not depend on the metric: the answer is the cycles graph's own node.
    const byCycles = superGraph(two, { metric: 1, filter: { threshold: 0 } });
    const byTime = superGraph(two, { metric: 0, filter: { threshold: 0 } });
    for (const n of byCycles.nodes) {
      const [, cycles] = answerSuperGraphQuery(
        two,
        { kind: 'nodeMetrics', options: { metric: 0, filter: { threshold: 0 } }, nodeId: n.id, maxMetrics: 2 },
        () => byTime,
      );
      for (let c = 0; c < two.contextCount; c++) {
        assert.ok(Math.abs(cycles!.inclusive[c]! - n.inclusiveByContext[c]!) <= 1e-9 * n.inclusive, n.id);
        assert.ok(Math.abs(cycles!.exclusive[c]! - n.exclusiveByContext[c]!) <= 1e-9 * Math.max(1, n.exclusive), n.id);
      }
    }
  });

  it('nodeMetrics over a context subset answers per selected context, in the graph’s order', () => {
    const two = withCycles(randomCallTree(3, 300, 4));
    const options = { metric: 0, contexts: [3, 1] };
    const shown = superGraph(two, options);
    const node = shown.nodes[1]!;
    const [time, cycles] = answerSuperGraphQuery(two, { kind: 'nodeMetrics', options, nodeId: node.id, maxMetrics: 2 });
    assert.equal(time!.inclusive.length, 2);
    assert.deepEqual(time!.exclusive, Array.from(node.exclusiveByContext));
    const excl = two.exclusive(1);
    const want = [3, 1].map(c => [...node.members].reduce((s, i) => s + excl[i * 4 + c]!, 0));
    assert.deepEqual(cycles!.exclusive, want);
  });

  it('a selection builds no graph: it is answered from the cached graph on screen', () => {
    const two = withCycles(randomCallTree(11, 400, 2));
    const cache = new SuperGraphCache(two);
    const options = { metric: 0, filter: { threshold: 0.001 } };
    const shown = cache.graph(options);
    for (const n of shown.nodes)
      answerSuperGraphQuery(two, { kind: 'nodeMetrics', options, nodeId: n.id, maxMetrics: 12 }, o => cache.graph(o));
    assert.equal(cache.builds, 1, 'only the graph on screen was ever built');
  });
});
