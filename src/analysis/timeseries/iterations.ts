import { ENTRY, type ControlFlow } from './control-flow';
import type { ConstructTable } from './constructs';
import { ProfileAccumulator } from './profile-form';
import { duration, newLoopData, newNode, postOrder, TctKind, type TctNode } from './tct';

/**
 * Iteration identification (paper §3.2, Algorithm 1) and its acceptance test (§3.3).
 *
 * Tagging: walking a loop's children in time order, a child that is not a control-flow successor
 * of the previous one (control-flow.ts) must have been reached through a back edge, so it opens a
 * new iteration. Every child is tagged; the tag and `prev` update on every child (the listing's
 * indentation suggests otherwise; the prose and Fig. 6 do not).
 *
 * Acceptance: an identifier is accepted when it has ≥ CHILD_NUM_ACC children, or one child lasting
 * ≥ CHILD_DUR_ACC × V. Rejected identifiers' children become a profile node of the loop; when they
 * cover more than half of the loop, the whole loop becomes a profile node (short iterations are
 * better summarised than analysed one by one). How much a rejected identifier covers (our choice):
 * from its first child's start to the next identifier's first child (or the loop's end), since an
 * identifier whose children hold one sample each spans 0 between its samples.
 *
 * Instrumented traces (no sampling, no loop constructs) get implicit loops: under one parent
 * instance, the children from the first to the last call of a repeated callee are tagged the same
 * way (source order, else order of first execution), and form a loop when their identifiers pass
 * the test with V = `instrumentedResolution` — a sample count there is the identifier's extent
 * divided by it — and at least half of them pass (our choice). Explicit iteration markers
 * (`ProfilerStep#N`, `step 12`) are always accepted.
 */
export interface IterationOptions {
  childNumAcc: number;
  childDurAcc: number;
  rejectedShare: number;
}

export interface IterationContext {
  constructs: ConstructTable;
  cf: ControlFlow;
  options: IterationOptions;
  /** The sampling period (ns) of a sampled lane, 0 for an instrumented one. */
  period: number;
  /** V of the acceptance test (ns): the sampling period, or the instrumented resolution. */
  acceptPeriod: number;
}

/** What became of one loop instance. */
export interface LoopOutcome {
  /** The loop node (Loop or, when rejected as a whole, Profile) after identification. */
  node: TctNode;
  construct: number;
  ids: number;
  accepted: number;
  rejected: number;
  /** The whole loop became a profile node. */
  profile: boolean;
  implicit: boolean;
  /** Implicit loops: the construct whose calls drive the iterations (a marker, else the most repeated), else -1. */
  driver: number;
}

/** Algorithm 1's tags of `children` (time order) inside `scope`'s body. */
export function tagIterations(children: readonly TctNode[], scope: number, cf: ControlFlow): Int32Array {
  const tags = new Int32Array(children.length);
  let iter = 0,
    prev = ENTRY;
  children.forEach((child, k) => {
    const cur = child.construct;
    if (!cf.isSuccessor(scope, prev, cur)) iter++;
    tags[k] = iter;
    prev = cur;
  });
  // The first child always succeeds the entry: tags start at 0.
  if (children.length && tags[0] === 1) for (let k = 0; k < tags.length; k++) tags[k]!--;
  return tags;
}

/**
 * Identifies the iterations of every loop of a lane's TCT, inner loops first, in place: accepted
 * loops get an iteration layer, the others become profile nodes. Returns the outcome per loop;
 * `onLayered` sees each layered loop as soon as it is made (after the loops inside it).
 */
export function identifyIterations(
  root: TctNode,
  ctx: IterationContext,
  instrumented: boolean,
  onLayered?: (loop: TctNode) => void,
): LoopOutcome[] {
  const out: LoopOutcome[] = [];
  const t = ctx.constructs;
  const found = (r: LoopOutcome | null) => {
    if (!r) return;
    out.push(r);
    if (!r.profile && onLayered) onLayered(r.node);
  };
  postOrder(root, node => {
    if (node.kind === TctKind.Loop && node.loop === null) {
      // A loop without calls inside acts as a leaf (§1.2).
      if (node.children.length) found(layer(node, node.children, node.construct, false, ctx));
    } else if (instrumented && (node.kind === TctKind.Frame || node.kind === TctKind.Root)) {
      if (node.kind === TctKind.Root || !t.runtime[node.construct]) found(implicitLoop(node, ctx));
    }
  });
  return out;
}

interface IdFacts {
  count: number;
  maxChild: number;
  first: number;
  last: number;
  markersOnly: boolean;
}

function tally(kids: readonly TctNode[], tags: Int32Array, t: ConstructTable): IdFacts[] {
  const ids: IdFacts[] = [];
  kids.forEach((k, i) => {
    const tag = tags[i]!;
    let f = ids[tag];
    if (!f) ids[tag] = f = { count: 0, maxChild: 0, first: i, last: i, markersOnly: true };
    f.count++;
    f.maxChild = Math.max(f.maxChild, duration(k));
    f.last = i;
    if (!(k.construct >= 0 && t.marker[k.construct])) f.markersOnly = false;
  });
  return ids;
}

/**
 * Tags `kids` (children of `loop`, or the span of an implicit loop) and applies the acceptance
 * test. Explicit loops are changed in place (layered or turned into a profile node); for an
 * implicit loop, `loop` is the new node to insert, and null is returned when it is not one.
 */
function layer(
  loop: TctNode,
  kids: TctNode[],
  scope: number,
  implicit: boolean,
  ctx: IterationContext,
): LoopOutcome | null {
  const { options: o, acceptPeriod: vAcc, constructs: t } = ctx;
  const tags = tagIterations(kids, scope, ctx.cf);
  const facts = tally(kids, tags, t);
  const ids = facts.length;
  const end = implicit ? kids[kids.length - 1]!.end : loop.end;
  const accepted = new Uint8Array(ids);
  let rejectedTime = 0,
    nAccepted = 0;
  facts.forEach((f, id) => {
    // Sampled: up to the next identifier (a one-sample child spans 0); instrumented: its own extent
    // (idle time after the last call is not part of the iteration), whose sample count is the
    // extent over the resolution.
    const spanEnd = ctx.period === 0 ? kids[f.last]!.end : id + 1 < ids ? kids[facts[id + 1]!.first]!.start : end;
    const span = Math.max(0, spanEnd - kids[f.first]!.start);
    const count = ctx.period > 0 ? f.count : span / vAcc;
    const ok = f.markersOnly || count >= o.childNumAcc || f.maxChild >= o.childDurAcc * vAcc;
    accepted[id] = ok ? 1 : 0;
    if (ok) nAccepted++;
    else rejectedTime += span;
  });
  const loopDuration = end - (implicit ? kids[0]!.start : loop.start);
  const whole = rejectedTime > o.rejectedShare * loopDuration && rejectedTime > 0;
  // An implicit loop must be mostly iterations (our choice): else its "iterations" are just small repeated calls.
  if (implicit && (ids < 2 || whole || nAccepted * 2 < ids)) return null;
  const outcome = {
    node: loop,
    construct: loop.construct,
    ids,
    accepted: nAccepted,
    rejected: ids - nAccepted,
    profile: whole,
    implicit,
    driver: implicit ? driverOf(kids, t) : -1,
  };
  if (whole) {
    const acc = new ProfileAccumulator(ctx.period);
    for (const k of kids) acc.add(k);
    loop.kind = TctKind.Profile;
    loop.children = acc.finish();
    loop.loop = null;
    return outcome;
  }
  const data = newLoopData(implicit);
  data.ids = ids;
  data.accepted = nAccepted;
  data.rejected = ids - nAccepted;
  const iterations: TctNode[] = [];
  const rejected = new ProfileAccumulator(ctx.period);
  let anyRejected = false;
  facts.forEach((f, id) => {
    if (!accepted[id]) {
      for (let i = f.first; i <= f.last; i++) if (tags[i] === id) rejected.add(kids[i]!);
      anyRejected = true;
      return;
    }
    const it = newNode(TctKind.Iteration, loop.construct, kids[f.first]!.start, kids[f.last]!.end);
    it.id = id;
    for (let i = f.first; i <= f.last; i++) {
      it.children.push(kids[i]!);
      it.samples += kids[i]!.samples;
    }
    data.iterationTime += duration(it);
    iterations.push(it);
  });
  if (anyRejected) {
    const entries = rejected.finish();
    const p = newNode(
      TctKind.Profile,
      loop.construct,
      0,
      entries.reduce((s, e) => s + duration(e), 0),
    );
    p.samples = entries.reduce((s, e) => s + e.samples, 0);
    p.children = entries;
    data.rejectedProfile = p;
  }
  loop.children = iterations;
  loop.loop = data;
  return outcome;
}

/** The marker among the children, else the construct called most often (the first of equals). */
function driverOf(kids: readonly TctNode[], t: ConstructTable): number {
  const marker = kids.find(k => k.construct >= 0 && t.marker[k.construct]);
  if (marker) return marker.construct;
  const count = new Map<number, number>();
  let best = -1,
    bestN = 0;
  for (const k of kids) {
    const n = (count.get(k.construct) ?? 0) + 1;
    count.set(k.construct, n);
    if (n > bestN) {
      best = k.construct;
      bestN = n;
    }
  }
  return best;
}

/** An implicit loop under `parent` (instrumented lanes), inserted in place when its iterations pass. */
function implicitLoop(parent: TctNode, ctx: IterationContext): LoopOutcome | null {
  const kids = parent.children;
  if (kids.length < 2) return null;
  const seen = new Map<number, number>();
  for (const k of kids) seen.set(k.construct, (seen.get(k.construct) ?? 0) + 1);
  let first = -1,
    last = -1;
  kids.forEach((k, i) => {
    if (seen.get(k.construct)! < 2) return;
    if (first < 0) first = i;
    last = i;
  });
  if (first < 0) return null;
  const span = kids.slice(first, last + 1);
  const loop = newNode(
    TctKind.Loop,
    ctx.constructs.implicitLoopOf(parent.construct),
    span[0]!.start,
    span[span.length - 1]!.end,
  );
  loop.samples = span.reduce((s, k) => s + k.samples, 0);
  const outcome = layer(loop, span, parent.construct, true, ctx);
  if (!outcome) return null;
  parent.children = [...kids.slice(0, first), loop, ...kids.slice(last + 1)];
  return outcome;
}
