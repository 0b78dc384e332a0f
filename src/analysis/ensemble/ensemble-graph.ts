import { isAbsolute, relative } from 'node:path';
import type {
  EnsembleGraphData,
  EnsembleHistogram,
  EnsembleLinkData,
  EnsembleNodeData,
  EnsembleRunInfo,
  EnsembleSide,
  EnsembleViewState,
} from '../../shared/ensemble-protocol';
import { MAX_RUN_VALUES } from '../../shared/ensemble-protocol';
import { MAX_ENTRIES_SENT } from '../../shared/callflow-protocol';
import { sourceOf } from '../model/node-source';
import {
  superGraph,
  type RepopulateRequest,
  type RevealRequest,
  type SplitRequest,
  type SuperGraph,
  type SuperGraphOptions,
} from '../graph/super-graph';
import { filterData, guardSummary, supernodeFunctionCounts, supernodeLabels } from '../graph/super-graph-data';
import { DEFAULT_SUPERNODE_LIMIT, heaviestWithPaths } from '../layout/supernode-guard';
import type { Ensemble } from './ensemble';
import type { EnsembleProfile } from './ensemble-profile';
import { binCount, binOf, matrixStatistics, runHistogram, type RunHistogram } from './node-statistics';
import { orderingKeys, orderRuns, orderScore, type RunOrder } from './ordered-ensemble';
import { fastestRun, slowestRun, symmetricDomain } from './run-comparison';

/**
 * The ensemble super graph message (CallFlow §4.2, §4.8): the super graph of the ensemble profile
 * (whose contexts are the runs) over the selected runs, with per supernode its run vectors — a
 * supernode exists in a run when any of its member union nodes does, and a missing run is left out
 * of every distribution, never counted as the 0 the profile holds there — maxima (node heights,
 * borders), the run histograms (gradient fills) on one global count scale, and the colouring of
 * the target and diff modes. The graph itself (nodes, ids, order, heights, links) depends only on
 * the run selection and the graph options, never on the target or the diff pair (AT-10).
 */

export interface EnsembleGraphRequest {
  state: EnsembleViewState;
  /** Metric by name (default: the ensemble profile's primary metric). */
  metric?: string;
  moduleMap?: SuperGraphOptions['moduleMap'];
  filter?: SuperGraphOptions['filter'];
  splits?: readonly SplitRequest[];
  reveal?: readonly RevealRequest[];
  /** Folded functions drawn again under the node they were folded into (thesis §3.5). */
  repopulate?: readonly RepopulateRequest[];
  /** At most this many supernodes are sent: the heaviest (max inclusive) with their paths (default 2000). */
  maxSupernodes?: number;
  title: string;
}

/** Which supernodes exist in which runs: a bitset over the ensemble's run indices per supernode. */
export class SupernodePresence {
  constructor(
    /** Words per supernode. */
    readonly words: number,
    /** Bit `run` of word `s · words + (run >> 5)` is set when supernode s exists in the run. */
    readonly bits: Uint32Array,
  ) {}

  isPresent(s: number, run: number): boolean {
    return (this.bits[s * this.words + (run >>> 5)]! & (1 << (run & 31))) !== 0;
  }
}

/** One run's values of every supernode and edge, summed from the union matrices (missing members skipped). */
export interface SupernodeRunValues {
  run: number;
  /** Σ inclusive of the supernode's entry nodes; 0 where the supernode is missing (see `present`). */
  inclusive: Float64Array;
  /** Σ exclusive of its members. */
  exclusive: Float64Array;
  present: Uint8Array;
  /** Flow of each edge of `graph.edges` in the run (0 when absent). */
  edges: Float64Array;
}

export interface EnsembleGraphResult {
  data: EnsembleGraphData;
  /** The super graph over the selected runs (its contexts are positions in `selectedRuns`' order, i.e. the selected run indices). */
  graph: SuperGraph;
  /** The ensemble of the metric (NaN = missing), whose union node ids are the graph's call-tree nodes. */
  ensemble: Ensemble;
  /** Metric index in the ensemble profile. */
  metric: number;
  selectedRuns: Int32Array;
  presence: SupernodePresence;
  /** The target run used (mode `target`; the slowest selected run when the state names none), else null. */
  target: number | null;
  /** The diff pair used (mode `diff`; fastest → slowest selected run when the state names none), else null. */
  diff: { baseline: number; compare: number } | null;
}

export function ensembleGraph(ep: EnsembleProfile, request: EnsembleGraphRequest): EnsembleGraphResult {
  const { state } = request;
  const profile = ep.profile;
  const metricName = request.metric ?? profile.metrics[profile.primaryMetric]!.name;
  const metric = profile.metricIndex(metricName);
  if (metric < 0)
    throw new RangeError(
      `metric "${metricName}" is not in the ensemble (it has ${profile.metrics.map(m => m.name).join(', ')})`,
    );
  const em = ep.ensembleOf(metricName);
  const R = em.runCount;
  const selected = selectRuns(state.runs, R);
  const K = selected.length;
  const binRule = state.options.bins;
  if (binRule !== 'auto') binCount(binRule, []);
  const target =
    state.mode === 'target'
      ? state.target === null
        ? slowestRun(em, selected)
        : checkRun(state.target, R, 'target run')
      : null;
  const diff = state.mode === 'diff' ? diffPair(state.diff, em, selected) : null;

  const graph = superGraph(profile, {
    metric,
    contexts: selected,
    ...(request.filter ? { filter: request.filter } : {}),
    ...(request.moduleMap ? { moduleMap: request.moduleMap } : {}),
    ...(request.splits ? { splits: request.splits } : {}),
    ...(request.reveal ? { reveal: request.reveal } : {}),
    ...(request.repopulate ? { repopulate: request.repopulate } : {}),
  });
  const S = graph.nodes.length;
  const presence = supernodePresence(graph, em);

  // Run vectors over the selected runs, supernode-major, NaN where the supernode is missing: the
  // graph holds the profile's 0 there, which no statistic may see.
  const vectors = { inclusive: new Float64Array(S * K), exclusive: new Float64Array(S * K) };
  graph.nodes.forEach((nd, s) => {
    for (let k = 0; k < K; k++) {
      const here = presence.isPresent(s, selected[k]!);
      vectors.inclusive[s * K + k] = here ? nd.inclusiveByContext[k]! : NaN;
      vectors.exclusive[s * K + k] = here ? nd.exclusiveByContext[k]! : NaN;
    }
  });
  const stats = {
    inclusive: matrixStatistics(vectors.inclusive, S, K),
    exclusive: matrixStatistics(vectors.exclusive, S, K),
  };
  const rowOf = (side: EnsembleSide, s: number) => vectors[side].subarray(s * K, (s + 1) * K);
  const histograms = graph.nodes.map((_, s) => ({
    inclusive: runHistogram(rowOf('inclusive', s), binRule),
    exclusive: runHistogram(rowOf('exclusive', s), binRule),
  }));

  // Links: the max over the selected runs of each edge's flow. Maxima of different runs, so a
  // node's outgoing links may add up to more than its height (AT-14: the layout tapers the ends).
  const links: EnsembleLinkData[] = graph.edges.map(e => ({
    source: e.source,
    target: e.target,
    value: maxOf(e.valueByContext),
  }));
  // The guard (heights = max inclusive): nodes left out are dropped from the message at the end,
  // after the colouring, which indexes nodes as the graph does.
  const limit = request.maxSupernodes ?? DEFAULT_SUPERNODE_LIMIT;
  const guard = heaviestWithPaths(
    stats.inclusive.max.map(finiteOr0),
    graph.edges.map((e, i) => ({ from: e.from, to: e.to, value: links[i]!.value })),
    limit,
  );
  const shownLink = (e: number) => guard.keep[graph.edges[e]!.from] === 1 && guard.keep[graph.edges[e]!.to] === 1;
  const callers: { id: string; value: number }[][] = graph.nodes.map(() => []);
  links.forEach((l, e) => {
    if (shownLink(e)) callers[graph.edges[e]!.to]!.push({ id: l.source, value: l.value });
  });
  for (const list of callers) list.sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : 1));

  const labels = supernodeLabels(graph);
  const functionCounts = supernodeFunctionCounts(graph, profile.tree);
  const sendRunValues = K <= MAX_RUN_VALUES;
  const nodes = graph.nodes.map((nd, s): EnsembleNodeData => {
    const inc = stats.inclusive,
      exc = stats.exclusive;
    const entries = nd.entries
      .map(e => ({ e, max: maxOverRuns(em, e.nodes, selected) }))
      .sort((a, b) => b.max - a.max || (a.e.name < b.e.name ? -1 : a.e.name > b.e.name ? 1 : 0));
    return {
      id: nd.id,
      label: labels[s]!,
      module: nd.module,
      kind: nd.kind,
      baseId: nd.base,
      occurrence: nd.occurrence,
      maxInclusive: finiteOr0(inc.max[s]!),
      maxExclusive: finiteOr0(exc.max[s]!),
      minInclusive: finiteOr0(inc.min[s]!),
      minExclusive: finiteOr0(exc.min[s]!),
      maxInclusiveRun: inc.maxRun[s]! >= 0 ? selected[inc.maxRun[s]!]! : -1,
      maxExclusiveRun: exc.maxRun[s]! >= 0 ? selected[exc.maxRun[s]!]! : -1,
      present: inc.present[s]!,
      ...(sendRunValues
        ? { runValues: { inclusive: nullable(rowOf('inclusive', s)), exclusive: nullable(rowOf('exclusive', s)) } }
        : {}),
      gradient: {
        inclusive: histogramData(histograms[s]!.inclusive),
        exclusive: histogramData(histograms[s]!.exclusive),
      },
      entries: entries
        .slice(0, MAX_ENTRIES_SENT)
        .map(({ e, max }) => ({ name: e.name, maxInclusive: max, ...sourceOf(profile, e.hottest) })),
      entryCount: nd.entries.length,
      callers: callers[s]!,
      memberCount: nd.members.length,
      functionCount: functionCounts[s]!,
      ...(nd.filteredCallees.length
        ? {
            filteredCallees: nd.filteredCallees.slice(0, MAX_ENTRIES_SENT).map(c => ({
              name: c.name,
              maxInclusive: maxOverRuns(em, c.nodes, selected),
              count: c.nodes.length,
              ...sourceOf(profile, c.hottest),
            })),
            filteredCalleeCount: nd.filteredCallees.length,
          }
        : {}),
      ...(guard.omittedOutflow[s]! > 0 ? { omittedInclusive: guard.omittedOutflow[s]! } : {}),
    };
  });
  const shownNodes = nodes.filter((_, s) => guard.keep[s]);

  const shownHistograms = histograms.filter((_, s) => guard.keep[s]);
  const data: EnsembleGraphData = {
    title: request.title,
    metric: { name: profile.metrics[metric]!.label || metricName, unit: profile.metrics[metric]!.unit },
    runs: runInfos(ep, em),
    selectedRuns: Array.from(selected),
    nodes,
    links,
    countScale: {
      inclusive: countScale(shownHistograms, 'inclusive'),
      exclusive: countScale(shownHistograms, 'exclusive'),
    },
    borderDomain: {
      inclusive: domainOf(shownNodes.map(n => n.maxInclusive)),
      exclusive: domainOf(shownNodes.map(n => n.maxExclusive)),
    },
    orderKeys: orderingKeys(em).map(k => k.key),
    filter: filterData(graph),
    splits: (request.splits ?? []).map(sp => ({ node: sp.node, mode: sp.mode })),
    ...(request.repopulate?.length
      ? {
          repopulate: request.repopulate.map(r => ({ node: r.node, function: r.function })),
          unmatchedRepopulate: graph.unmatchedRepopulate.map(u => ({ ...u })),
        }
      : {}),
    ...(guardSummary(guard, limit) ? { guard: guardSummary(guard, limit)! } : {}),
    unmatched: graph.unmatched,
    bins:
      binRule === 'auto'
        ? Math.max(
            1,
            ...histograms.map(h => h.inclusive.counts.length),
            ...histograms.map(h => h.exclusive.counts.length),
          )
        : binRule,
    // Runs left out (no such metric) and files that could not be read, as the profile lists them.
    warnings: [...profile.warnings],
  };

  // Colouring only from here on: nothing below changes the graph (AT-10).
  const edgeIndex = new Map<number, number>();
  graph.edges.forEach((e, i) => edgeIndex.set(e.from * S + e.to, i));
  if (target !== null) {
    const tv = supernodeRunValues(graph, em, target, edgeIndex);
    nodes.forEach((n, s) => {
      const here = tv.present[s] === 1;
      const bin = (side: EnsembleSide) => {
        const h = histograms[s]![side];
        return here && h.missing < K ? binOf(tv[side][s]!, h.min, h.max, h.counts.length) : -1;
      };
      n.target = {
        inclusive: here ? tv.inclusive[s]! : null,
        exclusive: here ? tv.exclusive[s]! : null,
        binInclusive: bin('inclusive'),
        binExclusive: bin('exclusive'),
      };
    });
    links.forEach((l, e) => {
      l.targetValue = tv.edges[e]!;
    });
  }
  if (diff !== null) {
    // CallFlow's module diff (§2.10, aggregateDiff with the supernode map): Σ member exclusives in
    // compare − the same in baseline. A supernode missing on one side counts 0 there — one that
    // exists only in the compare run is a pure slowdown, only in the baseline a pure speedup —
    // and the diff is null only when it exists in neither run.
    const vb = supernodeRunValues(graph, em, diff.baseline, edgeIndex);
    const vc = supernodeRunValues(graph, em, diff.compare, edgeIndex);
    const exclusiveDiffs: number[] = [];
    nodes.forEach((n, s) => {
      const hb = vb.present[s] === 1,
        hc = vc.present[s] === 1;
      if (!hb && !hc) {
        n.diff = { exclusive: null, inclusive: null, baseline: null, compare: null };
        return;
      }
      const exclusive = vc.exclusive[s]! - vb.exclusive[s]!;
      if (guard.keep[s]) exclusiveDiffs.push(exclusive);
      n.diff = {
        exclusive,
        inclusive: vc.inclusive[s]! - vb.inclusive[s]!,
        baseline: hb ? vb.exclusive[s]! : null,
        compare: hc ? vc.exclusive[s]! : null,
      };
    });
    links.forEach((l, e) => {
      l.diff = vc.edges[e]! - vb.edges[e]!;
    });
    data.diffDomain = symmetricDomain(exclusiveDiffs);
  }
  if (state.options.orderBy !== null)
    orderedEnsemble(data, em, selected, vectors, state.options.orderBy, state.options.gradientSide);
  if (guard.omitted > 0) {
    data.nodes = shownNodes;
    data.links = links.filter((_, e) => shownLink(e));
  }

  return { data, graph, ensemble: em, metric, selectedRuns: selected, presence, target, diff };
}

/**
 * Ordered ensemble (§8 limitations 14 and 16): the selected runs' levels of the parameter and, per
 * node and side, the mean over each level's runs where the node exists (a sparkline of runtime
 * against the order); `outOfOrder` when the gradient side's series steps against its own trend by
 * more than orderScore's tolerance. A parameter none of the selected runs has gives a warning, not
 * an error: the user may have sub-selected runs after choosing it.
 */
function orderedEnsemble(
  data: EnsembleGraphData,
  em: Ensemble,
  selected: Int32Array,
  vectors: Record<EnsembleSide, Float64Array>,
  key: string,
  side: EnsembleSide,
): void {
  const positionOf = new Int32Array(em.runCount).fill(-1);
  selected.forEach((r, k) => {
    positionOf[r] = k;
  });
  let order: RunOrder;
  try {
    order = orderRuns(em, key);
  } catch (e) {
    data.warnings.push(`cannot order by "${key}": ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const levels: (string | number)[] = [];
  const runsAtLevel: number[][] = [];
  order.runsAtLevel.forEach((runs, l) => {
    const kept = runs.filter(r => positionOf[r]! >= 0);
    if (kept.length) {
      levels.push(order.levels[l]!);
      runsAtLevel.push(kept);
    }
  });
  if (levels.length === 0) {
    data.warnings.push(`cannot order by "${key}": none of the selected runs has it`);
    return;
  }
  // Runs without the parameter go under "unordered": named in the legend, never placed at a guessed level.
  const unordered = order.unordered.filter(r => positionOf[r]! >= 0);
  data.order = { key, levels, runsAtLevel, ...(unordered.length ? { unordered } : {}) };
  const K = selected.length;
  const series = (s: number, which: EnsembleSide) =>
    runsAtLevel.map(runs => {
      let sum = 0,
        n = 0;
      for (const r of runs) {
        const v = vectors[which][s * K + positionOf[r]!]!;
        if (v === v) {
          sum += v;
          n++;
        }
      }
      return n > 0 ? sum / n : null;
    });
  data.nodes.forEach((n, s) => {
    const inclusive = series(s, 'inclusive'),
      exclusive = series(s, 'exclusive');
    const chosen = side === 'inclusive' ? inclusive : exclusive;
    const score = orderScore(chosen.map(v => v ?? NaN));
    n.sparkline = { inclusive, exclusive, outOfOrder: score.inversions.length > 0 };
  });
}

/** A validated run subset, ascending (null = every run); RangeError naming the bad index. */
export function selectRuns(runs: readonly number[] | null, R: number): Int32Array {
  if (runs === null) return Int32Array.from({ length: R }, (_, r) => r);
  if (runs.length === 0) throw new RangeError('the run subset is empty: the ensemble views need at least one run');
  const seen = new Uint8Array(R);
  for (const r of runs) {
    checkRun(r, R, 'selected run');
    if (seen[r]) throw new RangeError(`run ${r} is selected twice`);
    seen[r] = 1;
  }
  return Int32Array.from(runs).sort();
}

function checkRun(run: number, R: number, what: string): number {
  if (!(Number.isInteger(run) && run >= 0 && run < R))
    throw new RangeError(`${what} ${run} is not in the ensemble (it has ${R} runs, 0–${R - 1})`);
  return run;
}

function diffPair(
  pair: EnsembleViewState['diff'],
  em: Ensemble,
  selected: Int32Array,
): { baseline: number; compare: number } {
  if (pair === null) return { baseline: fastestRun(em, selected), compare: slowestRun(em, selected) };
  return {
    baseline: checkRun(pair.baseline, em.runCount, 'diff baseline run'),
    compare: checkRun(pair.compare, em.runCount, 'diff compare run'),
  };
}

/** OR of the member union nodes' presence bits. */
function supernodePresence(graph: SuperGraph, em: Ensemble): SupernodePresence {
  const W = em.presenceWords;
  const bits = new Uint32Array(graph.nodes.length * W);
  graph.nodes.forEach((nd, s) => {
    for (const u of nd.members) for (let w = 0; w < W; w++) bits[s * W + w]! |= em.presence[u * W + w]!;
  });
  return new SupernodePresence(W, bits);
}

/**
 * Every supernode's and edge's value in one run (any run, selected or not), from the union
 * matrices: the same sums, in the same member order, as superGraph's per-context values (the
 * profile's zeros for missing members added nothing there), so a selected run gets identical numbers.
 */
export function supernodeRunValues(
  graph: SuperGraph,
  em: Ensemble,
  run: number,
  edgeIndex?: Map<number, number>,
): SupernodeRunValues {
  checkRun(run, em.runCount, 'run');
  const S = graph.nodes.length,
    R = em.runCount;
  const index = edgeIndex ?? new Map(graph.edges.map((e, i) => [e.from * S + e.to, i] as const));
  const inclusive = new Float64Array(S),
    exclusive = new Float64Array(S),
    present = new Uint8Array(S),
    edges = new Float64Array(graph.edges.length);
  const { superOf, parent } = graph;
  graph.nodes.forEach((nd, s) => {
    for (const u of nd.members) {
      if (!em.isPresent(u, run)) continue;
      present[s] = 1;
      exclusive[s]! += em.exclusive[u * R + run]!;
      const p = parent[u]!;
      if (p >= 0 && superOf[p] === s) continue; // not an entry: its time is in its entry's inclusive
      const v = em.inclusive[u * R + run]!;
      inclusive[s]! += v;
      if (p >= 0) {
        const e = index.get(superOf[p]! * S + s);
        if (e !== undefined) edges[e]! += v;
      }
    }
  });
  return { run, inclusive, exclusive, present, edges };
}

/** Max over the selected runs of Σ inclusive of the given union nodes (runs where none exists are skipped). */
function maxOverRuns(em: Ensemble, nodes: Int32Array, selected: Int32Array): number {
  const K = selected.length,
    R = em.runCount;
  const sums = new Float64Array(K).fill(NaN);
  for (const u of nodes) {
    const row = u * R;
    for (let k = 0; k < K; k++) {
      const v = em.inclusive[row + selected[k]!]!;
      if (v === v) sums[k] = sums[k] === sums[k] ? sums[k]! + v : v;
    }
  }
  return finiteOr0(maxOf(sums));
}

function maxOf(values: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return m === -Infinity ? NaN : m;
}

function finiteOr0(v: number): number {
  return Number.isFinite(v) ? v : 0;
}

function nullable(values: Float64Array): (number | null)[] {
  return Array.from(values, v => (v === v ? v : null));
}

/** A node present in no selected run (possible with a zero filter threshold) has an empty [0, 0] histogram. */
function histogramData(h: RunHistogram): EnsembleHistogram {
  return { min: finiteOr0(h.min), max: finiteOr0(h.max), counts: Array.from(h.counts) };
}

function countScale(histograms: { inclusive: RunHistogram; exclusive: RunHistogram }[], side: EnsembleSide): number {
  let best = 0;
  for (const h of histograms) for (const c of h[side].counts) if (c > best) best = c;
  return best;
}

function domainOf(values: number[]): [number, number] {
  return values.length ? [Math.min(...values), Math.max(...values)] : [0, 0];
}

function runInfos(ep: EnsembleProfile, em: Ensemble): EnsembleRunInfo[] {
  const folder = ep.profile.path;
  return em.runs.map((run, index) => {
    const rel = relative(folder, run.path);
    return {
      index,
      name: run.name,
      path: rel === '' ? run.name : rel.startsWith('..') || isAbsolute(rel) ? run.path : rel,
      format: run.format,
      ranks: run.ranks,
      parameters: { ...run.parameters },
      total: em.runTotal(index),
    };
  });
}
