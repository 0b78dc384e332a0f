import { segmentBounds, segmentMeans } from '../series/segment-means';
import type { TickRange } from './analysis-options';
import type { PdesBehaviour } from './behaviour';
import { intervalPairs, weighted, type CommunicationPairs, type CommunicationWeight } from './model/communication';
import type { PdesRun } from './model/pdes-run';

/**
 * Time segments between change points and what the circular views summarise per segment (thesis
 * §5.3.4, after Bryan et al.'s temporal summary images): the mean of every metric per entity, and
 * the mean communication per sample between entities. Segments are labelled A, B, C… in time order
 * as the detail views mark them; their bounds are the detected change points or the user's edits.
 */
export interface PdesSegment {
  index: number;
  /** `A`, `B`, … `Z`, `AA`, … */
  label: string;
  /** Samples [start, end) (absolute indices on the time axis). */
  start: number;
  end: number;
  /** p-value of the change point that starts it (null for the first segment and for edited bounds). */
  pValue: number | null;
}

/** A, B, …, Z, AA, AB, … (spreadsheet column letters). */
export function segmentLabel(index: number): string {
  let s = '';
  for (let i = index + 1; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/**
 * The segments of `range` that start at `starts` (absolute sample indices, strictly increasing,
 * inside the range: a RangeError otherwise, so an edit the panel sends is checked here).
 */
export function segmentsFromStarts(
  starts: readonly number[],
  range: TickRange,
  pValues: ReadonlyMap<number, number> = new Map(),
): PdesSegment[] {
  const t = range.to - range.from;
  let relative: number[];
  try {
    relative = segmentBounds(
      starts.map(s => s - range.from),
      t,
    );
  } catch {
    throw new RangeError(
      `segment starts must be increasing sample indices inside (${range.from}, ${range.to}); got ${starts.join(', ')}`,
    );
  }
  return relative.slice(0, -1).map((from, i) => ({
    index: i,
    label: segmentLabel(i),
    start: range.from + from,
    end: range.from + relative[i + 1]!,
    pValue: i > 0 ? (pValues.get(range.from + from) ?? null) : null,
  }));
}

/** Per-segment means of one metric: entity-major n × S, and the range over all segments (shared scales). */
export interface SegmentMetricMeans {
  metric: string;
  segments: number;
  means: Float64Array;
  min: number;
  max: number;
}

/** Each entity's mean of a metric in each segment, with one scale shared by all segments ([T5] §5.3.4). */
export function segmentMetricMeans(
  behaviour: PdesBehaviour,
  metric: string,
  segments: readonly PdesSegment[],
): SegmentMetricMeans {
  const range = { from: segments[0]!.start, to: segments[segments.length - 1]!.end };
  const m = segmentMeans(
    behaviour.window(metric, range),
    segments.slice(1).map(s => s.start - range.from),
  );
  let min = Infinity,
    max = -Infinity;
  for (const v of m.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { metric, segments: segments.length, means: m.values, min, max };
}

/** Per-segment means of every metric of the level (the circular views' rings and the segment table). */
export function segmentSummaries(behaviour: PdesBehaviour, segments: readonly PdesSegment[]): SegmentMetricMeans[] {
  return behaviour.metrics.map(m => segmentMetricMeans(behaviour, m.id, segments));
}

/**
 * Which events the event trace holds (ROSS `--event-trace`): every processed event (1), only those
 * that caused a primary rollback (2), or only committed ones (3); from the command line, else from
 * whether the trace has as many events as were processed.
 */
export type TraceScope = 'all events' | 'rollback-causing events' | 'committed events' | 'unknown';

export function traceScope(run: PdesRun): TraceScope {
  const option = run.command?.options['event-trace'];
  if (option === '1') return 'all events';
  if (option === '2') return 'rollback-causing events';
  if (option === '3') return 'committed events';
  const processed = run.summary?.eventsProcessed;
  return run.eventTrace && processed !== undefined && run.eventTrace.count === processed ? 'all events' : 'unknown';
}

/**
 * Communication per segment at the behaviour level (sparse sender → receiver pairs, counts per
 * sample of the segment), cut from the event trace by the samples' times: a segment covers what
 * happened after the sample before it up to its last sample (communication.ts tickEdges).
 */
export interface SegmentCommunication {
  level: PdesBehaviour['level'];
  scope: TraceScope;
  /** Mean events per sample: one set of pairs per segment. */
  segments: CommunicationPairs[];
}

/** Null when the run has no event trace or the level's entities are not placed. */
export function segmentCommunication(
  run: PdesRun,
  behaviour: PdesBehaviour,
  segments: readonly PdesSegment[],
): SegmentCommunication | null {
  const trace = run.eventTrace;
  if (!trace || !segments.length) return null;
  if (behaviour.level !== 'lp' && run.placement[behaviour.level] === 'none') return null;
  const edges = segmentEdges(behaviour, segments);
  const pairs = intervalPairs(trace, run.entities, behaviour.level, edges, behaviour.eventAxis);
  pairs.forEach((p, s) => {
    const samples = segments[s]!.end - segments[s]!.start;
    for (let i = 0; i < p.counts.length; i++) p.counts[i]! /= samples;
  });
  return { level: behaviour.level, scope: traceScope(run), segments: pairs };
}

/** Interval edges on the trace's clock: segment s covers (edges[s], edges[s+1]]. */
export function segmentEdges(behaviour: PdesBehaviour, segments: readonly PdesSegment[]): Float64Array {
  const times = behaviour.edgeTimes;
  const out = new Float64Array(segments.length + 1);
  out[0] = segments[0]!.start === 0 ? -Infinity : times[segments[0]!.start - 1]!;
  segments.forEach((s, i) => (out[i + 1] = times[s.end - 1]!));
  return out;
}

/**
 * PE × PE matrices per segment from the segment pairs, counting only events whose two ends are
 * selected entities (a filtered entity's traffic leaves every view), weighted as the ribbons show
 * them; `max` is the largest off-diagonal cell over all segments (the ribbons' shared scale).
 */
export function peSegmentMatrices(
  communication: SegmentCommunication,
  behaviour: PdesBehaviour,
  peCount: number,
  selected: Uint8Array,
  weight: CommunicationWeight,
): { size: number; matrices: Float64Array[]; max: number } {
  const pe = behaviour.pe;
  let max = 0;
  const matrices = communication.segments.map(p => {
    const counts = new Float64Array(peCount * peCount);
    for (let i = 0; i < p.counts.length; i++) {
      const a = p.src[i]!,
        b = p.dst[i]!;
      if (!selected[a] || !selected[b] || pe[a]! < 0 || pe[b]! < 0) continue;
      counts[pe[a]! * peCount + pe[b]!]! += p.counts[i]!;
    }
    const w = weighted({ level: 'pe', size: peCount, counts, events: 0 }, weight);
    for (let i = 0; i < peCount; i++)
      for (let j = 0; j < peCount; j++) if (i !== j && w[i * peCount + j]! > max) max = w[i * peCount + j]!;
    return w;
  });
  return { size: peCount, matrices, max };
}
