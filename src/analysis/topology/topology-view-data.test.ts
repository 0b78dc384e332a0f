import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readMachineTopology } from '../formats/machine/machine-file';
import { parseNvidiaSmiTopology } from '../formats/nvidia-smi-topo';
import { readLinkStats } from '../formats/ross/codes-network';
import { DFDALLY_72, dragonflyLinkValues, dragonflyTopology } from './dragonfly';
import { HOST_LINK, hostGpuTopology, hostGpuValues } from './host-gpu';
import { buildMachineTopology, type MachineDescription } from './machine';
import { dgxTopologyText } from './testing/dgx-topology';
import { syntheticDragonflyTraffic } from './testing/synthetic-dragonfly-traffic';
import { emptyValues, nodesOfKind, type Topology } from './topology';
import { shortLabel, topologyNodeOfId, topologyViewData } from './topology-view-data';

/** Two sockets × (NUMA, L3) × 2 cores (L2, L1) × 2 hyperthreads: 8 PUs. */
function twoSockets(): MachineDescription {
  const core = (c: number) => [c, c + 4];
  return {
    name: 'node1',
    source: 'test',
    cpus: [0, 4, 1, 5, 2, 6, 3, 7],
    resources: [
      { depth: 'numa', osIndex: 0, cpus: [0, 4, 1, 5], package: 0 },
      { depth: 'numa', osIndex: 1, cpus: [2, 6, 3, 7], package: 1 },
      { depth: 'l3', osIndex: -1, cpus: [0, 4, 1, 5] },
      { depth: 'l3', osIndex: -1, cpus: [2, 6, 3, 7] },
      ...[0, 1, 2, 3].map(c => ({ depth: 'l2' as const, osIndex: -1, cpus: core(c) })),
      ...[0, 1, 2, 3].map(c => ({ depth: 'l1' as const, osIndex: -1, cpus: core(c) })),
    ],
  };
}

/** Values where node i holds `f(i)`. */
function values(t: Topology, name: string, unit: string, f: (i: number) => number, link?: (l: number) => number) {
  const v = emptyValues(t, name, unit);
  v.node.forEach((_, i) => (v.node[i] = f(i)));
  if (link) v.link.forEach((_, l) => (v.link[l] = link(l)));
  return v;
}

const byId = (d: ReturnType<typeof topologyViewData>) => new Map(d.nodes.map(n => [n.id, n]));

describe('topologyViewData on a machine tree', () => {
  const machine = buildMachineTopology(twoSockets());
  const t = machine.topology;
  // Cycles: 10 × node index; transactions: node index on the link to the parent, 500 on the NUMA link.
  const cycles = values(t, 'cycles', 'cycles', i => 10 * i);
  const transactions = values(
    t,
    'transactions',
    'count',
    i => i,
    () => 500,
  );

  it('draws every resource when it fits, parents first, with values, weights and per-level ranges', () => {
    const d = topologyViewData(t, { nodeMeasures: [cycles], linkMeasures: [transactions], containmentLinks: true });
    assert.equal(d.layout, 'sunburst');
    assert.equal(d.nodes.length, 21);
    assert.deepEqual(
      d.nodes.slice(0, 7).map(n => `${n.id}:${n.label}:${n.parent}:${n.depth}`),
      [
        'n0:node1:null:0',
        'n1:NUMA 0:n0:1',
        'n2:L3 0:n1:2',
        'n3:L2 0:n2:3',
        'n4:L1 0:n3:4',
        'n5:PU 0:n4:5',
        'n6:PU 4:n4:5',
      ],
    );
    const ids = new Set<string>();
    for (const n of d.nodes) {
      assert.ok(n.parent === null || ids.has(n.parent), `${n.id} after its parent`);
      ids.add(n.id);
    }
    const nodes = byId(d);
    assert.equal(nodes.get('n0')!.weight, 8, 'the root counts every PU');
    assert.equal(nodes.get('n1')!.weight, 4);
    assert.equal(nodes.get('n5')!.weight, 1);
    assert.deepEqual(nodes.get('n5')!.values, [50]);
    assert.equal(nodes.get('n1')!.short, 'N0');
    assert.equal(nodes.get('n5')!.short, '0');
    // Ranges per level: the PUs are nodes 5, 6, 9, 10, 15, 16, 19, 20.
    const m = d.nodeMeasures[0]!;
    assert.deepEqual(m.byLevel['pu'], { min: 50, max: 200 });
    assert.deepEqual(m.byLevel['numa'], { min: 10, max: 110 });
    assert.deepEqual(m.byLevel['machine'], { min: 0, max: 0 });
    assert.deepEqual(m.all, { min: 10, max: 200 }, 'the root is not in the overall range');
    assert.equal(d.colour.measure, 0);
    assert.equal(d.colour.normalise, 'depth');
    assert.equal(d.colour.scheme, 'YlOrRd');
    // One containment link per non-root node, valued by the child's link to its parent, plus the NUMA link.
    const contains = d.links.filter(l => l.kind === 'contains');
    assert.equal(contains.length, d.nodes.length - 1);
    const l5 = d.links.find(l => l.id === 'n4~n5:contains')!;
    assert.deepEqual([l5.source, l5.target, l5.level, l5.values[0]], ['n4', 'n5', 'pu', 5]);
    const numa = d.links.filter(l => l.kind === 'cross-socket');
    assert.equal(numa.length, 1);
    assert.deepEqual([numa[0]!.source, numa[0]!.values[0], numa[0]!.count], ['n1', 500, 1]);
    assert.deepEqual(d.linkMeasures[0]!.byLevel['pu'], { min: 5, max: 20 });
    assert.equal(d.width.measure, 0);
    assert.equal(d.width.normalise, 'depth');
    assert.deepEqual(d.levelLabels, { machine: 'Machine', numa: 'NUMA', l3: 'L3', l2: 'L2', l1: 'L1', pu: 'PU' });
    assert.equal(d.detail.aggregated, 0);
    assert.deepEqual(d.notes, []);
  });

  it('folds the levels that do not fit into one aggregate per kind, keeping angles, and expands on request', () => {
    // 1 + 2 + 2 = 5 nodes fit; the L2s (4 more) do not.
    const d = topologyViewData(t, { nodeMeasures: [cycles], linkMeasures: [transactions], maxNodes: 6 });
    const nodes = byId(d);
    assert.deepEqual(
      d.nodes.map(n => n.id),
      ['n0', 'n1', 'n2', 'a2:l2', 'a2:l1', 'a2:pu', 'n11', 'n12', 'a12:l2', 'a12:l1', 'a12:pu'],
    );
    const pus = nodes.get('a2:pu')!;
    assert.equal(pus.label, '4 PUs');
    assert.equal(pus.parent, 'a2:l1');
    assert.equal(pus.depth, 5);
    assert.equal(pus.weight, 4, 'an aggregate asks for the room of its members');
    assert.equal(nodes.get('n0')!.weight, 8);
    // PUs under L3 0: nodes 5, 6, 9, 10 → mean 75 cycles, sum 300, max 100.
    assert.deepEqual(pus.values, [75]);
    assert.deepEqual(pus.aggregate, { count: 4, sums: [300], maxima: [100] });
    assert.equal(pus.expandable, true);
    assert.equal(nodes.get('n2')!.expandable, true);
    assert.equal(nodes.get('n1')!.collapsible, true);
    assert.equal(d.detail.aggregated, 16);
    assert.match(d.notes.join(' '), /16 of 21 topology nodes are drawn as aggregates/);
    // The ranges are over what is drawn: the PU aggregates' means.
    assert.deepEqual(d.nodeMeasures[0]!.byLevel['pu'], { min: 75, max: 175 });

    // Drill down into L3 0 (by its aggregate's id, as a click on the aggregate asks): its L2s are drawn.
    const open = topologyViewData(t, { nodeMeasures: [cycles], maxNodes: 6, expand: ['a2:pu'] });
    const ids = open.nodes.map(n => n.id);
    assert.ok(ids.includes('n3') && ids.includes('n7'), 'the two L2s of L3 0');
    assert.ok(ids.includes('a3:l1') && ids.includes('a3:pu'), 'their children stay folded');
    assert.ok(ids.includes('a12:pu'), 'L3 1 stays folded');
    assert.equal(byId(open).get('n2')!.collapsible, true);
    // And collapse: NUMA 1 folded even though it fits.
    const closed = topologyViewData(t, { collapse: ['n11'] });
    assert.deepEqual(
      closed.nodes.filter(n => n.id.startsWith('a')).map(n => n.id),
      ['a11:l3', 'a11:l2', 'a11:l1', 'a11:pu'],
    );
  });

  it('sums containment links of aggregates and folds the links inside an aggregate into it', () => {
    const d = topologyViewData(t, {
      linkMeasures: [transactions],
      containmentLinks: true,
      collapse: ['n0'],
    });
    // Everything below the machine is folded: both NUMA nodes in one aggregate, their link inside it.
    const numa = byId(d).get('a0:numa')!;
    assert.deepEqual(numa.internal, { count: 1, values: [500] });
    assert.equal(d.detail.internalLinks, 1);
    const pu = d.links.find(l => l.target === 'a0:pu')!;
    assert.equal(pu.values[0], 5 + 6 + 9 + 10 + 15 + 16 + 19 + 20);
    assert.equal(pu.count, 8);
  });

  it('marks the drawn marks that hold selected or highlighted nodes', () => {
    const pu7 = machine.puOfCpu.get(7)!;
    const d = topologyViewData(t, { selected: [pu7, machine.nodesAt.numa[0]!], highlighted: [pu7], maxNodes: 6 });
    assert.deepEqual(d.selected, ['a12:pu', 'n1']);
    assert.deepEqual(d.highlighted, ['a12:pu']);
    const all = topologyViewData(t, { selected: [pu7] });
    assert.deepEqual(all.selected, [`n${pu7}`]);
  });

  it('refuses measures that do not fit the topology', () => {
    const other = buildMachineTopology({ ...twoSockets(), cpus: [0, 4] }).topology;
    assert.throws(
      () => topologyViewData(t, { nodeMeasures: [emptyValues(other, 'samples', 'count')] }),
      /"samples" has \d+ node values for 21 nodes/,
    );
    assert.throws(
      () => topologyViewData(t, { nodeMeasures: [cycles], colour: { measure: 'latency' } }),
      /no measure named "latency"/,
    );
    assert.throws(() => topologyViewData(t, { nodeMeasures: [cycles], colour: { measure: 3 } }), /no measure 3/);
  });
});

describe('topologyViewData on a dragonfly', () => {
  it('the 72-node dragonfly without terminals: 9 groups, 36 routers, links merged per direction', () => {
    const { topology: t, index } = dragonflyTopology(DFDALLY_72);
    const traffic = values(
      t,
      'link traffic',
      'B',
      () => 0,
      l => l + 1,
    );
    const d = topologyViewData(t, { linkMeasures: [traffic], omitKinds: ['terminal'] });
    assert.equal(d.layout, 'dragonfly');
    assert.equal(d.nodes.length, 1 + 9 + 36);
    assert.equal(d.detail.omitted, 72);
    const kinds: Record<string, number> = {};
    for (const l of d.links) kinds[l.kind] = (kinds[l.kind] ?? 0) + 1;
    assert.deepEqual(kinds, { L: 54, G: 36 }, 'each router pair once; terminal links fold into their router');
    assert.equal(d.detail.internalLinks, 144);
    const r0 = byId(d).get(`n${index.routerNode[0]}`)!;
    assert.equal(r0.internal!.count, 4, 'two terminals, a link each way');
    // Router 0's global link to router 11 (link 4) and back (router 11's port for group 0).
    const g = d.links.find(
      l => l.kind === 'G' && [l.source, l.target].sort().join() === [r0.id, `n${index.routerNode[11]}`].sort().join(),
    )!;
    assert.equal(g.count, 2);
    assert.ok(g.forward && g.backward);
    assert.equal(g.values[0], g.forward[0]! + g.backward[0]!);
    assert.ok([g.forward[0], g.backward[0]].includes(5), 'link 4 carries 5');
    assert.equal(d.width.normalise, 'all');
  });

  it('a 1,056-router dragonfly is drawn as 33 groups with one aggregate each, and drills into a group', () => {
    const shape = { groups: 33, routersPerGroup: 32, terminalsPerRouter: 2, globalChannelsPerRouter: 1 };
    const { topology: t, index } = dragonflyTopology(shape);
    const { traffic, busy } = syntheticDragonflyTraffic(t, index, { packets: 5000, seed: 7 });
    const d = topologyViewData(t, {
      nodeMeasures: [busy],
      linkMeasures: [traffic],
      omitKinds: ['terminal'],
    });
    assert.equal(d.nodes.length, 1 + 33 + 33);
    assert.equal(d.detail.aggregated, 1056);
    assert.deepEqual(
      d.nodes.slice(0, 3).map(n => n.id),
      ['n0', 'n1', 'a1:router'],
    );
    assert.equal(d.nodes[2]!.label, '32 routers');
    const groupLinks = d.links.filter(l => l.kind === 'G');
    assert.equal(groupLinks.length, (33 * 32) / 2, 'one bundle per group pair');
    assert.ok(
      groupLinks.every(l => l.count === 2),
      'each pair of groups is joined by one global link each way',
    );
    assert.equal(d.links.length, groupLinks.length, 'local links are inside the aggregates');
    let total = 0;
    for (let l = 0; l < t.links.length; l++) if (t.links[l]!.kind === 'G') total += traffic.link[l]!;
    assert.equal(
      groupLinks.reduce((s, l) => s + l.values[0]!, 0),
      total,
      'no global traffic lost in the bundles',
    );
    const agg = byId(d).get('a1:router')!;
    assert.equal(agg.internal!.count, 32 * 31 + 2 * 32 * 2, 'local links and terminal links of group 0');
    // Drill down into group 0: its 32 routers, each linked to the aggregate of the group it reaches.
    const g0 = topologyViewData(t, {
      nodeMeasures: [busy],
      linkMeasures: [traffic],
      omitKinds: ['terminal'],
      expand: ['a1:router'],
    });
    const routers = g0.nodes.filter(n => n.kind === 'router' && n.index >= 0);
    assert.equal(routers.length, 32);
    assert.equal(g0.nodes.length, 1 + 33 + 32 + 32);
    const fromRouter0 = g0.links.filter(
      l => l.kind === 'G' && (l.source === routers[0]!.id || l.target === routers[0]!.id),
    );
    assert.equal(fromRouter0.length, 1);
    assert.match(fromRouter0[0]!.source + fromRouter0[0]!.target, /a\d+:router/);
    assert.equal(g0.links.filter(l => l.kind === 'L').length, (32 * 31) / 2);
  });

  it('folds sibling links into their parent when there are more than maxLinks', () => {
    const { topology: t } = dragonflyTopology(DFDALLY_72);
    const d = topologyViewData(t, { omitKinds: ['terminal'], maxLinks: 40 });
    assert.ok(d.links.length <= 40);
    assert.equal(d.links.filter(l => l.kind === 'L').length, 0, 'local links are between siblings');
    assert.equal(d.links.filter(l => l.kind === 'G').length, 36);
    const group = d.nodes.find(n => n.kind === 'group')!;
    assert.equal(group.internal!.count, 12, 'six router pairs, each way');
    assert.match(d.notes.join(' '), /108 links between siblings are summed into their parent/);
  });
});

describe('topologyViewData on host–GPU topologies', () => {
  it('a DGX-1: host, 2 NUMA nodes, 8 GPUs, the host links and 28 GPU pairs by path type', () => {
    const topo = parseNvidiaSmiTopology(dgxTopologyText('dgx-1'), 'dgx1.txt');
    const hg = hostGpuTopology({ topology: topo });
    const usage = hostGpuValues(hg, {
      host: 0.5,
      gpu: d => d / 10,
      bytes: (a, b) => (a === -1 ? 1000 * (b + 1) : 0),
    });
    const d = topologyViewData(hg.topology, {
      nodeMeasures: [usage.utilisation],
      linkMeasures: [usage.traffic],
      detail: i => (i === hg.gpus[0]!.node ? 'Tesla V100-SXM2-16GB' : undefined),
    });
    assert.equal(d.layout, 'graph');
    assert.deepEqual(
      d.nodes.map(n => n.label),
      ['host', 'NUMA 0', 'GPU 0', 'GPU 1', 'GPU 2', 'GPU 3', 'NUMA 1', 'GPU 4', 'GPU 5', 'GPU 6', 'GPU 7'],
    );
    assert.equal(d.nodes[2]!.detail, 'Tesla V100-SXM2-16GB');
    const kinds: Record<string, number> = {};
    for (const l of d.links) kinds[l.kind] = (kinds[l.kind] ?? 0) + 1;
    assert.deepEqual(kinds, { [HOST_LINK]: 8, NV1: 8, NV2: 8, SYS: 12 });
    assert.equal(d.colour.scheme, 'Reds');
    assert.equal(d.colour.normalise, 'all');
    assert.deepEqual(d.nodeMeasures[0]!.byLevel['gpu'], { min: 0, max: 70 });
    assert.deepEqual(d.linkMeasures[0]!.byLevel[HOST_LINK], { min: 1000, max: 8000 });
  });
});

describe('labels and ids', () => {
  it('short labels keep the number with a prefix where the ring would be ambiguous', () => {
    assert.equal(shortLabel('numa', 'NUMA 1'), 'N1');
    assert.equal(shortLabel('group', 'group 12'), 'G12');
    assert.equal(shortLabel('router', 'router 17'), '17');
    assert.equal(shortLabel('host', 'host'), 'host');
    assert.equal(topologyNodeOfId('n12'), 12);
    assert.equal(topologyNodeOfId('a3:router'), 3);
    assert.equal(topologyNodeOfId('n4~n9:G'), -1);
  });
});

const LULESH = 'data/pebs-memaxes/lulesh';
const CODES = 'data/pdes-ross-codes/codes-dragonfly-dally-72-nearest-neighbor';

describe('topologyViewData on shared data', () => {
  it(
    'the LULESH machine: 2 NUMA, 2 L3, 16 L2, 16 L1, 32 PUs, all drawn',
    { skip: skipUnlessShared(LULESH) },
    async () => {
      const machine = await readMachineTopology(sharedPath(LULESH, 'hardware.xml'));
      const d = topologyViewData(machine.topology);
      const count = (kind: string) => d.nodes.filter(n => n.kind === kind).length;
      assert.deepEqual(['numa', 'l3', 'l2', 'l1', 'pu'].map(count), [2, 2, 16, 16, 32]);
      assert.equal(d.detail.aggregated, 0);
      assert.equal(d.nodes[0]!.weight, 32);
      assert.ok(d.nodes.every(n => n.kind !== 'pu' || n.weight === 1));
    },
  );

  it(
    'the CODES dragonfly with its link stats: every byte on a drawn link',
    { skip: skipUnlessShared(CODES) },
    async () => {
      const stats = await readLinkStats(sharedPath(CODES, 'lp-io/dragonfly-link-stats'));
      const { topology: t, index } = dragonflyTopology(DFDALLY_72, 'dfdally_72.conf');
      const v = dragonflyLinkValues(t, index, stats);
      const d = topologyViewData(t, {
        nodeMeasures: [v.traffic],
        linkMeasures: [v.traffic, { values: v.saturation, aggregate: 'max' }],
        linkColour: { measure: 'link saturation' },
      });
      assert.equal(d.nodes.length, 1 + 9 + 36 + 72, 'terminals fit the budget');
      const kinds: Record<string, number> = {};
      for (const l of d.links) kinds[l.kind] = (kinds[l.kind] ?? 0) + 1;
      assert.deepEqual(kinds, { L: 54, G: 36, CN: 72 });
      let total = 0;
      for (const x of stats.traffic) total += x;
      assert.equal(
        d.links.reduce((s, l) => s + l.values[0]!, 0),
        total,
      );
      assert.equal(d.linkColour.measure, 1);
      const sat = d.linkMeasures[1]!;
      assert.equal(sat.aggregate, 'max');
      let maxSat = 0;
      for (const x of stats.saturation) maxSat = Math.max(maxSat, x);
      assert.equal(sat.all!.max, maxSat);
      assert.equal(nodesOfKind(t, 'router').length, 36);
    },
  );
});
