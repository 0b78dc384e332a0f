/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The timeline: lane headers (grouped, collapsible, filterable, sortable, per-lane depth view),
 * a canvas with the level-of-detail tiles of the visible lanes, a time axis, a mini-map of the
 * whole run, a colour legend, a hover tooltip and the window statistics of a shift-dragged range.
 * The view keeps the window and the lane list; the host computes everything else (tiles, lookups,
 * statistics) in its worker. Zoom: ctrl/⌘-wheel (plain wheel when the lanes fit), +/−; pan: drag,
 * shift-wheel, ←/→; select: shift-drag; Home: the whole run.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type {
  KeyboardEvent as ReactKeyboardEvent,
  MouseEvent as ReactMouseEvent,
  PointerEvent as ReactPointerEvent,
  WheelEvent as ReactWheelEvent,
} from 'react';
import { colourOf } from '../../../../src/analysis/timeline/colors';
import type {
  TimelineAnalysisInfo,
  TimelineEventDetailsMessage,
  TimelineHighlightMessage,
  TimelineInitMessage,
  TimelineLaneRow,
  TimelineLaneSort,
  TimelineTileRequestMessage,
  TimelineTilesMessage,
  TimelineWindow,
  TimelineWindowStatsMessage,
} from '../../../../src/shared/timeline-protocol';
import { formatWindow } from '../../../../src/shared/timeline-protocol';
import { useElementSize } from '../../components/use-element-size';
import { formatBytes } from '../../format';
import { useThemeColors } from '../../theme';
import { classColourOf, classColours } from '../trace-analysis/class-colours';
import {
  depthAt,
  LABELLED_LANE_HEIGHT,
  layoutLanes,
  rowIndexAt,
  tracksIn,
  visibleRange,
  type LaneLayout,
} from './lane-layout';
import { drawFrame, legendEntries, type CanvasTheme, type FrameCounts } from './tile-render';
import { formatDuration, timeTicks } from './time-axis';
import {
  clampWindow,
  panBy,
  selectionToWindow,
  timeToX,
  windowAroundEvent,
  wholeRun,
  xToTime,
  zoomAt,
} from './viewport';
import { WindowStatsPanel } from './window-stats-panel';
import { Minimap } from './minimap';

export const HEADER_WIDTH = 210;
const AXIS_HEIGHT = 24;

export type TileRequest = Omit<TimelineTileRequestMessage, 'type' | 'requestId'>;

/** A window the host asked to show and select (a trace analysis's segment or iteration); `seq` tells repeats apart. */
export interface ShownWindow {
  window: TimelineWindow;
  tracks: number[] | null;
  label: string;
  seq: number;
}

type ColourChoice = 'function' | 'module' | 'class';

export interface TimelineViewProps {
  init: TimelineInitMessage;
  rows: TimelineLaneRow[];
  frame: TimelineTilesMessage | null;
  details: TimelineEventDetailsMessage['details'] | null;
  stats: TimelineWindowStatsMessage | null;
  highlight: TimelineHighlightMessage | null;
  overlayWindow: TimelineWindow | null;
  requestTiles(req: TileRequest): void;
  requestHover(track: number, time: number, depth: number | undefined): void;
  clearHover(): void;
  lanesChanged(filter: string, sort: TimelineLaneSort, collapsed: string[]): void;
  selectWindow(window: TimelineWindow, tracks: number[] | null): void;
  useWindowForOverlays(window: TimelineWindow | null, tracks: number[] | null): void;
  openSource(row: number): void;
  /** The trace analysis of this trace (HPC Lens: Analyse Trace), or null before one. */
  analysis?: TimelineAnalysisInfo | null;
  shownWindow?: ShownWindow | null;
  /** The toolbar's Analyse Trace. */
  analyse?(): void;
  /** Fixed plot size (server rendering in tests); measured otherwise. */
  size?: { width: number; height: number };
}

/** The colours the canvas needs, from the theme's variables (re-read on theme change). */
export function readCanvasTheme(): CanvasTheme {
  const fallback: CanvasTheme = {
    background: '#1f1f1f',
    foreground: '#cccccc',
    muted: '#808080',
    border: '#454545',
    groupBand: '#2a2d2e',
    selection: '#264f78',
    focus: '#0078d4',
    flow: { launch: '#b180d7', message: '#ff8c00', generic: '#9d9d9d' },
    direction: {
      'host-to-device': '#3794ff',
      'device-to-host': '#cca700',
      'device-to-device': '#89d185',
      peer: '#89d185',
      memset: '#b180d7',
      other: '#9d9d9d',
    },
    font: '11px sans-serif',
  };
  if (typeof document === 'undefined') return fallback;
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, dflt: string) => style.getPropertyValue(name).trim() || dflt;
  const family = v('--vscode-font-family', 'sans-serif');
  return {
    background: v('--vscode-editor-background', fallback.background),
    foreground: v('--vscode-foreground', fallback.foreground),
    muted: v('--vscode-descriptionForeground', fallback.muted),
    border: v('--vscode-editorWidget-border', v('--vscode-panel-border', fallback.border)),
    groupBand: v('--vscode-sideBarSectionHeader-background', v('--vscode-editorWidget-background', fallback.groupBand)),
    selection: v('--vscode-editor-selectionBackground', fallback.selection),
    focus: v('--vscode-focusBorder', fallback.focus),
    flow: {
      launch: v('--vscode-charts-purple', fallback.flow.launch),
      message: v('--vscode-charts-orange', fallback.flow.message),
      generic: v('--vscode-descriptionForeground', fallback.flow.generic),
    },
    direction: {
      'host-to-device': v('--vscode-charts-blue', fallback.direction['host-to-device']!),
      'device-to-host': v('--vscode-charts-yellow', fallback.direction['device-to-host']!),
      'device-to-device': v('--vscode-charts-green', fallback.direction['device-to-device']!),
      peer: v('--vscode-charts-green', fallback.direction['peer']!),
      memset: v('--vscode-charts-purple', fallback.direction['memset']!),
      other: v('--vscode-descriptionForeground', fallback.direction['other']!),
    },
    font: `11px ${family}`,
  };
}

const SORTS: { value: string; label: string }[] = [
  { value: 'display', label: 'Trace order' },
  { value: 'name', label: 'Name' },
  { value: 'busy', label: 'Busy time' },
];

type Drag = { mode: 'pan'; x: number; window: TimelineWindow } | { mode: 'select'; x0: number; x1: number };

export function TimelineView(props: TimelineViewProps) {
  const { init, rows, frame, details, stats, highlight, overlayWindow } = props;
  const range = init.timeRange;
  const themeColors = useThemeColors();
  const theme = useMemo(() => readCanvasTheme(), [themeColors]);
  const bodyRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const measured = useElementSize(bodyRef, !props.size);
  const plotWidth = Math.max(50, (props.size?.width ?? measured?.width ?? 800) - HEADER_WIDTH);
  const plotHeight = Math.max(40, props.size?.height ?? measured?.height ?? 400);

  const [view, setView] = useState<TimelineWindow>(() => wholeRun(range));
  const [scrollTop, setScrollTop] = useState(0);
  const [depth, setDepth] = useState(Math.max(0, init.maxDepth - 1) > 0 ? Math.min(init.maxDepth - 1, 3) : 0);
  const [colourBy, setColourBy] = useState<ColourChoice>('function');
  const [showIterations, setShowIterations] = useState(true);
  const analysis = props.analysis ?? null;
  const [showFlows, setShowFlows] = useState(true);
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<TimelineLaneSort>({ by: 'display' });
  const [collapsed, setCollapsed] = useState<string[]>([]);
  const [depthViews, setDepthViews] = useState<number[]>([]);
  const [selection, setSelection] = useState<{ window: TimelineWindow; tracks: number[] | null } | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  const [sortNode, setSortNode] = useState<{ node: number; name: string } | null>(null);

  // A trace analysis arrived or changed (paper §3.4): lanes by cluster, colours by class, the automatic depth.
  useEffect(() => {
    if (!analysis) {
      setSort(s => (s.by === 'clusters' ? { by: 'display' } : s));
      setColourBy(c => (c === 'class' ? 'function' : c));
      return;
    }
    setSort(s =>
      analysis.byCluster ? { by: 'clusters', bands: analysis.bands } : s.by === 'clusters' ? { by: 'display' } : s,
    );
    setColourBy('class');
    if (analysis.depth >= 0) setDepth(Math.min(Math.max(0, init.maxDepth - 1), analysis.depth));
  }, [analysis, init.maxDepth]);
  // The host asked to show a window (a segment, an iteration): zoom to it with a margin and select it.
  const shown = props.shownWindow ?? null;
  useEffect(() => {
    if (!shown) return;
    const span = shown.window.end - shown.window.start;
    setView(clampWindow({ start: shown.window.start - span * 0.05, end: shown.window.end + span * 0.05 }, range));
    setSelection({ window: shown.window, tracks: shown.tracks });
    props.selectWindow(shown.window, shown.tracks);
  }, [shown?.seq]);

  const depthCounts = useMemo(() => {
    const m = new Map<number, number>();
    for (const t of depthViews) {
      const dv = frame?.depthViews.find(v => v.track === t);
      m.set(t, dv ? dv.depths.length : Math.max(1, Math.min(init.maxDepth, 24)));
    }
    return m;
  }, [depthViews, frame, init.maxDepth]);
  const layout: LaneLayout = useMemo(() => layoutLanes(rows, depthCounts), [rows, depthCounts]);
  const visible = useMemo(() => visibleRange(layout, scrollTop, plotHeight), [layout, scrollTop, plotHeight]);
  const tracks = useMemo(() => tracksIn(layout, visible), [layout, visible]);
  const tracksKey = tracks.join(',');

  // Ask for tiles when what is on screen changes (debounced; the host keeps one request in flight).
  const { requestTiles } = props;
  useEffect(() => {
    if (tracks.length === 0) return;
    const timer = setTimeout(
      () =>
        requestTiles({
          window: view,
          tracks,
          width: Math.round(plotWidth),
          depth,
          colourBy,
          depthViews: depthViews.filter(t => tracks.includes(t)),
          iterations: !!analysis?.loopName && showIterations,
        }),
      30,
    );
    return () => clearTimeout(timer);
  }, [view, tracksKey, plotWidth, depth, colourBy, depthViews, requestTiles, analysis, showIterations]);

  // Lane list changes go to the host, which filters and sorts the lane tree.
  const { lanesChanged } = props;
  const lanesFirst = useRef(true);
  useEffect(() => {
    if (lanesFirst.current) {
      lanesFirst.current = false;
      return;
    }
    const timer = setTimeout(() => lanesChanged(filter, sort, collapsed), 120);
    return () => clearTimeout(timer);
  }, [filter, sort, collapsed, lanesChanged]);

  const { selectWindow } = props;

  // Paint (device-pixel sharp) whenever anything on the canvas changes.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(plotWidth * dpr),
      h = Math.round(plotHeight * dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const classes = colourBy === 'class' ? classColours() : null;
    const hl = highlight && highlight.node !== null ? { tracks: highlight.tracks, spans: highlight.spans } : null;
    const counts = drawFrame(ctx, {
      width: plotWidth,
      height: plotHeight,
      scrollTop,
      layout,
      range: visible,
      view,
      frame,
      theme,
      showFlows,
      highlight: hl,
      ...(classes ? { colour: (name: string) => classColourOf(classes, name) } : {}),
      iterations: analysis?.loopName && showIterations ? (frame?.iterations ?? null) : null,
      selection:
        drag?.mode === 'select'
          ? selectionToWindow(drag.x0, drag.x1, view, plotWidth, range, 0)
          : (selection?.window ?? null),
    });
    // What is on screen, for the extension's tests and the screenshot scripts (the canvas has no DOM to read).
    if (frame) stateDrawn(canvas, counts, frame.requestId, frame.tiles.window, view, depth);
    canvas.dataset.colourBy = colourBy;
    canvas.dataset.sort = sort.by;
  }, [
    plotWidth,
    plotHeight,
    scrollTop,
    layout,
    visible,
    view,
    frame,
    theme,
    showFlows,
    highlight,
    selection,
    drag,
    rows,
    range,
    depth,
    colourBy,
    analysis,
    showIterations,
  ]);

  const zoom = useCallback(
    (factor: number, anchorX = plotWidth / 2) => setView(v => zoomAt(v, plotWidth, anchorX, factor, range)),
    [plotWidth, range],
  );
  const pan = useCallback((dx: number) => setView(v => panBy(v, plotWidth, dx, range)), [plotWidth, range]);

  const plotPoint = (e: { clientX: number; clientY: number }) => {
    const rect = canvasRef.current!.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  const onWheel = (e: ReactWheelEvent) => {
    const lanesFit = layout.height <= plotHeight;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      pan(e.shiftKey ? e.deltaY : e.deltaX);
      return;
    }
    if (e.ctrlKey || e.metaKey || lanesFit) {
      const { x } = plotPoint(e);
      zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300))), x);
      return;
    }
    setScrollTop(s => Math.max(0, Math.min(layout.height - plotHeight, s + e.deltaY)));
  };

  // VS Code scrolls the page on ctrl-wheel unless the default is prevented (React's wheel listener is passive).
  useEffect(() => {
    const el = canvasRef.current;
    if (!el) return;
    const stop = (e: WheelEvent) => e.preventDefault();
    el.addEventListener('wheel', stop, { passive: false });
    return () => el.removeEventListener('wheel', stop);
  }, []);

  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    const { x } = plotPoint(e);
    try {
      (e.target as Element).setPointerCapture?.(e.pointerId);
    } catch {
      // The pointer is already gone (released before the handler ran): the drag works without capture.
    }
    setDrag(e.shiftKey ? { mode: 'select', x0: x, x1: x } : { mode: 'pan', x, window: view });
  };
  const dragMoved = useRef(false);
  const { requestHover, clearHover } = props;
  const onPointerMove = (e: ReactPointerEvent) => {
    const p = plotPoint(e);
    if (drag?.mode === 'pan') {
      if (Math.abs(p.x - drag.x) > 2) dragMoved.current = true;
      setView(panBy(drag.window, plotWidth, drag.x - p.x, range));
      return;
    }
    if (drag?.mode === 'select') {
      setDrag({ ...drag, x1: p.x });
      return;
    }
    setPointer(p);
    const i = rowIndexAt(layout, p.y + scrollTop);
    const r = i >= 0 ? layout.rows[i]! : null;
    if (r && r.row.type === 'lane')
      requestHover(r.row.track, xToTime(view, plotWidth, p.x), depthAt(r, p.y + scrollTop) ?? depth);
    else clearHover();
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    if (drag?.mode === 'select') {
      const w = selectionToWindow(drag.x0, plotPoint(e).x, view, plotWidth, range);
      if (w) {
        const laneTracks = filter.trim() ? rows.flatMap(r => (r.type === 'lane' ? [r.track] : [])) : null;
        setSelection({ window: w, tracks: laneTracks });
        selectWindow(w, laneTracks);
      }
    }
    setDrag(null);
  };
  const onClick = () => {
    if (dragMoved.current) {
      dragMoved.current = false;
      return;
    }
    if (details && details.source) props.openSource(details.row);
  };
  const onDoubleClick = (e: ReactMouseEvent) => {
    e.preventDefault();
    if (details) setView(clampWindow(windowAroundEvent(details.start, details.duration), range));
  };
  const onKeyDown = (e: ReactKeyboardEvent) => {
    const step = plotWidth / 8;
    switch (e.key) {
      case '+':
      case '=':
        zoom(0.6);
        break;
      case '-':
      case '_':
        zoom(1 / 0.6);
        break;
      case 'ArrowLeft':
        pan(-step);
        break;
      case 'ArrowRight':
        pan(step);
        break;
      case 'ArrowUp':
        setScrollTop(s => Math.max(0, s - 48));
        break;
      case 'ArrowDown':
        setScrollTop(s => Math.max(0, Math.min(layout.height - plotHeight, s + 48)));
        break;
      case 'Home':
      case '0':
        setView(wholeRun(range));
        break;
      case 'Escape':
        setSelection(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const toggleGroup = (id: string) => setCollapsed(c => (c.includes(id) ? c.filter(x => x !== id) : [...c, id]));
  const toggleDepthView = (t: number) => setDepthViews(d => (d.includes(t) ? d.filter(x => x !== t) : [...d, t]));

  const ticks = useMemo(() => timeTicks(view, plotWidth), [view, plotWidth]);
  const legend = useMemo(() => (frame ? legendEntries(frame.tiles) : []), [frame]);
  const selectionTracks = selection?.tracks ?? null;
  const laneLabel = (t: number) => rows.find(r => r.type === 'lane' && r.track === t)?.label ?? `lane ${t}`;

  return (
    <div className="timeline-view">
      <header className="timeline-toolbar" role="toolbar" aria-label="Timeline controls">
        <div className="timeline-title" title={init.title}>
          <span className="timeline-name">{init.title}</span>
          <span className="timeline-sub">
            {init.trackCount} lanes · {init.eventCount.toLocaleString('en-US')} events ·{' '}
            {formatDuration(range[1] - range[0])}
          </span>
        </div>
        <label className="timeline-control">
          <span>Lanes</span>
          <input
            type="search"
            className="timeline-filter"
            placeholder="filter: name or glob (rank 1*)"
            value={filter}
            onChange={e => setFilter(e.target.value)}
            aria-label="Filter lanes by name or glob"
          />
        </label>
        <label className="timeline-control">
          <span>Sort</span>
          <select
            value={sort.by === 'node' ? 'node' : sort.by}
            aria-label="Sort lanes"
            onChange={e => {
              const by = e.target.value;
              setSort(
                by === 'node' && sortNode
                  ? { by: 'node', node: sortNode.node }
                  : by === 'clusters' && analysis
                    ? { by: 'clusters', bands: analysis.bands }
                    : { by: by as 'display' | 'name' | 'busy' },
              );
            }}
          >
            {SORTS.map(s => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
            {sortNode ? <option value="node">Time in {sortNode.name}</option> : null}
            {analysis ? <option value="clusters">Cluster (trace analysis)</option> : null}
          </select>
        </label>
        <label className="timeline-control">
          <span>Colour</span>
          <select value={colourBy} onChange={e => setColourBy(e.target.value as ColourChoice)} aria-label="Colour by">
            <option value="function">by function</option>
            <option value="module">by module</option>
            {analysis ? <option value="class">by class (analysis)</option> : null}
          </select>
        </label>
        <label
          className="timeline-control"
          title="Call depth shown on each lane (hpctraceviewer's slicing): the frame at this depth, or the innermost where the stack is shallower"
        >
          <span>Depth</span>
          <input
            type="number"
            min={0}
            max={Math.max(0, init.maxDepth - 1)}
            value={depth}
            className="timeline-depth"
            aria-label="Call depth"
            onChange={e => setDepth(Math.max(0, Math.min(Math.max(0, init.maxDepth - 1), Number(e.target.value) || 0)))}
          />
        </label>
        <label className="timeline-check">
          <input type="checkbox" checked={showFlows} onChange={e => setShowFlows(e.target.checked)} /> Flows
        </label>
        {analysis?.loopName ? (
          <label className="timeline-check" title={`Iterations of ${analysis.loopName} as alternating bands`}>
            <input type="checkbox" checked={showIterations} onChange={e => setShowIterations(e.target.checked)} />{' '}
            Iterations
          </label>
        ) : null}
        {props.analyse ? (
          <button
            type="button"
            className="timeline-analyse"
            onClick={props.analyse}
            title="HPC Lens: Analyse Trace — iterations, rank clusters, imbalance and waiting by call path"
          >
            Analyse
          </button>
        ) : null}
        <div className="timeline-buttons">
          <button type="button" onClick={() => zoom(0.6)} aria-label="Zoom in" title="Zoom in (+)">
            +
          </button>
          <button type="button" onClick={() => zoom(1 / 0.6)} aria-label="Zoom out" title="Zoom out (−)">
            −
          </button>
          <button type="button" onClick={() => setView(wholeRun(range))} title="Whole run (Home)">
            Whole run
          </button>
        </div>
      </header>
      {overlayWindow ? (
        <div className="timeline-overlay-banner" role="status">
          Editor overlays show the window {formatWindow(overlayWindow)} only.
          <button type="button" onClick={() => props.useWindowForOverlays(null, null)}>
            Use Whole Run
          </button>
        </div>
      ) : null}
      <div className="timeline-axis" style={{ height: AXIS_HEIGHT }}>
        <div className="timeline-axis-corner" style={{ width: HEADER_WIDTH }}>
          {ticks.unit} from start
        </div>
        <div className="timeline-axis-ticks" aria-hidden="true">
          {ticks.ticks.map(t => (
            <div key={t.time} className="timeline-tick" style={{ left: t.x }}>
              <span>{t.label}</span>
            </div>
          ))}
          {selection ? (
            <div
              className="timeline-axis-selection"
              style={{
                left: timeToX(view, plotWidth, selection.window.start),
                width: Math.max(
                  1,
                  timeToX(view, plotWidth, selection.window.end) - timeToX(view, plotWidth, selection.window.start),
                ),
              }}
            />
          ) : null}
        </div>
      </div>
      <div className="timeline-body" ref={bodyRef}>
        <div
          className="timeline-headers"
          style={{ width: HEADER_WIDTH }}
          onWheel={e => setScrollTop(s => Math.max(0, Math.min(layout.height - plotHeight, s + e.deltaY)))}
        >
          {layout.rows.slice(visible[0], visible[1]).map(r => {
            const top = r.y - scrollTop;
            if (r.row.type === 'group') {
              const g = r.row;
              return (
                <button
                  key={g.id}
                  type="button"
                  className="timeline-group"
                  style={{ top, height: r.height, paddingLeft: 6 + g.level * 12 }}
                  aria-expanded={!g.collapsed}
                  onClick={() => toggleGroup(g.id)}
                  title={g.label}
                >
                  <span className={`codicon-chevron ${g.collapsed ? 'collapsed' : ''}`} aria-hidden="true">
                    {g.collapsed ? '▸' : '▾'}
                  </span>
                  <span className="timeline-group-label">{g.label}</span>
                </button>
              );
            }
            const l = r.row;
            const track = l.track;
            const on = depthViews.includes(track);
            // Members of a large cluster band: a thin strip, named in its tooltip.
            if (r.height < LABELLED_LANE_HEIGHT && !r.depthRows)
              return (
                <div
                  key={l.id}
                  className={`timeline-lane-header is-thin kind-${l.kind}`}
                  style={{ top, height: r.height, paddingLeft: 10 + l.level * 12 }}
                  data-track={track}
                  title={l.label}
                />
              );
            return (
              <div
                key={l.id}
                className={`timeline-lane-header kind-${l.kind}`}
                style={{ top, height: r.height, paddingLeft: 10 + l.level * 12 }}
                data-track={track}
                title={l.label}
              >
                <span className="timeline-lane-label">{l.label}</span>
                <button
                  type="button"
                  className="timeline-depth-toggle"
                  aria-pressed={on}
                  aria-label={`Depth view of ${l.label}`}
                  title="Show the call stack over time for this lane"
                  onClick={() => toggleDepthView(track)}
                >
                  {on ? '▤' : '≡'}
                </button>
              </div>
            );
          })}
        </div>
        <div className="timeline-plot" style={{ width: plotWidth, height: plotHeight }}>
          <canvas
            ref={canvasRef}
            className="timeline-canvas"
            style={{ width: plotWidth, height: plotHeight }}
            tabIndex={0}
            role="img"
            aria-label={`Timeline of ${init.title}, ${formatWindow(view)}. Drag to pan, shift-drag to select a range, ctrl-wheel or +/− to zoom, arrows to pan and scroll.`}
            onWheel={onWheel}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerLeave={() => {
              setPointer(null);
              clearHover();
            }}
            onClick={onClick}
            onDoubleClick={onDoubleClick}
            onKeyDown={onKeyDown}
          />
          {details && pointer && !drag ? (
            <div
              className="timeline-tooltip"
              role="tooltip"
              style={{
                left: Math.min(pointer.x + 14, Math.max(0, plotWidth - 340)),
                top: Math.min(pointer.y + 16, Math.max(0, plotHeight - 160)),
              }}
            >
              <div className="timeline-tooltip-name">
                <span className="timeline-chip" style={{ background: colourOf(details.name) }} />
                {details.name || '(unnamed)'}
              </div>
              <dl>
                <dt>Duration</dt>
                <dd>
                  {details.kind === 'instant' ? 'instant' : formatDuration(details.duration)}
                  {details.kind === 'sample' ? ' (sample hold)' : ''}
                </dd>
                <dt>Start</dt>
                <dd>{formatDuration(details.start)} from start</dd>
                <dt>Lane</dt>
                <dd>
                  {details.process ? `${details.process} › ` : ''}
                  {details.trackName}
                </dd>
                {details.category ? (
                  <>
                    <dt>Category</dt>
                    <dd>{details.category}</dd>
                  </>
                ) : null}
                {details.copy ? (
                  <>
                    <dt>Copy</dt>
                    <dd>
                      {directionLabel(details.copy.direction)} · {formatBytes(details.copy.bytes)}
                      {details.copy.bytesPerSecond ? ` · ${formatBytes(details.copy.bytesPerSecond)}/s` : ''}
                    </dd>
                  </>
                ) : null}
                {details.source ? (
                  <>
                    <dt>Source</dt>
                    <dd>
                      {details.source.file.split('/').pop()}
                      {details.source.line ? `:${details.source.line}` : ''} (click)
                    </dd>
                  </>
                ) : null}
              </dl>
              {details.callPath.length > 1 ? (
                <ol className="timeline-callpath" aria-label="Call path">
                  {details.callPath.slice(-6).map((f, i) => (
                    <li key={i}>{f}</li>
                  ))}
                </ol>
              ) : null}
              {details.node >= 0 ? (
                <button
                  type="button"
                  className="timeline-link"
                  onMouseDown={e => e.stopPropagation()}
                  onClick={e => {
                    e.stopPropagation();
                    setSortNode({ node: details.node, name: details.name });
                    setSort({ by: 'node', node: details.node });
                  }}
                >
                  Sort lanes by time in {details.name}
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
      <Minimap
        init={init}
        view={view}
        theme={theme}
        width={HEADER_WIDTH + plotWidth}
        offset={HEADER_WIDTH}
        onPan={centre =>
          setView(v =>
            clampWindow({ start: centre - (v.end - v.start) / 2, end: centre + (v.end - v.start) / 2 }, range),
          )
        }
      />
      <div className="timeline-legend" aria-label="Colour legend">
        {legend.map(l => (
          <span key={l.key} className="timeline-legend-item" title={l.name}>
            <span
              className="timeline-chip"
              style={{ background: colourBy === 'class' ? classColourOf(classColours(), l.name) : colourOf(l.name) }}
            />
            {l.name}
          </span>
        ))}
        {frame && frame.copies.length
          ? (['host-to-device', 'device-to-host', 'device-to-device', 'memset'] as const).map(d => (
              <span key={d} className="timeline-legend-item">
                <span className="timeline-chip" style={{ background: theme.direction[d] }} />
                {directionLabel(d)}
              </span>
            ))
          : null}
        {highlight && highlight.node !== null ? (
          <span className="timeline-legend-item timeline-highlight-note">
            Highlighted: {highlight.name} ({highlight.rows.reduce((s, r) => s + r.length, 0)} events)
          </span>
        ) : null}
      </div>
      {selection ? (
        <WindowStatsPanel
          window={selection.window}
          stats={
            stats && stats.window.start === selection.window.start && stats.window.end === selection.window.end
              ? stats
              : null
          }
          laneLabel={laneLabel}
          overlayWindow={overlayWindow}
          onUse={() => props.useWindowForOverlays(selection.window, selectionTracks)}
          onWholeRun={() => props.useWindowForOverlays(null, null)}
          onZoom={() => setView(clampWindow(selection.window, range))}
          onClose={() => setSelection(null)}
        />
      ) : null}
    </div>
  );
}

export function directionLabel(d: string): string {
  return (
    (
      {
        'host-to-device': 'H→D',
        'device-to-host': 'D→H',
        'device-to-device': 'D→D',
        peer: 'peer',
        memset: 'memset',
      } as Record<string, string>
    )[d] ?? d
  );
}

/** Writes what a frame drew onto the canvas element as `data-*` facts. */
function stateDrawn(
  canvas: HTMLCanvasElement,
  c: FrameCounts,
  requestId: number,
  frameWindow: TimelineWindow,
  view: TimelineWindow,
  depth: number,
): void {
  const d = canvas.dataset;
  // The call depth the lanes show (what a hover looks up first).
  d.depth = String(depth);
  d.requestId = String(requestId);
  d.lanes = String(c.lanes);
  d.laneLabels = c.laneLabels.join('\n');
  d.groups = String(c.groups);
  d.rects = String(c.rects);
  d.events = String(c.events);
  d.flows = String(c.flows);
  d.copies = String(c.copies);
  d.highlighted = String(c.highlighted);
  d.iterations = String(c.iterations);
  // The frame's window (what the tiles are of) and the view's (where the pointer maps to time).
  d.windowStart = String(frameWindow.start);
  d.windowEnd = String(frameWindow.end);
  d.viewStart = String(view.start);
  d.viewEnd = String(view.end);
}
