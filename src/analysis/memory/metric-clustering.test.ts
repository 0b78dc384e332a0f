import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../stats/seeded-random';
import { metricOf, type MemoryMetric } from './depth-scores';
import { prepareMemoryAnalysis } from './memory-analysis';
import { findAttribute } from './model/memory-samples';
import {
  clusterAlongAttribute,
  clusterBoundaries,
  clusterSamples,
  clustersAtDepth,
  cutClusters,
} from './metric-clustering';
import { cabLikeMachine, memorySamplesFrom } from './testing/synthetic-memory';

const machine = cabLikeMachine(2, 2, 1); // CPUs 0–3
const PU_CV: MemoryMetric = { score: 'cv', depth: 'pu' };

// Along t = 0 … 11: t 0–6 on CPU 0, then CPUs 1, 2, 3, 0, 1 (given out of order to test the sort).
const cpus = [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 1];
const order = [5, 3, 11, 0, 7, 1, 9, 2, 10, 4, 8, 6];
const samples = memorySamplesFrom({
  cpu: order.map(t => cpus[t]!),
  latency: order.map(() => 10),
  level: order.map(() => 1),
  extra: { t: order },
});
const analysis = prepareMemoryAnalysis(samples, machine);
const t = findAttribute(samples, 't')!;

describe('metric clustering along an attribute', () => {
  it('builds overlapping leaves of w samples every Δ and merges the closest neighbours first (hand-checked)', () => {
    const tree = clusterAlongAttribute(analysis, t, PU_CV, { window: 4, stride: 2 });
    assert.deepEqual(
      [...tree.order].map(i => order[i]),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    assert.equal(tree.leaves, 5);
    const span = (k: number) => [tree.nodes[k]!.start, tree.nodes[k]!.end];
    assert.deepEqual([0, 1, 2, 3, 4].map(span), [
      [0, 4],
      [2, 6],
      [4, 8],
      [6, 10],
      [8, 12],
    ]);
    const v = tree.nodes.map(n => n.value);
    // Leaves: CPU counts [4,0,0,0], [4,0,0,0], [3,1,0,0], [1,1,1,1], [1,1,1,1].
    assert.ok(Math.abs(v[0]! - Math.sqrt(3)) < 1e-12 && Math.abs(v[2]! - Math.sqrt(1.5)) < 1e-12);
    assert.deepEqual([v[3], v[4]], [0, 0]);
    // Merges: leaves 0+1 (distance 0), 3+4 (0), then (0+1)+2 (0.51 < 0.89), then the root.
    assert.deepEqual(
      tree.nodes.slice(5).map(n => [n.left, n.right, n.start, n.end, n.step]),
      [
        [0, 1, 0, 6, 0],
        [3, 4, 6, 12, 1],
        [5, 2, 0, 8, 2],
        [7, 6, 0, 12, 3],
      ],
    );
    // The union counts the overlap once: t 6–11 on CPUs 0, 1, 2, 3, 0, 1 → [2, 2, 1, 1], CV 1/3.
    assert.ok(Math.abs(v[6]! - 1 / 3) < 1e-12);
    assert.equal(tree.root, 8);
    assert.deepEqual([tree.nodes[7]!.min, tree.nodes[7]!.max], [0, 7]);
  });

  it('cuts the tree into k clusters or at a depth, and tells where clusters meet', () => {
    const tree = clusterAlongAttribute(analysis, t, PU_CV, { window: 4, stride: 2 });
    assert.deepEqual(cutClusters(tree, 1), [8]);
    assert.deepEqual(cutClusters(tree, 2), [7, 6]);
    assert.deepEqual(cutClusters(tree, 3), [5, 2, 6]);
    assert.deepEqual(cutClusters(tree, 99), [0, 1, 2, 3, 4]);
    assert.deepEqual(clustersAtDepth(tree, 0), [8]);
    assert.deepEqual(clustersAtDepth(tree, 2), [5, 2, 3, 4]);
    assert.deepEqual(clustersAtDepth(tree, 9), [0, 1, 2, 3, 4]);
    assert.deepEqual(clusterBoundaries(tree, [7, 6]), [7]);
    // A cluster's samples as an index set: t 6–11.
    assert.deepEqual(
      [...clusterSamples(tree, 6)].map(i => order[i]).sort((a, b) => a - b),
      [6, 7, 8, 9, 10, 11],
    );
  });

  it('merges the short window left at the end into its predecessor', () => {
    const extra = memorySamplesFrom({
      cpu: new Array(13).fill(0),
      latency: new Array(13).fill(1),
      level: new Array(13).fill(1),
      extra: { t: [...Array(13).keys()] },
    });
    const a = prepareMemoryAnalysis(extra, machine);
    const tree = clusterAlongAttribute(a, findAttribute(extra, 't')!, PU_CV, { window: 4, stride: 2 });
    assert.deepEqual(
      tree.nodes.slice(0, tree.leaves).map(n => [n.start, n.end]),
      [
        [0, 4],
        [2, 6],
        [4, 8],
        [6, 10],
        [8, 13],
      ],
    );
    const one = clusterAlongAttribute(a, findAttribute(extra, 't')!, PU_CV);
    assert.equal(one.leaves, 1);
    assert.equal(one.root, 0);
  });

  it('gives every node the metric of its own samples (random data, every score and depth)', () => {
    const random = seededRandom(11);
    const n = 700;
    const rnd = memorySamplesFrom({
      cpu: Array.from({ length: n }, () => Math.floor(random() * 5)), // CPU 4 is unplaced
      latency: Array.from({ length: n }, () => Math.floor(1 + 500 * random())),
      level: Array.from({ length: n }, () => Math.floor(5 * random())),
      extra: { x: Array.from({ length: n }, () => Math.floor(100 * random())) },
    });
    const a = prepareMemoryAnalysis(rnd, machine);
    const x = findAttribute(rnd, 'x')!;
    for (const score of ['latency', 'imbalance', 'cv', 'maxOverMean', 'gini'] as const)
      for (const depth of ['pu', 'l2', 'numa'] as const) {
        const metric = { score, depth };
        const tree = clusterAlongAttribute(a, x, metric, { window: 60, stride: 25 });
        assert.equal(tree.nodes.length, 2 * tree.leaves - 1);
        for (let k = 0; k < tree.nodes.length; k++) {
          const expected = metricOf(a, metric, clusterSamples(tree, k));
          const got = tree.nodes[k]!.value;
          assert.ok(
            Number.isNaN(expected) ? Number.isNaN(got) : Math.abs(got - expected) < 1e-9,
            `${score}@${depth} node ${k}`,
          );
        }
      }
  });

  it('refuses qualitative attributes and a stride beyond the window', () => {
    assert.throws(() => clusterAlongAttribute(analysis, findAttribute(samples, 'cpu')!, PU_CV), /continuous attribute/);
    assert.throws(() => clusterAlongAttribute(analysis, t, PU_CV, { window: 2, stride: 3 }), /stride ≤ window/);
  });

  it('has no root without samples', () => {
    const tree = clusterAlongAttribute(analysis, t, PU_CV, { set: new Int32Array(0) });
    assert.equal(tree.root, -1);
    assert.deepEqual(cutClusters(tree, 3), []);
  });
});
