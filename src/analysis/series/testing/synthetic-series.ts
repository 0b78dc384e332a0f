import { gaussianFrom, seededRandom } from '../../stats/seeded-random';
import type { SeriesMatrix } from '../series-matrix';

/**
 * Seeded series sets with planted ground truth, for tests and the benchmark: clusters of entities
 * that share a behaviour, and mean shifts at known time points.
 */

export interface PlantedClustersOptions {
  entities: number;
  timePoints: number;
  /** Number of groups (default 3); entity i belongs to group ⌊i · clusters / entities⌋ (contiguous blocks, like KPs of a PE). */
  clusters?: number;
  /** Standard deviation of the Gaussian noise (default 0.1; the bursts have height 1). */
  noise?: number;
  seed?: number;
}

/**
 * Each group has one burst of height 1 in its own stretch of time (group g in the g-th of
 * `clusters` equal stretches, its middle half), on a level of 0, plus noise; each entity's
 * burst is shifted by up to ±2 samples so elastic distances have something to absorb.
 */
export function plantedClusters(options: PlantedClustersOptions): { series: SeriesMatrix; labels: Int32Array } {
  const { entities: n, timePoints: t } = options;
  const k = options.clusters ?? 3,
    noise = options.noise ?? 0.1;
  const rand = seededRandom(options.seed ?? 1);
  const normal = gaussianFrom(rand);
  const values = new Float64Array(n * t);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = Math.floor((i * k) / n);
    labels[i] = g;
    const jitter = Math.floor(rand() * 5) - 2;
    const from = Math.floor(((g + 0.25) * t) / k) + jitter,
      to = Math.floor(((g + 0.75) * t) / k) + jitter;
    for (let s = 0; s < t; s++) values[i * t + s] = (s >= from && s < to ? 1 : 0) + noise * normal();
  }
  return { series: { values, entities: n, timePoints: t }, labels };
}

export interface PlantedShiftsOptions {
  entities: number;
  timePoints: number;
  /** Sample indices where a new segment starts. */
  changePoints: readonly number[];
  /** Size of each entity's jump at a change, in noise standard deviations (default 1.5). */
  shift?: number;
  /** Share of entities that jump at each change (default 0.5). */
  affected?: number;
  seed?: number;
}

/**
 * Stationary Gaussian noise (σ = 1) around per-entity levels; at each change point a random
 * `affected` share of entities jumps by ±shift. With no change points: pure stationary noise.
 */
export function plantedShifts(options: PlantedShiftsOptions): SeriesMatrix {
  const { entities: n, timePoints: t } = options;
  const shift = options.shift ?? 1.5,
    affected = options.affected ?? 0.5;
  const rand = seededRandom(options.seed ?? 1);
  const normal = gaussianFrom(rand);
  const level = Float64Array.from({ length: n }, () => 3 * rand());
  const changes = [...options.changePoints].sort((a, b) => a - b);
  const values = new Float64Array(n * t);
  let next = 0;
  for (let s = 0; s < t; s++) {
    while (next < changes.length && changes[next] === s) {
      for (let i = 0; i < n; i++) if (rand() < affected) level[i]! += rand() < 0.5 ? -shift : shift;
      next++;
    }
    for (let i = 0; i < n; i++) values[i * t + s] = level[i]! + normal();
  }
  return { values, entities: n, timePoints: t };
}
