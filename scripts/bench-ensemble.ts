// Ensemble benchmark: union + statistics for 1,000 runs × 10⁴ nodes (target < 5 s), per-interaction
// latencies of the ensemble views' data (hover, target switch, diff pair, ordering, projection), and
// loading generated ensembles from disk (json-split files through the real reader).
// Usage: node --import tsx scripts/bench-ensemble.ts [runs=1000] [nodes=10000]
//   (`npm run bench` calls benchEnsemble() with the defaults.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aggregateDiff, buildEnsemble, computeNodeStatistics, diffRuns, ensembleCallGraph, functionSpreads, histogramCountScale,
  loadEnsemble, modulesOfNodes, orderRuns, outOfOrderNodes, projectRuns, slowestRun, summarizeNode, targetStatistics,
} from '../src/analysis/ensemble';
import { generateSyntheticEnsemble, writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';

function ms(t0: number): number { return performance.now() - t0; }
function fmt(v: number): string { return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`; }
function mb(bytes: number): string { return `${(bytes / 1e6).toFixed(0)} MB`; }

function median(xs: number[]): number { const s = xs.slice().sort((a, b) => a - b); return s[s.length >> 1]!; }

/** Median time of `repeats` calls of f. */
function timeIt(f: () => unknown, repeats: number): number {
  const t: number[] = [];
  for (let k = 0; k < repeats; k++) { const t0 = performance.now(); f(); t.push(ms(t0)); }
  return median(t);
}

export interface EnsembleBenchOptions { runs?: number; nodes?: number }

export async function benchEnsemble(options: EnsembleBenchOptions = {}): Promise<void> {
  const runs = options.runs ?? 1000, nodes = options.nodes ?? 10_000;
  console.log(`\nEnsembles: ${runs} runs × ~${nodes} nodes (synthetic: ranks 8…512, 2 sizes, 3 compilers, 2 contexts stored per run)`);
  let t0 = performance.now();
  const synthetic = generateSyntheticEnsemble({ runs, nodes, maxContexts: 2 });
  const generate = ms(t0);
  t0 = performance.now();
  for (const { profile } of synthetic.runs) { profile.inclusiveTotals(0); profile.exclusiveTotals(0); }
  const derive = ms(t0);

  // Three builds: the first includes JIT warm-up; the median is what a reload costs.
  const unionTimes: number[] = [], statsTimes: number[] = [];
  let e = buildEnsemble(synthetic.runs.slice(0, 1));
  let scale = 0;
  for (let k = 0; k < 3; k++) {
    t0 = performance.now();
    e = buildEnsemble(synthetic.runs);
    unionTimes.push(ms(t0));
    t0 = performance.now();
    computeNodeStatistics(e, 'inclusive');
    computeNodeStatistics(e, 'exclusive');
    scale = histogramCountScale(e, 'inclusive', 20);
    statsTimes.push(ms(t0));
  }
  const union = median(unionTimes), stats = median(statsTimes);
  const mem = process.memoryUsage();
  console.log(`  build profiles in memory ${fmt(generate)} (+ per-run totals ${fmt(derive)})`);
  console.log(`  union: ${fmt(union)} median of 3 (first ${fmt(unionTimes[0]!)}) → ${e.size} nodes; statistics (both sides, all nodes) + global histogram scale (max count ${scale}): ${fmt(stats)} (first ${fmt(statsTimes[0]!)})`);
  console.log(`  union + statistics: ${fmt(union + stats)} (first ${fmt(unionTimes[0]! + statsTimes[0]!)}; target < 5 s: ${union + stats < 5000 ? 'met' : 'NOT met'}); heap ${mb(mem.heapUsed)}, array buffers ${mb(mem.arrayBuffers)} (profiles + ensemble), rss ${mb(mem.rss)}`);

  // Interactions, as the views will issue them.
  const root = e.tree.roots()[0]!;
  const busiest = e.tree.children(e.tree.children(root)[0]!)[0] ?? root;
  const target = slowestRun(e);
  const { groupOfNode, names } = modulesOfNodes(e);
  const rows: [string, number][] = [
    ['hover/select a node: summary, outliers, 20-bin histogram', timeIt(() => summarizeNode(e, busiest, 'inclusive'), 21)],
    ['per-rank values of a node in one run', timeIt(() => e.perRank(busiest, target, 'inclusive'), 21)],
    ['target switch: percentile, z-score, bin for every node', timeIt(() => targetStatistics(e, (target + 1) % e.runCount, 'inclusive'), 3)],
    ['diff pair switch: node diffs + module sums', timeIt(() => { diffRuns(e, 0, 1); aggregateDiff(e, 0, 1, groupOfNode, names); }, 5)],
    ['ensemble call graph + per-function spread (CodeLens)', timeIt(() => functionSpreads(e, ensembleCallGraph(e)), 3)],
    ['order by ranks + out-of-order scan of all nodes', timeIt(() => outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive'), 3)],
    ['parameter projection (features → MDS → k-means)', timeIt(() => projectRuns(e), 1)],
    ['structure projection (weighted Jaccard → MDS → k-means)', timeIt(() => projectRuns(e, { input: 'structure' }), 1)],
  ];
  for (const [label, t] of rows) console.log(`  ${label.padEnd(62)} ${fmt(t)}`);
  const flagged = outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive');
  console.log(`  out-of-order nodes found: ${flagged.length} (planted: ${synthetic.outOfOrderPath.join(' → ')}; found ${flagged.some(f => e.tree.path(f.node).join('/') === synthetic.outOfOrderPath.join('/')) ? 'yes' : 'no'})`);

  // From disk, through the json-split reader: AT-11's 100 small profiles, then 100 runs × 2,000 nodes.
  for (const [n, size, contexts] of [[100, 40, 16], [100, 2000, 4]] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-ensemble-'));
    try {
      writeSyntheticEnsemble(dir, { runs: n, nodes: size, maxContexts: contexts });
      t0 = performance.now();
      const loaded = await loadEnsemble(dir, { concurrency: 4 });
      const load = ms(t0);
      t0 = performance.now();
      const d = buildEnsemble(loaded.runs);
      computeNodeStatistics(d, 'inclusive');
      const build = ms(t0);
      console.log(`  from disk, ${n} json-split runs × ~${size} nodes × ${contexts} ranks: load ${fmt(load)} (this thread), union + statistics ${fmt(build)}, ${loaded.errors.length} errors`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

// Run directly (not when bundled into dist/bench.js, where require.main is the bundle itself).
if (/bench-ensemble\.ts$/.test(process.argv[1] ?? '')) {
  benchEnsemble({ runs: Number(process.argv[2] ?? 1000), nodes: Number(process.argv[3] ?? 10_000) }).catch(e => { console.error(e); process.exit(1); });
}
