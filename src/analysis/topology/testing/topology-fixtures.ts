/**
 * Seeded view data of the three topologies at the sizes the topology view must handle, for render
 * tests, screenshots and the benchmark: Cab-like machines (32 and 256 PUs) with MemAxes-like load
 * (the memory analysis' own attribution),
 * dragonflies (the 72-node CODES machine, a 1,056-router one) with minimal-route traffic, and
 * DGX-like host–GPU machines with copy traffic.
 */
import { parseNvidiaSmiTopology } from '../../formats/nvidia-smi-topo';
import { prepareMemoryAnalysis, topologyLoad, type TopologyLoad } from '../../memory/memory-analysis';
import { LEVEL_L1, LEVEL_L2, LEVEL_L3, LEVEL_RAM, LEVEL_UNRESOLVED } from '../../memory/model/data-source';
import { cabLikeMachine, memorySamplesFrom } from '../../memory/testing/synthetic-memory';
import { seededRandom } from '../../stats/seeded-random';
import { DFDALLY_72, dragonflyTopology, type DragonflyShape } from '../dragonfly';
import { hostGpuTopology, hostGpuValues } from '../host-gpu';
import type { MachineTopology } from '../machine';
import { ancestorsOf } from '../topology';
import { topologyViewData, type TopologyViewOptions } from '../topology-view-data';
import { dgxTopologyText, type DgxSystem } from './dgx-topology';
import { syntheticDragonflyTraffic } from './synthetic-dragonfly-traffic';

/**
 * MemAxes-like samples on a machine, attributed by the memory analysis itself (the memory panel's
 * numbers): every PU issues 300–700 samples (one PU idle, the last socket 40 % busier) at the typical
 * mix of serving levels and latencies of the memory generators.
 */
export function syntheticMemoryLoad(machine: MachineTopology, seed = 3): TopologyLoad {
  const random = seededRandom(seed);
  const cpus = [...machine.puOfCpu.keys()];
  const lastSocket = machine.nodesAt.numa[machine.nodesAt.numa.length - 1];
  const columns: { cpu: number[]; latency: number[]; level: number[] } = { cpu: [], latency: [], level: [] };
  const mix: [number, number, number][] = [
    [0.45, LEVEL_L1, 20],
    [0.65, LEVEL_L2, 40],
    [0.8, LEVEL_L3, 150],
    [0.85, LEVEL_RAM, 350],
    [1, LEVEL_UNRESOLVED, 60],
  ];
  cpus.forEach((cpu, k) => {
    const pu = machine.puOfCpu.get(cpu)!;
    const onLast = ancestorsOf(machine.topology, pu).includes(lastSocket ?? -2);
    const busy = k === Math.floor(cpus.length / 3) ? 0.005 : onLast ? 1.4 : 1;
    const n = Math.round(busy * (300 + 400 * random()));
    for (let i = 0; i < n; i++) {
      const u = random();
      const [, level, cycles] = mix.find(([p]) => u < p)!;
      columns.cpu.push(cpu);
      columns.level.push(level);
      columns.latency.push(Math.round(cycles * (0.75 + 0.5 * random())));
    }
  });
  return topologyLoad(prepareMemoryAnalysis(memorySamplesFrom(columns), machine), null);
}

/** View data of a Cab-like machine with its synthetic load (cycles and samples on nodes, transactions on links). */
export function machineViewData(
  sockets: number,
  cores: number,
  threads: number,
  options: TopologyViewOptions = {},
): ReturnType<typeof topologyViewData> {
  const machine = cabLikeMachine(sockets, cores, threads);
  const load = syntheticMemoryLoad(machine);
  return topologyViewData(machine.topology, {
    nodeMeasures: [load.cycles, load.samples],
    linkMeasures: [load.transactions],
    containmentLinks: true,
    ...options,
  });
}

/** A 1,056-router dragonfly: 33 groups of 32 routers, one global port each (every group pair joined once). */
export const DRAGONFLY_1056: DragonflyShape = {
  groups: 33,
  routersPerGroup: 32,
  terminalsPerRouter: 2,
  globalChannelsPerRouter: 1,
};

/** View data of a dragonfly with minimal-route traffic (width) and router busy time (colour). */
export function dragonflyViewData(
  shape: DragonflyShape = DFDALLY_72,
  options: TopologyViewOptions & { hotGroup?: number; packets?: number } = {},
): ReturnType<typeof topologyViewData> {
  const { topology, index } = dragonflyTopology(shape);
  const { traffic, busy } = syntheticDragonflyTraffic(topology, index, {
    hotGroup: options.hotGroup,
    packets: options.packets,
  });
  return topologyViewData(topology, {
    nodeMeasures: [busy],
    linkMeasures: [traffic],
    ...options,
  });
}

/**
 * View data of a DGX-like machine: host → GPU copies and a ring all-reduce over the NVLinks
 * (neighbours in device order when joined by NVLink), utilisation by device.
 */
export function dgxViewData(system: DgxSystem = 'dgx-1', options: TopologyViewOptions = {}, seed = 5) {
  const topo = parseNvidiaSmiTopology(dgxTopologyText(system), `${system}.txt`);
  const hg = hostGpuTopology({ topology: topo });
  const random = seededRandom(seed);
  const gpus = topo.gpus.length;
  const ring = new Set<string>();
  for (let g = 0; g < gpus; g++) ring.add([g, (g + 1) % gpus].sort((a, b) => a - b).join());
  const usage = hostGpuValues(hg, {
    host: 0.35,
    gpu: d => 0.3 + 0.6 * random() + (d === 0 ? 0.1 : 0),
    bytes: (a, b) => {
      if (a === -1) return (b === 0 ? 4 : 1) * 2 ** 30 * (0.8 + 0.4 * random());
      const kind = topo.links[topo.gpus.indexOf(a)]![topo.gpus.indexOf(b)]!;
      if (!kind.startsWith('NV')) return ring.has([a, b].sort((x, y) => x - y).join()) ? 2 ** 28 : 0;
      return (ring.has([a, b].sort((x, y) => x - y).join()) ? 8 : 1) * 2 ** 30 * (0.9 + 0.2 * random());
    },
  });
  return {
    hostGpu: hg,
    data: topologyViewData(hg.topology, {
      nodeMeasures: [usage.utilisation],
      linkMeasures: [usage.traffic],
      colour: { domain: [0, 100] },
      detail: i => (hg.gpus.some(g => g.node === i) ? 'Tesla V100-SXM2-32GB' : undefined),
      ...options,
    }),
  };
}
