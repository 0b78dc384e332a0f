import { throwIfAborted } from '../model/cancellation';
import type { CallGraphData } from '../model/call-graph';
import { NodeKind } from '../model/call-tree';
import type { ProfileBuilder } from '../model/profile-builder';

/**
 * Turns a call graph (functions and caller → callee arcs, with recursion and cycles) into a
 * calling-context tree, the shape every view of HPC Lens works on.
 *
 * The assumption is gprof's: a function's cost is spent on behalf of its callers in proportion to
 * what each arc carries (gprof's child lines give exactly the time propagated along an arc,
 * callgrind the inclusive cost of the calls along it; when no arc into a function carries cost,
 * call counts decide, and without those the callers share equally). Every calling context of a
 * function f therefore gets a fraction φ of f, the product of the arc shares along its path, and
 * its node holds φ × f's self cost. A function with callers runs only on their behalf; functions
 * without callers (gprof's `<spontaneous>`) are the roots.
 *
 * Recursion: arcs inside a strongly connected component (a gprof cycle, a recursive function,
 * callgrind's `f'2` levels) carry no share. Such a component is entered as a whole: its members
 * appear once each below the entry member (a spanning tree along the arcs inside it), each with φ ×
 * its self cost, and the arcs leaving the component start new contexts. So a function never appears
 * twice on a path; the time of a recursive call stays in the outer activation, where the files
 * already count it (their self costs cover every activation).
 *
 * Conservation: the shares into each component sum to 1 and every component is reached from a
 * root (a component without callers), so the fractions of a function's contexts sum to 1 and the
 * tree's exclusive values of each function add up to its self cost exactly, whatever the arc
 * costs are. Where the arcs account for all of a callee's time (Σ arc costs into it = its own
 * total, as in callgrind and, up to rounding, gprof), a context's subtree also holds φ × the
 * function's total.
 *
 * Size: contexts without cost are left out. A DAG can have exponentially many paths, so when the
 * tree would reach `maxNodes` (default 250 000) the contexts whose subtree would hold at most a
 * fraction of the total are folded too: the lowest fraction that fits is searched by dry runs that
 * count nodes; past 1 % only the cap remains. A folded context's cost goes to one `[other calls]`
 * node under its parent, so the tree's total stays the graph's; the function-level conservation
 * above then holds for what is not folded, and `builder.warnings` says how much was. Ordinary
 * profiles fold nothing.
 */
export interface UnfoldOptions {
  /** Profile metric id of each graph metric (graph metric k → builder metric metrics[k]). */
  metrics: readonly number[];
  /** Execution context the values go to. */
  context: number;
  /** Graph metric whose cost decides pruning (default 0: the reader's primary). */
  pruneMetric?: number;
  /** Leave out contexts at or below this fraction of the total (default 0: only contexts without cost). */
  minFraction?: number;
  /** The tree is kept below this many nodes (default 250 000): the threshold rises until it fits. */
  maxNodes?: number;
  signal?: AbortSignal;
}

export interface UnfoldResult {
  nodesAdded: number;
  /** Contexts folded into `[other calls]` nodes (or left out when without cost). */
  prunedContexts: number;
  /** Their cost in the prune metric (the subtree cost they hold). */
  prunedCost: number;
  /** The node cap was reached. */
  capped: boolean;
  /** Σ self cost of all functions in the prune metric: the tree's total when nothing is left out. */
  total: number;
}

export const DEFAULT_MAX_NODES = 250_000;
/** The range searched for a threshold that fits maxNodes; past its top only the node cap limits the tree. */
const MIN_ADAPTIVE_FRACTION = 1e-12;
const MAX_ADAPTIVE_FRACTION = 1e-2;
/** The node that holds the cost of the calling contexts left out below a node. */
export const OTHER_CALLS = '[other calls]';

/** Compressed adjacency: items of group g are list[start[g] .. start[g+1]). */
interface Csr {
  start: Int32Array;
  list: Int32Array;
}

function groupBy(keys: Int32Array, groups: number): Csr {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < keys.length; i++) start[keys[i]! + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const list = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) list[fill[keys[i]!]!++] = i;
  return { start, list };
}

/**
 * Strongly connected components (Tarjan, iterative). Components are numbered in the order they
 * complete, which puts every component after all components it calls into (callees first).
 */
export function stronglyConnectedComponents(
  functionCount: number,
  caller: Int32Array,
  callee: Int32Array,
): { component: Int32Array; count: number } {
  const out = groupBy(caller, functionCount);
  const index = new Int32Array(functionCount).fill(-1);
  const low = new Int32Array(functionCount);
  const onStack = new Uint8Array(functionCount);
  const component = new Int32Array(functionCount).fill(-1);
  const stack = new Int32Array(functionCount);
  const callStack = new Int32Array(functionCount);
  const edgePos = new Int32Array(functionCount);
  let sp = 0,
    next = 0,
    count = 0;
  for (let root = 0; root < functionCount; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callStack[0] = root;
    index[root] = low[root] = next++;
    stack[sp++] = root;
    onStack[root] = 1;
    edgePos[root] = out.start[root]!;
    while (depth >= 0) {
      const v = callStack[depth]!;
      if (edgePos[v]! < out.start[v + 1]!) {
        const w = callee[out.list[edgePos[v]!++]!]!;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          edgePos[w] = out.start[w]!;
          callStack[++depth] = w;
        } else if (onStack[w] && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--sp]!;
          onStack[w] = 0;
          component[w] = count;
        } while (w !== v);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const u = callStack[depth]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
    }
  }
  return { component, count };
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

/** A growable stack of pending contexts: entry function, parent node, call line and φ per metric. */
class TaskStack {
  size = 0;
  fn = new Int32Array(64);
  parent = new Int32Array(64);
  callLine = new Int32Array(64);
  phi: Float64Array;
  constructor(readonly metrics: number) {
    this.phi = new Float64Array(64 * metrics);
  }

  push(fn: number, parent: number, callLine: number): number {
    if (this.size === this.fn.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T, n: number): T => {
        const b = new (a.constructor as { new (n: number): T })(n);
        b.set(a);
        return b;
      };
      const n = this.fn.length * 2;
      this.fn = grow(this.fn, n);
      this.parent = grow(this.parent, n);
      this.callLine = grow(this.callLine, n);
      this.phi = grow(this.phi, n * this.metrics);
    }
    this.fn[this.size] = fn;
    this.parent[this.size] = parent;
    this.callLine[this.size] = callLine;
    return this.size++;
  }
}

/**
 * Unfolds call graphs into a builder's tree. With `shareNodes`, one instance may unfold several
 * graphs into the same tree (e.g. one per thread, each into its own context): contexts with the same
 * path then share a node. (Without it no lookup is needed: one unfolding never makes a node twice.)
 */
export class CallGraphUnfolder {
  private readonly nodeOf: Map<string, number> | null;

  constructor(
    private readonly builder: ProfileBuilder,
    options: { shareNodes?: boolean } = {},
  ) {
    this.nodeOf = options.shareNodes ? new Map() : null;
  }

  unfold(graph: CallGraphData, options: UnfoldOptions): UnfoldResult {
    const b = this.builder;
    const fns = graph.functions;
    const F = fns.name.length;
    const M = options.metrics.length;
    const pm = options.pruneMetric ?? 0;
    const { caller, callee, calls, callLine } = graph.arcs;
    const A = caller.length;
    const self = fns.self;

    const { component, count: C } = stronglyConnectedComponents(F, caller, callee);
    throwIfAborted(options.signal);

    // Inflow of each component from outside it, per metric, and the share of each external arc.
    const inflow = new Float64Array(C * M);
    const inCalls = new Float64Array(C);
    const inArcs = new Int32Array(C);
    const external = new Uint8Array(A);
    for (let a = 0; a < A; a++) {
      const c = component[callee[a]!]!;
      if (component[caller[a]!] === c) continue;
      external[a] = 1;
      inArcs[c]!++;
      const n = calls[a]!;
      if (n > 0) inCalls[c]! += n;
      for (let m = 0; m < M; m++) {
        const v = graph.arcs.cost[m]![a]!;
        if (v > 0) inflow[c * M + m]! += v;
      }
    }
    const share = new Float64Array(A * M);
    for (let a = 0; a < A; a++) {
      if (!external[a]) continue;
      const c = component[callee[a]!]!;
      for (let m = 0; m < M; m++) {
        const into = inflow[c * M + m]!;
        const v = graph.arcs.cost[m]![a]!;
        share[a * M + m] =
          into > 0
            ? v > 0
              ? v / into
              : 0
            : inCalls[c]! > 0
              ? Math.max(0, calls[a]! || 0) / inCalls[c]!
              : 1 / inArcs[c]!;
      }
    }

    // Subtree cost of a component entered with φ = 1, per metric: its members' self cost plus the
    // shares of what it calls. Components complete callees-first, so one forward pass.
    const members = groupBy(component, C);
    const outArcs = groupBy(caller, F);
    const subtree = new Float64Array(C * M);
    let total = 0;
    for (let c = 0; c < C; c++) {
      for (let k = members.start[c]!; k < members.start[c + 1]!; k++) {
        const f = members.list[k]!;
        for (let m = 0; m < M; m++) {
          const v = self[m]![f]!;
          if (v > 0) {
            subtree[c * M + m]! += v;
            if (m === pm) total += v;
          }
        }
        for (let j = outArcs.start[f]!; j < outArcs.start[f + 1]!; j++) {
          const a = outArcs.list[j]!;
          if (!external[a]) continue;
          const d = component[callee[a]!]!;
          for (let m = 0; m < M; m++) subtree[c * M + m]! += share[a * M + m]! * subtree[d * M + m]!;
        }
      }
    }
    const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;

    // Self cost by line, per function, in line order; the rest of a function's self cost stays on
    // its own node.
    const lineGroups = groupBy(graph.lines.function, F);
    const lineCost = graph.lines.cost;
    const lineOf = graph.lines.line;
    const fileOf = graph.lines.file;
    for (let f = 0; f < F; f++) {
      const from = lineGroups.start[f]!,
        to = lineGroups.start[f + 1]!;
      const own = fns.file[f]!;
      // The function's own file first, then inlined code by file; each by line.
      if (to - from > 1)
        lineGroups.list
          .subarray(from, to)
          .sort(
            (x, y) =>
              Number(fileOf[x] !== own) - Number(fileOf[y] !== own) ||
              fileOf[x]! - fileOf[y]! ||
              lineOf[x]! - lineOf[y]!,
          );
    }
    const restSelf = self.map(col => col.slice());
    for (let k = 0; k < graph.lines.function.length; k++) {
      for (let m = 0; m < M; m++) restSelf[m]![graph.lines.function[k]!]! -= lineCost[m]![k]!;
    }

    const strings = b.tree.strings;
    const str = (id: number) => (id === 0 ? null : strings.get(id));
    const nodeOf = this.nodeOf;
    const result: UnfoldResult = { nodesAdded: 0, prunedContexts: 0, prunedCost: 0, capped: false, total };
    const nodeFor = (parent: number, f: number, line: number): number => {
      // Graphs differ in function numbering, not in strings: the key uses the string ids.
      const key = nodeOf ? `${parent}|${fns.name[f]}|${fns.file[f]}|${fns.module[f]}|${line}` : '';
      let node = nodeOf?.get(key);
      if (node === undefined) {
        node = b.tree.add(parent, strings.get(fns.name[f]!), NodeKind.Function, {
          file: str(fns.file[f]!),
          line: fns.line[f],
          module: str(fns.module[f]!),
          callLine: line,
        });
        nodeOf?.set(key, node);
        result.nodesAdded++;
      }
      return node;
    };
    // A statement's name is made once per line entry: the same string then interns fast in every context.
    const statementNames: (string | undefined)[] = [];
    const statementFor = (parent: number, f: number, k: number): number => {
      const file = graph.lines.file[k]!,
        line = lineOf[k]!;
      const key = nodeOf ? `${parent}|s${file}|${line}` : '';
      let node = nodeOf?.get(key);
      if (node === undefined) {
        const path = str(file);
        const name = (statementNames[k] ??= `${path ? basename(path) : '?'}:${line}`);
        node = b.tree.add(parent, name, NodeKind.Statement, { file: path, line, module: str(fns.module[f]!) });
        nodeOf?.set(key, node);
        result.nodesAdded++;
      }
      return node;
    };

    // What is left out keeps its cost, in one node per parent: the tree's total stays the graph's.
    const others = new Map<number, number>();
    const otherCalls = (parent: number): number => {
      let node = others.get(parent) ?? (nodeOf ? nodeOf.get(`${parent}|other`) : undefined);
      if (node === undefined) {
        node = b.tree.add(parent, OTHER_CALLS, NodeKind.Region);
        nodeOf?.set(`${parent}|other`, node);
        result.nodesAdded++;
      }
      others.set(parent, node);
      return node;
    };

    // Roots: components nobody outside them calls, entered at their first member, in function order.
    const roots: number[] = [];
    for (let c = 0; c < C; c++) if (inArcs[c] === 0) roots.push(members.list[members.start[c]!]!);
    roots.sort((x, y) => x - y);
    const visited = new Int32Array(F).fill(-1);
    let expansion = 0;
    const inner = { fn: [] as number[], parent: [] as number[], line: [] as number[] };
    const phi = new Float64Array(M);

    /**
     * Walks the contexts whose subtree cost is above `threshold`, depth first. With `emit` it adds
     * nodes and values to the builder; without, it only counts the nodes it would add and stops
     * past `limit`.
     */
    const walk = (threshold: number, emit: boolean, limit: number): number => {
      let nodes = 0;
      let checked = 0;
      const tasks = new TaskStack(M);
      for (let r = roots.length - 1; r >= 0; r--) {
        // the stack pops the last pushed first
        const t = tasks.push(roots[r]!, -1, 0);
        tasks.phi.fill(1, t * M, t * M + M);
      }
      while (tasks.size > 0) {
        const t = --tasks.size;
        const entry = tasks.fn[t]!,
          parentNode = tasks.parent[t]!,
          entryLine = tasks.callLine[t]!;
        for (let m = 0; m < M; m++) phi[m] = tasks.phi[t * M + m]!;
        const comp = component[entry]!;
        const cost = phi[pm]! * subtree[comp * M + pm]!;
        if (cost <= threshold || nodes >= limit) {
          if (emit) {
            result.prunedContexts++;
            result.prunedCost += cost;
            result.capped ||= nodes >= limit;
            let any = false;
            for (let m = 0; m < M; m++) any ||= phi[m]! * subtree[comp * M + m]! !== 0;
            if (any)
              for (let m = 0; m < M; m++)
                b.addExclusive(
                  options.metrics[m]!,
                  otherCalls(parentNode),
                  options.context,
                  phi[m]! * subtree[comp * M + m]!,
                );
          }
          continue;
        }
        if (++checked % 4096 === 0) throwIfAborted(options.signal);
        // The component's members, once each, along the arcs inside it.
        const stamp = expansion++;
        visited[entry] = stamp;
        inner.fn.length = inner.parent.length = inner.line.length = 0;
        inner.fn.push(entry);
        inner.parent.push(parentNode);
        inner.line.push(entryLine);
        while (inner.fn.length > 0) {
          const f = inner.fn.pop()!,
            parent = inner.parent.pop()!,
            line = inner.line.pop()!;
          if (nodes >= limit) {
            if (emit) result.capped = true;
            break;
          }
          nodes++;
          let node = -1;
          if (emit) {
            node = nodeFor(parent, f, line);
            for (let m = 0; m < M; m++)
              b.addExclusive(options.metrics[m]!, node, options.context, phi[m]! * restSelf[m]![f]!);
          }
          for (let j = lineGroups.start[f]!; j < lineGroups.start[f + 1]!; j++) {
            const k = lineGroups.list[j]!;
            if (!hasCost(lineCost, k)) continue;
            nodes++;
            if (!emit) continue;
            const s = statementFor(node, f, k);
            for (let m = 0; m < M; m++)
              b.addExclusive(options.metrics[m]!, s, options.context, phi[m]! * lineCost[m]![k]!);
          }
          // Children in arc order: pushed in reverse so they pop in order.
          for (let j = outArcs.start[f + 1]! - 1; j >= outArcs.start[f]!; j--) {
            const a = outArcs.list[j]!;
            const g = callee[a]!;
            if (!external[a]) {
              if (visited[g] !== stamp) {
                visited[g] = stamp;
                inner.fn.push(g);
                inner.parent.push(node);
                inner.line.push(callLine[a]!);
              }
              continue;
            }
            const n = tasks.push(g, node, callLine[a]!);
            for (let m = 0; m < M; m++) tasks.phi[n * M + m] = phi[m]! * share[a * M + m]!;
          }
        }
      }
      return nodes;
    };

    // Only contexts without cost are left out unless the tree would outgrow maxNodes; then the lowest
    // threshold that fits is searched (bisection on a log scale between 10⁻¹² and 1 % of the total,
    // each step a dry run that stops at maxNodes), and the cap is the last resort.
    let fraction = options.minFraction ?? 0;
    const thresholdAt = (x: number) => (total > 0 ? x * total : -Infinity);
    const fits = (x: number) => walk(thresholdAt(x), false, maxNodes) < maxNodes;
    if (total > 0 && !fits(fraction)) {
      let lo = Math.log10(Math.max(fraction, MIN_ADAPTIVE_FRACTION)),
        hi = Math.log10(MAX_ADAPTIVE_FRACTION);
      if (fits(10 ** lo)) hi = lo;
      else if (!fits(10 ** hi)) lo = hi;
      for (let step = 0; step < 12 && hi - lo > 0.01; step++) {
        const mid = (lo + hi) / 2;
        if (fits(10 ** mid)) hi = mid;
        else lo = mid;
      }
      fraction = 10 ** hi;
    }
    walk(thresholdAt(fraction), true, maxNodes);

    if (result.capped) {
      b.warnings.push(
        `the call tree unfolded from the call graph was capped at ${maxNodes} nodes; ${result.prunedContexts} calling contexts were folded into "${OTHER_CALLS}" nodes (${formatShare(result.prunedCost, total)} of the total)`,
      );
    } else if (result.prunedCost > 0) {
      b.warnings.push(
        `${result.prunedContexts} calling contexts each below ${fraction.toPrecision(2)} of the total were folded into "${OTHER_CALLS}" nodes (${formatShare(result.prunedCost, total)} of the total), to keep the call tree under ${maxNodes} nodes`,
      );
    } else if (result.prunedContexts > 0) {
      b.warnings.push(`${result.prunedContexts} calling contexts without cost were left out of the call tree`);
    }
    return result;
  }
}

function hasCost(costs: Float64Array[], k: number): boolean {
  for (const c of costs) if (c[k] !== 0) return true;
  return false;
}

function formatShare(part: number, total: number): string {
  const x = total > 0 ? part / total : 0;
  return x >= 0.001 ? `${(x * 100).toFixed(1)} %` : `${(x * 100).toExponential(1)} %`;
}

/** Unfolds one graph into a builder (see CallGraphUnfolder). */
export function unfoldCallGraph(builder: ProfileBuilder, graph: CallGraphData, options: UnfoldOptions): UnfoldResult {
  return new CallGraphUnfolder(builder).unfold(graph, options);
}
