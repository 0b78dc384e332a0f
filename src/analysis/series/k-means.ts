import { throwIfAborted } from '../model/cancellation';
import { seededRandom } from '../stats/seeded-random';
import { canonicalLabels } from './cluster-labels';

/** The library's default seed for its random choices (k-means++ seeding, permutations, t-SNE start). */
export const SERIES_SEED = 20190819;

export interface KMeansOptions {
  /** Independent k-means++ starts; the one with the lowest inertia wins (default 10, the seed's). */
  restarts?: number;
  /** Seed of the PRNG that drives every start (default SERIES_SEED). */
  seed?: number;
  /** Lloyd iterations per start (default 300). */
  maxIterations?: number;
  /** Follow Lloyd with Hartigan's single-point transfers (default true). */
  hartigan?: boolean;
  signal?: AbortSignal;
}

export interface KMeansResult {
  /** Canonical cluster of each point (cluster 0 holds point 0; see cluster-labels.ts). */
  labels: Int32Array;
  /** Cluster-major k × dims centroids, in label order. */
  centroids: Float64Array;
  /** Within-cluster sum of squared distances to the centroids. */
  inertia: number;
  /** Lloyd iterations of the winning start. */
  iterations: number;
}

/**
 * k-means on n points of `dims` coordinates (point-major), thesis §5.3.2: "k-means … with 10 random
 * restarts by default; keep the best run". Each start seeds by k-means++ (Arthur & Vassilvitskii
 * 2007), runs Lloyd's iterations to a fixed point and then Hartigan's transfers (Hartigan & Wong
 * 1979; Telgarsky & Vattani 2010): a point moves from cluster A to B when
 *   n_B/(n_B+1)·|x − c_B|² < n_A/(n_A−1)·|x − c_A|²,
 * which lowers the inertia where Lloyd is stuck, as R's default `kmeans` does. A cluster that
 * empties takes the point farthest from its centroid. Deterministic for a given seed. Needs n ≥ k.
 */
export function kMeans(
  points: Float64Array,
  n: number,
  dims: number,
  k = 3,
  options: KMeansOptions = {},
): KMeansResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (n < k) throw new RangeError(`k-means needs at least k = ${k} points, got ${n}`);
  if (points.length !== n * dims)
    throw new RangeError(`k-means: ${points.length} coordinates for ${n} points × ${dims}`);
  const restarts = Math.max(1, Math.floor(options.restarts ?? 10));
  const maxIterations = options.maxIterations ?? 300;
  const rand = seededRandom(options.seed ?? SERIES_SEED);
  const work = new KMeansWorkspace(points, n, dims, k);
  let best: { labels: Int32Array; centroids: Float64Array; inertia: number; iterations: number } | null = null;
  for (let r = 0; r < restarts; r++) {
    throwIfAborted(options.signal);
    work.seedPlusPlus(rand);
    const iterations = work.lloyd(maxIterations, options.signal);
    if (options.hartigan ?? true) work.hartigan(maxIterations);
    const inertia = work.finalise();
    if (!best || inertia < best.inertia)
      best = { labels: work.labels.slice(), centroids: work.centroids.slice(), inertia, iterations };
  }
  const { labels, mapping } = canonicalLabels(best!.labels);
  const centroids = new Float64Array(k * dims);
  for (const [old, next] of mapping) centroids.set(best!.centroids.subarray(old * dims, (old + 1) * dims), next * dims);
  // Clusters that ended empty (only possible with duplicate points) keep their centroid, numbered last.
  let next = mapping.size;
  for (let c = 0; c < k; c++)
    if (!mapping.has(c)) centroids.set(best!.centroids.subarray(c * dims, (c + 1) * dims), next++ * dims);
  return { labels, centroids, inertia: best!.inertia, iterations: best!.iterations };
}

/** Buffers of one k-means start, reused across starts (no allocation inside the loops). */
class KMeansWorkspace {
  readonly labels: Int32Array;
  readonly centroids: Float64Array;
  private readonly counts: Int32Array;
  private readonly nearest: Float64Array;

  constructor(
    private readonly points: Float64Array,
    private readonly n: number,
    private readonly dims: number,
    private readonly k: number,
  ) {
    this.labels = new Int32Array(n);
    this.centroids = new Float64Array(k * dims);
    this.counts = new Int32Array(k);
    this.nearest = new Float64Array(n);
  }

  /** Squared distance from point i to centroid c. */
  private dist2(i: number, c: number): number {
    const { points, centroids, dims } = this;
    const pi = i * dims,
      pc = c * dims;
    let s = 0;
    for (let d = 0; d < dims; d++) {
      const t = points[pi + d]! - centroids[pc + d]!;
      s += t * t;
    }
    return s;
  }

  /** k-means++: the first centre uniformly, each next one with probability ∝ squared distance to the nearest chosen. */
  seedPlusPlus(rand: () => number): void {
    const { points, centroids, dims, n, k, nearest } = this;
    const first = Math.min(n - 1, Math.floor(rand() * n));
    centroids.set(points.subarray(first * dims, first * dims + dims), 0);
    nearest.fill(Infinity);
    for (let c = 1; c < k; c++) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const d = this.dist2(i, c - 1);
        if (d < nearest[i]!) nearest[i] = d;
        total += nearest[i]!;
      }
      let pick = n - 1;
      if (total > 0) {
        let target = rand() * total;
        for (let i = 0; i < n; i++) {
          target -= nearest[i]!;
          if (target < 0) {
            pick = i;
            break;
          }
        }
      } else {
        pick = c; // every point coincides with a chosen centre: any other index will do
      }
      centroids.set(points.subarray(pick * dims, pick * dims + dims), c * dims);
    }
    this.labels.fill(-1);
  }

  /** Lloyd's iterations until no label changes; returns the number of assignment passes. */
  lloyd(maxIterations: number, signal: AbortSignal | undefined): number {
    const { n, k, labels } = this;
    let iterations = 0;
    while (iterations < maxIterations) {
      iterations++;
      let changed = false;
      for (let i = 0; i < n; i++) {
        let best = 0,
          bestD = Infinity;
        for (let c = 0; c < k; c++) {
          const d = this.dist2(i, c);
          if (d < bestD) {
            bestD = d;
            best = c;
          }
        }
        this.nearest[i] = bestD;
        if (labels[i] !== best) {
          labels[i] = best;
          changed = true;
        }
      }
      if (!changed) break;
      this.recentre();
      if ((iterations & 15) === 0) throwIfAborted(signal);
    }
    return iterations;
  }

  /** Centroids as the means of their members; an empty cluster takes the point farthest from its centroid. */
  private recentre(): void {
    const { points, centroids, counts, labels, dims, n, k, nearest } = this;
    centroids.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const c = labels[i]!;
      counts[c]!++;
      const pi = i * dims,
        pc = c * dims;
      for (let d = 0; d < dims; d++) centroids[pc + d]! += points[pi + d]!;
    }
    for (let c = 0; c < k; c++) {
      if (counts[c]! > 0) {
        const inv = 1 / counts[c]!;
        for (let d = 0; d < dims; d++) centroids[c * dims + d]! *= inv;
        continue;
      }
      let far = -1,
        farD = -1;
      for (let i = 0; i < n; i++)
        if (counts[labels[i]!]! > 1 && nearest[i]! > farD) {
          farD = nearest[i]!;
          far = i;
        }
      if (far < 0) continue;
      counts[labels[far]!]!--;
      labels[far] = c;
      counts[c] = 1;
      nearest[far] = 0;
      centroids.set(points.subarray(far * dims, far * dims + dims), c * dims);
    }
  }

  /** Hartigan's transfers with incremental centroid updates, until a full pass moves nothing. */
  hartigan(maxPasses: number): void {
    const { points, centroids, counts, labels, dims, n, k } = this;
    this.recentre();
    for (let pass = 0; pass < maxPasses; pass++) {
      let moved = false;
      for (let i = 0; i < n; i++) {
        const a = labels[i]!;
        const na = counts[a]!;
        if (na <= 1) continue;
        const removal = (na / (na - 1)) * this.dist2(i, a);
        let best = -1,
          bestCost = removal * (1 - 1e-12);
        for (let c = 0; c < k; c++) {
          if (c === a) continue;
          const nc = counts[c]!;
          const cost = (nc / (nc + 1)) * this.dist2(i, c);
          if (cost < bestCost) {
            bestCost = cost;
            best = c;
          }
        }
        if (best < 0) continue;
        const nb = counts[best]!;
        const pi = i * dims,
          pa = a * dims,
          pb = best * dims;
        for (let d = 0; d < dims; d++) {
          const x = points[pi + d]!;
          centroids[pa + d] = (na * centroids[pa + d]! - x) / (na - 1);
          centroids[pb + d] = (nb * centroids[pb + d]! + x) / (nb + 1);
        }
        counts[a] = na - 1;
        counts[best] = nb + 1;
        labels[i] = best;
        moved = true;
      }
      if (!moved) break;
    }
  }

  /** Exact centroids of the final labels and the inertia about them. */
  finalise(): number {
    this.recentre();
    let inertia = 0;
    for (let i = 0; i < this.n; i++) inertia += this.dist2(i, this.labels[i]!);
    return inertia;
  }
}
