/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * The module Sankey: a header with the metric, total and counts, and the SVG drawn by React from the
 * CallFlow layout (no d3 DOM mutation): fixed-width bars as tall as their inclusive value, solid
 * where the time flows on to callees and lighter below (exclusive time), filled ribbons as wide as
 * the flow. Nodes are coloured by a heat scale of their share; hovering
 * or focusing a node or a link highlights its flow and shows a tooltip; clicking a node (or Enter on
 * it) opens its entry function's source.
 */
import { DEFAULT_HISTOGRAM_BINS, nodeRankHistogram } from '../../../../src/analysis/graph/rank-histogram';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { select } from 'd3';
import { useSvgZoom } from '../../components/use-svg-zoom';
import type {
  CSSProperties,
  KeyboardEvent as ReactKeyboardEvent,
  MouseEvent as ReactMouseEvent,
  ReactNode,
} from 'react';
import type {
  CallflowData,
  CallflowDiffData,
  CallflowNodeData,
  CallflowNodeDiff,
} from '../../../../src/shared/callflow-protocol';
import { formatDelta } from '../../../../src/analysis/graph/profile-diff';
import { formatImbalance, formatLocation, formatShare, formatValue } from '../../format';
import { createTextMeasurer, estimateText } from '../../text-measure';
import type { MeasureText } from '../../text-measure';
import { heatScale, outlineOf, useThemeColors } from '../../theme';
import type { ThemeColors } from '../../theme';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { columnCount, layoutSankey } from './sankey-layout';
import type { PositionedLink, PositionedNode, SankeyLayout } from './sankey-layout';
import { placeLabels, withLabelOnDemand } from './sankey-labels';
import { FilterNotes, keepElement, MoreNode, MoreTooltip, NodeBox, SankeyLabel, ZoomedLabels } from './sankey-parts';
import { sequentialPosition, valueOf, type ColourBy } from '../callflow/callflow-colours';
import { planTransition, type PlacedItem } from '../callflow/split-transition';
import { tooltipPlacement } from '../../components/tooltip-placement';

/** A location to open, by reference into the data the host sent: a node and one of its `entries` (-1: its `entry`). */
export interface SourceEntry {
  nodeId: string;
  entry: number;
}

export interface SankeyViewProps {
  data: CallflowData;
  /** Fixed drawing size in px; when either is missing the chart area is measured (ResizeObserver). */
  width?: number;
  height?: number;
  /** Theme colours; read from the VS Code theme when not given. */
  colors?: ThemeColors;
  /** Label text measuring; the real font on a canvas when not given. */
  measureText?: MeasureText;
  onOpenSource?: (entry: SourceEntry) => void;
  /** Nodes the host marks (Reveal Current Line, a CodeLens click): outlined, the first scrolled into view. */
  revealedIds?: readonly string[];
  /** Colour nodes by exclusive or inclusive value on [0, colourMax] (default: the share heat scale). */
  colourBy?: ColourBy;
  /** Upper end of the colour domain, shared by graphs drawn together (default: this graph's maximum). */
  colourMax?: number;
  /** A colour per node that overrides the scale (difference colouring of a brush split). */
  nodeColour?: (n: CallflowNodeData) => string | undefined;
  /** Legend drawn instead of the default one. */
  legend?: ReactNode;
  /** Draws the mini per-rank histogram of this value above every bar, with a linear or log count axis. */
  miniHistogram?: { metric: 'inclusive' | 'exclusive'; scale: 'linear' | 'log' };
  /** Cap of the vertical scale (two graphs side by side share one); `onFitted` reports the scale that fills the box. */
  maxScale?: number;
  onFitted?: (fittedScale: number) => void;
  /** The selected node: outlined solid. */
  selectedId?: string | null;
  /** Click selects (instead of opening the source); double-click splits; right-click opens a menu at window coordinates. */
  onSelect?: (n: CallflowNodeData) => void;
  onSplit?: (n: CallflowNodeData) => void;
  onContextMenu?: (n: CallflowNodeData, at: { x: number; y: number }) => void;
  /** Zoom (wheel) and pan (drag) with d3-zoom; labels keep their size. */
  zoomable?: boolean;
  /** A new value resets the zoom. */
  zoomResetKey?: number;
  /** Caption shown instead of the header (graphs stacked in one panel). */
  caption?: ReactNode;
  /** "Hide again" for everything repopulation shows (offered in the header's filter note). */
  onHideRepopulated?: () => void;
}

type Hover = { kind: 'node' | 'link'; id: string } | null;

/** Mini histogram size: its height (room the layout keeps above each bar) and the bar width that holds 20 bins. */
const MINI_HISTOGRAM_HEIGHT = 18;
const MINI_HISTOGRAM_NODE_WIDTH = 24;

/** Time a click waits for a second click (a double-click splits instead of selecting). */
const DOUBLE_CLICK_MS = 230;

/** Width of the webview's scroll bars (VS Code styles them 10 px wide). */
const SCROLLBAR_WIDTH = 10;

/** Narrowest column (bar and label gap) before the drawing scrolls sideways instead: room for a short label. */
const MIN_COLUMN_WIDTH = 96;
/** Smallest gap between two columns: sparse columns beside crowded ones keep room for a label. */
const MIN_COLUMN_GAP = 80;

const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Fill opacity of the exclusive (bottom) part of a bar; the part flowing on to callees is solid. */
const EXCLUSIVE_OPACITY = 0.42;

/** Imbalance (max/mean) from which the tooltip flags a node. */
const IMBALANCE_WARNING = 1.5;

export function SankeyView(props: SankeyViewProps) {
  const { onOpenSource } = props;
  // The data on screen lags `props.data` while the links of a split fade out (phase 1 of 3).
  const [data, setShownData] = useState(props.data);
  const linksRef = useRef<SVGGElement>(null);
  const labelsRef = useRef<SVGGElement>(null);
  const pendingMove = useRef<PlacedItem[] | null>(null);
  useEffect(() => {
    if (props.data === data) return;
    const structural =
      props.data.nodes.length !== data.nodes.length || props.data.nodes.some((n, i) => n.id !== data.nodes[i]?.id);
    const links = linksRef.current;
    if (!structural || !links || props.data.nodes.length === 0 || data.nodes.length === 0 || prefersReducedMotion()) {
      setShownData(props.data);
      return;
    }
    pendingMove.current = (previousLayout.current?.nodes ?? []).map(n => ({
      id: n.id,
      baseId: n.data.baseId,
      x0: n.x0,
      y0: n.y0,
      x1: n.x1,
      y1: n.y1,
    }));
    const next = props.data;
    const plan = planTransition([], [], false);
    const fadeOut = plan.phases[0]!.duration;
    select(links).interrupt('split').transition('split').duration(fadeOut).style('opacity', 0);
    if (labelsRef.current)
      select(labelsRef.current).interrupt('split').transition('split').duration(fadeOut).style('opacity', 0);
    // The new data is drawn when the fade-out is over (a timer, not the transition's end: an interrupted fade must not lose the data).
    const timer = setTimeout(() => setShownData(next), fadeOut);
    return () => clearTimeout(timer);
  }, [props.data, data]);
  const themeColors = useThemeColors();
  const colors = props.colors ?? themeColors;
  const chartRef = useRef<HTMLDivElement>(null);
  const fixedSize = props.width !== undefined && props.height !== undefined;
  const measured = useElementSize(chartRef, !fixedSize);
  const width = fixedSize ? props.width! : (measured?.width ?? 0);
  const height = fixedSize ? props.height! : (measured?.height ?? 0);
  const isEmpty = data.nodes.length === 0;

  // The last drawing: new data (a split, another metric) keeps the order and places of nodes that persist.
  const previousLayout = useRef<SankeyLayout | null>(null);
  const mini = props.miniHistogram;
  // "k more" nodes the user expanded (by column): their columns show every node, scrolling if need be.
  const [expanded, setExpanded] = useState<readonly string[]>([]);
  const layout = useMemo(() => {
    if (isEmpty || width <= 0 || height <= 0) return null;
    // Too many columns for their labels: the drawing gets wider and scrolls sideways (its scroll bar takes height).
    const wide = Math.max(width, columnCount(data) * MIN_COLUMN_WIDTH);
    const box = wide > width ? Math.max(SCROLLBAR_WIDTH * 4, height - SCROLLBAR_WIDTH) : height;
    const at = (w: number) =>
      layoutSankey(data, {
        width: w,
        height: box,
        expanded,
        minColumnGap: MIN_COLUMN_GAP,
        previous: previousLayout.current,
        ...(mini
          ? {
              histogramHeight: MINI_HISTOGRAM_HEIGHT + 4,
              nodeWidth: MINI_HISTOGRAM_NODE_WIDTH,
              margin: { top: 10 + MINI_HISTOGRAM_HEIGHT, right: 8, bottom: 10, left: 8 },
            }
          : {}),
        ...(props.maxScale !== undefined ? { maxScale: props.maxScale } : {}),
      });
    const whole = at(wide);
    // A drawing taller than the box scrolls: lay it out again beside the scroll bar (the height rules do not depend on the width).
    return whole.height > box + 0.5 && wide === width && width > SCROLLBAR_WIDTH * 4
      ? at(width - SCROLLBAR_WIDTH)
      : whole;
  }, [data, width, height, isEmpty, mini !== undefined, props.maxScale, expanded]);
  // Taller or wider than its box (an expanded column, many columns): the chart scrolls, and only Ctrl/⌘ + wheel zooms.
  const scrolls = layout !== null && (layout.height > height + 0.5 || layout.width > width + 0.5);
  const onFittedRef = useRef(props.onFitted);
  useLayoutEffect(() => {
    onFittedRef.current = props.onFitted;
  });
  useEffect(() => {
    if (layout) onFittedRef.current?.(layout.fittedScale);
  }, [layout]);

  // Phases 2 and 3 of a split: nodes move from where they (or the bar they came from) were, then the links fade in.
  useLayoutEffect(() => {
    const before = pendingMove.current;
    if (!layout || !before) return;
    pendingMove.current = null;
    const plan = planTransition(
      before,
      layout.nodes.map(n => ({ id: n.id, baseId: n.data.baseId, x0: n.x0, y0: n.y0, x1: n.x1, y1: n.y1 })),
      prefersReducedMotion(),
    );
    const [, move, fadeIn] = plan.phases;
    if (!move || !fadeIn) return;
    for (const m of plan.moves) {
      const el = nodeElements.current.get(m.id);
      if (!el) continue;
      const sy = (m.from.y1 - m.from.y0) / Math.max(1e-9, m.to.y1 - m.to.y0);
      const start = `translate(${m.from.x0},${m.from.y0}) scale(1,${Number.isFinite(sy) ? sy : 1}) translate(${-m.to.x0},${-m.to.y0})`;
      select(el)
        .attr('transform', start)
        .transition('split')
        .duration(move.duration)
        .attr('transform', 'translate(0,0) scale(1,1) translate(0,0)')
        .on('end', function () {
          select(this).attr('transform', null);
        });
    }
    for (const g of [linksRef.current, labelsRef.current]) {
      if (g)
        select(g)
          .style('opacity', 0)
          .transition('split')
          .delay(move.duration)
          .duration(fadeIn.duration)
          .style('opacity', 1);
    }
  }, [layout]);

  // Zoom and pan: the drawing scales, labels keep their size (and hide when their bar gets too small).
  const svgRef = useRef<SVGSVGElement>(null);
  const { transform: zoomT, reset: resetZoom } = useSvgZoom(svgRef, {
    enabled: props.zoomable ?? false,
    ignore: '.sankey-node',
    attachKey: layout !== null,
    wheelNeedsModifier: scrolls,
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(resetZoom, [props.zoomResetKey, resetZoom]);
  useEffect(() => {
    if (layout) previousLayout.current = layout;
  }, [layout]);
  const measure = useMemo<MeasureText>(
    () =>
      props.measureText ??
      (typeof document === 'undefined'
        ? estimateText
        : createTextMeasurer(getComputedStyle(document.body).fontFamily || 'sans-serif')),
    // The font can change with the theme.
    [props.measureText, colors],
  );
  const labels = useMemo(
    () => (layout ? placeLabels(layout, { unit: data.metric.unit, measure }) : []),
    [layout, data.metric.unit, measure],
  );
  const labelled = useMemo(() => new Set(labels.map(l => l.nodeId)), [labels]);
  const heat = useMemo(() => heatScale(colors), [colors]);
  const colourBy = props.colourBy;
  const colourMax = useMemo(
    () => (colourBy ? (props.colourMax ?? data.nodes.reduce((m, n) => Math.max(m, valueOf(n, colourBy)), 0)) : 0),
    [colourBy, props.colourMax, data],
  );
  const nodeColour = props.nodeColour;
  const fillOf = useCallback(
    (n: CallflowNodeData): string => {
      const own = nodeColour?.(n);
      if (own) return own;
      // heat() takes a share and spaces it by square root; a position on [0, max] goes through the same curve.
      return colourBy ? heat(sequentialPosition(valueOf(n, colourBy), colourMax)) : heat(n.share);
    },
    [nodeColour, colourBy, colourMax, heat],
  );

  // Hover / focus highlighting and the tooltip.
  const [hover, setHover] = useState<Hover>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  // Where the tooltip goes: beside the pointer, or beside a keyboard-focused node (on the side away from its label).
  const anchor = useRef<{ x: number; y: number; prefer: 'left' | 'right' }>({ x: 0, y: 0, prefer: 'right' });
  const placeTooltip = useCallback(() => {
    const tip = tooltipRef.current;
    const box = chartRef.current;
    if (!tip || !box) return;
    const { x, y, prefer } = anchor.current;
    const { left, top } = tooltipPlacement(
      x,
      y,
      { width: tip.offsetWidth, height: tip.offsetHeight },
      { width: box.clientWidth, height: box.clientHeight },
      prefer,
    );
    tip.style.transform = `translate(${left}px, ${top}px)`;
  }, []);
  useLayoutEffect(placeTooltip, [hover, placeTooltip]);
  const pointerAt = useCallback(
    (e: ReactMouseEvent) => {
      const rect = chartRef.current?.getBoundingClientRect();
      if (!rect) return;
      anchor.current = { x: e.clientX - rect.left, y: e.clientY - rect.top, prefer: 'right' };
      placeTooltip();
    },
    [placeTooltip],
  );
  // A hover/focus that no longer exists in new data is dropped.
  const current =
    hover &&
    layout &&
    (hover.kind === 'node' ? layout.nodes.some(n => n.id === hover.id) : layout.links.some(l => l.id === hover.id))
      ? hover
      : null;

  const highlight = useMemo(() => (layout && current ? highlighted(layout, current) : null), [layout, current]);

  const nodeElements = useRef(new Map<string, SVGGElement>());
  const revealed = useMemo(() => new Set(props.revealedIds ?? []), [props.revealedIds]);
  // Once per request (not on every redraw), as soon as the nodes are drawn — of the data the ids
  // belong to: during a split's fade-out the previous graph is still on screen.
  const scrolled = useRef<readonly string[] | undefined>(undefined);
  useEffect(() => {
    if (!props.revealedIds || props.revealedIds === scrolled.current || (!layout && !isEmpty) || data !== props.data)
      return;
    scrolled.current = props.revealedIds;
    const first = props.revealedIds.find(id => nodeElements.current.has(id));
    nodeElements.current.get(first ?? '')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [props.revealedIds, layout, isEmpty, data, props.data]);
  const open = useCallback(
    (n: CallflowNodeData) => {
      if (n.entry.file) onOpenSource?.({ nodeId: n.id, entry: -1 });
    },
    [onOpenSource],
  );
  // A click selects after a short wait, so that a double-click (split) does not also select.
  const clickTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(clickTimer.current), []);
  const toggleMore = (id: string): void => {
    setHover(null);
    setExpanded(list => (list.includes(id) ? list.filter(x => x !== id) : [...list, id]));
  };
  const onNodeClick = (n: CallflowNodeData): void => {
    const onSelect = props.onSelect;
    if (!onSelect) {
      open(n);
      return;
    }
    clearTimeout(clickTimer.current);
    clickTimer.current = setTimeout(() => onSelect(n), props.onSplit ? DOUBLE_CLICK_MS : 0);
  };
  const onNodeDoubleClick = (n: CallflowNodeData): void => {
    if (!props.onSplit) return;
    clearTimeout(clickTimer.current);
    props.onSplit(n);
  };
  const onNodeContextMenu = (e: ReactMouseEvent, n: CallflowNodeData): void => {
    if (!props.onContextMenu) return;
    e.preventDefault();
    e.stopPropagation();
    setHover(null);
    props.onContextMenu(n, { x: e.clientX, y: e.clientY });
  };

  const focusNode = (id: string | undefined): void => {
    if (id) nodeElements.current.get(id)?.focus();
  };
  const onNodeKey = (e: ReactKeyboardEvent, node: PositionedNode): void => {
    if (!layout) return;
    const order = layout.nodes;
    const i = order.findIndex(n => n.id === node.id);
    const heaviest = (links: PositionedLink[], end: 'source' | 'target'): string | undefined =>
      [...links].sort((a, b) => b.value - a.value)[0]?.[end].id;
    switch (e.key) {
      case 'Enter':
      case ' ':
        e.preventDefault();
        if (node.more) toggleMore(node.id);
        else open(node.data);
        break;
      case 'Escape':
        setHover(null);
        (e.currentTarget as SVGGElement).blur();
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
        focusNode(
          heaviest(
            layout.links.filter(l => l.source.id === node.id),
            'target',
          ),
        );
        break;
      case 'ArrowLeft':
        e.preventDefault();
        focusNode(
          heaviest(
            layout.links.filter(l => l.target.id === node.id),
            'source',
          ),
        );
        break;
    }
  };
  const onNodeFocus = (node: PositionedNode, el: SVGGElement): void => {
    // Focus by mouse: the tooltip keeps following the pointer.
    if (!el.matches(':focus-visible')) return;
    // Keyboard focus: the tooltip goes beside the node, on the side away from its label.
    const labelRight = labels.find(l => l.nodeId === node.id)?.side !== 'left';
    const dy = -(scrollRef.current?.scrollTop ?? 0);
    anchor.current = labelRight
      ? { x: node.x0 - 2, y: (node.y0 + node.y1) / 2 - 40 + dy, prefer: 'left' }
      : { x: node.x1 + 2, y: (node.y0 + node.y1) / 2 - 40 + dy, prefer: 'right' };
    setHover({ kind: 'node', id: node.id });
  };

  const unit = data.metric.unit;
  const total = data.total;
  const labelById = new Map(data.nodes.map(n => [n.id, n.label || n.module]));

  let tooltip: ReactNode = null;
  if (layout && current) {
    if (current.kind === 'node' && layout.nodes.find(x => x.id === current.id)?.more) {
      const n = layout.nodes.find(x => x.id === current.id)!;
      tooltip = (
        <MoreTooltip
          node={n}
          unit={unit}
          total={total}
          members={n.more!.members.map(id => data.nodes.find(d => d.id === id)).filter(d => d !== undefined)}
          expanded={expanded.includes(n.id)}
        />
      );
    } else if (current.kind === 'node') {
      const n = layout.nodes.find(x => x.id === current.id)!;
      const callers = [
        ...new Set(layout.links.filter(l => l.target.id === n.id).map(l => labelById.get(l.source.id)!)),
      ];
      tooltip = (
        <NodeTooltip
          node={n.data}
          unit={unit}
          total={total}
          diff={data.diff}
          color={fillOf(n.data)}
          colourOf={id => {
            const c = layout.nodes.find(x => x.id === id);
            return c ? fillOf(c.data) : undefined;
          }}
          labelOf={id => labelById.get(id) ?? id}
          callers={callers}
          interactive={props.onSelect !== undefined}
        />
      );
    } else {
      const l = layout.links.find(x => x.id === current.id)!;
      tooltip = <LinkTooltip link={l} unit={unit} total={total} labelOf={id => labelById.get(id) ?? id} />;
    }
  }

  // A node whose label had no room shows it while hovered or focused (never over the drawing's edge).
  const hoverNode =
    current?.kind === 'node' && !labelled.has(current.id) ? layout?.nodes.find(n => n.id === current.id) : undefined;
  // Labels of its own column that it covers give way while it shows.
  const { labels: shownLabels, onDemand: hoverLabel } =
    layout && hoverNode
      ? withLabelOnDemand(layout, labels, hoverNode, { unit: data.metric.unit, measure })
      : { labels, onDemand: null };
  // A mini histogram needs the room above its bar (a full column's gaps are narrower than it).
  const histogramRoom = useMemo(() => {
    const room = new Map<string, number>();
    if (!layout) return room;
    const byLayer = new Map<number, PositionedNode[]>();
    for (const n of layout.nodes) byLayer.set(n.layer, [...(byLayer.get(n.layer) ?? []), n]);
    for (const column of byLayer.values()) {
      column.sort((a, b) => a.y0 - b.y0);
      column.forEach((n, i) => room.set(n.id, n.y0 - (i > 0 ? column[i - 1]!.y1 : 0)));
    }
    return room;
  }, [layout]);
  const moreNodes = layout?.nodes.filter(n => n.more) ?? [];

  const drawnNodes = layout?.nodes.length ?? data.nodes.length;
  const drawnLinks = layout?.links.length ?? data.links.length;
  return (
    <div className="sankey-view">
      {props.caption !== undefined ? (
        <div className="sankey-caption">{props.caption}</div>
      ) : (
        <SankeyHeader
          data={data}
          nodeCount={drawnNodes}
          linkCount={drawnLinks}
          droppedLinks={layout?.droppedLinks ?? 0}
          heat={isEmpty ? null : heat}
          legend={props.legend}
        />
      )}
      <FilterNotes
        data={data}
        merged={layout?.merged ?? 0}
        moreCount={moreNodes.length}
        expanded={expanded.length}
        onCollapse={() => setExpanded([])}
        onHideRepopulated={props.onHideRepopulated}
      />
      <div
        className={'sankey-chart' + (props.zoomable ? ' is-zoomable' : '')}
        ref={chartRef}
        // What is drawn (read by the extension's tests and the screenshot scripts): nodes and links of the graph on screen.
        data-nodes={isEmpty ? 0 : layout ? layout.nodes.length : undefined}
        data-links={isEmpty ? 0 : layout ? layout.links.length : undefined}
        data-title={data.title}
        data-more={layout ? moreNodes.length : undefined}
        data-merged={layout ? layout.merged : undefined}
        data-expanded={layout ? expanded.length : undefined}
        data-drawing-height={layout ? Math.round(layout.height) : undefined}
        data-scrolls={layout ? String(scrolls) : undefined}
        onMouseLeave={() => setHover(null)}
      >
        {isEmpty ? (
          <StatusMessage title="No call flow to show">
            The profile has no module-level calls with a value for <em>{data.metric.name}</em>.
          </StatusMessage>
        ) : layout ? (
          <div className={'sankey-scroll' + (scrolls ? ' is-scrolling' : '')} ref={scrollRef}>
            <svg
              ref={svgRef}
              className={'sankey-svg' + (highlight ? ' has-highlight' : '')}
              width={layout.width}
              height={layout.height}
              viewBox={`0 0 ${layout.width} ${layout.height}`}
              role="group"
              aria-label={`Module call flow of ${data.title}: ${layout.nodes.length} modules, ${layout.links.length} calls. Use Tab or the arrow keys to move between modules, Enter to open a module's source.`}
            >
              <g
                className="sankey-zoom"
                transform={zoomT.k === 1 && zoomT.x === 0 && zoomT.y === 0 ? undefined : zoomT.toString()}
              >
                <g className="sankey-links" fill="none" ref={linksRef}>
                  {layout.links.map(l => {
                    const active = highlight?.links.has(l.id) ?? false;
                    // A ribbon is a filled outline (its two ends may differ in width); a hairline is a stroked centre line.
                    const hairline = Math.max(l.width, l.targetY1 - l.targetY0) < 1;
                    const ribbon: CSSProperties = hairline
                      ? {}
                      : {
                          fill: active ? 'var(--link-color)' : 'var(--vscode-foreground)',
                          fillOpacity: active
                            ? 'var(--hl-link-opacity-active)'
                            : highlight
                              ? 'var(--hl-link-opacity-dim)'
                              : 'var(--hl-link-opacity)',
                          stroke: 'none',
                          pointerEvents: 'visiblePainted',
                        };
                    return (
                      <path
                        key={l.id}
                        className={
                          'sankey-link' +
                          (active ? ' is-active' : '') +
                          (hairline ? ' is-hairline' : '') +
                          (l.tapered ? ' is-tapered' : '')
                        }
                        d={hairline ? l.centreLine : l.path}
                        style={{ '--link-color': fillOf(l.target.data), ...ribbon } as CSSProperties}
                        strokeWidth={hairline ? 1 : undefined}
                        data-link={l.id}
                        onMouseEnter={e => {
                          pointerAt(e);
                          setHover({ kind: 'link', id: l.id });
                        }}
                        onMouseMove={pointerAt}
                        onMouseLeave={() => setHover(null)}
                      />
                    );
                  })}
                </g>
                <g className="sankey-nodes">
                  {layout.nodes.map(n => {
                    if (n.more)
                      return (
                        <MoreNode
                          key={n.id}
                          node={n}
                          active={highlight?.nodes.has(n.id) ?? false}
                          expanded={expanded.includes(n.id)}
                          onToggle={() => toggleMore(n.id)}
                          onKey={e => onNodeKey(e, n)}
                          onFocus={el => onNodeFocus(n, el)}
                          onHover={e => {
                            if (e) {
                              pointerAt(e);
                              setHover({ kind: 'node', id: n.id });
                            } else setHover(null);
                          }}
                          onMove={pointerAt}
                          register={keepElement(nodeElements.current, n.id)}
                        />
                      );
                    const fill = fillOf(n.data);
                    const openable = n.data.entry.file != null;
                    return (
                      <g
                        key={n.id}
                        ref={keepElement(nodeElements.current, n.id)}
                        className={
                          'sankey-node' +
                          (highlight?.nodes.has(n.id) ? ' is-active' : '') +
                          (openable || props.onSelect ? ' is-openable' : '') +
                          (revealed.has(n.id) ? ' is-revealed' : '') +
                          (props.selectedId === n.id ? ' is-selected' : '')
                        }
                        data-node={n.id}
                        data-revealed={revealed.has(n.id) && data === props.data ? 'true' : undefined}
                        data-selected={props.selectedId === n.id ? 'true' : undefined}
                        tabIndex={0}
                        role="button"
                        aria-disabled={openable ? undefined : true}
                        aria-label={nodeAriaLabel(n.data, unit)}
                        onClick={() => onNodeClick(n.data)}
                        onDoubleClick={() => onNodeDoubleClick(n.data)}
                        onContextMenu={e => onNodeContextMenu(e, n.data)}
                        onKeyDown={e => onNodeKey(e, n)}
                        onFocus={e => onNodeFocus(n, e.currentTarget)}
                        onBlur={() => setHover(h => (h?.kind === 'node' && h.id === n.id ? null : h))}
                        onMouseEnter={e => {
                          pointerAt(e);
                          setHover({ kind: 'node', id: n.id });
                        }}
                        onMouseMove={pointerAt}
                        onMouseLeave={() => setHover(null)}
                      >
                        <NodeBox
                          node={n}
                          className="sankey-node-rect"
                          rx={2}
                          fill={fill}
                          fillOpacity={EXCLUSIVE_OPACITY}
                          stroke={outlineOf(fill, colors)}
                        />
                        {/* The part of the bar whose time flows on to callees is solid; the lighter rest below is exclusive time. */}
                        {n.outgoing > 0 ? (
                          <rect
                            className="sankey-node-calls"
                            x={n.x0}
                            y={n.y0}
                            width={n.x1 - n.x0}
                            height={n.outgoing}
                            rx={2}
                            fill={fill}
                            pointerEvents="none"
                            style={highlight && !highlight.nodes.has(n.id) ? { opacity: 0.35 } : undefined}
                          />
                        ) : null}
                        <NodeBox node={n} className="sankey-node-focus" pad={3} rx={4} />
                        {revealed.has(n.id) ? <RevealMark node={n} /> : null}
                        {props.selectedId === n.id ? (
                          <NodeBox node={n} className="sankey-node-selected" pad={3} rx={4} />
                        ) : null}
                        {mini && (histogramRoom.get(n.id) ?? 0) >= MINI_HISTOGRAM_HEIGHT + 3 ? (
                          <MiniHistogram
                            node={n}
                            metric={mini.metric}
                            scale={mini.scale}
                            bins={data.histogramBins ?? DEFAULT_HISTOGRAM_BINS}
                          />
                        ) : null}
                      </g>
                    );
                  })}
                </g>
                <g className="sankey-labels" aria-hidden="true" ref={labelsRef}>
                  <ZoomedLabels
                    labels={shownLabels}
                    nodes={layout.nodes}
                    zoom={zoomT.k}
                    dimmed={id => highlight !== null && !highlight.nodes.has(id)}
                  />
                  {hoverLabel ? <SankeyLabel key="on-demand" label={hoverLabel} zoom={zoomT.k} onDemand /> : null}
                </g>
              </g>
            </svg>
          </div>
        ) : null}
        <div
          ref={tooltipRef}
          className={'sankey-tooltip' + (tooltip ? ' is-visible' : '')}
          role="tooltip"
          aria-hidden={tooltip ? undefined : true}
        >
          {tooltip}
        </div>
      </div>
    </div>
  );
}

/** The outline of a node the host revealed: the theme's focus colour, dashed, so it reads beside hover highlighting. */
function RevealMark({ node: n }: { node: PositionedNode }) {
  const style: CSSProperties = {
    fill: 'none',
    stroke: 'var(--vscode-focusBorder, #0078d4)',
    strokeWidth: 2,
    strokeDasharray: '4 2',
    pointerEvents: 'none',
  };
  return <NodeBox node={n} className="sankey-node-revealed" pad={5} rx={5} style={style} />;
}

/** Nodes and links lit by hovering `hover`: a node's whole flow (callers up, callees down), or a link and its ends. */
function highlighted(layout: SankeyLayout, hover: NonNullable<Hover>): { nodes: Set<string>; links: Set<string> } {
  const nodes = new Set<string>();
  const links = new Set<string>();
  if (hover.kind === 'link') {
    const l = layout.links.find(x => x.id === hover.id);
    if (l) {
      links.add(l.id);
      nodes.add(l.source.id);
      nodes.add(l.target.id);
    }
    return { nodes, links };
  }
  nodes.add(hover.id);
  const walk = (start: string, dir: 'up' | 'down'): void => {
    const stack = [start];
    const seen = new Set<string>();
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const l of layout.links) {
        const from = dir === 'down' ? l.source.id : l.target.id;
        const to = dir === 'down' ? l.target.id : l.source.id;
        if (from === id) {
          links.add(l.id);
          nodes.add(to);
          stack.push(to);
        }
      }
    }
  };
  walk(hover.id, 'down');
  walk(hover.id, 'up');
  return { nodes, links };
}

function nodeAriaLabel(n: CallflowNodeData, unit: string): string {
  const where = n.entry.file
    ? `${formatLocation(n.entry.file, n.entry.line)}. Press Enter to open the source.`
    : 'source location unknown.';
  return (
    `${n.label || n.module}: ${formatValue(n.inclusive, unit)} inclusive, ${formatShare(n.share)} of total, ` +
    `${formatValue(n.exclusive, unit)} exclusive, imbalance ${formatImbalance(n.imbalance)}. Entry ${n.entry.name}, ${where}`
  );
}

function SankeyHeader({
  data,
  nodeCount,
  linkCount,
  droppedLinks,
  heat,
  legend,
}: {
  data: CallflowData;
  nodeCount: number;
  linkCount: number;
  droppedLinks: number;
  legend?: ReactNode;
  /** The node colour scale, for the legend; null when there is nothing to explain. */
  heat: ((share: number) => string) | null;
}) {
  const unit = data.metric.unit.trim();
  // Evenly spaced samples of the (square-root) heat scale for the legend gradient.
  const stops = heat ? Array.from({ length: 11 }, (_, i) => heat((i / 10) ** 2)) : [];
  return (
    <header className="sankey-header">
      <div className="sankey-heading">
        <h1 className="sankey-title" title={data.title}>
          {data.title}
        </h1>
        <div className="sankey-subtitle">
          Module call flow · <span className="sankey-metric">{data.metric.name}</span>
          {unit ? <span className="sankey-unit"> ({unit})</span> : null}
        </div>
      </div>
      <dl className="sankey-stats">
        {data.diff ? (
          <div className="sankey-stat" data-change-total={data.diff.compareTotal - data.diff.baselineTotal}>
            <dt>Total A → B</dt>
            <dd title={`A: ${data.diff.baselineTitle} · B: ${data.diff.compareTitle}`}>
              {formatValue(data.diff.baselineTotal, data.metric.unit)} →{' '}
              {formatValue(data.diff.compareTotal, data.metric.unit)} ·{' '}
              {formatDelta(data.diff.baselineTotal, data.diff.compareTotal, v => formatValue(v, data.metric.unit))}
            </dd>
          </div>
        ) : (
          <div className="sankey-stat">
            <dt>Total</dt>
            <dd>{formatValue(data.total, data.metric.unit)}</dd>
          </div>
        )}
        <div className="sankey-stat">
          <dt>Modules</dt>
          <dd>{nodeCount}</dd>
        </div>
        <div className="sankey-stat">
          <dt>Calls</dt>
          <dd>
            {linkCount}
            {droppedLinks > 0 ? (
              <span
                className="sankey-dropped"
                title={`${droppedLinks} call edge(s) could not be drawn (unknown modules or cycles)`}
              >
                {' '}
                +{droppedLinks} hidden
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      {legend !== undefined ? (
        legend
      ) : heat ? (
        <div className="sankey-legend" role="img" aria-label="Node colour: share of the total, from 0% to 100%">
          <div className="sankey-legend-title">Share of total</div>
          <div className="sankey-legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} />
          <div className="sankey-legend-ticks" aria-hidden="true">
            <span>0%</span>
            <span>25%</span>
            <span>100%</span>
          </div>
        </div>
      ) : null}
    </header>
  );
}

/** Entry functions listed in the tooltip (the rest are counted). */
const TOOLTIP_ENTRIES = 6;

function NodeTooltip({
  node,
  unit,
  total,
  diff,
  color,
  colourOf,
  labelOf,
  callers,
  interactive,
}: {
  node: CallflowNodeData;
  unit: string;
  total: number;
  /** A comparison's graph: the node's values in both runs are shown ("A → B"). */
  diff?: CallflowDiffData | undefined;
  color: string;
  callers: string[];
  interactive: boolean;
  colourOf: (id: string) => string | undefined;
  labelOf: (id: string) => string;
}) {
  const location = node.entry.file ? formatLocation(node.entry.file, node.entry.line) : null;
  const ofTotal = (v: number): string => (total > 0 ? formatShare(v / total) : '–');
  const entries = node.entries ?? [];
  const more = (node.entryCount ?? entries.length) - Math.min(entries.length, TOOLTIP_ENTRIES);
  return (
    <>
      <div className="tooltip-title">
        <span className="tooltip-swatch" style={{ background: color }} />
        <span>{node.label || node.module}</span>
      </div>
      <div className="tooltip-subtitle">
        Module {node.module}
        {node.kind && node.kind !== 'module'
          ? ` · split by ${node.kind === 'caller' ? 'caller' : node.kind === 'entry' ? 'entry function' : 'reveal'}`
          : ''}
      </div>
      <dl className="tooltip-grid">
        <dt>Inclusive</dt>
        <dd>
          {formatValue(node.inclusive, unit)} · {ofTotal(node.inclusive)}
        </dd>
        <dt>Exclusive</dt>
        <dd>
          {formatValue(node.exclusive, unit)} · {ofTotal(node.exclusive)}
        </dd>
        <dt>Imbalance</dt>
        <dd className={node.imbalance >= IMBALANCE_WARNING ? 'is-warning' : undefined}>
          {formatImbalance(node.imbalance)} max/mean
        </dd>
        {node.callers?.length ? null : callers.length ? (
          <>
            <dt>Called from</dt>
            <dd>{callers.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {node.diff && diff ? (
        <NodeChange change={node.diff} diff={diff} unit={unit} root={!node.callers?.length && callers.length === 0} />
      ) : null}
      {node.callers?.length ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">Called from</div>
          <ul className="tooltip-list">
            {node.callers.map(c => (
              <li key={c.id}>
                <span className="tooltip-swatch is-small" style={{ background: colourOf(c.id) ?? 'transparent' }} />
                <span className="tooltip-list-name">{labelOf(c.id)}</span>
                <span className="tooltip-list-value">
                  {formatValue(c.value, unit)} · {formatShare(c.share)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {entries.length ? (
        <div className="tooltip-section">
          <div className="tooltip-section-title">Entry functions</div>
          <ul className="tooltip-list">
            {entries.slice(0, TOOLTIP_ENTRIES).map(e => (
              <li key={e.name}>
                <code className="tooltip-list-name">{e.name}</code>
                <span className="tooltip-list-value">
                  {formatValue(e.inclusive, unit)}
                  {e.line !== null ? <span className="tooltip-muted"> · :{e.line}</span> : null}
                </span>
              </li>
            ))}
            {more > 0 ? <li className="tooltip-muted">… {more} more</li> : null}
          </ul>
        </div>
      ) : (
        <dl className="tooltip-grid">
          <dt>Entry</dt>
          <dd>
            <code>{node.entry.name}</code>
          </dd>
          <dt>Source</dt>
          <dd>{location ? <code>{location}</code> : <span className="tooltip-muted">unknown</span>}</dd>
        </dl>
      )}
      <div className="tooltip-hint">
        {interactive
          ? `${location ? 'Click: select and open the source' : 'Source location unknown · click: select'} · double-click: split · right-click: more`
          : location
            ? 'Click or press Enter to open the source'
            : 'Source location unknown — nothing to open'}
      </div>
    </>
  );
}

/** A comparison's node in both runs: `A → B` with the change, and for a root the two runs' totals. */
export function NodeChange({
  change,
  diff,
  unit,
  root,
}: {
  change: CallflowNodeDiff;
  diff: CallflowDiffData;
  unit: string;
  root: boolean;
}) {
  const fmt = (v: number) => formatValue(v, unit);
  const row = (a: number, b: number) => `${fmt(a)} → ${fmt(b)} · ${formatDelta(a, b, fmt)}`;
  const per = diff.baselineContexts > 1 || diff.compareContexts > 1 ? ' (mean per context)' : '';
  return (
    <div className="tooltip-section sankey-tooltip-change">
      <div className="tooltip-section-title" title={`A: ${diff.baselineTitle} · B: ${diff.compareTitle}`}>
        A → B{per}
        {change.status === 'added' ? ' · only in B' : ''}
      </div>
      <dl className="tooltip-grid">
        {root ? (
          <>
            <dt>Run total</dt>
            <dd>{row(diff.baselineTotal, diff.compareTotal)}</dd>
          </>
        ) : null}
        <dt>Inclusive</dt>
        <dd>{row(change.baseline.inclusive, change.compare.inclusive)}</dd>
        <dt>Exclusive</dt>
        <dd>{row(change.baseline.exclusive, change.compare.exclusive)}</dd>
      </dl>
      <div className="tooltip-muted">
        A: {diff.baselineTitle} · B: {diff.compareTitle}
      </div>
    </div>
  );
}

/** The per-rank histogram drawn in the room above a bar (neutral grey, as in CallFlow): bin counts, linear or log scaled to the room. */
function MiniHistogram({
  node: n,
  metric,
  scale,
  bins,
}: {
  node: PositionedNode;
  metric: 'inclusive' | 'exclusive';
  scale: 'linear' | 'log';
  bins: number;
}) {
  const h = nodeRankHistogram(n.data, metric, bins);
  if (!h || h.counts.length === 0) return null;
  const max = Math.max(...h.counts);
  if (max <= 0) return null;
  const w = (n.x1 - n.x0) / h.counts.length;
  const bottom = n.y0 - 3;
  const size = (c: number): number =>
    (scale === 'log' ? Math.log1p(c) / Math.log1p(max) : c / max) * MINI_HISTOGRAM_HEIGHT;
  return (
    <g className="sankey-mini-hist" pointerEvents="none" aria-hidden="true">
      <rect
        className="sankey-mini-hist-bg"
        x={n.x0}
        y={bottom - MINI_HISTOGRAM_HEIGHT}
        width={n.x1 - n.x0}
        height={MINI_HISTOGRAM_HEIGHT}
      />
      <line className="sankey-mini-hist-base" x1={n.x0} x2={n.x1} y1={bottom + 0.5} y2={bottom + 0.5} />
      {h.counts.map((c, i) =>
        c > 0 ? (
          <rect key={i} x={n.x0 + i * w} y={bottom - size(c)} width={Math.max(0.6, w - 0.3)} height={size(c)} />
        ) : null,
      )}
    </g>
  );
}

function LinkTooltip({
  link,
  unit,
  total,
  labelOf,
}: {
  link: PositionedLink;
  unit: string;
  total: number;
  labelOf: (id: string) => string;
}) {
  const ofCaller = link.source.data.inclusive > 0 ? link.value / link.source.data.inclusive : NaN;
  return (
    <>
      <div className="tooltip-title">
        <span>{labelOf(link.source.id)}</span>
        <span className="tooltip-arrow" aria-label="calls">
          →
        </span>
        <span>{labelOf(link.target.id)}</span>
      </div>
      <dl className="tooltip-grid">
        <dt>Value</dt>
        <dd>{formatValue(link.value, unit)}</dd>
        <dt>Share</dt>
        <dd>{total > 0 ? formatShare(link.value / total) : '–'} of total</dd>
        <dt>Of caller</dt>
        <dd>
          {formatShare(ofCaller)} of {labelOf(link.source.id)}
        </dd>
      </dl>
    </>
  );
}
