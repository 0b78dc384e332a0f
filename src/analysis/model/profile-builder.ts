import type { CallGraphData } from './call-graph';
import { CallTreeBuilder } from './call-tree';
import { makeContext, type ExecutionContext } from './context';
import { GrowableFloat64, GrowableInt32 } from './growable';
import { capMetadataDepth, MAX_METADATA_DEPTH } from './metadata-depth';
import { withoutUnitSuffix, type MetricDescriptor } from './metric';
import { Profile, type MetadataValue, type MetricSide } from './profile';
import { sparseFromTriples, type SparseMatrix } from './sparse-matrix';
import type { TraceData } from './trace';

/**
 * Values a reader appends as (node, context, value) triples, in any order; turned into the sparse
 * form once at the end (sparseFromTriples: a counting sort by node, duplicates summed, no dense pass
 * and no per-cell map). Readers holding values context by context (HPCToolkit's profile.db) or node
 * by node (CUBE rows) append them as they come.
 */
class TripleValues {
  nodes = new GrowableInt32();
  contexts = new GrowableInt32();
  values = new GrowableFloat64();

  /** Appends node `nodes[k]` → `values[k]` in `context` for k < count, leaving out zeros and non-finite values. */
  appendColumn(context: number, nodes: Int32Array, values: Float64Array, count: number): void {
    const n = this.nodes.reserve(count);
    const c = this.contexts.reserve(count);
    const v = this.values.reserve(count);
    let at = this.nodes.length;
    for (let k = 0; k < count; k++) {
      const x = values[k]!;
      // x - x is NaN exactly for NaN and ±Infinity: Number.isFinite without a call per value in a cold process.
      if (x === 0 || x - x !== 0) continue;
      n[at] = nodes[k]!;
      c[at] = context;
      v[at] = x;
      at++;
    }
    this.nodes.length = this.contexts.length = this.values.length = at;
  }

  /** {@link appendColumn} for values already non-zero and finite: copied whole, no pass per value. */
  appendCheckedColumn(context: number, nodes: Int32Array, values: Float64Array, count: number): void {
    const at = this.nodes.length;
    this.nodes.reserve(count).set(nodes.subarray(0, count), at);
    this.contexts.reserve(count).fill(context, at, at + count);
    this.values.reserve(count).set(values.subarray(0, count), at);
    this.nodes.length = this.contexts.length = this.values.length = at + count;
  }

  /** {@link appendColumn} with a context per row; rows whose node is below 0 are left out. */
  appendRows(nodes: Int32Array, contexts: Int32Array, values: Float64Array): void {
    const count = values.length;
    const n = this.nodes.reserve(count);
    const c = this.contexts.reserve(count);
    const v = this.values.reserve(count);
    let at = this.nodes.length;
    for (let r = 0; r < count; r++) {
      const x = values[r]!;
      const node = nodes[r]!;
      if (node < 0 || x === 0 || x - x !== 0) continue;
      n[at] = node;
      c[at] = contexts[r]!;
      v[at] = x;
      at++;
    }
    this.nodes.length = this.contexts.length = this.values.length = at;
  }

  finish(nodeCount: number, contextCount: number): SparseMatrix {
    // Every append leaves zeros out, so rows already in context order need no pass of their own.
    const s = sparseFromTriples(
      this.nodes.view(),
      this.contexts.view(),
      this.values.view(),
      nodeCount,
      contextCount,
      true,
    );
    // The triples are done with: let them go before the next metric's sort.
    this.nodes = new GrowableInt32();
    this.contexts = new GrowableInt32();
    this.values = new GrowableFloat64();
    return s;
  }
}

interface MetricColumns {
  descriptor: MetricDescriptor;
  exclusive: TripleValues | null;
  inclusive: TripleValues | null;
}

/**
 * What every reader fills: the call tree, the execution contexts, metric values and metadata.
 * Values added twice for the same node and context are summed (as Hatchet does when a file has
 * several records for one node and rank).
 */
export class ProfileBuilder {
  readonly tree = new CallTreeBuilder();
  readonly metadata: Record<string, MetadataValue> = {};
  readonly warnings: string[] = [];
  /** The call graph the tree was unfolded from, for call-graph formats. */
  callGraph?: CallGraphData;
  /** The timeline, for trace formats. */
  trace?: TraceData;
  /** ProfileData.callStackLines. */
  callStackLines = false;
  private readonly contexts: ExecutionContext[] = [];
  private readonly contextIds = new Map<string, number>();
  private readonly metrics: MetricColumns[] = [];

  constructor(
    readonly format: string,
    readonly path: string,
  ) {}

  /** Id of the context with these coordinates, created on first use. */
  context(parts: Partial<Omit<ExecutionContext, 'label'>>): number {
    const key = `${parts.rank ?? -1}/${parts.thread ?? -1}/${parts.gpuDevice ?? -1}/${parts.gpuStream ?? -1}`;
    let id = this.contextIds.get(key);
    if (id === undefined) {
      id = this.contexts.length;
      this.contexts.push(makeContext(parts));
      this.contextIds.set(key, id);
    }
    return id;
  }

  /** A new context that is never merged with another (a trace track), e.g. two threads without numeric ids. */
  newContext(parts: Partial<ExecutionContext>): number {
    this.contexts.push(makeContext(parts));
    return this.contexts.length - 1;
  }

  get contextCount(): number {
    return this.contexts.length;
  }

  addMetric(descriptor: MetricDescriptor): number {
    this.metrics.push({
      descriptor,
      exclusive: descriptor.kind === 'inclusive' ? null : new TripleValues(),
      inclusive: descriptor.kind === 'exclusive' ? null : new TripleValues(),
    });
    return this.metrics.length - 1;
  }

  addExclusive(metric: number, node: number, context: number, value: number): void {
    this.append(this.metrics[metric]!.exclusive, metric, 'exclusive', node, context, value);
  }

  addInclusive(metric: number, node: number, context: number, value: number): void {
    this.append(this.metrics[metric]!.inclusive, metric, 'inclusive', node, context, value);
  }

  /**
   * {@link addExclusive} for `count` nodes of one context at once (`nodes[k]` gets `values[k]`): one
   * call and one tight loop per column, where a call per value keeps a cold process in the
   * interpreter. The same triples in the same order, so the same profile.
   */
  addExclusiveColumn(metric: number, context: number, nodes: Int32Array, values: Float64Array, count: number): void {
    this.side(metric, 'exclusive').appendColumn(context, nodes, values, count);
  }

  /** {@link addInclusive} for a column of values, as {@link addExclusiveColumn}. */
  addInclusiveColumn(metric: number, context: number, nodes: Int32Array, values: Float64Array, count: number): void {
    this.side(metric, 'inclusive').appendColumn(context, nodes, values, count);
  }

  /**
   * {@link addExclusiveColumn} / {@link addInclusiveColumn} for values the caller has already made
   * non-zero and finite (it looked at each anyway): copied whole, without a second pass per value.
   */
  addCheckedColumn(
    metric: number,
    side: MetricSide,
    context: number,
    nodes: Int32Array,
    values: Float64Array,
    count: number,
  ): void {
    this.side(metric, side).appendCheckedColumn(context, nodes, values, count);
  }

  /**
   * {@link addExclusive} / {@link addInclusive} for many rows at once: row r adds `values[r]` to node
   * `nodes[r]` in context `contexts[r]`, in row order; rows with a node below 0 are left out.
   */
  addRows(metric: number, side: MetricSide, nodes: Int32Array, contexts: Int32Array, values: Float64Array): void {
    this.side(metric, side).appendRows(nodes, contexts, values);
  }

  /** Sorts the values into the sparse form and returns the finished profile. */
  build(primaryMetric: number): Profile {
    if (this.contexts.length === 0) this.context({});
    for (const key of capMetadataDepth(this.metadata))
      this.warnings.push(
        `metadata "${key}" nests deeper than ${MAX_METADATA_DEPTH} levels; the deeper part is shown as a summary`,
      );
    const tree = this.tree.finish();
    const n = tree.size;
    const c = this.contexts.length;
    return new Profile({
      format: this.format,
      path: this.path,
      strings: tree.strings.toArray(),
      tree: tree.columns,
      contexts: this.contexts.slice(),
      metrics: this.metrics.map(m => ({
        ...m.descriptor,
        label: withoutUnitSuffix(m.descriptor.label, m.descriptor.unit),
      })),
      exclusive: this.metrics.map(m => m.exclusive?.finish(n, c) ?? null),
      inclusive: this.metrics.map(m => m.inclusive?.finish(n, c) ?? null),
      primaryMetric,
      metadata: this.metadata,
      warnings: this.warnings,
      ...(this.callGraph ? { callGraph: this.callGraph } : {}),
      ...(this.trace ? { trace: this.trace } : {}),
      ...(this.callStackLines ? { callStackLines: true } : {}),
    });
  }

  private side(metric: number, side: MetricSide): TripleValues {
    const col = this.metrics[metric]![side];
    if (!col) throw new Error(`metric ${this.metrics[metric]!.descriptor.name} has no ${side} values`);
    return col;
  }

  private append(
    col: TripleValues | null,
    metric: number,
    side: string,
    node: number,
    context: number,
    value: number,
  ): void {
    if (!col) throw new Error(`metric ${this.metrics[metric]!.descriptor.name} has no ${side} values`);
    if (!Number.isFinite(value) || value === 0) return;
    col.nodes.push(node);
    col.contexts.push(context);
    col.values.push(value);
  }
}
