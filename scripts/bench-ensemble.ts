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
import {
  formatBytes,
  formatMs,
  formatTiming,
  summarise,
  timeOnce,
  timeRepeated,
  timeSync,
  type Timing,
} from './bench-timing';

/** Milliseconds, in seconds from 1 s up; with CPU beside for a timing. */
const fmt = (v: number | Timing) =>
  typeof v === 'number' ? formatMs(v, { digits: 1, seconds: 1000 }) : formatTiming(v, { digits: 1, seconds: 1000 });
const mb = (bytes: number) => formatBytes(bytes, 'MB', 0);

/** Median wall and CPU time of `repeats` calls of f (no warm-up: a view's first answer counts too). */
const timeIt = (f: () => unknown, repeats: number) => timeRepeated(f, { repeats, warmup: 0 });

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
  const generated = timeSync(() => generateSyntheticEnsemble({ runs, nodes, maxContexts: 2 }));
  const synthetic = generated.value;
  const derive = timeSync(() => {
    for (const { profile } of synthetic.runs) {
      profile.inclusiveTotals(0);
      profile.exclusiveTotals(0);
    }
  });

  // Three builds: the first includes JIT warm-up; the median is what a reload costs.
  const unionTimes: Timing[] = [],
    statsTimes: Timing[] = [];
  let e = buildEnsemble(synthetic.runs.slice(0, 1));
  let scale = 0;
  for (let k = 0; k < 3; k++) {
    const built = timeSync(() => buildEnsemble(synthetic.runs));
    e = built.value;
    unionTimes.push(built);
    statsTimes.push(
      timeSync(() => {
        computeNodeStatistics(e, 'inclusive');
        computeNodeStatistics(e, 'exclusive');
        scale = histogramCountScale(e, 'inclusive', 20);
      }),
    );
  }
  const union = summarise(unionTimes),
    stats = summarise(statsTimes);
  const sum = (a: Timing, b: Timing): Timing => ({ wallMs: a.wallMs + b.wallMs, cpuMs: a.cpuMs + b.cpuMs });
  const mem = process.memoryUsage();
  console.log(`  build profiles in memory ${fmt(generated)} (+ per-run totals ${fmt(derive)})`);
  console.log(
    `  union: ${fmt(union)} median of 3 (first ${fmt(union.runs[0]!)}) → ${e.size} nodes; statistics (both sides, all nodes) + global histogram scale (max count ${scale}): ${fmt(stats)} (first ${fmt(stats.runs[0]!)})`,
  );
  console.log(
    `  union + statistics: ${fmt(sum(union, stats))} (first ${fmt(sum(union.runs[0]!, stats.runs[0]!))}; target < 5 s: ${union.wallMs + stats.wallMs < 5000 ? 'met' : 'NOT met'}); heap ${mb(mem.heapUsed)}, array buffers ${mb(mem.arrayBuffers)} (profiles + ensemble), rss ${mb(mem.rss)}`,
  );

  // Interactions, as the views will issue them.
  const root = e.tree.roots()[0]!;
  const busiest = e.tree.children(e.tree.children(root)[0]!)[0] ?? root;
  const target = slowestRun(e);
  const { groupOfNode, names } = modulesOfNodes(e);
  const rows: [string, Timing][] = [
    [
      'hover/select a node: summary, outliers, 20-bin histogram',
      await timeIt(() => summarizeNode(e, busiest, 'inclusive'), 21),
    ],
    ['per-rank values of a node in one run', await timeIt(() => e.perRank(busiest, target, 'inclusive'), 21)],
    [
      'target switch: percentile, z-score, bin for every node',
      await timeIt(() => targetStatistics(e, (target + 1) % e.runCount, 'inclusive'), 3),
    ],
    [
      'diff pair switch: node diffs + module sums',
      await timeIt(() => {
        diffRuns(e, 0, 1);
        aggregateDiff(e, 0, 1, groupOfNode, names);
      }, 5),
    ],
    [
      'ensemble call graph + per-function spread (CodeLens)',
      await timeIt(() => functionSpreads(e, ensembleCallGraph(e)), 3),
    ],
    [
      'order by ranks + out-of-order scan of all nodes',
      await timeIt(() => outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive'), 3),
    ],
    ['parameter projection (features → MDS → k-means)', await timeIt(() => projectRuns(e), 1)],
    [
      'structure projection (weighted Jaccard → MDS → k-means)',
      await timeIt(() => projectRuns(e, { input: 'structure' }), 1),
    ],
  ];
  for (const [label, t] of rows) console.log(`  ${label.padEnd(62)} ${fmt(t)}`);
  const flagged = outOfOrderNodes(e, orderRuns(e, 'ranks'), 'exclusive');
  console.log(
    `  out-of-order nodes found: ${flagged.length} (planted: ${synthetic.outOfOrderPath.join(' → ')}; found ${flagged.some(f => e.tree.path(f.node).join('/') === synthetic.outOfOrderPath.join('/')) ? 'yes' : 'no'})`,
  );

  // The Ensemble-Sankey message (ensembleGraph) per interaction, on the ensemble as a profile.
  const made = timeSync(() => new EnsembleProfile(synthetic.runs, { path: 'synthetic' }));
  const ep = made.value;
  console.log(`  ensemble profile (union + per-run matrices as a Profile): ${fmt(made)}`);
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
  const graphRows: [string, Timing][] = [
    [
      `ensemble graph, summary (${summary.data.nodes.length} supernodes, ${summary.data.links.length} links)`,
      await timeIt(() => graphOf(view()), 5),
    ],
    [
      'ensemble graph, target switch',
      await timeIt(() => graphOf(view({ mode: 'target', target: (target + 1) % runs })), 5),
    ],
    [
      'ensemble graph, diff pair switch',
      await timeIt(() => graphOf(view({ mode: 'diff', diff: { baseline: 0, compare: runs - 1 } })), 5),
    ],
    [`ensemble graph, subset of ${subset.length} runs`, await timeIt(() => graphOf(view({ runs: subset })), 5)],
    ['ensemble graph, ordered by ranks (sparklines)', await timeIt(() => graphOf(view({}, { orderBy: 'ranks' })), 5)],
  ];
  for (const [label, t] of graphRows) console.log(`  ${label.padEnd(62)} ${fmt(t)}`);
  console.log(
    `  ensemble graph message: ${(JSON.stringify(summary.data).length / 1e6).toFixed(2)} MB of JSON (${runs <= MAX_RUN_VALUES ? 'with' : 'without'} per-run values)`,
  );
  await benchEnsembleDetail(ep, summary.graph, `${runs} runs`);
  await benchEnsembleDetail(
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
      const load = await timeOnce(() => loadEnsemble(dir, { concurrency: 4 }));
      const loaded = load.value;
      const build = timeSync(() => computeNodeStatistics(buildEnsemble(loaded.runs), 'inclusive'));
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
async function benchEnsembleDetail(ep: EnsembleProfile, graph: SuperGraph | null, label: string): Promise<void> {
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
  const cold = timeSync(() => ensembleDetail(ep, g, heaviest.id, view())!);
  const first = cold.value;
  const half = Array.from({ length: Math.ceil(R / 2) }, (_, k) => 2 * k);
  const rows: [string, Timing][] = [
    ['summary', await timeIt(() => ensembleDetail(ep, g, heaviest.id, view()), 5)],
    ['target mode', await timeIt(() => ensembleDetail(ep, g, heaviest.id, view({ mode: 'target', target: R - 1 })), 5)],
    [`subset of ${half.length} runs`, await timeIt(() => ensembleDetail(ep, g, heaviest.id, view({ runs: half })), 5)],
  ];
  const sent = `${first.hierarchy.nodes.length} icicle nodes, ${first.callSites.length} boxes (+${first.callSitesTruncated}), ${first.correlation.run.length} points, ${(JSON.stringify(first).length / 1e6).toFixed(2)} MB`;
  console.log(
    `  linked views of ${heaviest.id} (${heaviest.members.length} nodes) over ${label}: first ${fmt(cold)}; ${rows.map(([k, t]) => `${k} ${fmt(t)}`).join(', ')} (target < 100 ms: ${Math.max(...rows.map(r => r[1].wallMs)) < 100 ? 'met' : 'NOT met'}); ${sent}`,
  );
}
