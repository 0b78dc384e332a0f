import { GrowableFloat64, GrowableInt32 } from './growable';
import type { StringTable } from './string-table';

/**
 * A call graph as gprof, callgrind and gprof2dot describe a run: functions and caller → callee arcs
 * (with recursion and cycles), not a calling-context tree. The profile's call tree is unfolded from
 * it (see graph/unfold-call-graph.ts); the graph itself is kept because its function-level numbers
 * are what the tools print. Columns are typed arrays; names, files and modules are ids into the
 * profile's string table (0 = unknown). Metric k of the graph is metric k of the profile.
 */
export interface CallGraphData {
  functions: {
    /** The function's identifier in the file (gprof index, DOT node id, callgrind name), to map back to it. */
    id: Int32Array;
    name: Int32Array;
    file: Int32Array;
    /** Line of the function (definition or entry), 0 = unknown. */
    line: Int32Array;
    module: Int32Array;
    /** How often the function was called, recursive calls included (NaN = not stated). */
    calls: Float64Array;
    /** Per metric: the function's self cost as the file states it. */
    self: Float64Array[];
    /** Per metric: self + descendants as the file states it (NaN = not stated). */
    total: Float64Array[];
  };
  arcs: {
    caller: Int32Array;
    callee: Int32Array;
    /** Calls along the arc (NaN = not stated). */
    calls: Float64Array;
    /** Line of the call in the caller's source (0 = unknown). */
    callLine: Int32Array;
    /** Per metric: the callee's cost spent on behalf of this caller (gprof's child line, callgrind's inclusive call cost; NaN = not stated). */
    cost: Float64Array[];
  };
  /** Self cost by source line (callgrind, gprof -l); part of the function's self cost. */
  lines: {
    function: Int32Array;
    file: Int32Array;
    line: Int32Array;
    /** Per metric. */
    cost: Float64Array[];
  };
}

export interface FunctionAttributes {
  name: string;
  /** The file's own identifier of the function; defaults to the name. */
  id?: string;
  file?: string | null;
  line?: number | null;
  module?: string | null;
}

const perMetric = (n: number) => Array.from({ length: n }, () => new GrowableFloat64());

/** Adds to a value that may still be NaN ("not stated"). */
const addStated = (old: number, v: number) => (Number.isNaN(old) ? v : Number.isNaN(v) ? old : old + v);

/**
 * Collects a call graph while a reader parses. Functions are found or created by a reader-chosen
 * key; arcs with the same caller, callee and call line, and line costs of the same function, file
 * and line, are summed.
 */
export class CallGraphBuilder {
  private readonly keys: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly fn = {
    id: new GrowableInt32(),
    name: new GrowableInt32(),
    file: new GrowableInt32(),
    line: new GrowableInt32(),
    module: new GrowableInt32(),
    calls: new GrowableFloat64(),
  };
  private readonly self: GrowableFloat64[];
  private readonly total: GrowableFloat64[];
  private readonly arc = {
    caller: new GrowableInt32(),
    callee: new GrowableInt32(),
    calls: new GrowableFloat64(),
    callLine: new GrowableInt32(),
  };
  private readonly arcCost: GrowableFloat64[];
  private readonly arcIndex = new Map<string, number>();
  private readonly ln = { function: new GrowableInt32(), file: new GrowableInt32(), line: new GrowableInt32() };
  private readonly lineCost: GrowableFloat64[];
  /** Per function: line entry by file and line (numeric keys: this runs once per cost line of a file). */
  private readonly lineIndex: (Map<number, number> | undefined)[] = [];

  constructor(
    readonly strings: StringTable,
    readonly metricCount: number,
  ) {
    this.self = perMetric(metricCount);
    this.total = perMetric(metricCount);
    this.arcCost = perMetric(metricCount);
    this.lineCost = perMetric(metricCount);
  }

  get functionCount(): number {
    return this.keys.length;
  }
  get arcCount(): number {
    return this.arc.caller.length;
  }

  /** Index of the function with this key, or -1. */
  find(key: string): number {
    return this.index.get(key) ?? -1;
  }

  key(f: number): string {
    return this.keys[f]!;
  }

  /** Index of the function with this key, created with these attributes on first use. */
  function(key: string, attrs: FunctionAttributes): number {
    let f = this.index.get(key);
    if (f !== undefined) return f;
    f = this.keys.length;
    this.keys.push(key);
    this.index.set(key, f);
    const s = this.strings;
    this.fn.id.push(s.intern(attrs.id ?? attrs.name));
    this.fn.name.push(s.intern(attrs.name));
    this.fn.file.push(attrs.file ? s.intern(attrs.file) : 0);
    this.fn.line.push(attrs.line && attrs.line > 0 ? attrs.line : 0);
    this.fn.module.push(attrs.module ? s.intern(attrs.module) : 0);
    this.fn.calls.push(NaN);
    for (const c of this.self) c.push(0);
    for (const c of this.total) c.push(NaN);
    return f;
  }

  name(f: number): string {
    return this.strings.get(this.fn.name.get(f));
  }
  line(f: number): number {
    return this.fn.line.get(f);
  }
  fileId(f: number): number {
    return this.fn.file.get(f);
  }

  /** Gives function f another display name and module (its key and id stay). */
  rename(f: number, name: string, module: string | null): void {
    this.fn.name.set(f, this.strings.intern(name));
    if (module) this.fn.module.set(f, this.strings.intern(module));
  }

  setLocation(f: number, file: string | null, line: number | null): void {
    if (file) this.fn.file.set(f, this.strings.intern(file));
    if (line && line > 0) this.fn.line.set(f, line);
  }

  addSelf(f: number, metric: number, value: number): void {
    const c = this.self[metric]!;
    c.set(f, c.get(f) + value);
  }

  selfOf(f: number, metric: number): number {
    return this.self[metric]!.get(f);
  }

  setSelf(f: number, metric: number, value: number): void {
    this.self[metric]!.set(f, value);
  }

  addTotal(f: number, metric: number, value: number): void {
    const c = this.total[metric]!;
    c.set(f, addStated(c.get(f), value));
  }

  addCalls(f: number, calls: number): void {
    this.fn.calls.set(f, addStated(this.fn.calls.get(f), calls));
  }

  /** Adds an arc (summed into an existing one with the same caller, callee and call line). */
  addArc(caller: number, callee: number, calls: number, callLine: number, cost: ArrayLike<number> | null): number {
    const line = callLine > 0 ? callLine : 0;
    const key = `${caller},${callee},${line}`;
    let a = this.arcIndex.get(key);
    if (a === undefined) {
      a = this.arc.caller.push(caller);
      this.arc.callee.push(callee);
      this.arc.calls.push(NaN);
      this.arc.callLine.push(line);
      for (const c of this.arcCost) c.push(NaN);
      this.arcIndex.set(key, a);
    }
    this.arc.calls.set(a, addStated(this.arc.calls.get(a), calls));
    if (cost)
      for (let m = 0; m < this.metricCount; m++)
        this.arcCost[m]!.set(a, addStated(this.arcCost[m]!.get(a), cost[m] ?? NaN));
    return a;
  }

  /**
   * Adds self cost of function f at a source line (file: a string id, 0 = unknown), one value per
   * metric. The reader adds the same cost to the function's self cost.
   */
  addLineCosts(f: number, file: number, line: number, costs: ArrayLike<number>): void {
    // file < 2^31 and line < 2^22 keep the key exact in a double; larger lines are not real.
    const key = file * 4194304 + Math.min(line, 4194303);
    let index = this.lineIndex[f];
    if (!index) this.lineIndex[f] = index = new Map();
    let k = index.get(key);
    if (k === undefined) {
      k = this.ln.function.push(f);
      this.ln.file.push(file);
      this.ln.line.push(line);
      for (const c of this.lineCost) c.push(0);
      index.set(key, k);
    }
    for (let m = 0; m < this.metricCount; m++) {
      const c = this.lineCost[m]!;
      c.set(k, c.get(k) + (costs[m] ?? 0));
    }
  }

  /** Adds another builder's graph (same string table and metrics), matching functions by key. */
  absorb(other: CallGraphBuilder): void {
    const g = other.finish();
    const map = new Int32Array(other.functionCount);
    const str = (id: number) => (id === 0 ? null : this.strings.get(id));
    for (let f = 0; f < other.functionCount; f++) {
      const mine = this.function(other.key(f), {
        id: this.strings.get(g.functions.id[f]!),
        name: this.strings.get(g.functions.name[f]!),
        file: str(g.functions.file[f]!),
        line: g.functions.line[f],
        module: str(g.functions.module[f]!),
      });
      map[f] = mine;
      this.addCalls(mine, g.functions.calls[f]!);
      for (let m = 0; m < this.metricCount; m++) {
        this.addSelf(mine, m, g.functions.self[m]![f]!);
        this.addTotal(mine, m, g.functions.total[m]![f]!);
      }
    }
    const cost = new Float64Array(this.metricCount);
    for (let a = 0; a < g.arcs.caller.length; a++) {
      for (let m = 0; m < this.metricCount; m++) cost[m] = g.arcs.cost[m]![a]!;
      this.addArc(map[g.arcs.caller[a]!]!, map[g.arcs.callee[a]!]!, g.arcs.calls[a]!, g.arcs.callLine[a]!, cost);
    }
    for (let k = 0; k < g.lines.function.length; k++) {
      for (let m = 0; m < this.metricCount; m++) cost[m] = g.lines.cost[m]![k]!;
      this.addLineCosts(map[g.lines.function[k]!]!, g.lines.file[k]!, g.lines.line[k]!, cost);
    }
  }

  finish(): CallGraphData {
    return {
      functions: {
        id: this.fn.id.finish(),
        name: this.fn.name.finish(),
        file: this.fn.file.finish(),
        line: this.fn.line.finish(),
        module: this.fn.module.finish(),
        calls: this.fn.calls.finish(),
        self: this.self.map(c => c.finish()),
        total: this.total.map(c => c.finish()),
      },
      arcs: {
        caller: this.arc.caller.finish(),
        callee: this.arc.callee.finish(),
        calls: this.arc.calls.finish(),
        callLine: this.arc.callLine.finish(),
        cost: this.arcCost.map(c => c.finish()),
      },
      lines: {
        function: this.ln.function.finish(),
        file: this.ln.file.finish(),
        line: this.ln.line.finish(),
        cost: this.lineCost.map(c => c.finish()),
      },
    };
  }
}

/** Every typed-array buffer of a call graph (for transfer between threads). */
export function callGraphBuffers(g: CallGraphData): ArrayBuffer[] {
  const cols = [
    ...Object.values(g.functions).flat(),
    ...Object.values(g.arcs).flat(),
    ...Object.values(g.lines).flat(),
  ] as (Int32Array | Float64Array)[];
  return cols.map(c => c.buffer as ArrayBuffer);
}
