import type { ControlFlow } from './control-flow';
import { asProfile, exclusiveTime, profileTime } from './profile-form';
import { duration, isClusteredLoop, TctKind, type TctNode } from './tct';

/**
 * The difference between two temporal context subtrees (paper §4.1, Algorithm 2): the least time
 * to add or remove to make them equivalent. Children are aligned in time order; a matched pair
 * (same construct) is compared recursively, an unmatched child against an absent twin, and the
 * exclusive time between children ("gaps", the grey bars of Fig. 7) gap by gap. Each compared gap
 * forgives `tolerance` (2V in the paper): a node's true start and end are each uncertain by one
 * sampling period (Fig. 8).
 *
 * When children differ, the one that comes earlier in program order is the unmatched one (a later
 * child of the other side may still match); when neither can be shown earlier (if/else
 * siblings), the first tree's child is.
 *
 * Loops whose iterations were clustered compare as cluster sets (§4.2.1, diffLoop below), loops
 * folded into profile nodes by construct (§4.1 "computed in a similar way", diffProfile below).
 */
export class Distance {
  private readonly dummyCost = new WeakMap<TctNode, number>();

  /**
   * @param period the sampling period V in ns (0 for instrumented lanes)
   * @param tolerance forgiven difference per compared gap, ns (gapTolerance × V)
   */
  constructor(
    readonly cf: ControlFlow,
    readonly period: number,
    readonly tolerance: number,
    readonly dummyMode: 'recursive' | 'flat' = 'recursive',
  ) {}

  /** diffGap: a gap difference beyond the tolerance. */
  gap(g0: number, g1: number, tolerance = this.tolerance): number {
    const d = Math.abs(g0 - g1);
    return d > tolerance ? d - tolerance : 0;
  }

  /** diff(N0, N1) for two instances of one construct (or two roots). */
  diff(n0: TctNode, n1: TctNode): number {
    const l0 = isClusteredLoop(n0),
      l1 = isClusteredLoop(n1);
    if (l0 && l1) return this.diffLoop(n0, n1);
    if (l0 !== l1 || n0.kind === TctKind.Profile || n1.kind === TctKind.Profile)
      return this.diffProfile(asProfile(n0, this.period), asProfile(n1, this.period));
    const a = n0.children,
      b = n1.children;
    const scope = n0.construct;
    let sum = 0,
      i = 0,
      j = 0;
    let g0 = (a.length ? a[0]!.start : n0.end) - n0.start;
    let g1 = (b.length ? b[0]!.start : n1.end) - n1.start;
    while (i < a.length && j < b.length) {
      const x = a[i]!,
        y = b[j]!;
      if (x.construct === y.construct) {
        sum += this.gap(g0, g1) + this.diff(x, y);
        g0 = startAfter(a, i, n0.end) - x.end;
        g1 = startAfter(b, j, n1.end) - y.end;
        i++;
        j++;
      } else if (this.cf.isSuccessor(scope, y.construct, x.construct)) {
        sum += this.dummy(y);
        g1 += startAfter(b, j, n1.end) - y.end;
        j++;
      } else {
        sum += this.dummy(x);
        g0 += startAfter(a, i, n0.end) - x.end;
        i++;
      }
    }
    for (; i < a.length; i++) {
      sum += this.dummy(a[i]!);
      g0 += startAfter(a, i, n0.end) - a[i]!.end;
    }
    for (; j < b.length; j++) {
      sum += this.dummy(b[j]!);
      g1 += startAfter(b, j, n1.end) - b[j]!.end;
    }
    return sum + this.gap(g0, g1);
  }

  /** diffRatio = diff / (duration(N0) + duration(N1)); 0 for two empty nodes. */
  ratio(n0: TctNode, n1: TctNode): number {
    const d = duration(n0) + duration(n1);
    return d > 0 ? this.diff(n0, n1) / d : 0;
  }

  /**
   * diff(N, dummy(N)): against a copy with no children and no time. Recursively (the paper) the
   * tolerance is forgiven once per gap of every level; 'flat' forgives it once for the whole node.
   */
  dummy(n: TctNode): number {
    const known = this.dummyCost.get(n);
    if (known !== undefined) return known;
    let cost: number;
    if (this.dummyMode === 'flat') cost = this.gap(duration(n), 0);
    else if (isClusteredLoop(n)) {
      const loop = n.loop!;
      cost = this.gap(loopExclusive(n, this.period), 0, this.tolerance * (loop.iterationIds.length + 1));
      for (let k = 0; k < loop.clusters.length; k++) cost += loop.clusterSize[k]! * this.dummy(loop.clusters[k]!);
      if (loop.rejectedProfile) cost += this.dummy(loop.rejectedProfile);
    } else if (n.kind === TctKind.Profile) {
      cost = this.gap(exclusiveTime(n), 0);
      for (const c of n.children) cost += this.dummy(c);
    } else {
      let covered = 0;
      cost = 0;
      for (const c of n.children) {
        covered += duration(c);
        cost += this.dummy(c);
      }
      cost += this.gap(duration(n) - covered, 0);
    }
    this.dummyCost.set(n, cost);
    return cost;
  }

  /**
   * Two loops as cluster sets (§4.2.1): iterations pair by identifier; each group of pairs with the
   * same (cluster in L0, cluster in L1) costs its size × the difference of the two representatives
   * (O(K0·K1·G) instead of O(iterations·G)). Iterations on one side only are compared against
   * absent ones; the loop-level exclusive time (between iterations) forgives the tolerance once
   * per gap; rejected iterations compare as profiles.
   */
  diffLoop(n0: TctNode, n1: TctNode): number {
    const a = n0.loop!,
      b = n1.loop!;
    const k0 = a.clusters.length,
      k1 = b.clusters.length;
    const pairs = new Float64Array(k0 * k1);
    const only0 = new Float64Array(k0),
      only1 = new Float64Array(k1);
    const ia = a.iterationIds,
      ib = b.iterationIds;
    let i = 0,
      j = 0;
    while (i < ia.length && j < ib.length) {
      if (ia[i] === ib[j]) pairs[a.iterationCluster[i++]! * k1 + b.iterationCluster[j++]!]!++;
      else if (ia[i]! < ib[j]!) only0[a.iterationCluster[i++]!]!++;
      else only1[b.iterationCluster[j++]!]!++;
    }
    for (; i < ia.length; i++) only0[a.iterationCluster[i]!]!++;
    for (; j < ib.length; j++) only1[b.iterationCluster[j]!]!++;
    let sum = 0;
    for (let x = 0; x < k0; x++) {
      if (only0[x]) sum += only0[x]! * this.dummy(a.clusters[x]!);
      for (let y = 0; y < k1; y++) {
        const w = pairs[x * k1 + y]!;
        if (w) sum += w * this.diff(a.clusters[x]!, b.clusters[y]!);
      }
    }
    for (let y = 0; y < k1; y++) if (only1[y]) sum += only1[y]! * this.dummy(b.clusters[y]!);
    const gaps = Math.min(ia.length, ib.length) + 1;
    sum += this.gap(loopExclusive(n0, this.period), loopExclusive(n1, this.period), this.tolerance * gaps);
    if (a.rejectedProfile || b.rejectedProfile) {
      if (!a.rejectedProfile) sum += this.dummy(b.rejectedProfile!);
      else if (!b.rejectedProfile) sum += this.dummy(a.rejectedProfile);
      else sum += this.diffProfile(a.rejectedProfile, b.rejectedProfile);
    }
    return sum;
  }

  /** Profile nodes: children match by construct, not by time; exclusive times compare as one gap. */
  diffProfile(p0: TctNode, p1: TctNode): number {
    let sum = this.gap(exclusiveTime(p0), exclusiveTime(p1));
    const a = p0.children,
      b = p1.children;
    let i = 0,
      j = 0;
    while (i < a.length && j < b.length) {
      if (a[i]!.construct === b[j]!.construct) sum += this.diffProfile(a[i++]!, b[j++]!);
      else if (a[i]!.construct < b[j]!.construct) sum += this.dummy(a[i++]!);
      else sum += this.dummy(b[j++]!);
    }
    for (; i < a.length; i++) sum += this.dummy(a[i]!);
    for (; j < b.length; j++) sum += this.dummy(b[j]!);
    return sum;
  }
}

/** Where the gap after child k ends: the next child's start, or the parent's end after the last child. */
export function startAfter(children: readonly TctNode[], k: number, end: number): number {
  return k + 1 < children.length ? children[k + 1]!.start : end;
}

/** A clustered loop's time outside its accepted iterations and rejected children. */
export function loopExclusive(n: TctNode, period: number): number {
  const loop = n.loop!;
  const rejected = loop.rejectedProfile ? profileTime(loop.rejectedProfile, period) : 0;
  return Math.max(0, duration(n) - loop.iterationTime - rejected);
}
