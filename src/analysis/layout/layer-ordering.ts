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
  const tally = new CrossingTally(Math.max(0, ...layers.map(l => l.length)));
  for (let l = 0; l + 1 < layers.length; l++) {
    const segs = byLayer[l]!;
    if (segs.length < 2) continue;
    segs.sort((a, b) => pos[graph.upper[a]!]! - pos[graph.upper[b]!]! || pos[graph.lower[a]!]! - pos[graph.lower[b]!]!);
    tally.layer(layers[l + 1]!.length);
    for (const s of segs) tally.add(pos[graph.lower[s]!]!, w(s));
  }
  return { count: tally.count, weighted: tally.weighted };
}

/**
 * Crossings of the segments between two layers, given in order of their upper end's position, then
 * their lower end's: Fenwick trees over the lower layer's positions say how many (and how much
 * weight) of the segments added so far end strictly below the new one's lower end (Barth, Jünger &
 * Mutzel 2002). One tally serves every layer pair of a count.
 */
class CrossingTally {
  count = 0;
  weighted = 0;
  #cnt: Float64Array;
  #wt: Float64Array;
  #n = 0;
  #insertedCount = 0;
  #insertedWeight = 0;

  constructor(widestLayer: number) {
    this.#cnt = new Float64Array(widestLayer + 1);
    this.#wt = new Float64Array(widestLayer + 1);
  }

  /** Starts the next layer pair, whose lower layer holds n items. */
  layer(n: number): void {
    this.#cnt.fill(0, 0, n + 1);
    this.#wt.fill(0, 0, n + 1);
    this.#n = n;
    this.#insertedCount = 0;
    this.#insertedWeight = 0;
  }

  /** Adds a segment whose lower end is at position p, with weight w. */
  add(p: number, w: number): void {
    const cnt = this.#cnt,
      wt = this.#wt;
    let c = 0,
      x = 0;
    for (let i = p + 1; i > 0; i -= i & -i) {
      c += cnt[i]!;
      x += wt[i]!;
    }
    this.count += this.#insertedCount - c;
    this.weighted += w * (this.#insertedWeight - x);
    for (let i = p + 1; i <= this.#n; i += i & -i) {
      cnt[i]! += 1;
      wt[i]! += w;
    }
    this.#insertedCount += 1;
    this.#insertedWeight += w;
  }
}

/**
 * Work budget of the transpositions, in segment visits per ordering (about 0.1 s of CPU): a round
 * costs Σ over adjacent pairs of (degree a + degree b), so large layered graphs get fewer rounds
 * (at least one after each sweep) instead of the full eight.
 */
const TRANSPOSE_BUDGET = 40_000_000;
const MAX_TRANSPOSE_ROUNDS = 8;

/**
 * Orders every layer to reduce (weighted) crossings, starting from `initial`.
 *
 * Sweeps sort each layer by the barycentre (even sweeps) or weighted median (odd sweeps) of its
 * neighbours in the layer just fixed (Sugiyama et al. 1981; Gansner et al. 1993 §3); each sweep is
 * followed by transpositions of adjacent items while a round gains (Gansner et al. §3, `transpose`),
 * at most eight rounds and fewer on large graphs (TRANSPOSE_BUDGET). Every item keeps its segments
 * to each adjacent layer sorted by the other end's position, so the gain of swapping two items is a
 * merge of their lists, O(deg a + deg b) rather than O(deg a × deg b), and crossings are counted by
 * walking a layer's items in order (Barth, Jünger & Mutzel 2002). Typed arrays throughout; the
 * working buffers are made once per call.
 */
export function orderLayers(
  initial: readonly (readonly number[])[],
  graph: LayeredGraph,
  options: OrderingOptions = {},
): OrderingResult {
  const sweeps = Math.max(0, options.sweeps ?? 8);
  const fixedIn = options.fixed;
  const N = graph.layerOf.length;
  const S = graph.upper.length;
  const L = initial.length;

  // Layers as one flat order with offsets; pos = index within the layer.
  const layerStart = new Int32Array(L + 1);
  for (let l = 0; l < L; l++) layerStart[l + 1] = layerStart[l]! + initial[l]!.length;
  const order = new Int32Array(layerStart[L]!);
  const pos = new Int32Array(N);
  const layer = new Int32Array(N).fill(-1);
  let widest = 0;
  for (let l = 0; l < L; l++) {
    const items = initial[l]!;
    widest = Math.max(widest, items.length);
    for (let i = 0; i < items.length; i++) {
      const v = items[i]!;
      order[layerStart[l]! + i] = v;
      pos[v] = i;
      layer[v] = l;
    }
  }
  const fixed = new Uint8Array(N);
  let anyFixed = false;
  if (fixedIn)
    for (let v = 0; v < N; v++)
      if (fixedIn[v]) {
        fixed[v] = 1;
        anyFixed = true;
      }

  // A zero-weight segment still counts a little, so that orderings also avoid crossing it.
  let maxWeight = 0;
  for (let s = 0; s < S; s++) {
    const w = graph.weight[s]!;
    if (Number.isFinite(w) && w > maxWeight) maxWeight = w;
  }
  const eps = maxWeight > 0 ? maxWeight * 1e-6 : 1;
  const upperOf = Int32Array.from(graph.upper);
  const lowerOf = Int32Array.from(graph.lower);
  const weight = new Float64Array(S);
  for (let s = 0; s < S; s++) {
    const w = graph.weight[s]!;
    weight[s] = (Number.isFinite(w) && w > 0 ? w : 0) + eps;
  }
  // Only segments between adjacent layers of `initial` take part (others cannot be drawn).
  const usable = new Uint8Array(S);
  for (let s = 0; s < S; s++) {
    const lu = layer[upperOf[s]!]!;
    if (lu >= 0 && layer[lowerOf[s]!] === lu + 1) usable[s] = 1;
  }

  // Per item: segments to the layer above (`up`, other end = upper) and below (`down`, other end =
  // lower), CSR, each list kept sorted by the other end's position.
  const upStart = new Int32Array(N + 1);
  const downStart = new Int32Array(N + 1);
  for (let s = 0; s < S; s++)
    if (usable[s]) {
      upStart[lowerOf[s]! + 1]!++;
      downStart[upperOf[s]! + 1]!++;
    }
  for (let v = 0; v < N; v++) {
    upStart[v + 1]! += upStart[v]!;
    downStart[v + 1]! += downStart[v]!;
  }
  const upSeg = new Int32Array(upStart[N]!);
  const downSeg = new Int32Array(downStart[N]!);
  {
    const upFill = upStart.slice(0, N);
    const downFill = downStart.slice(0, N);
    for (let s = 0; s < S; s++)
      if (usable[s]) {
        upSeg[upFill[lowerOf[s]!]!++] = s;
        downSeg[downFill[upperOf[s]!]!++] = s;
      }
  }
  // Beside each list, the other ends' positions and the weights, contiguous for the merges below.
  const upPos = new Int32Array(upSeg.length),
    upW = new Float64Array(upSeg.length),
    downPos = new Int32Array(downSeg.length),
    downW = new Float64Array(downSeg.length);
  const upTotal = new Float64Array(N),
    downTotal = new Float64Array(N);
  for (let v = 0; v < N; v++) {
    for (let q = upStart[v]!; q < upStart[v + 1]!; q++) upTotal[v]! += weight[upSeg[q]!]!;
    for (let q = downStart[v]!; q < downStart[v + 1]!; q++) downTotal[v]! += weight[downSeg[q]!]!;
  }
  // A list is sorted against its adjacent layer's version; every reorder or swap bumps the version.
  const layerVersion = new Int32Array(L);
  const upSorted = new Int32Array(N).fill(-1);
  const downSorted = new Int32Array(N).fill(-1);
  const sortScratch = new Float64Array(Math.max(1, upSeg.length, downSeg.length));
  const sortSegments = (
    segs: Int32Array,
    from: number,
    to: number,
    end: Int32Array,
    at: Int32Array,
    w: Float64Array,
  ): void => {
    const d = to - from;
    sort(segs, from, to, end, d);
    for (let q = from; q < to; q++) {
      const s = segs[q]!;
      at[q] = pos[end[s]!]!;
      w[q] = weight[s]!;
    }
  };
  const sort = (segs: Int32Array, from: number, to: number, end: Int32Array, d: number): void => {
    if (d < 2) return;
    if (d <= 24) {
      // Insertion sort: lists are short and, after a swap, nearly sorted.
      for (let i = from + 1; i < to; i++) {
        const s = segs[i]!;
        const p = pos[end[s]!]!;
        let j = i - 1;
        while (j >= from && pos[end[segs[j]!]!]! > p) {
          segs[j + 1] = segs[j]!;
          j--;
        }
        segs[j + 1] = s;
      }
      return;
    }
    let sorted = true;
    for (let i = from + 1; i < to && sorted; i++) if (pos[end[segs[i - 1]!]!]! > pos[end[segs[i]!]!]!) sorted = false;
    if (sorted) return;
    // Position and segment in one exact double (pos < 2^21 items per layer, s < 2^31): a numeric sort.
    const keys = sortScratch.subarray(0, d);
    for (let i = 0; i < d; i++) keys[i] = pos[end[segs[from + i]!]!]! * 2147483648 + segs[from + i]!;
    keys.sort();
    for (let i = 0; i < d; i++) segs[from + i] = keys[i]! % 2147483648;
  };
  const ensureUp = (v: number): void => {
    const version = layerVersion[layer[v]! - 1] ?? 0;
    if (upSorted[v] !== version) {
      sortSegments(upSeg, upStart[v]!, upStart[v + 1]!, upperOf, upPos, upW);
      upSorted[v] = version;
    }
  };
  const ensureDown = (v: number): void => {
    const version = layerVersion[layer[v]! + 1] ?? 0;
    if (downSorted[v] !== version) {
      sortSegments(downSeg, downStart[v]!, downStart[v + 1]!, lowerOf, downPos, downW);
      downSorted[v] = version;
    }
  };

  // ---- weighted crossings of the current order: walk each upper layer's items in order, their
  // down lists by lower position, Fenwick trees over the lower layer's positions.
  const tally = new CrossingTally(widest);
  const crossings = (): CrossingCount => {
    tally.count = tally.weighted = 0;
    for (let l = 0; l + 1 < L; l++) {
      tally.layer(layerStart[l + 2]! - layerStart[l + 1]!);
      for (let k = layerStart[l]!; k < layerStart[l + 1]!; k++) {
        const v = order[k]!;
        ensureDown(v);
        for (let q = downStart[v]!; q < downStart[v + 1]!; q++) tally.add(downPos[q]!, downW[q]!);
      }
    }
    return { count: tally.count, weighted: tally.weighted };
  };

  const best = order.slice();
  let bestScore = crossings();

  // ---- one layer sorted by its neighbours' barycentre or weighted median in the adjacent layer
  const key = new Float64Array(N);
  const scratch = new Int32Array(widest);
  const pinnedKey = new Float64Array(widest);
  const free = new Int32Array(widest);
  const byKey = (a: number, b: number): number => key[a]! - key[b]! || pos[a]! - pos[b]!;
  const reorder = (l: number, fromAbove: boolean, median: boolean): void => {
    const adjacent = fromAbove ? l - 1 : l + 1;
    const from = layerStart[l]!,
      to = layerStart[l + 1]!,
      size = to - from;
    if (adjacent < 0 || adjacent >= L || size < 2) return;
    const adjacentSize = layerStart[adjacent + 1]! - layerStart[adjacent]!;
    const starts = fromAbove ? upStart : downStart;
    const at = fromAbove ? upPos : downPos;
    const w = fromAbove ? upW : downW;
    for (let k = from; k < to; k++) {
      const v = order[k]!;
      if (fromAbove) ensureUp(v);
      else ensureDown(v);
      const a = starts[v]!,
        b = starts[v + 1]!;
      // Without neighbours: keep the relative place in the layer.
      key[v] =
        a === b
          ? ((pos[v]! + 0.5) / size) * adjacentSize - 0.5
          : median
            ? weightedMedian(at, w, a, b)
            : barycentre(at, w, a, b);
    }
    const items = order.subarray(from, to);
    let pinned = 0;
    if (anyFixed) for (let k = 0; k < size; k++) pinned += fixed[items[k]!]!;
    if (pinned === 0) items.sort(byKey);
    else {
      // Fixed items keep their sequence; free items merge in by key (fixed keys made monotone).
      let run = -Infinity,
        np = 0,
        nf = 0;
      for (let k = 0; k < size; k++) {
        const v = items[k]!;
        if (fixed[v]) {
          scratch[np] = v;
          pinnedKey[np++] = run = Math.max(run, key[v]!);
        } else free[nf++] = v;
      }
      free.subarray(0, nf).sort(byKey);
      for (let i = 0, j = 0, k = 0; k < size; k++)
        items[k] = j < nf && (i >= np || key[free[j]!]! < pinnedKey[i]!) ? free[j++]! : scratch[i++]!;
    }
    for (let k = 0; k < size; k++) pos[items[k]!] = k;
    layerVersion[l]!++;
  };

  // ---- transpositions: weighted crossings of a directly above b minus those of b above a, over
  // both adjacent layers, by merging the two items' sorted lists.
  // Accumulated in a typed array: a double returned from a call that is not inlined is boxed.
  const gain = new Float64Array(1);
  const sideGain = (starts: Int32Array, at: Int32Array, w: Float64Array, total: Float64Array, a: number, b: number) => {
    const a0 = starts[a]!,
      a1 = starts[a + 1]!,
      b0 = starts[b]!,
      b1 = starts[b + 1]!;
    if (a0 === a1 || b0 === b1) return;
    const totalA = total[a]!;
    let ab = 0,
      ba = 0,
      less = 0,
      lessEq = 0,
      i = a0,
      j = a0;
    for (let q = b0; q < b1; q++) {
      const pb = at[q]!;
      while (i < a1 && at[i]! < pb) less += w[i++]!;
      if (j < i) {
        j = i;
        lessEq = less;
      }
      while (j < a1 && at[j]! <= pb) lessEq += w[j++]!;
      const wb = w[q]!;
      ab += wb * (totalA - lessEq);
      ba += wb * less;
    }
    gain[0]! += ab - ba;
  };
  let roundCost = 0;
  for (let v = 0; v < N; v++) roundCost += 2 * (upStart[v + 1]! - upStart[v]! + downStart[v + 1]! - downStart[v]!);
  const rounds = Math.max(
    1,
    Math.min(MAX_TRANSPOSE_ROUNDS, Math.floor(TRANSPOSE_BUDGET / Math.max(1, roundCost * 2 * sweeps))),
  );
  // A layer whose last scan swapped nothing gives the same answer until it or a neighbouring layer
  // changes: versions only grow, so an unchanged sum of the three means nothing changed.
  const quietAt = new Float64Array(L).fill(-1);
  const around = (l: number): number =>
    layerVersion[l]! + (l > 0 ? layerVersion[l - 1]! : 0) + (l + 1 < L ? layerVersion[l + 1]! : 0);
  const transpose = (): void => {
    for (let round = 0; round < rounds; round++) {
      let improved = false;
      for (let l = 0; l < L; l++) {
        if (quietAt[l] === around(l)) continue;
        const from = layerStart[l]!,
          to = layerStart[l + 1]!;
        for (let k = from; k < to; k++) {
          const v = order[k]!;
          ensureUp(v);
          ensureDown(v);
        }
        let swapped = false;
        for (let k = from; k + 1 < to; k++) {
          const a = order[k]!;
          const b = order[k + 1]!;
          if (fixed[a] && fixed[b]) continue;
          gain[0] = 0;
          sideGain(upStart, upPos, upW, upTotal, a, b);
          sideGain(downStart, downPos, downW, downTotal, a, b);
          if (gain[0]! > 1e-12 * eps) {
            order[k] = b;
            order[k + 1] = a;
            pos[a] = k + 1 - from;
            pos[b] = k - from;
            swapped = true;
          }
        }
        if (swapped) {
          layerVersion[l]!++;
          improved = true;
        } else quietAt[l] = around(l);
      }
      if (!improved) break;
    }
  };
  const keepIfBetter = (): boolean => {
    const s = crossings();
    if (!(s.weighted < bestScore.weighted - 1e-9 * Math.max(1, bestScore.weighted))) return false;
    best.set(order);
    bestScore = s;
    return true;
  };

  // Stop once a barycentre and a median sweep pair in a row found nothing better (Gansner et al.
  // stop after a few iterations without improvement as well).
  let idle = 0;
  for (let it = 0; it < sweeps && bestScore.count > 0 && idle < 2; it++) {
    const median = it % 2 === 1;
    for (let l = 1; l < L; l++) reorder(l, true, median);
    transpose();
    let better = keepIfBetter();
    for (let l = L - 2; l >= 0; l--) reorder(l, false, median);
    transpose();
    if (keepIfBetter()) better = true;
    idle = better ? 0 : idle + 1;
  }
  const layers: number[][] = [];
  for (let l = 0; l < L; l++) layers.push(Array.from(best.subarray(layerStart[l]!, layerStart[l + 1]!)));
  const exact = countCrossings(layers, graph);
  return { layers, count: exact.count, weighted: exact.weighted };
}

/** Weighted mean of the positions at[from … to) (weights w). */
function barycentre(at: Int32Array, w: Float64Array, from: number, to: number): number {
  let sw = 0,
    sp = 0;
  for (let q = from; q < to; q++) {
    sw += w[q]!;
    sp += w[q]! * at[q]!;
  }
  return sp / sw;
}

/**
 * The position where half of the weight is reached (midpoint when exactly at a boundary), over the
 * ascending positions at[from … to) with weights w.
 */
function weightedMedian(at: Int32Array, w: Float64Array, from: number, to: number): number {
  let half = 0;
  for (let q = from; q < to; q++) half += w[q]!;
  half /= 2;
  let acc = 0;
  for (let q = from; q < to; q++) {
    acc += w[q]!;
    if (Math.abs(acc - half) <= 1e-12 * half && q + 1 < to) return (at[q]! + at[q + 1]!) / 2;
    if (acc >= half) return at[q]!;
  }
  return at[to - 1]!;
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
