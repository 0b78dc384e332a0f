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
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent, ReactNode } from 'react';
import type { SankeyData, SankeyNodeData } from '../../../../src/shared/protocol';
import { formatImbalance, formatLocation, formatShare, formatValue } from '../../format';
import { createTextMeasurer, estimateText } from '../../text-measure';
import type { MeasureText } from '../../text-measure';
import { heatScale, outlineOf, useThemeColors } from '../../theme';
import type { ThemeColors } from '../../theme';
import { StatusMessage } from '../../components/status-message';
import { useElementSize } from '../../components/use-element-size';
import { layoutSankey } from './sankey-layout';
import type { PositionedLink, PositionedNode, SankeyLayout } from './sankey-layout';
import { LINE_HEIGHT, placeLabels } from './sankey-labels';

export interface SourceEntry { file: string; line: number | null; name: string }

export interface SankeyViewProps {
  data: SankeyData;
  /** Fixed drawing size in px; when either is missing the chart area is measured (ResizeObserver). */
  width?: number;
  height?: number;
  /** Theme colours; read from the VS Code theme when not given. */
  colors?: ThemeColors;
  /** Label text measuring; the real font on a canvas when not given. */
  measureText?: MeasureText;
  onOpenSource?: (entry: SourceEntry) => void;
  /** Called after every drawing of new content with what is on screen. */
  onRendered?: (counts: { nodeCount: number; linkCount: number }) => void;
  /** Nodes the host marks (Reveal Current Line, a CodeLens click): outlined, the first scrolled into view. */
  revealedIds?: readonly string[];
  /** Called once the marks are drawn, with the requested ids that are on screen. */
  onRevealed?: (ids: string[]) => void;
}

type Hover = { kind: 'node' | 'link'; id: string } | null;

/** Fill opacity of the exclusive (bottom) part of a bar; the part flowing on to callees is solid. */
const EXCLUSIVE_OPACITY = 0.42;

/** Imbalance (max/mean) from which the tooltip flags a node. */
const IMBALANCE_WARNING = 1.5;

export function SankeyView(props: SankeyViewProps) {
  const { data, onOpenSource, onRendered } = props;
  const themeColors = useThemeColors();
  const colors = props.colors ?? themeColors;
  const chartRef = useRef<HTMLDivElement>(null);
  const fixedSize = props.width !== undefined && props.height !== undefined;
  const measured = useElementSize(chartRef, !fixedSize);
  const width = fixedSize ? props.width! : measured?.width ?? 0;
  const height = fixedSize ? props.height! : measured?.height ?? 0;
  const isEmpty = data.nodes.length === 0;

  // The last drawing: new data (a split, another metric) keeps the order and places of nodes that persist.
  const previousLayout = useRef<SankeyLayout | null>(null);
  const layout = useMemo(
    () => (isEmpty || width <= 0 || height <= 0 ? null : layoutSankey(data, { width, height, previous: previousLayout.current })),
    [data, width, height, isEmpty],
  );
  useEffect(() => { if (layout) previousLayout.current = layout; }, [layout]);
  const measure = useMemo<MeasureText>(
    () => props.measureText ?? (typeof document === 'undefined'
      ? estimateText
      : createTextMeasurer(getComputedStyle(document.body).fontFamily || 'sans-serif')),
    // The font can change with the theme.
    [props.measureText, colors],
  );
  const labels = useMemo(
    () => (layout ? placeLabels(layout, { unit: data.metric.unit, measure }) : []),
    [layout, data.metric.unit, measure],
  );
  const heat = useMemo(() => heatScale(colors), [colors]);

  // Tell the host what is on screen, once per new drawing.
  const drawn = useMemo(
    () => (isEmpty ? { nodeCount: 0, linkCount: 0 } : layout ? { nodeCount: layout.nodes.length, linkCount: layout.links.length } : null),
    [isEmpty, layout],
  );
  const onRenderedRef = useRef(onRendered);
  useLayoutEffect(() => { onRenderedRef.current = onRendered; });
  useEffect(() => { if (drawn) onRenderedRef.current?.(drawn); }, [drawn]);

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
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    const bw = box.clientWidth;
    const bh = box.clientHeight;
    const rightOf = x + 14;
    const leftOf = x - 14 - w;
    let left = prefer === 'right' ? (rightOf + w <= bw - 4 ? rightOf : leftOf) : (leftOf >= 4 ? leftOf : rightOf);
    left = Math.max(4, Math.min(bw - w - 4, left));
    let top = y + 16;
    if (top + h > bh - 4) top = y - h - 10;
    top = Math.max(4, Math.min(bh - h - 4, top));
    tip.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
  }, []);
  useLayoutEffect(placeTooltip, [hover, placeTooltip]);
  const pointerAt = useCallback((e: ReactMouseEvent) => {
    const rect = chartRef.current?.getBoundingClientRect();
    if (!rect) return;
    anchor.current = { x: e.clientX - rect.left, y: e.clientY - rect.top, prefer: 'right' };
    placeTooltip();
  }, [placeTooltip]);
  // A hover/focus that no longer exists in new data is dropped.
  const current = hover && layout && (hover.kind === 'node'
    ? layout.nodes.some(n => n.id === hover.id)
    : layout.links.some(l => l.id === hover.id)) ? hover : null;

  const highlight = useMemo(() => (layout && current ? highlighted(layout, current) : null), [layout, current]);

  const nodeElements = useRef(new Map<string, SVGGElement>());
  const revealed = useMemo(() => new Set(props.revealedIds ?? []), [props.revealedIds]);
  const onRevealedRef = useRef(props.onRevealed);
  useLayoutEffect(() => { onRevealedRef.current = props.onRevealed; });
  // Once per request (not on every redraw), as soon as the nodes are drawn.
  const reported = useRef<readonly string[] | undefined>(undefined);
  useEffect(() => {
    if (!props.revealedIds || props.revealedIds === reported.current || (!layout && !isEmpty)) return;
    reported.current = props.revealedIds;
    const shown = props.revealedIds.filter(id => nodeElements.current.has(id));
    nodeElements.current.get(shown[0] ?? '')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    onRevealedRef.current?.(shown);
  }, [props.revealedIds, layout, isEmpty]);
  const open = useCallback((n: SankeyNodeData) => {
    if (n.entry.file) onOpenSource?.({ file: n.entry.file, line: n.entry.line, name: n.entry.name });
  }, [onOpenSource]);

  const focusNode = (id: string | undefined): void => { if (id) nodeElements.current.get(id)?.focus(); };
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
        open(node.data);
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
        focusNode(heaviest(layout.links.filter(l => l.source.id === node.id), 'target'));
        break;
      case 'ArrowLeft':
        e.preventDefault();
        focusNode(heaviest(layout.links.filter(l => l.target.id === node.id), 'source'));
        break;
    }
  };
  const onNodeFocus = (node: PositionedNode, el: SVGGElement): void => {
    // Focus by mouse: the tooltip keeps following the pointer.
    if (!el.matches(':focus-visible')) return;
    // Keyboard focus: the tooltip goes beside the node, on the side away from its label.
    const labelRight = labels.find(l => l.nodeId === node.id)?.side !== 'left';
    anchor.current = labelRight
      ? { x: node.x0 - 2, y: (node.y0 + node.y1) / 2 - 40, prefer: 'left' }
      : { x: node.x1 + 2, y: (node.y0 + node.y1) / 2 - 40, prefer: 'right' };
    setHover({ kind: 'node', id: node.id });
  };

  const unit = data.metric.unit;
  const total = data.total;
  const labelById = new Map(data.nodes.map(n => [n.id, n.label || n.module]));

  let tooltip: ReactNode = null;
  if (layout && current) {
    if (current.kind === 'node') {
      const n = layout.nodes.find(x => x.id === current.id)!;
      const callers = [...new Set(layout.links.filter(l => l.target.id === n.id).map(l => labelById.get(l.source.id)!))];
      tooltip = <NodeTooltip node={n.data} unit={unit} color={heat(n.data.share)} callers={callers} />;
    } else {
      const l = layout.links.find(x => x.id === current.id)!;
      tooltip = <LinkTooltip link={l} unit={unit} total={total} labelOf={id => labelById.get(id) ?? id} />;
    }
  }

  const drawnNodes = layout?.nodes.length ?? data.nodes.length;
  const drawnLinks = layout?.links.length ?? data.links.length;
  return (
    <div className="sankey-view">
      <SankeyHeader data={data} nodeCount={drawnNodes} linkCount={drawnLinks} droppedLinks={layout?.droppedLinks ?? 0} heat={isEmpty ? null : heat} />
      <div className="sankey-chart" ref={chartRef} onMouseLeave={() => setHover(null)}>
        {isEmpty ? (
          <StatusMessage title="No call flow to show">
            The profile has no module-level calls with a value for <em>{data.metric.name}</em>.
          </StatusMessage>
        ) : layout ? (
          <svg
            className={'sankey-svg' + (highlight ? ' has-highlight' : '')}
            width={layout.width}
            height={layout.height}
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            role="group"
            aria-label={`Module call flow of ${data.title}: ${layout.nodes.length} modules, ${layout.links.length} calls. Use Tab or the arrow keys to move between modules, Enter to open a module's source.`}
          >
            <g className="sankey-links" fill="none">
              {layout.links.map(l => {
                const active = highlight?.links.has(l.id) ?? false;
                // A ribbon is a filled outline (its two ends may differ in width); a hairline is a stroked centre line.
                const hairline = Math.max(l.width, l.targetY1 - l.targetY0) < 1;
                const ribbon: CSSProperties = hairline ? {} : {
                  fill: active ? 'var(--link-color)' : 'var(--vscode-foreground)',
                  fillOpacity: active ? 'var(--hl-link-opacity-active)' : highlight ? 'var(--hl-link-opacity-dim)' : 'var(--hl-link-opacity)',
                  stroke: 'none',
                  pointerEvents: 'visiblePainted',
                };
                return (
                  <path
                    key={l.id}
                    className={'sankey-link' + (active ? ' is-active' : '') + (hairline ? ' is-hairline' : '') + (l.tapered ? ' is-tapered' : '')}
                    d={hairline ? l.centreLine : l.path}
                    style={{ '--link-color': heat(l.target.data.share), ...ribbon } as CSSProperties}
                    strokeWidth={hairline ? 1 : undefined}
                    data-link={l.id}
                    onMouseEnter={e => { pointerAt(e); setHover({ kind: 'link', id: l.id }); }}
                    onMouseMove={pointerAt}
                    onMouseLeave={() => setHover(null)}
                  />
                );
              })}
            </g>
            <g className="sankey-nodes">
              {layout.nodes.map(n => {
                const fill = heat(n.data.share);
                const openable = n.data.entry.file != null;
                return (
                  <g
                    key={n.id}
                    ref={el => { if (el) nodeElements.current.set(n.id, el); else nodeElements.current.delete(n.id); }}
                    className={'sankey-node' + (highlight?.nodes.has(n.id) ? ' is-active' : '') + (openable ? ' is-openable' : '') + (revealed.has(n.id) ? ' is-revealed' : '')}
                    data-node={n.id}
                    tabIndex={0}
                    role="button"
                    aria-disabled={openable ? undefined : true}
                    aria-label={nodeAriaLabel(n.data, unit)}
                    onClick={() => open(n.data)}
                    onKeyDown={e => onNodeKey(e, n)}
                    onFocus={e => onNodeFocus(n, e.currentTarget)}
                    onBlur={() => setHover(h => (h?.kind === 'node' && h.id === n.id ? null : h))}
                    onMouseEnter={e => { pointerAt(e); setHover({ kind: 'node', id: n.id }); }}
                    onMouseMove={pointerAt}
                    onMouseLeave={() => setHover(null)}
                  >
                    <rect
                      className="sankey-node-rect"
                      x={n.x0}
                      y={n.y0}
                      width={n.x1 - n.x0}
                      height={n.y1 - n.y0}
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
                    <rect className="sankey-node-focus" x={n.x0 - 3} y={n.y0 - 3} width={n.x1 - n.x0 + 6} height={n.y1 - n.y0 + 6} rx={4} />
                    {revealed.has(n.id) ? <RevealMark node={n} /> : null}
                  </g>
                );
              })}
            </g>
            <g className="sankey-labels" aria-hidden="true">
              {labels.map(l => (
                <g key={l.nodeId} className={'sankey-label' + (highlight && !highlight.nodes.has(l.nodeId) ? ' is-dimmed' : '')}>
                  {/* A backing chip keeps the label readable where it crosses link ribbons. */}
                  <rect
                    className="sankey-label-bg"
                    x={(l.anchor === "start" ? l.x : l.x - l.width) - 4}
                    y={l.top}
                    width={l.width + 8}
                    height={l.bottom - l.top}
                    rx={3}
                  />
                  <text className="sankey-label-text" x={l.x} y={l.y} textAnchor={l.anchor}>
                    {l.lines.map((line, i) => (
                      <tspan key={i} className={`sankey-label-${line.style}`} x={l.x} dy={i === 0 ? 0 : LINE_HEIGHT.detail}>{line.text}</tspan>
                    ))}
                  </text>
                </g>
              ))}
            </g>
          </svg>
        ) : null}
        <div ref={tooltipRef} className={'sankey-tooltip' + (tooltip ? ' is-visible' : '')} role="tooltip" aria-hidden={tooltip ? undefined : true}>
          {tooltip}
        </div>
      </div>
    </div>
  );
}

/** The outline of a node the host revealed: the theme's focus colour, dashed, so it reads beside hover highlighting. */
function RevealMark({ node: n }: { node: PositionedNode }) {
  const style: CSSProperties = { fill: 'none', stroke: 'var(--vscode-focusBorder, #0078d4)', strokeWidth: 2, strokeDasharray: '4 2', pointerEvents: 'none' };
  return <rect className="sankey-node-revealed" x={n.x0 - 5} y={n.y0 - 5} width={n.x1 - n.x0 + 10} height={n.y1 - n.y0 + 10} rx={5} style={style} />;
}

/** Nodes and links lit by hovering `hover`: a node's whole flow (callers up, callees down), or a link and its ends. */
function highlighted(layout: SankeyLayout, hover: NonNullable<Hover>): { nodes: Set<string>; links: Set<string> } {
  const nodes = new Set<string>();
  const links = new Set<string>();
  if (hover.kind === 'link') {
    const l = layout.links.find(x => x.id === hover.id);
    if (l) { links.add(l.id); nodes.add(l.source.id); nodes.add(l.target.id); }
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
        if (from === id) { links.add(l.id); nodes.add(to); stack.push(to); }
      }
    }
  };
  walk(hover.id, 'down');
  walk(hover.id, 'up');
  return { nodes, links };
}

function nodeAriaLabel(n: SankeyNodeData, unit: string): string {
  const where = n.entry.file ? `${formatLocation(n.entry.file, n.entry.line)}. Press Enter to open the source.` : 'source location unknown.';
  return `${n.label || n.module}: ${formatValue(n.inclusive, unit)} inclusive, ${formatShare(n.share)} of total, `
    + `${formatValue(n.exclusive, unit)} exclusive, imbalance ${formatImbalance(n.imbalance)}. Entry ${n.entry.name}, ${where}`;
}

function SankeyHeader({ data, nodeCount, linkCount, droppedLinks, heat }: {
  data: SankeyData; nodeCount: number; linkCount: number; droppedLinks: number;
  /** The node colour scale, for the legend; null when there is nothing to explain. */
  heat: ((share: number) => string) | null;
}) {
  const unit = data.metric.unit.trim();
  // Evenly spaced samples of the (square-root) heat scale for the legend gradient.
  const stops = heat ? Array.from({ length: 11 }, (_, i) => heat((i / 10) ** 2)) : [];
  return (
    <header className="sankey-header">
      <div className="sankey-heading">
        <h1 className="sankey-title" title={data.title}>{data.title}</h1>
        <div className="sankey-subtitle">
          Module call flow · <span className="sankey-metric">{data.metric.name}</span>{unit ? <span className="sankey-unit"> ({unit})</span> : null}
        </div>
      </div>
      <dl className="sankey-stats">
        <div className="sankey-stat"><dt>Total</dt><dd>{formatValue(data.total, data.metric.unit)}</dd></div>
        <div className="sankey-stat"><dt>Modules</dt><dd>{nodeCount}</dd></div>
        <div className="sankey-stat">
          <dt>Calls</dt>
          <dd>{linkCount}{droppedLinks > 0 ? <span className="sankey-dropped" title={`${droppedLinks} call edge(s) could not be drawn (unknown modules or cycles)`}> +{droppedLinks} hidden</span> : null}</dd>
        </div>
      </dl>
      {heat ? (
        <div className="sankey-legend" role="img" aria-label="Node colour: share of the total, from 0% to 100%">
          <div className="sankey-legend-title">Share of total</div>
          <div className="sankey-legend-bar" style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }} />
          <div className="sankey-legend-ticks" aria-hidden="true"><span>0%</span><span>25%</span><span>100%</span></div>
        </div>
      ) : null}
    </header>
  );
}

function NodeTooltip({ node, unit, color, callers }: { node: SankeyNodeData; unit: string; color: string; callers: string[] }) {
  const location = node.entry.file ? formatLocation(node.entry.file, node.entry.line) : null;
  return (
    <>
      <div className="tooltip-title">
        <span className="tooltip-swatch" style={{ background: color }} />
        <span>{node.label || node.module}</span>
      </div>
      {node.label && node.label !== node.module ? <div className="tooltip-subtitle">{node.module}</div> : null}
      <dl className="tooltip-grid">
        <dt>Inclusive</dt><dd>{formatValue(node.inclusive, unit)}</dd>
        <dt>Exclusive</dt><dd>{formatValue(node.exclusive, unit)}</dd>
        <dt>Share</dt><dd>{formatShare(node.share)} of total</dd>
        <dt>Imbalance</dt>
        <dd className={node.imbalance >= IMBALANCE_WARNING ? 'is-warning' : undefined}>{formatImbalance(node.imbalance)} max/mean</dd>
        {callers.length ? <><dt>Called from</dt><dd>{callers.join(', ')}</dd></> : null}
        <dt>Entry</dt><dd><code>{node.entry.name}</code></dd>
        <dt>Source</dt><dd>{location ? <code>{location}</code> : <span className="tooltip-muted">unknown</span>}</dd>
      </dl>
      <div className="tooltip-hint">{location ? 'Click or press Enter to open the source' : 'Source location unknown — nothing to open'}</div>
    </>
  );
}

function LinkTooltip({ link, unit, total, labelOf }: { link: PositionedLink; unit: string; total: number; labelOf: (id: string) => string }) {
  const ofCaller = link.source.data.inclusive > 0 ? link.value / link.source.data.inclusive : NaN;
  return (
    <>
      <div className="tooltip-title">
        <span>{labelOf(link.source.id)}</span>
        <span className="tooltip-arrow" aria-label="calls">→</span>
        <span>{labelOf(link.target.id)}</span>
      </div>
      <dl className="tooltip-grid">
        <dt>Value</dt><dd>{formatValue(link.value, unit)}</dd>
        <dt>Share</dt><dd>{total > 0 ? formatShare(link.value / total) : '–'} of total</dd>
        <dt>Of caller</dt><dd>{formatShare(ofCaller)} of {labelOf(link.source.id)}</dd>
      </dl>
    </>
  );
}
