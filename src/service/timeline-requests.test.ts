import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Profile } from '../analysis/model/profile';
import { buildLaneTree, visibleRows } from '../analysis/timeline/lanes';
import { eventsOfNode } from '../analysis/timeline/lookup';
import { syntheticTraceProfile } from '../analysis/timeline/testing/synthetic-trace';
import { computeTiles } from '../analysis/timeline/tiles';
import { TimelineIndex } from '../analysis/timeline/timeline-index';
import { profileForWindow, windowStatistics } from '../analysis/timeline/window-stats';
import {
  timelineRequest,
  type TimelineInitResult,
  type TimelineResults,
  type TimelineTilesResult,
  type WindowProfileColumns,
} from './timeline-requests';

const profile = syntheticTraceProfile({
  ranks: 4,
  threadsPerRank: 2,
  streamsPerRank: 2,
  targetEvents: 30_000,
  seed: 11,
});
const index = new TimelineIndex(profile);
const [lo, hi] = profile.trace!.timeRange;
const window = { start: lo + (hi - lo) * 0.3, end: lo + (hi - lo) * 0.45 };
const all = Array.from({ length: index.trackCount }, (_, t) => t);

describe('timeline requests (the analysis worker side)', () => {
  test('init: lane rows of the lane tree, the mini-map over the whole run, sizes', () => {
    const r = timelineRequest(profile, { kind: 'init', minimapWidth: 300 }).result as TimelineInitResult;
    const expected = visibleRows(buildLaneTree(profile.trace!.tracks), new Set());
    assert.deepEqual(
      r.rows.map(x => (x.type === 'lane' ? `L${x.track}:${x.label}` : `G${x.id}`)),
      expected.map(x => (x.type === 'lane' ? `L${x.lane.track}:${x.lane.label}` : `G${x.group.id}`)),
    );
    assert.equal(r.minimap.width, 300);
    assert.equal(r.minimap.tracks.length, index.trackCount);
    assert.deepEqual(r.timeRange, [lo, hi]);
    assert.equal(r.eventCount, profile.trace!.events.track.length);
    assert.equal(r.maxDepth, index.maxDepths);
  });

  test('tiles are computeTiles’ result, with flows, copies and per-depth tiles for depth views', () => {
    const tracks = [0, 1, 2, 3];
    const r = timelineRequest(profile, {
      kind: 'tiles',
      window,
      tracks,
      width: 400,
      depth: 2,
      colourBy: 'function',
      depthViews: [0, 99],
    }).result as TimelineTilesResult;
    const direct = computeTiles(index, { window, tracks, width: 400, depth: 2, colourBy: 'function' });
    assert.deepEqual(r.tiles.key, direct.key);
    assert.deepEqual(r.tiles.busy, direct.busy);
    assert.deepEqual(new Map(r.tiles.names), direct.names);
    assert.deepEqual(
      r.depthViews.map(v => v.track),
      [0],
      'only requested lanes that are on screen',
    );
    assert.equal(r.depthViews[0]!.depths.length, Math.min(index.trackDepths(0), 24));
    assert.deepEqual(
      r.depthViews[0]!.depths[1]!.key,
      computeTiles(index, { window, tracks: [0], width: 400, depth: 1 }).key,
    );
    for (const f of r.flows) assert.ok(tracks.includes(f.fromTrack) || tracks.includes(f.toTrack));
    for (const c of r.copies) assert.ok(tracks.includes(c.track) && c.start < window.end);
  });

  test('window statistics and the windowed profile equal the analysis’ own', () => {
    const stats = timelineRequest(profile, { kind: 'windowStats', window, tracks: null })
      .result as TimelineResults['windowStats'];
    const direct = windowStatistics(index, window);
    assert.deepEqual(stats.functions, direct.functions);
    assert.deepEqual(stats.lanes, direct.lanes);
    assert.deepEqual(stats.bytes, direct.bytes);
    const cols = timelineRequest(profile, { kind: 'profileForWindow', window, tracks: [1, 2] })
      .result as WindowProfileColumns;
    const rebuilt = new Profile({ ...profile.data, ...cols });
    const expected = profileForWindow(index, window, [1, 2]);
    assert.deepEqual(
      rebuilt.metrics.map(m => m.name),
      expected.metrics.map(m => m.name),
    );
    assert.deepEqual(rebuilt.inclusive(0), expected.inclusive(0));
    assert.equal(rebuilt.trace, profile.trace, 'the trace is shared, not copied');
  });

  test('events of several nodes: the union per lane, with their extents', () => {
    const names = profile.tree.columns.name;
    const strings = profile.data.strings;
    const nodes = [0, 1, 2, 3, 4, 5].filter(n => n < profile.tree.size && strings[names[n]!] !== 'main').slice(0, 2);
    const r = timelineRequest(profile, { kind: 'eventsOfNode', nodes, window, tracks: all })
      .result as TimelineResults['eventsOfNode'];
    const ev = profile.trace!.events;
    all.forEach((t, i) => {
      const union = new Set(nodes.flatMap(n => [...eventsOfNode(index, n, window, [t])[0]!]));
      assert.deepEqual(
        [...r.rows[i]!],
        [...union].sort((a, b) => a - b),
      );
      r.rows[i]!.forEach((row, k) => {
        assert.equal(r.spans[i]![2 * k], ev.start[row]);
        assert.equal(r.spans[i]![2 * k + 1], ev.start[row]! + ev.duration[row]!);
      });
    });
  });

  test('hover: the frame at the asked depth, else the innermost; nothing in a gap', () => {
    const t = 0;
    const ev = profile.trace!.events;
    const row = index.rows[index.groupStart[index.trackGroup[t]!]!]!;
    const time = ev.start[row]! + ev.duration[row]! / 2;
    const at0 = timelineRequest(profile, { kind: 'hover', track: t, time, depth: 0 })
      .result as TimelineResults['hover'];
    assert.equal(at0!.row, row);
    const deep = timelineRequest(profile, { kind: 'hover', track: t, time, depth: 50 })
      .result as TimelineResults['hover'];
    assert.ok(deep && deep.depth >= 0 && deep.start <= time && time < deep.start + Math.max(1, deep.duration));
    assert.equal(timelineRequest(profile, { kind: 'hover', track: t, time: hi + 1e9 }).result, null);
  });

  test('rows: filter and sort go through the lane tree', () => {
    const r = timelineRequest(profile, { kind: 'rows', filter: 'stream*', sort: { by: 'name' }, collapsed: [] })
      .result as TimelineResults['rows'];
    const lanes = r.filter(x => x.type === 'lane');
    assert.ok(lanes.length > 0 && lanes.every(l => l.kind === 'gpu-stream'), lanes.map(l => l.label).join());
    const folded = timelineRequest(profile, {
      kind: 'rows',
      filter: '',
      sort: { by: 'display' },
      collapsed: [r[0]!.id],
    }).result as TimelineResults['rows'];
    assert.equal(folded[0]!.type === 'group' && folded[0]!.collapsed, true);
    assert.notEqual(folded[1]!.type === 'lane' && folded[1]!.level === 1, true, 'a collapsed group hides its lanes');
  });
});
