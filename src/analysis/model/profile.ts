import { callGraphBuffers, type CallGraphData } from './call-graph';
import { CallTree, type CallTreeColumns } from './call-tree';
import type { ExecutionContext } from './context';
import { sumOverContexts } from './derive';
import type { MetricDescriptor } from './metric';
import {
  checkSparseShape,
  denseFromSparse,
  isSparse,
  sparseBuffers,
  sparseExclusiveFromInclusive,
  sparseFromDense,
  sparseInclusiveFromExclusive,
  sparseRow,
  sparseRows,
  sparseRowSums,
  sparseSubsetSums,
  type MetricValues,
  type SparseMatrix,
} from './sparse-matrix';
import { StringTable } from './string-table';
import { traceBuffers, type TraceData } from './trace';

export type MetadataValue = string | number | boolean | null | MetadataValue[] | { [key: string]: MetadataValue };

/**
 * Everything a reader produces, as plain data: typed-array columns and small arrays of strings and
 * descriptors. This is what crosses from the parse worker to the extension host (the typed arrays'
 * buffers are transferred, not copied).
 */
export interface ProfileData {
  /** Reader id, e.g. `caliper-json-split`. */
  format: string;
  /** The file or directory that was read. */
  path: string;
  strings: string[];
  tree: CallTreeColumns;
  contexts: ExecutionContext[];
  metrics: MetricDescriptor[];
  /**
   * Per metric: the exclusive values when the file recorded them, else null — the sparse form
   * (readers) or a node-major nodes × contexts matrix (small models computed densely).
   */
  exclusive: (MetricValues | null)[];
  /** Per metric: the inclusive values when the file recorded them, else null (as `exclusive`). */
  inclusive: (MetricValues | null)[];
  /** Index into `metrics` of the metric views open with. */
  primaryMetric: number;
  /** Run metadata (Adiak keys, command line, …). */
  metadata: Record<string, MetadataValue>;
  /** Things the reader tolerated but the user may want to know. */
  warnings: string[];
  /** The function-level call graph, for formats that record one (gprof, callgrind, gprof2dot); the tree is unfolded from it. */
  callGraph?: CallGraphData;
  /** The timeline, for trace formats (Chrome/Kineto, Nsight, OTF2, …); the tree and metrics then summarise it. */
  trace?: TraceData;
  /**
   * The lines of function frames are where each frame was executing (call stacks: Kineto's
   * `Call stack`, Python `file(line)` frames), not where the function is defined: a node without a
   * location then belongs to the innermost enclosing frame's line (aggregates.lineOwners).
   */
  callStackLines?: boolean;
}

/**
 * The profile model every reader targets: a call tree, execution contexts, metrics with values per
 * node × context, and run metadata. Derived data (the missing inclusive/exclusive side, totals over
 * contexts) is computed on first use in O(nodes × contexts) and cached.
 */
/** Per-context values a profile makes on demand (see the Profile constructor). */
export interface LazyContextValues {
  /** The whole node-major node × context matrix of a side of metric m. */
  matrix(side: 'inclusive' | 'exclusive', m: number): Float64Array;
  /** Node i's row of that matrix, written to `out[0 … contexts)`, without making the matrix. */
  row(side: 'inclusive' | 'exclusive', m: number, i: number, out: Float64Array): void;
  /** The rows of `nodes` (ascending), node after node, written to `out[0 … nodes.length × contexts)`. */
  rows(side: 'inclusive' | 'exclusive', m: number, nodes: Int32Array, out: Float64Array): void;
}

export type MetricSide = 'inclusive' | 'exclusive';

export class Profile {
  readonly tree: CallTree;
  /** Per side and metric: the sparse form, given or derived on first use. */
  private readonly sparseForm: Record<MetricSide, (SparseMatrix | null)[]>;
  /** Per side and metric: the dense matrix, given or made on first use. */
  private readonly denseForm: Record<MetricSide, (Float64Array | null)[]>;
  private readonly totals = new Map<string, Float64Array>();

  /**
   * `lazy`, when given, makes a metric's node × context matrix on first use for a metric whose data
   * holds neither side (a run summary keeps per-node totals and only some nodes' per-rank values), and
   * reads single rows without it ({@link contextRow}); such a profile must adopt its totals
   * ({@link adoptTotals}) so sums never build the matrices.
   */
  constructor(
    readonly data: ProfileData,
    private readonly lazy?: LazyContextValues,
  ) {
    this.tree = new CallTree(data.tree, new StringTable(data.strings));
    const nodes = this.tree.size;
    const cells = nodes * data.contexts.length;
    this.sparseForm = { exclusive: [], inclusive: [] };
    this.denseForm = { exclusive: [], inclusive: [] };
    // Index loops, not forEach and destructured [side, values] pairs: every read in a fresh process
    // builds one Profile, and the iterator protocol in the interpreter is a cost of its first read.
    for (let i = 0; i < data.metrics.length; i++) {
      const m = data.metrics[i]!;
      if (!data.exclusive[i] && !data.inclusive[i] && !lazy) throw new Error(`metric ${m.name} has no values`);
      for (let s = 0; s < 2; s++) {
        const side = s === 0 ? 'exclusive' : 'inclusive';
        const values = data[side][i] ?? null;
        if (!values) {
          this.sparseForm[side].push(null);
          this.denseForm[side].push(null);
        } else if (isSparse(values)) {
          checkSparseShape(values, nodes, `metric ${m.name}`);
          this.sparseForm[side].push(values);
          this.denseForm[side].push(null);
        } else {
          if (values.length !== cells)
            throw new Error(`metric ${m.name}: ${values.length} values for ${cells} node × context cells`);
          this.sparseForm[side].push(null);
          this.denseForm[side].push(values);
        }
      }
    }
    if (data.metrics.length && !(data.primaryMetric >= 0 && data.primaryMetric < data.metrics.length))
      throw new Error(`primary metric ${data.primaryMetric} out of range`);
  }

  get format(): string {
    return this.data.format;
  }
  get path(): string {
    return this.data.path;
  }
  get metrics(): readonly MetricDescriptor[] {
    return this.data.metrics;
  }
  get contexts(): readonly ExecutionContext[] {
    return this.data.contexts;
  }
  get contextCount(): number {
    return this.data.contexts.length;
  }
  get metadata(): Record<string, unknown> {
    return this.data.metadata;
  }
  get warnings(): readonly string[] {
    return this.data.warnings;
  }
  get callGraph(): CallGraphData | undefined {
    return this.data.callGraph;
  }
  get trace(): TraceData | undefined {
    return this.data.trace;
  }

  metricIndex(name: string): number {
    return this.data.metrics.findIndex(m => m.name === name);
  }

  /** Index of the metric views open with (chosen by the reader, which knows its format's conventions). */
  get primaryMetric(): number {
    return this.data.primaryMetric;
  }

  /**
   * Node-major exclusive values of metric m (derived from inclusive when the file had none): a
   * nodes × contexts matrix made on first use and kept. Prefer {@link sparse}, the totals or
   * {@link contextRow}: most of a profile's cells are zero.
   */
  exclusive(m: number): Float64Array {
    return this.dense('exclusive', m);
  }

  /** Node-major inclusive values of metric m (derived from exclusive when the file had none); see {@link exclusive}. */
  inclusive(m: number): Float64Array {
    return this.dense('inclusive', m);
  }

  /**
   * The sparse form of one side of metric m: per node, its non-zero values in ascending context
   * order (`offsets` Int32Array(nodes + 1) into `contexts` and `values`). Derived from the other side
   * on first use (on the sparse form, never through a dense matrix) and kept.
   */
  sparse(side: MetricSide, m: number): SparseMatrix {
    let s = this.sparseForm[side][m];
    if (s) return s;
    const dense = this.denseForm[side][m];
    if (dense) s = sparseFromDense(dense, this.contextCount);
    else if (this.isLazy(m)) s = sparseFromDense(this.lazy!.matrix(side, m), this.contextCount);
    else {
      const other = this.sparse(side === 'inclusive' ? 'exclusive' : 'inclusive', m);
      const children = this.tree.childIndex();
      s =
        side === 'inclusive'
          ? sparseInclusiveFromExclusive(children, other, this.contextCount)
          : sparseExclusiveFromInclusive(children, other, this.contextCount);
    }
    return (this.sparseForm[side][m] = s);
  }

  private dense(side: MetricSide, m: number): Float64Array {
    let d = this.denseForm[side][m];
    if (!d)
      d = this.denseForm[side][m] = this.isLazy(m)
        ? this.lazy!.matrix(side, m)
        : denseFromSparse(this.sparse(side, m), this.contextCount);
    return d;
  }

  /** Whether metric m's matrices come from `lazy` (its data held neither side). */
  private isLazy(m: number): boolean {
    return !!this.lazy && !this.data.exclusive[m] && !this.data.inclusive[m];
  }

  /**
   * Node i's values of metric m over contexts, written to `out[0 … contextCount)`. A lazy profile
   * (a decoded run summary) answers without building its matrix: a selection in a 1,000-run ensemble
   * reads a few rows per run, where building every run's matrix cost seconds.
   */
  contextRow(side: MetricSide, m: number, i: number, out: Float64Array): void {
    const C = this.contextCount;
    const dense = this.denseForm[side][m];
    if (dense) {
      for (let c = 0; c < C; c++) out[c] = dense[i * C + c]!;
      return;
    }
    if (!this.sparseForm[side][m] && this.isLazy(m)) return this.lazy!.row(side, m, i, out);
    sparseRow(this.sparse(side, m), i, out, C);
  }

  /**
   * Per-node values of one side of metric m summed over a subset of contexts (distinct indices, added
   * in the subset's order): from the sparse form in O(non-zeros), from a dense matrix the profile
   * already holds in O(nodes × subset), a lazy profile's rows one by one.
   */
  contextSubsetSums(side: MetricSide, m: number, subset: Int32Array): Float64Array {
    const C = this.contextCount;
    const dense = this.denseForm[side][m];
    if (!this.sparseForm[side][m] && (dense || this.isLazy(m))) {
      const n = this.tree.size;
      const out = new Float64Array(n);
      const row = new Float64Array(dense ? 0 : C);
      const K = subset.length;
      for (let i = 0; i < n; i++) {
        let s = 0;
        if (dense) for (let k = 0; k < K; k++) s += dense[i * C + subset[k]!]!;
        else {
          this.lazy!.row(side, m, i, row);
          for (let k = 0; k < K; k++) s += row[subset[k]!]!;
        }
        out[i] = s;
      }
      return out;
    }
    return sparseSubsetSums(this.sparse(side, m), subset, C);
  }

  /**
   * {@link contextRow} of each of `nodes` (ascending), node after node, into `out[0 … nodes.length ×
   * contexts)`: one call per run for a selection that reads a few hundred rows in each of a thousand runs.
   */
  contextRows(side: MetricSide, m: number, nodes: Int32Array, out: Float64Array): void {
    const C = this.contextCount;
    const dense = this.denseForm[side][m];
    if (!dense && !this.sparseForm[side][m] && this.isLazy(m)) return this.lazy!.rows(side, m, nodes, out);
    if (!dense) return sparseRows(this.sparse(side, m), nodes, out, C);
    for (let j = 0; j < nodes.length; j++) {
      const from = nodes[j]! * C,
        to = j * C;
      for (let c = 0; c < C; c++) out[to + c] = dense[from + c]!;
    }
  }

  /** Per-node values summed over contexts. */
  exclusiveTotals(m: number): Float64Array {
    return this.cachedTotals('e', m, 'exclusive');
  }
  inclusiveTotals(m: number): Float64Array {
    return this.cachedTotals('i', m, 'inclusive');
  }

  /**
   * Takes per-node totals of metric m computed elsewhere (the analysis worker, over the same shared
   * model), so this thread never makes the O(nodes × contexts) pass itself.
   */
  adoptTotals(m: number, totals: { inclusive: Float64Array; exclusive: Float64Array }): void {
    if (!(m >= 0 && m < this.metrics.length)) throw new Error(`metric ${m} out of range`);
    for (const [side, t] of [
      ['i', totals.inclusive],
      ['e', totals.exclusive],
    ] as const) {
      if (t.length !== this.tree.size) throw new Error(`${t.length} per-node totals for ${this.tree.size} nodes`);
      this.totals.set(side + m, t);
    }
  }

  /** Σ over roots of the inclusive value summed over contexts: "100 %" for shares. */
  total(m: number): number {
    const t = this.inclusiveTotals(m);
    let s = 0;
    for (const r of this.tree.roots()) s += t[r]!;
    return s;
  }

  /** Value of node i in context c. */
  value(matrix: Float64Array, node: number, context: number): number {
    return matrix[node * this.contextCount + context]!;
  }

  /**
   * The data with every side made so far (the sparse form where it exists, else the dense matrix a
   * model was built with), plus the buffers to transfer.
   */
  toTransferable(): { data: ProfileData; transfer: ArrayBuffer[] } {
    const made = (side: MetricSide): (MetricValues | null)[] =>
      this.metrics.map((_, m) => this.sparseForm[side][m] ?? this.data[side][m] ?? null);
    const data = { ...this.data, exclusive: made('exclusive'), inclusive: made('inclusive') };
    const buffers = new Set<ArrayBuffer>();
    for (const col of Object.values(data.tree)) buffers.add(col.buffer as ArrayBuffer);
    for (const m of [...data.exclusive, ...data.inclusive])
      if (m) for (const b of isSparse(m) ? sparseBuffers(m) : [m.buffer]) buffers.add(b as ArrayBuffer);
    if (data.callGraph) for (const b of callGraphBuffers(data.callGraph)) buffers.add(b);
    if (data.trace) for (const b of traceBuffers(data.trace)) buffers.add(b);
    // Shared memory is shared, not moved (a profile over a shared model).
    return { data, transfer: [...buffers].filter(b => b instanceof ArrayBuffer) };
  }

  private cachedTotals(key0: string, m: number, side: MetricSide): Float64Array {
    const key = key0 + m;
    let t = this.totals.get(key);
    if (!t) {
      const dense = this.denseForm[side][m];
      t = dense ? sumOverContexts(dense, this.contextCount) : sparseRowSums(this.sparse(side, m));
      this.totals.set(key, t);
    }
    return t;
  }
}
