import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { DATA_MOVEMENT_KIND_NAMES, FlowKind, TraceEventKind } from '../model/trace';
import { chromeTraceReader } from './chrome-trace';
import { sampleFile } from './file-sample';
import { readProfile } from './index';
import { ProfileReadError } from './reader';
import { ProfileBuilder } from '../model/profile-builder';
import { seededRandom } from '../stats/seeded-random';
import { buildChromeTrace } from './chrome-trace/build';
import { ChromeTraceCollector } from './chrome-trace/collect';
import { TraceEventStream } from './chrome-trace/stream';
import { JsonTokenizer } from './json/json-tokenizer';

const dir = mkdtempSync(join(tmpdir(), 'chrome-trace-'));
let seq = 0;
const write = (content: string | Buffer, name = `t${seq++}.json`) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const read = (content: string | Buffer) => chromeTraceReader.read(write(content));

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join('/'));
/** Σ over contexts of inclusive time (ns) of the node at a path. */
function incl(p: Profile, path: string, metric = 'time'): number {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in ${paths(p).join(', ')}`);
  return p.inclusiveTotals(p.metricIndex(metric))[i]!;
}
function excl(p: Profile, path: string): number {
  return p.exclusiveTotals(p.metricIndex('time'))[paths(p).indexOf(path)]!;
}
const ev = (o: Record<string, unknown>) => JSON.stringify({ pid: 1, tid: 1, ...o });

describe('Chrome trace reader: phases', () => {
  it('nests X slices into a call tree with inclusive and exclusive time per track', async () => {
    const p = await read(
      `{"traceEvents":[${[
        ev({ ph: 'X', name: 'main', ts: 0, dur: 10 }),
        ev({ ph: 'X', name: 'work', ts: 2, dur: 5 }),
        ev({ ph: 'X', name: 'main', ts: 0, dur: 4, tid: 2 }),
      ].join(',')}],"displayTimeUnit":"ns"}`,
    );
    assert.equal(incl(p, 'main'), 14000);
    assert.equal(excl(p, 'main'), 9000);
    assert.equal(incl(p, 'main/work'), 5000);
    assert.equal(p.contextCount, 2);
    assert.equal(p.metadata['displayTimeUnit'], 'ns');
    const t = p.trace!;
    assert.deepEqual(Array.from(t.events.depth), [0, 1, 0]);
    assert.deepEqual(Array.from(t.events.start), [0, 2000, 0]);
    assert.deepEqual(t.timeRange, [0, 10000]);
  });

  it('matches B/E leniently: unmatched E ignored, unclosed B closed at the last timestamp, overlaps kept', async () => {
    const p = await read(
      `[${[
        ev({ ph: 'E', ts: 0 }),
        ev({ ph: 'B', name: 'a', ts: 1 }),
        ev({ ph: 'B', name: 'b', ts: 2 }),
        ev({ ph: 'E', name: 'a', ts: 5 }),
        ev({ ph: 'E', name: 'b', ts: 7 }),
        ev({ ph: 'B', name: 'open', ts: 8 }),
        ev({ ph: 'i', name: 'mark', ts: 10, s: 't' }),
        ev({ ph: 'i', name: 'end', ts: 12, s: 't' }),
      ].join(',')}]`,
    );
    assert.equal(incl(p, 'a/b'), 5000);
    assert.equal(excl(p, 'a'), 1000);
    assert.equal(incl(p, 'open'), 4000); // closed at the track's last timestamp, 12
    assert.ok(
      p.warnings.some(w => /1 end event .* ignored/.test(w)),
      p.warnings.join('; '),
    );
    assert.ok(p.warnings.some(w => /1 begin event .* closed/.test(w)));
    assert.ok(p.warnings.some(w => /overlap/.test(w)));
    const t = p.trace!;
    const inst = Array.from(t.events.kind).indexOf(TraceEventKind.Instant);
    assert.equal(p.tree.name(t.events.node[inst]!), 'open');
  });

  it('reads a bare array truncated without the closing bracket, also mid-event', async () => {
    const body = [ev({ ph: 'X', name: 'a', ts: 0, dur: 1 }), ev({ ph: 'X', name: 'b', ts: 2, dur: 1 })].join(',\n');
    for (const text of [`[${body}`, `[${body},`, `[${body},\n{"ph":"X","na`]) {
      const p = await read(text);
      assert.equal(p.trace!.events.track.length, 2, text);
      assert.ok(p.warnings.some(w => /truncated/.test(w)));
    }
    await assert.rejects(read(`{"traceEvents":[${body}`), ProfileReadError);
  });

  it('reads gzip, unicode names, string timestamps and an empty trace', async () => {
    const p = await chromeTraceReader.read(
      write(gzipSync(`[${ev({ ph: 'X', name: 'größe 🚀', ts: '5', dur: '2' })}]`), 'g.json.gz'),
    );
    assert.equal(incl(p, 'größe 🚀'), 2000);
    assert.equal(p.trace!.originNs, '5000');
    const empty = await read('{"traceEvents":[]}');
    assert.equal(empty.tree.size, 0);
    assert.equal(empty.trace!.tracks.length, 0);
    assert.equal((await read('[]')).trace!.events.track.length, 0);
  });

  it('keeps epoch-microsecond timestamps exact relative to the origin', async () => {
    const p = await read(
      `[${ev({ ph: 'X', name: 'a', ts: 1623142623460111, dur: 25 })},${ev({ ph: 'X', name: 'b', ts: 1623142623460147.5, dur: 7 })}]`,
    );
    assert.equal(p.trace!.originNs, '1623142623460111000');
    assert.deepEqual(Array.from(p.trace!.events.start), [0, 36500]);
  });

  it('reads counters, flows, async slices, metadata and sort indices', async () => {
    const p = await read(
      `[${[
        ev({ ph: 'M', name: 'process_name', args: { name: 'rank 0' } }),
        ev({ ph: 'M', name: 'thread_name', tid: 2, args: { name: 'worker' } }),
        ev({ ph: 'M', name: 'thread_sort_index', tid: 2, args: { sort_index: -1 } }),
        ev({ ph: 'C', name: 'mem', ts: 0, args: { used: 1, free: 9 } }),
        ev({ ph: 'C', name: 'mem', ts: 5, args: { used: 3, free: 7 } }),
        ev({ ph: 'X', name: 'send', ts: 0, dur: 2 }),
        ev({ ph: 's', name: 'msg', cat: 'c', id: 7, ts: 1 }),
        ev({ ph: 'X', name: 'recv', ts: 4, dur: 2, tid: 2 }),
        ev({ ph: 'f', name: 'msg', cat: 'c', id: 7, ts: 4, tid: 2 }),
        ev({ ph: 'b', name: 'req', cat: 'net', id: '0x1', ts: 1 }),
        ev({ ph: 'b', name: 'sub', cat: 'net', id: '0x1', ts: 2 }),
        ev({ ph: 'e', name: 'sub', cat: 'net', id: '0x1', ts: 3 }),
        ev({ ph: 'e', name: 'req', cat: 'net', id: '0x1', ts: 6 }),
        ev({ ph: 'b', name: 'req', cat: 'net', id: '0x2', ts: 2 }),
        ev({ ph: 'e', name: 'req', cat: 'net', id: '0x2', ts: 3 }),
      ].join(',')}]`,
    );
    const t = p.trace!;
    assert.deepEqual(
      t.tracks.map(x => `${x.process}:${x.name}:${x.kind}`),
      [
        'rank 0:worker:thread',
        'rank 0:thread 1:thread',
        'rank 0:req:async',
        'rank 0:req (2):async',
        'rank 0:counter: mem:counter',
      ],
    );
    assert.deepEqual(
      t.counters.series.map(s => s.name),
      ['mem.used', 'mem.free'],
    );
    assert.deepEqual(Array.from(t.counters.value), [1, 3, 9, 7]);
    assert.equal(t.flows.kind.length, 1);
    assert.equal(t.flows.kind[0], FlowKind.Generic);
    assert.equal(p.tree.name(t.events.node[t.flows.fromEvent[0]!]!), 'send');
    assert.equal(p.tree.name(t.events.node[t.flows.toEvent[0]!]!), 'recv');
    assert.equal(incl(p, 'req/sub'), 1000);
    assert.equal(incl(p, 'req'), 6000);
  });

  it('reads sampled stacks from P events and top-level samples with stackFrames', async () => {
    const p = await read(
      JSON.stringify({
        traceEvents: [{ ph: 'P', pid: 1, tid: 1, ts: 1, sf: 2 }],
        samples: [
          { pid: 1, tid: 1, ts: 2, sf: 3, weight: 2 },
          { pid: 1, tid: 1, ts: 3, sf: 99 },
        ],
        stackFrames: { 1: { name: 'main' }, 2: { name: 'f', parent: 1 }, 3: { name: 'g', parent: 2 } },
      }),
    );
    assert.equal(incl(p, 'main', 'samples'), 3);
    assert.equal(incl(p, 'main/f/g', 'samples'), 2);
    assert.ok(p.warnings.some(w => /missing from "stackFrames"/.test(w)));
    assert.deepEqual(Array.from(p.trace!.events.kind), [TraceEventKind.Sample, TraceEventKind.Sample]);
  });

  it('links Kineto GPU work to the launching call and its Python source line', async () => {
    const cs = 'model.py(12): forward;train.py(40): <module>';
    const p = await read(
      JSON.stringify({
        schemaVersion: 1,
        traceEvents: [
          {
            ph: 'X',
            cat: 'Operator',
            name: 'aten::copy_',
            pid: 9,
            tid: '9',
            ts: 100,
            dur: 50,
            args: { 'Call stack': cs },
          },
          {
            ph: 'X',
            cat: 'Runtime',
            name: 'cudaMemcpyAsync',
            pid: 9,
            tid: 9,
            ts: 110,
            dur: 20,
            args: { correlation: 5 },
          },
          {
            ph: 'X',
            cat: 'Memcpy',
            name: 'Memcpy HtoD (Pageable -> Device)',
            pid: 0,
            tid: 'stream 7',
            ts: 120,
            dur: 30,
            args: { device: 0, stream: 7, correlation: 5, bytes: 4096 },
          },
          {
            ph: 'X',
            cat: 'Kernel',
            name: 'k',
            pid: 0,
            tid: 'stream 7',
            ts: 160,
            dur: 10,
            args: { device: 0, stream: 7, correlation: 6 },
          },
          { ph: 's', cat: 'ac2g', id: 5, pid: 9, tid: 9, ts: 110, name: 'launch' },
          { ph: 'f', cat: 'ac2g', id: 5, pid: 0, tid: 'stream 7', ts: 120, bp: 'e', name: 'launch' },
        ],
      }),
    );
    const copy = '<module>/forward/aten::copy_/cudaMemcpyAsync/Memcpy HtoD (Pageable -> Device)';
    assert.equal(incl(p, copy), 30000);
    assert.equal(incl(p, copy, 'bytes'), 4096);
    const line = paths(p).indexOf('<module>/forward');
    assert.equal(p.tree.name(line), 'forward');
    assert.equal(p.tree.file(line), 'model.py');
    assert.equal(p.tree.line(line), 12);
    assert.equal(incl(p, '<module>/forward', 'bytes'), 4096);
    const t = p.trace!;
    assert.equal(t.dataMovement.kind.length, 1);
    assert.equal(DATA_MOVEMENT_KIND_NAMES[t.dataMovement.kind[0]!], 'host-to-device');
    assert.equal(t.dataMovement.dstDevice[0], 0);
    assert.equal(p.tree.line(t.dataMovement.sourceNode[0]!), 12);
    assert.equal(t.flows.kind[0], FlowKind.Launch);
    const gpu = t.tracks.find(x => x.kind === 'gpu-stream')!;
    assert.deepEqual([gpu.gpuDevice, gpu.gpuStream], [0, 7]);
    const r = inspectReport(p);
    assert.equal(r.events, 4);
    assert.deepEqual(r.dataMovement, {
      count: 1,
      bytes: 4096,
      byKind: { 'host-to-device': { count: 1, bytes: 4096 } },
    });
    assert.equal(r.tracks!.length, 2);
  });

  it('links GPU work through ac2g flows when args.correlation is absent', async () => {
    const p = await read(
      JSON.stringify({
        traceEvents: [
          { ph: 'X', cat: 'cpu_op', name: 'aten::mm', pid: 9, tid: 9, ts: 100, dur: 50 },
          { ph: 'X', cat: 'cuda_runtime', name: 'cudaLaunchKernel', pid: 9, tid: 9, ts: 110, dur: 10 },
          { ph: 'X', cat: 'cuda_runtime', name: 'cudaMemcpyAsync', pid: 9, tid: 9, ts: 130, dur: 10 },
          {
            ph: 'X',
            cat: 'kernel',
            name: 'gemm',
            pid: 0,
            tid: 'stream 7',
            ts: 125,
            dur: 20,
            args: { device: 0, stream: 7 },
          },
          {
            ph: 'X',
            cat: 'gpu_memcpy',
            name: 'Memcpy DtoH (Device -> Pinned)',
            pid: 0,
            tid: 'stream 7',
            ts: 150,
            dur: 5,
            args: { device: 0, stream: 7, bytes: 64 },
          },
          {
            ph: 'X',
            cat: 'kernel',
            name: 'orphan',
            pid: 0,
            tid: 'stream 7',
            ts: 160,
            dur: 5,
            args: { device: 0, stream: 7 },
          },
          // Flow ids as Kineto writes them (numbers on one end, strings on the other are the same flow).
          { ph: 's', cat: 'ac2g', id: 41, pid: 9, tid: 9, ts: 110, name: 'ac2g' },
          { ph: 'f', cat: 'ac2g', id: '41', pid: 0, tid: 'stream 7', ts: 125, bp: 'e', name: 'ac2g' },
          { ph: 's', cat: 'ac2g', id: 42, pid: 9, tid: 9, ts: 130, name: 'ac2g' },
          { ph: 'f', cat: 'ac2g', id: 42, pid: 0, tid: 'stream 7', ts: 150, bp: 'e', name: 'ac2g' },
        ],
      }),
    );
    assert.equal(incl(p, 'aten::mm/cudaLaunchKernel/gemm'), 20000);
    assert.equal(incl(p, 'aten::mm/cudaMemcpyAsync/Memcpy DtoH (Device -> Pinned)'), 5000);
    assert.equal(incl(p, 'aten::mm/cudaMemcpyAsync/Memcpy DtoH (Device -> Pinned)', 'bytes'), 64);
    assert.equal(incl(p, 'aten::mm', 'bytes'), 64);
    // No flow, no correlation: a root of its own.
    assert.equal(incl(p, 'orphan'), 5000);
    const t = p.trace!;
    assert.deepEqual(Array.from(t.flows.kind), [FlowKind.Launch, FlowKind.Launch]);
    assert.equal(p.tree.name(t.events.node[t.flows.toEvent[0]!]!), 'gemm');
    assert.equal(p.tree.name(t.events.node[t.flows.fromEvent[0]!]!), 'cudaLaunchKernel');
    assert.equal(p.tree.name(t.dataMovement.node[0]!), 'Memcpy DtoH (Device -> Pinned)');
  });

  it('keeps correlation ahead of flows, and reads odd member values like JSON.parse', async () => {
    const events = [
      { ph: 'X', cat: 'Runtime', name: 'launchA', pid: 1, tid: 1, ts: 0, dur: 10, args: { correlation: 7 } },
      { ph: 'X', cat: 'Runtime', name: 'launchB', pid: 1, tid: 1, ts: 20, dur: 10, args: { correlation: 8 } },
      {
        ph: 'X',
        cat: 'Kernel',
        name: 'k',
        pid: 0,
        tid: 'stream 1',
        ts: 25,
        dur: 5,
        args: { correlation: 7, grid: [1, 2, { x: [3] }] },
      },
      { ph: 's', cat: 'ac2g', id: 8, pid: 1, tid: 1, ts: 20 },
      { ph: 'f', cat: 'ac2g', id: 8, pid: 0, tid: 'stream 1', ts: 25, bp: 'e' },
      // Nested values where the reader expects scalars.
      { ph: 'X', name: 'odd', pid: { p: [1] }, tid: 1, ts: 40, dur: [2], args: [5, { a: 1 }] },
      { ph: 'C', name: 'ctr', pid: 1, ts: 50, args: { b: 2, 1: 5, a: 'x', c: ' 3 ', d: { e: 1 } } },
    ].map(e => JSON.stringify(e));
    // Duplicated members: the last wins.
    events.push(
      '{"ph":"X","name":"first","name":"second","pid":1,"tid":1,"ts":"nope","ts":60,"dur":1,"args":{"b":1},"args":null}',
    );
    const p = await read(`{"traceEvents":[${events.join(',')}]}`);
    assert.equal(incl(p, 'launchA/k'), 5000);
    assert.equal(incl(p, 'odd'), 0);
    assert.equal(incl(p, 'second'), 1000);
    const t = p.trace!;
    assert.ok(t.tracks.some(k => k.pid === '{"p":[1]}'));
    assert.deepEqual(
      t.counters.series.map(s => s.name),
      ['ctr.1', 'ctr.b', 'ctr.c'],
    );
  });

  it('is chosen by sniffing and rejects non-traces with a clear message', async () => {
    assert.equal((await readProfile(write(`[${ev({ ph: 'X', name: 'a', ts: 0, dur: 1 })}]`))).format, 'chrome-trace');
    assert.ok(chromeTraceReader.sniff(await sampleFile(write('{"traceEvents": []}'))) > 0.9);
    await assert.rejects(read('{"foo": 1}'), /no "traceEvents"/);
    await assert.rejects(read('{"traceEvents": [1,'), /not valid trace-event JSON/);
    await assert.rejects(read('42'), /neither an object nor an array/);
  });

  it("an operator's own Call stack counts inside an enclosing operator's (ProfilerStep around aten::to)", async () => {
    const step = 'torch/profiler.py(614): __enter__;torch/profiler.py(313): step;train.py(54): <module>';
    const to = 'loader.py(138): to_tensor;train.py(44): <module>';
    const p = await read(
      JSON.stringify({
        traceEvents: [
          {
            ph: 'X',
            cat: 'Operator',
            name: 'ProfilerStep#8',
            pid: 9,
            tid: 9,
            ts: 0,
            dur: 100,
            args: { 'Call stack': step },
          },
          { ph: 'X', cat: 'Operator', name: 'aten::to', pid: 9, tid: 9, ts: 10, dur: 30, args: { 'Call stack': to } },
          // The same stack as its enclosing operator: nested directly, no frames repeated.
          {
            ph: 'X',
            cat: 'Operator',
            name: 'aten::copy_',
            pid: 9,
            tid: 9,
            ts: 12,
            dur: 20,
            args: { 'Call stack': to },
          },
          // A stack sharing the outer frames adds only the frames below them.
          {
            ph: 'X',
            cat: 'Operator',
            name: 'aten::empty',
            pid: 9,
            tid: 9,
            ts: 50,
            dur: 5,
            args: {
              'Call stack': 'torch/profiler.py(620): _record;torch/profiler.py(313): step;train.py(54): <module>',
            },
          },
        ],
      }),
    );
    const all = paths(p);
    const stepPath = '<module>/step/__enter__/ProfilerStep#8';
    assert.ok(all.includes(`${stepPath}/<module>/to_tensor/aten::to/aten::copy_`), all.join('\n'));
    const own = all.indexOf(`${stepPath}/<module>`);
    assert.deepEqual([p.tree.file(own), p.tree.line(own)], ['train.py', 44]);
    assert.ok(all.includes(`${stepPath}/_record/aten::empty`), all.join('\n'));
    assert.equal(incl(p, `${stepPath}/<module>/to_tensor/aten::to`), 30000);
    assert.equal(incl(p, stepPath), 100000, 'the enclosing operator keeps all its time');
  });

  it('damaged files are read or rejected cleanly, never crash or hang', async () => {
    const valid = Buffer.from(
      `{"traceEvents":[\n${[
        ev({ ph: 'M', name: 'thread_name', args: { name: 'main' } }),
        ev({ ph: 'B', name: 'a', ts: 0 }),
        ev({ ph: 'X', name: 'b', ts: 1, dur: 2, args: { 'Call stack': 'x.py(1): f' } }),
        ev({ ph: 'E', ts: 5 }),
        ev({ ph: 'C', name: 'c', ts: 1, args: { v: 1 } }),
        ev({ ph: 's', id: 1, ts: 1 }),
        ev({ ph: 'f', id: 1, ts: 3, bp: 'e', tid: 2 }),
        ev({ ph: 'X', name: 'r', ts: 3, dur: 1, tid: 2 }),
        ev({ ph: 'b', id: 1, name: 'q', cat: 'n', ts: 0 }),
        ev({ ph: 'e', id: 1, name: 'q', cat: 'n', ts: 4 }),
        ev({ ph: 'P', ts: 2, sf: 1 }),
      ].join(',\n')}\n],"stackFrames":{"1":{"name":"s"}}}`,
    );
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(valid, { seed: 7 }))
      counts[await readOrReject(write(bytes, 'mutant.json'), chromeTraceReader, name)]++;
    for (const [name, bytes] of mutationsOf(Buffer.from(`[${valid.toString().slice(16, valid.lastIndexOf(']'))}`), {
      seed: 8,
      flips: 60,
    })) {
      counts[await readOrReject(write(bytes, 'mutant2.json'), chromeTraceReader, name)]++;
    }
    assert.ok(counts.rejected > 50 && counts.read > 50, JSON.stringify(counts));
  });
});

/** Reads trace text fed to the tokenizer in random chunks of 1..`max` bytes (the reader's path, chunked finely). */
function readChunked(text: string, seed: number, max: number): Profile {
  const b = new ProfileBuilder('chrome-trace', 'chunked.json');
  const collector = new ChromeTraceCollector(b.tree.strings);
  const t = new JsonTokenizer(
    new TraceEventStream(collector, reason => {
      throw new Error(reason);
    }),
  );
  const bytes = Buffer.from(text);
  const r = seededRandom(seed);
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(r() * max);
    t.write(bytes.subarray(i, i + n));
    i += n;
  }
  t.end();
  Object.assign(b.metadata, collector.metadata);
  return buildChromeTrace(collector, b, b.warnings);
}

/** Everything a reader's result shows, as plain JSON (typed arrays as lists). */
function shape(p: Profile): string {
  const metrics = p.metrics.map((m, k) => ({
    name: m.name,
    inclusive: Array.from(p.inclusiveTotals(k)),
    exclusive: Array.from(p.exclusiveTotals(k)),
  }));
  return JSON.stringify({ paths: paths(p), metrics, trace: p.trace, metadata: p.metadata }, (_, v) =>
    ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v,
  );
}

describe('Chrome trace reader: members it does not read', () => {
  it('skips unread args and members (braces, quotes, escapes, nesting) in any chunking, reading what it uses', () => {
    const noise = {
      'External id': 7,
      grid: [50, 1, 1],
      note: '}{"]\\[',
      nested: { a: ['}', { b: '\u0041 "x" {' }], c: null, d: true, e: -1.5e-7 },
      'Sequence number': '😀 \ud83d',
    };
    const events = (extra: boolean) => {
      const x = (o: Record<string, unknown>) =>
        extra ? { ...o, tts: 3, cname: 'good', s: { deep: ['}'] }, args: { ...noise, ...(o['args'] as object) } } : o;
      return [
        x({
          ph: 'X',
          cat: 'Operator',
          name: 'aten::mm',
          pid: 1,
          tid: 1,
          ts: 1623142623460100,
          dur: 50,
          args: { 'Call stack': 'm.py(3): f;t.py(9): <module>' },
        }),
        x({
          ph: 'X',
          cat: 'Runtime',
          name: 'cudaLaunchKernel',
          pid: 1,
          tid: 1,
          ts: 1623142623460110,
          dur: 10,
          args: { correlation: 4 },
        }),
        x({
          ph: 'X',
          cat: 'Kernel',
          name: 'gemm',
          pid: 0,
          tid: 'stream 7',
          ts: 1623142623460130,
          dur: 15,
          args: { device: 0, stream: 7, correlation: 4 },
        }),
        x({
          ph: 'X',
          cat: 'Memcpy',
          name: 'Memcpy HtoD (Pageable -> Device)',
          pid: 0,
          tid: 'stream 7',
          ts: 1623142623460150,
          dur: 5,
          args: { device: 0, stream: 7, correlation: 5, bytes: 4096 },
        }),
        x({ ph: 's', cat: 'ac2g', id: 4, pid: 1, tid: 1, ts: 1623142623460110, name: 'launch' }),
        x({ ph: 'f', cat: 'ac2g', id: 4, pid: 0, tid: 'stream 7', ts: 1623142623460130, bp: 'e', name: 'launch' }),
        x({ ph: 'B', name: 'step', pid: 1, tid: 2, ts: 1623142623460100 }),
        x({ ph: 'E', pid: 1, tid: 2, ts: 1623142623460190 }),
        // Phases that read any args member: counters, metadata and allocator instants keep them all.
        { ph: 'C', name: 'mem', pid: 1, ts: 1623142623460120, args: { used: 5, free: '7' } },
        { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'python' } },
        {
          ph: 'i',
          name: '[memory]',
          pid: 1,
          tid: 1,
          ts: 1623142623460140,
          s: 't',
          args: { 'Device Type': 1, 'Device Id': 0, Bytes: 512, 'Total Allocated': 512, 'Total Reserved': 2048 },
        },
      ];
    };
    const clean = JSON.stringify({ schemaVersion: 1, traceEvents: events(false) });
    const noisy = JSON.stringify({ schemaVersion: 1, traceEvents: events(true), otherData: { a: '}' } });
    const expected = shape(readChunked(clean, 1, 1 << 20));
    const p = readChunked(noisy, 1, 1 << 20);
    assert.equal(incl(p, '<module>/f/aten::mm/cudaLaunchKernel/gemm'), 15000);
    assert.equal(p.trace!.counters.value.length, 2);
    assert.equal(p.trace!.memory!.bytes[0], 512);
    assert.equal(p.trace!.tracks.find(t => t.name === 'python')?.kind, 'thread');
    const withoutOtherData = (s: string) => s.replace(',"otherData":{"a":"}"}', '');
    assert.equal(withoutOtherData(shape(p)), expected);
    for (let seed = 2; seed < 40; seed++)
      assert.equal(withoutOtherData(shape(readChunked(noisy, seed, 1 + (seed % 13)))), expected, `seed ${seed}`);
  });
  it('reads args written before ph (DevTools key order) as it reads them after, in any chunking', () => {
    const events: Record<string, unknown>[] = [
      { ph: 'M', name: 'process_name', pid: 1, args: { name: 'python' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 1, args: { name: 'main' } },
      { ph: 'M', name: 'thread_sort_index', pid: 1, tid: 2, args: { sort_index: -3 } },
      { ph: 'X', cat: 'Operator', name: 'aten::mm', pid: 1, tid: 1, ts: 100, dur: 50 },
      {
        ph: 'X',
        cat: 'Operator',
        name: 'aten::add',
        pid: 1,
        tid: 1,
        ts: 160,
        dur: 20,
        args: { 'External id': 3, 'Call stack': 'm.py(3): f;t.py(9): <module>', data: { url: 'x' } },
      },
      { ph: 'X', cat: 'Runtime', name: 'cudaLaunchKernel', pid: 1, tid: 1, ts: 110, dur: 10, args: { correlation: 4 } },
      {
        ph: 'X',
        cat: 'Kernel',
        name: 'gemm',
        pid: 0,
        tid: 'stream 7',
        ts: 130,
        dur: 15,
        args: { queued: 0, device: 0, stream: 7, correlation: 4, grid: [50, 1, 1] },
      },
      { ph: 'X', cat: 'Kernel', name: 'k2', pid: 0, tid: 9, ts: 150, dur: 5, args: {} },
      { ph: 'X', cat: 'Memset', name: 'Memset', pid: 0, tid: 8, ts: 150, dur: 5, args: { data: { bytes: 1 } } },
      {
        ph: 'X',
        cat: 'Memcpy',
        name: 'Memcpy HtoD',
        pid: 0,
        tid: 'stream 7',
        ts: 160,
        dur: 5,
        args: { device: 0, stream: 7, correlation: 5, bytes: 4096 },
      },
      { ph: 'X', cat: 'devtools.timeline', name: 'Layout', pid: 2, tid: 3, ts: 100, dur: 9, args: 7 },
      { ph: 'B', name: 'step', pid: 1, tid: 2, ts: 100, args: ['correlation'] },
      { ph: 'E', pid: 1, tid: 2, ts: 190, args: { bytes: 5 } },
      { ph: 'b', cat: 'blink', id2: { local: '0x1' }, name: 'measure', pid: 2, tid: 3, ts: 101, args: { a: 1 } },
      { ph: 'e', cat: 'blink', id2: { local: '0x1' }, name: 'measure', pid: 2, tid: 3, ts: 108, args: {} },
      { ph: 's', cat: 'ac2g', id: 4, pid: 1, tid: 1, ts: 110, name: 'launch', args: { x: [1] } },
      { ph: 'f', cat: 'ac2g', id: 4, pid: 0, tid: 'stream 7', ts: 130, bp: 'e', name: 'launch', args: {} },
      { ph: 'C', name: 'mem', pid: 1, ts: 120, args: { used: 5, free: '7', nested: { a: 1 } } },
      { ph: 'C', name: 'arr', pid: 1, ts: 121, args: [3, 4] },
      { ph: 'C', name: 'none', pid: 1, ts: 122, args: {} },
      {
        ph: 'i',
        name: '[memory]',
        pid: 1,
        tid: 1,
        ts: 140,
        s: 't',
        args: { 'Device Type': 1, 'Device Id': 0, Bytes: 512, 'Total Allocated': 512, 'Total Reserved': 2048 },
      },
      { ph: 'I', name: 'UpdateCounters', pid: 2, tid: 3, ts: 104, s: 't', args: { data: { nodes: 14 } } },
      {
        ph: 'P',
        name: 'ProfileChunk',
        pid: 2,
        tid: 3,
        ts: 105,
        id: '0x2',
        args: { data: { cpuProfile: { samples: [3] } } },
      },
      { ph: 'Q', name: 'unknown phase', pid: 2, tid: 3, ts: 105, args: { a: 1 } },
      { name: 'no phase', pid: 2, tid: 3, ts: 105, args: { a: 1 } },
      { ph: 'X', name: 'on4', pid: 1, tid: 4, ts: 100, dur: 1 },
      { ph: 'X', name: 'on5', pid: 1, tid: 5, ts: 100, dur: 1 },
    ];
    const phFirst = (o: Record<string, unknown>) => JSON.stringify(o);
    const sorted = (o: Record<string, unknown>) =>
      JSON.stringify(
        Object.fromEntries(
          Object.keys(o)
            .sort()
            .map(k => [k, o[k]]),
        ),
      );
    const text = (f: (o: Record<string, unknown>) => string, extra: string[] = []) =>
      `{"traceEvents":[\n${[...events.map(f), ...extra].join(',\n  ')}]}`;
    // A duplicated args keeps its last value, wherever ph is.
    const duplicates = (argsFirst: boolean) => [
      argsFirst
        ? '{"args":{"name":"old"},"name":"thread_name","ph":"M","pid":1,"tid":4,"args":{"name":"new"}}'
        : '{"ph":"M","args":{"name":"old"},"name":"thread_name","pid":1,"tid":4,"args":{"name":"new"}}',
      argsFirst
        ? '{"args":{"correlation":9},"args" : {} ,"cat":"Runtime","dur":1,"name":"cudaMalloc","ph":"X","pid":1,"tid":1,"ts":170}'
        : '{"ph":"X","args":{"correlation":9},"args" : {} ,"cat":"Runtime","dur":1,"name":"cudaMalloc","pid":1,"tid":1,"ts":170}',
      argsFirst
        ? '{"args":{"name":"gone"},"name":"thread_name","ph":"M","pid":1,"tid":5,"args":null}'
        : '{"ph":"M","args":{"name":"gone"},"name":"thread_name","pid":1,"tid":5,"args":null}',
    ];
    const before = text(sorted, duplicates(true));
    assert.ok(before.includes('{"args":{"correlation":4},"cat":"Runtime"'), before);
    const expected = shape(readChunked(text(phFirst, duplicates(false)), 1, 1 << 20));
    const p = readChunked(before, 1, 1 << 20);
    assert.equal(shape(p), expected);
    assert.equal(incl(p, '<module>/f/aten::add'), 20000);
    assert.ok(paths(p).includes('aten::mm/cudaLaunchKernel/gemm'), paths(p).join(', '));
    assert.equal(p.trace!.counters.value.length, 4);
    assert.equal(p.trace!.memory!.bytes[0], 512);
    assert.equal(p.trace!.tracks.find(t => t.name === 'main')?.kind, 'thread');
    assert.ok(p.trace!.tracks.some(t => t.name === 'new'));
    assert.ok(!p.trace!.tracks.some(t => t.name === 'old' || t.name === 'gone'));
    for (let seed = 2; seed < 60; seed++)
      assert.equal(shape(readChunked(before, seed, 1 + (seed % 17))), expected, `seed ${seed}`);
  });
  it('numbers flows by category and id, and keeps their ids out of the string table', async () => {
    const flow = (ph: string, id: unknown, ts: number, cat = 'ac2g') =>
      ev({ ph, cat, id, ts, name: 'launch', ...(ph === 'f' ? { bp: 'e', tid: 2 } : {}) });
    const p = await read(
      `[${[
        ev({ ph: 'X', name: 'a', ts: 0, dur: 100 }),
        ev({ ph: 'X', name: 'b', ts: 0, dur: 100, tid: 2 }),
        flow('s', 5, 1),
        flow('f', '5', 2), // "5" and 5 are one flow
        flow('s', 6, 3),
        flow('s', 5, 4, 'other'), // another category: another flow
        flow('f', 5, 5, 'other'),
        flow('f', 6, 6),
      ].join(',')}]`,
    );
    const f = p.trace!.flows;
    assert.deepEqual(Array.from(f.fromTime), [1000, 3000, 4000]);
    assert.equal(new Set(f.id).size, 3);
    assert.deepEqual(Array.from(f.toTime), [2000, 6000, 5000]);
    assert.ok(!p.data.strings.some(s => /^(ac2g|other):/.test(s)), p.data.strings.join(', '));
  });
});

const KINETO = 'data/chrome-trace/pytorch-profiler-resnet50';
interface RawEvent {
  ph: string;
  tid?: unknown;
  sf?: unknown;
  weight?: unknown;
}
interface KinetoEvent {
  ph: string;
  cat?: string;
  name: string;
  dur: number;
  args: { bytes: number; stream: number };
}
describe('Chrome trace reader on shared data', () => {
  it(
    'PyTorch profiler (Kineto) ResNet-50: counts, bytes and GPU time per stream match a direct count',
    { skip: skipUnlessShared(KINETO) },
    async () => {
      const file = sharedPath(KINETO, sharedFiles(KINETO, '.json.gz')[0]!);
      const events = (JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { traceEvents: KinetoEvent[] })
        .traceEvents;
      const x = (cat: string) => events.filter(e => e['ph'] === 'X' && e['cat'] === cat);
      const p = await readProfile(file);
      const t = p.trace!;
      const count = (cat: string) => Array.from(t.events.category).filter(c => p.tree.strings.get(c) === cat).length;
      for (const cat of ['Kernel', 'Memcpy', 'Memset', 'Operator', 'Runtime'])
        assert.equal(count(cat), x(cat).length, cat);
      const r = inspectReport(p);
      const copies = x('Memcpy'),
        sets = x('Memset');
      const sum = (l: KinetoEvent[]) => l.reduce((s, e) => s + e.args.bytes, 0);
      assert.equal(r.dataMovement!.byKind['host-to-device']!.count, copies.filter(e => /HtoD/.test(e.name)).length);
      assert.equal(r.dataMovement!.byKind['host-to-device']!.bytes, sum(copies.filter(e => /HtoD/.test(e.name))));
      assert.equal(r.dataMovement!.byKind['memset']!.bytes, sum(sets));
      assert.equal(r.dataMovement!.bytes, sum(copies) + sum(sets));
      // GPU time per stream: Σ dur of GPU activities (µs → ns); the profile's time in that context.
      const gpu = events.filter(e => e['ph'] === 'X' && ['Kernel', 'Memcpy', 'Memset'].includes(e.cat ?? ''));
      const perStream = new Map<number, number>();
      for (const e of gpu)
        perStream.set(e['args']['stream'], (perStream.get(e['args']['stream']) ?? 0) + e['dur'] * 1000);
      const time = p.metricIndex('time');
      const inclusive = p.inclusive(time);
      for (const [stream, ns] of perStream) {
        const ti = t.tracks.findIndex(k => k.kind === 'gpu-stream' && k.gpuStream === stream);
        const ctx = t.tracks[ti]!.context;
        let total = 0;
        for (const root of p.tree.roots()) total += inclusive[root * p.contextCount + ctx]!;
        assert.equal(total, ns, `stream ${stream}`);
        let slices = 0;
        for (let k = t.trackEventStart[ti]!; k < t.trackEventStart[ti + 1]!; k++) slices += t.events.duration[k]!;
        assert.equal(slices, ns);
      }
      // Every kernel hangs under the runtime call that launched it, below the Python frames.
      const kernelNode =
        t.events.node[Array.from(t.events.category).findIndex(c => p.tree.strings.get(c) === 'Kernel')]!;
      const path = p.tree.path(kernelNode);
      assert.equal(path[0], '<module>');
      assert.match(path[path.length - 2]!, /^cuda/);
    },
  );

  for (const folder of ['data/chrome-trace/chrome-devtools-116', 'data/chrome-trace/speedscope-trace-event-samples']) {
    it(`reads ${folder}`, { skip: skipUnlessShared(folder) }, async () => {
      for (const f of sharedFiles(folder, '.json')) {
        const p = await readProfile(sharedPath(folder, f));
        const t = p.trace!;
        assert.ok(t.tracks.length >= 1 && t.events.track.length >= 4, f);
        assert.ok(p.tree.size >= 4, f);
        assert.ok(
          t.tracks.every(k => k.name && k.process),
          f,
        );
        // Timeline events by a direct count: slices (X, B, async b), instants, and samples with a frame.
        const json = JSON.parse(readFileSync(sharedPath(folder, f), 'utf8')) as
          { traceEvents?: RawEvent[]; samples?: RawEvent[] } | RawEvent[];
        const events = Array.isArray(json) ? json : (json.traceEvents ?? []);
        const samples = [
          ...events.filter(e => e.ph === 'P' && e.sf !== undefined),
          ...(Array.isArray(json) ? [] : (json.samples ?? [])),
        ];
        const n = (phs: string) =>
          events.filter(e => phs.split(',').includes(e.ph) && !(e.ph === 'n' && e.tid === undefined)).length;
        assert.equal(t.events.track.length, n('X,B,b,S') + n('i,I,R,n') + samples.length, f);
        const weight = samples.reduce((sum, e) => sum + Number(e.weight ?? 1), 0);
        assert.equal(weight ? p.total(p.metricIndex('samples')) : 0, weight, f);
        const ms = p.metrics.map((_, m) => p.total(m));
        assert.ok(ms.every(Number.isFinite) && ms.some(v => v > 0), f);
      }
    });
  }
});
