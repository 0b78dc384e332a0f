import { throwIfAborted } from '../model/cancellation';
import {
  allLaneRanges,
  analyseLanes,
  finishTraceAnalysis,
  mergePartialAnalyses,
  splitLaneRanges,
  type AnalysisHooks,
  type LaneRange,
  type PartialTraceAnalysis,
  type TraceAnalysis,
  type TracePlan,
} from './analyze-trace';
import { clusterLimit } from './model/options';

/**
 * The lane phase of the trace analysis as a worker runs it: in chunks, with the event loop free in
 * between (a worker sees a cancel message only when it yields), and — when a second worker is at
 * hand — with the right half of every role's lanes analysed there (paper §4.2.2: the two recursive
 * calls of getClusterSet are independent tasks).
 *
 * Chunks follow Algorithm 3's own recursion: a range splits at the middle only where getClusterSet
 * itself splits (more than K lanes), and the chunks' cluster sets are joined with mergeClusterSet,
 * so the result is the single-call result exactly, whatever the chunk size or the split over workers.
 */

/** Events per chunk (samples or slices): about 50–100 ms of work between two looks at the event loop. */
export const CHUNK_EVENTS = 400_000;

export interface PartHooks extends Pick<AnalysisHooks, 'signal' | 'timings' | 'clock'> {
  /** Lanes analysed so far by this call, of `total`. */
  onLanes?: (done: number, total: number) => void;
  /** Events per chunk (default CHUNK_EVENTS); a chunk never splits below K lanes. */
  chunkEvents?: number;
}

/** Lets the event loop run (messages, timers) between chunks. */
function yieldToEventLoop(): Promise<void> {
  return new Promise(resolve => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** analyseLanes over `ranges`, chunked (see the module comment); equal to analyseLanes(plan, ranges). */
export async function analyseLanesInChunks(
  plan: TracePlan,
  ranges: readonly LaneRange[],
  hooks: PartHooks = {},
): Promise<PartialTraceAnalysis> {
  const total = ranges.reduce((s, r) => s + r.e - r.h, 0);
  const budget = Math.max(1, hooks.chunkEvents ?? CHUNK_EVENTS);
  let done = 0;
  const eventsIn = (role: number, h: number, e: number) => {
    const lanes = plan.roles[role]!.lanes;
    let n = 0;
    for (let i = h; i < e; i++) n += plan.source.lanes[lanes[i]!]!.events;
    return n;
  };
  const part = async (role: number, h: number, e: number, K: number): Promise<PartialTraceAnalysis> => {
    if (e - h > K && eventsIn(role, h, e) > budget) {
      const mid = Math.floor((h + e) / 2);
      const left = await part(role, h, mid, K);
      const right = await part(role, mid, e, K);
      return mergePartialAnalyses(plan, left, right);
    }
    await yieldToEventLoop();
    throwIfAborted(hooks.signal);
    const base = done;
    const p = analyseLanes(plan, [{ role, h, e }], {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(hooks.timings ? { timings: hooks.timings } : {}),
      ...(hooks.clock ? { clock: hooks.clock } : {}),
      onProgress: f => hooks.onLanes?.(base + Math.round(f * (e - h)), total),
    });
    done = base + (e - h);
    return p;
  };
  let out: PartialTraceAnalysis | null = null;
  for (const r of ranges) {
    const K = clusterLimit(plan.options, plan.roles[r.role]!.lanes.length);
    const p = await part(r.role, r.h, r.e, K);
    // Different roles: the merge only places each role's set, summary and lanes.
    out = out ? mergePartialAnalyses(plan, out, p) : p;
  }
  return out ?? analyseLanes(plan, []);
}

/** The right halves of the lanes, analysed elsewhere (another worker holding the same dataset). */
export type PeerAnalysis = (
  ranges: LaneRange[],
  onLanes: (done: number, total: number) => void,
) => Promise<PartialTraceAnalysis>;

/**
 * The whole analysis of a plan: the left halves here and the right halves on `peer` when given
 * (else here too), merged and finished. `onProgress` sees the fraction of lanes analysed on both sides.
 */
export async function analyseTraceInParts(
  plan: TracePlan,
  hooks: PartHooks & { onProgress?: (fraction: number, message?: string) => void } = {},
  peer?: PeerAnalysis,
): Promise<TraceAnalysis> {
  const [left, right] = splitLaneRanges(plan, 2);
  const useRight = !!peer && right!.length > 0;
  const totalLanes = plan.source.lanes.length;
  let here = 0,
    there = 0;
  const report = () =>
    hooks.onProgress?.(
      totalLanes ? (here + there) / totalLanes : 1,
      `${(here + there).toLocaleString('en-US')} of ${totalLanes.toLocaleString('en-US')} lanes`,
    );
  const remote = useRight
    ? peer!(right!, done => {
        there = done;
        report();
      })
    : null;
  // If this side fails, the other side's answer (or failure) is not waited for.
  remote?.catch(() => undefined);
  const local = await analyseLanesInChunks(plan, useRight ? left! : allLaneRanges(plan), {
    ...hooks,
    onLanes: done => {
      here = done;
      report();
    },
  });
  const merged = remote ? mergePartialAnalyses(plan, local, await remote) : local;
  throwIfAborted(hooks.signal);
  return finishTraceAnalysis(plan, merged);
}
