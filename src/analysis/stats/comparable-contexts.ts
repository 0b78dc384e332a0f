import type { Profile } from '../model/profile';

/**
 * What a compared unit is: an MPI rank, a process, a thread, a GPU (of a rank or by device), a GPU
 * stream, or a run of an ensemble.
 */
export type ContextKind = 'rank' | 'process' | 'thread' | 'GPU' | 'GPU stream' | 'run';

/** Every kind, in a fixed order (an index into it fits a typed array). */
export const CONTEXT_KINDS: readonly ContextKind[] = ['rank', 'process', 'thread', 'GPU', 'GPU stream', 'run'];

/** The plural of a kind in prose: `4 ranks`, `2 GPU streams`. */
export function contextKindNoun(kind: ContextKind, count: number): string {
  if (count === 1) return kind;
  return kind === 'process' ? 'processes' : `${kind}s`;
}

/** One thing load balance is judged over: a rank (all its threads and streams of one class), a process, a thread… */
export interface ComparisonUnit {
  label: string;
  kind: ContextKind;
  /** Indices into `profile.contexts`. */
  contexts: number[];
  /** Index into `ComparableContexts.groups`. */
  group: number;
}

/**
 * The profile's contexts as units that may be compared with each other. CPU work and GPU work are
 * never compared (a CPU thread and a GPU stream are not peers sharing one job), and neither are
 * runs of an ensemble (their spread is run-to-run variation, not load imbalance).
 */
export interface ComparableContexts {
  units: ComparisonUnit[];
  /** The unit of each context. */
  unitOf: Int32Array;
  /** Units compared with each other: CPU, then GPU. A group of one unit compares nothing. */
  groups: { kind: ContextKind; units: number[] }[];
}

type ContextClass = 'cpu' | 'gpu' | 'run';

/**
 * Groups a profile's contexts into comparable units, per class (CPU, GPU):
 * - two or more ranks (or, in a trace, processes) → one unit per rank or process, summing its
 *   threads or streams (the MPI view of load balance: a rank's threads are its own business);
 * - else, in a profile, one unit per context (threads of one process, GPU streams);
 * - else (a trace of one process) → one unit: its lanes are not peers (a main thread and an
 *   autograd thread, a compute stream and a copy stream), so nothing is compared.
 */
export function comparableContexts(profile: Profile): ComparableContexts {
  const contexts = profile.contexts;
  const trace = profile.data.trace;
  // A trace's process of each context, from its tracks (Chrome pid, OTF2 location group…).
  const processOf = new Map<number, { pid: string; name: string }>();
  for (const t of trace?.tracks ?? [])
    if (t.context >= 0 && !processOf.has(t.context)) processOf.set(t.context, { pid: t.pid, name: t.process });
  const units: ComparisonUnit[] = [];
  const unitOf = new Int32Array(contexts.length).fill(-1);
  const groups: ComparableContexts['groups'] = [];
  const byClass = new Map<ContextClass, number[]>();
  contexts.forEach((c, i) => {
    const cls: ContextClass =
      c.run !== undefined && c.run >= 0 ? 'run' : c.gpuDevice >= 0 || c.gpuStream >= 0 ? 'gpu' : 'cpu';
    let list = byClass.get(cls);
    if (!list) byClass.set(cls, (list = []));
    list.push(i);
  });
  const addUnits = (members: Map<string, { label: string; kind: ContextKind; contexts: number[] }>) => {
    const g = groups.length;
    const group = { kind: [...members.values()][0]!.kind, units: [] as number[] };
    groups.push(group);
    for (const m of members.values()) {
      for (const c of m.contexts) unitOf[c] = units.length;
      group.units.push(units.length);
      units.push({ ...m, group: g });
    }
  };
  for (const cls of ['cpu', 'gpu', 'run'] as const) {
    const list = byClass.get(cls);
    if (!list) continue;
    if (cls === 'run') {
      // Each run its own unit, in a group of its own: runs are never compared as peers.
      for (const c of list) addUnits(new Map([['', { label: contexts[c]!.label, kind: 'run', contexts: [c] }]]));
      continue;
    }
    const keyed = new Map<string, { label: string; kind: ContextKind; contexts: number[] }>();
    for (const c of list) {
      const ctx = contexts[c]!;
      const proc = processOf.get(c);
      const [key, label, kind]: [string, string, ContextKind] =
        ctx.rank >= 0
          ? [`r${ctx.rank}`, cls === 'gpu' ? `rank ${ctx.rank} (GPU)` : `rank ${ctx.rank}`, 'rank']
          : cls === 'gpu' && ctx.gpuDevice >= 0
            ? [`g${ctx.gpuDevice}`, `GPU ${ctx.gpuDevice}`, 'GPU']
            : proc
              ? [`p${proc.pid}`, proc.name || `process ${proc.pid}`, 'process']
              : ['', 'process', 'process'];
      let u = keyed.get(key);
      if (!u) keyed.set(key, (u = { label, kind, contexts: [] }));
      u.contexts.push(c);
    }
    if (keyed.size >= 2 || trace || list.length < 2) {
      addUnits(keyed);
      continue;
    }
    // One process of a profile: its threads (or GPU streams) are the units.
    const each = new Map<string, { label: string; kind: ContextKind; contexts: number[] }>();
    for (const c of list) {
      const ctx = contexts[c]!;
      each.set(String(c), {
        label: ctx.label,
        kind: cls === 'gpu' ? 'GPU stream' : ctx.thread >= 0 ? 'thread' : 'process',
        contexts: [c],
      });
    }
    addUnits(each);
  }
  return { units, unitOf, groups };
}

/** How a row's values spread over the units it is compared across. */
export interface UnitSpread {
  /** Units compared: those of the row's group where its parent ran. Fewer than 2: single-context. */
  compared: number;
  min: number;
  mean: number;
  max: number;
  /** max / mean over the compared units; 1 when balanced, 0 when the mean is 0 or fewer than 2 units. */
  imbalance: number;
  /** The unit holding the max (the first of them on ties); -1 when the row is all zero. */
  maxUnit: number;
  /** The context of `maxUnit` holding the most. */
  maxContext: number;
  /** The group the row was compared in (where most of its value is). */
  group: number;
}

/**
 * The spread of one row over comparable units: the group (CPU or GPU) holding most of the row's
 * value, and within it only the units where the row's parent ran — a frame can be imbalanced only
 * against units that could have run it. A frame on rank 0 alone, under a caller on rank 0 alone
 * (`_start`, `main` outside the rank bodies), is single-context, not 4× imbalanced. `parent` is the
 * parent's per-context values (for a root, the row itself: a root runs where it runs).
 */
export function spreadOverUnits(cc: ComparableContexts, row: ArrayLike<number>, parent: ArrayLike<number>): UnitSpread {
  const U = cc.units.length;
  const value = new Float64Array(U),
    ran = new Float64Array(U);
  const groupSum = new Float64Array(cc.groups.length);
  for (let c = 0; c < row.length; c++) {
    const u = cc.unitOf[c]!;
    if (u < 0) continue;
    value[u]! += row[c]!;
    ran[u]! += parent[c]!;
    groupSum[cc.units[u]!.group]! += row[c]!;
  }
  let group = 0;
  for (let g = 1; g < groupSum.length; g++) if (groupSum[g]! > groupSum[group]!) group = g;
  let compared = 0,
    sum = 0,
    min = Infinity,
    max = -Infinity,
    maxUnit = -1;
  for (const u of cc.groups[group]?.units ?? []) {
    if (!(ran[u]! > 0) && !(value[u]! > 0)) continue;
    compared++;
    const v = value[u]!;
    sum += v;
    if (v < min) min = v;
    if (v > max) {
      max = v;
      maxUnit = u;
    }
  }
  const mean = compared > 0 ? sum / compared : 0;
  let maxContext = -1;
  if (maxUnit >= 0)
    for (const c of cc.units[maxUnit]!.contexts) if (maxContext < 0 || row[c]! > row[maxContext]!) maxContext = c;
  return {
    compared,
    min: compared > 0 ? min : 0,
    mean,
    max: compared > 0 ? max : 0,
    imbalance: compared >= 2 && mean > 0 ? max / mean : 0,
    maxUnit: max > 0 ? maxUnit : -1,
    maxContext: max > 0 ? maxContext : -1,
    group,
  };
}
