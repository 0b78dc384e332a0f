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
  type MonitorViewOptions,
  type PdesMonitorHostToView,
  type PdesMonitorViewToHost,
} from '../../../../src/shared/pdes-monitor-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { useElementSize } from '../../components/use-element-size';
import { postMessage, useHostMessages } from '../../vscode-api';
import { MonitorView, type MonitorSelection, type MonitorState } from './monitor-view';
import './pdes-monitor.css';

const post = (m: PdesMonitorViewToHost) => postMessage(m);
const DEFAULT_OPTIONS: MonitorViewOptions = {
  granularity: 'pe',
  drill: null,
  causalityDirection: 'from',
  causalitySort: 'metric',
  bottomMetric: null,
  baseTick: null,
};
type Views = Extract<PdesMonitorHostToView, { type: 'monitor/views' }>;

export function PdesMonitorApp() {
  const [info, setInfo] = useState<MonitorSourceInfo | null>(null);
  const [state, setState] = useState<MonitorState>('waiting');
  const [points, setPoints] = useState<MonitorTickPoint[]>([]);
  const [latest, setLatest] = useState<PdesTickUpdate | null>(null);
  const [views, setViews] = useState<Views | null>(null);
  const [selection, setSelection] = useState<MonitorSelection | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [endReason, setEndReason] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [options, setOptions] = useState<MonitorViewOptions>(DEFAULT_OPTIONS);
  const inFlight = useRef<number | null>(null);
  const stale = useRef(false);
  const nextId = useRef(0);
  const current = useRef(options);
  current.current = options;

  const refresh = () => {
    if (inFlight.current !== null) {
      stale.current = true;
      return;
    }
    stale.current = false;
    inFlight.current = ++nextId.current;
    post({ type: 'monitor/refresh', requestId: inFlight.current, options: current.current });
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
        setOptions(o => ({ ...o, drill: null, bottomMetric: null, baseTick: null }));
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
        setSelection({
          entities: m.entities,
          reason: m.reason,
          changePoint: m.changePoint ?? null,
          editor: m.editor ?? null,
        });
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
  }, [options]);

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
        options={options}
        base={views?.base ?? null}
        diffs={views?.diffs ?? []}
        sizes={{
          behaviour: { width, height: 150 },
          summary: { width, height: 56 },
          // Two similarity views side by side.
          scatter: { width: Math.floor((width - 12) / 2), height: Math.min(240, Math.floor((width - 12) / 2)) },
          matrix: Math.min(width - 70, 320),
        }}
        onPause={() => post({ type: 'monitor/pause' })}
        onResume={() => post({ type: 'monitor/resume' })}
        onStop={() => post({ type: 'monitor/stop' })}
        onOptions={change => setOptions(o => ({ ...o, ...change }))}
        onLasso={(view, polygon) => post({ type: 'monitor/lasso', view, polygon })}
        onShow={changePoint => post({ type: 'monitor/show', changePoint })}
        onClearSelection={() => setSelection(null)}
      />
    </div>
  );
}
