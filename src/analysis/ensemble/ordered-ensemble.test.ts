import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { buildEnsemble, type Ensemble } from './ensemble';
import { loadEnsemble } from './ensemble-runs';
import { summarizeNode } from './node-statistics';
import { levelSeries, orderingKeys, orderRuns, orderScore, outOfOrderNodes, runParameter } from './ordered-ensemble';
import { runsFromOutlines } from './testing/outline-runs';

function nodeAt(e: Ensemble, path: string): number {
  for (let u = 0; u < e.size; u++) if (e.tree.path(u).join('/') === path) return u;
  throw new Error(`no node ${path}`);
}

// LULESH-like weak scaling over 8 core counts (AT-8): compute flat, MPI growing with the core count
// except that the 343-core run is faster in MPI than the 216-core run.
const CORES = [8, 27, 64, 125, 216, 343, 512, 729];
const MPI = [1.0, 1.5, 2.0, 2.5, 3.2, 2.6, 3.6, 4.0];
function weakScaling(): Ensemble {
  const outlines: Record<string, string> = {};
  CORES.forEach((c, r) => {
    outlines[`${c}_cores`] = `main = 0.1\n  CalcForce = ${10 + (r % 3) * 0.05}\n  MPI = ${MPI[r]}`;
  });
  // Insert out of order, so the order comes from the parameter, not the file order.
  const runs = runsFromOutlines(outlines).reverse();
  return buildEnsemble(runs);
}

describe('ordered ensembles', () => {
  it('orders runs by a numeric parameter numerically, and by text in natural order', () => {
    const e = weakScaling();
    const o = orderRuns(e, 'cores');
    assert.equal(o.numeric, true);
    assert.deepEqual(o.levels, CORES);
    assert.deepEqual(
      o.order.map(r => e.runs[r]!.name),
      CORES.map(c => `${c}_cores`),
    );
    const text = buildEnsemble(runsFromOutlines({ a: 'main = 1', b: 'main = 1', c: 'main = 1' }));
    text.runs[0]!.parameters.commit = 'v10';
    text.runs[1]!.parameters.commit = 'v9';
    const t = orderRuns(text, 'commit');
    assert.equal(t.numeric, false);
    assert.deepEqual(t.levels, ['v9', 'v10']);
    assert.deepEqual(t.unordered, [2]);
    assert.throws(() => orderRuns(text, 'nothing'), /no run has the parameter "nothing"/);
  });

  it('reads parameters first and scalar metadata second; lists keys with at least two values', () => {
    const e = weakScaling();
    assert.equal(runParameter(e.runs[0]!, 'cores'), 729);
    assert.equal(runParameter(e.runs[0]!, 'missing'), undefined);
    assert.deepEqual(
      orderingKeys(e).map(k => [k.key, k.numeric, k.distinct]),
      [['cores', true, 8]],
    );
  });

  it('AT-8: the text guides put the 343-core run in a lower MPI bin than the 216-core run, with run names per bin', () => {
    const e = weakScaling();
    const mpi = nodeAt(e, 'main/MPI');
    const h = summarizeNode(e, mpi, 'exclusive').histogram;
    const run = (c: number) => e.runIndex(`${c}_cores`);
    assert.ok(h.binOfRun[run(343)]! < h.binOfRun[run(216)]!);
    const names = h.runsInBin.map(rs => rs.map(r => e.runs[r]!.name));
    // Bins are 0.15 wide on [1, 4]: 2.6 (343 cores) shares a bin with 2.5 (125 cores), below 3.2 (216).
    assert.deepEqual(names[h.binOfRun[run(343)]!]!.slice().sort(), ['125_cores', '343_cores']);
    assert.deepEqual(names[h.binOfRun[run(216)]!], ['216_cores']);
    assert.equal(names.flat().length, 8);
  });

  it('series per level follow the order; the out-of-order node is flagged with the pair, noise is not', () => {
    const e = weakScaling();
    const o = orderRuns(e, 'cores');
    const mpi = nodeAt(e, 'main/MPI');
    assert.deepEqual([...levelSeries(e, o, mpi, 'exclusive')], MPI);
    const flagged = outOfOrderNodes(e, o, 'exclusive');
    assert.deepEqual(
      flagged.map(f => e.tree.path(f.node).join('/')),
      ['main/MPI'],
    );
    const inv = flagged[0]!.score.inversions;
    assert.deepEqual(
      inv.map(i => [o.levels[i.from], o.levels[i.to]]),
      [[216, 343]],
    );
    assert.ok(Math.abs(inv[0]!.change - -0.6) < 1e-12);
    assert.equal(flagged[0]!.score.direction, 1);
  });

  it('repetitions of one level collapse to their median; missing levels are skipped', () => {
    const e = buildEnsemble(
      runsFromOutlines({
        '8_ranks_1': 'main = 8',
        '8_ranks_2': 'main = 10',
        '8_ranks_3': 'main = 30',
        '16_ranks_1': 'main\n  x = 1',
        '32_ranks_1': 'main = 4\n  x = 2',
      }),
    );
    const o = orderRuns(e, 'ranks');
    assert.deepEqual(o.levels, [8, 16, 32]);
    assert.deepEqual([...levelSeries(e, o, nodeAt(e, 'main'), 'exclusive')], [10, 0, 4]);
    assert.deepEqual([...levelSeries(e, o, nodeAt(e, 'main/x'), 'exclusive')].map(String), ['NaN', '1', '2']);
  });

  it('scores: monotone 0, a reversal by its size, a flat noisy series not at all; an expected direction overrides the fit', () => {
    assert.deepEqual(orderScore([8, 4, 2, 1]), { direction: -1, outOfOrder: 0, worstReversal: 0, inversions: [] });
    const s = orderScore([8, 4, 6, 1]);
    assert.equal(s.direction, -1);
    assert.ok(Math.abs(s.outOfOrder - 2 / 11) < 1e-12);
    assert.ok(Math.abs(s.worstReversal - 2 / 6) < 1e-12);
    assert.deepEqual(s.inversions, [{ from: 1, to: 2, change: 2 }]);
    assert.equal(orderScore([10, 10.3, 9.9, 10.2, 10.1]).inversions.length, 0);
    assert.equal(orderScore([1, 2, 3], { expect: -1 }).inversions.length, 2);
    assert.equal(orderScore([NaN, 5]).direction, 0);
  });

  it(
    'LULESH 27…343 cores: MPI_Allreduce under TimeIncrement scales out of order (216 < 125 cores)',
    { skip: skipUnlessShared('data', 'caliper-cali/lulesh-mpi-scaling-5runs') },
    async () => {
      const { runs } = await loadEnsemble(sharedPath('data', 'caliper-cali/lulesh-mpi-scaling-5runs'));
      const e = buildEnsemble(runs);
      const o = orderRuns(e, 'cores');
      const flagged = outOfOrderNodes(e, o, 'inclusive');
      const allreduce = flagged.find(
        f => e.tree.path(f.node).join('/') === 'main/lulesh.cycle/TimeIncrement/MPI_Allreduce',
      );
      assert.ok(allreduce, flagged.map(f => e.tree.path(f.node).join('/')).join(', '));
      assert.deepEqual(
        allreduce.score.inversions.map(i => [o.levels[i.from], o.levels[i.to]]),
        [[125, 216]],
      );
    },
  );
});
