import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { depthScores } from './depth-scores';
import { prepareMemoryAnalysis, samplesAtNode, topologyAttribution, topologyLoad } from './memory-analysis';
import { cabLikeMachine, memorySamplesFrom } from './testing/synthetic-memory';

// 2 sockets × 2 cores × 1 thread: CPUs 0, 1 on socket 0, CPUs 2, 3 on socket 1. Node indices:
// machine 0; NUMA0 1 › L3 2 › (L2 3 › L1 4 › PU0 5), (L2 6 › L1 7 › PU1 8); NUMA1 9 › L3 10 ›
// (L2 11 › L1 12 › PU2 13), (L2 14 › L1 15 › PU3 16). Link 0 joins NUMA0 and NUMA1.
const machine = cabLikeMachine(2, 2, 1);
const N = {
  NUMA0: 1,
  L3_0: 2,
  L2_0: 3,
  L1_0: 4,
  PU0: 5,
  L2_1: 6,
  L1_1: 7,
  PU1: 8,
  NUMA1: 9,
  L3_1: 10,
  L2_2: 11,
  L1_2: 12,
  PU2: 13,
  PU3: 16,
};
const samples = memorySamplesFrom({
  //        L1  L2   L3   RAM  RAM  RAM  unres  unplaced  RAM
  cpu: [0, 0, 1, 0, 0, 2, 3, 9, 2],
  latency: [10, 30, 100, 300, 500, 600, 50, 5, 700],
  level: [1, 2, 3, 4, 4, 4, 0, 1, 4],
  remote: [0, 0, 0, 0, 1, 1, 0, 0, 1],
  node: [-1, -1, -1, 0, 1, -1, -1, -1, 7],
});
const analysis = prepareMemoryAnalysis(samples, machine);

describe('attributing samples to the machine', () => {
  it('labels the test machine as the comments say', () => {
    const t = machine.topology;
    for (const [name, node] of Object.entries(N)) assert.equal(t.nodes[node]!.label, name.replace(/_?(\d+)$/, ' $1'));
  });

  it('gives the issuing PU every sample and the serving resource its samples and cycles', () => {
    const load = topologyLoad(analysis, null);
    const at = (v: Float64Array, node: number) => v[node];
    assert.deepEqual(
      [N.PU0, N.PU1, N.PU2, N.PU3].map(n => at(load.samples.node, n)),
      [4, 1, 2, 1],
    );
    assert.deepEqual(
      [N.PU0, N.PU1, N.PU2, N.PU3].map(n => at(load.cycles.node, n)),
      [840, 100, 1300, 50],
    );
    assert.deepEqual(
      [N.L1_0, N.L2_0, N.L3_0].map(n => at(load.samples.node, n)),
      [1, 1, 1],
    );
    assert.deepEqual(
      [N.L1_0, N.L2_0, N.L3_0].map(n => at(load.cycles.node, n)),
      [10, 30, 100],
    );
    // Local RAM (300) and the remote loads from socket 1 (600, 700) land on NUMA 0; CPU 0's remote load on NUMA 1.
    assert.deepEqual([load.samples.node[N.NUMA0], load.cycles.node[N.NUMA0]], [3, 1600]);
    assert.deepEqual([load.samples.node[N.NUMA1], load.cycles.node[N.NUMA1]], [1, 500]);
    assert.equal(load.samples.node[0], 0, 'the machine root serves nothing');
  });

  it('puts one transaction on each link up to the serving level, and remote loads on the NUMA link', () => {
    const load = topologyLoad(analysis, null);
    const up = (node: number) => load.transactions.node[node];
    assert.deepEqual([N.PU0, N.L1_0, N.L2_0, N.L3_0].map(up), [4, 3, 2, 2]);
    assert.deepEqual([N.PU1, N.L1_1, N.L2_1].map(up), [1, 1, 1]);
    assert.deepEqual([N.PU2, N.L1_2, N.L2_2, N.L3_1].map(up), [2, 2, 2, 2]);
    assert.equal(up(N.PU3), 0, 'unresolved loads stay at the PU');
    assert.equal(up(N.NUMA0), 0);
    assert.deepEqual([...load.transactions.link], [3]);
  });

  it('keeps unplaced samples in the totals, on no resource, with a warning', () => {
    const load = topologyLoad(analysis, null);
    assert.deepEqual(load.unplaced, { samples: 1, cycles: 5 });
    assert.deepEqual(load.total, { samples: 9, cycles: 2295 });
    const placed = Array.from(machine.nodesAt.pu, n => load.samples.node[n]!).reduce((a, b) => a + b, 0);
    assert.equal(placed + load.unplaced.samples, 9);
    assert.deepEqual(analysis.unplacedCpus, [9]);
    assert.match(analysis.warnings.join('\n'), /1 sample from CPU id 9 not in the topology: unplaced/);
  });

  it('leaves samples without a CPU id unplaced without naming an id', () => {
    const a = prepareMemoryAnalysis(memorySamplesFrom({ cpu: [-1, 0], latency: [5, 6], level: [1, 1] }), machine);
    assert.deepEqual(topologyLoad(a, null).unplaced, { samples: 1, cycles: 5 });
    assert.deepEqual(a.unplacedCpus, []);
    assert.deepEqual(a.warnings, []);
  });

  it('keeps the selection apart from the visible total', () => {
    const { total, selected } = topologyAttribution(analysis, { visible: null, selected: Int32Array.of(0, 4) });
    assert.equal(total.samples.node[N.PU0], 4);
    assert.equal(selected!.samples.node[N.PU0], 2);
    assert.equal(selected!.samples.node[N.NUMA1], 1);
    assert.deepEqual([...selected!.transactions.link], [1]);
    assert.equal(topologyAttribution(analysis, { visible: null, selected: null }).selected, null);
  });

  it('selects the samples of a resource: issued at a PU, served at a cache or NUMA node', () => {
    assert.deepEqual([...samplesAtNode(analysis, N.PU0)], [0, 1, 3, 4]);
    assert.deepEqual([...samplesAtNode(analysis, N.NUMA0)], [3, 5, 8]);
    assert.deepEqual([...samplesAtNode(analysis, N.L3_0)], [2]);
    assert.deepEqual([...samplesAtNode(analysis, N.NUMA0, Int32Array.of(3, 4, 8))], [3, 8]);
  });

  it('scores each depth from the load', () => {
    const scores = depthScores(analysis, topologyLoad(analysis, null));
    assert.deepEqual(
      scores.map(s => s.depth),
      ['pu', 'l1', 'l2', 'l3', 'numa'],
    );
    const numa = scores[4]!;
    assert.deepEqual(numa.nodes, [N.NUMA0, N.NUMA1]);
    assert.equal(numa.imbalance, 1);
    assert.equal(numa.extremeNode, N.NUMA0);
    assert.equal(numa.latency, (1600 / 3 + 500) / 2);
    const pu = scores[0]!;
    assert.equal(pu.maxNode, N.PU0);
  });

  it('leaves a remote load at its own NUMA node when the home cannot be told (more than two nodes)', () => {
    const four = cabLikeMachine(4, 1, 1);
    const a = prepareMemoryAnalysis(memorySamplesFrom({ cpu: [0], latency: [500], level: [4], remote: [1] }), four);
    const load = topologyLoad(a, null);
    assert.equal(load.samples.node[four.nodesAt.numa[0]!], 1);
    assert.deepEqual([...load.transactions.link], [0, 0, 0, 0, 0, 0]);
    assert.match(a.warnings.join('\n'), /1 remote-RAM sample has no known home NUMA node/);
    // With the file's node column the home is known.
    const b = prepareMemoryAnalysis(
      memorySamplesFrom({ cpu: [0], latency: [500], level: [4], remote: [1], node: [2] }),
      four,
    );
    assert.equal(topologyLoad(b, null).samples.node[four.nodesAt.numa[2]!], 1);
  });

  it('works without a machine: every sample unrouted, code and data views unaffected', () => {
    const a = prepareMemoryAnalysis(samples, null);
    assert.equal(a.routes.length, 0);
    assert.ok([...a.routeOf].every(r => r === -1));
    assert.equal(a.totalCycles, 2295);
    assert.throws(() => topologyLoad(a, null), /needs a machine topology/);
  });
});
