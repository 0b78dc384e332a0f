/**
 * The layout step of the Sankey: `CallflowData` and a box size in, positioned nodes and ribbons
 * out. The CallFlow layout (src/analysis/layout) does the work — longest-path levels, adaptive
 * layer spacing, dummy items for long calls, crossing minimisation, height = inclusive and ribbon
 * width = flow on one scale — with the rules that keep large graphs readable (readable-layout.ts,
 * issue 15): a column holds at most the nodes that fit legibly in the height, its lightest nodes
 * merging into one "k more" node that expands on request; gaps take at most a third of the height;
 * bars are at least `minNodeHeight` tall; an expanded column that cannot fit makes the drawing
 * taller (the view scrolls) instead of compressing it. This module adapts the protocol's data to it
 * and back, and keeps the view's guarantees (unknown ids, self-loops, cycles, zero and non-finite
 * values never throw; every number is finite and inside the box).
 */
import {
  flowStructure,
  type CallflowLayout,
  type FlowGraphInput,
} from '../../../../src/analysis/layout/callflow-layout';
import { layoutReadableCallflow, READABLE_DEFAULTS } from '../../../../src/analysis/layout/readable-layout';
import type { CallflowData, CallflowLinkData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';

export interface LayoutOptions {
  /** Size of the whole drawing (the SVG), in px. */
  width: number;
  height: number;
  /** Free space around the graph inside the box. */
  margin?: { top: number; right: number; bottom: number; left: number };
  nodeWidth?: number;
  /** Minimum vertical gap between nodes of a column; shrinks when space is short. */
  nodePadding?: number;
  /** Room kept above every node for a mini histogram. */
  histogramHeight?: number;
  /** Nodes are drawn at least this tall, so that tiny and zero values stay visible and clickable (default 4 px). */
  minNodeHeight?: number;
  /** Vertical room a node needs for its bar and label: columns holding more merge their lightest nodes (default 24 px). */
  rowHeight?: number;
  /**
   * Ids of "k more" nodes the user expanded: their columns show every node at the vertical scale of
   * the drawing without them, so the drawing grows (the view scrolls) instead of every bar shrinking.
   */
  expanded?: readonly string[];
  /** The layout drawn before (same view, new data): persisting nodes keep their order and place. */
  previous?: SankeyLayout | null;
  /** Cap of the vertical scale (px per unit), so that two graphs side by side share one scale. */
  maxScale?: number;
  /**
   * Smallest gap between two columns (px), so that sparse columns next to crowded ones keep room for
   * a label; default: 0.6 × the even spacing (the CallFlow layout's own minimum).
   */
  minColumnGap?: number;
}

export interface PositionedNode {
  id: string;
  data: CallflowNodeData;
  /** Column (longest call path from the root), 0 for the roots. */
  layer: number;
  /** Rank within its column, top to bottom. */
  order: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Value the node height stands for: its inclusive value. */
  value: number;
  /** Height (px) from the top taken by the calls leaving the node; below it is exclusive time. */
  outgoing: number;
  /** Set on a "k more" node: the lightest nodes of its column, merged (ids, heaviest first). */
  more?: { members: string[]; level: number };
}

export interface PositionedLink {
  /** Unique key: `source→target` plus the index in the input when the same pair occurs twice. */
  id: string;
  data: CallflowLinkData;
  source: PositionedNode;
  target: PositionedNode;
  value: number;
  /** Ribbon width in px at the source end, proportional to `value` (0 for zero-valued links). */
  width: number;
  /** Vertical centre of the ribbon at the source and at the target. */
  y0: number;
  y1: number;
  /** Ribbon ends: at the source's right side and at the target's left side. */
  sourceY0: number;
  sourceY1: number;
  targetY0: number;
  targetY1: number;
  /** The ends differ in width (values are maxima, not flows). */
  tapered: boolean;
  /** Closed outline of the ribbon (fill it), through the dummy waypoints of long calls. */
  path: string;
  /** Centre line of the ribbon (stroke it; used for hairlines). */
  centreLine: string;
}

export interface SankeyLayout {
  /** Size of the drawing: the box, or taller when an expanded column needs more room (the view scrolls). */
  width: number;
  height: number;
  nodes: PositionedNode[];
  links: PositionedLink[];
  /** Number of columns (levels). */
  columns: number;
  /** Pixels per metric unit (node height and link width = value × scale). */
  scale: number;
  /** The scale that would fill the box (before `maxScale`). */
  fittedScale: number;
  /** Input links that could not be drawn: unknown node ids, self-loops or links closing a cycle. */
  droppedLinks: number;
  /** Ribbon pairs that cross. */
  crossings: number;
  /** The underlying CallFlow layout (the `previous` of the next one); its edges index `drawnLinks`. */
  callflow: CallflowLayout;
  /** Input nodes merged into "k more" nodes (not drawn on their own). */
  merged: number;
  /** Nodes a column may hold before its lightest merge, per column. */
  rowsPerColumn: number[];
}

/** The label of a "k more" node. */
export function moreLabel(count: number): string {
  return `${count.toLocaleString('en')} more`;
}

export const DEFAULT_MARGIN = { top: 10, right: 8, bottom: 10, left: 8 };

/** Positions `data` in a `width` × `height` box (taller with expanded columns). Never throws on odd data; an empty graph gives an empty layout. */
export function layoutSankey(data: CallflowData, options: LayoutOptions): SankeyLayout {
  const input = flowInput(data);
  const margin = options.margin ?? DEFAULT_MARGIN;
  const nodeWidth = options.nodeWidth ?? 14;
  let minLayerGap: number | undefined;
  if (options.minColumnGap !== undefined) {
    const columns = columnCount(data);
    const span = Math.max(0, options.width - margin.left - margin.right - nodeWidth);
    const even = columns > 1 ? span / (columns - 1) : 0;
    minLayerGap = Math.max(0.6 * even, Math.min(options.minColumnGap, even));
  }
  const at = (expanded: readonly string[], maxScale: number | undefined) =>
    layoutReadableCallflow(input, {
      width: options.width,
      height: options.height,
      margin,
      nodeWidth,
      ...(minLayerGap !== undefined ? { minLayerGap } : {}),
      nodeGap: options.nodePadding ?? 28,
      histogramHeight: options.histogramHeight ?? 0,
      minNodeHeight: options.minNodeHeight ?? READABLE_DEFAULTS.minNodeHeight,
      rowHeight: options.rowHeight ?? READABLE_DEFAULTS.rowHeight,
      expanded,
      scroll: true,
      previous: options.previous?.callflow,
      ...(maxScale !== undefined ? { maxScale } : {}),
    });
  let readable = at([], options.maxScale);
  if (options.expanded?.length && readable.more.some(m => options.expanded!.includes(m.id))) {
    const scale = Math.min(options.maxScale ?? Infinity, readable.layout.fittedScale);
    readable = at(options.expanded, Number.isFinite(scale) ? scale : options.maxScale);
  }
  const callflow = readable.layout;
  const byId = new Map(data.nodes.map(n => [n.id, n]));
  const moreOf = new Map(readable.more.map(m => [m.id, m]));

  const nodes = new Map<string, PositionedNode>();
  for (const n of callflow.nodes) {
    const source = readable.nodeSource[n.index]!;
    const more = moreOf.get(n.id);
    nodes.set(n.id, {
      id: n.id,
      data: source >= 0 ? data.nodes[source]! : moreData(more!, byId, data.total),
      layer: n.level,
      order: n.order,
      x0: n.x0,
      x1: n.x1,
      y0: n.y0,
      y1: n.y1,
      value: n.value,
      outgoing: n.outgoing,
      ...(more ? { more: { members: more.members, level: more.level } } : {}),
    });
  }
  // A drawn link is one input link, or the sum of the links merged into it (to or from "k more").
  const drawnLinks: CallflowLinkData[] = readable.graph.edges.map((e, i) => {
    const sources = readable.edgeSources[i]!;
    return sources.length === 1 && !moreOf.has(e.source) && !moreOf.has(e.target)
      ? data.links[sources[0]!]!
      : { source: e.source, target: e.target, value: e.value };
  });
  const key = linkKeys(drawnLinks);
  const links: PositionedLink[] = callflow.edges.map(e => {
    const l = drawnLinks[e.index]!;
    return {
      id: key[e.index]!,
      data: l,
      source: nodes.get(e.source)!,
      target: nodes.get(e.target)!,
      value: e.value,
      width: e.sourceY1 - e.sourceY0,
      y0: (e.sourceY0 + e.sourceY1) / 2,
      y1: (e.targetY0 + e.targetY1) / 2,
      sourceY0: e.sourceY0,
      sourceY1: e.sourceY1,
      targetY0: e.targetY0,
      targetY1: e.targetY1,
      tapered: e.tapered,
      path: e.path,
      centreLine: e.centreLine,
    };
  });

  // Tab order and drawing order: by column, then top to bottom.
  const outNodes = [...nodes.values()].sort((a, b) => a.layer - b.layer || a.y0 - b.y0);
  return {
    width: callflow.width,
    // The legible height is an upper bound (a row per node); the drawing ends below its lowest bar.
    height:
      callflow.height > options.height
        ? Math.min(callflow.height, Math.max(options.height, callflow.bounds.y1 + margin.bottom))
        : callflow.height,
    nodes: outNodes,
    links,
    columns: callflow.levels,
    scale: callflow.scale,
    fittedScale: callflow.fittedScale,
    droppedLinks: readable.removedEdges.length,
    crossings: callflow.crossings,
    callflow,
    merged: readable.more.reduce((s, m) => s + m.members.length, 0),
    rowsPerColumn: readable.rowsPerColumn,
  };
}

/** The flow graph of a message: node heights = inclusive, edge flows = link values. */
function flowInput(data: CallflowData): FlowGraphInput {
  return {
    nodes: data.nodes.map(n => ({ id: n.id, value: n.inclusive })),
    edges: data.links.map(l => ({ source: l.source, target: l.target, value: l.value })),
  };
}

/** Columns (longest call paths) the graph takes, before any layout: what decides whether it must scroll sideways. */
export function columnCount(data: CallflowData): number {
  const { level } = flowStructure(flowInput(data));
  return level.length ? Math.max(...level) + 1 : 0;
}

/** What a "k more" node shows: its members' sums, no source of its own. */
function moreData(
  more: { id: string; members: string[]; value: number },
  byId: ReadonlyMap<string, CallflowNodeData>,
  total: number,
): CallflowNodeData {
  let exclusive = 0;
  for (const id of more.members) exclusive += byId.get(id)?.exclusive ?? 0;
  const label = moreLabel(more.members.length);
  return {
    id: more.id,
    label,
    module: label,
    inclusive: more.value,
    exclusive,
    share: total > 0 ? more.value / total : 0,
    imbalance: 1,
    entry: { name: '', file: null, line: null },
  };
}

/** `source→target`, with `#index` for the second and later links between the same pair. */
function linkKeys(all: readonly CallflowLinkData[]): string[] {
  const seen = new Set<string>();
  return all.map((l, i) => {
    const base = `${l.source}→${l.target}`;
    if (!seen.has(base)) {
      seen.add(base);
      return base;
    }
    return `${base}#${i}`;
  });
}
