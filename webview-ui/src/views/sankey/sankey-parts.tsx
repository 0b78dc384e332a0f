/** @jsxRuntime automatic */
// (The pragma lets tsx run this file in unit tests; the bundle is built with jsx: automatic anyway.)
/**
 * Pieces of the Sankey drawing that both CallFlow panels use: a node label with its backing chip,
 * the labels shown at a zoom, a bar and the rings around it (focus, selection), the "k more" bar of a
 * column's merged lightest nodes and its tooltip, and the line under the header that says what
 * the filter, the supernode guard and the merging left out.
 */
import type { KeyboardEvent as ReactKeyboardEvent, MouseEvent as ReactMouseEvent, SVGProps } from 'react';
import { filterHeadline, guardHeadline } from '../../../../src/analysis/graph/callflow-filter-settings';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { formatShare, formatValue } from '../../format';
import { LINE_HEIGHT, type NodeLabel } from './sankey-labels';
import type { PositionedNode } from './sankey-layout';

/** Members a "k more" node's tooltip lists by name (the rest are counted). */
const MORE_TOOLTIP_MEMBERS = 8;
/** Zoomed out below this, labels of bars shorter than this on screen are hidden. */
const LABEL_MIN_PX = 9;

/** A ref callback that keeps a node's element in `elements` under its id while it is mounted (for focus moves). */
export function keepElement(elements: Map<string, SVGGElement>, id: string): (el: SVGGElement | null) => void {
  return el => {
    if (el) elements.set(id, el);
    else elements.delete(id);
  };
}

/**
 * A rect over a node's bar, `pad` px outside it: the bar itself (pad 0), the focus ring, the
 * selection, the "revealed" mark; other attributes (fill, stroke, style) pass through.
 */
export function NodeBox({
  node: n,
  pad = 0,
  className,
  ...rest
}: { node: PositionedNode; pad?: number } & Omit<SVGProps<SVGRectElement>, 'x' | 'y' | 'width' | 'height'>) {
  // Class and position first, as the markup always had them (render tests read bars in this order).
  return (
    <rect
      className={className}
      x={n.x0 - pad}
      y={n.y0 - pad}
      width={n.x1 - n.x0 + 2 * pad}
      height={n.y1 - n.y0 + 2 * pad}
      {...rest}
    />
  );
}

/** The labels at zoom `zoom`: zoomed out, those of bars under LABEL_MIN_PX on screen are left out. */
export function ZoomedLabels({
  labels,
  nodes,
  zoom: k,
  dimmed,
}: {
  labels: NodeLabel[];
  nodes: PositionedNode[];
  zoom: number;
  dimmed: (nodeId: string) => boolean;
}) {
  return (
    <>
      {labels.map(l => {
        const node = nodes.find(x => x.id === l.nodeId);
        if (k < 1 && node && (node.y1 - node.y0) * k < LABEL_MIN_PX) return null;
        return <SankeyLabel key={l.nodeId} label={l} zoom={k} dimmed={dimmed(l.nodeId)} />;
      })}
    </>
  );
}

/** One node label with its backing chip; counter-scaled about its anchor so text keeps its size at any zoom. */
export function SankeyLabel({
  label: l,
  zoom: k,
  dimmed = false,
  onDemand = false,
}: {
  label: NodeLabel;
  zoom: number;
  dimmed?: boolean;
  onDemand?: boolean;
}) {
  const mid = (l.top + l.bottom) / 2;
  const keep = k === 1 ? undefined : `translate(${l.x},${mid}) scale(${1 / k}) translate(${-l.x},${-mid})`;
  return (
    <g
      className={'sankey-label' + (dimmed ? ' is-dimmed' : '') + (onDemand ? ' is-on-demand' : '')}
      transform={keep}
      data-label-node={l.nodeId}
    >
      {/* A backing chip keeps the label readable where it crosses link ribbons. */}
      <rect
        className="sankey-label-bg"
        x={(l.anchor === 'start' ? l.x : l.x - l.width) - 4}
        y={l.top}
        width={l.width + 8}
        height={l.bottom - l.top}
        rx={3}
      />
      <text className="sankey-label-text" x={l.x} y={l.y} textAnchor={l.anchor}>
        {l.lines.map((line, i) => (
          <tspan key={i} className={`sankey-label-${line.style}`} x={l.x} dy={i === 0 ? 0 : LINE_HEIGHT.detail}>
            {line.text}
          </tspan>
        ))}
      </text>
    </g>
  );
}

/**
 * A column's lightest nodes merged into one bar ("k more", readable-layout.ts): neutral and
 * dashed, so it never reads as a module; a click or Enter shows every node of the column (the
 * drawing grows and scrolls when they do not fit), and again merges them back.
 */
export function MoreNode({
  node: n,
  active,
  expanded,
  onToggle,
  onKey,
  onFocus,
  onHover,
  onMove,
  register,
}: {
  node: PositionedNode;
  active: boolean;
  expanded: boolean;
  onToggle: () => void;
  onKey: (e: ReactKeyboardEvent) => void;
  onFocus: (el: SVGGElement) => void;
  onHover: (e: ReactMouseEvent | null) => void;
  onMove: (e: ReactMouseEvent) => void;
  register: (el: SVGGElement | null) => void;
}) {
  const count = n.more!.members.length;
  return (
    <g
      ref={register}
      className={'sankey-node is-more is-openable' + (active ? ' is-active' : '')}
      data-node={n.id}
      data-more={count}
      data-expanded={expanded ? 'true' : undefined}
      tabIndex={0}
      role="button"
      aria-expanded={expanded}
      aria-label={`${count} more nodes of column ${n.more!.level + 1}, the lightest: press Enter to show them`}
      onClick={onToggle}
      onKeyDown={onKey}
      onFocus={e => onFocus(e.currentTarget)}
      onMouseEnter={e => onHover(e)}
      onMouseMove={onMove}
      onMouseLeave={() => onHover(null)}
    >
      <NodeBox node={n} className="sankey-node-rect sankey-more-rect" rx={2} />
      <NodeBox node={n} className="sankey-node-focus" pad={3} rx={4} />
    </g>
  );
}

export function MoreTooltip({
  node,
  members,
  unit,
  total,
  expanded,
}: {
  node: PositionedNode;
  members: CallflowNodeData[];
  unit: string;
  total: number;
  expanded: boolean;
}) {
  const rest = members.length - Math.min(members.length, MORE_TOOLTIP_MEMBERS);
  return (
    <>
      <div className="tooltip-title">
        <span>{node.data.label}</span>
      </div>
      <div className="tooltip-subtitle">the lightest nodes of column {node.more!.level + 1}, merged</div>
      <dl className="tooltip-grid">
        <dt>Inclusive</dt>
        <dd>
          {formatValue(node.data.inclusive, unit)} · {total > 0 ? formatShare(node.data.inclusive / total) : '–'}
        </dd>
      </dl>
      <ul className="tooltip-list">
        {members.slice(0, MORE_TOOLTIP_MEMBERS).map(m => (
          <li key={m.id}>
            <span className="tooltip-list-name">{m.label || m.module}</span>
            <span className="tooltip-list-value">{formatValue(m.inclusive, unit)}</span>
          </li>
        ))}
        {rest > 0 ? <li className="tooltip-muted">… {rest} more</li> : null}
      </ul>
      <div className="tooltip-hint">
        {expanded ? 'Click: merge them again' : `Click or press Enter: show all ${members.length}`}
      </div>
    </>
  );
}

/**
 * What the filter, the supernode guard and the column merging left out, in one line under the
 * header: "0.1 % filter: 58 of 230 functions kept, 1,189 nodes folded into callers", the guard's
 * "2,000 of 162,954 supernodes shown…", and "23 lightest nodes merged into 2 "k more" bars".
 */
export function FilterNotes({
  data,
  merged,
  moreCount,
  expanded,
  onCollapse,
  onHideRepopulated,
}: {
  data: CallflowData;
  merged: number;
  moreCount: number;
  expanded: number;
  onCollapse: () => void;
  onHideRepopulated?: () => void;
}) {
  const filter = filterHeadline(data.filter);
  const guard = guardHeadline(data.guard);
  const misses = data.unmatchedRepopulate ?? [];
  const f = data.filter;
  if (!filter && !guard && !merged && !expanded && !misses.length) return null;
  return (
    <div
      className="sankey-notes"
      data-filter-threshold={f?.threshold}
      data-filter-by={f?.by}
      data-functions-kept={f?.keptFunctions}
      data-functions-total={f?.totalFunctions}
      data-nodes-folded={f?.removedNodes}
      data-nodes-total={f?.totalNodes}
      data-repopulated={f?.repopulatedNodes ?? 0}
      data-guard-shown={data.guard?.shown}
      data-guard-omitted={data.guard?.omitted}
    >
      {filter ? (
        <span
          className="sankey-note sankey-filter-note"
          title="CallFlow's filter (thesis §3.2.1): functions below the threshold are folded into their nearest drawn caller, whose bar keeps their time below its outgoing ribbons. Right-click a bar: Show filtered callees."
        >
          {filter}
          {data.repopulate?.length && onHideRepopulated ? (
            <button className="sankey-note-action" data-action="hide-all-again" onClick={onHideRepopulated}>
              Hide again
            </button>
          ) : null}
        </span>
      ) : null}
      {misses.length ? (
        <span className="sankey-note is-warning" data-repopulate-misses={misses.length}>
          Not shown again: {misses.map(m => `${m.function} (${missReason(m.reason)})`).join(', ')}
        </span>
      ) : null}
      {guard ? (
        <span
          className="sankey-note is-warning sankey-guard-note"
          title="The graph has more supernodes than can be drawn: the heaviest are shown with the callers that lead to them; the time of the others stays in their callers' bars."
        >
          {guard}
        </span>
      ) : null}
      {merged ? (
        <span className="sankey-note">
          {merged.toLocaleString('en')} lightest nodes merged into {moreCount} “more” bar{moreCount === 1 ? '' : 's'} ·
          click one to show them
        </span>
      ) : null}
      {expanded ? (
        <button className="sankey-note-action" data-action="collapse-columns" onClick={onCollapse}>
          Merge expanded columns again
        </button>
      ) : null}
    </div>
  );
}

function missReason(reason: NonNullable<CallflowData['unmatchedRepopulate']>[number]['reason']): string {
  return reason === 'unknown-function'
    ? 'no longer in the profile'
    : reason === 'unknown-node'
      ? 'its node is not drawn now'
      : 'not folded at this filter';
}
