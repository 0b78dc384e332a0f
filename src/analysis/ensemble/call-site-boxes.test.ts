import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { quantile, sampleKurtosis, sampleSkewness, sampleVariance } from 'simple-statistics';
import type { CallSiteSort } from '../../shared/ensemble-protocol';
import { superGraph } from '../graph/super-graph';
import { callSiteBoxes, rankValues } from './call-site-boxes';
import { EnsembleProfile } from './ensemble-profile';
import { valueBox } from './node-statistics';
import { summarizeRuns, openRuns } from './summary-store';
import {
  callSiteRunValues,
  supernodeCallSites,
  supernodeScope,
  type CallSites,
  type SupernodeScope,
} from './supernode-scope';
import { writeSyntheticEnsemble } from './testing/synthetic-ensemble';
import { runsFromOutlines } from './testing/outline-runs';
import type { Side } from './ensemble';

function boxesOf(
  outlines: Record<string, string>,
  contexts: Record<string, number>,
  module: string,
  o: {
    side?: Side;
    target?: number | null;
    iqrFactor?: number;
    sort?: CallSiteSort;
    maxBoxes?: number;
    runs?: number[] | null;
  } = {},
) {
  // An ensemble needs two runs: a single outline gets a run without the module beside it.
  const runs = Object.keys(outlines).length > 1 ? outlines : { ...outlines, without: 'main @app = 1' };
  const ep = new EnsembleProfile(runsFromOutlines(runs, contexts), { path: '/test' });
  const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
  const scope = supernodeScope(
    ep.ensemble,
    graph,
    graph.nodes.findIndex(n => n.id === module),
    o.runs ?? null,
    o.target ?? null,
    o.side ?? 'inclusive',
  );
  const sites = supernodeCallSites(scope);
  const ranks = rankValues(scope, sites, scope.runs);
  const targetRanks = scope.target >= 0 ? rankValues(scope, sites, Int32Array.of(scope.target)) : null;
  return {
    scope,
    sites,
    ranks,
    ...callSiteBoxes(scope, sites, callSiteRunValues(scope, sites), ranks, targetRanks, {
      iqrFactor: o.iqrFactor ?? 1.5,
      sort: o.sort ?? 'mean',
      module,
      profile: ep.profile,
      maxBoxes: o.maxBoxes,
    }),
  };
}

/** `work` per rank: run A 1 2 3 4, run B 5 6 7 100 (4 ranks each); run C lacks the lib module. */
const WORK = {
  A: 'main @app = 0 0 0 0\n  work @lib w.c:7 = 1 2 3 4',
  B: 'main @app = 0 0 0 0\n  work @lib w.c:7 = 5 6 7 100',
  C: 'main @app = 1',
};
const WORK_RANKS = { A: 4, B: 4 };

describe('call-site box plots', () => {
  it('box statistics over every rank of every run, hand-computed type-7 quartiles and 1.5 × IQR outliers with run and rank', () => {
    const { boxes, truncated } = boxesOf(WORK, WORK_RANKS, 'lib');
    assert.equal(truncated, 0);
    assert.equal(boxes.length, 1);
    const b = boxes[0]!;
    assert.equal(b.name, 'work');
    assert.deepEqual([b.file, b.line, b.present, b.path], ['w.c', 7, 2, 'lib › work']);
    const e = b.ensemble;
    // [1 2 3 4 5 6 7 100]: positions 1.75, 3.5, 5.25.
    assert.deepEqual([e.count, e.min, e.q1, e.median, e.q3, e.max], [8, 1, 2.75, 4.5, 6.25, 100]);
    assert.equal(e.mean, 16);
    assert.equal(e.imbalance, (100 - 16) / 16);
    // Fences 2.75 − 5.25 and 6.25 + 5.25 = 11.5: only 100 (run B, rank 3) is out.
    assert.deepEqual([e.whiskerLow, e.whiskerHigh, e.outlierCount], [1, 7, 1]);
    assert.deepEqual(e.outliers, [{ value: 100, run: 1, rank: 3 }]);
    const all = [1, 2, 3, 4, 5, 6, 7, 100];
    assert.ok(Math.abs(e.variance - sampleVariance(all)) < 1e-9);
    assert.ok(Math.abs(e.skewness! - sampleSkewness(all)) < 1e-12);
    assert.ok(Math.abs(e.kurtosis! - sampleKurtosis(all)) < 1e-12);
    assert.equal(b.target, undefined);
  });

  it('a wider fence keeps the far rank inside the whiskers', () => {
    const e = boxesOf(WORK, WORK_RANKS, 'lib', { iqrFactor: 30 }).boxes[0]!.ensemble;
    assert.deepEqual([e.whiskerHigh, e.outlierCount, e.outliers.length], [100, 0, 0]);
    const tight = boxesOf(WORK, WORK_RANKS, 'lib', { iqrFactor: 0.2 }).boxes[0]!.ensemble;
    // Fences 2.75 − 0.7 = 2.05 and 6.25 + 0.7 = 6.95: 1, 2, 7 and 100 are out, the farthest from the median first.
    assert.deepEqual(
      tight.outliers.map(o => o.value),
      [100, 1, 2, 7],
    );
    assert.deepEqual([tight.whiskerLow, tight.whiskerHigh], [3, 6]);
  });

  it("the target box is over the target run's ranks only, null when the target lacks the call site", () => {
    const b = boxesOf(WORK, WORK_RANKS, 'lib', { target: 1 }).boxes[0]!;
    const t = b.target!;
    assert.deepEqual(
      [t.count, t.min, t.q1, t.median, t.q3, t.max],
      [4, 5, quantile([5, 6, 7, 100], 0.25), 6.5, 30.25, 100],
    );
    assert.deepEqual(t.outliers, [{ value: 100, run: 1, rank: 3 }]);
    assert.equal(b.ensemble.count, 8);
    assert.equal(boxesOf(WORK, WORK_RANKS, 'lib', { target: 2 }).boxes[0]!.target, null);
    // A target outside the selected runs still gets its box; the ensemble box follows the selection.
    const subset = boxesOf(WORK, WORK_RANKS, 'lib', { target: 1, runs: [0, 2] }).boxes[0]!;
    assert.deepEqual([subset.ensemble.count, subset.ensemble.max, subset.present, subset.target!.count], [4, 4, 1, 4]);
  });

  it('counts a recursive function once (outermost frames) on the inclusive side and every frame on the exclusive side', () => {
    const rec = {
      a: 'main @app = 1 1\n  rec @lib = 1 2\n    rec @lib = 3 4\n      rec @lib = 5 6\n  other @lib = 1 1',
      b: 'main @app = 1 1',
    };
    const inc = boxesOf(rec, { a: 2, b: 2 }, 'lib');
    const r = inc.boxes.find(x => x.name === 'rec')!;
    assert.deepEqual([r.ensemble.min, r.ensemble.max, r.ensemble.count], [9, 12, 2]);
    assert.equal(r.path, 'lib › rec (3 calling contexts)');
    const exc = boxesOf(rec, { a: 2, b: 2 }, 'lib', { side: 'exclusive' }).boxes.find(x => x.name === 'rec')!;
    assert.deepEqual([exc.ensemble.min, exc.ensemble.max], [9, 12]);
    const top = boxesOf(
      { a: 'main @app = 1\n  rec @lib = 1\n    leaf @lib = 2\n      rec @lib = 4' },
      {},
      'lib',
    ).boxes.find(x => x.name === 'rec')!;
    assert.equal(top.ensemble.max, 7);
    const leaf = boxesOf({ a: 'main @app = 1\n  rec @lib = 1\n    leaf @lib = 2\n      rec @lib = 4' }, {}, 'lib', {
      side: 'exclusive',
    }).boxes.find(x => x.name === 'rec')!;
    assert.equal(leaf.ensemble.max, 5);
  });

  it("owned statements add to their function's exclusive value", () => {
    const { boxes } = boxesOf(
      { a: 'main @app = 1 1\n  f @lib = 1 1\n    f.c:3 = 2 4\n    g @lib = 10 10' },
      { a: 2 },
      'lib',
      { side: 'exclusive' },
    );
    assert.deepEqual(
      boxes.map(b => [b.name, b.ensemble.min, b.ensemble.max]),
      [
        ['g', 10, 10],
        ['f', 3, 5],
      ],
    );
  });

  it('sorts by mean, max, imbalance, variance or name, and sends the first ones', () => {
    const outlines = {
      a: 'main @app = 1 1\n  lib @lib = 0 0\n    flat @lib = 10 10\n    skew @lib = 1 19\n    zz @lib = 2 3',
    };
    const names = (sort: CallSiteSort, maxBoxes?: number) =>
      boxesOf(outlines, { a: 2 }, 'lib', { side: 'exclusive', sort, maxBoxes }).boxes.map(b => b.name);
    assert.deepEqual(names('mean'), ['flat', 'skew', 'zz', 'lib']);
    assert.deepEqual(names('max'), ['skew', 'flat', 'zz', 'lib']);
    assert.deepEqual(names('variance'), ['skew', 'zz', 'flat', 'lib']);
    assert.deepEqual(names('imbalance'), ['skew', 'zz', 'flat', 'lib']);
    assert.deepEqual(names('name'), ['flat', 'lib', 'skew', 'zz']);
    const cut = boxesOf(outlines, { a: 2 }, 'lib', { side: 'exclusive', sort: 'max', maxBoxes: 2 });
    assert.deepEqual([cut.boxes.map(b => b.name), cut.truncated], [['skew', 'flat'], 2]);
  });

  it('keeps per-rank values of runs with different rank counts apart and skips runs without the call site', () => {
    const many = Array.from({ length: 512 }, (_, r) => r + 1).join(' ');
    const { ranks, sites } = boxesOf(
      {
        small: `main @app = ${'1 '.repeat(8)}\n  work @lib = 1 1 1 1 1 1 1 1`,
        none: 'main @app = 1',
        big: `main @app = ${'1 '.repeat(512)}\n  work @lib = ${many}`,
      },
      { small: 8, big: 512 },
      'lib',
    );
    const w = ranks.callSites[sites.names.indexOf('work')]!;
    assert.deepEqual([...w.runs], [0, 2]);
    assert.deepEqual([...w.starts], [0, 8, 520]);
    assert.equal(w.values[519], 512);
    assert.deepEqual(
      ranks.supernode.map(v => v?.length ?? null),
      [8, null, 512],
    );
  });
});

describe('valueBox', () => {
  it('matches simple-statistics and refuses empty or NaN input', () => {
    const v = Float64Array.of(3.1, 4.7, 2.2, 9.8, 5.5, 4.1, 6.3, 3.9, 30, 4.4);
    const b = valueBox(v, 1.5, 1);
    assert.deepEqual([b.q1, b.median, b.q3], quantile([...v], [0.25, 0.5, 0.75]));
    assert.deepEqual([b.outlierCount, [...b.outliers]], [2, [8]]);
    assert.equal(valueBox(Float64Array.of(0, 0, 0)).imbalance, 0);
    assert.equal(valueBox(Float64Array.of(2)).skewness, null);
    assert.throws(() => valueBox(new Float64Array(0)), /no values/);
    assert.throws(() => valueBox(Float64Array.of(1, NaN)), /NaN/);
    assert.throws(() => valueBox(Float64Array.of(1), -1), /IQR factor/);
  });
});

/**
 * The per-rank values as first written (row by row through `contextRow`, every supernode node of
 * every run read): what `rankValues` must still give now that it reads only the rows that add to a
 * sum, in one `contextRows` call per run, with a plan per shared node map.
 */
function rankValuesRowByRow(scope: SupernodeScope, sites: CallSites, runs: Int32Array) {
  const { ensemble, inSupernode, isEntry, side, entries } = scope;
  const S = sites.names.length;
  const siteOf = side === 'inclusive' ? sites.inclusiveOf : sites.exclusiveOf;
  const values = Array.from({ length: S }, () => [] as number[]);
  const blockRuns = Array.from({ length: S }, () => [] as number[]);
  const blockStarts = Array.from({ length: S }, () => [] as number[]);
  const supernode: (Float64Array | null)[] = [];
  for (const run of runs) {
    if (!Array.from(entries).some(u => ensemble.isPresent(u, run))) {
      supernode.push(null);
      continue;
    }
    const p = ensemble.profile(run);
    const m = p.metricIndex(ensemble.metric.name);
    const C = p.contextCount;
    const row = new Float64Array(C),
      own = new Float64Array(C),
      acc = new Float64Array(S * C);
    const touched: number[] = [];
    const map = ensemble.unionNodes(run);
    for (let i = 0; i < map.length; i++) {
      const u = map[i]!;
      if (!inSupernode[u]) continue;
      p.contextRow(side, m, i, row);
      if (side === 'exclusive' || isEntry[u]) for (let c = 0; c < C; c++) own[c]! += row[c]!;
      const pr = sites.presenceOf[u]!;
      if (pr >= 0 && !touched.includes(pr)) touched.push(pr);
      const cs = siteOf[u]!;
      if (cs >= 0) for (let c = 0; c < C; c++) acc[cs * C + c]! += row[c]!;
    }
    supernode.push(own);
    for (const cs of touched) {
      blockRuns[cs]!.push(run);
      blockStarts[cs]!.push(values[cs]!.length);
      values[cs]!.push(...acc.subarray(cs * C, (cs + 1) * C));
    }
  }
  return {
    callSites: values.map((v, cs) => ({
      values: Float64Array.from(v),
      runs: Int32Array.from(blockRuns[cs]!),
      starts: Int32Array.from([...blockStarts[cs]!, v.length]),
    })),
    supernode,
  };
}

describe('per-rank values of a generated ensemble (issue 24: the detail reads only the rows it sums)', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-rank-values-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // From summaries (per-rank rows of the heavy nodes only, decoded on demand) and from the parsed profiles.
  for (const source of ['summaries', 'profiles'] as const)
    it(`equal the row-by-row values for every supernode, both sides, all runs and a subset (runs from ${source})`, async () => {
      const runsDir = join(dir, source, 'runs');
      writeSyntheticEnsemble(runsDir, { runs: 8, nodes: 1500, maxContexts: 4, seed: 11 });
      let from = runsDir;
      if (source === 'summaries') {
        from = join(dir, source, 'summaries');
        await summarizeRuns([runsDir], { out: from });
        rmSync(runsDir, { recursive: true });
      }
      const opened = await openRuns([from]);
      assert.equal(source === 'summaries' ? opened.fromSummaries : opened.parsed, 8);
      const ep = new EnsembleProfile(opened.runs, { path: from });
      const graph = superGraph(ep.profile, { filter: { threshold: 0 } });
      assert.ok(graph.nodes.length > 5);
      let compared = 0;
      for (let s = 0; s < graph.nodes.length; s++)
        for (const side of ['inclusive', 'exclusive'] as const)
          for (const runs of [null, [1, 4, 6]]) {
            const scope = supernodeScope(ep.ensemble, graph, s, runs, null, side);
            const sites = supernodeCallSites(scope);
            assert.deepEqual(rankValues(scope, sites, scope.runs), rankValuesRowByRow(scope, sites, scope.runs));
            compared += sites.names.length;
          }
      assert.ok(compared > 20, `${compared} call sites compared`);
    });
});
