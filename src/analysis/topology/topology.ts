/**
 * The hardware a run used, as one small graph shared by every topology view: a machine's
 * NUMA/cache/core tree (MemAxes), a dragonfly network of groups, routers and terminals (PDES), and
 * the links between a host and its GPUs (DMV). A topology is a tree of containment (`parent`) plus
 * links that are not containment (network cables, NVLink, cross-socket links). Values that
 * analyses attach to it (samples, cycles, traffic, utilisation) live in {@link TopologyValues}
 * beside it, so one topology serves any number of metrics and selections.
 *
 * Topologies are small (a Theta-sized dragonfly has a few thousand routers and terminals), so nodes
 * and links are plain objects; everything is structured-cloneable for the worker → host → webview
 * path.
 */

/** What a topology node stands for. Trees use the machine kinds; networks the others. */
export type TopologyNodeKind =
  | 'machine'
  | 'package'
  | 'numa'
  | 'l3'
  | 'l2'
  | 'l1'
  | 'core'
  | 'pu'
  | 'network'
  | 'group'
  | 'router'
  | 'terminal'
  | 'host'
  | 'gpu'
  | 'switch';

export interface TopologyNode {
  kind: TopologyNodeKind;
  /** What views print, e.g. `NUMA 1`, `router 17`, `GPU 0`. */
  label: string;
  /** Index of the containing node; -1 for the root(s). Parents come before their children. */
  parent: number;
  /** The system's own number for it: OS CPU id for a PU, router id, NUMA node id, CUDA device id; -1 when none. */
  osIndex: number;
}

/** A link that is not containment: a network cable, NVLink, PCIe path, cross-socket interconnect. */
export interface TopologyLink {
  source: number;
  target: number;
  /** The link's type as its source names it: dragonfly `L` (local), `G` (global), `CN` (terminal); `NV2`, `PIX`, `SYS`… */
  kind: string;
}

export interface Topology {
  /** What the topology describes; views pick their drawing by it. */
  shape: 'tree' | 'dragonfly' | 'host-gpu';
  /** Where it was read from (a file) or how it was made (`synthetic`). */
  source: string;
  nodes: TopologyNode[];
  links: TopologyLink[];
}

/** Per-node and per-link values of one quantity over a topology (e.g. cycles per resource, transactions per link). */
export interface TopologyValues {
  name: string;
  unit: string;
  node: Float64Array;
  link: Float64Array;
}

/** Builds a topology node by node; parents must be added before their children. */
export class TopologyBuilder {
  private readonly nodes: TopologyNode[] = [];
  private readonly links: TopologyLink[] = [];

  constructor(
    private readonly shape: Topology['shape'],
    private readonly source: string,
  ) {}

  /** Adds a node and returns its index. */
  node(kind: TopologyNodeKind, label: string, parent = -1, osIndex = -1): number {
    if (parent < -1 || parent >= this.nodes.length)
      throw new Error(`topology node ${label}: parent ${parent} does not exist yet`);
    this.nodes.push({ kind, label, parent, osIndex });
    return this.nodes.length - 1;
  }

  link(source: number, target: number, kind: string): void {
    const n = this.nodes.length;
    if (!(source >= 0 && source < n && target >= 0 && target < n))
      throw new Error(`topology link ${source} → ${target}: no such node`);
    this.links.push({ source, target, kind });
  }

  build(): Topology {
    return { shape: this.shape, source: this.source, nodes: this.nodes.slice(), links: this.links.slice() };
  }
}

/** Children of every node (in node order), for walks and drawing. */
export function childrenOf(t: Topology): number[][] {
  const out: number[][] = t.nodes.map(() => []);
  t.nodes.forEach((n, i) => {
    if (n.parent >= 0) out[n.parent]!.push(i);
  });
  return out;
}

/** Depth of every node: 0 for roots. */
export function depthsOf(t: Topology): Int32Array {
  const depth = new Int32Array(t.nodes.length);
  t.nodes.forEach((n, i) => {
    depth[i] = n.parent >= 0 ? depth[n.parent]! + 1 : 0;
  });
  return depth;
}

/** Indices of the nodes of one kind, in node order. */
export function nodesOfKind(t: Topology, kind: TopologyNodeKind): number[] {
  const out: number[] = [];
  t.nodes.forEach((n, i) => {
    if (n.kind === kind) out.push(i);
  });
  return out;
}

/** Node index by OS index for one kind (e.g. CPU id → PU leaf); ids absent from the topology are absent from the map. */
export function byOsIndex(t: Topology, kind: TopologyNodeKind): Map<number, number> {
  const out = new Map<number, number>();
  t.nodes.forEach((n, i) => {
    if (n.kind === kind && n.osIndex >= 0) out.set(n.osIndex, i);
  });
  return out;
}

/** The path from a node up to its root, the node first. */
export function ancestorsOf(t: Topology, node: number): number[] {
  const out: number[] = [];
  for (let i = node; i >= 0; i = t.nodes[i]!.parent) out.push(i);
  return out;
}

/** Zeroed values for a topology. */
export function emptyValues(t: Topology, name: string, unit: string): TopologyValues {
  return { name, unit, node: new Float64Array(t.nodes.length), link: new Float64Array(t.links.length) };
}
