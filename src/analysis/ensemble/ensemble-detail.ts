import type { EnsembleDetailData, EnsembleViewState } from '../../shared/ensemble-protocol';
import type { SuperGraph, SuperNode } from '../graph/super-graph';
import { callSiteBoxes, rankValues } from './call-site-boxes';
import type { EnsembleProfile } from './ensemble-profile';
import { metricCorrelation } from './metric-correlation';
import { runtimeDistribution } from './runtime-distribution';
import { supernodeHierarchy } from './supernode-hierarchy';
import {
  callSiteRunValues,
  callSiteRunValuesWithGradients,
  supernodeCallSites,
  supernodeScope,
} from './supernode-scope';

/** `/usr/lib/libmpi.so.40` → `libmpi.so.40`; `lib1#2` → `lib1 (2)`; split parts keep their suffix. */
function supernodeLabel(node: SuperNode): string {
  const slash = node.module.lastIndexOf('/');
  const short = slash >= 0 && slash < node.module.length - 1 ? node.module.slice(slash + 1) : node.module;
  const base = node.occurrence === 1 ? short : `${short} (${node.occurrence})`;
  return node.kind === 'module' ? base : `${base}-${node.id.slice(node.base.length + 1)}`;
}

/**
 * Everything the linked views show for the selected supernode (CallFlow §4.3–4.6): its hierarchy,
 * call-site box plots, inclusive-vs-exclusive points and runtime distributions, over the selected
 * runs (`state.runs`, all when null), on the gradient side, with the target run's overlays in mode
 * `target`. `graph` is the ensemble profile's super graph over those runs; `metric` names the metric
 * (default: the ensemble's primary one). Null when the graph has no node `nodeId`.
 */
export function ensembleDetail(
  ep: EnsembleProfile,
  graph: SuperGraph,
  nodeId: string,
  state: EnsembleViewState,
  metric?: string,
): EnsembleDetailData | null {
  const s = graph.nodes.findIndex(n => n.id === nodeId);
  if (s < 0) return null;
  const node = graph.nodes[s]!;
  const ensemble = metric === undefined ? ep.ensemble : ep.ensembleOf(metric);
  const { options } = state;
  const target = state.mode === 'target' ? state.target : null;
  const scope = supernodeScope(ensemble, graph, s, state.runs, target, options.gradientSide);
  const sites = supernodeCallSites(scope);
  // One pass over members × runs gives the call sites' run values and, with a fixed bin count, the
  // hierarchy's gradients.
  const pass = typeof options.bins === 'number' ? callSiteRunValuesWithGradients(scope, sites, options.bins) : null;
  const runValues = pass ? pass.values : callSiteRunValues(scope, sites);
  const targetRun = scope.target >= 0 ? Int32Array.of(scope.target) : null;
  const targetRunValues = targetRun ? callSiteRunValues(scope, sites, targetRun) : null;
  const ranks = rankValues(scope, sites, scope.runs);
  const targetRanks = targetRun ? rankValues(scope, sites, targetRun) : null;
  const boxes = callSiteBoxes(scope, sites, runValues, ranks, targetRanks, {
    iqrFactor: options.iqrFactor,
    sort: options.callSiteSort,
    module: node.module,
    profile: ep.profile,
  });
  return {
    nodeId,
    label: supernodeLabel(node),
    side: scope.side,
    hierarchy: supernodeHierarchy(scope, { bins: options.bins, ...(pass ? { gradients: pass.gradients } : {}) }),
    callSites: boxes.boxes,
    callSitesTruncated: boxes.truncated,
    correlation: metricCorrelation(scope, sites, runValues),
    distribution: runtimeDistribution(scope, runValues, targetRunValues, ranks, targetRanks, options.bins),
  };
}
