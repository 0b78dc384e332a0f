/**
 * Scores per depth of the machine (PU, L1, L2, L3, NUMA) for a set of samples, and the same scores
 * computed fast for many windows of samples (metric strips, clustering): each route's resource at
 * each depth is looked up once, so a window costs one pass over its samples plus one over the
 * resources of that depth.
 */
import type { IndexSet } from './index-set';
import type { MemoryAnalysis, TopologyLoad } from './memory-analysis';
import { scoreOf, scoreResources, type ResourceScores, type ScoreName } from './resource-scores';
import { MACHINE_DEPTHS, MACHINE_DEPTH_LABELS, type MachineDepth } from '../topology/machine';

/** A score at one depth, e.g. NUMA imbalance or L2 latency (the paper's metric families). */
export interface MemoryMetric {
  score: ScoreName;
  depth: MachineDepth;
}

export interface DepthScores extends ResourceScores {
  depth: MachineDepth;
  /** The resources' node indices, in node order (what {@link ResourceScores} indices refer to). */
  nodes: number[];
  /** Node of the extreme, busiest and idlest resources; -1 when none. */
  extremeNode: number;
  maxNode: number;
  minNode: number;
}

/** Scores at every depth, PU first, from a load ({@link topologyLoad}). */
export function depthScores(analysis: MemoryAnalysis, load: TopologyLoad): DepthScores[] {
  const machine = analysis.machine;
  if (!machine) return [];
  return MACHINE_DEPTHS.map(depth => {
    const nodes = machine.nodesAt[depth];
    const s = nodes.map(n => load.samples.node[n]!);
    const c = nodes.map(n => load.cycles.node[n]!);
    const scores = scoreResources(s, c);
    const at = (k: number) => (k >= 0 ? nodes[k]! : -1);
    return {
      ...scores,
      depth,
      nodes,
      extremeNode: at(scores.extreme),
      maxNode: at(scores.max),
      minNode: at(scores.min),
    };
  });
}

/** A metric's name as views print it: `NUMA imbalance`, `L2 latency`. */
export function metricLabel(metric: MemoryMetric): string {
  const score = { latency: 'latency', imbalance: 'imbalance', cv: 'CV', maxOverMean: 'max/mean', gini: 'Gini' }[
    metric.score
  ];
  return `${MACHINE_DEPTH_LABELS[metric.depth]} ${score}`;
}

/**
 * Accumulates the per-resource counts of one depth for windows of samples. `slotOfRoute[r]` is the
 * resource (index among the depth's nodes) that route r counts on at this depth, or -1.
 */
export class DepthCounter {
  readonly resources: number;
  private readonly slotOfRoute: Int32Array;

  constructor(
    private readonly analysis: MemoryAnalysis,
    readonly metric: MemoryMetric,
  ) {
    const machine = analysis.machine;
    if (!machine) throw new Error(`${metricLabel(metric)} needs a machine topology`);
    const nodes = machine.nodesAt[metric.depth];
    this.resources = nodes.length;
    const slotOfNode = new Map(nodes.map((n, k) => [n, k]));
    this.slotOfRoute = Int32Array.from(analysis.routes, r =>
      metric.depth === 'pu' ? slotOfNode.get(r.pu)! : r.serving >= 0 ? (slotOfNode.get(r.serving) ?? -1) : -1,
    );
  }

  /** Fresh zeroed count vectors. */
  vectors(): { samples: Float64Array; cycles: Float64Array } {
    return { samples: new Float64Array(this.resources), cycles: new Float64Array(this.resources) };
  }

  /** Adds (sign +1) or removes (−1) sample i. */
  add(into: { samples: Float64Array; cycles: Float64Array }, i: number, sign = 1): void {
    const r = this.analysis.routeOf[i]!;
    if (r < 0) return;
    const slot = this.slotOfRoute[r]!;
    if (slot < 0) return;
    into.samples[slot]! += sign;
    into.cycles[slot]! += sign * this.analysis.samples.latency[i]!;
  }

  /** Adds the samples `order[start, end)`. */
  addRange(into: { samples: Float64Array; cycles: Float64Array }, order: IndexSet, start: number, end: number): void {
    for (let k = start; k < end; k++) this.add(into, order[k]!);
  }

  /** The metric of the counts. */
  value(from: { samples: Float64Array; cycles: Float64Array }): number {
    return scoreOf(scoreResources(from.samples, from.cycles), this.metric.score);
  }
}

/** The metric of one set of samples (null: all). */
export function metricOf(analysis: MemoryAnalysis, metric: MemoryMetric, set: IndexSet | null): number {
  const counter = new DepthCounter(analysis, metric);
  const v = counter.vectors();
  const n = set ? set.length : analysis.samples.count;
  for (let k = 0; k < n; k++) counter.add(v, set ? set[k]! : k);
  return counter.value(v);
}
