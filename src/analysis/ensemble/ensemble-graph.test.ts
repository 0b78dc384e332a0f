import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import type { EnsembleGraphData, EnsembleViewState } from '../../shared/ensemble-protocol';
import { binOf } from '../stats/histogram';
import { ensembleGraph, supernodeRunValues, type EnsembleGraphRequest } from './ensemble-graph';
import { EnsembleProfile } from './ensemble-profile';
import { loadEnsemble } from './ensemble-runs';
import { aggregateDiff, DiffPresence, targetStatistics } from './run-comparison';
import { generateSyntheticEnsemble } from './testing/synthetic-ensemble';
import { runsFromOutlines } from './testing/outline-runs';
import { ensembleViewState } from './testing/view-state';

function graphOf(ep: EnsembleProfile, s: EnsembleViewState, extra: Partial<EnsembleGraphRequest> = {}) {
  return ensembleGraph(ep, { title: 'test', state: s, ...extra });
}

function nodeOf(data: EnsembleGraphData, id: string) {
  const n = data.nodes.find(x => x.id === id);
  assert.ok(n, `no node ${id} among ${data.nodes.map(x => x.id).join(', ')}`);
  return n;
}

/** Every number in the message is finite (JSON would turn NaN into null where the views expect a number). */
function assertFinite(value: unknown, path = 'data'): void {
  if (typeof value === 'number') assert.ok(Number.isFinite(value), `${path} is ${value}`);
  else if (Array.isArray(value)) value.forEach((v, i) => assertFinite(v, `${path}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) assertFinite(v, `${path}.${k}`);
}

/** Runs named `name` with a program `main @app → leaf modules` whose exclusive values are given per run. */
function modulesEnsemble(values: Record<string, Record<string, number>>): EnsembleProfile {
  const outlines: Record<string, string> = {};
  for (const [run, mods] of Object.entries(values)) {
    outlines[run] = [
      'main @app = 1',
      ...Object.entries(mods).map(([m, v]) => `  ${m.toLowerCase()} @${m} = ${v}`),
    ].join('\n');
  }
  return new EnsembleProfile(runsFromOutlines(outlines), { path: '/runs' });
}

describe('ensemble super graph', () => {
  it('AT-7: a bimodal module (9 runs near min, 9 near max) fills bin 0 and the last bin with 9 each, the middle empty', () => {
    const values: Record<string, Record<string, number>> = {};
    for (let i = 0; i < 18; i++)
      values[`run${i}`] = { AMTree: i < 9 ? 1 + i * 0.01 : 10 + i * 0.01, Octree: 5 + (i % 3) };
    const { data } = graphOf(modulesEnsemble(values), ensembleViewState({ options: { bins: 20 } }));
    for (const side of ['inclusive', 'exclusive'] as const) {
      const g = nodeOf(data, 'AMTree').gradient[side];
      assert.equal(g.counts.length, 20);
      assert.equal(g.counts[0], 9);
      assert.equal(g.counts[19], 9);
      assert.ok(
        g.counts.slice(1, 19).every(c => c === 0),
        `middle bins ${g.counts.join(' ')}`,
      );
      assert.equal(g.min, 1);
      assert.equal(g.max, 10 + 17 * 0.01);
      assert.ok(data.countScale[side] >= 9);
    }
    // One global count scale: the largest bin of any node (app's exclusive is constant: all 18 in one bin).
    assert.equal(data.countScale.exclusive, 18);
    assert.equal(data.bins, 20);
  });

  it('AT-8: runs out of order against `cores` show in the bins of the run values and in the ordered sparkline', () => {
    const mpi: Record<number, number> = { 27: 1, 64: 2, 125: 3, 216: 5, 343: 4 };
    const values: Record<string, Record<string, number>> = {};
    for (const [cores, v] of Object.entries(mpi)) values[`${cores}_cores`] = { Calc: 1000 / Number(cores), MPI: v };
    const ep = modulesEnsemble(values);
    const { data } = graphOf(ep, ensembleViewState({ options: { bins: 5, orderBy: 'cores' } }));
    const node = nodeOf(data, 'MPI');
    const runName = (r: number) => data.runs[r]!.name;
    // The text guides list run names per bin from the run values: 343 cores sits a bin below 216 cores.
    const g = node.gradient.exclusive;
    const binByRun = new Map(
      data.selectedRuns.map((r, k) => [
        runName(r),
        binOf(node.runValues!.exclusive[k]!, g.min, g.max, g.counts.length),
      ]),
    );
    assert.deepEqual(
      [...binByRun],
      [
        ['27_cores', 0],
        ['64_cores', 1],
        ['125_cores', 2],
        ['216_cores', 4],
        ['343_cores', 3],
      ],
    );
    assert.ok(binByRun.get('343_cores')! < binByRun.get('216_cores')!);
    assert.deepEqual(data.order, {
      key: 'cores',
      levels: [27, 64, 125, 216, 343],
      runsAtLevel: [[0], [1], [2], [3], [4]],
    });
    assert.deepEqual(node.sparkline!.inclusive, [1, 2, 3, 5, 4]);
    assert.equal(node.sparkline!.outOfOrder, true);
    // Strong scaling of the compute module follows the order.
    assert.equal(nodeOf(data, 'Calc').sparkline!.outOfOrder, false);
    assert.ok(data.orderKeys.includes('cores'));
  });

  it('ordered ensemble: a level holds the mean of its selected runs where the node exists; unknown keys warn', () => {
    const ep = new EnsembleProfile(
      runsFromOutlines({
        '8_ranks_1': 'main @app = 1\n  io @IO = 2',
        '8_ranks_2': 'main @app = 1\n  io @IO = 4',
        '16_ranks_1': 'main @app = 1\n  calc @Calc = 1',
        '16_ranks_2': 'main @app = 1\n  io @IO = 9',
      }),
      { path: '/runs' },
    );
    const { data } = graphOf(ep, ensembleViewState({ options: { orderBy: 'ranks' } }));
    assert.deepEqual(data.order!.levels, [8, 16]);
    assert.deepEqual(nodeOf(data, 'IO').sparkline!.exclusive, [3, 9]);
    assert.deepEqual(nodeOf(data, 'Calc').sparkline!.exclusive, [null, 1]);
    // Restricted to the subset: the 16-rank level keeps only run 3.
    const sub = graphOf(ep, ensembleViewState({ runs: [0, 3], options: { orderBy: 'ranks' } })).data;
    assert.deepEqual(sub.order!.runsAtLevel, [[0], [3]]);
    assert.deepEqual(nodeOf(sub, 'IO').sparkline!.exclusive, [2, 9]);
    assert.equal(data.order!.unordered, undefined, 'every run has ranks');
    // A run whose ordering parameter is missing goes under "unordered", in no level and no sparkline.
    const partial = new EnsembleProfile(
      runsFromOutlines({
        '8_ranks': 'main @app = 1\n  io @IO = 2',
        '16_ranks': 'main @app = 1\n  io @IO = 4',
        no_parameter: 'main @app = 1\n  io @IO = 40',
      }),
      { path: '/runs' },
    );
    const p = graphOf(partial, ensembleViewState({ options: { orderBy: 'ranks' } })).data;
    assert.deepEqual(p.order!.runsAtLevel, [[0], [1]]);
    assert.deepEqual(p.order!.unordered, [2]);
    assert.deepEqual(nodeOf(p, 'IO').sparkline!.exclusive, [2, 4]);
    const unknown = graphOf(ep, ensembleViewState({ options: { orderBy: 'commit' } })).data;
    assert.equal(unknown.order, undefined);
    assert.ok(
      unknown.warnings.some(w => w.includes('cannot order by "commit"')),
      unknown.warnings.join('; '),
    );
  });

  it('AT-9: compare − baseline is positive for a slower module, negative for a faster one; the domain is max |diff|', () => {
    const ep = modulesEnsemble({
      base: { Calc: 10, MPI: 6, IO: 1 },
      cmp: { Calc: 13, MPI: 4, Only: 2 },
      other: { Calc: 11, MPI: 5, IO: 1 },
    });
    const { data } = graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 1 } }));
    assert.equal(nodeOf(data, 'Calc').diff!.exclusive, 3);
    assert.equal(nodeOf(data, 'MPI').diff!.exclusive, -2);
    // Present on one side only: the other side counts 0.
    assert.deepEqual(nodeOf(data, 'Only').diff, { exclusive: 2, inclusive: 2, baseline: null, compare: 2 });
    assert.deepEqual(nodeOf(data, 'IO').diff, { exclusive: -1, inclusive: -1, baseline: 1, compare: null });
    assert.equal(nodeOf(data, 'app').diff!.inclusive, 1 + 13 + 4 + 2 - (1 + 10 + 6 + 1));
    assert.equal(data.diffDomain, 3);
    assert.equal(data.links.find(l => l.target === 'Calc')!.diff, 3);
    assert.equal(data.links.find(l => l.target === 'MPI')!.diff, -2);
    // Swapping the pair flips every sign and keeps the domain.
    const swapped = graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 1, compare: 0 } })).data;
    for (const n of data.nodes) assert.equal(nodeOf(swapped, n.id).diff!.exclusive, 0 - n.diff!.exclusive!);
    assert.equal(swapped.diffDomain, 3);
  });

  it('AT-10: the graph does not depend on the diff pair or the target; only the colouring changes', () => {
    const syn = generateSyntheticEnsemble({ runs: 12, nodes: 600, seed: 11 });
    const ep = new EnsembleProfile(syn.runs, { path: '/syn' });
    const shape = (d: EnsembleGraphData) =>
      JSON.stringify({
        nodes: d.nodes.map(n => [
          n.id,
          n.label,
          n.maxInclusive,
          n.maxExclusive,
          n.minInclusive,
          n.present,
          n.gradient,
          n.callers,
          n.entries,
        ]),
        links: d.links.map(l => [l.source, l.target, l.value]),
        countScale: d.countScale,
        borderDomain: d.borderDomain,
      });
    const summary = graphOf(ep, ensembleViewState()).data;
    const variants = [
      graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 5 } })).data,
      graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 7, compare: 2 } })).data,
      graphOf(ep, ensembleViewState({ mode: 'target', target: 3 })).data,
      graphOf(ep, ensembleViewState({ mode: 'target', target: 10 })).data,
    ];
    for (const v of variants) assert.equal(shape(v), shape(summary));
    // …while the colouring does change, so the comparison above is not vacuous.
    assert.notDeepEqual(
      variants[0]!.nodes.map(n => n.diff),
      variants[1]!.nodes.map(n => n.diff),
    );
    assert.notDeepEqual(
      variants[2]!.nodes.map(n => n.target),
      variants[3]!.nodes.map(n => n.target),
    );
    assert.equal(summary.nodes[0]!.diff, undefined);
    assert.equal(summary.nodes[0]!.target, undefined);
  });

  it('AT-14: edge maxima from different runs can exceed the node maximum and are carried unchanged', () => {
    const ep = new EnsembleProfile(
      runsFromOutlines({
        a: 'lib1 @LIB1\n  lib2 @LIB2 = 20\n  lib3 @LIB3 = 5\n  lib4 @LIB4 = 5',
        b: 'lib1 @LIB1\n  lib2 @LIB2 = 5\n  lib3 @LIB3 = 10\n  lib4 @LIB4 = 5',
        c: 'lib1 @LIB1\n  lib2 @LIB2 = 1\n  lib3 @LIB3 = 1\n  lib4 @LIB4 = 35',
      }),
      { path: '/runs' },
    );
    const { data } = graphOf(ep, ensembleViewState());
    const out = data.links.filter(l => l.source === 'LIB1');
    assert.deepEqual(out.map(l => [l.target, l.value]).sort(), [
      ['LIB2', 20],
      ['LIB3', 10],
      ['LIB4', 35],
    ]);
    assert.equal(nodeOf(data, 'LIB1').maxInclusive, 37);
    assert.ok(out.reduce((s, l) => s + l.value, 0) > nodeOf(data, 'LIB1').maxInclusive);
    assert.equal(nodeOf(data, 'LIB1').maxInclusiveRun, 2);
    assert.deepEqual(nodeOf(data, 'LIB4').callers, [{ id: 'LIB1', value: 35 }]);
  });

  it('AT-16: distinct contexts stay apart; a missing supernode is null in its run values and left out of every statistic', () => {
    const ep = new EnsembleProfile(
      runsFromOutlines({
        r1: 'foo @F = 1\n  bar @B = 2\n    baz @Z = 3',
        r2: 'foo @F = 1\n  qux @Q = 2\n    baz @Z = 3',
        r3: 'foo @F = 1\n  bar @B = 7\n  qux @Q = 4\n    baz @Z = 5',
      }),
      { path: '/runs' },
    );
    const { data, presence, graph } = graphOf(ep, ensembleViewState({ options: { bins: 4 } }));
    const bar = nodeOf(data, 'B');
    assert.deepEqual(bar.runValues!.inclusive, [5, null, 7]);
    assert.equal(bar.present, 2);
    assert.equal(bar.minInclusive, 5);
    assert.equal(bar.minExclusive, 2);
    assert.equal(
      bar.gradient.inclusive.counts.reduce((a, b) => a + b, 0),
      2,
    );
    assert.deepEqual(nodeOf(data, 'Q').runValues!.exclusive, [null, 2, 4]);
    // baz under bar and under qux are two union contexts, both entering module Z.
    const z = nodeOf(data, 'Z');
    assert.equal(z.memberCount, 2);
    assert.equal(z.present, 3);
    assert.deepEqual(z.runValues!.inclusive, [3, 3, 5]);
    assert.deepEqual(z.callers.map(c => c.id).sort(), ['B', 'Q']);
    assert.deepEqual(nodeOf(data, 'F').runValues!.inclusive, [6, 6, 17]);
    const b = graph.nodes.findIndex(n => n.id === 'B');
    assert.deepEqual(
      [0, 1, 2].map(r => presence.isPresent(b, r)),
      [true, false, true],
    );
    // Target mode: a supernode missing in the target has null values and bin -1.
    const t = graphOf(ep, ensembleViewState({ mode: 'target', target: 1, options: { bins: 4 } })).data;
    assert.deepEqual(nodeOf(t, 'B').target, { inclusive: null, exclusive: null, binInclusive: -1, binExclusive: -1 });
    assert.equal(t.links.find(l => l.target === 'B')!.targetValue, 0);
    assert.equal(t.links.find(l => l.target === 'Q')!.targetValue, 5);
  });

  it('a run subset recomputes maxima, minima and histograms over the subset, with ensemble run indices', () => {
    const ep = modulesEnsemble({ r0: { Calc: 4 }, r1: { Calc: 9 }, r2: { Calc: 6 }, r3: { Calc: 2 } });
    const all = nodeOf(graphOf(ep, ensembleViewState()).data, 'Calc');
    assert.deepEqual([all.maxExclusive, all.maxExclusiveRun, all.minExclusive, all.present], [9, 1, 2, 4]);
    const sub = graphOf(ep, ensembleViewState({ runs: [3, 2] }));
    assert.deepEqual(sub.data.selectedRuns, [2, 3]);
    const calc = nodeOf(sub.data, 'Calc');
    assert.deepEqual([calc.maxExclusive, calc.maxExclusiveRun, calc.minExclusive, calc.present], [6, 2, 2, 2]);
    assert.deepEqual(calc.runValues!.exclusive, [6, 2]);
    assert.equal(
      calc.gradient.exclusive.counts.reduce((a, b) => a + b, 0),
      2,
    );
    assert.equal(sub.data.runs.length, 4, 'every run is listed for the selection lists');
    assert.equal(sub.data.links.find(l => l.target === 'Calc')!.value, 6);
  });

  it('a supernode missing in every selected run (kept by a zero filter) has empty statistics, never NaN', () => {
    const ep = modulesEnsemble({ r0: { Calc: 4, IO: 1 }, r1: { Calc: 9 }, r2: { Calc: 6 } });
    const r = graphOf(ep, ensembleViewState({ runs: [1, 2], mode: 'target', target: 0 }), { filter: { threshold: 0 } });
    const io = nodeOf(r.data, 'IO');
    assert.deepEqual([io.present, io.maxInclusive, io.minInclusive, io.maxInclusiveRun], [0, 0, 0, -1]);
    assert.deepEqual(io.runValues!.inclusive, [null, null]);
    assert.deepEqual(
      io.gradient.inclusive.counts.reduce((a, b) => a + b, 0),
      0,
    );
    // The target (outside the subset) has it, but there is no distribution to place it in.
    assert.deepEqual(io.target, { inclusive: 1, exclusive: 1, binInclusive: -1, binExclusive: -1 });
    assertFinite(r.data);
    // The default filter (0.1 % of the selected runs' total) removes it.
    assert.equal(
      graphOf(ep, ensembleViewState({ runs: [1, 2] })).data.nodes.some(n => n.id === 'IO'),
      false,
    );
  });

  it('target bins and values match targetStatistics for single-node supernodes, with fixed and automatic bins', () => {
    const values: Record<string, Record<string, number>> = {};
    for (let i = 0; i < 15; i++)
      values[`run${i}`] = { A: 1 + ((i * 7) % 11), B: 3 + Math.sin(i) * 2, C: i === 4 ? 50 : 5 + (i % 4) };
    const ep = modulesEnsemble(values);
    for (const bins of [20, 6, 'auto'] as const) {
      for (const target of [0, 4, 9]) {
        const r = graphOf(ep, ensembleViewState({ mode: 'target', target, options: { bins } }));
        for (const side of ['inclusive', 'exclusive'] as const) {
          const ts = targetStatistics(r.ensemble, target, side, bins);
          for (const id of ['A', 'B', 'C']) {
            const s = r.graph.nodes.findIndex(n => n.id === id);
            const u = r.graph.nodes[s]!.members[0]!;
            const n = nodeOf(r.data, id);
            assert.equal(n.target![side], ts.value[u]);
            assert.equal(
              side === 'inclusive' ? n.target!.binInclusive : n.target!.binExclusive,
              ts.bin[u],
              `${id} ${side} bins ${bins} target ${target}`,
            );
          }
        }
      }
    }
  });

  it('the default target is the slowest selected run; the default diff pair fastest → slowest', () => {
    const ep = modulesEnsemble({ a: { Calc: 5 }, b: { Calc: 9 }, c: { Calc: 1 }, d: { Calc: 7 } });
    assert.equal(graphOf(ep, ensembleViewState({ mode: 'target' })).target, 1);
    assert.equal(graphOf(ep, ensembleViewState({ mode: 'target', runs: [0, 2, 3] })).target, 3);
    assert.deepEqual(graphOf(ep, ensembleViewState({ mode: 'diff' })).diff, { baseline: 2, compare: 1 });
    assert.equal(graphOf(ep, ensembleViewState()).target, null);
  });

  it('rejects bad run indices, an empty subset, an unknown metric and a bad bin count with the reason', () => {
    const ep = modulesEnsemble({ a: { Calc: 1 }, b: { Calc: 2 }, c: { Calc: 3 } });
    assert.throws(() => graphOf(ep, ensembleViewState({ runs: [0, 9] })), {
      name: 'RangeError',
      message: /selected run 9 is not in the ensemble \(it has 3 runs, 0–2\)/,
    });
    assert.throws(() => graphOf(ep, ensembleViewState({ runs: [1.5] })), /selected run 1.5 is not in the ensemble/);
    assert.throws(() => graphOf(ep, ensembleViewState({ runs: [] })), /the run subset is empty/);
    assert.throws(() => graphOf(ep, ensembleViewState({ runs: [1, 1] })), /run 1 is selected twice/);
    assert.throws(
      () => graphOf(ep, ensembleViewState({ mode: 'target', target: 3 })),
      /target run 3 is not in the ensemble/,
    );
    assert.throws(
      () => graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: -1, compare: 0 } })),
      /diff baseline run -1/,
    );
    assert.throws(
      () => graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 7 } })),
      /diff compare run 7/,
    );
    assert.throws(
      () => graphOf(ep, ensembleViewState(), { metric: 'cycles' }),
      /metric "cycles" is not in the ensemble \(it has time\)/,
    );
    assert.throws(
      () => graphOf(ep, ensembleViewState({ options: { bins: 0 } })),
      /bin count must be a positive integer/,
    );
  });

  /** Run values, presence and diffs of a graph in diff mode against independent computations. */
  function checkAgainstRunSums(r: ReturnType<typeof ensembleGraph>): void {
    const { data, graph, ensemble } = r;
    for (let run = 0; run < ensemble.runCount; run++) {
      const v = supernodeRunValues(graph, ensemble, run);
      data.nodes.forEach((n, s) => {
        assert.equal(n.runValues!.inclusive[run], v.present[s] ? v.inclusive[s]! : null, `${n.id} run ${run}`);
        assert.equal(n.runValues!.exclusive[run], v.present[s] ? v.exclusive[s]! : null);
        assert.equal(r.presence.isPresent(s, run), v.present[s] === 1);
      });
      // The super graph's own per-run sums (the profile's zeros where missing) agree exactly.
      graph.nodes.forEach((nd, s) => assert.equal(v.inclusive[s], nd.inclusiveByContext[run]));
      graph.edges.forEach((e, i) => assert.equal(v.edges[i], e.valueByContext[run]));
    }
    const { baseline, compare } = r.diff!;
    const groups = aggregateDiff(
      ensemble,
      baseline,
      compare,
      graph.superOf,
      graph.nodes.map(n => n.id),
    );
    data.nodes.forEach((n, s) => {
      const g = groups[s]!;
      const hb = g.presence === DiffPresence.Both || g.presence === DiffPresence.OnlyBaseline;
      const hc = g.presence === DiffPresence.Both || g.presence === DiffPresence.OnlyCompare;
      assert.equal(n.diff!.exclusive, hb || hc ? (hc ? g.compare : 0) - (hb ? g.baseline : 0) : null, n.id);
      assert.equal(n.diff!.baseline, hb ? g.baseline : null);
      assert.equal(n.diff!.compare, hc ? g.compare : null);
      const present = n.runValues!.inclusive.filter((x): x is number => x !== null);
      assert.equal(n.present, present.length);
      assert.equal(
        n.gradient.inclusive.counts.reduce((a, b) => a + b, 0),
        present.length,
      );
      if (present.length) assert.equal(n.minInclusive, Math.min(...present));
    });
  }

  it("on a synthetic ensemble: run values agree with the super graph's per-run sums and diffs with aggregateDiff", () => {
    const syn = generateSyntheticEnsemble({ runs: 10, nodes: 800, seed: 5 });
    const ep = new EnsembleProfile(syn.runs, { path: '/syn' });
    const reveal = syn.missing.map(m => ({ node: m.path[1]!, function: m.path[m.path.length - 1]! }));
    const r = graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 3 } }), {
      filter: { threshold: 0 },
      reveal,
    });
    assert.deepEqual(r.data.unmatched, []);
    checkAgainstRunSums(r);
  });

  it('with modules missing in some runs: null run values, one-sided diffs, presence bits, all consistent', () => {
    const outlines: Record<string, string> = {};
    for (let run = 0; run < 9; run++) {
      const lines = ['main @app = 1'];
      if (run % 3 !== 0) lines.push(`  solve @Solver = ${2 + run}`, `    dgemm @BLAS = ${run % 4}`);
      lines.push(`  exchange @MPI = ${1 + ((run * 5) % 7)}`);
      if (run % 2 === 0) lines.push(`  write @IO = ${3 + run / 2}`, `    fsync @Kernel = 0.5`);
      outlines[`${8 << (run % 3)}_ranks_rep${run}`] = lines.join('\n');
    }
    const ep = new EnsembleProfile(runsFromOutlines(outlines), { path: '/runs' });
    for (const pair of [
      { baseline: 0, compare: 1 },
      { baseline: 1, compare: 2 },
      { baseline: 3, compare: 6 },
    ]) {
      const r = graphOf(ep, ensembleViewState({ mode: 'diff', diff: pair }));
      assert.deepEqual(
        new Map(r.data.nodes.map(n => [n.id, n.present])),
        new Map([
          ['app', 9],
          ['Solver', 6],
          ['BLAS', 6],
          ['MPI', 9],
          ['IO', 5],
          ['Kernel', 5],
        ]),
      );
      checkAgainstRunSums(r);
      assertFinite(r.data);
    }
    const ordered = graphOf(
      ep,
      ensembleViewState({ mode: 'target', target: 3, options: { orderBy: 'ranks', bins: 'auto' } }),
    ).data;
    assert.deepEqual(ordered.order!.levels, [8, 16, 32]);
    // Solver is missing in every 8-rank run (runs 0, 3, 6): null at that level.
    assert.equal(nodeOf(ordered, 'Solver').sparkline!.inclusive[0], null);
    assertFinite(ordered);
  });

  const lulesh = 'data/caliper-cali/lulesh-mpi-scaling-5runs';
  it(
    'the shared LULESH strong-scaling ensemble (5 .cali runs) is structurally sane in every mode',
    { skip: skipUnlessShared(lulesh) },
    async () => {
      const loaded = await loadEnsemble(sharedPath(lulesh));
      const ep = new EnsembleProfile(loaded.runs, { path: sharedPath(lulesh), errors: loaded.errors });
      const summary = graphOf(ep, ensembleViewState({ options: { orderBy: 'cores' } })).data;
      assert.equal(summary.runs.length, 5);
      assert.deepEqual(summary.runs.map(r => r.path).sort(), [
        '125_cores.cali',
        '216_cores.cali',
        '27_cores.cali',
        '343_cores.cali',
        '64_cores.cali',
      ]);
      assert.ok(summary.nodes.length >= 2, `${summary.nodes.length} nodes`);
      assert.deepEqual(summary.order!.levels, [27, 64, 125, 216, 343]);
      for (const n of summary.nodes) {
        assert.ok(n.present >= 1 && n.present <= 5, `${n.id} present ${n.present}`);
        for (const side of ['inclusive', 'exclusive'] as const) {
          assert.equal(
            n.gradient[side].counts.reduce((a, b) => a + b, 0),
            n.present,
            `${n.id} ${side} counts`,
          );
          const present = n.runValues![side].filter((v): v is number => v !== null);
          assert.equal(present.length, n.present);
          const max = side === 'inclusive' ? n.maxInclusive : n.maxExclusive;
          assert.ok(
            present.every(v => v <= max),
            `${n.id} ${side} max ${max} < a run value`,
          );
        }
        assert.ok(n.maxExclusive <= n.maxInclusive * (1 + 1e-12), `${n.id} exclusive above inclusive`);
      }
      const total = summary.nodes.filter(n => n.callers.length === 0).reduce((s, n) => s + n.maxInclusive, 0);
      assert.ok(total > 0);
      const diff = graphOf(ep, ensembleViewState({ mode: 'diff', diff: { baseline: 0, compare: 4 } })).data;
      assert.ok(diff.diffDomain! > 0);
      assert.equal(diff.diffDomain, Math.max(...diff.nodes.map(n => Math.abs(n.diff!.exclusive ?? 0))));
    },
  );
});

describe('ensemble graph: the CallFlow filter, repopulation and the supernode guard', () => {
  const syn = generateSyntheticEnsemble({ runs: 13, nodes: 1500, seed: 21 });
  const ep = new EnsembleProfile(syn.runs, { path: '/syn' });

  it('follows the single-run filter rule and reports its counts and folded callees', () => {
    const { data, graph } = graphOf(ep, ensembleViewState(), { filter: { threshold: 0.01 } });
    assert.equal(data.filter.totalNodes, ep.profile.tree.size);
    assert.equal(data.filter.removedNodes, graph.filter.removedNodes);
    assert.equal(data.filter.keptFunctions! + data.filter.removedFunctions, data.filter.totalFunctions);
    assert.ok(data.filter.removedNodes > 0);
    const folded = data.nodes.filter(n => n.filteredCallees);
    assert.ok(folded.length > 0);
    for (const n of folded) {
      assert.equal(n.filteredCalleeCount, graph.nodes.find(x => x.id === n.id)!.filteredCallees.length);
      assert.ok(n.filteredCallees!.every(c => c.maxInclusive >= 0 && c.count >= 1));
    }
  });

  it('repopulates a folded function under its node, and says which requests re-added nothing', () => {
    const before = graphOf(ep, ensembleViewState(), { filter: { threshold: 0.01 } });
    const host = before.data.nodes.find(n => n.filteredCallees)!;
    const fn = host.filteredCallees![0]!.name;
    const after = graphOf(ep, ensembleViewState(), {
      filter: { threshold: 0.01 },
      repopulate: [
        { node: host.id, function: fn },
        { node: host.id, function: 'no_such_function' },
      ],
    });
    assert.ok(after.data.filter.removedNodes < before.data.filter.removedNodes);
    assert.equal(after.data.filter.repopulatedNodes! > 0, true);
    assert.deepEqual(after.data.unmatchedRepopulate, [
      { node: host.id, function: 'no_such_function', reason: 'unknown-function' },
    ]);
  });

  it('sends the heaviest nodes with their paths when the graph exceeds maxSupernodes, colours unchanged', () => {
    const all = graphOf(ep, ensembleViewState({ mode: 'target', target: 4 }), { filter: { threshold: 0 } }).data;
    const limit = 4; // of 7 module nodes, all called from main
    const some = graphOf(ep, ensembleViewState({ mode: 'target', target: 4 }), {
      filter: { threshold: 0 },
      maxSupernodes: limit,
    }).data;
    assert.ok(some.guard && some.guard.shown <= limit && some.guard.supernodes === all.nodes.length);
    assert.equal(some.nodes.length, some.guard.shown);
    const ids = new Set(some.nodes.map(n => n.id));
    assert.ok(some.links.every(l => ids.has(l.source) && ids.has(l.target)));
    const byId = new Map(all.nodes.map(n => [n.id, n]));
    for (const n of some.nodes) {
      const full = byId.get(n.id)!;
      assert.equal(n.maxInclusive, full.maxInclusive);
      assert.deepEqual(n.target, full.target, `${n.id}: the target colouring follows the node`);
    }
    assert.deepEqual(
      [...ids].sort(),
      [...all.nodes]
        .sort((a, b) => b.maxInclusive - a.maxInclusive)
        .slice(0, limit)
        .map(n => n.id)
        .sort(),
      'the heaviest nodes are sent',
    );
    assert.ok(some.nodes.find(n => n.id === 'main')!.omittedInclusive! > 0, "the rest stays in main's bar");
    assertFinite(some);
  });
});
