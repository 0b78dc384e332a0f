/**
 * The memory-samples system as the editor and the panel use it: opened by path through the
 * analysis service, asked what the panel draws, selected in, and asked for the editor profile of a
 * selection. On the real LULESH samples (the numbers) and on the seed acceptance scenarios
 * written as MemAxes files.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sampleFile } from '../../analysis/formats';
import { Profile } from '../../analysis/model/profile';
import {
  idlePuScenario,
  latencyOutranksCountScenario,
  numaSkewScenario,
  phasesScenario,
  zidxScenario,
} from '../../analysis/memory/testing/synthetic-memory';
import type { MemoryPanelData, MemorySelectionTarget } from '../../shared/memory-protocol';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { writeMemaxesRun } from '../../../test/support/memaxes-files';
import { tempFileWriter } from '../../../test/support/temp-files';
import { LocalAnalysisService } from '../local-analysis-service';
import { systemClaiming } from '.';
import type { MemoryRequest, MemoryShape } from './memory-system';

const LULESH = sharedPath('pebs-memaxes', 'lulesh');
const skipLulesh = skipUnlessShared('pebs-memaxes', 'lulesh');

/** A memory dataset opened through the service, and its requests. */
async function openMemory(path: string) {
  const service = new LocalAnalysisService();
  const opened = await service.open({ path });
  assert.equal(opened.system, 'memory', `${path} opens as memory samples`);
  if (opened.system !== 'memory') throw new Error('unreachable');
  const ask = <K extends MemoryRequest['kind']>(request: Extract<MemoryRequest, { kind: K }>) =>
    service.systemRequest({ dataset: opened.dataset, system: 'memory', request }) as Promise<MemoryShape['results'][K]>;
  const select = (target: MemorySelectionTarget, mode: 'new' | 'append' | 'filter' = 'new') =>
    ask({ kind: 'select', mode, target }) as Promise<MemoryPanelData>;
  return { service, opened, ask, select, profile: new Profile(opened.data) };
}

/** The topology node labelled `label`. */
function nodeNamed(d: MemoryPanelData, label: string): number {
  const k = d.topology!.nodes.findIndex(n => n.label === label);
  assert.ok(k >= 0, `no node ${label}`);
  return k;
}
const nodesOf = (d: MemoryPanelData, kind: string) => d.topology!.nodes.flatMap((n, k) => (n.kind === kind ? [k] : []));

describe('memory system: LULESH samples (issue 21)', { skip: skipLulesh }, () => {
  let m: Awaited<ReturnType<typeof openMemory>>;
  before(async () => {
    m = await openMemory(LULESH);
  });

  it('opens the MemAxes run folder with its machine', () => {
    assert.deepEqual(m.opened.opened, {
      samples: 15676,
      cycles: 1022618,
      format: 'memaxes',
      dialect: 'memaxes',
      samplesPath: join(LULESH, 'data', 'samples.out'),
      topologyPath: join(LULESH, 'hardware.xml'),
      machine: { numa: 2, l3: 2, l2: 16, l1: 16, pu: 32 },
      warnings: [],
    });
  });

  it('gives the editor a profile whose heat is the cycles per line, over the 32 PUs', async () => {
    const p = m.profile;
    assert.equal(p.format, 'memaxes');
    assert.equal(p.contextCount, 32);
    assert.deepEqual(
      p.contexts.slice(0, 3).map(c => c.label),
      ['PU 0', 'PU 1', 'PU 2'],
    );
    assert.equal(p.total(p.metricIndex('cycles')), 1022618);
    assert.equal(p.total(p.metricIndex('samples')), 15676);
    const d = await m.service.sideBar({
      dataset: m.opened.dataset,
      metric: p.primaryMetric,
      options: { hotPathThreshold: 0.05, listLength: 5 },
    });
    assert.deepEqual(
      d.topLines.slice(0, 3).map(l => [l.file, l.line, l.exclusive]),
      [
        ['LULESH_OMP.cc', 2035, 307110],
        ['LULESH_OMP.cc', 2056, 215196],
        ['LULESH_OMP.cc', 961, 106895],
      ],
    );
    // Source `??` has no line to mark; its cycles stay in the totals, under "?? (unknown source)".
    const unknown = d.topFunctions.find(f => f.name === '?? (unknown source)');
    assert.equal(unknown?.exclusive, 3136);
    // Per-level metrics add up to the cycles, and the L3 and RAM sample counts are the issue's.
    const levels = ['unresolved', 'L1', 'L2', 'L3', 'RAM'];
    const sum = (k: string) => p.total(p.metricIndex(k));
    assert.equal(
      levels.reduce((s, l) => s + sum(`${l} cycles`), 0),
      1022618,
    );
    assert.deepEqual(
      levels.map(l => sum(`${l} samples`)),
      [5229, 2597, 3162, 4014, 674],
    );
    // Lines are spread over PUs: the hot line's imbalance is max/mean over the PUs.
    assert.ok(d.topLines[0]!.contexts.imbalance > 1);
  });

  it('answers the panel: top variables and lines by cycles, levels per resource, imbalance per depth', async () => {
    const v = await m.ask({ kind: 'view' });
    assert.deepEqual(v.all, { samples: 15676, cycles: 1022618 });
    assert.equal(v.selected, null);
    assert.deepEqual(
      v.variables.slice(0, 2).map(x => [x.name, x.cycles, x.samples]),
      [
        ['m_x', 425345, 6535],
        ['m_xd', 225574, 2339],
      ],
    );
    assert.deepEqual(
      v.files[0]!.lines.slice(0, 3).map(l => [l.line, l.cycles]),
      [
        [2035, 307110],
        [2056, 215196],
        [961, 106895],
      ],
    );
    assert.equal(v.files.length, 2);
    assert.ok(v.files[0]!.lines.length <= 8);
    const served = (kind: string) => nodesOf(v, kind).map(n => v.total!.samples.node[n]);
    assert.deepEqual(served('l3'), [1968, 2046]);
    assert.deepEqual(served('numa'), [337, 337]);
    const pus = served('pu');
    assert.equal(pus.length, 32);
    assert.ok(Math.min(...pus) >= 341 && Math.max(...pus) <= 768, `PUs hold ${Math.min(...pus)}–${Math.max(...pus)}`);
    // L1 and L2 loads climb one and two links; an L3 load three, so the L2 → L3 links carry L3 and RAM loads.
    const l2Links = nodesOf(v, 'l2').reduce((s, n) => s + v.total!.transactions.node[n]!, 0);
    assert.equal(l2Links, 4014 + 674);
    const depth = (d: string) => v.depths.find(x => x.depth === d)!;
    assert.equal(depth('l3').imbalance, 1, 'I = 1 in the two-resource case');
    assert.equal(depth('numa').imbalance, 0, 'I = 0 when σ = 0');
    assert.equal(depth('numa').extreme, null);
    for (const d of ['l3', 'numa']) {
      const row = depth(d);
      for (const k of ['cv', 'maxOverMean', 'gini'] as const) assert.ok(Number.isFinite(row[k]), `${d} ${k}`);
    }
    assert.ok(depth('l3').cv > 0 && depth('l3').gini > 0);
    assert.equal(depth('numa').maxOverMean, 1);
    assert.equal(v.histograms.length, 14);
    assert.equal(v.histograms.find(h => h.attribute === 'latency')!.visible.length, 100);
    assert.equal(
      v.histograms[0]!.visible.reduce((s, c) => s + c, 0),
      15676,
    );
  });

  it('selects, filters, appends and hides; the selection has its own editor profile', async () => {
    let v = await m.select({ kind: 'variable', name: 'm_x' });
    assert.deepEqual(v.selected, { samples: 6535, cycles: 425345 });
    assert.ok(Math.abs(v.focusShare - 425345 / 1022618) < 1e-12);
    assert.equal(v.variables[0]!.name, 'm_x');
    assert.equal(v.variables.length, 1);
    const sel = await m.ask({ kind: 'selectionProfile' });
    const p = new Profile(sel!.data);
    assert.equal(p.total(0), 425345);
    assert.equal(p.tree.size, m.profile.tree.size, 'the same tree as the whole run');
    // Filter to one L3: only its loads of m_x.
    v = await m.select({ kind: 'node', node: nodeNamed(v, 'L3 0') }, 'filter');
    const l3 = v.selected!.samples;
    assert.ok(l3 > 0 && l3 < 6535);
    assert.equal(v.selection!.samples.node[nodeNamed(v, 'L3 0')], l3);
    assert.equal(v.selection!.samples.node[nodeNamed(v, 'L3 1')], 0);
    v = await m.select({ kind: 'line', file: 'LULESH_OMP.cc', line: 2056 }, 'append');
    assert.ok(v.selected!.samples > l3);
    v = await m.ask({ kind: 'scope', action: 'hideUnselected' });
    assert.equal(v.selected, null);
    assert.equal(v.visible.samples, l3 + 1);
    assert.ok(await m.ask({ kind: 'selectionProfile' }), 'hidden samples: the visible ones make the editor profile');
    v = await m.ask({ kind: 'scope', action: 'showAll' });
    assert.equal(v.visible.samples, 15676);
    assert.equal(await m.ask({ kind: 'selectionProfile' }), null, 'everything visible, nothing selected');
  });

  it('brushes ranges on several axes at once: samples inside every range', async () => {
    const v = await m.select({
      kind: 'ranges',
      ranges: [
        { attribute: 'latency', min: 300, max: 1e9 },
        { attribute: 'cpu', min: 0, max: 7 },
      ],
    });
    assert.ok(v.selected!.samples > 0);
    const lat = v.histograms.find(h => h.attribute === 'latency')!;
    const width = (lat.max - lat.min) / 100;
    lat.selected!.forEach((c, b) => {
      if (c > 0) assert.ok(lat.min + (b + 1) * width >= 300, `bin ${b} holds selected latencies below 300`);
    });
    await m.ask({ kind: 'scope', action: 'clear' });
  });

  it('scores metric strips and clusters along an attribute', async () => {
    const strip = await m.ask({
      kind: 'strip',
      attribute: 'time',
      metric: { score: 'imbalance', depth: 'pu' },
      windows: 20,
    });
    assert.equal(strip.windows.length, 20);
    assert.equal(
      strip.windows.reduce((s, w) => s + w.samples, 0),
      15676,
    );
    const c = await m.ask({
      kind: 'clusters',
      attribute: 'zidx',
      metric: { score: 'imbalance', depth: 'pu' },
      count: 4,
    });
    assert.equal(c.clusters.length, 4);
    for (const x of c.clusters) assert.ok(x.cycles!.length === 69 && x.end > x.start && x.min <= x.max);
    const v = await m.select({ kind: 'cluster', attribute: 'zidx', metric: c.metric, node: c.clusters[0]!.node });
    assert.equal(v.selected!.samples, c.clusters[0]!.end - c.clusters[0]!.start);
    await m.ask({ kind: 'scope', action: 'clear' });
  });

  it('says what is wrong with a request', async () => {
    await assert.rejects(m.select({ kind: 'variable', name: 'nope' }), /no samples name the variable nope/);
    await assert.rejects(
      m.ask({ kind: 'strip', attribute: 'colour', metric: { score: 'imbalance', depth: 'pu' }, windows: 5 }),
      /no attribute "colour"/,
    );
    await assert.rejects(
      m.ask({ kind: 'clusters', attribute: 'cpu', metric: { score: 'imbalance', depth: 'pu' }, count: 3 }),
      /continuous attribute/,
    );
    await assert.rejects(m.select({ kind: 'node', node: 999 }), /not a resource/);
  });

  it('reads the other runs: lulesh_inorder.out, and biggiesmalls exactly as samples.out', async () => {
    const inorder = await openMemory(join(LULESH, 'data', 'lulesh_inorder.out'));
    assert.equal((inorder.opened.opened as { samples: number }).samples, 16360);
    assert.equal(inorder.profile.contextCount, 32, 'the hardware.xml beside data/ is found');
    const a = await openMemory(join(LULESH, 'data', 'samples.out'));
    const b = await openMemory(join(LULESH, 'data', 'lulesh_biggiesmalls.out'));
    assert.deepEqual(await b.ask({ kind: 'summary' }), await a.ask({ kind: 'summary' }));
  });
});

describe('memory system: what it claims', () => {
  const files = tempFileWriter('memory-claims');
  after(() => rmSync(files.dir, { recursive: true, force: true }));

  it('claims MemAxes and Mitos CSVs, perf memory samples and run folders; not profiles or call-chain perf scripts', async () => {
    const claims = async (p: string) => systemClaiming(await sampleFile(p));
    const csv = files.write('s.csv', 'variable,source,line,latency,dataSource,cpu\nx,a.c,1,10,1,0\n');
    const mitos = files.write('m.csv', 'source,line,variable,addr,cpu,latency,data_src\na.c,1,x,10,0,20,0\n');
    const run = join(files.dir, 'run');
    mkdirSync(join(run, 'data'), { recursive: true });
    writeFileSync(join(run, 'hardware.xml'), '<Hardware name="x"></Hardware>\n');
    writeFileSync(join(run, 'data', 'samples.out'), 'variable,source,line,latency,dataSource,cpu\nx,a.c,1,10,1,0\n');
    assert.equal(await claims(csv), 'memory');
    assert.equal(await claims(mitos), 'memory');
    assert.equal(await claims(run), 'memory');
    assert.equal(
      await claims(join(__dirname, '../../../test/fixtures/memory/perf-mem-script-hand-made.txt')),
      'memory',
    );
    const callChains = files.write(
      'perf.txt',
      'stencil 4242 [001] 1000.000100:     100000 cpu-clock:\n\t    55d0c0a0 relax+0x10 (/bin/stencil)\n\t    55d0c0b0 main+0x20 (/bin/stencil)\n\n',
    );
    assert.equal(await claims(callChains), null);
    const folded = files.write('stacks.folded', 'main;solve 10\nmain;io 2\n');
    assert.equal(await claims(folded), null);
    assert.equal(
      await claims(join(__dirname, '../../../samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json')),
      null,
    );
  });
});

describe('memory system: bad input', () => {
  const files = tempFileWriter('memory-bad');
  after(() => rmSync(files.dir, { recursive: true, force: true }));
  const open = (path: string) => new LocalAnalysisService().open({ path });

  it('names a missing column, and the file', async () => {
    const p = files.write('nocpu.csv', 'variable,source,line,latency,dataSource\nx,a.c,1,10,1\n');
    await assert.rejects(open(p), (e: Error) => e.message.includes(p) && /missing column "cpu"/.test(e.message));
    const q = files.write('nolat.csv', 'variable,source,line,cpu,dataSource\nx,a.c,1,0,1\n');
    await assert.rejects(open(q), /missing column "latency"/);
    const r = files.write('nods.csv', 'variable,source,line,cpu,latency\nx,a.c,1,0,1\n');
    await assert.rejects(open(r), /missing column "dataSource"/);
  });

  it('counts non-hex data sources as unresolved with a warning, and keeps unplaced CPUs', async () => {
    const run = join(files.dir, 'run');
    mkdirSync(join(run, 'data'), { recursive: true });
    writeFileSync(
      join(run, 'hardware.xml'),
      '<Hardware name="x"><NUMA id="0"><Cache id="3"><Cache id="2"><Cache id="1"><CPU id="0"></CPU><CPU id="1"></CPU></Cache></Cache></Cache></NUMA></Hardware>\n',
    );
    writeFileSync(
      join(run, 'data', 'samples.out'),
      'variable,source,line,time,latency,dataSource,cpu\nx,a.c,1,a,10,zz,0\nx,a.c,2,b,20,1,7\ny,a.c,2,c,30,4,1\n',
    );
    const m = await openMemory(run);
    const opened = m.opened.opened as { warnings: string[] };
    assert.ok(
      opened.warnings.some(w =>
        /1 sample has a data source that is not a hexadecimal number \(first at line 2: "zz"\)/.test(w),
      ),
    );
    assert.ok(opened.warnings.some(w => /CPU id 7 not in the topology: unplaced/.test(w)));
    const v = await m.ask({ kind: 'view' });
    assert.deepEqual(v.all, { samples: 3, cycles: 60 });
    assert.deepEqual(v.total!.unplaced, { samples: 1, cycles: 20 });
    assert.equal(m.profile.total(m.profile.metricIndex('unresolved samples')), 1);
    assert.deepEqual(
      m.profile.contexts.map(c => c.label),
      ['PU 0', 'PU 1', 'CPU 7 (unplaced)'],
    );
  });

  it('gives the line of malformed topology XML', async () => {
    const run = join(files.dir, 'badxml');
    mkdirSync(join(run, 'data'), { recursive: true });
    writeFileSync(join(run, 'hardware.xml'), '<Hardware name="x">\n<NUMA id="0">\n</Cache>\n</Hardware>\n');
    writeFileSync(join(run, 'data', 'samples.out'), 'variable,source,line,latency,dataSource,cpu\nx,a.c,1,10,1,0\n');
    await assert.rejects(open(run), (e: Error) => e.message.includes('hardware.xml') && /line 3/.test(e.message));
  });

  it('without a topology the code and variable views still work', async () => {
    const p = files.write('alone.csv', 'variable,source,line,latency,dataSource,cpu\nx,a.c,1,10,1,0\ny,a.c,2,30,4,3\n');
    const m = await openMemory(p);
    const v = await m.ask({ kind: 'view' });
    assert.equal(v.topology, null);
    assert.equal(v.machineView, null);
    assert.equal(v.total, null);
    assert.deepEqual(v.depths, []);
    assert.deepEqual(
      v.variables.map(x => x.name),
      ['y', 'x'],
    );
    assert.deepEqual(
      m.profile.contexts.map(c => c.label),
      ['CPU 0', 'CPU 3'],
    );
    await assert.rejects(
      m.ask({ kind: 'strip', attribute: 'latency', metric: { score: 'imbalance', depth: 'pu' }, windows: 4 }),
      /need a topology/,
    );
    assert.equal((await m.select({ kind: 'variable', name: 'y' })).selected!.samples, 1);
  });
});

describe('memory system: seed acceptance scenarios, opened as MemAxes files', () => {
  let dir: string;
  before(() => {
    dir = tempFileWriter('memory-seed').dir;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('1. an idle PU: the idlest and most extreme PU is PU 5; clicking it selects exactly its samples', async () => {
    const s = idlePuScenario({ total: 50_000, idleSamples: 5 });
    const m = await openMemory(writeMemaxesRun(dir, 'idle', s));
    const v = await m.ask({ kind: 'view' });
    const pu = v.depths.find(d => d.depth === 'pu')!;
    assert.equal(pu.idlest?.label, 'PU 5');
    assert.equal(pu.extreme?.label, 'PU 5');
    const node = nodeNamed(v, 'PU 5');
    const mean = 50_000 / 32;
    assert.ok(v.total!.samples.node[node]! < 0.01 * mean);
    const sel = await m.select({ kind: 'node', node });
    assert.equal(sel.selected!.samples, 5);
    assert.equal(
      sel.histograms.find(h => h.attribute === 'cpu')!.selected!.reduce((a, b) => a + b, 0),
      5,
    );
  });

  it('2. NUMA skew: NUMA 0 serves 282 loads, NUMA 1 none', async () => {
    const m = await openMemory(writeMemaxesRun(dir, 'numa', numaSkewScenario()));
    const v = await m.ask({ kind: 'view' });
    assert.deepEqual(
      nodesOf(v, 'numa').map(n => [v.topology!.nodes[n]!.label, v.total!.samples.node[n]]),
      [
        ['NUMA 0', 282],
        ['NUMA 1', 0],
      ],
    );
    const numa = v.depths.find(d => d.depth === 'numa')!;
    assert.deepEqual([numa.imbalance, numa.cv, numa.maxOverMean, numa.gini], [1, 1, 2, 0.5]);
  });

  it('3. latency outranks count: fx, fy, fz above nodalMass; nodalMass on L3 is 16 loads of 405 cycles', async () => {
    const m = await openMemory(writeMemaxesRun(dir, 'latency', latencyOutranksCountScenario()));
    const v = await m.ask({ kind: 'view' });
    const names = v.variables.map(x => x.name);
    for (const f of ['fx', 'fy', 'fz']) assert.ok(names.indexOf(f) < names.indexOf('nodalMass'), `${f} first`);
    await m.select({ kind: 'variable', name: 'nodalMass' });
    const l3 = nodesOf(v, 'l3');
    // Filter to L3: the loads served by either L3.
    let f = await m.select({ kind: 'ranges', ranges: [{ attribute: 'dataSource', min: 4, max: 6 }] }, 'filter');
    assert.deepEqual(f.selected, { samples: 16, cycles: 16 * 405 });
    assert.equal(
      l3.reduce((s, n) => s + f.selection!.samples.node[n]!, 0),
      16,
    );
    // The same through the machine: both L3 caches, then nodalMass.
    await m.select({ kind: 'node', node: l3[0]! });
    await m.select({ kind: 'node', node: l3[1]! }, 'append');
    f = await m.select({ kind: 'variable', name: 'nodalMass' }, 'filter');
    assert.deepEqual(f.selected, { samples: 16, cycles: 16 * 405 });
  });

  it('4. alternating sockets along zidx: every cluster lights both sockets; the remapped run has ~60 % fewer L3 cycles', async () => {
    const lit = (v: MemoryPanelData, samplesPerNode: Float64Array) => {
      const numa = new Set<number>();
      for (const pu of nodesOf(v, 'pu')) {
        if (!(samplesPerNode[pu]! > 0)) continue;
        let n = pu;
        while (v.topology!.nodes[n]!.kind !== 'numa') n = v.topology!.nodes[n]!.parent;
        numa.add(n);
      }
      return numa.size;
    };
    const metric = { score: 'imbalance', depth: 'pu' } as const;
    const alternating = await openMemory(writeMemaxesRun(dir, 'zidx', zidxScenario()));
    const va = await alternating.ask({ kind: 'view' });
    const c = await alternating.ask({ kind: 'clusters', attribute: 'zidx', metric, count: 16 });
    assert.equal(c.clusters.length, 16);
    for (const x of c.clusters) assert.equal(lit(va, x.samplesPerNode!), 2);
    const remapped = await openMemory(writeMemaxesRun(dir, 'zidx-remapped', zidxScenario({ remapped: true })));
    const vr = await remapped.ask({ kind: 'view' });
    const r = await remapped.ask({ kind: 'clusters', attribute: 'zidx', metric, count: 16 });
    assert.ok(r.clusters.filter(x => lit(vr, x.samplesPerNode!) === 2).length <= 1);
    const l3Cycles = (v: MemoryPanelData) => nodesOf(v, 'l3').reduce((s, n) => s + v.total!.cycles.node[n]!, 0);
    const drop = 1 - l3Cycles(vr) / l3Cycles(va);
    assert.ok(Math.abs(drop - 0.6) < 0.03, `L3 cycles drop ${(100 * drop).toFixed(1)} %`);
  });

  it('5. phases along time: NUMA loads in phase 3, the L2-imbalance strip peaks in phase 2, cluster edges within ±600', async () => {
    const s = phasesScenario();
    const m = await openMemory(writeMemaxesRun(dir, 'phases', s));
    const v = await m.ask({ kind: 'view' });
    const [numa0, numa1] = nodesOf(v, 'numa');
    await m.select({ kind: 'node', node: numa0! });
    const sel = await m.select({ kind: 'node', node: numa1! }, 'append');
    const time = sel.histograms.find(h => h.attribute === 'time')!;
    const t2 = 1e9 + 2 * 20_000 * 1000;
    const width = (time.max - time.min) / time.visible.length;
    let phase3 = 0;
    time.selected!.forEach((c, b) => {
      if (time.min + b * width >= t2) phase3 += c;
    });
    assert.ok(phase3 / sel.selected!.samples >= 0.95, `${phase3} of ${sel.selected!.samples} in phase 3`);
    await m.ask({ kind: 'scope', action: 'clear' });
    const metric = { score: 'imbalance', depth: 'l2' } as const;
    const strip = await m.ask({ kind: 'strip', attribute: 'time', metric, windows: 30 });
    const peak = strip.windows[strip.peak]!;
    const mid = (peak.lo + peak.hi) / 2;
    assert.ok(mid >= 1e9 + 20_000 * 1000 && mid < t2, 'the strip peaks in phase 2');
    const c = await m.ask({ kind: 'clusters', attribute: 'time', metric, count: 3 });
    const [a, b, d] = c.clusters;
    const edges = [(b!.start + Math.min(a!.end, b!.end)) / 2, (d!.start + Math.min(b!.end, d!.end)) / 2];
    edges.forEach((e, k) => assert.ok(Math.abs(e - s.edges[k]!) <= 600, `edge ${e} vs ${s.edges[k]}`));
  });
});
