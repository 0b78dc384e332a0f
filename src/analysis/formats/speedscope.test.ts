import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { expectReadError } from '../../../test/support/read-errors';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { TraceEventKind } from '../model/trace';
import { sampleFile } from './file-sample';
import { readProfile } from './index';
import { speedscopeReader } from './speedscope';

const dir = mkdtempSync(join(tmpdir(), 'speedscope-'));
let seq = 0;
const write = (content: string | Buffer, name = `s${seq++}.json`) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const SCHEMA = 'https://www.speedscope.app/file-format-schema.json';
const doc = (o: Record<string, unknown>) => JSON.stringify({ $schema: SCHEMA, ...o });
const read = (o: Record<string, unknown>) => speedscopeReader.read(write(doc(o)));

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(';'));
function value(p: Profile, path: string, metric: string, side: 'inclusive' | 'exclusive' = 'inclusive'): number {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in ${paths(p).join(' | ')}`);
  const m = p.metricIndex(metric);
  return (side === 'inclusive' ? p.inclusiveTotals(m) : p.exclusiveTotals(m))[i]!;
}

const FRAMES = [
  { name: 'main', file: 'app.py', line: 10, col: 1 },
  { name: 'solve', file: 'app.py', line: 20 },
  { name: '<core::ops::Fn>::call' },
  { name: 'io' },
];

describe('speedscope reader', () => {
  it('reads sampled profiles: weights in their unit, one context and track per profile, samples laid end to end', async () => {
    const p = await read({
      name: 'run',
      exporter: 'py-spy@0.3.14',
      activeProfileIndex: 0,
      shared: { frames: FRAMES },
      profiles: [
        {
          type: 'sampled',
          name: 'MainThread',
          unit: 'milliseconds',
          startValue: 100,
          endValue: 110,
          samples: [[0, 1], [0, 1, 2], [0]],
          weights: [2, 3, 5],
        },
        {
          type: 'sampled',
          name: 'worker',
          unit: 'milliseconds',
          startValue: 0,
          endValue: 1,
          samples: [[0, 3]],
          weights: [1],
        },
      ],
    });
    assert.equal(p.format, 'speedscope');
    assert.equal(p.metrics[p.primaryMetric]!.name, 'time');
    assert.equal(value(p, 'main', 'time'), 11e6);
    assert.equal(value(p, 'main;solve', 'time', 'exclusive'), 2e6);
    assert.equal(value(p, 'main;solve;<core::ops::Fn>::call', 'samples'), 1);
    assert.equal(value(p, 'main', 'samples'), 4);
    const solve = paths(p).indexOf('main;solve');
    assert.equal(p.tree.file(solve), 'app.py');
    assert.equal(p.tree.line(solve), 20);
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['MainThread', 'worker'],
    );
    assert.deepEqual(p.metadata, { name: 'run', exporter: 'py-spy@0.3.14', activeProfileIndex: 0 });
    const t = p.trace!;
    assert.deepEqual(
      t.tracks.map(k => `${k.process} · ${k.name}`),
      ['run · MainThread', 'run · worker'],
    );
    assert.deepEqual(Array.from(t.events.start), [100e6, 102e6, 105e6, 0]);
    assert.ok(Array.from(t.events.kind).every(k => k === TraceEventKind.Sample));
    assert.deepEqual(Array.from(t.events.depth), [1, 2, 0, 1]);
  });

  it('reads evented profiles as nested slices, with exclusive time where a frame is innermost', async () => {
    const ev = (type: string, frame: number, at: number) => ({ type, frame, at });
    const p = await read({
      profiles: [
        {
          type: 'evented',
          name: 'thread',
          unit: 'microseconds',
          startValue: 0,
          endValue: 10,
          events: [
            ev('O', 0, 0),
            ev('O', 1, 1),
            ev('O', 2, 2),
            ev('C', 2, 4),
            ev('C', 1, 5),
            ev('O', 1, 6),
            ev('C', 1, 9),
            ev('C', 0, 10),
          ],
        },
      ],
      shared: { frames: FRAMES, extra: { nested: [1, { x: 2 }] } },
      version: '0.7.1',
    });
    assert.equal(value(p, 'main', 'time'), 10_000);
    assert.equal(value(p, 'main', 'time', 'exclusive'), 3_000);
    assert.equal(value(p, 'main;solve', 'time'), 7_000);
    assert.equal(value(p, 'main;solve;<core::ops::Fn>::call', 'time'), 2_000);
    assert.equal(p.metricIndex('samples'), -1);
    const t = p.trace!;
    assert.deepEqual(Array.from(t.events.start), [0, 1000, 2000, 6000]);
    assert.deepEqual(Array.from(t.events.duration), [10000, 4000, 2000, 3000]);
    assert.deepEqual(Array.from(t.events.depth), [0, 1, 2, 1]);
    assert.equal(p.tree.strings.get(t.events.name[2]!), '<core::ops::Fn>::call');
    assert.equal(p.metadata['version'], '0.7.1');
  });

  it('keeps bytes and unit-less weights apart from time', async () => {
    const p = await read({
      shared: { frames: FRAMES },
      profiles: [
        {
          type: 'sampled',
          name: 'alloc',
          unit: 'bytes',
          startValue: 0,
          endValue: 0,
          samples: [[0, 3]],
          weights: [4096],
        },
        {
          type: 'sampled',
          name: 'count',
          unit: 'none',
          startValue: 0,
          endValue: 0,
          samples: [[0], []],
          weights: [7, 1],
        },
      ],
    });
    assert.equal(value(p, 'main;io', 'bytes'), 4096);
    assert.equal(value(p, 'main', 'weight'), 7);
    assert.equal(p.trace, undefined);
    assert.match(p.warnings.join('\n'), /1 empty stack/);
  });

  it('sniffs by content and reads gzip', async () => {
    const text = doc({
      shared: { frames: FRAMES },
      profiles: [
        { type: 'sampled', name: 'x', unit: 'seconds', startValue: 0, endValue: 1, samples: [[0]], weights: [1] },
      ],
    });
    const gz = write(gzipSync(text), 'profile.gz');
    assert.ok(speedscopeReader.sniff(await sampleFile(gz)) >= 0.9);
    assert.equal((await readProfile(gz)).format, 'speedscope');
    assert.equal((await readProfile(write(text.replace(`"$schema":"${SCHEMA}",`, ''), 'p.txt'))).format, 'speedscope');
    assert.equal(speedscopeReader.sniff(await sampleFile(write('{"traceEvents":[]}'))), 0);
  });

  it('rejects invalid documents with a clear reason', async () => {
    const frames = { frames: [{ name: 'A' }, { name: 'B' }] };
    const evented = (events: unknown[]) =>
      doc({
        shared: frames,
        profiles: [{ type: 'evented', name: 'p', unit: 'none', startValue: 0, endValue: 9, events }],
      });
    const cases: [string, RegExp][] = [
      [evented([{ type: 'O', frame: 0, at: 0 }]), /1 frame is still open at the end/],
      [
        evented([
          { type: 'O', frame: 0, at: 0 },
          { type: 'O', frame: 1, at: 1 },
          { type: 'C', frame: 0, at: 2 },
        ]),
        /closes frame 0 at 2, but frame 1 is the innermost open one/,
      ],
      [
        evented([
          { type: 'O', frame: 0, at: 5 },
          { type: 'C', frame: 0, at: 4 },
        ]),
        /events must be in time order/,
      ],
      [evented([{ type: 'C', frame: 0, at: 1 }]), /no frame is open/],
      [evented([{ type: 'O', frame: 7, at: 1 }]), /refers to frame 7, but shared.frames has 2/],
      [evented([{ type: 'X', frame: 0, at: 1 }]), /type must be "O" or "C"/],
      [evented([{ type: 'O', frame: 0 }]), /no numeric "at"/],
      [
        doc({ shared: frames, profiles: [{ type: 'sampled', unit: 'none', samples: [[0], [1]], weights: [1] }] }),
        /2 samples but 1 weights/,
      ],
      [
        doc({ shared: frames, profiles: [{ type: 'sampled', unit: 'none', samples: [[0, 2]], weights: [1] }] }),
        /refers to frame 2/,
      ],
      [
        doc({ shared: frames, profiles: [{ type: 'sampled', unit: 'none', samples: [[0, -1]], weights: [1] }] }),
        /not a non-negative integer/,
      ],
      [
        doc({ shared: frames, profiles: [{ type: 'sampled', unit: 'none', samples: [0], weights: [1] }] }),
        /each sample must be an array/,
      ],
      [
        doc({ shared: frames, profiles: [{ type: 'flame', unit: 'none' }] }),
        /type "flame"; expected "sampled" or "evented"/,
      ],
      [doc({ shared: { frames: [{ file: 'x' }] }, profiles: [] }), /shared.frames\[0\] has no "name"/],
      [doc({ shared: frames }), /no "profiles" array/],
      [doc({ shared: frames, profiles: [] }), /holds no profiles/],
      ['[1, 2]', /top level is not an object/],
      [evented([]).slice(0, -20), /not valid JSON/],
      ['{"$schema": "' + SCHEMA + '", "profiles": [}', /not valid JSON/],
    ];
    for (const [text, reason] of cases) {
      const p = write(text);
      await expectReadError(speedscopeReader.read(p), p, reason, `${reason}`);
    }
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const p = write(doc({ shared: { frames: FRAMES }, profiles: [] }));
    await assert.rejects(speedscopeReader.read(p, { signal: ac.signal }), { name: 'AbortError' });
  });

  it('survives mutations: every damaged file is read or rejected cleanly', async () => {
    const valid = Buffer.from(
      JSON.stringify(
        {
          $schema: SCHEMA,
          shared: { frames: FRAMES.slice(0, 3) },
          profiles: [
            {
              type: 'evented',
              name: 'e',
              unit: 'nanoseconds',
              startValue: 0,
              endValue: 9,
              events: [
                { type: 'O', frame: 0, at: 0 },
                { type: 'O', frame: 1, at: 2 },
                { type: 'C', frame: 1, at: 5 },
                { type: 'C', frame: 0, at: 9 },
              ],
            },
            {
              type: 'sampled',
              name: 's',
              unit: 'seconds',
              startValue: 0,
              endValue: 3,
              samples: [
                [0, 1],
                [0, 2],
              ],
              weights: [1, 2],
            },
          ],
        },
        null,
        1,
      ),
    );
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(valid, { seed: 11 }))
      counts[await readOrReject(write(bytes), speedscopeReader, name)]++;
    assert.ok(counts.read > 0 && counts.rejected > 0, JSON.stringify(counts));
  });
});

describe('speedscope reader: shared data', () => {
  const folder = 'data/speedscope-json';
  const NS: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };
  it(
    'reads every valid shared file with the totals of a direct computation',
    { skip: skipUnlessShared(folder) },
    async () => {
      const files = sharedFiles(folder, '.json').filter(f => !f.includes('/invalid/'));
      assert.ok(files.length >= 4);
      for (const f of files) {
        const path = sharedPath(folder, f);
        const json = JSON.parse(readFileSync(path, 'utf8')) as {
          profiles: {
            type: string;
            unit: string;
            samples?: number[][];
            weights?: number[];
            events?: { type: string; at: number }[];
          }[];
        };
        let weight = 0,
          samples = 0,
          events = 0;
        for (const prof of json.profiles) {
          const scale = NS[prof.unit] ?? 1;
          if (prof.type === 'sampled') {
            samples += prof.samples!.length;
            weight += prof.weights!.reduce((s, w) => s + w * scale, 0);
            if (NS[prof.unit]) events += prof.samples!.length;
          } else {
            let depth = 0,
              last = 0;
            for (const e of prof.events!) {
              if (depth > 0) weight += (e.at - last) * scale;
              last = e.at;
              depth += e.type === 'O' ? 1 : -1;
              if (e.type === 'C') events++;
            }
          }
        }
        const p = await readProfile(path);
        assert.equal(p.format, 'speedscope', f);
        assert.equal(p.total(p.primaryMetric), weight, f);
        if (samples) assert.equal(p.total(p.metricIndex('samples')), samples, f);
        assert.equal(p.contextCount, json.profiles.length, f);
        assert.equal(inspectReport(p).events, events, f);
      }
    },
  );

  it(
    'rejects every file of the invalid folder with a ProfileReadError',
    { skip: skipUnlessShared(folder) },
    async () => {
      const files = sharedFiles(folder, '.json').filter(f => f.includes('/invalid/'));
      assert.ok(files.length >= 2);
      for (const f of files)
        await expectReadError(
          readProfile(sharedPath(folder, f)),
          sharedPath(folder, f),
          /still open|closes frame|time order/,
          f,
        );
    },
  );
});
