/**
 * The pure layout step of the module Sankey: `SankeyData` and a box size in, positioned nodes and
 * links (with their SVG paths) out. d3-sankey does the work; this module makes its input safe
 * (unknown ids, self-loops, cycles, zero and non-finite values, a single column) and its output
 * finite and inside the box.
 */
import { sankey, sankeyLeft, sankeyLinkHorizontal } from 'd3-sankey';
import type { SankeyLink, SankeyNode } from 'd3-sankey';
import type { SankeyData, SankeyLinkData, SankeyNodeData } from '../../../../src/shared/protocol';

export interface LayoutOptions {
  /** Size of the whole drawing (the SVG), in px. */
  width: number;
  height: number;
  /** Free space around the graph inside the box. */
  margin?: { top: number; right: number; bottom: number; left: number };
  nodeWidth?: number;
  /** Preferred vertical gap between nodes of a column; d3-sankey shrinks it when space is short. */
  nodePadding?: number;
  /** Nodes are drawn at least this tall, so that tiny and zero values stay visible and clickable. */
  minNodeHeight?: number;
  iterations?: number;
}

export interface PositionedNode {
  id: string;
  data: SankeyNodeData;
  /** Column (call depth) of the node, 0 for the roots. */
  layer: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Value the node height stands for: its inclusive value (at least the flow through it). */
  value: number;
}

export interface PositionedLink {
  /** Unique key: `source→target` plus the index in the input when the same pair occurs twice. */
  id: string;
  data: SankeyLinkData;
  source: PositionedNode;
  target: PositionedNode;
  value: number;
  /** Ribbon width in px, proportional to `value` (0 for zero-valued links). */
  width: number;
  /** Vertical centre of the ribbon at the source and at the target. */
  y0: number;
  y1: number;
  /** SVG path of the ribbon's centre line (stroke it with `width`). */
  path: string;
}

export interface SankeyLayout {
  width: number;
  height: number;
  nodes: PositionedNode[];
  links: PositionedLink[];
  /** Number of columns (call depths). */
  columns: number;
  /** Pixels per metric unit (link width = value × scale). */
  scale: number;
  /** Input links that could not be drawn: unknown node ids, self-loops or links closing a cycle. */
  droppedLinks: number;
}

export const DEFAULT_MARGIN = { top: 10, right: 8, bottom: 10, left: 8 };

// `layer` is set by d3-sankey 0.12 but missing from its type declarations.
interface NodeExtra { id: string; data: SankeyNodeData; fixedValue: number; layer?: number }
interface LinkExtra { key: string; data: SankeyLinkData }
type LNode = SankeyNode<NodeExtra, LinkExtra>;
type LLink = SankeyLink<NodeExtra, LinkExtra>;

const clean = (v: number): number => (Number.isFinite(v) && v > 0 ? v : 0);

/** Positions `data` in a `width` × `height` box. Never throws on odd data; an empty graph gives an empty layout. */
export function layoutSankey(data: SankeyData, options: LayoutOptions): SankeyLayout {
  const width = Math.max(0, Number.isFinite(options.width) ? options.width : 0);
  const height = Math.max(0, Number.isFinite(options.height) ? options.height : 0);
  const margin = options.margin ?? DEFAULT_MARGIN;
  const nodeWidth = options.nodeWidth ?? 14;
  const nodePadding = options.nodePadding ?? 28;
  const minNodeHeight = options.minNodeHeight ?? 2;

  // Nodes: first occurrence of an id wins.
  const byId = new Map<string, SankeyNodeData>();
  for (const n of data.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const empty: SankeyLayout = { width, height, nodes: [], links: [], columns: 0, scale: 0, droppedLinks: data.links.length };
  if (byId.size === 0) return empty;

  const links = acyclicLinks(data.links, byId);
  const droppedLinks = data.links.length - links.length;

  // Node heights stand for inclusive values, but never less than the flow in or out of the node.
  const flowIn = new Map<string, number>();
  const flowOut = new Map<string, number>();
  for (const l of links) {
    flowOut.set(l.source, (flowOut.get(l.source) ?? 0) + clean(l.value));
    flowIn.set(l.target, (flowIn.get(l.target) ?? 0) + clean(l.value));
  }
  const values = new Map<string, number>();
  for (const [id, n] of byId) values.set(id, Math.max(clean(n.inclusive), flowIn.get(id) ?? 0, flowOut.get(id) ?? 0));
  const maxValue = Math.max(...values.values());
  // A zero-valued node would get no height (and an all-zero graph NaN coordinates): give it a sliver.
  const floor = maxValue > 0 ? maxValue * 1e-3 : 1;

  const nodes: NodeExtra[] = [...byId.values()].map(n => ({ id: n.id, data: n, fixedValue: Math.max(values.get(n.id)!, floor) }));
  const inputLinks = links.map((l, i) => ({
    source: l.source, target: l.target, value: clean(l.value), key: linkKey(l, i, links), data: l,
  }));

  const x0 = Math.min(margin.left, width / 2);
  const y0 = Math.min(margin.top, height / 2);
  const x1 = Math.max(x0 + nodeWidth, width - margin.right);
  const y1 = Math.max(y0 + 1, height - margin.bottom);

  const generator = sankey<NodeExtra, LinkExtra>()
    .nodeId(d => d.id)
    .nodeAlign(sankeyLeft)
    .nodeWidth(nodeWidth)
    .nodePadding(nodePadding)
    .iterations(options.iterations ?? 32)
    .extent([[x0, y0], [x1, y1]]);
  const graph = generator({ nodes, links: inputLinks as unknown as LLink[] });

  const lnodes = graph.nodes as LNode[];
  const columns = Math.max(...lnodes.map(n => n.layer ?? 0)) + 1;
  let scale = Infinity;
  for (const n of lnodes) {
    // One column: d3-sankey divides by zero for the x position.
    if (columns === 1 || !Number.isFinite(n.x0)) { n.x0 = x0; n.x1 = x0 + nodeWidth; }
    const h = (n.y1 ?? 0) - (n.y0 ?? 0);
    if ((n.value ?? 0) > 0 && h > 0) scale = Math.min(scale, h / n.value!);
  }
  if (!Number.isFinite(scale)) scale = 0;

  const positioned = new Map<LNode, PositionedNode>();
  for (const n of lnodes) {
    let top = finite(n.y0, y0);
    let bottom = finite(n.y1, top);
    if (bottom - top < minNodeHeight) {
      const mid = (top + bottom) / 2;
      top = mid - minNodeHeight / 2;
      bottom = mid + minNodeHeight / 2;
    }
    // Keep the node inside the box.
    if (top < 0) { bottom -= top; top = 0; }
    if (bottom > height) { top = Math.max(0, top - (bottom - height)); bottom = Math.min(height, bottom); }
    positioned.set(n, {
      id: n.id, data: n.data, layer: n.layer ?? 0,
      x0: clamp(finite(n.x0, x0), 0, width), x1: clamp(finite(n.x1, x0 + nodeWidth), 0, width),
      y0: top, y1: bottom, value: n.value ?? 0,
    });
  }

  const path = sankeyLinkHorizontal<NodeExtra, LinkExtra>();
  const outLinks: PositionedLink[] = (graph.links as LLink[]).map(l => {
    const source = positioned.get(l.source as LNode)!;
    const target = positioned.get(l.target as LNode)!;
    const w = Number.isFinite(l.width) ? l.width! : 0;
    const ly0 = clamp(finite(l.y0, (source.y0 + source.y1) / 2), source.y0, source.y1);
    const ly1 = clamp(finite(l.y1, (target.y0 + target.y1) / 2), target.y0, target.y1);
    // Recompute the path from the clamped positions (same shape as sankeyLinkHorizontal).
    const d = path({ source: { x1: source.x1 }, target: { x0: target.x0 }, y0: ly0, y1: ly1 } as unknown as LLink) ?? '';
    return { id: l.key, data: l.data, source, target, value: l.value, width: w, y0: ly0, y1: ly1, path: d };
  });

  // Tab order and drawing order: by column, then top to bottom.
  const outNodes = [...positioned.values()].sort((a, b) => a.layer - b.layer || a.y0 - b.y0);
  return { width, height, nodes: outNodes, links: outLinks, columns, scale, droppedLinks };
}

function finite(v: number | undefined, dflt: number): number {
  return v !== undefined && Number.isFinite(v) ? v : dflt;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function linkKey(l: SankeyLinkData, i: number, all: SankeyLinkData[]): string {
  const base = `${l.source}→${l.target}`;
  const first = all.findIndex(o => o.source === l.source && o.target === l.target);
  return first === i ? base : `${base}#${i}`;
}

/**
 * The links that can be drawn: both ends known, not a self-loop, and not closing a cycle (d3-sankey
 * throws on cycles). Links are kept in input order; a link that would close a cycle is dropped.
 */
function acyclicLinks(links: SankeyLinkData[], nodes: Map<string, SankeyNodeData>): SankeyLinkData[] {
  const out: SankeyLinkData[] = [];
  const succ = new Map<string, string[]>();
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === to) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      for (const s of succ.get(n) ?? []) stack.push(s);
    }
    return false;
  };
  for (const l of links) {
    if (!nodes.has(l.source) || !nodes.has(l.target) || l.source === l.target) continue;
    if (reaches(l.target, l.source)) continue;
    out.push(l);
    const s = succ.get(l.source);
    if (s) s.push(l.target); else succ.set(l.source, [l.target]);
  }
  return out;
}
