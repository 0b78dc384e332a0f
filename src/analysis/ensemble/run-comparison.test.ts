import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnsemble, type Ensemble } from './ensemble';
import { ensembleCallGraph } from './ensemble-functions';
import {
  aggregateDiff,
  DiffPresence,
  diffRuns,
  fastestRun,
  modulesOfNodes,
  rankDiff,
  slowestRun,
  symmetricDomain,
  targetStatistics,
} from './run-comparison';
import { runsFromOutlines } from './testing/outline-runs';

function nodeAt(e: Ensemble, path: string): number {
  for (let u = 0; u < e.size; u++) if (e.tree.path(u).join('/') === path) return u;
  throw new Error(`no node ${path}`);
}

describe('diff of two runs', () => {
  // 27 and 64 cores: CalcForce and CalcLagrange slower at 64, MPI faster (the LULESH figure's pattern).
  const e = buildEnsemble(
    runsFromOutlines(
      {
        '27_cores':
          'main @lulesh = 1 1\n  CalcForce @lulesh = 10 10\n  CalcLagrange @lulesh = 4 4\n  MPI_Allreduce @MPI = 6 8\n  old @lulesh = 2 2',
        '64_cores':
          'main @lulesh = 1 1 1 1\n  CalcForce @lulesh = 13 13 13 13\n  CalcLagrange @lulesh = 5 5 5 5\n  MPI_Allreduce @MPI = 3 3 3 3\n  new @lulesh = 1 1 1 1',
      },
      { '27_cores': 2, '64_cores': 4 },
    ),
  );

  it('is compare − baseline by mean over ranks; positive = slower; missing on either side is NaN with its presence', () => {
    const d = diffRuns(e, 0, 1);
    assert.equal(d.exclusive[nodeAt(e, 'main/CalcForce')], 3);
    assert.equal(d.exclusive[nodeAt(e, 'main/MPI_Allreduce')], -4);
    assert.equal(d.inclusive[nodeAt(e, 'main')], 1 + 13 + 5 + 3 + 1 - (1 + 10 + 4 + 7 + 2));
    assert.ok(Number.isNaN(d.exclusive[nodeAt(e, 'main/old')]!));
    assert.equal(d.presence[nodeAt(e, 'main/old')], DiffPresence.OnlyBaseline);
    assert.equal(d.presence[nodeAt(e, 'main/new')], DiffPresence.OnlyCompare);
    assert.equal(d.presence[nodeAt(e, 'main/CalcForce')], DiffPresence.Both);
    // Swapping the pair flips every sign.
    const back = diffRuns(e, 1, 0);
    assert.equal(back.exclusive[nodeAt(e, 'main/CalcForce')], -3);
    assert.throws(() => diffRuns(e, 0, 2), /not in the ensemble/);
  });

  it('AT-10 (data): every pair is diffed over the same union nodes, so switching the pair keeps the graph', () => {
    const three = buildEnsemble(
      runsFromOutlines({ a: 'main = 1\n  x = 1', b: 'main = 2\n  y = 1', c: 'main = 3\n  x = 2\n  z = 1' }),
    );
    const ab = diffRuns(three, 0, 1),
      bc = diffRuns(three, 1, 2);
    assert.equal(ab.exclusive.length, three.size);
    assert.equal(bc.exclusive.length, three.size);
    const z = nodeAt(three, 'main/z');
    assert.equal(ab.presence[z], DiffPresence.Neither);
    assert.equal(bc.presence[z], DiffPresence.OnlyCompare);
  });

  it('AT-9: per-module sums (exclusive) give red = slower modules, green = faster, on a symmetric scale', () => {
    const { groupOfNode, names } = modulesOfNodes(e);
    const mods = aggregateDiff(e, 0, 1, groupOfNode, names);
    const lulesh = mods.find(m => m.name === 'lulesh')!,
      mpi = mods.find(m => m.name === 'MPI')!;
    assert.equal(lulesh.baseline, 1 + 10 + 4 + 2);
    assert.equal(lulesh.compare, 1 + 13 + 5 + 1);
    assert.equal(lulesh.diff, 3);
    assert.ok(lulesh.diff > 0 && mpi.diff < 0);
    const M = symmetricDomain(mods.map(m => m.diff));
    assert.equal(M, 4);
    // Per function, through the ensemble call graph.
    const g = ensembleCallGraph(e);
    const fns = aggregateDiff(e, 0, 1, g.functionOfNode, g.names);
    assert.deepEqual(
      fns.filter(f => f.presence !== DiffPresence.Both).map(f => [f.name, f.presence]),
      [
        ['old', DiffPresence.OnlyBaseline],
        ['new', DiffPresence.OnlyCompare],
      ],
    );
    assert.throws(() => aggregateDiff(e, 0, 1, new Int32Array(2), ['x']), /group map/);
  });

  it('per-rank differences of matched ranks, with a 20-bin histogram; unmatched ranks are counted, not zero-filled', () => {
    const r = rankDiff(e, nodeAt(e, 'main/MPI_Allreduce'), 0, 1)!;
    assert.deepEqual([...r.differences], [-3, -5]);
    assert.deepEqual(r.labels, ['rank 0', 'rank 1']);
    assert.equal(r.unmatched, 2);
    assert.equal(r.histogram.counts.length, 20);
    assert.equal(r.histogram.counts[0], 1);
    assert.equal(r.histogram.counts[19], 1);
    assert.equal(rankDiff(e, nodeAt(e, 'main/old'), 0, 1), null);
  });
});

describe('target vs ensemble', () => {
  const outlines: Record<string, string> = {};
  [5, 1, 3, 2, 4].forEach((v, r) => {
    outlines[`r${r}`] = `main = 1\n  work = ${v}${r === 4 ? '' : '\n  rare = 1'}`;
  });
  const e = buildEnsemble(runsFromOutlines(outlines));

  it("gives the target's value, mid-rank percentile, z-score and bin per node", () => {
    const work = nodeAt(e, 'main/work');
    const t = targetStatistics(e, 0, 'exclusive');
    assert.equal(t.value[work], 5);
    assert.equal(t.percentile[work], 90); // 4 below, itself equal: (4 + 0.5) / 5
    assert.ok(Math.abs(t.zScore[work]! - (5 - 3) / Math.sqrt(2.5)) < 1e-12);
    assert.equal(t.bin[work], 19);
    const mid = targetStatistics(e, 2, 'exclusive');
    assert.equal(mid.percentile[work], 50);
    assert.equal(mid.zScore[work], 0);
    assert.equal(mid.bin[work], 10);
    // All runs equal on `rare`: z = 0, percentile 50.
    const rare = nodeAt(e, 'main/rare');
    assert.equal(mid.zScore[rare], 0);
    assert.equal(mid.percentile[rare], 50);
    // `rare` is missing in r4: no value, no percentile, no bin.
    const last = targetStatistics(e, 4, 'exclusive');
    assert.ok(Number.isNaN(last.value[rare]!) && Number.isNaN(last.percentile[rare]!));
    assert.equal(last.bin[rare], -1);
    assert.equal(targetStatistics(e, 0, 'exclusive', 'auto').value[work], 5);
  });

  it('the default target is the run with the largest root inclusive time', () => {
    assert.equal(slowestRun(e), 0);
  });

  it('slowest and fastest among a subset of runs (the default target and diff pair of a selection)', () => {
    const three = buildEnsemble(runsFromOutlines({ a: 'main = 5', b: 'main = 9', c: 'main = 2' }));
    assert.deepEqual([slowestRun(three), fastestRun(three)], [1, 2]);
    assert.deepEqual([slowestRun(three, [0, 2]), fastestRun(three, [0, 1])], [0, 0]);
  });
});
