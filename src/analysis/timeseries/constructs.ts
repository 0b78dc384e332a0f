import { NodeKind, type CallTree } from '../model/call-tree';
import { compileUserRegex, type UserRegex } from '../source/user-regex';
import { TraceAnalysisError } from './model/options';
import type { Classifier, SemanticClass } from './semantic-class';

/**
 * Constructs: the program points a temporal context tree node can stand for (paper §3): call
 * sites and loops in their calling context. They are the call tree's frames with three changes:
 *
 * - statement nodes (the PC line, or HPCToolkit's line context above a call) are not frames: a
 *   sample in a statement is exclusive time of the enclosing frame;
 * - everything below the outermost runtime frame (MPI, OpenMP, threads) folds into that frame,
 *   which is a leaf of the analysis (paper §4.3, "do not descend into its internals");
 * - explicit iteration markers (`ProfilerStep#5`, NVTX `step 12`: names matching a marker pattern,
 *   without a source location) are one construct whatever their number, so step k of one run or
 *   lane pairs with step k of another.
 *
 * Each frame construct also owns one implicit-loop construct, the loop that iterations of its
 * repeated callees form in instrumented traces (iterations.ts). Ids are dense and deterministic
 * (call-tree order), so trees built in different workers agree on them.
 */
export const ConstructKind = { Frame: 0, Loop: 1, ImplicitLoop: 2 } as const;
export type ConstructKind = (typeof ConstructKind)[keyof typeof ConstructKind];

/** The lane root's own construct id (a thread is not a construct of the call tree). */
export const ROOT_CONSTRUCT = -1;

export class ConstructTable {
  readonly parent: number[] = [];
  readonly kind: ConstructKind[] = [];
  /** Display name (markers with their number replaced by `*`). */
  readonly name: string[] = [];
  /** Line that orders siblings in source (call line of a call site, header of a loop); 0 when unknown. */
  readonly orderLine: number[] = [];
  /** Where a user looks: the call site's file and line (the caller's file), or the loop header. */
  readonly file: (string | null)[] = [];
  readonly line: (number | null)[] = [];
  readonly semantic: SemanticClass[] = [];
  readonly runtime: boolean[] = [];
  readonly marker: boolean[] = [];
  /** First call-tree node of the construct (-1 for implicit loops). */
  readonly firstNode: number[] = [];
  /** Earliest time any of its nodes was seen (ns; Infinity when unknown): the order of first execution. */
  readonly firstTime: number[] = [];
  /** Per frame construct, its implicit loop; for the root, `rootImplicitLoop`. */
  readonly implicitLoop: number[] = [];
  rootImplicitLoop = -1;
  /** Per call-tree node: the construct its samples and slices belong to, or ROOT_CONSTRUCT above every frame. */
  readonly frameOf: Int32Array;
  /** Per call-tree node: true when the node is itself its construct's frame (not a statement or runtime internal). */
  readonly isFrameNode: Uint8Array;

  private readonly ids = new Map<string, number>();

  constructor(
    readonly tree: CallTree,
    classifier: Classifier,
    markers: readonly UserRegex[],
    /** Per call-tree node, the earliest start of its events (optional; orders siblings without lines). */
    nodeFirstTime?: Float64Array,
  ) {
    const n = tree.size;
    this.frameOf = new Int32Array(n);
    this.isFrameNode = new Uint8Array(n);
    const { kind: kinds } = tree.columns;
    for (let i = 0; i < n; i++) {
      const p = tree.parent(i);
      const parentFrame = p >= 0 ? this.frameOf[p]! : ROOT_CONSTRUCT;
      const k = kinds[i]!;
      if ((parentFrame >= 0 && this.runtime[parentFrame]) || k === NodeKind.Statement) {
        this.frameOf[i] = parentFrame;
        continue;
      }
      const rawName = tree.name(i);
      // Markers are annotations (profiler steps, NVTX ranges): code with a source location is a routine.
      const isMarker = !tree.file(i) && !tree.line(i) && markers.some(re => re.test(rawName));
      const name = isMarker ? rawName.replace(/\d+/g, '*') : rawName;
      const ownLine = tree.line(i) ?? 0;
      const callLine = tree.callLine(i) ?? (p >= 0 && kinds[p] === NodeKind.Statement ? (tree.line(p) ?? 0) : 0);
      const isLoop = k === NodeKind.Loop;
      const orderLine = isLoop ? ownLine : k === NodeKind.CallSite ? ownLine || callLine : callLine;
      const key = `${parentFrame}\u0000${isLoop ? 1 : 0}\u0000${name}\u0000${tree.file(i) ?? ''}\u0000${isMarker ? 0 : ownLine}\u0000${isMarker ? 0 : callLine}`;
      let c = this.ids.get(key);
      if (c === undefined) {
        const callerFile = !isLoop && orderLine > 0 ? nearestFile(tree, p) : null;
        c = this.add({
          parent: parentFrame,
          kind: isLoop ? ConstructKind.Loop : ConstructKind.Frame,
          name,
          orderLine,
          file: callerFile ?? tree.file(i),
          line: callerFile ? orderLine : tree.line(i),
          semantic: classifier.classOf(rawName),
          runtime: !isLoop && classifier.isRuntime(rawName),
          marker: isMarker,
          firstNode: i,
        });
        this.ids.set(key, c);
      }
      this.frameOf[i] = c;
      this.isFrameNode[i] = 1;
    }
    if (nodeFirstTime) {
      for (let i = 0; i < n; i++) {
        const c = this.frameOf[i]!;
        if (c >= 0 && nodeFirstTime[i]! < this.firstTime[c]!) this.firstTime[c] = nodeFirstTime[i]!;
      }
      // Parents are interned before their children: a reverse scan lifts every first time to the ancestors.
      for (let c = this.size - 1; c >= 0; c--) {
        const p = this.parent[c]!;
        if (p >= 0 && this.firstTime[c]! < this.firstTime[p]!) this.firstTime[p] = this.firstTime[c]!;
      }
    }
    const frames = this.size;
    for (let c = 0; c < frames; c++) this.implicitLoop.push(this.addImplicitLoop(c));
    this.rootImplicitLoop = this.addImplicitLoop(ROOT_CONSTRUCT);
  }

  get size(): number {
    return this.parent.length;
  }

  isLoop(c: number): boolean {
    return c >= 0 && this.kind[c] !== ConstructKind.Frame;
  }

  /** The implicit loop of a frame construct or of the root. */
  implicitLoopOf(c: number): number {
    return c === ROOT_CONSTRUCT ? this.rootImplicitLoop : this.implicitLoop[c]!;
  }

  /** Depth of a construct below the root (1 for a top-level frame). */
  depth(c: number): number {
    let d = 0;
    for (let x = c; x >= 0; x = this.parent[x]!) d++;
    return d;
  }

  private add(r: {
    parent: number;
    kind: ConstructKind;
    name: string;
    orderLine: number;
    file: string | null;
    line: number | null;
    semantic: SemanticClass;
    runtime: boolean;
    marker: boolean;
    firstNode: number;
  }): number {
    this.parent.push(r.parent);
    this.kind.push(r.kind);
    this.name.push(r.name);
    this.orderLine.push(r.orderLine);
    this.file.push(r.file);
    this.line.push(r.line);
    this.semantic.push(r.semantic);
    this.runtime.push(r.runtime);
    this.marker.push(r.marker);
    this.firstNode.push(r.firstNode);
    this.firstTime.push(Infinity);
    return this.parent.length - 1;
  }

  private addImplicitLoop(owner: number): number {
    const c = this.add({
      parent: owner,
      kind: ConstructKind.ImplicitLoop,
      name: owner >= 0 ? `loop in ${this.name[owner]}` : 'loop',
      orderLine: 0,
      file: owner >= 0 ? this.file[owner]! : null,
      line: owner >= 0 ? this.line[owner]! : null,
      semantic: 1,
      runtime: false,
      marker: false,
      firstNode: -1,
    });
    return c;
  }
}

/** The file of node i or of its nearest ancestor that records one (a call site's line is in the caller's file). */
function nearestFile(tree: CallTree, i: number): string | null {
  for (let x = i; x >= 0; x = tree.parent(x)) {
    const f = tree.file(x);
    if (f) return f;
  }
  return null;
}

/** Marker patterns as case-insensitive regular expressions. */
export function markerPatterns(sources: readonly string[]): UserRegex[] {
  // User patterns (setting hpcLens.traceAnalysis.iterationMarkers): RE2, so no pattern can stall the worker.
  return sources.map(s => {
    try {
      return compileUserRegex(s, 'i');
    } catch (e) {
      throw new TraceAnalysisError(`iterationMarkers: ${JSON.stringify(s)} ${(e as Error).message}`);
    }
  });
}
