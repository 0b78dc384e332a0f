/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { syntheticTraceProfile } from '../../../../src/analysis/timeline/testing/synthetic-trace';
import { timelineRequest, type TimelineInitResult } from '../../../../src/service/timeline-requests';
import type { TimelineInitMessage, TimelineWindowStatsMessage } from '../../../../src/shared/timeline-protocol';
import { TimelineView, type TimelineViewProps } from './timeline-view';
import { WindowStatsPanel } from './window-stats-panel';
import { minimapColumns } from './minimap';

const profile = syntheticTraceProfile({
  ranks: 3,
  threadsPerRank: 2,
  streamsPerRank: 2,
  targetEvents: 10_000,
  seed: 5,
});
const r = timelineRequest(profile, { kind: 'init', minimapWidth: 200 }).result as TimelineInitResult;
const init: TimelineInitMessage = { type: 'timeline/init', title: 'synthetic.json', ...r, overlayWindow: null };
const noop = () => undefined;
const props: TimelineViewProps = {
  init,
  rows: init.rows,
  frame: null,
  details: null,
  stats: null,
  highlight: null,
  overlayWindow: null,
  requestTiles: noop,
  requestHover: noop,
  clearHover: noop,
  lanesChanged: noop,
  selectWindow: noop,
  useWindowForOverlays: noop,
  openSource: noop,
  size: { width: 1200, height: 500 },
};
const count = (html: string, re: RegExp) => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

describe('TimelineView (server-rendered)', () => {
  const html = renderToStaticMarkup(<TimelineView {...props} />);

  test('one header per visible row: collapsible groups and lanes with their names', () => {
    const lanes = init.rows.filter(x => x.type === 'lane');
    const groups = init.rows.filter(x => x.type === 'group');
    assert.equal(count(html, /class="timeline-lane-header/), lanes.length);
    assert.equal(count(html, /class="timeline-group"/), groups.length);
    assert.equal(count(html, /aria-expanded="true"/), groups.length);
    for (const l of lanes) assert.ok(html.includes(`data-track="${l.track}"`));
    assert.match(html, /rank 0/);
    assert.match(html, /stream 0/);
    assert.equal(
      count(html, /<canvas[^>]*class="timeline-canvas"/),
      1,
      'one canvas for every lane, never a node per event',
    );
  });

  test('toolbar: filter, sort, colour, depth, flows, zoom — all labelled controls', () => {
    for (const label of [
      'Filter lanes by name or glob',
      'Sort lanes',
      'Colour by',
      'Call depth',
      'Zoom in',
      'Zoom out',
    ])
      assert.ok(html.includes(`aria-label="${label}"`), label);
    assert.match(html, /Flows/);
    assert.match(html, new RegExp(`${init.trackCount} lanes · ${init.eventCount.toLocaleString('en-US')} events`));
    assert.match(html, /role="slider"[^>]*aria-label="Mini-map/);
  });

  test('the overlay banner shows while the editor follows a window', () => {
    const w = { start: 1_000_000, end: 2_500_000 };
    const withWindow = renderToStaticMarkup(<TimelineView {...props} overlayWindow={w} />);
    assert.match(withWindow.replaceAll('<!-- -->', ''), /Editor overlays show the window 1\.00–2\.50 ms only/);
    assert.match(withWindow, />Use Whole Run</);
  });

  test('window statistics: function table with bars, busy per lane, bytes, overlay buttons', () => {
    const window = { start: r.timeRange[0], end: (r.timeRange[0] + r.timeRange[1]) / 2 };
    const stats = {
      type: 'timeline/windowStats',
      ...(timelineRequest(profile, { kind: 'windowStats', window, tracks: null }).result as object),
    } as TimelineWindowStatsMessage;
    const panel = renderToStaticMarkup(
      <WindowStatsPanel
        window={window}
        stats={stats}
        laneLabel={t => `lane ${t}`}
        overlayWindow={null}
        onUse={noop}
        onWholeRun={noop}
        onZoom={noop}
        onClose={noop}
      />,
    );
    assert.equal(count(panel, /<tr data-function=/), Math.min(25, stats.functions.length));
    assert.match(panel, new RegExp(`data-function="${stats.functions[0]!.name}"`), 'largest first');
    assert.equal(count(panel, /class="timeline-bar"/), Math.min(25, stats.functions.length));
    assert.match(panel, />Use This Window for Overlays</);
    assert.match(panel, /host-to-device/);
    assert.doesNotMatch(panel, /Use Whole Run/);
  });

  test('the mini-map profile: mean busy over lanes per column, coloured by the dominant key', () => {
    const cols = minimapColumns(init.minimap);
    assert.equal(cols.length, 200);
    const lanes = init.minimap.tracks.length;
    for (const c of [0, 57, 199]) {
      let busy = 0;
      for (let i = 0; i < lanes; i++) busy += init.minimap.busy[i * 200 + c]!;
      assert.ok(Math.abs(cols[c]!.busy - busy / lanes) < 1e-6);
    }
    assert.ok(cols.some(c => c.key >= 0));
  });
});
