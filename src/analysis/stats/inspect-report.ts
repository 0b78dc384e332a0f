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
   * A 450 000-node pprof profile would otherwise print hundreds of megabytes. With a finite
   * `maxNodes` the listed paths also hold at most {@link MAX_PATH_ENTRIES} names and
   * {@link MAX_PATH_CHARS} characters in all: in a 100,000-deep recursion every node's path is
   * 100,000 long, and a 2 MB function name is repeated in the path of every node below it.
   */
  maxNodes?: number;
}

/** Most path names `inspectReport` lists in all when `maxNodes` is finite (a few tens of MB of JSON). */
export const MAX_PATH_ENTRIES = 1_000_000;

/**
 * Most characters of path names `inspectReport` lists in all when `maxNodes` is finite: the JSON must
 * stay far below V8's longest string (2^29 characters), or printing it fails (found by the fuzz suite).
 */
export const MAX_PATH_CHARS = 64 << 20;

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
  const tree = profile.tree;
  const n = tree.size;
  const everything = () => Array.from({ length: n }, (_, i) => i);
  if (maxNodes === Infinity) return everything();
  // Path length (names) and size (characters, with JSON's quotes and comma) of each node's path
  // (parents precede children), and of all paths together.
  const pathLength = new Int32Array(n);
  const pathChars = new Float64Array(n);
  let entries = 0;
  let chars = 0;
  for (let i = 0; i < n; i++) {
    const p = tree.parent(i);
    entries += pathLength[i] = p < 0 ? 1 : pathLength[p]! + 1;
    chars += pathChars[i] = (p < 0 ? 0 : pathChars[p]!) + tree.name(i).length + 3;
  }
  if (n <= maxNodes && entries <= MAX_PATH_ENTRIES && chars <= MAX_PATH_CHARS) return everything();
  if (profile.metrics.length === 0) return [];
  const keep = new Uint8Array(n);
  let listed = 0;
  let listedChars = 0;
  const missing: number[] = [];
  for (const node of topIndices(profile.inclusiveTotals(profile.primaryMetric), Math.min(n, maxNodes))) {
    // The node with its ancestors not listed yet, if their paths fit in what is left.
    missing.length = 0;
    let cost = 0;
    let costChars = 0;
    for (let i = node; i >= 0 && !keep[i]; i = tree.parent(i)) {
      missing.push(i);
      cost += pathLength[i]!;
      costChars += pathChars[i]!;
    }
    if (listed + cost > MAX_PATH_ENTRIES || listedChars + costChars > MAX_PATH_CHARS) break;
    listed += cost;
    listedChars += costChars;
    for (const i of missing) keep[i] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}
