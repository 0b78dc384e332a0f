import type { CallflowData } from '../../shared/callflow-protocol';
import type { Profile } from '../model/profile';
import { superGraphData, type SuperGraphDataOptions } from './super-graph-data';

/**
 * The super graph the CallFlow panel would draw, as `hpc-lens callflow --json` prints it: built by
 * the panel's own message code (filter, supernode guard and all), values summed over contexts.
 */
export interface CallflowSummary {
  /** The metric's display name (the panel's). */
  metric: string;
  /** The filter threshold in percent of the total (as `--threshold` and the settings take it). */
  threshold: number;
  functions: { total: number; kept: number };
  nodes: { total: number; folded: number };
  supernodes: { id: string; name: string; module: string; inclusive: number; exclusive: number }[];
  links: { source: string; target: string; value: number }[];
}

export function callflowSummary(profile: Profile, options: SuperGraphDataOptions = {}): CallflowSummary {
  return summaryOf(superGraphData(profile, profile.path, options));
}

/** The summary of a Sankey message (what the panel received). */
export function summaryOf(data: CallflowData): CallflowSummary {
  const f = data.filter!;
  return {
    metric: data.metric.name,
    threshold: Number((f.threshold * 100).toPrecision(12)),
    functions: { total: f.totalFunctions ?? 0, kept: f.keptFunctions ?? 0 },
    nodes: { total: f.totalNodes ?? 0, folded: f.removedNodes },
    supernodes: data.nodes.map(n => ({
      id: n.id,
      name: n.label,
      module: n.module,
      inclusive: n.inclusive,
      exclusive: n.exclusive,
    })),
    links: data.links.map(l => ({ source: l.source, target: l.target, value: l.value })),
  };
}
