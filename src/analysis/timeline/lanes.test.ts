import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourIndex, colourOf, CATEGORICAL_PALETTE, fnv1a } from './colors';
import {
  buildLaneTree,
  clusterLaneGroups,
  CLUSTER_BAND_UNIT,
  CLUSTER_MIN_ROW,
  CLUSTER_REPRESENTATIVE_HEIGHT,
  filterLanes,
  flattenLanes,
  laneMatcher,
  laneTitles,
  sortLanes,
  visibleRows,
} from './lanes';
import type { TraceTrack } from '../model/trace';
import { syntheticTraceProfile } from './testing/synthetic-trace';
import { TimelineIndex } from './timeline-index';

const profile = syntheticTraceProfile({
  ranks: 12,
  threadsPerRank: 2,
  streamsPerRank: 2,
  targetEvents: 20_000,
  stragglerRank: 7,
});
const ix = new TimelineIndex(profile);
const tree = buildLaneTree(profile.trace!.tracks);

describe('timeline lanes', () => {
  it('group threads under their rank and streams under their GPU device, with stable unique ids', () => {
    assert.equal(tree.length, 12);
    const r3 = tree[3]!;
    assert.equal(r3.label, 'rank 3');
    assert.deepEqual(
      r3.lanes.map(l => l.label),
      ['thread 0 (main)', 'thread 1 (omp)'],
    );
    assert.equal(r3.groups.length, 1);
    assert.equal(r3.groups[0]!.kind, 'gpu-device');
    assert.equal(r3.groups[0]!.label, 'GPU 3');
    assert.deepEqual(
      r3.groups[0]!.lanes.map(l => l.label),
      ['stream 0', 'stream 1'],
    );
    const ids = flattenLanes(tree).map(l => l.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, profile.trace!.tracks.length);
    assert.deepEqual(
      buildLaneTree(profile.trace!.tracks).map(g => g.id),
      tree.map(g => g.id),
      'ids are a function of the tracks',
    );
  });

  it('title each lane on one line: process, then lane, or the process alone for its only unnamed lane', () => {
    const titles = laneTitles(profile.trace!.tracks);
    const t3 = tree[3]!;
    assert.equal(titles[t3.lanes[1]!.track], 'rank 3 · thread 1 (omp)');
    assert.equal(titles[t3.groups[0]!.lanes[1]!.track], 'rank 3 · stream 1');
    const track = (process: string, name: string, tid = ''): TraceTrack => ({
      ...{ kind: 'thread', pid: process, tid, rank: -1, thread: -1, gpuDevice: -1, gpuStream: -1, context: 0 },
      ...{ sortIndex: 0, name, process },
    });
    assert.deepEqual(laneTitles([track('rank 0', ''), track('rank 1', 'main'), track('rank 2', 'thread 0', '0')]), [
      'rank 0',
      'rank 1',
      'rank 2 · thread 0',
    ]);
    assert.deepEqual(laneTitles([track('p', 'x'), track('p', 'x')]), ['p · x', 'p · x #2'], 'repeated titles numbered');
  });

  it('collapse to group headers', () => {
    const rows = visibleRows(tree, new Set([tree[0]!.id, tree[1]!.groups[0]!.id]));
    assert.deepEqual(
      rows.slice(0, 4).map(r => (r.type === 'group' ? `G ${r.group.label} ${r.collapsed}` : `L ${r.lane.label}`)),
      ['G rank 0 true', 'G rank 1 false', 'L thread 0 (main)', 'L thread 1 (omp)'],
    );
    assert.equal(rows[4]!.type === 'group' && rows[4]!.collapsed, true);
  });

  it('filter by substring or glob, keeping whole groups whose label matches', () => {
    assert.deepEqual(flattenLanes(filterLanes(tree, 'rank 1?')).map(l => l.track).length, 2 * 4, 'ranks 10 and 11');
    const streams = flattenLanes(filterLanes(tree, '*stream 1'));
    assert.equal(streams.length, 12);
    assert.ok(streams.every(l => l.label === 'stream 1'));
    assert.equal(flattenLanes(filterLanes(tree, 'OMP')).length, 12, 'case-insensitive substring');
    assert.equal(filterLanes(tree, 'nothing like this').length, 0);
    assert.ok(laneMatcher('rank ?')('rank 5') && !laneMatcher('rank ?')('rank 15'));
  });

  it("sort by name, busy time and a node's time, within groups", () => {
    const byName = sortLanes(tree, ix, { by: 'name' });
    assert.deepEqual(
      byName.slice(0, 3).map(g => g.label),
      ['rank 0', 'rank 1', 'rank 2'],
      'natural order',
    );
    const byBusy = sortLanes(tree, ix, { by: 'busy' });
    for (const g of byBusy) {
      const b = g.lanes.map(l => ix.busy(l.track, 0, Infinity));
      for (let i = 1; i < b.length; i++) assert.ok(b[i - 1]! >= b[i]!);
    }
    const computeNode = profile.tree.columns.name.findIndex(id => profile.data.strings[id] === 'compute_stencil');
    const byNode = sortLanes(tree, ix, { by: 'node', node: computeNode });
    assert.equal(byNode[0]!.label, 'rank 7', 'the straggler computes longest');
    assert.equal(byNode[0]!.lanes[0]!.label, 'thread 0 (main)');
    assert.throws(() => sortLanes(tree, ix, { by: 'node', node: 1e9 }), /no call-tree node/);
  });
});

describe('colours', () => {
  it('depend only on the name and stay in the palette', () => {
    assert.equal(colourOf('MPI_Send'), colourOf('MPI_Send'));
    // FNV-1a 32-bit reference vectors.
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(colourIndex('MPI_Send'), 0x85098f2a % CATEGORICAL_PALETTE.length);
    const used = new Set(
      ['a', 'b', 'c', 'MPI_Recv', 'MPI_Send', 'compute', 'stencil_kernel', 'memcpy', 'io', 'x'].map(n =>
        colourIndex(n),
      ),
    );
    assert.ok(used.size >= 6, 'names spread over the palette');
    assert.ok(CATEGORICAL_PALETTE.includes(colourOf('')));
  });
});

describe('lanes grouped by cluster (trace analysis)', () => {
  const all = flattenLanes(tree).map(l => l.track);
  const titles = laneTitles(profile.trace!.tracks);
  it('one group per cluster, representative first at full height, members sharing a log₂(n + 1) band', () => {
    const big = all.slice(0, 40),
      small = all.slice(40, 43);
    const groups = clusterLaneGroups(
      tree,
      [
        { label: 'A', tracks: big, weight: Math.log2(big.length + 1) },
        { label: 'B', tracks: small, weight: Math.log2(small.length + 1) },
      ],
      titles,
    );
    assert.deepEqual(
      groups.map(g => g.kind),
      ['cluster', 'cluster', 'cluster'],
    );
    const [a, b, rest] = groups;
    assert.equal(a!.lanes[0]!.track, big[0]);
    assert.match(a!.lanes[0]!.label, /\(representative\)$/);
    assert.equal(a!.lanes[0]!.height, CLUSTER_REPRESENTATIVE_HEIGHT);
    for (const g of [a!, b!]) {
      const band = g.lanes.reduce((s, l) => s + l.height!, 0);
      const n = g === a ? big.length : small.length;
      assert.ok(Math.abs(band - Math.max(CLUSTER_REPRESENTATIVE_HEIGHT, CLUSTER_BAND_UNIT * Math.log2(n + 1))) < 1e-6);
      assert.ok(
        g.lanes.every(l => l.height! >= CLUSTER_MIN_ROW),
        'no row thinner than the minimum',
      );
    }
    // 40 lanes in a 128 px band: as many as fit at the minimum row, and the label says so.
    assert.ok(a!.lanes.length < big.length);
    assert.match(a!.label, /\(\d+ of 40 drawn\)$/);
    assert.equal(rest!.lanes.length, all.length - 43, 'lanes in no cluster follow');
  });
});
