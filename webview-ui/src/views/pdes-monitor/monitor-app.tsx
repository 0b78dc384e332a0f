/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The live PDES monitor as mounted in the webview: keeps every tick's summary point, the newest tick,
 * and the views' data of the latest refresh. After ticks arrive it asks for one refresh at a time,
 * so drawing keeps pace with the worker, never with the stream (a fast replay skips frames, not ticks).
 */
import { useEffect, useRef, useState } from 'react';
import type { PdesTickUpdate } from '../../../../src/analysis/pdes/stream/stream-analyser';
import {
  PDES_MONITOR_HOST_TO_VIEW_TYPES,
  type MonitorSourceInfo,
  type MonitorTickPoint,
  type PdesMonitorHostToView,
  type PdesMonitorViewToHost,
} from '../../../../src/shared/pdes-monitor-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { useElementSize } from '../../components/use-element-size';
import { postMessage, useHostMessages } from '../../vscode-api';
import { MonitorView, type MonitorState } from './monitor-view';
import './pdes-monitor.css';

const post = (m: PdesMonitorViewToHost) => postMessage(m);
type Views = Extract<PdesMonitorHostToView, { type: 'monitor/views' }>;

export function PdesMonitorApp() {
  const [info, setInfo] = useState<MonitorSourceInfo | null>(null);
  const [state, setState] = useState<MonitorState>('waiting');
  const [points, setPoints] = useState<MonitorTickPoint[]>([]);
  const [latest, setLatest] = useState<PdesTickUpdate | null>(null);
  const [views, setViews] = useState<Views | null>(null);
  const [selection, setSelection] = useState<{ entities: number[]; reason: string } | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [endReason, setEndReason] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [granularity, setGranularity] = useState<'pe' | 'kp'>('pe');
  const [direction, setDirection] = useState<'from' | 'to'>('from');
  const inFlight = useRef<number | null>(null);
  const stale = useRef(false);
  const nextId = useRef(0);
  const options = useRef({ granularity, direction });
  options.current = { granularity, direction };

  const refresh = () => {
    if (inFlight.current !== null) {
      stale.current = true;
      return;
    }
    stale.current = false;
    inFlight.current = ++nextId.current;
    post({
      type: 'monitor/refresh',
      requestId: inFlight.current,
      causalityDirection: options.current.direction,
      granularity: options.current.granularity,
    });
  };

  useHostMessages<PdesMonitorHostToView>(PDES_MONITOR_HOST_TO_VIEW_TYPES, m => {
    switch (m.type) {
      case 'monitor/started':
        // A new source, or the page reloaded: the host sends everything again after this.
        setInfo(m.info);
        setState('live');
        setPoints([]);
        setLatest(null);
        setViews(null);
        setSelection(null);
        setNotices([]);
        setFailure(null);
        setEndReason(null);
        setError(null);
        inFlight.current = null;
        return;
      case 'monitor/history':
        setPoints(m.points);
        refresh();
        return;
      case 'monitor/ticks':
        if (m.points.length)
          setPoints(prev => {
            const last = prev.at(-1)?.tick ?? -1;
            return [...prev, ...m.points.filter(p => p.tick > last)];
          });
        setLatest(m.latest);
        refresh();
        return;
      case 'monitor/views':
        if (m.requestId === inFlight.current) {
          inFlight.current = null;
          setViews(m);
          if (stale.current) refresh();
        }
        return;
      case 'monitor/selection':
        setSelection({ entities: m.entities, reason: m.reason });
        return;
      case 'monitor/paused':
        setState(m.paused ? 'paused' : 'live');
        return;
      case 'monitor/notice':
        setNotices(n => [...n.slice(-20), m.message]);
        return;
      case 'monitor/failed':
        setFailure(m.message);
        setState('failed');
        return;
      case 'monitor/ended':
        setEndReason(`${m.reason} after ${m.ticks} ticks`);
        setState(s => (s === 'failed' ? s : 'ended'));
        refresh();
        return;
      case 'error':
        setError(m.message);
        return;
      default:
        assertNever(m, 'message from the host');
    }
  });

  useEffect(() => post({ type: 'ready', view: 'pdes-monitor' }), []);
  // A changed option asks again at once.
  useEffect(() => {
    if (info) refresh();
  }, [granularity, direction]);

  const left = useRef<HTMLDivElement>(null);
  const size = useElementSize(left);
  const width = Math.max(240, (size?.width ?? 900) / 2 - 40);
  if (error) return <ErrorPanel title="The PDES monitor could not start" message={error} />;
  return (
    <div ref={left} className="pdes-monitor-root">
      <MonitorView
        info={info}
        state={state}
        points={points}
        latest={latest}
        top={views?.top ?? null}
        bottom={views?.bottom ?? null}
        matrix={views?.matrix ?? null}
        causality={views?.causality ?? []}
        selection={selection}
        notices={notices}
        failure={failure}
        endReason={endReason}
        granularity={granularity}
        direction={direction}
        sizes={{
          behaviour: { width, height: 150 },
          summary: { width, height: 56 },
          scatter: { width, height: Math.min(260, width) },
          matrix: Math.min(width - 70, 320),
        }}
        onPause={() => post({ type: 'monitor/pause' })}
        onResume={() => post({ type: 'monitor/resume' })}
        onStop={() => post({ type: 'monitor/stop' })}
        onGranularity={setGranularity}
        onDirection={setDirection}
        onLasso={polygon => post({ type: 'monitor/lasso', view: 'top', polygon })}
        onShow={changePoint => post({ type: 'monitor/show', changePoint })}
        onClearSelection={() => setSelection(null)}
      />
    </div>
  );
}
