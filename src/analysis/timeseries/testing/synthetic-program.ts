import { NodeKind } from '../../model/call-tree';
import type { Profile } from '../../model/profile';
import { ProfileBuilder } from '../../model/profile-builder';
import { TraceEventKind } from '../../model/trace';
import { TraceBuilder } from '../../model/trace-builder';
import { seededRandom } from '../../stats/seeded-random';

/**
 * A seeded generator of sampled traces with planted ground truth (seed 001 digest §6.1): a small
 * program model runs on every rank (a per-rank interpreter; blocking MPI-like operations resolve
 * from the ranks' arrival times), each rank's run is sampled with a jittered period, and the result
 * is a real Profile with a trace, built through ProfileBuilder and TraceBuilder like any reader's.
 *
 * Durations are in ms and may depend on the rank, the iteration of the enclosing loops and a
 * seeded random stream. LCA information goes in the way real traces could carry it: 'exact' emits
 * every frame instance as a slice (the samples' shared frames are the slices covering both),
 * 'procedure' only the call frames (the analysis must extend the LCA through loops), 'none' no
 * slices at all (like HPCToolkit's trace.db).
 */
export interface DurContext {
  rank: number;
  ranks: number;
  /** Iteration of the innermost enclosing loop (0-based), -1 outside loops. */
  iter: number;
  /** Iterations of every enclosing loop, outermost first. */
  iters: readonly number[];
  rng: () => number;
}

export type Dur = number | ((c: DurContext) => number);

export type MpiOp = 'barrier' | 'allreduce' | 'alltoall' | 'bcast' | 'send' | 'recv' | 'sendrecv';

export type Stmt =
  | { kind: 'call'; name: string; line: number; body: Stmt[] }
  | { kind: 'leaf'; name: string; line: number; dur: Dur }
  | { kind: 'loop'; line: number; iters: number | ((c: DurContext) => number); body: Stmt[] }
  | { kind: 'work'; dur: Dur }
  | { kind: 'if'; when: (c: DurContext) => boolean; then: Stmt[]; else: Stmt[] }
  | {
      kind: 'mpi';
      op: MpiOp;
      name: string;
      line: number;
      latency: Dur;
      /** send/recv: the other rank. */
      peer?: (c: DurContext) => number;
      /** Collectives: the participating ranks (default: all). */
      group?: (rank: number, ranks: number) => number[];
      /** bcast: the root. */
      root?: number;
    };

export const call = (name: string, line: number, ...body: Stmt[]): Stmt => ({ kind: 'call', name, line, body });
export const leaf = (name: string, line: number, dur: Dur): Stmt => ({ kind: 'leaf', name, line, dur });
export const loop = (line: number, iters: number | ((c: DurContext) => number), ...body: Stmt[]): Stmt => ({
  kind: 'loop',
  line,
  iters,
  body,
});
export const work = (dur: Dur): Stmt => ({ kind: 'work', dur });
export const when = (test: (c: DurContext) => boolean, then: Stmt[], otherwise: Stmt[] = []): Stmt => ({
  kind: 'if',
  when: test,
  then,
  else: otherwise,
});
export const barrier = (line: number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'barrier',
  name: 'MPI_Barrier',
  line,
  latency,
});
export const allreduce = (line: number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'allreduce',
  name: 'MPI_Allreduce',
  line,
  latency,
});
export const alltoall = (line: number, latency: Dur, group?: (rank: number, ranks: number) => number[]): Stmt => ({
  kind: 'mpi',
  op: 'alltoall',
  name: 'MPI_Alltoall',
  line,
  latency,
  ...(group ? { group } : {}),
});
export const bcast = (line: number, root: number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'bcast',
  name: 'MPI_Bcast',
  line,
  latency,
  root,
});
export const send = (line: number, to: (c: DurContext) => number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'send',
  name: 'MPI_Send',
  line,
  latency,
  peer: to,
});
export const recv = (line: number, from: (c: DurContext) => number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'recv',
  name: 'MPI_Recv',
  line,
  latency,
  peer: from,
});
/** MPI_Sendrecv around a ring: completes when both neighbours have arrived, plus the latency. */
export const sendrecvRing = (line: number, latency: Dur = 0): Stmt => ({
  kind: 'mpi',
  op: 'sendrecv',
  name: 'MPI_Sendrecv',
  line,
  latency,
});

export interface SyntheticOptions {
  ranks: number;
  /** Sampling period V in ms (default 1). */
  period?: number;
  /** Period jitter j: each gap is V·(1 + U(−j, j)) (default 0.1). */
  jitter?: number;
  seed?: number;
  lca?: 'exact' | 'procedure' | 'none';
  /** Per-rank phase of the first sample in [0, V) (default: random); a function fixes it per rank (ms). */
  phase?: (rank: number) => number;
  file?: string;
}

/** One frame instance of a rank's run (ms). */
export interface Instance {
  node: number;
  parent: number;
  depth: number;
  start: number;
  end: number;
}

export interface GroundTruth {
  /** Per rank, every frame instance in start order (ms). */
  instances: Instance[][];
  /** Per rank: per loop instance (index into instances), its iterations' [start, end] (ms). */
  iterations: Map<number, [number, number][]>[];
  /** Per rank, the end of its run (ms). */
  end: number[];
  /** Call-tree node of each (parent node, name) the program created, by path `main/compute`. */
  nodeByPath: Map<string, number>;
}

export interface SyntheticTrace {
  profile: Profile;
  truth: GroundTruth;
}

interface Blocking {
  op: MpiOp;
  key: string;
  arrival: number;
  latency: number;
  /** Participants of a collective (rank ids). */
  group: number[];
  rank: number;
  peer: number;
  root: number;
}

/** Runs `program` (the body of main) on every rank, samples it and builds the profile. */
export function syntheticTrace(program: Stmt[], o: SyntheticOptions): SyntheticTrace {
  const ranks = o.ranks;
  const V = o.period ?? 1;
  const jitter = o.jitter ?? 0.1;
  const file = o.file ?? 'app.c';
  const rng = seededRandom(o.seed ?? 1);
  const b = new ProfileBuilder('synthetic-program', `synthetic:${ranks} ranks`);
  const nodes = new Map<string, number>();
  const nodeByPath = new Map<string, number>();
  const names: string[] = [];
  const loopNodes = new Set<number>();
  const nodeOf = (parent: number, kind: NodeKind, name: string, line: number, mpi = false): number => {
    const key = `${parent}\u0000${kind}\u0000${name}\u0000${line}`;
    let id = nodes.get(key);
    if (id === undefined) {
      id =
        kind === NodeKind.Loop
          ? b.tree.add(parent, name, kind, { file, line })
          : b.tree.add(parent, name, kind, mpi ? { callLine: line } : { file, line, callLine: line });
      nodes.set(key, id);
      names[id] = name;
      if (kind === NodeKind.Loop) loopNodes.add(id);
      const path = parent >= 0 ? `${pathOf(parent)}/${name}` : name;
      if (!nodeByPath.has(path)) nodeByPath.set(path, id);
      paths[id] = path;
    }
    return id;
  };
  const paths: string[] = [];
  const pathOf = (n: number) => paths[n]!;
  const main = nodeOf(-1, NodeKind.Function, 'main', 1);

  // Per rank: a generator that yields at each blocking operation and resumes with its completion time.
  const instances: Instance[][] = Array.from({ length: ranks }, () => []);
  const iterations: Map<number, [number, number][]>[] = Array.from({ length: ranks }, () => new Map());
  const clock = new Float64Array(ranks);
  const seq = new Map<string, number>();
  const nextSeq = (key: string) => {
    const n = seq.get(key) ?? 0;
    seq.set(key, n + 1);
    return n;
  };

  function* run(rank: number): Generator<Blocking, void, number> {
    const iters: number[] = [];
    const ctx = (): DurContext => ({ rank, ranks, iter: iters.length ? iters[iters.length - 1]! : -1, iters, rng });
    const val = (d: Dur) => Math.max(0, typeof d === 'number' ? d : d(ctx()));
    const open = (node: number, parent: number, depth: number): number => {
      instances[rank]!.push({ node, parent, depth, start: clock[rank]!, end: NaN });
      return instances[rank]!.length - 1;
    };
    const close = (i: number) => (instances[rank]![i]!.end = clock[rank]!);
    function* exec(stmts: Stmt[], frame: number, frameNode: number, depth: number): Generator<Blocking, void, number> {
      for (const s of stmts) {
        switch (s.kind) {
          case 'work':
            clock[rank]! += val(s.dur);
            break;
          case 'leaf': {
            const i = open(nodeOf(frameNode, NodeKind.Function, s.name, s.line), frame, depth + 1);
            clock[rank]! += val(s.dur);
            close(i);
            break;
          }
          case 'call': {
            const node = nodeOf(frameNode, NodeKind.Function, s.name, s.line);
            const i = open(node, frame, depth + 1);
            yield* exec(s.body, i, node, depth + 1);
            close(i);
            break;
          }
          case 'loop': {
            const node = nodeOf(frameNode, NodeKind.Loop, `loop@${s.line}`, s.line);
            const i = open(node, frame, depth + 1);
            const n = typeof s.iters === 'number' ? s.iters : s.iters(ctx());
            const its: [number, number][] = [];
            for (let k = 0; k < n; k++) {
              iters.push(k);
              const from = clock[rank]!;
              yield* exec(s.body, i, node, depth + 1);
              its.push([from, clock[rank]!]);
              iters.pop();
            }
            iterations[rank]!.set(i, its);
            close(i);
            break;
          }
          case 'if':
            yield* exec(s.when(ctx()) ? s.then : s.else, frame, frameNode, depth);
            break;
          case 'mpi': {
            const i = open(nodeOf(frameNode, NodeKind.Function, s.name, s.line, true), frame, depth + 1);
            const c = ctx();
            const group = s.group ? s.group(rank, ranks) : Array.from({ length: ranks }, (_, r) => r);
            const peer = s.peer ? s.peer(c) : -1;
            const key =
              s.op === 'send'
                ? `p2p:${rank}>${peer}`
                : s.op === 'recv'
                  ? `p2p:${peer}>${rank}`
                  : `${s.op === 'sendrecv' ? 'sendrecv' : 'coll'}:${group.join(',')}`;
            const done = yield {
              op: s.op,
              key,
              arrival: clock[rank]!,
              latency: val(s.latency),
              group,
              rank,
              peer,
              root: s.root ?? 0,
            };
            clock[rank] = done;
            close(i);
            break;
          }
        }
      }
    }
    const i = open(main, -1, 0);
    yield* exec(program, i, main, 0);
    close(i);
  }

  // The scheduler: run every rank until it blocks; an operation completes once all its parties arrived.
  const gens = Array.from({ length: ranks }, (_, r) => run(r));
  const waiting = new Map<string, Blocking[]>();
  const runnable: { rank: number; value: number }[] = Array.from({ length: ranks }, (_, r) => ({ rank: r, value: 0 }));
  let finished = 0;
  while (runnable.length) {
    const { rank, value } = runnable.shift()!;
    const step = gens[rank]!.next(value);
    if (step.done) {
      finished++;
      continue;
    }
    const op = step.value;
    const seqKey = `${op.key}#${op.rank}`;
    const matchKey = `${op.key}@${nextSeq(op.op === 'send' || op.op === 'recv' ? `${op.key}:${op.op}` : seqKey)}`;
    const list = waiting.get(matchKey) ?? [];
    list.push(op);
    waiting.set(matchKey, list);
    const parties = op.op === 'send' || op.op === 'recv' ? 2 : op.group.length;
    if (list.length < parties) continue;
    waiting.delete(matchKey);
    const latest = Math.max(...list.map(x => x.arrival));
    for (const x of list) {
      let done: number;
      if (x.op === 'bcast') {
        const root = list.find(y => y.rank === x.root)!;
        done = x.rank === x.root ? x.arrival + x.latency : Math.max(x.arrival, root.arrival) + x.latency;
      } else if (x.op === 'sendrecv') {
        const at = (r: number) => list.find(y => y.rank === (r + ranks) % ranks)!.arrival;
        done = Math.max(at(x.rank - 1), x.arrival, at(x.rank + 1)) + x.latency;
      } else done = latest + x.latency;
      runnable.push({ rank: x.rank, value: done });
    }
  }
  if (finished < ranks) throw new Error(`the program deadlocks: ${ranks - finished} ranks never finish`);

  // Sampling and the profile.
  const { tb, metric, rankTrack } = sampledTraceParts(b);
  const lca = o.lca ?? 'exact';
  const ms = 1e6;
  const end: number[] = [];
  for (let r = 0; r < ranks; r++) {
    const { context, track } = rankTrack(r);
    const inst = instances[r]!;
    end.push(inst[0]!.end);
    // Slices: every instance ('exact') or only call frames ('procedure'); depth counts emitted ancestors.
    if (lca !== 'none') {
      const emittedDepth = new Int32Array(inst.length);
      inst.forEach((x, i) => {
        const emit = lca === 'exact' || !loopNodes.has(x.node);
        const parentDepth = x.parent >= 0 ? emittedDepth[x.parent]! : -1;
        emittedDepth[i] = emit ? parentDepth + 1 : parentDepth;
        if (emit && x.end > x.start)
          tb.addSlice(track, x.start * ms, (x.end - x.start) * ms, x.node, emittedDepth[i]!, '', names[x.node]!);
      });
    }
    let t = o.phase ? o.phase(r) : rng() * V;
    const stack: number[] = [];
    let next = 0;
    while (t < inst[0]!.end) {
      while (next < inst.length && inst[next]!.start <= t) {
        while (stack.length && inst[stack[stack.length - 1]!]!.end <= inst[next]!.start) stack.pop();
        stack.push(next++);
      }
      while (stack.length && inst[stack[stack.length - 1]!]!.end <= t) stack.pop();
      const top = stack.length ? inst[stack[stack.length - 1]!]! : inst[0]!;
      tb.addEvent(TraceEventKind.Sample, track, t * ms, 0, top.node, top.depth, '', names[top.node]!);
      b.addExclusive(metric, top.node, context, V / 1e3);
      t += V * (1 + (2 * rng() - 1) * jitter);
    }
  }
  b.trace = tb.finish();
  return { profile: b.build(metric), truth: { instances, iterations, end, nodeByPath } };
}

/**
 * A profile from explicit samples of one or more lanes (the paper's toy example, §2.4): each sample
 * names its call path (outermost first; `loop@LINE` for loops, `NAME@LINE` for calls) and, when
 * known, how many leading frames persisted from the previous sample (its LCA depth). Lanes with
 * `keep` on every sample get the frame instances as slices; lanes without any get none.
 */
export function profileFromSamples(
  lanes: { samples: { t: number; path: string[]; keep?: number }[] }[],
  options: { period?: number; file?: string } = {},
): Profile {
  const V = options.period ?? 1;
  const file = options.file ?? 'toy.c';
  const b = new ProfileBuilder('synthetic-program', 'toy');
  const { tb, metric, rankTrack } = sampledTraceParts(b, lanes.length === 1);
  const nodes = new Map<string, number>();
  const names: string[] = [];
  const nodeOf = (parent: number, frame: string): number => {
    const key = `${parent}\u0000${frame}`;
    let id = nodes.get(key);
    if (id === undefined) {
      const at = frame.lastIndexOf('@');
      const name = at > 0 ? frame.slice(0, at) : frame;
      const line = at > 0 ? Number(frame.slice(at + 1)) : 0;
      id =
        name === 'loop'
          ? b.tree.add(parent, `loop@${line}`, NodeKind.Loop, { file, line })
          : b.tree.add(parent, name, NodeKind.Function, { file, line: line || null, callLine: line || null });
      nodes.set(key, id);
      names[id] = name;
    }
    return id;
  };
  const ms = 1e6;
  lanes.forEach((lane, r) => {
    const { context, track } = rankTrack(r);
    const withKeep = lane.samples.length > 0 && lane.samples.every(s => s.keep !== undefined);
    const open: { node: number; start: number }[] = [];
    const closeTo = (depth: number, t: number) => {
      while (open.length > depth) {
        const x = open.pop()!;
        tb.addSlice(track, x.start * ms, (t - x.start) * ms, x.node, open.length, '', names[x.node]!);
      }
    };
    lane.samples.forEach((s, i) => {
      const chain: number[] = [];
      let parent = -1;
      for (const f of s.path) chain.push((parent = nodeOf(parent, f)));
      if (withKeep) {
        closeTo(i === 0 ? 0 : Math.min(s.keep!, open.length), s.t);
        for (let d = open.length; d < chain.length; d++) open.push({ node: chain[d]!, start: s.t });
      }
      const leafNode = chain[chain.length - 1]!;
      tb.addEvent(TraceEventKind.Sample, track, s.t * ms, 0, leafNode, chain.length - 1, '', names[leafNode]!);
      b.addExclusive(metric, leafNode, context, V / 1e3);
    });
    if (withKeep) closeTo(0, lane.samples[lane.samples.length - 1]!.t + V);
  });
  b.trace = tb.finish();
  return b.build(metric);
}

/** The trace builder, a `time` metric and one thread track per rank (`rank r`; no rank when `single`). */
function sampledTraceParts(b: ProfileBuilder, single = false) {
  const tb = new TraceBuilder(b.tree.strings);
  const metric = b.addMetric({
    name: 'time',
    label: 'time',
    sourceKeys: ['time'],
    unit: 's',
    kind: 'exclusive',
    aggregation: 'sum',
  });
  const rankTrack = (r: number) => {
    const context = b.context({ rank: single ? -1 : r });
    const track = tb.addTrack({
      name: '',
      kind: 'thread',
      process: `rank ${r}`,
      pid: String(r),
      tid: '',
      rank: r,
      context,
    });
    return { context, track };
  };
  return { tb, metric, rankTrack };
}
