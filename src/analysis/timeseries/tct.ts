import { ROOT_CONSTRUCT, type ConstructTable } from './constructs';
import type { ControlFlow } from './control-flow';
import type { LaneEvents } from './trace-source';

/**
 * The temporal context tree (TCT, paper §3.1): a calling-context tree whose nodes are instances in
 * time. Children are ordered by time; two consecutive samples share a node only down to the
 * frames that stayed on the stack between them (their LCA), so two calls of one call site are two
 * siblings. A node covers [start, end] = the times of its first and last sample (sampled lanes;
 * the true extent is up to one period V longer at each end, paper Fig. 8) or its enter and exit
 * (instrumented lanes). Times are ns from the trace origin.
 *
 * After iteration identification (iterations.ts) a loop's children are Iteration nodes (one per
 * accepted identifier), and loops whose iterations could not be told apart become Profile nodes,
 * whose children are per-construct accumulations without time order. Representatives of clusters
 * (clustering.ts) are TCTs too, laid out on their own time axis from 0.
 */
export const TctKind = { Root: 0, Frame: 1, Loop: 2, Iteration: 3, Profile: 4 } as const;
export type TctKind = (typeof TctKind)[keyof typeof TctKind];

export interface TctNode {
  kind: TctKind;
  /** The construct (constructs.ts) the node is an instance of; an iteration's is its loop's; ROOT_CONSTRUCT for the root. */
  construct: number;
  /** An iteration's identifier (Algorithm 1's tag), else -1. Iteration k of one lane pairs with iteration k of another. */
  id: number;
  start: number;
  end: number;
  /** Samples inside the node (sampled lanes; averaged in representatives), 0 for instrumented lanes. */
  samples: number;
  children: TctNode[];
  /** Iteration data of a loop whose iterations were identified. */
  loop: LoopData | null;
  /** Cached profile form for one sampling period (profile-form.ts). */
  profileForm?: { period: number; node: TctNode };
}

export interface LoopData {
  /** Identifiers Algorithm 1 found, accepted and rejected. */
  ids: number;
  accepted: number;
  rejected: number;
  /** Made from repeated calls under one parent of an instrumented trace (no loop construct). */
  implicit: boolean;
  /** Σ durations of the accepted iterations. */
  iterationTime: number;
  /** The rejected identifiers' children, as a profile (paper §3.3), or null. */
  rejectedProfile: TctNode | null;
  /** After clustering (Algorithm 3): per accepted iteration in time order, its identifier and its cluster. */
  iterationIds: Int32Array;
  iterationCluster: Int32Array;
  /** Cluster representatives (Iteration nodes) and how many iterations each stands for. */
  clusters: TctNode[];
  clusterSize: number[];
}

export function newNode(kind: TctKind, construct: number, start: number, end = start): TctNode {
  return { kind, construct, id: -1, start, end, samples: 0, children: [], loop: null };
}

export function duration(n: TctNode): number {
  return n.end - n.start;
}

/** Loop data with no clusters yet. */
export function newLoopData(implicit: boolean): LoopData {
  return {
    ids: 0,
    accepted: 0,
    rejected: 0,
    implicit,
    iterationTime: 0,
    rejectedProfile: null,
    iterationIds: new Int32Array(0),
    iterationCluster: new Int32Array(0),
    clusters: [],
    clusterSize: [],
  };
}

/** Whether a loop's iterations have been clustered (it then compares as a cluster set, paper §4.2.1). */
export function isClusteredLoop(n: TctNode): boolean {
  return n.loop !== null && n.loop.clusters.length > 0;
}

/** What the TCT builders need from the analysis context. */
export interface TctContext {
  constructs: ConstructTable;
  cf: ControlFlow;
  /** Depth of each construct (1 = top level), for the frame constructs. */
  depth: Int32Array;
}

export function constructDepths(t: ConstructTable): Int32Array {
  const d = new Int32Array(t.size);
  for (let c = 0; c < t.size; c++) {
    const p = t.parent[c]!;
    d[c] = p >= 0 ? d[p]! + 1 : 1;
  }
  return d;
}

/**
 * How the frames that persisted between two samples are found:
 * - 'slices': the lane's slices are its frame instances (a frame persisted iff one slice covers both
 *   samples); loop frames without a slice of their own persist with their enclosing frame (the
 *   loop refinement of an LCA recorded at procedure granularity);
 * - 'prefix': no LCA was recorded (HPCToolkit trace.db): the longest common prefix of the two call
 *   paths, split further where source order proves a routine was left and entered again. Slices,
 *   when present, only mark idle gaps (a thread not running).
 */
export type LcaMode = 'slices' | 'prefix';

/**
 * The TCT of a sampled lane (construction with LCAs, and the no-LCA fallback, paper §3.1 and our
 * §2.1.3 rule). Node ends are set when a later sample leaves them: O(changed depth) per sample.
 */
export function buildSampledTct(ev: LaneEvents, ctx: TctContext, mode: LcaMode): TctNode {
  const { constructs: t, depth } = ctx;
  const time = ev.sampleTime,
    leaf = ev.sampleNode;
  const n = time.length;
  const root = newNode(TctKind.Root, ROOT_CONSTRUCT, time[0]!, time[n - 1]!);
  root.samples = n;
  let maxDepth = 1;
  for (let c = 0; c < t.size; c++) if (depth[c]! > maxDepth) maxDepth = depth[c]!;
  const openC = new Int32Array(maxDepth + 2).fill(-9);
  const openN: TctNode[] = new Array(maxDepth + 2);
  const openFirst = new Int32Array(maxDepth + 2);
  openN[0] = root;
  let len = 0;
  const path = new Int32Array(maxDepth + 2);
  const evidence = ev.sliceStart.length ? sliceEvidence(ev, ctx, mode) : null;

  for (let i = 0; i < n; i++) {
    const c = t.frameOf[leaf[i]!]!;
    const d = c >= 0 ? depth[c]! : 0;
    let keep: number;
    if (evidence && evidence.keep) keep = Math.min(evidence.keep[i]!, d);
    else {
      let x = c;
      while (x >= 0 && depth[x]! > len) x = t.parent[x]!;
      while (x >= 0 && openC[depth[x]!] !== x) x = t.parent[x]!;
      keep = x >= 0 ? depth[x]! : 0;
      if (keep < len && keep < d) {
        // Source order proves the scope was left and entered again: cut up to the nearest loop (§2.1.3).
        const scope = keep > 0 ? openC[keep]! : ROOT_CONSTRUCT;
        if (scope !== ROOT_CONSTRUCT && !t.isLoop(scope)) {
          let b = c;
          while (depth[b]! > keep + 1) b = t.parent[b]!;
          if (!ctx.cf.isSuccessor(scope, openC[keep + 1]!, b)) {
            keep--;
            while (keep > 0 && !t.isLoop(openC[keep]!)) keep--;
          }
        }
      }
      if (evidence && evidence.gap[i]) keep = 0;
    }
    for (let k = len; k > keep; k--) {
      const node = openN[k]!;
      node.end = time[i - 1]!;
      node.samples = i - openFirst[k]!;
    }
    if (d > keep) {
      for (let x = c, k = d; k > keep; k--, x = t.parent[x]!) path[k] = x;
      for (let k = keep + 1; k <= d; k++) {
        const x = path[k]!;
        const node = newNode(t.isLoop(x) ? TctKind.Loop : TctKind.Frame, x, time[i]!);
        openN[k - 1]!.children.push(node);
        openN[k] = node;
        openC[k] = x;
        openFirst[k] = i;
      }
    }
    len = d;
  }
  for (let k = len; k > 0; k--) {
    openN[k]!.end = time[n - 1]!;
    openN[k]!.samples = n - openFirst[k]!;
  }
  return root;
}

/**
 * Per sample, from the lane's slices: `gap` when the previous sample's outermost frame ended before
 * it (the thread was not running in between), and in 'slices' mode `keep`, the number of leading
 * frames of its path that are the same instances as in the previous sample.
 */
function sliceEvidence(ev: LaneEvents, ctx: TctContext, mode: LcaMode): { gap: Uint8Array; keep: Int32Array | null } {
  const { constructs: t, depth } = ctx;
  const n = ev.sampleTime.length;
  const gap = new Uint8Array(n);
  const keep = mode === 'slices' ? new Int32Array(n) : null;
  const stack: number[] = [];
  let s = 0;
  const ns = ev.sliceStart.length;
  let prevBottom = -1;
  let prevKeys: number[] = [];
  let prevPath: number[] = [];
  for (let i = 0; i < n; i++) {
    const time = ev.sampleTime[i]!;
    while (s < ns && ev.sliceStart[s]! <= time) {
      while (stack.length && ev.sliceEnd[stack[stack.length - 1]!]! <= ev.sliceStart[s]!) stack.pop();
      stack.push(s++);
    }
    while (stack.length && ev.sliceEnd[stack[stack.length - 1]!]! <= time) stack.pop();
    const bottom = stack.length ? stack[0]! : -1;
    if (i > 0 && (bottom < 0 || bottom !== prevBottom)) gap[i] = 1;
    prevBottom = bottom;
    if (!keep) continue;
    const c = t.frameOf[ev.sampleNode[i]!]!;
    const d = c >= 0 ? depth[c]! : 0;
    const path: number[] = new Array(d + 1);
    for (let x = c, k = d; k > 0; k--, x = t.parent[x]!) path[k] = x;
    const keys: number[] = new Array(d + 1).fill(-1);
    for (const sl of stack) {
      const node = ev.sliceNode[sl]!;
      if (!t.isFrameNode[node]) continue;
      const sc = t.frameOf[node]!;
      const k = depth[sc]!;
      if (k <= d && path[k] === sc && keys[k] === -1) keys[k] = sl;
    }
    let j = 0;
    if (i > 0 && !gap[i]) {
      const lim = Math.min(d, prevPath.length - 1);
      while (j < lim) {
        const k = j + 1;
        if (path[k] !== prevPath[k]) break;
        if (keys[k]! >= 0 || prevKeys[k]! >= 0) {
          if (keys[k] !== prevKeys[k]) break;
        } else if (!t.isLoop(path[k]!)) break; // no evidence: only loops extend the LCA (§1.1 refinement)
        j++;
      }
    }
    keep[i] = j;
    prevKeys = keys;
    prevPath = path;
  }
  return { gap, keep };
}

/**
 * The TCT of an instrumented lane: slices nest by their recorded depth. Statement slices are
 * transparent, and nothing below a runtime frame is kept (its outermost frame is a leaf).
 */
export function buildInstrumentedTct(ev: LaneEvents, ctx: TctContext): TctNode {
  const t = ctx.constructs;
  const n = ev.sliceStart.length;
  let lo = Infinity,
    hi = -Infinity;
  for (let k = 0; k < n; k++) {
    if (ev.sliceStart[k]! < lo) lo = ev.sliceStart[k]!;
    if (ev.sliceEnd[k]! > hi) hi = ev.sliceEnd[k]!;
  }
  const root = newNode(TctKind.Root, ROOT_CONSTRUCT, lo, hi);
  const stack: { node: TctNode; depth: number; runtime: boolean }[] = [];
  for (let k = 0; k < n; k++) {
    const d = ev.sliceDepth[k]!,
      start = ev.sliceStart[k]!;
    while (stack.length && (stack[stack.length - 1]!.depth >= d || stack[stack.length - 1]!.node.end <= start))
      stack.pop();
    const top = stack.length ? stack[stack.length - 1]! : null;
    if (top?.runtime) continue;
    const node = ev.sliceNode[k]!;
    if (!t.isFrameNode[node]) continue;
    const c = t.frameOf[node]!;
    const tn = newNode(t.isLoop(c) ? TctKind.Loop : TctKind.Frame, c, start, Math.max(start, ev.sliceEnd[k]!));
    (top ? top.node : root).children.push(tn);
    stack.push({ node: tn, depth: d, runtime: t.runtime[c]! });
  }
  return root;
}

/** Every node of a tree, children before parents (post-order). Trees are as deep as call stacks. */
export function postOrder(root: TctNode, visit: (n: TctNode, parent: TctNode | null) => void): void {
  walkPostOrder(root, null, visit);
}

function walkPostOrder(n: TctNode, parent: TctNode | null, visit: (n: TctNode, parent: TctNode | null) => void): void {
  // Indexing, not iterating: a visit may replace its node's children (an implicit loop's layer).
  for (let i = 0; i < n.children.length; i++) walkPostOrder(n.children[i]!, n, visit);
  visit(n, parent);
}
