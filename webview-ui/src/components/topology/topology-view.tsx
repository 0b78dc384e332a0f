/** @jsxRuntime automatic */
/**
 * The one drawing of a topology, shared by the PDES dragonfly view, the memory sunburst and DMV's
 * hardware view. It draws {@link TopologyViewData} (the host's `topologyViewData`) in one of four
 * layouts — `sunburst` / `icicle` for trees (with a toggle), `dragonfly`, `graph` — colours marks by a
 * node measure on a sequential scale (per level or overall), sizes links by a link measure, and
 * reports clicks, double-clicks (drill-down) and hovers through callbacks. It fills its container and
 * follows its size unless given one.
 *
 * Interaction: click selects a mark (shift/ctrl/⌘-click adds or removes it), double-click expands an
 * aggregate or collapsed node and collapses an expanded one, hover (or keyboard focus) shows the
 * tooltip and brings out the mark's links. Keyboard: the marks form one tab stop; arrow keys move
 * between siblings (← →), to the parent (↑) and the first child (↓); Enter or Space selects; `+`
 * expands, `-` collapses, Escape clears the selection.
 *
 * Facts for tests (on `.topology-view`): `data-topology-layout`, `data-nodes-drawn`,
 * `data-links-drawn`, `data-labels-drawn`, `data-hidden`, `data-aggregates`, `data-selected` and
 * `data-highlighted` (space-separated ids), `data-capacity`; on marks `data-node`, `data-kind`,
 * `data-selected`, `data-geom`; on links `data-link`, `data-link-kind`; on labels `data-label-of`,
 * `data-box`.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type {
  TopologyLayout,
  TopologyNormalise,
  TopologyViewData,
  TopologyViewEvent,
  TopologyViewLink,
  TopologyViewNode,
} from '../../../../src/shared/topology-protocol';
import { topologyNodeOfId } from '../../../../src/shared/topology-protocol';
import { formatCount, formatValue } from '../../format';
import { estimateText, useMeasureText, type MeasureText } from '../../text-measure';
import { tooltipPlacement } from '../tooltip-placement';
import { Segmented } from '../segmented';
import { useElementSize } from '../use-element-size';
import { fillOf, schemeColour, textOn, colourPosition, rangeOf } from './topology-colours';
import { dragonflyLayout } from './dragonfly-layout';
import { arcPath, polar, type MarkGeom } from './topology-geometry';
import { graphLayout } from './graph-layout';
import type { LayoutFunction, TopologyLayoutResult } from './topology-layout';
import { TopologyLegend, linkKindClass, linkKindLabel } from './topology-legend';
import { icicleLayout, sunburstLayout } from './tree-layout';

/** What the pointer or the keyboard focus is on. */
export type TopologyHoverTarget =
  | { type: 'node'; node: TopologyViewNode }
  | { type: 'link'; link: TopologyViewLink; source: TopologyViewNode; target: TopologyViewNode };

export interface TopologyViewProps {
  /** What to draw: the result of `topologyViewData` (src/analysis/topology/topology-view-data.ts), computed on the host. */
  data: TopologyViewData;
  /** Size in px. Without both, the view fills its container (give the container a size) and follows it. */
  width?: number;
  height?: number;
  /** The layout, when the panel controls it; otherwise `data.layout`, and trees get a Sunburst | Icicle toggle. */
  layout?: TopologyLayout;
  /** The toggle was used (controlled or not). */
  onLayoutChange?: (layout: TopologyLayout) => void;
  /** Colour by this node measure (index into `data.nodeMeasures`, -1: none) instead of `data.colour.measure`, e.g. a cycles/samples switch. */
  colourMeasure?: number;
  /** Normalise colours per level (`depth`) or overall (`all`) instead of `data.colour.normalise`. */
  normalise?: TopologyNormalise;
  /** Selected mark ids (controlled); default: `data.selected`, then what clicks select. */
  selected?: readonly string[];
  /** Highlighted mark ids (e.g. what a linked view hovers); default `data.highlighted`. */
  highlighted?: readonly string[];
  /**
   * A click, Enter or Space on a mark: the new selection (ids) and the mark (null when cleared by
   * Escape). Shift/ctrl/⌘-click adds or removes the mark. Map ids to topology nodes with
   * `node.index` (-1 for aggregates: `topologyNodeOfId(id)` names the collapsed node).
   */
  onSelect?: (ids: string[], node: TopologyViewNode | null) => void;
  /** Double-click or `+` on an expandable mark: ask the host again with `expand: [...previous, id]`. */
  onExpand?: (id: string) => void;
  /** Double-click or `-` on an expanded mark: ask the host again with `collapse: [...previous, id]` (or drop it from `expand`). */
  onCollapse?: (id: string) => void;
  /** The pointer or focus entered a mark or link (null: left). */
  onHover?: (target: TopologyHoverTarget | null) => void;
  /**
   * Every select, expand, collapse and hover as a protocol event (src/shared/topology-protocol.ts), for
   * a panel to forward to its host as is; called besides the callbacks above.
   */
  onEvent?: (event: TopologyViewEvent) => void;
  /** Tooltip content; default lists the measures with their units. Return null for no tooltip. */
  tooltip?: (target: TopologyHoverTarget, data: TopologyViewData) => ReactNode;
  /** Leaf marks this size can draw comfortably (4 px each), when it changes: a panel may pass it as `maxNodes`. */
  onCapacityChange?: (capacity: number) => void;
  /** Shown above the drawing (left of the layout toggle). */
  title?: ReactNode;
  /** Without the legend. */
  legend?: boolean;
  /** A glyph: no toolbar, legend, footnote or labels (e.g. MemAxes' mini sunburst on a cluster marker). */
  compact?: boolean;
  /** Accessible name of the drawing (default: what it shows). */
  ariaLabel?: string;
}

const LAYOUTS: Record<TopologyLayout, LayoutFunction> = {
  sunburst: sunburstLayout,
  icicle: icicleLayout,
  dragonfly: dragonflyLayout,
  graph: graphLayout,
};

const TOOLBAR_H = 30;
const FOOTNOTE_H = 20;
/** The legend sits right of the drawing from this width on, below it under. */
const LEGEND_SIDE_FROM = 640;
const LEGEND_W = 210;
const LEGEND_BELOW_H = 104;

const isTree = (l: TopologyLayout) => l === 'sunburst' || l === 'icicle';

/** Where the drawing goes inside the view's box (see the constants above). */
export function topologyRegions(
  width: number,
  height: number,
  options: { toolbar: boolean; legend: boolean; compact: boolean },
): { svg: { width: number; height: number }; legend: 'side' | 'below' | null } {
  if (options.compact) return { svg: { width, height }, legend: null };
  const top = options.toolbar ? TOOLBAR_H : 0;
  const side = options.legend && width >= LEGEND_SIDE_FROM;
  const below = options.legend && !side;
  return {
    svg: {
      width: Math.max(0, width - (side ? LEGEND_W : 0)),
      height: Math.max(0, height - top - FOOTNOTE_H - (below ? LEGEND_BELOW_H : 0)),
    },
    legend: options.legend ? (side ? 'side' : 'below') : null,
  };
}

/** Lays out `data` in `layout` for a drawing area (the view's own geometry; exported for tests and screenshots). */
export function layoutTopology(
  data: TopologyViewData,
  layout: TopologyLayout,
  width: number,
  height: number,
  measure: MeasureText = estimateText,
): TopologyLayoutResult {
  return LAYOUTS[layout](data, width, height, measure);
}

const r3 = (n: number) => Math.round(n * 1000) / 1000;

/** `data-geom`: `arc a0 a1 r0 r1 cx cy` or `rect x y w h`. */
export function geomFact(g: MarkGeom): string {
  return g.kind === 'arc'
    ? `arc ${r3(g.a0)} ${r3(g.a1)} ${r3(g.r0)} ${r3(g.r1)} ${r3(g.cx)} ${r3(g.cy)}`
    : `rect ${r3(g.x)} ${r3(g.y)} ${r3(g.w)} ${r3(g.h)}`;
}

function markPath(g: MarkGeom): string {
  if (g.kind === 'arc') return arcPath(g);
  const f = (n: number) => Math.round(n * 100) / 100;
  return `M${f(g.x)} ${f(g.y)}h${f(g.w)}v${f(g.h)}h${f(-g.w)}Z`;
}

/** A point inside a mark for its tooltip when focused by keyboard. */
function markAnchor(g: MarkGeom): [number, number] {
  if (g.kind === 'rect') return [g.x + g.w / 2, g.y + g.h / 2];
  if (g.r0 <= 0 && g.a1 - g.a0 >= 2 * Math.PI - 1e-9) return [g.cx, g.cy];
  return polar(g.cx, g.cy, (g.a0 + g.a1) / 2, (g.r0 + g.r1) / 2);
}

/** The level's printed name of a node. */
function levelName(data: TopologyViewData, n: TopologyViewNode): string {
  return data.levelLabels[n.kind] ?? n.kind;
}

/** Default tooltip: the mark's name, its measures with units, what it stands for, and what double-click does. */
export function defaultTooltip(target: TopologyHoverTarget, data: TopologyViewData): ReactNode {
  if (target.type === 'node') {
    const n = target.node;
    const agg = n.aggregate;
    return (
      <>
        <strong>{n.label}</strong>{' '}
        <span className="topology-muted">{agg ? `(${levelName(data, n)})` : levelName(data, n)}</span>
        {n.detail ? <div className="topology-muted">{n.detail}</div> : null}
        {data.nodeMeasures.map((m, k) => (
          <div key={k}>
            {m.name}: {formatValue(n.values[k]!, m.unit)}
            {agg ? (
              <span className="topology-muted">
                {' '}
                ({m.aggregate}) · total {formatValue(agg.sums[k]!, m.unit)} · max {formatValue(agg.maxima[k]!, m.unit)}
              </span>
            ) : null}
          </div>
        ))}
        {n.internal ? (
          <div className="topology-muted">
            {formatCount(n.internal.count)} link{n.internal.count === 1 ? '' : 's'} inside
            {data.linkMeasures.map((m, k) => ` · ${m.name} ${formatValue(n.internal!.values[k]!, m.unit)}`).join('')}
          </div>
        ) : null}
        {n.expandable ? <div className="topology-muted">Double-click to expand</div> : null}
        {n.collapsible && n.parent !== null ? <div className="topology-muted">Double-click to collapse</div> : null}
      </>
    );
  }
  const { link, source, target: to } = target;
  const both = link.forward && link.backward;
  return (
    <>
      <strong>
        {source.label} {both || link.kind !== 'contains' ? '↔' : '→'} {to.label}
      </strong>{' '}
      <span className="topology-muted">
        {linkKindLabel(link.kind)}
        {link.count > 1 ? ` · ${formatCount(link.count)} links` : ''}
      </span>
      {data.linkMeasures.map((m, k) => (
        <div key={k}>
          {m.name}: {formatValue(link.values[k]!, m.unit)}
          {both ? (
            <span className="topology-muted">
              {' '}
              (→ {formatValue(link.forward![k]!, m.unit)} · ← {formatValue(link.backward![k]!, m.unit)})
            </span>
          ) : null}
        </div>
      ))}
    </>
  );
}

interface Hover {
  target: TopologyHoverTarget;
  x: number;
  y: number;
}

export function TopologyView(props: TopologyViewProps) {
  const { data, compact = false } = props;
  const ref = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const fixed = props.width !== undefined && props.height !== undefined;
  const measured = useElementSize(ref, !fixed);
  const width = props.width ?? measured?.width ?? 0;
  const height = props.height ?? measured?.height ?? 0;
  const measure = useMeasureText();

  const [ownLayout, setOwnLayout] = useState<TopologyLayout>(data.layout);
  useEffect(() => setOwnLayout(data.layout), [data.layout]);
  const layout = props.layout ?? (isTree(data.layout) ? ownLayout : data.layout);
  const toolbar = !compact && (isTree(data.layout) || props.title !== undefined);
  const regions = topologyRegions(width, height, { toolbar, legend: props.legend !== false, compact });
  const svgW = regions.svg.width,
    svgH = regions.svg.height;

  const result = useMemo(
    () => (svgW > 0 && svgH > 0 ? LAYOUTS[layout](data, svgW, svgH, measure) : null),
    [data, layout, svgW, svgH, measure],
  );
  const capacity = result?.capacity ?? 0;
  const onCapacityChange = props.onCapacityChange;
  useEffect(() => {
    if (capacity > 0) onCapacityChange?.(capacity);
  }, [capacity, onCapacityChange]);

  const [ownSelected, setOwnSelected] = useState<readonly string[] | null>(null);
  useEffect(() => setOwnSelected(null), [data]);
  const selected = props.selected ?? ownSelected ?? data.selected;
  const highlighted = props.highlighted ?? data.highlighted;
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const highlightedSet = useMemo(() => new Set(highlighted), [highlighted]);
  const [hover, setHover] = useState<Hover | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);

  const colourMeasure = props.colourMeasure ?? data.colour.measure;
  const encoding = {
    ...data.colour,
    measure: colourMeasure,
    normalise: props.normalise ?? data.colour.normalise,
  };
  const nodeById = useMemo(() => new Map(data.nodes.map(n => [n.id, n])), [data]);

  // Links of the hovered or selected marks are brought out; the others dimmed.
  const focusNodes = useMemo(() => {
    const s = new Set<string>();
    if (hover?.target.type === 'node') s.add(hover.target.node.id);
    if (!hover) for (const id of selected) s.add(id);
    return s;
  }, [hover, selected]);
  const hoverLink = hover?.target.type === 'link' ? hover.target.link.id : null;
  const linkState = (l: TopologyViewLink): '' | ' is-active' | ' is-dim' => {
    if (hoverLink) return l.id === hoverLink ? ' is-active' : ' is-dim';
    if (!focusNodes.size) return '';
    return focusNodes.has(l.source) || focusNodes.has(l.target) ? ' is-active' : ' is-dim';
  };

  const select = (node: TopologyViewNode | null, additive: boolean) => {
    let next: string[];
    if (!node) next = [];
    else if (additive) next = selectedSet.has(node.id) ? selected.filter(id => id !== node.id) : [...selected, node.id];
    else next = selectedSet.size === 1 && selectedSet.has(node.id) ? [] : [node.id];
    if (props.selected === undefined) setOwnSelected(next);
    props.onSelect?.(next, node);
    props.onEvent?.({ type: 'topology/select', marks: next, nodes: next.map(topologyNodeOfId).filter(i => i >= 0) });
  };
  const expand = (node: TopologyViewNode) => {
    if (!node.expandable) return;
    props.onExpand?.(node.id);
    props.onEvent?.({ type: 'topology/expand', mark: node.id });
  };
  const collapse = (node: TopologyViewNode) => {
    if (!node.collapsible || node.parent === null) return;
    props.onCollapse?.(node.id);
    props.onEvent?.({ type: 'topology/collapse', mark: node.id });
  };
  const toggleDetail = (node: TopologyViewNode) => (node.expandable ? expand(node) : collapse(node));
  const showHover = (h: Hover | null) => {
    const same =
      h &&
      hover &&
      h.target.type === hover.target.type &&
      (h.target.type === 'node'
        ? hover.target.type === 'node' && hover.target.node.id === h.target.node.id
        : hover.target.type === 'link' && hover.target.link.id === h.target.link.id);
    setHover(h);
    if (same) return;
    props.onHover?.(h ? h.target : null);
    const t = h?.target;
    props.onEvent?.({
      type: 'topology/hover',
      mark: t?.type === 'node' ? t.node.id : null,
      node: t?.type === 'node' ? topologyNodeOfId(t.node.id) : -1,
      link: t?.type === 'link' ? t.link.id : null,
    });
  };
  const pointer = (e: MouseEvent): [number, number] => {
    const r = ref.current?.getBoundingClientRect();
    return r ? [e.clientX - r.left, e.clientY - r.top] : [0, 0];
  };
  const svgTop = toolbar ? TOOLBAR_H : 0;

  // Keyboard: one tab stop, arrows move through the tree of drawn marks.
  const drawnIds = useMemo(() => new Set(result?.marks.map(m => m.node.id) ?? []), [result]);
  const kidsOf = useMemo(() => {
    const m = new Map<string | null, string[]>();
    for (const n of data.nodes) {
      if (!drawnIds.has(n.id)) continue;
      const p = n.parent && drawnIds.has(n.parent) ? n.parent : null;
      let list = m.get(p);
      if (!list) m.set(p, (list = []));
      list.push(n.id);
    }
    return m;
  }, [data, drawnIds]);
  const tabStop = focusId && drawnIds.has(focusId) ? focusId : (result?.marks[0]?.node.id ?? null);
  const moveFocus = (id: string | null | undefined) => {
    if (!id) return;
    setFocusId(id);
    svgRef.current?.querySelector<SVGElement>(`[data-node="${CSS.escape(id)}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent, node: TopologyViewNode) => {
    const parent = node.parent && drawnIds.has(node.parent) ? node.parent : null;
    const siblings = kidsOf.get(parent) ?? [node.id];
    const at = siblings.indexOf(node.id);
    const handled = (() => {
      switch (e.key) {
        case 'ArrowRight':
          moveFocus(siblings[(at + 1) % siblings.length]);
          return true;
        case 'ArrowLeft':
          moveFocus(siblings[(at - 1 + siblings.length) % siblings.length]);
          return true;
        case 'ArrowUp':
          moveFocus(parent);
          return true;
        case 'ArrowDown':
          moveFocus(kidsOf.get(node.id)?.[0]);
          return true;
        case 'Enter':
        case ' ':
          select(node, e.shiftKey || e.ctrlKey || e.metaKey);
          return true;
        case '+':
        case '=':
          expand(node);
          return true;
        case '-':
          collapse(node);
          return true;
        case 'Escape':
          select(null, false);
          return true;
        default:
          return false;
      }
    })();
    if (handled) e.preventDefault();
  };

  const labelsOf = useMemo(() => {
    const m = new Map<string, TopologyLayoutResult['labels']>();
    for (const l of result?.labels ?? []) {
      let list = m.get(l.of);
      if (!list) m.set(l.of, (list = []));
      list.push(l);
    }
    return m;
  }, [result]);

  const tooltip = props.tooltip ?? defaultTooltip;
  const tipContent = hover ? tooltip(hover.target, data) : null;
  const tipPos = hover ? tooltipPlacement(hover.x, hover.y, { width: 280, height: 120 }, { width, height }) : null;

  const marks = result?.marks ?? [];
  const linksDrawn = (result?.bars.length ?? 0) + (result?.curves.length ?? 0);
  const aggregates = marks.filter(m => m.node.aggregate).length;
  const notes = [...data.notes];
  if (result?.hidden)
    notes.push(`${result.hidden} mark${result.hidden === 1 ? ' is' : 's are'} too small to draw at this size.`);
  const linkColourMeasure = data.linkColour.measure;
  const linkStroke = (l: TopologyViewLink): string | undefined => {
    if (linkColourMeasure < 0) return undefined;
    const t = colourPosition(
      l.values[linkColourMeasure]!,
      rangeOf(data.linkMeasures[linkColourMeasure], l.level, data.linkColour.normalise, data.linkColour.domain),
    );
    return Number.isNaN(t) ? undefined : schemeColour(data.linkColour.scheme, t);
  };

  // Value colours go in style: CSS rules (the kind colours) would win over presentation attributes.
  const barStyle = (l: TopologyViewLink) => {
    const c = linkStroke(l);
    return c ? { fill: c } : undefined;
  };
  const curveStyle = (l: TopologyViewLink, w: number) => {
    const c = linkStroke(l);
    return c ? { stroke: c, strokeWidth: w } : { strokeWidth: w };
  };

  const ariaLabel =
    props.ariaLabel ??
    `${layout === 'dragonfly' ? 'Dragonfly network' : layout === 'graph' ? 'Host and GPUs' : 'Machine topology'}: ${marks.length} marks, ${linksDrawn} links`;

  const isFrame = (n: TopologyViewNode) =>
    layout === 'graph' && n.parent !== null && (kidsOf.get(n.id)?.length ?? 0) > 0;
  // The sunburst's centre and the icicle's top row stand for everything: not coloured by value; nor are graph frames.
  const fillByNode = new Map<string, string | null>(
    marks.map(({ node: n }) => [
      n.id,
      (isTree(layout) && n.parent === null) || isFrame(n)
        ? null
        : fillOf(encoding, data.nodeMeasures[encoding.measure], n.values[encoding.measure]!, n.kind),
    ]),
  );
  const renderMark = (m: (typeof marks)[number]) => {
    const n = m.node;
    const isRoot = n.parent === null;
    const fill = fillByNode.get(n.id) ?? null;
    const isSel = selectedSet.has(n.id);
    const cls =
      'topology-mark' +
      (fill ? '' : isFrame(n) ? ' is-frame' : isRoot ? ' is-root' : ' is-novalue') +
      (n.aggregate ? ' is-aggregate' : '') +
      (isSel ? ' is-selected' : '') +
      (highlightedSet.has(n.id) ? ' is-highlighted' : '') +
      (hover?.target.type === 'node' && hover.target.node.id === n.id ? ' is-hover' : '');
    const measureText = data.nodeMeasures.map((mm, k) => `${mm.name} ${formatValue(n.values[k]!, mm.unit)}`).join(', ');
    return (
      <g
        key={n.id}
        className={cls}
        data-node={n.id}
        data-kind={n.kind}
        data-depth={n.depth}
        data-selected={isSel ? 'true' : 'false'}
        data-geom={geomFact(m.geom)}
        role="treeitem"
        aria-level={n.depth + 1}
        aria-selected={isSel}
        aria-expanded={n.expandable ? false : n.collapsible ? true : undefined}
        aria-label={`${levelName(data, n)} ${n.label}${measureText ? `: ${measureText}` : ''}`}
        tabIndex={compact ? undefined : n.id === tabStop ? 0 : -1}
        onMouseMove={e => {
          const [x, y] = pointer(e);
          showHover({ target: { type: 'node', node: n }, x, y });
        }}
        onMouseLeave={() => showHover(null)}
        onFocus={() => {
          setFocusId(n.id);
          const [x, y] = markAnchor(m.geom);
          showHover({ target: { type: 'node', node: n }, x, y: y + svgTop });
        }}
        onBlur={() => showHover(null)}
        onClick={e => {
          if (e.detail < 2) select(n, e.shiftKey || e.ctrlKey || e.metaKey);
        }}
        onDoubleClick={() => toggleDetail(n)}
        onKeyDown={e => onKey(e, n)}
      >
        <path className="topology-mark-shape" d={markPath(m.geom)} style={fill ? { fill } : undefined} />
      </g>
    );
  };

  /** Mark labels, above the curves (a chord may cross the centre disc); text coloured for the mark's fill. */
  const markLabels = compact
    ? null
    : marks.flatMap(m => {
        const fill = fillByNode.get(m.node.id) ?? null;
        return (labelsOf.get(m.node.id) ?? []).map((l, k) => (
          <text
            key={`${m.node.id}:${k}`}
            className={`topology-label is-${l.style}${l.inside ? ' is-inside' : ' is-outside'}${l.inside && !fill ? ' has-halo' : ''}`}
            data-label-of={l.of}
            data-box={`${r3(l.box.cx)} ${r3(l.box.cy)} ${r3(l.box.w)} ${r3(l.box.h)} ${r3(l.box.angle)}`}
            transform={`translate(${r3(l.box.cx)} ${r3(l.box.cy)})${l.box.angle ? ` rotate(${r3(l.box.angle)})` : ''}`}
            textAnchor="middle"
            dominantBaseline="central"
            style={l.inside && fill ? { fill: textOn(fill) } : undefined}
          >
            {l.text}
          </text>
        ));
      });

  const linkHandlers = (l: TopologyViewLink) => ({
    onMouseMove: (e: MouseEvent) => {
      const s = nodeById.get(l.source),
        t = nodeById.get(l.target);
      if (!s || !t) return;
      const [x, y] = pointer(e);
      showHover({ target: { type: 'link', link: l, source: s, target: t }, x, y });
    },
    onMouseLeave: () => showHover(null),
  });

  // Curves go under the boxes of the graph (they end at box edges and cross frames), over the rings elsewhere (chords cross the centre disc).
  const curvesLayer = (
    <g className="topology-curves">
      {result?.curves.map(c => (
        <g key={c.link.id} className="topology-curve" {...linkHandlers(c.link)}>
          <path className="topology-hit" d={c.path} strokeWidth={Math.max(8, c.width + 4)} />
          <path
            className={`topology-link ${linkKindClass(c.link.kind)}${linkState(c.link)}`}
            data-link={c.link.id}
            data-link-kind={c.link.kind}
            data-width={r3(c.width)}
            d={c.path}
            style={curveStyle(c.link, c.width)}
          />
        </g>
      ))}
    </g>
  );

  return (
    <div
      ref={ref}
      className={`topology-view is-${layout}${compact ? ' is-compact' : ''}${regions.legend === 'side' ? ' has-side-legend' : ''}`}
      style={fixed ? { width, height } : undefined}
      data-topology-layout={layout}
      data-nodes-drawn={marks.length}
      data-links-drawn={linksDrawn}
      data-labels-drawn={compact ? 0 : (result?.labels.length ?? 0)}
      data-hidden={result?.hidden ?? 0}
      data-aggregates={aggregates}
      data-selected={selected.join(' ')}
      data-highlighted={highlighted.join(' ')}
      data-capacity={capacity}
    >
      {toolbar ? (
        <div className="topology-toolbar" style={{ height: TOOLBAR_H }}>
          <div className="topology-title">{props.title}</div>
          {isTree(data.layout) ? (
            <Segmented<TopologyLayout>
              label="Layout"
              value={layout}
              choices={[
                ['sunburst', 'Sunburst'],
                ['icicle', 'Icicle'],
              ]}
              onChange={v => {
                setOwnLayout(v);
                props.onLayoutChange?.(v);
              }}
            />
          ) : null}
        </div>
      ) : null}
      <div className="topology-body">
        <svg
          ref={svgRef}
          className="topology-svg"
          width={svgW}
          height={svgH}
          role="tree"
          aria-label={ariaLabel}
          aria-multiselectable="true"
          onClick={e => {
            if (e.target === e.currentTarget && selected.length) select(null, false);
          }}
        >
          <g className="topology-bars">
            {result?.bars.map(b => (
              <path
                key={b.link.id}
                className={`topology-link topology-bar ${linkKindClass(b.link.kind)}${linkState(b.link)}`}
                data-link={b.link.id}
                data-link-kind={b.link.kind}
                data-geom={geomFact(b.geom)}
                d={markPath(b.geom)}
                style={barStyle(b.link)}
                {...linkHandlers(b.link)}
              />
            ))}
          </g>
          {layout === 'graph' ? curvesLayer : null}
          <g className="topology-marks">{marks.map(renderMark)}</g>
          {layout !== 'graph' ? curvesLayer : null}
          <g className="topology-labels">{markLabels}</g>
          {compact ? null : (
            <g className="topology-link-labels">
              {(result?.labels ?? [])
                .filter(l => !nodeById.has(l.of))
                .map(l => (
                  <g
                    key={l.of}
                    className="topology-link-label"
                    data-label-of={l.of}
                    data-box={`${r3(l.box.cx)} ${r3(l.box.cy)} ${r3(l.box.w)} ${r3(l.box.h)} ${r3(l.box.angle)}`}
                    transform={`translate(${r3(l.box.cx)} ${r3(l.box.cy)})`}
                  >
                    <rect x={-l.box.w / 2} y={-l.box.h / 2} width={l.box.w} height={l.box.h} rx={l.box.h / 2} />
                    <text textAnchor="middle" dominantBaseline="central">
                      {l.text}
                    </text>
                  </g>
                ))}
            </g>
          )}
        </svg>
        {regions.legend ? (
          <TopologyLegend
            data={data}
            colour={encoding}
            placement={regions.legend}
            selectedCount={selected.length}
            style={regions.legend === 'side' ? { width: LEGEND_W, height: svgH } : { height: LEGEND_BELOW_H }}
          />
        ) : null}
      </div>
      {compact ? null : (
        <div className="topology-footnote" style={{ height: FOOTNOTE_H }}>
          {notes.length ? <span className="topology-note">{notes.join(' ')} </span> : null}
          <span className="topology-muted">
            Click: select · Shift-click: add · Double-click:{' '}
            {layout === 'dragonfly' ? 'open or fold a group' : 'expand or fold'}
          </span>
        </div>
      )}
      {hover && tipContent && tipPos ? (
        <div className="topology-tip" style={{ left: tipPos.left, top: tipPos.top }}>
          {tipContent}
        </div>
      ) : null}
    </div>
  );
}
