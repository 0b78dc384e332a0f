/**
 * The topology views' work on the sizes they must handle: the host's `topologyViewData` (level of
 * detail, merged links, scale ranges) and the component's layout with label placement, for a
 * 2-socket 64-core machine (256 PUs), the 1,056-router dragonfly (collapsed, one group drilled into,
 * and every router drawn) and a DGX-1. Median of repeats; the target is one frame's budget of host
 * and view work together (< 50 ms) so hover and drill-down feel immediate. Run: `npm run bench -- topology`.
 */
import { cabLikeMachine } from '../src/analysis/memory/testing/synthetic-memory';
import { dragonflyTopology } from '../src/analysis/topology/dragonfly';
import { syntheticDragonflyTraffic } from '../src/analysis/topology/testing/synthetic-dragonfly-traffic';
import { DRAGONFLY_1056, dgxViewData, syntheticMemoryLoad } from '../src/analysis/topology/testing/topology-fixtures';
import type { Topology } from '../src/analysis/topology/topology';
import { topologyViewData, type TopologyViewOptions } from '../src/analysis/topology/topology-view-data';
import type { TopologyLayout } from '../src/shared/topology-protocol';
import { estimateText } from '../webview-ui/src/text-estimate';
import { dragonflyLayout } from '../webview-ui/src/components/topology/dragonfly-layout';
import { graphLayout } from '../webview-ui/src/components/topology/graph-layout';
import type { LayoutFunction } from '../webview-ui/src/components/topology/topology-layout';
import { icicleLayout, sunburstLayout } from '../webview-ui/src/components/topology/tree-layout';
import { formatTiming, timeRepeated } from './bench-timing';

const LAYOUTS: Record<TopologyLayout, LayoutFunction> = {
  sunburst: sunburstLayout,
  icicle: icicleLayout,
  dragonfly: dragonflyLayout,
  graph: graphLayout,
};

/** A topology with its values and the options a panel passes: what `topologyViewData` is timed on. */
interface Case {
  name: string;
  layout: TopologyLayout;
  topology: Topology;
  options: TopologyViewOptions;
}

function cases(): Case[] {
  const machine = cabLikeMachine(2, 64, 2);
  const load = syntheticMemoryLoad(machine);
  const tree = {
    nodeMeasures: [load.cycles, load.samples],
    linkMeasures: [load.transactions],
    containmentLinks: true,
  };
  const { topology: df, index } = dragonflyTopology(DRAGONFLY_1056);
  const { traffic, busy } = syntheticDragonflyTraffic(df, index, { hotGroup: 5 });
  const net: TopologyViewOptions = { nodeMeasures: [busy], linkMeasures: [traffic], omitKinds: ['terminal'] };
  const group6 = index.groupNode[6]!;
  const dgx = dgxViewData('dgx-1');
  return [
    { name: '2 × 64 × 2 machine (256 PUs)', layout: 'sunburst', topology: machine.topology, options: tree },
    { name: '2 × 64 × 2 machine, icicle', layout: 'icicle', topology: machine.topology, options: tree },
    { name: '1,056-router dragonfly, collapsed', layout: 'dragonfly', topology: df, options: net },
    {
      name: '1,056-router dragonfly, a group open',
      layout: 'dragonfly',
      topology: df,
      options: { ...net, expand: [`a${group6}:router`] },
    },
    {
      name: '1,056-router dragonfly, every router',
      layout: 'dragonfly',
      topology: df,
      options: { ...net, maxNodes: 1200 },
    },
    {
      name: 'DGX-1 (8 GPUs)',
      layout: 'graph',
      topology: dgx.hostGpu.topology,
      options: { nodeMeasures: [], linkMeasures: [] },
    },
  ];
}

export async function benchTopology(): Promise<void> {
  console.log('\nTopology views: host view data and view layout with labels (median, 900 × 620 px drawing):');
  for (const c of cases()) {
    const data = topologyViewData(c.topology, c.options);
    const host = await timeRepeated(() => topologyViewData(c.topology, c.options), { repeats: 9 });
    const view = await timeRepeated(() => LAYOUTS[c.layout](data, 900, 620, estimateText), { repeats: 9 });
    const r = LAYOUTS[c.layout](data, 900, 620, estimateText);
    console.log(
      `  ${c.name.padEnd(38)} ${String(data.nodes.length).padStart(5)} marks ${String(data.links.length).padStart(5)} links ` +
        `${String(r.labels.length).padStart(4)} labels: view data ${formatTiming(host, { digits: 1, width: 9 })}, layout ${formatTiming(view, { digits: 1, width: 9 })}`,
    );
  }
}
