/**
 * The layout step of the module Sankey: `CallflowData` and a box size in, positioned nodes and
 * ribbons out. The CallFlow layout (src/analysis/layout) does the work — longest-path levels,
 * adaptive layer spacing, dummy items for long calls, crossing minimisation, height = inclusive and
 * ribbon width = flow on one scale; this module adapts the protocol's data to it and back, and
 * keeps the view's guarantees (unknown ids, self-loops, cycles, zero and non-finite values never
 * throw; every number is finite and inside the box).
 */
import { layoutCallflow } from '../../../../src/analysis/layout/callflow-layout';
import type { CallflowLayout } from '../../../../src/analysis/layout/callflow-layout';
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
  /** Nodes are drawn at least this tall, so that tiny and zero values stay visible and clickable. */
  minNodeHeight?: number;
  /** The layout drawn before (same view, new data): persisting nodes keep their order and place. */
  previous?: SankeyLayout | null;
  /** Cap of the vertical scale (px per unit), so that two graphs side by side share one scale. */
  maxScale?: number;
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
  /** The underlying CallFlow layout (the `previous` of the next one). */
  callflow: CallflowLayout;
}

export const DEFAULT_MARGIN = { top: 10, right: 8, bottom: 10, left: 8 };

/** Positions `data` in a `width` × `height` box. Never throws on odd data; an empty graph gives an empty layout. */
export function layoutSankey(data: CallflowData, options: LayoutOptions): SankeyLayout {
  const callflow = layoutCallflow(
    {
      nodes: data.nodes.map(n => ({ id: n.id, value: n.inclusive })),
      edges: data.links.map(l => ({ source: l.source, target: l.target, value: l.value })),
    },
    {
      width: options.width,
      height: options.height,
      margin: options.margin ?? DEFAULT_MARGIN,
      nodeWidth: options.nodeWidth ?? 14,
      nodeGap: options.nodePadding ?? 28,
      histogramHeight: options.histogramHeight ?? 0,
      minNodeHeight: options.minNodeHeight ?? 2,
      previous: options.previous?.callflow,
      ...(options.maxScale !== undefined ? { maxScale: options.maxScale } : {}),
    },
  );

  const nodes = new Map<string, PositionedNode>();
  for (const n of callflow.nodes) {
    nodes.set(n.id, {
      id: n.id,
      data: data.nodes[n.index]!,
      layer: n.level,
      order: n.order,
      x0: n.x0,
      x1: n.x1,
      y0: n.y0,
      y1: n.y1,
      value: n.value,
      outgoing: n.outgoing,
    });
  }
  const key = linkKeys(data.links);
  const links: PositionedLink[] = callflow.edges.map(e => {
    const l = data.links[e.index]!;
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
    height: callflow.height,
    nodes: outNodes,
    links,
    columns: callflow.levels,
    scale: callflow.scale,
    fittedScale: callflow.fittedScale,
    droppedLinks: callflow.removedEdges.length,
    crossings: callflow.crossings,
    callflow,
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
