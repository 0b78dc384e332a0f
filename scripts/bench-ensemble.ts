// Ensemble benchmark: union + statistics for 1,000 runs × 10⁴ nodes (target < 5 s), per-interaction
// latencies of the ensemble views' data (hover, target switch, diff pair, ordering, projection), and
// loading generated ensembles from disk (json-split files through the real reader).
// Run: `npm run bench -- ensemble`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aggregateDiff,
  buildEnsemble,
  computeNodeStatistics,
  diffRuns,
  ensembleCallGraph,
  functionSpreads,
  histogramCountScale,
  loadEnsemble,
  modulesOfNodes,
  orderRuns,
  outOfOrderNodes,
  projectRuns,
  slowestRun,
  summarizeNode,
  targetStatistics,
} from '../src/analysis/ensemble';
import { generateSyntheticEnsemble, writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';
import { ensembleGraph } from '../src/analysis/ensemble/ensemble-graph';
import { EnsembleProfile } from '../src/analysis/ensemble/ensemble-profile';
import { ensembleDetail } from '../src/analysis/ensemble/ensemble-detail';
import { superGraph, type SuperGraph } from '../src/analysis/graph/super-graph';
import {
  DEFAULT_ENSEMBLE_OPTIONS,
  MAX_RUN_VALUES,
  type EnsembleOptions,
  type EnsembleViewState,
} from '../src/shared/ensemble-protocol';

function ms(t0: number): number {
  return performance.now() - t0;
}
function fmt(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(1)} ms`;
}
function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Median time of `repeats` calls of f. */
function timeIt(f: () => unknown, repeats: number): number {
  const t: number[] = [];
  for (let k = 0; k < repeats; k++) {
    const t0 = performance.now();
    f();
    t.push(ms(t0));
  }
  return median(t);
}

export interface EnsembleBenchOptions {
  runs?: number;
  nodes?: number;
}

export async function benchEnsemble(options: EnsembleBenchOptions = {}): Promise<void> {
  const runs = options.runs ?? 1000,
    nodes = options.nodes ?? 10_000;
  console.log(
    `\nEnsembles: ${runs} runs × ~${nodes} nodes (synthetic: ranks 8…512, 2 sizes, 3 compilers, 2 contexts stored per run)`,
  );
  let t0 = performance.now();
  const synthetic = generateSyntheticEnsemble({ runs, nodes, maxContexts: 2 });
  const generate = ms(t0);
  t0 = performance.now();
  for (const { profile } of synthetic.runs) {
    profile.inclusiveTotals(0);
    profile.exclusiveTotals(0);
  }
  const derive = ms(t0);

  // Three builds: the first includes JIT warm-up; the median is what a reload costs.
  const unionTimes: number[] = [],
    statsTimes: number[] = [];
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
  const union = median(unionTimes),
    stats = median(statsTimes);
  const mem = process.memoryUsage();
  console.log(`  build profiles in memory ${fmt(generate)} (+ per-run totals ${fmt(derive)})`);
  console.log(
    `  union: ${fmt(union)} median of 3 (first ${fmt(unionTimes[0]!)}) → ${e.size} nodes; statistics (both sides, all nodes) + global histogram scale (max count ${scale}): ${fmt(stats)} (first ${fmt(statsTimes[0]!)})`,
  );
  console.log(
    `  union + statistics: ${fmt(union + stats)} (first ${fmt(unionTimes[0]! + statsTimes[0]!)}; target < 5 s: ${union + stats < 5000 ? 'met' : 'NOT met'}); heap ${mb(mem.heapUsed)}, array buffers ${mb(mem.arrayBuffers)} (profiles + ensemble), rss ${mb(mem.rss)}`,
  );

  // Interactions, as the views will issue them.
  const root = e.tree.roots()[0]!;
  const busiest = e.tree.children(e.tree.children(root)[0]!)[0] ?? root;
  const target = slowestRun(e);
  const { groupOfNode, names } = modulesOfNodes(e);
  const rows: [string, number][] = [
    [
      'hover/select a node: summary, outliers, 20-bin histogram',
      timeIt(() => summarizeNode(e, busiest, 'inclusive'), 21),
    ],
    ['per-rank values of a node in one run', timeIt(() => e.perRank(busiest, target, 'inclusive'), 21)],
    [
      'target switch: percentile, z-score, bin for every node',
      timeIt(() => targetStatistics(e, (target + 1) % e.runCount, 'inclusive'), 3),
    ],
    [
      'diff pair switch: node diffs + module sums',
      timeIt(() => {
        diffRuns(e, 0, 1);
        aggregateDiff(e, 0, 1, groupOfNode, names);
      }, 5),
    ],
    ['ensemble call graph + per-function spread (CodeLens)', timeIt(() => functionSpreads(e, ensembleCallGraph(e)), 3)],
    [
      'order by ranks + out-of-order scan of all nodes',
      timeIt(() => outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive'), 3),
    ],
    ['parameter projection (features → MDS → k-means)', timeIt(() => projectRuns(e), 1)],
    [
      'structure projection (weighted Jaccard → MDS → k-means)',
      timeIt(() => projectRuns(e, { input: 'structure' }), 1),
    ],
  ];
  for (const [label, t] of rows) console.log(`  ${label.padEnd(62)} ${fmt(t)}`);
  const flagged = outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive');
  console.log(
    `  out-of-order nodes found: ${flagged.length} (planted: ${synthetic.outOfOrderPath.join(' → ')}; found ${flagged.some(f => e.tree.path(f.node).join('/') === synthetic.outOfOrderPath.join('/')) ? 'yes' : 'no'})`,
  );

  // The Ensemble-Sankey message (ensembleGraph) per interaction, on the ensemble as a profile.
  t0 = performance.now();
  const ep = new EnsembleProfile(synthetic.runs, { path: 'synthetic' });
  console.log(`  ensemble profile (union + per-run matrices as a Profile): ${fmt(ms(t0))}`);
  const view = (over: Partial<EnsembleViewState> = {}, options: Partial<EnsembleOptions> = {}): EnsembleViewState => ({
    mode: 'summary',
    target: null,
    diff: null,
    runs: null,
    selected: null,
    ...over,
    options: { ...DEFAULT_ENSEMBLE_OPTIONS, ...options },
  });
  const graphOf = (state: EnsembleViewState) => ensembleGraph(ep, { state, title: 'bench' });
  const summary = graphOf(view());
  const subset = Array.from({ length: Math.min(100, runs) }, (_, k) => Math.floor((k * runs) / Math.min(100, runs)));
  const graphRows: [string, number][] = [
    [
      `ensemble graph, summary (${summary.data.nodes.length} supernodes, ${summary.data.links.length} links)`,
      timeIt(() => graphOf(view()), 5),
    ],
    ['ensemble graph, target switch', timeIt(() => graphOf(view({ mode: 'target', target: (target + 1) % runs })), 5)],
    [
      'ensemble graph, diff pair switch',
      timeIt(() => graphOf(view({ mode: 'diff', diff: { baseline: 0, compare: runs - 1 } })), 5),
    ],
    [`ensemble graph, subset of ${subset.length} runs`, timeIt(() => graphOf(view({ runs: subset })), 5)],
    ['ensemble graph, ordered by ranks (sparklines)', timeIt(() => graphOf(view({}, { orderBy: 'ranks' })), 5)],
  ];
  for (const [label, t] of graphRows) console.log(`  ${label.padEnd(62)} ${fmt(t)}`);
  console.log(
    `  ensemble graph message: ${(JSON.stringify(summary.data).length / 1e6).toFixed(2)} MB of JSON (${runs <= MAX_RUN_VALUES ? 'with' : 'without'} per-run values)`,
  );
  benchEnsembleDetail(ep, summary.graph, `${runs} runs`);
  benchEnsembleDetail(
    new EnsembleProfile(generateSyntheticEnsemble({ runs: 100, nodes: 40, maxContexts: 16 }).runs, {
      path: 'osu-like',
    }),
    null,
    '100 OSU-like runs (16 ranks, ~40 call sites)',
  );

  // From disk, through the json-split reader: AT-11's 100 small profiles, then 100 runs × 2,000 nodes.
  for (const [n, size, contexts] of [
    [100, 40, 16],
    [100, 2000, 4],
  ] as const) {
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
      console.log(
        `  from disk, ${n} json-split runs × ~${size} nodes × ${contexts} ranks: load ${fmt(load)} (this thread), union + statistics ${fmt(build)}, ${loaded.errors.length} errors`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * The linked views' data for one selection (ensembleDetail: hierarchy, box plots over every rank of
 * every run, correlation points, distributions) on the supernode with the most call-tree nodes —
 * AT-11's budget is < 100 ms per selection. `graph` null: the super graph over all runs is built here.
 */
function benchEnsembleDetail(ep: EnsembleProfile, graph: SuperGraph | null, label: string): void {
  const g = graph ?? superGraph(ep.profile);
  const heaviest = g.nodes.reduce((a, b) => (b.members.length > a.members.length ? b : a));
  const R = ep.runCount;
  const view = (over: Partial<EnsembleViewState> = {}): EnsembleViewState => ({
    mode: 'summary',
    target: null,
    diff: null,
    runs: null,
    selected: heaviest.id,
    ...over,
    options: DEFAULT_ENSEMBLE_OPTIONS,
  });
  const t0 = performance.now();
  const first = ensembleDetail(ep, g, heaviest.id, view())!;
  const cold = ms(t0);
  const half = Array.from({ length: Math.ceil(R / 2) }, (_, k) => 2 * k);
  const rows: [string, number][] = [
    ['summary', timeIt(() => ensembleDetail(ep, g, heaviest.id, view()), 5)],
    ['target mode', timeIt(() => ensembleDetail(ep, g, heaviest.id, view({ mode: 'target', target: R - 1 })), 5)],
    [`subset of ${half.length} runs`, timeIt(() => ensembleDetail(ep, g, heaviest.id, view({ runs: half })), 5)],
  ];
  const sent = `${first.hierarchy.nodes.length} icicle nodes, ${first.callSites.length} boxes (+${first.callSitesTruncated}), ${first.correlation.run.length} points, ${(JSON.stringify(first).length / 1e6).toFixed(2)} MB`;
  console.log(
    `  linked views of ${heaviest.id} (${heaviest.members.length} nodes) over ${label}: first ${fmt(cold)}; ${rows.map(([k, t]) => `${k} ${fmt(t)}`).join(', ')} (target < 100 ms: ${Math.max(...rows.map(r => r[1])) < 100 ? 'met' : 'NOT met'}); ${sent}`,
  );
}
