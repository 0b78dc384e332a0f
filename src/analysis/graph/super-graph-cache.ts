import type { Profile } from '../model/profile';
import { superGraph, type SuperGraph, type SuperGraphOptions } from './super-graph';

/**
 * Super graphs of one profile kept by the options they were built with (metric, filter, module
 * map, splits, reveals, context subset, …), least recently used first out once their estimated size
 * passes `maxBytes`. A selection, a highlight or a correlation query asks for the graph the panel
 * already shows, so it is built once per option set instead of once per click (at 10⁶ nodes a build
 * takes about a second; a lookup in the cached graph takes milliseconds).
 */
export class SuperGraphCache {
  private readonly graphs = new Map<string, { graph: SuperGraph; bytes: number }>();
  private bytes = 0;
  /** Builds and lookups since creation, for tests and logs. */
  builds = 0;
  hits = 0;

  constructor(
    private readonly profile: Profile,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  /** The graph for `options`, built on first use. */
  graph(options: SuperGraphOptions): SuperGraph {
    const key = optionsKey(options);
    const hit = this.graphs.get(key);
    if (hit) {
      this.hits++;
      // Re-insert: a Map iterates in insertion order, so the first entry is the least recently used.
      this.graphs.delete(key);
      this.graphs.set(key, hit);
      return hit.graph;
    }
    const graph = superGraph(this.profile, options);
    this.builds++;
    const bytes = estimateBytes(graph);
    this.graphs.set(key, { graph, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.graphs) {
      if (this.bytes <= this.maxBytes || this.graphs.size === 1) break;
      this.graphs.delete(k);
      this.bytes -= v.bytes;
    }
    return graph;
  }

  /** Estimated bytes held now. */
  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.graphs.size;
  }

  clear(): void {
    this.graphs.clear();
    this.bytes = 0;
  }
}

/**
 * A key that is equal for option objects that build the same graph: keys sorted at every level,
 * typed arrays as plain arrays, and undefined members left out (as JSON does).
 */
export function optionsKey(options: SuperGraphOptions): string {
  return JSON.stringify(options, (_key, value: unknown) => {
    if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
    if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) sorted[k] = (value as Record<string, unknown>)[k];
      return sorted;
    }
    return value;
  });
}

/** Bytes a graph holds: the per-node membership and per-context arrays dominate. */
function estimateBytes(g: SuperGraph): number {
  let bytes = g.superOf.byteLength + g.contexts.byteLength;
  for (const n of g.nodes) {
    bytes += 200;
    for (const v of Object.values(n)) {
      if (ArrayBuffer.isView(v)) bytes += v.byteLength;
      else if (Array.isArray(v)) bytes += 16 * v.length;
    }
  }
  return bytes + 120 * (g.edges.length + g.droppedEdges.length);
}
