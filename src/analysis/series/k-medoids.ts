import { throwIfAborted } from '../model/cancellation';
import { canonicalLabels } from './cluster-labels';
import { asCondensed } from './distance-matrix';

export interface PamOptions {
  /** Upper bound on SWAP steps (default 1,000; PAM usually needs a handful). */
  maxSwaps?: number;
  signal?: AbortSignal;
}

export interface PamResult {
  /** Canonical cluster of each item (cluster 0 holds item 0). */
  labels: Int32Array;
  /** The medoid (an item index) of each cluster, in label order. */
  medoids: Int32Array;
  /** Sum of each item's distance to its medoid. */
  cost: number;
  /** SWAP steps taken. */
  swaps: number;
}

/**
 * k-medoids by PAM (Kaufman & Rousseeuw 1990, ch. 2), thesis §5.3.2: works on any dissimilarity
 * (Euclidean, DTW, TWED), condensed or square. BUILD picks the item with the least total distance,
 * then each next medoid by the largest decrease of the total; SWAP then applies the best
 * medoid ↔ non-medoid exchange while it lowers the total. Each SWAP step evaluates all k(n−k)
 * exchanges in O(n²) with the nearest / second-nearest bookkeeping of FastPAM1 (Schubert &
 * Rousseeuw 2019), giving exactly PAM's choice. Deterministic: ties go to the lowest index.
 */
export function pam(distances: Float64Array, n: number, k = 3, options: PamOptions = {}): PamResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (n < k) throw new RangeError(`PAM needs at least k = ${k} items, got ${n}`);
  const D = asCondensed(distances, n);
  // Row starts of the condensed matrix: d(i, j), i < j, is D[rowStart[i] + j].
  const rowStart = new Float64Array(n);
  for (let i = 0; i < n; i++) rowStart[i] = n * i - (i * (i + 1)) / 2 - i - 1;
  const d = (i: number, j: number) => (i === j ? 0 : i < j ? D[rowStart[i]! + j]! : D[rowStart[j]! + i]!);

  const medoids = new Int32Array(k);
  const isMedoid = new Uint8Array(n);
  const nearestD = new Float64Array(n).fill(Infinity);
  // BUILD.
  for (let m = 0; m < k; m++) {
    let best = -1,
      bestGain = -Infinity;
    for (let i = 0; i < n; i++) {
      if (isMedoid[i]) continue;
      // For the first medoid the "gain" is minus the total distance.
      let gain = 0;
      for (let j = 0; j < n; j++) {
        const dij = d(i, j);
        gain += m === 0 ? -dij : Math.max(nearestD[j]! - dij, 0);
      }
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    medoids[m] = best;
    isMedoid[best] = 1;
    for (let j = 0; j < n; j++) nearestD[j] = Math.min(nearestD[j]!, d(best, j));
  }

  // SWAP.
  const nearest = new Int32Array(n),
    secondD = new Float64Array(n);
  const assign = () => {
    let cost = 0;
    for (let j = 0; j < n; j++) {
      let b1 = Infinity,
        b2 = Infinity,
        l1 = 0;
      for (let l = 0; l < k; l++) {
        const v = d(j, medoids[l]!);
        if (v < b1) {
          b2 = b1;
          b1 = v;
          l1 = l;
        } else if (v < b2) b2 = v;
      }
      nearest[j] = l1;
      nearestD[j] = b1;
      secondD[j] = b2;
      cost += b1;
    }
    return cost;
  };
  let cost = assign();
  const delta = new Float64Array(k);
  const maxSwaps = options.maxSwaps ?? 1000;
  let swaps = 0;
  for (; swaps < maxSwaps; swaps++) {
    throwIfAborted(options.signal);
    let bestDelta = -1e-12 * Math.max(1, cost),
      bestH = -1,
      bestL = -1;
    for (let h = 0; h < n; h++) {
      if (isMedoid[h]) continue;
      // Removing medoid l and adding h: items of other clusters move to h only if closer;
      // items of cluster l go to h or to their second-nearest medoid.
      let shared = 0;
      delta.fill(0);
      for (let j = 0; j < n; j++) {
        const djh = d(j, h),
          dn = nearestD[j]!;
        const stay = djh < dn ? djh - dn : 0;
        shared += stay;
        const ds = secondD[j]!;
        delta[nearest[j]!]! += (djh < ds ? djh : ds) - dn - stay;
      }
      for (let l = 0; l < k; l++) {
        const change = shared + delta[l]!;
        if (change < bestDelta) {
          bestDelta = change;
          bestH = h;
          bestL = l;
        }
      }
    }
    if (bestH < 0) break;
    isMedoid[medoids[bestL]!] = 0;
    medoids[bestL] = bestH;
    isMedoid[bestH] = 1;
    cost = assign();
  }
  const { labels, mapping } = canonicalLabels(nearest);
  const ordered = new Int32Array(k);
  for (const [old, next] of mapping) ordered[next] = medoids[old]!;
  return { labels, medoids: ordered, cost, swaps };
}
