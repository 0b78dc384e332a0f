import { duration, newNode, TctKind, type TctNode } from './tct';

/**
 * Profile nodes (paper §3.3): children of rejected iteration identifiers, and loops whose
 * iterations could not be resolved, keep no per-instance time ranges, only accumulated durations.
 * Our form: a mini calling-context tree keyed by construct, children sorted by construct, each
 * entry a Profile node laid out from 0 with its accumulated time as duration.
 *
 * Time of an instance on a sampled lane: samples × V (an instance shorter than V holds a single
 * sample and spans 0 between its first and last sample, yet stands for about V of run time);
 * on an instrumented lane (V = 0), its duration.
 */
export function profileTime(n: TctNode, period: number): number {
  if (period > 0 && n.samples > 0) return n.samples * period;
  return duration(n);
}

interface Entry {
  construct: number;
  time: number;
  samples: number;
  sub: Entry[];
}

/** Accumulates subtrees into entries by construct; iteration layers are transparent. */
export class ProfileAccumulator {
  private readonly entries: Entry[] = [];

  constructor(private readonly period: number) {}

  /** Adds node n (an instance, a representative or a profile entry) with weight `scale`. */
  add(n: TctNode, scale = 1): void {
    addTo(this.entries, n, scale, this.period);
  }

  /** The entries as sorted Profile nodes, each starting at 0. */
  finish(): TctNode[] {
    return finishEntries(this.entries);
  }
}

/** The entry of a construct (a profile level has a handful: a linear search beats a map). */
function entryOf(entries: Entry[], construct: number): Entry {
  for (const e of entries) if (e.construct === construct) return e;
  const e: Entry = { construct, time: 0, samples: 0, sub: [] };
  entries.push(e);
  return e;
}

function addTo(entries: Entry[], n: TctNode, scale: number, period: number): void {
  if (n.kind === TctKind.Iteration) {
    for (const c of n.children) addTo(entries, c, scale, period);
    return;
  }
  const e = entryOf(entries, n.construct);
  e.time += profileTime(n, period) * scale;
  e.samples += n.samples * scale;
  const loop = n.loop;
  if (loop && loop.clusters.length && n.children.length === 0) {
    // A representative loop: its iterations are its clusters, each standing for clusterSize iterations.
    for (let k = 0; k < loop.clusters.length; k++)
      for (const c of loop.clusters[k]!.children) addTo(e.sub, c, scale * loop.clusterSize[k]!, period);
  } else for (const c of n.children) addTo(e.sub, c, scale, period);
  if (loop?.rejectedProfile) for (const c of loop.rejectedProfile.children) addTo(e.sub, c, scale, period);
}

function finishEntries(entries: Entry[]): TctNode[] {
  entries.sort((a, b) => a.construct - b.construct);
  const out: TctNode[] = [];
  for (const e of entries) {
    const node = newNode(TctKind.Profile, e.construct, 0, e.time);
    node.samples = e.samples;
    node.children = finishEntries(e.sub);
    out.push(node);
  }
  return out;
}

/** Node n as a profile node with the same extent (its children accumulated by construct). */
export function asProfile(n: TctNode, period: number): TctNode {
  if (n.kind === TctKind.Profile) return n;
  if (n.profileForm?.period === period) return n.profileForm.node;
  const acc = new ProfileAccumulator(period);
  const loop = n.loop;
  if (loop && loop.clusters.length && n.children.length === 0) {
    loop.clusters.forEach((rep, k) => {
      for (const c of rep.children) acc.add(c, loop.clusterSize[k]!);
    });
  } else for (const c of n.children) acc.add(c);
  if (loop?.rejectedProfile) for (const c of loop.rejectedProfile.children) acc.add(c);
  const p = newNode(TctKind.Profile, n.construct, n.start, n.end);
  p.samples = n.samples;
  p.children = acc.finish();
  n.profileForm = { period, node: p };
  return p;
}

/** Σ of the children's times of a profile node. */
export function childTime(p: TctNode): number {
  let s = 0;
  for (const c of p.children) s += duration(c);
  return s;
}

/** A profile node's own (exclusive) time: its time minus its children's, never below 0. */
export function exclusiveTime(p: TctNode): number {
  return Math.max(0, duration(p) - childTime(p));
}
