/**
 * The MemAxes case-study findings (seed digest §4.2) on seeded synthetic data with planted ground
 * truth: what the memory panel and editor would show is computed here from the same analyses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { depthScores } from './depth-scores';
import { indicesWhere, select, type SampleScope } from './index-set';
import { prepareMemoryAnalysis, samplesAtNode, topologyLoad, type MemoryAnalysis } from './memory-analysis';
import { findAttribute } from './model/memory-samples';
import { clusterAlongAttribute, clusterBoundaries, clusterSamples, cutClusters } from './metric-clustering';
import { metricStrip } from './metric-strip';
import { lineCosts, variableCosts } from './source-costs';
import {
  idlePuScenario,
  latencyOutranksCountScenario,
  numaSkewScenario,
  phasesScenario,
  zidxScenario,
} from './testing/synthetic-memory';
import { totalCycles } from './model/memory-samples';
import { ancestorsOf } from '../topology/topology';

const NONE: SampleScope = { visible: null, selected: null };
const label = (a: MemoryAnalysis, node: number) => a.machine!.topology.nodes[node]!.label;

describe('seed acceptance: an idle PU', () => {
  const { samples, machine, idle } = idlePuScenario();
  const a = prepareMemoryAnalysis(samples, machine);
  const load = topologyLoad(a, null);
  const pu = depthScores(a, load)[0]!;

  it('PU 5 issues under 1 % of the mean and gets the minimum colour of its ring', () => {
    const node = machine.puOfCpu.get(idle)!;
    assert.ok(load.samples.node[node]! < 0.01 * pu.mean);
    assert.equal(label(a, pu.minNode), 'PU 5');
  });

  it('I at the PU depth names PU 5 as the extreme resource', () => {
    assert.equal(label(a, pu.extremeNode), 'PU 5');
    assert.ok(pu.imbalance > 5, `I_core = ${pu.imbalance}`);
  });

  it('clicking PU 5 selects exactly its samples', () => {
    const clicked = samplesAtNode(a, machine.puOfCpu.get(idle)!);
    const expected = indicesWhere(samples.count, i => samples.cpu[i] === idle);
    assert.deepEqual([...clicked], [...expected]);
    assert.equal(clicked.length, 12);
  });
});

describe('seed acceptance: NUMA skew (XSBench)', () => {
  const { samples, machine } = numaSkewScenario();
  const a = prepareMemoryAnalysis(samples, machine);
  const load = topologyLoad(a, null);

  it('NUMA 0 serves 282 loads and NUMA 1 none (the tooltips\u2019 values)', () => {
    assert.deepEqual(
      machine.nodesAt.numa.map(n => [label(a, n), load.samples.node[n]]),
      [
        ['NUMA 0', 282],
        ['NUMA 1', 0],
      ],
    );
  });

  it('I = 1 says nothing with two nodes; CV, max/mean and Gini show the skew and name NUMA 0', () => {
    const numa = depthScores(a, load)[4]!;
    assert.equal(numa.imbalance, 1);
    assert.deepEqual([numa.cv, numa.maxOverMean, numa.gini], [1, 2, 0.5]);
    assert.equal(label(a, numa.extremeNode), 'NUMA 0');
    assert.equal(label(a, numa.maxNode), 'NUMA 0');
  });
});

describe('seed acceptance: latency outranks count (LULESH)', () => {
  const { samples, machine, loopLine } = latencyOutranksCountScenario();
  const a = prepareMemoryAnalysis(samples, machine);

  it('fx, fy and fz rank above nodalMass by cycles though nodalMass has 3× their samples', () => {
    const vars = variableCosts(a, null);
    const rank = (name: string) => vars.findIndex(v => v.name === name);
    const nodalMass = vars[rank('nodalMass')]!;
    for (const v of ['fx', 'fy', 'fz']) {
      assert.ok(rank(v) < rank('nodalMass'), `${v} above nodalMass`);
      assert.ok(vars[rank(v)]!.samples * 2.5 < nodalMass.samples);
    }
  });

  it('the loop line holds the most cycles', () => {
    assert.equal(lineCosts(a, null)[0]!.line, loopLine);
  });

  it('selecting nodalMass, then filtering to L3, gives 16 samples at 405 cycles on average', () => {
    const nodalMass = samples.variable.names.indexOf('nodalMass');
    let scope = select(
      NONE,
      indicesWhere(samples.count, i => samples.variable.ids[i] === nodalMass),
      'new',
    );
    scope = select(
      scope,
      indicesWhere(samples.count, i => samples.level[i] === 3),
      'filter',
    );
    const sel = scope.selected!;
    assert.equal(sel.length, 16);
    const mean = [...sel].reduce((s, i) => s + samples.latency[i]!, 0) / sel.length;
    assert.equal(mean, 405);
    // fx, fy and fz reach L3 more often, at 1,100–2,700 cycles.
    const fx = samples.variable.names.indexOf('fx');
    const fxL3 = indicesWhere(samples.count, i => samples.variable.ids[i] === fx && samples.level[i] === 3);
    assert.ok(fxL3.length > 16);
    assert.ok([...fxL3].every(i => samples.latency[i]! >= 1100 && samples.latency[i]! <= 2700));
  });
});

describe('seed acceptance: consecutive z-indices on alternating sockets (LULESH)', () => {
  const alternating = zidxScenario();
  const remapped = zidxScenario({ remapped: true });
  const PU_IMBALANCE = { score: 'imbalance', depth: 'pu' } as const;

  /** The sockets (NUMA nodes) whose PUs issue samples of a cluster: what its hover glyph lights. */
  const socketsLit = (a: MemoryAnalysis, set: Int32Array) => {
    const load = topologyLoad(a, set);
    const t = a.machine!.topology;
    const lit = new Set<number>();
    for (const pu of a.machine!.nodesAt.pu)
      if (load.samples.node[pu]! > 0) lit.add(ancestorsOf(t, pu).find(n => t.nodes[n]!.kind === 'numa')!);
    return lit;
  };
  const clusters = (scenario: typeof alternating) => {
    const a = prepareMemoryAnalysis(scenario.samples, scenario.machine);
    const tree = clusterAlongAttribute(a, findAttribute(scenario.samples, 'zidx')!, PU_IMBALANCE);
    return { a, tree, cut: cutClusters(tree, 16) };
  };

  it('every cluster glyph along zidx lights both sockets', () => {
    const { a, tree, cut } = clusters(alternating);
    assert.equal(cut.length, 16);
    for (const c of cut) assert.equal(socketsLit(a, clusterSamples(tree, c)).size, 2);
    for (let leaf = 0; leaf < tree.leaves; leaf++) assert.equal(socketsLit(a, clusterSamples(tree, leaf)).size, 2);
  });

  it('after remapping, the glyphs stay on neighbouring PUs of one socket', () => {
    const { a, tree, cut } = clusters(remapped);
    const bothSockets = cut.filter(c => socketsLit(a, clusterSamples(tree, c)).size === 2);
    assert.ok(bothSockets.length <= 1, `${bothSockets.length} clusters span both sockets (only the middle one may)`);
    for (let leaf = 0; leaf < tree.leaves; leaf++) {
      const cores = new Set([...clusterSamples(tree, leaf)].map(i => remapped.samples.cpu[i]! % 16));
      const sorted = [...cores].sort((x, y) => x - y);
      assert.ok(sorted.length <= 2 && sorted.at(-1)! - sorted[0]! <= 1, `leaf ${leaf} on cores ${sorted}`);
    }
  });

  it('the remapped run spends about 60 % fewer cycles in L3', () => {
    const l3Cycles = (s: typeof alternating) => {
      const a = prepareMemoryAnalysis(s.samples, s.machine);
      const load = topologyLoad(a, null);
      return s.machine.nodesAt.l3.reduce((sum, n) => sum + load.cycles.node[n]!, 0);
    };
    const drop = 1 - l3Cycles(remapped) / l3Cycles(alternating);
    assert.ok(Math.abs(drop - 0.6) < 0.03, `L3 cycles drop ${(100 * drop).toFixed(1)} %`);
    assert.ok(totalCycles(remapped.samples) < totalCycles(alternating.samples));
  });
});

describe('seed acceptance: three phases along time (XSBench)', () => {
  const { samples, machine, edges } = phasesScenario();
  const a = prepareMemoryAnalysis(samples, machine);
  const time = findAttribute(samples, 'time')!;
  const phaseOf = (i: number) => (i < edges[0] ? 1 : i < edges[1] ? 2 : 3); // samples are written in time order

  it('selecting the NUMA nodes puts at least 95 % of the selection in phase 3', () => {
    const numa = machine.nodesAt.numa.map(n => samplesAtNode(a, n));
    const scope = select(select(NONE, numa[0]!, 'new'), numa[1]!, 'append');
    const sel = scope.selected!;
    const inPhase3 = [...sel].filter(i => phaseOf(i) === 3).length;
    assert.ok(inPhase3 / sel.length >= 0.95, `${inPhase3} of ${sel.length}`);
  });

  it('the L2-imbalance strip along time peaks in phase 2', () => {
    const strip = metricStrip(a, time, { score: 'imbalance', depth: 'l2' }, 30);
    const peak = strip.windows[strip.peak]!;
    const t0 = time.values[edges[0]]!,
      t1 = time.values[edges[1]]!;
    const mid = (peak.lo + peak.hi) / 2;
    assert.ok(mid >= t0 && mid < t1, `peak window [${peak.lo}, ${peak.hi}) outside phase 2 [${t0}, ${t1})`);
    // Every window inside phase 2 scores above every window outside it.
    const inside = strip.windows.filter(w => w.lo >= t0 && w.hi <= t1).map(w => w.value);
    const outside = strip.windows.filter(w => w.hi <= t0 || w.lo >= t1).map(w => w.value);
    assert.ok(Math.min(...inside) > Math.max(...outside));
  });

  it('clustering along time with L2 imbalance finds the phase edges within ±600 samples', () => {
    const tree = clusterAlongAttribute(a, time, { score: 'imbalance', depth: 'l2' });
    const bounds = clusterBoundaries(tree, cutClusters(tree, 3));
    assert.equal(bounds.length, 2);
    bounds.forEach((b, k) => assert.ok(Math.abs(b - edges[k]!) <= 600, `boundary ${b} vs phase edge ${edges[k]}`));
  });
});
