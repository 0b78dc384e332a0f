/**
 * Memory samples joined to the machine they ran on: each sample's route through the hardware
 * tree (MemAxes §6.2, "Mapping Samples to Hardware Topology"), and the attribution of a set of
 * samples to the resources and links of that tree.
 *
 * A load issued by PU p and served at level k climbs from p through k links: the PU always gets
 * the sample and its cycles, each link on the way up gets one transaction (the line is copied into
 * every smaller cache on the way back), and the serving resource gets the sample and its cycles.
 * Unresolved loads stay at the PU. MemAxes climbs remote-RAM loads to the issuing PU's own NUMA
 * node; here they climb to it and then cross the NUMA-to-NUMA link to their home node, which
 * gets the sample (seed digest §2.1.2, "[ours]"). The home node is the file's `node` column when it
 * names another node; else, on a machine with two NUMA nodes, the other one; else it is unknown and
 * the load stays at the local node (counted in a warning).
 *
 * Samples whose CPU id is not in the topology are "unplaced": kept in every count and in the code
 * and data views, attributed to no resource.
 */
import { LEVEL_RAM } from './model/data-source';
import type { IndexSet, SampleScope } from './index-set';
import { totalCycles, type MemorySamples } from './model/memory-samples';
import { numaLink, type MachineTopology } from '../topology/machine';
import { ancestorsOf, emptyValues, type TopologyValues } from '../topology/topology';

/** One distinct path a load takes: from its PU up to the resource that served it. */
export interface SampleRoute {
  /** The issuing PU's node. */
  pu: number;
  /** The serving resource's node; -1 for unresolved loads. */
  serving: number;
  /** Nodes whose link to their parent the load crosses, PU first. */
  up: number[];
  /** The NUMA-to-NUMA link crossed by a remote-RAM load; -1 for none. */
  link: number;
}

export interface MemoryAnalysis {
  samples: MemorySamples;
  machine: MachineTopology | null;
  /** Sum of all latencies, in cycles. */
  totalCycles: number;
  /** Route per sample (index into {@link routes}); -1 for unplaced samples or without a machine. */
  routeOf: Int32Array;
  routes: SampleRoute[];
  /** CPU ids that samples name but the topology lacks, ascending (samples without a CPU id are unplaced too). */
  unplacedCpus: number[];
  /** A dense id per (file, line), numbered in order of first appearance, and its file and line. */
  lineOf: Int32Array;
  lineFile: Int32Array;
  lineNumber: Int32Array;
  /** The reader's warnings plus those of joining samples to the machine. */
  warnings: string[];
}

/**
 * Joins samples to their machine (null: none known). Linear in the samples; routes are shared by
 * every sample with the same PU, level and home node.
 */
export function prepareMemoryAnalysis(samples: MemorySamples, machine: MachineTopology | null): MemoryAnalysis {
  const n = samples.count;
  const warnings = [...samples.warnings, ...(machine?.warnings ?? [])];
  const routeOf = new Int32Array(n).fill(-1);
  const routes: SampleRoute[] = [];
  const unplaced = new Set<number>();
  if (machine) {
    const t = machine.topology;
    const numaByOs = new Map<number, number>();
    for (const node of machine.nodesAt.numa) numaByOs.set(t.nodes[node]!.osIndex, node);
    // Route id per (PU node, level, home NUMA slot); -1 until first used.
    const numaSlot = new Map(machine.nodesAt.numa.map((node, k) => [node, k + 1]));
    const homeSlots = machine.nodesAt.numa.length + 1;
    const routeIds = new Int32Array(t.nodes.length * 5 * homeSlots).fill(-1);
    let homeUnknown = 0;
    let unplacedSamples = 0;
    for (let i = 0; i < n; i++) {
      const cpu = samples.cpu[i]!;
      const pu = machine.puOfCpu.get(cpu);
      if (pu === undefined) {
        // A missing CPU id (-1) was already reported by the reader.
        if (cpu >= 0) {
          unplacedSamples++;
          unplaced.add(cpu);
        }
        continue;
      }
      const level = samples.level[i]!;
      let home = -1;
      if (level === LEVEL_RAM && samples.remote[i]) {
        home = homeNode(machine, pu, samples.node[i]!, numaByOs);
        if (home < 0) homeUnknown++;
      }
      const key = (pu * 5 + level) * homeSlots + (home >= 0 ? numaSlot.get(home)! : 0);
      let r = routeIds[key]!;
      if (r < 0) {
        r = routes.length;
        routes.push(routeFor(machine, pu, level, home));
        routeIds[key] = r;
      }
      routeOf[i] = r;
    }
    if (unplacedSamples) {
      const ids = [...unplaced].sort((a, b) => a - b);
      warnings.push(
        `${unplacedSamples} sample${unplacedSamples > 1 ? 's' : ''} from CPU id${ids.length > 1 ? 's' : ''} ${ids.join(', ')} not in the topology: unplaced (kept in code and data views, on no resource)`,
      );
    }
    if (homeUnknown)
      warnings.push(
        `${homeUnknown} remote-RAM sample${homeUnknown > 1 ? 's have' : ' has'} no known home NUMA node; attributed to the issuing CPU's node`,
      );
  }
  const { lineOf, lineFile, lineNumber } = lineIds(samples);
  return {
    samples,
    machine,
    totalCycles: totalCycles(samples),
    routeOf,
    routes,
    unplacedCpus: [...unplaced].sort((a, b) => a - b),
    lineOf,
    lineFile,
    lineNumber,
    warnings,
  };
}

/** The home node of a remote-RAM load from PU `pu`, or -1 when it cannot be told. */
function homeNode(machine: MachineTopology, pu: number, named: number, numaByOs: Map<number, number>): number {
  const local = localNuma(machine, pu);
  const byName = named >= 0 ? numaByOs.get(named) : undefined;
  if (byName !== undefined && byName !== local) return byName;
  const numa = machine.nodesAt.numa;
  if (numa.length === 2 && local >= 0) return numa[0] === local ? numa[1]! : numa[0]!;
  return -1;
}

function localNuma(machine: MachineTopology, pu: number): number {
  const t = machine.topology;
  for (let i = pu; i >= 0; i = t.nodes[i]!.parent) if (t.nodes[i]!.kind === 'numa') return i;
  return -1;
}

/** Rank of a node for climbing: its depth's rank (PU 0 … NUMA 4), the machine root above all. */
function climbRank(machine: MachineTopology, node: number): number {
  const d = machine.depthOf[node]!;
  return d < 0 ? 5 : d;
}

function routeFor(machine: MachineTopology, pu: number, level: number, home: number): SampleRoute {
  if (level === 0) return { pu, serving: -1, up: [], link: -1 };
  const path = ancestorsOf(machine.topology, pu);
  // The first resource at or above the serving level (a machine without L3 serves L3 hits nowhere
  // else than the next level up).
  let k = 1;
  while (k < path.length - 1 && climbRank(machine, path[k]!) < level) k++;
  const up = path.slice(0, k);
  if (home >= 0) {
    const local = path[k]!;
    return { pu, serving: home, up, link: numaLink(machine, local, home) };
  }
  return { pu, serving: path[k]!, up, link: -1 };
}

/** Dense (file, line) ids in order of first appearance. */
function lineIds(samples: MemorySamples): { lineOf: Int32Array; lineFile: Int32Array; lineNumber: Int32Array } {
  const n = samples.count;
  const lineOf = new Int32Array(n);
  const ids = new Map<number, number>();
  const files: number[] = [];
  const lines: number[] = [];
  const fileIds = samples.source.ids;
  for (let i = 0; i < n; i++) {
    // Lines are below 2^31 and files few: the pair packs into one exact double.
    const key = fileIds[i]! * 2 ** 31 + samples.line[i]!;
    let id = ids.get(key);
    if (id === undefined) {
      id = files.length;
      files.push(fileIds[i]!);
      lines.push(samples.line[i]!);
      ids.set(key, id);
    }
    lineOf[i] = id;
  }
  return { lineOf, lineFile: Int32Array.from(files), lineNumber: Int32Array.from(lines) };
}

/** Samples, cycles and transactions of a set of samples on the machine's resources and links. */
export interface TopologyLoad {
  /** Samples per node: issued (PU) or served (caches, NUMA nodes). */
  samples: TopologyValues;
  /** Cycles per node, likewise. */
  cycles: TopologyValues;
  /** Transactions per node on the link to its parent (`node`), and per NUMA-to-NUMA link (`link`). */
  transactions: TopologyValues;
  /** Samples and cycles of the set whose CPU is not in the topology. */
  unplaced: { samples: number; cycles: number };
  /** Samples and cycles of the whole set. */
  total: { samples: number; cycles: number };
}

/** Attributes a set of samples (null: all) to the machine: O(set + routes × depth). */
export function topologyLoad(analysis: MemoryAnalysis, set: IndexSet | null): TopologyLoad {
  const machine = analysis.machine;
  if (!machine) throw new Error('topologyLoad needs a machine topology');
  const t = machine.topology;
  const { routeOf, routes } = analysis;
  const lat = analysis.samples.latency;
  const routeSamples = new Float64Array(routes.length);
  const routeCycles = new Float64Array(routes.length);
  let unplacedSamples = 0,
    unplacedCycles = 0,
    allCycles = 0;
  const m = set ? set.length : analysis.samples.count;
  for (let k = 0; k < m; k++) {
    const i = set ? set[k]! : k;
    const r = routeOf[i]!;
    const c = lat[i]!;
    allCycles += c;
    if (r < 0) {
      unplacedSamples++;
      unplacedCycles += c;
    } else {
      routeSamples[r]!++;
      routeCycles[r]! += c;
    }
  }
  const samples = emptyValues(t, 'samples', 'count');
  const cycles = emptyValues(t, 'cycles', 'cycles');
  const transactions = emptyValues(t, 'transactions', 'count');
  routes.forEach((route, r) => {
    const s = routeSamples[r]!;
    if (s === 0) return;
    const c = routeCycles[r]!;
    samples.node[route.pu]! += s;
    cycles.node[route.pu]! += c;
    for (const node of route.up) transactions.node[node]! += s;
    if (route.link >= 0) transactions.link[route.link]! += s;
    if (route.serving >= 0) {
      samples.node[route.serving]! += s;
      cycles.node[route.serving]! += c;
    }
  });
  return {
    samples,
    cycles,
    transactions,
    unplaced: { samples: unplacedSamples, cycles: unplacedCycles },
    total: { samples: m, cycles: allCycles },
  };
}

/** The visible samples' load and, kept apart, the selection's (MemAxes `totSamples` / `selSamples`). */
export function topologyAttribution(
  analysis: MemoryAnalysis,
  scope: SampleScope,
): { total: TopologyLoad; selected: TopologyLoad | null } {
  return {
    total: topologyLoad(analysis, scope.visible),
    selected: scope.selected ? topologyLoad(analysis, scope.selected) : null,
  };
}

/** The samples attributed to one node (a PU: issued there; a resource: served there), e.g. for a click in the sunburst. */
export function samplesAtNode(analysis: MemoryAnalysis, node: number, within: IndexSet | null = null): IndexSet {
  const hits = new Uint8Array(analysis.routes.length);
  analysis.routes.forEach((r, k) => {
    if (r.pu === node || r.serving === node) hits[k] = 1;
  });
  const { routeOf } = analysis;
  const n = within ? within.length : analysis.samples.count;
  const out = new Int32Array(n);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const i = within ? within[k]! : k;
    const r = routeOf[i]!;
    if (r >= 0 && hits[r]) out[m++] = i;
  }
  return out.slice(0, m);
}
