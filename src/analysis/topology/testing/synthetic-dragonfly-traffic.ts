/**
 * Seeded traffic on a generated dragonfly, for tests, screenshots and the benchmark of big networks
 * no shared run covers (a 1,056-router machine). Packets go from a random terminal to a random
 * terminal (uniform random, CODES's `uniform-random` workload) or, with `hotGroup`, a share of them
 * to that group's terminals; each packet takes the minimal route of dragonfly-dally (Kim et al. 2008
 * §3.2): terminal → router, a local hop to the router holding a global link to the destination group,
 * the global hop, a local hop to the destination router, router → terminal.
 */
import { seededRandom } from '../../stats/seeded-random';
import type { DragonflyIndex } from '../dragonfly';
import { emptyValues, type Topology, type TopologyValues } from '../topology';

export interface SyntheticTrafficOptions {
  packets?: number;
  /** Bytes per packet (CODES's default packet size). */
  packetBytes?: number;
  /** Destination group of a share of the packets (an adversarial hot spot). */
  hotGroup?: number;
  /** Share of packets that go to the hot group. */
  hotShare?: number;
  seed?: number;
}

/** Bytes per link (and per node, the bytes it sends) and router busy time in ns at 2 GiB/s per port. */
export function syntheticDragonflyTraffic(
  t: Topology,
  index: DragonflyIndex,
  options: SyntheticTrafficOptions = {},
): { traffic: TopologyValues; busy: TopologyValues } {
  const { groups, routersPerGroup: a, terminalsPerRouter: p } = index.shape;
  const packets = options.packets ?? 20 * index.terminalNode.length;
  const bytes = options.packetBytes ?? 4096;
  const random = seededRandom(options.seed ?? 1);
  const traffic = emptyValues(t, 'link traffic', 'B');
  const busy = emptyValues(t, 'router busy time', 'ns');
  const link = (from: number, to: number, kind: string) => {
    const l = index.linkIndex.get(`${from}>${to}>${kind}`);
    if (l === undefined) throw new Error(`synthetic traffic: no ${kind} link ${from} → ${to}`);
    traffic.link[l]! += bytes;
  };
  // For each ordered group pair, the routers of the source group with a global link to the other.
  const routerGroup = (node: number) => Math.floor(t.nodes[node]!.osIndex / a);
  const gateways = new Map<number, [number, number][]>();
  for (const l of t.links) {
    if (l.kind !== 'G') continue;
    const key = routerGroup(l.source) * groups + routerGroup(l.target);
    let list = gateways.get(key);
    if (!list) gateways.set(key, (list = []));
    list.push([l.source, l.target]);
  }
  const terminals = index.terminalNode.length;
  const hot = options.hotGroup;
  for (let k = 0; k < packets; k++) {
    const src = Math.floor(random() * terminals);
    const dst =
      hot !== undefined && random() < (options.hotShare ?? 0.3)
        ? (hot * a + Math.floor(random() * a)) * p + Math.floor(random() * p)
        : Math.floor(random() * terminals);
    if (src === dst) continue;
    const rs = index.routerNode[Math.floor(src / p)]!,
      rd = index.routerNode[Math.floor(dst / p)]!;
    link(index.terminalNode[src]!, rs, 'CN');
    let at = rs;
    const gs = routerGroup(rs),
      gd = routerGroup(rd);
    if (gs !== gd) {
      const routes = gateways.get(gs * groups + gd)!;
      const [exit, entry] = routes[Math.floor(random() * routes.length)]!;
      if (exit !== at) link(at, exit, 'L');
      link(exit, entry, 'G');
      at = entry;
    }
    if (at !== rd) link(at, rd, 'L');
    link(rd, index.terminalNode[dst]!, 'CN');
  }
  // Node values: bytes sent; routers also busy for the time their ports took (2 GiB/s).
  const nsPerByte = 1e9 / (2 * 1024 ** 3);
  t.links.forEach((l, i) => {
    traffic.node[l.source]! += traffic.link[i]!;
    if (t.nodes[l.source]!.kind === 'router') busy.node[l.source]! += traffic.link[i]! * nsPerByte;
  });
  for (const v of [traffic, busy])
    for (const kind of ['router', 'group'] as const)
      t.nodes.forEach((node, i) => {
        if (node.kind === kind && node.parent >= 0) v.node[node.parent]! += v.node[i]!;
      });
  return { traffic, busy };
}
