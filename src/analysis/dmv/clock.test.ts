import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeSqliteDb } from '../../../test/support/sqlite-db';
import { nsightSqliteReader } from '../formats/nsight-sqlite';
import { dmvClock, playWindow, sectorOf, sectorWindow, summariseWindow, windowArc } from './clock';
import { DmvIndex } from './dmv-index';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';
import { gemmRun, gemmUvmNsys } from './testing/scenarios';

describe('DMV clock: hand-checked', () => {
  it('splits events at sector edges, counts a track’s overlapping slices once, spreads copy bytes over their time', async () => {
    const w = new KinetoTraceWriter();
    // Range [0, 1200) µs → 12 sectors of 100 µs.
    w.op('outer', 0, 1200);
    w.op('inner', 50, 100); // nested in outer: CPU busy stays the union
    w.launch('cudaMemcpyAsync', 250, 30, { kind: 'memcpy', direction: 'HtoD', ts: 280, dur: 40, bytes: 4000 });
    w.launch('cudaLaunchKernel', 500, 10, { kind: 'kernel', ts: 550, dur: 100 });
    w.gpu({ kind: 'memcpy', direction: 'DtoH', ts: 900, dur: 0, bytes: 64 });
    w.gpu({ kind: 'memset', ts: 950, dur: 10, bytes: 128 });
    const ix = new DmvIndex(await readGenerated(w));
    const c = dmvClock(ix, ix.range);
    assert.equal(c.sectorWidth, 100_000);
    assert.equal(c.sectors.length, 12);
    // The copy [280, 320) µs: 20 µs in sector 2, 20 µs in sector 3; bytes split 2000/2000.
    assert.equal(c.sectors[2]!.busy.dataMovement, 20_000);
    assert.equal(c.sectors[3]!.busy.dataMovement, 20_000);
    assert.equal(c.sectors[2]!.bytes, 2000);
    assert.equal(c.sectors[3]!.bytes, 2000);
    assert.equal(c.sectors[2]!.bytesByDirection.hostToDevice, 2000);
    assert.equal(c.sectors[2]!.copies, 1);
    assert.equal(c.sectors[3]!.copies, 0);
    // The kernel [550, 650): 50 µs in sectors 5 and 6.
    assert.equal(c.sectors[5]!.busy.gpuCompute, 50_000);
    assert.equal(c.sectors[6]!.busy.gpuCompute, 50_000);
    // An instantaneous copy counts whole where it starts; a memset's bytes are not copied bytes.
    assert.equal(c.sectors[9]!.bytes, 64);
    assert.equal(c.sectors[9]!.bytesByDirection.deviceToHost, 64);
    assert.equal(c.sectors[9]!.memsetBytes, 128);
    assert.equal(c.bytes, 4064);
    // CPU compute: outer covers every sector fully, inner adds nothing.
    for (const s of c.sectors) assert.equal(s.busy.cpuCompute, 100_000);
    assert.equal(c.sectors[2]!.busy.runtime, 30_000);
    assert.equal(c.sectors[2]!.occupancy.cpu, 1);
    assert.equal(c.sectors[5]!.occupancy.gpu, 0.5);
    assert.deepEqual(c.labels, { runtime: '1.2 ms', bytes: '4.06 kB' });
  });

  it('maps sectors to windows and windows to the inner arc; play steps a sector at a time', async () => {
    const w = new KinetoTraceWriter();
    w.op('run', 0, 1200);
    const ix = new DmvIndex(await readGenerated(w));
    const c = dmvClock(ix, ix.range);
    assert.deepEqual(sectorWindow(c, 3), { start: 300_000, end: 400_000 });
    assert.equal(sectorOf(c, 350_000), 3);
    assert.equal(sectorOf(c, 5e9), 11);
    assert.deepEqual(windowArc(c, { start: 300_000, end: 600_000 }), { from: 0.25, to: 0.5 });
    assert.deepEqual(windowArc(c, { start: -100, end: 2e9 }), { from: 0, to: 1 });
    assert.equal(windowArc(c, { start: 2e9, end: 3e9 }), null);
    assert.deepEqual(playWindow(c, 13), sectorWindow(c, 1));
    const win = summariseWindow(ix, { start: 50_000, end: 150_000 });
    assert.equal(win.busy.cpuCompute, 100_000);
  });
});

describe('DMV clock: GEMM acceptance (thesis §7.5)', () => {
  it('EXP: 3 GB of explicit copies give data-movement bytes in sectors 4 and 11 only, labelled 3 GB', async () => {
    const ix = new DmvIndex(await readGenerated(gemmRun({ explicitCopies: true })));
    const c = dmvClock(ix, ix.range);
    assert.equal(c.sectorWidth, 1e9);
    c.sectors.forEach((s, k) => {
      const copying = k === 4 || k === 11;
      assert.equal(s.bytes > 0, copying, `sector ${k} bytes ${s.bytes}`);
      assert.equal(s.busy.dataMovement > 0, copying, `sector ${k} data movement`);
      assert.ok(s.busy.gpuCompute > 0, `kernels run in sector ${k}`);
    });
    assert.equal(c.sectors[4]!.bytesByDirection.hostToDevice, 1.5e9);
    assert.equal(c.sectors[11]!.bytesByDirection.deviceToHost, 1.5e9);
    assert.equal(c.bytes, 3e9);
    assert.equal(c.labels.bytes, '3 GB');
    assert.equal(c.faults, 0);
  });

  it('UVM (an Nsight export): no copy bytes anywhere, but the page faults, where they happened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dmv-uvm-')), 'gemm-uvm.sqlite');
    writeFileSync(path, await makeSqliteDb(gemmUvmNsys()));
    const ix = new DmvIndex(await nsightSqliteReader.read(path));
    const c = dmvClock(ix, ix.range);
    assert.equal(c.sectorWidth, 1e9);
    assert.equal(c.bytes, 0);
    assert.equal(c.labels.bytes, '0 B');
    for (const s of c.sectors) assert.equal(s.bytes + s.migrationBytes, 0);
    assert.equal(c.faults, 400 * 50 + 5 * 2);
    // 400 groups 7 ms apart from 50 ms: sectors 0–2 hold them.
    assert.ok(c.sectors[0]!.faults > 0 && c.sectors[1]!.faults > 0 && c.sectors[2]!.faults > 0);
    assert.equal(c.sectors[0]!.faults + c.sectors[1]!.faults + c.sectors[2]!.faults, 20_000);
    assert.deepEqual(c.sectors.map(s => s.faults).slice(5, 10), [2, 2, 2, 2, 2]);
  });
});
