/**
 * Crossing minimisation for a layered graph (the ordering step of Sugiyama-style layouts):
 * alternating down and up sweeps that sort each layer by the barycentre or the weighted median of
 * its neighbours in the layer just fixed, each followed by adjacent transpositions, keeping the
 * best ordering seen by weighted crossing count. Segments join adjacent layers only (long edges
 * are split into dummy items beforehand). Deterministic: ties keep the current order.
 */

export interface LayeredGraph {
  /** Layer of every item. */
  layerOf: readonly number[];
  /** Segment s joins item upper[s] (layer l) to item lower[s] (layer l + 1), with a flow weight. */
  upper: readonly number[];
  lower: readonly number[];
  weight: readonly number[];
}

export interface OrderingOptions {
  /** Number of down + up sweep pairs (fewer when an ordering without crossings is found). */
  sweeps?: number;
  /** Items whose relative order within their layer must not change (stable re-layout). */
  fixed?: readonly boolean[];
}

export interface CrossingCount {
  /** Number of crossing segment pairs. */
  count: number;
  /** Σ over crossing pairs of the product of their weights. */
  weighted: number;
}

export interface OrderingResult extends CrossingCount {
  /** Items of each layer, top to bottom. */
  layers: number[][];
}

/** Crossings of `layers` (item ids top to bottom per layer) in `graph`. O(E log V) per layer pair. */
export function countCrossings(
  layers: readonly (readonly number[])[],
  graph: LayeredGraph,
  weightOf?: (s: number) => number,
): CrossingCount {
  const pos = positions(layers, graph.layerOf.length);
  const w = weightOf ?? ((s: number) => graph.weight[s]!);
  const byLayer = segmentsByUpperLayer(graph, layers.length);
  let count = 0;
  let weighted = 0;
  for (let l = 0; l + 1 < layers.length; l++) {
    const segs = byLayer[l]!;
    if (segs.length < 2) continue;
    segs.sort((a, b) => pos[graph.upper[a]!]! - pos[graph.upper[b]!]! || pos[graph.lower[a]!]! - pos[graph.lower[b]!]!);
    // Fenwick trees over the lower layer's positions: how many (and how much weight) already
    // inserted segments end strictly below the current one's lower end.
    const n = layers[l + 1]!.length;
    const cnt = new Float64Array(n + 1);
    const wt = new Float64Array(n + 1);
    let insertedCount = 0;
    let insertedWeight = 0;
    for (const s of segs) {
      const p = pos[graph.lower[s]!]!;
      let c = 0;
      let x = 0;
      for (let i = p + 1; i > 0; i -= i & -i) {
        c += cnt[i]!;
        x += wt[i]!;
      }
      const ws = w(s);
      count += insertedCount - c;
      weighted += ws * (insertedWeight - x);
      for (let i = p + 1; i <= n; i += i & -i) {
        cnt[i]! += 1;
        wt[i]! += ws;
      }
      insertedCount += 1;
      insertedWeight += ws;
    }
  }
  return { count, weighted };
}

/** Orders every layer to reduce (weighted) crossings, starting from `initial`. */
export function orderLayers(
  initial: readonly (readonly number[])[],
  graph: LayeredGraph,
  options: OrderingOptions = {},
): OrderingResult {
  const sweeps = Math.max(0, options.sweeps ?? 8);
  const fixed = options.fixed;
  const items = graph.layerOf.length;
  const layers = initial.map(l => [...l]);
  const pos = positions(layers, items);

  // A zero-weight segment still counts a little, so that orderings also avoid crossing it.
  let maxWeight = 0;
  for (const w of graph.weight) if (Number.isFinite(w) && w > maxWeight) maxWeight = w;
  const eps = maxWeight > 0 ? maxWeight * 1e-6 : 1;
  const weight = (s: number): number => {
    const w = graph.weight[s]!;
    return (Number.isFinite(w) && w > 0 ? w : 0) + eps;
  };

  const up: number[][] = Array.from({ length: items }, () => []);
  const down: number[][] = Array.from({ length: items }, () => []);
  for (let s = 0; s < graph.upper.length; s++) {
    down[graph.upper[s]!]!.push(s);
    up[graph.lower[s]!]!.push(s);
  }

  const score = (): CrossingCount => countCrossings(layers, graph, weight);
  let best = layers.map(l => [...l]);
  let bestScore = score();

  const reorder = (l: number, fromAbove: boolean, median: boolean): void => {
    const layer = layers[l]!;
    const adjacent = layers[fromAbove ? l - 1 : l + 1];
    if (!adjacent || layer.length < 2) return;
    const key = new Map<number, number>();
    for (const v of layer) {
      const segs = fromAbove ? up[v]! : down[v]!;
      const nb = segs.map(s => ({ p: pos[fromAbove ? graph.upper[s]! : graph.lower[s]!]!, w: weight(s) }));
      // Without neighbours: keep the relative place in the layer.
      key.set(
        v,
        nb.length === 0
          ? ((pos[v]! + 0.5) / layer.length) * adjacent.length - 0.5
          : median
            ? weightedMedian(nb)
            : barycentre(nb),
      );
    }
    const byKey = (a: number, b: number): number => key.get(a)! - key.get(b)! || pos[a]! - pos[b]!;
    let next: number[];
    if (!fixed || !layer.some(v => fixed[v])) {
      next = [...layer].sort(byKey);
    } else {
      // Fixed items keep their sequence; free items merge in by key (fixed keys made monotone).
      const pinned = layer.filter(v => fixed[v]);
      const free = layer.filter(v => !fixed[v]).sort(byKey);
      let run = -Infinity;
      const pinnedKey = pinned.map(v => (run = Math.max(run, key.get(v)!)));
      next = [];
      let i = 0;
      let j = 0;
      while (i < pinned.length || j < free.length) {
        if (j < free.length && (i >= pinned.length || key.get(free[j]!)! < pinnedKey[i]!)) next.push(free[j++]!);
        else next.push(pinned[i++]!);
      }
    }
    layers[l] = next;
    next.forEach((v, i) => {
      pos[v] = i;
    });
  };

  // Weighted crossings of a directly above b minus those of b above a, over both adjacent layers.
  const swapGain = (a: number, b: number): number => {
    let ab = 0;
    let ba = 0;
    for (const [segs, end] of [
      [up, graph.upper],
      [down, graph.lower],
    ] as const) {
      for (const sa of segs[a]!) {
        const pa = pos[end[sa]!]!;
        for (const sb of segs[b]!) {
          const pb = pos[end[sb]!]!;
          const w = weight(sa) * weight(sb);
          if (pa > pb) ab += w;
          else if (pa < pb) ba += w;
        }
      }
    }
    return ab - ba;
  };
  const transpose = (): void => {
    for (let round = 0; round < 8; round++) {
      let improved = false;
      for (const layer of layers) {
        for (let i = 0; i + 1 < layer.length; i++) {
          const a = layer[i]!;
          const b = layer[i + 1]!;
          if (fixed && fixed[a] && fixed[b]) continue;
          if (swapGain(a, b) > 1e-12 * eps) {
            layer[i] = b;
            layer[i + 1] = a;
            pos[a] = i + 1;
            pos[b] = i;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  };
  const keepIfBetter = (): void => {
    const s = score();
    if (s.weighted < bestScore.weighted - 1e-9 * Math.max(1, bestScore.weighted)) {
      best = layers.map(l => [...l]);
      bestScore = s;
    }
  };

  for (let it = 0; it < sweeps && bestScore.count > 0; it++) {
    const median = it % 2 === 1;
    for (let l = 1; l < layers.length; l++) reorder(l, true, median);
    transpose();
    keepIfBetter();
    for (let l = layers.length - 2; l >= 0; l--) reorder(l, false, median);
    transpose();
    keepIfBetter();
  }
  const exact = countCrossings(best, graph);
  return { layers: best, count: exact.count, weighted: exact.weighted };
}

function barycentre(nb: Array<{ p: number; w: number }>): number {
  let sw = 0;
  let sp = 0;
  for (const { p, w } of nb) {
    sw += w;
    sp += w * p;
  }
  return sp / sw;
}

/** The position where half of the neighbours' weight is reached (midpoint when exactly at a boundary). */
function weightedMedian(nb: Array<{ p: number; w: number }>): number {
  const sorted = [...nb].sort((a, b) => a.p - b.p);
  const half = sorted.reduce((s, x) => s + x.w, 0) / 2;
  let acc = 0;
  for (let i = 0; i < sorted.length; i++) {
    acc += sorted[i]!.w;
    if (Math.abs(acc - half) <= 1e-12 * half && i + 1 < sorted.length) return (sorted[i]!.p + sorted[i + 1]!.p) / 2;
    if (acc >= half) return sorted[i]!.p;
  }
  return sorted[sorted.length - 1]!.p;
}

function positions(layers: readonly (readonly number[])[], items: number): Int32Array {
  const pos = new Int32Array(items);
  for (const layer of layers)
    layer.forEach((v, i) => {
      pos[v] = i;
    });
  return pos;
}

function segmentsByUpperLayer(graph: LayeredGraph, layerCount: number): number[][] {
  const out: number[][] = Array.from({ length: layerCount }, () => []);
  for (let s = 0; s < graph.upper.length; s++) out[graph.layerOf[graph.upper[s]!]!]?.push(s);
  return out;
}
