/**
 * Synthetic data for the ensemble linked views' tests and screenshots: an ensemble of runs over a
 * sweep of rank counts and compilers, whose selected supernode holds a tree of call sites with
 * per-rank values in every run. From those raw values it builds what the host sends — the
 * supernode hierarchy, box statistics per call site, the correlation points, the runtime
 * distributions and the parameter projection — with the analysis library's statistics, so the
 * numbers are consistent with each other the way real data is (children's inclusive ≤ parent's,
 * exclusive ≤ inclusive, quartiles of the actual values). Deterministic for a seed.
 */
import {
  DEFAULT_ENSEMBLE_OPTIONS,
  MAX_OUTLIERS,
  type BoxStatistics,
  type CallSiteBox,
  type DistributionHistogram,
  type EnsembleDetailData,
  type EnsembleGraphData,
  type EnsembleHistogram,
  type EnsembleMode,
  type EnsembleNodeData,
  type EnsembleOptions,
  type EnsembleProjectionData,
  type EnsembleRunInfo,
  type EnsembleSide,
  type EnsembleViewState,
  type HierarchyNodeData,
} from '../../../../../src/shared/ensemble-protocol';
import { runHistogram, valueBox } from '../../../../../src/analysis/ensemble/node-statistics';
import { classicalMds, euclideanDistances, kMeans } from '../../../../../src/analysis/ensemble/projection';
import { binOf } from '../../../../../src/analysis/stats/histogram';
import { seededRandom } from '../../../../../src/analysis/stats/seeded-random';

export interface DetailFixtureOptions {
  runs?: number;
  /** Call sites in the selected supernode (the hierarchy's nodes). */
  callSites?: number;
  mode?: EnsembleMode;
  /** Target run (mode `target`); default the slowest run. */
  target?: number;
  /** Call sites (by index, ≥ 1) missing in the target run, with their subtrees. */
  missingInTarget?: number[];
  /** Ranks stored per run: the first min(ranks, maxRanks). */
  maxRanks?: number;
  /** Run subset of `state.runs` (views dim the others; values here are still over all runs). */
  runSubset?: number[] | null;
  options?: Partial<EnsembleOptions>;
  /** Hierarchy call sites / call-site boxes / correlation points the host left out. */
  truncated?: { hierarchy?: number; callSites?: number; correlation?: number };
  /** Set `projection.unavailable` with this reason (and no points). */
  projectionUnavailable?: string;
  seed?: number;
}

export interface DetailFixture {
  data: EnsembleGraphData;
  state: EnsembleViewState;
  detail: EnsembleDetailData;
  projection: EnsembleProjectionData;
  /** Raw values: [call site, in hierarchy order][run] → per-rank values (null where the call site is missing in the run). */
  perRank: { inclusive: (number[] | null)[][]; exclusive: (number[] | null)[][] };
}

const RANKS = [8, 16, 32, 64, 128, 256, 512];
const COMPILERS = ['gcc10', 'clang12', 'intel19'];
const COMPILER_SPEED: Record<string, number> = { gcc10: 1, clang12: 0.93, intel19: 0.87 };
const NAMES = [
  'solve',
  'assemble',
  'apply_bc',
  'smooth',
  'restrict',
  'prolong',
  'residual',
  'dot',
  'axpy',
  'spmv',
  'halo_exchange',
  'pack',
  'unpack',
  'norm2',
  'precond',
  'jacobi',
  'gauss_seidel',
  'coarse_solve',
  'interp',
  'update',
];
export const FIXTURE_NODE_ID = 'solver';
export const FIXTURE_BINS = 20;

const mean = (v: readonly number[]): number => v.reduce((a, b) => a + b, 0) / v.length;

/** Box statistics of values with their run and rank, by the analysis library's rules (the host's §4.4 numbers). */
export function fixtureBox(
  values: readonly { value: number; run: number; rank: number }[],
  iqrFactor: number,
): BoxStatistics {
  const {
    outliers,
    lowFence: _low,
    highFence: _high,
    ...stats
  } = valueBox(
    Float64Array.from(values, v => v.value),
    iqrFactor,
    MAX_OUTLIERS,
  );
  return { ...stats, outliers: Array.from(outliers, k => values[k]!) };
}

const toHistogram = (values: readonly number[], bins: number): EnsembleHistogram => {
  const h = runHistogram(Float64Array.from(values), bins);
  return { min: h.min, max: h.max, counts: Array.from(h.counts) };
};

/** Ensemble and target histograms on the union range of both (§4.6). */
function distribution(
  values: readonly number[],
  target: readonly number[] | null,
  unit: string,
): DistributionHistogram {
  const all = target ? [...values, ...target] : values;
  const lo = Math.min(...all),
    hi = Math.max(...all);
  const edges = Array.from({ length: FIXTURE_BINS + 1 }, (_, b) =>
    b === FIXTURE_BINS ? hi : lo + (b * (hi - lo)) / FIXTURE_BINS,
  );
  const count = (vs: readonly number[]) => {
    const c = new Array<number>(FIXTURE_BINS).fill(0);
    for (const v of vs) c[binOf(v, lo, hi, FIXTURE_BINS)]!++;
    return c;
  };
  return { edges, counts: count(values), targetCounts: target ? count(target) : null, unit };
}

export function detailFixture(o: DetailFixtureOptions = {}): DetailFixture {
  const R = o.runs ?? 24;
  const N = o.callSites ?? 12;
  const maxRanks = o.maxRanks ?? 8;
  const rand = seededRandom(o.seed ?? 11);
  const options: EnsembleOptions = { ...DEFAULT_ENSEMBLE_OPTIONS, ...o.options };
  const side: EnsembleSide = options.gradientSide;

  // Runs: a rank-count × compiler sweep with repetitions; compute strong-scales, MPI grows with log2(ranks).
  const configs = Array.from({ length: R }, (_, r) => ({
    ranks: RANKS[r % RANKS.length]!,
    compiler: COMPILERS[Math.floor(r / RANKS.length) % COMPILERS.length]!,
    repetition: Math.floor(r / (RANKS.length * COMPILERS.length)) + 1,
  }));
  const runName = (r: number) => `${configs[r]!.compiler}/${configs[r]!.ranks}_ranks_${configs[r]!.repetition}`;

  // The call-site tree: a few entry call sites, the others hung below earlier ones (depth ≤ 5).
  const parent: number[] = [],
    depth: number[] = [],
    base: number[] = [],
    isMpi: boolean[] = [];
  const roots = Math.max(1, Math.min(3, Math.ceil(N / 8)));
  for (let i = 0; i < N; i++) {
    if (i < roots) {
      parent.push(-1);
      depth.push(0);
    } else {
      let p: number;
      do p = Math.floor(rand() * i);
      while (depth[p]! >= 4);
      parent.push(p);
      depth.push(depth[p]! + 1);
    }
    base.push(0.02 + rand() ** 2 * 0.6);
    isMpi.push(i % 5 === 4);
  }
  const children = parent.map((_, i) => parent.flatMap((p, c) => (p === i ? [c] : [])));
  const subtree = (i: number): number[] => [i, ...children[i]!.flatMap(subtree)];

  // Which call sites each run lacks: a periodic subtree, and the ones the caller wants missing in the target.
  const slowestGuess = configs.reduce((best, c, r) => (c.ranks < configs[best]!.ranks ? r : best), 0);
  const target = o.target ?? slowestGuess;
  const missing = Array.from({ length: N }, () => new Array<boolean>(R).fill(false));
  if (N > 3) for (const c of subtree(N - 1)) for (let r = 0; r < R; r++) if (r % 4 === 1) missing[c]![r] = true;
  for (const m of o.missingInTarget ?? []) for (const c of subtree(m)) missing[c]![target] = true;

  // Per-rank exclusive values, then inclusive = own + children's, per rank.
  const exclusive: (number[] | null)[][] = [],
    inclusive: (number[] | null)[][] = [];
  for (let i = 0; i < N; i++) {
    exclusive.push([]);
    inclusive.push([]);
  }
  for (let r = 0; r < R; r++) {
    const c = configs[r]!;
    const K = Math.min(c.ranks, maxRanks);
    const imbalance = Array.from({ length: K }, () => 0.2 * (rand() - 0.5));
    // One slow rank now and then: the outliers box plots are for.
    const straggler = rand() < 0.3 ? Math.floor(rand() * K) : -1;
    for (let i = 0; i < N; i++) {
      if (missing[i]![r]) {
        exclusive[i]![r] = null;
        continue;
      }
      const scale = isMpi[i] ? Math.log2(c.ranks) / 6 : (512 / c.ranks) * 0.05 * COMPILER_SPEED[c.compiler]!;
      const noisy = base[i]! * scale * (1 + 0.06 * (rand() - 0.5));
      exclusive[i]![r] = imbalance.map((b, k) => noisy * (1 + b) * (k === straggler ? 2.2 : 1));
    }
    for (let i = N - 1; i >= 0; i--) {
      const own = exclusive[i]![r];
      if (!own) {
        inclusive[i]![r] = null;
        continue;
      }
      inclusive[i]![r] = own.map((v, k) => v + children[i]!.reduce((s, ch) => s + (inclusive[ch]![r]?.[k] ?? 0), 0));
    }
  }
  const perSide = side === 'inclusive' ? inclusive : exclusive;
  const runMean = (values: (number[] | null)[][], i: number, r: number) => {
    const v = values[i]![r];
    return v ? mean(v) : null;
  };
  const presentRuns = (i: number) => Array.from({ length: R }, (_, r) => r).filter(r => !missing[i]![r]);
  const mode: EnsembleMode = o.mode ?? 'summary';
  const inTargetMode = mode === 'target';

  // The supernode hierarchy (§4.3): width = max inclusive over runs, gradient = histogram over runs.
  const hierarchyNodes: HierarchyNodeData[] = [];
  const order = [...parent.keys()].sort((a, b) => depth[a]! - depth[b]! || a - b);
  const position = new Map(order.map((i, k) => [i, k]));
  for (const i of order) {
    const runs = presentRuns(i);
    const inc = runs.map(r => runMean(inclusive, i, r)!),
      exc = runs.map(r => runMean(exclusive, i, r)!);
    const name = NAMES[i % NAMES.length]! + (i >= NAMES.length ? `_${Math.floor(i / NAMES.length)}` : '');
    hierarchyNodes.push({
      parent: parent[i]! < 0 ? -1 : position.get(parent[i]!)!,
      name,
      file: `src/solver/${name.split('_')[0]}.c`,
      line: 40 + 17 * i,
      kind: 'function',
      maxInclusive: Math.max(...inc),
      maxExclusive: Math.max(...exc),
      gradient: toHistogram(side === 'inclusive' ? inc : exc, FIXTURE_BINS),
      present: runs.length,
      ...(inTargetMode ? { inTarget: !missing[i]![target], targetValue: runMean(perSide, i, target) } : {}),
      function: name,
    });
  }
  const countScale = Math.max(1, ...hierarchyNodes.flatMap(n => n.gradient.counts));

  // Call-site boxes over every rank of every run (§4.4), in hierarchy order.
  const callSites: CallSiteBox[] = order.map(i => {
    const node = hierarchyNodes[position.get(i)!]!;
    const values = presentRuns(i).flatMap(r => perSide[i]![r]!.map((value, rank) => ({ value, run: r, rank })));
    const targetValues = perSide[i]![target]?.map((value, rank) => ({ value, run: target, rank }));
    const path: string[] = [];
    for (let p = i; p >= 0; p = parent[p]!) path.unshift(hierarchyNodes[position.get(p)!]!.name);
    return {
      name: node.name,
      file: node.file,
      line: node.line,
      ensemble: fixtureBox(values, options.iqrFactor),
      ...(inTargetMode ? { target: targetValues ? fixtureBox(targetValues, options.iqrFactor) : null } : {}),
      present: node.present,
      path: path.join(' → '),
    };
  });

  // Correlation points: one per call site × run where it exists.
  const correlation = {
    callSites: callSites.map(c => c.name),
    callSite: [] as number[],
    run: [] as number[],
    inclusive: [] as number[],
    exclusive: [] as number[],
    truncated: o.truncated?.correlation ?? 0,
  };
  order.forEach((i, k) => {
    for (const r of presentRuns(i)) {
      correlation.callSite.push(k);
      correlation.run.push(r);
      correlation.inclusive.push(runMean(inclusive, i, r)!);
      correlation.exclusive.push(runMean(exclusive, i, r)!);
    }
  });

  // Runtime distributions of the supernode (§4.6): its value = the entry call sites' sum.
  const rootIds = order.filter(i => parent[i] === -1);
  const supernodeRun = (r: number) => rootIds.reduce((s, i) => s + (runMean(perSide, i, r) ?? 0), 0);
  const supernodeRanks = (r: number) => {
    const K = Math.min(configs[r]!.ranks, maxRanks);
    return Array.from({ length: K }, (_, k) => rootIds.reduce((s, i) => s + (perSide[i]![r]?.[k] ?? 0), 0));
  };
  const callSiteMeans = order.map(i => mean(presentRuns(i).map(r => runMean(perSide, i, r)!)));
  const allRuns = Array.from({ length: R }, (_, r) => r);
  const distributionData = {
    callsite: distribution(
      callSiteMeans,
      inTargetMode ? order.filter(i => !missing[i]![target]).map(i => runMean(perSide, i, target)!) : null,
      'call sites',
    ),
    run: distribution(allRuns.map(supernodeRun), inTargetMode ? [supernodeRun(target)] : null, 'runs'),
    rank: distribution(allRuns.flatMap(supernodeRanks), inTargetMode ? supernodeRanks(target) : null, 'ranks'),
  };

  const totals = allRuns.map(r => supernodeRun(r) * 1.25);
  const runs: EnsembleRunInfo[] = allRuns.map(r => ({
    index: r,
    name: runName(r),
    path: `${runName(r)}.cali`,
    format: 'caliper',
    ranks: configs[r]!.ranks,
    parameters: { ranks: configs[r]!.ranks, compiler: configs[r]!.compiler, repetition: configs[r]!.repetition },
    total: totals[r]!,
  }));

  // Parameter projection: min–max scaled log2(ranks), compiler code and runtime → MDS → k-means (§2.11).
  let projection: EnsembleProjectionData;
  if (o.projectionUnavailable) {
    projection = {
      input: options.projectionInput,
      features: [],
      points: [],
      k: 3,
      unavailable: o.projectionUnavailable,
    };
  } else {
    const F = 3;
    const raw = allRuns.map(r => [Math.log2(configs[r]!.ranks), COMPILERS.indexOf(configs[r]!.compiler), totals[r]!]);
    const matrix = new Float64Array(R * F);
    for (let f = 0; f < F; f++) {
      const col = raw.map(v => v[f]!),
        lo = Math.min(...col),
        hi = Math.max(...col);
      col.forEach((v, r) => {
        matrix[r * F + f] = hi > lo ? (v - lo) / (hi - lo) : 0;
      });
    }
    const { coordinates } = classicalMds(euclideanDistances(matrix, R, F), R, 2);
    const k = Math.min(3, R);
    const labels = kMeans(coordinates, R, 2, k).labels;
    projection = {
      input: options.projectionInput,
      features: ['ranks', 'compiler', 'runtime'],
      k,
      unavailable: null,
      points: allRuns.map(r => ({
        run: r,
        x: coordinates[2 * r]!,
        y: coordinates[2 * r + 1] ?? 0,
        cluster: labels[r]!,
      })),
    };
  }

  const superInc = allRuns.map(r => rootIds.reduce((s, i) => s + (runMean(inclusive, i, r) ?? 0), 0));
  const superExc = allRuns.map(r => order.reduce((s, i) => s + (runMean(exclusive, i, r) ?? 0), 0));
  const argmax = (v: number[]) => v.indexOf(Math.max(...v));
  const node: EnsembleNodeData = {
    id: FIXTURE_NODE_ID,
    label: 'solver',
    module: 'solver',
    kind: 'module',
    baseId: FIXTURE_NODE_ID,
    occurrence: 0,
    maxInclusive: Math.max(...superInc),
    maxExclusive: Math.max(...superExc),
    minInclusive: Math.min(...superInc),
    minExclusive: Math.min(...superExc),
    maxInclusiveRun: argmax(superInc),
    maxExclusiveRun: argmax(superExc),
    present: R,
    gradient: { inclusive: toHistogram(superInc, FIXTURE_BINS), exclusive: toHistogram(superExc, FIXTURE_BINS) },
    entries: rootIds.map(i => ({
      name: hierarchyNodes[position.get(i)!]!.name,
      maxInclusive: hierarchyNodes[position.get(i)!]!.maxInclusive,
      file: hierarchyNodes[position.get(i)!]!.file,
      line: hierarchyNodes[position.get(i)!]!.line,
    })),
    entryCount: rootIds.length,
    callers: [],
    memberCount: N,
    functionCount: N,
  };
  const data: EnsembleGraphData = {
    title: 'solver sweep',
    metric: { name: 'time', unit: 's' },
    runs,
    selectedRuns: allRuns,
    nodes: [node],
    links: [],
    countScale: {
      inclusive: Math.max(...node.gradient.inclusive.counts),
      exclusive: Math.max(...node.gradient.exclusive.counts),
    },
    borderDomain: {
      inclusive: [node.maxInclusive, node.maxInclusive],
      exclusive: [node.maxExclusive, node.maxExclusive],
    },
    orderKeys: ['ranks', 'compiler'],
    filter: { threshold: 0.001, by: 'inclusive', removedNodes: 0, removedFunctions: 0 },
    splits: [],
    unmatched: [],
    bins: FIXTURE_BINS,
    warnings: [],
  };
  const state: EnsembleViewState = {
    mode,
    target: inTargetMode ? target : null,
    diff: mode === 'diff' ? { baseline: 0, compare: Math.min(1, R - 1) } : null,
    runs: o.runSubset ?? null,
    selected: FIXTURE_NODE_ID,
    options,
  };
  const detail: EnsembleDetailData = {
    nodeId: FIXTURE_NODE_ID,
    label: 'solver',
    side,
    hierarchy: { nodes: hierarchyNodes, truncated: o.truncated?.hierarchy ?? 0, countScale },
    callSites,
    callSitesTruncated: o.truncated?.callSites ?? 0,
    correlation,
    distribution: distributionData,
  };
  return {
    data,
    state,
    detail,
    projection,
    perRank: { inclusive: order.map(i => inclusive[i]!), exclusive: order.map(i => exclusive[i]!) },
  };
}
