import { startAfter, type Distance } from './distance';
import type { ClusterMerge } from './model/trace-analysis-view';
import { clusterLimit } from './model/options';
import { asProfile } from './profile-form';
import { duration, isClusteredLoop, newLoopData, newNode, TctKind, type LoopData, type TctNode } from './tct';

/**
 * K-farthest divide-and-conquer clustering (paper §4.2, Algorithm 3, after Bahmani & Mueller) of
 * the iterations of a loop or the threads of a run, with weighted-average representatives.
 *
 * getClusterSet splits the instance range in halves down to ranges of ≤ K instances (singletons),
 * and mergeClusterSet joins two sets: it keeps merging the closest pair while that pair is closer
 * than Ratio_min, or closer than Ratio_rel × the farthest pair, or while there are more than K
 * clusters. The two halves are independent: this is where the work splits across threads (the
 * caller may compute them anywhere and join them with mergeClusterSet).
 *
 * Representatives (merge): the walk of Algorithm 2 that averages instead of comparing. Matched
 * children average recursively, weighted by cluster sizes; a child present on one side only stays
 * with its durations scaled by its side's share of the weight; gaps average, the side lacking a
 * child putting all of its pending gap before it. A representative's duration is therefore the
 * weighted mean of the instances' durations. Loops average as cluster sets: their iterations pair
 * by identifier and each (cluster, cluster) group gets its own representative, reduced to at most
 * K by mergeClusterSet.
 */
export interface ClusteringParams {
  ratioMin: number;
  ratioRel: number;
  finalMergePass: boolean;
  maxClusters: number;
}

export interface Cluster {
  rep: TctNode;
  /** Instances the cluster stands for. */
  weight: number;
  /** Instance indices, ascending. */
  members: number[];
  /** For threads: the member closest to the representative seen so far, with its tree and diffRatio. */
  candidate: { member: number; tree: TctNode; ratio: number } | null;
  /** The merge with the largest diffRatio that formed this cluster (null for a single instance): why its members are one. */
  widestMerge?: ClusterMerge | null;
}

export interface ClusterSet {
  clusters: Cluster[];
  /** diffRatio between clusters i and j at i·n + j (n = clusters.length), or null before it is needed. */
  ratios: Float64Array | null;
}

export const EMPTY_SET: ClusterSet = { clusters: [], ratios: null };

export class Clusterer {
  constructor(
    readonly distance: Distance,
    readonly params: ClusteringParams,
  ) {}

  /** K of Algorithm 3 for M instances. */
  limit(instances: number): number {
    return clusterLimit(this.params, instances);
  }

  singleton(index: number, tree: TctNode, withCandidate: boolean): Cluster {
    return {
      rep: tree,
      weight: 1,
      members: [index],
      candidate: withCandidate ? { member: index, tree, ratio: 0 } : null,
    };
  }

  /** getClusterSet(N, h, e, K); `instance(i)` is called once per instance, in index order. */
  getClusterSet(h: number, e: number, K: number, instance: (i: number) => TctNode, withCandidates = false): ClusterSet {
    if (e - h <= K) {
      const clusters: Cluster[] = [];
      for (let i = h; i < e; i++) clusters.push(this.singleton(i, instance(i), withCandidates));
      return { clusters, ratios: null };
    }
    const mid = Math.floor((h + e) / 2);
    const s0 = this.getClusterSet(h, mid, K, instance, withCandidates);
    const s1 = this.getClusterSet(mid, e, K, instance, withCandidates);
    return this.mergeClusterSet(s0, s1, K);
  }

  /** The whole clustering of M instances: getClusterSet over [0, M), then the final merge pass when enabled. */
  cluster(M: number, instance: (i: number) => TctNode, withCandidates = false): ClusterSet {
    const K = this.limit(M);
    return this.finish(this.getClusterSet(0, M, K, instance, withCandidates), K);
  }

  /** The final merge pass (our choice, on by default): Ratio_min and Ratio_rel also apply when M ≤ K. */
  finish(set: ClusterSet, K: number): ClusterSet {
    return this.params.finalMergePass ? this.mergeClusterSet(set, EMPTY_SET, K) : set;
  }

  mergeClusterSet(s0: ClusterSet, s1: ClusterSet, K: number): ClusterSet {
    const cl = [...s0.clusters, ...s1.clusters];
    let m = cl.length;
    const n0 = s0.clusters.length;
    const R = new Float64Array(m * m);
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        let r: number;
        if (j < n0 && s0.ratios) r = s0.ratios[i * n0 + j]!;
        else if (i >= n0 && s1.ratios) r = s1.ratios[(i - n0) * (m - n0) + (j - n0)]!;
        else r = this.distance.ratio(cl[i]!.rep, cl[j]!.rep);
        R[i * m + j] = R[j * m + i] = r;
      }
    }
    const stride = m;
    const { ratioMin, ratioRel } = this.params;
    while (m > 1) {
      let bi = 0,
        bj = 1,
        min = Infinity,
        max = -Infinity;
      for (let i = 0; i < m; i++) {
        for (let j = i + 1; j < m; j++) {
          const r = R[i * stride + j]!;
          if (r < min) {
            min = r;
            bi = i;
            bj = j;
          }
          if (r > max) max = r;
        }
      }
      const rel = max > 0 ? min / max : 0;
      if (!(min < ratioMin || rel < ratioRel || m > K)) break;
      const merge: ClusterMerge = {
        ratio: min,
        rule: min < ratioMin ? 'ratioMin' : rel < ratioRel ? 'ratioRel' : 'maxClusters',
        farthest: max,
      };
      const widest = [cl[bi]!.widestMerge, cl[bj]!.widestMerge].reduce<ClusterMerge>(
        (a, b) => (b && b.ratio > a.ratio ? b : a),
        merge,
      );
      cl[bi] = { ...this.mergeClusters(cl[bi]!, cl[bj]!), widestMerge: widest };
      // Drop slot bj: the last cluster moves into it.
      const last = m - 1;
      if (bj !== last) {
        cl[bj] = cl[last]!;
        for (let k = 0; k < m; k++) {
          R[bj * stride + k] = R[last * stride + k]!;
          R[k * stride + bj] = R[k * stride + last]!;
        }
      }
      cl.length = --m;
      for (let k = 0; k < m; k++) {
        if (k === bi) continue;
        R[bi * stride + k] = R[k * stride + bi] = this.distance.ratio(cl[bi]!.rep, cl[k]!.rep);
      }
    }
    // Deterministic order: by smallest member.
    const order = cl
      .slice(0, m)
      .map((c, i) => ({ c, i }))
      .sort((x, y) => x.c.members[0]! - y.c.members[0]!);
    const ratios = new Float64Array(m * m);
    order.forEach((x, a) => order.forEach((y, b) => (ratios[a * m + b] = a === b ? 0 : R[x.i * stride + y.i]!)));
    return { clusters: order.map(x => x.c), ratios };
  }

  /** One cluster from two: weighted-average representative, members joined, the closer candidate kept. */
  mergeClusters(c0: Cluster, c1: Cluster): Cluster {
    const rep = this.merge(c0.rep, c0.weight, c1.rep, c1.weight, 0);
    const members = mergeSorted(c0.members, c1.members);
    let candidate: Cluster['candidate'] = null;
    if (c0.candidate && c1.candidate) {
      const r0 = this.distance.ratio(c0.candidate.tree, rep);
      const r1 = this.distance.ratio(c1.candidate.tree, rep);
      candidate =
        r1 < r0 || (r1 === r0 && c1.candidate.member < c0.candidate.member)
          ? { ...c1.candidate, ratio: r1 }
          : { ...c0.candidate, ratio: r0 };
    }
    return { rep, weight: c0.weight + c1.weight, members, candidate };
  }

  /**
   * Clusters the iterations of a loop instance (its Iteration children) and records the clusters in
   * its loop data. The instances stay the children (for per-iteration statistics) until the caller drops them.
   */
  clusterIterations(loop: TctNode): void {
    const its = loop.children;
    const set = this.cluster(its.length, i => its[i]!);
    const data = loop.loop!;
    data.iterationIds = Int32Array.from(its, it => it.id);
    data.iterationCluster = new Int32Array(its.length);
    set.clusters.forEach((c, k) => {
      for (const m of c.members) data.iterationCluster[m] = k;
    });
    data.clusters = set.clusters.map(c => c.rep);
    data.clusterSize = set.clusters.map(c => c.weight);
  }

  /** The weighted average of two instances of one construct, laid out from `origin`. */
  merge(n0: TctNode, w0: number, n1: TctNode, w1: number, origin: number): TctNode {
    const W = w0 + w1;
    const l0 = isClusteredLoop(n0),
      l1 = isClusteredLoop(n1);
    if (l0 && l1) return this.mergeLoop(n0, w0, n1, w1, origin);
    if (l0 !== l1 || n0.kind === TctKind.Profile || n1.kind === TctKind.Profile) {
      const p = this.distance.period;
      return this.mergeProfile(asProfile(n0, p), w0, asProfile(n1, p), w1, origin);
    }
    const out = newNode(n0.kind, n0.construct, origin);
    out.id = n0.id;
    out.samples = (w0 * n0.samples + w1 * n1.samples) / W;
    const a = n0.children,
      b = n1.children;
    let g0 = (a.length ? a[0]!.start : n0.end) - n0.start;
    let g1 = (b.length ? b[0]!.start : n1.end) - n1.start;
    let cursor = origin,
      i = 0,
      j = 0;
    const scope = n0.construct;
    while (i < a.length || j < b.length) {
      const x = a[i],
        y = b[j];
      cursor += (w0 * g0 + w1 * g1) / W;
      let child: TctNode;
      if (x && y && x.construct === y.construct) {
        child = this.merge(x, w0, y, w1, cursor);
        g0 = startAfter(a, i++, n0.end) - x.end;
        g1 = startAfter(b, j++, n1.end) - y.end;
      } else if (y && (!x || this.distance.cf.isSuccessor(scope, y.construct, x.construct))) {
        child = scale(y, w1 / W, cursor);
        g0 = 0;
        g1 = startAfter(b, j++, n1.end) - y.end;
      } else {
        child = scale(x!, w0 / W, cursor);
        g1 = 0;
        g0 = startAfter(a, i++, n0.end) - x!.end;
      }
      out.children.push(child);
      cursor = child.end;
    }
    out.end = cursor + (w0 * g0 + w1 * g1) / W;
    return out;
  }

  /** Two clustered loops: iterations paired by identifier, one representative per (cluster, cluster) group, ≤ K kept. */
  private mergeLoop(n0: TctNode, w0: number, n1: TctNode, w1: number, origin: number): TctNode {
    const W = w0 + w1;
    const a = n0.loop!,
      b = n1.loop!;
    const ids: number[] = [];
    const groupOf: number[] = [];
    const groups = new Map<number, { c0: number; c1: number; members: number[] }>();
    const add = (id: number, c0: number, c1: number) => {
      const key = (c0 + 1) * (b.clusters.length + 1) + (c1 + 1);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { c0, c1, members: [] }));
      g.members.push(ids.length);
      groupOf.push(key);
      ids.push(id);
    };
    const ia = a.iterationIds,
      ib = b.iterationIds;
    let i = 0,
      j = 0;
    while (i < ia.length || j < ib.length) {
      if (i < ia.length && j < ib.length && ia[i] === ib[j])
        add(ia[i]!, a.iterationCluster[i++]!, b.iterationCluster[j++]!);
      else if (j >= ib.length || (i < ia.length && ia[i]! < ib[j]!)) add(ia[i]!, a.iterationCluster[i++]!, -1);
      else add(ib[j]!, -1, b.iterationCluster[j++]!);
    }
    const clusters: Cluster[] = [...groups.values()].map(g => ({
      rep:
        g.c0 >= 0 && g.c1 >= 0
          ? this.merge(a.clusters[g.c0]!, w0, b.clusters[g.c1]!, w1, 0)
          : g.c0 >= 0
            ? scale(a.clusters[g.c0]!, w0 / W, 0)
            : scale(b.clusters[g.c1]!, w1 / W, 0),
      weight: g.members.length,
      members: g.members,
      candidate: null,
    }));
    clusters.sort((x, y) => x.members[0]! - y.members[0]!);
    const K = this.limit(ids.length);
    const set = this.finish({ clusters, ratios: null }, K);
    const data: LoopData = newLoopData(a.implicit);
    data.ids = Math.max(a.ids, b.ids);
    data.accepted = ids.length;
    data.rejected = Math.max(a.rejected, b.rejected);
    data.iterationTime = (w0 * a.iterationTime + w1 * b.iterationTime) / W;
    data.iterationIds = Int32Array.from(ids);
    data.iterationCluster = new Int32Array(ids.length);
    set.clusters.forEach((c, k) => {
      for (const m of c.members) data.iterationCluster[m] = k;
    });
    data.clusters = set.clusters.map(c => c.rep);
    data.clusterSize = set.clusters.map(c => c.weight);
    const r0 = a.rejectedProfile,
      r1 = b.rejectedProfile;
    data.rejectedProfile =
      r0 && r1 ? this.mergeProfile(r0, w0, r1, w1, 0) : r0 ? scale(r0, w0 / W, 0) : r1 ? scale(r1, w1 / W, 0) : null;
    const out = newNode(TctKind.Loop, n0.construct, origin, origin + (w0 * duration(n0) + w1 * duration(n1)) / W);
    out.samples = (w0 * n0.samples + w1 * n1.samples) / W;
    out.loop = data;
    return out;
  }

  /** Two profile nodes: entries matched by construct. */
  private mergeProfile(p0: TctNode, w0: number, p1: TctNode, w1: number, origin: number): TctNode {
    const W = w0 + w1;
    const out = newNode(TctKind.Profile, p0.construct, origin, origin + (w0 * duration(p0) + w1 * duration(p1)) / W);
    out.samples = (w0 * p0.samples + w1 * p1.samples) / W;
    const a = p0.children,
      b = p1.children;
    let i = 0,
      j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i]!.construct === b[j]!.construct)
        out.children.push(this.mergeProfile(a[i++]!, w0, b[j++]!, w1, 0));
      else if (j >= b.length || (i < a.length && a[i]!.construct < b[j]!.construct))
        out.children.push(scale(a[i++]!, w0 / W, 0));
      else out.children.push(scale(b[j++]!, w1 / W, 0));
    }
    return out;
  }
}

/**
 * A copy of n with every duration and gap multiplied by f, laid out from `origin` (a child present
 * in only part of a cluster). A clustered loop keeps its clusters, scaled, and drops its instances.
 */
export function scale(n: TctNode, f: number, origin: number): TctNode {
  return scaleFrom(n, f, origin - n.start * f);
}

/** The copy of x with every time t mapped to shift + t·f. */
function scaleFrom(x: TctNode, f: number, shift: number): TctNode {
  const out = newNode(x.kind, x.construct, shift + x.start * f, shift + x.end * f);
  out.id = x.id;
  out.samples = x.samples * f;
  const loop = x.loop;
  if (loop && loop.clusters.length) {
    const clusters: TctNode[] = [];
    for (const r of loop.clusters) clusters.push(scale(r, f, 0));
    out.loop = {
      ...loop,
      iterationTime: loop.iterationTime * f,
      clusters,
      rejectedProfile: loop.rejectedProfile ? scale(loop.rejectedProfile, f, 0) : null,
    };
    return out;
  }
  if (loop)
    out.loop = {
      ...loop,
      iterationTime: loop.iterationTime * f,
      rejectedProfile: loop.rejectedProfile ? scale(loop.rejectedProfile, f, 0) : null,
    };
  for (const c of x.children) out.children.push(scaleFrom(c, f, shift));
  return out;
}

function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
