/**
 * The CallFlow Sankey layout (seed-callflow §2.4–2.7), pure and independent of any view: a flow
 * DAG in (nodes with a height value, edges with a flow value), positioned nodes and ribbons out.
 *
 * 1. Safety net against cycles: a DFS from the roots (heaviest first) drops edges that close a
 *    cycle, deterministically; self-loops and edges to unknown nodes are dropped too (all reported).
 * 2. Level = longest path from the roots; layers spaced by max(min_x, l^k · max(n_l, n_{l−1})).
 * 3. Edges spanning several levels get one dummy item per level crossed, so they route around nodes.
 * 4. Crossing minimisation: barycentre / weighted-median sweeps with transpositions (layer-ordering).
 * 5. One vertical scale for every layer (the fullest layer fits the height); node height = value,
 *    ribbon width = flow. Where the flows out of (or into) a node exceed its value — maxima rather
 *    than flows, AT-14 — that end of each ribbon is scaled down to fit, so the ribbon tapers.
 * 6. Vertical positions: alternate left→right and right→left passes pull each layer towards the
 *    ribbon ends of its neighbours (weighted by flow), solved exactly per layer as an isotonic
 *    regression that keeps the order, the minimum gaps (room for the mini histograms) and the box.
 * With `previous`, nodes that persist keep their relative order and stay near their old positions;
 * a new node with an `origin` (e.g. a split part) takes the place of that node.
 */
import { layerOffsets } from './layer-spacing';
import { orderLayers } from './layer-ordering';
import { ribbonCentreLine, ribbonOutline } from './ribbon-path';
import type { RibbonPoint } from './ribbon-path';

export interface FlowNodeInput {
  id: string;
  /** Height metric (inclusive value); non-finite or negative counts as 0. */
  value: number;
  /** Minimum drawn height in px (default: the layout's `minNodeHeight`). */
  minHeight?: number;
  /** Id of the node of `previous` this node takes the place of (the node it was split from). */
  origin?: string;
}

export interface FlowEdgeInput {
  source: string;
  target: string;
  /** Flow value (inclusive consumed by the target); non-finite or negative counts as 0. */
  value: number;
}

export interface FlowGraphInput {
  nodes: readonly FlowNodeInput[];
  edges: readonly FlowEdgeInput[];
}

export interface CallflowLayoutOptions {
  /** Size of the drawing box in px. */
  width: number;
  height: number;
  margin?: { top: number; right: number; bottom: number; left: number };
  /** Width of every node bar (fixed, so bar areas compare). */
  nodeWidth?: number;
  /** Minimum vertical gap between two nodes of a layer. */
  nodeGap?: number;
  /** Room kept free above every node for its mini histogram (also a lower bound of the gap). */
  histogramHeight?: number;
  /** Minimum vertical gap next to a dummy (a long edge passing through a layer). */
  dummyGap?: number;
  /** Nodes are at least this tall, so zero values stay visible and clickable. */
  minNodeHeight?: number;
  /** Exponent k of the adaptive layer spacing. */
  layerExponent?: number;
  /** Minimum horizontal gap between adjacent layers (min_x, px); default 0.6 × the even spacing. */
  minLayerGap?: number;
  /** Down + up sweep pairs of the crossing minimisation. */
  sweeps?: number;
  /** Relaxation iterations of the vertical placement. */
  relaxIterations?: number;
  /** Horizontal Bézier curvature of the ribbons (0 = straight, 0.5 = d3-sankey's). */
  curvature?: number;
  /** A layout to stay close to (split / unsplit transitions). */
  previous?: CallflowLayout;
  /** Upper bound of the vertical scale (px per value unit): two graphs drawn on one scale compare by height. */
  maxScale?: number;
  /**
   * Largest share of the height the gaps of one column may take (default 1/3): a column of many
   * nodes gets smaller gaps instead of squeezing every bar to a hairline.
   */
  maxGapShare?: number;
  /** Vertical room a node needs to stay legible, bar and label (default 0: only the minimum heights count). */
  minRowHeight?: number;
  /** Grow the box to `neededHeight` (the view scrolls) instead of compressing a column past legibility. */
  scroll?: boolean;
}

export interface PlacedNode {
  id: string;
  /** Index in the input's node list. */
  index: number;
  value: number;
  /** Longest path from the roots. */
  level: number;
  /** Rank among the nodes of its level, top to bottom. */
  order: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Height (px) taken by the ribbons leaving the node, stacked from the top; the rest is exclusive. */
  outgoing: number;
}

export interface PlacedEdge {
  /** Index in the input's edge list. */
  index: number;
  source: string;
  target: string;
  value: number;
  /** Ribbon end at the source's right side and at the target's left side (px). */
  sourceY0: number;
  sourceY1: number;
  targetY0: number;
  targetY1: number;
  /** The two ends differ in width: the flow exceeded the value of one of its nodes (maxima). */
  tapered: boolean;
  /** Dummy items the ribbon passes through (levels it crosses). */
  dummies: number;
  /** Ribbon outline points, source end first. */
  points: RibbonPoint[];
  /** Closed outline of the ribbon (fill). */
  path: string;
  /** Centre line (stroke), for hairlines. */
  centreLine: string;
}

export type RemovedReason = 'unknown-node' | 'self-loop' | 'back-edge';

export interface RemovedEdge {
  index: number;
  source: string;
  target: string;
  value: number;
  reason: RemovedReason;
}

export interface CallflowLayout {
  width: number;
  height: number;
  /** Nodes in input order (a repeated id keeps its first node). */
  nodes: PlacedNode[];
  /** Drawn edges in input order. */
  edges: PlacedEdge[];
  removedEdges: RemovedEdge[];
  /** Input nodes ignored because their id was already used. */
  duplicateNodes: number;
  /** Number of levels (layers). */
  levels: number;
  /** Left x of every layer. */
  layerX: number[];
  /** Pixels per value unit (node height and ribbon width = value × scale). */
  scale: number;
  /** The scale that fits the box before `maxScale` caps it. */
  fittedScale: number;
  /** Crossing ribbon pairs, and Σ of the products of their flows. */
  crossings: number;
  weightedCrossings: number;
  dummyCount: number;
  /** Extent of everything drawn. */
  bounds: { x0: number; y0: number; x1: number; y1: number };
  /**
   * Height of the box in which no column is compressed: every node gets `minRowHeight` (at least its
   * minimum height and a small gap) and every long call passing through a column its dummy gap. With
   * `scroll` the layout uses this height (≥ `height`); without, it fits `height` and bars may shrink.
   */
  neededHeight: number;
  /** Gap between two real nodes in each column after shrinking (the room left for mini histograms). */
  gaps: number[];
}

export const CALLFLOW_DEFAULTS = {
  maxGapShare: 1 / 3,
  minRowHeight: 0,
  nodeWidth: 14,
  nodeGap: 24,
  histogramHeight: 0,
  dummyGap: 4,
  minNodeHeight: 2,
  layerExponent: 0.5,
  sweeps: 8,
  relaxIterations: 8,
  curvature: 0.5,
};

/** Smallest gap between two bars at which they still read as two (px): part of every node's legible row. */
const MIN_LEGIBLE_GAP = 2;

const clean = (v: number): number => (Number.isFinite(v) && v > 0 ? v : 0);
const finiteOr = (v: number | undefined, d: number): number => (v !== undefined && Number.isFinite(v) ? v : d);

/** A flow graph cleaned for layout: unique ids, drawable edges, and the level of every node. */
export interface FlowStructure {
  /** Unique input nodes (a repeated id keeps its first node), and their indices in the input. */
  nodeInput: FlowNodeInput[];
  inputIndex: number[];
  indexOf: Map<string, number>;
  /** Node values, non-finite and negative ones as 0. */
  value: number[];
  /** Input edge indices kept (acyclic, between known distinct nodes). */
  edges: number[];
  removedEdges: RemovedEdge[];
  /** Level of every unique node: the longest path from the roots over the kept edges. */
  level: number[];
  src: (e: number) => number;
  tgt: (e: number) => number;
  flow: (e: number) => number;
}

/**
 * Cleans `input` and assigns levels (steps 1–2 of the layout): what the layout itself and the
 * column condensing (readable-layout) both need, computed the same way.
 */
export function flowStructure(input: FlowGraphInput): FlowStructure {
  const indexOf = new Map<string, number>();
  const nodeInput: FlowNodeInput[] = [];
  const inputIndex: number[] = [];
  input.nodes.forEach((n, i) => {
    if (indexOf.has(n.id)) return;
    indexOf.set(n.id, nodeInput.length);
    nodeInput.push(n);
    inputIndex.push(i);
  });
  const n = nodeInput.length;
  const value = nodeInput.map(x => clean(x.value));
  const removedEdges: RemovedEdge[] = [];
  const candidate: number[] = [];
  // Ends and flows looked up once: the layout asks for them many times per edge.
  const E = input.edges.length;
  const srcOf = new Int32Array(E),
    tgtOf = new Int32Array(E),
    flowOf = new Float64Array(E);
  input.edges.forEach((e, i) => {
    const s = indexOf.get(e.source);
    const t = indexOf.get(e.target);
    if (s === undefined || t === undefined) {
      removedEdges.push({ index: i, source: e.source, target: e.target, value: e.value, reason: 'unknown-node' });
      return;
    }
    srcOf[i] = s;
    tgtOf[i] = t;
    flowOf[i] = clean(e.value);
    if (s === t)
      removedEdges.push({ index: i, source: e.source, target: e.target, value: e.value, reason: 'self-loop' });
    else candidate.push(i);
  });
  const src = (e: number): number => srcOf[e]!;
  const tgt = (e: number): number => tgtOf[e]!;
  const flow = (e: number): number => flowOf[e]!;
  const back = backEdges(n, candidate, src, tgt, flow, value);
  const edges = candidate.filter(e => !back.has(e));
  for (const e of candidate)
    if (back.has(e))
      removedEdges.push({
        index: e,
        source: input.edges[e]!.source,
        target: input.edges[e]!.target,
        value: input.edges[e]!.value,
        reason: 'back-edge',
      });
  removedEdges.sort((a, b) => a.index - b.index);

  const level = longestPathLevels(nodeInput.length, edges, src, tgt);
  return { nodeInput, inputIndex, indexOf, value, edges, removedEdges, level, src, tgt, flow };
}

/** Lays out `input` in a `width` × `height` box. Never throws on odd data; all numbers are finite. */
export function layoutCallflow(input: FlowGraphInput, options: CallflowLayoutOptions): CallflowLayout {
  const width = Math.max(0, finiteOr(options.width, 0));
  const height = Math.max(0, finiteOr(options.height, 0));
  const m = options.margin ?? { top: 0, right: 0, bottom: 0, left: 0 };
  // Margins never take more than half the box, so tiny boxes still hold something.
  const left = Math.min(Math.max(0, m.left), width / 4);
  const right = width - Math.min(Math.max(0, m.right), width / 4);
  const innerW = right - left;
  const opt = { ...CALLFLOW_DEFAULTS, ...definedOnly(options) };
  const nodeGap = Math.max(0, opt.nodeGap);
  const histogramHeight = Math.max(0, opt.histogramHeight);
  const dummyGap = Math.max(0, opt.dummyGap);

  const { nodeInput, inputIndex, value, edges, removedEdges, src, tgt, flow, level } = flowStructure(input);
  const n = nodeInput.length;
  const empty = (): CallflowLayout => ({
    width,
    height,
    nodes: [],
    edges: [],
    removedEdges,
    duplicateNodes: input.nodes.length - n,
    levels: 0,
    layerX: [],
    scale: 0,
    fittedScale: 0,
    crossings: 0,
    weightedCrossings: 0,
    dummyCount: 0,
    bounds: { x0: 0, y0: 0, x1: 0, y1: 0 },
    neededHeight: height,
    gaps: [],
  });
  if (n === 0) return empty();

  // ---- levels: longest path from the roots (Kahn order over the acyclic edges)
  const levels = Math.max(...level) + 1;
  const counts = new Array<number>(levels).fill(0);
  for (const l of level) counts[l]!++;

  // ---- taper: an end whose node cannot hold the flows attached to it shrinks to fit (AT-14)
  const outSum = new Float64Array(n);
  const inSum = new Float64Array(n);
  for (const e of edges) {
    outSum[src(e)] += flow(e);
    inSum[tgt(e)] += flow(e);
  }
  const fit = (node: number, sum: number): number => (sum > value[node]! ? value[node]! / sum : 1);
  const sourceValue = (e: number): number => flow(e) * fit(src(e), outSum[src(e)]!);
  const targetValue = (e: number): number => flow(e) * fit(tgt(e), inSum[tgt(e)]!);

  // ---- items (real nodes, then dummies) and the segments between adjacent layers
  const layerOf: number[] = [...level];
  const itemValue: number[] = [...value];
  const itemEdge: number[] = new Array<number>(n).fill(-1);
  const upper: number[] = [];
  const lower: number[] = [];
  const segWeight: number[] = [];
  const segUpperValue: number[] = [];
  const segLowerValue: number[] = [];
  const chain = new Map<number, number[]>(); // edge → its segments, source side first
  for (const e of edges) {
    const s = src(e);
    const t = tgt(e);
    const span = level[t]! - level[s]!;
    const vs = sourceValue(e);
    const vt = targetValue(e);
    const segs: number[] = [];
    let prev = s;
    let prevValue = vs;
    for (let k = 1; k <= span; k++) {
      let item = t;
      let itemV = vt;
      if (k < span) {
        item = layerOf.length;
        itemV = vs + (vt - vs) * (k / span);
        layerOf.push(level[s]! + k);
        itemValue.push(itemV);
        itemEdge.push(e);
      }
      segs.push(upper.length);
      upper.push(prev);
      lower.push(item);
      segWeight.push(flow(e));
      segUpperValue.push(prevValue);
      segLowerValue.push(itemV);
      prev = item;
      prevValue = itemV;
    }
    chain.set(e, segs);
  }
  const items = layerOf.length;
  const isReal = (v: number): boolean => v < n;

  // ---- the box height: the given one, or with `scroll` the one every column needs to stay legible
  const minHeight = (v: number): number =>
    isReal(v) ? Math.max(0, finiteOr(nodeInput[v]!.minHeight, opt.minNodeHeight)) : 0;
  const rowNeed = new Float64Array(levels);
  const minRow = Math.max(0, finiteOr(opt.minRowHeight, 0));
  for (let v = 0; v < items; v++)
    rowNeed[layerOf[v]!]! += isReal(v) ? Math.max(minRow, minHeight(v) + MIN_LEGIBLE_GAP) : dummyGap;
  const marginOf = (h: number) => Math.min(Math.max(0, m.top), h / 4) + Math.min(Math.max(0, m.bottom), h / 4);
  let neededHeight = height;
  for (const need of rowNeed) {
    // The margins take at most a quarter each: solve h − margins(h) ≥ need.
    let h = need + Math.max(0, m.top) + Math.max(0, m.bottom);
    if (h - marginOf(h) < need) h = Math.max(h, 2 * need);
    neededHeight = Math.max(neededHeight, h);
  }
  const boxHeight = opt.scroll ? neededHeight : height;
  const top = Math.min(Math.max(0, m.top), boxHeight / 4);
  const bottom = boxHeight - Math.min(Math.max(0, m.bottom), boxHeight / 4);
  const innerH = bottom - top;

  // ---- initial order, stability anchors, crossing minimisation
  const prevNodes = new Map((options.previous?.nodes ?? []).map(p => [p.id, p]));
  const anchor = new Array<number | undefined>(items).fill(undefined);
  const anchorTop = new Array<number | undefined>(items).fill(undefined);
  const splitRank = new Map<string, number>();
  for (let v = 0; v < n; v++) {
    const self = prevNodes.get(nodeInput[v]!.id);
    const originId = nodeInput[v]!.origin;
    const origin = self ? undefined : originId !== undefined ? prevNodes.get(originId) : undefined;
    if (self) {
      anchor[v] = (self.y0 + self.y1) / 2;
      anchorTop[v] = self.y0;
    } else if (origin) {
      // Parts of one split node stay together, in input order, where the node was.
      const k = splitRank.get(origin.id) ?? 0;
      splitRank.set(origin.id, k + 1);
      anchor[v] = (origin.y0 + origin.y1) / 2 + k * 1e-6;
      anchorTop[v] = origin.y0;
    }
  }
  const fixed = anchor.map(a => a !== undefined);
  const initial: number[][] = Array.from({ length: levels }, () => []);
  for (let v = 0; v < items; v++) initial[layerOf[v]!]!.push(v);
  for (const layer of initial) {
    layer.sort((a, b) => {
      const fa = anchor[a];
      const fb = anchor[b];
      if (fa !== undefined && fb !== undefined) return fa - fb || a - b;
      if (fa !== undefined) return -1;
      if (fb !== undefined) return 1;
      return itemValue[b]! - itemValue[a]! || a - b;
    });
  }
  const graph = { layerOf, upper, lower, weight: segWeight };
  const ordering = orderLayers(initial, graph, { sweeps: opt.sweeps, fixed: fixed.some(Boolean) ? fixed : undefined });
  const layers = ordering.layers;
  const pos = new Int32Array(items);
  for (const layer of layers)
    layer.forEach((v, i) => {
      pos[v] = i;
    });

  // ---- horizontal positions
  const nodeWidth = Math.max(0, Math.min(finiteOr(opt.nodeWidth, 14), innerW / Math.max(1, levels)));
  const span = Math.max(0, innerW - nodeWidth);
  const evenGap = levels > 1 ? span / (levels - 1) : 0;
  const offsets = layerOffsets(counts, {
    span,
    exponent: finiteOr(opt.layerExponent, 0.5),
    minGap: finiteOr(options.minLayerGap, 0.6 * evenGap),
  });
  const layerX = offsets.map(o => left + o);

  // ---- one vertical scale for all layers. The gaps of a column take at most `maxGapShare` of the
  // height (they shrink with the column's node count), and shrink further, then the minimum
  // heights, when the box is too small for them.
  const gapBefore = (layer: number[], i: number): number => {
    const v = layer[i]!;
    const head = isReal(v) ? histogramHeight : 0;
    if (i === 0) return head;
    const base = isReal(v) && isReal(layer[i - 1]!) ? nodeGap : dummyGap;
    return Math.max(base, head);
  };
  const gapSum = layers.map(layer => layer.reduce((s, _, i) => s + gapBefore(layer, i), 0));
  const minSum = layers.map(layer => layer.reduce((s, v) => s + minHeight(v), 0));
  const gapShare = Math.min(1, Math.max(0, finiteOr(opt.maxGapShare, 1 / 3)));
  let minFactor = 1;
  for (let l = 0; l < levels; l++)
    if (minSum[l]! > innerH) minFactor = Math.min(minFactor, minSum[l]! > 0 ? innerH / minSum[l]! : 1);
  const gapFactorOf = layers.map((_, l) =>
    gapSum[l]! > 0
      ? Math.min(1, (gapShare * innerH) / gapSum[l]!, Math.max(0, (innerH - minSum[l]! * minFactor) / gapSum[l]!))
      : 1,
  );
  // Leave a hair of room so rounding never pushes the fullest layer out of the box.
  const room = innerH * (1 - 1e-9);
  let scale = Infinity;
  for (let l = 0; l < levels; l++) {
    const layer = layers[l]!;
    const total = layer.reduce((s, v) => s + itemValue[v]!, 0);
    if (total <= 0) continue;
    const need = (k: number): number =>
      gapSum[l]! * gapFactorOf[l]! +
      layer.reduce((s, v) => s + Math.max(minHeight(v) * minFactor, itemValue[v]! * k), 0);
    let lo = 0;
    let hi = Math.max(0, room) / total;
    if (need(hi) <= room) {
      scale = Math.min(scale, hi);
      continue;
    }
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (need(mid) <= room) lo = mid;
      else hi = mid;
    }
    scale = Math.min(scale, lo);
  }
  if (!Number.isFinite(scale)) scale = 0;
  const fittedScale = scale;
  if (options.maxScale !== undefined && Number.isFinite(options.maxScale) && options.maxScale >= 0)
    scale = Math.min(scale, options.maxScale);
  const h = Array.from({ length: items }, (_, v) => Math.max(minHeight(v) * minFactor, itemValue[v]! * scale));
  const gap = layers.map((layer, l) => layer.map((_, i) => gapBefore(layer, i) * gapFactorOf[l]!));

  // ---- vertical placement
  const y = new Float64Array(items);
  for (let l = 0; l < levels; l++) {
    const layer = layers[l]!;
    const total = layer.reduce((s, v, i) => s + h[v]! + gap[l]![i]!, 0);
    let at = top + Math.max(0, (innerH - total) / 2);
    layer.forEach((v, i) => {
      at += gap[l]![i]!;
      y[v] = at;
      at += h[v]!;
    });
  }
  const down: number[][] = Array.from({ length: items }, () => []);
  const up: number[][] = Array.from({ length: items }, () => []);
  for (let s = 0; s < upper.length; s++) {
    down[upper[s]!]!.push(s);
    up[lower[s]!]!.push(s);
  }
  const upperPx = (s: number): number => segUpperValue[s]! * scale;
  const lowerPx = (s: number): number => segLowerValue[s]! * scale;
  const outOff = new Float64Array(upper.length);
  const inOff = new Float64Array(upper.length);
  const centre = (v: number): number => y[v]! + h[v]! / 2;
  // Ribbon ends stacked from the top of each node, ordered by where the other end is (no local crossings).
  // Sort keys in typed arrays, filled once per pass (comparators only read them).
  const centreY = new Float64Array(items);
  const fromY = new Float64Array(upper.length);
  const byLowerEnd = (a: number, b: number): number =>
    centreY[lower[a]!]! - centreY[lower[b]!]! || pos[lower[a]!]! - pos[lower[b]!]! || a - b;
  const byUpperEnd = (a: number, b: number): number =>
    fromY[a]! - fromY[b]! || pos[upper[a]!]! - pos[upper[b]!]! || a - b;
  const stackEnds = (): void => {
    for (let v = 0; v < items; v++) centreY[v] = centre(v);
    for (let v = 0; v < items; v++) {
      const out = down[v]!;
      if (out.length > 1) out.sort(byLowerEnd);
      let at = 0;
      for (const s of out) {
        outOff[s] = at;
        at += upperPx(s);
      }
    }
    for (let s = 0; s < upper.length; s++) fromY[s] = y[upper[s]!]! + outOff[s]! + upperPx(s) / 2;
    for (let v = 0; v < items; v++) {
      const inc = up[v]!;
      if (inc.length > 1) inc.sort(byUpperEnd);
      let at = 0;
      for (const s of inc) {
        inOff[s] = at;
        at += lowerPx(s);
      }
    }
  };
  const placeLayer = (l: number, desired: (v: number) => number): void => {
    const layer = layers[l]!;
    const target = layer.map(desired);
    const placed = isotonicPlacement(
      target,
      layer.map(v => h[v]!),
      gap[l]!,
      top,
      bottom,
    );
    layer.forEach((v, i) => {
      y[v] = placed[i]!;
    });
  };
  const hasAnchors = fixed.some(Boolean);
  const pullToAnchor = (v: number, want: number): number => {
    const a = anchorTop[v];
    return a === undefined ? want : (want + a) / 2;
  };
  // Moves v toward the weighted mean position its segments on one side ask for (`towardUpper`: the
  // callers to the left, else the callees to the right), damped by alpha.
  const relaxed = (v: number, alpha: number, towardUpper: boolean): number => {
    const segs = towardUpper ? up[v]! : down[v]!;
    if (segs.length === 0) return hasAnchors ? pullToAnchor(v, y[v]!) : y[v]!;
    let sw = 0;
    let sy = 0;
    for (const s of segs) {
      const w = segWeight[s]! + 1e-9;
      sw += w;
      const mid = upperPx(s) / 2 - lowerPx(s) / 2;
      sy +=
        w * (towardUpper ? y[upper[s]!]! + outOff[s]! - inOff[s]! + mid : y[lower[s]!]! + inOff[s]! - outOff[s]! - mid);
    }
    return pullToAnchor(v, y[v]! + alpha * (sy / sw - y[v]!));
  };
  for (let it = 0; it < Math.max(0, opt.relaxIterations); it++) {
    const alpha = Math.pow(0.9, it);
    stackEnds();
    for (let l = 1; l < levels; l++) placeLayer(l, v => relaxed(v, alpha, true));
    stackEnds();
    for (let l = levels - 2; l >= 0; l--) placeLayer(l, v => relaxed(v, alpha, false));
  }
  stackEnds();

  // ---- output
  const nodes: PlacedNode[] = [];
  const order = new Int32Array(n);
  for (const layer of layers) {
    let k = 0;
    for (const v of layer) if (isReal(v)) order[v] = k++;
  }
  for (let v = 0; v < n; v++) {
    const x0 = layerX[level[v]!]!;
    const outgoing = down[v]!.reduce((s, seg) => s + upperPx(seg), 0);
    nodes.push({
      id: nodeInput[v]!.id,
      index: inputIndex[v]!,
      value: value[v]!,
      level: level[v]!,
      order: order[v]!,
      x0,
      x1: x0 + nodeWidth,
      y0: y[v]!,
      y1: y[v]! + h[v]!,
      outgoing: Math.min(outgoing, h[v]!),
    });
  }
  const curvature = finiteOr(opt.curvature, 0.5);
  const placedEdges: PlacedEdge[] = [...edges]
    .sort((a, b) => a - b)
    .map(e => {
      const segs = chain.get(e)!;
      const first = segs[0]!;
      const last = segs[segs.length - 1]!;
      const s = src(e);
      const t = tgt(e);
      const sourceY0 = y[s]! + outOff[first]!;
      const targetY0 = y[t]! + inOff[last]!;
      const points: RibbonPoint[] = [
        { x: layerX[level[s]!]! + nodeWidth, top: sourceY0, bottom: sourceY0 + upperPx(first) },
      ];
      for (const seg of segs.slice(0, -1)) {
        const d = lower[seg]!;
        const x0 = layerX[layerOf[d]!]!;
        points.push(
          { x: x0, top: y[d]!, bottom: y[d]! + h[d]! },
          { x: x0 + nodeWidth, top: y[d]!, bottom: y[d]! + h[d]! },
        );
      }
      points.push({ x: layerX[level[t]!]!, top: targetY0, bottom: targetY0 + lowerPx(last) });
      const vs = sourceValue(e);
      const vt = targetValue(e);
      return {
        index: e,
        source: input.edges[e]!.source,
        target: input.edges[e]!.target,
        value: flow(e),
        sourceY0,
        sourceY1: sourceY0 + upperPx(first),
        targetY0,
        targetY1: targetY0 + lowerPx(last),
        tapered: Math.abs(vs - vt) > 1e-12 * Math.max(vs, vt),
        dummies: segs.length - 1,
        points,
        path: ribbonOutline(points, curvature),
        centreLine: ribbonCentreLine(points, curvature),
      };
    });

  let bx0 = Infinity,
    by0 = Infinity,
    bx1 = -Infinity,
    by1 = -Infinity;
  for (const p of nodes) {
    bx0 = Math.min(bx0, p.x0);
    by0 = Math.min(by0, p.y0);
    bx1 = Math.max(bx1, p.x1);
    by1 = Math.max(by1, p.y1);
  }
  for (const e of placedEdges)
    for (const p of e.points) {
      by0 = Math.min(by0, p.top);
      by1 = Math.max(by1, p.bottom);
    }
  return {
    width,
    height: boxHeight,
    nodes,
    edges: placedEdges,
    removedEdges,
    duplicateNodes: input.nodes.length - n,
    levels,
    layerX,
    scale,
    fittedScale,
    crossings: ordering.count,
    weightedCrossings: ordering.weighted,
    dummyCount: items - n,
    bounds: { x0: bx0, y0: by0, x1: bx1, y1: by1 },
    neededHeight,
    gaps: layers.map((_, l) => Math.max(nodeGap, histogramHeight) * gapFactorOf[l]!),
  };
}

/**
 * Edges that close a cycle, found by a DFS from the roots (nodes without incoming edges, heaviest
 * first) that follows heavier edges first, then from the remaining nodes in the same order: an
 * edge to a node still on the DFS stack is a back edge. Deterministic for a given input.
 */
function backEdges(
  n: number,
  edges: readonly number[],
  src: (e: number) => number,
  tgt: (e: number) => number,
  flow: (e: number) => number,
  value: readonly number[],
): Set<number> {
  const out: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (const e of edges) {
    out[src(e)]!.push(e);
    indeg[tgt(e)]++;
  }
  for (const list of out) list.sort((a, b) => flow(b) - flow(a) || value[tgt(b)]! - value[tgt(a)]! || a - b);
  const byWeight = (a: number, b: number): number => value[b]! - value[a]! || a - b;
  const starts = [
    ...Array.from({ length: n }, (_, v) => v)
      .filter(v => indeg[v] === 0)
      .sort(byWeight),
    ...Array.from({ length: n }, (_, v) => v)
      .filter(v => indeg[v] !== 0)
      .sort(byWeight),
  ];
  const colour = new Uint8Array(n); // 0 white, 1 grey (on the stack), 2 black
  const back = new Set<number>();
  const next = new Int32Array(n);
  for (const start of starts) {
    if (colour[start] !== 0) continue;
    const stack = [start];
    colour[start] = 1;
    while (stack.length) {
      const v = stack[stack.length - 1]!;
      const list = out[v]!;
      if (next[v]! >= list.length) {
        colour[v] = 2;
        stack.pop();
        continue;
      }
      const e = list[next[v]!++]!;
      const w = tgt(e);
      if (colour[w] === 1) back.add(e);
      else if (colour[w] === 0) {
        colour[w] = 1;
        stack.push(w);
      }
    }
  }
  return back;
}

/** Level of every node: the longest path from a node without incoming edges (edges must be acyclic). */
function longestPathLevels(
  n: number,
  edges: readonly number[],
  src: (e: number) => number,
  tgt: (e: number) => number,
): number[] {
  const out: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (const e of edges) {
    out[src(e)]!.push(tgt(e));
    indeg[tgt(e)]++;
  }
  const level = new Array<number>(n).fill(0);
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) queue.push(v);
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of out[v]!) {
      level[w] = Math.max(level[w]!, level[v]! + 1);
      if (--indeg[w] === 0) queue.push(w);
    }
  }
  return level;
}

/**
 * Tops of the items of one layer, in their order, closest (least squares) to `target` under the
 * constraints: top[i] ≥ top[i−1] + height[i−1] + gap[i], the first at least `gap[0]` below `lo`,
 * the last ending above `hi`. Substituting z_i = top_i − offset_i turns this into an isotonic
 * regression (pool adjacent violators), clamped to the box.
 */
export function isotonicPlacement(
  target: readonly number[],
  height: readonly number[],
  gap: readonly number[],
  lo: number,
  hi: number,
): number[] {
  const k = target.length;
  const offset = new Float64Array(k);
  let at = 0;
  for (let i = 0; i < k; i++) {
    at += gap[i]!;
    offset[i] = at;
    at += height[i]!;
  }
  const zMin = lo;
  const zMax = Math.max(lo, hi - at);
  // Pool adjacent violators on t_i = target_i − offset_i.
  const blockValue: number[] = [];
  const blockWeight: number[] = [];
  const blockSize: number[] = [];
  for (let i = 0; i < k; i++) {
    let v = target[i]! - offset[i]!;
    if (!Number.isFinite(v)) v = zMin;
    let w = 1;
    let size = 1;
    while (blockValue.length && blockValue[blockValue.length - 1]! > v) {
      const pw = blockWeight.pop()!;
      const pv = blockValue.pop()!;
      size += blockSize.pop()!;
      v = (pv * pw + v * w) / (pw + w);
      w += pw;
    }
    blockValue.push(v);
    blockWeight.push(w);
    blockSize.push(size);
  }
  const out = new Array<number>(k);
  let i = 0;
  blockValue.forEach((v, b) => {
    const z = Math.min(zMax, Math.max(zMin, v));
    for (let j = 0; j < blockSize[b]!; j++, i++) out[i] = z + offset[i]!;
  });
  return out;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
