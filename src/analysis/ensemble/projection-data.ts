import type { EnsembleProjectionData, ProjectionInput } from '../../shared/ensemble-protocol';
import type { Ensemble } from './ensemble';
import { selectRuns } from './ensemble-graph';
import {
  classicalMds,
  euclideanDistances,
  kMeans,
  PROJECTION_SEED,
  runFeatures,
  structureDistances,
} from './projection';

/** CallFlow's default cluster count (§2.11; §4.9 lets the user pick 2–8). */
export const PROJECTION_CLUSTERS = 3;

/** How many of the heaviest nodes the structure distance compares (structureDistances' default). */
const STRUCTURE_NODES = 512;

/**
 * The parameter projection view's data (§2.11, §4.7, experimental): one point per selected run,
 * MDS coordinates and a k-means cluster (k = `clusters`, 3 by default). `runs` restricts the projection to a subset (a
 * lasso inside a lasso): features are min–max scaled over the subset and distances taken between
 * its runs only. This is projectRuns (projection.ts) over a run subset — it composes the same
 * steps, because projectRuns always projects every run.
 *
 * No projection (with the reason in `unavailable`) for fewer than k + 1 runs — k clusters of k
 * runs say nothing — or when nothing varies between the runs.
 */
export function projectionData(
  ensemble: Ensemble,
  input: ProjectionInput,
  runs: readonly number[] | null,
  clusters: number = PROJECTION_CLUSTERS,
): EnsembleProjectionData {
  const R = ensemble.runCount;
  const subset = Array.from(selectRuns(runs, R));
  const n = subset.length;
  const k = clusters;
  const none = (features: string[], reason: string): EnsembleProjectionData => ({
    input,
    features,
    points: [],
    k,
    unavailable: reason,
  });
  let distances: Float64Array;
  let features: string[];
  if (input === 'parameters') {
    const all = runFeatures(ensemble);
    const F = all.names.length;
    // Re-scale each feature to [0, 1] over the subset; features constant there carry no distance.
    const varying: number[] = [];
    const lo = new Float64Array(F).fill(Infinity),
      hi = new Float64Array(F).fill(-Infinity);
    for (const r of subset)
      for (let f = 0; f < F; f++) {
        const v = all.matrix[r * F + f]!;
        if (v < lo[f]!) lo[f] = v;
        if (v > hi[f]!) hi[f] = v;
      }
    for (let f = 0; f < F; f++) if (hi[f]! > lo[f]!) varying.push(f);
    features = varying.map(f => all.names[f]!);
    if (n < k + 1) return none(features, tooFew(n, k));
    if (varying.length === 0)
      return none(all.names, `no parameter or runtime varies across the ${n} runs (${all.names.join(', ')})`);
    const matrix = new Float64Array(n * varying.length);
    subset.forEach((r, i) =>
      varying.forEach((f, j) => {
        matrix[i * varying.length + j] = (all.matrix[r * F + f]! - lo[f]!) / (hi[f]! - lo[f]!);
      }),
    );
    distances = euclideanDistances(matrix, n, varying.length);
  } else {
    features = [
      `1 − weighted Jaccard similarity of the runs' inclusive shares (the ${Math.min(STRUCTURE_NODES, ensemble.size)} heaviest calling contexts)`,
    ];
    if (n < k + 1) return none(features, tooFew(n, k));
    const full = structureDistances(ensemble, STRUCTURE_NODES);
    distances = new Float64Array(n * n);
    let spread = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const d = full[subset[i]! * R + subset[j]!]!;
        distances[i * n + j] = d;
        if (d > spread) spread = d;
      }
    if (spread === 0)
      return none(features, `the ${n} runs' call trees have the same shape (every structure distance is 0)`);
  }
  const { coordinates } = classicalMds(distances, n, 2);
  const { labels } = kMeans(coordinates, n, 2, k, { seed: PROJECTION_SEED });
  return {
    input,
    features,
    k,
    unavailable: null,
    points: subset.map((run, i) => ({ run, x: coordinates[i * 2]!, y: coordinates[i * 2 + 1]!, cluster: labels[i]! })),
  };
}

function tooFew(n: number, k: number): string {
  return `the projection needs at least ${k + 1} runs for ${k} clusters; ${n === 1 ? '1 run is' : `${n} runs are`} selected`;
}
