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
import {
  TIMELINE_HOST_TO_VIEW_TYPES,
  type TimelineAnalysisInfo,
  type TimelineEventDetailsMessage,
  type TimelineHighlightMessage,
  type TimelineHostToView,
  type TimelineInitMessage,
  type TimelineLaneRow,
  type TimelineLaneSort,
  type TimelineTilesMessage,
  type TimelineViewToHost,
  type TimelineWindow,
  type TimelineWindowStatsMessage,
} from '../../../../src/shared/timeline-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { postMessage, useHostMessages } from '../../vscode-api';
import { TimelineView, type ShownWindow, type TileRequest } from './timeline-view';
import './timeline.css';

/** Sends a message of the timeline view's protocol to the host. */
const post = (m: TimelineViewToHost) => postMessage(m);

export function TimelineApp() {
  const [init, setInit] = useState<TimelineInitMessage | null>(null);
  const [rows, setRows] = useState<TimelineLaneRow[]>([]);
  const [frame, setFrame] = useState<TimelineTilesMessage | null>(null);
  const [details, setDetails] = useState<TimelineEventDetailsMessage['details'] | null>(null);
  const [stats, setStats] = useState<TimelineWindowStatsMessage | null>(null);
  const [highlight, setHighlight] = useState<TimelineHighlightMessage | null>(null);
  const [overlayWindow, setOverlayWindow] = useState<TimelineWindow | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [analysis, setAnalysis] = useState<TimelineAnalysisInfo | null>(null);
  const [shownWindow, setShownWindow] = useState<ShownWindow | null>(null);
  /** Bumped per trace: the view starts afresh (whole run, no selection) for each one. */
  const [traceSeq, setTraceSeq] = useState(0);
  const lastTiles = useRef(0);
  const lastHover = useRef(0);

  useHostMessages<TimelineHostToView>(TIMELINE_HOST_TO_VIEW_TYPES, m => {
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
      case 'timeline/analysis':
        setAnalysis(m.analysis);
        break;
      case 'timeline/showWindow':
        setShownWindow(w => ({ window: m.window, tracks: m.tracks, label: m.label, seq: (w?.seq ?? 0) + 1 }));
        break;
      case 'timeline/unavailable':
      case 'error':
        setUnavailable(m.message);
        break;
      default:
        assertNever(m, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'timeline' }), []);

  const requestTiles = useCallback((req: TileRequest) => {
    const requestId = ++lastTiles.current;
    post({ type: 'timeline/requestTiles', requestId, ...req });
  }, []);
  const requestHover = useCallback((track: number, time: number, depth: number | undefined) => {
    const requestId = ++lastHover.current;
    post({ type: 'timeline/hover', requestId, track, time, depth });
  }, []);
  const clearHover = useCallback(() => {
    lastHover.current++;
    setDetails(null);
  }, []);
  const lanesChanged = useCallback(
    (filter: string, sort: TimelineLaneSort, collapsed: string[]) =>
      post({ type: 'timeline/lanes', filter, sort, collapsed }),
    [],
  );
  const selectWindow = useCallback((window: TimelineWindow, tracks: number[] | null) => {
    setStats(null);
    post({ type: 'timeline/selectWindow', window, tracks });
  }, []);
  const useWindowForOverlays = useCallback(
    (window: TimelineWindow | null, tracks: number[] | null) =>
      post({ type: 'timeline/useWindowForOverlays', window, tracks }),
    [],
  );
  const openSource = useCallback((row: number) => post({ type: 'timeline/openSource', row }), []);
  const analyse = useCallback(() => post({ type: 'timeline/analyse' }), []);
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
      requestTiles={requestTiles}
      requestHover={requestHover}
      clearHover={clearHover}
      lanesChanged={lanesChanged}
      selectWindow={selectWindow}
      useWindowForOverlays={useWindowForOverlays}
      openSource={openSource}
      analysis={analysis}
      shownWindow={shownWindow}
      analyse={analyse}
    />
  );
}
