import { NodeKind } from '../model/call-tree';
import { GrowableFloat64 } from '../model/growable';
import { normaliseUnit, type MetricAggregation, type MetricDescriptor, type MetricKind } from '../model/metric';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { JsonSyntaxError, tokenizeJsonFile, ValueAssembler, type JsonHandler } from './json/json-tokenizer';
import { isAbortError, ProfileReadError, type FileSample, type ProfileReader, type ReadOptions } from './reader';

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

const CALLPATH = 'source.function#callpath.address';
const PATH = 'path';
const SOURCELOC = 'sourceloc#cali.sampler.pc';
const MODULE = 'module#cali.sampler.pc';
const RANK = 'mpi.rank';

interface JsonSplitDocument {
  rows: GrowableFloat64;
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
  readonly doc: JsonSplitDocument = { rows: new GrowableFloat64(1 << 16), rowWidth: -1, rowCount: 0, stringCells: 0, metadata: {} };
  private depth = 0;
  private currentKey: string | null = null;
  private inData = false;
  private rowLength = 0;
  private assembling = false;
  private readonly assembler = new ValueAssembler();

  constructor(private readonly path: string) {}

  startObject(): void {
    if (this.assembling) return this.forward(a => a.startObject());
    if (this.depth === 0) { this.depth = 1; return; }
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
    if (this.depth === 0) this.fail('the top level is an array; a json-split profile is an object with "data", "columns" and "nodes"');
    if (this.inData) {
      if (this.depth === 2) { this.depth = 3; this.rowLength = 0; return; }
      this.fail(`row ${this.doc.rowCount + 1} of "data" holds a nested array`);
    }
    if (this.currentKey === 'data') { this.inData = true; this.depth = 2; return; }
    this.beginValue();
    this.forward(a => a.startArray());
  }

  endArray(): void {
    if (this.assembling) return this.forward(a => a.endArray());
    if (this.depth === 3) {
      const d = this.doc;
      if (d.rowWidth === -1) d.rowWidth = this.rowLength;
      else if (this.rowLength !== d.rowWidth) this.fail(`row ${d.rowCount + 1} of "data" has ${this.rowLength} values, earlier rows have ${d.rowWidth}`);
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
    this.doc.rows.push(v);
    this.rowLength++;
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

interface ColumnPlan {
  index: number;
  name: string;
  isValue: boolean;
  alias?: string;
  unit?: string;
}

interface MetricPlan {
  descriptor: MetricDescriptor;
  exclusiveColumn: number;
  inclusiveColumn: number;
}

/** Names Hatchet gives Caliper's time columns, so results line up with Hatchet and Thicket. */
const EXCLUSIVE_TIME = new Set(['sum#time.duration', 'sum#avg#sum#time.duration']);
const INCLUSIVE_TIME = new Set(['inclusive#sum#time.duration', 'sum#avg#inclusive#sum#time.duration']);

/** Splits Caliper's `<op>#<op>#attr` naming into what the model needs. */
function classify(column: ColumnPlan): { name: string; kind: Exclude<MetricKind, 'both'>; aggregation: MetricAggregation; pairKey: string } {
  const key = column.name;
  if (EXCLUSIVE_TIME.has(key)) return { name: 'time', kind: 'exclusive', aggregation: 'sum', pairKey: 'time' };
  if (INCLUSIVE_TIME.has(key)) return { name: 'time', kind: 'inclusive', aggregation: 'sum', pairKey: 'time' };
  const ops = key.split('#');
  const first = ops.length > 1 ? ops[0]! : '';
  const aggregation: MetricAggregation = first === 'avg' || first === 'min' || first === 'max' ? first : 'sum';
  const inclusive = ops.slice(0, -1).includes('inclusive');
  // `inclusive#X` pairs with `X` when both are present.
  const pairKey = key.startsWith('inclusive#') ? key.slice('inclusive#'.length) : key;
  return { name: key, kind: inclusive ? 'inclusive' : 'exclusive', aggregation, pairKey };
}

function unitOf(column: ColumnPlan): string {
  if (column.unit) return normaliseUnit(column.unit);
  const attr = column.name.split('#').pop()!;
  // Caliper before 2.x wrote time.duration in microseconds without a unit attribute.
  if (attr === 'time.duration' || column.name === 'time') return 'µs';
  if (attr === 'time.duration.ns') return 'ns';
  if (column.name === 'count' || attr === 'count') return 'count';
  return '';
}

function planMetrics(columns: ColumnPlan[], skip: Set<number>): MetricPlan[] {
  const byPair = new Map<string, MetricPlan>();
  const plans: MetricPlan[] = [];
  for (const c of columns) {
    if (!c.isValue || skip.has(c.index)) continue;
    const cls = classify(c);
    let plan = byPair.get(cls.pairKey);
    if (plan && ((cls.kind === 'exclusive' && plan.exclusiveColumn < 0) || (cls.kind === 'inclusive' && plan.inclusiveColumn < 0))) {
      // The other half of a pair: e.g. `inclusive#sum#time.duration` after `sum#time.duration`.
      if (cls.kind === 'exclusive') { plan.exclusiveColumn = c.index; plan.descriptor.name = cls.name; } else plan.inclusiveColumn = c.index;
      plan.descriptor.kind = 'both';
      plan.descriptor.sourceKeys.push(c.name);
      if (!plan.descriptor.unit) plan.descriptor.unit = unitOf(c);
      continue;
    }
    plan = {
      descriptor: { name: cls.name, label: c.alias ?? cls.name, sourceKeys: [c.name], unit: unitOf(c), kind: cls.kind, aggregation: cls.aggregation },
      exclusiveColumn: cls.kind === 'exclusive' ? c.index : -1,
      inclusiveColumn: cls.kind === 'inclusive' ? c.index : -1,
    };
    byPair.set(cls.pairKey, plan);
    plans.push(plan);
  }
  return plans;
}

function asArray(v: unknown, what: string, path: string): unknown[] {
  if (v === undefined) throw new ProfileReadError(path, `not a Caliper json-split profile: "${what}" is missing`);
  if (!Array.isArray(v)) throw new ProfileReadError(path, `"${what}" must be an array`);
  return v;
}

/** Splits `/path/file.c:123` into file and line (Caliper's source-location labels). */
export function parseSourceLocation(label: string): { file: string | null; line: number | null } {
  const m = /^(.*):(\d+)$/.exec(label);
  if (!m) return { file: label || null, line: null };
  const file = m[1]!;
  const line = Number(m[2]);
  if (file === 'UNKNOWN' || file === '') return { file: null, line: null };
  return { file, line: line > 0 ? line : null };
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
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
    const isValue = typeof m['is_value'] === 'boolean' ? (m['is_value'] as boolean) : !nodes.some(n => (n as { column?: unknown })?.column === name);
    return {
      index, name, isValue,
      alias: typeof m['attribute.alias'] === 'string' ? (m['attribute.alias'] as string) : undefined,
      unit: typeof m['attribute.unit'] === 'string' ? (m['attribute.unit'] as string) : undefined,
    };
  });
  const col = (name: string) => columns.findIndex(c => c.name === name);
  const treeName = col(CALLPATH) >= 0 ? CALLPATH : col(PATH) >= 0 ? PATH : null;
  if (!treeName) throw new ProfileReadError(path, `no call-tree column: expected "${CALLPATH}" or "${PATH}" among the columns (${columnNames.join(', ')})`);
  const treeCol = col(treeName);
  const rankCol = col(RANK);
  const sourceCol = col(SOURCELOC);
  const moduleCol = col(MODULE);
  if (doc.rowCount > 0 && doc.rowWidth !== columns.length) {
    throw new ProfileReadError(path, `rows of "data" have ${doc.rowWidth} values but there are ${columns.length} columns`);
  }

  const b = new ProfileBuilder('caliper-json-split', path);
  const kind = treeName === CALLPATH ? NodeKind.Function : NodeKind.Region;

  // Node labels are read lazily by index; validate the shape once.
  const label = (i: number): string => {
    const n = nodes[i] as { label?: unknown } | undefined;
    if (!n || typeof n !== 'object') throw new ProfileReadError(path, `data refers to node ${i}, but "nodes" has ${nodes.length} entries`);
    return typeof n.label === 'string' ? n.label : String(n.label ?? '');
  };

  // Tree nodes, parents first even if the file lists a child before its parent.
  const modelOf = new Int32Array(nodes.length).fill(-1);
  const ensure = (start: number): number => {
    const chain: number[] = [];
    for (let i = start; modelOf[i] === -1; ) {
      chain.push(i);
      if (chain.length > nodes.length) throw new ProfileReadError(path, `node ${start} is part of a parent cycle`);
      const n = nodes[i] as { column?: unknown; parent?: unknown };
      if (typeof n.parent !== 'number') break;
      if (n.parent < 0 || n.parent >= nodes.length) throw new ProfileReadError(path, `node ${i} has parent ${n.parent}, outside "nodes"`);
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

  // Contexts: every rank 0..max gets a context (as Hatchet gives every node a row per rank).
  const { rows, rowWidth: w, rowCount } = doc;
  const rankContext: number[] = [];
  let unknownRankContext = -1;
  if (rankCol >= 0) {
    let maxRank = -1;
    for (let r = 0; r < rowCount; r++) {
      if (Number.isNaN(rows.get(r * w + treeCol))) continue;
      const rank = rows.get(r * w + rankCol);
      if (Number.isInteger(rank) && rank > maxRank) maxRank = rank;
    }
    for (let k = 0; k <= maxRank; k++) rankContext.push(b.context({ rank: k }));
  }
  const contextOfRow = (r: number): number => {
    if (rankCol < 0) return b.context({});
    const rank = rows.get(r * w + rankCol);
    if (Number.isInteger(rank) && rank >= 0) return rankContext[rank]!;
    if (unknownRankContext < 0) {
      unknownRankContext = b.context({ rank: -1 });
      b.warnings.push('some rows have no mpi.rank; their values are kept in a separate context');
    }
    return unknownRankContext;
  };

  const nodeIndexOf = (r: number, c: number): number => {
    const v = rows.get(r * w + c);
    if (!Number.isInteger(v) || v < 0 || v >= nodes.length) throw new ProfileReadError(path, `row ${r + 1}, column "${columns[c]!.name}": ${v} is not an index into "nodes"`);
    return v;
  };
  const treeNodeOfRow = (r: number): number => {
    const v = rows.get(r * w + treeCol);
    if (Number.isNaN(v)) return -1;
    const i = nodeIndexOf(r, treeCol);
    if (modelOf[i] === -1) throw new ProfileReadError(path, `row ${r + 1} refers to node ${i} ("${label(i)}"), which is not a "${treeName}" node`);
    return modelOf[i]!;
  };

  // Source locations: a node sampled at one location takes it; at several, one statement child each.
  const rowTarget = new Int32Array(rowCount).fill(-1);
  const statementChildren: [child: number, parent: number][] = [];
  if (sourceCol >= 0) {
    const locationsOf = new Map<number, Map<string, number[]>>();
    for (let r = 0; r < rowCount; r++) {
      const node = treeNodeOfRow(r);
      if (node < 0) continue;
      const loc = Number.isNaN(rows.get(r * w + sourceCol)) ? 'UNKNOWN:0' : label(nodeIndexOf(r, sourceCol));
      let locs = locationsOf.get(node);
      if (!locs) locationsOf.set(node, (locs = new Map()));
      let list = locs.get(loc);
      if (!list) locs.set(loc, (list = []));
      list.push(r);
    }
    for (const [node, locs] of locationsOf) {
      if (locs.size === 1) {
        const [loc, list] = [...locs][0]!;
        const { file, line } = parseSourceLocation(loc);
        if (file) b.tree.setLocation(node, file, line);
        for (const r of list) rowTarget[r] = node;
        continue;
      }
      for (const [loc, list] of [...locs].sort((a, c) => a[0].localeCompare(c[0]))) {
        const { file, line } = parseSourceLocation(loc);
        const name = file ? `${basename(file)}:${line ?? 0}` : loc;
        const child = b.tree.add(node, name, NodeKind.Statement, { file, line });
        statementChildren.push([child, node]);
        for (const r of list) rowTarget[r] = child;
      }
    }
  } else {
    for (let r = 0; r < rowCount; r++) rowTarget[r] = treeNodeOfRow(r);
  }

  // Load modules: a node takes the module of its samples; a function whose statements all share a
  // module takes that one too.
  if (moduleCol >= 0) {
    for (let r = 0; r < rowCount; r++) {
      const t = rowTarget[r]!;
      if (t < 0 || Number.isNaN(rows.get(r * w + moduleCol)) || b.tree.moduleId(t) !== 0) continue;
      b.tree.setModule(t, label(nodeIndexOf(r, moduleCol)));
    }
    const agreed = new Map<number, number>(); // function node → module id, or -1 on conflict
    for (const [child, parent] of statementChildren) {
      const m = b.tree.moduleId(child);
      if (m === 0) continue;
      const seen = agreed.get(parent);
      agreed.set(parent, seen === undefined || seen === m ? m : -1);
    }
    for (const [parent, m] of agreed) if (m > 0 && b.tree.moduleId(parent) === 0) b.tree.setModule(parent, b.tree.strings.get(m));
    b.tree.inferModulesByName();
  }

  const skip = new Set([treeCol, rankCol, sourceCol, moduleCol].filter(c => c >= 0));
  const plans = planMetrics(columns, skip);
  if (plans.length === 0) throw new ProfileReadError(path, 'no metric columns (columns with "is_value": true other than mpi.rank)');
  const metricIds = plans.map(p => b.addMetric(p.descriptor));
  for (let r = 0; r < rowCount; r++) {
    const node = rowTarget[r]!;
    if (node < 0) continue;
    const ctx = contextOfRow(r);
    const base = r * w;
    for (let k = 0; k < plans.length; k++) {
      const p = plans[k]!;
      if (p.exclusiveColumn >= 0) b.addExclusive(metricIds[k]!, node, ctx, rows.get(base + p.exclusiveColumn));
      if (p.inclusiveColumn >= 0) b.addInclusive(metricIds[k]!, node, ctx, rows.get(base + p.inclusiveColumn));
    }
  }
  if (doc.stringCells > 0) b.warnings.push(`${doc.stringCells} non-numeric value cells were read as missing`);
  Object.assign(b.metadata, doc.metadata);
  return b.build(primaryMetricOf(plans.map(p => p.descriptor)));
}

/** Hatchet's choice: `time` when present, else the average inclusive time per rank, else the first metric. */
function primaryMetricOf(metrics: MetricDescriptor[]): number {
  const order = ['time', 'avg#inclusive#sum#time.duration', 'sum#inclusive#sum#time.duration'];
  for (const name of order) {
    const i = metrics.findIndex(m => m.name === name);
    if (i >= 0) return i;
  }
  const t = metrics.findIndex(m => m.unit === 's' || m.unit === 'µs' || m.unit === 'ms' || m.unit === 'ns');
  return t >= 0 ? t : 0;
}

export const caliperJsonSplitReader: ProfileReader = {
  id: 'caliper-json-split',
  name: 'Caliper json-split',

  sniff(sample: FileSample): number {
    if (sample.isDirectory) return 0;
    const head = sample.head.replace(/^\uFEFF/, '').trimStart();
    if (!head.startsWith('{')) return 0;
    const text = head + sample.tail;
    const has = (k: string) => text.includes(`"${k}"`);
    // json-split keeps the big "data" first and "columns"/"nodes" last: look at both ends.
    if (has('columns') && has('nodes') && (has('column_metadata') || has('data'))) return 0.95;
    if (/^\{\s*"data"\s*:\s*\[\s*\[/.test(head)) return 0.6;
    return 0;
  },

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const handler = new JsonSplitHandler(path);
    try {
      await tokenizeJsonFile(path, handler, {
        signal: options.signal,
        onProgress: (read, total) => options.onProgress?.(total > 0 ? 0.9 * (read / total) : 0, 'Reading Caliper json-split'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof JsonSyntaxError) throw new ProfileReadError(path, `not valid JSON (${e.message.replace(`${path}: `, '')})`, { cause: e });
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
    options.onProgress?.(0.9, 'Building the call tree');
    const profile = buildCaliperProfile(handler.doc, path);
    options.onProgress?.(1);
    return profile;
  },
};
