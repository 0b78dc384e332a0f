import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildMachineTopology, machineCounts, numaLink, type MachineDescription } from './machine';
import { ancestorsOf } from './topology';

/** Two sockets, one L3 and NUMA node each, two cores with private L2/L1, two hyperthreads per core (0/4, 1/5 …). */
function twoSockets(): MachineDescription {
  return {
    name: 'node1',
    source: 'test',
    cpus: [0, 4, 1, 5, 2, 6, 3, 7],
    resources: [
      { depth: 'numa', osIndex: 0, cpus: [0, 4, 1, 5], package: 0 },
      { depth: 'numa', osIndex: 1, cpus: [2, 6, 3, 7], package: 1 },
      { depth: 'l3', osIndex: -1, cpus: [0, 4, 1, 5] },
      { depth: 'l3', osIndex: -1, cpus: [2, 6, 3, 7] },
      { depth: 'l2', osIndex: -1, cpus: [0, 4] },
      { depth: 'l2', osIndex: -1, cpus: [1, 5] },
      { depth: 'l2', osIndex: -1, cpus: [2, 6] },
      { depth: 'l2', osIndex: -1, cpus: [3, 7] },
      { depth: 'l1', osIndex: -1, cpus: [0, 4] },
      { depth: 'l1', osIndex: -1, cpus: [1, 5] },
      { depth: 'l1', osIndex: -1, cpus: [2, 6] },
      { depth: 'l1', osIndex: -1, cpus: [3, 7] },
    ],
  };
}

describe('buildMachineTopology', () => {
  it('nests machine → NUMA → L3 → L2 → L1 → PU depth-first, parents before children', () => {
    const m = buildMachineTopology(twoSockets());
    const t = m.topology;
    assert.equal(t.shape, 'tree');
    assert.deepEqual(machineCounts(m), { pu: 8, l1: 4, l2: 4, l3: 2, numa: 2 });
    assert.deepEqual(
      t.nodes.slice(0, 7).map(n => n.label),
      ['node1', 'NUMA 0', 'L3 0', 'L2 0', 'L1 0', 'PU 0', 'PU 4'],
    );
    t.nodes.forEach((n, i) => assert.ok(n.parent < i));
    const pu7 = m.puOfCpu.get(7)!;
    assert.deepEqual(
      ancestorsOf(t, pu7).map(i => t.nodes[i]!.label),
      ['PU 7', 'L1 3', 'L2 3', 'L3 1', 'NUMA 1', 'node1'],
    );
    assert.equal(t.nodes[pu7]!.osIndex, 7);
    assert.deepEqual(
      [...m.depthOf.slice(0, 6)],
      [-1, 4, 3, 2, 1, 0], // machine, NUMA, L3, L2, L1, PU
    );
  });

  it('joins NUMA nodes on different packages by a cross-socket link', () => {
    const m = buildMachineTopology(twoSockets());
    const [n0, n1] = m.nodesAt.numa as [number, number];
    assert.deepEqual(m.topology.links, [{ source: n0, target: n1, kind: 'cross-socket' }]);
    assert.equal(numaLink(m, n1, n0), 0);
    assert.equal(numaLink(m, n0, n0), -1);
  });

  it('calls a link between two NUMA nodes of one package on-socket (sub-NUMA clustering)', () => {
    const d: MachineDescription = {
      name: '',
      source: 'test',
      cpus: [0, 1],
      resources: [
        { depth: 'numa', osIndex: 0, cpus: [0], package: 0 },
        { depth: 'numa', osIndex: 1, cpus: [1], package: 0 },
      ],
    };
    const m = buildMachineTopology(d);
    assert.equal(m.topology.links[0]!.kind, 'on-socket');
    // No caches described: PUs hang directly under their NUMA node.
    assert.equal(m.topology.nodes[m.topology.nodes[m.puOfCpu.get(1)!]!.parent]!.label, 'NUMA 1');
  });

  it('leaves out levels the machine lacks and keeps CPUs no resource serves under the machine', () => {
    const d: MachineDescription = {
      name: 'arm',
      source: 'test',
      cpus: [0, 1, 2],
      resources: [
        { depth: 'numa', osIndex: 0, cpus: [0, 1] },
        { depth: 'l2', osIndex: -1, cpus: [0, 1] },
        { depth: 'l1', osIndex: -1, cpus: [0] },
        { depth: 'l3', osIndex: -1, cpus: [] },
      ],
    };
    const m = buildMachineTopology(d);
    const t = m.topology;
    assert.deepEqual(machineCounts(m), { pu: 3, l1: 1, l2: 1, l3: 0, numa: 1 });
    const label = (cpu: number) => ancestorsOf(t, m.puOfCpu.get(cpu)!).map(i => t.nodes[i]!.label);
    assert.deepEqual(label(0), ['PU 0', 'L1 0', 'L2 0', 'NUMA 0', 'arm']);
    assert.deepEqual(label(1), ['PU 1', 'L2 0', 'NUMA 0', 'arm']);
    assert.deepEqual(label(2), ['PU 2', 'arm']);
    assert.match(m.warnings.join('\n'), /1 resource serves no CPU/);
  });

  it('has no PU for CPU ids the description does not list (they stay unplaced)', () => {
    const m = buildMachineTopology(twoSockets());
    assert.equal(m.puOfCpu.get(8), undefined);
    assert.equal(m.puOfCpu.size, 8);
  });

  it('warns when a cache spans two NUMA nodes and draws it under the first', () => {
    const d: MachineDescription = {
      name: '',
      source: 'test',
      cpus: [0, 1],
      resources: [
        { depth: 'numa', osIndex: 0, cpus: [0] },
        { depth: 'numa', osIndex: 1, cpus: [1] },
        { depth: 'l3', osIndex: -1, cpus: [0, 1] },
      ],
    };
    const m = buildMachineTopology(d);
    assert.match(m.warnings.join('\n'), /L3 0 spans more than one NUMA/);
    assert.equal(m.topology.nodes[m.nodesAt.l3[0]!]!.parent, m.nodesAt.numa[0]);
  });
});
