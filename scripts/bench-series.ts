// Series algorithms (src/analysis/series) at the PDES case-study size: 256 entities (16 PEs × 16 KPs)
// × 500 time points. Target (issue 19): clustering + MDS + E-Divisive under 2 s in total; DTW, TWED
// and t-SNE run in workers and are reported for information.
// Run: `npm run bench -- series`.
import {
  classicalMds,
  clusterSeries,
  eDivisive,
  featureSeries,
  pairwiseDistances,
  tsne,
  type SeriesMatrix,
} from '../src/analysis/series';
import { plantedClusters, plantedShifts } from '../src/analysis/series/testing/synthetic-series';
import { formatWallCpu, timeSync, type Timing } from './bench-timing';

const fmt = (t: Timing) => formatWallCpu(t);

/** Planted mean shifts, each well clear of the groups' burst edges (at t/3 · (g + ¼) and t/3 · (g + ¾)). */
const SHIFTS = (t: number) => [Math.round(t * 0.33), Math.round(t * 0.666)];

/** A 256 × 500 metric with three planted groups (one burst each: six edges) and two planted mean shifts. */
function pdesLike(entities: number, timePoints: number): SeriesMatrix {
  const groups = plantedClusters({ entities, timePoints, seed: 19, noise: 0.2 }).series;
  const shifts = plantedShifts({ entities, timePoints, changePoints: SHIFTS(timePoints), shift: 0.5, seed: 19 });
  const values = groups.values.map((v, p) => v + 0.3 * shifts.values[p]!);
  return { values, entities, timePoints };
}

export function benchSeries(entities = 256, timePoints = 500): void {
  const metric = pdesLike(entities, timePoints);
  console.log(`\nSeries algorithms on ${entities} entities × ${timePoints} time points (one metric, min–max scaled):`);
  // Warm-up on a small set so the first timed call is not paying for compilation.
  const small = pdesLike(32, 80);
  clusterSeries(featureSeries(small), { algorithm: 'k-means' });
  eDivisive(small, { permutations: 19 });

  const prep = timeSync(() => featureSeries(metric));
  const features = prep.value;
  const euclid = timeSync(() => pairwiseDistances(features));
  const kmeans = timeSync(() => clusterSeries(features, { algorithm: 'k-means' }));
  const pam = timeSync(() => clusterSeries(features, { algorithm: 'pam', distances: euclid.value }));
  const linkage = timeSync(() => clusterSeries(features, { algorithm: 'complete-linkage', distances: euclid.value }));
  const mds = timeSync(() => classicalMds(euclid.value, entities));
  const changes = timeSync(() => eDivisive(features));
  const rows: [string, Timing][] = [
    ['min–max scaling', prep],
    ['Euclidean distances', euclid],
    ['k-means (10 restarts)', kmeans],
    ['PAM', pam],
    ['complete linkage', linkage],
    ['classical MDS', mds],
    [`E-Divisive (199 permutations, ${changes.value.changePoints.length} change points)`, changes],
  ];
  for (const [name, t] of rows) console.log(`  ${name.padEnd(58)} ${fmt(t)}`);
  const sum = (ts: Timing[]) => ({
    wallMs: ts.reduce((s, t) => s + t.wallMs, 0),
    cpuMs: ts.reduce((s, t) => s + t.cpuMs, 0),
  });
  const common = [prep, mds, changes];
  console.log(
    `  ${'total with k-means (scaling + k-means + MDS† + E-Divisive)'.padEnd(58)} ${fmt(sum([...common, euclid, kmeans]))}`,
  );
  console.log(
    `  ${'total with PAM (scaling + distances + PAM + MDS + E-Divisive)'.padEnd(58)} ${fmt(sum([...common, euclid, pam]))}`,
  );
  console.log(
    `  ${'total with all three clusterings'.padEnd(58)} ${fmt(sum([...common, euclid, kmeans, pam, linkage]))}`,
  );
  console.log('  († MDS always needs the distance matrix; target: < 2,000 ms)');
  const edges = [0, 1, 2].flatMap(g => [
    Math.floor(((g + 0.25) * timePoints) / 3),
    Math.floor(((g + 0.75) * timePoints) / 3),
  ]);
  console.log(
    `  change points found: ${changes.value.changePoints.map(c => c.index).join(', ')} ` +
      `(planted: burst edges ${edges.join(', ')} ±2, shifts ${SHIFTS(timePoints).join(', ')})`,
  );

  console.log('  worker-bound steps:');
  const dtw = timeSync(() => pairwiseDistances(features, { measure: 'dtw' }));
  console.log(`  ${'DTW distances (band 10% = 50 samples)'.padEnd(58)} ${fmt(dtw)}`);
  const twedBand = timeSync(() => pairwiseDistances(features, { measure: 'twed', window: 50 }));
  console.log(`  ${'TWED distances (band 50 samples)'.padEnd(58)} ${fmt(twedBand)}`);
  // Exact TWED is O(t²) a pair: timed on 64 entities and scaled by the pair count.
  const sub = { values: features.values.subarray(0, 64 * timePoints), entities: 64, timePoints };
  const twed = timeSync(() => pairwiseDistances(sub, { measure: 'twed' }));
  const scale = (entities * (entities - 1)) / (64 * 63);
  console.log(
    `  ${'TWED distances (exact, no band; from 64 entities × pairs)'.padEnd(58)} ${fmt({ wallMs: twed.wallMs * scale, cpuMs: twed.cpuMs * scale })}`,
  );
  const bh = timeSync(() => tsne(euclid.value, entities));
  console.log(`  ${'Barnes–Hut t-SNE (perplexity 30, θ 0.5, 1,000 iterations)'.padEnd(58)} ${fmt(bh)}`);
  const bigN = 2048;
  const big = featureSeries(plantedClusters({ entities: bigN, timePoints: 64, clusters: 8, seed: 3 }).series);
  const bigD = pairwiseDistances(big);
  const bigTsne = timeSync(() => tsne(bigD, bigN));
  console.log(`  ${`Barnes–Hut t-SNE at ${bigN.toLocaleString('en')} points`.padEnd(58)} ${fmt(bigTsne)}`);
}
