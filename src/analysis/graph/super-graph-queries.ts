import type { NodeMetricValues } from '../../shared/protocol';
import type { Profile } from '../model/profile';
import { sankeyNodeIds } from './node-membership';
import { superGraph, type SuperGraphOptions } from './super-graph';

/**
 * Questions the Sankey panel asks about the super graph it shows, answered where the model lives
 * (the analysis worker; these functions are what it runs). Each builds the graph it needs once.
 */
export type SuperGraphQuery =
  /** The Sankey node ids that hold these call-tree nodes, in the graph built with `options`. */
  | { kind: 'nodeIds'; options: SuperGraphOptions; nodes: number[] }
  /** Per-context inclusive and exclusive values of one Sankey node for each of the first `maxMetrics` metrics. */
  | { kind: 'nodeMetrics'; options: Omit<SuperGraphOptions, 'metric'>; nodeId: string; maxMetrics: number };

export interface SuperGraphQueryResults {
  nodeIds: string[];
  nodeMetrics: NodeMetricValues[];
}

export function answerSuperGraphQuery<K extends SuperGraphQuery['kind']>(
  profile: Profile,
  query: Extract<SuperGraphQuery, { kind: K }>,
): SuperGraphQueryResults[K];
export function answerSuperGraphQuery(
  profile: Profile,
  query: SuperGraphQuery,
): SuperGraphQueryResults[SuperGraphQuery['kind']] {
  switch (query.kind) {
    case 'nodeIds':
      return sankeyNodeIds(superGraph(profile, query.options), query.nodes);
    case 'nodeMetrics': {
      const out: NodeMetricValues[] = [];
      const count = Math.min(profile.metrics.length, query.maxMetrics);
      for (let m = 0; m < count; m++) {
        const metric = profile.metrics[m]!;
        const n = superGraph(profile, { ...query.options, metric: m }).nodes.find(x => x.id === query.nodeId);
        if (n)
          out.push({
            name: metric.label || metric.name,
            unit: metric.unit,
            inclusive: Array.from(n.inclusiveByContext),
            exclusive: Array.from(n.exclusiveByContext),
          });
      }
      return out;
    }
  }
}
