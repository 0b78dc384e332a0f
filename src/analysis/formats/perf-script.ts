import { NodeKind } from '../model/call-tree';
import { GrowableFloat64, GrowableInt32 } from '../model/growable';
import type { Profile } from '../model/profile';
import { forEachLine } from './io/file-input';
import { parseFrameLine, parseSampleHeader, parseSrcLine, type SampleHeader } from './perf-script/lines';
import { ProfileReadError, type ProfileReader, type ReadOptions } from './reader';
import { SampledProfile } from './sampled-stacks/sampled-profile';
import { perfScriptSniffer } from './sniffers/perf-script';

/** A thread seen in the samples (a track and an execution context). */
interface PerfThread {
  pid: number;
  tid: number;
  comm: string;
  context: number;
}

/** Software clock events count nanoseconds; every other event's period is an event count. */
const NS_EVENTS = new Set(['cpu-clock', 'task-clock']);
const FRAME_WITH_ADDRESS = /^\s+[0-9a-fA-F]+\s+\S/;

/**
 * Linux `perf script` text: samples separated by blank lines, each a header line (`comm pid/tid
 * [cpu] time: period event:`) and its call chain, leaf first (`\taddr symbol+0xoff (dso)`), with
 * `-F +srcline` a `  file.c:123` line under each frame. An optional `perf script --header` block
 * becomes metadata.
 *
 * Each pid/tid is a track and a context (rank = pid, as perf knows no MPI ranks); timestamped
 * samples become Sample events. The profile has the `samples` count and, when periods are printed,
 * one period metric per event (ns for cpu-clock/task-clock), exclusive at the leaf. With srcline
 * data a frame's node carries its file and the line it was called from, and the sampled line
 * itself is a statement node under the leaf function.
 */
export const perfScriptReader: ProfileReader = {
  ...perfScriptSniffer,

  async read(path: string, options: ReadOptions = {}): Promise<Profile> {
    const sp = new SampledProfile('perf-script', path);
    const b = sp.builder;
    const { stacks } = sp;
    const fail = (reason: string): never => {
      throw new ProfileReadError(path, reason);
    };

    const threads: PerfThread[] = [];
    const threadOf = new Map<number, number>();
    const events: string[] = [];
    const eventOf = new Map<string, { index: number; metric: number }>();
    // Timed samples, kept until all are read: tracks are ordered by pid/tid and times by their minimum.
    const smThread = new GrowableInt32(1024),
      smTime = new GrowableFloat64(1024),
      smLeaf = new GrowableInt32(1024);
    const smFunction = new GrowableInt32(1024),
      smEvent = new GrowableInt32(1024);
    let baseSeconds = -1;
    let samples = 0;

    // The sample being read: its header and frames (leaf first), with srcline file and line per frame.
    let header: SampleHeader | null = null;
    // Raw frame lines are parsed once: most frames repeat (same address, same symbol).
    const raws: string[] = [],
      files: string[] = [];
    const frameOfLine = new Map<string, number>();
    let lines = new Int32Array(64);
    let depth = 0;
    let sawSrcLine = false;
    let path_ = new Int32Array(64);

    const pushFrame = (raw: string) => {
      if (depth === lines.length) {
        const grown = new Int32Array(depth * 2);
        grown.set(lines);
        lines = grown;
      }
      raws[depth] = raw;
      files[depth] = '';
      lines[depth] = 0;
      depth++;
    };

    const endSample = () => {
      const h = header;
      if (!h) return;
      header = null;
      if (depth === 0) pushFrame('');
      // Root first: each frame's node knows its file and the line of its caller it was called from.
      if (path_.length < depth) path_ = new Int32Array(2 * depth);
      for (let i = depth - 1, k = 0; i >= 0; i--, k++) {
        const callLine = i + 1 < depth ? lines[i + 1]! : 0;
        const located = files[i] !== '' || callLine > 0;
        let id = located ? undefined : frameOfLine.get(raws[i]!);
        if (id === undefined) {
          const f = parseFrameLine(raws[i]!);
          id = stacks.frame(f.symbol, {
            module: f.dso === '[unknown]' ? null : f.dso || null,
            file: files[i] || null,
            callLine,
          });
          if (!located) frameOfLine.set(raws[i]!, id);
        }
        path_[k] = id;
      }
      const fn = stacks.path(path_, depth, true);
      const leaf =
        lines[0]! > 0
          ? stacks.child(
              fn,
              stacks.frame(`${files[0]}:${lines[0]}`, { file: files[0], line: lines[0] }, NodeKind.Statement),
            )
          : fn;
      depth = 0;

      const key = (h.pid + 1) * 2 ** 23 + (h.tid + 1);
      let t = threadOf.get(key);
      if (t === undefined) {
        t = threads.length;
        threads.push({
          pid: h.pid,
          tid: h.tid,
          comm: h.comm,
          context: b.newContext({ rank: h.pid, thread: h.tid, label: `${h.comm} ${h.pid}/${h.tid}` }),
        });
        threadOf.set(key, t);
      }
      let ev = eventOf.get(h.event);
      if (ev === undefined) {
        ev = { index: events.length, metric: -1 };
        events.push(h.event);
        eventOf.set(h.event, ev);
      }
      if (h.period >= 0 && ev.metric < 0) {
        const name = h.event || 'period';
        ev.metric = sp.weightMetric({
          name,
          label: h.event ? `${h.event} (period)` : 'Period',
          unit: NS_EVENTS.has(h.event) ? 'ns' : 'count',
          sourceKeys: [`period:${name}`],
        });
      }
      sp.addSample(leaf, threads[t]!.context, 1, ev.metric, h.period >= 0 ? h.period : 0);
      samples++;
      if (h.seconds) {
        const sec = Number(h.seconds);
        if (baseSeconds < 0) baseSeconds = sec;
        const frac =
          h.fraction.length >= 9 ? Number(h.fraction.slice(0, 9)) : Number(h.fraction) * 10 ** (9 - h.fraction.length);
        smThread.push(t);
        smTime.push((sec - baseSeconds) * 1e9 + frac);
        smLeaf.push(leaf);
        smFunction.push(fn);
        smEvent.push(ev.index);
      }
    };

    let inHeaderBlock = false;
    const onLine = (line: string, lineNumber: number) => {
      if (!line.trim()) {
        endSample();
        return;
      }
      const c = line.charCodeAt(0);
      if (c === 35 /* # */ && header === null) {
        if (/^# =+\s*$/.test(line)) {
          inHeaderBlock = !inHeaderBlock;
          return;
        }
        const m = inHeaderBlock ? /^# ([^:]+?)\s*: (.*)$/.exec(line) : null;
        if (m) {
          const key = m[1]!.trim();
          const prev = b.metadata[key];
          b.metadata[key] = prev === undefined ? m[2]!.trim() : `${String(prev)}\n${m[2]!.trim()}`;
        }
        return;
      }
      if (c === 32 || c === 9) {
        if (header === null) fail(`line ${lineNumber}: a stack frame outside a sample (no header line before it)`);
        // Frames are tab-indented with an address; `-F +srcline` adds space-indented lines under them
        // (`file.c:12`, `??:0`, `[kernel.kallsyms][ffff…]` — only the first kind locates the frame).
        if (c === 32 && !FRAME_WITH_ADDRESS.test(line)) {
          const src = parseSrcLine(line);
          if (depth > 0 && src) {
            files[depth - 1] = src.file;
            lines[depth - 1] = src.line;
            sawSrcLine = true;
          }
          return;
        }
        pushFrame(line);
        return;
      }
      endSample();
      const h = parseSampleHeader(line);
      if (!h)
        fail(
          `line ${lineNumber}: not a perf script sample header (comm pid/tid time: event:): ${JSON.stringify(line.slice(0, 80))}`,
        );
      header = h;
      // Without call chains perf prints the sampled ip, symbol and dso on the header line.
      if (h!.rest && /^[0-9a-fA-F]+ \S.*\)$/.test(h!.rest)) pushFrame(h!.rest);
    };

    await forEachLine(path, onLine, {
      signal: options.signal,
      limits: options.limits,
      onProgress: f => options.onProgress?.(0.9 * f, 'Reading samples'),
    });
    endSample();
    if (samples === 0)
      fail('no samples: expected "comm pid/tid time: event:" header lines, each followed by its call chain');

    // Tracks by pid, then tid; times relative to the earliest sample.
    options.onProgress?.(0.9, 'Building the timeline');
    if (smTime.length > 0) {
      const tb = sp.trace;
      let min = Infinity;
      for (let i = 0; i < smTime.length; i++) min = Math.min(min, smTime.get(i));
      tb.originNs = (BigInt(Math.round(baseSeconds)) * 1_000_000_000n + BigInt(min)).toString();
      const order = threads
        .map((_, i) => i)
        .sort((x, y) => threads[x]!.pid - threads[y]!.pid || threads[x]!.tid - threads[y]!.tid);
      const trackOf = new Int32Array(threads.length);
      for (const i of order) {
        const th = threads[i]!;
        trackOf[i] = tb.addTrack({
          name: `thread ${th.tid} (${th.comm})`,
          kind: 'thread',
          process: `${th.comm} (pid ${th.pid})`,
          pid: String(th.pid),
          tid: String(th.tid),
          rank: th.pid,
          thread: th.tid,
          context: th.context,
        });
      }
      for (let i = 0; i < smTime.length; i++) {
        const fn = smFunction.get(i);
        sp.addTimedSample(
          trackOf[smThread.get(i)]!,
          smTime.get(i) - min,
          smLeaf.get(i),
          events[smEvent.get(i)]!,
          stacks.frameName(stacks.frameOf(fn)),
        );
      }
    }
    b.metadata['samples'] = samples;
    if (events.some(e => e)) b.metadata['events'] = events.filter(e => e).join(', ');
    if (sawSrcLine) b.metadata['srcline'] = true;
    options.onProgress?.(1);
    return sp.finish();
  },
};
