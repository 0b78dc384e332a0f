/**
 * Sampled memory accesses (MemAxes §4.1): one row per sampled load with its latency in cycles, the
 * CPU that issued it, the level that served it, its source line and data object, and any number of
 * further attributes (time, access index, mesh coordinates…). Stored column-wise in typed arrays;
 * string attributes are category ids numbered in order of first appearance, as MemAxes numbers
 * them for its histograms. Everything is structured-cloneable (worker → host → webview).
 */
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../../model/growable';

/** Where the samples were read from: MemAxes/Mitos CSV files or `perf script` text. */
export type MemorySampleFormat = 'memaxes' | 'perf-mem';
/** The file's dialect within its format. */
export type MemorySampleDialect = 'memaxes' | 'mitos' | 'perf-script';

/** The file name MemAxes writes for an unknown source file (its line is 0). */
export const UNKNOWN_SOURCE = '??';

/** A string column: ids per sample and their names, numbered in order of first appearance. */
export interface CategoryColumn {
  ids: Int32Array;
  names: string[];
}

/**
 * One attribute of every sample, for histograms, strips and clustering. Quantitative attributes
 * (time, latency, indices) are ordered and can be clustered; qualitative ones (CPU ids, data-source
 * codes, names) cannot, since their order means nothing (MemAxes §4.1, §7.3).
 */
export interface SampleAttribute {
  name: string;
  kind: 'quantitative' | 'qualitative';
  /** Per-sample values; category ids for string attributes; NaN where a number was missing. */
  values: Float64Array | Int32Array;
  /** Names of the category ids, for string attributes. */
  categories?: string[];
}

export interface MemorySamples {
  format: MemorySampleFormat;
  dialect: MemorySampleDialect;
  path: string;
  count: number;
  /** Load latency in cycles (PEBS "use latency", perf's weight). */
  latency: Float64Array;
  /** The OS CPU id that issued the load; -1 when unknown. */
  cpu: Int32Array;
  /** Serving level per sample (a `MemoryLevel`: 0 unresolved, 1 L1, 2 L2, 3 L3, 4 RAM). */
  level: Uint8Array;
  /** 1 when the data source says the data came from another node or socket. */
  remote: Uint8Array;
  /** The NUMA node the file names for the sample (MemAxes `node`); -1 when it says nothing. */
  node: Int32Array;
  /** Source file per sample (`??` when unknown). */
  source: CategoryColumn;
  /** Source line per sample; 0 when unknown. */
  line: Int32Array;
  /** Data object (variable or data symbol) per sample (`??` when unknown). */
  variable: CategoryColumn;
  /** Every column of the file, in file order, plus derived ones the file lacks. */
  attributes: SampleAttribute[];
  /** Things the reader worked around (non-hex data sources, missing numbers…). */
  warnings: string[];
}

/** Interns strings to ids in order of first appearance. */
export class CategoryInterner {
  private readonly ids = new Map<string, number>();
  readonly names: string[] = [];

  intern(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
}

/** A column being read: numbers, or strings interned as categories. */
export class ColumnBuilder {
  readonly values = new GrowableFloat64(1024);
  readonly interner: CategoryInterner | null;
  /** Cells that should have held a number and held something else (counted by the reader). */
  missing = 0;

  constructor(
    readonly name: string,
    readonly kind: SampleAttribute['kind'],
    categorical: boolean,
  ) {
    this.interner = categorical ? new CategoryInterner() : null;
  }

  /** Appends a number (NaN for a missing one). */
  push(value: number): void {
    this.values.push(value);
  }

  /** Appends a string as its category id. */
  pushCategory(value: string): void {
    this.values.push(this.interner!.intern(value));
  }

  finish(): SampleAttribute {
    const values = compactColumn(this.values.finish());
    return this.interner
      ? { name: this.name, kind: this.kind, values, categories: this.interner.names }
      : { name: this.name, kind: this.kind, values };
  }
}

/** An Int32Array copy when every value is a 32-bit integer (half the memory), else the column itself. */
export function compactColumn(values: Float64Array): Float64Array | Int32Array {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if ((v | 0) !== v) return values;
  }
  return Int32Array.from(values);
}

/** Total latency of all samples, in cycles. */
export function totalCycles(samples: MemorySamples): number {
  let s = 0;
  const lat = samples.latency;
  for (let i = 0; i < lat.length; i++) s += lat[i]!;
  return s;
}

/** The attribute named `name` (exact, then case-insensitive), or undefined. */
export function findAttribute(samples: MemorySamples, name: string): SampleAttribute | undefined {
  const lower = name.toLowerCase();
  return samples.attributes.find(a => a.name === name) ?? samples.attributes.find(a => a.name.toLowerCase() === lower);
}

/** The columns every reader fills: {@link MemorySamples} without its format, path and attributes. */
export type CoreColumns = Pick<
  MemorySamples,
  'count' | 'latency' | 'cpu' | 'level' | 'remote' | 'node' | 'source' | 'line' | 'variable'
>;

/**
 * Grows the core columns while a reader appends samples. A reader that has no value for an
 * optional column (node, line, source, variable) pushes nothing to it, and {@link finish} fills it
 * with "unknown" (-1, 0, `??`).
 */
export class CoreColumnsBuilder {
  readonly latency = new GrowableFloat64(4096);
  readonly cpu = new GrowableInt32(4096);
  readonly level = new GrowableUint8(4096);
  readonly remote = new GrowableUint8(4096);
  readonly node = new GrowableInt32(4096);
  readonly line = new GrowableInt32(4096);
  readonly sourceIds = new GrowableInt32(4096);
  readonly variableIds = new GrowableInt32(4096);
  readonly source = new CategoryInterner();
  readonly variable = new CategoryInterner();

  finish(count: number): CoreColumns {
    const filled = (g: GrowableInt32, fill: number) =>
      g.length === count ? g.finish() : new Int32Array(count).fill(fill);
    const category = (ids: GrowableInt32, names: CategoryInterner): CategoryColumn =>
      ids.length === count
        ? { ids: ids.finish(), names: names.names }
        : { ids: new Int32Array(count), names: [UNKNOWN_SOURCE] };
    return {
      count,
      latency: this.latency.finish(),
      cpu: this.cpu.finish(),
      level: this.level.finish(),
      remote: this.remote.finish(),
      node: filled(this.node, -1),
      line: filled(this.line, 0),
      source: category(this.sourceIds, this.source),
      variable: category(this.variableIds, this.variable),
    };
  }
}
