import { CallTreeBuilder, type CallTree } from '../model/call-tree';
import type { ExecutionContext } from '../model/context';
import type { Profile } from '../model/profile';
import type { EnsembleRun, RunProfile } from './ensemble-runs';
import { FrameKeys } from '../model/frame-keys';

/** Which time of a node: with its callees (inclusive) or its own (exclusive). */
export type Side = 'inclusive' | 'exclusive';

/** Marker of a run in which a node does not exist. Never 0: distributions exclude it. */
export const MISSING = NaN;

export interface EnsembleMetric {
  name: string;
  label: string;
  unit: string;
}

/** A run left out of the ensemble and why (e.g. it lacks the chosen metric). */
export interface SkippedRun {
  name: string;
  path: string;
  reason: string;
}

/** A call site that two runs attribute to different modules (the union keeps the first run's). */
export interface ModuleConflict {
  /** Names from the root to the call site. */
  path: string[];
  /** The module the union keeps, then the one a later run gave, and that run. */
  kept: string;
  other: string;
  run: string;
}

/** At most this many module conflicts are listed (a renamed module would otherwise list every node). */
export const MAX_MODULE_CONFLICTS = 20;

export interface BuildEnsembleOptions {
  /** Metric by name (default: the first run's primary metric). Runs without it are skipped, with the reason. */
  metric?: string;
}

/**
 * (union parent, frame key) → union child, as open addressing over typed arrays: the lookup runs
 * once per node of every run (10⁷ times for 1,000 runs of 10⁴ nodes), where a Map with composite
 * keys would allocate and hash far more.
 */
class ChildTable {
  private slots = new Int32Array(1 << 12).fill(-1);
  private parents = new Int32Array(1 << 10);
  private keys = new Int32Array(1 << 10);
  private count = 0;

  private static hash(parent: number, key: number): number {
    return (Math.imul(parent + 1, 0x9e3779b1) ^ Math.imul(key, 0x85ebca77)) >>> 0;
  }

  find(parent: number, key: number): number {
    const mask = this.slots.length - 1;
    for (let h = ChildTable.hash(parent, key) & mask; ; h = (h + 1) & mask) {
      const u = this.slots[h]!;
      if (u < 0) return -1;
      if (this.parents[u] === parent && this.keys[u] === key) return u;
    }
  }

  /** Records node u (ids are dense, 0, 1, 2, … in insertion order) as the child of `parent` with `key`. */
  insert(parent: number, key: number, u: number): void {
    if (u !== this.count) throw new Error(`union node ${u} inserted out of order`);
    if (u >= this.parents.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.parents = grow(this.parents);
      this.keys = grow(this.keys);
    }
    this.parents[u] = parent;
    this.keys[u] = key;
    this.count++;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(u);
  }

  private place(u: number): void {
    const mask = this.slots.length - 1;
    let h = ChildTable.hash(this.parents[u]!, this.keys[u]!) & mask;
    while (this.slots[h]! >= 0) h = (h + 1) & mask;
    this.slots[h] = u;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(-1);
    for (let u = 0; u < this.count; u++) this.place(u);
  }
}

/**
 * Trees of the runs seen so far, by shape (parents and frame keys): the runs of one program mostly
 * share their tree, and a run whose tree equals an earlier run's needs none of the 10⁴ child
 * lookups of matching it into the union. Shapes are hashed, then compared in full.
 */
class RunShapes {
  private readonly byHash = new Map<number, { parent: Int32Array; keys: Int32Array; run: number }[]>();

  private static hash(parent: Int32Array, keys: Int32Array): number {
    let h = parent.length | 0;
    for (let i = 0; i < parent.length; i++) h = Math.imul(h ^ parent[i]!, 0x01000193) ^ Math.imul(keys[i]!, 0x9e3779b1);
    return h;
  }

  /** The earlier run with this shape, or -1 (and `run` is recorded as having it). */
  match(parent: Int32Array, keys: Int32Array, run: number): number {
    const same = (a: Int32Array, b: Int32Array) => {
      if (a === b) return true;
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    };
    const h = RunShapes.hash(parent, keys);
    const list = this.byHash.get(h);
    const earlier = list?.find(s => same(s.parent, parent) && same(s.keys, keys));
    if (earlier) return earlier.run;
    if (list) list.push({ parent, keys, run });
    else this.byHash.set(h, [{ parent, keys, run }]);
    return -1;
  }
}

/**
 * An ensemble of runs of one program (CallFlow §1.8–1.9): the union of the runs' calling-context
 * trees and, per union node, a vector over runs of the run's value — the mean over that run's
 * contexts (ranks, threads) of the chosen metric, so an 8-rank and a 512-rank run compare.
 *
 * Layout: `inclusive` and `exclusive` are node-major (`[node · runCount + run]`), so one node's
 * vector over runs — what every view reads — is a contiguous `subarray`. A node absent from a run
 * holds NaN ({@link MISSING}) there and its bit in `presence` is clear; a present node with no cost
 * holds 0. Per-rank values are not copied: {@link perRank} reads them from the run's profile.
 */
export class Ensemble {
  readonly runCount: number;
  /** Words of the presence bitset per node. */
  readonly presenceWords: number;

  constructor(
    readonly runs: readonly EnsembleRun[],
    /** The union calling-context tree (parents before children, like every CallTree). */
    readonly tree: CallTree,
    readonly metric: EnsembleMetric,
    readonly inclusive: Float64Array,
    readonly exclusive: Float64Array,
    /** Bit `run` of word `node · presenceWords + (run >> 5)` is set when the node exists in the run. */
    readonly presence: Uint32Array,
    /** Number of runs in which each node exists. */
    readonly presentCount: Int32Array,
    readonly skipped: readonly SkippedRun[],
    /** Call sites runs put in different modules (at most {@link MAX_MODULE_CONFLICTS}). */
    readonly moduleConflicts: readonly ModuleConflict[],
    private readonly profiles: readonly Profile[],
    private readonly metricOfRun: readonly number[],
    /** Per run: union node of each of the run's call-tree nodes. */
    private readonly unionOfRunNode: readonly Int32Array[],
  ) {
    this.runCount = runs.length;
    this.presenceWords = (this.runCount + 31) >>> 5;
  }

  get size(): number {
    return this.tree.size;
  }

  /** Index of the run with this name, or -1. */
  runIndex(name: string): number {
    return this.runs.findIndex(r => r.name === name);
  }

  isPresent(node: number, run: number): boolean {
    return (this.presence[node * this.presenceWords + (run >>> 5)]! & (1 << (run & 31))) !== 0;
  }

  /** Runs in which the node is missing. */
  missingCount(node: number): number {
    return this.runCount - this.presentCount[node]!;
  }

  /** The node's vector over runs (a view into the ensemble's matrix; NaN where missing). */
  values(node: number, side: Side): Float64Array {
    const m = side === 'inclusive' ? this.inclusive : this.exclusive;
    return m.subarray(node * this.runCount, (node + 1) * this.runCount);
  }

  value(node: number, run: number, side: Side): number {
    return (side === 'inclusive' ? this.inclusive : this.exclusive)[node * this.runCount + run]!;
  }

  /** Σ over union roots of a run's inclusive value: the run's runtime (mean over its contexts). */
  runTotal(run: number): number {
    let s = 0;
    for (const r of this.tree.roots()) {
      const v = this.value(r, run, 'inclusive');
      if (v === v) s += v;
    }
    return s;
  }

  /** The profile a run was read from (for per-rank detail and source locations). */
  profile(run: number): Profile {
    return this.profiles[run]!;
  }

  contexts(run: number): readonly ExecutionContext[] {
    return this.profiles[run]!.contexts;
  }

  /** Union node of each call-tree node of a run's profile. */
  unionNodes(run: number): Int32Array {
    return this.unionOfRunNode[run]!;
  }

  /**
   * Per-context values of a node in one run (the run's call-tree nodes folded into it added up), one
   * per context of that run, or null when the node is missing in the run. O(run size) on first call
   * per run (an index is built), then O(contexts).
   */
  perRank(node: number, run: number, side: Side): Float64Array | null {
    if (!this.isPresent(node, run)) return null;
    const p = this.profiles[run]!;
    const m = this.metricOfRun[run]!;
    const C = p.contextCount;
    const out = new Float64Array(C),
      row = new Float64Array(C);
    const members = this.runMembers(run);
    for (let k = members.start[node]!; k < members.start[node + 1]!; k++) {
      p.contextRow(side, m, members.list[k]!, row);
      for (let c = 0; c < C; c++) out[c]! += row[c]!;
    }
    return out;
  }

  /** By node map: runs with the same tree share one map, and so one index. */
  private readonly memberIndex = new Map<Int32Array, { start: Int32Array; list: Int32Array }>();

  /** CSR index union node → the run's call-tree nodes folded into it. */
  private runMembers(run: number): { start: Int32Array; list: Int32Array } {
    const map = this.unionOfRunNode[run]!;
    let idx = this.memberIndex.get(map);
    if (idx) return idx;
    const start = new Int32Array(this.size + 1);
    for (let i = 0; i < map.length; i++) start[map[i]! + 1]!++;
    for (let u = 0; u < this.size; u++) start[u + 1]! += start[u]!;
    const fill = start.slice(0, this.size);
    const list = new Int32Array(map.length);
    for (let i = 0; i < map.length; i++) list[fill[map[i]!]!++] = i;
    this.memberIndex.set(map, (idx = { start, list }));
    return idx;
  }
}

/**
 * Builds the ensemble from loaded runs: the union tree (see node-identity.ts for when two nodes are
 * the same) and the per-run vectors. O(Σ run sizes) hashing plus O(nodes × runs) to fill the
 * matrices. Throws when no run has the metric.
 */
export function buildEnsemble(loaded: readonly RunProfile[], options: BuildEnsembleOptions = {}): Ensemble {
  if (loaded.length === 0) throw new Error('an ensemble needs at least one run');
  const first = loaded[0]!.profile;
  const metricName = options.metric ?? first.metrics[first.primaryMetric]?.name;
  if (metricName === undefined) throw new Error(`run ${loaded[0]!.run.name} has no metrics`);
  const skipped: SkippedRun[] = [];
  const kept: { rp: RunProfile; m: number }[] = [];
  for (const rp of loaded) {
    const m = rp.profile.metricIndex(metricName);
    if (m < 0)
      skipped.push({
        name: rp.run.name,
        path: rp.run.path,
        reason: `has no metric "${metricName}" (it has ${rp.profile.metrics.map(d => d.name).join(', ') || 'none'})`,
      });
    else kept.push({ rp, m });
  }
  if (kept.length === 0) throw new Error(`no run has the metric "${metricName}"`);
  const desc = kept[0]!.rp.profile.metrics[kept[0]!.m]!;

  // Pass 1: the union tree and each run's node → union node map.
  const builder = new CallTreeBuilder();
  const frameKeys = new FrameKeys();
  const children = new ChildTable();
  const maps: Int32Array[] = [];
  const moduleConflicts: ModuleConflict[] = [];
  const shapes = new RunShapes();
  for (const { rp } of kept) {
    const tree = rp.profile.tree;
    const keys = frameKeys.idsOf(tree);
    const { parent, module } = tree.columns;
    // A run with the tree of an earlier run (same parents and frame keys) folds into the same union
    // nodes: its map is that run's, and only its modules are compared.
    const same = shapes.match(parent, keys, maps.length);
    const map = same >= 0 ? maps[same]! : new Int32Array(tree.size);
    // The run's module string id → the union's (interned on first use): conflicts compare ids, not strings, per node.
    const unionModule = new Int32Array(tree.strings.size).fill(-1);
    for (let i = 0; i < tree.size; i++) {
      let u: number;
      let added = false;
      if (same >= 0) u = map[i]!;
      else {
        const up = parent[i]! >= 0 ? map[parent[i]!]! : -1;
        u = children.find(up, keys[i]!);
        if (u < 0) {
          u = builder.add(up, tree.name(i), tree.kind(i), {
            file: tree.file(i),
            line: tree.line(i),
            module: tree.module(i),
            callLine: tree.callLine(i),
          });
          children.insert(up, keys[i]!, u);
          added = true;
        }
        map[i] = u;
      }
      if (!added && module[i] !== 0) {
        const had = builder.moduleId(u);
        let mine = unionModule[module[i]!]!;
        if (mine < 0) unionModule[module[i]!] = mine = builder.strings.intern(tree.module(i)!);
        if (had === 0) builder.setModule(u, tree.module(i)!);
        else if (moduleConflicts.length < MAX_MODULE_CONFLICTS && had !== mine) {
          const path: string[] = [];
          for (let k = i; k >= 0; k = parent[k]!) path.push(tree.name(k));
          moduleConflicts.push({
            path: path.reverse(),
            kept: builder.strings.get(had),
            other: tree.module(i)!,
            run: rp.run.name,
          });
        }
      }
    }
    maps.push(map);
  }
  const union = builder.finish();

  // Pass 2: per-run means over contexts into node-major matrices, NaN where missing.
  const N = union.size,
    R = kept.length;
  const inclusive = new Float64Array(N * R);
  const exclusive = new Float64Array(N * R);
  const words = (R + 31) >>> 5;
  const presence = new Uint32Array(N * words);
  const presentCount = new Int32Array(N);
  // Runs go in blocks: each run's values are summed run-major into a block buffer (sequential
  // writes), then the block is copied into the node-major matrices a few hundred bytes at a time.
  // Writing node-major directly would stride by 8·runCount bytes per value and miss the cache on
  // almost every one of the Σ run sizes writes.
  const BLOCK = 64;
  const blockInc = new Float64Array(Math.min(BLOCK, R) * N),
    blockExc = new Float64Array(Math.min(BLOCK, R) * N);
  for (let r0 = 0; r0 < R; r0 += BLOCK) {
    const width = Math.min(BLOCK, R - r0);
    blockInc.fill(MISSING);
    blockExc.fill(MISSING);
    for (let b = 0; b < width; b++) {
      const r = r0 + b;
      const { rp, m } = kept[r]!;
      const p = rp.profile;
      const scale = 1 / Math.max(1, p.contextCount);
      const inc = p.inclusiveTotals(m),
        exc = p.exclusiveTotals(m);
      const map = maps[r]!;
      const bit = 1 << (r & 31),
        word = r >>> 5;
      const base = b * N;
      for (let i = 0; i < map.length; i++) {
        const u = map[i]!,
          cell = base + u,
          pw = u * words + word;
        if ((presence[pw]! & bit) === 0) {
          presence[pw]! |= bit;
          presentCount[u]!++;
          blockInc[cell] = 0;
          blockExc[cell] = 0;
        }
        blockInc[cell]! += inc[i]! * scale;
        blockExc[cell]! += exc[i]! * scale;
      }
    }
    // Transposed in tiles of TILE nodes: both the block's rows and the matrices' rows a tile touches
    // stay in cache (node by node, each read strode N values through the block).
    const TILE = 64;
    for (let u0 = 0; u0 < N; u0 += TILE) {
      const u1 = Math.min(N, u0 + TILE);
      for (let b = 0; b < width; b++) {
        const from = b * N,
          to = r0 + b;
        for (let u = u0; u < u1; u++) {
          inclusive[u * R + to] = blockInc[from + u]!;
          exclusive[u * R + to] = blockExc[from + u]!;
        }
      }
    }
  }
  return new Ensemble(
    kept.map(k => k.rp.run),
    union,
    { name: desc.name, label: desc.label, unit: desc.unit },
    inclusive,
    exclusive,
    presence,
    presentCount,
    skipped,
    moduleConflicts,
    kept.map(k => k.rp.profile),
    kept.map(k => k.m),
    maps,
  );
}
