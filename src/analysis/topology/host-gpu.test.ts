import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNvidiaSmiTopology } from '../formats/nvidia-smi-topo';
import { HOST_LINK, hostGpuTopology, hostGpuValues } from './host-gpu';
import { childrenOf } from './topology';

const PROPS = [
  { id: 0, name: 'Tesla V100-SXM2-16GB', totalGlobalMem: 16911433728, computeMajor: 7, computeMinor: 0, numSms: 80 },
  { id: 1, name: 'Tesla V100-SXM2-16GB', totalGlobalMem: 16911433728, computeMajor: 7, computeMinor: 0, numSms: 80 },
  { name: 'no id' },
];

describe('host–GPU topology', () => {
  it('from deviceProperties: the host with its GPUs, linked to it', () => {
    const t = hostGpuTopology({ deviceProperties: PROPS, source: 'run.json' });
    assert.equal(t.topology.shape, 'host-gpu');
    assert.deepEqual(
      t.topology.nodes.map(n => `${n.kind}:${n.label}:${n.parent}:${n.osIndex}`),
      ['host:host:-1:-1', 'gpu:GPU 0:0:0', 'gpu:GPU 1:0:1'],
    );
    assert.deepEqual(
      t.topology.links.map(l => `${l.source}-${l.target}:${l.kind}`),
      [`0-1:${HOST_LINK}`, `0-2:${HOST_LINK}`],
    );
    assert.deepEqual(t.gpus[0], {
      device: 0,
      node: 1,
      name: 'Tesla V100-SXM2-16GB',
      totalGlobalMem: 16911433728,
      numSms: 80,
      computeCapability: '7.0',
    });
  });

  it('with nvidia-smi topo -m: GPUs under their NUMA node, GPU pairs linked by path type', () => {
    const topo = parseNvidiaSmiTopology(
      '\tGPU0\tGPU1\tGPU2\tNUMA Affinity\nGPU0\t X \tNV2\tSYS\t0\nGPU1\tNV2\t X \tSYS\t0\nGPU2\tSYS\tSYS\t X \t1\n',
      'topo.txt',
    );
    const t = hostGpuTopology({ deviceProperties: PROPS, topology: topo, devices: [3] });
    const labels = t.topology.nodes.map(n => n.label);
    assert.deepEqual(labels, ['host', 'NUMA 0', 'NUMA 1', 'GPU 0', 'GPU 1', 'GPU 2', 'GPU 3']);
    const kids = childrenOf(t.topology);
    assert.deepEqual(
      kids[1]!.map(i => labels[i]),
      ['GPU 0', 'GPU 1'],
    );
    assert.deepEqual(
      kids[0]!.map(i => labels[i]),
      ['NUMA 0', 'NUMA 1', 'GPU 3'],
      'a GPU the topology file does not list hangs under the host',
    );
    const gpuLinks = t.topology.links
      .filter(l => l.kind !== HOST_LINK)
      .map(l => `${labels[l.source]}–${labels[l.target]}:${l.kind}`);
    assert.deepEqual(gpuLinks, ['GPU 0–GPU 1:NV2', 'GPU 0–GPU 2:SYS', 'GPU 1–GPU 2:SYS']);
    assert.deepEqual(t.linkDevices.slice(4), [
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });

  it('utilisation per node in %, traffic per link and node', () => {
    const t = hostGpuTopology({ deviceProperties: PROPS });
    const { utilisation, traffic } = hostGpuValues(t, {
      host: 0.25,
      gpu: d => (d === 0 ? 0.5 : 0),
      bytes: (a, b) => (a === -1 && b === 0 ? 1000 : a === -1 && b === 1 ? 10 : 0),
    });
    assert.deepEqual(Array.from(utilisation.node), [25, 50, 0]);
    assert.equal(utilisation.unit, '%');
    assert.deepEqual(Array.from(traffic.link), [1000, 10]);
    assert.deepEqual(Array.from(traffic.node), [1010, 1000, 10]);
  });
});
