import { median } from 'simple-statistics';
import { throwIfAborted } from '../model/cancellation';
import type { Profile } from '../model/profile';
import { Clusterer, type ClusterSet } from './clustering';
import type { ClusterMerge } from './model/trace-analysis-view';
import { ConstructTable, markerPatterns, ROOT_CONSTRUCT } from './constructs';
import { ControlFlow, readControlFlowFile, type ControlFlowFile } from './control-flow';
import { Distance } from './distance';
import { identifyIterations, type LoopOutcome } from './iterations';
import { diagnose, imbalanceAndWait, projectedSaving, selectSignificant, sumLosses, type LossNode } from './losses';
import { resolveOptions, TraceAnalysisError, clusterLimit, type TraceAnalysisOptions } from './model/options';
import { CLASS_NAMES, makeClassifier, SemanticClass, type ClassName } from './semantic-class';
import { Summary, type NodeStats, type SummaryNode } from './summary';
import {
  buildInstrumentedTct,
  buildSampledTct,
  constructDepths,
  duration,
  postOrder,
  TctKind,
  type LcaMode,
  type TctNode,
} from './tct';
import { traceSourceOf, type TraceSource } from './trace-source';

/**
 * Automated analysis of a trace (Wei & Mellor-Crummey, ICS '18): per lane a temporal context tree
 * with its loops' iterations identified and clustered; lanes clustered by behaviour; a summary
 * tree with min/avg/max per node over the lanes; imbalance and waiting per node; significant call
 * paths; inefficient segments with their diagnosis and projected saving.
 *
 * The work splits for worker threads: `planTraceAnalysis` (cheap, deterministic: every worker can
 * make the same plan from the same profile), `analyseLanes` over lane ranges (the per-lane phase
 * and Algorithm 3's getClusterSet over those ranges), `mergePartialAnalyses` (mergeClusterSet of
 * the halves, summaries and tallies combined) and `finishTraceAnalysis`. `splitLaneRanges(plan, 2)`
 * gives two halves whose merge equals the single-thread result exactly: each role's lanes split
 * where getClusterSet itself would split them.
 */

/** Lanes [h, e) of one role (indices into the role's lane list). */
export interface LaneRange {
  role: number;
  h: number;
  e: number;
}

export interface TraceRolePlan {
  /** Entry point and kind, e.g. `threads from main` or `GPU streams from Memcpy HtoD`. */
  name: string;
  sampled: boolean;
  /** Lanes (indices into source.lanes) in display order. */
  lanes: number[];
}

export interface TracePlan {
  source: TraceSource;
  options: TraceAnalysisOptions;
  constructs: ConstructTable;
  cf: ControlFlow;
  depth: Int32Array;
  /** Sampling period V in ns (0 when no lane is sampled). */
  period: number;
  lca: LcaMode;
  roles: TraceRolePlan[];
  roleOf: Int32Array;
  indexInRole: Int32Array;
}

export interface AnalysisHooks {
  signal?: AbortSignal;
  onProgress?: (fraction: number, message?: string) => void;
  /** Filled with the time (ms) spent in each phase, when given (benchmarks). */
  timings?: AnalysisTimings;
  /** The clock of `timings`, in ms (default performance.now; a benchmark on a shared machine may pass CPU time). */
  clock?: () => number;
}

export interface AnalysisTimings {
  /** Reading the lanes' events. */
  events: number;
  /** Building the temporal context trees. */
  tct: number;
  /** Algorithm 1 and the clustering of every loop's iterations. */
  iterations: number;
  /** Folding the lanes into the summary trees (and the lane bookkeeping). */
  summary: number;
  /** Algorithm 3 over the lanes (thread-level clustering), lane work excluded. */
  laneClustering: number;
}

export function newTimings(): AnalysisTimings {
  return { events: 0, tct: 0, iterations: 0, summary: 0, laneClustering: 0 };
}

/** The analysis of the lanes of some ranges, before merging and finishing. Plain, cloneable data. */
export interface PartialTraceAnalysis {
  /** Per role: the cluster set of the lanes analysed here (Algorithm 3 over their range), or null. */
  sets: (ClusterSet | null)[];
  /** Per role: the summary tree of the lanes analysed here, or null. */
  summaries: (SummaryNode | null)[];
  loops: LoopTally[];
  bands: BandRow[];
  /** Per lane: its root's [start, end] (NaN when not analysed here). */
  extent: Float64Array;
}

export interface LoopTally {
  role: number;
  construct: number;
  implicit: boolean;
  instances: number;
  profileInstances: number;
  lanes: number[];
  /** Per instance: identifiers found, accepted, rejected. */
  ids: number[];
  accepted: number[];
  rejected: number[];
  /** Σ instance durations (ns). */
  duration: number;
  /** Implicit loops: the construct whose calls drive the iterations (names the loop), else -1. */
  driver: number;
}

interface BandRow {
  lane: number;
  loop: number;
  iteration: number;
  start: number;
  end: number;
  cluster: number;
  depth: number;
}

/** Iterations on the timeline: one row per accepted iteration per lane (columns, times in ns). */
export interface IterationBands {
  lane: Int32Array;
  /** Index into TraceAnalysis.loops. */
  loop: Int32Array;
  /** Iteration identifier (Algorithm 1's tag; the k-th iteration has identifier k when none was rejected). */
  iteration: Int32Array;
  start: Float64Array;
  end: Float64Array;
  /** Iteration cluster within the lane's loop instance. */
  cluster: Int32Array;
  /** Nesting: 0 for an outermost loop. */
  depth: Int32Array;
}

export interface AnalysedLane {
  track: number;
  name: string;
  kind: string;
  sampled: boolean;
  events: number;
  role: number;
  cluster: number;
}

export interface TraceCluster {
  role: number;
  /** Lane indices (into TraceAnalysis.lanes), ascending. */
  members: number[];
  /** The member closest to the cluster's weighted-average representative. */
  representative: number;
  /** diffRatio between the representative lane and the cluster's average. */
  representativeDistance: number;
  /** diffRatio between this cluster's average and the nearest other cluster of its role (null when alone). */
  nearestDistance: number | null;
  /** The widest merge that formed the cluster (null for one lane): why its lanes count as alike. */
  widestMerge: ClusterMerge | null;
}

export interface TraceLoop {
  role: number;
  construct: number;
  name: string;
  file: string | null;
  line: number | null;
  implicit: boolean;
  /** Lanes where the loop ran, its instances over all lanes, and how many became profile nodes. */
  lanes: number;
  instances: number;
  profileInstances: number;
  /** Most common identifiers found, accepted and rejected per instance. */
  ids: number;
  acceptedIds: number;
  rejectedIds: number;
  /** Iterations identified on most instances (the loop was not folded into a profile node). */
  accepted: boolean;
  /** Iterations per instance as a user sees them: accepted identifiers, or all identifiers of a rejected loop. */
  iterations: number;
  /** Mean duration per lane of the loop's role, as a share of the run time. */
  share: number;
  /** Iteration clusters of one instance on a representative lane, run-length encoded (identifiers + 1). */
  strip: { cluster: number; from: number; to: number }[];
}

export interface SignificantPath {
  role: number;
  construct: number;
  /** The construct's first call-tree node (-1 for implicit loops and iterations without one). */
  node: number;
  path: string[];
  name: string;
  file: string | null;
  line: number | null;
  class: Exclude<ClassName, 'insignificant'>;
  /** Iteration identifier when the node is an iteration or lies in one, else null. */
  iteration: number | null;
  /** Seconds. */
  imbalance: number;
  wait: number;
  min: number;
  avg: number;
  max: number;
  byImbalance: boolean;
  byWait: boolean;
  /** Lanes (indices into TraceAnalysis.lanes) holding the max and the min, and their clusters. */
  maxLane: number;
  minLane: number;
  maxCluster: number;
  minCluster: number;
  /** Time span of the node's instances, ns from the trace origin (NaN inside profile nodes). */
  startNs: number;
  endNs: number;
}

export interface InefficientSegment {
  role: number;
  /** Indices into TraceAnalysis.significant, in time order; the closing synchronization last. */
  paths: number[];
  sync: number | null;
  startNs: number;
  endNs: number;
  /** Seconds. */
  imbS: number;
  waitS: number;
  sumImb: number;
  sumWait: number;
  row: number;
  diagnosis: string;
  projectedSaving: number;
}

export interface TraceAnalysis {
  /** V in seconds, null when no lane is sampled. */
  samplingPeriod: number | null;
  /** Seconds: the longest lane, plus V on sampled traces (a lane's true extent exceeds its first-to-last sample span). */
  runTime: number;
  lanes: AnalysedLane[];
  skipped: { track: number; name: string; reason: string }[];
  roles: { name: string; lanes: number[]; clusters: number[] }[];
  clusters: TraceCluster[];
  /** Lane indices grouped by cluster (roles in order), each cluster's representative first. */
  laneOrder: number[];
  /** Per cluster: its rows in laneOrder and its band height weight log₂(size + 1) (paper §3.4). */
  clusterBands: { cluster: number; first: number; rows: number; weight: number }[];
  loops: TraceLoop[];
  iterations: IterationBands;
  significant: SignificantPath[];
  segments: InefficientSegment[];
  /** Per call-tree node: index into CLASS_NAMES — its class when on a significant path (or below one), else 0. */
  nodeClass: Uint8Array;
  /** Per call-tree node: its semantic class (1 computation, 2 wait, 3 sync). */
  semanticClass: Uint8Array;
  notes: string[];
  options: TraceAnalysisOptions;
}

const GAP_BUDGET = 1 << 22;

/** Everything the lane work needs, from the profile's trace and the options. */
export function planTraceAnalysis(
  source: TraceSource,
  optionsIn: Partial<TraceAnalysisOptions> = {},
  cfg: ControlFlowFile | null = null,
): TracePlan {
  const options = resolveOptions(optionsIn);
  if (!source.lanes.length) {
    const why = source.skipped.length
      ? `no lane has two samples or slices (${source.skipped.length} lane${source.skipped.length === 1 ? '' : 's'} skipped)`
      : 'the trace has no samples and no slices';
    throw new TraceAnalysisError(`nothing to analyse: ${why}`);
  }
  const classifier = makeClassifier(options);
  const constructs = new ConstructTable(
    source.tree,
    classifier,
    markerPatterns(options.iterationMarkers),
    source.nodeFirstTime,
  );
  const cf = new ControlFlow(constructs, cfg);
  let period = 0;
  if (source.lanes.some(l => l.sampled)) {
    const gaps = options.samplingPeriod === null ? source.sampleGaps(GAP_BUDGET) : null;
    period = gaps ? (gaps.length ? median(Array.from(gaps)) : 0) : options.samplingPeriod! * 1e9;
    if (!(period > 0))
      throw new TraceAnalysisError(
        `the sampling period is ${period / 1e9} s: it must be positive (samples share their timestamps; set samplingPeriod)`,
      );
  }
  const lca: LcaMode =
    options.lca !== 'auto' ? options.lca : source.format === 'hpctoolkit-metadb' ? 'prefix' : 'slices';
  const depth = constructDepths(constructs);
  const roles: TraceRolePlan[] = [];
  const byKey = new Map<string, number>();
  const roleOf = new Int32Array(source.lanes.length);
  const indexInRole = new Int32Array(source.lanes.length);
  source.lanes.forEach((l, i) => {
    let top = l.entry >= 0 ? constructs.frameOf[l.entry]! : ROOT_CONSTRUCT;
    while (top >= 0 && constructs.parent[top]! >= 0) top = constructs.parent[top]!;
    const what = l.kind === 'gpu-stream' ? 'GPU streams' : l.sampled ? 'sampled threads' : 'threads';
    const entry = options.separateRoles && top >= 0 ? constructs.name[top]! : '';
    const key = `${l.sampled}\u0000${l.kind}\u0000${entry}`;
    let r = byKey.get(key);
    if (r === undefined) {
      byKey.set(key, (r = roles.length));
      roles.push({ name: entry ? `${what} from ${entry}` : what, sampled: l.sampled, lanes: [] });
    }
    roleOf[i] = r;
    indexInRole[i] = roles[r]!.lanes.length;
    roles[r]!.lanes.push(i);
  });
  return { source, options, constructs, cf, depth, period, lca, roles, roleOf, indexInRole };
}

/** Every lane of every role, in one range per role. */
export function allLaneRanges(plan: TracePlan): LaneRange[] {
  return plan.roles.map((r, role) => ({ role, h: 0, e: r.lanes.length }));
}

/**
 * The lane ranges of `parts` (1 or 2) workers. A role with more than K lanes splits at the middle,
 * as Algorithm 3's first call does; a smaller one goes whole to the first part.
 */
export function splitLaneRanges(plan: TracePlan, parts: 1 | 2): LaneRange[][] {
  if (parts === 1) return [allLaneRanges(plan)];
  const out: LaneRange[][] = [[], []];
  plan.roles.forEach((r, role) => {
    const M = r.lanes.length;
    if (M <= clusterLimit(plan.options, M)) out[0]!.push({ role, h: 0, e: M });
    else {
      const mid = Math.floor(M / 2);
      out[0]!.push({ role, h: 0, e: mid });
      out[1]!.push({ role, h: mid, e: M });
    }
  });
  return out;
}

/** The tools of one role: distance and clustering use the role's period (0 for instrumented lanes). */
export function roleTools(
  plan: TracePlan,
  role: number,
): {
  period: number;
  acceptPeriod: number;
  distance: Distance;
  clusterer: Clusterer;
} {
  const o = plan.options;
  const period = plan.roles[role]!.sampled ? plan.period : 0;
  const distance = new Distance(plan.cf, period, o.gapTolerance * period, o.dummyMode);
  const clusterer = new Clusterer(distance, o);
  const acceptPeriod = period > 0 ? period : o.instrumentedResolution * 1e9;
  return { period, acceptPeriod, distance, clusterer };
}

/**
 * The per-lane phase and Algorithm 3 over the given lane ranges: each lane's TCT is built, its
 * loops' iterations identified and clustered (inner loops first), folded into its role's summary
 * and reduced to its clusters; the lanes of a range are clustered as they come (getClusterSet asks
 * for them in order), so only O(K log M) lane trees are alive at once.
 */
export function analyseLanes(
  plan: TracePlan,
  ranges: readonly LaneRange[],
  hooks: AnalysisHooks = {},
): PartialTraceAnalysis {
  const { source, cf, options } = plan;
  const roles = plan.roles.length;
  const sets: (ClusterSet | null)[] = new Array(roles).fill(null);
  const summaries: (Summary | null)[] = new Array(roles).fill(null);
  const loops = new Map<string, LoopTally>();
  const bands: BandRow[] = [];
  const extent = new Float64Array(source.lanes.length * 2).fill(NaN);
  const total = ranges.reduce((s, r) => s + r.e - r.h, 0);
  let done = 0;
  for (const range of ranges) {
    const tools = roleTools(plan, range.role);
    const role = plan.roles[range.role]!;
    const summary = (summaries[range.role] ??= new Summary(role.lanes.length, cf, tools.period));
    let inLanes = 0;
    const clock = hooks.clock ?? (() => performance.now());
    const analyse = (i: number): TctNode => {
      throwIfAborted(hooks.signal);
      const start = clock();
      const lane = role.lanes[i]!;
      const { tree, outcomes } = laneTree(plan, lane, hooks.timings, clock);
      const afterTree = clock();
      collectBands(tree, lane, bands);
      for (const o of outcomes) {
        const key = `${range.role}:${o.construct}`;
        let t = loops.get(key);
        if (!t) {
          t = {
            ...{ role: range.role, construct: o.construct, implicit: o.implicit, instances: 0, profileInstances: 0 },
            ...{ lanes: [], ids: [], accepted: [], rejected: [], duration: 0, driver: o.driver },
          };
          loops.set(key, t);
        }
        t.instances++;
        if (t.lanes[t.lanes.length - 1] !== lane) t.lanes.push(lane);
        if (o.profile) t.profileInstances++;
        t.ids.push(o.ids);
        t.accepted.push(o.accepted);
        t.rejected.push(o.rejected);
        t.duration += duration(o.node);
        if (t.driver < 0) t.driver = o.driver;
      }
      summary.add(tree, i);
      extent[lane * 2] = tree.start;
      extent[lane * 2 + 1] = tree.end;
      // Keep only the clusters of each loop: the lane now compares as cluster sets (§4.2.1).
      postOrder(tree, n => {
        if (n.loop && n.loop.clusters.length) n.children = [];
      });
      hooks.onProgress?.(++done / total, `lane ${done} of ${total}`);
      const end = clock();
      if (hooks.timings) hooks.timings.summary += end - afterTree;
      inLanes += end - start;
      return tree;
    };
    const K = clusterLimit(options, role.lanes.length);
    const clusterStart = clock();
    const set = tools.clusterer.getClusterSet(range.h, range.e, K, analyse, true);
    if (hooks.timings) hooks.timings.laneClustering += clock() - clusterStart - inLanes;
    sets[range.role] = sets[range.role] ? tools.clusterer.mergeClusterSet(sets[range.role]!, set, K) : set;
  }
  return {
    sets,
    summaries: summaries.map(s => s?.root ?? null),
    loops: sortTallies([...loops.values()]),
    bands,
    extent,
  };
}

function sortTallies(loops: LoopTally[]): LoopTally[] {
  return loops.sort((a, b) => a.role - b.role || a.construct - b.construct);
}

/**
 * One lane's temporal context tree with its loops' iterations identified and clustered (inner loops
 * first), the iteration instances still in place; and what became of each loop.
 */
export function laneTree(
  plan: TracePlan,
  lane: number,
  timings?: AnalysisTimings,
  clock: () => number = () => performance.now(),
): { tree: TctNode; outcomes: LoopOutcome[] } {
  const { source, constructs, cf, depth, options } = plan;
  const tools = roleTools(plan, plan.roleOf[lane]!);
  const info = source.lanes[lane]!;
  let t0 = timings ? clock() : 0;
  const ev = source.events(lane);
  const ctx = { constructs, cf, depth };
  let t1 = timings ? clock() : 0;
  const tree = info.sampled ? buildSampledTct(ev, ctx, plan.lca) : buildInstrumentedTct(ev, ctx);
  if (timings) {
    timings.events += t1 - t0;
    t0 = clock();
    timings.tct += t0 - t1;
  }
  // Each loop's iterations are clustered as soon as they are identified: inner loops first (§4.2.1).
  const outcomes = identifyIterations(
    tree,
    { constructs, cf, options, period: tools.period, acceptPeriod: tools.acceptPeriod },
    !info.sampled,
    loop => {
      if (loop.children.length) tools.clusterer.clusterIterations(loop);
    },
  );
  if (timings) {
    t1 = clock();
    timings.iterations += t1 - t0;
  }
  return { tree, outcomes };
}

/** Joins the analyses of two halves: `a` must hold the left half of every role it shares with `b`. */
export function mergePartialAnalyses(
  plan: TracePlan,
  a: PartialTraceAnalysis,
  b: PartialTraceAnalysis,
): PartialTraceAnalysis {
  const sets = a.sets.map((s, role) => {
    const t = b.sets[role] ?? null;
    if (!s || !t) return s ?? t;
    const tools = roleTools(plan, role);
    return tools.clusterer.mergeClusterSet(s, t, clusterLimit(plan.options, plan.roles[role]!.lanes.length));
  });
  const summaries = a.summaries.map((s, role) => {
    const t = b.summaries[role] ?? null;
    if (!s || !t) return s ?? t;
    const tools = roleTools(plan, role);
    const sum = new Summary(plan.roles[role]!.lanes.length, plan.cf, tools.period);
    sum.root = s;
    const other = new Summary(plan.roles[role]!.lanes.length, plan.cf, tools.period);
    other.root = t;
    sum.merge(other);
    return sum.root;
  });
  const key = (t: LoopTally) => `${t.role}:${t.construct}`;
  const loops = new Map<string, LoopTally>(a.loops.map(t => [key(t), { ...t }]));
  for (const t of b.loops) {
    const u = loops.get(key(t));
    if (!u) loops.set(key(t), { ...t });
    else {
      u.instances += t.instances;
      u.profileInstances += t.profileInstances;
      u.lanes = [...u.lanes, ...t.lanes];
      u.ids = [...u.ids, ...t.ids];
      u.accepted = [...u.accepted, ...t.accepted];
      u.rejected = [...u.rejected, ...t.rejected];
      u.duration += t.duration;
      if (u.driver < 0) u.driver = t.driver;
    }
  }
  const extent = a.extent.slice();
  b.extent.forEach((v, i) => {
    if (!Number.isNaN(v)) extent[i] = v;
  });
  return {
    sets,
    summaries,
    loops: sortTallies([...loops.values()]),
    bands: [...a.bands, ...b.bands],
    extent,
  };
}

/** The final merge pass, the summary's losses, significant paths, segments and everything the views draw. */
export function finishTraceAnalysis(plan: TracePlan, p: PartialTraceAnalysis): TraceAnalysis {
  const { source, constructs: t, options: o } = plan;
  const notes: string[] = [];
  const V = plan.period;

  // Clusters, per role, after the final merge pass.
  const clusters: TraceCluster[] = [];
  const laneCluster = new Int32Array(source.lanes.length).fill(-1);
  const roleClusters: number[][] = plan.roles.map(() => []);
  plan.roles.forEach((role, r) => {
    const set0 = p.sets[r];
    if (!set0) return;
    const tools = roleTools(plan, r);
    const K = clusterLimit(o, role.lanes.length);
    const set = tools.clusterer.finish(set0, K);
    const m = set.clusters.length;
    set.clusters.forEach((c, k) => {
      const members = c.members.map(i => role.lanes[i]!);
      let nearest: number | null = null;
      for (let j = 0; j < m; j++) if (j !== k) nearest = Math.min(nearest ?? Infinity, set.ratios![k * m + j]!);
      const index = clusters.length;
      for (const l of members) laneCluster[l] = index;
      roleClusters[r]!.push(index);
      clusters.push({
        role: r,
        members,
        representative: role.lanes[c.candidate?.member ?? c.members[0]!]!,
        representativeDistance: c.candidate?.ratio ?? 0,
        nearestDistance: nearest,
        widestMerge: c.widestMerge ?? null,
      });
    });
  });
  const laneOrder: number[] = [];
  const clusterBands: TraceAnalysis['clusterBands'] = [];
  clusters.forEach((c, k) => {
    const first = laneOrder.length;
    laneOrder.push(c.representative, ...c.members.filter(l => l !== c.representative));
    clusterBands.push({ cluster: k, first, rows: c.members.length, weight: Math.log2(c.members.length + 1) });
  });

  let longest = 0;
  for (let l = 0; l < source.lanes.length; l++) {
    const span = p.extent[l * 2 + 1]! - p.extent[l * 2]!;
    if (span > longest) longest = span;
  }
  const runTimeNs = longest + V;

  const loops = p.loops.map(l => traceLoop(l, plan, runTimeNs));
  const loopNames = new Map(loops.map(l => [`${l.role}:${l.construct}`, l.name]));

  // Losses on each role's summary tree.
  const significant: SignificantPath[] = [];
  const segments: InefficientSegment[] = [];
  const sigClass = new Uint8Array(t.size);
  plan.roles.forEach((role, r) => {
    const root = p.summaries[r];
    if (!root) return;
    const tools = roleTools(plan, r);
    const summary = new Summary(role.lanes.length, plan.cf, tools.period);
    const name = (c: number) => loopNames.get(`${r}:${c}`) ?? t.name[c]!;
    const lossRoot = lossTree(root, 'node', { summary, plan, name }, null, -1);
    sumLosses(lossRoot);
    const byImb = new Set(selectSignificant(lossRoot.children, 'imb', runTimeNs, o));
    const byWait = new Set(selectSignificant(lossRoot.children, 'wait', runTimeNs, o));
    if (role.lanes.length < 2) notes.push(`${role.name}: one lane, so no imbalance across lanes can show`);
    // Time order: depth-first over the summary tree.
    const ordered: LossTreeNode[] = [];
    const visit = (n: LossTreeNode) => {
      if (byImb.has(n) || byWait.has(n)) ordered.push(n);
      n.children.forEach(c => visit(c as LossTreeNode));
    };
    lossRoot.children.forEach(c => visit(c as LossTreeNode));
    let open: number[] = [];
    const close = (sync: number | null) => {
      if (!open.length) return;
      const members = open.map(i => significant[i]!);
      const s = sync === null ? null : significant[sync]!;
      let sumImb = 0,
        sumWait = 0;
      for (const [k, m] of members.entries()) {
        if (open[k] === sync) continue;
        if (m.byImbalance) sumImb += m.imbalance;
        if (m.byWait) sumWait += m.wait;
      }
      const imbS = s?.imbalance ?? 0,
        waitS = s?.wait ?? 0;
      const d = diagnose(imbS, sumImb, sumWait, runTimeNs / 1e9, o);
      let startNs = Infinity,
        endNs = -Infinity;
      for (const m of members) {
        if (m.startNs < startNs) startNs = m.startNs;
        if (m.endNs > endNs) endNs = m.endNs;
      }
      segments.push({
        role: r,
        paths: open,
        sync,
        startNs: Number.isFinite(startNs) ? startNs : NaN,
        endNs: Number.isFinite(endNs) ? endNs : NaN,
        imbS,
        waitS,
        sumImb,
        sumWait,
        row: d.row,
        diagnosis: d.text,
        projectedSaving: projectedSaving(imbS, waitS, sumWait),
      });
      open = [];
    };
    for (const n of ordered) {
      const index = significant.length;
      const path = pathOf(n);
      const c = n.construct;
      const klass = n.klass;
      const lane = (i: number) => role.lanes[i] ?? -1;
      significant.push({
        role: r,
        construct: c,
        node: c >= 0 ? t.firstNode[c]! : -1,
        path,
        name: path[path.length - 1]!,
        file: c >= 0 ? t.file[c]! : null,
        line: c >= 0 ? t.line[c]! : null,
        class: CLASS_NAMES[klass] as SignificantPath['class'],
        iteration: n.iteration,
        imbalance: n.imb / 1e9,
        wait: n.wait / 1e9,
        min: n.stats.min / 1e9,
        avg: n.stats.avg / 1e9,
        max: n.stats.max / 1e9,
        byImbalance: byImb.has(n),
        byWait: byWait.has(n),
        maxLane: lane(n.stats.maxLane),
        minLane: lane(n.stats.minLane),
        maxCluster: laneCluster[lane(n.stats.maxLane)] ?? -1,
        minCluster: laneCluster[lane(n.stats.minLane)] ?? -1,
        ...timeSpan(n),
      });
      if (c >= 0 && !sigClass[c]) sigClass[c] = klass;
      open.push(index);
      if (klass === SemanticClass.Sync) close(index);
    }
    close(null);
  });

  // Per call-tree node: the class of its construct when significant, inherited below it.
  const effective = new Uint8Array(t.size);
  for (let c = 0; c < t.size; c++) {
    const parent = t.parent[c]!;
    effective[c] = sigClass[c] || (parent >= 0 ? effective[parent]! : 0);
  }
  const nodeClass = new Uint8Array(source.tree.size);
  const semanticClass = new Uint8Array(source.tree.size);
  for (let i = 0; i < source.tree.size; i++) {
    const c = t.frameOf[i]!;
    nodeClass[i] = c >= 0 ? effective[c]! : 0;
    semanticClass[i] = c >= 0 ? t.semantic[c]! : SemanticClass.Computation;
  }

  // Iteration bands.
  const order = loops.map((l, i) => ({ l, i })).sort((x, y) => y.l.share - x.l.share || x.l.construct - y.l.construct);
  const loopKey = (role: number, construct: number) => `${role}:${construct}`;
  const loopIndex = new Map<string, number>();
  order.forEach((x, k) => loopIndex.set(loopKey(x.l.role, x.l.construct), k));
  const sortedLoops = order.map(x => x.l);
  const rows = p.bands.slice().sort((x, y) => x.lane - y.lane || x.start - y.start || x.depth - y.depth);
  const iterations: IterationBands = {
    lane: Int32Array.from(rows, b => b.lane),
    loop: Int32Array.from(rows, b => loopIndex.get(loopKey(plan.roleOf[b.lane]!, b.loop)) ?? -1),
    iteration: Int32Array.from(rows, b => b.iteration),
    start: Float64Array.from(rows, b => b.start),
    end: Float64Array.from(rows, b => b.end),
    cluster: Int32Array.from(rows, b => b.cluster),
    depth: Int32Array.from(rows, b => b.depth),
  };
  sortedLoops.forEach((loop, k) => (loop.strip = iterationStrip(iterations, k, laneOrder)));
  if (!sortedLoops.length)
    notes.push(
      plan.roles.some(r => !r.sampled)
        ? 'No loops: the trace records no loop constructs and no call repeats under one parent often and long enough to form iterations.'
        : 'No loops: the trace records no loop constructs (HPCToolkit adds them when hpcstruct analysed the binary).',
    );
  for (const loop of sortedLoops) {
    const tally = p.loops.find(x => x.role === loop.role && x.construct === loop.construct)!;
    const counts = new Set(tally.accepted.filter((_, k) => tally.ids[k]! > 0));
    if (loop.accepted && counts.size > 1)
      notes.push(
        `${loop.name}: iteration counts differ across instances (${[...counts].sort((a, b) => a - b).join(', ')}); iterations pair by identifier, so a lane that missed a boundary is compared shifted`,
      );
  }
  for (const s of source.skipped) notes.push(`${s.name} skipped: ${s.reason}`);

  const lanes: AnalysedLane[] = source.lanes.map((l, i) => ({
    track: l.track,
    name: l.name,
    kind: l.kind,
    sampled: l.sampled,
    events: l.events,
    role: plan.roleOf[i]!,
    cluster: laneCluster[i]!,
  }));
  return {
    samplingPeriod: V > 0 ? V / 1e9 : null,
    runTime: runTimeNs / 1e9,
    lanes,
    skipped: source.skipped,
    roles: plan.roles.map((r, k) => ({ name: r.name, lanes: r.lanes, clusters: roleClusters[k]! })),
    clusters,
    laneOrder,
    clusterBands,
    loops: sortedLoops,
    iterations,
    significant,
    segments,
    nodeClass,
    semanticClass,
    notes,
    options: o,
  };
}

/** Analyses the trace of a profile (see the module comment); rejects with a TraceAnalysisError on unusable input. */
export async function analyzeTrace(
  profile: Profile,
  options: Partial<TraceAnalysisOptions> = {},
  hooks: AnalysisHooks = {},
): Promise<TraceAnalysis> {
  if (!profile.trace) throw new TraceAnalysisError('nothing to analyse: the profile has no trace (no samples)');
  const resolved = resolveOptions(options);
  const cfg = resolved.cfgFile ? await readControlFlowFile(resolved.cfgFile) : null;
  const plan = planTraceAnalysis(traceSourceOf(profile), resolved, cfg);
  return finishTraceAnalysis(plan, analyseLanes(plan, allLaneRanges(plan), hooks));
}

interface LossTreeNode extends LossNode {
  s: SummaryNode;
  construct: number;
  klass: SemanticClass;
  stats: NodeStats;
  parent: LossTreeNode | null;
  label: string;
  iteration: number | null;
}

/**
 * The summary tree with Table 1's imb and wait per node. A loop's profile holder (its rejected
 * iterations, or the whole loop on lanes where it became a profile node) is its last child.
 */
function lossTree(
  s: SummaryNode,
  role: 'node' | 'holder' | 'entry',
  ctx: { summary: Summary; plan: TracePlan; name: (construct: number) => string },
  parent: LossTreeNode | null,
  iteration: number,
): LossTreeNode {
  const { summary, plan } = ctx;
  const t = plan.constructs;
  const c = role === 'holder' ? -1 : s.construct;
  const frame = role === 'entry' || s.kind === TctKind.Frame;
  const klass = frame && c >= 0 && !t.isLoop(c) ? t.semantic[c]! : SemanticClass.Computation;
  const stats = summary.stats(s);
  const { imb, wait } = imbalanceAndWait(klass, stats);
  const it = s.kind === TctKind.Iteration ? s.id : iteration;
  const label =
    role === 'holder'
      ? parent?.s.children.length
        ? '(rejected iterations)'
        : '(profile)'
      : s.kind === TctKind.Iteration
        ? `iteration ${s.id + 1}`
        : c >= 0
          ? ctx.name(c)
          : 'thread';
  const n: LossTreeNode = {
    s,
    construct: c,
    klass,
    stats,
    imb,
    wait,
    children: [],
    parent,
    label,
    iteration: it >= 0 ? it : null,
  };
  const childRole = role === 'node' ? 'node' : 'entry';
  n.children = s.children.map(x => lossTree(x, childRole, ctx, n, it));
  if (role === 'node' && s.profile) n.children.push(lossTree(s.profile, 'holder', ctx, n, it));
  return n;
}

/** The node's instances' time span, or for a profile entry its nearest timed ancestor's. */
function timeSpan(n: LossTreeNode): { startNs: number; endNs: number } {
  let x: LossTreeNode | null = n;
  while (x && !(Number.isFinite(x.s.first) && Number.isFinite(x.s.last))) x = x.parent;
  return x ? { startNs: x.s.first, endNs: x.s.last } : { startNs: NaN, endNs: NaN };
}

function pathOf(n: LossTreeNode): string[] {
  const out: string[] = [];
  for (let x: LossTreeNode | null = n; x && x.parent; x = x.parent) out.push(x.label);
  return out.reverse();
}

function collectBands(root: TctNode, lane: number, out: BandRow[]): void {
  const walk = (n: TctNode, depth: number) => {
    const layered = n.loop !== null && n.children.length > 0 && n.children[0]!.kind === TctKind.Iteration;
    n.children.forEach((c, i) => {
      if (layered)
        out.push({
          lane,
          loop: n.construct,
          iteration: c.id,
          start: c.start,
          end: c.end,
          cluster: n.loop!.iterationCluster[i] ?? 0,
          depth,
        });
      walk(c, layered ? depth + 1 : depth);
    });
  };
  walk(root, 0);
}

function mostCommon(xs: readonly number[]): number {
  const count = new Map<number, number>();
  let best = 0,
    bestN = 0;
  for (const x of xs) {
    const n = (count.get(x) ?? 0) + 1;
    count.set(x, n);
    if (n > bestN || (n === bestN && x > best)) {
      best = x;
      bestN = n;
    }
  }
  return best;
}

function traceLoop(l: LoopTally, plan: TracePlan, runTimeNs: number): TraceLoop {
  const t = plan.constructs;
  const accepted = l.profileInstances * 2 <= l.instances;
  const first = l.driver;
  const name = l.implicit
    ? first >= 0 && t.marker[first]
      ? t.name[first]!
      : `loop of ${first >= 0 ? t.name[first] : 'calls'}${t.parent[l.construct]! >= 0 ? ` in ${t.name[t.parent[l.construct]!]}` : ''}`
    : t.name[l.construct]!;
  const file = l.implicit && first >= 0 ? t.file[first]! : t.file[l.construct]!;
  const line = l.implicit && first >= 0 ? t.line[first]! : t.line[l.construct]!;
  const roleLanes = plan.roles[l.role]!.lanes.length;
  const layered = l.accepted.filter((_, k) => l.ids[k]! > 0);
  const acceptedIds = mostCommon(layered.length ? layered : l.accepted);
  const ids = mostCommon(l.ids);
  return {
    role: l.role,
    construct: l.construct,
    name,
    file,
    line,
    implicit: l.implicit,
    lanes: l.lanes.length,
    instances: l.instances,
    profileInstances: l.profileInstances,
    ids,
    acceptedIds,
    rejectedIds: mostCommon(l.rejected),
    accepted,
    iterations: accepted ? acceptedIds : ids,
    share: runTimeNs > 0 ? l.duration / roleLanes / runTimeNs : 0,
    strip: [],
  };
}

/** The iteration clusters of the loop's first instance on the first lane of laneOrder that ran it. */
function iterationStrip(bands: IterationBands, index: number, laneOrder: readonly number[]): TraceLoop['strip'] {
  const byLane = new Map<number, number[]>();
  for (let k = 0; k < bands.lane.length; k++) {
    if (bands.loop[k] !== index) continue;
    const rows = byLane.get(bands.lane[k]!) ?? [];
    rows.push(k);
    byLane.set(bands.lane[k]!, rows);
  }
  const lane = laneOrder.find(l => byLane.has(l));
  if (lane === undefined) return [];
  const strip: TraceLoop['strip'] = [];
  let prev = -Infinity;
  for (const k of byLane.get(lane)!) {
    const id = bands.iteration[k]!;
    if (id <= prev) break; // the next instance of the loop
    prev = id;
    const c = bands.cluster[k]!;
    const last = strip[strip.length - 1];
    if (last && last.cluster === c && last.to === id) last.to = id + 1;
    else strip.push({ cluster: c, from: id + 1, to: id + 1 });
  }
  return strip;
}
