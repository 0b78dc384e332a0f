import { GrowableInt32, GrowableUint8 } from './growable';
import { StringTable } from './string-table';

/** What a call-tree node stands for. Stored as a byte per node. */
export const NodeKind = {
  Function: 0,
  Loop: 1,
  Statement: 2,
  CallSite: 3,
  Region: 4,
} as const;
export type NodeKind = (typeof NodeKind)[keyof typeof NodeKind];

export const NODE_KIND_NAMES = ['function', 'loop', 'statement', 'call site', 'region'] as const;
export type NodeKindName = (typeof NODE_KIND_NAMES)[number];

export function nodeKindName(kind: number): NodeKindName {
  const name = NODE_KIND_NAMES[kind];
  if (name === undefined) throw new RangeError(`unknown node kind ${kind}`);
  return name;
}

/** Columns of a call tree, as moved between threads (all typed arrays are transferable). */
export interface CallTreeColumns {
  parent: Int32Array;
  name: Int32Array;
  file: Int32Array;
  line: Int32Array;
  module: Int32Array;
  kind: Uint8Array;
  /** Line in the caller's source from which this node was called (0 = unknown or not a call). */
  callLine: Int32Array;
}

/**
 * A calling-context tree (or forest) in columns: node i has parent[i] (-1 for a root) and string ids
 * for name, file and module (0 = unknown) and a line (0 = unknown). Parents always come before their
 * children (parent[i] < i), so a reverse scan visits children before parents: that keeps every
 * derived quantity O(n) without recursion or per-node objects.
 */
export class CallTree {
  readonly size: number;
  private childStart?: Int32Array;
  private childList?: Int32Array;
  private rootList?: number[];

  constructor(
    readonly columns: CallTreeColumns,
    readonly strings: StringTable,
  ) {
    this.size = columns.parent.length;
    const { parent } = columns;
    for (let i = 0; i < this.size; i++) {
      const p = parent[i]!;
      if (p >= i || p < -1) throw new Error(`call tree node ${i} has parent ${p}; parents must precede children`);
    }
  }

  parent(i: number): number {
    return this.columns.parent[i]!;
  }
  kind(i: number): NodeKind {
    return this.columns.kind[i] as NodeKind;
  }
  name(i: number): string {
    return this.strings.get(this.columns.name[i]!);
  }
  /** Source file as recorded by the tool, or null. */
  file(i: number): string | null {
    const f = this.columns.file[i]!;
    return f === 0 ? null : this.strings.get(f);
  }
  /** 1-based source line, or null. */
  line(i: number): number | null {
    const l = this.columns.line[i]!;
    return l > 0 ? l : null;
  }
  module(i: number): string | null {
    const m = this.columns.module[i]!;
    return m === 0 ? null : this.strings.get(m);
  }
  /** Line of the call site this node was called from (in its parent's file), or null. */
  callLine(i: number): number | null {
    const l = this.columns.callLine[i]!;
    return l > 0 ? l : null;
  }

  /**
   * Node ids of the roots, in order (a fresh array the caller may change). The scan over all nodes
   * runs once: profile totals, shares and hot paths ask for the roots on every hover and view.
   */
  roots(): number[] {
    if (!this.rootList) {
      const out: number[] = [];
      for (let i = 0; i < this.size; i++) if (this.columns.parent[i] === -1) out.push(i);
      this.rootList = out;
    }
    return this.rootList.slice();
  }

  /** Children of node i (a view into a shared index, built once in O(n)). */
  children(i: number): Int32Array {
    this.buildChildIndex();
    return this.childList!.subarray(this.childStart![i]!, this.childStart![i + 1]!);
  }

  /** Names from the root down to node i. */
  path(i: number): string[] {
    const out: string[] = [];
    for (let n = i; n !== -1; n = this.columns.parent[n]!) out.push(this.name(n));
    return out.reverse();
  }

  depth(i: number): number {
    let d = 0;
    for (let n = this.columns.parent[i]!; n !== -1; n = this.columns.parent[n]!) d++;
    return d;
  }

  /** The child index (children of node i: list[start[i]] … list[start[i+1]-1]), built on first use. */
  childIndex(): { start: Int32Array; list: Int32Array } {
    this.buildChildIndex();
    return { start: this.childStart!, list: this.childList! };
  }

  /**
   * Takes a child index built elsewhere over the same columns (the analysis worker, in shared
   * memory), so this thread never makes the O(n) pass; checked for shape, not rebuilt.
   */
  adoptChildIndex(index: { start: Int32Array; list: Int32Array }): void {
    if (index.start.length !== this.size + 1)
      throw new Error(`child index for ${index.start.length - 1} nodes, the tree has ${this.size}`);
    if (index.start[this.size] !== index.list.length)
      throw new Error(`child index ends at ${index.start[this.size]} but lists ${index.list.length} children`);
    this.childStart = index.start;
    this.childList = index.list;
  }

  private buildChildIndex(): void {
    if (this.childStart) return;
    const { parent } = this.columns;
    const start = new Int32Array(this.size + 1);
    for (let i = 0; i < this.size; i++) {
      const p = parent[i]!;
      if (p >= 0) start[p + 1]!++;
    }
    for (let i = 0; i < this.size; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, this.size);
    const list = new Int32Array(Math.max(0, this.size - this.roots().length));
    for (let i = 0; i < this.size; i++) {
      const p = parent[i]!;
      if (p >= 0) list[fill[p]!++] = i;
    }
    this.childStart = start;
    this.childList = list;
  }
}

/** Optional attributes of a node as a reader knows them. */
export interface NodeAttributes {
  file?: string | null;
  line?: number | null;
  module?: string | null;
  /** Line of the call site in the caller's file (HPCToolkit `C` elements, callgrind `calls=` lines). */
  callLine?: number | null;
}

/** Appends nodes column by column; `finish()` hands out the tight columns. */
export class CallTreeBuilder {
  private readonly parent = new GrowableInt32();
  private readonly name = new GrowableInt32();
  private readonly file = new GrowableInt32();
  private readonly line = new GrowableInt32();
  private readonly module = new GrowableInt32();
  private readonly kind = new GrowableUint8();
  private readonly callLine = new GrowableInt32();

  constructor(readonly strings: StringTable = new StringTable()) {}

  get size(): number {
    return this.parent.length;
  }

  /** Adds a node under `parent` (-1 for a root) and returns its id. The parent must already exist. */
  add(parent: number, name: string, kind: NodeKind, attrs: NodeAttributes = {}): number {
    if (parent < -1 || parent >= this.size) throw new RangeError(`parent ${parent} does not exist yet`);
    this.parent.push(parent);
    this.name.push(this.strings.intern(name));
    this.file.push(attrs.file ? this.strings.intern(attrs.file) : 0);
    this.line.push(attrs.line && attrs.line > 0 ? attrs.line : 0);
    this.module.push(attrs.module ? this.strings.intern(attrs.module) : 0);
    this.callLine.push(attrs.callLine && attrs.callLine > 0 ? attrs.callLine : 0);
    return this.kind.push(kind);
  }

  /** {@link add} with the name already interned in {@link strings} and no attributes (readers that intern each distinct name once). */
  addNamed(parent: number, nameId: number, kind: NodeKind): number {
    if (parent < -1 || parent >= this.size) throw new RangeError(`parent ${parent} does not exist yet`);
    if (!(nameId >= 0 && nameId < this.strings.size)) throw new RangeError(`string id ${nameId} out of range`);
    this.parent.push(parent);
    this.name.push(nameId);
    this.file.push(0);
    this.line.push(0);
    this.module.push(0);
    this.callLine.push(0);
    return this.kind.push(kind);
  }

  /**
   * Appends `columns.parent.length` nodes at once, node k of the columns becoming node `size + k`, with
   * the name, file and module as ids already interned in {@link strings} (0: none) and lines of 0 for
   * none; checked as {@link add} checks (parents before children, string ids of {@link strings}),
   * without seven calls per node. Interned in the order add would (name, file, module), the string
   * table comes out the same. For readers that know their nodes up front (HPCToolkit's meta.db lists
   * its whole context tree).
   */
  addColumns(columns: CallTreeColumns): void {
    const { parent, name, file, line, module, kind, callLine } = columns;
    const count = parent.length;
    if ([name, file, line, module, kind, callLine].some(c => c.length !== count))
      throw new RangeError(`node columns of different lengths (${count} parents)`);
    const first = this.size;
    const strings = this.strings.size;
    for (let k = 0; k < count; k++) {
      const p = parent[k]!;
      if (p < -1 || p >= first + k) throw new RangeError(`parent ${p} of node ${first + k} does not exist yet`);
      const n = name[k]!,
        f = file[k]!,
        m = module[k]!;
      if (!(n >= 0 && n < strings && f >= 0 && f < strings && m >= 0 && m < strings))
        throw new RangeError(`string ids ${n}, ${f}, ${m}: out of range`);
    }
    this.parent.append(parent);
    this.name.append(name);
    this.file.append(file);
    this.line.append(line);
    this.module.append(module);
    this.kind.append(kind);
    this.callLine.append(callLine);
  }

  setModule(node: number, module: string): void {
    this.module.set(node, this.strings.intern(module));
  }
  setLocation(node: number, file: string, line: number | null): void {
    this.file.set(node, this.strings.intern(file));
    this.line.set(node, line && line > 0 ? line : 0);
  }
  /** {@link setLocation} with the file already interned in {@link strings}. */
  setLocationId(node: number, fileId: number, line: number | null): void {
    this.file.set(node, fileId);
    this.line.set(node, line && line > 0 ? line : 0);
  }
  moduleId(node: number): number {
    return this.module.get(node);
  }
  /** The name of a node added so far. */
  nameOf(node: number): string {
    return this.strings.get(this.name.get(node));
  }

  /**
   * Gives function nodes without a module the module that other nodes of the same function have
   * (a function lives in one load module; sampling profiles only know the module of sampled
   * frames). Names seen in several modules are left alone.
   */
  inferModulesByName(): void {
    const moduleOfName = new Map<number, number>(); // name id → module id, -1 if ambiguous
    for (let i = 0; i < this.size; i++) {
      const m = this.module.get(i);
      if (m === 0 || this.kind.get(i) !== NodeKind.Function) continue;
      const n = this.name.get(i);
      const seen = moduleOfName.get(n);
      moduleOfName.set(n, seen === undefined || seen === m ? m : -1);
    }
    for (let i = 0; i < this.size; i++) {
      if (this.module.get(i) !== 0 || this.kind.get(i) !== NodeKind.Function) continue;
      const m = moduleOfName.get(this.name.get(i));
      if (m !== undefined && m > 0) this.module.set(i, m);
    }
  }

  finish(): CallTree {
    return new CallTree(
      {
        parent: this.parent.finish(),
        name: this.name.finish(),
        file: this.file.finish(),
        line: this.line.finish(),
        module: this.module.finish(),
        kind: this.kind.finish(),
        callLine: this.callLine.finish(),
      },
      this.strings,
    );
  }
}
