import {
  MAX_ENTRIES_SENT,
  MAX_RAW_CONTEXT_VALUES,
  type CallflowData,
  type CallflowNodeData,
} from '../../shared/callflow-protocol';
import { NodeKind, type CallTree } from '../model/call-tree';
import { sourceOf } from '../model/node-source';
import type { Profile } from '../model/profile';
import { DEFAULT_SUPERNODE_LIMIT, heaviestWithPaths, type SupernodeGuard } from '../layout/supernode-guard';
import { DEFAULT_HISTOGRAM_BINS, rankHistogram } from './rank-histogram';
import { callersByNode, superGraph, type SuperGraph, type SuperGraphOptions } from './super-graph';

export interface SuperGraphDataOptions extends SuperGraphOptions {
  /** Bins of the per-context histograms (default 20) and their value axis. */
  bins?: number;
  scale?: 'linear' | 'log';
  /** At most this many supernodes are sent: the heaviest with their paths (default 2000). */
  maxSupernodes?: number;
}

/** The supernode guard over a super graph's nodes and edges (heights = inclusive). */
export function guardSuperGraph(graph: SuperGraph, limit = DEFAULT_SUPERNODE_LIMIT): SupernodeGuard {
  return heaviestWithPaths(
    graph.nodes.map(n => n.inclusive),
    graph.edges,
    limit,
  );
}

/** The guard's summary for a message (undefined when nothing was left out). */
export function guardSummary(guard: SupernodeGuard, limit: number): CallflowData['guard'] {
  if (guard.omitted === 0) return undefined;
  let omittedInclusive = 0;
  for (const v of guard.omittedOutflow) omittedInclusive += v;
  return {
    limit,
    supernodes: guard.shown + guard.omitted,
    shown: guard.shown,
    omitted: guard.omitted,
    omittedInclusive,
  };
}

/** The functions folded into a supernode, as the message lists them (largest first, capped). */
export function filteredCalleesData(
  profile: Profile,
  node: SuperGraph['nodes'][number],
): NonNullable<CallflowNodeData['filteredCallees']> {
  return node.filteredCallees
    .slice(0, MAX_ENTRIES_SENT)
    .map(c => ({ name: c.name, inclusive: c.inclusive, count: c.nodes.length, ...sourceOf(profile, c.hottest) }));
}

/** The filter's counts as the message carries them. */
export function filterData(graph: SuperGraph): NonNullable<CallflowData['filter']> {
  const f = graph.filter;
  return {
    threshold: f.threshold,
    by: f.by,
    removedNodes: f.removedNodes,
    removedFunctions: f.removedFunctions,
    totalFunctions: f.totalFunctions,
    keptFunctions: f.keptFunctions,
    totalNodes: f.totalNodes,
    repopulatedNodes: f.repopulatedNodes,
  };
}

/** `/usr/lib/libmpi.so.40` → `libmpi.so.40`: load modules are paths, bars need short names. */
function shortName(module: string): string {
  const slash = module.lastIndexOf('/');
  return slash >= 0 && slash < module.length - 1 ? module.slice(slash + 1) : module;
}

/**
 * Display label of every supernode: the short module name, `(k)` for its k-th entry on a path, and
 * for split parts the entry function or the calling supernode's own label (`MPI-solver (2)`).
 */
export function supernodeLabels(graph: SuperGraph): string[] {
  const labelOf = new Map<string, string>();
  return graph.nodes.map(n => {
    const short = shortName(n.module);
    const baseLabel = n.occurrence === 1 ? short : `${short} (${n.occurrence})`;
    const suffix = n.id.slice(n.base.length + 1);
    const label =
      n.kind === 'module'
        ? baseLabel
        : `${baseLabel}-${n.kind === 'caller' ? (labelOf.get(suffix) ?? shortName(suffix)) : suffix}`;
    labelOf.set(n.id, label);
    return label;
  });
}

/** Distinct functions (by name) among each supernode's members (with `keep`: of the supernodes it marks). */
export function supernodeFunctionCounts(graph: SuperGraph, tree: CallTree, keep?: Uint8Array): Int32Array {
  const { kind, name: nameColumn, parent } = tree.columns;
  const seenIn = new Int32Array(tree.strings.size).fill(-1); // supernode that last counted a function name
  const out = new Int32Array(graph.nodes.length);
  graph.nodes.forEach((n, s) => {
    if (keep && !keep[s]) return;
    for (const i of n.members) {
      if (
        (parent[i]! < 0 || kind[i] === NodeKind.Function || kind[i] === NodeKind.Region) &&
        seenIn[nameColumn[i]!] !== s
      ) {
        seenIn[nameColumn[i]!] = s;
        out[s]!++;
      }
    }
  });
  return out;
}

/**
 * The level-of-detail message the Sankey webview receives: the super graph's nodes with display
 * fields, per-context values (up to MAX_RAW_CONTEXT_VALUES contexts) and fixed-bin histograms,
 * entry functions with source locations, callers with shares — never the call tree itself.
 * Pass `graph` when it is already computed with the same options.
 */
export function superGraphData(
  profile: Profile,
  title: string,
  options: SuperGraphDataOptions = {},
  graph: SuperGraph = superGraph(profile, options),
): CallflowData {
  const metric = profile.metrics[graph.metric]!;
  const tree = profile.tree;
  const K = graph.contexts.length;
  const bins = options.bins ?? DEFAULT_HISTOGRAM_BINS;
  const scale = options.scale ?? 'linear';
  const raw = K <= MAX_RAW_CONTEXT_VALUES;
  const limit = options.maxSupernodes ?? DEFAULT_SUPERNODE_LIMIT;
  const guard = guardSuperGraph(graph, limit);
  const callers = callersByNode(graph, guard.keep);
  const labels = supernodeLabels(graph);
  const functionCounts = supernodeFunctionCounts(graph, tree, guard.keep);
  const nodes: CallflowNodeData[] = [];
  graph.nodes.forEach((n, s) => {
    if (!guard.keep[s]) return;
    let max = 0;
    for (let k = 0; k < K; k++) max = Math.max(max, n.inclusiveByContext[k]!);
    const mean = K > 0 ? n.inclusive / K : 0;
    const hottest = n.entries[0]?.hottest ?? n.members[0]!;
    const loc = sourceOf(profile, hottest);
    // Up to the raw limit a node carries its per-context values and the views bin them; beyond it,
    // only histograms. Never both: the histograms were a third of a 10⁶-node graph's message and of
    // the time the extension host spends receiving it.
    let histogram: CallflowNodeData['histogram'];
    if (!raw) {
      const incHist = rankHistogram(n.inclusiveByContext, bins, scale);
      const excHist = rankHistogram(n.exclusiveByContext, bins, scale);
      delete (incHist as { binOf?: number[] }).binOf;
      delete (excHist as { binOf?: number[] }).binOf;
      histogram = { inclusive: incHist, exclusive: excHist };
    }
    nodes.push({
      id: n.id,
      label: labels[s]!,
      module: n.module,
      inclusive: n.inclusive,
      exclusive: n.exclusive,
      share: graph.total > 0 ? n.inclusive / graph.total : 0,
      imbalance: mean > 0 ? max / mean : 1,
      entry: { name: tree.name(hottest), file: loc.file, line: loc.line },
      kind: n.kind,
      baseId: n.base,
      occurrence: n.occurrence,
      ...(raw
        ? {
            contextValues: { inclusive: Array.from(n.inclusiveByContext), exclusive: Array.from(n.exclusiveByContext) },
          }
        : { histogram }),
      entries: n.entries
        .slice(0, MAX_ENTRIES_SENT)
        .map(e => ({ name: e.name, inclusive: e.inclusive, exclusive: e.exclusive, ...sourceOf(profile, e.hottest) })),
      entryCount: n.entries.length,
      callers: callers[s]!.map(c => ({ id: c.id, value: c.value, share: c.share })),
      memberCount: n.members.length,
      functionCount: functionCounts[s]!,
      filteredInclusive: n.filteredInclusive,
      ...(n.filteredCallees.length
        ? { filteredCallees: filteredCalleesData(profile, n), filteredCalleeCount: n.filteredCallees.length }
        : {}),
      ...(guard.omittedOutflow[s]! > 0 ? { omittedInclusive: guard.omittedOutflow[s]! } : {}),
    });
  });
  const summary = guardSummary(guard, limit);
  return {
    title,
    metric: { name: metric.label || metric.name, unit: metric.unit },
    total: graph.total,
    nodes,
    links: graph.edges
      .filter(e => guard.keep[e.from] && guard.keep[e.to])
      .map(e => ({ source: e.source, target: e.target, value: e.value })),
    contexts: {
      count: profile.contextCount,
      indices: Array.from(graph.contexts),
      labels: Array.from(graph.contexts, c => profile.contexts[c]!.label),
    },
    droppedLinks: graph.droppedEdges
      .filter(e => guard.keep[e.from] && guard.keep[e.to])
      .map(e => ({ source: e.source, target: e.target, value: e.value })),
    filter: filterData(graph),
    splits: (options.splits ?? []).map(s => ({
      node: s.node,
      mode: s.mode,
      ...(s.entries ? { entries: [...s.entries] } : {}),
    })),
    reveal: (options.reveal ?? []).map(r => ({ node: r.node, function: r.function })),
    ...(options.repopulate?.length
      ? {
          repopulate: options.repopulate.map(r => ({ node: r.node, function: r.function })),
          unmatchedRepopulate: graph.unmatchedRepopulate.map(u => ({ ...u })),
        }
      : {}),
    unmatched: graph.unmatched,
    ...(summary ? { guard: summary } : {}),
    histogramBins: bins,
  };
}
