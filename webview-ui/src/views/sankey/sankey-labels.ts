/**
 * Label placement for the module Sankey (pure): each node gets a two-line label (module name, then
 * value and share) beside it, on the right for nodes in the left half and on the left for nodes in
 * the right half, like standard Sankeys. Where two labels of the same column would overlap, the
 * smaller node's label loses its second line, then the label altogether (the tooltip and the
 * aria-label still tell everything). Labels are truncated with an ellipsis to the free width of
 * their column gap, which two labels level with each other from both sides of the gap share; a label
 * that would be truncated there goes to the other side of its node when that gap holds it whole.
 * A label shown on demand (hovered bar) is truncated the same way, to its gap and the labels of the
 * neighbouring column level with it, so no label ever runs over another column's.
 */
import { formatShare, formatValue } from '../../format';
import { truncateText } from '../../text-measure';
import type { MeasureText, TextStyle } from '../../text-measure';
import type { PositionedNode, SankeyLayout } from './sankey-layout';

export interface LabelLine {
  text: string;
  style: TextStyle;
  /** Untruncated text, for a title when truncated. */ full: string;
}

export interface NodeLabel {
  nodeId: string;
  side: 'left' | 'right';
  /** Anchor point of the text: x at the node edge plus a gap, y of the first baseline. */
  x: number;
  y: number;
  anchor: 'start' | 'end';
  lines: LabelLine[];
  /** Extent of the label block: top and bottom, and the width of its widest line. */
  top: number;
  bottom: number;
  width: number;
}

export interface LabelOptions {
  unit: string;
  measure: MeasureText;
  /** Space between node and label. */
  gap?: number;
  lineHeight?: Record<TextStyle, number>;
}

export const LINE_HEIGHT: Record<TextStyle, number> = { title: 15, detail: 14 };

/** The text lines of a node's label, untruncated. */
export function labelLines(node: PositionedNode, unit: string): Array<{ text: string; style: TextStyle }> {
  return [
    { text: node.data.label || node.data.module, style: 'title' },
    { text: `${formatValue(node.data.inclusive, unit)} · ${formatShare(node.data.share)}`, style: 'detail' },
  ];
}

/** Whether at least a few characters of `line` fit in `room`. */
function fits(line: { text: string; style: TextStyle }, room: number, measure: MeasureText): boolean {
  return room > 0 && measure(line.text.slice(0, 3) + '…', line.style) <= room;
}

/** Places the labels of all nodes of `layout`; nodes whose label does not fit get none. */
export function placeLabels(layout: SankeyLayout, options: LabelOptions): NodeLabel[] {
  const gap = options.gap ?? 8;
  const lh = options.lineHeight ?? LINE_HEIGHT;
  const { width, height } = layout;
  if (layout.nodes.length === 0) return [];

  // Column x ranges, left to right.
  const columnX = new Map<number, { x0: number; x1: number }>();
  for (const n of layout.nodes) {
    const c = columnX.get(n.layer);
    if (c) {
      c.x0 = Math.min(c.x0, n.x0);
      c.x1 = Math.max(c.x1, n.x1);
    } else columnX.set(n.layer, { x0: n.x0, x1: n.x1 });
  }
  const layers = [...columnX.keys()].sort((a, b) => a - b);
  const sideOf = (layer: number): 'left' | 'right' => {
    if (layers.length === 1) return 'right';
    const c = columnX.get(layer)!;
    return (c.x0 + c.x1) / 2 < width / 2 ? 'right' : 'left';
  };

  // The gap on each side of a column: its key (gap i lies between columns i and i + 1) and room.
  const gapAt = (layer: number, side: 'left' | 'right'): { key: number; room: number } => {
    const i = layers.indexOf(layer);
    const c = columnX.get(layer)!;
    if (side === 'right') {
      const next = layers[i + 1];
      return { key: i, room: (next === undefined ? width : columnX.get(next)!.x0) - c.x1 - gap * 2 };
    }
    const prev = layers[i - 1];
    return { key: i - 1, room: c.x0 - (prev === undefined ? 0 : columnX.get(prev)!.x1) - gap * 2 };
  };
  const gapOf = new Map(layers.map(layer => [layer, gapAt(layer, sideOf(layer))]));

  // Pass 1, vertical: within a column the biggest nodes choose first; a label that would overlap
  // one already placed loses its second line, then its place.
  interface Draft {
    node: PositionedNode;
    side: 'left' | 'right';
    lines: Array<{ text: string; style: TextStyle }>;
    top: number;
    bottom: number;
    width?: number;
  }
  const placed = new Map<number, Array<[number, number]>>();
  const drafts: Draft[] = [];
  const order = [...layout.nodes].sort((a, b) => b.value - a.value || a.y0 - b.y0);
  for (const node of order) {
    const { room } = gapOf.get(node.layer)!;
    const lines = labelLines(node, options.unit);
    if (!fits(lines[0]!, room, options.measure)) continue;
    const taken = placed.get(node.layer) ?? [];
    const centre = (node.y0 + node.y1) / 2;
    for (const count of [2, 1]) {
      const use = lines.slice(0, count);
      const blockHeight = use.reduce((h, l) => h + lh[l.style], 0);
      const top = Math.max(0, Math.min(height - blockHeight, centre - blockHeight / 2));
      const bottom = top + blockHeight;
      if (taken.some(([t, b]) => top < b + 1 && bottom > t - 1)) continue;
      taken.push([top, bottom]);
      placed.set(node.layer, taken);
      drafts.push({ node, side: sideOf(node.layer), lines: use, top, bottom });
      break;
    }
  }

  // Pass 2, horizontal: a label takes the whole gap unless a label from the other side of the
  // gap is level with it; then they share it (the bigger node first, leaving the other at least
  // what it needs or half). Nodes joined by a straight ribbon sit level, so their labels often
  // meet in one gap: a label that would be truncated there moves to the other side of its node
  // when that gap holds it whole.
  const spacing = 8;
  const desired = (d: Draft): number => Math.max(...d.lines.map(l => options.measure(l.text, l.style)));
  const keyOf = new Map<Draft, number>(drafts.map(d => [d, gapOf.get(d.node.layer)!.key]));
  const roomIn = (d: Draft, side: 'left' | 'right'): number => {
    const g = gapAt(d.node.layer, side);
    const level = drafts.filter(
      o => o !== d && o.side !== side && keyOf.get(o) === g.key && o.top < d.bottom + 2 && o.bottom > d.top - 2,
    );
    if (!level.length) return g.room;
    const assigned = level.filter(o => o.width !== undefined);
    return assigned.length
      ? g.room - spacing - Math.max(...assigned.map(o => o.width!))
      : Math.max((g.room - spacing) / 2, g.room - spacing - Math.max(...level.map(desired)));
  };
  const labels: NodeLabel[] = [];
  for (const d of drafts) {
    let room = roomIn(d, d.side);
    const need = desired(d);
    if (room < need && layers.length > 1) {
      const other = d.side === 'right' ? 'left' : 'right';
      const otherRoom = roomIn(d, other);
      if (otherRoom >= need) {
        d.side = other;
        keyOf.set(d, gapAt(d.node.layer, other).key);
        room = otherRoom;
      }
    }
    const lines = d.lines
      .map(l => ({ ...l, full: l.text, text: truncateText(l.text, room, l.style, options.measure) }))
      .filter(l => l.text !== '');
    d.width = lines.length ? Math.max(...lines.map(l => options.measure(l.text, l.style))) : 0;
    if (!lines.length || lines[0]!.style !== 'title' || lines[0]!.text === '…') continue;
    const x = d.side === 'right' ? d.node.x1 + gap : d.node.x0 - gap;
    labels.push({
      nodeId: d.node.id,
      side: d.side,
      x,
      // First baseline: the title's line box top plus its ascent.
      y: d.top + lh[lines[0]!.style] * 0.75,
      anchor: d.side === 'right' ? 'start' : 'end',
      lines,
      top: d.top,
      bottom: d.bottom,
      width: d.width,
    });
  }
  return labels;
}

/** The horizontal extent of a label's text, left to right. */
function labelSpan(l: NodeLabel): [number, number] {
  return l.anchor === 'start' ? [l.x, l.x + l.width] : [l.x - l.width, l.x];
}

/** Whether two labels' blocks overlap, their backing chips (4 px each side) included. */
function labelsOverlap(a: NodeLabel, b: NodeLabel): boolean {
  const [a0, a1] = labelSpan(a);
  const [b0, b1] = labelSpan(b);
  return a0 - 4 < b1 + 4 && b0 - 4 < a1 + 4 && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The label of one node drawn on demand (the node is hovered or focused and `placeLabels` had no
 * room for it): both lines, beside the node on the side labels of its column take — or the other
 * side when that holds more of the text — truncated to the free space up to the neighbouring
 * column: its bars, and the `placed` labels of other columns level with it, so it never runs over
 * another column's label (the tooltip has the full name). Labels of its own column it covers give
 * way while it shows (`withLabelOnDemand`).
 */
export function labelOnDemand(
  layout: SankeyLayout,
  node: PositionedNode,
  options: LabelOptions,
  placed: readonly NodeLabel[] = [],
): NodeLabel | null {
  const gap = options.gap ?? 8;
  const lh = options.lineHeight ?? LINE_HEIGHT;
  const lines = labelLines(node, options.unit);
  const need = Math.max(...lines.map(l => options.measure(l.text, l.style)));
  const fullHeight = lines.reduce((h, l) => h + lh[l.style], 0);
  const centre = (node.y0 + node.y1) / 2;
  const blockTop = Math.max(0, Math.min(layout.height - fullHeight, centre - fullHeight / 2));
  const level = (top: number, bottom: number) => top < blockTop + fullHeight + 2 && bottom > blockTop - 2;
  // The nearest bar of another column level with the label, and the nearest other-column label, on each side.
  let rightLimit = layout.width + gap;
  let leftLimit = -gap;
  for (const n of layout.nodes) {
    if (n.layer === node.layer) continue;
    if (n.x0 >= node.x1) rightLimit = Math.min(rightLimit, n.x0 - gap);
    else if (n.x1 <= node.x0) leftLimit = Math.max(leftLimit, n.x1 + gap);
  }
  const layerOf = new Map(layout.nodes.map(n => [n.id, n.layer]));
  for (const l of placed) {
    if (layerOf.get(l.nodeId) === node.layer || !level(l.top, l.bottom)) continue;
    const [l0, l1] = labelSpan(l);
    // Room for both backing chips (4 px each) and a hair between them.
    if (l0 >= node.x1) rightLimit = Math.min(rightLimit, l0 - gap - 2);
    else if (l1 <= node.x0) leftLimit = Math.max(leftLimit, l1 + gap + 2);
  }
  const roomRight = rightLimit - gap - node.x1;
  const roomLeft = node.x0 - gap - leftLimit;
  const preferRight = (node.x0 + node.x1) / 2 < layout.width / 2;
  const side: 'left' | 'right' = (
    preferRight ? roomRight >= need || roomRight >= roomLeft : !(roomLeft >= need || roomLeft >= roomRight)
  )
    ? 'right'
    : 'left';
  const room = side === 'right' ? roomRight : roomLeft;
  if (!fits(lines[0]!, room, options.measure)) return null;
  const fitted = lines
    .map(l => ({ ...l, full: l.text, text: truncateText(l.text, room, l.style, options.measure) }))
    .filter(l => l.text !== '');
  if (!fitted.length || fitted[0]!.style !== 'title') return null;
  const blockHeight = fitted.reduce((h, l) => h + lh[l.style], 0);
  const top = Math.max(0, Math.min(layout.height - blockHeight, centre - blockHeight / 2));
  const x = side === 'right' ? node.x1 + gap : node.x0 - gap;
  return {
    nodeId: node.id,
    side,
    x,
    y: top + lh[fitted[0]!.style] * 0.75,
    anchor: side === 'right' ? 'start' : 'end',
    lines: fitted,
    top,
    bottom: top + blockHeight,
    width: Math.max(...fitted.map(l => options.measure(l.text, l.style))),
  };
}

/**
 * The labels to draw while `node` shows its label on demand: `placed` without those the on-demand
 * label would cover (labels of its own column that crowded it out), then the on-demand label.
 */
export function withLabelOnDemand(
  layout: SankeyLayout,
  placed: readonly NodeLabel[],
  node: PositionedNode,
  options: LabelOptions,
): { labels: NodeLabel[]; onDemand: NodeLabel | null } {
  const onDemand = labelOnDemand(layout, node, options, placed);
  return { labels: onDemand ? placed.filter(l => !labelsOverlap(l, onDemand)) : [...placed], onDemand };
}
