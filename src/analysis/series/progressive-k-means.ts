import { seededRandom, shuffleInPlace } from '../stats/seeded-random';
import { canonicalLabels } from './cluster-labels';
import { SERIES_SEED } from './k-means';
import { matchLabels } from './label-matching';
import { systemClock, TimeBudget, type Clock } from './time-budget';

export interface ProgressiveKMeansOptions {
  /** Clusters (default 3, the seed's). */
  k?: number;
  /** Latency budget of the fit in milliseconds (default 50, the seed's example). */
  budgetMs?: number;
  /** Entities drawn from each previous cluster per mini-batch (default 10). */
  batchPerCluster?: number;
  /**
   * Keep time for assigning every entity inside the budget (default true): the mini-batch loop stops
   * when what is left would not cover the assignment. False gives the whole budget to the fit, as
   * the seed's Table 6.1 counts entities processed.
   */
  reserveAssignment?: boolean;
  /** Seed of the batch sampling and of k-means++ (default SERIES_SEED); vary it per tick. */
  seed?: number;
  clock?: Clock;
}

export interface ProgressiveKMeansResult {
  /** Cluster of each entity, stable across calls: renamed after `previous` by Hungarian matching. */
  labels: Int32Array;
  /** k × dims centres in label order. */
  centroids: Float64Array;
  k: number;
  /** Entities that took part in the mini-batch updates (the "141/256 entities" badge). */
  processed: number;
  total: number;
  batches: number;
  /** Entities whose label differs from `previous` (0 without one). */
  changed: number;
  fitMs: number;
  assignMs: number;
}

/**
 * Progressive clustering of time series (thesis §6.3.2): mini-batch k-means (Sculley 2010) over the
 * entities' series so far, under a latency budget. Each mini-batch draws `batchPerCluster`
 * entities from each cluster of the previous tick, so a batch covers every behaviour even when
 * time runs out early; centres move by per-centre learning rates 1/v_c; the loop ends when the
 * budget is spent or every entity has been used once. Every entity is then assigned to its
 * nearest centre and the clusters take the previous tick's identities by Hungarian matching on the
 * overlap table, so colours stay put. Centres start from samples of the previous clusters (k-means++
 * on a sample the first time, or for clusters that vanished). Rows are the entities' series (views
 * are fine), all of one length.
 */
export function progressiveKMeans(
  rows: readonly ArrayLike<number>[],
  previous: ArrayLike<number> | null,
  options: ProgressiveKMeansOptions = {},
): ProgressiveKMeansResult {
  const n = rows.length;
  if (n < 2) throw new RangeError(`progressive k-means needs at least 2 entities, got ${n}`);
  const dims = rows[0]!.length;
  for (const r of rows) if (r.length !== dims) throw new RangeError('progressive k-means: rows of different lengths');
  const k = Math.min(n, Math.max(1, Math.floor(options.k ?? 3)));
  const perCluster = Math.max(1, Math.floor(options.batchPerCluster ?? 10));
  const clock = options.clock ?? systemClock;
  const budget = new TimeBudget(options.budgetMs ?? 50, clock);
  const rand = seededRandom(options.seed ?? SERIES_SEED);
  const usePrevious = previous !== null && previous.length === n;

  const strata = shuffledStrata(n, usePrevious ? previous : null, rand);
  const cursor = new Int32Array(strata.length);

  const centroids = new Float64Array(k * dims);
  const counts = new Float64Array(k);
  let processed = 0;
  let seeded = 0;
  // Centres from samples of the previous clusters (those samples count as processed).
  if (usePrevious)
    for (let s = 0; s < strata.length && seeded < k; s++) {
      const members = strata[s]!;
      const take = Math.min(perCluster, members.length);
      const base = seeded * dims;
      for (let m = 0; m < take; m++) {
        const row = rows[members[m]!]!;
        for (let d = 0; d < dims; d++) centroids[base + d]! += row[d]! / take;
      }
      counts[seeded] = take;
      cursor[s] = take;
      processed += take;
      seeded++;
    }
  if (seeded < k) seedPlusPlus(rows, strata.flat(), centroids, seeded, k, dims, perCluster * k, rand);

  // Mini-batches under the budget.
  const batch: number[] = [];
  const nearest: number[] = [];
  let batches = 0;
  const reserve = options.reserveAssignment ?? true;
  let perEntityMs = 0;
  budget.startLaps();
  while (processed < n) {
    batch.length = 0;
    for (let s = 0; s < strata.length; s++) {
      const members = strata[s]!;
      const end = Math.min(members.length, cursor[s]! + perCluster);
      for (let c = cursor[s]!; c < end; c++) batch.push(members[c]!);
      cursor[s] = end;
    }
    if (!batch.length) break;
    nearest.length = 0;
    for (const i of batch) nearest.push(nearestCentre(rows[i]!, centroids, k, dims).index);
    batch.forEach((i, b) => {
      const c = nearest[b]!;
      const eta = 1 / ++counts[c]!;
      const row = rows[i]!;
      const base = c * dims;
      for (let d = 0; d < dims; d++) centroids[base + d]! += eta * (row[d]! - centroids[base + d]!);
    });
    processed += batch.length;
    batches++;
    perEntityMs = Math.max(perEntityMs, budget.lap() / batch.length);
    if (!budget.allowsAnother(reserve ? perEntityMs * n : 0)) break;
  }
  const fitMs = budget.elapsed();

  // Every entity to its nearest centre, then stable identities.
  const assignStart = clock();
  const raw = new Int32Array(n);
  for (let i = 0; i < n; i++) raw[i] = nearestCentre(rows[i]!, centroids, k, dims).index;
  let labels: Int32Array;
  let mapping: ArrayLike<number>;
  if (usePrevious) ({ labels, mapping } = matchLabels(previous!, raw, k));
  else {
    const canonical = canonicalLabels(raw);
    labels = canonical.labels;
    const m = Int32Array.from({ length: k }, (_, c) => canonical.mapping.get(c) ?? -1);
    let next = canonical.mapping.size;
    for (let c = 0; c < k; c++) if (m[c]! < 0) m[c] = next++;
    mapping = m;
  }
  const ordered = new Float64Array(k * dims);
  for (let c = 0; c < k; c++) ordered.set(centroids.subarray(c * dims, (c + 1) * dims), mapping[c]! * dims);
  let changed = 0;
  if (usePrevious) for (let i = 0; i < n; i++) if (labels[i] !== previous![i]) changed++;
  return {
    labels,
    centroids: ordered,
    k,
    processed: Math.min(processed, n),
    total: n,
    batches,
    changed,
    fitMs,
    assignMs: clock() - assignStart,
  };
}

/**
 * Entities grouped by their previous cluster (ascending labels), each group shuffled; everything as
 * one shuffled group without labels. The sampling frame of stratified mini-batches.
 */
export function shuffledStrata(n: number, labels: ArrayLike<number> | null, rand: () => number): number[][] {
  if (!labels || labels.length !== n)
    return [
      shuffleInPlace(
        Array.from({ length: n }, (_, i) => i),
        rand,
      ),
    ];
  const byLabel = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const list = byLabel.get(labels[i]!);
    if (list) list.push(i);
    else byLabel.set(labels[i]!, [i]);
  }
  return [...byLabel.keys()].sort((a, b) => a - b).map(l => shuffleInPlace(byLabel.get(l)!, rand));
}

/**
 * A visiting order that takes one entity from each stratum in turn (strata that run out drop out),
 * so any prefix covers every previous cluster: the order of the progressive projection's batches.
 */
export function stratifiedOrder(n: number, labels: ArrayLike<number> | null, rand: () => number): Int32Array {
  const strata = shuffledStrata(n, labels, rand);
  const order = new Int32Array(n);
  let at = 0;
  for (let round = 0; at < n; round++) for (const s of strata) if (round < s.length) order[at++] = s[round]!;
  return order;
}

/** The nearest of k centres (squared Euclidean distance). */
function nearestCentre(
  row: ArrayLike<number>,
  centroids: Float64Array,
  k: number,
  dims: number,
): { index: number; distance: number } {
  let best = 0,
    bestD = Infinity;
  for (let c = 0; c < k; c++) {
    const base = c * dims;
    let s = 0;
    for (let d = 0; d < dims && s < bestD; d++) {
      const t = row[d]! - centroids[base + d]!;
      s += t * t;
    }
    if (s < bestD) {
      bestD = s;
      best = c;
    }
  }
  return { index: best, distance: bestD };
}

/** Fills centres `from`…k−1 by k-means++ over the first `sampleSize` entities of `order`. */
function seedPlusPlus(
  rows: readonly ArrayLike<number>[],
  order: number[],
  centroids: Float64Array,
  from: number,
  k: number,
  dims: number,
  sampleSize: number,
  rand: () => number,
): void {
  const sample = order.slice(0, Math.max(k, Math.min(order.length, sampleSize)));
  const dist = new Float64Array(sample.length).fill(Infinity);
  const setCentre = (c: number, row: ArrayLike<number>) => {
    for (let d = 0; d < dims; d++) centroids[c * dims + d] = row[d]!;
  };
  let c = from;
  if (c === 0) setCentre(c++, rows[sample[Math.min(sample.length - 1, Math.floor(rand() * sample.length))]!]!);
  for (; c < k; c++) {
    let total = 0;
    sample.forEach((i, s) => {
      const d = nearestCentre(rows[i]!, centroids, c, dims).distance;
      dist[s] = d;
      total += d;
    });
    let pick = sample.length - 1;
    if (total > 0) {
      let target = rand() * total;
      for (let s = 0; s < sample.length; s++) {
        target -= dist[s]!;
        if (target < 0) {
          pick = s;
          break;
        }
      }
    } else pick = c % sample.length;
    setCentre(c, rows[sample[pick]!]!);
  }
}
