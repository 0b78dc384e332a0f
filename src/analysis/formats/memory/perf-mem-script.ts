/**
 * Memory samples from Linux `perf script -F time,cpu,tid,ip,sym,addr,weight,data_src,srcline`, as
 * recorded by `perf mem record` (Intel PEBS, AMD IBS, Arm SPE). perf prints one line per sample,
 *
 *   `[comm] tid [cpu] secs.frac: addr [data-symbol] data_src |OP …|LVL …|SNP …|TLB …|LCK …|BLK … weight ip [symbol]`
 *
 * (fields in that fixed order, absent ones left out), and `srcline` puts `  file.c:123` on the line
 * below. The level comes from the raw `data_src` integer, not from its text decoding, which changes
 * between perf versions (seed digest §7.1). `weight` is the load latency in cycles.
 */
import { forEachLine } from '../io/file-input';
import { parseSrcLine } from '../perf-script/lines';
import { contentHead, ProfileReadError, type FileSample, type ReadOptions } from '../reader';
import { decodePerfDataSource } from '../../memory/model/data-source';
import { GrowableFloat64, GrowableInt32 } from '../../model/growable';
import {
  CategoryInterner,
  CoreColumnsBuilder,
  UNKNOWN_SOURCE,
  type MemorySamples,
  type SampleAttribute,
} from '../../memory/model/memory-samples';

/** `[comm] pid[/tid] [cpu] secs.frac: rest`; comm is optional (not in the `-F` list above). */
const HEADER = /^\s*(?:(\S.*?)\s+)??(\d+)(?:\/(\d+))?\s+(?:\[(\d+)\]\s+)?(\d+)\.(\d+):\s+(.*)$/;
/** `addr [data symbol] data_src |OP …`: the data source is the hex number before the decoding. */
const ADDRESS_AND_SOURCE = /^([0-9a-f]+)(?:\s+(.*?))?\s+([0-9a-f]+)\s+(\|OP\b.*)$/;
/** `|… weight [ip [symbol]]` after the decoding (lazy: the decoding ends where weight and ip start). */
const DECODING_TAIL = /^(\|.*?)\s+(\d+)(?:\s+([0-9a-f]+)(?:\s+(.*?))?)?\s*$/;
const SYMBOL_OFFSET = /\+0x[0-9a-f]+$/;

/** A symbol without its `+0x…` offset; perf's `[unknown]` becomes MemAxes' `??`. */
function symbolName(text: string | undefined): string {
  const name = (text ?? '').replace(SYMBOL_OFFSET, '');
  return name && name !== '[unknown]' ? name : UNKNOWN_SOURCE;
}

function firstSampleLine(head: string): string | null {
  for (const line of head.split('\n', 64)) {
    if (!line.trim() || line.startsWith('#')) continue;
    return line.replace(/\r$/, '');
  }
  return null;
}

/** Confidence that a file is `perf script` output of memory samples (a sample line with `data_src`). */
export function sniffPerfMemScript(sample: FileSample): number {
  if (sample.isDirectory || sample.binary) return 0;
  const line = firstSampleLine(contentHead(sample));
  if (!line) return 0;
  const m = HEADER.exec(line);
  return m && / \|OP /.test(m[7]!) ? 0.95 : 0;
}

/**
 * Reads `perf script` memory samples, streamed. A sample line without a cpu, weight or data_src
 * field is an error that names the missing field and the perf option that prints it.
 */
export async function readPerfMemScript(path: string, options: ReadOptions = {}): Promise<MemorySamples> {
  const fail = (reason: string): never => {
    throw new ProfileReadError(path, reason);
  };
  const core = new CoreColumnsBuilder();
  const { latency, cpu, level, remote, line, source, variable, sourceIds, variableIds } = core;
  const time = new GrowableFloat64(4096);
  const tid = new GrowableInt32(4096);
  const pid = new GrowableInt32(4096);
  const addr = new GrowableFloat64(4096);
  const dataSource = new GrowableFloat64(4096);
  const ip = new GrowableFloat64(4096);
  const symbolIds = new GrowableInt32(4096);
  const symbol = new CategoryInterner();
  let hasPid = false;
  let count = 0;
  // Whether the current sample got its srcline yet (the first `  file:line` line below it).
  let awaitingSrcLine = false;
  let sawSrcLine = false;

  await forEachLine(
    path,
    (text, lineNo) => {
      if (text.length === 0 || text.startsWith('#')) return;
      const c0 = text.charCodeAt(0);
      const indented = c0 === 32 || c0 === 9;
      // A line under a sample: its srcline, or a call-chain frame (skipped). Sample lines may be
      // indented too (perf pads the tid to 5 columns), so an indented line is a srcline only when it
      // reads as one right after a sample.
      if (indented && awaitingSrcLine) {
        const loc = parseSrcLine(text.replace(/\t/g, '  '));
        if (loc || /^\s+(\?\?)?:\d*\s*$/.test(text) || /^\s+\[[^\]]*\]\[[0-9a-f]+\]\s*$/.test(text)) {
          awaitingSrcLine = false;
          sawSrcLine = true;
          if (loc) {
            sourceIds.set(count - 1, source.intern(loc.file));
            line.set(count - 1, loc.line);
          }
          return;
        }
      }
      if (indented && !HEADER.test(text)) return;
      const h = HEADER.exec(text);
      if (!h)
        return fail(
          `line ${lineNo}: not a perf script sample line (expected "tid [cpu] secs.frac: addr … data_src …")`,
        );
      if (h[4] === undefined) return fail(`line ${lineNo}: no cpu field (print it with perf script -F cpu)`);
      const rest = h[7]!;
      const a = ADDRESS_AND_SOURCE.exec(rest);
      if (!a) {
        if (!/\|OP\b/.test(rest))
          return fail(`line ${lineNo}: no data_src field (print it with perf script -F data_src)`);
        return fail(`line ${lineNo}: no data address before data_src (print it with perf script -F addr)`);
      }
      const t = DECODING_TAIL.exec(a[4]!);
      if (!t)
        return fail(
          `line ${lineNo}: no weight field, the load latency (record with -W, print with perf script -F weight)`,
        );
      if (h[3] !== undefined) hasPid = true;
      pid.push(Number(h[2]));
      tid.push(Number(h[3] ?? h[2]));
      cpu.push(Number(h[4]));
      time.push(Number(`${h[5]}.${h[6]}`));
      addr.push(parseInt(a[1]!, 16));
      variableIds.push(variable.intern(symbolName(a[2])));
      const code = parseInt(a[3]!, 16);
      dataSource.push(code);
      const decoded = decodePerfDataSource(code);
      level.push(decoded.level);
      remote.push(decoded.remote ? 1 : 0);
      latency.push(Number(t[2]));
      ip.push(t[3] === undefined ? NaN : parseInt(t[3], 16));
      symbolIds.push(symbol.intern(symbolName(t[4])));
      sourceIds.push(source.intern(UNKNOWN_SOURCE));
      line.push(0);
      count++;
      awaitingSrcLine = true;
    },
    { signal: options.signal, onProgress: f => options.onProgress?.(f, 'reading samples') },
  );
  if (count === 0) fail('no perf script memory samples in the file');

  const warnings: string[] = [];
  if (!sawSrcLine)
    warnings.push('no srcline under the samples (print it with perf script -F srcline): no source lines');
  const c = core.finish(count);
  const attributes: SampleAttribute[] = [
    { name: 'time', kind: 'quantitative', values: time.finish() },
    ...(hasPid ? [{ name: 'pid', kind: 'qualitative' as const, values: pid.finish() }] : []),
    { name: 'tid', kind: 'qualitative', values: tid.finish() },
    { name: 'cpu', kind: 'qualitative', values: c.cpu },
    { name: 'addr', kind: 'qualitative', values: addr.finish() },
    { name: 'variable', kind: 'qualitative', values: c.variable.ids, categories: c.variable.names },
    { name: 'data_src', kind: 'qualitative', values: dataSource.finish() },
    { name: 'latency', kind: 'quantitative', values: c.latency },
    { name: 'ip', kind: 'qualitative', values: ip.finish() },
    { name: 'symbol', kind: 'qualitative', values: symbolIds.finish(), categories: symbol.names },
    { name: 'source', kind: 'qualitative', values: c.source.ids, categories: c.source.names },
    { name: 'line', kind: 'qualitative', values: c.line },
  ];
  return { format: 'perf-mem', dialect: 'perf-script', path, ...c, attributes, warnings };
}
