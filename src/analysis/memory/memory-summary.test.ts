import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readMemoryDataset } from '../formats/memory/memory-dataset';
import { prepareMemoryAnalysis, topologyLoad } from './memory-analysis';
import { memorySummary, type MemorySummary } from './memory-summary';
import { cabLikeMachine, memorySamplesFrom } from './testing/synthetic-memory';

const KEYS = ['samples', 'cycles', 'levels', 'topology', 'topVariables', 'topLines', 'byPU', 'imbalance'];

describe('memory summary', () => {
  const samples = memorySamplesFrom({
    cpu: [0, 1, 1, 7],
    latency: [10, 20, 300, 5],
    level: [1, 2, 4, 0],
    variable: ['a', 'b', 'b', 'a'],
    file: ['x.c', 'x.c', 'y.c', 'x.c'],
    line: [3, 4, 9, 3],
  });

  it('has exactly the documented keys, in order', () => {
    const s = memorySummary(prepareMemoryAnalysis(samples, cabLikeMachine(2, 2, 1)));
    assert.deepEqual(Object.keys(s), KEYS);
    assert.deepEqual(Object.keys(s.levels), ['L1', 'L2', 'L3', 'RAM', 'unresolved']);
    assert.deepEqual(Object.keys(s.topology), ['numa', 'l3', 'l2', 'l1', 'pu']);
    assert.deepEqual(Object.keys(s.topVariables[0]!), ['name', 'cycles', 'samples']);
    assert.deepEqual(Object.keys(s.topLines[0]!), ['file', 'line', 'cycles', 'samples']);
    assert.deepEqual(Object.keys(s.byPU[0]!), ['cpu', 'samples', 'cycles']);
    assert.deepEqual(Object.keys(s.imbalance[0]!), ['depth', 'I', 'cv', 'maxOverMean', 'gini', 'extreme']);
  });

  it('counts levels, lists idle and unplaced CPUs in byPU, and scores each depth', () => {
    const s = memorySummary(prepareMemoryAnalysis(samples, cabLikeMachine(2, 2, 1)));
    assert.deepEqual(s.levels, { L1: 1, L2: 1, L3: 0, RAM: 1, unresolved: 1 });
    assert.deepEqual(s.topology, { numa: 2, l3: 2, l2: 4, l1: 4, pu: 4 });
    assert.deepEqual(s.byPU, [
      { cpu: 0, samples: 1, cycles: 10 },
      { cpu: 1, samples: 2, cycles: 320 },
      { cpu: 2, samples: 0, cycles: 0 },
      { cpu: 3, samples: 0, cycles: 0 },
      { cpu: 7, samples: 1, cycles: 5 },
    ]);
    assert.deepEqual(
      s.topVariables.map(v => v.name),
      ['b', 'a'],
    );
    assert.deepEqual(
      s.topLines.map(l => `${l.file}:${l.line}`),
      ['y.c:9', 'x.c:4', 'x.c:3'],
    );
    assert.deepEqual(
      s.imbalance.map(d => d.depth),
      ['PU', 'L1', 'L2', 'L3', 'NUMA'],
    );
    // One RAM load on NUMA 0 (CPU 1's node), none on NUMA 1.
    assert.deepEqual(s.imbalance[4], { depth: 'NUMA', I: 1, cv: 1, maxOverMean: 2, gini: 0.5, extreme: 'NUMA 0' });
  });

  it('still summarises code and data without a topology', () => {
    const s = memorySummary(prepareMemoryAnalysis(samples, null));
    assert.deepEqual(s.topology, { numa: 0, l3: 0, l2: 0, l1: 0, pu: 0 });
    assert.deepEqual(s.imbalance, []);
    assert.deepEqual(
      s.byPU.map(p => p.cpu),
      [0, 1, 7],
    );
    assert.equal(s.topVariables.length, 2);
  });
});

describe(
  'memory summary of the LULESH samples (real data)',
  { skip: skipUnlessShared('data/pebs-memaxes/lulesh') },
  () => {
    const summaryOf = async (file: string): Promise<MemorySummary> => {
      const d = await readMemoryDataset(sharedPath('data/pebs-memaxes/lulesh/data', file));
      return memorySummary(prepareMemoryAnalysis(d.samples, d.machine));
    };

    it('samples.out with hardware.xml gives the issue\u2019s figures', async () => {
      const s = await summaryOf('samples.out');
      assert.equal(s.samples, 15676);
      assert.equal(s.cycles, 1022618);
      assert.deepEqual(s.levels, { L1: 2597, L2: 3162, L3: 4014, RAM: 674, unresolved: 5229 });
      assert.deepEqual(s.topology, { numa: 2, l3: 2, l2: 16, l1: 16, pu: 32 });
      assert.equal(s.byPU.length, 32);
      assert.equal(Math.min(...s.byPU.map(p => p.samples)), 341);
      assert.equal(Math.max(...s.byPU.map(p => p.samples)), 768);
      assert.deepEqual(s.topVariables.slice(0, 2), [
        { name: 'm_x', cycles: 425345, samples: 6535 },
        { name: 'm_xd', cycles: 225574, samples: 2339 },
      ]);
      assert.deepEqual(
        s.topLines.slice(0, 3).map(l => [l.file, l.line, l.cycles]),
        [
          ['LULESH_OMP.cc', 2035, 307110],
          ['LULESH_OMP.cc', 2056, 215196],
          ['LULESH_OMP.cc', 961, 106895],
        ],
      );
      assert.equal(s.topLines.length, 9, 'LULESH_OMP.cc: 8 lines; ??: 1');
      assert.deepEqual(s.topLines[8], { file: '??', line: 0, cycles: 3136, samples: 36 });
    });

    it('splits L3 1,968 + 2,046 and RAM 337 + 337 over the two sockets: I = 1 at L3, I = 0 at NUMA, with the alternative scores', async () => {
      const d = await readMemoryDataset(sharedPath('data/pebs-memaxes/lulesh'));
      const a = prepareMemoryAnalysis(d.samples, d.machine);
      const s = memorySummary(a);
      const l3 = s.imbalance.find(x => x.depth === 'L3')!;
      const numa = s.imbalance.find(x => x.depth === 'NUMA')!;
      assert.equal(l3.I, 1);
      assert.ok(Math.abs(l3.cv - 39 / 2007) < 1e-12);
      assert.ok(Math.abs(l3.maxOverMean - 2046 / 2007) < 1e-12);
      assert.ok(Math.abs(l3.gini - 78 / (4 * 2007)) < 1e-12);
      assert.equal(l3.extreme, 'L3 1');
      assert.deepEqual(numa, { depth: 'NUMA', I: 0, cv: 0, maxOverMean: 1, gini: 0, extreme: null });
      const load = topologyLoad(a, null);
      assert.deepEqual(
        d.machine!.nodesAt.l3.map(n => load.samples.node[n]),
        [1968, 2046],
      );
      assert.deepEqual(
        d.machine!.nodesAt.numa.map(n => load.samples.node[n]),
        [337, 337],
      );
    });

    it('lulesh_inorder.out has 16,360 samples; lulesh_biggiesmalls.out gives exactly the results of samples.out', async () => {
      assert.equal((await summaryOf('lulesh_inorder.out')).samples, 16360);
      assert.deepEqual(await summaryOf('lulesh_biggiesmalls.out'), await summaryOf('samples.out'));
    });
  },
);
