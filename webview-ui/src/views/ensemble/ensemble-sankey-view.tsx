/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The Ensemble-Sankey (seed-callflow §4.2, §4.8): the ensemble super graph drawn by React from the
 * CallFlow layout. Bars are as tall as their max inclusive value over the runs and filled with a
 * vertical gradient of the run histogram (bin 0 — the lowest values — at the top, one count → colour
 * scale for every node); the 3 px border is the max over runs of the other side. Ribbons are max
 * flows with tapered ends where maxima from different runs do not fit a node (AT-14).
 *
 * Modes: `target` overlays the target run's ribbons in green on the grey ensemble ribbons and
 * draws a green line in each bar at the target's bin (nodes missing in the target are hatched);
 * `diff` fills the bars with compare − baseline on a symmetric red–green scale, on the same layout
 * (the layout never depends on the mode or the pair, AT-10). Text guides mark the bins with their
 * run counts, the min and max, and — clicked — list a bin's runs with "Show only these runs".
 * An ordered ensemble adds a sparkline of each node against the order (tooltip, text guides) and
 * flags nodes whose runtime does not follow it.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent, ReactNode } from 'react';
import { useSvgZoom } from '../../components/use-svg-zoom';
import type {
  EnsembleGraphData,
  EnsembleNodeData,
  EnsembleRequest,
  EnsembleSourceRef,
  EnsembleViewState,
} from '../../../../src/shared/ensemble-protocol';
import { formatValue } from '../../format';
import { createTextMeasurer, estimateText } from '../../text-measure';
import type { MeasureText } from '../../text-measure';
import { StatusMessage } from '../../components/status-message';
import { placeLabels } from '../sankey/sankey-labels';
import type { PositionedNode, SankeyLayout } from '../sankey/sankey-layout';
import { keepElement, MoreNode, MoreTooltip, NodeBox, ZoomedLabels } from '../sankey/sankey-parts';
import { borderColour, countTextColour, diffColour, gradientStops, TARGET_COLOUR_CSS } from './ensemble-colours';
import {
  asCallflowData,
  hottestEntry,
  layoutEnsemble,
  layoutKey,
  placeGuides,
  targetLineY,
  targetRibbonPath,
} from './ensemble-sankey-layout';
import type { GuideText } from './ensemble-sankey-layout';
import {
  BinPopover,
  EnsembleLegend,
  LinkTooltip,
  NodeMenu,
  nodeMenuItems,
  NodeTooltip,
  Sparkline,
} from './ensemble-sankey-parts';
import { tooltipPlacement } from '../../components/tooltip-placement';

export interface EnsembleSankeyProps {
  data: EnsembleGraphData;
  state: EnsembleViewState;
  width: number;
  height: number;
  /** select, split, unsplit, runs (text-guide bin filter). */
  onRequest(r: EnsembleRequest): void;
  onOpenSource(ref: EnsembleSourceRef): void;
  /** Node ids to outline (Reveal Current Line). */
  highlight?: readonly string[];
  /** Label text measuring; the real font on a canvas when not given (tests pass the estimate). */
  measureText?: MeasureText;
}

/** Height of the legend strip above the chart. */
export const LEGEND_HEIGHT = 48;
/** Time a click waits for a second click (a double-click opens the source instead of selecting). */
const DOUBLE_CLICK_MS = 230;
/** A bin's run count is written on the bar when the bin is at least this tall (px). */
const COUNT_MIN_BIN_PX = 11;
/** Bin separators are drawn when bins are at least this tall (px). */
const SEPARATOR_MIN_BIN_PX = 3;
/** Width of the webview's scroll bars (VS Code styles them 10 px wide). */
const SCROLLBAR_WIDTH = 10;
/** Size of the text-guide sparkline beside a bar. */
const GUIDE_SPARK = { width: 40, height: 14 };

type Hover = { kind: 'node' | 'link'; id: string } | null;
interface Popover {
  nodeId: string;
  bin: number;
  left: number;
  top: number;
}
interface Menu {
  nodeId: string;
  x: number;
  y: number;
}

const safeId = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '');

export function EnsembleSankeyView(p: EnsembleSankeyProps) {
  const { data, state, onRequest, onOpenSource } = p;
  const uid = 'ens' + safeId(useId());
  const chartWidth = Math.max(0, p.width);
  const chartHeight = Math.max(0, p.height - LEGEND_HEIGHT);
  const side = state.options.gradientSide;
  const borderSide = state.options.borderSide;
  const nodeById = useMemo(() => new Map(data.nodes.map(n => [n.id, n])), [data]);
  const nodeIndex = useMemo(() => new Map(data.nodes.map((n, i) => [n.id, i])), [data]);
  const labelOf = useCallback((id: string): string => nodeById.get(id)?.label ?? id, [nodeById]);

  // Layout: recomputed only when the structure, the maxima or the size change; new data stays close to the last drawing.
  const previous = useRef<SankeyLayout | null>(null);
  const key = layoutKey(data);
  const isEmpty = data.nodes.length === 0;
  // "k more" bars the user expanded: their columns show every node, the chart scrolling if need be.
  const [expanded, setExpanded] = useState<readonly string[]>([]);
  const layout = useMemo(() => {
    if (isEmpty || chartWidth <= 0 || chartHeight <= 0) return null;
    const whole = layoutEnsemble(data, chartWidth, chartHeight, previous.current, expanded);
    // Taller than the chart (an expanded column): it scrolls, so leave room for the scroll bar.
    return whole.height > chartHeight + 0.5
      ? layoutEnsemble(data, chartWidth - SCROLLBAR_WIDTH, chartHeight, previous.current, expanded)
      : whole;
    // `data` is read through `key`: a new diff pair or target with the same graph keeps this layout (AT-10).
  }, [key, chartWidth, chartHeight, isEmpty, expanded]);
  const scrolls = layout !== null && layout.height > chartHeight + 0.5;
  useEffect(() => {
    if (layout) previous.current = layout;
  }, [layout]);

  const measure = useMemo<MeasureText>(
    () =>
      p.measureText ??
      (typeof document === 'undefined'
        ? estimateText
        : createTextMeasurer(getComputedStyle(document.body).fontFamily || 'sans-serif')),
    [p.measureText],
  );
  const labels = useMemo(
    () => (layout ? placeLabels(layout, { unit: data.metric.unit, measure }) : []),
    [layout, data.metric.unit, measure],
  );
  const guides = useMemo(
    () =>
      layout
        ? placeGuides(layout, nodeById, {
            width: chartWidth,
            height: chartHeight,
            textGuides: state.options.textGuides && state.mode !== 'diff',
            side: state.options.gradientSide,
            unit: data.metric.unit,
            sparkline: new Set(data.order ? data.nodes.filter(n => n.sparkline).map(n => n.id) : []),
            outOfOrder: new Set(data.order ? data.nodes.filter(n => n.sparkline?.outOfOrder).map(n => n.id) : []),
            labels,
            measure: t => measure(t, 'detail') * (10 / 11),
            format: formatValue,
            sparkSize: GUIDE_SPARK,
          })
        : [],
    [
      layout,
      nodeById,
      chartWidth,
      chartHeight,
      state.options.textGuides,
      state.mode,
      state.options.gradientSide,
      data,
      labels,
      measure,
    ],
  );
  // The ensemble link of each drawn ribbon; none for a ribbon to or from a "k more" bar (links summed).
  const linkData = useMemo(() => {
    if (!layout) return [];
    const byEnds = new Map(data.links.map(l => [`${l.source}\u0000${l.target}`, l]));
    return layout.links.map(l =>
      l.source.more || l.target.more ? undefined : byEnds.get(`${l.source.id}\u0000${l.target.id}`),
    );
  }, [layout, data]);
  const toggleMore = (id: string): void => {
    setHover(null);
    setExpanded(list => (list.includes(id) ? list.filter(x => x !== id) : [...list, id]));
  };

  // Zoom and pan (wheel, drag on the background); labels and text guides keep their size.
  const svgRef = useRef<SVGSVGElement>(null);
  const { transform: zoomT, reset: resetZoom } = useSvgZoom(svgRef, {
    enabled: true,
    ignore: '.ens-node, .sankey-node',
    attachKey: layout !== null,
    wheelNeedsModifier: scrolls,
  });
  const zoomed = zoomT.k !== 1 || zoomT.x !== 0 || zoomT.y !== 0;

  // Hover, tooltip, popover and menu.
  const chartRef = useRef<HTMLDivElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<Hover>(null);
  const [popover, setPopover] = useState<Popover | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  const pointer = useRef({ x: 0, y: 0 });
  const placeTooltip = useCallback(() => {
    const tip = tooltipRef.current;
    const box = chartRef.current;
    if (!tip || !box) return;
    const { x, y } = pointer.current;
    const { left, top } = tooltipPlacement(
      x,
      y,
      { width: tip.offsetWidth, height: tip.offsetHeight },
      { width: box.clientWidth, height: box.clientHeight },
    );
    tip.style.transform = `translate(${left}px, ${top}px)`;
  }, []);
  useLayoutEffect(placeTooltip, [hover, placeTooltip]);
  const pointerAt = useCallback(
    (e: ReactMouseEvent) => {
      const rect = chartRef.current?.getBoundingClientRect();
      if (!rect) return;
      pointer.current = { x: e.clientX - rect.left, y: e.clientY - rect.top };
      placeTooltip();
    },
    [placeTooltip],
  );
  // New data closes what referred to the old one.
  useEffect(() => {
    setPopover(null);
    setMenu(null);
  }, [data]);

  const current =
    hover &&
    layout &&
    (hover.kind === 'node'
      ? nodeById.has(hover.id) || layout.nodes.some(n => n.id === hover.id && n.more)
      : layout.links.some(l => l.id === hover.id))
      ? hover
      : null;
  const active = useMemo(() => {
    if (!layout || !current) return null;
    const nodes = new Set<string>(),
      links = new Set<string>();
    if (current.kind === 'link') {
      const l = layout.links.find(x => x.id === current.id)!;
      links.add(l.id);
      nodes.add(l.source.id);
      nodes.add(l.target.id);
    } else {
      nodes.add(current.id);
      for (const l of layout.links)
        if (l.source.id === current.id || l.target.id === current.id) {
          links.add(l.id);
          nodes.add(l.source.id);
          nodes.add(l.target.id);
        }
    }
    return { nodes, links };
  }, [layout, current]);

  // Click selects after a short wait, so a double-click (open the source) does not also select.
  const clickTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(clickTimer.current), []);
  const openSource = useCallback(
    (n: EnsembleNodeData) => {
      const e = hottestEntry(n);
      if (e) onOpenSource({ kind: 'entry', nodeId: n.id, entry: n.entries.indexOf(e) });
    },
    [onOpenSource],
  );
  const onNodeClick = (n: EnsembleNodeData): void => {
    clearTimeout(clickTimer.current);
    setPopover(null);
    clickTimer.current = setTimeout(() => onRequest({ type: 'ensemble/select', nodeId: n.id }), DOUBLE_CLICK_MS);
  };
  const onNodeDoubleClick = (n: EnsembleNodeData): void => {
    clearTimeout(clickTimer.current);
    openSource(n);
  };
  const openMenu = (n: EnsembleNodeData, x: number, y: number): void => {
    setHover(null);
    setPopover(null);
    setMenu({ nodeId: n.id, x: Math.min(x, window.innerWidth - 280), y: Math.min(y, window.innerHeight - 200) });
  };
  const onBinClick = (e: ReactMouseEvent, n: PositionedNode, bin: number): void => {
    e.stopPropagation();
    clearTimeout(clickTimer.current);
    const rect = chartRef.current?.getBoundingClientRect();
    const x = rect ? e.clientX - rect.left : 0,
      y = rect ? e.clientY - rect.top : 0;
    setHover(null);
    setPopover({
      nodeId: n.id,
      bin,
      left: Math.max(4, Math.min(chartWidth - 290, x + 12)),
      top: Math.max(4, Math.min(chartHeight - 220, y - 20)),
    });
  };

  // Keyboard: Tab between nodes, arrows along the graph, Enter selects, O opens the source, the menu key splits.
  const nodeElements = useRef(new Map<string, SVGGElement>());
  const focusNode = (id: string | undefined): void => {
    if (id) nodeElements.current.get(id)?.focus();
  };
  const onNodeKey = (e: ReactKeyboardEvent, pn: PositionedNode, n: EnsembleNodeData): void => {
    if (!layout) return;
    const order = layout.nodes;
    const i = order.findIndex(x => x.id === pn.id);
    const heaviest = (end: 'source' | 'target'): string | undefined =>
      layout.links
        .filter(l => (end === 'target' ? l.source.id : l.target.id) === pn.id)
        .sort((a, b) => b.value - a.value)[0]?.[end].id;
    const box = (e.currentTarget as SVGGElement).getBoundingClientRect?.();
    switch (e.key) {
      case 'Enter':
      case ' ':
        e.preventDefault();
        onRequest({ type: 'ensemble/select', nodeId: n.id });
        break;
      case 'o':
      case 'O':
        e.preventDefault();
        openSource(n);
        break;
      case 'ContextMenu':
        e.preventDefault();
        openMenu(n, box?.right ?? 0, box?.top ?? 0);
        break;
      case 'F10':
        if (e.shiftKey) {
          e.preventDefault();
          openMenu(n, box?.right ?? 0, box?.top ?? 0);
        }
        break;
      case 'Escape':
        setHover(null);
        setMenu(null);
        setPopover(null);
        break;
      case 'ArrowDown':
        e.preventDefault();
        focusNode(order[Math.min(order.length - 1, i + 1)]?.id);
        break;
      case 'ArrowUp':
        e.preventDefault();
        focusNode(order[Math.max(0, i - 1)]?.id);
        break;
      case 'ArrowRight':
        e.preventDefault();
        focusNode(heaviest('target'));
        break;
      case 'ArrowLeft':
        e.preventDefault();
        focusNode(heaviest('source'));
        break;
    }
  };

  // Reveal Current Line: the outlined nodes must be on screen.
  const highlight = useMemo(() => new Set(p.highlight ?? []), [p.highlight]);
  useEffect(() => {
    if (!layout || highlight.size === 0) return;
    const outside = layout.nodes.some(
      n =>
        highlight.has(n.id) &&
        (zoomT.applyX(n.x1) < 0 ||
          zoomT.applyX(n.x0) > chartWidth ||
          zoomT.applyY(n.y1) < 0 ||
          zoomT.applyY(n.y0) > chartHeight),
    );
    if (outside) resetZoom();
    // Only when the request changes, not on every pan.
  }, [highlight, layout]);

  const borderValue = (n: EnsembleNodeData): number => (borderSide === 'inclusive' ? n.maxInclusive : n.maxExclusive);
  const targetBin = (n: EnsembleNodeData): number =>
    !n.target ? -1 : side === 'inclusive' ? n.target.binInclusive : n.target.binExclusive;
  const missingInTarget = (n: EnsembleNodeData): boolean =>
    state.mode === 'target' && (!n.target || n.target.inclusive === null);
  const fillOf = (n: EnsembleNodeData, i: number): string => {
    if (state.mode === 'diff')
      return n.diff && n.diff.exclusive !== null
        ? diffColour(n.diff.exclusive, data.diffDomain ?? 0)
        : `url(#${uid}-hatch)`;
    if (missingInTarget(n)) return `url(#${uid}-hatch)`;
    return `url(#${uid}-g${i})`;
  };
  const scale = data.countScale[side];
  const k = zoomT.k;
  const keepSize = (x: number, y: number): string | undefined =>
    k === 1 ? undefined : `translate(${x},${y}) scale(${1 / k}) translate(${-x},${-y})`;

  let tooltip: ReactNode = null;
  if (layout && current && !menu && !popover) {
    const more = current.kind === 'node' ? layout.nodes.find(n => n.id === current.id && n.more) : undefined;
    const i = current.kind === 'link' ? layout.links.findIndex(x => x.id === current.id) : -1;
    if (more) {
      // The members as the layout saw them (max over runs), shares of the longest run.
      const flow = asCallflowData(data);
      const members = new Map(flow.nodes.map(n => [n.id, n]));
      tooltip = (
        <MoreTooltip
          node={more}
          unit={data.metric.unit}
          total={flow.total}
          members={more.more!.members.map(id => members.get(id)).filter(n => n !== undefined)}
          expanded={expanded.includes(more.id)}
        />
      );
    } else if (current.kind === 'node')
      tooltip = <NodeTooltip data={data} node={nodeById.get(current.id)!} state={state} labelOf={labelOf} />;
    else if (linkData[i]) {
      tooltip = (
        <LinkTooltip
          data={data}
          link={linkData[i]!}
          state={state}
          labelOf={labelOf}
          tapered={layout.links[i]!.tapered}
        />
      );
    }
  }

  const drawn = layout?.nodes.length ?? 0;
  const popNode = popover ? nodeById.get(popover.nodeId) : undefined;
  const menuNode = menu ? nodeById.get(menu.nodeId) : undefined;
  return (
    <div
      className={`ens-sankey is-${state.mode}`}
      data-ensemble-view="sankey"
      data-drawn={drawn}
      style={{ width: p.width, height: p.height }}
      onClick={() => {
        setMenu(null);
        setPopover(null);
      }}
    >
      <EnsembleLegend data={data} state={state} />
      <div
        className="ens-chart"
        ref={chartRef}
        style={{ width: chartWidth, height: chartHeight }}
        data-more={layout?.nodes.filter(n => n.more).length ?? 0}
        data-merged={layout?.merged ?? 0}
        data-expanded={expanded.length}
        data-scrolls={scrolls}
        onMouseLeave={() => setHover(null)}
      >
        {isEmpty ? (
          <StatusMessage title="No call flow to show">
            No module of the {data.selectedRuns.length} selected runs has a value for <em>{data.metric.name}</em> above
            the filter.
          </StatusMessage>
        ) : layout ? (
          // Only the drawing scrolls (an expanded column): the tooltip, popover and buttons stay where the pointer is.
          <div className="ens-scroll" style={{ overflowY: scrolls ? 'auto' : 'hidden' }}>
            <svg
              ref={svgRef}
              className={'ens-svg' + (active ? ' has-highlight' : '')}
              width={layout.width}
              height={layout.height}
              viewBox={`0 0 ${layout.width} ${layout.height}`}
              role="group"
              aria-label={`Ensemble call flow of ${data.title}: ${layout.nodes.length} modules over ${data.selectedRuns.length} runs. Tab or the arrow keys move between modules, Enter selects, O opens the source.`}
            >
              <defs>
                <pattern
                  id={`${uid}-hatch`}
                  className="ens-hatch"
                  patternUnits="userSpaceOnUse"
                  width={6}
                  height={6}
                  patternTransform="rotate(45)"
                >
                  <line x1={0} y1={0} x2={0} y2={6} className="ens-hatch-line" />
                </pattern>
                {state.mode === 'diff'
                  ? null
                  : data.nodes.map((n, i) =>
                      missingInTarget(n) ? null : (
                        <linearGradient
                          key={n.id}
                          id={`${uid}-g${i}`}
                          className="ens-gradient"
                          data-node-id={n.id}
                          x1="0"
                          y1="0"
                          x2="0"
                          y2="1"
                        >
                          {gradientStops(n.gradient[side], scale).map((s, b) => (
                            <stop key={b} offset={s.offset.toFixed(4)} stopColor={s.colour} data-count={s.count} />
                          ))}
                        </linearGradient>
                      ),
                    )}
              </defs>
              <g className="ens-zoom" transform={zoomed ? zoomT.toString() : undefined}>
                <g className="ens-links">
                  {layout.links.map((l, i) => {
                    const hairline = Math.max(l.width, l.targetY1 - l.targetY0) < 1;
                    const on = active?.links.has(l.id) ?? false;
                    const targetValue = linkData[i]?.targetValue;
                    return (
                      <g key={l.id}>
                        <path
                          className={
                            'ens-link' +
                            (on ? ' is-active' : '') +
                            (hairline ? ' is-hairline' : '') +
                            (l.tapered ? ' is-tapered' : '')
                          }
                          d={hairline ? l.centreLine : l.path}
                          data-link-id={l.id}
                          onMouseEnter={e => {
                            pointerAt(e);
                            setHover({ kind: 'link', id: l.id });
                          }}
                          onMouseMove={pointerAt}
                          onMouseLeave={() => setHover(null)}
                        />
                        {state.mode === 'target' && targetValue !== undefined && targetValue > 0 && l.value > 0 ? (
                          <path
                            className="ens-target-link"
                            d={targetRibbonPath(layout.callflow.edges[i]!.points, targetValue / l.value)}
                            style={{ fill: TARGET_COLOUR_CSS }}
                            pointerEvents="none"
                          />
                        ) : null}
                      </g>
                    );
                  })}
                </g>
                <g className="ens-nodes">
                  {layout.nodes.map(pn => {
                    if (pn.more)
                      return (
                        <MoreNode
                          key={pn.id}
                          node={pn}
                          active={active?.nodes.has(pn.id) ?? false}
                          expanded={expanded.includes(pn.id)}
                          onToggle={() => toggleMore(pn.id)}
                          onKey={e => {
                            if (e.key !== 'Enter' && e.key !== ' ') return;
                            e.preventDefault();
                            toggleMore(pn.id);
                          }}
                          onFocus={() => undefined}
                          onHover={e => {
                            if (e) pointerAt(e);
                            setHover(e ? { kind: 'node', id: pn.id } : null);
                          }}
                          onMove={pointerAt}
                          register={keepElement(nodeElements.current, pn.id)}
                        />
                      );
                    const n = nodeById.get(pn.id)!;
                    const i = nodeIndex.get(pn.id)!;
                    const h = pn.y1 - pn.y0,
                      w = pn.x1 - pn.x0;
                    const hist = n.gradient[side];
                    const bins = hist.counts.length;
                    const binPx = h / Math.max(1, bins);
                    const tBin = targetBin(n);
                    const missing = missingInTarget(n);
                    const guides = state.options.textGuides && state.mode !== 'diff';
                    return (
                      <g
                        key={pn.id}
                        ref={keepElement(nodeElements.current, pn.id)}
                        className={
                          'ens-node' +
                          (active?.nodes.has(pn.id) ? ' is-active' : '') +
                          (state.selected === pn.id ? ' is-selected' : '') +
                          (highlight.has(pn.id) ? ' is-revealed' : '') +
                          (missing ? ' is-missing-target' : '')
                        }
                        data-node-id={pn.id}
                        tabIndex={0}
                        role="button"
                        aria-pressed={state.selected === pn.id}
                        aria-label={nodeAriaLabel(data, n, state)}
                        onClick={() => onNodeClick(n)}
                        onDoubleClick={() => onNodeDoubleClick(n)}
                        onContextMenu={e => {
                          e.preventDefault();
                          e.stopPropagation();
                          openMenu(n, e.clientX, e.clientY);
                        }}
                        onKeyDown={e => onNodeKey(e, pn, n)}
                        onFocus={e => {
                          if (e.currentTarget.matches?.(':focus-visible')) {
                            pointer.current = { x: zoomT.applyX(pn.x1) + 4, y: zoomT.applyY(pn.y0) };
                            setHover({ kind: 'node', id: pn.id });
                          }
                        }}
                        onBlur={() => setHover(x => (x?.kind === 'node' && x.id === pn.id ? null : x))}
                        onMouseEnter={e => {
                          pointerAt(e);
                          setHover({ kind: 'node', id: pn.id });
                        }}
                        onMouseMove={pointerAt}
                        onMouseLeave={() => setHover(null)}
                      >
                        <NodeBox
                          node={pn}
                          className="ens-node-border"
                          pad={1.5}
                          rx={2}
                          stroke={borderColour(borderValue(n), data.borderDomain[borderSide])}
                        />
                        <NodeBox node={pn} className="ens-node-rect" fill={fillOf(n, i)} />
                        {guides && binPx >= SEPARATOR_MIN_BIN_PX ? (
                          <g className="ens-bin-separators" pointerEvents="none">
                            {Array.from({ length: bins - 1 }, (_, b) => (
                              <line
                                key={b}
                                x1={pn.x0}
                                x2={pn.x1}
                                y1={pn.y0 + (b + 1) * binPx}
                                y2={pn.y0 + (b + 1) * binPx}
                              />
                            ))}
                          </g>
                        ) : null}
                        {guides && binPx * k >= COUNT_MIN_BIN_PX
                          ? hist.counts.map((c, b) =>
                              c > 0 ? (
                                <text
                                  key={b}
                                  className="ens-bin-count"
                                  x={(pn.x0 + pn.x1) / 2}
                                  y={pn.y0 + (b + 0.5) * binPx}
                                  fill={countTextColour(c, scale)}
                                  transform={keepSize((pn.x0 + pn.x1) / 2, pn.y0 + (b + 0.5) * binPx)}
                                  pointerEvents="none"
                                >
                                  {c}
                                </text>
                              ) : null,
                            )
                          : null}
                        {state.mode === 'target' && tBin >= 0 && !missing ? (
                          <line
                            className="ens-target-line"
                            x1={pn.x0 - 3}
                            x2={pn.x1 + 3}
                            y1={targetLineY(pn.y0, pn.y1, tBin, bins)}
                            y2={targetLineY(pn.y0, pn.y1, tBin, bins)}
                            style={{ stroke: TARGET_COLOUR_CSS }}
                            pointerEvents="none"
                          />
                        ) : null}
                        {guides
                          ? hist.counts.map((c, b) => (
                              <rect
                                key={b}
                                className="ens-bin"
                                data-bin={b}
                                x={pn.x0}
                                y={pn.y0 + b * binPx}
                                width={w}
                                height={binPx}
                                aria-label={`${c} run${c === 1 ? '' : 's'} in bin ${b + 1}`}
                                onClick={e => onBinClick(e, pn, b)}
                              />
                            ))
                          : null}
                        <NodeBox node={pn} className="ens-node-focus" pad={5} rx={4} />
                        {state.selected === pn.id ? (
                          <NodeBox node={pn} className="ens-node-selected" pad={5} rx={4} />
                        ) : null}
                        {highlight.has(pn.id) ? (
                          <NodeBox node={pn} className="ens-node-revealed" pad={7} rx={5} />
                        ) : null}
                      </g>
                    );
                  })}
                </g>
                <g className="ens-labels" aria-hidden="true">
                  <ZoomedLabels
                    labels={labels}
                    nodes={layout.nodes}
                    zoom={k}
                    dimmed={id => active !== null && !active.nodes.has(id)}
                  />
                </g>
                <g className="ens-guides" aria-hidden="true">
                  {guides.map(g => {
                    const n = nodeById.get(g.nodeId)!;
                    return (
                      <g key={g.nodeId} className="ens-guide" data-node-id={g.nodeId}>
                        {g.min ? <GuideLabel guide={g.min} transform={keepSize(g.min.x, g.min.y)} /> : null}
                        {g.max ? <GuideLabel guide={g.max} transform={keepSize(g.max.x, g.max.y)} /> : null}
                        {g.spark && n.sparkline ? (
                          <g transform={keepSize(g.spark.x, g.spark.y)}>
                            <rect
                              className="ens-guide-bg"
                              x={g.spark.x - 2}
                              y={g.spark.y - 2}
                              width={GUIDE_SPARK.width + 4}
                              height={GUIDE_SPARK.height + 4}
                              rx={2}
                            />
                            <g transform={`translate(${g.spark.x},${g.spark.y})`}>
                              <Sparkline
                                values={n.sparkline[side]}
                                outOfOrder={n.sparkline.outOfOrder}
                                width={GUIDE_SPARK.width}
                                height={GUIDE_SPARK.height}
                              />
                            </g>
                          </g>
                        ) : null}
                        {g.flag ? (
                          <text
                            className="ens-ooo-flag"
                            x={g.flag.x}
                            y={g.flag.y}
                            transform={keepSize(g.flag.x, g.flag.y)}
                          >
                            ↯<title>{`Out of order against ${data.order?.key ?? 'the order'}`}</title>
                          </text>
                        ) : null}
                      </g>
                    );
                  })}
                </g>
              </g>
            </svg>
          </div>
        ) : null}
        {zoomed ? (
          <button
            className="callflow-button ens-reset-zoom"
            onClick={e => {
              e.stopPropagation();
              resetZoom();
            }}
          >
            Reset zoom
          </button>
        ) : null}
        <div
          ref={tooltipRef}
          className={'sankey-tooltip ens-tooltip' + (tooltip ? ' is-visible' : '')}
          role="tooltip"
          aria-hidden={tooltip ? undefined : true}
        >
          {tooltip}
        </div>
        {popover && popNode ? (
          <BinPopover
            data={data}
            node={popNode}
            side={side}
            bin={popover.bin}
            onRequest={onRequest}
            onClose={() => setPopover(null)}
            at={{ left: popover.left, top: popover.top }}
          />
        ) : null}
      </div>
      {expanded.length ? (
        // Outside the scrolling chart, so it stays in reach at any scroll position.
        <button
          className="callflow-button ens-merge-again"
          data-action="collapse-columns"
          title="Show the lightest nodes of each expanded column as one “more” bar again"
          onClick={e => {
            e.stopPropagation();
            setExpanded([]);
          }}
        >
          Merge expanded columns again
        </button>
      ) : null}
      {menu && menuNode ? (
        <NodeMenu
          title={menuNode.label}
          items={nodeMenuItems(data, menuNode, onRequest, onOpenSource)}
          at={menu}
          onClose={() => setMenu(null)}
        />
      ) : null}
    </div>
  );
}

/** A text guide (min, max) with a backing chip, centred on its x. */
function GuideLabel({ guide: g, transform }: { guide: GuideText; transform?: string }) {
  return (
    <g transform={transform}>
      <rect className="ens-guide-bg" x={g.x - g.width / 2} y={g.y - 10} width={g.width} height={13} rx={2} />
      <text className="ens-guide-text" x={g.x} y={g.y}>
        {g.text}
      </text>
    </g>
  );
}

function nodeAriaLabel(data: EnsembleGraphData, n: EnsembleNodeData, state: EnsembleViewState): string {
  const unit = data.metric.unit;
  const parts = [
    `${n.label}: inclusive ${formatValue(n.minInclusive, unit)} to ${formatValue(n.maxInclusive, unit)} over ${n.present} of ${data.selectedRuns.length} runs`,
    `max exclusive ${formatValue(n.maxExclusive, unit)}`,
  ];
  if (state.mode === 'target' && n.target)
    parts.push(
      n.target.inclusive === null
        ? 'missing in the target run'
        : `target ${formatValue(n.target.inclusive, unit)} inclusive`,
    );
  if (state.mode === 'diff' && n.diff)
    parts.push(
      n.diff.exclusive === null
        ? 'missing in both runs'
        : `difference ${n.diff.exclusive >= 0 ? '+' : '−'}${formatValue(Math.abs(n.diff.exclusive), unit)} exclusive`,
    );
  if (n.sparkline?.outOfOrder && data.order) parts.push(`out of order against ${data.order.key}`);
  return parts.join(', ') + '.';
}
