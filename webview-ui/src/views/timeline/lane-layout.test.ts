import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimelineLaneRow } from '../../../../src/shared/timeline-protocol';
import {
  DEPTH_ROW_HEIGHT,
  GROUP_HEIGHT,
  LANE_HEIGHT,
  depthAt,
  layoutLanes,
  rowIndexAt,
  tracksIn,
  visibleRange,
} from './lane-layout';

const rows: TimelineLaneRow[] = [
  { type: 'group', id: 'p:rank 0', label: 'rank 0', kind: 'process', level: 0, collapsed: false },
  { type: 'lane', id: 'a', track: 0, label: 'main', kind: 'thread', level: 1 },
  { type: 'lane', id: 'b', track: 1, label: 'omp 1', kind: 'thread', level: 1 },
  { type: 'group', id: 'p:rank 0/gpu:0', label: 'GPU 0', kind: 'gpu-device', level: 1, collapsed: false },
  { type: 'lane', id: 'c', track: 2, label: 'stream 7', kind: 'gpu-stream', level: 2 },
];

describe('lane layout', () => {
  test('stacks groups and lanes; a depth view is one row per depth', () => {
    const plain = layoutLanes(rows);
    assert.deepEqual(
      plain.rows.map(r => r.y),
      [0, GROUP_HEIGHT, GROUP_HEIGHT + LANE_HEIGHT, GROUP_HEIGHT + 2 * LANE_HEIGHT, 2 * GROUP_HEIGHT + 2 * LANE_HEIGHT],
    );
    assert.equal(plain.height, 2 * GROUP_HEIGHT + 3 * LANE_HEIGHT);
    const deep = layoutLanes(rows, new Map([[1, 5]]));
    assert.equal(deep.byTrack.get(1)!.depthRows, 5);
    assert.equal(deep.byTrack.get(1)!.height, 5 * DEPTH_ROW_HEIGHT + 4);
    assert.equal(deep.height, plain.height - LANE_HEIGHT + 5 * DEPTH_ROW_HEIGHT + 4);
  });

  test('hit testing finds the row under y, and the depth inside a depth view', () => {
    const l = layoutLanes(rows, new Map([[1, 5]]));
    assert.equal(rowIndexAt(l, 0), 0);
    assert.equal(rowIndexAt(l, GROUP_HEIGHT - 0.5), 0);
    assert.equal(rowIndexAt(l, GROUP_HEIGHT), 1);
    assert.equal(rowIndexAt(l, l.height), -1);
    assert.equal(rowIndexAt(l, -1), -1);
    const dv = l.byTrack.get(1)!;
    assert.equal(depthAt(dv, dv.y + 2 + 3 * DEPTH_ROW_HEIGHT + 1), 3);
    assert.equal(depthAt(dv, dv.y + dv.height + 40), 4, 'clamped to the deepest row');
    assert.equal(depthAt(l.byTrack.get(0)!, 30), undefined);
  });

  test('only the lanes in the scrolled viewport (plus overscan) are asked for', () => {
    const many: TimelineLaneRow[] = Array.from({ length: 1000 }, (_, t) => ({
      type: 'lane',
      id: `l${t}`,
      track: t,
      label: `rank ${t}`,
      kind: 'thread',
      level: 0,
    }));
    const l = layoutLanes(many);
    const range = visibleRange(l, 100 * LANE_HEIGHT, 10 * LANE_HEIGHT, 2);
    assert.deepEqual(range, [98, 112]);
    assert.deepEqual(
      tracksIn(l, range),
      Array.from({ length: 14 }, (_, i) => 98 + i),
    );
    assert.deepEqual(visibleRange(l, 0, 3 * LANE_HEIGHT, 0), [0, 3]);
    assert.deepEqual(visibleRange(layoutLanes([]), 0, 100), [0, 0]);
  });
});

describe('lanes with their own height (cluster bands)', () => {
  test('stack without overlap at the heights the host gave', () => {
    const rows: TimelineLaneRow[] = [
      { type: 'group', id: 'cluster:0', label: '#0', kind: 'cluster', level: 0, collapsed: false },
      ...[24, 3, 3.5, 3].map((height, i): TimelineLaneRow => ({
        type: 'lane',
        id: `l${i}`,
        track: i,
        label: `rank ${i}`,
        kind: 'thread',
        level: 1,
        height,
      })),
    ];
    const l = layoutLanes(rows);
    assert.deepEqual(
      l.rows.map(r => r.height),
      [GROUP_HEIGHT, 24, 3, 3.5, 3],
    );
    l.rows.forEach((r, i) => i && assert.equal(r.y, l.rows[i - 1]!.y + l.rows[i - 1]!.height));
  });
});
