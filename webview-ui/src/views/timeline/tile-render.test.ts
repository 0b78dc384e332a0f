import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { colourOf } from '../../../../src/analysis/timeline/colors';
import { syntheticTraceProfile } from '../../../../src/analysis/timeline/testing/synthetic-trace';
import {
  timelineRequest,
  type TimelineInitResult,
  type TimelineTilesResult,
} from '../../../../src/service/timeline-requests';
import { layoutLanes, visibleRange } from './lane-layout';
import { RecordingContext } from './recording-context';
import { columnsToPixels, drawFrame, fitText, legendEntries, textColourOn, tileRuns } from './tile-render';
import { readCanvasTheme } from './timeline-view';

describe('tile rendering', () => {
  test('runs merge equal columns and skip idle ones', () => {
    const key = Int32Array.from([3, 3, 3, -1, 5, 5, 3, 3]);
    const busy = Float32Array.from([1, 1, 0.95, 0, 0.5, 0.55, 1, 0.1]);
    assert.deepEqual(
      tileRuns(key, busy, 0, 8).map(r => [r.c0, r.c1, r.key]),
      [
        [0, 3, 3],
        [4, 6, 5],
        [6, 7, 3],
        [7, 8, 3],
      ],
    );
    assert.ok(Math.abs(tileRuns(key, busy, 0, 8)[1]!.busy - 0.525) < 1e-6);
    assert.deepEqual(
      tileRuns(key, busy, 4, 2).map(r => [r.c0, r.c1]),
      [[0, 2]],
      'offset selects a lane',
    );
  });

  test('tile columns map through their own window (the previous frame drawn scaled while panning)', () => {
    const tiles = { window: { start: 1000, end: 2000 }, width: 100 };
    assert.deepEqual(columnsToPixels(tiles, 0, 100, { start: 1000, end: 2000 }, 500), [0, 500]);
    // The view zoomed in 2× about the middle before new tiles came: columns 25…75 fill the plot.
    assert.deepEqual(columnsToPixels(tiles, 25, 75, { start: 1250, end: 1750 }, 500), [0, 500]);
    // Panned right by a quarter: the frame's left part is off screen.
    assert.deepEqual(columnsToPixels(tiles, 0, 100, { start: 1250, end: 2250 }, 500), [-125, 375]);
  });

  test('labels fit or are ellipsised; text colour contrasts with the fill', () => {
    const ctx = new RecordingContext();
    assert.equal(fitText(ctx, 'MPI_Allreduce', 200), 'MPI_Allreduce');
    assert.equal(fitText(ctx, 'MPI_Allreduce', 30), 'MPI_…');
    assert.equal(fitText(ctx, 'MPI_Allreduce', 5), '');
    assert.equal(textColourOn('#edc948'), '#1e1e1e');
    assert.equal(textColourOn('#4e79a7'), '#ffffff');
  });

  test('a frame from the worker draws every visible lane in the names’ stable colours', () => {
    const profile = syntheticTraceProfile({
      ranks: 4,
      threadsPerRank: 2,
      streamsPerRank: 2,
      targetEvents: 20_000,
      seed: 3,
    });
    const init = timelineRequest(profile, { kind: 'init', minimapWidth: 256 }).result as TimelineInitResult;
    const layout = layoutLanes(init.rows);
    const range = visibleRange(layout, 0, layout.height);
    const tracks = init.rows.flatMap(r => (r.type === 'lane' ? [r.track] : []));
    const [lo, hi] = init.timeRange;
    const view = { start: lo, end: hi };
    const frame = timelineRequest(profile, {
      kind: 'tiles',
      window: view,
      tracks,
      width: 600,
      depth: 1,
      colourBy: 'function',
      depthViews: [],
    }).result as TimelineTilesResult;
    const ctx = new RecordingContext();
    const counts = drawFrame(ctx, {
      width: 600,
      height: layout.height,
      scrollTop: 0,
      layout,
      range,
      view,
      frame: { ...frame },
      theme: readCanvasTheme(),
      showFlows: true,
      highlight: null,
      selection: null,
    });
    assert.equal(counts.lanes, tracks.length);
    assert.deepEqual(
      counts.laneLabels,
      init.rows.flatMap(r => (r.type === 'lane' ? [r.label] : [])),
    );
    assert.equal(counts.groups, init.rows.length - tracks.length);
    assert.ok(counts.rects > tracks.length, `${counts.rects} runs`);
    // Every tile colour is the palette colour of a name in the frame.
    const allowed = new Set(frame.tiles.names.map(([, n]) => colourOf(n)));
    const tileFills = ctx.fills.filter(f => f.alpha < 1 || allowed.has(f.fill));
    assert.ok(tileFills.length >= counts.rects);
    for (const f of ctx.fills.filter(f => f.alpha !== 1 && f.alpha !== 0.6 && f.alpha !== 0.35))
      assert.ok(allowed.has(f.fill), f.fill);
    assert.equal(counts.copies, frame.copies.length);
    assert.ok(counts.copies > 0, 'the synthetic trace copies host↔device');
    // Zoomed far in, lanes are drawn as their events, with names where they fit.
    const mid = (lo + hi) / 2;
    const zoomed = { start: mid, end: mid + (hi - lo) / 2000 };
    const near = timelineRequest(profile, {
      kind: 'tiles',
      window: zoomed,
      tracks,
      width: 600,
      depth: 3,
      colourBy: 'function',
      depthViews: [],
    }).result as TimelineTilesResult;
    const ctx2 = new RecordingContext();
    const c2 = drawFrame(ctx2, {
      width: 600,
      height: layout.height,
      scrollTop: 0,
      layout,
      range,
      view: zoomed,
      frame: near,
      theme: readCanvasTheme(),
      showFlows: true,
      highlight: null,
      selection: null,
    });
    assert.ok(c2.events > 0);
    assert.ok(
      ctx2.texts.length > 0 &&
        ctx2.texts.every(t =>
          near.tiles.names.some(([, n]) => t.text === n || (t.text.endsWith('…') && n.startsWith(t.text.slice(0, -1)))),
        ),
      ctx2.texts.map(t => t.text).join(),
    );
    assert.equal(
      c2.flows,
      near.flows.filter(f => layout.byTrack.has(f.fromTrack) && layout.byTrack.has(f.toTrack)).length,
    );
  });

  test('a highlight outlines the events it lists; a selection shades its range', () => {
    const layout = layoutLanes([{ type: 'lane', id: 'a', track: 0, label: 'main', kind: 'thread', level: 0 }]);
    const ctx = new RecordingContext();
    const counts = drawFrame(ctx, {
      width: 1000,
      height: 100,
      scrollTop: 0,
      layout,
      range: [0, 1],
      view: { start: 0, end: 1000 },
      frame: null,
      theme: readCanvasTheme(),
      showFlows: false,
      highlight: { tracks: [0], spans: [Float64Array.from([100, 200, 500, 700])] },
      selection: { start: 250, end: 750 },
    });
    assert.equal(counts.highlighted, 2);
    assert.equal(ctx.strokes[1]!.x, 500.75);
    const shade = ctx.fills.find(f => f.alpha === 0.22)!;
    assert.deepEqual([shade.x, shade.w], [250, 500]);
  });

  test('the legend lists the keys covering the most columns first', () => {
    const tiles = {
      window: { start: 0, end: 100 },
      width: 4,
      depth: 0,
      colourBy: 'function' as const,
      tracks: Int32Array.from([0, 1]),
      key: Int32Array.from([7, 7, 7, 2, 2, -1, -1, 9]),
      share: new Float32Array(8),
      busy: new Float32Array(8).fill(1),
      detail: new Uint8Array(2),
      events: {
        laneStart: Int32Array.from([0, 0, 0]),
        row: new Int32Array(0),
        start: new Float64Array(0),
        duration: new Float64Array(0),
        depth: new Int32Array(0),
        kind: new Uint8Array(0),
        key: new Int32Array(0),
        node: new Int32Array(0),
      },
      names: [
        [7, 'solve'],
        [2, 'MPI_Wait'],
        [9, 'io'],
      ] as [number, string][],
    };
    assert.deepEqual(
      legendEntries(tiles).map(e => [e.name, e.columns]),
      [
        ['solve', 3],
        ['MPI_Wait', 2],
        ['io', 1],
      ],
    );
  });
});
