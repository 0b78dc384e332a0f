import { RossEventTraceDecoder, RossStatsDecoder } from './record-decoder';

/** Where one record sits in a recorded file and when it was written. */
export interface RecordSpan {
  offset: number;
  length: number;
  /** Wall-clock seconds (ROSS's clock, shared by stats and trace records). */
  realTime: number;
}

/**
 * The records of a recorded stats file with their byte spans and real times. ROSS flushes each
 * PE's buffer on its own, so the file holds PE 0's rounds, then PE 1's…; the real times say the
 * order in which they happened. A partial trailing record is left out.
 */
export function statsRecordSpans(bytes: Uint8Array, path: string, modelRecords: boolean): RecordSpan[] {
  const spans: RecordSpan[] = [];
  const add = (rec: { offset: number; realTime: number }) =>
    spans.push({ offset: rec.offset, length: 0, realTime: rec.realTime });
  const decoder = new RossStatsDecoder({ engine: add, model: add }, path, { modelRecords });
  decoder.push(bytes);
  return closeSpans(spans, decoder.offset);
}

/** The records of a recorded event trace with their byte spans and real times. */
export function traceRecordSpans(bytes: Uint8Array, path: string): RecordSpan[] {
  const spans: RecordSpan[] = [];
  const decoder = new RossEventTraceDecoder(
    ev => spans.push({ offset: ev.offset, length: 0, realTime: ev.realTime }),
    path,
  );
  decoder.push(bytes);
  return closeSpans(spans, decoder.offset);
}

function closeSpans(spans: RecordSpan[], end: number): RecordSpan[] {
  for (let i = 0; i < spans.length; i++)
    spans[i]!.length = (i + 1 < spans.length ? spans[i + 1]!.offset : end) - spans[i]!.offset;
  return spans;
}

/** One step of a replay: the bytes due at `at` seconds of recorded time after the first record. */
export interface ReplayStep {
  at: number;
  stats: Uint8Array | null;
  trace: Uint8Array | null;
}

export interface ReplayPlanOptions {
  /**
   * Cuts each step's bytes further into chunks of this many bytes (called for every chunk), e.g.
   * random sizes that split record headers; default: one chunk per step.
   */
  chunkBytes?: () => number;
  /** Records of recorded time grouped into one step (default 0.01 s: a 100 Hz replay). */
  granularity?: number;
}

/**
 * A replay of a recorded run in the order things happened: the stats records (and the trace's
 * events) sorted by real time — stable, so records written together keep their file order — and
 * grouped into steps of `granularity` seconds of recorded time. Concatenated, each stream's steps
 * hold every record once, byte for byte.
 */
export function* replayPlan(
  stats: { bytes: Uint8Array; spans: RecordSpan[] },
  trace: { bytes: Uint8Array; spans: RecordSpan[] } | null,
  options: ReplayPlanOptions = {},
): Generator<ReplayStep> {
  const granularity = options.granularity ?? 0.01;
  const s = sortedByTime(stats.spans);
  const t = trace ? sortedByTime(trace.spans) : [];
  const first = Math.min(s.length ? s[0]!.realTime : Infinity, t.length ? t[0]!.realTime : Infinity);
  let i = 0,
    j = 0;
  while (i < s.length || j < t.length) {
    const next = Math.min(i < s.length ? s[i]!.realTime : Infinity, j < t.length ? t[j]!.realTime : Infinity);
    const until = next + granularity;
    const si = i,
      tj = j;
    while (i < s.length && s[i]!.realTime < until) i++;
    while (j < t.length && t[j]!.realTime < until) j++;
    const statsBytes = i > si ? gather(stats.bytes, s, si, i) : null;
    const traceBytes = j > tj ? gather(trace!.bytes, t, tj, j) : null;
    const at = Math.max(0, next - first);
    if (!options.chunkBytes) {
      yield { at, stats: statsBytes, trace: traceBytes };
      continue;
    }
    for (const [which, bytes] of [
      ['stats', statsBytes],
      ['trace', traceBytes],
    ] as const) {
      if (!bytes) continue;
      for (let at0 = 0; at0 < bytes.length;) {
        const n = Math.max(1, Math.floor(options.chunkBytes()));
        const part = bytes.subarray(at0, Math.min(bytes.length, at0 + n));
        at0 += n;
        yield { at, stats: which === 'stats' ? part : null, trace: which === 'trace' ? part : null };
      }
    }
  }
}

function sortedByTime(spans: RecordSpan[]): RecordSpan[] {
  // Array.prototype.sort is stable: equal times keep their file order.
  return spans.slice().sort((a, b) => a.realTime - b.realTime);
}

function gather(bytes: Uint8Array, spans: RecordSpan[], from: number, to: number): Uint8Array {
  let total = 0;
  for (let k = from; k < to; k++) total += spans[k]!.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (let k = from; k < to; k++) {
    const { offset, length } = spans[k]!;
    out.set(bytes.subarray(offset, offset + length), at);
    at += length;
  }
  return out;
}

/**
 * Plays replay steps at `speed` × recorded real time (Infinity: as fast as possible), handing each
 * step to `deliver` when its time comes. Resolves at the end or when the signal aborts.
 */
export async function playReplay(
  steps: Iterable<ReplayStep>,
  speed: number,
  deliver: (step: ReplayStep) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!(speed > 0)) throw new RangeError(`the replay speed must be positive, got ${speed}`);
  const started = performance.now();
  for (const step of steps) {
    if (signal?.aborted) return;
    const due = (step.at / speed) * 1000 - (performance.now() - started);
    if (due > 1) await sleep(due, signal);
    if (signal?.aborted) return;
    deliver(step);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}
