/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The timeline as mounted in the webview: the host connection (ready → init → tiles, hover →
 * details, selection → statistics) and the request bookkeeping: every tile or hover request gets a
 * new id and only the answer to the latest one is used, so a slow answer for a window the user
 * already left never replaces a newer frame (the previous frame stays on screen, scaled, meanwhile).
 */
import { useCallback, useRef, useState } from 'react';
import { useEffect } from 'react';
import type {
  TimelineEventDetailsMessage,
  TimelineHighlightMessage,
  TimelineInitMessage,
  TimelineLaneRow,
  TimelineLaneSort,
  TimelineSimulateMessage,
  TimelineTilesMessage,
  TimelineWindow,
  TimelineWindowStatsMessage,
} from '../../../../src/shared/timeline-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { postMessage, useHostMessages } from '../../vscode-api';
import type { FrameCounts } from './tile-render';
import { TimelineView, type TileRequest } from './timeline-view';
import './timeline.css';

export function TimelineApp() {
  const [init, setInit] = useState<TimelineInitMessage | null>(null);
  const [rows, setRows] = useState<TimelineLaneRow[]>([]);
  const [frame, setFrame] = useState<TimelineTilesMessage | null>(null);
  const [details, setDetails] = useState<TimelineEventDetailsMessage['details'] | null>(null);
  const [stats, setStats] = useState<TimelineWindowStatsMessage | null>(null);
  const [highlight, setHighlight] = useState<TimelineHighlightMessage | null>(null);
  const [overlayWindow, setOverlayWindow] = useState<TimelineWindow | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [simulate, setSimulate] = useState<(TimelineSimulateMessage & { seq: number }) | null>(null);
  /** Bumped per trace: the view starts afresh (whole run, no selection) for each one. */
  const [traceSeq, setTraceSeq] = useState(0);
  const lastTiles = useRef(0);
  const lastHover = useRef(0);

  useHostMessages(m => {
    switch (m.type) {
      case 'timeline/init':
        setInit(m);
        setTraceSeq(n => n + 1);
        setRows(m.rows);
        setFrame(null);
        setDetails(null);
        setStats(null);
        setHighlight(null);
        setOverlayWindow(m.overlayWindow);
        setUnavailable(null);
        break;
      case 'timeline/rows':
        setRows(m.rows);
        break;
      case 'timeline/tiles':
        // Only the answer to the latest request: older ones are for a window already left.
        if (m.requestId === lastTiles.current) setFrame(m);
        break;
      case 'timeline/eventDetails':
        if (m.requestId === lastHover.current) setDetails(m.details);
        break;
      case 'timeline/windowStats':
        setStats(m);
        break;
      case 'timeline/highlight':
        setHighlight(m);
        break;
      case 'timeline/overlayWindow':
        setOverlayWindow(m.window);
        break;
      case 'timeline/unavailable':
        setUnavailable(m.message);
        break;
      case 'timeline/simulate':
        setSimulate(s => ({ ...m, seq: (s?.seq ?? 0) + 1 }));
        break;
      default:
        break;
    }
  });
  useEffect(() => postMessage({ type: 'ready', view: 'timeline' }), []);

  const requestTiles = useCallback((req: TileRequest) => {
    const requestId = ++lastTiles.current;
    postMessage({ type: 'timeline/requestTiles', requestId, ...req });
  }, []);
  const requestHover = useCallback((track: number, time: number, depth: number | undefined) => {
    const requestId = ++lastHover.current;
    postMessage({ type: 'timeline/hover', requestId, track, time, depth });
  }, []);
  const clearHover = useCallback(() => {
    lastHover.current++;
    setDetails(null);
  }, []);
  const lanesChanged = useCallback(
    (filter: string, sort: TimelineLaneSort, collapsed: string[]) =>
      postMessage({ type: 'timeline/lanes', filter, sort, collapsed }),
    [],
  );
  const selectWindow = useCallback((window: TimelineWindow, tracks: number[] | null) => {
    setStats(null);
    postMessage({ type: 'timeline/selectWindow', window, tracks });
  }, []);
  const useWindowForOverlays = useCallback(
    (window: TimelineWindow | null, tracks: number[] | null) =>
      postMessage({ type: 'timeline/useWindowForOverlays', window, tracks }),
    [],
  );
  const openSource = useCallback((row: number) => postMessage({ type: 'timeline/openSource', row }), []);
  const rendered = useCallback(
    (c: FrameCounts, requestId: number, window: TimelineWindow) =>
      postMessage({
        type: 'timeline/rendered',
        requestId,
        lanes: c.lanes,
        laneLabels: c.laneLabels,
        groups: c.groups,
        rects: c.rects,
        events: c.events,
        flows: c.flows,
        copies: c.copies,
        window,
      }),
    [],
  );

  if (unavailable)
    return (
      <div className="view-error">
        <ErrorPanel title="No timeline" message={unavailable} />
      </div>
    );
  if (!init) return <StatusMessage title="Loading timeline…" busy />;
  return (
    <TimelineView
      key={traceSeq}
      init={init}
      rows={rows}
      frame={frame}
      details={details}
      stats={stats}
      highlight={highlight}
      overlayWindow={overlayWindow}
      simulate={simulate}
      requestTiles={requestTiles}
      requestHover={requestHover}
      clearHover={clearHover}
      lanesChanged={lanesChanged}
      selectWindow={selectWindow}
      useWindowForOverlays={useWindowForOverlays}
      openSource={openSource}
      rendered={rendered}
    />
  );
}
