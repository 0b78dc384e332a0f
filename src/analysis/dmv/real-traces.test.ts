import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../formats';
import type { Profile } from '../model/profile';
import { DataMovementKind } from '../model/trace';
import { dmvClock } from './clock';
import { CopyClass, DmvIndex, HOST } from './dmv-index';
import { dataMovementFlags } from './flags';
import { communicationMatrix, matrixCellSites } from './matrix';
import { memoryTracks, metricPeak } from './metrics';
import { dataMovementReport } from './report';
import { clockGrid, digestRun } from './trace-ensemble';

// Real traces (thesis ch. 7 acceptance values from issue 22); skipped when the shared data is absent.
const RESNET = ['data', 'chrome-trace', 'pytorch-profiler-resnet50'];
const SAXPY = ['data', 'nsight-systems-sqlite', 'saxpy-mpi-cuda-perlmutter'];
const ms = (ns: number) => ns / 1e6;

describe('DMV on the PyTorch resnet50 trace', { skip: skipUnlessShared(...RESNET) }, () => {
  let profile: Profile;
  let ix: DmvIndex;
  before(async () => {
    profile = await readProfile(sharedPath(...RESNET, 'worker0.1623143089861.pt.trace.json.gz'));
    ix = new DmvIndex(profile);
  });

  it('spans 1,173.468 ms, so each sector is 97.79 ms', () => {
    assert.equal(ms(ix.runtime), 1173.468);
    const c = dmvClock(ix, ix.range);
    assert.equal(Number(ms(c.sectorWidth).toFixed(2)), 97.79);
  });

  it('busy time: data movement 12.03 ms, kernels 591.53 ms, runtime 120.43 ms', () => {
    const r = dataMovementReport(ix);
    assert.equal(Number((r.categories.dataMovement * 1e3).toFixed(2)), 12.03);
    assert.equal(Number((r.categories.gpuCompute * 1e3).toFixed(2)), 591.53);
    assert.equal(Number((r.categories.runtime * 1e3).toFixed(2)), 120.43);
    // The Kineto `Trace` span (1,065.7 ms on its own track) is ignored, not CPU compute.
    assert.equal(Number((r.categories.cpuCompute * 1e3).toFixed(3)), 1222.741);
  });

  it('12 host→device copies of 115,607,040 B, all Pageable → Device, all flagged', () => {
    const dm = ix.trace.dataMovement;
    const copies = [...dm.kind.keys()].filter(i => ix.copyClass[i] === CopyClass.Copy);
    assert.equal(copies.length, 12);
    assert.ok(copies.every(i => dm.kind[i] === DataMovementKind.HostToDevice));
    const sizes = copies.map(i => dm.bytes[i]!).sort((a, b) => a - b);
    assert.deepEqual(sizes, [...Array(6).fill(256), ...Array(6).fill(19_267_584)]);
    const pageable = dataMovementFlags(ix).filter(f => f.kind === 'pageable-copy');
    assert.equal(
      pageable.reduce((n, f) => n + f.count, 0),
      12,
    );
    assert.equal(
      pageable.reduce((n, f) => n + f.bytes, 0),
      115_607_040,
    );
    for (const f of pageable) assert.ok(f.file !== null && f.line !== null, 'flags sit on a source line');
  });

  it('two copies fall in each ProfilerStep, and they land in sectors 0, 2, 4, 6, 7 and 9', () => {
    const ev = ix.trace.events;
    const steps: [number, number][] = [];
    ev.name.forEach((n, k) => {
      if (/^ProfilerStep#\d+$/.test(ix.strings.get(n))) steps.push([ev.start[k]!, ev.start[k]! + ev.duration[k]!]);
    });
    assert.equal(steps.length, 6);
    const dm = ix.trace.dataMovement;
    const copies = [...dm.kind.keys()].filter(i => ix.copyClass[i] === CopyClass.Copy);
    // A copy runs on the GPU after the step that issued it launched it: count by the launch (the copy's node is under the step).
    for (const [s, e] of steps) assert.equal(copies.filter(i => dm.start[i]! >= s && dm.start[i]! < e).length, 2);
    const c = dmvClock(ix, ix.range);
    assert.deepEqual(
      c.sectors.flatMap((s, k) => (s.bytes > 0 ? [k] : [])),
      [0, 2, 4, 6, 7, 9],
    );
    assert.equal(c.bytes, 115_607_040);
  });

  it('the 312 memsets fall in sectors 1 and 3–10', () => {
    const dm = ix.trace.dataMovement;
    const memsets = [...dm.kind.keys()].filter(i => ix.copyClass[i] === CopyClass.Memset);
    assert.equal(memsets.length, 312);
    const c = dmvClock(ix, ix.range);
    assert.deepEqual(
      c.sectors.flatMap((s, k) => (s.memsetBytes > 0 ? [k] : [])),
      [1, 3, 4, 5, 6, 7, 8, 9, 10],
    );
  });

  it('matrix: host→GPU 0 holds 115,607,040 B; every other cell is 0', () => {
    const m = communicationMatrix(ix);
    assert.deepEqual(m.names, ['host', 'GPU 0', 'GPU 1', 'GPU 2', 'GPU 3']);
    for (const c of m.cells) {
      const h2d0 = c.src === HOST && c.dst === 0;
      assert.equal(c.bytes, h2d0 ? 115_607_040 : 0, `${c.src} → ${c.dst}`);
      assert.equal(c.count, h2d0 ? 12 : 0);
    }
    assert.equal(m.maxBytes, 115_607_040);
    const cell = m.cells[1]!;
    assert.ok(cell.bandwidth! > 1e9 && cell.bandwidth! < 20e9, `achieved ${cell.bandwidth} B/s`);
    const sites = matrixCellSites(ix, HOST, 0);
    assert.equal(
      sites.reduce((n, s) => n + s.total.count, 0),
      12,
    );
  });

  it('[memory] running totals peak at 2,791,636,480 B on GPU 0 and 57,803,264 B on the host', () => {
    const tracks = memoryTracks(ix.trace);
    assert.deepEqual(
      tracks.map(t => t.name),
      ['memory allocated · host', 'memory allocated · GPU 0'],
    );
    assert.equal(metricPeak(tracks[1]!)!.value, 2_791_636_480);
    assert.equal(metricPeak(tracks[0]!)!.value, 57_803_264);
  });
});

describe('DMV on the Nsight Systems saxpy export', { skip: skipUnlessShared(...SAXPY) }, () => {
  it('host→GPU 0: 2,621,440,000 B in 10 copies; GPU 0→host: 1,310,720,000 B in 5', async () => {
    const ix = new DmvIndex(await readProfile(sharedPath(...SAXPY, 'saxpy-mpi-cuda_nsys_perlmutter0.sqlite')));
    const m = communicationMatrix(ix);
    assert.deepEqual(m.names, ['host', 'GPU 0']);
    const cell = (s: number, d: number) => m.cells.find(c => c.src === s && c.dst === d)!;
    assert.deepEqual([cell(HOST, 0).count, cell(HOST, 0).bytes], [10, 2_621_440_000]);
    assert.deepEqual([cell(0, HOST).count, cell(0, HOST).bytes], [5, 1_310_720_000]);
    assert.equal(cell(0, 0).bytes + cell(HOST, HOST).bytes, 0);
    assert.equal(m.unknown.withoutDevices + m.unknown.withoutBytes, 0);
    const pageable = dataMovementFlags(ix).filter(f => f.kind === 'pageable-copy');
    assert.equal(
      pageable.reduce((n, f) => n + f.count, 0),
      15,
    );
  });
});

describe(
  'the resnet50 and saxpy traces as an ensemble',
  { skip: skipUnlessShared(...RESNET) || skipUnlessShared(...SAXPY) },
  () => {
    it('Sort puts resnet50 (1.17 s) first; Compare gives 172.04 ms sectors and resnet50 fills sectors 0–6', async () => {
      const saxpy = digestRun(
        new DmvIndex(await readProfile(sharedPath(...SAXPY, 'saxpy-mpi-cuda_nsys_perlmutter0.sqlite'))),
        'saxpy',
      );
      const resnet = digestRun(
        new DmvIndex(await readProfile(sharedPath(...RESNET, 'worker0.1623143089861.pt.trace.json.gz'))),
        'resnet50',
      );
      const sorted = clockGrid([saxpy, resnet], { sort: true });
      assert.deepEqual(
        sorted.runs.map(r => r.name),
        ['resnet50', 'saxpy'],
      );
      assert.equal(sorted.runs[0]!.clock.labels.runtime, '1.17 s');
      assert.deepEqual(
        sorted.runs.map(r => r.percentile),
        [0, 1],
      );
      const compare = clockGrid([saxpy, resnet], { mode: 'compare' });
      assert.equal(Number(ms(saxpy.runtime).toFixed(2)), 2064.46);
      assert.equal(Number(ms(compare.sectorWidth!).toFixed(2)), 172.04);
      const r = compare.runs.find(x => x.name === 'resnet50')!.clock;
      const used = r.sectors.flatMap((s, k) => (s.busy.gpuCompute + s.busy.cpuCompute + s.busy.runtime > 0 ? [k] : []));
      assert.deepEqual(used, [0, 1, 2, 3, 4, 5, 6]);
    });
  },
);
