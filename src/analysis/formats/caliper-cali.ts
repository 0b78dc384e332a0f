import { quoteContent } from '../errors/escape-control';
import { NodeKind } from '../model/call-tree';
import type { MetadataValue, Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { CALLPATH, isBookkeepingAttribute, metadataValue, MODULE, RANK, SOURCELOC } from './caliper/attributes';
import { CaliLine, parseId } from './caliper/cali-line';
import { AttributeProperty, CaliMetadata, isNumericType } from './caliper/cali-metadata';
import type { ValueColumn } from './caliper/metrics';
import { assembleCaliperProfile } from './caliper/profile-assembly';
import { RowStore } from './caliper/row-store';
import { forEachLine, readSmallFileLines } from './io/file-input';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions, throwIfAborted } from './reader';
import { caliperCaliSniffer } from './sniffers/caliper-cali';

/**
 * Caliper's native `.cali` stream, as Caliper's `caliper-reader` and Hatchet's `from_caliperreader`
 * read it. Every line is a record:
 *
 *   __rec=node,id=33,attr=32,data=main,parent=20     a node of the metadata tree
 *   __rec=ctx,ref=41=80,attr=66=72,data=0.29=0.29    a snapshot: context nodes + immediate values
 *   __rec=globals,ref=161=151                        run metadata (Adiak keys, …)
 *
 * A snapshot's path is the values of the nested attributes (region, function, loop, …) met walking
 * from its context nodes to the root, root first; sampling profiles have a call path instead
 * (`source.function#callpath.address`). Immediate values of numeric attributes are the metrics.
 * Snapshots without a path are the global record and are dropped, as Hatchet does; several
 * snapshots of one path and rank add up (Spot's `lulesh.cycle` time series, caveat 16).
 */

/**
 * A node record in the form Caliper writes it (id, attr, data, parent in that order; a data value
 * without unescaped commas or '=', its escapes `\x` undone by {@link unescapeCali}), matched whole by
 * one regular expression: native code even in a cold process, where the general line parser runs
 * interpreted. Any other line takes that parser.
 */
const NODE_RECORD = /^__rec=node,id=(\d{1,15}),attr=(\d{1,15}),data=((?:[^,=\\]|\\[^])*)(?:,parent=(\d{1,15}))?$/;

/** A snapshot record in Caliper's usual form (ref, then attr and data; no escapes), likewise. */
const CTX_RECORD = /^__rec=ctx,ref=(\d{1,15}(?:=\d{1,15})*)(?:,attr=(\d{1,15}(?:=\d{1,15})*),data=([^,\\]*))?$/;

/** A globals record of references only (Caliper's usual form), likewise. */
const GLOBALS_RECORD = /^__rec=globals,ref=(\d{1,15}(?:=\d{1,15})*)$/;

const NONE: readonly string[] = [];

/** A .cali value with its escapes undone as {@link CaliLine} undoes them (`\n` is a newline, `\x` is x). */
function unescapeCali(text: string): string {
  if (text.indexOf('\\') < 0) return text;
  // Without `\n` a replacement string does it (no call per escape).
  if (text.indexOf('\\n') < 0) return text.replace(/\\([^])/g, '$1');
  return text.replace(/\\([^])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/** What the immediate values of an attribute are for, when they are not (yet) a value column. */
const Role = { Ignored: -1, Rank: -2, Location: -3, Module: -4, Metric: -5 } as const;

class CaliStream {
  private readonly metadata: Record<string, MetadataValue> = {};
  private readonly meta = new CaliMetadata();
  private readonly line = new CaliLine();
  private lineNumber = 0;

  private readonly store = new RowStore(0); // sized once the line count is known (onLines), else grown

  // Per metadata slot, the path, call path, rank, location and module of the node's chain.
  // Typed arrays, grown in bulk to the metadata's size (a push per slot and column is costly cold).
  private memoDone = new Uint8Array(0);
  private memoPath = new Int32Array(0);
  private memoCall = new Int32Array(0);
  private memoRank = new Float64Array(0);
  private memoLocation = new Int32Array(0);
  private memoModule = new Int32Array(0);
  private readonly chain: number[] = [];

  /** Per attribute slot: its value column (≥ 0) once a kept snapshot has a value of it, else a Role. */
  private readonly roleOf = new Map<number, number>();
  private readonly columns: ValueColumn[] = [];

  private sawGlobals = false;
  private readonly unknownKinds = new Map<string, number>();
  private valuesInContextNodes = 0;
  // Immediate values of the snapshot being read (validated before the row is known to be kept).
  private readonly pendingSlot: number[] = [];
  private readonly pendingValue: number[] = [];
  private readonly pendingColumn: number[] = [];
  /** {@link attributeList}'s memo, by the list's text. */
  private readonly attributeLists = new Map<string, { names: string[]; slots: number[] | null }>();

  constructor(private readonly path: string) {}

  onLine(text: string, lineNumber: number): void {
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.length === 0) return;
    this.lineNumber = lineNumber;
    const line = this.line;
    line.parse(text);
    if (line.keyCount === 0 || !line.keyIs(0, '__rec') || line.count(0) !== 1) {
      this.fail(`not a .cali record (a record starts with "__rec="): ${quoteContent(text)}`);
    }
    if (line.valueIs(0, 0, 'ctx')) this.snapshot(this.values('ref'), this.values('attr'), this.values('data'));
    else if (line.valueIs(0, 0, 'node')) this.node();
    else if (line.valueIs(0, 0, 'globals')) this.globals(this.values('ref'), this.values('attr'), this.values('data'));
    else {
      const kind = line.value(0, 0);
      this.unknownKinds.set(kind, (this.unknownKinds.get(kind) ?? 0) + 1);
    }
  }

  /** The values of the line's entry with this key (none when it is absent). */
  private values(key: string): string[] {
    const line = this.line;
    const k = line.find(key);
    const out: string[] = [];
    for (let j = 0, n = k < 0 ? 0 : line.count(k); j < n; j++) out.push(line.value(k, j));
    return out;
  }

  private fail(reason: string): never {
    throw new ProfileReadError(this.path, `line ${this.lineNumber}: ${reason}`);
  }

  /** Value j of entry k as a node id, failing with `what` when it is missing or not an id. */
  private id(k: number, what: string, j = 0): number {
    const line = this.line;
    if (k < 0 || line.count(k) <= j) this.fail(`${what} is missing`);
    const id = line.id(k, j);
    if (id < 0) this.fail(`${what} ${quoteContent(line.value(k, j))} is not a node id`);
    return id;
  }

  /**
   * The lines of a whole file as {@link onLine} takes them one by one (the same numbers), records in
   * the usual forms through {@link NODE_RECORD}, {@link CTX_RECORD} and {@link GLOBALS_RECORD}.
   */
  onLines(lines: readonly string[]): void {
    this.store.reserveRows(lines.length); // at most one kept snapshot per line
    for (let k = 0; k < lines.length; k++) {
      const text = lines[k]!;
      const m = NODE_RECORD.exec(text);
      if (m !== null) {
        this.lineNumber = k + 1;
        this.define(Number(m[1]), Number(m[2]), unescapeCali(m[3]!), m[4] === undefined ? null : Number(m[4]));
        continue;
      }
      const c = CTX_RECORD.exec(text);
      if (c === null) {
        const g = GLOBALS_RECORD.exec(text);
        if (g === null) this.onLine(text, k + 1);
        else {
          this.lineNumber = k + 1;
          this.globals(g[1]!.split('='), NONE, NONE);
        }
      } else {
        this.lineNumber = k + 1;
        const attrs = c[2] === undefined ? null : this.attributeList(c[2]);
        this.snapshot(
          c[1]!.split('='),
          attrs === null ? NONE : attrs.names,
          c[3] === undefined ? NONE : c[3].split('='),
          attrs === null ? null : attrs.slots,
        );
      }
    }
  }

  /**
   * A snapshot's `attr` list as names and, when every name is a defined attribute, their slots: one
   * lookup per record, as records of one kind repeat the same list (a metadata node once defined
   * stays what it is). Slots are null when one is not an attribute; the snapshot then fails on it
   * in its own order.
   */
  private attributeList(text: string): { names: string[]; slots: number[] | null } {
    let list = this.attributeLists.get(text);
    if (list !== undefined) return list;
    const names = text.split('=');
    let slots: number[] | null = [];
    for (let j = 0; j < names.length && slots !== null; j++) {
      const id = parseId(names[j]!, 0, names[j]!.length);
      const slot = id < 0 ? -1 : this.meta.slot(id);
      if (slot >= 0 && this.meta.isAttribute(slot)) slots.push(slot);
      else slots = null;
    }
    list = { names, slots };
    if (slots !== null) this.attributeLists.set(text, list);
    return list;
  }

  private node(): void {
    const line = this.line;
    const id = this.id(line.find('id'), 'the node id');
    const attr = this.id(line.find('attr'), `the attribute of node ${id}`);
    const p = line.find('parent');
    const parent = p < 0 ? null : this.id(p, `the parent of node ${id}`);
    this.define(id, attr, line.single('data') ?? '', parent);
  }

  private define(id: number, attr: number, data: string, parent: number | null): void {
    const slot = this.meta.define(id, attr, data, parent);
    if (typeof slot === 'string') this.fail(slot);
  }

  /** The slot of the node a record refers to by `text`, which must be a defined node's id. */
  private refSlot(text: string): number {
    const id = parseId(text, 0, text.length);
    if (id < 0) this.fail(`a node reference ${quoteContent(text)} is not a node id`);
    const slot = this.meta.slot(id);
    if (slot < 0) this.fail(`refers to node ${id}, which is not defined before it`);
    return slot;
  }

  /** The slot of an attribute a record names by `text` (an entry of its `attr`). */
  private attributeSlot(text: string): number {
    const slot = this.refSlot(text);
    if (!this.meta.isAttribute(slot)) this.fail(`node ${this.meta.idOf(slot)} is used as an attribute but is not one`);
    return slot;
  }

  /** Fails unless the record's `attr` and `data` lists pair up. */
  private immediates(attrs: readonly string[], data: readonly string[]): void {
    if (attrs.length !== data.length)
      this.fail(`${attrs.length} attributes but ${data.length} values ("attr" and "data" must pair up)`);
  }

  /** A value of the record's `data` as a number (`Number`, '' is missing); `nan` and `inf` are missing values. */
  private number(text: string, attribute: string): number {
    const v = text.length === 0 ? NaN : Number(text);
    if (!Number.isNaN(v)) return v;
    if (/^[-+]?(nan|inf|infinity)$/i.test(text)) return NaN;
    this.fail(`${quoteContent(text)} is not a number (value of ${attribute})`);
  }

  /** Fills the memo of `slot` and of its ancestors that lack one. */
  private summarize(slot: number): void {
    const { meta, chain } = this;
    if (this.memoDone.length < meta.size) this.growMemo(Math.max(meta.size, 2 * this.memoDone.length));
    const { memoDone } = this;
    chain.length = 0;
    for (let s = slot; s >= 0 && !memoDone[s]; s = meta.parent(s)) chain.push(s);
    for (let k = chain.length - 1; k >= 0; k--) {
      const s = chain[k]!;
      const p = meta.parent(s);
      let path = p >= 0 ? this.memoPath[p]! : -1;
      let call = p >= 0 ? this.memoCall[p]! : -1;
      let rank = p >= 0 ? this.memoRank[p]! : NaN;
      let location = p >= 0 ? this.memoLocation[p]! : -1;
      let module = p >= 0 ? this.memoModule[p]! : -1;
      const attr = meta.attribute(meta.attributeOf(s));
      const data = meta.value(s);
      if (!(attr.props & AttributeProperty.Hidden)) {
        if (attr.props & AttributeProperty.Nested)
          path = this.store.paths.child(path, data, attr.name === 'loop' ? NodeKind.Loop : NodeKind.Region);
        else if (attr.name === CALLPATH) call = this.store.callpaths.child(call, data, NodeKind.Function);
        else if (attr.name === RANK) {
          rank = this.rankValue(data);
          this.store.hasRank = true;
        } else if (attr.name === SOURCELOC) {
          location = this.store.labels.intern(data);
          this.store.hasLocation = true;
        } else if (attr.name === MODULE) {
          module = this.store.labels.intern(data);
          this.store.hasModule = true;
        } else if (attr.props & AttributeProperty.AsValue && isNumericType(attr.type)) this.valuesInContextNodes++;
      }
      memoDone[s] = 1;
      this.memoPath[s] = path;
      this.memoCall[s] = call;
      this.memoRank[s] = rank;
      this.memoLocation[s] = location;
      this.memoModule[s] = module;
    }
  }

  /** Room for `size` slots in the memo; new slots are not yet summarised (no path, rank or label). */
  private growMemo(size: number): void {
    const n = this.memoDone.length;
    const done = new Uint8Array(size);
    done.set(this.memoDone);
    this.memoDone = done;
    const ints = (old: Int32Array) => {
      const next = new Int32Array(size).fill(-1);
      next.set(old);
      return next;
    };
    this.memoPath = ints(this.memoPath);
    this.memoCall = ints(this.memoCall);
    this.memoLocation = ints(this.memoLocation);
    this.memoModule = ints(this.memoModule);
    const rank = new Float64Array(size).fill(NaN);
    rank.set(this.memoRank.subarray(0, n));
    this.memoRank = rank;
  }

  private rankValue(text: string): number {
    const rank = Number(text);
    if (text.length === 0 || !Number.isInteger(rank)) this.fail(`mpi.rank ${quoteContent(text)} is not an integer`);
    return rank;
  }

  /** What the immediate values of an attribute are for: a value column, a Role, or ignored. */
  private role(slot: number): number {
    let role = this.roleOf.get(slot);
    if (role !== undefined) return role;
    const attr = this.meta.attribute(slot);
    if (attr.props & AttributeProperty.Hidden) role = Role.Ignored;
    else if (attr.name === RANK) role = Role.Rank;
    else if (attr.name === SOURCELOC) role = Role.Location;
    else if (attr.name === MODULE) role = Role.Module;
    else if (isNumericType(attr.type) && !isBookkeepingAttribute(attr.name)) role = Role.Metric;
    else role = Role.Ignored;
    this.roleOf.set(slot, role);
    return role;
  }

  /** A snapshot record: the ids of its context nodes, its immediate attributes (with their slots when known) and values. */
  private snapshot(
    refs: readonly string[],
    attrs: readonly string[],
    data: readonly string[],
    attributeSlots: readonly number[] | null = null,
  ): void {
    const { store } = this;
    let path = -1;
    let call = -1;
    let rank = NaN;
    let location = -1;
    let module = -1;
    for (let j = 0; j < refs.length; j++) {
      const s = this.refSlot(refs[j]!);
      if (this.memoDone[s] !== 1) this.summarize(s); // (summarize may grow the memo)
      const p = this.memoPath[s]!;
      if (p >= 0) path = path < 0 ? p : store.paths.graft(path, p);
      const c = this.memoCall[s]!;
      if (c >= 0) call = call < 0 ? c : store.callpaths.graft(call, c);
      if (!Number.isNaN(this.memoRank[s]!)) rank = this.memoRank[s]!;
      if (this.memoLocation[s]! >= 0) location = this.memoLocation[s]!;
      if (this.memoModule[s]! >= 0) module = this.memoModule[s]!;
    }

    this.immediates(attrs, data);
    const { pendingSlot, pendingValue } = this;
    let pending = 0;
    for (let j = 0; j < attrs.length; j++) {
      const slot = attributeSlots !== null ? attributeSlots[j]! : this.attributeSlot(attrs[j]!);
      const role = this.role(slot);
      if (role === Role.Ignored) continue;
      if (role === Role.Rank) {
        rank = this.rankValue(data[j]!);
        store.hasRank = true;
      } else if (role === Role.Location) {
        location = store.labels.intern(data[j]!);
        store.hasLocation = true;
      } else if (role === Role.Module) {
        module = store.labels.intern(data[j]!);
        store.hasModule = true;
      } else {
        pendingSlot[pending] = slot;
        pendingValue[pending++] = this.number(data[j]!, this.meta.value(slot));
      }
    }
    if (path < 0 && call < 0) return;
    const { pendingColumn } = this;
    for (let j = 0; j < pending; j++) pendingColumn[j] = this.column(pendingSlot[j]!);
    store.add(path, call, rank, location, module, pendingColumn, pendingValue, pending);
  }

  /** The value column of a metric attribute, created on first use. */
  private column(slot: number): number {
    const role = this.roleOf.get(slot)!;
    if (role >= 0) return role;
    const attr = this.meta.attribute(slot);
    const index = this.columns.length;
    this.columns.push({ index, name: attr.name, alias: attr.alias, unit: attr.unit });
    this.roleOf.set(slot, index);
    return index;
  }

  /** A globals record: its context nodes and immediate attributes and values (run metadata). */
  private globals(refs: readonly string[], attrs: readonly string[], data: readonly string[]): void {
    this.sawGlobals = true;
    for (let j = 0; j < refs.length; j++) {
      // Walking to the root meets the deepest value first; Caliper lists repeated attributes root first.
      const values = new Map<string, MetadataValue[]>();
      for (let s = this.refSlot(refs[j]!); s >= 0; s = this.meta.parent(s)) {
        const attr = this.meta.attribute(this.meta.attributeOf(s));
        if (attr.props & AttributeProperty.Hidden) continue;
        const list = values.get(attr.name);
        const v = metadataValue(this.meta.value(s), attr.type);
        if (list) list.unshift(v);
        else values.set(attr.name, [v]);
      }
      for (const [k, list] of values) this.metadata[k] = list.length === 1 ? list[0]! : list;
    }
    this.immediates(attrs, data);
    for (let j = 0; j < attrs.length; j++) {
      const attr = this.meta.attribute(this.attributeSlot(attrs[j]!));
      if (!(attr.props & AttributeProperty.Hidden)) this.metadata[attr.name] = metadataValue(data[j]!, attr.type);
    }
  }

  /** The profile, once every line has been read. */
  build(): Profile {
    const b = new ProfileBuilder('caliper-cali', this.path);
    Object.assign(b.metadata, this.metadata);
    if (!this.sawGlobals)
      b.warnings.push('the file has no globals record (run metadata), which Caliper writes last: it may be truncated');
    for (const [kind, count] of this.unknownKinds)
      b.warnings.push(`${count} record(s) of unknown kind "${kind}" were skipped`);
    if (this.valuesInContextNodes > 0)
      b.warnings.push(
        `${this.valuesInContextNodes} numeric values stored in context nodes (not as immediate values) were not read as metrics`,
      );
    return assembleCaliperProfile(
      b,
      this.store.rows(b, this.columns),
      'no metrics: the snapshots hold no numeric immediate values',
    );
  }
}

/** Reads a .cali file; `wholeFile: false` reads it line by line whatever its size (tests compare the two). */
export async function readCaliperCali(path: string, options: ReadOptions, wholeFile: boolean): Promise<Profile> {
  const stream = new CaliStream(path);
  try {
    // Progress is reported below, in the reader's own terms.
    const lines = wholeFile ? readSmallFileLines(path, { signal: options.signal, limits: options.limits }) : null;
    if (lines) {
      stream.onLines(lines);
      options.onProgress?.(0.9, 'Reading Caliper .cali');
    } else
      await forEachLine(path, (text, n) => stream.onLine(text, n), {
        signal: options.signal,
        limits: options.limits,
        onProgress: f => options.onProgress?.(0.9 * f, 'Reading Caliper .cali'),
      });
  } catch (e) {
    if (isAbortError(e) || e instanceof ProfileReadError) throw e;
    throw new ProfileReadError(path, (e as Error).message, { cause: e });
  }
  throwIfAborted(options.signal);
  options.onProgress?.(0.9, 'Building the call tree');
  const profile = stream.build();
  options.onProgress?.(1);
  return profile;
}

export const caliperCaliReader: ProfileReader = {
  ...caliperCaliSniffer,
  read: (path: string, options: ReadOptions = {}) => readCaliperCali(path, options, true),
};
