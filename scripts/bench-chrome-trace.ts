// Read throughput of the streamed Chrome-trace reader vs JSON.parse on the same bytes.
// Usage: node --import tsx scripts/bench-chrome-trace.ts [events=1000000]
import { openSync, readFileSync, rmSync, writeSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeTraceReader } from '../src/analysis/formats/chrome-trace';

/** A Kineto-like trace: nested CPU operators with Python call stacks, runtime launches, GPU kernels and copies. */
export function writeSyntheticTrace(path: string, events: number): void {
  const fd = openSync(path, 'w');
  let buf = '{"schemaVersion":1,"traceEvents":[\n';
  let ts = 1623142623460111;
  let n = 0;
  for (let i = 0; n < events; i++) {
    const cs = `model.py(${10 + (i % 50)}): forward;train.py(${40 + (i % 7)}): <module>`;
    buf += `{"ph":"X","cat":"Operator","name":"aten::op${i % 97}","pid":1,"tid":"1","ts":${ts},"dur":40,"args":{"External id":${i},"Call stack":"${cs}"}},\n`;
    buf += `{"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":"1","ts":${ts + 5},"dur":10,"args":{"correlation":${i},"external id":${i}}},\n`;
    const copy = i % 10 === 0;
    buf += copy
      ? `{"ph":"X","cat":"Memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":"stream 7","ts":${ts + 20},"dur":15,"args":{"device":0,"stream":7,"correlation":${i},"bytes":${4096 + i},"memory bandwidth (GB/s)":3.5}},\n`
      : `{"ph":"X","cat":"Kernel","name":"kernel_${i % 31}","pid":0,"tid":"stream 7","ts":${ts + 20},"dur":15,"args":{"queued":0,"device":0,"stream":7,"correlation":${i},"grid":[50,1,1],"block":[256,1,1]}},\n`;
    buf += `{"ph":"s","id":${i},"pid":1,"tid":1,"ts":${ts + 5},"cat":"ac2g","name":"launch"},\n{"ph":"f","id":${i},"pid":0,"tid":"stream 7","ts":${ts + 20},"cat":"ac2g","name":"launch","bp":"e"},\n`;
    n += 5;
    ts += 50;
    if (buf.length > 1 << 20) { writeSync(fd, buf); buf = ''; }
  }
  buf += `{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}\n]}\n`;
  writeSync(fd, buf);
  closeSync(fd);
}

async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 1e6);
  const path = join(tmpdir(), `bench-trace-${process.pid}.json`);
  writeSyntheticTrace(path, events);
  const mb = statSync(path).size / 1e6;
  try {
    let t0 = performance.now();
    const text = readFileSync(path, 'utf8');
    const parsed = JSON.parse(text) as { traceEvents: unknown[] };
    const parseMs = performance.now() - t0;
    console.log(`JSON.parse: ${parsed.traceEvents.length} events, ${mb.toFixed(0)} MB in ${parseMs.toFixed(0)} ms = ${(mb / parseMs * 1000).toFixed(0)} MB/s`);
    t0 = performance.now();
    const p = await chromeTraceReader.read(path);
    const readMs = performance.now() - t0;
    console.log(`chrome-trace reader: ${p.trace!.events.track.length} events, ${p.tree.size} nodes in ${readMs.toFixed(0)} ms = ${(mb / readMs * 1000).toFixed(0)} MB/s (${(parseMs / readMs).toFixed(2)}× JSON.parse)`);
    console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    rmSync(path, { force: true });
  }
}

if (require.main === module) void main();
