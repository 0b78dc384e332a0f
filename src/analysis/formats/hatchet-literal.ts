import { NodeKind } from '../model/call-tree';
import { GrowableFloat64, GrowableInt32, GrowableUint8 } from '../model/growable';
import { normaliseUnit, type MetricAggregation, type MetricDescriptor } from '../model/metric';
import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { PythonJsonFilter } from './hatchet-literal/python-json-filter';
import { readChunks } from './io/file-input';
import { JsonSyntaxError, JsonTokenizer, tokenizeJsonFile, type JsonHandler } from './json/json-tokenizer';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { hatchetLiteralSniffer } from './sniffers/hatchet-literal';

/**
 * Hatchet's "literal" format: what `GraphFrame.to_literal()` returns and `GraphFrame.from_literal()`
 * reads, saved with `json.dump`. A list of root nodes, each
 *
 *   { "name": "main", "frame": {"name": "main", "type": "function", …},
 *     "metrics": {"time": 1.5, "time (inc)": 9.0, "_hatchet_nid": 0},
 *     "attributes": {"file": …, "line": …, "module": …}, "children": [ … ] }
 *
 * How it is read (Hatchet 1.4 `literal_reader.py` semantics, with the differences noted):
 * - The name is `frame.name`, else the node's own `name` (statement frames carry only file/line).
 *   Older hand-written literals without a `frame` are accepted by their `name`.
 * - file/line/module come from the frame, else `attributes`, else keys of the node itself.
 * - Every numeric key of `metrics` is a metric column, except `_hatchet_nid`, which is the node's
 *   id (Hatchet keeps it as a column too; it is no measurement). `X (inc)` is the inclusive partner
 *   of `X`; other names containing `(inc)`, and Caliper's `…#inclusive#…` aggregates, are inclusive.
 * - `to_literal` writes one (rank, thread) of the GraphFrame and no rank column, so a literal has
 *   exactly one execution context.
 * - A dict whose `_hatchet_nid` was already read refers to that node (`to_literal` writes a node of
 *   a call graph once with its children and then as a bare reference under its other parents). Our
 *   model is a tree: the node stays under its first parent, its values count once, and any children
 *   of the reference are attached to it.
 * - Keys may come in any order (`json.dump(sort_keys=True)` puts "children" before "frame"), so
 *   node ids are handed out when a node opens and its attributes are filled in when they arrive.
 * - Python writes NaN as a bare `NaN`; such files are read again through a filter that makes it null.
 *
 * The model's invariant (exclusive values of a subtree add up to the inclusive value) is checked for
 * every `X` / `X (inc)` pair; where the file breaks it (e.g. HPCToolkit's function-scope exclusive,
 * oracle README caveats 6 and 8), the inclusive values are kept as `X`, its exclusive values are
 * derived from them, and the recorded exclusive values are kept as the metric `X (exclusive as recorded)`.
 */

export const RECORDED_EXCLUSIVE_SUFFIX = ' (exclusive as recorded)';
const INC_SUFFIX = ' (inc)';
const NID_KEY = '_hatchet_nid';

// What the innermost open container is, for the handler.
const R_ROOTS = 1;
const R_NODE = 2;
const R_CHILDREN = 3;
const R_METRICS = 4;
const R_FRAME = 5;
const R_ATTRIBUTES = 6;

// Where a node attribute came from; a higher source wins.
const FROM_NODE = 1;
const FROM_ATTRIBUTES = 2;
const FROM_FRAME = 3;

// Flags per node.
const HAS_FRAME = 1;
const HAS_NAME = 2;

/** Node columns filled while the file streams by (indexed by node id in order of opening). */
class LiteralNodes {
  readonly parent = new GrowableInt32();
  readonly flags = new GrowableUint8();
  readonly kind = new GrowableUint8();
  readonly kindSource = new GrowableUint8();
  readonly line = new GrowableInt32();
  readonly lineSource = new GrowableUint8();
  readonly fileSource = new GrowableUint8();
  readonly moduleSource = new GrowableUint8();
  readonly nid = new GrowableFloat64();
  readonly frameName: string[] = [];
  readonly ownName: string[] = [];
  readonly file: string[] = [];
  readonly module: string[] = [];

  get size(): number {
    return this.parent.length;
  }

  open(parent: number): number {
    this.flags.push(0);
    this.kind.push(NodeKind.Function);
    this.kindSource.push(0);
    this.line.push(0);
    this.lineSource.push(0);
    this.fileSource.push(0);
    this.moduleSource.push(0);
    this.nid.push(NaN);
    this.frameName.push('');
    this.ownName.push('');
    this.file.push('');
    this.module.push('');
    return this.parent.push(parent);
  }

  /** Sets a location attribute of node `i` unless a better source already did. */
  attribute(i: number, key: string, value: string | number, source: number): void {
    switch (key) {
      case 'type':
      case 'kind':
        if (typeof value === 'string' && source >= this.kindSource.get(i)) {
          this.kind.set(i, kindOf(value));
          this.kindSource.set(i, source);
        }
        return;
      case 'file':
      case 'filename':
      case 'file_name':
        if (typeof value === 'string' && value !== '' && source >= this.fileSource.get(i)) {
          this.file[i] = value;
          this.fileSource.set(i, source);
        }
        return;
      case 'line':
      case 'lineno':
      case 'line_number': {
        const line = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
        if (Number.isInteger(line) && line > 0 && line < 2 ** 31 && source >= this.lineSource.get(i)) {
          this.line.set(i, line);
          this.lineSource.set(i, source);
        }
        return;
      }
      case 'module':
      case 'library':
        if (typeof value === 'string' && value !== '' && source >= this.moduleSource.get(i)) {
          this.module[i] = value;
          this.moduleSource.set(i, source);
        }
        return;
    }
  }
}

/** Hatchet frame types (and HPCToolkit's XML tags, which Hatchet keeps as `type`) to node kinds. */
function kindOf(type: string): NodeKind {
  switch (type.toLowerCase()) {
    case 'loop':
    case 'l':
      return NodeKind.Loop;
    case 'statement':
    case 's':
    case 'line':
    case 'instruction':
      return NodeKind.Statement;
    case 'region':
      return NodeKind.Region;
    case 'call site':
    case 'callsite':
    case 'call_site':
    case 'c':
      return NodeKind.CallSite;
    default:
      return NodeKind.Function;
  }
}

/** Streams a literal: node attributes into {@link LiteralNodes}, metric values into flat columns. */
class LiteralHandler implements JsonHandler {
  readonly nodes = new LiteralNodes();
  readonly metricKeys: string[] = [];
  readonly metricKeyIds = new Map<string, number>();
  /** Per metric key: how many values were text or booleans (no numbers). */
  readonly textValues: number[] = [];
  readonly valueNode = new GrowableInt32(1 << 12);
  readonly valueKey = new GrowableInt32(1 << 12);
  readonly valueNumber = new GrowableFloat64(1 << 12);
  /** Metric values too large for a double, read as missing. */
  outOfRange = 0;
  ended = false;

  private roles = new Uint8Array(64);
  private depth = 0;
  /** Ids of the open node objects, innermost last. */
  private nodeStack = new Int32Array(64);
  private nodeDepth = 0;
  private currentKey = '';
  /** Depth of nested containers being skipped (values no part of the model). */
  private skipping = 0;

  constructor(private readonly path: string) {}

  startObject(): void {
    if (this.skipping > 0) {
      this.skipping++;
      return;
    }
    const role = this.depth === 0 ? 0 : this.roles[this.depth - 1]!;
    if (role === R_ROOTS || role === R_CHILDREN) {
      const parent = role === R_ROOTS ? -1 : this.nodeStack[this.nodeDepth - 1]!;
      const id = this.nodes.open(parent);
      if (this.nodeDepth === this.nodeStack.length) this.nodeStack = grow(this.nodeStack);
      this.nodeStack[this.nodeDepth++] = id;
      return this.push(R_NODE);
    }
    if (role === R_NODE) {
      const node = this.nodeStack[this.nodeDepth - 1]!;
      switch (this.currentKey) {
        case 'metrics':
          return this.push(R_METRICS);
        case 'frame':
          this.nodes.flags.set(node, this.nodes.flags.get(node) | HAS_FRAME);
          return this.push(R_FRAME);
        case 'attributes':
          return this.push(R_ATTRIBUTES);
        case 'children':
          this.fail(`${this.nodeLabel(node)}: "children" must be a list of nodes, not an object`);
      }
    }
    if (role === 0)
      this.fail(
        'the top level is an object; a Hatchet literal is a list of root nodes ([{"frame": …, "metrics": …, "children": […]}, …])',
      );
    if (role === R_METRICS) this.text();
    this.skipping = 1;
  }

  endObject(): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const role = this.roles[--this.depth]!;
    if (role !== R_NODE) return;
    const node = this.nodeStack[--this.nodeDepth]!;
    if ((this.nodes.flags.get(node) & (HAS_FRAME | HAS_NAME)) === 0) {
      this.fail(`${this.nodeLabel(node)} has neither "frame" nor "name"`);
    }
  }

  startArray(): void {
    if (this.skipping > 0) {
      this.skipping++;
      return;
    }
    const role = this.depth === 0 ? 0 : this.roles[this.depth - 1]!;
    if (role === 0) return this.push(R_ROOTS);
    if (role === R_NODE && this.currentKey === 'children') return this.push(R_CHILDREN);
    if (role === R_ROOTS || role === R_CHILDREN) this.fail(`${this.elementLabel(role)} is a list; nodes are objects`);
    if (role === R_NODE && (this.currentKey === 'metrics' || this.currentKey === 'frame')) {
      this.fail(
        `${this.nodeLabel(this.nodeStack[this.nodeDepth - 1]!)}: "${this.currentKey}" must be an object, not a list`,
      );
    }
    if (role === R_METRICS) this.text();
    this.skipping = 1;
  }

  endArray(): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const role = this.roles[--this.depth]!;
    if (role === R_ROOTS) this.ended = true;
  }

  key(name: string): void {
    if (this.skipping === 0) this.currentKey = name;
  }

  string(value: string): void {
    if (this.skipping > 0) return;
    const role = this.depth === 0 ? 0 : this.roles[this.depth - 1]!;
    switch (role) {
      case R_METRICS:
        return this.text();
      case R_NODE:
        return this.nodeScalar(value);
      case R_FRAME:
        return this.frameScalar(value);
      case R_ATTRIBUTES:
        return this.nodes.attribute(this.nodeStack[this.nodeDepth - 1]!, this.currentKey, value, FROM_ATTRIBUTES);
      default:
        return this.scalarOutsideNode(role);
    }
  }

  number(value: number): void {
    if (this.skipping > 0) return;
    const role = this.depth === 0 ? 0 : this.roles[this.depth - 1]!;
    switch (role) {
      case R_METRICS: {
        const node = this.nodeStack[this.nodeDepth - 1]!;
        if (this.currentKey === NID_KEY) {
          this.nodes.nid.set(node, value);
          return;
        }
        // Beyond the range of a double (e.g. 1e400): no usable value.
        if (!Number.isFinite(value)) {
          this.metricKey(this.currentKey);
          this.outOfRange++;
          return;
        }
        this.valueNode.push(node);
        this.valueKey.push(this.metricKey(this.currentKey));
        this.valueNumber.push(value);
        return;
      }
      case R_NODE:
        return this.nodeScalar(value);
      case R_FRAME:
        return this.frameScalar(value);
      case R_ATTRIBUTES:
        return this.nodes.attribute(this.nodeStack[this.nodeDepth - 1]!, this.currentKey, value, FROM_ATTRIBUTES);
      default:
        return this.scalarOutsideNode(role);
    }
  }

  literal(value: boolean | null): void {
    if (this.skipping > 0) return;
    const role = this.depth === 0 ? 0 : this.roles[this.depth - 1]!;
    if (role === R_METRICS) {
      // null is pandas' NaN: a known column without a value here.
      if (value === null) {
        if (this.currentKey !== NID_KEY) this.metricKey(this.currentKey);
      } else this.text();
      return;
    }
    if (role === R_NODE || role === R_FRAME || role === R_ATTRIBUTES) return;
    this.scalarOutsideNode(role);
  }

  private nodeScalar(value: string | number): void {
    const node = this.nodeStack[this.nodeDepth - 1]!;
    switch (this.currentKey) {
      case 'name':
        this.nodes.ownName[node] = String(value);
        this.nodes.flags.set(node, this.nodes.flags.get(node) | HAS_NAME);
        return;
      case 'children':
      case 'metrics':
      case 'frame':
        this.fail(
          `${this.nodeLabel(node)}: "${this.currentKey}" must be ${this.currentKey === 'children' ? 'a list' : 'an object'}, not ${typeof value === 'string' ? 'text' : 'a number'}`,
        );
    }
    this.nodes.attribute(node, this.currentKey, value, FROM_NODE);
  }

  private frameScalar(value: string | number): void {
    const node = this.nodeStack[this.nodeDepth - 1]!;
    if (this.currentKey === 'name') this.nodes.frameName[node] = String(value);
    else this.nodes.attribute(node, this.currentKey, value, FROM_FRAME);
  }

  private scalarOutsideNode(role: number): void {
    if (role === 0) this.fail('the top level is a single value; a Hatchet literal is a list of root nodes');
    this.fail(`${this.elementLabel(role)} is not a node object`);
  }

  private metricKey(name: string): number {
    let id = this.metricKeyIds.get(name);
    if (id === undefined) {
      id = this.metricKeys.length;
      this.metricKeys.push(name);
      this.metricKeyIds.set(name, id);
      this.textValues.push(0);
    }
    return id;
  }

  /** A metric value that is no number (text, a boolean, a nested value). */
  private text(): void {
    if (this.currentKey !== NID_KEY) this.textValues[this.metricKey(this.currentKey)]!++;
  }

  private push(role: number): void {
    if (this.depth === this.roles.length) this.roles = grow(this.roles);
    this.roles[this.depth++] = role;
  }

  private elementLabel(role: number): string {
    return role === R_ROOTS
      ? 'an element of the root list'
      : `a child of ${this.nodeLabel(this.nodeStack[this.nodeDepth - 1]!)}`;
  }

  /** `node 12 ("main" › "solve")`, for messages; names may still be unknown for open nodes. */
  private nodeLabel(node: number): string {
    const names: string[] = [];
    for (let i = node; i >= 0 && names.length < 4; i = this.nodes.parent.get(i)) {
      const name = this.nodes.frameName[i] || this.nodes.ownName[i];
      names.push(name ? JSON.stringify(name) : '?');
    }
    return `node ${node} (${names.reverse().join(' › ')})`;
  }

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, reason);
  }
}

function grow<T extends Uint8Array | Int32Array>(a: T): T {
  const next = new (a.constructor as new (n: number) => T)(a.length * 2);
  next.set(a);
  return next;
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

/** A metric column plan: which keys feed the exclusive and inclusive sides. */
interface MetricPlan {
  name: string;
  exclusiveKey: number;
  inclusiveKey: number;
}

/**
 * Groups metric keys into metrics: `X` with `X (inc)`; names containing `(inc)`, and Caliper's
 * `…#inclusive#…` aggregates, are inclusive on their own; everything else is exclusive.
 */
function planMetrics(keys: readonly string[], usable: (k: number) => boolean): MetricPlan[] {
  const plans: MetricPlan[] = [];
  const byName = new Map<string, MetricPlan>();
  const plan = (name: string): MetricPlan => {
    let p = byName.get(name);
    if (!p) {
      p = { name, exclusiveKey: -1, inclusiveKey: -1 };
      byName.set(name, p);
      plans.push(p);
    }
    return p;
  };
  keys.forEach((key, k) => {
    if (!usable(k)) return;
    if (key.endsWith(INC_SUFFIX) && key.length > INC_SUFFIX.length)
      plan(key.slice(0, -INC_SUFFIX.length)).inclusiveKey = k;
    else if (key.includes('(inc)') || /(^|#)inclusive#/.test(key)) plan(key).inclusiveKey = k;
    else plan(key).exclusiveKey = k;
  });
  return plans;
}

/** A unit written into the metric's name, e.g. `REALTIME (sec)`; literals carry no units otherwise. */
function unitOf(name: string): string {
  const m = /\((sec|secs|seconds|s|msec|ms|usec|us|µs|nsec|ns|bytes?)\)$/i.exec(name);
  return m ? normaliseUnit(m[1]) : '';
}

/** Caliper's cross-rank statistics keep their meaning in a literal exported from a Caliper GraphFrame. */
function aggregationOf(name: string): MetricAggregation {
  const op = /^(avg|min|max)#/.exec(name)?.[1];
  return op === 'avg' || op === 'min' || op === 'max' ? op : 'sum';
}

/** `time` first, then Caliper's average inclusive time, then any time-like metric, else the first. */
function primaryMetricOf(metrics: MetricDescriptor[]): number {
  const usable = (m: MetricDescriptor) => !m.name.endsWith(RECORDED_EXCLUSIVE_SUFFIX);
  for (const name of ['time', 'avg#inclusive#sum#time.duration']) {
    const i = metrics.findIndex(m => m.name === name);
    if (i >= 0) return i;
  }
  const timeLike = metrics.findIndex(
    m => usable(m) && (/time/i.test(m.name) || ['s', 'ms', 'µs', 'ns'].includes(m.unit)),
  );
  return timeLike >= 0 ? timeLike : 0;
}

/** Relative tolerance of the subtree-sum check (the oracle's `inclusive_consistency` uses the same). */
const CONSISTENCY_TOLERANCE = 1e-6;

/** Builds the model from what the handler collected. */
function buildLiteralProfile(
  h: LiteralHandler,
  path: string,
  signal: AbortSignal | undefined,
  notes: string[],
): Profile {
  const nodes = h.nodes;
  const n = nodes.size;
  if (n === 0) throw new ProfileReadError(path, 'the list of root nodes is empty: there is no call tree');

  // References to nodes already read (call-graph edges) fold into the first occurrence.
  const { canonical, references } = foldReferences(nodes.nid.finish());
  const b = new ProfileBuilder('hatchet-literal', path);
  b.warnings.push(...notes);
  const modelOf = new Int32Array(n).fill(-1);
  const modelParent = new GrowableInt32(n);
  for (let i = 0; i < n; i++) {
    if (canonical[i] !== i) continue;
    const p = nodes.parent.get(i);
    const parent = p < 0 ? -1 : modelOf[canonical[p]!]!;
    const file = nodes.file[i] || null;
    const line = nodes.line.get(i) || null;
    let name = nodes.frameName[i] || nodes.ownName[i];
    if (!name) name = file ? `${basename(file)}:${line ?? 0}` : '<unnamed>';
    modelOf[i] = b.tree.add(parent, name, nodes.kind.get(i) as NodeKind, {
      file,
      line,
      module: nodes.module[i] || null,
    });
    modelParent.push(parent);
  }
  if (references > 0) {
    b.warnings.push(
      `${references} node references (a node listed again under another parent, by its _hatchet_nid) were folded into the node's first occurrence: the call graph is read as a tree`,
    );
  }
  throwIfAborted(signal);

  // Dense per-key columns over model nodes (NaN = no value); a key given twice for a node keeps the last value, as JSON.parse does.
  const size = b.tree.size;
  const keys = h.metricKeys;
  const columns = keys.map(() => new Float64Array(size).fill(NaN));
  const numeric = new Uint8Array(keys.length);
  for (let k = 0; k < h.valueNumber.length; k++) {
    const node = h.valueNode.get(k);
    if (canonical[node] !== node) continue;
    const key = h.valueKey.get(k);
    columns[key]![modelOf[node]!] = h.valueNumber.get(k);
    numeric[key] = 1;
  }
  keys.forEach((key, k) => {
    const text = h.textValues[k]!;
    if (text > 0 && !numeric[k])
      b.warnings.push(`metric "${key}" holds no numbers (${text} text values); it was left out`);
    else if (text > 0) b.warnings.push(`metric "${key}": ${text} values that are not numbers were read as missing`);
  });
  if (h.outOfRange > 0) b.warnings.push(`${h.outOfRange} metric values too large for a double were read as missing`);
  const plans = planMetrics(keys, k => numeric[k] === 1);
  if (plans.length === 0) {
    throw new ProfileReadError(
      path,
      keys.length === 0
        ? 'no node has "metrics": there is nothing to show'
        : `no metric has numeric values (metrics: ${keys.join(', ')})`,
    );
  }

  const parent = modelParent.finish();
  const context = b.context({});
  const descriptors: MetricDescriptor[] = [];
  for (const plan of plans) {
    throwIfAborted(signal);
    const exclusive = plan.exclusiveKey >= 0 ? columns[plan.exclusiveKey]! : null;
    const inclusive = plan.inclusiveKey >= 0 ? columns[plan.inclusiveKey]! : null;
    const sourceKeys = [plan.exclusiveKey, plan.inclusiveKey].filter(k => k >= 0).map(k => keys[k]!);
    const describe = (kind: MetricDescriptor['kind'], name = plan.name, keysOf = sourceKeys): number => {
      const d: MetricDescriptor = {
        name,
        label: name,
        sourceKeys: keysOf,
        unit: unitOf(plan.name),
        kind,
        aggregation: aggregationOf(plan.name),
      };
      descriptors.push(d);
      return b.addMetric(d);
    };
    if (!inclusive) {
      const m = describe('exclusive');
      for (let i = 0; i < size; i++) b.addExclusive(m, i, context, exclusive![i]!);
      continue;
    }
    const { filled, broken } = completeInclusive(parent, exclusive, inclusive);
    if (exclusive && broken === 0) {
      const m = describe('both');
      const childSum = childInclusiveSums(parent, filled);
      for (let i = 0; i < size; i++) {
        const e = exclusive[i]!;
        b.addExclusive(m, i, context, Number.isNaN(e) ? filled[i]! - childSum[i]! : e);
        b.addInclusive(m, i, context, filled[i]!);
      }
      continue;
    }
    const m = describe('inclusive');
    for (let i = 0; i < size; i++) b.addInclusive(m, i, context, filled[i]!);
    if (exclusive) {
      const recordedName = plan.name + RECORDED_EXCLUSIVE_SUFFIX;
      const r = describe('exclusive', recordedName, [keys[plan.exclusiveKey]!]);
      for (let i = 0; i < size; i++) b.addExclusive(r, i, context, exclusive[i]!);
      b.warnings.push(
        `"${keys[plan.exclusiveKey]}" does not add up to "${keys[plan.inclusiveKey]}" at ${broken} nodes (exclusive + children's inclusive ≠ inclusive): ${plan.name} keeps the inclusive values and derives exclusive ones; the recorded exclusive values are the metric "${recordedName}"`,
      );
    }
  }
  return b.build(primaryMetricOf(descriptors));
}

/** Maps every node to the first node with the same `_hatchet_nid` (itself when it has none or is the first). */
function foldReferences(nids: Float64Array): { canonical: Int32Array; references: number } {
  const n = nids.length;
  const canonical = new Int32Array(n);
  let references = 0;
  // to_literal writes small non-negative integer ids: index them directly; anything else goes through a Map.
  let max = -1;
  for (let i = 0; i < n && max !== Infinity; i++) {
    const nid = nids[i]!;
    if (Number.isNaN(nid)) continue;
    max = Number.isInteger(nid) && nid >= 0 && nid <= 4 * n + 1024 ? Math.max(max, nid) : Infinity;
  }
  const firstOf = max === Infinity ? null : new Int32Array(max + 1).fill(-1);
  const firstOfMap = firstOf ? null : new Map<number, number>();
  for (let i = 0; i < n; i++) {
    canonical[i] = i;
    const nid = nids[i]!;
    if (Number.isNaN(nid)) continue;
    const first = firstOf ? firstOf[nid]! : (firstOfMap!.get(nid) ?? -1);
    if (first < 0) {
      if (firstOf) firstOf[nid] = i;
      else firstOfMap!.set(nid, i);
    } else {
      canonical[i] = first;
      references++;
    }
  }
  return { canonical, references };
}

/** Σ of the children's inclusive values, per node (parents precede children, so one reverse scan). */
function childInclusiveSums(parent: Int32Array, inclusive: Float64Array): Float64Array {
  const sums = new Float64Array(parent.length);
  for (let i = parent.length - 1; i >= 0; i--) {
    const p = parent[i]!;
    if (p >= 0) sums[p]! += inclusive[i]!;
  }
  return sums;
}

/**
 * Inclusive values with the missing ones derived (own exclusive + children's inclusive), and how many
 * nodes that have both values break exclusive + Σ children's inclusive = inclusive.
 */
function completeInclusive(
  parent: Int32Array,
  exclusive: Float64Array | null,
  inclusive: Float64Array,
): { filled: Float64Array; broken: number } {
  const n = parent.length;
  const filled = new Float64Array(n);
  const childSum = new Float64Array(n);
  let broken = 0;
  for (let i = n - 1; i >= 0; i--) {
    const e = exclusive ? exclusive[i]! : NaN;
    const own = inclusive[i]!;
    const v = Number.isNaN(own) ? (Number.isNaN(e) ? 0 : e) + childSum[i]! : own;
    if (!Number.isNaN(own) && !Number.isNaN(e)) {
      const expected = e + childSum[i]!;
      const scale = Math.max(Math.abs(own), Math.abs(e) + Math.abs(childSum[i]!));
      if (!(Math.abs(expected - own) <= CONSISTENCY_TOLERANCE * scale)) broken++;
    }
    filled[i] = v;
    const p = parent[i]!;
    if (p >= 0) childSum[p]! += v;
  }
  return { filled, broken };
}

/** The tokenizer's complaint about a bare word Python's json writes for NaN or ±infinity. */
function isPythonNonFinite(e: unknown): boolean {
  return e instanceof JsonSyntaxError && /unexpected character '[NI]'/.test(e.message);
}

/** Streams the file through the handler, through the NaN filter when `python` is set. */
async function tokenize(
  path: string,
  handler: LiteralHandler,
  { signal, limits }: ReadOptions,
  progress: (fraction: number) => void,
  python: PythonJsonFilter | null,
): Promise<void> {
  if (!python) {
    await tokenizeJsonFile(path, handler, {
      signal,
      limits,
      onProgress: (read, total) => progress(total > 0 ? read / total : 0),
    });
    return;
  }
  const tokenizer = new JsonTokenizer(handler, { maxTokenBytes: limits?.maxLineLength });
  for await (const chunk of readChunks(path, { signal, limits, onProgress: progress }))
    tokenizer.write(python.transform(chunk));
  tokenizer.write(python.flush());
  tokenizer.end();
}

export const hatchetLiteralReader: ProfileReader = {
  ...hatchetLiteralSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const { signal } = options;
    // Never backwards, also when a file with NaN is read a second time.
    let shown = 0;
    const progress = (fraction: number, message = 'Reading Hatchet literal') => {
      const f = Math.min(1, fraction);
      if (f >= shown) {
        shown = f;
        options.onProgress?.(f, message);
      }
    };
    const reading = (f: number) => progress(0.9 * f);
    let handler = new LiteralHandler(path);
    let python: PythonJsonFilter | null = null;
    try {
      try {
        await tokenize(path, handler, options, reading, null);
      } catch (e) {
        if (!isPythonNonFinite(e)) throw e;
        handler = new LiteralHandler(path);
        python = new PythonJsonFilter();
        await tokenize(path, handler, options, reading, python);
      }
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (e instanceof JsonSyntaxError)
        throw new ProfileReadError(path, `not valid JSON (${e.message.replace(`${path}: `, '')})`, { cause: e });
      throw new ProfileReadError(path, (e as Error).message, { cause: e });
    }
    if (!handler.ended) throw new ProfileReadError(path, 'the root list is incomplete');
    progress(0.9, 'Building the call tree');
    const notes =
      python && python.replaced > 0
        ? [`${python.replaced} NaN/Infinity values (as Python's json writes them) were read as missing`]
        : [];
    const profile = buildLiteralProfile(handler, path, signal, notes);
    progress(1);
    return profile;
  },
};
