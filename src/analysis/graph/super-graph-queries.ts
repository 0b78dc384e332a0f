import type { NodeMetricValues } from '../../shared/callflow-protocol';
import type { Profile } from '../model/profile';
import { sankeyNodeIds } from './node-membership';
import { superGraph, type SuperGraph, type SuperGraphOptions } from './super-graph';

/**
 * Questions the Sankey panel asks about the super graph it shows, answered where the model lives
 * (the analysis service). `graphOf` supplies the graphs — the service's cache, so a question about
 * the graph on screen never builds it again.
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
  graphOf?: (options: SuperGraphOptions) => SuperGraph,
): SuperGraphQueryResults[K];
export function answerSuperGraphQuery(
  profile: Profile,
  query: SuperGraphQuery,
  graphOf: (options: SuperGraphOptions) => SuperGraph = o => superGraph(profile, o),
): SuperGraphQueryResults[SuperGraphQuery['kind']] {
  switch (query.kind) {
    case 'nodeIds':
      return sankeyNodeIds(graphOf(query.options), query.nodes);
    case 'nodeMetrics': {
      const out: NodeMetricValues[] = [];
      const count = Math.min(profile.metrics.length, query.maxMetrics);
      for (let m = 0; m < count; m++) {
        const metric = profile.metrics[m]!;
        const n = graphOf({ ...query.options, metric: m }).nodes.find(x => x.id === query.nodeId);
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
