import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { superGraph } from '../graph/super-graph';
import { EnsembleProfile } from './ensemble-profile';
import { runHistogram, runHistogramCounts } from './node-statistics';
import { supernodeHierarchy } from './supernode-hierarchy';
import { supernodeScope } from './supernode-scope';
import { runsFromOutlines } from './testing/outline-runs';

/** Three runs: `solver` recurses in `kernel`, calls into `mpi`, has `extra` only in r1 and is missing in r2. */
const SOLVER_RUNS = {
  r0: `main @app = 1 1
  solve @solver = 2 2
    kernel @solver = 10 20
      kernel @solver = 5 5
    helper @solver = 1 3
      MPI_Allreduce @mpi = 4 4
  io @io = 1 1`,
  r1: `main @app = 1 1
  solve @solver = 3 3
    kernel @solver = 12 22
    extra @solver = 7 9
    helper @solver = 1 1
  io @io = 1 1`,
  r2: `main @app = 3
  io @io = 2`,
};

function setup(outlines: Record<string, string>, contexts: Record<string, number> = {}) {
  const ep = new EnsembleProfile(runsFromOutlines(outlines, contexts), { path: '/test' });
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  return { ep, graph, index: (id: string) => graph.nodes.findIndex(n => n.id === id) };
}

describe('supernode hierarchy', () => {
  const { ep, graph, index } = setup(SOLVER_RUNS, { r0: 2, r1: 2 });

  it('walks breadth-first inside the supernode only, parents first, heaviest children first, maxima over runs', () => {
    const h = supernodeHierarchy(supernodeScope(ep.ensemble, graph, index('solver'), null, null, 'inclusive'), {
      bins: 20,
    });
    assert.deepEqual(
      h.nodes.map(n => n.name),
      ['solve', 'kernel', 'extra', 'helper', 'kernel'],
    );
    assert.deepEqual(
      h.nodes.map(n => n.parent),
      [-1, 0, 0, 0, 1],
    );
    h.nodes.forEach((n, i) => assert.ok(n.parent < i));
    assert.ok(!h.nodes.some(n => n.name === 'MPI_Allreduce'), 'the mpi callee is another supernode');
    // solve: r0 ranks (22, 34) → 28, r1 (23, 35) → 29; r2 lacks it.
    assert.equal(h.nodes[0]!.maxInclusive, 29);
    assert.equal(h.nodes[0]!.maxExclusive, 3);
    // helper includes the MPI time it calls (r0: ranks 5 and 7).
    assert.equal(h.nodes[3]!.maxInclusive, 6);
    assert.deepEqual(
      h.nodes.map(n => n.present),
      [2, 2, 1, 2, 1],
    );
    assert.deepEqual(
      h.nodes.map(n => n.kind),
      ['function', 'function', 'function', 'function', 'function'],
    );
    assert.equal(h.truncated, 0);
    // Missing runs are in no bin.
    for (const n of h.nodes)
      assert.equal(
        n.gradient.counts.reduce((a, b) => a + b, 0),
        n.present,
      );
    assert.equal(h.countScale, Math.max(...h.nodes.flatMap(n => n.gradient.counts)));
    assert.equal(
      h.nodes.every(n => n.inTarget === undefined),
      true,
    );
  });

  it('marks call sites missing in the target run', () => {
    const h = supernodeHierarchy(supernodeScope(ep.ensemble, graph, index('solver'), null, 0, 'inclusive'), {
      bins: 20,
    });
    const extra = h.nodes.find(n => n.name === 'extra')!;
    assert.equal(extra.inTarget, false);
    assert.equal(extra.targetValue, null);
    const kernel = h.nodes[1]!;
    assert.equal(kernel.inTarget, true);
    assert.equal(kernel.targetValue, 20);
  });

  it('keeps only nodes that exist in a selected run', () => {
    const only1 = supernodeHierarchy(supernodeScope(ep.ensemble, graph, index('solver'), [1], null, 'exclusive'), {
      bins: 5,
    });
    assert.deepEqual(
      only1.nodes.map(n => n.name),
      ['solve', 'kernel', 'extra', 'helper'],
    );
    assert.deepEqual(only1.nodes[2]!.gradient, { min: 8, max: 8, counts: [0, 0, 1, 0, 0] });
    const only2 = supernodeHierarchy(supernodeScope(ep.ensemble, graph, index('solver'), [2], null, 'exclusive'), {
      bins: 5,
    });
    assert.deepEqual(only2, { nodes: [], truncated: 0, countScale: 0 });
  });

  it('truncates to the heaviest nodes with all their ancestors', () => {
    const t = setup({
      a: `main @app = 1
  E @m = 1
    X @m = 1
      Y @m = 1
        Z @m = 80
    W1 @m = 5
    W2 @m = 4`,
      b: `main @app = 1
  E @m = 2
    X @m = 1
      Y @m = 1
        Z @m = 70
    W2 @m = 9`,
    });
    const scope = supernodeScope(t.ep.ensemble, t.graph, t.index('m'), null, null, 'inclusive');
    const full = supernodeHierarchy(scope, { bins: 4 });
    assert.deepEqual(
      full.nodes.map(n => n.name),
      ['E', 'X', 'W2', 'W1', 'Y', 'Z'],
    );
    const four = supernodeHierarchy(scope, { bins: 4, maxNodes: 4 });
    assert.deepEqual(
      four.nodes.map(n => n.name),
      ['E', 'X', 'Y', 'Z'],
    );
    assert.deepEqual(
      four.nodes.map(n => n.parent),
      [-1, 0, 1, 2],
    );
    assert.equal(four.truncated, 2);
    const two = supernodeHierarchy(scope, { bins: 4, maxNodes: 2 });
    assert.deepEqual(
      two.nodes.map(n => `${n.name}<${n.parent}`),
      ['E<-1', 'X<0'],
    );
    assert.equal(two.truncated, 4);
    assert.throws(() => supernodeHierarchy(scope, { bins: 4, maxNodes: 0 }), /at least one node/);
  });

  it('draws the same bins as the run histograms, auto rule included', () => {
    const values = [3, NaN, 9, 4, 4.5, 12, NaN, 7, 7.5, 8];
    for (const rule of [1, 7, 20, 'auto'] as const) {
      const full = runHistogram(values, rule),
        lean = runHistogramCounts(values, rule);
      assert.deepEqual([lean.min, lean.max, [...lean.counts]], [full.min, full.max, [...full.counts]], String(rule));
    }
    const none = runHistogramCounts([NaN, NaN], 3);
    assert.deepEqual([none.min, none.max, [...none.counts]].map(String), ['NaN', 'NaN', '0,0,0']);
  });
});
