import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TraceEventKind } from '../../model/trace';
import { chromeTraceReader } from '../chrome-trace';

const dir = mkdtempSync(join(tmpdir(), 'chrome-be-'));
let seq = 0;
async function read(events: Record<string, unknown>[]) {
  const path = join(dir, `t${seq++}.json`);
  writeFileSync(path, JSON.stringify({ traceEvents: events.map(e => ({ pid: 1, tid: 1, ...e })) }));
  return chromeTraceReader.read(path);
}
/** The slices of the trace as [name, start µs, duration µs], in time order. */
function sliceList(p: Awaited<ReturnType<typeof read>>): [string, number, number][] {
  const t = p.trace!;
  const out: [string, number, number][] = [];
  for (let e = 0; e < t.events.track.length; e++)
    if (t.events.kind[e] === TraceEventKind.Slice)
      out.push([p.tree.name(t.events.node[e]!), t.events.start[e]! / 1000, t.events.duration[e]! / 1000]);
  return out.sort((a, b) => a[1] - b[1]);
}
const slices = (p: Awaited<ReturnType<typeof read>>) => new Map(sliceList(p).map(([n, s, d]) => [n, [s, d]]));

describe('Chrome trace B/E pairing', () => {
  it('an end closes the innermost open begin of its name, else the innermost open begin', async () => {
    const p = await read([
      { ph: 'B', name: 'a', ts: 0 },
      { ph: 'B', name: 'b', ts: 1 },
      { ph: 'B', name: 'c', ts: 2 },
      { ph: 'E', name: 'b', ts: 3 }, // closes b across c (overlap)
      { ph: 'E', name: 'zzz', ts: 4 }, // names no open begin: closes the innermost open one, c
      { ph: 'E', ts: 6 }, // names nothing: closes a
      { ph: 'E', ts: 7 }, // nothing open: ignored
    ]);
    const s = slices(p);
    assert.deepEqual(s.get('b'), [1, 2]);
    assert.deepEqual(s.get('c'), [2, 2]);
    assert.deepEqual(s.get('a'), [0, 6]);
    assert.ok(p.warnings.some(w => /^1 begin\/end pair overlap/.test(w)));
    assert.ok(p.warnings.some(w => /^1 end event .* ignored/.test(w)));
  });

  it('pairs 40,000 nested begins with ends that name other events, innermost first', async () => {
    const n = 40_000;
    const events: Record<string, unknown>[] = [];
    for (let i = 0; i < n; i++) events.push({ ph: 'B', name: `f${i}`, ts: i });
    for (let i = n - 1; i >= 0; i--) events.push({ ph: 'E', name: `other${i}`, ts: 2 * n - i });
    const p = await read(events);
    const s = slices(p);
    assert.equal(s.size, n);
    for (const i of [0, 1, 12_345, n - 1]) assert.deepEqual(s.get(`f${i}`), [i, 2 * n - 2 * i], `f${i}`);
    assert.equal(p.tree.size, n);
    assert.deepEqual(p.warnings, []);
  });

  it('closes a begin that was skipped by a named end later, and each begin once', async () => {
    const p = await read([
      { ph: 'B', name: 'x', ts: 0 },
      { ph: 'B', name: 'y', ts: 1 },
      { ph: 'B', name: 'x', ts: 2 },
      { ph: 'E', name: 'y', ts: 3 }, // closes y under the inner x
      { ph: 'E', name: 'x', ts: 4 }, // inner x
      { ph: 'E', name: 'x', ts: 5 }, // outer x
      { ph: 'B', name: 'open', ts: 6 },
      { ph: 'i', name: 'end', ts: 9, s: 't' },
    ]);
    assert.deepEqual(sliceList(p), [
      ['x', 0, 5],
      ['y', 1, 2],
      ['x', 2, 2],
      ['open', 6, 3],
    ]);
    assert.ok(p.warnings.some(w => /^1 begin event .* closed at the last timestamp/.test(w)));
  });
});
