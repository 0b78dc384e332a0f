/**
 * A compute node's memory hierarchy as a {@link Topology}: machine → NUMA node → L3 → L2 → L1 → PU,
 * the tree MemAxes draws as its sunburst (MemAxes §6.2, `hardware.xml`). Readers describe a machine
 * as resources with the CPU ids they serve ({@link MachineDescription}, from MemAxes `hardware.xml`,
 * hwloc XML or `lscpu -p`), and {@link buildMachineTopology} nests them by those CPU sets. Levels a
 * machine lacks are left out of the tree (a PU without an L1 hangs under its L2, and so on).
 * Every pair of NUMA nodes is joined by a link (`cross-socket`, or `on-socket` when the description
 * knows both are on one package), which remote-RAM loads cross to reach their home node.
 */
import { TopologyBuilder, type Topology, type TopologyNodeKind } from './topology';

/** The depths of the hierarchy, nearest the PU first (MemAxes' metric depths: core, L1, L2, L3, NUMA). */
export const MACHINE_DEPTHS = ['pu', 'l1', 'l2', 'l3', 'numa'] as const;
export type MachineDepth = (typeof MACHINE_DEPTHS)[number];
/** Depth names as views print them. */
export const MACHINE_DEPTH_LABELS: Record<MachineDepth, string> = {
  pu: 'PU',
  l1: 'L1',
  l2: 'L2',
  l3: 'L3',
  numa: 'NUMA',
};

/** A shared resource above the PUs: a NUMA node or a cache. */
export interface MachineResource {
  depth: Exclude<MachineDepth, 'pu'>;
  /** The system's number for it (NUMA node id, hwloc os_index); -1 when the source gives none. */
  osIndex: number;
  /** OS CPU ids of the PUs it serves. */
  cpus: readonly number[];
  /** Capacity in bytes (cache size, NUMA memory); 0 when unknown. */
  bytes?: number;
  /** The package (socket) holding it; -1 when unknown. */
  package?: number;
}

/** What a topology file says about a machine, before it becomes a tree. */
export interface MachineDescription {
  /** Host name or what the file calls the machine. */
  name: string;
  /** Where it was read from. */
  source: string;
  /** OS CPU ids of every PU, in the file's order. */
  cpus: readonly number[];
  resources: readonly MachineResource[];
}

export interface MachineTopology {
  topology: Topology;
  /** OS CPU id → index of its PU node. CPU ids absent from the topology are absent here: "unplaced". */
  puOfCpu: Map<number, number>;
  /** Node indices at each depth, in node order. */
  nodesAt: Record<MachineDepth, number[]>;
  /** The depth of every node (-1 for the machine root). */
  depthOf: Int8Array;
  /** Link index between two NUMA nodes, keyed `a,b` with a < b (node indices). */
  numaLinks: Map<string, number>;
  /** What the builder had to work around (resources without CPUs, overlapping sets). */
  warnings: string[];
}

const DEPTH_RANK: Record<MachineDepth, number> = { pu: 0, l1: 1, l2: 2, l3: 3, numa: 4 };

/**
 * Nests the resources by their CPU sets, top down: each resource hangs under the nearest resource
 * above it that serves its first CPU, and each PU under the nearest resource serving it. Nodes are
 * added depth-first in the description's order, so parents precede children and siblings keep
 * the file's order.
 */
export function buildMachineTopology(description: MachineDescription): MachineTopology {
  const warnings: string[] = [];
  const levels: Exclude<MachineDepth, 'pu'>[] = ['numa', 'l3', 'l2', 'l1'];
  const byLevel = levels.map(level => description.resources.filter(r => r.depth === level && r.cpus.length > 0));
  const empty = description.resources.filter(r => r.cpus.length === 0).length;
  if (empty) warnings.push(`${empty} resource${empty > 1 ? 's serve' : ' serves'} no CPU and were left out`);

  // For every level, CPU id → the resource of that level serving it (the first one listed).
  const owner = byLevel.map(list => {
    const m = new Map<number, number>();
    list.forEach((r, k) => {
      for (const c of r.cpus) if (!m.has(c)) m.set(c, k);
    });
    return m;
  });

  // Children lists: key `level:index` (level -1 = machine).
  const children = new Map<string, { level: number; index: number }[]>();
  const addChild = (parent: string, child: { level: number; index: number }) => {
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(child);
  };
  const parentKey = (level: number, cpu: number): string => {
    for (let up = level - 1; up >= 0; up--) {
      const k = owner[up]!.get(cpu);
      if (k !== undefined) return `${up}:${k}`;
    }
    return 'machine';
  };
  byLevel.forEach((list, level) =>
    list.forEach((r, index) => {
      const parent = parentKey(level, r.cpus[0]!);
      if (parent !== 'machine') {
        const [pl, pk] = parent.split(':').map(Number) as [number, number];
        const outside = r.cpus.filter(c => owner[pl]!.get(c) !== pk).length;
        if (outside)
          warnings.push(
            `${levels[level]!.toUpperCase()} ${index} spans more than one ${levels[pl]!.toUpperCase()}; drawn under the one of its first CPU`,
          );
      }
      addChild(parent, { level, index });
    }),
  );
  const seen = new Set<number>();
  for (const cpu of description.cpus) {
    if (seen.has(cpu)) continue;
    seen.add(cpu);
    addChild(parentKey(levels.length, cpu), { level: levels.length, index: cpu });
  }

  const b = new TopologyBuilder('tree', description.source);
  const nodeDepth: number[] = [];
  const root = b.node('machine', description.name || 'Machine');
  nodeDepth.push(-1);
  const ordinal = [0, 0, 0, 0];
  const puOfCpu = new Map<number, number>();
  const nodesAt: Record<MachineDepth, number[]> = { pu: [], l1: [], l2: [], l3: [], numa: [] };
  const numaPackage: number[] = [];
  const visit = (key: string, parent: number) => {
    for (const child of children.get(key) ?? []) {
      if (child.level === levels.length) {
        const cpu = child.index;
        const node = b.node('pu', `PU ${cpu}`, parent, cpu);
        nodeDepth.push(DEPTH_RANK.pu);
        puOfCpu.set(cpu, node);
        nodesAt.pu.push(node);
        continue;
      }
      const level = levels[child.level]!;
      const r = byLevel[child.level]![child.index]!;
      const label =
        level === 'numa' && r.osIndex >= 0 ? `NUMA ${r.osIndex}` : `${level.toUpperCase()} ${ordinal[child.level]}`;
      ordinal[child.level]!++;
      const node = b.node(level as TopologyNodeKind, label, parent, r.osIndex);
      nodeDepth.push(DEPTH_RANK[level]);
      nodesAt[level].push(node);
      if (level === 'numa') numaPackage[node] = r.package ?? -1;
      visit(`${child.level}:${child.index}`, node);
    }
  };
  visit('machine', root);

  const numaLinks = new Map<string, number>();
  let links = 0;
  const numa = nodesAt.numa;
  for (let i = 0; i < numa.length; i++)
    for (let j = i + 1; j < numa.length; j++) {
      const a = numa[i]!,
        c = numa[j]!;
      const pa = numaPackage[a]!,
        pc = numaPackage[c]!;
      b.link(a, c, pa >= 0 && pa === pc ? 'on-socket' : 'cross-socket');
      numaLinks.set(`${a},${c}`, links++);
    }
  return { topology: b.build(), puOfCpu, nodesAt, depthOf: Int8Array.from(nodeDepth), numaLinks, warnings };
}

/** The link joining two NUMA nodes (node indices), or -1. */
export function numaLink(machine: MachineTopology, a: number, b: number): number {
  return machine.numaLinks.get(a < b ? `${a},${b}` : `${b},${a}`) ?? -1;
}

/** The number of resources at each depth (the `topology` block of `hpc-lens memory`). */
export function machineCounts(machine: MachineTopology | null): Record<MachineDepth, number> {
  const n = (d: MachineDepth) => machine?.nodesAt[d].length ?? 0;
  return { pu: n('pu'), l1: n('l1'), l2: n('l2'), l3: n('l3'), numa: n('numa') };
}
