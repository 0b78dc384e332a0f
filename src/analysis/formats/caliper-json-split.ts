import { quoteContent } from '../errors/escape-control';
import { NodeKind } from '../model/call-tree';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { CALLPATH, MODULE, PATH, RANK, SOURCELOC } from './caliper/attributes';
import type { ValueColumn } from './caliper/metrics';
import { assembleCaliperProfile, type CaliperRows } from './caliper/profile-assembly';
import { JsonSyntaxError, tokenizeJsonFile, ValueAssembler, type JsonHandler } from './json/json-tokenizer';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions } from './reader';
import { caliperJsonSplitSniffer } from './sniffers/caliper-json-split';

/**
 * Caliper's `json-split` output (`cali-query -q "… format json-split"`), as Hatchet's `from_caliper`
 * and Thicket read it:
 *
 *   { "data": [[v, …], …], "columns": [...], "column_metadata": [{ "is_value": … }, …],
 *     "nodes": [{ "label", "column", "parent"? }, …], <run metadata keys> }
 *
 * Non-value columns hold indices into `nodes`. The call tree comes from the call-path column
 * (`source.function#callpath.address`, sampling profiles) or else `path` (annotated regions). Rows
 * with a null tree column are global records and are dropped, as Hatchet does. With
 * `sourceloc#cali.sampler.pc`, a node sampled at several lines gets one statement child per line.
 */

/**
 * One column of `data` while it streams in: fixed-size blocks (growing by doubling up to 64 Ki
 * values, then 64 Ki at a time), so that a growing column is never copied, flattened once at the end.
 */
class DataColumn {
  private readonly full: Float64Array[] = [];
  private block = new Float64Array(256);
  private used = 0;
  private filled = 0;

  push(v: number): void {
    if (this.used === this.block.length) {
      this.full.push(this.block);
      this.filled += this.used;
      this.block = new Float64Array(Math.min(this.block.length * 2, 1 << 16));
      this.used = 0;
    }
    this.block[this.used++] = v;
  }

  /** The values pushed, in one array (the blocks are released). */
  finish(): Float64Array {
    const out = new Float64Array(this.filled + this.used);
    let at = 0;
    for (const b of this.full) {
      out.set(b, at);
      at += b.length;
    }
    out.set(this.block.subarray(0, this.used), at);
    this.full.length = 0;
    this.block = new Float64Array(0);
    this.used = this.filled = 0;
    return out;
  }
}

interface JsonSplitDocument {
  /** The cells of `data` by column (null → NaN), each `rowCount` long once the stream has ended. */
  data: Float64Array[];
  rowWidth: number;
  rowCount: number;
  /** Strings met in value cells, by "row:column" (rare; kept for error messages). */
  stringCells: number;
  columns?: unknown;
  columnMetadata?: unknown;
  nodes?: unknown;
  metadata: Record<string, MetadataValue>;
}

/**
 * Streams the document: rows of `data` go straight into one growable Float64 column (null → NaN),
 * everything else (small) is assembled as plain values.
 */
class JsonSplitHandler implements JsonHandler {
  readonly doc: JsonSplitDocument = {
    data: [],
    rowWidth: -1,
    rowCount: 0,
    stringCells: 0,
    metadata: {},
  };
  private depth = 0;
  private currentKey: string | null = null;
  private inData = false;
  private rowLength = 0;
  private readonly columns: DataColumn[] = [];
  private assembling = false;
  private readonly assembler = new ValueAssembler();

  constructor(private readonly path: string) {}

  startObject(): void {
    if (this.assembling) return this.forward(a => a.startObject());
    if (this.depth === 0) {
      this.depth = 1;
      return;
    }
    if (this.inData) this.fail(`row ${this.doc.rowCount + 1} of "data" holds an object; rows must be arrays of values`);
    this.beginValue();
    this.forward(a => a.startObject());
  }

  endObject(): void {
    if (this.assembling) return this.forward(a => a.endObject());
    this.depth = 0;
  }

  startArray(): void {
    if (this.assembling) return this.forward(a => a.startArray());
    if (this.depth === 0)
      this.fail('the top level is an array; a json-split profile is an object with "data", "columns" and "nodes"');
    if (this.inData) {
      if (this.depth === 2) {
        this.depth = 3;
        this.rowLength = 0;
        return;
      }
      this.fail(`row ${this.doc.rowCount + 1} of "data" holds a nested array`);
    }
    if (this.currentKey === 'data') {
      this.inData = true;
      this.depth = 2;
      return;
    }
    this.beginValue();
    this.forward(a => a.startArray());
  }

  endArray(): void {
    if (this.assembling) return this.forward(a => a.endArray());
    if (this.depth === 3) {
      const d = this.doc;
      if (d.rowWidth === -1) d.rowWidth = this.rowLength;
      else if (this.rowLength !== d.rowWidth)
        this.fail(`row ${d.rowCount + 1} of "data" has ${this.rowLength} values, earlier rows have ${d.rowWidth}`);
      d.rowCount++;
      this.depth = 2;
      return;
    }
    this.inData = false;
    this.depth = 1;
  }

  key(name: string): void {
    if (this.assembling) return this.forward(a => a.key(name));
    this.currentKey = name;
  }

  string(value: string): void {
    if (this.assembling) return this.forward(a => a.string(value));
    if (this.depth === 3) {
      // Value cells are numbers; tolerate numeric strings, count the others as missing.
      const n = value.trim() === '' ? NaN : Number(value);
      if (Number.isNaN(n)) this.doc.stringCells++;
      return this.cell(n);
    }
    this.beginValue();
    this.forward(a => a.string(value));
  }

  number(value: number): void {
    if (this.assembling) return this.forward(a => a.number(value));
    if (this.depth === 3) return this.cell(value);
    this.beginValue();
    this.forward(a => a.number(value));
  }

  literal(value: boolean | null): void {
    if (this.assembling) return this.forward(a => a.literal(value));
    if (this.depth === 3) return this.cell(value === null ? NaN : Number(value));
    this.beginValue();
    this.forward(a => a.literal(value));
  }

  private cell(v: number): void {
    const k = this.rowLength++;
    if (k < this.columns.length) this.columns[k]!.push(v);
    else if (this.doc.rowWidth === -1) {
      // The first row sets the columns; a longer row later is refused at its end.
      const c = new DataColumn();
      c.push(v);
      this.columns.push(c);
    }
  }

  /** The data columns, once the stream has ended. */
  finish(): JsonSplitDocument {
    this.doc.data = this.columns.map(c => c.finish());
    return this.doc;
  }

  private beginValue(): void {
    if (this.depth !== 1 || this.currentKey === null) this.fail('unexpected value outside the top-level object');
    this.assembler.begin();
    this.assembling = true;
  }

  private forward(f: (a: ValueAssembler) => void): void {
    f(this.assembler);
    if (this.assembler.done) {
      this.assembling = false;
      const k = this.currentKey!;
      const v = this.assembler.value;
      if (k === 'columns') this.doc.columns = v;
      else if (k === 'column_metadata') this.doc.columnMetadata = v;
      else if (k === 'nodes') this.doc.nodes = v;
      else this.doc.metadata[k] = v as MetadataValue;
      this.currentKey = null;
    }
  }

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, reason);
  }
}

const NO_METRICS = 'no metric columns (columns with "is_value": true other than mpi.rank)';

interface ColumnPlan extends ValueColumn {
  isValue: boolean;
}

function asArray(v: unknown, what: string, path: string): unknown[] {
  if (v === undefined) throw new ProfileReadError(path, `not a Caliper json-split profile: "${what}" is missing`);
  if (!Array.isArray(v)) throw new ProfileReadError(path, `"${what}" must be an array`);
  return v;
}

/** Builds the model from a parsed json-split document. */
export function buildCaliperProfile(doc: JsonSplitDocument, path: string): Profile {
  const columnNames = asArray(doc.columns, 'columns', path);
  const nodes = asArray(doc.nodes, 'nodes', path);
  const meta = doc.columnMetadata === undefined ? [] : asArray(doc.columnMetadata, 'column_metadata', path);
  const columns: ColumnPlan[] = columnNames.map((name, index) => {
    if (typeof name !== 'string') throw new ProfileReadError(path, `column ${index} has a non-string name`);
    const m = (meta[index] ?? {}) as Record<string, unknown>;
    // Without metadata, a column is a tree column when some node is labelled with it.
    const isValue =
      typeof m['is_value'] === 'boolean'
        ? (m['is_value'] as boolean)
        : !nodes.some(n => (n as { column?: unknown })?.column === name);
    const unit = m['attribute.unit'] ?? m['time.unit'];
    return {
      index,
      name,
      isValue,
      alias: typeof m['attribute.alias'] === 'string' ? (m['attribute.alias'] as string) : undefined,
      unit: typeof unit === 'string' ? unit : undefined,
    };
  });
  const col = (name: string) => columns.findIndex(c => c.name === name);
  const treeName = col(CALLPATH) >= 0 ? CALLPATH : col(PATH) >= 0 ? PATH : null;
  if (!treeName)
    throw new ProfileReadError(
      path,
      `no call-tree column: expected "${CALLPATH}" or "${PATH}" among the columns (${columnNames.join(', ')})`,
    );
  const treeCol = col(treeName);
  const rankCol = col(RANK);
  const sourceCol = col(SOURCELOC);
  const moduleCol = col(MODULE);
  if (doc.rowCount > 0 && doc.rowWidth !== columns.length) {
    throw new ProfileReadError(
      path,
      `rows of "data" have ${doc.rowWidth} values but there are ${columns.length} columns`,
    );
  }

  const b = new ProfileBuilder('caliper-json-split', path);
  Object.assign(b.metadata, doc.metadata);
  const kind = treeName === CALLPATH ? NodeKind.Function : NodeKind.Region;

  // Node labels are read lazily by index; validate the shape once.
  const label = (i: number): string => {
    const n = nodes[i] as { label?: unknown } | undefined;
    if (!n || typeof n !== 'object')
      throw new ProfileReadError(path, `data refers to node ${i}, but "nodes" has ${nodes.length} entries`);
    const v = n.label;
    if (typeof v === 'string') return v;
    if (v !== null && typeof v === 'object')
      throw new ProfileReadError(
        path,
        `node ${i} has ${Array.isArray(v) ? 'a list' : 'an object'} as its label, not text`,
      );
    return String(v ?? '');
  };

  // Tree nodes, parents first even if the file lists a child before its parent.
  const modelOf = new Int32Array(nodes.length).fill(-1);
  const ensure = (start: number): number => {
    const chain: number[] = [];
    for (let i = start; modelOf[i] === -1;) {
      chain.push(i);
      if (chain.length > nodes.length) throw new ProfileReadError(path, `node ${start} is part of a parent cycle`);
      const n = nodes[i] as { column?: unknown; parent?: unknown };
      if (typeof n.parent !== 'number') break;
      if (n.parent < 0 || n.parent >= nodes.length)
        throw new ProfileReadError(path, `node ${i} has parent ${n.parent}, outside "nodes"`);
      i = n.parent;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const i = chain[k]!;
      if (modelOf[i] !== -1) continue;
      const n = nodes[i] as { column?: unknown; parent?: unknown };
      const p = typeof n.parent === 'number' ? modelOf[n.parent]! : -1;
      const name = label(i) || '<unnamed>';
      modelOf[i] = b.tree.add(p, name, kind);
    }
    return modelOf[start]!;
  };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as { column?: unknown } | null;
    if (!n || typeof n !== 'object') throw new ProfileReadError(path, `node ${i} is not an object`);
    if (n.column === treeName) ensure(i);
  }

  const { data, rowCount } = doc;
  const nodeIndexOf = (r: number, c: number): number => {
    const v = data[c]![r]!;
    if (!Number.isInteger(v) || v < 0 || v >= nodes.length)
      throw new ProfileReadError(path, `row ${r + 1}, column "${columns[c]!.name}": ${v} is not an index into "nodes"`);
    return v;
  };
  // Validated once here, so that the row functions below are plain lookups.
  const rowNode = new Int32Array(rowCount).fill(-1);
  const treeCells = rowCount > 0 ? data[treeCol]! : new Float64Array(0);
  for (let r = 0; r < rowCount; r++) {
    const v = treeCells[r]!;
    if (v !== v) continue; // NaN: a global record
    // The common case, a valid index of a tree node, without a call.
    const m = v >>> 0 === v && v < nodes.length ? modelOf[v]! : -1;
    if (m >= 0) {
      rowNode[r] = m;
      continue;
    }
    const i = nodeIndexOf(r, treeCol);
    if (modelOf[i] === -1)
      throw new ProfileReadError(
        path,
        `row ${r + 1} refers to node ${i} (${quoteContent(label(i))}), which is not a "${treeName}" node`,
      );
    rowNode[r] = modelOf[i]!;
  }
  const labelAt =
    (c: number) =>
    (r: number): string | null =>
      Number.isNaN(data[c]![r]!) ? null : label(nodeIndexOf(r, c));
  const structural = new Set([treeCol, rankCol, sourceCol, moduleCol]);
  const valueColumns = columns.filter(c => c.isValue && !structural.has(c.index));
  if (valueColumns.length === 0) throw new ProfileReadError(path, NO_METRICS);
  const valueIndices = Int32Array.from(valueColumns, c => c.index);
  const rankCells = rankCol >= 0 && rowCount > 0 ? data[rankCol]! : null;
  const rows: CaliperRows = {
    count: rowCount,
    columns: valueColumns,
    node: r => rowNode[r]!,
    rank: rankCells ? r => rankCells[r]! : null,
    location: sourceCol >= 0 ? labelAt(sourceCol) : null,
    module: moduleCol >= 0 ? labelAt(moduleCol) : null,
    forEachValue(r, add) {
      for (let k = 0; k < valueIndices.length; k++) add(valueIndices[k]!, data[valueIndices[k]!]![r]!);
    },
    columnar: {
      node: rowNode,
      rank: rankCells,
      values: column => (rowCount > 0 ? data[column]! : new Float64Array(0)),
    },
  };
  if (doc.stringCells > 0) b.warnings.push(`${doc.stringCells} non-numeric value cells were read as missing`);
  return assembleCaliperProfile(b, rows, NO_METRICS);
}

export const caliperJsonSplitReader: ProfileReader = {
  ...caliperJsonSplitSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const handler = new JsonSplitHandler(path);
    try {
      await tokenizeJsonFile(path, handler, {
        signal: options.signal,
        limits: options.limits,
        onProgress: (read, total) =>
          options.onProgress?.(total > 0 ? 0.9 * (read / total) : 0, 'Reading Caliper json-split'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof JsonSyntaxError)
        throw new ProfileReadError(path, `not valid JSON (${e.message.replace(`${path}: `, '')})`, { cause: e });
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
    options.onProgress?.(0.9, 'Building the call tree');
    const profile = buildCaliperProfile(handler.finish(), path);
    options.onProgress?.(1);
    return profile;
  },
};
