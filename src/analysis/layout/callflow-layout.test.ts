import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isotonicPlacement, layoutCallflow } from './callflow-layout';
import type { CallflowLayout, CallflowLayoutOptions, FlowGraphInput } from './callflow-layout';
import { syntheticFlowDag } from './synthetic-dag';

const box: CallflowLayoutOptions = { width: 1000, height: 600 };

function graph(nodes: Record<string, number>, edges: Array<[string, string, number]>): FlowGraphInput {
  return {
    nodes: Object.entries(nodes).map(([id, value]) => ({ id, value })),
    edges: edges.map(([source, target, value]) => ({ source, target, value })),
  };
}

const byId = (layout: CallflowLayout) => new Map(layout.nodes.map(n => [n.id, n]));
const tol = 1e-6;

/** Invariants every layout must keep: finite numbers, inside the box, no overlaps, ribbon ends inside their nodes. */
function assertWellFormed(layout: CallflowLayout, options: CallflowLayoutOptions = box): void {
  const { width, height } = options;
  for (const n of layout.nodes) {
    for (const v of [n.x0, n.x1, n.y0, n.y1, n.outgoing]) assert.ok(Number.isFinite(v), `${n.id}: finite`);
    assert.ok(n.x0 >= -tol && n.x1 <= width + tol && n.x0 <= n.x1, `${n.id}: x inside`);
    assert.ok(n.y0 >= -tol && n.y1 <= height + tol && n.y0 < n.y1, `${n.id}: y ${n.y0}..${n.y1} inside 0..${height}`);
  }
  for (let l = 0; l < layout.levels; l++) {
    const col = layout.nodes.filter(n => n.level === l).sort((a, b) => a.order - b.order);
    for (let i = 1; i < col.length; i++)
      assert.ok(col[i]!.y0 >= col[i - 1]!.y1 - tol, `${col[i]!.id} below ${col[i - 1]!.id}`);
  }
  const nodes = byId(layout);
  const out = new Map<string, number>();
  for (const e of layout.edges) {
    const s = nodes.get(e.source)!;
    const t = nodes.get(e.target)!;
    assert.ok(s.level < t.level, `${e.source}→${e.target} goes right`);
    for (const v of [e.sourceY0, e.sourceY1, e.targetY0, e.targetY1]) assert.ok(Number.isFinite(v));
    assert.ok(
      e.sourceY0 >= s.y0 - tol && e.sourceY1 <= s.y1 + tol,
      `${e.source}→${e.target}: source end inside ${e.source}`,
    );
    assert.ok(
      e.targetY0 >= t.y0 - tol && e.targetY1 <= t.y1 + tol,
      `${e.source}→${e.target}: target end inside ${e.target}`,
    );
    assert.doesNotMatch(e.path, /NaN|Infinity/);
    assert.match(e.path, /^M[^M]*Z$/, 'one closed outline');
    out.set(e.source, (out.get(e.source) ?? 0) + (e.sourceY1 - e.sourceY0));
  }
  for (const [id, sum] of out) {
    const n = nodes.get(id)!;
    assert.ok(sum <= n.y1 - n.y0 + tol, `${id}: Σ outgoing ${sum} ≤ height ${n.y1 - n.y0}`);
  }
}

describe('layoutCallflow: levels and cycles', () => {
  test('AT-12: lib1 → lib2 → lib1 (a duplicate supernode) gives three levels and no cycle', () => {
    const layout = layoutCallflow(
      graph({ lib1: 10, lib2: 8, 'lib2/lib1': 5 }, [
        ['lib1', 'lib2', 8],
        ['lib2', 'lib2/lib1', 5],
      ]),
      box,
    );
    assert.deepEqual(
      layout.nodes.map(n => n.level),
      [0, 1, 2],
    );
    assert.deepEqual(layout.removedEdges, []);
    assertWellFormed(layout);
  });

  test('level is the longest path from the root, not the shortest', () => {
    const layout = layoutCallflow(
      graph({ a: 10, b: 5, c: 5 }, [
        ['a', 'b', 5],
        ['b', 'c', 2],
        ['a', 'c', 3],
      ]),
      box,
    );
    assert.equal(byId(layout).get('c')!.level, 2);
  });

  test('a real cycle loses exactly one edge, deterministically, and it is reported', () => {
    const g = graph({ a: 10, b: 8, c: 6, r: 20 }, [
      ['r', 'a', 10],
      ['a', 'b', 8],
      ['b', 'c', 6],
      ['c', 'a', 1],
    ]);
    const layout = layoutCallflow(g, box);
    assert.deepEqual(
      layout.removedEdges.map(e => [e.source, e.target, e.reason]),
      [['c', 'a', 'back-edge']],
    );
    assert.deepEqual(
      layout.nodes.map(n => n.level),
      [1, 2, 3, 0],
    );
    assertWellFormed(layout);
    // A cycle with no root at all: the DFS starts from the heaviest node.
    const ring = layoutCallflow(
      graph({ x: 1, y: 5, z: 2 }, [
        ['x', 'y', 1],
        ['y', 'z', 1],
        ['z', 'x', 1],
      ]),
      box,
    );
    assert.deepEqual(
      ring.removedEdges.map(e => `${e.source}→${e.target}`),
      ['x→y'],
    );
    assert.deepEqual(
      ring.nodes.map(n => n.level),
      [2, 0, 1],
    );
  });

  test('self-loops and edges to unknown nodes are dropped and reported, duplicate ids counted', () => {
    const g: FlowGraphInput = {
      nodes: [
        { id: 'a', value: 4 },
        { id: 'b', value: 3 },
        { id: 'a', value: 99 },
      ],
      edges: [
        { source: 'a', target: 'a', value: 1 },
        { source: 'a', target: 'zz', value: 1 },
        { source: 'a', target: 'b', value: 3 },
      ],
    };
    const layout = layoutCallflow(g, box);
    assert.deepEqual(
      layout.removedEdges.map(e => e.reason),
      ['self-loop', 'unknown-node'],
    );
    assert.equal(layout.edges.length, 1);
    assert.equal(layout.duplicateNodes, 1);
    assert.equal(byId(layout).get('a')!.value, 4);
  });
});

describe('layoutCallflow: heights and flows', () => {
  // Root 100 (exclusive 10) → A 60 (exclusive 20) → C 40; root → B 30 (a leaf).
  const g = graph({ root: 100, A: 60, B: 30, C: 40 }, [
    ['root', 'A', 60],
    ['root', 'B', 30],
    ['A', 'C', 40],
  ]);
  const layout = layoutCallflow(g, { ...box, histogramHeight: 20 });
  const nodes = byId(layout);

  test('node heights are value × one common scale, and the fullest layer fits the height', () => {
    assert.ok(layout.scale > 0);
    for (const n of layout.nodes) assert.ok(Math.abs(n.y1 - n.y0 - n.value * layout.scale) < tol, n.id);
    assertWellFormed(layout);
    // Layer 1 (A, B) holds 90 plus a gap and the histogram room above each node; layer 0 holds 100 plus its room.
    const fits = (600 - 20) / 100;
    assert.ok(layout.scale <= fits + tol && layout.scale > fits * 0.9, `scale ${layout.scale}`);
  });

  test('ribbon widths are flow × scale at both ends', () => {
    for (const e of layout.edges) {
      assert.ok(Math.abs(e.sourceY1 - e.sourceY0 - e.value * layout.scale) < tol);
      assert.ok(Math.abs(e.targetY1 - e.targetY0 - e.value * layout.scale) < tol);
      assert.equal(e.tapered, false);
    }
  });

  test('AT-15: the exclusive gap is height − Σ outgoing, at the bottom of the bar', () => {
    const root = nodes.get('root')!;
    assert.ok(Math.abs(root.y1 - root.y0 - root.outgoing - 10 * layout.scale) < tol);
    const ends = layout.edges.filter(e => e.source === 'root').sort((a, b) => a.sourceY0 - b.sourceY0);
    assert.ok(Math.abs(ends[0]!.sourceY0 - root.y0) < tol, 'outgoing ribbons start at the top');
    assert.ok(Math.abs(ends[1]!.sourceY0 - ends[0]!.sourceY1) < tol, 'and are stacked without gaps');
    assert.ok(Math.abs(nodes.get('A')!.outgoing - 40 * layout.scale) < tol);
    assert.equal(nodes.get('B')!.outgoing, 0, 'a leaf is all exclusive');
  });

  test('the minimum gap leaves room for the mini histograms', () => {
    const [a, b] = [nodes.get('A')!, nodes.get('B')!].sort((p, q) => p.y0 - q.y0);
    assert.ok(b!.y0 - a!.y1 >= 24 - tol, 'the node gap');
    for (const n of layout.nodes) assert.ok(n.y0 >= 20 - tol, `${n.id}: room above for its histogram`);
  });

  test('AT-14: maxima instead of flows give tapered ribbons that never overflow a bar', () => {
    const maxima = graph({ LIB1: 40, A: 20, B: 30, C: 35 }, [
      ['LIB1', 'A', 20],
      ['LIB1', 'B', 10],
      ['LIB1', 'C', 35],
    ]);
    const at14 = layoutCallflow(maxima, box);
    assertWellFormed(at14);
    const lib1 = byId(at14).get('LIB1')!;
    const left = at14.edges.reduce((s, e) => s + e.sourceY1 - e.sourceY0, 0);
    assert.ok(left <= lib1.y1 - lib1.y0 + tol, `left ends ${left} ≤ LIB1 ${lib1.y1 - lib1.y0}`);
    assert.ok(Math.abs(left - (lib1.y1 - lib1.y0)) < tol, 'scaled to exactly fill the bar');
    for (const e of at14.edges) {
      assert.equal(e.tapered, true);
      assert.ok(
        Math.abs(e.sourceY1 - e.sourceY0 - e.value * (40 / 65) * at14.scale) < tol,
        'source end scaled by 40/65',
      );
      assert.ok(Math.abs(e.targetY1 - e.targetY0 - e.value * at14.scale) < tol, 'target end fits its target');
    }
  });
});

describe('layoutCallflow: dummies and crossings', () => {
  test('an edge spanning two levels passes a dummy that keeps clear of the node in between', () => {
    const g = graph({ a: 10, b: 6, c: 8 }, [
      ['a', 'b', 6],
      ['b', 'c', 4],
      ['a', 'c', 4],
    ]);
    const layout = layoutCallflow(g, box);
    assertWellFormed(layout);
    assert.equal(layout.dummyCount, 1);
    const long = layout.edges.find(e => e.source === 'a' && e.target === 'c')!;
    assert.equal(long.dummies, 1);
    assert.equal(long.points.length, 4, 'source end, dummy left and right, target end');
    const b = byId(layout).get('b')!;
    const [, din] = long.points;
    assert.equal(din!.x, b.x0, 'the dummy sits in b’s layer');
    assert.ok(din!.bottom <= b.y0 + tol || din!.top >= b.y1 - tol, 'and does not overlap b');
    assert.ok(Math.abs(din!.bottom - din!.top - 4 * layout.scale) < tol, 'its height is the flow');
  });

  test('K2,2 with a twist: the value order crosses the heavy flows, the sweeps uncross them', () => {
    // d is heavier than c, so ordering layer 1 by value puts d first and crosses a→c with b→d.
    const g = graph({ a: 11, b: 11, c: 11, d: 12 }, [
      ['a', 'c', 10],
      ['b', 'd', 10],
      ['a', 'd', 1],
      ['b', 'c', 1],
    ]);
    const layout = layoutCallflow(g, box);
    const n = byId(layout);
    assert.equal(layout.crossings, 1, 'K2,2 always has one crossing');
    assert.equal(layout.weightedCrossings, 1, 'the two light edges cross, not the heavy ones');
    assert.equal(n.get('a')!.order < n.get('b')!.order, n.get('c')!.order < n.get('d')!.order);
    assertWellFormed(layout);
  });

  test('a tree and a planar DAG are drawn without crossings', () => {
    const tree = syntheticFlowDag(300, 7, 0);
    const t = layoutCallflow(tree, { width: 1600, height: 4000 });
    assert.equal(t.crossings, 0);
    assertWellFormed(t, { width: 1600, height: 4000 });
    // Two chains that the initial value order interleaves: a0 → a1 → a2, b0 → b1 → b2, with a long edge a0 → a2.
    const planar = graph({ a0: 9, b0: 10, a1: 4, b1: 10, a2: 5, b2: 10 }, [
      ['a0', 'a1', 4],
      ['a1', 'a2', 4],
      ['a0', 'a2', 1],
      ['b0', 'b1', 10],
      ['b1', 'b2', 10],
    ]);
    const p = layoutCallflow(planar, box);
    assert.equal(p.crossings, 0);
  });

  test('the same input always gives the same layout', () => {
    const g = syntheticFlowDag(400, 3);
    assert.deepEqual(layoutCallflow(g, box), layoutCallflow(g, box));
  });
});

describe('layoutCallflow: stability', () => {
  test('splitting a node keeps the order of persisting nodes, and the parts take its place', () => {
    const before = graph({ main: 100, io: 10, solver: 50, mpi: 30, lib5: 40, util: 10 }, [
      ['main', 'io', 10],
      ['main', 'solver', 50],
      ['main', 'mpi', 30],
      ['solver', 'lib5', 40],
      ['mpi', 'util', 10],
    ]);
    const first = layoutCallflow(before, box);
    // Split solver by entry function into two parts; flows go to the parts.
    const after: FlowGraphInput = {
      nodes: [
        { id: 'main', value: 100 },
        { id: 'io', value: 10 },
        { id: 'solver-setup', value: 15, origin: 'solver' },
        { id: 'solver-run', value: 35, origin: 'solver' },
        { id: 'mpi', value: 30 },
        { id: 'lib5', value: 40 },
        { id: 'util', value: 10 },
      ],
      edges: [
        { source: 'main', target: 'io', value: 10 },
        { source: 'main', target: 'solver-setup', value: 15 },
        { source: 'main', target: 'solver-run', value: 35 },
        { source: 'main', target: 'mpi', value: 30 },
        { source: 'solver-run', target: 'lib5', value: 35 },
        { source: 'solver-setup', target: 'lib5', value: 5 },
        { source: 'mpi', target: 'util', value: 10 },
      ],
    };
    const second = layoutCallflow(after, { ...box, previous: first });
    assertWellFormed(second);
    const orderIn = (layout: CallflowLayout, level: number, ids: string[]): string[] =>
      layout.nodes
        .filter(n => n.level === level && ids.includes(n.id))
        .sort((a, b) => a.order - b.order)
        .map(n => n.id);
    const persisting = ['io', 'mpi'];
    assert.deepEqual(orderIn(second, 1, persisting), orderIn(first, 1, persisting));
    // The parts sit together where solver was: between the same neighbours.
    const firstOrder = orderIn(first, 1, ['io', 'solver', 'mpi']);
    const secondOrder = orderIn(second, 1, ['io', 'solver-setup', 'solver-run', 'mpi']);
    assert.deepEqual(
      secondOrder.map(id => (id.startsWith('solver') ? 'solver' : id)).filter((id, i, a) => a.indexOf(id) === i),
      firstOrder,
    );
    assert.deepEqual(
      secondOrder.filter(id => id.startsWith('solver')),
      ['solver-setup', 'solver-run'],
      'parts in input order',
    );
    // Unchanged nodes move little.
    const a = byId(first).get('io')!;
    const b = byId(second).get('io')!;
    assert.ok(Math.abs(a.y0 - b.y0) < 120, `io moved ${Math.abs(a.y0 - b.y0)} px`);
  });
});

describe('layoutCallflow: odd input', () => {
  test('an empty graph gives an empty layout', () => {
    const layout = layoutCallflow({ nodes: [], edges: [{ source: 'a', target: 'b', value: 1 }] }, box);
    assert.equal(layout.nodes.length, 0);
    assert.equal(layout.levels, 0);
    assert.equal(layout.removedEdges.length, 1);
  });

  test('a single node fills the height at the left', () => {
    const layout = layoutCallflow(graph({ a: 5 }, []), box);
    assertWellFormed(layout);
    assert.equal(layout.nodes[0]!.x0, 0);
    assert.ok(Math.abs(layout.nodes[0]!.y1 - layout.nodes[0]!.y0 - 600) < 1e-3);
  });

  test('zero, NaN and negative values stay finite and visible', () => {
    const layout = layoutCallflow(
      graph({ a: Number.NaN, b: -3, c: 0, d: Infinity }, [
        ['a', 'b', Number.NaN],
        ['b', 'c', -1],
        ['a', 'd', 0],
      ]),
      box,
    );
    assertWellFormed(layout);
    assert.equal(layout.scale, 0);
    for (const n of layout.nodes) assert.ok(n.y1 - n.y0 >= 2 - tol, 'minimum height');
  });

  test('disconnected components share the layers without overlapping', () => {
    const layout = layoutCallflow(
      graph({ a: 5, b: 5, x: 3, y: 2, lone: 1 }, [
        ['a', 'b', 5],
        ['x', 'y', 2],
      ]),
      box,
    );
    assertWellFormed(layout);
    assert.deepEqual(
      layout.nodes.map(n => n.level),
      [0, 1, 0, 1, 0],
    );
  });

  test('a very wide level and tiny boxes stay inside the box', () => {
    const nodes: Record<string, number> = { root: 1000 };
    const edges: Array<[string, string, number]> = [];
    for (let i = 0; i < 800; i++) {
      nodes[`c${i}`] = 1 + (i % 7);
      edges.push(['root', `c${i}`, 1 + (i % 7)]);
    }
    for (const size of [
      { width: 900, height: 500 },
      { width: 30, height: 20 },
      { width: 1, height: 1 },
    ]) {
      const layout = layoutCallflow(graph(nodes, edges), size);
      assertWellFormed(layout, size);
    }
  });

  test('a 2,000-node call DAG with long edges is well formed', () => {
    const g = syntheticFlowDag(2000, 11);
    const layout = layoutCallflow(g, { width: 2400, height: 8000, histogramHeight: 12 });
    assertWellFormed(layout, { width: 2400, height: 8000 });
    assert.ok(layout.dummyCount > 0, 'the extra edges span levels');
    assert.equal(layout.edges.length, g.edges.length);
  });
});

describe('isotonicPlacement', () => {
  test('keeps order and gaps, stays closest to the targets and inside the box', () => {
    // Targets in order but too close: the pair spreads symmetrically around their mean.
    assert.deepEqual(isotonicPlacement([50, 52], [10, 10], [0, 4], 0, 200), [44, 58]);
    // Out of order targets pool; the box clamps.
    assert.deepEqual(isotonicPlacement([100, 0], [10, 10], [0, 0], 0, 200), [45, 55]);
    assert.deepEqual(isotonicPlacement([-50, 500], [10, 10], [5, 5], 0, 100), [5, 90]);
  });
});
