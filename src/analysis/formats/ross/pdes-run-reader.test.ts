import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { expectReadError } from '../../../../test/support/read-errors';
import { sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { aggregateSeries } from '../../pdes/model/aggregate';
import { communicationMatrix, sameProcessShare } from '../../pdes/model/communication';
import { PdesEntities } from '../../pdes/model/entities';
import { METRIC } from '../../pdes/model/metrics';
import type { PdesRun } from '../../pdes/model/pdes-run';
import { SampleSet } from '../../pdes/model/sample-set';
import { seededRandom } from '../../stats/seeded-random';
import { sampleFile } from '../file-sample';
import { linkCounts } from '../../pdes/model/network';
import { readPdesRun, sniffPdesRun } from './pdes-run-reader';
import { RossStatsDecoder } from './record-decoder';
import { RossRecordWriter } from './record-writer';
import { EngineSampleIngest } from './sample-ingest';

const DIR = 'data/pdes-ross-codes';
const UNIFORM = `${DIR}/codes-dragonfly-dally-72-uniform-random`;
const NEAREST = `${DIR}/codes-dragonfly-dally-72-nearest-neighbor`;
const FULL = `${DIR}/codes-dragonfly-dally-72-uniform-random-8pe-fulltrace`;
const PHOLD = `${DIR}/ross-phold-2pe`;

function totals(set: SampleSet): [number, number, number, number] {
  return [
    set.pe.total(METRIC.eventsProcessed),
    set.pe.total(METRIC.totalRollbacks),
    set.pe.total(METRIC.secondaryRollbacks),
    set.pe.total(METRIC.primaryRollbacks),
  ];
}

const runs = new Map<string, Promise<PdesRun>>();
const read = (dir: string) => {
  if (!runs.has(dir)) runs.set(dir, readPdesRun(sharedPath(dir)));
  return runs.get(dir)!;
};

function mean(values: Float64Array): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

describe('PDES runs of the shared ROSS/CODES data', { skip: skipUnlessShared(DIR) }, () => {
  for (const [dir, expected] of [
    [UNIFORM, [132578, 17224, 10405, 6819]],
    [NEAREST, [147750, 19674, 11760, 7914]],
    [PHOLD, [79292, 2898, 533, 2365]],
  ] as const) {
    it(`${dir.split('/').pop()}: decoded real-time samples add up to ross.csv`, async () => {
      const run = await read(dir);
      const s = run.summary!;
      assert.deepEqual(totals(run.samples.rt!), [...expected]);
      assert.deepEqual(
        [s.eventsProcessed, s.rollbacks, s.secondaryRollbacks, s.primaryRollbacks],
        [...expected],
        'ross.csv says the same',
      );
      // KP records add up to the PE records.
      assert.equal(run.samples.rt!.kp.total(METRIC.eventsProcessed), expected[0]);
      assert.equal(run.samples.rt!.kp.total(METRIC.primaryRollbacks), expected[3]);
      // The rollback-only event trace holds one event per primary rollback.
      assert.equal(run.eventTrace!.count, expected[3]);
      assert.equal(run.unknownTraceLps, null);
      assert.deepEqual(
        [run.entities.count('pe'), run.entities.count('kp'), run.entities.count('lp')],
        [s.totalPe, s.totalKp, s.totalLp],
      );
    });
  }

  it('replayed in random chunk sizes (headers split too), the real-time file ends at the ross.csv totals', () => {
    const bytes = readFileSync(sharedPath(UNIFORM, 'ross-stats/dfdally72-rt.bin'));
    assert.equal(bytes.length, 654208);
    const rand = seededRandom(20);
    const entities = new PdesEntities();
    const set = new SampleSet('rt');
    const decoder = new RossStatsDecoder(new EngineSampleIngest(entities, set), 'dfdally72-rt.bin');
    let splitHeaders = 0;
    for (let at = 0; at < bytes.length;) {
      const n = 1 + Math.floor(rand() * 300);
      decoder.push(bytes.subarray(at, Math.min(bytes.length, at + n)));
      at += n;
      const partial = decoder.finish();
      if (partial && partial.bytes < 24) splitHeaders++;
    }
    assert.equal(decoder.finish(), null);
    assert.ok(splitHeaders > 100, `${splitHeaders} chunks ended inside a header`);
    assert.deepEqual(decoder.counts, { pe: 538, kp: 8608, lp: 0, model: 0 });
    assert.equal(entities.count('kp'), 64);
    assert.deepEqual(totals(set), [132578, 17224, 10405, 6819]);
  });

  it('8-PE full trace: 15 GVT samples × (8 PE + 128 KP) records, 249,907 events, 73.4 % within a PE', async () => {
    const run = await read(FULL);
    const gvt = run.samples.gvt!;
    assert.equal(gvt.tickCount, 15);
    assert.deepEqual(gvt.records, { pe: 120, kp: 1920, lp: 0 });
    assert.equal(gvt.kp.entityCount, 128);
    assert.equal(run.eventTrace!.count, 249907);
    assert.equal(run.eventTrace!.count, run.summary!.eventsProcessed);
    assert.equal(sameProcessShare(run.eventTrace!, run.entities).toFixed(3), '0.734');
    // GVT ticks are in time order and share one GVT per round.
    const v = gvt.ticks.virtualTime;
    for (let i = 1; i < v.length; i++) assert.ok(v[i]! > v[i - 1]!);
    assert.equal(v[0], 1000.5292181846702);
  });

  it('places LPs on KPs round-robin (codes-mapping): events received per KP match the KP samples', async () => {
    const run = await read(FULL);
    assert.deepEqual(run.placement, { pe: 'lp-stats', kp: 'round-robin' });
    const kpOf = run.entities.lpLookup('kp');
    const received = new Float64Array(128);
    for (const d of run.eventTrace!.columns.dst) received[kpOf[d]!]!++;
    const sampled = run.samples.gvt!.kp.matrix(METRIC.eventsProcessed).map(row => row.reduce((a, b) => a + b, 0));
    let off = 0;
    for (let k = 0; k < 128; k++) off += Math.abs(received[k]! - sampled[k]!);
    // The trace runs to the end; the last GVT sample is 46 events earlier.
    assert.equal(off, run.summary!.eventsProcessed - run.samples.gvt!.pe.total(METRIC.eventsProcessed));
    assert.equal(off, 46);
  });

  it('analysis-lps: 648 model samples, 108 LPs × 6 virtual-time points; engine repeats add up', async () => {
    const run = await read(UNIFORM);
    const m = run.modelSamples!;
    assert.equal(m.routers!.count + m.terminals!.count, 648);
    assert.equal(m.routers!.count, 36 * 6);
    assert.equal(m.terminals!.count, 72 * 6);
    assert.deepEqual([...m.points], [10000, 20000, 30000, 40000, 50000, 60000]);
    assert.equal(new Set([...m.routers!.lp, ...m.terminals!.lp]).size, 108);
    assert.equal(m.routers!.radix, 7);
    assert.equal(m.terminals!.rails, 1);
    // Router LPs are the 5th LP of each CODES repetition.
    assert.deepEqual([...m.routers!.lp.slice(0, 2)], [4, 4]);
    assert.equal(run.lpTypes!.names[run.lpTypes!.typeOfLp[4]!], 'modelnet_dragonfly_dally_router');
    // Engine counters of the virtual-time file sum to the run total up to the last sample.
    assert.equal(run.samples.vt!.pe.total(METRIC.eventsProcessed), 132574);
    assert.ok(run.warnings.some(w => /repeated an entity at the same GVT/.test(w)));
  });

  it('packet traces: uniform random on 4 and 8 PEs agree exactly; nearest neighbour differs', async () => {
    const [four, eight, nn] = await Promise.all([read(UNIFORM), read(FULL), read(NEAREST)]);
    assert.equal(four.packets!.count, 1440);
    assert.equal(eight.packets!.count, 1440);
    assert.equal(mean(four.packets!.columns.latency).toFixed(1), '16200.6');
    const sorted = (r: PdesRun) =>
      [...r.packets!.columns.packet_id.keys()]
        .map(
          i =>
            `${r.packets!.columns.src_terminal[i]}:${r.packets!.columns.packet_id[i]}:${r.packets!.columns.latency[i]}`,
        )
        .sort();
    assert.deepEqual(sorted(four), sorted(eight));
    assert.equal(nn.packets!.count, 1420);
    assert.equal(mean(nn.packets!.columns.latency).toFixed(1), '24904.8');
    assert.equal(four.routerHops!.count, 22647);
  });

  it('link stats list 324 links: 144 CN, 108 L, 72 G', async () => {
    for (const dir of [UNIFORM, NEAREST, FULL]) {
      const run = await read(dir);
      assert.deepEqual(linkCounts(run.links!), { total: 324, byType: { CN: 144, L: 108, G: 72 } });
      assert.equal(run.terminalStats!.count, 72);
    }
  });

  it('PHOLD with LP samples places every LP from them (linear mapping, 4 LPs per KP)', async () => {
    const run = await read(PHOLD);
    assert.deepEqual(run.placement, { pe: 'lp-records', kp: 'lp-records' });
    assert.equal(run.samples.gvt!.lp.entityCount, 32);
    const e = run.entities;
    assert.deepEqual(
      [0, 3, 4, 16, 31].map(g => e.label('kp', e.lpKp(e.findLp(g)))),
      ['PE 0 · KP 0', 'PE 0 · KP 0', 'PE 0 · KP 1', 'PE 1 · KP 0', 'PE 1 · KP 3'],
    );
    assert.equal(run.modelSamples, null, 'PHOLD writes no model samples');
    // LP samples count the model's events; KP samples add the analysis LPs' (ross.csv's extra columns).
    const rt = run.samples.rt!;
    assert.equal(rt.lp.total(METRIC.eventsProcessed), run.summary!.values.model_nevent_proc);
    assert.equal(
      rt.kp.total(METRIC.eventsProcessed) - rt.lp.total(METRIC.eventsProcessed),
      run.summary!.values.alp_nevent_proc,
    );
    const perKp = aggregateSeries(rt, run.entities, 'lp', 'kp', METRIC.eventsProcessed);
    assert.equal(perKp.length, 8);
    assert.equal(
      perKp.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0),
      78928,
    );
  });

  it('detects run folders and stats files by content', async () => {
    for (const dir of [UNIFORM, FULL, PHOLD]) assert.ok(sniffPdesRun(await sampleFile(sharedPath(dir))) >= 0.9, dir);
    assert.ok(sniffPdesRun(await sampleFile(sharedPath(PHOLD, 'stats'))) >= 0.9);
    assert.ok(sniffPdesRun(await sampleFile(sharedPath(UNIFORM, 'ross-stats/dfdally72-rt.bin'))) >= 0.9);
    assert.ok(sniffPdesRun(await sampleFile(sharedPath(UNIFORM, 'ross-stats/dfdally72-analysis-lps.bin'))) >= 0.9);
    assert.equal(sniffPdesRun(await sampleFile(sharedPath(UNIFORM, 'dfdally_72.conf'))), 0);
    assert.equal(sniffPdesRun(await sampleFile(sharedPath('data'))), 0);
  });
});

/** A run folder in a fresh temporary directory: file name → content. */
const folders: string[] = [];
after(() => folders.forEach(d => rmSync(d, { recursive: true, force: true })));

function runFolder(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-'));
  folders.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const ROSS_CSV_HEADER =
  'total_pe,total_kp,total_lp,end_ts,mapping,events_processed,events_rb,eff,rb_total,rb_primary,rb_secondary';
const PE_ZEROS = new Array<number>(25).fill(0);
const KP_ZEROS = new Array<number>(9).fill(0);

describe('PDES run folders with bad or partial input', () => {
  it('names the file and byte offset of an unknown record', async () => {
    const bytes = new RossRecordWriter()
      .engine(0, { pe: 0, kp: -1, lp: -1 }, 1, 1, PE_ZEROS)
      .raw(new Uint8Array(new Int32Array([9, 104, 0, 0, 0, 0]).buffer))
      .bytes();
    const dir = runFolder({ 'stats/x-gvt.bin': bytes });
    await expectReadError(
      readPdesRun(dir),
      dir,
      /stats\/x-gvt\.bin: unknown record: flag 9, size 104 .*at byte offset 128$/,
    );
  });

  it('keeps the records before a truncated last record and warns', async () => {
    const bytes = new RossRecordWriter()
      .engine(0, { pe: 0, kp: -1, lp: -1 }, 1, 1, [5, ...PE_ZEROS.slice(1)])
      .engine(0, { pe: 0, kp: -1, lp: -1 }, 2, 2, [7, ...PE_ZEROS.slice(1)])
      .bytes();
    const dir = runFolder({ 'stats/x-rt.bin': bytes.slice(0, 128 + 100) });
    const run = await readPdesRun(dir);
    assert.equal(run.samples.rt!.tickCount, 1);
    assert.equal(run.samples.rt!.pe.total(METRIC.eventsProcessed), 5);
    assert.deepEqual(run.warnings, [
      'x-rt.bin: the last record is truncated (100 of 128 bytes at byte offset 128); the 1 records before it were read.',
    ]);
  });

  it('counts and reports event-trace LPs the run does not have, and leaves them out of matrices', async () => {
    const trace = new RossRecordWriter()
      .event(0, 1, 0, 1, 1)
      .event(2, 9, 0, 1, 1)
      .event(7, 3, 0, 1, 1)
      .event(3, 3, 0, 2, 1)
      .bytes();
    const dir = runFolder({
      'ross.csv': `${ROSS_CSV_HEADER}\n2,2,4,10.00,linear,4,0,100.00,0,0,0\n`,
      'stats/x-evtrace.bin': trace,
    });
    const run = await readPdesRun(dir);
    assert.deepEqual(run.unknownTraceLps, { events: 2, lps: 2, examples: [7, 9] });
    assert.match(run.warnings.join('\n'), /2 events name 2 LPs the run does not have \(e\.g\. 7, 9\)/);
    // Linear mapping: LPs 0, 1 on PE 0 and 2, 3 on PE 1.
    assert.deepEqual(run.placement, { pe: 'linear', kp: 'linear' });
    const m = communicationMatrix(run.eventTrace!, run.entities, 'pe');
    assert.deepEqual([...m.counts], [1, 0, 0, 1]);
    assert.equal(m.events, 2);
  });

  it('without an LP→PE map keeps PE-level samples and LP-level communication only', async () => {
    const stats = new RossRecordWriter()
      .engine(0, { pe: 0, kp: -1, lp: -1 }, 1, 1, [3, ...PE_ZEROS.slice(1)])
      .engine(1, { pe: 0, kp: 0, lp: -1 }, 1, 1, [3, ...KP_ZEROS.slice(1)])
      .bytes();
    const dir = runFolder({
      'stats/x-gvt.bin': stats,
      'stats/x-evtrace.bin': new RossRecordWriter().event(5, 6, 0, 1, 1).event(6, 5, 0, 1, 1).bytes(),
    });
    const run = await readPdesRun(dir);
    assert.equal(run.placement.pe, 'none');
    assert.match(run.warnings.join('\n'), /No LP→PE map/);
    assert.equal(run.samples.gvt!.pe.total(METRIC.eventsProcessed), 3);
    assert.equal(communicationMatrix(run.eventTrace!, run.entities, 'pe').events, 0);
    assert.equal(communicationMatrix(run.eventTrace!, run.entities, 'lp').events, 2);
  });

  it('names the missing column of a CSV whose header does not match', async () => {
    const noSecondary = runFolder({ 'ross.csv': 'total_pe,total_kp,total_lp,mapping\n1,1,1,linear\n' });
    await expectReadError(
      readPdesRun(noSecondary),
      noSecondary,
      /ross\.csv: the header has no column "events_processed"/,
    );
    const packets = runFolder({
      'ross.csv': `${ROSS_CSV_HEADER}\n1,1,1,10.00,linear,4,0,100.00,0,0,0\n`,
      'packet-latency/packets-delay-gid=0.txt': '#src_terminal,dest_terminal,packet_size\n1,2,3\n',
    });
    await expectReadError(
      readPdesRun(packets),
      packets,
      /packet-latency\/packets-delay-gid=0\.txt: the header has no column "src_router_id"/,
    );
  });

  it('reads one stats file on its own, its sampling mode from its name', async () => {
    const dir = runFolder({
      'run-gvt.bin': new RossRecordWriter().engine(0, { pe: 0, kp: -1, lp: -1 }, 1, 1, PE_ZEROS).bytes(),
    });
    const run = await readPdesRun(join(dir, 'run-gvt.bin'));
    assert.equal(run.samples.gvt!.tickCount, 1);
    assert.equal(run.files.statsPrefix, 'run');
    await expectReadError(readPdesRun(join(dir, 'missing')), join(dir, 'missing'), /no such file or directory/);
  });
});
