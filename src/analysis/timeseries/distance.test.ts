import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodeKind } from '../model/call-tree';
import { ProfileBuilder } from '../model/profile-builder';
import { Clusterer } from './clustering';
import { ConstructTable } from './constructs';
import { ControlFlow } from './control-flow';
import { Distance } from './distance';
import { DEFAULT_TRACE_ANALYSIS_OPTIONS } from './model/options';
import { makeClassifier } from './semantic-class';
import { duration, newLoopData, newNode, TctKind, type TctNode } from './tct';

/** Constructs main → { A@1, B@2, C@3, D@4, loop@5 { X@6 } } in source order. */
const b = new ProfileBuilder('test', 'hand');
const main = b.tree.add(-1, 'main', NodeKind.Function, { file: 'f.c', line: 1 });
for (const [name, line] of [
  ['A', 1],
  ['B', 2],
  ['C', 3],
  ['D', 4],
] as const)
  b.tree.add(main, name, NodeKind.Function, { file: 'f.c', line: 10 * line, callLine: line });
const loopNode = b.tree.add(main, 'loop@5', NodeKind.Loop, { file: 'f.c', line: 5 });
b.tree.add(loopNode, 'X', NodeKind.Function, { file: 'f.c', line: 60, callLine: 6 });
const t = new ConstructTable(b.build(0).tree, makeClassifier(DEFAULT_TRACE_ANALYSIS_OPTIONS), []);
const cf = new ControlFlow(t);
const C = (name: string) => t.name.indexOf(name);
const V = 1;

/** A node of construct `name` over [start, end] with children. */
function n(name: string, start: number, end: number, ...children: TctNode[]): TctNode {
  const node = newNode(name === 'main' ? TctKind.Frame : TctKind.Frame, C(name), start, end);
  node.children = children;
  return node;
}

const params = { ratioMin: 0.02, ratioRel: 0.25, finalMergePass: true, maxClusters: 0 };

describe('Algorithm 2: diff and diffRatio', () => {
  it('Fig. 7: A 3V + D 4V against A 4V + D 3V differ by 2V (ratio 2/14) without tolerance, 0 with 2V', () => {
    const n0 = n('main', 0, 7, n('A', 0, 3), n('D', 3, 7));
    const n1 = n('main', 0, 7, n('A', 0, 4), n('D', 4, 7));
    const exact = new Distance(cf, V, 0);
    assert.equal(exact.diff(n0, n1), 2 * V);
    assert.equal(exact.ratio(n0, n1).toFixed(4), '0.1429');
    assert.equal(new Distance(cf, V, 2 * V).diff(n0, n1), 0);
  });

  it('compares gaps (exclusive time) and forgives the tolerance once per gap', () => {
    const n0 = n('main', 0, 20, n('A', 5, 10));
    const n1 = n('main', 0, 20, n('A', 1, 6));
    // Leading gaps 5 vs 1 and trailing 10 vs 14: (4 − 1) + (4 − 1) with tolerance 1.
    assert.equal(new Distance(cf, V, 1).diff(n0, n1), 6);
  });

  it('skips the child that comes earlier in source order; unmatched children count against an absent twin', () => {
    const n0 = n('main', 0, 30, n('A', 0, 10), n('C', 10, 30));
    const n1 = n('main', 0, 30, n('B', 0, 5), n('C', 5, 30));
    const d = new Distance(cf, V, 0);
    // A and B are both unmatched (10 + 5; no exclusive time around them); C itself 20 vs 25.
    assert.equal(d.diff(n0, n1), 10 + 5 + 5);
    assert.equal(d.dummy(n('B', 0, 5, n('X', 1, 2))), 5, 'recursive: exclusive 4 + the child 1');
    assert.equal(new Distance(cf, V, 2, 'recursive').dummy(n('B', 0, 5, n('X', 1, 2))), 2, 'tolerance per gap level');
    assert.equal(new Distance(cf, V, 2, 'flat').dummy(n('B', 0, 5, n('X', 1, 2))), 3, 'flat: once');
  });

  it('compares clustered loops as cluster sets: groups of paired iterations × their representatives', () => {
    const iteration = (id: number, len: number) => {
      const it = newNode(TctKind.Iteration, C('loop@5'), 0, len);
      it.id = id;
      it.children = [n('X', 0, len)];
      return it;
    };
    const loop = (ids: number[], clusterOf: number[], reps: TctNode[], sizes: number[]) => {
      const l = newNode(TctKind.Loop, C('loop@5'), 0, 0);
      l.loop = newLoopData(false);
      l.loop.iterationIds = Int32Array.from(ids);
      l.loop.iterationCluster = Int32Array.from(clusterOf);
      l.loop.clusters = reps;
      l.loop.clusterSize = sizes;
      l.loop.iterationTime = ids.reduce((s, _, k) => s + duration(reps[clusterOf[k]!]!), 0);
      l.end = l.loop.iterationTime;
      return l;
    };
    // L0: 4 iterations of 10; L1: iterations 0–1 of 10, 2–3 of 16, and a fifth of 10.
    const l0 = loop([0, 1, 2, 3], [0, 0, 0, 0], [iteration(0, 10)], [4]);
    const l1 = loop([0, 1, 2, 3, 4], [0, 0, 1, 1, 0], [iteration(0, 10), iteration(2, 16)], [3, 2]);
    const d = new Distance(cf, V, 0);
    assert.equal(d.diff(l0, l1), 2 * 6 + 10, 'two iterations differ by 6, one has no twin');
  });
});

describe('Algorithm 3: K-farthest clustering with weighted-average representatives', () => {
  const clusterer = new Clusterer(new Distance(cf, V, 0), params);

  it('averages durations by weight; a child on one side only is scaled by its share', () => {
    const x = n('main', 0, 20, n('A', 0, 10), n('C', 10, 20));
    const y = n('main', 0, 40, n('A', 0, 10), n('B', 10, 30), n('C', 30, 40));
    const r = clusterer.merge(x, 1, y, 3, 0);
    assert.equal(duration(r), (20 + 3 * 40) / 4);
    assert.deepEqual(
      r.children.map(c => [t.name[c.construct], duration(c)]),
      [
        ['A', 10],
        ['B', 15],
        ['C', 10],
      ],
    );
  });

  it('merges instances closer than Ratio_min, keeps distinct groups, and never exceeds K', () => {
    const inst = (len: number) => n('main', 0, len, n('A', 0, len));
    const lengths = [100, 101, 100, 150, 151, 200, 199, 100];
    const set = clusterer.cluster(lengths.length, i => inst(lengths[i]!));
    assert.deepEqual(
      set.clusters.map(c => c.members),
      [
        [0, 1, 2, 7],
        [3, 4],
        [5, 6],
      ],
    );
    const capped = new Clusterer(new Distance(cf, V, 0), { ...params, maxClusters: 2 }).cluster(lengths.length, i =>
      inst(lengths[i]!),
    );
    assert.equal(capped.clusters.length, 2);
    assert.deepEqual(
      capped.clusters.map(c => c.weight).reduce((s, w) => s + w, 0),
      lengths.length,
    );
  });

  it('merges everything when the closest pair is small next to the farthest (Ratio_rel)', () => {
    // 100 vs 110 vs 400: min 0.048 / max 0.6 < 0.25, so 100 and 110 merge; then 0.56 / 0.56 stops.
    const inst = (len: number) => n('main', 0, len, n('A', 0, len));
    const set = clusterer.cluster(3, i => inst([100, 110, 400][i]!));
    assert.deepEqual(
      set.clusters.map(c => c.members),
      [[0, 1], [2]],
    );
  });

  it('without the final merge pass, M ≤ K instances stay singletons (the faithful quirk)', () => {
    const raw = new Clusterer(new Distance(cf, V, 0), { ...params, finalMergePass: false });
    const inst = () => n('main', 0, 100, n('A', 0, 100));
    assert.equal(raw.cluster(2, inst).clusters.length, 2);
    assert.equal(clusterer.cluster(2, inst).clusters.length, 1);
  });
});
