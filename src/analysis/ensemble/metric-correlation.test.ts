import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { superGraph } from '../graph/super-graph';
import { EnsembleProfile } from './ensemble-profile';
import { metricCorrelation } from './metric-correlation';
import { callSiteRunValues, supernodeCallSites, supernodeScope } from './supernode-scope';
import { runsFromOutlines } from './testing/outline-runs';

const SOLVER_RUNS = {
  r0: 'main @app = 1 1\n  solve @solver = 2 2\n    kernel @solver = 10 20\n      kernel @solver = 5 5\n    helper @solver = 1 3\n      MPI_Allreduce @mpi = 4 4',
  r1: 'main @app = 1 1\n  solve @solver = 3 3\n    kernel @solver = 12 22\n    extra @solver = 7 9\n    helper @solver = 1 1',
  r2: 'main @app = 3\n  io @io = 2',
};

function correlation(runs: number[] | null, maxPoints?: number) {
  const ep = new EnsembleProfile(runsFromOutlines(SOLVER_RUNS, { r0: 2, r1: 2 }), { path: '/test' });
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  const scope = supernodeScope(
    ep.ensemble,
    graph,
    graph.nodes.findIndex(n => n.id === 'solver'),
    runs,
    null,
    'inclusive',
  );
  const sites = supernodeCallSites(scope);
  return metricCorrelation(scope, sites, callSiteRunValues(scope, sites), maxPoints);
}

describe('metric correlation', () => {
  it('one point per call site × selected run where it exists, inclusive over outermost nodes and exclusive over all', () => {
    const c = correlation(null);
    // solve, kernel, helper in r0 and r1; extra in r1 only; nothing in r2.
    assert.equal(c.run.length, 7);
    assert.equal(c.truncated, 0);
    assert.deepEqual(c.callSites, ['solve', 'kernel', 'extra', 'helper']);
    const point = (name: string, run: number) => {
      const k = c.run.findIndex((r, i) => r === run && c.callSites[c.callSite[i]!] === name);
      return k < 0 ? null : [c.inclusive[k], c.exclusive[k]];
    };
    // kernel in r0: outermost inclusive mean(15, 25); exclusive both frames mean(10, 20) + 5.
    assert.deepEqual(point('kernel', 0), [20, 20]);
    // helper's inclusive holds the MPI call it makes; its exclusive does not.
    assert.deepEqual(point('helper', 0), [6, 2]);
    assert.equal(point('extra', 0), null);
    assert.deepEqual(point('extra', 1), [8, 8]);
    assert.ok(!c.run.includes(2), 'a run without the supernode has no points, not points at 0');
    assert.deepEqual([c.callSite.length, c.inclusive.length, c.exclusive.length], [7, 7, 7]);
  });

  it('follows the run subset', () => {
    const c = correlation([1]);
    assert.deepEqual([c.run.length, [...new Set(c.run)]], [4, [1]]);
  });

  it('caps the points at whole call sites, heaviest first, and counts what it left out', () => {
    const c = correlation(null, 3);
    assert.deepEqual(c.callSites, ['solve']);
    assert.deepEqual([c.run.length, c.truncated], [2, 5]);
  });
});
