import type { ControlFlow } from './control-flow';
import { profileTime } from './profile-form';
import { duration, TctKind, type TctNode } from './tct';

/**
 * The global summary tree of one role (paper §4.3): the lanes' TCTs merged by the alignment of
 * Algorithm 2, with per node the statistics of its duration over the lanes — min, average and max,
 * a lane where the node is absent counting 0 — and which lane holds the min and the max.
 * Iterations stay separate (iteration k of every lane folds into one node), so a loss can be
 * reported per iteration; a loop's profile-form content (rejected iterations, or the whole loop on
 * lanes where it became a profile node) folds into its `profile` holder by construct.
 *
 * Folding is associative: lanes can be folded in separate summaries (one per worker) and the
 * summaries merged.
 */
export interface SummaryNode {
  kind: TctKind;
  construct: number;
  /** Iteration identifier, else -1. */
  id: number;
  children: SummaryNode[];
  /** Profile-form content of a loop, or null. Its children are Profile nodes sorted by construct. */
  profile: SummaryNode | null;
  /** Lanes (indices within the role) where the node occurs. */
  present: Uint32Array;
  count: number;
  sum: number;
  /** Min and max over the lanes where the node occurs (see finalStats for absent lanes). */
  min: number;
  max: number;
  minLane: number;
  maxLane: number;
  /** Earliest start and latest end over the instances (ns), NaN for profile entries. */
  first: number;
  last: number;
}

export interface NodeStats {
  min: number;
  avg: number;
  max: number;
  minLane: number;
  maxLane: number;
}

export class Summary {
  root: SummaryNode | null = null;

  /**
   * @param lanes the role's lane count (absent lanes count 0)
   * @param period sampling period (ns) for profile times
   */
  constructor(
    readonly lanes: number,
    readonly cf: ControlFlow,
    readonly period: number,
  ) {}

  /** Folds lane `lane`'s TCT (with its iteration instances) into the summary. */
  add(tree: TctNode, lane: number): void {
    if (!this.root) this.root = this.node(TctKind.Root, tree.construct, -1);
    this.foldNode(this.root, tree, lane);
  }

  /** Folds another summary of the same role (other lanes) into this one. */
  merge(other: Summary): void {
    if (!other.root) return;
    if (!this.root) this.root = this.node(TctKind.Root, other.root.construct, -1);
    this.mergeNode(this.root, other.root);
  }

  /** min / avg / max over all the role's lanes, absent = 0. */
  stats(n: SummaryNode): NodeStats {
    const N = this.lanes;
    const avg = n.sum / N;
    if (n.count < N) {
      let absent = 0;
      while (absent < N && hasBit(n.present, absent)) absent++;
      return { min: 0, avg, max: Math.max(0, n.max), minLane: absent, maxLane: n.count ? n.maxLane : absent };
    }
    return { min: n.min, avg, max: n.max, minLane: n.minLane, maxLane: n.maxLane };
  }

  private node(kind: TctKind, construct: number, id: number): SummaryNode {
    return {
      kind,
      construct,
      id,
      children: [],
      profile: null,
      present: new Uint32Array((this.lanes + 31) >>> 5),
      count: 0,
      sum: 0,
      min: Infinity,
      max: -Infinity,
      minLane: -1,
      maxLane: -1,
      first: Infinity,
      last: -Infinity,
    };
  }

  private record(t: SummaryNode, value: number, lane: number, start: number, end: number): void {
    if (hasBit(t.present, lane)) return;
    t.present[lane >>> 5]! |= 1 << (lane & 31);
    t.count++;
    t.sum += value;
    if (value < t.min) {
      t.min = value;
      t.minLane = lane;
    }
    if (value > t.max) {
      t.max = value;
      t.maxLane = lane;
    }
    if (start < t.first) t.first = start;
    if (end > t.last) t.last = end;
  }

  private holder(t: SummaryNode): SummaryNode {
    return (t.profile ??= this.node(TctKind.Profile, t.construct, -1));
  }

  private foldNode(t: SummaryNode, s: TctNode, lane: number): void {
    this.record(t, duration(s), lane, s.start, s.end);
    if (s.kind === TctKind.Profile) {
      const h = this.holder(t);
      this.record(h, profileTime(s, this.period), lane, NaN, NaN);
      this.foldEntries(h, s.children, lane);
      return;
    }
    const loop = s.loop;
    if (loop && s.children.length && s.children[0]!.kind === TctKind.Iteration) {
      t.children = this.joinSorted(t.children, s.children, lane, false);
      if (loop.rejectedProfile) {
        const h = this.holder(t);
        this.record(h, duration(loop.rejectedProfile), lane, NaN, NaN);
        this.foldEntries(h, loop.rejectedProfile.children, lane);
      }
      return;
    }
    t.children = this.align(t.children, s.children, s.construct, lane);
  }

  /**
   * Children kept in key order — iterations by identifier, profile entries by construct — joined
   * with the lane's; a child the summary lacks becomes a new node.
   */
  private joinSorted(ts: SummaryNode[], ss: TctNode[], lane: number, entries: boolean): SummaryNode[] {
    if (sameSequence(ts, ss)) {
      for (let k = 0; k < ss.length; k++) this.foldChild(ts[k]!, ss[k]!, lane, entries);
      return ts;
    }
    const key = (x: { construct: number; id: number }) => (entries ? x.construct : x.id);
    const out: SummaryNode[] = [];
    let i = 0,
      j = 0;
    while (i < ts.length || j < ss.length) {
      if (i < ts.length && j < ss.length && key(ts[i]!) === key(ss[j]!)) {
        this.foldChild(ts[i]!, ss[j++]!, lane, entries);
        out.push(ts[i++]!);
      } else if (j >= ss.length || (i < ts.length && key(ts[i]!) < key(ss[j]!))) out.push(ts[i++]!);
      else {
        const s = ss[j++]!;
        const n = this.node(entries ? TctKind.Profile : TctKind.Iteration, s.construct, s.id);
        this.foldChild(n, s, lane, entries);
        out.push(n);
      }
    }
    return out;
  }

  private foldChild(t: SummaryNode, s: TctNode, lane: number, entry: boolean): void {
    if (entry) this.foldEntry(t, s, lane);
    else this.foldNode(t, s, lane);
  }

  /** Children in time order, aligned as Algorithm 2 aligns them; unmatched lane children become new nodes. */
  private align(ts: SummaryNode[], ss: TctNode[], scope: number, lane: number): SummaryNode[] {
    if (sameSequence(ts, ss)) {
      // The common case (SPMD lanes, every iteration alike): fold in place.
      for (let k = 0; k < ss.length; k++) this.foldNode(ts[k]!, ss[k]!, lane);
      return ts;
    }
    const out: SummaryNode[] = [];
    let i = 0,
      j = 0;
    while (i < ts.length || j < ss.length) {
      const x = ts[i],
        y = ss[j];
      if (x && y && x.construct === y.construct) {
        this.foldNode(x, y, lane);
        out.push(x);
        i++;
        j++;
      } else if (y && (!x || this.cf.isSuccessor(scope, y.construct, x.construct))) {
        const n = this.node(y.kind === TctKind.Profile ? TctKind.Loop : y.kind, y.construct, y.id);
        this.foldNode(n, y, lane);
        out.push(n);
        j++;
      } else {
        out.push(x!);
        i++;
      }
    }
    return out;
  }

  private foldEntries(h: SummaryNode, entries: TctNode[], lane: number): void {
    h.children = this.joinSorted(h.children, entries, lane, true);
  }

  private foldEntry(t: SummaryNode, e: TctNode, lane: number): void {
    this.record(t, duration(e), lane, NaN, NaN);
    this.foldEntries(t, e.children, lane);
  }

  private mergeNode(t: SummaryNode, u: SummaryNode): void {
    for (let k = 0; k < t.present.length; k++) t.present[k]! |= u.present[k]!;
    t.count += u.count;
    t.sum += u.sum;
    if (u.min < t.min || (u.min === t.min && u.minLane < t.minLane)) {
      t.min = u.min;
      t.minLane = u.minLane;
    }
    if (u.max > t.max || (u.max === t.max && u.maxLane < t.maxLane)) {
      t.max = u.max;
      t.maxLane = u.maxLane;
    }
    t.first = Math.min(t.first, u.first);
    t.last = Math.max(t.last, u.last);
    if (u.profile) {
      const h = this.holder(t);
      this.mergeNodeList(h, u.profile);
    }
    const iterations = u.children.length
      ? u.children[0]!.kind === TctKind.Iteration
      : t.children[0]?.kind === TctKind.Iteration;
    if (t.kind === TctKind.Profile) return this.mergeNodeList(t, u, true);
    const out: SummaryNode[] = [];
    const ts = t.children,
      us = u.children;
    let i = 0,
      j = 0;
    while (i < ts.length || j < us.length) {
      const x = ts[i],
        y = us[j];
      const same = x && y && x.construct === y.construct && (!iterations || x.id === y.id);
      if (same) {
        this.mergeNode(x, y);
        out.push(x);
        i++;
        j++;
      } else if (y && (!x || (iterations ? y.id < x.id : this.cf.isSuccessor(u.construct, y.construct, x.construct)))) {
        out.push(y);
        j++;
      } else {
        out.push(x!);
        i++;
      }
    }
    t.children = out;
  }

  /** Profile holders and entries: children keyed by construct. */
  private mergeNodeList(t: SummaryNode, u: SummaryNode, childrenOnly = false): void {
    if (!childrenOnly && t !== u) {
      for (let k = 0; k < t.present.length; k++) t.present[k]! |= u.present[k]!;
      t.count += u.count;
      t.sum += u.sum;
      if (u.min < t.min) {
        t.min = u.min;
        t.minLane = u.minLane;
      }
      if (u.max > t.max) {
        t.max = u.max;
        t.maxLane = u.maxLane;
      }
    }
    const ts = t.children,
      us = u.children;
    const out: SummaryNode[] = [];
    let i = 0,
      j = 0;
    while (i < ts.length || j < us.length) {
      if (i < ts.length && j < us.length && ts[i]!.construct === us[j]!.construct) {
        this.mergeNodeList(ts[i]!, us[j++]!);
        out.push(ts[i++]!);
      } else if (j >= us.length || (i < ts.length && ts[i]!.construct < us[j]!.construct)) out.push(ts[i++]!);
      else out.push(us[j++]!);
    }
    t.children = out;
  }
}

/** The lane's children are the summary's, one for one (same constructs and identifiers, in order). */
function sameSequence(ts: readonly SummaryNode[], ss: readonly TctNode[]): boolean {
  if (ts.length !== ss.length) return false;
  for (let k = 0; k < ts.length; k++)
    if (ts[k]!.construct !== ss[k]!.construct || ts[k]!.id !== ss[k]!.id) return false;
  return true;
}

function hasBit(bits: Uint32Array, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}
