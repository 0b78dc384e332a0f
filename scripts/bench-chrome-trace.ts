// Read throughput of the streamed Chrome-trace reader vs JSON.parse on the same bytes, read times of
// the shared Chrome traces, and (large) the wall time and peak memory of opening a generated 2 GB trace.
// Run: `npm run bench -- chrome-trace` (HPC_LENS_BENCH_LARGE=1 adds the 2 GB case; HPC_LENS_BENCH_TRACE_MB=100,500
// chooses the generated sizes, empty for none).
//   (`npm run bench` calls benchChromeTrace(); HPC_LENS_BENCH_LARGE=1 adds the 2 GB case, which takes minutes.)
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { chromeTraceReader } from '../src/analysis/formats/chrome-trace';
import { formatPaired, formatTiming, jsonParseFile, loadNote, paired, timeOnce, timeSync } from './bench-timing';

/** A file written in 1 MB chunks, counting the bytes written and pending (the generators stop at a size). */
class ChunkedWriter {
  private readonly fd: number;
  private pending = '';
  private written = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  get bytes(): number {
    return this.written + this.pending.length;
  }

  write(text: string): void {
    this.pending += text;
    if (this.pending.length > 1 << 20) this.flush();
  }

  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.written;
  }

  private flush(): void {
    writeSync(this.fd, this.pending);
    this.written += this.pending.length;
    this.pending = '';
  }
}

/**
 * A Kineto-like trace: nested CPU operators with Python call stacks, runtime launches, GPU kernels and
 * copies, five events per step. Stops after `events` events or once about `maxBytes` are written.
 */
export function writeSyntheticTrace(
  path: string,
  events: number,
  maxBytes = Infinity,
): { events: number; bytes: number } {
  const out = new ChunkedWriter(path);
  out.write('{"schemaVersion":1,"traceEvents":[\n');
  let ts = 1623142623460111;
  let n = 0;
  for (let i = 0; n < events && out.bytes < maxBytes; i++) {
    const cs = `model.py(${10 + (i % 50)}): forward;train.py(${40 + (i % 7)}): <module>`;
    let buf = `{"ph":"X","cat":"Operator","name":"aten::op${i % 97}","pid":1,"tid":"1","ts":${ts},"dur":40,"args":{"External id":${i},"Call stack":"${cs}"}},\n`;
    buf += `{"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":"1","ts":${ts + 5},"dur":10,"args":{"correlation":${i},"external id":${i}}},\n`;
    const copy = i % 10 === 0;
    buf += copy
      ? `{"ph":"X","cat":"Memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":"stream 7","ts":${ts + 20},"dur":15,"args":{"device":0,"stream":7,"correlation":${i},"bytes":${4096 + i},"memory bandwidth (GB/s)":3.5}},\n`
      : `{"ph":"X","cat":"Kernel","name":"kernel_${i % 31}","pid":0,"tid":"stream 7","ts":${ts + 20},"dur":15,"args":{"queued":0,"device":0,"stream":7,"correlation":${i},"grid":[50,1,1],"block":[256,1,1]}},\n`;
    buf += `{"ph":"s","id":${i},"pid":1,"tid":1,"ts":${ts + 5},"cat":"ac2g","name":"launch"},\n{"ph":"f","id":${i},"pid":0,"tid":"stream 7","ts":${ts + 20},"cat":"ac2g","name":"launch","bp":"e"},\n`;
    out.write(buf);
    n += 5;
    ts += 50;
  }
  out.write(`{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}\n]}\n`);
  return { events: n + 1, bytes: out.close() };
}

/**
 * A DevTools-style trace (Chrome's Performance panel, Perfetto's JSON export): every event's members
 * in key order, so `args` comes before `ph`. Main-thread tasks with nested script, layout and paint
 * slices whose `args` hold `data` / `beginData` objects or a few scalars, async `b`/`e` pairs keyed by
 * `id2`, instant counters (`UpdateCounters`), flows, `C` counters and `M` thread names. `argsFirst`
 * false writes the same events with `ph` first (what the Kineto-like generator does), for comparison.
 */
export function writeSyntheticDevToolsTrace(
  path: string,
  maxBytes: number,
  argsFirst = true,
): { events: number; bytes: number } {
  const ev = (o: Record<string, unknown>): string => {
    const keys = Object.keys(o).sort();
    if (!argsFirst) keys.sort((a, b) => (a === 'ph' ? -1 : b === 'ph' ? 1 : 0));
    return `{${keys.map(k => `${JSON.stringify(k)}:${JSON.stringify(o[k])}`).join(',')}},\n`;
  };
  const TL = 'disabled-by-default-devtools.timeline';
  const frame = '848931758504E718AC99037086687B2E';
  const out = new ChunkedWriter(path);
  let buf = '{"traceEvents":[\n';
  const threads: [number, number, string][] = [
    [6488, 259, 'CrBrowserMain'],
    [6543, 259, 'CrRendererMain'],
    [6543, 17667, 'Compositor'],
    [6512, 259, 'CrGpuMain'],
  ];
  for (const [pid, tid, name] of threads)
    buf += ev({ args: { name }, cat: '__metadata', name: 'thread_name', ph: 'M', pid, tid, ts: 0 });
  let ts = 9632390457;
  let n = threads.length;
  out.write(buf);
  for (let i = 0; out.bytes < maxBytes; i++) {
    buf = '';
    const [pid, tid] = threads[i % threads.length]!;
    const tts = 15636384 + i * 40;
    buf += ev({ args: {}, cat: TL, dur: 300, name: 'RunTask', ph: 'X', pid, tdur: 290, tid, ts, tts });
    buf += ev({
      args: {
        data: {
          columnNumber: 4 + (i % 80),
          frame,
          functionName: `tick${i % 23}`,
          lineNumber: 10 + (i % 400),
          scriptId: String(12 + (i % 9)),
          url: `https://example.com/static/app.${i % 5}.js`,
        },
      },
      cat: 'devtools.timeline',
      dur: 120,
      name: 'FunctionCall',
      ph: 'X',
      pid,
      tdur: 118,
      tid,
      ts: ts + 10,
      tts: tts + 5,
    });
    buf += ev({
      args: {
        beginData: { dirtyObjects: i % 40, frame, partialLayout: i % 3 === 0, totalObjects: 340 },
        endData: { layoutRoots: [{ depth: 1, nodeId: 5, quads: [[0, 0, 800, 0, 800, 600, 0, 600]] }] },
      },
      cat: 'devtools.timeline',
      dur: 60,
      name: 'Layout',
      ph: 'X',
      pid,
      tdur: 58,
      tid,
      ts: ts + 140,
      tts: tts + 130,
    });
    buf += ev({
      args: { layerId: 3 + (i % 17), layerTreeId: 1 },
      cat: TL,
      dur: 30,
      name: 'Paint',
      ph: 'X',
      pid,
      tid,
      ts: ts + 210,
    });
    const id2 = { local: `0x${(i % 4096).toString(16)}` };
    buf += ev({ args: {}, cat: 'blink.user_timing', id2, name: `measure${i % 7}`, ph: 'b', pid, tid, ts: ts + 5 });
    buf += ev({ args: {}, cat: 'blink.user_timing', id2, name: `measure${i % 7}`, ph: 'e', pid, tid, ts: ts + 250 });
    buf += ev({
      args: { data: { documents: 3, jsEventListeners: i % 11, jsHeapSizeUsed: 1734940 + i * 8, nodes: 14 + (i % 90) } },
      cat: TL,
      name: 'UpdateCounters',
      ph: 'I',
      pid,
      s: 't',
      tid,
      ts: ts + 280,
    });
    buf += ev({ args: { frame }, cat: 'blink,devtools.timeline', name: 'MarkLoad', ph: 'R', pid, tid, ts: ts + 285 });
    n += 8;
    if (i % 8 === 0) {
      buf += ev({
        args: {},
        bind_id: `0x${i.toString(16)}`,
        cat: 'toplevel.flow',
        id: i,
        name: 'Task',
        ph: 's',
        pid,
        tid,
        ts: ts + 1,
      });
      buf += ev({
        args: {},
        bind_id: `0x${i.toString(16)}`,
        cat: 'toplevel.flow',
        id: i,
        name: 'Task',
        ph: 'f',
        bp: 'e',
        pid,
        tid,
        ts: ts + 2,
      });
      buf += ev({
        args: { jsHeapSizeUsed: 1734940 + i * 8, nodes: 14 + (i % 90) },
        cat: TL,
        name: 'Counters',
        ph: 'C',
        pid,
        tid,
        ts: ts + 3,
      });
      n += 3;
    }
    ts += 300;
    out.write(buf);
  }
  buf = ev({
    args: { name: 'Renderer' },
    cat: '__metadata',
    name: 'process_name',
    ph: 'M',
    pid: 6543,
    tid: 0,
    ts: 0,
  }).slice(0, -2);
  buf += '\n],"metadata":{"source":"DevTools","hardwareConcurrency":16}}\n';
  out.write(buf);
  return { events: n + 1, bytes: out.close() };
}

export interface PairedThroughput {
  mb: number;
  /** Medians of JSON.parse and of the reader, wall and process CPU milliseconds. */
  parseMs: number;
  readMs: number;
  parseCpuMs: number;
  readCpuMs: number;
}

/** JSON.parse of the same bytes and the Chrome reader, paired in this process (`paired`); prints and returns the medians. */
export async function pairedThroughput(
  path: string,
  repeats = 5,
  label = 'chrome-trace reader',
): Promise<PairedThroughput> {
  const mb = statSync(path).size / 1e6;
  let events = 0;
  const t = await paired(
    {
      ours: async () => {
        events = (await chromeTraceReader.read(path)).trace!.events.track.length;
      },
      baseline: () => jsonParseFile(path),
    },
    { repeats },
  );
  console.log(formatPaired(`${label} (${events} timeline events)`, mb, t));
  return {
    mb,
    parseMs: t.baseline.wallMs,
    readMs: t.ours.wallMs,
    parseCpuMs: t.baseline.cpuMs,
    readCpuMs: t.ours.cpuMs,
  };
}

/** Every shared Chrome trace against JSON.parse of its (gunzipped) bytes. */
async function sharedTraces(shared: string): Promise<void> {
  const root = join(shared, 'data', 'chrome-trace');
  if (!existsSync(root)) return;
  console.log('\nShared Chrome traces (ours vs JSON.parse of the same bytes, gunzipped; paired, median of 5):');
  for (const dir of readdirSync(root).sort())
    for (const f of readdirSync(join(root, dir)).sort())
      await pairedThroughput(join(root, dir, f), 5, `${dir}/${f}`.slice(-44));
}

/** The CLI as this process was started: the bundle beside dist/bench.js, or the TypeScript source through tsx. */
function cliCommand(): string[] {
  const bundled = join(dirname(process.argv[1] ?? ''), 'cli.js');
  if (basename(process.argv[1] ?? '').endsWith('.js') && existsSync(bundled)) return [process.execPath, bundled];
  return [process.execPath, ...process.execArgv, resolve(__dirname, '..', 'src', 'cli', 'hpc-lens.ts')];
}

/**
 * Opens a generated ~2 GB trace in a child process (`hpc-lens inspect --json`) under `/usr/bin/time -v`:
 * wall time, peak RSS (from time -v) and peak JS heap (the largest heap seen at a GC, from --trace-gc).
 */
export async function large(
  dir: string,
  gigabytes: number,
): Promise<{ bytes: number; rssMb: number | null; wallS: number } | null> {
  const path = join(dir, 'large-trace.json');
  const written = timeSync(() => writeSyntheticTrace(path, Infinity, gigabytes * 1e9));
  const { events, bytes } = written.value;
  console.log(
    `\nGenerated ${(bytes / 1e9).toFixed(2)} GB (${events} events) in ${formatTiming(written, { seconds: 0 })}`,
  );
  const [node, ...args] = cliCommand();
  const hasTime = existsSync('/usr/bin/time');
  const cmd = hasTime ? '/usr/bin/time' : node!;
  const argv = [...(hasTime ? ['-v', node!] : []), '--trace-gc', ...args, 'inspect', '--json', path];
  const child = await timeOnce(() => spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 30 }));
  const r = child.value;
  const wall = child.wallMs / 1e3;
  if (r.status !== 0) {
    console.log(`  the child failed (status ${r.status}): ${r.stderr.slice(-2000)}`);
    return null;
  }
  // --trace-gc lines: "… Mark-Compact 812.3 (840.1) -> 640.2 (700.5) MB, …": heap used before the GC.
  let heap = 0;
  for (const m of r.stdout.matchAll(/: [A-Za-z(). -]+? (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) -> /g))
    heap = Math.max(heap, Number(m[1]));
  const jsonLine = r.stdout.split('\n').find(l => l.startsWith('{')) ?? '{}';
  const report = JSON.parse(jsonLine) as { events?: number; tracks?: unknown[]; dataMovement?: { count: number } };
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const elapsed = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(r.stderr);
  const cpu = ['User', 'System'].reduce(
    (s, k) => s + Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN),
    0,
  );
  console.log(
    `  hpc-lens inspect --json: ${report.events ?? '?'} timeline events, ${report.tracks?.length ?? '?'} tracks, ${report.dataMovement?.count ?? '?'} copies`,
  );
  console.log(
    `  wall ${wall.toFixed(1)} s${elapsed ? ` (time -v: ${elapsed[1]})` : ''}, CPU ${cpu.toFixed(1)} s = ${(bytes / 1e6 / wall).toFixed(0)} MB/s`,
  );
  console.log(
    `  peak RSS ${rss ? `${(Number(rss[1]) / 1024).toFixed(0)} MB = ${((Number(rss[1]) * 1024) / bytes).toFixed(2)}× the file (time -v)` : 'n/a (no /usr/bin/time)'}, peak JS heap ${heap.toFixed(0)} MB (largest heap at a GC, --trace-gc)`,
  );
  return { bytes, rssMb: rss ? Number(rss[1]) / 1024 : null, wallS: wall };
}

/**
 * The benchmark `npm run bench -- chrome-trace` runs: generated ~100 MB and ~500 MB Kineto-like traces,
 * a generated ~100 MB DevTools-style one (args before ph) and the shared traces against JSON.parse of the same bytes; the 2 GB case when `large`.
 */
export async function benchChromeTrace(
  options: { sizesMB?: number[]; devToolsMB?: number[]; large?: boolean; shared?: string } = {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-bench-trace-'));
  try {
    console.log(`\nChrome trace reader vs JSON.parse of the same bytes, in this process (${loadNote()}):`);
    for (const mb of options.sizesMB ?? [100, 500]) {
      const path = join(dir, 'trace.json');
      writeSyntheticTrace(path, Infinity, mb * 1e6);
      await pairedThroughput(path, 5, `generated Kineto-like trace, ~${mb} MB`);
      rmSync(path, { force: true });
    }
    // Chrome DevTools key order (args before ph); HPC_LENS_BENCH_DEVTOOLS_MB chooses the sizes.
    for (const mb of options.devToolsMB ?? [100]) {
      const path = join(dir, 'devtools.json');
      writeSyntheticDevToolsTrace(path, mb * 1e6);
      await pairedThroughput(path, 5, `generated DevTools-style trace, ~${mb} MB`);
      rmSync(path, { force: true });
    }
    if (options.shared) await sharedTraces(options.shared);
    if (options.large) await large(dir, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
