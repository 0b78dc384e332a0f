/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The CallFlow panel as mounted in the webview: the Sankey of the super graph (or two of them: the
 * brushed ranks over the rest, or two runs side by side) with a toolbar, and below it the linked
 * histogram and correlation views of the selected node. The host keeps splits, brush, selection and
 * mode; this side sends requests and draws what comes back. Persists the last data so a re-shown
 * panel draws at once.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import {
  CALLFLOW_HOST_TO_VIEW_TYPES,
  type CallflowRequest,
  type CallflowViewState,
  type NodeMetricValues,
  type CallflowData,
  type CallflowDiffData,
  type CallflowHostToView,
  type CallflowNodeData,
  type CallflowViewToHost,
} from '../../../../src/shared/callflow-protocol';
import { ErrorPanel } from '../../components/error-panel';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { formatValue } from '../../format';
import { heatScale, useThemeColors } from '../../theme';
import { getViewState, postMessage, setViewState, useHostMessages } from '../../vscode-api';
import { assertNever } from '../../../../src/shared/webview-protocol';
import { unpackCallflowData, unpackCallflowState } from '../../../../src/shared/callflow-packing';
import {
  changeColour,
  divergingColour,
  exclusiveDifference,
  runDifference,
  sharedDomain,
  type ColourBy,
} from './callflow-colours';
import { CorrelationView, type Series } from './correlation-view';
import { HistogramView } from './histogram-view';
import { sharedScale } from './juxtapose';
import { SankeyView } from '../sankey/sankey-view';
import type { SourceEntry } from '../sankey/sankey-view';
import { Segmented } from '../../components/segmented';
import { FilterControl, type FilterValue } from '../../components/filter-control';
import { FilteredCallees } from '../../components/filtered-callees';

interface Options {
  colourBy: ColourBy;
  histScale: 'linear' | 'log';
  histMetric: 'inclusive' | 'exclusive';
  bins: number;
  tab: 'histogram' | 'correlation';
  detailsHeight: number;
  differenceColour: boolean;
}
const DEFAULT_OPTIONS: Options = {
  colourBy: 'exclusive',
  histScale: 'linear',
  histMetric: 'inclusive',
  bins: 20,
  tab: 'histogram',
  detailsHeight: 250,
  differenceColour: true,
};

interface CallflowPanelState {
  data?: CallflowData;
  callflow?: CallflowViewState;
  full?: CallflowData;
  options?: Options;
}

interface Menu {
  node: CallflowNodeData;
  x: number;
  y: number;
}

/** Where a menu or list opened at a pointer position goes: inside the window. */
const inWindow = (x: number, y: number, width: number, height: number) => ({
  x: Math.max(0, Math.min(x, window.innerWidth - width)),
  y: Math.max(0, Math.min(y, window.innerHeight - height)),
});

const BIN_CHOICES = [5, 10, 20, 40, 80];

/** Sends a message of the Sankey view's protocol to the host. */
const post = (m: CallflowViewToHost) => postMessage(m);

export function CallflowApp() {
  const saved = getViewState<CallflowPanelState>('callflow');
  const [data, setData] = useState<CallflowData | null>(() => saved?.data ?? null);
  const [callflow, setCallflow] = useState<CallflowViewState | null>(() => saved?.callflow ?? null);
  // The graph over all ranks (the histogram and correlation views need every rank, also during a brush split).
  const [full, setFull] = useState<CallflowData | null>(() => saved?.full ?? saved?.data ?? null);
  const [options, setOptions] = useState<Options>(() => ({ ...DEFAULT_OPTIONS, ...saved?.options }));
  const [error, setError] = useState<string | null>(null);
  const [revealedIds, setRevealedIds] = useState<string[] | undefined>(undefined);
  const [selected, setSelected] = useState<string | null>(() => saved?.callflow?.selected ?? null);
  const [brushed, setBrushed] = useState<ReadonlySet<number>>(() => new Set(saved?.callflow?.brushed ?? []));
  const [nodeMetrics, setNodeMetrics] = useState<{ nodeId: string; metrics: NodeMetricValues[] } | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  // The "Show filtered callees" list of one bar, opened from its menu.
  const [callees, setCallees] = useState<Menu | null>(null);
  const [zoomKey, setZoomKey] = useState(0);
  const [fitted, setFitted] = useState<[number, number]>([0, 0]);
  const [axes, setAxes] = useState<{ x: string; y: string } | null>(null);

  const setOption = <K extends keyof Options>(key: K, value: Options[K]): void =>
    setOptions(o => ({ ...o, [key]: value }));
  useEffect(() => {
    setViewState<CallflowPanelState>('callflow', {
      ...(data ? { data } : {}),
      ...(callflow ? { callflow } : {}),
      ...(full ? { full } : {}),
      options,
    });
  }, [data, callflow, full, options]);

  const request = useCallback((r: CallflowRequest) => {
    if (r.type === 'callflow/brush') setBrushed(new Set(r.contexts ?? []));
    if (r.type === 'callflow/select') setSelected(r.nodeId);
    post(r);
  }, []);

  useHostMessages<CallflowHostToView>(CALLFLOW_HOST_TO_VIEW_TYPES, message => {
    switch (message.type) {
      case 'graph': {
        // Packed on the wire (one transferred buffer); the views draw objects.
        const graph = unpackCallflowData(message.data);
        setData(graph);
        const cf = message.callflow ? unpackCallflowState(message.callflow) : null;
        setCallflow(cf);
        if (!cf || cf.mode === 'single') setFull(graph);
        if (cf) {
          setBrushed(new Set(cf.brushed ?? []));
          setSelected(cf.selected);
        }
        setError(null);
        setRevealedIds(undefined); // marks belong to the graph they were asked for
        break;
      }
      case 'error':
        setError(message.message);
        break;
      case 'highlight':
        setRevealedIds(message.nodeIds);
        break;
      case 'callflow/nodeMetrics':
        setNodeMetrics({ nodeId: message.nodeId, metrics: message.metrics });
        break;
      default:
        assertNever(message, 'message from the host');
    }
  });
  // The listener is installed (effects run in order): ask the host for data.
  useEffect(() => post({ type: 'ready', view: 'callflow' }), []);

  // The correlation view's other metrics, for the selected node only.
  useEffect(() => {
    if (selected) post({ type: 'callflow/requestNodeMetrics', nodeId: selected });
  }, [selected, full]);

  const onOpenSource = useCallback((entry: SourceEntry) => post({ type: 'openSource', ...entry }), []);
  const onSelect = useCallback((n: CallflowNodeData) => request({ type: 'callflow/select', nodeId: n.id }), [request]);
  const onSplit = useCallback(
    (n: CallflowNodeData) => {
      if (n.kind && n.kind !== 'module' && n.baseId && n.baseId !== n.id) {
        request({ type: 'callflow/unsplit', nodeId: n.id });
        return;
      }
      request({
        type: 'callflow/split',
        nodeId: n.id,
        mode: (n.entryCount ?? n.entries?.length ?? 0) >= 2 || (n.callers?.length ?? 0) < 2 ? 'entry' : 'caller',
      });
    },
    [request],
  );
  const onContextMenu = useCallback((n: CallflowNodeData, at: { x: number; y: number }) => {
    setCallees(null);
    setMenu({ node: n, ...at });
  }, []);

  const mode = callflow?.mode ?? 'single';
  const second = callflow?.second;
  const colors = useThemeColors();
  const heat = useMemo(() => heatScale(colors), [colors]);
  const colourMax = useMemo(
    () => (data ? sharedDomain(second ? [data, second] : [data], options.colourBy) : 0),
    [data, second, options.colourBy],
  );
  const difference = useMemo(
    () => (mode === 'brush' && data && second ? exclusiveDifference(data, second) : null),
    [mode, data, second],
  );
  const diffOn = difference !== null && options.differenceColour;
  // A comparison (Compare Two Profiles): every node coloured by its change, red slower, green faster.
  const change = useMemo(() => (mode === 'single' && data ? runDifference(data) : null), [mode, data]);
  const nodeColour = useMemo(
    () =>
      diffOn
        ? (n: CallflowNodeData) => divergingColour(difference!.byId.get(n.id) ?? 0, difference!.bound)
        : change
          ? (n: CallflowNodeData) => changeColour(change.byId.get(n.id) ?? 0, change.bound)
          : undefined,
    [diffOn, difference, change],
  );
  const maxScale = second && mode !== 'single' ? sharedScale(fitted) : undefined;
  useEffect(() => setFitted([0, 0]), [mode]);

  const unit = data?.metric.unit ?? '';
  const legend: ReactNode = diffOn ? (
    <DivergingLegend bound={difference!.bound} unit={unit} />
  ) : change && data?.diff ? (
    <ChangeLegend bound={change.bound} unit={unit} diff={data.diff} />
  ) : (
    <SequentialLegend heat={heat} max={colourMax} unit={unit} by={options.colourBy} shared={second !== undefined} />
  );

  const graphs = useRef<HTMLDivElement>(null);
  if (!data) {
    return error ? (
      <div className="view-error">
        <ErrorPanel title="Could not show the call graph" message={error} />
      </div>
    ) : (
      <StatusMessage title="Loading call graph…" busy />
    );
  }
  // After a split the selected supernode lives on in its largest part (parts come largest first); after an un-split, in its base.
  const pool = (full ?? data).nodes;
  const selectedNode = selected
    ? (pool.find(n => n.id === selected) ??
      pool.find(n => n.baseId === selected) ??
      pool.find(n => n.id === pool.find(m => m.id === selected)?.baseId) ??
      null)
    : null;
  const common = {
    onOpenSource,
    revealedIds,
    onSelect,
    onSplit,
    onContextMenu,
    colourBy: options.colourBy,
    colourMax,
    nodeColour,
    zoomable: true,
    zoomResetKey: zoomKey,
    // Per-rank histograms need ranks: a single-context profile has nothing to show there.
    ...((data.contexts?.count ?? 0) > 1
      ? { miniHistogram: { metric: options.histMetric, scale: options.histScale } }
      : {}),
    selectedId: selected,
  };
  return (
    <div
      className="view-stack callflow-app"
      onClick={() => {
        setMenu(null);
        setCallees(null);
      }}
      onKeyDown={e => {
        if (e.key === 'Escape') {
          setMenu(null);
          setCallees(null);
        }
      }}
    >
      {error ? (
        <div className="view-banner">
          <ErrorPanel title="Could not update the call graph" message={error} onDismiss={() => setError(null)} />
        </div>
      ) : null}
      <Toolbar
        options={options}
        setOption={setOption}
        mode={mode}
        brushedCount={brushed.size}
        total={data.contexts?.count ?? 0}
        canCompare={callflow?.canCompare ?? false}
        splits={data.splits?.length ?? 0}
        hasDifference={difference !== null}
        onMode={m => request({ type: 'callflow/mode', mode: m })}
        onResetZoom={() => setZoomKey(k => k + 1)}
        onClearBrush={() => request({ type: 'callflow/brush', contexts: null })}
        legend={second ? legend : null}
        filter={data.filter ? { threshold: data.filter.threshold, by: data.filter.by } : null}
        onFilter={f => request({ type: 'callflow/filter', threshold: f.threshold, by: f.by })}
      />
      <div className="callflow-graphs" ref={graphs}>
        {second ? (
          <>
            <SankeyView
              {...common}
              data={data}
              legend={legend}
              maxScale={maxScale}
              onFitted={s => setFitted(f => (f[0] === s ? f : [s, f[1]]))}
              caption={<GraphCaption label={callflow?.labels?.[0] ?? data.title} data={data} />}
            />
            <SankeyView
              {...common}
              data={second}
              legend={legend}
              maxScale={maxScale}
              onFitted={s => setFitted(f => (f[1] === s ? f : [f[0], s]))}
              caption={
                <GraphCaption
                  label={callflow?.labels?.[1] ?? second.title}
                  data={second}
                  relativeTo={mode === 'sideBySide' ? data : undefined}
                />
              }
            />
          </>
        ) : (
          <SankeyView
            {...common}
            data={data}
            legend={legend}
            onHideRepopulated={() => request({ type: 'callflow/unrepopulate' })}
          />
        )}
      </div>
      <Resizer height={options.detailsHeight} onResize={h => setOption('detailsHeight', h)} />
      <Details
        height={options.detailsHeight}
        options={options}
        setOption={setOption}
        data={full ?? data}
        node={selectedNode}
        brushed={brushed}
        onBrush={contexts => request({ type: 'callflow/brush', contexts })}
        nodeMetrics={nodeMetrics?.nodeId === selected ? nodeMetrics.metrics : null}
        axes={axes}
        setAxes={setAxes}
      />
      {menu ? (
        <ContextMenu
          menu={menu}
          data={data}
          request={request}
          onOpenSource={onOpenSource}
          onShowCallees={() => setCallees(menu)}
          close={() => setMenu(null)}
        />
      ) : null}
      {callees ? (
        <FilteredCallees
          title={callees.node.label}
          callees={(callees.node.filteredCallees ?? []).map(c => ({ ...c, value: c.inclusive }))}
          total={callees.node.filteredCalleeCount ?? callees.node.filteredCallees?.length ?? 0}
          unit={data.metric.unit}
          grandTotal={data.total}
          shownAgain={(data.repopulate ?? []).filter(r => r.node === callees.node.id).map(r => r.function)}
          at={inWindow(callees.x, callees.y, 420, 360)}
          onRepopulate={name => {
            setCallees(null);
            request({ type: 'callflow/repopulate', nodeId: callees.node.id, function: name });
          }}
          onOpen={index => post({ type: 'openFilteredCallee', nodeId: callees.node.id, callee: index })}
          onHideAgain={name => {
            setCallees(null);
            request({ type: 'callflow/unrepopulate', nodeId: callees.node.id, function: name });
          }}
          onClose={() => setCallees(null)}
        />
      ) : null}
    </div>
  );
}

function Toolbar({
  options,
  setOption,
  mode,
  brushedCount,
  total,
  canCompare,
  splits,
  hasDifference,
  onMode,
  onResetZoom,
  onClearBrush,
  legend,
  filter,
  onFilter,
}: {
  options: Options;
  setOption: <K extends keyof Options>(k: K, v: Options[K]) => void;
  mode: CallflowViewState['mode'];
  brushedCount: number;
  total: number;
  canCompare: boolean;
  splits: number;
  hasDifference: boolean;
  onMode: (m: CallflowViewState['mode']) => void;
  onResetZoom: () => void;
  onClearBrush: () => void;
  legend: ReactNode;
  /** The filter of the graph on screen (null: the message carries none). */
  filter: FilterValue | null;
  onFilter: (f: FilterValue) => void;
}) {
  return (
    <div className="callflow-toolbar" role="toolbar" aria-label="Call graph options">
      {filter ? <FilterControl value={filter} onChange={onFilter} /> : null}
      <Segmented
        label="Colour"
        value={options.colourBy}
        choices={[
          ['exclusive', 'Exclusive'],
          ['inclusive', 'Inclusive'],
        ]}
        onChange={v => setOption('colourBy', v)}
      />
      <Segmented
        label="Histograms"
        value={options.histScale}
        choices={[
          ['linear', 'Linear'],
          ['log', 'Log'],
        ]}
        onChange={v => setOption('histScale', v)}
      />
      <Segmented
        label="View"
        value={mode}
        choices={[
          ['single', 'One graph'],
          ['brush', brushedCount > 0 ? `Split by selection (${brushedCount}/${total})` : 'Split by selection'],
          ...(canCompare ? [['sideBySide', 'Side by side'] as ['sideBySide', string]] : []),
        ]}
        onChange={onMode}
        disabled={v => (v === 'brush' ? brushedCount === 0 || brushedCount >= total : false)}
      />
      {hasDifference ? (
        <label className="callflow-check">
          <input
            type="checkbox"
            checked={options.differenceColour}
            onChange={e => setOption('differenceColour', e.target.checked)}
          />{' '}
          Colour by difference
        </label>
      ) : null}
      {brushedCount > 0 ? (
        <button className="callflow-button" onClick={onClearBrush}>
          Clear brush
        </button>
      ) : null}
      <button
        className="callflow-button"
        onClick={onResetZoom}
        title="Zoom with the wheel, pan by dragging the background"
      >
        Reset zoom
      </button>
      {splits > 0 ? (
        <span className="callflow-muted">
          {splits} split{splits === 1 ? '' : 's'} · double-click a part to undo
        </span>
      ) : null}
      <span className="callflow-toolbar-spacer" />
      {legend}
    </div>
  );
}

function SequentialLegend({
  heat,
  max,
  unit,
  by,
  shared,
}: {
  heat: (t: number) => string;
  max: number;
  unit: string;
  by: ColourBy;
  shared: boolean;
}) {
  const stops = Array.from({ length: 11 }, (_, i) => heat((i / 10) ** 2));
  return (
    <div
      className="sankey-legend"
      role="img"
      aria-label={`Node colour: ${by} value from 0 to ${formatValue(max, unit)}`}
    >
      <div className="sankey-legend-title">
        {by === 'exclusive' ? 'Exclusive' : 'Inclusive'}
        {shared ? ' (shared scale)' : ''}
      </div>
      <div className="sankey-legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} />
      <div className="sankey-legend-ticks" aria-hidden="true">
        <span>0</span>
        <span>{formatValue(max / 4, unit)}</span>
        <span>{formatValue(max, unit)}</span>
      </div>
    </div>
  );
}

function DivergingLegend({ bound, unit }: { bound: number; unit: string }) {
  const stops = Array.from({ length: 11 }, (_, i) => divergingColour((i / 5 - 1) * bound, bound));
  return (
    <div
      className="sankey-legend"
      role="img"
      aria-label={`Node colour: exclusive per rank, brushed minus the rest, from −${formatValue(bound, unit)} to +${formatValue(bound, unit)}`}
    >
      <div className="sankey-legend-title">Exclusive per rank: brushed − rest</div>
      <div className="sankey-legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} />
      <div className="sankey-legend-ticks is-diverging" aria-hidden="true">
        <span>−{formatValue(bound, unit)}</span>
        <span>0</span>
        <span>+{formatValue(bound, unit)}</span>
      </div>
    </div>
  );
}

function ChangeLegend({ bound, unit, diff }: { bound: number; unit: string; diff: CallflowDiffData }) {
  const stops = Array.from({ length: 11 }, (_, i) => changeColour((i / 5 - 1) * bound, bound));
  const per = diff.baselineContexts > 1 || diff.compareContexts > 1 ? ' per context' : '';
  return (
    <div
      className="sankey-legend"
      role="img"
      aria-label={`Node colour: change of inclusive value${per}, ${diff.baselineTitle} to ${diff.compareTitle}, from −${formatValue(bound, unit)} (faster, green) to +${formatValue(bound, unit)} (slower, red)`}
    >
      <div className="sankey-legend-title" title={`${diff.baselineTitle} → ${diff.compareTitle}`}>
        Change{per}: B − A
      </div>
      <div className="sankey-legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} />
      <div className="sankey-legend-ticks is-diverging" aria-hidden="true">
        <span>−{formatValue(bound, unit)}</span>
        <span>0</span>
        <span>+{formatValue(bound, unit)}</span>
      </div>
    </div>
  );
}

function GraphCaption({ label, data, relativeTo }: { label: string; data: CallflowData; relativeTo?: CallflowData }) {
  return (
    <>
      <span className="sankey-caption-title">{label}</span>
      <span className="callflow-muted">
        {' '}
        · total {formatValue(data.total, data.metric.unit)}
        {relativeTo && relativeTo.total > 0 ? ` (${(data.total / relativeTo.total).toFixed(2)}× A)` : ''}
      </span>
    </>
  );
}

function Resizer({ height, onResize }: { height: number; onResize: (h: number) => void }) {
  const start = useRef<{ y: number; h: number } | null>(null);
  return (
    <div
      className="callflow-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the histogram and correlation views"
      tabIndex={0}
      onKeyDown={e => {
        if (e.key === 'ArrowUp') onResize(Math.min(600, height + 20));
        if (e.key === 'ArrowDown') onResize(Math.max(120, height - 20));
      }}
      onPointerDown={e => {
        start.current = { y: e.clientY, h: height };
        e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={e => {
        if (start.current)
          onResize(Math.max(120, Math.min(window.innerHeight - 160, start.current.h + start.current.y - e.clientY)));
      }}
      onPointerUp={() => {
        start.current = null;
      }}
    />
  );
}

function Details({
  height,
  options,
  setOption,
  data,
  node,
  brushed,
  onBrush,
  nodeMetrics,
  axes,
  setAxes,
}: {
  height: number;
  options: Options;
  setOption: <K extends keyof Options>(k: K, v: Options[K]) => void;
  data: CallflowData;
  node: CallflowNodeData | null;
  brushed: ReadonlySet<number>;
  onBrush: (c: number[] | null) => void;
  nodeMetrics: NodeMetricValues[] | null;
  axes: { x: string; y: string } | null;
  setAxes: (a: { x: string; y: string }) => void;
}) {
  const body = useRef<HTMLDivElement>(null);
  const size = useElementSize(body);
  const series = useMemo<Series[]>(() => {
    if (!node) return [];
    const own = data.metric;
    const list: Series[] = [];
    const add = (name: string, unit: string, inc?: readonly number[], exc?: readonly number[]) => {
      if (inc) list.push({ key: `${name}|inclusive`, label: `${name} inclusive`, unit, values: inc });
      if (exc) list.push({ key: `${name}|exclusive`, label: `${name} exclusive`, unit, values: exc });
    };
    if (nodeMetrics?.length) for (const m of nodeMetrics) add(m.name, m.unit, m.inclusive, m.exclusive);
    else add(own.name, own.unit, node.contextValues?.inclusive, node.contextValues?.exclusive);
    return list;
  }, [node, nodeMetrics, data.metric]);
  const ownKey = `${data.metric.name}|inclusive`;
  const other = series.find(s => !s.key.startsWith(`${data.metric.name}|`) && s.key.endsWith('|inclusive'));
  const xKey =
    axes && series.some(s => s.key === axes.x) ? axes.x : series.some(s => s.key === ownKey) ? ownKey : series[0]?.key;
  const yKey = axes && series.some(s => s.key === axes.y) ? axes.y : (other?.key ?? `${data.metric.name}|exclusive`);
  const xs = series.find(s => s.key === xKey),
    ys = series.find(s => s.key === yKey);
  return (
    <section className="callflow-details" style={{ height } as CSSProperties} aria-label="Selected node">
      <div className="callflow-details-bar">
        <div className="callflow-tabs" role="tablist">
          {(['histogram', 'correlation'] as const).map(t => (
            <button
              key={t}
              role="tab"
              aria-selected={options.tab === t}
              className={'callflow-tab' + (options.tab === t ? ' is-on' : '')}
              data-tab={t}
              onClick={() => setOption('tab', t)}
            >
              {t === 'histogram' ? 'Histogram' : 'Correlation'}
            </button>
          ))}
        </div>
        <span className="callflow-details-title">
          {node ? (
            <>
              {node.label} <span className="callflow-muted">· {node.module}</span>
            </>
          ) : (
            <span className="callflow-muted">Click a node to see its ranks</span>
          )}
        </span>
        <span className="callflow-toolbar-spacer" />
        {options.tab === 'histogram' ? (
          <>
            <Segmented
              label="Value"
              value={options.histMetric}
              choices={[
                ['inclusive', 'Inclusive'],
                ['exclusive', 'Exclusive'],
              ]}
              onChange={v => setOption('histMetric', v)}
            />
            <label className="callflow-select">
              Bins{' '}
              <select value={options.bins} onChange={e => setOption('bins', Number(e.target.value))}>
                {BIN_CHOICES.map(b => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : series.length >= 2 ? (
          <>
            <label className="callflow-select">
              X{' '}
              <select value={xKey} onChange={e => setAxes({ x: e.target.value, y: yKey })}>
                {series.map(s => (
                  <option key={s.key} value={s.key}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="callflow-select">
              Y{' '}
              <select value={yKey} onChange={e => setAxes({ x: xKey!, y: e.target.value })}>
                {series.map(s => (
                  <option key={s.key} value={s.key}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : null}
      </div>
      <div className="callflow-details-body" ref={body}>
        {!node ? null : !size ? null : options.tab === 'histogram' ? (
          <HistogramView
            data={data}
            node={node}
            metric={options.histMetric}
            yScale={options.histScale}
            bins={options.bins}
            width={size.width}
            height={size.height - 20}
            brushed={brushed}
            onBrush={onBrush}
          />
        ) : xs && ys ? (
          <CorrelationView
            x={xs}
            y={ys}
            contexts={data.contexts?.indices ?? []}
            labels={data.contexts?.labels ?? []}
            brushed={brushed}
            onBrush={onBrush}
            width={size.width}
            height={size.height - 20}
          />
        ) : (
          <div className="callflow-empty">No per-rank values for {node.label}.</div>
        )}
      </div>
    </section>
  );
}

function ContextMenu({
  menu,
  data,
  request,
  onOpenSource,
  onShowCallees,
  close,
}: {
  menu: Menu;
  data: CallflowData;
  request: (r: CallflowRequest) => void;
  onOpenSource: (e: SourceEntry) => void;
  onShowCallees: () => void;
  close: () => void;
}) {
  const n = menu.node;
  const folded = n.filteredCalleeCount ?? n.filteredCallees?.length ?? 0;
  const shownAgain = (data.repopulate ?? []).filter(r => r.node === n.id);
  const entries = n.entryCount ?? n.entries?.length ?? 0;
  const callers = n.callers?.length ?? 0;
  const isSplit =
    (n.baseId !== undefined && n.baseId !== n.id) ||
    (data.splits ?? []).some(s => s.node === n.id) ||
    (data.reveal ?? []).some(r => r.node === (n.baseId ?? n.id));
  const items: { label: string; run: () => void; disabled?: boolean }[] = [
    { label: 'Select', run: () => request({ type: 'callflow/select', nodeId: n.id }) },
    {
      label: `Split by entry function (${entries})`,
      run: () => request({ type: 'callflow/split', nodeId: n.id, mode: 'entry' }),
      disabled: entries < 2 && n.kind === 'module',
    },
    {
      label: `Split by caller (${callers})`,
      run: () => request({ type: 'callflow/split', nodeId: n.id, mode: 'caller' }),
      disabled: callers < 2 && n.kind === 'module',
    },
    ...(isSplit ? [{ label: 'Un-split', run: () => request({ type: 'callflow/unsplit', nodeId: n.id }) }] : []),
    ...(n.entries ?? [])
      .slice(0, 5)
      .filter(() => entries >= 2)
      .map(e => ({
        label: `Reveal ${e.name}`,
        run: () => request({ type: 'callflow/reveal', nodeId: n.id, function: e.name }),
      })),
    ...(n.entries ?? [])
      .slice(0, 3)
      .filter(e => e.file)
      .map(e => ({
        label: `Go to ${e.name}${e.line !== null ? ` (line ${e.line})` : ''}`,
        run: () => onOpenSource({ nodeId: n.id, entry: (n.entries ?? []).indexOf(e) }),
      })),
    { label: `Show filtered callees (${folded.toLocaleString('en')})`, run: onShowCallees, disabled: folded === 0 },
    ...shownAgain.map(r => ({
      label: `Hide again: ${r.function}`,
      run: () => request({ type: 'callflow/unrepopulate', nodeId: n.id, function: r.function }),
    })),
  ];
  return (
    <div
      className="callflow-menu"
      role="menu"
      style={{ left: inWindow(menu.x, menu.y, 260, 300).x, top: inWindow(menu.x, menu.y, 260, 300).y }}
      onClick={e => e.stopPropagation()}
    >
      <div className="callflow-menu-title">{n.label}</div>
      {items.map(i => (
        <button
          key={i.label}
          role="menuitem"
          className="callflow-menu-item"
          data-menu-item={i.label.replace(/ \(.*$/, '').replace(/:.*$/, '')}
          disabled={i.disabled}
          onClick={() => {
            close();
            i.run();
          }}
        >
          {i.label}
        </button>
      ))}
    </div>
  );
}
