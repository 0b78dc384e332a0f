import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileFromOutline } from '../model/test-profiles';
import {
  callersOf,
  complementContexts,
  dropBackEdges,
  superGraph,
  supernodeOfNode,
  type RepopulateRequest,
  type SuperGraph,
  type SuperGraphOptions,
} from './super-graph';
import type { Profile } from '../model/profile';
import { assertInvariants, isAcyclic, near } from './test-fixtures/graph-invariants';
import {
  LIB1_LIB2_LIB1,
  LIB5_ENTRIES,
  LULESH_MODULE_MAP,
  luleshLike,
  mirandaLike,
  randomCallTree,
  RECURSION,
  WRAPPED_CLOCK,
} from './test-fixtures/synthetic-runs';

const byId = (g: SuperGraph, id: string) => {
  const n = g.nodes.find(x => x.id === id);
  assert.ok(n, `no node ${id} in ${g.nodes.map(x => x.id).join(', ')}`);
  return n;
};
const outgoing = (g: SuperGraph, id: string) => g.edges.filter(e => e.source === id).reduce((s, e) => s + e.value, 0);

describe('super graph: aggregation', () => {
  it('AT-12: lib1 → lib2 → lib1 gives two lib1 supernodes and no cycle', () => {
    const g = superGraph(profileFromOutline(LIB1_LIB2_LIB1), { filter: { threshold: 0 } });
    assert.deepEqual(
      g.nodes.map(n => [n.id, n.module, n.occurrence]),
      [
        ['app', 'app', 1],
        ['lib1', 'lib1', 1],
        ['lib2', 'lib2', 1],
        ['lib1#2', 'lib1', 2],
      ],
    );
    assert.deepEqual(
      g.edges.map(e => [e.source, e.target, e.value]),
      [
        ['app', 'lib1', 15],
        ['lib1', 'lib2', 10],
        ['lib2', 'lib1#2', 6],
      ],
    );
    assert.deepEqual(g.droppedEdges, []);
    assertInvariants(g);
  });

  it('AT-15: exclusive = Σ member exclusive, inclusive = Σ entry inclusive, recursion counted once', () => {
    const p = profileFromOutline(RECURSION);
    const g = superGraph(p, { filter: { threshold: 0 } });
    const math = byId(g, 'libmath');
    assert.equal(math.exclusive, 1 + 2 + 3, 'the three nested fib frames');
    assert.equal(math.inclusive, 11, 'only the outermost fib enters libmath on the path');
    assert.deepEqual(
      math.entries.map(e => [e.name, e.inclusive, e.exclusive, [...e.nodes]]),
      [['fib', 11, 1, [1]]],
    );
    assert.equal(byId(g, 'libmath#2').inclusive, 4);
    assertInvariants(g);
  });

  it('merges by function into the call graph (cycle-free: recursion through another function is a duplicate)', () => {
    const g = superGraph(profileFromOutline(RECURSION), { groupBy: 'function', filter: { threshold: 0 } });
    assert.deepEqual(
      g.nodes.map(n => [n.id, n.inclusive, n.exclusive]),
      [
        ['main', 12, 1],
        ['fib', 11, 6],
        ['log_it', 5, 1],
        ['fib#2', 4, 4],
      ],
    );
    assertInvariants(g);
  });

  it("gives unknown-module frames their caller's module and groups by name when the profile knows no modules", () => {
    const mixed = superGraph(
      profileFromOutline(`
_start = 1
  main @app = 1
    helper = 2
    lib_call @lib = 3`),
      { filter: { threshold: 0 } },
    );
    assert.deepEqual(
      mixed.nodes.map(n => [n.id, n.exclusive]),
      [
        ['_start', 1],
        ['app', 3],
        ['lib', 3],
      ],
    );
    const flat = superGraph(
      profileFromOutline(`
main = 1
  solve = 2
    loop.c:4 = 5
  io = 3
    solve = 1`),
      { filter: { threshold: 0 } },
    );
    assert.deepEqual(
      flat.nodes.map(n => [n.id, n.inclusive, n.exclusive]),
      [
        ['main', 12, 1],
        ['solve', 8, 8],
        ['io', 4, 3],
      ],
    );
    assert.equal(
      byId(flat, 'solve').entries.find(e => e.name === 'solve')!.exclusive,
      8,
      'an entry owns its statements',
    );
  });

  it('applies module-map rules before load modules, first match wins, then falls back', () => {
    const p = profileFromOutline(`
main @app a.c:1 = 1
  MPI_Send @libmpi.so = 2
  PMPI_Send @libmpi.so = 3
  solve @app solver/s.c:4 = 4
  other @app = 5`);
    const g = superGraph(p, {
      filter: { threshold: 0 },
      moduleMap: [
        { match: 'name', pattern: '/^P?MPI_/', module: 'MPI' },
        { match: 'file', pattern: '/^solver\\//', module: 'Solver' },
        { match: 'name', pattern: 'solve', module: 'never (an earlier rule matched)' },
      ],
    });
    assert.deepEqual(
      g.nodes.map(n => [n.id, n.inclusive]),
      [
        ['app', 15],
        ['MPI', 5],
        ['Solver', 4],
      ],
    );
    assert.deepEqual(
      byId(g, 'MPI').entries.map(e => e.name),
      ['PMPI_Send', 'MPI_Send'],
    );
    const byModule = superGraph(p, {
      filter: { threshold: 0 },
      moduleMap: [{ match: 'module', pattern: 'libmpi.so', module: 'comm' }],
    });
    assert.deepEqual(
      byModule.nodes.map(n => n.id),
      ['app', 'comm'],
    );
    assert.throws(
      () => superGraph(p, { moduleMap: [{ match: 'name', pattern: '/(/', module: 'x' }] }),
      /module map rule 1 \(x\): invalid regular expression/,
    );
  });

  it('is deterministic: same input, same ids, order, values and edges', () => {
    const p = mirandaLike();
    const a = superGraph(p),
      b = superGraph(p);
    assert.deepEqual(
      a.nodes.map(n => [n.id, n.inclusive, n.exclusive, [...n.members]]),
      b.nodes.map(n => [n.id, n.inclusive, n.exclusive, [...n.members]]),
    );
    assert.deepEqual(
      a.edges.map(e => [e.source, e.target, e.value]),
      b.edges.map(e => [e.source, e.target, e.value]),
    );
  });

  it('maps every call-tree node to its supernode (filtered nodes to their nearest kept ancestor)', () => {
    const p = profileFromOutline(`
main @app = 10
  tiny @app = 0.001
    tinier @lib = 0.001
  work @lib = 10`);
    const g = superGraph(p, { filter: { threshold: 0.01 } });
    assert.deepEqual(
      g.nodes.map(n => n.id),
      ['app', 'lib'],
    );
    assert.equal(g.nodes[supernodeOfNode(g, 3)]!.id, 'lib');
    assert.equal(supernodeOfNode(g, 1), 0);
    assert.equal(g.superOf[2], -1);
    assert.equal(g.nodes[supernodeOfNode(g, 2)]!.id, 'app', 'tinier was filtered: its time is in app');
    for (const n of g.nodes) for (const i of n.members) assert.equal(g.nodes[g.superOf[i]!], n);
    assert.throws(() => supernodeOfNode(g, 99), /call-tree node 99 does not exist/);
  });
});

describe('super graph: filtering', () => {
  it('AT-17: keeps a function whose instances are each below the threshold but whose total is not', () => {
    // Root inclusive 1000 → 0.1 % = 1. `spread` has four instances of 0.3 (total 1.2); `rare` one of 0.9.
    const p = profileFromOutline(`
main @app = 993.9
  a @app = 1
    spread @lib = 0.3
  b @app = 1
    spread @lib = 0.3
  c @app = 1
    spread @lib = 0.3
    rare @lib = 0.9
  d @app = 1
    spread @lib = 0.3`);
    near(p.total(0), 1000);
    const g = superGraph(p);
    const lib = byId(g, 'lib');
    assert.deepEqual(
      lib.entries.map(e => [e.name, e.nodes.length]),
      [['spread', 4]],
    );
    near(lib.inclusive, 1.2);
    assert.equal(g.filter.removedFunctions, 1);
    assert.equal(g.filter.removedNodes, 1);
    near(byId(g, 'app').filteredInclusive, 0.9, "rare's time stays in its caller");
    assertInvariants(g);
  });

  it('keeps removed time in the ancestors; by exclusive value keeps ancestor paths of kept functions', () => {
    const p = profileFromOutline(`
main @app = 92
  wrapper @app = 0.01
    kernel @gpu = 5
  noise @lib = 2.99`);
    const g = superGraph(p, { filter: { threshold: 0.04 } });
    assert.deepEqual(
      g.nodes.map(n => n.id),
      ['app', 'gpu'],
      'wrapper stays: its inclusive value (5.01 %) holds the kernel',
    );
    const app = byId(g, 'app');
    assert.equal(app.inclusive, 100);
    near(app.filteredInclusive, 2.99);
    near(app.inclusive - outgoing(g, 'app'), app.exclusive + app.filteredInclusive);
    assertInvariants(g);
    const byExclusive = superGraph(p, { filter: { threshold: 0.025, by: 'exclusive' } });
    assert.deepEqual(
      byExclusive.nodes.map(n => n.id),
      ['app', 'gpu', 'lib'],
    );
    assert.deepEqual(
      superGraph(p, { filter: { threshold: 0.035, by: 'exclusive' } }).nodes.map(n => n.id),
      ['app', 'gpu'],
    );
  });

  it('rejects bad options with the reason', () => {
    const p = profileFromOutline(LIB1_LIB2_LIB1, 2);
    assert.throws(() => superGraph(p, { filter: { threshold: 2 } }), /threshold 2 must be a share between 0 and 1/);
    assert.throws(() => superGraph(p, { metric: 5 }), /metric 5 does not exist/);
    assert.throws(() => superGraph(p, { contexts: [0, 2] }), /context 2 does not exist \(the profile has 2\)/);
    assert.throws(() => superGraph(p, { contexts: [1, 1] }), /context 1 is selected twice/);
    assert.throws(() => superGraph(p, { contexts: [] }), /context subset is empty/);
  });
});

describe('super graph: splitting and reveal', () => {
  const p5 = profileFromOutline(LIB5_ENTRIES);
  const whole = superGraph(p5, { filter: { threshold: 0 } });

  it('lists entry functions per supernode with their callers', () => {
    const lib5 = byId(whole, 'lib5');
    assert.deepEqual(
      lib5.entries.map(e => [e.name, e.inclusive, e.nodes.length]),
      [
        ['lib5_apply', 13, 2],
        ['lib5_setup', 4, 1],
      ],
    );
    assert.deepEqual(
      callersOf(whole, whole.nodes.indexOf(lib5)).map(c => [c.id, c.value, c.share]),
      [
        ['lib3', 10, 10 / 17],
        ['lib4', 7, 7 / 17],
      ],
    );
  });

  it('AT-13: split by entry function gives lib5-<entry> nodes whose heights sum to the original', () => {
    const g = superGraph(p5, { filter: { threshold: 0 }, splits: [{ node: 'lib5', mode: 'entry' }] });
    const parts = g.nodes.filter(n => n.base === 'lib5');
    assert.deepEqual(parts.map(n => [n.id, n.kind]).sort(), [
      ['lib5-lib5_apply', 'entry'],
      ['lib5-lib5_setup', 'entry'],
    ]);
    near(
      parts.reduce((s, n) => s + n.inclusive, 0),
      byId(whole, 'lib5').inclusive,
    );
    near(
      parts.reduce((s, n) => s + n.exclusive, 0),
      byId(whole, 'lib5').exclusive,
    );
    assert.deepEqual(
      g.edges.filter(e => e.target === 'mpi').map(e => e.source),
      ['lib5-lib5_apply'],
      'the sub-flow follows its entry',
    );
    assert.deepEqual(g.unmatched, []);
    assertInvariants(g);
    const one = superGraph(p5, {
      filter: { threshold: 0 },
      splits: [{ node: 'lib5', mode: 'entry', entries: ['lib5_setup'] }],
    });
    assert.deepEqual(
      one.nodes.filter(n => n.base === 'lib5').map(n => [n.id, n.inclusive]),
      [
        ['lib5-lib5_setup', 4],
        ['lib5', 13],
      ],
    );
  });

  it('AT-5: split by caller gives one node per calling supernode, heights equal to the edge flows', () => {
    const p = mirandaLike();
    const before = superGraph(p);
    const psm = '/usr/lib/libpsm_infinipath.so.1';
    const into = before.edges.filter(e => e.target === psm);
    assert.ok(into.length >= 2);
    const g = superGraph(p, { splits: [{ node: psm, mode: 'caller' }] });
    const parts = g.nodes.filter(n => n.base === psm);
    assert.equal(parts.length, into.length);
    for (const e of into) {
      const part = byId(g, `${psm}-${e.source}`);
      assert.equal(part.kind, 'caller');
      near(part.inclusive, e.value, part.id);
      near(g.edges.find(x => x.target === part.id)!.value, e.value);
      assert.deepEqual(
        g.edges.filter(x => x.target === part.id).map(x => x.source),
        [e.source],
      );
    }
    assertInvariants(g);
  });

  it('split keys survive recomputation and unknown keys are reported, not guessed', () => {
    const p = profileFromOutline(LIB1_LIB2_LIB1);
    const g = superGraph(p, {
      filter: { threshold: 0 },
      splits: [
        { node: 'lib1#2', mode: 'entry' },
        { node: 'nope', mode: 'caller' },
      ],
    });
    assert.ok(g.nodes.some(n => n.id === 'lib1#2-lib1_callback'));
    assert.deepEqual(g.unmatched, ['split caller nope']);
  });

  it('reveals a function: pulled out of its supernode with the module code below it', () => {
    const p = profileFromOutline(`
main @app = 1
  solve @hypre = 2
    matvec @hypre = 3
      kernel @hypre = 4
      send @psm = 5
    precond @hypre = 6`);
    const g = superGraph(p, { filter: { threshold: 0 }, reveal: [{ node: 'hypre', function: 'matvec' }] });
    assert.deepEqual(
      g.nodes.map(n => [n.id, n.kind, n.inclusive, n.exclusive]),
      [
        ['app', 'module', 21, 1],
        ['hypre', 'module', 20, 8],
        ['hypre-matvec', 'function', 12, 7],
        ['psm', 'module', 5, 5],
      ],
    );
    assert.deepEqual(
      g.edges.map(e => [e.source, e.target, e.value]),
      [
        ['app', 'hypre', 20],
        ['hypre', 'hypre-matvec', 12],
        ['hypre-matvec', 'psm', 5],
      ],
    );
    assertInvariants(g);
  });
});

describe('super graph: cycles', () => {
  it('keys supernodes on a cross-path cycle by level, so no flow is dropped', () => {
    // Path 1 enters A then B; path 2 enters B then A: occurrence keys alone would give A → B → A.
    const p = profileFromOutline(`
main @app = 1
  a1 @A = 1
    b1 @B = 10
  b2 @B = 1
    a2 @A = 2`);
    const g = superGraph(p, { filter: { threshold: 0 } });
    assert.deepEqual(
      g.nodes.map(n => [n.id, n.module, n.level, n.inclusive]),
      [
        ['app', 'app', 0, 15],
        ['A@2', 'A', 2, 11],
        ['B@3', 'B', 3, 10],
        ['B@2', 'B', 2, 3],
        ['A@3', 'A', 3, 2],
      ],
    );
    assert.deepEqual(g.droppedEdges, []);
    assertInvariants(g);
    // Split requests may name the unlevelled id; levels are decided before splits, so ids stay put.
    const split = superGraph(p, { filter: { threshold: 0 }, splits: [{ node: 'B', mode: 'caller' }] });
    assert.deepEqual(
      split.nodes.map(n => n.id),
      ['app', 'A@2', 'B@3-A@2', 'B@2-app', 'A@3'],
    );
    assert.deepEqual(split.unmatched, []);
    const entrySplit = superGraph(p, { filter: { threshold: 0 }, splits: [{ node: 'A', mode: 'entry' }] });
    assert.deepEqual(
      entrySplit.nodes.map(n => n.id),
      ['app', 'A@2-a1', 'B@3', 'B@2', 'A@3-a2'],
    );
    assert.deepEqual(entrySplit.unmatched, []);
  });

  it('the back-edge pass is the safety net for what levels cannot order (reveals on one level)', () => {
    const p = profileFromOutline(`
main @app = 1
  s1 @S = 1
    fa @S = 1
      fb @S = 3
  s2 @S = 1
    fb @S = 1
      fa @S = 2`);
    const g = superGraph(p, {
      filter: { threshold: 0 },
      reveal: [
        { node: 'S', function: 'fa' },
        { node: 'S', function: 'fb' },
      ],
    });
    assert.deepEqual(
      g.droppedEdges.map(e => [e.source, e.target, e.value]),
      [['S-fb', 'S-fa', 2]],
    );
    assert.ok(isAcyclic(g));
    assert.deepEqual(g.unmatched, []);
    assert.deepEqual(
      superGraph(p, {
        filter: { threshold: 0 },
        reveal: [
          { node: 'S', function: 'fa' },
          { node: 'S', function: 'fb' },
        ],
      }).droppedEdges.map(e => e.source + e.target),
      ['S-fbS-fa'],
    );
  });

  it('the back-edge pass is deterministic on a plain cycle', () => {
    const nodes = [
      { id: 'a', inclusive: 3 },
      { id: 'b', inclusive: 2 },
      { id: 'c', inclusive: 1 },
    ];
    const edges = [
      { from: 0, to: 1, value: 1 },
      { from: 1, to: 2, value: 1 },
      { from: 2, to: 0, value: 1 },
    ];
    const { kept, dropped } = dropBackEdges(nodes, edges);
    assert.equal(kept.length, 2);
    assert.deepEqual(dropped, [edges[2]]);
  });
});

describe('super graph: per-context values and rank subsets', () => {
  it('AT-2: brushed ranks and the rest partition the ranks; heights are computed over the brushed ranks only', () => {
    const p = luleshLike(16);
    const all = superGraph(p, { moduleMap: LULESH_MODULE_MAP });
    // Brush the ranks with the low CalcForce values (the light ones).
    const force = byId(all, 'CalcForce').inclusiveByContext;
    const cut = (Math.min(...force) + Math.max(...force)) / 2;
    const brushed = Int32Array.from([...force.keys()].filter(c => force[c]! < cut));
    const rest = complementContexts(p.contextCount, brushed);
    assert.deepEqual(
      [...brushed, ...rest].sort((a, b) => a - b),
      [...Array(16).keys()],
      'a partition',
    );
    assert.deepEqual([...rest], [0, 1, 2, 3], 'the planted heavy ranks');
    const light = superGraph(p, { moduleMap: LULESH_MODULE_MAP, contexts: brushed });
    const heavy = superGraph(p, { moduleMap: LULESH_MODULE_MAP, contexts: rest });
    const mpi = byId(all, 'MPI');
    const sumOver = (cs: Int32Array) => [...cs].reduce((s, c) => s + mpi.inclusiveByContext[c]!, 0);
    near(byId(light, 'MPI').inclusive, sumOver(brushed));
    near(byId(heavy, 'MPI').inclusive, sumOver(rest));
    near(byId(light, 'MPI').inclusive + byId(heavy, 'MPI').inclusive, mpi.inclusive);
    assert.ok(
      byId(light, 'MPI').inclusive / brushed.length > (1.5 * byId(heavy, 'MPI').inclusive) / rest.length,
      'light ranks wait longer in MPI',
    );
    assert.deepEqual(
      [...byId(light, 'MPI').inclusiveByContext],
      [...brushed].map(c => mpi.inclusiveByContext[c]!),
    );
    for (const g of [light, heavy]) assertInvariants(g);
    for (const e of light.edges) {
      const full = all.edges.find(x => x.source === e.source && x.target === e.target)!;
      assert.deepEqual(
        [...e.valueByContext],
        [...brushed].map(c => full.valueByContext[c]!),
      );
    }
  });

  it('AT-4: the edge from Hypre is the dominant flow into libpsm', () => {
    const g = superGraph(mirandaLike());
    const into = g.edges.filter(e => e.target === '/usr/lib/libpsm_infinipath.so.1').sort((a, b) => b.value - a.value);
    assert.equal(into[0]!.source, '/usr/lib/libHYPRE.so');
    assert.ok(into[0]!.value > 0.5 * byId(g, '/usr/lib/libpsm_infinipath.so.1').inclusive);
  });
});

describe('super graph: folding and repopulation (thesis §3.2.1, §3.5)', () => {
  const p = profileFromOutline(WRAPPED_CLOCK);
  const options: SuperGraphOptions = { filter: { threshold: 0.01 } };

  it('folds every instance below a removed function into its nearest drawn caller, listed per function', () => {
    const g = superGraph(p, options);
    assert.deepEqual(
      g.nodes.map(n => n.id),
      ['app', 'gpu', 'rt'],
    );
    const app = byId(g, 'app');
    assert.deepEqual(
      app.filteredCallees.map(c => [c.name, Math.round(c.inclusive * 10) / 10, c.nodes.length, p.tree.name(c.hottest)]),
      [
        ['log', 0.5, 1, 'log'],
        ['wrapA', 0.4, 1, 'wrapA'],
        ['wrapB', 0.4, 1, 'wrapB'],
        ['wrapC', 0.4, 1, 'wrapC'],
      ],
    );
    near(app.filteredInclusive, 1.7);
    near(byId(g, 'rt').inclusive, 0.6, 'only the drawn now');
    assert.deepEqual(
      { ...g.filter, absolute: Math.round(g.filter.absolute) },
      {
        threshold: 0.01,
        by: 'inclusive',
        absolute: 1,
        totalFunctions: 8,
        keptFunctions: 4,
        removedFunctions: 4,
        totalNodes: 11,
        removedNodes: 7,
        repopulatedNodes: 0,
        removedRootInclusive: 0,
      },
    );
    assertInvariants(g, p);
  });

  it('repopulates a folded function under the node it was folded into; removing the request undoes it', () => {
    const g = superGraph(p, { ...options, repopulate: [{ node: 'app', function: 'wrapA' }] });
    assert.deepEqual(
      g.nodes.map(n => n.id),
      ['app', 'gpu', 'rt'],
      'wrapA is app code: it joins app',
    );
    const app = byId(g, 'app');
    near(app.filteredInclusive, 1.3 + 0.2, 'wrapA is drawn; its `now` is folded into app');
    assert.deepEqual(
      app.filteredCallees.map(c => c.name),
      ['log', 'wrapB', 'wrapC', 'now'],
    );
    assert.equal(g.filter.repopulatedNodes, 1);
    assert.deepEqual(g.unmatched, []);
    assertInvariants(g, p);
    // Its callee in turn, then a function of another module: a new node under app.
    const deeper = superGraph(p, {
      ...options,
      repopulate: [
        { node: 'app', function: 'now' },
        { node: 'app', function: 'wrapA' },
        { node: 'app', function: 'log' },
      ],
    });
    assert.deepEqual(
      deeper.nodes.map(n => n.id),
      ['app', 'gpu', 'rt', 'io'],
    );
    near(byId(deeper, 'rt').inclusive, 0.8, 'the direct now and the one under wrapA');
    near(byId(deeper, 'io').inclusive, 0.5);
    assert.equal(deeper.filter.repopulatedNodes, 3);
    assertInvariants(deeper, p);
    const undone = superGraph(p, options);
    assert.deepEqual(summary(undone), summary(superGraph(p, { ...options, repopulate: [] })));
  });

  it('reports repopulate requests that re-add nothing, with the reason, and never throws', () => {
    const g = superGraph(p, {
      ...options,
      repopulate: [
        { node: 'app', function: 'gone_after_reload' },
        { node: 'nowhere', function: 'log' },
        { node: 'gpu', function: 'log' },
        { node: 'app', function: 'log' },
      ],
    });
    assert.deepEqual(g.unmatchedRepopulate, [
      { node: 'app', function: 'gone_after_reload', reason: 'unknown-function' },
      { node: 'nowhere', function: 'log', reason: 'unknown-node' },
      { node: 'gpu', function: 'log', reason: 'not-folded' },
    ]);
    assert.deepEqual(g.unmatched, [
      'repopulate gone_after_reload in app',
      'repopulate log in nowhere',
      'repopulate log in gpu',
    ]);
    assert.ok(
      g.nodes.some(n => n.id === 'io'),
      'the valid request still applies',
    );
  });

  it('matches a split node by its base id or by the part id', () => {
    const split = { splits: [{ node: 'app', mode: 'entry' as const }] };
    const before = superGraph(p, { ...options, ...split });
    const main = byId(before, 'app-main');
    assert.deepEqual(
      main.filteredCallees.map(c => c.name),
      ['log', 'wrapA', 'wrapB', 'wrapC'],
    );
    for (const node of ['app', 'app-main']) {
      const g = superGraph(p, { ...options, ...split, repopulate: [{ node, function: 'log' }] });
      assert.ok(
        g.nodes.some(n => n.id === 'io'),
        node,
      );
      assert.deepEqual(g.unmatched, []);
    }
  });

  const fixtures: [string, () => Profile][] = [
    ['lib1 → lib2 → lib1', () => profileFromOutline(LIB1_LIB2_LIB1)],
    ['lib5 entries', () => profileFromOutline(LIB5_ENTRIES)],
    ['recursion', () => profileFromOutline(RECURSION)],
    ['lulesh-like', () => luleshLike(4)],
    ['miranda-like', () => mirandaLike(8)],
    ...[11, 12, 13].map((seed): [string, () => Profile] => [`random ${seed}`, () => randomCallTree(seed, 600)]),
  ];
  const thresholds = [0, 0.0005, 0.001, 0.01, 0.05, 0.2];

  it('per-context values, summed when first read, equal the sums over entry nodes, members and calls', () => {
    const prof = mirandaLike(8);
    const m = prof.primaryMetric;
    const C = prof.contextCount;
    const inc = prof.inclusive(m),
      exc = prof.exclusive(m);
    for (const contexts of [undefined, [5, 1, 6]]) {
      const g = superGraph(prof, { filter: { threshold: 0.001 }, ...(contexts ? { contexts } : {}) });
      const sel = Array.from(g.contexts);
      const sumOver = (matrix: Float64Array, nodes: Iterable<number>) =>
        sel.map(c => [...nodes].reduce((s, i) => s + matrix[i * C + c]!, 0));
      const close = (a: ArrayLike<number>, b: readonly number[], what: string) => {
        assert.equal(a.length, b.length, what);
        b.forEach((v, k) => near(a[k]!, v, `${what}, context ${sel[k]}`));
      };
      assert.ok(g.nodes.length > 3 && g.edges.length > 3, 'a graph worth checking');
      for (const n of g.nodes) {
        const entryNodes = n.entries.flatMap(e => [...e.nodes]);
        close(n.inclusiveByContext, sumOver(inc, entryNodes), `${n.id} inclusive`);
        close(n.exclusiveByContext, sumOver(exc, n.members), `${n.id} exclusive`);
        near(
          n.inclusive,
          sumOver(inc, entryNodes).reduce((s, v) => s + v, 0),
          `${n.id} inclusive total`,
        );
      }
      for (const e of g.edges) {
        const calls = g.nodes[e.to]!.entries.flatMap(x => [...x.nodes]).filter(
          i => g.superOf[prof.tree.parent(i)] === e.from,
        );
        close(e.valueByContext, sumOver(inc, calls), `${e.source}→${e.target}`);
      }
    }
  });

  it('threshold 0 folds nothing', () => {
    for (const [name, make] of fixtures) {
      const g = superGraph(make(), { filter: { threshold: 0 } });
      assert.equal(g.filter.removedNodes, 0, name);
      assert.equal(g.filter.removedFunctions, 0, name);
      assert.ok(
        g.nodes.every(n => n.filteredCallees.length === 0 && n.filteredInclusive === 0),
        name,
      );
    }
  });

  it('conservation, AT-12, AT-13, AT-15 and AT-17 hold at every threshold', () => {
    for (const [name, make] of fixtures) {
      const prof = make();
      for (const threshold of thresholds)
        for (const by of ['inclusive', 'exclusive'] as const) {
          const g = superGraph(prof, { filter: { threshold, by } });
          const label = `${name} at ${threshold} by ${by}`;
          // Conservation and AT-15 (and AT-12: the graph is acyclic) in the shared invariants.
          assertInvariants(g, prof);
          // AT-12: no supernode holds two entries of its module on one call path.
          for (let i = 0; i < prof.tree.size; i++) {
            const s = g.superOf[i]!;
            if (s < 0) continue;
            let left = false;
            for (let a = prof.tree.parent(i); a >= 0; a = prof.tree.parent(a)) {
              if (g.superOf[a] !== s) left = true;
              else assert.ok(!left, `${label}: ${g.nodes[s]!.id} re-entered on one path`);
            }
          }
          // AT-17: every kept function with a drawn caller is drawn there.
          for (const n of g.nodes)
            for (const c of n.filteredCallees)
              assert.ok(
                functionTotal(prof, c.name, by) < g.filter.absolute || threshold === 0,
                `${label}: ${c.name} reaches the threshold but is folded under ${n.id}`,
              );
          // AT-13: splitting the heaviest node with several entries keeps its height.
          const target = g.nodes.find(n => n.entries.length > 1 && n.kind === 'module');
          if (target) {
            const split = superGraph(prof, { filter: { threshold, by }, splits: [{ node: target.id, mode: 'entry' }] });
            const parts = split.nodes.filter(n => n.base === target.id);
            near(
              parts.reduce((s2, n) => s2 + n.inclusive, 0),
              target.inclusive,
              label,
            );
            assertInvariants(split, prof);
          }
        }
    }
  });

  it('repopulating every filtered function gives the threshold-0 graph (same ids, values, edges)', () => {
    let compared = 0,
      repopulated = 0;
    for (const [name, make] of fixtures) {
      const prof = make();
      const whole = summary(superGraph(prof, { filter: { threshold: 0 } }));
      for (const threshold of thresholds.slice(1))
        for (const by of ['inclusive', 'exclusive'] as const) {
          const repopulate: RepopulateRequest[] = [];
          let g = superGraph(prof, { filter: { threshold, by } });
          for (let round = 0; g.nodes.some(n => n.filteredCallees.length) && round < 100; round++) {
            for (const n of g.nodes)
              for (const c of n.filteredCallees) repopulate.push({ node: n.id, function: c.name });
            g = superGraph(prof, { filter: { threshold, by }, repopulate });
          }
          if (g.filter.removedRootInclusive > 0) continue; // a removed root has no caller to repopulate under
          assert.deepEqual(summary(g), whole, `${name} at ${threshold} by ${by}`);
          assert.equal(g.filter.removedNodes, 0);
          assertInvariants(g, prof);
          compared++;
          repopulated += g.filter.repopulatedNodes;
        }
    }
    assert.ok(compared >= 60 && repopulated > 1000, `${compared} graphs, ${repopulated} nodes repopulated`);
  });
});

/** Ids, values and edges of a graph, rounded (sums in another order differ in the last bits). */
function summary(g: SuperGraph) {
  const r = (v: number) => Math.round(v * 1e9) / 1e9;
  return {
    nodes: g.nodes.map(n => [n.id, r(n.inclusive), r(n.exclusive), n.members.length]),
    edges: g.edges.map(e => [e.source, e.target, r(e.value)]),
  };
}

/** The filter's value of a function, computed naively: Σ outermost inclusive or Σ exclusive (its statements included). */
function functionTotal(p: Profile, fn: string, by: 'inclusive' | 'exclusive'): number {
  const inc = p.inclusiveTotals(0),
    exc = p.exclusiveTotals(0);
  const tree = p.tree;
  const isFunctionNode = (i: number) => tree.parent(i) < 0 || tree.kind(i) === 0 || tree.kind(i) === 4;
  const ownerName = (i: number) => {
    let o = i;
    while (!isFunctionNode(o)) o = tree.parent(o);
    return tree.name(o);
  };
  let sum = 0;
  for (let i = 0; i < tree.size; i++) {
    if (by === 'exclusive') {
      if (ownerName(i) === fn) sum += exc[i]!;
    } else if (isFunctionNode(i) && tree.name(i) === fn) {
      let nested = false;
      for (let a = tree.parent(i); a >= 0; a = tree.parent(a))
        if (isFunctionNode(a) && tree.name(a) === fn) nested = true;
      if (!nested) sum += inc[i]!;
    }
  }
  return sum;
}
