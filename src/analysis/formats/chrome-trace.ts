import type { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { buildChromeTrace } from './chrome-trace/build';
import { ChromeTraceCollector } from './chrome-trace/collect';
import { TraceEventStream } from './chrome-trace/stream';
import { JsonSyntaxError, JsonTokenizer, tokenizeJsonFile } from './json/json-tokenizer';
import { isAbortError, type ProfileReader, ProfileReadError, type ReadOptions } from './reader';
import { chromeTraceSniffer } from './sniffers/chrome-trace';

/**
 * One idle instance of each per-read class, made after the last read. V8 keeps an object's hidden
 * class (map) only while some object uses it: once a read's objects are garbage, a full GC frees
 * their maps, the optimised reader code that expected them is thrown away, and the next read runs
 * cold — a 0.5 MB DevTools trace read after a full GC took 100–300 ms instead of 10–20 ms
 * (README, Performance). A fresh instance holds the current maps at the cost of a few hundred KB.
 */
const shapes: { kept: unknown[] } = { kept: [] };
function keepShapes(path: string): void {
  const b = new ProfileBuilder('chrome-trace', path);
  const collector = new ChromeTraceCollector(b.tree.strings);
  const stream = new TraceEventStream(collector, () => {
    throw new Error('unused');
  });
  shapes.kept = [b, collector, stream, new JsonTokenizer(stream)];
}

/**
 * Chrome trace-event JSON (chrome://tracing, Perfetto's legacy JSON, PyTorch profiler / Kineto), in
 * the object form `{"traceEvents": […], …}` or as a bare array (which may be truncated: Chrome
 * writes no closing `]` when tracing stops abruptly), gzip or not. Streamed one event at a time.
 *
 * Every slice becomes a call-tree node under the slices that enclose it on its track; Kineto GPU
 * activities hang under the runtime call that launched them (`args.correlation`, else the `ac2g`
 * flow that ends on them), and operators under the Python frames of their `Call stack`. Each track
 * is an execution context; the profile's `time` metric (ns) is the slices' exclusive time, `bytes`
 * the bytes of copies and memsets, and `samples` the weights of sampled stacks (`P` events and
 * top-level `samples` with `stackFrames`).
 */
export const chromeTraceReader: ProfileReader = {
  ...chromeTraceSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const b = new ProfileBuilder('chrome-trace', path);
    const collector = new ChromeTraceCollector(b.tree.strings);
    const fail = (reason: string): never => {
      throw new ProfileReadError(path, reason);
    };
    const stream = new TraceEventStream(collector, fail);
    const warnings = b.warnings;
    try {
      await tokenizeJsonFile(path, stream, {
        signal: options.signal,
        limits: options.limits,
        onProgress: (read, total) => options.onProgress?.(total > 0 ? 0.8 * (read / total) : 0, 'Reading the trace'),
      });
    } catch (e) {
      if (isAbortError(e) || e instanceof ProfileReadError) throw e;
      if (!(e instanceof JsonSyntaxError)) throw new ProfileReadError(path, (e as Error).message, { cause: e });
      // A bare array cut short is legal (Chrome writes no closing bracket when tracing stops abruptly).
      const endOfInput = /unexpected end of input/.test(e.message);
      if (!(endOfInput && stream.form === 'array')) {
        const message = e.message.startsWith(`${path}: `) ? e.message.slice(path.length + 2) : e.message;
        throw new ProfileReadError(path, `not valid trace-event JSON (${message})`, { cause: e });
      }
      warnings.push(
        stream.betweenEvents
          ? 'the event array has no closing bracket (a truncated trace)'
          : 'the trace is truncated; its last, incomplete event was dropped',
      );
    }
    if (stream.form === null) throw new ProfileReadError(path, 'the file holds no JSON value');
    if (stream.form === 'object' && !stream.sawEventArray && !collector.stackFrames && collector.smTrack.length === 0) {
      const keys = Object.keys(collector.metadata);
      if (
        !keys.length ||
        !keys.some(k => k === 'displayTimeUnit' || k === 'otherData' || k === 'metadata' || k === 'schemaVersion')
      ) {
        throw new ProfileReadError(
          path,
          `not a Chrome trace: the object has no "traceEvents" (keys: ${keys.slice(0, 8).join(', ') || 'none'})`,
        );
      }
    }
    delete collector.metadata['traceEvents'];
    Object.assign(b.metadata, collector.metadata);
    const { noTime, ignoredPhases, profileChunks } = collector.counts;
    if (noTime) warnings.push(`${noTime} event${noTime === 1 ? '' : 's'} without a numeric "ts" were skipped`);
    if (profileChunks)
      warnings.push(
        `${profileChunks} V8 CPU-profile event${profileChunks === 1 ? '' : 's'} (ph P without "sf") were not read`,
      );
    if (ignoredPhases.size)
      warnings.push(
        `events of phases not shown were skipped: ${[...ignoredPhases].map(([p, n]) => `${p} ×${n}`).join(', ')}`,
      );
    options.onProgress?.(0.8, 'Building the timeline');
    const profile = buildChromeTrace(collector, b, warnings);
    keepShapes(path);
    options.onProgress?.(1);
    return profile;
  },
};
