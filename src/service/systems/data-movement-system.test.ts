import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { HOST } from '../../analysis/dmv/dmv-index';
import type { DmvEventItem } from '../../analysis/dmv/panel-data';
import { KinetoTraceWriter } from '../../analysis/dmv/testing/kineto-writer';
import { gpt2Run, manyLaunches } from '../../analysis/dmv/testing/scenarios';
import { writeGenerated } from '../../analysis/dmv/testing/read-trace';
import { LocalAnalysisService } from '../local-analysis-service';
import { askDataMovement } from './testing/ask-data-movement';
import type { SystemResult } from '.';

const ROOT = resolve(__dirname, '..', '..', '..');
const KINETO = join(ROOT, 'samples/heat-stencil/profiles/heat-offload-kineto.json');
const RESNET = ['data', 'chrome-trace', 'pytorch-profiler-resnet50'];
const SAXPY = ['data', 'nsight-systems-sqlite', 'saxpy-mpi-cuda-perlmutter'];
const resnetFile = () => sharedPath(...RESNET, 'worker0.1623143089861.pt.trace.json.gz');
const saxpyFile = () => sharedPath(...SAXPY, 'saxpy-mpi-cuda_nsys_perlmutter0.sqlite');
const ms = (ns: number) => ns / 1e6;

const ask = askDataMovement;

const cellOf = (m: SystemResult<'dataMovement', 'window'>['matrix'], src: number, dst: number) =>
  m.cells.find(c => c.src === src && c.dst === dst)!;

describe('the data-movement system: DMV panel requests', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'hpc-lens-dmv-system-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('the sample offload trace: overview, window views and a matrix cell whose copies come from offload.c', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: KINETO });
    const o = await ask(s, dataset, { kind: 'overview' });
    assert.equal(o.format, 'chrome-trace');
    assert.equal(o.clock.sectors.length, 12);
    assert.deepEqual(
      o.devices.map(d => d.name),
      ['host', 'GPU 0'],
    );
    assert.equal(o.counts.copies, 82, '41 H→D and 41 D→H copies');
    assert.ok(o.flags.length > 0 && o.flags.every(f => f.file?.endsWith('offload.c')), 'flags sit on offload.c');
    assert.deepEqual(o.files, { topology: null, nvidiaSmi: null });
    assert.deepEqual(o.warnings, []);
    assert.ok(o.metrics.some(m => m.id === 'utilisation:GPU 0'));

    const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
    assert.deepEqual(w.window, o.range, 'no window: the whole run');
    assert.equal(cellOf(w.matrix, HOST, 0).count, 41);
    assert.equal(cellOf(w.matrix, 0, HOST).count, 41);
    assert.ok(w.events.items.length > 0 && !w.events.grouped, 'a small trace shows every event');
    assert.ok(w.application.nodes.some(n => n.file?.endsWith('offload.c')));
    assert.ok(w.hardware.topology.nodes.some(n => n.kind === 'gpu'));
    assert.ok(w.glyph, 'CPU and GPU utilisation in the glyph');
    assert.equal(w.glyph!.left.id, 'utilisation:CPU');
    // Metric rows are ordered by their variance in the window, highest first.
    for (let k = 1; k < w.metrics.length; k++) assert.ok(w.metrics[k - 1]!.variance >= w.metrics[k]!.variance);

    const cell = await ask(s, dataset, { kind: 'cell', src: HOST, dst: 0, window: null });
    assert.equal(cell.label, 'host → GPU 0');
    assert.equal(cell.count, 41);
    assert.equal(cell.copies.length, 41);
    assert.ok(cell.copies.every(c => c.file?.endsWith('offload.c') && c.line! > 0 && c.direction === 'H→D'));
    assert.deepEqual(
      cell.sites.reduce((n, x) => n + x.total.count, 0),
      41,
    );
    // A window of the first sector: only the copies overlapping it.
    const first = { start: o.clock.start, end: o.clock.start + o.clock.sectorWidth };
    const w0 = await ask(s, dataset, { kind: 'window', options: { window: first } });
    const c0 = await ask(s, dataset, { kind: 'cell', src: HOST, dst: 0, window: first });
    assert.equal(cellOf(w0.matrix, HOST, 0).count, c0.count);
    assert.ok(c0.count > 0 && c0.count < 41);
    assert.ok(c0.copies.every(c => c.start < first.end && c.start + c.duration >= first.start));
  });

  it('bad category rules: the valid ones apply and the others are warnings (the report refuses them, as the CLI does)', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: KINETO });
    const rules = [
      { cat: 'Operator', category: 'ignore' },
      { name: '/([/', category: 'runtime' },
    ];
    const o = await ask(s, dataset, { kind: 'overview', rules });
    assert.match(o.warnings.join('\n'), /hpcLens\.dmv\.categoryRules: rule 2: "name" \/\(\[\/ is not a valid/);
    await assert.rejects(ask(s, dataset, { kind: 'report', rules }), /category rules: rule 2/);
    const plain = await ask(s, dataset, { kind: 'overview' });
    assert.ok(plain.busy.cpuCompute > o.busy.cpuCompute, 'the ignore rule took the operators out of CPU compute');
  });

  it('an unparsable topology file: the matrix has no link types and says why; a good one names each GPU pair', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: KINETO });
    const bad = write('topo-bad.txt', 'this is not nvidia-smi topo -m output\n');
    const files = await ask(s, dataset, { kind: 'files', topology: bad });
    assert.equal(files.topology!.linkTypes, false);
    assert.ok(files.topology!.warning!.includes(bad), 'the warning names the file');
    const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
    assert.ok(w.matrix.cells.every(c => c.linkType === null));
    assert.equal(w.matrix.warnings.length, 1);
    assert.match(w.matrix.warnings[0]!, /^link types are not shown: /);
    assert.equal(cellOf(w.matrix, HOST, 0).count, 41, 'the matrix is still shown');
    const o = await ask(s, dataset, { kind: 'overview' });
    assert.match(o.warnings.join('\n'), /link types are not shown/);

    // Two GPUs: link types name the GPU pairs (nvidia-smi reports no host paths).
    const two = new KinetoTraceWriter();
    two.device(0);
    two.device(1);
    two.python('train.py(5): step', 0, 1000);
    for (const device of [0, 1])
      two.launch('cudaMemcpyAsync', 10 + device * 100, 5, {
        kind: 'memcpy',
        ts: 20 + device * 100,
        dur: 50,
        bytes: 1e6,
        device,
      });
    const { dataset: twoGpus } = await s.open({ path: writeGenerated(two, 'two-gpus') });
    const good = write(
      'topo.txt',
      ['\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity', 'GPU0\t X \tNV2\t0-19\t0', 'GPU1\tNV2\t X \t20-39\t1', ''].join(
        '\n',
      ),
    );
    await ask(s, twoGpus, { kind: 'files', topology: good });
    const w2 = await ask(s, twoGpus, { kind: 'window', options: { window: null } });
    assert.equal(cellOf(w2.matrix, HOST, 1).count, 1);
    assert.equal(cellOf(w2.matrix, 0, 1).linkType, 'NV2');
    assert.deepEqual(w2.matrix.warnings, []);
    assert.ok(
      w2.hardware.topology.links.some(l => l.kind === 'NV2'),
      'the hardware view links the GPUs by their path type',
    );
    assert.equal((await ask(s, twoGpus, { kind: 'files', topology: null })).topology, null);
    assert.equal(
      cellOf((await ask(s, twoGpus, { kind: 'window', options: { window: null } })).matrix, 0, 1).linkType,
      null,
    );
  });

  it('an nvidia-smi CSV adds metric tracks; one without a timestamp column is an error naming the file', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: KINETO });
    const csv = write(
      'smi.csv',
      [
        'timestamp, index, utilization.gpu [%], memory.used [MiB]',
        '2024/01/15 10:00:00.000, 0, 40 %, 1200 MiB',
        '2024/01/15 10:00:00.001, 0, 90 %, 1300 MiB',
        '2024/01/15 10:00:00.002, 0, 10 %, 1300 MiB',
      ].join('\n'),
    );
    const files = await ask(s, dataset, { kind: 'files', nvidiaSmi: csv });
    assert.equal(files.nvidiaSmi!.tracks, 2);
    assert.match(files.nvidiaSmi!.warnings.join('\n'), /aligned to/);
    const o = await ask(s, dataset, { kind: 'overview' });
    assert.ok(o.metrics.some(m => m.id === 'nvidia-smi:0:utilization.gpu' && m.peak === 90));
    const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
    assert.ok(w.metrics.some(m => m.source === 'nvidia-smi'));
    const glyph = await ask(s, dataset, {
      kind: 'window',
      options: { window: null, glyph: { left: 'utilisation:GPU 0', right: 'nvidia-smi:0:utilization.gpu' } },
    });
    assert.equal(glyph.glyph!.right.name, 'GPU 0 · utilization.gpu');

    const noTime = write('no-time.csv', 'index, utilization.gpu [%]\n0, 40 %\n');
    await assert.rejects(ask(s, dataset, { kind: 'files', nvidiaSmi: noTime }), (e: Error) => {
      assert.ok(e.message.includes(noTime), e.message);
      assert.match(e.message, /no "timestamp" column/);
      return true;
    });
    assert.equal((await ask(s, dataset, { kind: 'files' })).nvidiaSmi!.path, csv, 'the good file stays');
  });

  it('more than 1,000 events in the window are grouped; a group expands to its events', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: writeGenerated(manyLaunches(1500), 'many') });
    const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
    assert.ok(w.events.total > 1000);
    assert.equal(w.events.grouped, true);
    assert.ok(w.events.items.length <= 1000);
    const group = w.events.items.find((i): i is Extract<DmvEventItem, { type: 'group' }> => i.type === 'group')!;
    assert.ok(group.count > 1);
    const x = await ask(s, dataset, { kind: 'window', options: { window: null, expanded: [group.key] } });
    assert.equal(x.events.items.length, w.events.items.length - 1 + group.count);
    assert.ok(!x.events.items.some(i => i.type === 'group' && i.key === group.key));
  });

  it('flags: the alternating copies of the GPT-2 study on model.py(123)', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: writeGenerated(gpt2Run(), 'gpt2') });
    const flags = await ask(s, dataset, { kind: 'flags' });
    const alt = flags.filter(f => f.kind === 'alternating-transfers');
    assert.ok(alt.length > 0);
    assert.ok(alt.every(f => f.file?.endsWith('model.py') && f.line === 123));
  });

  it('a profile without a timeline, and a trace asked for an ensemble grid, are refused with the reason', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: KINETO });
    await assert.rejects(ask(s, dataset, { kind: 'ensemble', mode: 'own', sort: false }), /is not an ensemble/);
    const p = await s.open({ path: join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json') });
    await assert.rejects(ask(s, p.dataset, { kind: 'overview' }), /has no timeline of events/);
  });
});

describe('the data-movement system on the real traces', { skip: skipUnlessShared(...RESNET) }, () => {
  it('resnet50: 1,173.468 ms in 97.79 ms sectors, copies in sectors 0, 2, 4, 6, 7, 9, all flagged pageable', async () => {
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({ path: resnetFile() });
    const o = await ask(s, dataset, { kind: 'overview' });
    assert.equal(ms(o.range.end - o.range.start), 1173.468);
    assert.equal(Number(ms(o.clock.sectorWidth).toFixed(2)), 97.79);
    assert.deepEqual(
      o.clock.sectors.flatMap((x, k) => (x.bytes > 0 ? [k] : [])),
      [0, 2, 4, 6, 7, 9],
    );
    assert.equal(Number(ms(o.busy.dataMovement).toFixed(2)), 12.03);
    assert.equal(Number(ms(o.busy.gpuCompute).toFixed(2)), 591.53);
    assert.equal(Number(ms(o.busy.runtime).toFixed(2)), 120.43);
    assert.equal(o.counts.copies, 12);
    assert.equal(o.counts.memsets, 312);
    const pageable = o.flags.filter(f => f.kind === 'pageable-copy');
    assert.equal(
      pageable.reduce((n, f) => n + f.count, 0),
      12,
    );
    const peak = (id: string) => o.metrics.find(m => m.id === id)?.peak;
    assert.equal(peak('memory:GPU 0'), 2_791_636_480);
    assert.equal(peak('memory:host'), 57_803_264);

    const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
    assert.equal(cellOf(w.matrix, HOST, 0).bytes, 115_607_040);
    assert.equal(
      w.matrix.cells.reduce((n, c) => n + c.bytes, 0),
      115_607_040,
      'every other transfer cell is 0',
    );
    assert.equal(w.events.grouped, true, '75k events are grouped');
    assert.ok(w.events.items.length <= 1000);
    // Level of detail: the 300 busiest nodes and their ancestors, not the whole call tree.
    assert.ok(w.application.activeNodes > 300);
    assert.ok(w.application.nodes.length < w.application.activeNodes, `${w.application.nodes.length} nodes sent`);
    // The third sector (2): one 19 MB copy; the second (1): none.
    const sector = (k: number) => ({
      start: o.clock.start + k * o.clock.sectorWidth,
      end: o.clock.start + (k + 1) * o.clock.sectorWidth,
    });
    const w1 = await ask(s, dataset, { kind: 'window', options: { window: sector(1) } });
    assert.equal(cellOf(w1.matrix, HOST, 0).count, 0);
    const w2 = await ask(s, dataset, { kind: 'window', options: { window: sector(2) } });
    assert.ok(cellOf(w2.matrix, HOST, 0).bytes > 19e6);
    const cell = await ask(s, dataset, { kind: 'cell', src: HOST, dst: 0, window: null });
    assert.equal(cell.count, 12);
    assert.ok(cell.copies.every(c => c.memory === 'Pageable → Device'));
    assert.ok(
      cell.copies.every(c => c.file !== null && c.line !== null),
      'every copy has an issuing line',
    );
  });

  it(
    'saxpy: host→GPU 0 2,621,440,000 B in 10 copies, GPU 0→host 1,310,720,000 B in 5',
    { skip: skipUnlessShared(...SAXPY) },
    async () => {
      const s = new LocalAnalysisService();
      const { dataset } = await s.open({ path: saxpyFile() });
      const w = await ask(s, dataset, { kind: 'window', options: { window: null } });
      assert.deepEqual([cellOf(w.matrix, HOST, 0).count, cellOf(w.matrix, HOST, 0).bytes], [10, 2_621_440_000]);
      assert.deepEqual([cellOf(w.matrix, 0, HOST).count, cellOf(w.matrix, 0, HOST).bytes], [5, 1_310_720_000]);
      const back = await ask(s, dataset, { kind: 'cell', src: 0, dst: HOST, window: null });
      assert.equal(back.count, 5);
    },
  );

  it(
    'both as an ensemble (Open Folder as Ensemble…): Sort puts resnet50 first, Compare gives 172.04 ms sectors',
    { skip: skipUnlessShared(...SAXPY) },
    async () => {
      const s = new LocalAnalysisService();
      const e = await s.openEnsemble({ paths: [saxpyFile(), resnetFile()] });
      const sorted = await ask(s, e.dataset, { kind: 'ensemble', mode: 'own', sort: true });
      assert.equal(sorted.runs.length, 2);
      assert.match(sorted.runs[0]!.path, /resnet50/);
      assert.equal(sorted.runs[0]!.clock.labels.runtime, '1.17 s');
      const compare = await ask(s, e.dataset, { kind: 'ensemble', mode: 'compare', sort: false });
      assert.equal(Number(ms(compare.sectorWidth!).toFixed(2)), 172.04);
      const resnet = compare.runs.find(r => /resnet50/.test(r.path))!.clock;
      assert.deepEqual(
        resnet.sectors.flatMap((x, k) => (x.busy.gpuCompute + x.busy.cpuCompute + x.busy.runtime > 0 ? [k] : [])),
        [0, 1, 2, 3, 4, 5, 6],
      );
      await assert.rejects(ask(s, e.dataset, { kind: 'overview' }), /is an ensemble: DMV shows it as a grid of clocks/);
    },
  );
});
