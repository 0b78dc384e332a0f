import { nodeKindName } from './model/call-tree';
import type { MetricKind } from './model/metric';
import type { Profile } from './model/profile';
import { dataMovementTotals } from './model/trace';

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

export function inspectReport(profile: Profile): InspectReport {
  const tree = profile.tree;
  const metrics = profile.metrics;
  const incl = metrics.map((_, m) => profile.inclusiveTotals(m));
  const excl = metrics.map((_, m) => profile.exclusiveTotals(m));
  // Paths are built incrementally (parents come first), not by walking up from every node.
  const paths: string[][] = new Array(tree.size);
  const nodes: InspectNode[] = new Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    const p = tree.parent(i);
    paths[i] = p < 0 ? [tree.name(i)] : [...paths[p]!, tree.name(i)];
    const inclusive: Record<string, number> = {};
    const exclusive: Record<string, number> = {};
    metrics.forEach((m, k) => { inclusive[m.name] = incl[k]![i]!; exclusive[m.name] = excl[k]![i]!; });
    nodes[i] = {
      path: paths[i]!, name: tree.name(i), kind: nodeKindName(tree.kind(i)),
      file: tree.file(i), line: tree.line(i), module: tree.module(i), inclusive, exclusive,
    };
  }
  const trace = profile.trace;
  const traceFacts = trace ? {
    tracks: trace.tracks.map((t, i) => ({ name: `${t.process} · ${t.name}`, kind: t.kind, events: trace.trackEventStart[i + 1]! - trace.trackEventStart[i]! })),
    events: trace.events.track.length,
    timeRange: trace.timeRange,
    dataMovement: dataMovementTotals(trace.dataMovement),
  } : {};
  return {
    format: profile.format,
    path: profile.path,
    primaryMetric: metrics[profile.primaryMetric]?.name ?? '',
    metrics: metrics.map(m => ({ name: m.name, unit: m.unit, kind: m.kind })),
    contexts: profile.contextCount,
    metadata: profile.metadata,
    nodes,
    ...traceFacts,
  };
}
