import { nodeKindName } from '../model/call-tree';
import type { MetricKind } from '../model/metric';
import type { Profile } from '../model/profile';
import { dataMovementTotals } from '../model/trace';
import { topIndices } from './top-k';

/**
 * The stable JSON schema of `hpc-lens inspect --json` (documented in the README). Every reader's
 * output is printed through this one function, so the schema cannot drift between formats.
 */
export interface InspectReport {
  format: string;
  path: string;
  primaryMetric: string;
  metrics: { name: string; unit: string; kind: MetricKind }[];
  contexts: number;
  metadata: Record<string, unknown>;
  /** Nodes in the call tree. */
  nodeCount: number;
  /** True when `nodes` lists only the heaviest nodes (and their ancestors), see {@link InspectOptions}. */
  nodesTruncated: boolean;
  nodes: InspectNode[];
  /** Trace formats only: the tracks with their event counts. */
  tracks?: { name: string; kind: string; events: number }[];
  /** Trace formats only: total events. */
  events?: number;
  /** Trace formats only: [first, last] time covered, in ns from the trace origin. */
  timeRange?: [number, number];
  /** Trace formats only: copies and memsets, in total and per kind. */
  dataMovement?: { count: number; bytes: number; byKind: Record<string, { count: number; bytes: number }> };
}

export interface InspectNode {
  path: string[];
  name: string;
  kind: string;
  file: string | null;
  line: number | null;
  module: string | null;
  /** Per metric: inclusive value summed over contexts. */
  inclusive: Record<string, number>;
  /** Per metric: exclusive value summed over contexts. */
  exclusive: Record<string, number>;
}

export interface InspectOptions {
  /**
   * Above this many nodes, list only the `maxNodes` heaviest by inclusive value of the primary
   * metric, plus their ancestors so every listed path is complete (default 5000; Infinity for all).
   * A 450 000-node pprof profile would otherwise print hundreds of megabytes.
   */
  maxNodes?: number;
}

export function inspectReport(profile: Profile, options: InspectOptions = {}): InspectReport {
  const tree = profile.tree;
  const metrics = profile.metrics;
  const incl = metrics.map((_, m) => profile.inclusiveTotals(m));
  const excl = metrics.map((_, m) => profile.exclusiveTotals(m));
  const listed = listedNodes(profile, options.maxNodes ?? 5000);
  // Paths are built incrementally (parents come first and ancestors are always listed).
  const paths = new Map<number, string[]>();
  const nodes: InspectNode[] = [];
  for (const i of listed) {
    const p = tree.parent(i);
    const path = p < 0 ? [tree.name(i)] : [...paths.get(p)!, tree.name(i)];
    paths.set(i, path);
    const inclusive: Record<string, number> = {};
    const exclusive: Record<string, number> = {};
    metrics.forEach((m, k) => {
      inclusive[m.name] = incl[k]![i]!;
      exclusive[m.name] = excl[k]![i]!;
    });
    nodes.push({
      path,
      name: tree.name(i),
      kind: nodeKindName(tree.kind(i)),
      file: tree.file(i),
      line: tree.line(i),
      module: tree.module(i),
      inclusive,
      exclusive,
    });
  }
  const trace = profile.trace;
  const traceFacts = trace
    ? {
        tracks: trace.tracks.map((t, i) => ({
          name: `${t.process} · ${t.name}`,
          kind: t.kind,
          events: trace.trackEventStart[i + 1]! - trace.trackEventStart[i]!,
        })),
        events: trace.events.track.length,
        timeRange: trace.timeRange,
        dataMovement: dataMovementTotals(trace.dataMovement),
      }
    : {};
  return {
    format: profile.format,
    path: profile.path,
    primaryMetric: metrics[profile.primaryMetric]?.name ?? '',
    metrics: metrics.map(m => ({ name: m.name, unit: m.unit, kind: m.kind })),
    contexts: profile.contextCount,
    metadata: profile.metadata,
    nodeCount: tree.size,
    nodesTruncated: listed.length < tree.size,
    nodes,
    ...traceFacts,
  };
}

/** Ids of the nodes to list, ascending (so parents precede children). */
function listedNodes(profile: Profile, maxNodes: number): number[] {
  const n = profile.tree.size;
  if (n <= maxNodes || profile.metrics.length === 0) return Array.from({ length: n }, (_, i) => i);
  const keep = new Uint8Array(n);
  for (let i of topIndices(profile.inclusiveTotals(profile.primaryMetric), maxNodes)) {
    for (; i >= 0 && !keep[i]; i = profile.tree.parent(i)) keep[i] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}
