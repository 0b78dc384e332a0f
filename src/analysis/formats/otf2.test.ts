import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { expectReadError } from '../../../test/support/read-errors';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { FlowKind } from '../model/trace';
import { sampleFile } from './file-sample';
import { otf2Reader } from './otf2';
import { writeTestArchive, type TestArchive, type TestEvent } from './otf2/test-archive';

const root = mkdtempSync(join(tmpdir(), 'otf2-'));
let seq = 0;
const newDir = () => join(root, `a${seq++}`);

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join('/'));
function total(p: Profile, path: string, metric: string, side: 'inclusive' | 'exclusive' = 'inclusive'): number {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in ${paths(p).join(', ')}`);
  const m = p.metricIndex(metric);
  return (side === 'inclusive' ? p.inclusiveTotals(m) : p.exclusiveTotals(m))[i]!;
}

// Regions: 0 main, 1 work, 2 MPI_Send, 3 MPI_Recv, 4 MPI_Allreduce. Times below are ns; the timer
// ticks twice per ns, on top of an offset beyond 2^53 ticks (the tick arithmetic must stay exact).
const T = (ns: number) => 2 * ns;
const RANK0: TestEvent[] = [
  { t: T(0), enter: 0 },
  { t: T(10), enter: 1 },
  { t: T(20), enter: 2 },
  { t: T(25), send: { peer: 1, comm: 0, tag: 7, bytes: 1000 } },
  { t: T(30), leave: 2 },
  { t: T(40), leave: 1 },
  { t: T(50), enter: 3 },
  { t: T(80), recv: { peer: 1, comm: 0, tag: 8, bytes: 500 } },
  { t: T(90), leave: 3 },
  { t: T(100), enter: 4 },
  { t: T(110), collective: { comm: 0, sent: 64, received: 64 } },
  { t: T(120), leave: 4 },
  { t: T(125), metric: { id: 0, values: [123456789, 2.5, -5] } },
  { t: T(130), unknown: 70 },
  { t: T(200), leave: 0 },
];
// Rank 1 writes local region and communicator ids that its local definitions map to global ones.
const RANK1_REGIONS = [2, 3, 0, 1, 4]; // local → global
const RANK1: TestEvent[] = [
  { t: T(0), enter: 2 },
  { t: T(5), enter: 1 },
  { t: T(35), recv: { peer: 0, comm: 5, tag: 7, bytes: 1000 } },
  { t: T(40), leave: 1 },
  { t: T(45), enter: 0 },
  { t: T(50), irecvRequest: 9 },
  { t: T(55), send: { peer: 0, comm: 5, tag: 8, bytes: 500, request: 3 } },
  { t: T(60), leave: 0 },
  { t: T(100), enter: 4 },
  { t: T(110), collective: { comm: 5, sent: 64, received: 64 } },
  { t: T(120), leave: 4 },
  { t: T(150), leave: 2 },
];
const OFFSET = 123456789012345678n;
const spec = (over: Partial<TestArchive> = {}): TestArchive => ({
  resolution: 2e9,
  offset: OFFSET,
  regions: [
    { name: 'main', file: 'main.c', line: 10 },
    { name: 'work', file: 'main.c', line: 20 },
    { name: 'MPI_Send' },
    { name: 'MPI_Recv' },
    { name: 'MPI_Allreduce' },
  ],
  ranks: [{ events: RANK0 }, { events: RANK1, regionMap: RANK1_REGIONS, commMap: [9, 9, 9, 9, 9, 0] }],
  metrics: [
    { name: 'PAPI_TOT_CYC', unit: '#', type: 'uint64' },
    { name: 'power', unit: 'W', type: 'double' },
    { name: 'delta', unit: '', type: 'int64' },
  ],
  ...over,
});

/** Everything the fixture's reading must show, whatever its encoding (byte order, chunks, gzip). */
function checkFixture(p: Profile): void {
  assert.deepEqual(paths(p).sort(), [
    'main',
    'main/MPI_Allreduce',
    'main/MPI_Recv',
    'main/MPI_Send',
    'main/work',
    'main/work/MPI_Send',
  ]);
  assert.equal(total(p, 'main', 'time'), 350);
  assert.equal(total(p, 'main', 'time', 'exclusive'), 110 + 80);
  assert.equal(total(p, 'main/work', 'time'), 30);
  assert.equal(total(p, 'main/work/MPI_Send', 'time'), 10);
  assert.equal(total(p, 'main/MPI_Send', 'time'), 15);
  assert.equal(total(p, 'main/MPI_Recv', 'time'), 40 + 35);
  assert.equal(total(p, 'main/MPI_Allreduce', 'time'), 40);
  assert.equal(total(p, 'main/MPI_Recv', 'visits'), 2);
  assert.equal(total(p, 'main', 'bytes'), 1000 + 500 + 64 + 64);
  assert.equal(total(p, 'main/work/MPI_Send', 'bytes'), 1000);
  const main = paths(p).indexOf('main');
  assert.equal(p.tree.file(main), 'main.c');
  assert.equal(p.tree.line(main), 10);

  const t = p.trace!;
  assert.equal(t.originNs, ((OFFSET * 1_000_000_000n) / 2_000_000_000n).toString());
  assert.deepEqual(
    t.tracks.map(k => [k.process, k.name, k.rank, k.thread, k.kind]),
    [
      ['MPI Rank 0', 'Master thread', 0, 0, 'thread'],
      ['MPI Rank 1', 'Master thread', 1, 0, 'thread'],
    ],
  );
  assert.deepEqual(Array.from(t.trackEventStart), [0, 5, 9]);
  assert.deepEqual(Array.from(t.events.depth), [0, 1, 2, 1, 1, 0, 1, 1, 1]);
  assert.deepEqual(Array.from(t.events.start.subarray(0, 5)), [0, 10, 20, 50, 100]);
  assert.deepEqual(Array.from(t.events.duration.subarray(0, 5)), [200, 30, 10, 40, 20]);
  assert.deepEqual(t.timeRange, [0, 200]);

  // Two messages: rank 0 → 1 (tag 7, blocking) and rank 1 → 0 (tag 8, MPI_Isend), each from the send call's slice to the receive call's.
  assert.equal(t.flows.kind.length, 2);
  const flows = Array.from(t.flows.kind, (k, i) => ({
    k,
    from: [t.flows.fromTrack[i], t.flows.fromTime[i], p.tree.strings.get(t.events.name[t.flows.fromEvent[i]!]!)],
    to: [t.flows.toTrack[i], t.flows.toTime[i], p.tree.strings.get(t.events.name[t.flows.toEvent[i]!]!)],
  })).sort((x, y) => (x.from[1]! as number) - (y.from[1]! as number));
  assert.deepEqual(flows, [
    { k: FlowKind.Message, from: [0, 25, 'MPI_Send'], to: [1, 35, 'MPI_Recv'] },
    { k: FlowKind.Message, from: [1, 55, 'MPI_Send'], to: [0, 80, 'MPI_Recv'] },
  ]);

  assert.deepEqual(
    t.counters.series.map(s => [s.track, s.name, s.unit]),
    [
      [0, 'PAPI_TOT_CYC', '#'],
      [0, 'power', 'W'],
      [0, 'delta', ''],
    ],
  );
  assert.deepEqual(Array.from(t.counters.value), [123456789, 2.5, -5]);
  assert.deepEqual(Array.from(t.counters.time), [125, 125, 125]);
  assert.ok(
    p.warnings.some(w => /skipped: .*MpiIrecvRequest ×1.*type 70 ×1|type 70 ×1.*MpiIrecvRequest ×1/.test(w)),
    p.warnings.join('; '),
  );
  assert.equal(p.metadata['MPI messages'], 2);
  assert.equal(p.metadata['MPI collectives'], 2);
}

describe('OTF2 reader on written archives', () => {
  it('reads enter/leave, MPI messages with id mappings, collectives and metrics (little endian)', async () => {
    const anchor = writeTestArchive(newDir(), spec());
    checkFixture(await otf2Reader.read(anchor));
  });

  it('reads big-endian archives, event files spanning many chunks, and the archive directory', async () => {
    const dir = newDir();
    writeTestArchive(
      dir,
      spec({
        littleEndian: false,
        eventChunkSize: 1024,
        ranks: [{ events: [...RANK0.slice(0, -1), ...filler(200), RANK0.at(-1)!] }, spec().ranks[1]!],
      }),
    );
    assert.ok(readFileSync(join(dir, 'traces', '0.evt')).length > 3 * 1024);
    const p = await otf2Reader.read(dir);
    assert.equal(p.trace!.trackEventStart[1], 5 + 200);
    assert.equal(total(p, 'main/work', 'visits', 'exclusive'), 201);
  });

  it('applies clock offsets, interpolated between measurements', async () => {
    const anchor = writeTestArchive(newDir(), {
      resolution: 1e9,
      offset: 5000n,
      regions: [{ name: 'main' }, { name: 'step' }],
      ranks: [
        {
          events: [
            { t: 0, enter: 0 },
            { t: 1000, enter: 1 },
            { t: 1500, leave: 1 },
            { t: 3000, leave: 0 },
          ],
          clockOffsets: [
            [0, -10],
            [2000, 190],
          ],
        },
      ],
    });
    const t = (await otf2Reader.read(anchor)).trace!;
    // Offsets -10 at tick 0 and +190 at tick 2000: +90 at 1000, +140 at 1500, held at +190 after 2000.
    assert.deepEqual(Array.from(t.events.start), [-10, 1090]);
    assert.deepEqual(Array.from(t.events.duration), [3200, 550]);
  });

  it('reads gzip-compressed archive files transparently', async () => {
    const dir = newDir();
    const anchor = writeTestArchive(dir, spec());
    for (const f of ['traces.otf2', 'traces.def', 'traces/0.evt', 'traces/1.evt', 'traces/1.def'])
      writeFileSync(join(dir, f), gzipSync(readFileSync(join(dir, f))));
    checkFixture(await otf2Reader.read(anchor));
  });

  it('sniffs the anchor file and the archive directory by content', async () => {
    const dir = newDir();
    const anchor = writeTestArchive(dir, spec());
    assert.ok(otf2Reader.sniff(await sampleFile(anchor)) >= 0.9);
    assert.ok(otf2Reader.sniff(await sampleFile(dir)) >= 0.9);
    assert.equal(otf2Reader.sniff(await sampleFile(join(dir, 'traces.def'))), 0);
    assert.equal(otf2Reader.sniff(await sampleFile(join(dir, 'traces'))), 0);
    writeFileSync(join(dir, 'fake.otf2'), 'OTF2 is not this');
    assert.equal(otf2Reader.sniff(await sampleFile(join(dir, 'fake.otf2'))), 0);
  });

  it('rejects a wrong magic, an unsupported version, zlib chunks, SION, a truncated chunk and missing files with the file and reason', async () => {
    let dir = newDir();
    let anchor = writeTestArchive(dir, spec());
    const bytes = readFileSync(anchor);
    const bad = Buffer.from(bytes);
    bad.write('OTF3', 2);
    writeFileSync(anchor, bad);
    await expectReadError(otf2Reader.read(anchor), anchor, /not an OTF2 anchor file \(wrong magic/);

    anchor = writeTestArchive(newDir(), spec({ version: [9, 1, 0] }));
    await expectReadError(otf2Reader.read(anchor), anchor, /unsupported OTF2 version 9\.1\.0/);
    anchor = writeTestArchive(newDir(), spec({ compression: 2 }));
    await expectReadError(otf2Reader.read(anchor), anchor, /zlib-compressed/);
    anchor = writeTestArchive(newDir(), spec({ substrate: 2 }));
    await expectReadError(otf2Reader.read(anchor), anchor, /SIONlib/);

    dir = newDir();
    anchor = writeTestArchive(dir, spec());
    const evt = join(dir, 'traces', '1.evt');
    writeFileSync(evt, readFileSync(evt).subarray(0, 40));
    await expectReadError(otf2Reader.read(anchor), anchor, /traces\/1\.evt: .*(truncated|without an end-of-chunk)/);
    writeFileSync(evt, Buffer.alloc(0));
    await expectReadError(otf2Reader.read(dir), dir, /traces\/1\.evt: the file is empty/);

    rmSync(join(dir, 'traces.def'));
    await expectReadError(otf2Reader.read(anchor), anchor, /traces\.def: the file is missing/);
    await expectReadError(otf2Reader.read(join(dir, 'traces')), join(dir, 'traces'), /no OTF2 archive/);
  });

  it('stops when aborted', async () => {
    const anchor = writeTestArchive(newDir(), spec());
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(otf2Reader.read(anchor, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
  });

  it('survives damaged anchor, definition and event files: a profile or a clear error, never a crash or hang', async () => {
    const dir = newDir();
    const anchor = writeTestArchive(dir, spec());
    const counts = { read: 0, rejected: 0 };
    for (const file of ['traces.otf2', 'traces.def', 'traces/0.evt', 'traces/1.def']) {
      const path = join(dir, file);
      const valid = readFileSync(path);
      for (const [name, bytes] of mutationsOf(valid, { seed: 11, truncations: 40, flips: 80 })) {
        writeFileSync(path, bytes);
        counts[await readOrReject(anchor, otf2Reader, `${file}: ${name}`)]++;
      }
      writeFileSync(path, valid);
    }
    assert.ok(counts.rejected > 100 && counts.read > 20, JSON.stringify(counts));
  });
});

/** Nested work regions (enter/leave pairs) to fill event chunks. */
function filler(n: number): TestEvent[] {
  const out: TestEvent[] = [];
  for (let i = 0; i < n; i++) out.push({ t: T(130) + i, enter: 1 }, { t: T(130) + i + 1, leave: 1 });
  return out;
}

/**
 * An independent walk over an OTF2 event file for the shared-data checks: counts record types and
 * sums MpiSend lengths, following the documented layout with none of the reader's code.
 */
function scanEvents(file: string): {
  types: Map<number, number>;
  sendBytes: number;
  firstEnter: bigint;
  lastLeave: bigint;
} {
  const b = readFileSync(file);
  assert.equal(b[1], 0x42, 'little-endian file');
  const types = new Map<number, number>();
  let sendBytes = 0,
    now = 0n,
    firstEnter = -1n,
    lastLeave = -1n;
  let p = 18;
  for (;;) {
    const type = b[p++]!;
    if (type === 2) break;
    types.set(type, (types.get(type) ?? 0) + 1);
    if (type === 5) {
      now = b.readBigUInt64LE(p);
      p += 8;
      continue;
    }
    if (type === 12 || type === 13) {
      if (type === 12 && firstEnter < 0n) firstEnter = now;
      if (type === 13) lastLeave = now;
      p += 1 + b[p]!;
      continue;
    }
    const len = b[p++]!;
    if (type === 14) {
      let q = p;
      for (let k = 0; k < 3; k++) q += 1 + b[q]!; // receiver, communicator, tag
      const n = b[q]!;
      let v = 0;
      for (let k = 0; k < n; k++) v += b[q + 1 + k]! * 256 ** k;
      sendBytes += v;
    }
    p += len;
  }
  return { types, sendBytes, firstEnter, lastLeave };
}

const PING_PONG = 'data/scorep-otf2/ping-pong-2ranks';
describe('OTF2 reader on shared data', () => {
  it(
    'Score-P ping-pong (2 ranks): slices, messages and bytes match a direct scan of the event files',
    { skip: skipUnlessShared(PING_PONG) },
    async () => {
      const dir = sharedPath(PING_PONG);
      const p = await otf2Reader.read(dir);
      const t = p.trace!;
      const evts = readdirSync(join(dir, 'traces'))
        .filter(f => f.endsWith('.evt'))
        .sort();
      assert.equal(t.tracks.length, evts.length);
      let sends = 0,
        recvs = 0,
        bytes = 0;
      const res = Number(p.metadata['timer resolution (ticks/s)']);
      for (const [i, f] of evts.entries()) {
        const s = scanEvents(join(dir, 'traces', f));
        const enters = s.types.get(12) ?? 0;
        assert.equal(enters, s.types.get(13), `${f}: balanced enter/leave`);
        assert.equal(t.trackEventStart[i + 1]! - t.trackEventStart[i]!, enters, `${f}: one slice per Enter`);
        sends += s.types.get(14) ?? 0;
        recvs += s.types.get(18) ?? 0;
        bytes += s.sendBytes;
        // The outermost slice (main) spans the location's first Enter to its last Leave.
        const row = t.trackEventStart[i]!;
        // Rank 1's clock offsets (-30 and -19 ticks) change its span by about 5 ns.
        assert.ok(
          Math.abs(t.events.duration[row]! - (Number(s.lastLeave - s.firstEnter) * 1e9) / res) <= 10,
          `${f}: main's duration`,
        );
      }
      // Hand-checked in the hexdump: 21 Enter/Leave, 8 MpiSend and 8 MpiRecv per rank, 16 KiB … 2 MiB messages.
      assert.deepEqual([sends, recvs, bytes], [16, 16, 2 * 16384 * 255]);
      assert.equal(t.flows.kind.length, sends);
      assert.equal(total(p, 'int main(int, char**)', 'bytes'), bytes);
      assert.equal(total(p, 'int main(int, char**)/MPI_Send', 'visits'), sends);
      assert.equal(p.warnings.filter(w => /partner|without|open/.test(w)).length, 0, p.warnings.join('; '));
      const report = inspectReport(p);
      assert.equal(report.events, 42);
      assert.deepEqual(
        report.tracks!.map(k => k.name),
        ['MPI Rank 0 · Master thread', 'MPI Rank 1 · Master thread'],
      );
    },
  );
});
