import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../formats';
import { lineCosts } from '../model/aggregates';
import { profileFromOutline } from '../model/test-profiles';
import { callLineProfile, twoRankProfile } from './test-fixtures';
import { lineInformation, topFunctions, topLines } from './top-lists';

const SAMPLES = 'samples/heat-stencil/profiles';
const RESNET = 'data/chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz';
const LULESH = 'data/caliper-json/lulesh-mpi-scaling-5runs';

describe('top lines', () => {
  it('ranks statement lines by own cost, with the spread over contexts', () => {
    const { level, entries } = topLines(twoRankProfile(), 0);
    assert.equal(level, 'statement');
    assert.deepEqual(
      entries.map(e => [`${e.file}:${e.line}`, e.exclusive, e.calls, e.share]),
      [
        ['a.c:12', 40, 0, 40 / 60.5],
        ['a.c:13', 10, 0, 10 / 60.5],
        ['b.c:5', 8, 0, 8 / 60.5],
        ['a.c:1', 2, 0, 2 / 60.5],
      ],
    );
    assert.deepEqual(entries[0]!.contexts, { min: 10, mean: 20, max: 30, median: 20, imbalance: 1.5, maxContext: 0 });
    assert.deepEqual(entries[2]!.contexts.maxContext, 1);
    assert.deepEqual(entries[0]!.nodes, [2]);
  });

  it('charges calls to the caller line, separately and with recursion counted once', () => {
    const p = callLineProfile();
    const byLine = new Map(topLines(p, 0, { by: 'inclusive' }).entries.map(e => [`${e.file}:${e.line}`, e]));
    assert.deepEqual([...byLine.keys()], ['w.c:20', 'm.c:5', 'm.c:7', 'w.c:30', 'm.c:1']);
    const call = byLine.get('m.c:5')!;
    assert.deepEqual([call.exclusive, call.calls, call.inclusive, call.value], [6, 38, 44, 44]);
    assert.deepEqual(call.callNodes, [2]);
    assert.deepEqual(call.contexts, {
      min: 2 + 14,
      mean: 22,
      max: 4 + 24,
      median: 22,
      imbalance: 28 / 22,
      maxContext: 1,
    });
    assert.deepEqual(
      [byLine.get('w.c:30')!.calls, byLine.get('w.c:30')!.callNodes],
      [8, [3]],
      'the inner recursive call is inside the outer one',
    );
    assert.deepEqual(byLine.get('w.c:20')!.nodes, [2, 3, 4, 5], 'function nodes carry their own cost at their line');
    // Ranked by own cost, a line that only calls does not appear.
    assert.deepEqual(
      topLines(p, 0).entries.map(e => `${e.file}:${e.line}`),
      ['w.c:20', 'm.c:5', 'm.c:1'],
    );
  });

  it('falls back to function lines, and copes with empty and all-zero profiles', () => {
    const fn = topLines(profileFromOutline('main a.c:3 = 1\n  f a.c:9 = 2'), 0);
    assert.equal(fn.level, 'function');
    assert.deepEqual(
      fn.entries.map(e => [e.line, e.share]),
      [
        [9, 2 / 3],
        [3, 1 / 3],
      ],
    );
    assert.deepEqual(topLines(profileFromOutline(''), 0), { level: 'function', entries: [] });
    assert.deepEqual(topLines(profileFromOutline('a a.c:1 = 0'), 0).entries, []);
    assert.deepEqual(topLines(twoRankProfile(), 0, { limit: 1 }).entries.length, 1);
  });

  it('breaks ties by first appearance', () => {
    const p = profileFromOutline('m\n  z.c:2 z.c:2 = 1\n  a.c:1 a.c:1 = 1', 1);
    assert.deepEqual(
      topLines(p, 0).entries.map(e => e.file),
      ['z.c', 'a.c'],
    );
  });
});

describe('top functions', () => {
  it('ranks by exclusive (statements belong to their function) or inclusive', () => {
    const p = twoRankProfile();
    const excl = topFunctions(p, 0);
    assert.deepEqual(
      excl.map(e => [e.name, e.exclusive, e.inclusive, e.file, e.line]),
      [
        ['solve', 50, 50, 'a.c', 10],
        ['io', 8, 8, 'b.c', 5],
        ['main', 2, 60.5, 'a.c', 1],
        ['tiny', 0.5, 0.5, null, null],
      ],
    );
    assert.deepEqual(excl[0]!.contexts, { min: 15, mean: 25, max: 35, median: 25, imbalance: 1.4, maxContext: 0 });
    const incl = topFunctions(p, 0, { by: 'inclusive', limit: 2 });
    assert.deepEqual(
      incl.map(e => [e.name, e.value, e.share]),
      [
        ['main', 60.5, 1],
        ['solve', 50, 50 / 60.5],
      ],
    );
    assert.deepEqual(incl[0]!.contexts, {
      min: 22.5,
      mean: 30.25,
      max: 38,
      median: 30.25,
      imbalance: 38 / 30.25,
      maxContext: 0,
    });
  });

  it('counts recursion once for inclusive', () => {
    const all = topFunctions(callLineProfile(), 0, { by: 'inclusive' });
    assert.deepEqual(
      all.map(e => [e.name, e.value]),
      [
        ['main', 56],
        ['work', 48],
      ],
    );
    assert.deepEqual(all[1]!.contexts, { min: 19, mean: 24, max: 29, median: 24, imbalance: 29 / 24, maxContext: 1 });
  });

  it('is empty for an empty profile', () => {
    assert.deepEqual(topFunctions(profileFromOutline(''), 0), []);
  });
});

describe('top lists on real readers', () => {
  it('callgrind: statement lines and call lines of the heat stencil', async () => {
    const p = await readProfile(`${SAMPLES}/callgrind.out.heat-stencil-4ranks`);
    const { level, entries } = topLines(p, 0, { limit: 10 });
    assert.equal(level, 'statement');
    const stencil = lineCosts(p, 0)
      .get('/home/hpc/heat-stencil/src/stencil.c')!
      .find(l => l.line === 20)!;
    assert.deepEqual(
      [entries[0]!.file, entries[0]!.line, entries[0]!.exclusive],
      ['/home/hpc/heat-stencil/src/stencil.c', 20, stencil.exclusive],
    );
    for (let k = 1; k < entries.length; k++) assert.ok(entries[k - 1]!.value >= entries[k]!.value);
    // rank_main calls run_timesteps from main.c:211 (callgrind's calls= line): all of its cost.
    const fns = topFunctions(p, 0, { by: 'inclusive', limit: 200 });
    const runTimesteps = fns.find(f => f.name === 'run_timesteps')!;
    const line211 = topLines(p, 0, { by: 'inclusive', limit: 10_000 }).entries.find(
      e => e.file.endsWith('/main.c') && e.line === 211,
    )!;
    assert.equal(line211.calls, runTimesteps.inclusive);
    assert.equal(fns[0]!.share, 1);
  });

  it('Caliper regions: function-level, no lines', async () => {
    const p = await readProfile(`${SAMPLES}/heat-stencil-regions-4ranks.json`);
    assert.deepEqual(topLines(p, 0).entries, []);
    const [top] = topFunctions(p, 0);
    assert.equal(top!.name, 'jacobi_sweep');
    assert.equal(top!.contexts.mean * 4, top!.exclusive);
  });
});

describe('top lines of traces and of function-level data', () => {
  it("a Kineto trace: every event's cost reaches its call stack's innermost line (the sample's offload.c)", async () => {
    const p = await readProfile(`${SAMPLES}/heat-offload-kineto.json`);
    const { level, entries } = topLines(p, p.primaryMetric, { limit: 100 });
    assert.equal(level, 'statement');
    assert.ok(entries.length >= 5 && entries.every(e => e.file.endsWith('/src/offload.c')), JSON.stringify(entries));
    // Every microsecond of the trace is on some line: the trace's events all hang under C frames.
    const sum = entries.reduce((s, e) => s + e.exclusive, 0);
    assert.ok(Math.abs(sum - p.total(p.primaryMetric)) < 1e-6 * p.total(p.primaryMetric));
    // The block copy of offload_stage_in (dev_memcpy_async(d->u, u, …)) is the heaviest line.
    const src = readFileSync('samples/heat-stencil/src/offload.c', 'utf8').split('\n');
    assert.match(src[entries[0]!.line - 1]!, /dev_memcpy_async\(d->u, u, d->cells/);
    // The heat and the hover read the same line costs.
    const offload = [...lineCosts(p, p.primaryMetric)].find(([f]) => f.endsWith('offload.c'))![1];
    assert.equal(offload.find(l => l.line === entries[0]!.line)!.exclusive, entries[0]!.exclusive);
  });

  it('outside call-stack traces, a node without a location keeps its cost to itself', () => {
    const p = profileFromOutline('main a.c:1 = 1\n  libc_call = 5');
    assert.deepEqual(
      topLines(p, 0).entries.map(e => [e.line, e.exclusive]),
      [[1, 1]],
    );
    assert.equal(lineInformation(p), 'lines');
    assert.equal(lineInformation(profileFromOutline('main = 1')), 'none');
  });

  it(
    'resnet50 (Kineto): Python lines, the input copy on resnet50_profiler_api.py:44',
    { skip: skipUnlessShared(RESNET) },
    async () => {
      const p = await readProfile(sharedPath(RESNET));
      const { level, entries } = topLines(p, p.primaryMetric, { limit: 200 });
      assert.equal(level, 'statement');
      assert.ok(entries.length > 20 && entries.every(e => e.file.endsWith('.py')));
      const bytes = p.metricIndex('bytes');
      const copies = topLines(p, bytes, { limit: 5 }).entries;
      assert.deepEqual(
        [copies[0]!.file, copies[0]!.line],
        ['resnet50_profiler_api.py', 44],
        'the H→D copies of inputs.to(device), not torch/autograd/profiler.py:614',
      );
    },
  );

  it('LULESH (Caliper regions) has no line information', { skip: skipUnlessShared(LULESH) }, async () => {
    const p = await readProfile(sharedPath(LULESH, '27_cores.json'));
    assert.equal(lineInformation(p), 'none');
    assert.deepEqual(topLines(p, p.primaryMetric).entries, []);
  });
});
