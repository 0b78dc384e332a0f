/** @jsxRuntime automatic */
/**
 * Supernode hierarchy (seed-callflow §4.3): an icicle of the call sites inside the selected
 * supernode, depth top → bottom. A bar is as wide as its max inclusive value over runs (children
 * laid inside their parent, like a flame graph), filled with the histogram of its run values as a
 * horizontal gradient (lowest bin left, white → red by count on the hierarchy's one count scale)
 * and bordered by the colour of its max over runs. In target mode a call site the target run lacks
 * has no fill and a dashed outline (A1: missing calling contexts), and present ones carry a green
 * line at the target's bin. A click reveals the call site in the Sankey; alt-click or a
 * double-click opens its source.
 */
import { useId, useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { EnsembleDetailData, HierarchyNodeData } from '../../../../src/shared/ensemble-protocol';
import { binOf } from '../../../../src/analysis/stats/histogram';
import { formatLocation, formatValue } from '../../format';
import { truncateText } from '../../text-measure';
import { borderColour, gradientStops } from './ensemble-colours';
import {
  plural,
  pointerInView,
  runName,
  tipPosition,
  useMeasureText,
  viewStyle,
  ViewHeader,
  type LinkedViewProps,
  type OpenSource,
  VIEW_FOOTER,
  VIEW_HEADER,
} from './linked-view-parts';

export interface SupernodeIcicleViewProps extends LinkedViewProps {
  detail: EnsembleDetailData;
  onOpenSource: OpenSource;
}

export interface IcicleBar {
  index: number;
  x: number;
  width: number;
  depth: number;
}

export interface IcicleLayout {
  /** One per hierarchy node, null when narrower than `minWidth` (not drawn). */
  bars: (IcicleBar | null)[];
  depth: number;
  /** Nodes too narrow to draw. */
  hidden: number;
}

/**
 * Bars of the hierarchy in `width` pixels. Roots share the width by max inclusive; children start at
 * their parent's left edge, heaviest first. Maxima come from different runs, so the children's sum
 * can exceed their parent's max: then they are scaled down together to fit inside it (the widths
 * within one parent stay proportional).
 */
export function icicleLayout(nodes: readonly HierarchyNodeData[], width: number, minWidth = 1): IcicleLayout {
  const val = (i: number) =>
    Number.isFinite(nodes[i]!.maxInclusive) && nodes[i]!.maxInclusive > 0 ? nodes[i]!.maxInclusive : 0;
  const children: number[][] = nodes.map(() => []);
  const roots: number[] = [];
  nodes.forEach((n, i) => (n.parent >= 0 && n.parent < i ? children[n.parent]!.push(i) : roots.push(i)));
  const heaviestFirst = (a: number, b: number) => val(b) - val(a) || a - b;
  const geometry: { x: number; width: number; depth: number }[] = new Array(nodes.length);
  let maxDepth = 0;
  const place = (ids: number[], x0: number, available: number, depth: number) => {
    const sum = ids.reduce((s, i) => s + val(i), 0);
    if (sum <= 0) {
      for (const i of ids) geometry[i] = { x: x0, width: 0, depth };
      return;
    }
    // Within a parent, px per unit is the parent's unless the children's maxima overflow it.
    let x = x0;
    for (const i of [...ids].sort(heaviestFirst)) {
      const w = (val(i) / sum) * available;
      geometry[i] = { x, width: w, depth };
      maxDepth = Math.max(maxDepth, depth);
      x += w;
    }
  };
  place(roots, 0, width, 0);
  // Parents come first, so every parent is placed before its children.
  for (let i = 0; i < nodes.length; i++) {
    const g = geometry[i];
    const ids = children[i]!;
    if (!g || ids.length === 0) continue;
    const sum = ids.reduce((s, c) => s + val(c), 0);
    const available = val(i) > 0 ? g.width * Math.min(1, sum / val(i)) : 0;
    place(ids, g.x, available, g.depth + 1);
  }
  let hidden = 0;
  const bars = nodes.map((_, i) => {
    const g = geometry[i];
    if (!g || g.width < minWidth) {
      hidden++;
      return null;
    }
    return { index: i, ...g };
  });
  return { bars, depth: maxDepth + 1, hidden };
}

export type IcicleAction = 'reveal' | 'open';

/** A click reveals the call site in the Sankey; alt-click, or the second click of a double-click, opens its source. */
export function icicleClickAction(e: { altKey: boolean; detail: number }): IcicleAction {
  return e.altKey || e.detail >= 2 ? 'open' : 'reveal';
}

/** Enter or Space reveals; with Alt or Shift it opens the source. */
export function icicleKeyAction(e: { key: string; altKey: boolean; shiftKey: boolean }): IcicleAction | null {
  if (e.key !== 'Enter' && e.key !== ' ') return null;
  return e.altKey || e.shiftKey ? 'open' : 'reveal';
}

/**
 * The functions between the supernode's entry (the top bar, which is the supernode itself) and the
 * call site at `index`, outermost first, without the call site's own function: what a reveal pulls
 * out with it so the whole chain shows in the Sankey (CallFlow's component path, paper §4.4.2).
 */
export function revealPath(nodes: readonly HierarchyNodeData[], index: number): string[] {
  const own = nodes[index]!.function;
  const path: string[] = [];
  for (let i = nodes[index]!.parent; i >= 0 && nodes[i]!.parent >= 0; i = nodes[i]!.parent) {
    const f = nodes[i]!.function;
    if (f !== own && path[0] !== f) path.unshift(f);
  }
  return path;
}

/** Carries out an action on call site `index` of supernode `nodeId`'s hierarchy (opening needs a source file). */
export function activateCallSite(
  how: IcicleAction | null,
  nodes: readonly HierarchyNodeData[],
  index: number,
  nodeId: string,
  onRequest: LinkedViewProps['onRequest'],
  onOpenSource: OpenSource,
): void {
  const n = nodes[index]!;
  if (how === 'reveal') {
    const via = revealPath(nodes, index);
    onRequest({ type: 'ensemble/reveal', nodeId, function: n.function, ...(via.length ? { via } : {}) });
  } else if (how === 'open' && n.file) onOpenSource({ kind: 'hierarchy', index });
}

const HEADER = VIEW_HEADER;
const FOOTER = VIEW_FOOTER;
const BAR_GAP = 1;

export function SupernodeIcicleView({
  data,
  state,
  detail,
  width,
  height,
  onRequest,
  onOpenSource,
}: SupernodeIcicleViewProps) {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const measure = useMeasureText();
  const nodes = detail.hierarchy.nodes;
  const plotW = Math.max(40, width - 16);
  const layout = useMemo(() => icicleLayout(nodes, plotW), [nodes, plotW]);
  const [hover, setHover] = useState<{ index: number; x: number; y: number } | null>(null);
  const targetMode = state.mode === 'target' && state.target !== null;
  const borderSide = state.options.borderSide;
  const borderValue = (n: HierarchyNodeData) => (borderSide === 'inclusive' ? n.maxInclusive : n.maxExclusive);
  const borderValues = nodes.map(borderValue).filter(Number.isFinite);
  // The border scale spans this supernode's call sites, so they differ from each other.
  const domain: [number, number] = borderValues.length
    ? [Math.min(...borderValues), Math.max(...borderValues)]
    : [0, 0];

  const available = Math.max(40, height - HEADER - FOOTER);
  const rowH = Math.max(18, Math.min(28, Math.floor(available / Math.max(1, layout.depth))));
  const svgH = layout.depth * rowH;
  const drawn = layout.bars.filter(b => b !== null);
  const unit = data.metric.unit;
  const runs = data.selectedRuns.length;

  const act = (how: IcicleAction | null, n: HierarchyNodeData) =>
    activateCallSite(
      how,
      detail.hierarchy.nodes,
      detail.hierarchy.nodes.indexOf(n),
      detail.nodeId,
      onRequest,
      onOpenSource,
    );
  const onClick = (e: MouseEvent, n: HierarchyNodeData) => act(icicleClickAction(e), n);
  const onKey = (e: KeyboardEvent, n: HierarchyNodeData) => {
    const how = icicleKeyAction(e);
    if (how) {
      e.preventDefault();
      act(how, n);
    }
  };

  const notes: string[] = [];
  if (detail.hierarchy.truncated > 0)
    notes.push(`${plural(detail.hierarchy.truncated, 'call site')} not shown (the lightest)`);
  if (layout.hidden > 0) notes.push(`${plural(layout.hidden, 'call site')} too narrow to draw`);

  const tipNode = hover !== null ? nodes[hover.index] : undefined;
  return (
    <div
      className="ensemble-view ensemble-icicle"
      data-ensemble-view="icicle"
      data-drawn={drawn.length}
      data-hidden={layout.hidden}
      style={viewStyle(width, height)}
    >
      <ViewHeader
        title={
          <>
            Call sites in <strong>{detail.label}</strong>{' '}
            <span className="callflow-muted">
              · width = max inclusive over {plural(runs, 'run')}; fill = histogram of {detail.side} over runs
            </span>
          </>
        }
      />
      {nodes.length === 0 ? (
        <div className="callflow-empty">No call sites inside {detail.label}.</div>
      ) : (
        <div className="ensemble-scroll" style={{ height: height - HEADER - FOOTER }}>
          <svg
            width={plotW + 16}
            height={svgH}
            className="callflow-svg"
            role="img"
            aria-label={`Icicle of ${nodes.length} call sites inside ${detail.label}`}
          >
            <defs>
              {drawn.map(b => (
                <linearGradient key={b.index} id={`${uid}-g${b.index}`} x1="0" x2="1" y1="0" y2="0">
                  {gradientStops(nodes[b.index]!.gradient, detail.hierarchy.countScale).map((s, k) => (
                    <stop key={k} offset={s.offset} stopColor={s.colour} />
                  ))}
                </linearGradient>
              ))}
            </defs>
            {drawn.map(b => {
              const n = nodes[b.index]!;
              const missing = targetMode && n.inTarget === false;
              const x = 8 + b.x,
                y = b.depth * rowH,
                w = Math.max(0.5, b.width - BAR_GAP),
                h = rowH - 2;
              const label = w > 14 ? truncateText(n.name, w - 8, 'detail', measure) : '';
              const bins = n.gradient.counts.length;
              const targetBin =
                targetMode && !missing && n.targetValue != null && bins > 0
                  ? binOf(n.targetValue, n.gradient.min, n.gradient.max, bins)
                  : -1;
              return (
                <g
                  key={b.index}
                  className={
                    'ensemble-icicle-bar' +
                    (missing ? ' is-missing' : '') +
                    (hover?.index === b.index ? ' is-hover' : '')
                  }
                  data-bar={b.index}
                  data-width={b.width.toFixed(3)}
                  tabIndex={0}
                  role="button"
                  aria-label={`${n.name}: max ${formatValue(n.maxInclusive, unit)}${missing ? ', missing in the target run' : ''}`}
                  onMouseMove={e => setHover({ index: b.index, ...pointerInView(e) })}
                  onMouseLeave={() => setHover(null)}
                  onFocus={() => setHover({ index: b.index, x: x + Math.min(w, 60), y: HEADER + y + rowH })}
                  onBlur={() => setHover(null)}
                  onClick={e => onClick(e, n)}
                  onKeyDown={e => onKey(e, n)}
                >
                  <rect
                    className="ensemble-icicle-rect"
                    x={x}
                    y={y + 1}
                    width={w}
                    height={h}
                    fill={missing ? 'none' : `url(#${uid}-g${b.index})`}
                    stroke={borderColour(borderValue(n), domain)}
                    strokeDasharray={missing ? '4 3' : undefined}
                  />
                  {targetBin >= 0 ? (
                    <line
                      className="ensemble-target-line"
                      x1={x + ((targetBin + 0.5) / bins) * w}
                      x2={x + ((targetBin + 0.5) / bins) * w}
                      y1={y + 2}
                      y2={y + h}
                    />
                  ) : null}
                  {label ? (
                    <text
                      className={'ensemble-icicle-label' + (missing ? ' is-plain' : '')}
                      x={x + 4}
                      y={y + 1 + h / 2 + 4}
                    >
                      {label}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </svg>
        </div>
      )}
      <div className="ensemble-footnote">
        {notes.length ? <span className="ensemble-note">{notes.join(' · ')} · </span> : null}
        {targetMode ? (
          <span
            title={`Call sites the target run ${runName(data, state.target!)} does not have are drawn unfilled with a dashed outline`}
          >
            <span className="ensemble-swatch is-target" />
            target {runName(data, state.target!)}, dashed = missing ·{' '}
          </span>
        ) : null}
        <span title="Click a call site to reveal it in the Sankey; alt-click or double-click to open its source">
          Click: reveal in Sankey · double-click: source
        </span>
      </div>
      {tipNode && hover ? (
        <div className="callflow-tip" style={tipPosition(hover.x, hover.y + 12, width, height, 280, 130)}>
          <strong>{tipNode.name}</strong>
          {tipNode.file ? <div className="callflow-muted">{formatLocation(tipNode.file, tipNode.line, 48)}</div> : null}
          <div>
            max inclusive {formatValue(tipNode.maxInclusive, unit)} · max exclusive{' '}
            {formatValue(tipNode.maxExclusive, unit)}
          </div>
          <div>
            {detail.side}: min {formatValue(tipNode.gradient.min, unit)} · max {formatValue(tipNode.gradient.max, unit)}
          </div>
          <div>
            present in {tipNode.present} of {plural(runs, 'run')}
          </div>
          {targetMode ? (
            <div>
              target:{' '}
              {tipNode.inTarget === false
                ? 'missing'
                : tipNode.targetValue != null
                  ? formatValue(tipNode.targetValue, unit)
                  : '–'}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
