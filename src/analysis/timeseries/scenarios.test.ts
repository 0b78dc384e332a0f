import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Profile } from '../model/profile';
import { analyzeTrace, laneTree, planTraceAnalysis, roleTools, type TraceAnalysis } from './analyze-trace';
import type { TraceAnalysisOptions } from './model/options';
import { TctKind } from './tct';
import * as S from './testing/scenarios';
import { traceSourceOf } from './trace-source';

/**
 * The synthetic scenarios of the seed 001 digest (§6.2) with their planted ground truth. Times in
 * ms; V = 1 ms unless stated. Tolerances follow the digest: ±2V per measured duration, ±2V per
 * term for sums.
 */
const V = 1;
const ms = (s: number) => s * 1e3;
const rankOf = (a: TraceAnalysis, lane: number) => Number(a.lanes[lane]!.name.replace('rank ', ''));
const clusterRanks = (a: TraceAnalysis) => a.clusters.map(c => c.members.map(l => rankOf(a, l)));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const near = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
const analyse = (profile: Profile, options: Partial<TraceAnalysisOptions> = {}) => analyzeTrace(profile, options);
/** Per lane, the iteration clusters of a loop's iterations in order. */
function laneStrips(a: TraceAnalysis, loop = 0): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const it = a.iterations;
  for (let k = 0; k < it.lane.length; k++) {
    if (it.loop[k] !== loop) continue;
    const row = out.get(it.lane[k]!) ?? [];
    row.push(it.cluster[k]!);
    out.set(it.lane[k]!, row);
  }
  return out;
}

describe('B: a regular loop of 23 iterations (Table 4 row 1)', () => {
  it('accepts 23 identifiers and rejects none on every rank; one iteration cluster; one rank cluster', async () => {
    const a = await analyse(S.regularLoop().profile);
    assert.equal(a.loops.length, 1);
    const [loop] = a.loops;
    assert.deepEqual([loop!.acceptedIds, loop!.rejectedIds, loop!.instances, loop!.accepted], [23, 0, 4, true]);
    for (const strip of laneStrips(a).values()) assert.deepEqual(strip, new Array(23).fill(0));
    assert.equal(a.clusters.length, 1);
  });
});

describe('C: one inner loop reached from two call sites (Table 4 rows 2–3)', () => {
  it('keeps two loop@31 instances, each with 3 accepted and 0 rejected identifiers', async () => {
    const a = await analyse(S.innerLoopTwoContexts().profile);
    const inner = a.loops.filter(l => l.name === 'loop@31');
    assert.equal(inner.length, 2);
    assert.notEqual(inner[0]!.construct, inner[1]!.construct, 'two calling contexts');
    for (const l of inner) assert.deepEqual([l.acceptedIds, l.rejectedIds, l.accepted], [3, 0, true]);
  });
});

describe('D: shrinking iterations (Table 7)', () => {
  it('accepts 8 and rejects the last (< 2V), keeps the loop, and clusters iterations by length', async () => {
    const a = await analyse(S.shrinkingLoop().profile);
    const [loop] = a.loops;
    assert.deepEqual([loop!.acceptedIds, loop!.rejectedIds, loop!.accepted, loop!.profileInstances], [8, 1, true, 0]);
    for (const strip of laneStrips(a).values()) {
      assert.equal(strip.length, 8);
      assert.ok(new Set(strip).size >= 2, 'iteration clusters follow the shrinking lengths');
      for (let k = 1; k < strip.length; k++) assert.ok(strip[k]! >= strip[k - 1]!, 'clusters are runs of neighbours');
    }
  });

  it("D': 11 iterations of 30 V: 11 accepted, 0 rejected", async () => {
    const a = await analyse(S.constantLoop().profile);
    assert.deepEqual([a.loops[0]!.acceptedIds, a.loops[0]!.rejectedIds], [11, 0]);
  });
});

describe('E: 2000 iterations of 0.3 V', () => {
  it('rejects the identifiers and turns the whole loop into a profile node of ≈ 600 V', async () => {
    const { profile } = S.shortIterations();
    const a = await analyse(profile);
    const [loop] = a.loops;
    assert.equal(loop!.accepted, false);
    assert.equal(loop!.profileInstances, loop!.instances);
    assert.equal(loop!.acceptedIds, 0);
    const plan = planTraceAnalysis(traceSourceOf(profile));
    for (let lane = 0; lane < 2; lane++) {
      const { tree } = laneTree(plan, lane);
      const node = tree.children[0]!.children.find(c => c.kind === TctKind.Profile)!;
      near((node.end - node.start) / 1e6, 600, 2 * V, 'profile node duration (ms)');
    }
  });
});

describe('F: planted load imbalance (PFLOTRAN S2 analogue), 64 ranks', async () => {
  const { profile } = S.plantedImbalance();
  const a = await analyse(profile);

  it('clusters ranks 8–15 apart from the rest', () => {
    assert.deepEqual(clusterRanks(a), [[...range(0, 7), ...range(16, 63)], range(8, 15)]);
    near(a.clusters[0]!.nearestDistance!, 0.27, 0.02, 'diffRatio between the clusters');
  });

  it('accepts all 10 iterations on every rank, including those whose barrier gets no sample', () => {
    assert.deepEqual([a.loops[0]!.acceptedIds, a.loops[0]!.rejectedIds, a.loops[0]!.instances], [10, 0, 64]);
    const strips = laneStrips(a);
    assert.equal(strips.size, 64);
    for (const s of strips.values()) assert.equal(s.length, 10);
  });

  it('finds 43.75 ms of compute imbalance per iteration, a segment per barrier, row 3, ≈ 442 ms to save', () => {
    near(ms(a.runTime), 200 + 10 * 150.5 + 50, 2 * V, 'run time');
    const compute = a.significant.filter(s => s.name === 'compute');
    assert.equal(compute.length, 10);
    const slow = a.clusters.findIndex(c => c.members.some(l => rankOf(a, l) === 8));
    for (const c of compute) {
      near(ms(c.imbalance), 150 - 106.25, 2 * V, 'imb(compute)');
      assert.equal(c.maxCluster, slow, 'the max is in cluster {8–15}');
      assert.equal(c.class, 'computation');
    }
    assert.equal(a.segments.length, 10);
    for (const g of a.segments) {
      assert.equal(a.significant[g.sync!]!.name, 'MPI_Barrier');
      near(ms(g.imbS), 43.75, 2 * V, 'imb(S)');
      assert.equal(g.row, 3);
    }
    const saving = a.segments.reduce((s, g) => s + g.projectedSaving, 0);
    near(ms(saving), 10 * (43.75 + 0.5), 2 * V * 20, 'projected saving');
  });

  it('without LCAs, under-counts iterations on the ranks whose barrier gets no sample (known loss, §2.1.3)', async () => {
    const b = await analyse(S.plantedImbalance({ lca: 'none' }).profile);
    const strips = laneStrips(b);
    for (const [lane, s] of strips) {
      if (rankOf(b, lane) >= 8 && rankOf(b, lane) <= 15)
        assert.ok(s.length < 10, `rank ${rankOf(b, lane)}: ${s.length}`);
      else assert.equal(s.length, 10);
    }
  });
});

describe('G: offsetting imbalance (PFLOTRAN S1 analogue)', () => {
  it('selects f and g but not their parent, and diagnoses row 2', async () => {
    const a = await analyse(S.offsettingImbalance().profile);
    assert.deepEqual(
      a.significant.map(s => s.name),
      ['f', 'g', 'MPI_Barrier'],
    );
    near(ms(a.significant[0]!.imbalance), 100, 2 * V, 'imb(f)');
    near(ms(a.significant[1]!.imbalance), 90, 2 * V, 'imb(g)');
    assert.equal(a.segments.length, 1);
    near(ms(a.segments[0]!.imbS), 10, 2 * V, 'imb(S)');
    assert.equal(a.segments[0]!.row, 2);
  });
});

describe('H: balanced waiting', () => {
  it('selects the ring exchange and the barrier by waiting, with no imbalance: row 1', async () => {
    const a = await analyse(S.balancedWaiting().profile);
    const [sendrecv, barrier] = a.significant;
    assert.deepEqual(
      [sendrecv!.name, sendrecv!.byWait, barrier!.name, barrier!.byWait],
      ['MPI_Sendrecv', true, 'MPI_Barrier', true],
    );
    near(ms(sendrecv!.wait), 300, 2 * V, 'wait(Sendrecv)');
    // wait = min over 32 ranks of a sampled duration, which undercounts by up to 2 jittered periods.
    near(ms(barrier!.wait), 20, 2 * V * 1.1, 'wait(Barrier)');
    for (const s of a.significant) near(ms(s.imbalance), 0, 2 * V, `imb(${s.name})`);
    assert.deepEqual(
      a.segments.map(g => g.row),
      [1],
    );
  });
});

describe('I: serialisation (PFLOTRAN S2–S6 analogue), V = 0.1 ms', async () => {
  // A finer period keeps sampling noise (≈ V per node) under 0.1 % of this 285 ms run (§6.3).
  const a = await analyse(S.serialisation({ period: 0.1 }).profile);
  const v = 0.1;

  it('puts rank 0 alone in a cluster', () => {
    assert.deepEqual(clusterRanks(a)[0], [0]);
  });

  it('finds write_own, the P0 loop, MPI_Send and MPI_Barrier, row 5, ≈ 173 ms to save', () => {
    assert.deepEqual(
      a.significant.map(s => s.name),
      ['write_own', 'loop@22', 'MPI_Send', 'MPI_Barrier'],
    );
    const [writeOwn, p0loop, send, barrier] = a.significant;
    near(ms(writeOwn!.imbalance), 18.75, 2 * v, 'imb(write_own)');
    near(ms(p0loop!.imbalance), 154.69, 2 * v * 2, 'imb(P0 loop)');
    near(ms(send!.imbalance), 83.125, 2 * v * 2, 'imb(Send)');
    near(ms(send!.wait), 91.875, 2 * v * 2, 'wait(Send)');
    near(ms(barrier!.imbalance), 81.5625, 2 * v * 2, 'imb(Barrier)');
    assert.equal(a.loops[0]!.acceptedIds, 15);
    assert.equal(a.segments.length, 1);
    const [g] = a.segments;
    assert.equal(g!.row, 5);
    near(ms(g!.projectedSaving), 81.5625 + 91.875, 2 * v * 3, 'projected saving');
  });

  it("I': a broadcast from rank 0 absorbs the staircase: imb(S) Low, row 4", async () => {
    const b = await analyse(S.serialisationWithGroups({ period: 0.1 }).profile);
    const io = b.segments.find(g => g.paths.some(p => b.significant[p]!.name === 'write_own'))!;
    assert.equal(io.row, 4);
  });
});

describe('J: cluster recovery', () => {
  for (const layout of ['contiguous', 'interleaved'] as const)
    it(`finds the three planted groups exactly (${layout})`, async () => {
      const a = await analyse(S.threeGroups(layout).profile);
      const expected = [0, 1, 2].map(g => range(0, 63).filter(r => S.groupOf(r, layout) === g));
      assert.deepEqual(clusterRanks(a), expected);
    });

  it('with more groups (8) than K (6): at most K clusters, each a union of whole groups', async () => {
    const a = await analyse(S.eightGroups().profile);
    assert.ok(a.clusters.length <= 6);
    for (const members of clusterRanks(a)) {
      const groups = new Set(members.map(r => Math.floor(r / 8)));
      assert.equal(members.length, groups.size * 8, `cluster ${members} is whole groups`);
    }
  });
});

describe('K: phase change across iterations', async () => {
  const a = await analyse(S.phaseChange().profile);

  it('clusters iterations 1–10 apart from 11–20 on every rank, and ranks 0–3 apart from the rest', () => {
    const strips = laneStrips(a);
    assert.equal(strips.size, 16);
    for (const s of strips.values()) {
      assert.equal(new Set(s.slice(0, 10)).size, 1);
      assert.equal(new Set(s.slice(10)).size, 1);
      assert.notEqual(s[0], s[10]);
    }
    assert.deepEqual(clusterRanks(a), [range(0, 3), range(4, 15)]);
  });

  it('finds significant imbalance only in iterations 11–20', () => {
    const iterations = new Set(a.significant.filter(s => s.byImbalance).map(s => s.iteration));
    assert.deepEqual(
      [...iterations].sort((x, y) => x! - y!),
      range(10, 19),
    );
  });
});

describe('L: sampling tolerance (Fig. 8)', () => {
  it('two identical ranks sampled with different phases differ by ≤ 0.005 with the 2V tolerance', async () => {
    const { profile } = S.samplingTolerance();
    const plan = planTraceAnalysis(traceSourceOf(profile));
    const [t0, t1] = [0, 1].map(l => laneTree(plan, l).tree);
    const tolerant = roleTools(plan, 0).distance;
    assert.ok(tolerant.ratio(t0!, t1!) <= 0.005);
    const strict = planTraceAnalysis(traceSourceOf(profile), { gapTolerance: 0 });
    const exact = roleTools(strict, 0).distance.ratio(t0!, t1!);
    assert.ok(exact > 0.01, `without tolerance the ratio is ${exact}`);
    assert.equal((await analyse(profile)).clusters.length, 1);
  });
});

describe('M: the identity of Fig. 9 (V = 10 ms)', () => {
  it('imb(X) = imb(Y) = 4 s, wait(Y) ≈ 0, segments (X, Y) and (Z)', async () => {
    const a = await analyse(S.figureNine().profile);
    const v = 10;
    const [x, y, z] = a.significant;
    assert.deepEqual(
      a.significant.map(s => s.name),
      ['X', 'MPI_Barrier', 'MPI_Barrier'],
    );
    near(ms(x!.imbalance), 4000, 2 * v, 'imb(X)');
    near(ms(y!.imbalance), 4000, 2 * v, 'imb(Y)');
    near(ms(y!.wait), 0, 2 * v, 'wait(Y)');
    near(ms(z!.wait), 1000, 2 * v, 'wait(Z)');
    assert.deepEqual(
      a.segments.map(g => g.paths.map(p => a.significant[p]!.name)),
      [['X', 'MPI_Barrier'], ['MPI_Barrier']],
    );
  });
});

describe('O: LCA modes on scenario B', () => {
  const summary = (a: TraceAnalysis) => JSON.stringify([a.loops, clusterRanks(a)]);

  it('a procedure-level LCA (loops refined) gives the same result as exact LCAs', async () => {
    assert.equal(
      summary(await analyse(S.regularLoop({ lca: 'procedure' }).profile)),
      summary(await analyse(S.regularLoop().profile)),
    );
  });

  it('without LCAs, 1 to 23 iterations (baseline: 23 — the loop persists and its children change)', async () => {
    const a = await analyse(S.regularLoop({ lca: 'none' }).profile);
    assert.equal(a.loops[0]!.acceptedIds, 23);
  });
});
