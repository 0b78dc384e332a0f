import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { mutationsOf } from '../../../../test/support/mutations';
import { sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { inspectReport } from '../../stats/inspect-report';
import type { Profile } from '../../model/profile';
import { TraceEventKind } from '../../model/trace';
import { hpctoolkitMetaDbReader } from '../hpctoolkit-metadb';
import { ProfileReadError } from '../reader';
import { contextOfIdTuple } from './execution-contexts';
import { parseMetaDb } from './meta-db';
import { parseProfileDb } from './profile-db';
import { encodeDatabase, writeDatabase, type FixtureDatabase, type FixtureTrace } from './test-db-writer';

/**
 * An independent decoder of trace.db, straight from FORMATS.md: per trace line its profile index
 * and its (timestamp, ctxId) elements as BigInt / number.
 */
function decodeTraceDb(bytes: Buffer): {
  lines: { profIndex: number; elements: [bigint, number][] }[];
  min: bigint;
  max: bigint;
} {
  const section = Number(bytes.readBigUInt64LE(0x18));
  const pTraces = Number(bytes.readBigUInt64LE(section));
  const nTraces = bytes.readUInt32LE(section + 8);
  const szTrace = bytes[section + 12]!;
  const lines = [];
  for (let i = 0; i < nTraces; i++) {
    const at = pTraces + i * szTrace;
    const elements: [bigint, number][] = [];
    for (let e = Number(bytes.readBigUInt64LE(at + 8)); e < Number(bytes.readBigUInt64LE(at + 16)); e += 12) {
      elements.push([bytes.readBigUInt64LE(e), bytes.readUInt32LE(e + 8)]);
    }
    lines.push({ profIndex: bytes.readUInt32LE(at), elements });
  }
  return { lines, min: bytes.readBigUInt64LE(section + 16), max: bytes.readBigUInt64LE(section + 24) };
}

/**
 * What every trace from trace.db must satisfy: rows sorted by (track, start, depth), every node a
 * tree node, and at every sample the open slices are exactly the sample's call path (root first).
 * Returns the samples per track.
 */
function checkTimeline(p: Profile): number[] {
  const trace = p.trace!;
  const { track, start, duration, node, depth, kind } = trace.events;
  const samples: number[] = [];
  for (let t = 0; t < trace.tracks.length; t++) {
    const open: { node: number; end: number }[] = [];
    let count = 0;
    for (let k = trace.trackEventStart[t]!; k < trace.trackEventStart[t + 1]!; k++) {
      assert.equal(track[k], t);
      assert.ok(node[k]! >= 0 && node[k]! < p.tree.size, `event ${k}: node ${node[k]} is a tree node`);
      if (k > trace.trackEventStart[t]!) assert.ok(start[k]! >= start[k - 1]!, `event ${k} in time order`);
      if (kind[k] === TraceEventKind.Slice) {
        while (open.length > depth[k]!) open.pop();
        assert.equal(open.length, depth[k], `slice ${k} is one deeper than its parent`);
        assert.equal(
          p.tree.parent(node[k]!),
          open.length ? open.at(-1)!.node : -1,
          `slice ${k} is a child of the enclosing slice's node`,
        );
        assert.ok(duration[k]! >= 0);
        open.push({ node: node[k]!, end: start[k]! + duration[k]! });
        continue;
      }
      assert.equal(kind[k], TraceEventKind.Sample);
      count++;
      const path: number[] = [];
      for (let n = node[k]!; n >= 0; n = p.tree.parent(n)) path.unshift(n);
      assert.equal(depth[k], path.length - 1);
      assert.deepEqual(
        open.slice(0, path.length).map(o => o.node),
        path,
        `sample ${k} lies in the slices of its call path`,
      );
      for (const o of open.slice(0, path.length)) assert.ok(o.end >= start[k]!);
    }
    samples.push(count);
  }
  return samples;
}

const T0 = 1_700_000_000_123_456_789n;

/** main → loop → line 13 → sweep → line 5 / line 6; main → line 20 → fib; an application thread. */
const FIXTURE: FixtureDatabase = {
  modules: ['/opt/app/bin/stencil'],
  files: ['/home/u/main.c', '/home/u/sweep.c'],
  functions: [
    { name: 'main', module: 0, file: 0, line: 10 },
    { name: 'sweep', module: 0, file: 1, line: 3 },
    { name: 'fib', module: 0, file: 1, line: 40 },
  ],
  entries: [
    {
      id: 1,
      kind: 1,
      children: [
        {
          id: 2,
          type: 'function',
          function: 0,
          self: { 0: 1 },
          children: [
            {
              id: 3,
              type: 'loop',
              file: 0,
              line: 12,
              children: [
                {
                  id: 4,
                  type: 'line',
                  file: 0,
                  line: 13,
                  children: [
                    {
                      id: 5,
                      type: 'function',
                      function: 1,
                      children: [
                        { id: 6, type: 'line', file: 1, line: 5, self: { 0: 3, 1: 2 } },
                        {
                          id: 7,
                          type: 'line',
                          file: 1,
                          line: 6,
                          self: { 0: 1 },
                          children: [{ id: 11, type: 'line', file: 1, line: 7, hidden: true, self: { 0: 1 } }],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
            {
              id: 8,
              type: 'line',
              file: 0,
              line: 20,
              children: [{ id: 9, type: 'function', function: 2, self: { 0: 2, 1: 1 } }],
            },
          ],
        },
      ],
    },
    { id: 20, kind: 2, children: [{ id: 21, type: 'function', function: 2, self: { 2: 1 } }] },
  ],
  profiles: [
    [
      ['RANK', 1],
      ['THREAD', 0],
    ],
    [
      ['RANK', 0],
      ['THREAD', 0],
    ],
    [
      ['RANK', 0],
      ['THREAD', 1],
    ],
  ],
};

const ns = (offset: number) => T0 + BigInt(offset);
const TRACES: FixtureTrace[] = [
  // Rank 1: starts not running, stays in sweep, then fib, then a context meta.db leaves out.
  {
    profile: 0,
    samples: [
      [ns(0), 0],
      [ns(100), 6],
      [ns(200), 7],
      [ns(300), 6],
      [ns(400), 9],
      [ns(500), 11],
      [ns(600), 9],
    ],
  },
  // Rank 0 thread 0: the same leaf twice, a gap, the same leaf again.
  {
    profile: 1,
    samples: [
      [ns(50), 6],
      [ns(150), 6],
      [ns(250), 0],
      [ns(350), 6],
      [ns(1001), 2],
    ],
  },
  // Rank 0 thread 1 has no samples.
  { profile: 2, samples: [] },
];

describe('HPCToolkit v4 database reader: trace.db', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-tracedb-'));
  let counter = 0;
  const database = (traces: FixtureTrace[] | null = TRACES, options: { gzip?: boolean } = {}) => {
    const dir = join(tmp, `db${counter++}`);
    writeDatabase(dir, { ...FIXTURE, ...(traces ? { traces } : {}) }, options);
    return dir;
  };
  const nodeNamed = (p: Profile, ...path: string[]) => {
    for (let i = 0; i < p.tree.size; i++) if (JSON.stringify(p.tree.path(i)) === JSON.stringify(path)) return i;
    return assert.fail(`no node ${path.join(' / ')}`);
  };

  it('gives one track per traced profile, samples of context nodes and slices of their call paths', async () => {
    const p = await hpctoolkitMetaDbReader.read(database());
    const trace = p.trace!;
    assert.ok(trace);
    assert.equal(trace.originNs, T0.toString());
    assert.deepEqual(
      trace.tracks.map(t => [t.process, t.name, t.kind, t.rank, t.thread, p.contexts[t.context]!.label]),
      [
        ['rank 0', 'thread 0', 'thread', 0, 0, 'rank 0 · thread 0'],
        ['rank 1', 'thread 0', 'thread', 1, 0, 'rank 1 · thread 0'],
      ],
    );
    assert.deepEqual(checkTimeline(p), [4, 5]);
    assert.equal(p.metadata['hpctoolkit.traceSamples'], 9);
    // The trace ends at its last timestamp; the last sample holds until then.
    assert.deepEqual(trace.timeRange, [50, 1001]);
    assert.ok(
      p.warnings.some(w => /1 trace samples name contexts meta\.db does not list/.test(w)),
      p.warnings.join('\n'),
    );

    const slices = (t: number, n: number) => {
      const out: [number, number][] = [];
      const { node, kind, start, duration } = trace.events;
      for (let k = trace.trackEventStart[t]!; k < trace.trackEventStart[t + 1]!; k++) {
        if (kind[k] === TraceEventKind.Slice && node[k] === n) out.push([start[k]!, start[k]! + duration[k]!]);
      }
      return out;
    };
    const main = nodeNamed(p, 'main thread', 'main');
    const sweep = nodeNamed(p, 'main thread', 'main', 'Loop@main.c:12', 'main.c:13', 'sweep');
    const line5 = nodeNamed(p, 'main thread', 'main', 'Loop@main.c:12', 'main.c:13', 'sweep', 'sweep.c:5');
    const fib = nodeNamed(p, 'main thread', 'main', 'main.c:20', 'fib');
    // Rank 0 thread 0: line 5 holds over two samples, the gap ends it; main holds to the end.
    assert.deepEqual(slices(0, line5), [
      [50, 250],
      [350, 1001],
    ]);
    assert.deepEqual(slices(0, main), [
      [50, 250],
      [350, 1001],
    ]);
    // Rank 1: sweep spans lines 5, 6, 5; fib ends at the unknown context and starts again after it.
    assert.deepEqual(slices(1, sweep), [[100, 400]]);
    assert.deepEqual(slices(1, fib), [
      [400, 500],
      [600, 1001],
    ]);
    assert.deepEqual(slices(1, main), [
      [100, 500],
      [600, 1001],
    ]);

    const report = JSON.parse(JSON.stringify(inspectReport(p))) as ReturnType<typeof inspectReport>;
    assert.deepEqual(report.tracks, [
      { name: 'rank 0 · thread 0', kind: 'thread', events: trace.trackEventStart[1] },
      { name: 'rank 1 · thread 0', kind: 'thread', events: trace.trackEventStart[2]! - trace.trackEventStart[1]! },
    ]);
    assert.deepEqual(report.timeRange, [50, 1001]);
  });

  it('reads a gzip-compressed trace.db, and a database without trace.db has no trace', async () => {
    const plain = await hpctoolkitMetaDbReader.read(database());
    const gz = await hpctoolkitMetaDbReader.read(database(TRACES, { gzip: true }));
    assert.deepEqual([...gz.trace!.events.start], [...plain.trace!.events.start]);
    assert.deepEqual([...gz.trace!.events.node], [...plain.trace!.events.node]);
    const none = await hpctoolkitMetaDbReader.read(database(null));
    assert.equal(none.trace, undefined);
    assert.equal(none.metadata['hpctoolkit.traceSamples'], undefined);
  });

  it('attaches no trace when every line is empty (hpcprof without tracing)', async () => {
    const p = await hpctoolkitMetaDbReader.read(
      database([
        { profile: 0, samples: [] },
        { profile: 1, samples: [] },
      ]),
    );
    assert.equal(p.trace, undefined);
    assert.equal(p.metadata['hpctoolkit.traceSamples'], 0);
    assert.deepEqual(p.warnings, []);
  });

  it('sorts an unsorted line, with a warning', async () => {
    const p = await hpctoolkitMetaDbReader.read(
      database([
        {
          profile: 1,
          samples: [
            [ns(300), 9],
            [ns(100), 6],
            [ns(200), 7],
          ],
        },
      ]),
    );
    assert.deepEqual(checkTimeline(p), [3]);
    const { kind, start, node } = p.trace!.events;
    const samples = [...kind.keys()].filter(k => kind[k] === TraceEventKind.Sample);
    assert.deepEqual(
      samples.map(k => start[k]),
      [0, 100, 200],
    );
    assert.deepEqual(
      samples.map(k => p.tree.name(node[k]!)),
      ['sweep.c:5', 'sweep.c:6', 'fib'],
    );
    assert.ok(
      p.warnings.some(w => /trace\.db: 1 trace line is not sorted by time; it was sorted/.test(w)),
      p.warnings.join('\n'),
    );
  });

  it('reports progress and can be cancelled while building the timeline', async () => {
    const dir = database();
    const seen: number[] = [];
    await hpctoolkitMetaDbReader.read(dir, { onProgress: f => seen.push(f) });
    assert.ok(
      seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]!)),
      `monotone in [0, 1]: ${seen.join(', ')}`,
    );
    const ac = new AbortController();
    await assert.rejects(
      hpctoolkitMetaDbReader.read(dir, {
        signal: ac.signal,
        onProgress: (_, what) => {
          if (what === 'Building the timeline') ac.abort();
        },
      }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('names trace.db and the reason for bad input', async () => {
    const good = encodeDatabase({ ...FIXTURE, traces: TRACES });
    const trace = good.trace!;
    const section = Number(trace.readBigUInt64LE(0x18));
    const header = (i: number) => Number(trace.readBigUInt64LE(section)) + 24 * i;
    const cases: [string, (b: Buffer) => Buffer, RegExp][] = [
      ['truncated', b => b.subarray(0, 100), /truncated or damaged: it does not end with the footer "trace\.db"/],
      [
        'wrong file type',
        b => {
          b.write('ctxt', 10, 'ascii');
          return b;
        },
        /header says "ctxt", expected "trce"/,
      ],
      [
        'headers past the section',
        b => {
          b.writeUInt32LE(1000, section + 8);
          return b;
        },
        /the trace headers .* lies outside the Context Trace Headers section/,
      ],
      [
        'start pointer out of range',
        b => {
          b.writeBigUInt64LE(10n ** 6n, header(0) + 8);
          b.writeBigUInt64LE(10n ** 6n + 12n, header(0) + 16);
          return b;
        },
        /the elements of trace line 0 .* lies outside the file/,
      ],
      [
        'end before start',
        b => {
          b.writeBigUInt64LE(b.readBigUInt64LE(header(0) + 8) - 12n, header(0) + 16);
          return b;
        },
        /trace line 0: its elements run from offset \d+ to \d+, which is not a whole number/,
      ],
      [
        'partial element',
        b => {
          b.writeBigUInt64LE(b.readBigUInt64LE(header(0) + 16) - 1n, header(0) + 16);
          return b;
        },
        /not a whole number of 12-byte elements/,
      ],
      [
        'unknown profile',
        b => {
          b.writeUInt32LE(9, header(1));
          return b;
        },
        /trace line 1 belongs to profile 9, but profile\.db has 4 profiles/,
      ],
      [
        'summary profile',
        b => {
          b.writeUInt32LE(0, header(1));
          return b;
        },
        /trace line 1 belongs to profile 0, a summary profile/,
      ],
      [
        'corrupt timestamp',
        b => {
          b.writeBigUInt64LE(2n ** 63n, Number(b.readBigUInt64LE(header(0) + 8)) + 12);
          return b;
        },
        /the timestamps span .* more than 104 days/,
      ],
    ];
    for (const [name, mutate, reason] of cases) {
      const dir = join(tmp, `bad${counter++}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'meta.db'), good.meta);
      writeFileSync(join(dir, 'profile.db'), good.profile);
      writeFileSync(join(dir, 'trace.db'), mutate(Buffer.from(trace)));
      await assert.rejects(hpctoolkitMetaDbReader.read(dir), (e: Error) => {
        assert.ok(e instanceof ProfileReadError, `${name}: ${e.stack}`);
        assert.ok(e.message.startsWith(join(dir, 'trace.db')), `${name}: the message names trace.db: ${e.message}`);
        assert.match(e.message, reason, name);
        return true;
      });
    }
    // A header time range that disagrees with the samples is only a warning.
    const dir = join(tmp, `odd${counter++}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'meta.db'), good.meta);
    writeFileSync(join(dir, 'profile.db'), good.profile);
    const odd = Buffer.from(trace);
    odd.writeBigUInt64LE(0n, section + 16);
    writeFileSync(join(dir, 'trace.db'), odd);
    const p = await hpctoolkitMetaDbReader.read(dir);
    assert.ok(
      p.warnings.some(w => /header's time range 0–\d+ ns differs from the samples'/.test(w)),
      p.warnings.join('\n'),
    );
  });

  it('survives truncation and corruption of trace.db: every mutation ends in a ProfileReadError or a consistent trace', async () => {
    const good = encodeDatabase({ ...FIXTURE, traces: TRACES });
    const dir = join(tmp, 'mutant');
    mkdirSync(dir);
    writeFileSync(join(dir, 'meta.db'), good.meta);
    writeFileSync(join(dir, 'profile.db'), good.profile);
    let read = 0,
      rejected = 0,
      slowest = 0;
    for (const [what, bytes] of mutationsOf(good.trace!, { seed: 4, truncations: 60, flips: 400 })) {
      writeFileSync(join(dir, 'trace.db'), bytes);
      const t = performance.now();
      try {
        const p = await hpctoolkitMetaDbReader.read(dir);
        if (p.trace) checkTimeline(p);
        read++;
      } catch (e) {
        assert.ok(e instanceof ProfileReadError, `${what}: ${(e as Error).stack}`);
        assert.ok(e.message.startsWith(join(dir, 'trace.db')), `${what}: ${e.message}`);
        rejected++;
      }
      slowest = Math.max(slowest, performance.now() - t);
    }
    assert.ok(slowest < 2000, `slowest mutant took ${slowest.toFixed(0)} ms`);
    assert.ok(read > 0 && rejected > 0, `${read} read, ${rejected} rejected`);
  });
});

describe(
  'HPCToolkit v4 database reader: shared trace.db files',
  { skip: skipUnlessShared('data', 'hpctoolkit-metadb') },
  () => {
    for (const name of ['ping-pong-mpi-with-trace', 'lammps-openmp']) {
      it(name, async () => {
        const dir = sharedPath('data', 'hpctoolkit-metadb', name);
        const path = join(dir, 'trace.db');
        assert.ok(existsSync(path));
        const decoded = decodeTraceDb(readFileSync(path));
        const p = await hpctoolkitMetaDbReader.read(dir);
        const elements = decoded.lines.flatMap(l => l.elements);
        const running = elements.filter(([, ctx]) => ctx !== 0);
        assert.equal(p.metadata['hpctoolkit.traceSamples'], running.length);
        if (running.length === 0) {
          // lammps-openmp was measured without tracing: 24 empty lines.
          assert.equal(p.trace, undefined);
          assert.ok(decoded.lines.length > 0);
          return;
        }
        const trace = p.trace!;
        const min = elements.reduce((a, [t]) => (t < a ? t : a), elements[0]![0]);
        const max = elements.reduce((a, [t]) => (t > a ? t : a), elements[0]![0]);
        assert.equal(decoded.min, min, 'the header minimum is the smallest timestamp');
        assert.equal(decoded.max, max, 'the header maximum is the largest timestamp');
        assert.equal(trace.originNs, min.toString());
        const firstRunning = running.reduce((a, [t]) => (t < a ? t : a), running[0]![0]);
        assert.deepEqual(trace.timeRange, [Number(firstRunning - min), Number(max - min)]);
        // One track per line, with that line's running samples at the file's timestamps, exactly. Lines
        // are matched to tracks by the rank and thread of their profile's identifier tuple.
        const profiles = parseProfileDb(join(dir, 'profile.db'), readFileSync(join(dir, 'profile.db'))).profiles;
        const meta = parseMetaDb(join(dir, 'meta.db'), readFileSync(join(dir, 'meta.db')));
        const perTrack = checkTimeline(p);
        const { kind, start, track } = trace.events;
        assert.equal(trace.tracks.length, decoded.lines.length);
        for (const line of decoded.lines) {
          const { coordinates } = contextOfIdTuple(profiles[line.profIndex]!.idTuple, meta.idNames);
          const t = trace.tracks.findIndex(x => x.rank === coordinates.rank && x.thread === coordinates.thread);
          assert.ok(t >= 0, `a track for profile ${line.profIndex}`);
          const running = line.elements.filter(([, c]) => c !== 0);
          assert.equal(perTrack[t], running.length);
          const times: number[] = [];
          for (let k = trace.trackEventStart[t]!; k < trace.trackEventStart[t + 1]!; k++)
            if (kind[k] === TraceEventKind.Sample) times.push(start[k]!);
          assert.deepEqual(
            times,
            running.map(([ts]) => Number(ts - min)),
          );
          assert.equal(track[trace.trackEventStart[t]!], t);
        }
        assert.deepEqual(p.warnings, []);
      });
    }

    it('ping-pong-mpi-with-trace reads the same gzip-compressed', async () => {
      const src = sharedPath('data', 'hpctoolkit-metadb', 'ping-pong-mpi-with-trace');
      const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-tracedb-gz-'));
      for (const f of ['meta.db', 'profile.db', 'trace.db'])
        writeFileSync(join(dir, `${f}.gz`), gzipSync(readFileSync(join(src, f))));
      const gz = await hpctoolkitMetaDbReader.read(dir);
      const plain = await hpctoolkitMetaDbReader.read(src);
      assert.deepEqual([...gz.trace!.events.start], [...plain.trace!.events.start]);
      assert.equal(gz.trace!.originNs, plain.trace!.originNs);
    });
  },
);
