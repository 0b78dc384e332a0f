import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { parseCodesConfig } from '../formats/ross/codes-config';
import { readLinkStats } from '../formats/ross/codes-network';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import type { LinkStats, RouterSamples, TerminalSamples } from '../pdes/model/network';
import {
  codesDragonflyConfigText,
  codesLpCount,
  DFDALLY_72,
  dragonflyLinkValues,
  dragonflyShapeFromConfig,
  dragonflyTopology,
  routerBusyTime,
  routerCount,
  routerLinkTraffic,
  terminalBusyTime,
  terminalCount,
  THETA_LIKE,
} from './dragonfly';
import { byOsIndex, nodesOfKind, type Topology } from './topology';

function linkKinds(t: Topology): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of t.links) out[l.kind] = (out[l.kind] ?? 0) + 1;
  return out;
}

/** Every link has a link back between the same two nodes, of the same kind. */
function everyLinkHasAPartner(t: Topology): boolean {
  const keys = new Set(t.links.map(l => `${l.source}>${l.target}>${l.kind}`));
  return t.links.every(l => keys.has(`${l.target}>${l.source}>${l.kind}`));
}

describe('dragonfly topology', () => {
  it('builds 9 groups × 4 routers × 2 terminals with 324 directed links (144 CN, 108 L, 72 G)', () => {
    const { topology: t, index } = dragonflyTopology(DFDALLY_72);
    assert.equal(nodesOfKind(t, 'group').length, 9);
    assert.equal(nodesOfKind(t, 'router').length, 36);
    assert.equal(nodesOfKind(t, 'terminal').length, 72);
    assert.equal(t.nodes.length, 1 + 9 + 36 + 72);
    assert.deepEqual(linkKinds(t), { L: 108, G: 72, CN: 144 });
    assert.ok(everyLinkHasAPartner(t));
    assert.equal(index.radix, 7);
    // Router 5 sits in group 1; terminal 11 on router 5.
    const r5 = byOsIndex(t, 'router').get(5)!;
    assert.equal(t.nodes[t.nodes[r5]!.parent]!.label, 'group 1');
    assert.equal(t.nodes[t.nodes[byOsIndex(t, 'terminal').get(11)!]!.parent]!.label, 'router 5');
    // Every group reaches every other group by exactly one global link (one link per group pair each way).
    const groupOf = (node: number) => t.nodes[t.nodes[node]!.parent]!.osIndex;
    const pairs = new Set(t.links.filter(l => l.kind === 'G').map(l => `${groupOf(l.source)}-${groupOf(l.target)}`));
    assert.equal(pairs.size, 72);
    // Port order: 3 local, 2 global, 2 terminal links leave router 0 first.
    assert.deepEqual(
      t.links.slice(0, 7).map(l => `${l.kind} ${t.nodes[l.target]!.label}`),
      ['L router 1', 'L router 2', 'L router 3', 'G router 7', 'G router 11', 'CN terminal 0', 'CN terminal 1'],
    );
  });

  it('builds the Theta-like machine: 864 routers, 3,456 nodes, 7,776 CODES LPs', () => {
    assert.equal(routerCount(THETA_LIKE), 864);
    assert.equal(terminalCount(THETA_LIKE), 3456);
    assert.equal(codesLpCount(THETA_LIKE), 7776);
    const { topology: t, index } = dragonflyTopology(THETA_LIKE);
    assert.equal(nodesOfKind(t, 'router').length, 864);
    assert.equal(nodesOfKind(t, 'terminal').length, 3456);
    assert.deepEqual(linkKinds(t), { L: 864 * 95, G: 864 * 2, CN: 2 * 3456 });
    assert.ok(everyLinkHasAPartner(t));
    assert.equal(index.radix, 95 + 2 + 4);
  });

  it('refuses shapes whose global ports cannot pair up', () => {
    assert.throws(
      () => dragonflyTopology({ groups: 4, routersPerGroup: 2, terminalsPerRouter: 1, globalChannelsPerRouter: 1 }),
      /cannot reach the other 3 groups evenly/,
    );
    assert.throws(() => dragonflyTopology({ ...DFDALLY_72, groups: 0 }), /positive whole numbers/);
  });

  it('reads the shape from a CODES config and writes configs it reads back', () => {
    const config = parseCodesConfig('x.conf', codesDragonflyConfigText(THETA_LIKE));
    assert.deepEqual(dragonflyShapeFromConfig(config), THETA_LIKE);
    assert.equal(dragonflyShapeFromConfig(parseCodesConfig('y.conf', 'PARAMS { num_groups="9"; }')), null);
  });

  it('puts link stats on the links and sums them into routers and groups', () => {
    const { topology: t, index } = dragonflyTopology(DFDALLY_72);
    const stats: LinkStats = {
      count: 3,
      srcId: Int32Array.of(0, 0, 0),
      srcIsRouter: Uint8Array.of(1, 1, 0),
      dstId: Int32Array.of(11, 5, 0),
      dstIsRouter: Uint8Array.of(1, 1, 1),
      type: Uint8Array.of(2, 1, 0),
      traffic: Float64Array.of(36864, 10, 81920),
      saturation: Float64Array.of(907, 0, 0),
      stalled: Float64Array.of(1, 0, 0),
    };
    const v = dragonflyLinkValues(t, index, stats);
    assert.equal(v.unmatched, 1, 'router 0 has no local link to router 5 (another group)');
    assert.equal(v.traffic.link[4], 36864, 'port 4 of router 0 is its global link to router 11');
    assert.equal(v.saturation.link[4], 907);
    assert.equal(v.traffic.node[index.routerNode[0]!], 36864);
    assert.equal(v.traffic.node[index.terminalNode[0]!], 81920);
    assert.equal(v.traffic.node[index.groupNode[0]!], 36864, 'groups sum their routers');
  });

  it('sums router busy time per port over the sampling points', () => {
    const { topology: t, index } = dragonflyTopology(DFDALLY_72);
    const busy = new Float64Array(14);
    busy[4] = 900; // router 0, point 1, port 4 (global to router 11)
    busy[7] = 100; // router 0, point 2, port 0 (local to router 1)
    const samples: RouterSamples = {
      count: 2,
      radix: 7,
      lp: Int32Array.of(4, 4),
      router: Int32Array.of(0, 0),
      time: Float64Array.of(10000, 20000),
      endTime: Float64Array.of(10000, 20000),
      forwardEvents: new Float64Array(2),
      reverseEvents: new Float64Array(2),
      busyTime: busy,
      linkTraffic: new Float64Array(14),
      stalledChunks: new Float64Array(14),
      vcOccupancy: new Float64Array(14),
      queuedCount: new Float64Array(14),
    };
    samples.linkTraffic[5] = 4096; // router 0, point 1, port 5 (to terminal 0)
    const traffic = routerLinkTraffic(t, index, samples);
    assert.equal(traffic.link[5], 4096);
    assert.equal(traffic.unit, 'B');
    const terminals = terminalBusyTime(t, index, {
      count: 2,
      rails: 1,
      lp: Int32Array.of(2, 3),
      terminal: Int32Array.of(0, 1),
      time: Float64Array.of(10000, 10000),
      busyTime: Float64Array.of(5, 7),
    } as unknown as TerminalSamples);
    assert.deepEqual([terminals.node[index.terminalNode[0]!], terminals.node[index.terminalNode[1]!]], [5, 7]);
    const v = routerBusyTime(t, index, samples);
    assert.equal(v.node[index.routerNode[0]!], 1000);
    assert.equal(v.link[4], 900);
    assert.equal(v.link[0], 100);
    assert.equal(v.node[index.groupNode[0]!], 1000);
  });
});

const RUN = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random';

describe('dragonfly topology on the shared CODES run', { skip: skipUnlessShared(RUN) }, () => {
  it('matches every one of the 324 link-stats rows, global links included', async () => {
    const stats = await readLinkStats(sharedPath(RUN, 'lp-io/dragonfly-link-stats'));
    assert.equal(stats.count, 324);
    const { topology: t, index } = dragonflyTopology(DFDALLY_72, 'dfdally_72.conf');
    const v = dragonflyLinkValues(t, index, stats);
    assert.equal(v.unmatched, 0);
    let total = 0;
    for (const x of stats.traffic) total += x;
    assert.equal(
      v.traffic.link.reduce((a, b) => a + b, 0),
      total,
    );
  });

  it('takes router busy time from the model samples', async () => {
    const run = await readPdesRun(sharedPath(RUN));
    const shape = dragonflyShapeFromConfig(run.codesConfig!);
    assert.deepEqual(shape, DFDALLY_72);
    const { topology: t, index } = dragonflyTopology(shape!);
    const routers = run.modelSamples!.routers!;
    assert.equal(routers.radix, index.radix);
    const v = routerBusyTime(t, index, routers);
    let total = 0;
    for (const x of routers.busyTime) total += x;
    assert.ok(total > 0);
    assert.ok(Math.abs(v.node[0]! - total) < 1e-6 * total, 'the network root holds the whole busy time');
    // Router 0 was busy on its global port to router 11 at the second point, and on its first local port at the third.
    assert.ok(Math.abs(v.link[4]! - 907.0706634989947) < 1e-9);
    assert.ok(Math.abs(v.link[0]! - 3104.7939036616517) < 1e-9);
  });
});
