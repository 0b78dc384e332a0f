import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readProfile } from '../formats';
import { functionInclusiveByContext, functionTotals } from '../model/aggregates';
import { NodeKind } from '../model/call-tree';
import { ProfileBuilder } from '../model/profile-builder';
import { exclusiveTime, profileFromOutline } from '../model/test-profiles';
import { comparableContexts } from './comparable-contexts';
import { functionImbalance, functionImbalances, nodeImbalance } from './imbalance';
import { callLineProfile, twoRankProfile } from './test-fixtures';

/**
 * Two ranks, each with a CPU thread and a GPU stream: `kernel` runs on the GPUs, `host` on the
 * CPUs; values per context in the order rank 0 CPU, rank 0 GPU, rank 1 CPU, rank 1 GPU.
 */
function cpuGpuProfile(values: { host: number[]; kernel: number[] }) {
  const b = new ProfileBuilder('test-gpu', '<gpu>');
  const ctx = [
    b.context({ rank: 0, thread: 0 }),
    b.context({ rank: 0, gpuDevice: 0, gpuStream: 7 }),
    b.context({ rank: 1, thread: 0 }),
    b.context({ rank: 1, gpuDevice: 1, gpuStream: 7 }),
  ];
  const m = b.addMetric(exclusiveTime());
  const main = b.tree.add(-1, 'main', NodeKind.Function, {});
  const host = b.tree.add(main, 'host', NodeKind.Function, {});
  const launch = b.tree.add(main, 'launch', NodeKind.Function, {});
  const kernel = b.tree.add(launch, 'kernel', NodeKind.Function, {});
  ctx.forEach((c, k) => {
    b.addExclusive(m, main, c, k % 2 === 0 ? 1 : 0);
    b.addExclusive(m, host, c, values.host[k]!);
    b.addExclusive(m, launch, c, k % 2 === 0 ? 1 : 0);
    b.addExclusive(m, kernel, c, values.kernel[k]!);
  });
  return b.build(m);
}

describe('load imbalance over comparable contexts', () => {
  it('ranks nodes by imbalance × share above the significance floor', () => {
    const ranked = nodeImbalance(twoRankProfile(), 0);
    // a.c:12: 1.5× of 66 %, solve: 1.4× of 83 %, main: 1.26× of all, io: 1.5× of 13 %.
    assert.deepEqual(
      ranked.entries.map(e => [e.name, e.imbalance]),
      [
        ['a.c:12', 1.5],
        ['solve', 1.4],
        ['main', 38 / 30.25],
        ['io', 1.5],
        ['a.c:13', 1],
      ],
    );
    assert.deepEqual(ranked.entries[3], {
      id: 4,
      name: 'io',
      inclusive: 8,
      share: 8 / 60.5,
      min: 2,
      mean: 4,
      max: 6,
      imbalance: 1.5,
      severity: 0.5 * (8 / 60.5),
      contextKind: 'rank',
      compared: 2,
      maxLabel: 'rank 1',
      maxContext: 1,
    });
    assert.deepEqual(ranked.groups, [{ kind: 'rank', units: 2 }]);
    // Without the floor the tiny node (0.8 % of the total, all on rank 1) ranks by its cost, not its 2×.
    const all = nodeImbalance(twoRankProfile(), 0, { floor: 0 }).entries.map(e => e.name);
    assert.ok(all.indexOf('tiny') > all.indexOf('io'), all.join());
  });

  it('ranks functions on their inclusive value, recursion counted once', () => {
    assert.deepEqual(
      functionImbalance(callLineProfile(), 0).entries.map(e => [e.name, e.min, e.max, e.maxContext]),
      [
        ['main', 22, 34, 1],
        ['work', 19, 29, 1],
      ],
      '(34/28 − 1) × 100 % > (29/24 − 1) × 79 %',
    );
    assert.deepEqual(
      functionImbalance(twoRankProfile(), 0).entries.map(e => e.name),
      ['solve', 'main', 'io'],
    );
  });

  it('lists a frame that exists in one context only apart, and compares a callee only where its caller ran', () => {
    const p = profileFromOutline(
      `
_start = 1 0 0
  main = 1 0 0
    work = 6 0 0
thread = 0 1 1
  work = 0 3 3`,
      3,
    );
    const r = functionImbalance(p, 0);
    // work ran on every rank (its callers did): 6 3 3 → 1.5×. _start and main are not 3×; `thread`
    // ran on ranks 1 and 2 (a root is compared where it ran): balanced, not 1.5×.
    assert.deepEqual(
      r.entries.map(e => [e.name, e.imbalance, e.compared, e.maxLabel]),
      [
        ['work', 1.5, 3, 'rank 0'],
        ['thread', 1, 2, 'rank 1'],
      ],
    );
    assert.deepEqual(
      r.singleContext.map(e => [e.name, e.context]),
      [
        ['_start', 'rank 0'],
        ['main', 'rank 0'],
      ],
    );
    const totals = functionTotals(p, 0);
    const all = functionImbalances(p, 0, totals, functionInclusiveByContext(p, 0, totals));
    const at = (name: string) => totals.names.indexOf(name);
    assert.equal(all.imbalance[at('work')], 1.5);
    assert.ok(Number.isNaN(all.imbalance[at('main')]!));
    assert.equal(all.compared[at('main')], 1);
  });

  it('never compares CPU work with GPU work: ranks are compared per class', () => {
    const p = cpuGpuProfile({ host: [2, 0, 2, 0], kernel: [0, 9, 0, 3] });
    const cc = comparableContexts(p);
    assert.deepEqual(
      cc.groups.map(g => [g.kind, g.units.map(u => cc.units[u]!.label)]),
      [
        ['rank', ['rank 0', 'rank 1']],
        ['rank', ['rank 0 (GPU)', 'rank 1 (GPU)']],
      ],
    );
    const r = functionImbalance(p, 0);
    const byName = new Map(r.entries.map(e => [e.name, e]));
    assert.equal(byName.get('kernel')?.imbalance, 1.5, 'GPU time of rank 0 vs rank 1');
    assert.equal(byName.get('kernel')?.maxLabel, 'rank 0 (GPU)');
    assert.equal(byName.get('host')?.imbalance, 1, 'host is balanced, not 2× from its idle GPU streams');
  });

  it('a trace of one process compares nothing: its CPU threads and GPU stream are not peers', async () => {
    const p = await readProfile('samples/heat-stencil/profiles/heat-offload-kineto.json');
    const r = functionImbalance(p, p.primaryMetric);
    assert.deepEqual(r.entries, []);
    assert.deepEqual(
      r.groups.map(g => g.units),
      [1, 1],
    );
    assert.ok(r.singleContext.some(e => e.name === 'offload_timesteps' && e.contextKind === 'process'));
    assert.ok(r.singleContext.some(e => e.name === 'jacobi_sweep' && e.contextKind === 'GPU'));
  });

  it('threads of one process are the units of a profile without ranks', () => {
    const b = new ProfileBuilder('t', '<t>');
    const ctx = [0, 1, 2, 3].map(t => b.context({ thread: t }));
    const m = b.addMetric(exclusiveTime());
    const loop = b.tree.add(-1, 'omp_loop', NodeKind.Function, {});
    [4, 2, 2, 0].forEach((v, k) => b.addExclusive(m, loop, ctx[k]!, v));
    const r = functionImbalance(b.build(m), 0);
    assert.deepEqual(
      r.entries.map(e => [e.contextKind, e.compared, e.imbalance]),
      [['thread', 3, 4 / (8 / 3)]],
      'the idle thread 3 ran nothing: a root is compared where it ran',
    );
  });

  it('copes with one context, ties on the max, empty and all-zero profiles', () => {
    const one = nodeImbalance(profileFromOutline('a = 1\n  b = 2'), 0);
    assert.deepEqual(one.entries, []);
    assert.deepEqual(
      one.singleContext.map(e => e.name),
      ['a', 'b'],
    );
    assert.equal(nodeImbalance(profileFromOutline('a = 3 3', 2), 0).entries[0]!.maxContext, 0);
    assert.deepEqual(nodeImbalance(profileFromOutline(''), 0).entries, []);
    assert.deepEqual(functionImbalance(profileFromOutline('a = 0 0', 2), 0).entries, []);
  });

  it('the sample: jacobi_sweep heads the list; rank 0-only frames are single-context', async () => {
    const p = await readProfile('samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
    const r = functionImbalance(p, p.primaryMetric);
    assert.equal(r.entries[0]!.name, 'jacobi_sweep');
    assert.equal(r.entries[0]!.maxLabel, 'rank 0');
    assert.ok(Math.abs(r.entries[0]!.imbalance - 1.61) < 0.01);
    for (const name of ['_start', 'main', 'minimpi_run'])
      assert.ok(
        r.singleContext.some(e => e.name === name),
        name,
      );
    for (let k = 1; k < r.entries.length; k++) assert.ok(r.entries[k - 1]!.severity >= r.entries[k]!.severity);
  });

  it('Caliper regions: the sweep is the costliest imbalance, the checkpoint the largest ratio', async () => {
    const p = await readProfile('samples/heat-stencil/profiles/heat-stencil-regions-4ranks.json');
    const ranked = nodeImbalance(p, 0).entries;
    assert.ok(ranked.length > 0 && ranked.every(e => e.share >= 0.01 && e.imbalance >= 1));
    assert.equal(ranked[0]!.name, 'jacobi_sweep');
    const checkpoint = ranked.find(e => e.name === 'checkpoint')!;
    assert.equal(checkpoint.maxLabel, 'rank 0');
    assert.ok(ranked.every(e => e.imbalance <= checkpoint.imbalance));
    assert.equal(checkpoint.max, p.inclusive(0)[checkpoint.id * 4 + checkpoint.maxContext]);
  });
});
