import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { superGraph } from '../graph/super-graph';
import { EnsembleProfile } from './ensemble-profile';
import { callSiteRunValues, supernodeCallSites, supernodeScope, supernodeValuesOverRuns } from './supernode-scope';
import { runsFromOutlines } from './testing/outline-runs';

function scopeOf(outlines: Record<string, string>, module: string, runs: number[] | null = null) {
  const ep = new EnsembleProfile(runsFromOutlines(outlines), { path: '/test' });
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  return supernodeScope(
    ep.ensemble,
    graph,
    graph.nodes.findIndex(n => n.id === module),
    runs,
    null,
    'inclusive',
  );
}

describe('supernode scope', () => {
  const RUNS = {
    a: 'main @app = 1\n  f @lib = 1\n    f.c:3 = 2\n    f @lib = 4\n      g @lib = 8\n    h @other = 16',
    b: 'main @app = 1\n  f @lib = 3\n    g @lib = 5',
    c: 'main @app = 7',
  };

  it('finds entries, call sites, outermost frames and owners', () => {
    const scope = scopeOf(RUNS, 'lib');
    const tree = scope.ensemble.tree;
    assert.deepEqual(
      [...scope.entries].map(u => tree.path(u).join('/')),
      ['main/f'],
    );
    const sites = supernodeCallSites(scope);
    assert.deepEqual(sites.names, ['f', 'g']);
    const path = (u: number) => tree.path(u).join('/');
    assert.deepEqual([...sites.nodes[0]!].map(path), ['main/f', 'main/f/f']);
    assert.deepEqual([...sites.nodes[1]!].map(path), ['main/f/f/g', 'main/f/g']);
    const inclusiveNodes = scope.members.filter(u => sites.inclusiveOf[u]! >= 0);
    assert.deepEqual([...inclusiveNodes].map(path), ['main/f', 'main/f/f/g', 'main/f/g']);
    const statement = scope.members.find(u => tree.name(u) === 'f.c:3')!;
    assert.deepEqual(
      [sites.exclusiveOf[statement], sites.presenceOf[statement], sites.inclusiveOf[statement]],
      [0, -1, -1],
    );
  });

  it('per-run values of call sites and of the supernode, NaN where missing', () => {
    const scope = scopeOf(RUNS, 'lib');
    const v = callSiteRunValues(scope, supernodeCallSites(scope));
    // f in a: inclusive 1 + 2 + 4 + 8 + 16 (outermost frame only), exclusive 1 + 2 + 4 (both frames, the statement).
    assert.deepEqual([...v.inclusive].map(String), ['31', '8', 'NaN', '8', '5', 'NaN']);
    assert.deepEqual([...v.exclusive].map(String), ['7', '3', 'NaN', '8', '5', 'NaN']);
    assert.deepEqual([...v.present], [2, 2]);
    assert.deepEqual([...supernodeValuesOverRuns(scope, 'inclusive')].map(String), ['31', '8', 'NaN']);
    assert.deepEqual([...supernodeValuesOverRuns(scope, 'exclusive')].map(String), ['15', '8', 'NaN']);
    // Members only: f 31, the statement 2, the inner f 12, its g 8, and b's g 5.
    assert.deepEqual(
      [...scope.maxInclusive].filter(x => x === x).sort((x, y) => x - y),
      [2, 5, 8, 12, 31],
    );
  });

  it('follows the run subset and checks the graph and target', () => {
    const scope = scopeOf(RUNS, 'lib', [2, 1]);
    assert.deepEqual([...scope.runs], [1, 2]);
    assert.deepEqual([...callSiteRunValues(scope, supernodeCallSites(scope)).present], [1, 1]);
    const ep = new EnsembleProfile(runsFromOutlines(RUNS), { path: '/test' });
    const other = new EnsembleProfile(runsFromOutlines({ x: 'main @app = 1\n  f @lib = 1', y: 'main @app = 1' }), {
      path: '/other',
    });
    const graph = superGraph(other.profile, { filter: { threshold: 0 } });
    assert.throws(() => supernodeScope(ep.ensemble, graph, 1, null, null, 'inclusive'), /union tree has/);
    const own = superGraph(ep.profile, { filter: { threshold: 0 } });
    assert.throws(() => supernodeScope(ep.ensemble, own, 1, null, 3, 'inclusive'), /target run 3/);
  });
});
