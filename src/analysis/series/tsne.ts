import { throwIfAborted } from '../model/cancellation';
import { gaussianFrom, seededRandom } from '../stats/seeded-random';
import { BarnesHutQuadtree } from './barnes-hut-quadtree';
import { asCondensed } from './distance-matrix';
import { SERIES_SEED } from './k-means';
import { classicalMds } from './mds';
import { runSliced, runToEnd } from './sliced';

/**
 * Barnes–Hut t-SNE (van der Maaten & Hinton 2008; van der Maaten 2014), thesis §5.3.3, for local
 * structure: subclusters and outliers that classical MDS and a fixed k hide. Works from the same
 * distance matrix as clustering (condensed or square; Euclidean, DTW or TWED), squared in the
 * Gaussian kernel as for Euclidean input. Input affinities use each point's ⌊3·perplexity⌋ nearest
 * neighbours with the bandwidth found by bisection to the perplexity, symmetrised; the gradient's
 * repulsion is summed over a quadtree with the θ criterion. Optimisation as in the reference code:
 * early exaggeration 12 for 250 iterations with momentum 0.5, then 0.8; per-coordinate gains
 * (+0.2 / ×0.8, at least 0.01); learning rate max(n / 12 / 4, 50) (Belkina et al. 2019, the
 * scikit-learn "auto"). Seeded, so the same input gives the same layout.
 */

export interface TsneOptions {
  /** Effective number of neighbours (default 30; the seed's). Clamped to (n − 1)/3 for small n. */
  perplexity?: number;
  /** Barnes–Hut accuracy: 0 is exact, larger is faster (default 0.5). */
  theta?: number;
  /** Gradient steps (default 1,000). */
  iterations?: number;
  /** Factor on the affinities early on, which lets clusters form (default 12). */
  earlyExaggeration?: number;
  /** Steps with exaggeration and momentum 0.5 (default 250). */
  exaggerationIterations?: number;
  /** Step size (default max(n / earlyExaggeration / 4, 50)). */
  learningRate?: number;
  /** Start layout: seeded Gaussian noise of standard deviation 10⁻⁴ (default), or classical MDS scaled to it. */
  init?: 'random' | 'mds';
  seed?: number;
  signal?: AbortSignal;
  /** Fraction of iterations done. */
  onProgress?: (fraction: number) => void;
}

export interface TsneResult {
  /** Point-major n × 2 coordinates, centred on 0. */
  coordinates: Float64Array;
  /** Kullback–Leibler divergence of the final layout (exact, from the sparse affinities). */
  klDivergence: number;
  /** The perplexity used (after clamping). */
  perplexity: number;
  iterations: number;
}

/** Symmetric sparse input affinities P (CSR), summing to 1. */
export interface TsneAffinities {
  rowStart: Int32Array;
  columns: Int32Array;
  values: Float64Array;
  perplexity: number;
}

/** The perplexity t-SNE can use for n points: at most (n − 1)/3, so that 3·perplexity neighbours exist (at least 1). */
export function usablePerplexity(perplexity: number, n: number): number {
  return Math.max(1, Math.min(perplexity, (n - 1) / 3));
}

/**
 * Conditional affinities p_{j|i} ∝ exp(−β_i d_ij²) over each point's K = min(n − 1, ⌊3·perplexity⌋)
 * nearest neighbours, β_i bisected until the entropy is log(perplexity) (within 10⁻⁵).
 * Returns the K neighbours and their p_{j|i} per row (n × K, row-major).
 */
export function conditionalAffinities(
  distances: Float64Array,
  n: number,
  perplexity: number,
): { neighbours: Int32Array; probabilities: Float64Array; K: number } {
  const D = asCondensed(distances, n);
  const K = Math.min(n - 1, Math.floor(3 * perplexity));
  const neighbours = new Int32Array(n * K),
    probabilities = new Float64Array(n * K);
  const heapD = new Float64Array(K),
    heapI = new Int32Array(K);
  const d2 = new Float64Array(K);
  const target = Math.log(perplexity);
  const rowStart = new Float64Array(n);
  for (let i = 0; i < n; i++) rowStart[i] = n * i - (i * (i + 1)) / 2 - i - 1;
  for (let i = 0; i < n; i++) {
    // K nearest by a bounded max-heap (ties: lower index first).
    let size = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const d = i < j ? D[rowStart[i]! + j]! : D[rowStart[j]! + i]!;
      if (size < K) {
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (heapD[p]! >= d) break;
          heapD[c] = heapD[p]!;
          heapI[c] = heapI[p]!;
          c = p;
        }
        heapD[c] = d;
        heapI[c] = j;
      } else if (d < heapD[0]!) {
        let c = 0;
        for (;;) {
          const l = 2 * c + 1;
          if (l >= K) break;
          const r = l + 1;
          const m = r < K && heapD[r]! > heapD[l]! ? r : l;
          if (heapD[m]! <= d) break;
          heapD[c] = heapD[m]!;
          heapI[c] = heapI[m]!;
          c = m;
        }
        heapD[c] = d;
        heapI[c] = j;
      }
    }
    let minD2 = Infinity;
    for (let k = 0; k < K; k++) {
      d2[k] = heapD[k]! * heapD[k]!;
      if (d2[k]! < minD2) minD2 = d2[k]!;
      neighbours[i * K + k] = heapI[k]!;
    }
    // Shift by the smallest d² (it cancels in the normalisation) so exp() cannot underflow to all zeros.
    let beta = 1,
      lo = -Infinity,
      hi = Infinity;
    const row = probabilities.subarray(i * K, (i + 1) * K);
    for (let it = 0; it < 200; it++) {
      let sum = 0,
        weighted = 0;
      for (let k = 0; k < K; k++) {
        const e = d2[k]! - minD2;
        const p = Math.exp(-beta * e);
        row[k] = p;
        sum += p;
        weighted += e * p;
      }
      const entropy = Math.log(sum) + (beta * weighted) / sum;
      for (let k = 0; k < K; k++) row[k]! /= sum;
      const diff = entropy - target;
      if (Math.abs(diff) < 1e-5) break;
      if (diff > 0) {
        lo = beta;
        beta = hi === Infinity ? beta * 2 : (beta + hi) / 2;
      } else {
        hi = beta;
        beta = lo === -Infinity ? beta / 2 : (beta + lo) / 2;
      }
    }
  }
  return { neighbours, probabilities, K };
}

/** P = (P_{j|i} + P_{i|j}) / 2n as a symmetric sparse matrix. */
export function tsneAffinities(distances: Float64Array, n: number, perplexity = 30): TsneAffinities {
  const used = usablePerplexity(perplexity, n);
  const { neighbours, probabilities, K } = conditionalAffinities(distances, n, used);
  const rows = Array.from({ length: n }, () => new Map<number, number>());
  for (let i = 0; i < n; i++)
    for (let k = 0; k < K; k++) {
      const j = neighbours[i * K + k]!,
        p = probabilities[i * K + k]! / (2 * n);
      rows[i]!.set(j, (rows[i]!.get(j) ?? 0) + p);
      rows[j]!.set(i, (rows[j]!.get(i) ?? 0) + p);
    }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i]! + rows[i]!.size;
  const columns = new Int32Array(rowStart[n]!),
    values = new Float64Array(rowStart[n]!);
  rows.forEach((row, i) => {
    let p = rowStart[i]!;
    for (const j of [...row.keys()].sort((a, b) => a - b)) {
      columns[p] = j;
      values[p++] = row.get(j)!;
    }
  });
  return { rowStart, columns, values, perplexity: used };
}

/** Barnes–Hut t-SNE to 2-D, run to the end. */
export function tsne(distances: Float64Array, n: number, options: TsneOptions = {}): TsneResult {
  return runToEnd(tsneSteps(distances, n, options));
}

/** Barnes–Hut t-SNE that yields to the event loop between slices, so an abort from elsewhere stops it. */
export function tsneAsync(
  distances: Float64Array,
  n: number,
  options: TsneOptions & { sliceMs?: number } = {},
): Promise<TsneResult> {
  return runSliced(tsneSteps(distances, n, options), options.signal, options.sliceMs);
}

/** The t-SNE optimisation as a generator: one step per 10 iterations. */
export function* tsneSteps(
  distances: Float64Array,
  n: number,
  options: TsneOptions = {},
): Generator<number, TsneResult, void> {
  const iterations = options.iterations ?? 1000;
  const exaggeration = options.earlyExaggeration ?? 12;
  const exaggerationIterations = options.exaggerationIterations ?? 250;
  const theta = options.theta ?? 0.5;
  if (!(theta >= 0)) throw new RangeError(`t-SNE θ must be ≥ 0, got ${theta}`);
  throwIfAborted(options.signal);
  const condensed = asCondensed(distances, n);
  const Y = new Float64Array(2 * n);
  if (n < 2) return { coordinates: Y, klDivergence: 0, perplexity: 0, iterations: 0 };
  const P = tsneAffinities(condensed, n, options.perplexity ?? 30);
  const eta = options.learningRate ?? Math.max(n / exaggeration / 4, 50);
  initialLayout(Y, condensed, n, options);

  const update = new Float64Array(2 * n),
    gains = new Float64Array(2 * n).fill(1),
    gradient = new Float64Array(2 * n),
    repulsion = new Float64Array(2 * n);
  const tree = new BarnesHutQuadtree();
  const { rowStart, columns, values } = P;
  for (let it = 0; it < iterations; it++) {
    const early = it < exaggerationIterations;
    const factor = early ? exaggeration : 1,
      momentum = early ? 0.5 : 0.8;
    tree.build(Y, n);
    repulsion.fill(0);
    let sumQ = 0;
    for (let i = 0; i < n; i++) sumQ += tree.repulsion(Y, i, theta, repulsion, 2 * i);
    for (let i = 0; i < n; i++) {
      const xi = Y[2 * i]!,
        yi = Y[2 * i + 1]!;
      let ax = 0,
        ay = 0;
      for (let p = rowStart[i]!; p < rowStart[i + 1]!; p++) {
        const j = columns[p]!;
        const dx = xi - Y[2 * j]!,
          dy = yi - Y[2 * j + 1]!;
        const w = (factor * values[p]!) / (1 + dx * dx + dy * dy);
        ax += w * dx;
        ay += w * dy;
      }
      gradient[2 * i] = 4 * (ax - repulsion[2 * i]! / sumQ);
      gradient[2 * i + 1] = 4 * (ay - repulsion[2 * i + 1]! / sumQ);
    }
    let mx = 0,
      my = 0;
    for (let c = 0; c < 2 * n; c++) {
      const g = gradient[c]!;
      const gain = g > 0 !== update[c]! > 0 ? gains[c]! + 0.2 : gains[c]! * 0.8;
      gains[c] = gain < 0.01 ? 0.01 : gain;
      update[c] = momentum * update[c]! - eta * gains[c]! * g;
      Y[c]! += update[c]!;
      if (c & 1) my += Y[c]!;
      else mx += Y[c]!;
    }
    mx /= n;
    my /= n;
    for (let i = 0; i < n; i++) {
      Y[2 * i]! -= mx;
      Y[2 * i + 1]! -= my;
    }
    if ((it + 1) % 10 === 0 || it + 1 === iterations) {
      throwIfAborted(options.signal);
      options.onProgress?.((it + 1) / iterations);
      yield (it + 1) / iterations;
    }
  }
  return { coordinates: Y, klDivergence: klDivergence(P, Y, n), perplexity: P.perplexity, iterations };
}

/** Start layout: N(0, 10⁻⁴) per coordinate (seeded), or classical MDS scaled to that spread. */
function initialLayout(Y: Float64Array, condensed: Float64Array, n: number, options: TsneOptions): void {
  if (options.init === 'mds') {
    const { coordinates } = classicalMds(condensed, n, 2, options.signal ? { signal: options.signal } : {});
    let s = 0;
    for (let i = 0; i < n; i++) s += coordinates[2 * i]! ** 2;
    const sd = Math.sqrt(s / n);
    if (sd > 0) {
      for (let c = 0; c < 2 * n; c++) Y[c] = (coordinates[c]! / sd) * 1e-4;
      return;
    }
  }
  const normal = gaussianFrom(seededRandom(options.seed ?? SERIES_SEED));
  for (let c = 0; c < 2 * n; c++) Y[c] = 1e-4 * normal();
}

/** KL(P ‖ Q) = Σ p_ij log(p_ij / q_ij) with the exact normalisation Z (O(n²) once). */
function klDivergence(P: TsneAffinities, Y: Float64Array, n: number): number {
  let Z = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = Y[2 * i]! - Y[2 * j]!,
        dy = Y[2 * i + 1]! - Y[2 * j + 1]!;
      Z += 2 / (1 + dx * dx + dy * dy);
    }
  let kl = 0;
  for (let i = 0; i < n; i++)
    for (let p = P.rowStart[i]!; p < P.rowStart[i + 1]!; p++) {
      const j = P.columns[p]!,
        v = P.values[p]!;
      if (v <= 0) continue;
      const dx = Y[2 * i]! - Y[2 * j]!,
        dy = Y[2 * i + 1]! - Y[2 * j + 1]!;
      const q = 1 / (1 + dx * dx + dy * dy) / Z;
      kl += v * Math.log(v / q);
    }
  return kl;
}
