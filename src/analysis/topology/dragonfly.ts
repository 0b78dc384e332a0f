/**
 * The dragonfly network of a CODES dragonfly-dally run as a {@link Topology}: a `network` root,
 * groups, routers (children of their group) and terminals (compute nodes, children of their
 * router), and one directed link per router port and terminal port. Values from the run — link
 * traffic and saturation from `lp-io/dragonfly-link-stats`, router busy time from the model
 * samples — come as {@link TopologyValues} over it.
 *
 * Structure (Kim et al., "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA 2008, as
 * CODES's dragonfly-dally builds it): groups of `a` routers fully connected by local (`L`) links;
 * each router serves `p` terminals (`CN` links, one each way) and has `h` global (`G`) ports; the
 * `a·h` global ports of a group reach the other groups in turn. Port k = r·h + c of group g goes to
 * group (g + 1 + k mod (G−1)) mod G and arrives on that group's port for g, so every global link has
 * a partner in the other direction (the arrangement of CODES's `dfdally-72-inter` file, checked link
 * for link against the shared run's link stats).
 */
import type { LinkStats, RouterSamples, TerminalSamples } from '../pdes/model/network';
import { DRAGONFLY_LINK_TYPES } from '../pdes/model/network';
import type { CodesConfig } from '../pdes/model/run-config';
import { emptyValues, TopologyBuilder, type Topology, type TopologyValues } from './topology';

export interface DragonflyShape {
  groups: number;
  routersPerGroup: number;
  terminalsPerRouter: number;
  /** Global ports per router (`h`). */
  globalChannelsPerRouter: number;
}

/** The 72-node dragonfly of the shared CODES runs (`dfdally_72.conf`): 9 groups × 4 routers × 2 terminals. */
export const DFDALLY_72: DragonflyShape = {
  groups: 9,
  routersPerGroup: 4,
  terminalsPerRouter: 2,
  globalChannelsPerRouter: 2,
};

/**
 * A Theta-like machine as the seed simulates it (seed digest §1.5): 864 routers and 3,456 compute
 * nodes, i.e. 9 groups of 96 routers (a Cray XC group) with 4 nodes each; 7,776 CODES LPs.
 */
export const THETA_LIKE: DragonflyShape = {
  groups: 9,
  routersPerGroup: 96,
  terminalsPerRouter: 4,
  globalChannelsPerRouter: 2,
};

/** Routers of a shape. */
export function routerCount(s: DragonflyShape): number {
  return s.groups * s.routersPerGroup;
}

/** Terminals (compute nodes) of a shape. */
export function terminalCount(s: DragonflyShape): number {
  return routerCount(s) * s.terminalsPerRouter;
}

/**
 * CODES LPs of a dragonfly-dally synthetic-workload model: per router one router LP, and per
 * terminal a workload LP (`nw-lp`) and a network-terminal LP.
 */
export function codesLpCount(s: DragonflyShape): number {
  return routerCount(s) * (1 + 2 * s.terminalsPerRouter);
}

/**
 * The shape from a CODES dragonfly-dally config's PARAMS (`num_groups`, `num_routers`,
 * `num_cns_per_router`, `num_global_channels`); null when one is missing.
 */
export function dragonflyShapeFromConfig(config: CodesConfig): DragonflyShape | null {
  const n = (k: string) => {
    const v = config.params.get(k);
    const x = typeof v === 'string' ? Number(v) : NaN;
    return Number.isInteger(x) && x > 0 ? x : 0;
  };
  const shape = {
    groups: n('num_groups'),
    routersPerGroup: n('num_routers'),
    terminalsPerRouter: n('num_cns_per_router'),
    globalChannelsPerRouter: n('num_global_channels'),
  };
  return Object.values(shape).every(v => v > 0) ? shape : null;
}

/** The text of a CODES dragonfly-dally config for a shape (LPGROUPS as in `dfdally_72.conf`), for generated runs. */
export function codesDragonflyConfigText(s: DragonflyShape): string {
  return `LPGROUPS
{
   MODELNET_GRP
   {
      repetitions="${routerCount(s)}";
      nw-lp="${s.terminalsPerRouter}";
      modelnet_dragonfly_dally="${s.terminalsPerRouter}";
      modelnet_dragonfly_dally_router="1";
   }
}
PARAMS
{
   modelnet_order=( "dragonfly_dally","dragonfly_dally_router" );
   num_routers="${s.routersPerGroup}";
   num_groups="${s.groups}";
   num_cns_per_router="${s.terminalsPerRouter}";
   num_global_channels="${s.globalChannelsPerRouter}";
}
`;
}

/** Where each router, terminal and group sits in a dragonfly topology's node list. */
export interface DragonflyIndex {
  shape: DragonflyShape;
  groupNode: Int32Array;
  routerNode: Int32Array;
  terminalNode: Int32Array;
  /** The first of each router's outgoing links; port p of router r is link `routerFirstLink[r] + p`. */
  routerFirstLink: Int32Array;
  /** Ports per router: (a − 1) local + h global + p terminal. */
  radix: number;
  /** The link index of a (source node, target node, type) triple. */
  linkIndex: Map<string, number>;
}

/** Global port k of group g: the group it reaches and the router and port it arrives on there. */
function globalPeer(s: DragonflyShape, g: number, k: number): { group: number; router: number } {
  const others = s.groups - 1;
  const target = (g + 1 + (k % others)) % s.groups;
  const parallel = Math.floor(k / others);
  const back = (((g - target - 1) % s.groups) + s.groups) % s.groups;
  const kBack = back + parallel * others;
  return { group: target, router: target * s.routersPerGroup + Math.floor(kBack / s.globalChannelsPerRouter) };
}

/** Builds the dragonfly (see the module comment); throws when the global ports cannot pair up. */
export function dragonflyTopology(
  s: DragonflyShape,
  source = 'synthetic',
): { topology: Topology; index: DragonflyIndex } {
  const { groups, routersPerGroup: a, terminalsPerRouter: p, globalChannelsPerRouter: h } = s;
  if (![groups, a, p, h].every(v => Number.isInteger(v) && v > 0))
    throw new Error('a dragonfly needs positive whole numbers of groups, routers, terminals and global channels');
  if (groups > 1 && (a * h) % (groups - 1) !== 0)
    throw new Error(`${a} routers × ${h} global channels per group cannot reach the other ${groups - 1} groups evenly`);
  const b = new TopologyBuilder('dragonfly', source);
  const root = b.node('network', 'dragonfly');
  const routers = routerCount(s);
  const groupNode = new Int32Array(groups);
  const routerNode = new Int32Array(routers);
  const terminalNode = new Int32Array(routers * p);
  for (let g = 0; g < groups; g++) {
    groupNode[g] = b.node('group', `group ${g}`, root, g);
    for (let r = 0; r < a; r++) {
      const id = g * a + r;
      routerNode[id] = b.node('router', `router ${id}`, groupNode[g], id);
      for (let t = 0; t < p; t++) {
        const tid = id * p + t;
        terminalNode[tid] = b.node('terminal', `terminal ${tid}`, routerNode[id], tid);
      }
    }
  }
  const linkIndex = new Map<string, number>();
  let links = 0;
  const link = (from: number, to: number, kind: string) => {
    b.link(from, to, kind);
    linkIndex.set(`${from}>${to}>${kind}`, links++);
  };
  const routerFirstLink = new Int32Array(routers);
  // Router ports in CODES's order: local, global, terminal.
  for (let id = 0; id < routers; id++) {
    const g = Math.floor(id / a);
    const r = id % a;
    routerFirstLink[id] = links;
    for (let o = 0; o < a; o++) if (o !== r) link(routerNode[id]!, routerNode[g * a + o]!, 'L');
    if (groups > 1)
      for (let c = 0; c < h; c++) link(routerNode[id]!, routerNode[globalPeer(s, g, r * h + c).router]!, 'G');
    for (let t = 0; t < p; t++) link(routerNode[id]!, terminalNode[id * p + t]!, 'CN');
  }
  for (let tid = 0; tid < routers * p; tid++) link(terminalNode[tid]!, routerNode[Math.floor(tid / p)]!, 'CN');
  return {
    topology: b.build(),
    index: {
      shape: s,
      groupNode,
      routerNode,
      terminalNode,
      routerFirstLink,
      radix: a - 1 + (groups > 1 ? h : 0) + p,
      linkIndex,
    },
  };
}

/** Link values from `dragonfly-link-stats`, with node values summing each node's outgoing links. */
export interface DragonflyLinkValues {
  /** Bytes. */
  traffic: TopologyValues;
  /** Nanoseconds the link's buffer was full. */
  saturation: TopologyValues;
  stalledChunks: TopologyValues;
  /** Rows of the stats file that name no link of the topology. */
  unmatched: number;
}

/** Puts the link stats on the topology's links (and the sums of a node's outgoing links on the node). */
export function dragonflyLinkValues(t: Topology, index: DragonflyIndex, stats: LinkStats): DragonflyLinkValues {
  const traffic = emptyValues(t, 'link traffic', 'B');
  const saturation = emptyValues(t, 'link saturation', 'ns');
  const stalledChunks = emptyValues(t, 'stalled chunks', 'chunks');
  const node = (id: number, isRouter: number) =>
    isRouter ? (index.routerNode[id] ?? -1) : (index.terminalNode[id] ?? -1);
  let unmatched = 0;
  for (let i = 0; i < stats.count; i++) {
    const from = node(stats.srcId[i]!, stats.srcIsRouter[i]!);
    const to = node(stats.dstId[i]!, stats.dstIsRouter[i]!);
    const l = index.linkIndex.get(`${from}>${to}>${DRAGONFLY_LINK_TYPES[stats.type[i]!]}`);
    if (l === undefined) {
      unmatched++;
      continue;
    }
    traffic.link[l]! += stats.traffic[i]!;
    saturation.link[l]! += stats.saturation[i]!;
    stalledChunks.link[l]! += stats.stalled[i]!;
  }
  for (const v of [traffic, saturation, stalledChunks]) sumOutgoingLinks(t, v);
  return { traffic, saturation, stalledChunks, unmatched };
}

/**
 * Router busy time from the CODES model samples: per port summed over the sampling points (on the
 * port's link), per router summed over its ports (on the router), and per group over its routers.
 * A router whose sample has another radix than the topology's ports contributes to its node only.
 */
export function routerBusyTime(t: Topology, index: DragonflyIndex, samples: RouterSamples): TopologyValues {
  return routerPortValues(t, index, samples, samples.busyTime, 'router busy time', 'ns');
}

/** Bytes each router port forwarded according to the model samples (see {@link routerBusyTime}). */
export function routerLinkTraffic(t: Topology, index: DragonflyIndex, samples: RouterSamples): TopologyValues {
  return routerPortValues(t, index, samples, samples.linkTraffic, 'router port traffic', 'B');
}

function routerPortValues(
  t: Topology,
  index: DragonflyIndex,
  samples: RouterSamples,
  perPort: Float64Array,
  name: string,
  unit: string,
): TopologyValues {
  const v = emptyValues(t, name, unit);
  const R = samples.radix;
  const portsMatch = R === index.radix;
  for (let row = 0; row < samples.count; row++) {
    const id = samples.router[row]!;
    const n = index.routerNode[id];
    if (n === undefined) continue;
    for (let port = 0; port < R; port++) {
      const x = perPort[row * R + port]!;
      v.node[n]! += x;
      if (portsMatch) v.link[index.routerFirstLink[id]! + port]! += x;
    }
  }
  addUp(t, v);
  return v;
}

/** Terminal busy time (summed over rails and sampling points) from the CODES terminal samples. */
export function terminalBusyTime(t: Topology, index: DragonflyIndex, samples: TerminalSamples): TopologyValues {
  const v = emptyValues(t, 'terminal busy time', 'ns');
  for (let row = 0; row < samples.count; row++) {
    const n = index.terminalNode[samples.terminal[row]!];
    if (n !== undefined) v.node[n]! += samples.busyTime[row]!;
  }
  return v;
}

function sumOutgoingLinks(t: Topology, v: TopologyValues): void {
  t.links.forEach((l, i) => (v.node[l.source]! += v.link[i]!));
  addUp(t, v);
}

/** Adds router values into their groups and the groups into the root. */
function addUp(t: Topology, v: TopologyValues): void {
  t.nodes.forEach((n, i) => {
    if (n.kind === 'router' && n.parent >= 0) v.node[n.parent]! += v.node[i]!;
  });
  t.nodes.forEach((n, i) => {
    if (n.kind === 'group' && n.parent >= 0) v.node[n.parent]! += v.node[i]!;
  });
}
