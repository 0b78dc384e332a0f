import {
  MAX_ENTRIES_SENT,
  MAX_RAW_CONTEXT_VALUES,
  type SankeyData,
  type SankeyNodeData,
} from '../../shared/sankey-protocol';
import { NodeKind, type CallTree } from '../model/call-tree';
import { sourceOf } from '../model/node-source';
import type { Profile } from '../model/profile';
import { DEFAULT_HISTOGRAM_BINS, rankHistogram } from './rank-histogram';
import { callersByNode, superGraph, type SuperGraph, type SuperGraphOptions } from './super-graph';

export interface SuperGraphDataOptions extends SuperGraphOptions {
  /** Bins of the per-context histograms (default 20) and their value axis. */
  bins?: number;
  scale?: 'linear' | 'log';
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

/** Distinct functions (by name) among each supernode's members. */
export function supernodeFunctionCounts(graph: SuperGraph, tree: CallTree): Int32Array {
  const { kind, name: nameColumn, parent } = tree.columns;
  const seenIn = new Int32Array(tree.strings.size).fill(-1); // supernode that last counted a function name
  const out = new Int32Array(graph.nodes.length);
  graph.nodes.forEach((n, s) => {
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
): SankeyData {
  const metric = profile.metrics[graph.metric]!;
  const tree = profile.tree;
  const K = graph.contexts.length;
  const bins = options.bins ?? DEFAULT_HISTOGRAM_BINS;
  const scale = options.scale ?? 'linear';
  const raw = K <= MAX_RAW_CONTEXT_VALUES;
  const callers = callersByNode(graph);
  const labels = supernodeLabels(graph);
  const functionCounts = supernodeFunctionCounts(graph, tree);
  const nodes = graph.nodes.map((n, s): SankeyNodeData => {
    let max = 0;
    for (let k = 0; k < K; k++) max = Math.max(max, n.inclusiveByContext[k]!);
    const mean = K > 0 ? n.inclusive / K : 0;
    const hottest = n.entries[0]?.hottest ?? n.members[0]!;
    const loc = sourceOf(profile, hottest);
    const incHist = rankHistogram(n.inclusiveByContext, bins, scale);
    const excHist = rankHistogram(n.exclusiveByContext, bins, scale);
    if (!raw) {
      delete (incHist as { binOf?: number[] }).binOf;
      delete (excHist as { binOf?: number[] }).binOf;
    }
    return {
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
        : {}),
      histogram: { inclusive: incHist, exclusive: excHist },
      entries: n.entries
        .slice(0, MAX_ENTRIES_SENT)
        .map(e => ({ name: e.name, inclusive: e.inclusive, exclusive: e.exclusive, ...sourceOf(profile, e.hottest) })),
      entryCount: n.entries.length,
      callers: (callers[s] ?? []).map(c => ({ id: c.id, value: c.value, share: c.share })),
      memberCount: n.members.length,
      functionCount: functionCounts[s]!,
      filteredInclusive: n.filteredInclusive,
    };
  });
  return {
    title,
    metric: { name: metric.label || metric.name, unit: metric.unit },
    total: graph.total,
    nodes,
    links: graph.edges.map(e => ({ source: e.source, target: e.target, value: e.value })),
    contexts: {
      count: profile.contextCount,
      indices: Array.from(graph.contexts),
      labels: Array.from(graph.contexts, c => profile.contexts[c]!.label),
    },
    droppedLinks: graph.droppedEdges.map(e => ({ source: e.source, target: e.target, value: e.value })),
    filter: {
      threshold: graph.filter.threshold,
      by: graph.filter.by,
      removedNodes: graph.filter.removedNodes,
      removedFunctions: graph.filter.removedFunctions,
    },
    splits: (options.splits ?? []).map(s => ({
      node: s.node,
      mode: s.mode,
      ...(s.entries ? { entries: [...s.entries] } : {}),
    })),
    reveal: (options.reveal ?? []).map(r => ({ node: r.node, function: r.function })),
    unmatched: graph.unmatched,
    histogramBins: bins,
  };
}
