import { quoteContent } from '../errors/escape-control';
import { NodeKind } from '../model/call-tree';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../model/growable';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { StringTable } from '../model/string-table';
import { CALLPATH, MODULE, PATH, RANK, SOURCELOC } from './caliper/attributes';
import type { ValueColumn } from './caliper/metrics';
import { assembleCaliperProfile, type CaliperRows } from './caliper/profile-assembly';
import { JsonSyntaxError, tokenizeJsonFile, ValueAssembler, type JsonHandler } from './json/json-tokenizer';
import { readSmallText, startsLikeGzip } from './io/file-input';
import { replayJsonValue } from './json/json-value-events';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
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

/** A label that is a list or an object (refused when a row or the tree needs it, as text is expected). */
const LABEL_LIST = -2;
const LABEL_OBJECT = -3;

/**
 * The "nodes" list in columns as it streams in (10⁶ entries in large profiles): no object per node,
 * each distinct label and column name decoded and kept once. Only the fields the reader uses are
 * kept (`label`, `column`, `parent`); other members are skipped undecoded.
 */
export class NodeColumns {
  /** Id in {@link labels}, or LABEL_LIST / LABEL_OBJECT. A missing or null label is '' (id 0). */
  readonly label = new GrowableInt32();
  /** Index into {@link columnNames}; -1 when not a string. */
  readonly column = new GrowableInt32();
  /** The parent index as written; NaN when missing or not a number. */
  readonly parent = new GrowableFloat64();
  /** 1 for an object entry (an array counts as an object without fields, as for JSON.parse values), 0 otherwise. */
  readonly isObject = new GrowableUint8();
  /** The distinct labels. */
  readonly labels = new StringTable();
  readonly columnNames: string[] = [];
  private readonly columnIds = new Map<string, number>();

  get count(): number {
    return this.label.length;
  }

  labelId(text: string): number {
    return this.labels.intern(text);
  }

  columnId(name: string): number {
    let id = this.columnIds.get(name);
    if (id === undefined) {
      id = this.columnNames.length;
      this.columnNames.push(name);
      this.columnIds.set(name, id);
    }
    return id;
  }

  /** Id of a column name some node uses, or -1. */
  findColumn(name: string): number {
    return this.columnIds.get(name) ?? -1;
  }
}

// What the handler is reading inside "nodes".
const N_OFF = 0;
/** Between entries of the list. */
const N_LIST = 1;
/** Inside an entry's object. */
const N_ENTRY = 2;
// The entry member whose value comes next.
const F_OTHER = 0;
const F_LABEL = 1;
const F_COLUMN = 2;
const F_PARENT = 3;

interface JsonSplitDocument {
  /** The cells of `data` by column (null → NaN), each `rowCount` long once the stream has ended. */
  data: Float64Array[];
  rowWidth: number;
  rowCount: number;
  /** Strings met in value cells, by "row:column" (rare; kept for error messages). */
  stringCells: number;
  columns?: unknown;
  columnMetadata?: unknown;
  /** "nodes" when it was a list (streamed into columns); any other value as parsed (refused later). */
  nodes?: NodeColumns | unknown;
  metadata: Record<string, MetadataValue>;
}

/**
 * Streams the document: rows of `data` go straight into one growable Float64 column (null → NaN),
 * "nodes" into {@link NodeColumns}, everything else (small) is assembled as plain values.
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
  /** Reading "nodes": N_LIST or N_ENTRY (N_OFF elsewhere). */
  private nodeMode = N_OFF;
  private nodes: NodeColumns | null = null;
  /** The entry member whose value comes next (F_*). */
  private field = F_OTHER;
  /** Depth inside a nested value that is ignored (an entry's label that is a list, a list as an entry). */
  private ignoring = 0;
  // The entry being read.
  private entryLabel = 0;
  private entryColumn = -1;
  private entryParent = NaN;
  private emptyLabel = 0;

  constructor(private readonly path: string) {}

  startObject(): void {
    if (this.nodeMode !== N_OFF) return this.nodeContainer(LABEL_OBJECT);
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
    if (this.nodeMode !== N_OFF) return this.nodeEnd();
    if (this.assembling) return this.forward(a => a.endObject());
    this.depth = 0;
  }

  startArray(): void {
    if (this.nodeMode !== N_OFF) return this.nodeContainer(LABEL_LIST);
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
    if (this.currentKey === 'nodes' && this.depth === 1) {
      const nodes = (this.nodes = new NodeColumns());
      this.emptyLabel = nodes.labelId('');
      this.nodeMode = N_LIST;
      return;
    }
    this.beginValue();
    this.forward(a => a.startArray());
  }

  endArray(): void {
    if (this.nodeMode !== N_OFF) return this.nodeEnd();
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

  key(name: string): boolean | void {
    if (this.nodeMode !== N_OFF) {
      if (this.ignoring > 0) return;
      const f = name === 'label' ? F_LABEL : name === 'column' ? F_COLUMN : name === 'parent' ? F_PARENT : F_OTHER;
      this.field = f;
      // Other members are skipped undecoded.
      return f === F_OTHER;
    }
    if (this.assembling) return this.forward(a => a.key(name));
    this.currentKey = name;
  }

  string(value: string): void {
    if (this.depth === 3) {
      // Value cells are numbers; tolerate numeric strings, count the others as missing.
      const n = value.trim() === '' ? NaN : Number(value);
      if (Number.isNaN(n)) this.doc.stringCells++;
      return this.cell(n);
    }
    if (this.nodeMode !== N_OFF) return this.nodeString(value);
    if (this.assembling) return this.forward(a => a.string(value));
    this.beginValue();
    this.forward(a => a.string(value));
  }

  number(value: number): void {
    if (this.depth === 3) return this.cell(value);
    if (this.nodeMode !== N_OFF) return this.nodeOther(value);
    if (this.assembling) return this.forward(a => a.number(value));
    this.beginValue();
    this.forward(a => a.number(value));
  }

  literal(value: boolean | null): void {
    if (this.depth === 3) return this.cell(value === null ? NaN : Number(value));
    if (this.nodeMode !== N_OFF) return this.nodeOther(value);
    if (this.assembling) return this.forward(a => a.literal(value));
    this.beginValue();
    this.forward(a => a.literal(value));
  }

  /** A string inside "nodes": a member value of an entry, or an entry that is not an object. */
  private nodeString(value: string): void {
    if (this.ignoring > 0) return;
    if (this.nodeMode === N_LIST) return this.pushEntry(0);
    if (this.field === F_LABEL) this.entryLabel = this.nodes!.labelId(value);
    else if (this.field === F_COLUMN) this.entryColumn = this.nodes!.columnId(value);
    else if (this.field === F_PARENT) this.entryParent = NaN;
  }

  /** A number or literal inside "nodes" (as a label, its text: `String(value)`, '' for null). */
  private nodeOther(value: number | boolean | null): void {
    if (this.ignoring > 0) return;
    if (this.nodeMode === N_LIST) return this.pushEntry(0);
    if (this.field === F_PARENT) this.entryParent = typeof value === 'number' ? value : NaN;
    else if (this.field === F_LABEL) this.entryLabel = this.nodes!.labelId(value === null ? '' : String(value));
    else if (this.field === F_COLUMN) this.entryColumn = -1;
  }

  /** `{` or `[` inside "nodes": an entry, or a member value that is a container (`kind` for a label). */
  private nodeContainer(kind: number): void {
    if (this.ignoring > 0) {
      this.ignoring++;
      return;
    }
    if (this.nodeMode === N_LIST) {
      this.entryLabel = this.emptyLabel;
      this.entryColumn = -1;
      this.entryParent = NaN;
      this.field = F_OTHER;
      if (kind === LABEL_OBJECT) this.nodeMode = N_ENTRY;
      // A list as an entry is an entry without members: its contents are ignored.
      else this.ignoring = 1;
      return;
    }
    if (this.field === F_LABEL) this.entryLabel = kind;
    else if (this.field === F_COLUMN) this.entryColumn = -1;
    else if (this.field === F_PARENT) this.entryParent = NaN;
    this.ignoring = 1;
  }

  /** `}` or `]` inside "nodes". */
  private nodeEnd(): void {
    if (this.ignoring > 0) {
      if (--this.ignoring === 0 && this.nodeMode === N_LIST) this.pushEntry(1);
      return;
    }
    if (this.nodeMode === N_ENTRY) {
      this.nodeMode = N_LIST;
      return this.pushEntry(1);
    }
    // The end of "nodes".
    this.nodeMode = N_OFF;
    this.doc.nodes = this.nodes;
    this.nodes = null;
    this.currentKey = null;
  }

  private pushEntry(isObject: number): void {
    const nodes = this.nodes!;
    if (isObject) {
      nodes.label.push(this.entryLabel);
      nodes.column.push(this.entryColumn);
      nodes.parent.push(this.entryParent);
    } else {
      nodes.label.push(this.emptyLabel);
      nodes.column.push(-1);
      nodes.parent.push(NaN);
    }
    nodes.isObject.push(isObject);
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

/** The streamed "nodes" list, or the reason there is none. */
function nodesOf(v: unknown, path: string): NodeColumns {
  if (v === undefined) throw new ProfileReadError(path, 'not a Caliper json-split profile: "nodes" is missing');
  if (!(v instanceof NodeColumns)) throw new ProfileReadError(path, '"nodes" must be an array');
  return v;
}

/** Builds the model from a parsed json-split document. */
export function buildCaliperProfile(doc: JsonSplitDocument, path: string): Profile {
  const columnNames = asArray(doc.columns, 'columns', path);
  const nodes = nodesOf(doc.nodes, path);
  const meta = doc.columnMetadata === undefined ? [] : asArray(doc.columnMetadata, 'column_metadata', path);
  const columns: ColumnPlan[] = columnNames.map((name, index) => {
    if (typeof name !== 'string') throw new ProfileReadError(path, `column ${index} has a non-string name`);
    const m = (meta[index] ?? {}) as Record<string, unknown>;
    // Without metadata, a column is a tree column when some node is labelled with it.
    const isValue = typeof m['is_value'] === 'boolean' ? (m['is_value'] as boolean) : nodes.findColumn(name) < 0;
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

  const nodeCount = nodes.count;
  const labelOf = nodes.label.view();
  const parentOf = nodes.parent.view();
  const isObject = nodes.isObject.view();
  const columnOf = nodes.column.view();
  for (let i = 0; i < nodeCount; i++)
    if (isObject[i] === 0) throw new ProfileReadError(path, `node ${i} is not an object`);

  // Node labels are read lazily by index; each distinct label is checked once.
  const label = (i: number): string => {
    if (!(i >= 0 && i < nodeCount))
      throw new ProfileReadError(path, `data refers to node ${i}, but "nodes" has ${nodeCount} entries`);
    const id = labelOf[i]!;
    if (id < 0)
      throw new ProfileReadError(
        path,
        `node ${i} has ${id === LABEL_LIST ? 'a list' : 'an object'} as its label, not text`,
      );
    return nodes.labels.get(id);
  };

  // Tree nodes, parents first even if the file lists a child before its parent. A label's name is
  // interned once (in the order nodes are added, as one `add` per node would).
  const nameOfLabel = new Int32Array(nodes.labels.size).fill(-1);
  const add = (i: number, parent: number): number => {
    const id = labelOf[i]!;
    let nameId = id >= 0 ? nameOfLabel[id]! : -1;
    if (nameId < 0) {
      nameId = b.tree.strings.intern(label(i) || '<unnamed>');
      nameOfLabel[id] = nameId;
    }
    return b.tree.addNamed(parent, nameId, kind);
  };
  const modelOf = new Int32Array(nodeCount).fill(-1);
  const checkParent = (i: number, p: number): void => {
    if (!Number.isInteger(p)) throw new ProfileReadError(path, `node ${i} has parent ${p}, not an index into "nodes"`);
    if (p < 0 || p >= nodeCount) throw new ProfileReadError(path, `node ${i} has parent ${p}, outside "nodes"`);
  };
  const ensure = (start: number): void => {
    // The common case: a root, or a parent already in the tree.
    const p0 = parentOf[start]!;
    if (p0 !== p0) {
      modelOf[start] = add(start, -1);
      return;
    }
    if (p0 >>> 0 === p0 && p0 < nodeCount && modelOf[p0] !== -1) {
      modelOf[start] = add(start, modelOf[p0]!);
      return;
    }
    const chain: number[] = [];
    for (let i = start; modelOf[i] === -1;) {
      chain.push(i);
      if (chain.length > nodeCount) throw new ProfileReadError(path, `node ${start} is part of a parent cycle`);
      const p = parentOf[i]!;
      if (p !== p) break;
      checkParent(i, p);
      i = p;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const i = chain[k]!;
      if (modelOf[i] !== -1) continue;
      const p = parentOf[i]!;
      modelOf[i] = add(i, p === p ? modelOf[p]! : -1);
    }
  };
  const treeColumn = nodes.findColumn(treeName);
  if (treeColumn >= 0)
    for (let i = 0; i < nodeCount; i++) if (columnOf[i] === treeColumn && modelOf[i] === -1) ensure(i);

  const { data, rowCount } = doc;
  const nodeIndexOf = (r: number, c: number): number => {
    const v = data[c]![r]!;
    if (!Number.isInteger(v) || v < 0 || v >= nodeCount)
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
    const m = v >>> 0 === v && v < nodeCount ? modelOf[v]! : -1;
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
  // The sampled location of each row of the tree, as the id of its label (no string per row).
  let location: { key: Int32Array; text(key: number): string } | undefined;
  if (sourceCol >= 0) {
    const unknown = nodes.labelId('UNKNOWN:0');
    const key = new Int32Array(rowCount).fill(-1);
    const cells = rowCount > 0 ? data[sourceCol]! : new Float64Array(0);
    for (let r = 0; r < rowCount; r++) {
      if (rowNode[r]! < 0) continue;
      const v = cells[r]!;
      if (v !== v) key[r] = unknown;
      else {
        const i = v >>> 0 === v && v < nodeCount ? v : nodeIndexOf(r, sourceCol);
        const id = labelOf[i]!;
        if (id < 0 || isObject[i] === 0) label(i); // throws
        key[r] = id;
      }
    }
    location = { key, text: k => nodes.labels.get(k) };
  }
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
      ...(location ? { location } : {}),
    },
  };
  if (doc.stringCells > 0) b.warnings.push(`${doc.stringCells} non-numeric value cells were read as missing`);
  return assembleCaliperProfile(b, rows, NO_METRICS);
}

/** Files up to this size are parsed with JSON.parse (see {@link parseSmallJsonSplit}). */
const NATIVE_PARSE_BYTES = 8 << 20;

/**
 * A small file's document through native `JSON.parse`, replayed into the same handler the stream
 * feeds, or null to stream it (too large, gzip, not valid JSON — the stream then reports where —, or a
 * file where JSON.parse could read differently). JSON.parse keeps the last of duplicate keys, where
 * the handler appends a second "data" list to the first, so a second `"data"` in the text streams;
 * other duplicate keys end the same (the last value wins in both). A `\u` escape could spell "data",
 * and invalid UTF-8 (U+FFFD after decoding) may be replaced differently: both stream. An object's
 * integer-like keys come first from JSON.parse; only metadata can have such keys, and it is a plain
 * object in both cases. No token can be longer than the file, so a file within
 * `limits.maxLineLength` needs no token bound.
 */
function parseSmallJsonSplit(path: string, options: ReadOptions): JsonSplitDocument | null {
  const limit = Math.min(NATIVE_PARSE_BYTES, options.limits?.maxLineLength ?? Infinity);
  let text: string | null;
  try {
    text = readSmallText(path, limit);
  } catch {
    return null;
  }
  if (text === null || startsLikeGzip(text)) return null;
  const firstData = text.indexOf('"data"');
  if (text.indexOf('"data"', firstData + 1) >= 0 || text.includes('\\u') || text.includes('\uFFFD')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const direct = documentOf(value);
  if (direct) return direct;
  const handler = new JsonSplitHandler(path);
  try {
    replayJsonValue(value, handler);
  } catch (e) {
    if (e instanceof ProfileReadError) throw e;
    // Nesting deeper than the call stack allows: the stream reads it.
    return null;
  }
  return handler.finish();
}

/**
 * The document {@link JsonSplitHandler} makes of a `JSON.parse` value, taken from the value directly
 * when it has the usual shape: an object whose "data" is a list of equally long rows of numbers,
 * nulls and booleans and whose "nodes" is a list. Replaying such a value event by event costs a cold
 * process more than the rest of the read. Null for any other shape: the replay then reads it, with
 * its messages.
 */
function documentOf(value: unknown): JsonSplitDocument | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const doc: JsonSplitDocument = { data: [], rowWidth: -1, rowCount: 0, stringCells: 0, metadata: {} };
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const v = object[key];
    if (key === 'data') {
      if (!Array.isArray(v) || !dataInto(v, doc)) return null;
    } else if (key === 'nodes') {
      if (!Array.isArray(v)) return null;
      doc.nodes = nodeColumnsOf(v);
    } else if (key === 'columns') doc.columns = v;
    else if (key === 'column_metadata') doc.columnMetadata = v;
    else doc.metadata[key] = v as MetadataValue;
  }
  return doc;
}

/** The rows of "data" as columns into `doc` (as {@link JsonSplitHandler} fills them); false for rows it would refuse or count. */
function dataInto(rows: unknown[], doc: JsonSplitDocument): boolean {
  const count = rows.length;
  if (count === 0) return true;
  const first = rows[0];
  if (!Array.isArray(first)) return false;
  const width = first.length;
  const data = Array.from({ length: width }, () => new Float64Array(count));
  for (let r = 0; r < count; r++) {
    const row = rows[r];
    if (!Array.isArray(row) || row.length !== width) return false;
    for (let c = 0; c < width; c++) {
      const v = row[c];
      if (typeof v === 'number') data[c]![r] = v;
      else if (v === null) data[c]![r] = NaN;
      else if (typeof v === 'boolean') data[c]![r] = Number(v);
      else return false;
    }
  }
  doc.data = data;
  doc.rowWidth = width;
  doc.rowCount = count;
  return true;
}

/** The "nodes" list in columns, entry by entry as {@link JsonSplitHandler} reads its events. */
function nodeColumnsOf(entries: unknown[]): NodeColumns {
  const nodes = new NodeColumns();
  const empty = nodes.labelId('');
  for (const entry of entries) {
    let label = empty;
    let column = -1;
    let parent = NaN;
    const isObject = typeof entry === 'object' && entry !== null;
    if (isObject && !Array.isArray(entry)) {
      const fields = entry as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        const v = fields[key];
        if (key === 'label') {
          if (typeof v === 'string') label = nodes.labelId(v);
          else if (v === null) label = nodes.labelId('');
          else if (typeof v === 'object') label = Array.isArray(v) ? LABEL_LIST : LABEL_OBJECT;
          else label = nodes.labelId(String(v));
        } else if (key === 'column') column = typeof v === 'string' ? nodes.columnId(v) : -1;
        else if (key === 'parent') parent = typeof v === 'number' ? v : NaN;
      }
    }
    nodes.label.push(label);
    nodes.column.push(column);
    nodes.parent.push(parent);
    nodes.isObject.push(isObject ? 1 : 0);
  }
  return nodes;
}

/** Reads a json-split file; `nativeParse: false` streams it whatever its size (tests compare the two). */
export async function readCaliperJsonSplit(path: string, options: ReadOptions, nativeParse: boolean): Promise<Profile> {
  throwIfAborted(options.signal);
  let doc = nativeParse ? parseSmallJsonSplit(path, options) : null;
  if (!doc)
    try {
      const handler = new JsonSplitHandler(path);
      await tokenizeJsonFile(path, handler, {
        signal: options.signal,
        limits: options.limits,
        onProgress: (read, total) =>
          options.onProgress?.(total > 0 ? 0.9 * (read / total) : 0, 'Reading Caliper json-split'),
      });
      doc = handler.finish();
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof JsonSyntaxError)
        throw new ProfileReadError(path, `not valid JSON (${e.message.replace(`${path}: `, '')})`, { cause: e });
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
  options.onProgress?.(0.9, 'Building the call tree');
  const profile = buildCaliperProfile(doc, path);
  options.onProgress?.(1);
  return profile;
}

export const caliperJsonSplitReader: ProfileReader = {
  ...caliperJsonSplitSniffer,
  read: (path: string, options: ReadOptions = {}) => readCaliperJsonSplit(path, options, true),
};
