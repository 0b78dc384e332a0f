import type { TopologyDrillDown, TopologyViewData } from '../../shared/topology-protocol';
import { emptyValues, type TopologyValues } from '../topology/topology';
import { topologyViewData } from '../topology/topology-view-data';
import type { DragonflyViewData } from './dragonfly-view';

/**
 * The PDES panel's dragonfly view (issue 19; seed digest §5.3 item 7), drawn by the shared topology
 * component: groups around a circle with their routers, global and local links coloured and sized by
 * their traffic from the link stats (end of run), routers coloured by their busy time from the model
 * samples — the whole run or one segment of the analysis, on a scale shared by every segment — and
 * the routers and terminals of the selected entities' LPs marked selected.
 */
export interface PdesNetworkView {
  data: TopologyViewData;
  /** Segments whose router values exist (empty without time-resolved router samples). */
  segments: string[];
  /** The segment shown (index into `segments`), or null for the whole run. */
  segment: number | null;
  /** Largest router busy time of the shown values' scale (shared by all segments). */
  busyScale: number;
  notes: string[];
}

export interface NetworkViewOptions {
  segment?: number | null;
  drill?: TopologyDrillDown;
  /** Marks the view's size holds (what the component reports as its capacity). */
  maxNodes?: number;
}

export function networkViewData(d: DragonflyViewData, options: NetworkViewOptions = {}): PdesNetworkView {
  const t = d.topology;
  const perRouterSegments = d.routers?.segments ?? null;
  const segment =
    options.segment !== undefined &&
    options.segment !== null &&
    perRouterSegments &&
    options.segment >= 0 &&
    options.segment < perRouterSegments.length
      ? options.segment
      : null;
  const busy = emptyValues(
    t,
    segment === null ? 'router busy time' : `router busy time (${perRouterSegments![segment]!.label})`,
    'ns',
  );
  busy.node.fill(NaN);
  const routerValues = segment === null ? d.routers?.busyTime : perRouterSegments![segment]!.busyTime;
  if (routerValues) {
    const a = d.shape.routersPerGroup;
    d.groupNode.forEach(g => (busy.node[g] = 0));
    routerValues.forEach((v, r) => {
      busy.node[d.routerNode[r]!] = v;
      // A group's busy time is its routers' sum, as routerBusyTime adds it up.
      busy.node[d.groupNode[Math.floor(r / a)]!]! += v;
    });
  }
  const linkMeasures: TopologyValues[] = [];
  if (d.links) {
    linkMeasures.push(
      { name: 'link traffic', unit: 'B', node: new Float64Array(t.nodes.length), link: d.links.traffic },
      { name: 'link saturation', unit: 'ns', node: new Float64Array(t.nodes.length), link: d.links.saturation },
    );
  }
  const portTraffic = segment === null ? d.routers?.portTraffic : perRouterSegments![segment]!.portTraffic;
  if (portTraffic)
    linkMeasures.push({
      name: segment === null ? 'router port traffic' : `router port traffic (${perRouterSegments![segment]!.label})`,
      unit: 'B',
      node: new Float64Array(t.nodes.length),
      link: portTraffic,
    });
  const selected: number[] = [];
  d.selectedRouters.forEach((s, r) => s && selected.push(d.routerNode[r]!));
  d.selectedTerminals.forEach((s, k) => s && selected.push(d.terminalNode[k]!));
  const data = topologyViewData(t, {
    layout: 'dragonfly',
    nodeMeasures: [busy],
    linkMeasures,
    colour: { measure: 0, normalise: 'depth', scheme: 'YlOrRd' },
    linkColour: linkMeasures.length ? { measure: 0, normalise: 'all', scheme: 'Reds' } : { measure: null },
    width: { measure: linkMeasures.length ? 0 : null, normalise: 'all' },
    selected,
    ...(options.drill ?? {}),
    ...(options.maxNodes ? { maxNodes: options.maxNodes } : {}),
  });
  return {
    data,
    segments: perRouterSegments?.map(s => s.label) ?? [],
    segment,
    busyScale: segment === null ? d.scales.routerBusy : d.scales.routerBusyPerSegment,
    notes: [...d.notes],
  };
}
