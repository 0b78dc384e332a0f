import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  Profile as PprofProfile,
  StringTable,
  type FunctionInput,
  type LocationInput,
  type MappingInput,
  type SampleInput,
} from 'pprof-format';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { expectReadError } from '../../../test/support/read-errors';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { inspectReport } from '../stats/inspect-report';
import { NodeKind } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { sampleFile } from './file-sample';
import { chooseFormat, readProfile } from './index';
import { pprofReader } from './pprof';

const dir = mkdtempSync(join(tmpdir(), 'pprof-'));
let written = 0;
const write = (bytes: Uint8Array, name = `p${++written}.pb`) => {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

/** What a fixture says, with strings in place of string-table indices. */
interface Spec {
  types?: [string, string][];
  defaultType?: string;
  mappings?: (Omit<MappingInput, 'filename' | 'buildId'> & { filename?: string; buildId?: string })[];
  functions?: { id: number; name: string; file?: string; startLine?: number }[];
  locations?: LocationInput[];
  samples?: (Omit<SampleInput, 'label'> & { labels?: { key: string; str?: string; num?: number }[] })[];
  comments?: string[];
  timeNanos?: number;
  durationNanos?: number;
  period?: number;
}

/** Encodes a profile.proto message with pprof-format's encoder (the same library as Go-compatible writers use). */
function encode(spec: Spec): Uint8Array {
  const st = new StringTable();
  const s = (x: string | undefined) => (x ? st.dedup(x) : 0);
  const p = new PprofProfile({
    sampleType: (
      spec.types ?? [
        ['samples', 'count'],
        ['cpu', 'nanoseconds'],
      ]
    ).map(([type, unit]) => ({ type: s(type), unit: s(unit) })),
    mapping: (spec.mappings ?? []).map(m => ({ ...m, filename: s(m.filename), buildId: s(m.buildId) })),
    function: (spec.functions ?? []).map(
      f => ({ id: f.id, name: s(f.name), filename: s(f.file), startLine: f.startLine ?? 0 }) satisfies FunctionInput,
    ),
    location: spec.locations ?? [],
    sample: (spec.samples ?? []).map(x => ({
      ...x,
      label: (x.labels ?? []).map(l => ({ key: s(l.key), str: s(l.str), num: l.num ?? 0 })),
    })),
    comment: (spec.comments ?? []).map(s),
    defaultSampleType: s(spec.defaultType),
    timeNanos: spec.timeNanos ?? 0,
    durationNanos: spec.durationNanos ?? 0,
    periodType: { type: s('cpu'), unit: s('nanoseconds') },
    period: spec.period ?? 0,
    stringTable: st,
  });
  return p.encode();
}

/**
 * main (main.go) calls work at line 12; work calls helper (util.go) at line 22 and has `inl`
 * inlined at line 25 (location 4 holds both frames, the inlined one first).
 */
const SMALL: Spec = {
  mappings: [{ id: 1, filename: '/bin/prog', buildId: 'abc123', memoryStart: 0x400000, memoryLimit: 0x500000 }],
  functions: [
    { id: 1, name: 'main', file: 'main.go', startLine: 10 },
    { id: 2, name: 'work', file: 'main.go', startLine: 20 },
    { id: 3, name: 'helper', file: 'util.go', startLine: 5 },
    { id: 4, name: 'inl', file: 'util.go', startLine: 30 },
  ],
  locations: [
    { id: 1, mappingId: 1, address: 0x401000, line: [{ functionId: 1, line: 12 }] },
    { id: 2, mappingId: 1, address: 0x402000, line: [{ functionId: 2, line: 22 }] },
    { id: 3, mappingId: 1, address: 0x403000, line: [{ functionId: 3, line: 7 }] },
    {
      id: 4,
      mappingId: 1,
      address: 0x404000,
      line: [
        { functionId: 4, line: 31 },
        { functionId: 2, line: 25 },
      ],
    },
    { id: 5, mappingId: 1, address: 0x405abc },
  ],
  samples: [
    { locationId: [3, 2, 1], value: [2, 20] },
    { locationId: [4, 1], value: [1, 10] },
    { locationId: [2, 1], value: [3, 30] },
    { locationId: [3, 2, 1], value: [1, 10] },
    { locationId: [5, 1], value: [4, 40] },
  ],
  comments: ['go test -cpuprofile'],
  defaultType: 'cpu',
  timeNanos: 1_700_000_000_000_000_000,
  durationNanos: 2_000_000_000,
  period: 10_000_000,
};

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join(' → '));
const nodeAt = (p: Profile, path: string) => {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in ${paths(p).join(' | ')}`);
  return i;
};
const sum = (a: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]!;
  return s;
};

describe('pprof reader', () => {
  it('builds function nodes with call lines, statement leaves and inlined frames', async () => {
    const p = await pprofReader.read(write(encode(SMALL)));
    assert.equal(p.format, 'pprof');
    assert.deepEqual(
      p.metrics.map(m => [m.name, m.unit, m.kind]),
      [
        ['samples', 'samples', 'exclusive'],
        ['cpu', 'ns', 'exclusive'],
      ],
    );
    assert.equal(p.metrics[p.primaryMetric]!.name, 'cpu');
    assert.equal(p.total(0), 11);
    assert.equal(p.total(1), 110);
    const t = p.tree;
    const work = nodeAt(p, 'main → work');
    assert.equal(t.kind(work), NodeKind.Function);
    assert.deepEqual([t.file(work), t.line(work), t.callLine(work), t.module(work)], ['main.go', 20, 12, '/bin/prog']);
    const inl = nodeAt(p, 'main → work → inl');
    assert.deepEqual(
      [t.file(inl), t.callLine(inl)],
      ['util.go', 25],
      'the inlined frame carries the line of the inlining site',
    );
    const helperLine = nodeAt(p, 'main → work → helper → util.go:7');
    assert.equal(t.kind(helperLine), NodeKind.Statement);
    assert.deepEqual([t.file(helperLine), t.line(helperLine)], ['util.go', 7]);
    const cpu = p.exclusiveTotals(1),
      cpuIncl = p.inclusiveTotals(1);
    assert.equal(cpu[helperLine], 30);
    assert.equal(cpu[nodeAt(p, 'main → work → inl → util.go:31')], 10);
    assert.equal(cpu[nodeAt(p, 'main → work → main.go:22')], 30);
    assert.equal(cpuIncl[work], 70);
    const unsymbolized = nodeAt(p, 'main → 0x405abc');
    assert.deepEqual([cpu[unsymbolized], t.module(unsymbolized), t.callLine(unsymbolized)], [40, '/bin/prog', 12]);
    assert.equal(p.contexts.length, 1);
    assert.equal(p.metadata['pprof.durationNanos'], 2_000_000_000);
    assert.equal(p.metadata['pprof.timeNanos'], '1700000000000000000');
    assert.equal(p.metadata['pprof.period'], 10_000_000);
    assert.equal(p.metadata['pprof.periodType'], 'cpu/nanoseconds');
    assert.deepEqual(p.metadata['pprof.comments'], ['go test -cpuprofile']);
    assert.equal(p.metadata['pprof.buildId'], 'abc123');
  });

  it('reads gzip and raw protobuf alike, and is chosen by content', async () => {
    const raw = encode(SMALL);
    const a = await pprofReader.read(write(raw, 'raw.bin'));
    const gz = write(gzipSync(raw), 'profile.txt');
    const b = await readProfile(gz);
    assert.equal(b.format, 'pprof');
    assert.deepEqual(paths(b), paths(a));
    assert.deepEqual(Array.from(b.exclusiveTotals(1)), Array.from(a.exclusiveTotals(1)));
    assert.equal(chooseFormat(await sampleFile(write(raw, 'x.json')))?.id, 'pprof');
    for (const text of [
      '# callgrind format\n',
      'hello world\n',
      '{"traceEvents": []}',
      'main;work 3\n',
      'Z not a profile',
      '\n\n',
    ]) {
      assert.equal(pprofReader.sniff(await sampleFile(write(Buffer.from(text), 'x.prof'))), 0, JSON.stringify(text));
    }
  });

  it('keeps recursion as nested nodes without double counting', async () => {
    const p = await pprofReader.read(
      write(
        encode({
          functions: [{ id: 1, name: 'fib', file: 'fib.go' }],
          locations: [
            { id: 1, line: [{ functionId: 1, line: 4 }] },
            { id: 2, line: [{ functionId: 1, line: 6 }] },
          ],
          samples: [
            { locationId: [1, 2, 2, 2], value: [1, 5] },
            { locationId: [1, 2], value: [2, 7] },
          ],
        }),
      ),
    );
    nodeAt(p, 'fib → fib → fib → fib → fib.go:4');
    const top = nodeAt(p, 'fib');
    assert.equal(p.inclusiveTotals(1)[top], 12);
    assert.equal(p.total(1), 12);
    assert.equal(p.tree.callLine(nodeAt(p, 'fib → fib')), 6);
    assert.equal(p.metrics[p.primaryMetric]!.name, 'cpu', 'without default_sample_type the last type is primary');
  });

  it('makes a context per thread and process label', async () => {
    const p = await pprofReader.read(
      write(
        encode({
          functions: [{ id: 1, name: 'f' }],
          locations: [{ id: 1, line: [{ functionId: 1 }] }],
          samples: [
            {
              locationId: [1],
              value: [1, 1],
              labels: [
                { key: 'thread', num: 3 },
                { key: 'pid', num: 9 },
              ],
            },
            {
              locationId: [1],
              value: [2, 2],
              labels: [
                { key: 'thread', num: 4 },
                { key: 'pid', num: 9 },
                { key: 'span', str: 'x' },
              ],
            },
            {
              locationId: [1],
              value: [4, 4],
              labels: [
                { key: 'thread', num: 3 },
                { key: 'pid', num: 9 },
              ],
            },
            { locationId: [1], value: [8, 8], labels: [{ key: 'thread_name', str: 'worker-1' }] },
            { locationId: [1], value: [16, 16], labels: [{ key: 'goroutine', num: 17 }] },
            { locationId: [1], value: [32, 32] },
          ],
        }),
      ),
    );
    assert.deepEqual(
      p.contexts.map(c => c.label),
      ['pid 9 · thread 3', 'pid 9 · thread 4', 'thread_name worker-1', 'goroutine 17', 'process'],
    );
    assert.deepEqual([p.contexts[0]!.rank, p.contexts[0]!.thread], [9, 3]);
    const f = nodeAt(p, 'f');
    assert.deepEqual(
      p.contexts.map((_, c) => p.value(p.exclusive(0), f, c)),
      [5, 2, 8, 16, 32],
    );
  });

  it('reads an empty profile and a profile with no stack', async () => {
    const empty = await pprofReader.read(write(encode({})));
    assert.equal(empty.tree.size, 0);
    assert.equal(empty.metrics.length, 2);
    assert.equal(empty.total(1), 0);
    const noStack = await pprofReader.read(write(encode({ samples: [{ locationId: [], value: [1, 9] }] })));
    assert.equal(noStack.total(1), 9);
    assert.deepEqual(paths(noStack), ['<no stack>']);
  });

  it('rejects unknown ids, bad string indices, truncation and mismatched values with a reason', async () => {
    const bad = async (spec: Spec, reason: RegExp) => {
      const p = write(encode(spec));
      await expectReadError(pprofReader.read(p), p, reason);
    };
    await bad(
      { ...SMALL, samples: [{ locationId: [99], value: [1, 1] }] },
      /sample 1 refers to location 99, which does not exist/,
    );
    await bad({ ...SMALL, locations: [{ id: 1, line: [{ functionId: 42 }] }] }, /location 1 refers to function 42/);
    await bad({ ...SMALL, locations: [{ id: 1, mappingId: 7 }] }, /location 1 refers to mapping 7/);
    await bad(
      { ...SMALL, samples: [{ locationId: [1], value: [1] }] },
      /sample 1 has 1 values, but the profile has 2 sample types/,
    );
    await bad(
      {
        ...SMALL,
        functions: [
          { id: 1, name: 'a' },
          { id: 1, name: 'b' },
        ],
      },
      /function id 1 is defined twice/,
    );

    // String indices past the table: patch a function name index after encoding.
    const st = new StringTable();
    const broken = new PprofProfile({
      sampleType: [{ type: st.dedup('cpu'), unit: st.dedup('ns') }],
      function: [{ id: 1, name: 77 }],
      stringTable: st,
    }).encode();
    const bp = write(broken);
    await expectReadError(
      pprofReader.read(bp),
      bp,
      /function 1's name refers to string 77, but the string table has 3 entries/,
    );

    const raw = Buffer.from(encode(SMALL));
    const cut = write(raw.subarray(0, raw.length - 7));
    await expectReadError(pprofReader.read(cut), cut, /not a valid pprof protobuf: .*(truncated|ends inside)/);
    const gzCut = write(gzipSync(raw).subarray(0, 40));
    await expectReadError(pprofReader.read(gzCut), gzCut, /gzip data is truncated or corrupt/);
    const empty = write(Buffer.alloc(0));
    await expectReadError(pprofReader.read(empty), empty, /the file is empty/);
    const text = write(Buffer.from('this is not a protobuf\n'));
    await expectReadError(pprofReader.read(text), text, /not a valid pprof protobuf/);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      pprofReader.read(write(encode(SMALL)), { signal: ac.signal }),
      (e: Error) => e.name === 'AbortError',
    );
  });

  it('reads or rejects every mutation cleanly', async () => {
    const counts = { read: 0, rejected: 0 };
    for (const [name, bytes] of mutationsOf(Buffer.from(encode(SMALL)), { seed: 23 })) {
      counts[await readOrReject(write(bytes, 'mutant.pb'), pprofReader, name)]++;
    }
    assert.ok(counts.rejected > 50 && counts.read > 20, JSON.stringify(counts));
  });
});

/** Totals and per-line leaf values decoded independently with pprof-format, without the reader's tables. */
function oracle(bytes: Buffer) {
  const p = PprofProfile.decode(bytes[0] === 0x1f ? gunzipSync(bytes) : bytes);
  const str = p.stringTable.strings;
  const types = p.sampleType.map(t => str[Number(t.type)]!);
  const totals = types.map((_, m) => p.sample.reduce((s, x) => s + Number(x.value[m]!), 0));
  const fn = new Map(p.function.map(f => [Number(f.id), f]));
  const loc = new Map(p.location.map(l => [Number(l.id), l]));
  /** `name file:line` of the innermost frame of each sample's leaf location → Σ value per metric. */
  const leaves = new Map<string, number[]>();
  for (const s of p.sample) {
    const line = loc.get(Number(s.locationId[0]))!.line[0]!;
    const f = fn.get(Number(line.functionId))!;
    const key = `${str[Number(f.name)]} ${str[Number(f.filename)]}:${Number(line.line)}`;
    const acc = leaves.get(key) ?? types.map(() => 0);
    s.value.forEach((v, m) => {
      acc[m]! += Number(v);
    });
    leaves.set(key, acc);
  }
  return { types, totals, leaves, samples: p.sample.length };
}

describe('pprof reader on the shared datasets', { skip: skipUnlessShared('data', 'pprof') }, () => {
  for (const rel of sharedFiles(join('data', 'pprof'), '')) {
    it(rel, async () => {
      const path = sharedPath('data', 'pprof', rel);
      assert.equal(chooseFormat(await sampleFile(path))?.id, 'pprof');
      const p = await readProfile(path);
      const want = oracle(readFileSync(path));
      assert.deepEqual(
        p.metrics.map(m => m.name),
        want.types,
      );
      want.totals.forEach((t, m) => assert.equal(p.total(m), t, `Σ ${want.types[m]}`));
      assert.equal(p.metadata['pprof.samples'], want.samples);
      // Every statement leaf holds exactly what the samples ending on its function and line hold.
      const got = new Map<string, number[]>();
      const t = p.tree;
      for (let i = 0; i < t.size; i++) {
        if (t.kind(i) !== NodeKind.Statement) continue;
        const key = `${t.name(t.parent(i))} ${t.file(i) ?? ''}:${t.line(i)}`;
        const acc = got.get(key) ?? want.types.map(() => 0);
        p.metrics.forEach((_, m) => {
          acc[m]! += p.exclusiveTotals(m)[i]!;
        });
        got.set(key, acc);
      }
      assert.deepEqual(got, want.leaves);
      assert.equal(sum(p.exclusiveTotals(p.primaryMetric)), want.totals[p.primaryMetric]);
      const report = inspectReport(p);
      assert.equal(report.format, 'pprof');
    });
  }
});
