/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The DMV panel as mounted in the webview: the host connection and the linked selection. One window
 * drives every view: a clock sector click, a play step (one sector every 2 s), a selected flag or
 * the host's focus set it, and each change asks the host for the window's views (only the answer to
 * the latest request is drawn). A matrix cell click asks for the cell's copies in the same window.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PLAY_STEP_MS, sectorWindow } from '../../../../src/analysis/dmv/clock';
import type { DmvFlag } from '../../../../src/analysis/dmv/flags';
import type { DmvCellCopies, DmvWindowData } from '../../../../src/analysis/dmv/panel-data';
import {
  DMV_HOST_TO_VIEW_TYPES,
  type DmvEnsembleMode,
  type DmvFocus,
  type DmvHostToView,
  type DmvInitMessage,
  type DmvViewToHost,
  type DmvWindow,
} from '../../../../src/shared/dmv-protocol';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { postMessage, useHostMessages } from '../../vscode-api';
import { DmvTraceView, windowSector } from './dmv-view';
import { EnsembleGridView } from './ensemble-grid-view';
import { flagKey } from './flags-view';
import './dmv.css';

const post = (m: DmvViewToHost) => postMessage(m);

/** A flag's window: its span, widened to a thousandth of the run when it is (nearly) an instant. */
export function flagWindow(flag: Pick<DmvFlag, 'start' | 'end'>, range: DmvWindow): DmvWindow {
  const min = (range.end - range.start) / 1000;
  if (flag.end - flag.start >= min) return { start: flag.start, end: flag.end };
  const mid = (flag.start + flag.end) / 2;
  return { start: Math.max(range.start, mid - min / 2), end: Math.min(range.end, mid + min / 2) };
}

type Ensemble = Extract<DmvHostToView, { type: 'dmv/ensemble' }>;

export function DmvApp() {
  const [init, setInit] = useState<DmvInitMessage | null>(null);
  const [ensemble, setEnsemble] = useState<Ensemble | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selection, setSelection] = useState<DmvWindow | null>(null);
  const [expanded, setExpanded] = useState<number[]>([]);
  const [glyph, setGlyph] = useState<{ left: string; right: string } | null>(null);
  const [data, setData] = useState<DmvWindowData | null>(null);
  const [cell, setCell] = useState<{ src: number; dst: number } | null>(null);
  const [cellData, setCellData] = useState<DmvCellCopies | null>(null);
  const [selectedFlag, setSelectedFlag] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [overlayWindow, setOverlayWindow] = useState<DmvWindow | null>(null);
  // Device boxes the hardware drawing holds at its size: the host folds more GPUs than that.
  const [hardwareNodes, setHardwareNodes] = useState<number | undefined>(undefined);
  const lastRequest = useRef(0);
  const root = useRef<HTMLDivElement>(null);
  const size = useElementSize(root);
  const width = size?.width ?? 0;

  const applyFocus = useCallback((focus: DmvFocus | null, overview: DmvInitMessage['overview']) => {
    if (!focus) return;
    setPlaying(false);
    setSelection(flagWindow(focus.window, overview.range));
    setExpanded([]);
    const f = focus.flag;
    const match = f && overview.flags.find(x => x.kind === f.kind && x.file === f.file && x.line === f.line);
    setSelectedFlag(match ? flagKey(match) : null);
  }, []);

  useHostMessages<DmvHostToView>(DMV_HOST_TO_VIEW_TYPES, m => {
    switch (m.type) {
      case 'dmv/init':
        setInit(m);
        setEnsemble(null);
        setUnavailable(null);
        setError(null);
        setPlaying(false);
        setData(null);
        setCell(null);
        setCellData(null);
        setSelectedFlag(null);
        setExpanded([]);
        setOverlayWindow(m.overlayWindow);
        setSelection(m.overlayWindow);
        applyFocus(m.focus, m.overview);
        break;
      case 'dmv/window':
        if (m.requestId === lastRequest.current) setData(m.data);
        break;
      case 'dmv/cell':
        setCellData(m.data);
        break;
      case 'dmv/ensemble':
        setEnsemble(m);
        setInit(null);
        setUnavailable(null);
        break;
      case 'dmv/overlayWindow':
        setOverlayWindow(m.window);
        break;
      case 'dmv/focus':
        if (init) applyFocus(m.focus, init.overview);
        break;
      case 'dmv/unavailable':
        setUnavailable(m.message);
        break;
      case 'error':
        setError(m.message);
        break;
      default:
        assertNever(m, 'message from the host');
    }
  });
  useEffect(() => post({ type: 'ready', view: 'dmv' }), []);

  // Every view follows the window: ask for them whenever it (or what they show of it) changes.
  const metricPoints = Math.max(100, Math.round(width / 100) * 100);
  useEffect(() => {
    if (!init || width <= 0) return;
    const requestId = ++lastRequest.current;
    post({
      type: 'dmv/requestWindow',
      requestId,
      window: selection,
      expanded,
      metricPoints,
      glyph,
      ...(hardwareNodes !== undefined ? { hardwareNodes } : {}),
    });
  }, [init, selection, expanded, glyph, metricPoints, width, hardwareNodes]);
  // A selected cell lists its copies in the current window.
  useEffect(() => {
    if (!init || !cell) return;
    post({ type: 'dmv/cell', src: cell.src, dst: cell.dst, window: selection });
  }, [init, cell, selection]);

  // Play: one sector every 2 s (DMVis' animation), from the sector after the current one, round the clock.
  const playFrom = useRef(0);
  useEffect(() => {
    if (!playing || !init) return;
    const clock = init.overview.clock;
    const current = windowSector(init.overview, selection);
    playFrom.current = current === null ? 0 : (current + 1) % clock.sectors.length;
    const step = () => {
      const k = playFrom.current;
      playFrom.current = (k + 1) % clock.sectors.length;
      setExpanded([]);
      setSelection(sectorWindow(clock, k));
    };
    step();
    const timer = setInterval(step, PLAY_STEP_MS);
    return () => clearInterval(timer);
    // Restarts only when play is toggled or another trace is shown (the window it reads is where play starts).
  }, [playing, init]);

  const selectWindow = useCallback((w: DmvWindow | null) => {
    setPlaying(false);
    setExpanded([]);
    setSelectedFlag(null);
    setSelection(w);
  }, []);
  const selectFlag = useCallback(
    (f: DmvFlag) => {
      if (!init) return;
      setPlaying(false);
      setExpanded([]);
      setSelectedFlag(flagKey(f));
      setSelection(flagWindow(f, init.overview.range));
    },
    [init],
  );
  const openSource = useCallback(
    (file: string, line: number | null, name: string) => post({ type: 'dmv/openSource', file, line, name }),
    [],
  );

  let content;
  if (unavailable)
    content = (
      <div className="view-error">
        <ErrorPanel title="No data movement to show" message={unavailable} />
      </div>
    );
  else if (ensemble)
    content = (
      <div className="dmv-page" data-mode="ensemble">
        <div className="dmv-toolbar dmv-main-toolbar">
          <span className="dmv-title">{ensemble.title}</span>
          <span className="dmv-muted">trace ensemble</span>
        </div>
        <EnsembleGridView
          grid={ensemble.grid}
          mode={ensemble.mode}
          sort={ensemble.sort}
          onMode={(mode: DmvEnsembleMode) => post({ type: 'dmv/ensemble', mode, sort: ensemble.sort })}
          onSort={sort => post({ type: 'dmv/ensemble', mode: ensemble.mode, sort })}
          onOpen={path => post({ type: 'dmv/openRun', path })}
        />
      </div>
    );
  else if (!init) content = <StatusMessage title="Loading data movement…" busy />;
  else if (width > 0)
    content = (
      <DmvTraceView
        title={init.title}
        overview={init.overview}
        window={selection}
        data={data}
        cell={cell}
        cellData={cellData}
        selectedFlag={selectedFlag}
        playing={playing}
        overlayWindow={overlayWindow}
        width={width}
        error={error}
        onWindow={selectWindow}
        onPlay={setPlaying}
        onCell={(src, dst) => {
          setCellData(null);
          setCell({ src, dst });
        }}
        onFlag={selectFlag}
        onOpen={openSource}
        onOpenEvent={row => post({ type: 'dmv/openEvent', row })}
        onExpand={key => setExpanded(e => (e.includes(key) ? e : [...e, key]))}
        onGlyph={(left, right) => setGlyph({ left, right })}
        onUseForOverlays={w => post({ type: 'dmv/useWindowForOverlays', window: w })}
        onFile={(kind, action) => post({ type: 'dmv/file', kind, action })}
        onDismissError={() => setError(null)}
        onHardwareCapacity={setHardwareNodes}
      />
    );
  return (
    <div
      ref={root}
      className="dmv-app"
      data-mode={unavailable ? 'unavailable' : ensemble ? 'ensemble' : init ? 'trace' : 'loading'}
    >
      {content}
    </div>
  );
}
