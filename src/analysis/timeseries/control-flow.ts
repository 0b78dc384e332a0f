import { readFile } from 'node:fs/promises';
import { fileBasename } from '../model/frame-keys';
import { ProfileReadError } from '../formats/reader';
import { ConstructKind, type ConstructTable } from './constructs';
import { routineName } from './semantic-class';

/**
 * Control-flow successor sets (paper §3.2, Algorithm 1): inside a routine or a loop, child b is a
 * successor of child a when b can run after a in the same pass through the body, i.e. b is
 * reachable from a in the body's graph without back edges. A child that is not a successor of the
 * previous one means a back edge was taken: a new iteration (Alg. 1), or, in a routine, a new call.
 *
 * The paper takes the graphs from binary analysis (Dyninst ParseAPI). Without one, b succeeds a
 * when b comes later in the source (call line or loop header line); when either has no line, when
 * it was first executed later (our choice). The same call site never succeeds itself, so two
 * consecutive children at one call site always start a new iteration. if/else siblings come out as
 * "reachable", which can only miss a split, never invent one.
 *
 * A control-flow file overrides source order where it has a graph. Its format (JSON):
 *
 *     {
 *       "hpcLensControlFlow": 1,
 *       "graphs": [
 *         { "scope": "foo", "edges": [["entry", "C@5"], ["C@5", "loop@6"]] },
 *         { "scope": "loop@6", "file": "toy.c",
 *           "edges": [["entry", "A@7"], ["A@7", "B@8"], ["A@7", "C@9"], ["B@8", "C@9"],
 *                     ["C@9", "entry", "back"]] }
 *       ]
 *     }
 *
 * `scope` is a routine name or `loop@LINE` (its header line), optionally narrowed to a source file by
 * `file` (compared by base name). Vertices are `entry`, `NAME@LINE` for a call of NAME from LINE,
 * and `loop@LINE` for a nested loop. An edge is `[from, to]`, or `[from, to, "back"]` for a back
 * edge (dropped: successor sets use the acyclic graph). Names compare as routines do (PMPI_ = MPI_,
 * case-insensitive).
 */
export const ENTRY = -2;

export interface ControlFlowGraph {
  scope: string;
  file: string | null;
  /** Per vertex, the vertices reachable from it without back edges (never itself). */
  reach: Map<string, Set<string>>;
}

export interface ControlFlowFile {
  path: string;
  graphs: ControlFlowGraph[];
}

const VERTEX = /^(?:entry|loop@\d+|.+@\d+)$/i;

/** Reads and checks a control-flow file; a malformed one is a ProfileReadError naming the file and the entry. */
export async function readControlFlowFile(path: string): Promise<ControlFlowFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ProfileReadError(path, `cannot read the control-flow file (${(e as Error).message})`, { cause: e });
  }
  return parseControlFlow(path, text);
}

export function parseControlFlow(path: string, text: string): ControlFlowFile {
  const fail = (where: string, why: string): never => {
    throw new ProfileReadError(path, `${where}: ${why}`);
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    fail('control-flow file', `not JSON (${(e as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    fail('control-flow file', 'expected an object { "hpcLensControlFlow": 1, "graphs": [...] }');
  const root = doc as Record<string, unknown>;
  if (root.hpcLensControlFlow !== 1)
    fail('hpcLensControlFlow', `expected 1, found ${JSON.stringify(root.hpcLensControlFlow)}`);
  if (!Array.isArray(root.graphs)) fail('graphs', 'expected a list of graphs');
  const graphs: ControlFlowGraph[] = [];
  (root.graphs as unknown[]).forEach((g, i) => {
    const at = `graphs[${i}]`;
    if (typeof g !== 'object' || g === null || Array.isArray(g)) fail(at, 'expected an object with scope and edges');
    const o = g as Record<string, unknown>;
    if (typeof o.scope !== 'string' || !o.scope.trim()) fail(`${at}.scope`, 'expected a routine name or loop@LINE');
    if (o.file !== undefined && typeof o.file !== 'string') fail(`${at}.file`, 'expected a file name');
    if (!Array.isArray(o.edges)) fail(`${at}.edges`, 'expected a list of [from, to] or [from, to, "back"]');
    const forward = new Map<string, string[]>();
    const vertices = new Set<string>();
    (o.edges as unknown[]).forEach((e, j) => {
      const where = `${at}.edges[${j}] (scope ${JSON.stringify(o.scope)})`;
      if (!Array.isArray(e) || (e.length !== 2 && e.length !== 3))
        fail(where, `expected [from, to] or [from, to, "back"], found ${JSON.stringify(e)}`);
      const [from, to, tag] = e as unknown[];
      for (const v of [from, to])
        if (typeof v !== 'string' || !VERTEX.test(v.trim()))
          fail(where, `${JSON.stringify(v)} is not a vertex (entry, NAME@LINE or loop@LINE)`);
      if (tag !== undefined && tag !== 'back')
        fail(where, `the third element must be "back", found ${JSON.stringify(tag)}`);
      const a = vertexKey(from as string),
        b = vertexKey(to as string);
      vertices.add(a).add(b);
      if (tag === 'back' || b === 'entry') return;
      forward.set(a, [...(forward.get(a) ?? []), b]);
    });
    const reach = new Map<string, Set<string>>();
    for (const v of vertices) {
      const seen = new Set<string>();
      const stack = [...(forward.get(v) ?? [])];
      while (stack.length) {
        const x = stack.pop()!;
        if (seen.has(x)) continue;
        seen.add(x);
        stack.push(...(forward.get(x) ?? []));
      }
      if (seen.has(v)) fail(`${at}.edges`, `${v} reaches itself without a back edge: mark the loop's back edge "back"`);
      reach.set(v, seen);
    }
    graphs.push({
      scope: scopeKey(o.scope as string),
      file: typeof o.file === 'string' ? fileBasename(o.file) : null,
      reach,
    });
  });
  return { path, graphs };
}

function vertexKey(v: string): string {
  const t = v.trim();
  if (t.toLowerCase() === 'entry') return 'entry';
  const at = t.lastIndexOf('@');
  const name = t.slice(0, at);
  return `${name.toLowerCase() === 'loop' ? 'loop' : routineName(name)}@${Number(t.slice(at + 1))}`;
}

function scopeKey(s: string): string {
  const t = s.trim();
  return /^loop@\d+$/i.test(t) ? `loop@${Number(t.slice(5))}` : routineName(t);
}

/** The successor relation over constructs: a control-flow file where it has a graph, else source order. */
export class ControlFlow {
  private readonly graphOf = new Map<number, ControlFlowGraph | null>();

  constructor(
    private readonly constructs: ConstructTable,
    private readonly file: ControlFlowFile | null = null,
  ) {}

  /** Whether `to` can follow `from` (ENTRY for the body's start) in one pass through `scope`'s body. */
  isSuccessor(scope: number, from: number, to: number): boolean {
    if (to === from || to === ENTRY) return false;
    const t = this.constructs;
    if (this.file) {
      const g = this.graph(scope);
      if (g) {
        const a = from === ENTRY ? 'entry' : this.vertexOf(from);
        const b = this.vertexOf(to);
        const r = g.reach.get(a);
        if (r && g.reach.has(b)) return r.has(b);
      }
    }
    if (from === ENTRY) return true;
    if (t.kind[from] === ConstructKind.ImplicitLoop || t.kind[to] === ConstructKind.ImplicitLoop) return false;
    const la = t.orderLine[from]!,
      lb = t.orderLine[to]!;
    if (la > 0 && lb > 0 && la !== lb) return lb > la;
    const ta = t.firstTime[from]!,
      tb = t.firstTime[to]!;
    if (ta !== tb) return tb > ta;
    return to > from;
  }

  private graph(scope: number): ControlFlowGraph | null {
    let g = this.graphOf.get(scope);
    if (g !== undefined) return g;
    g = null;
    if (scope >= 0 && this.file) {
      const t = this.constructs;
      const key = t.kind[scope] === ConstructKind.Loop ? `loop@${t.orderLine[scope]}` : routineName(t.name[scope]!);
      const file = t.file[scope] ? fileBasename(t.file[scope]!) : null;
      const candidates = this.file.graphs.filter(x => x.scope === key);
      g = candidates.find(x => x.file !== null && x.file === file) ?? candidates.find(x => x.file === null) ?? null;
    }
    this.graphOf.set(scope, g);
    return g;
  }

  private vertexOf(c: number): string {
    const t = this.constructs;
    return t.kind[c] === ConstructKind.Loop ? `loop@${t.orderLine[c]}` : `${routineName(t.name[c]!)}@${t.orderLine[c]}`;
  }
}
