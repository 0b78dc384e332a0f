import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { MAX_RAW_CONTEXT_VALUES } from '../../shared/callflow-protocol';
import { readProfile } from '../formats';
import { exclusiveTime, profileFromOutline } from '../model/test-profiles';
import { NodeKind } from '../model/call-tree';
import { Profile } from '../model/profile';
import { ProfileBuilder } from '../model/profile-builder';
import { seededRandom } from '../stats/seeded-random';
import { binsAreContiguousInRank, nodeRankHistogram, rankHistogram } from './rank-histogram';
import { callflowData } from './sankey-data';
import { superGraph } from './super-graph';
import { superGraphData } from './super-graph-data';
import { assertInvariants } from './test-fixtures/graph-invariants';
import {
  beyondRawLimit,
  LIB5_ENTRIES,
  LULESH_MODULE_MAP,
  luleshLike,
  mirandaLike,
  WRAPPED_CLOCK,
} from './test-fixtures/synthetic-runs';

describe('Sankey message from the super graph', () => {
  const p = profileFromOutline(
    `
_start
  main @heat main.c:3 = 1 1
    step = 1 1
      sweep @libstencil = 2 6
        stencil.c:12 @libstencil = 10 30
      halo @libhalo = 1 1
        MPI_Sendrecv @libmpi = 8 2
          cb @libhalo = 1 1`,
    2,
  );

  it('keeps the fields the current Sankey draws: shares, imbalance and a source location per node', () => {
    const s = callflowData(p, 0, 'demo', { filter: { threshold: 0 } });
    assert.deepEqual(
      s.nodes.map(n => n.id),
      ['_start', 'heat', 'libstencil', 'libhalo', 'libmpi', 'libhalo#2'],
    );
    const stencil = s.nodes.find(n => n.id === 'libstencil')!;
    assert.equal(stencil.share, 48 / 66);
    assert.equal(stencil.imbalance, 36 / 24);
    assert.deepEqual(stencil.entry, { name: 'sweep', file: 'stencil.c', line: 12 });
    assert.deepEqual(s.nodes.find(n => n.id === 'heat')!.entry, { name: 'main', file: 'main.c', line: 3 });
    assert.equal(s.nodes.find(n => n.id === 'libhalo#2')!.label, 'libhalo (2)');
    assert.deepEqual(
      s.links.map(l => [l.source, l.target, l.value]),
      [
        ['_start', 'heat', 66],
        ['heat', 'libstencil', 48],
        ['heat', 'libhalo', 14],
        ['libhalo', 'libmpi', 12],
        ['libmpi', 'libhalo#2', 2],
      ],
    );
  });

  it('adds per-context values, histograms, entry functions, callers, member counts and the filter', () => {
    const s = callflowData(p, 0, 'demo', { filter: { threshold: 0 } });
    const stencil = s.nodes.find(n => n.id === 'libstencil')!;
    assert.deepEqual(stencil.contextValues, { inclusive: [12, 36], exclusive: [12, 36] });
    assert.equal(stencil.histogram, undefined, 'per-context values, not both: the views bin them');
    const binned = rankHistogram(stencil.contextValues!.inclusive, s.histogramBins);
    assert.deepEqual(
      binned.counts.filter(c => c > 0),
      [1, 1],
    );
    assert.deepEqual(binned.binOf, [0, 19]);
    assert.deepEqual(stencil.entries, [{ name: 'sweep', inclusive: 48, exclusive: 48, file: 'stencil.c', line: 12 }]);
    assert.equal(stencil.entryCount, 1);
    assert.deepEqual(stencil.callers, [{ id: 'heat', value: 48, share: 1 }]);
    assert.equal(stencil.memberCount, 2);
    assert.equal(stencil.functionCount, 1);
    assert.equal(stencil.kind, 'module');
    assert.deepEqual(s.contexts, { count: 2, indices: [0, 1], labels: ['rank 0', 'rank 1'] });
    assert.deepEqual(s.filter, {
      threshold: 0,
      by: 'inclusive',
      removedNodes: 0,
      removedFunctions: 0,
      totalFunctions: 7,
      keptFunctions: 7,
      totalNodes: 8,
      repopulatedNodes: 0,
    });
    assert.equal(s.guard, undefined, 'small graphs are sent whole');
    assert.equal(s.histogramBins, 20);
    assert.deepEqual(s.droppedLinks, []);
  });

  it('names split components with hyphens and echoes the split state', () => {
    const s = superGraphData(profileFromOutline(LIB5_ENTRIES), 'lib5', {
      filter: { threshold: 0 },
      splits: [
        { node: 'lib5', mode: 'entry' },
        { node: 'mpi', mode: 'caller' },
      ],
    });
    assert.deepEqual(
      s.nodes.map(n => [n.label, n.kind, n.baseId]),
      [
        ['app', 'module', 'app'],
        ['lib3', 'module', 'lib3'],
        ['lib5-lib5_setup', 'entry', 'lib5'],
        ['lib5-lib5_apply', 'entry', 'lib5'],
        ['mpi-lib5-lib5_apply', 'caller', 'mpi'],
        ['lib4', 'module', 'lib4'],
      ],
    );
    assert.deepEqual(s.splits, [
      { node: 'lib5', mode: 'entry' },
      { node: 'mpi', mode: 'caller' },
    ]);
  });

  it('shortens load-module paths in labels and keeps the module in the id', () => {
    const s = superGraphData(mirandaLike(8), 'miranda', {
      splits: [{ node: '/usr/lib/libpsm_infinipath.so.1', mode: 'caller' }],
    });
    const labels = s.nodes.map(n => n.label);
    assert.ok(labels.includes('libHYPRE.so'));
    assert.ok(labels.includes('libpsm_infinipath.so.1-libHYPRE.so'), labels.join(', '));
  });

  it('sends histograms only, not one value per context, beyond the raw limit', () => {
    const ranks = MAX_RAW_CONTEXT_VALUES + 1;
    const s = superGraphData(beyondRawLimit(), 'big');
    const node = s.nodes.find(n => n.id === 'mpi')!;
    assert.equal(node.contextValues, undefined);
    assert.equal(node.histogram!.inclusive.binOf, undefined);
    assert.equal(
      node.histogram!.inclusive.counts.reduce((a, b) => a + b, 0),
      ranks,
    );
  });
});

describe('per-rank histograms', () => {
  it('AT-3: an imbalanced module is skewed over several bins; a balanced one is concentrated', () => {
    const s = superGraphData(luleshLike(16), 'lulesh', { moduleMap: LULESH_MODULE_MAP });
    const force = nodeRankHistogram(
      s.nodes.find(n => n.id === 'CalcForce')!,
      'inclusive',
    )!;
    const timer = nodeRankHistogram(
      s.nodes.find(n => n.id === 'Timer')!,
      'inclusive',
    )!;
    const occupied = (c: number[]) => c.filter(x => x > 0).length;
    // 12 light ranks in the bottom bins, 4 heavy ones far right: a long right tail.
    assert.ok(occupied(force.counts) >= 2);
    assert.ok(
      force.counts.slice(0, 2).reduce((a, b) => a + b, 0) === 12 &&
        force.counts.slice(-2).reduce((a, b) => a + b, 0) === 4,
    );
    assert.ok((force.max - force.min) / force.min > 0.3, 'wide relative spread');
    // TimeIncrement: ±1 % noise → the whole distribution within 2 % of its minimum.
    assert.ok((timer.max - timer.min) / timer.min < 0.03);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const skew = (v: number[]) => {
      const m = mean(v);
      const sd = Math.sqrt(mean(v.map(x => (x - m) ** 2)));
      return mean(v.map(x => ((x - m) / sd) ** 3));
    };
    assert.ok(
      skew(s.nodes.find(n => n.id === 'CalcForce')!.contextValues!.inclusive) > 1,
      'skewed towards the slow ranks',
    );
  });

  it('AT-6: rank-correlated costs give one contiguous rank range per bin; a random permutation does not', () => {
    const g = superGraph(mirandaLike(64));
    const psm = g.nodes.find(n => n.id === '/usr/lib/libpsm_infinipath.so.1')!.inclusiveByContext;
    assert.ok(psm[0]! > psm[63]!, 'time decreases with rank');
    assert.ok(binsAreContiguousInRank(rankHistogram(psm)));
    const rnd = seededRandom(3);
    const shuffled = Float64Array.from(psm);
    for (let k = shuffled.length - 1; k > 0; k--) {
      const j = Math.floor(rnd() * (k + 1));
      [shuffled[k], shuffled[j]] = [shuffled[j]!, shuffled[k]!];
    }
    assert.ok(!binsAreContiguousInRank(rankHistogram(shuffled)));
  });

  it('bins on a linear or log axis, and falls back to linear for non-positive values', () => {
    const h = rankHistogram([1, 10, 100, 1000], 3, 'log');
    assert.equal(h.scale, 'log');
    assert.deepEqual(h.counts, [1, 1, 2]);
    assert.ok(Math.abs(h.edges[1]! - 10) < 1e-9);
    assert.equal(rankHistogram([0, 1, 2], 2, 'log').scale, 'linear');
    assert.deepEqual(
      rankHistogram([5, 5, 5], 20).counts.filter(c => c > 0),
      [3],
    );
    assert.deepEqual(rankHistogram([], 20).counts, []);
    assert.throws(() => rankHistogram([1], 0), /bin count 0 must be a positive integer/);
  });
});

describe('Sankey message: filter, repopulation and the supernode guard', () => {
  const p = profileFromOutline(WRAPPED_CLOCK);

  it('lists the folded functions of each node with value, count and location, and the filter counts', () => {
    const s = superGraphData(p, 'demo', { filter: { threshold: 0.01 } });
    const app = s.nodes.find(n => n.id === 'app')!;
    assert.deepEqual(
      app.filteredCallees!.map(c => [c.name, Math.round(c.inclusive * 10) / 10, c.count, c.file, c.line]),
      [
        ['log', 0.5, 1, 'log.c', 2],
        ['wrapA', 0.4, 1, 'w.c', 3],
        ['wrapB', 0.4, 1, 'w.c', 13],
        ['wrapC', 0.4, 1, 'w.c', 23],
      ],
    );
    assert.equal(app.filteredCalleeCount, 4);
    assert.equal(s.nodes.find(n => n.id === 'gpu')!.filteredCallees, undefined);
    assert.deepEqual(s.filter, {
      threshold: 0.01,
      by: 'inclusive',
      removedNodes: 7,
      removedFunctions: 4,
      totalFunctions: 8,
      keptFunctions: 4,
      totalNodes: 11,
      repopulatedNodes: 0,
    });
  });

  it('echoes repopulate requests and reports the ones that re-add nothing', () => {
    const s = superGraphData(p, 'demo', {
      filter: { threshold: 0.01 },
      repopulate: [
        { node: 'app', function: 'log' },
        { node: 'app', function: 'renamed_on_reload' },
      ],
    });
    assert.ok(s.nodes.some(n => n.id === 'io'));
    assert.deepEqual(s.repopulate, [
      { node: 'app', function: 'log' },
      { node: 'app', function: 'renamed_on_reload' },
    ]);
    assert.deepEqual(s.unmatchedRepopulate, [
      { node: 'app', function: 'renamed_on_reload', reason: 'unknown-function' },
    ]);
    assert.equal(s.filter!.repopulatedNodes, 1);
  });

  it('sends at most maxSupernodes nodes, the heaviest with their paths, and says what was left out', () => {
    const whole = superGraphData(p, 'demo', { filter: { threshold: 0 } });
    assert.equal(whole.nodes.length, 4);
    const s = superGraphData(p, 'demo', { filter: { threshold: 0 }, maxSupernodes: 3 });
    assert.deepEqual(
      s.nodes.map(n => n.id),
      ['app', 'gpu', 'rt'],
    );
    assert.deepEqual(
      s.links.map(l => [l.source, l.target]),
      [
        ['app', 'gpu'],
        ['app', 'rt'],
      ],
    );
    assert.deepEqual(
      { ...s.guard!, omittedInclusive: Math.round(s.guard!.omittedInclusive * 10) / 10 },
      { limit: 3, supernodes: 4, shown: 3, omitted: 1, omittedInclusive: 0.5 },
    );
    assert.ok(Math.abs(s.nodes[0]!.omittedInclusive! - 0.5) < 1e-12, 'io is left out: its flow stays in app');
  });
});

describe('super graph on real profiles', () => {
  const osu = 'data/hpctoolkit-xml/osu-allgather-10ranks-2threads';
  it(
    'HPCToolkit osu-allgather (10 ranks × 2 threads): invariants hold, MPI is split by caller',
    { skip: skipUnlessShared(osu) },
    async () => {
      const p = await readProfile(sharedPath(osu));
      const g = superGraph(p);
      assertInvariants(g);
      assert.ok(g.nodes.length > 2);
      assert.ok(g.filter.removedNodes > 0, 'the 0.1 % filter removes something on a real profile');
      // Issue 15's table at 0.1 % (was 266 folded): 312 of 1,474 nodes, 167 of 293 functions kept, 9 supernodes.
      assert.deepEqual(
        [g.filter.removedNodes, g.filter.totalNodes, g.filter.keptFunctions, g.filter.totalFunctions, g.nodes.length],
        [312, 1474, 167, 293, 9],
      );
      assert.ok(Math.abs(g.total - p.total(p.primaryMetric)) <= 1e-9 * g.total);
      const split = superGraph(p, {
        splits: g.nodes
          .filter(n => g.edges.filter(e => e.to === g.nodes.indexOf(n)).length > 1)
          .map(n => ({ node: n.id, mode: 'caller' as const })),
      });
      assertInvariants(split);
      const half = Int32Array.from({ length: p.contextCount / 2 }, (_, k) => k);
      assertInvariants(superGraph(p, { contexts: half }));
      const s = superGraphData(p, 'osu');
      assert.equal(s.contexts!.count, 20);
      assert.ok(
        s.nodes.every(
          n =>
            n.contextValues!.inclusive.length === 20 &&
            nodeRankHistogram(n, 'inclusive')!.counts.reduce((a, b) => a + b, 0) === 20,
        ),
      );
    },
  );

  const cali = 'data/caliper-cali/lulesh-mpi-scaling-5runs/27_cores.cali';
  it(
    'Caliper LULESH (27 ranks) with the LULESH module map: invariants hold',
    { skip: skipUnlessShared(cali) },
    async () => {
      const p = await readProfile(sharedPath(cali));
      const g = superGraph(p, { moduleMap: LULESH_MODULE_MAP, filter: { threshold: 0 } });
      assertInvariants(g);
      assert.ok(
        g.nodes.some(n => n.module === 'CalcForce' || n.module === 'MPI' || n.module === 'Lulesh'),
        g.nodes.map(n => n.id).join(', '),
      );
      assertInvariants(
        superGraph(p, {
          moduleMap: LULESH_MODULE_MAP,
          splits: g.nodes.map(n => ({ node: n.id, mode: 'entry' as const })),
        }),
      );
    },
  );

  const large = 'data/pprof/go-large-cpu/large.cpu.pb.gz';
  it(
    'pprof large.cpu (445k call-tree nodes): the 0.1 % filter leaves at most 100 supernodes; at 0 the message is guarded',
    { skip: skipUnlessShared(large) },
    async () => {
      const p = await readProfile(sharedPath(large));
      const g = superGraph(p);
      assert.ok(g.nodes.length <= 100, `${g.nodes.length} supernodes`);
      // Issue 15's table (was 162,780 supernodes): 11 of 23,038 functions reach 0.1 %; 12 supernodes, 11 edges.
      assert.deepEqual(
        [g.filter.removedNodes, g.filter.totalNodes, g.filter.keptFunctions, g.filter.totalFunctions, g.nodes.length],
        [445393, 445460, 11, 23038, 12],
      );
      assert.ok(g.filter.removedNodes / g.filter.totalNodes > 0.7, 'the thesis: 0.1 % removes 70–80 % or more');
      assertInvariants(g);
      const all = superGraph(p, { filter: { threshold: 0 } });
      assert.equal(all.filter.removedNodes, 0);
      const s = superGraphData(p, 'large', { filter: { threshold: 0 } }, all);
      assert.ok(
        s.guard && s.guard.shown <= 2000 && s.guard.omitted === all.nodes.length - s.guard.shown,
        JSON.stringify(s.guard),
      );
      assert.equal(s.nodes.length, s.guard.shown);
      // Level of detail: what the panel is sent stays small however large the graph (issue 15: under 5 MB).
      const bytes = Buffer.byteLength(JSON.stringify(s));
      assert.ok(bytes < 5 * 1024 * 1024, `${bytes} bytes for ${all.nodes.length} supernodes`);
      const ids = new Set(s.nodes.map(n => n.id));
      assert.ok(s.links.every(l => ids.has(l.source) && ids.has(l.target)));
      // Every node sent is reachable from a root that is sent.
      const into = new Map(s.links.map(l => [l.target, l.source]));
      for (const n of s.nodes) {
        let v = n.id;
        for (let steps = 0; into.has(v) && steps < s.nodes.length; steps++) v = into.get(v)!;
        assert.ok(!into.has(v), `${n.id} reaches ${v}`);
      }
    },
  );

  const lammps = 'data/hpctoolkit-metadb/lammps-openmp';
  it(
    'HPCToolkit LAMMPS: the 0.1 % filter folds at least 55 % of the nodes',
    { skip: skipUnlessShared(lammps) },
    async () => {
      const p = await readProfile(sharedPath(lammps));
      const g = superGraph(p);
      assert.ok(
        g.filter.removedNodes / g.filter.totalNodes >= 0.55,
        `${g.filter.removedNodes} of ${g.filter.totalNodes}`,
      );
      assertInvariants(g, p);
      assert.ok(Math.abs(g.total - p.total(p.primaryMetric)) <= 1e-9 * g.total, 'the roots hold the profile total');
      // Issue 15's table (was 730 folded): 1,189 of 1,908 (62.3 %), 58 of 230 functions kept, 14 supernodes.
      assert.deepEqual(
        [g.filter.removedNodes, g.filter.totalNodes, g.filter.keptFunctions, g.filter.totalFunctions, g.nodes.length],
        [1189, 1908, 58, 230, 14],
      );
    },
  );

  const resnet = 'data/chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz';
  it(
    // 5,372 nodes since an operator's Python call stack is read as frames inside its enclosing operator's.
    'PyTorch resnet50 trace: the 0.1 % filter folds 699 of 5,372 nodes, 132 supernodes',
    { skip: skipUnlessShared(resnet) },
    async () => {
      const p = await readProfile(sharedPath(resnet));
      const g = superGraph(p);
      assertInvariants(g, p);
      assert.deepEqual(
        [g.filter.removedNodes, g.filter.totalNodes, g.filter.keptFunctions, g.filter.totalFunctions, g.nodes.length],
        [699, 5372, 117, 192, 132],
      );
    },
  );
});

/** The per-node sums over a context subset as the dense computation made them: whole rows, added in subset order. */
function denseSubsetSums(p: Profile, side: 'inclusive' | 'exclusive', m: number, subset: Int32Array): Float64Array {
  const out = new Float64Array(p.tree.size);
  const row = new Float64Array(p.contextCount);
  for (let i = 0; i < p.tree.size; i++) {
    p.contextRow(side, m, i, row);
    let s = 0;
    for (const c of subset) s += row[c]!;
    out[i] = s;
  }
  return out;
}

function assertSameBits(a: Float64Array, b: Float64Array, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}: node ${i} ${a[i]} vs ${b[i]}`);
}

/** Subsets of C contexts: ascending, shuffled, one context, every context out of order. */
function subsetsOf(C: number, random: () => number): Int32Array[] {
  const all = Array.from({ length: C }, (_, c) => c);
  const shuffled = [...all].sort(() => random() - 0.5);
  return [
    Int32Array.from(all.filter(c => c % 3 !== 1)),
    Int32Array.from(shuffled.slice(0, Math.max(1, C >> 1))),
    Int32Array.of(C - 1),
    Int32Array.from(shuffled),
  ];
}

describe('super graph: per-context subset sums on the sparse form', () => {
  it('match the dense computation bit for bit on a generated profile of mostly zeros, and give the same graph', () => {
    const random = seededRandom(24);
    const C = 16;
    const b = new ProfileBuilder('test', 'sparse');
    const n = 4000;
    for (let i = 0; i < n; i++) b.tree.add(i === 0 ? -1 : Math.floor(random() * i), `f${i % 300}`, NodeKind.Function);
    const ctx = Array.from({ length: C }, (_, c) => b.context({ rank: c }));
    const m = b.addMetric(exclusiveTime());
    // About one cell in eight non-zero, values over six decades and some negative, so order shows in the bits.
    for (let i = 0; i < n; i++)
      for (let c = 0; c < C; c++)
        if (random() < 0.12) b.addExclusive(m, i, ctx[c]!, (random() - 0.1) * 10 ** Math.floor(random() * 6));
    const p = b.build(m);
    let compared = 0;
    for (const subset of subsetsOf(C, random))
      for (const side of ['exclusive', 'inclusive'] as const) {
        const sparse = p.contextSubsetSums(side, m, subset);
        assertSameBits(sparse, denseSubsetSums(p, side, m, subset), `${side} over [${subset.join(',')}]`);
        compared += sparse.filter(v => v !== 0).length;
      }
    assert.ok(compared > 1000, `${compared} non-zero sums compared`);
    // The same profile held as dense matrices (the path that sums rows) gives the same super graph.
    const dense = new Profile({ ...p.data, exclusive: [p.exclusive(m)], inclusive: [p.inclusive(m)] });
    const contexts = [...subsetsOf(C, random)[1]!];
    const a = superGraph(p, { contexts, filter: { threshold: 0 } });
    const d = superGraph(dense, { contexts, filter: { threshold: 0 } });
    assert.deepEqual(
      a.nodes.map(x => [x.id, x.inclusive, x.exclusive]),
      d.nodes.map(x => [x.id, x.inclusive, x.exclusive]),
    );
  });

  const lammps = 'data/hpctoolkit-metadb/lammps-openmp';
  it(
    'match the dense computation bit for bit on HPCToolkit lammps-openmp, every metric and side',
    { skip: skipUnlessShared(lammps) },
    async () => {
      const p = await readProfile(sharedPath(lammps));
      const random = seededRandom(5);
      assert.ok(p.contextCount > 1);
      for (let m = 0; m < p.metrics.length; m++)
        for (const subset of subsetsOf(p.contextCount, random))
          for (const side of ['exclusive', 'inclusive'] as const)
            assertSameBits(
              p.contextSubsetSums(side, m, subset),
              denseSubsetSums(p, side, m, subset),
              `${p.metrics[m]!.name} ${side} over [${subset.join(',')}]`,
            );
    },
  );
});
