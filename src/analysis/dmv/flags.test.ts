import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeSqliteDb } from '../../../test/support/sqlite-db';
import { nsightSqliteReader } from '../formats/nsight-sqlite';
import { DmvIndex } from './dmv-index';
import { dataMovementFlags, type DmvFlag } from './flags';
import { KinetoTraceWriter } from './testing/kineto-writer';
import { readGenerated } from './testing/read-trace';
import { gemmUvmNsys, GPT2_FRAME, gpt2Run } from './testing/scenarios';

const of = (flags: DmvFlag[], kind: DmvFlag['kind']) => flags.filter(f => f.kind === kind);

describe('DMV flags: alternating transfers (the GPT-2 study, thesis §7.5)', () => {
  it('flags the copies alternating around short kernels from 60 s to 114 s on model.py:123', async () => {
    const ix = new DmvIndex(await readGenerated(gpt2Run()));
    const flags = of(dataMovementFlags(ix), 'alternating-transfers');
    assert.equal(flags.length, 1, JSON.stringify(flags.map(f => [f.file, f.line, f.count])));
    const f = flags[0]!;
    assert.equal(f.file, GPT2_FRAME.file);
    assert.equal(f.line, GPT2_FRAME.line);
    assert.equal(f.name, GPT2_FRAME.name);
    assert.equal(f.count, 2 * 540);
    assert.equal(f.device, 0);
    assert.ok(
      Math.abs(f.start / 1e9 - 60) < 0.01 && Math.abs(f.end / 1e9 - 114) < 0.1,
      `${f.start / 1e9}–${f.end / 1e9} s`,
    );
    assert.match(f.message, /alternate between H→D and D→H 1079 times/);
  });

  it('clears when the fix leaves ten times fewer events', async () => {
    const full = await readGenerated(gpt2Run());
    const fixed = await readGenerated(gpt2Run({ optimised: true }));
    assert.ok(fixed.trace!.events.kind.length * 5 < full.trace!.events.kind.length);
    assert.deepEqual(of(dataMovementFlags(new DmvIndex(fixed)), 'alternating-transfers'), []);
  });

  it('does not count copies with long kernels between them', async () => {
    const w = new KinetoTraceWriter();
    w.python('loop.py(5): step', 0, 10e6);
    for (let k = 0; k < 40; k++) {
      const t = k * 200_000;
      w.launch('cudaMemcpyAsync', t, 5, {
        kind: 'memcpy',
        direction: k % 2 ? 'DtoH' : 'HtoD',
        ts: t + 10,
        dur: 1000,
        bytes: 1e6,
      });
      w.launch('cudaLaunchKernel', t + 20, 5, { kind: 'kernel', ts: t + 1100, dur: 150_000 });
    }
    const flags = dataMovementFlags(new DmvIndex(await readGenerated(w)));
    assert.deepEqual(of(flags, 'alternating-transfers'), []);
    // Each 1 ms copy runs with no kernel beside it: 40 ms exposed on that line.
    assert.deepEqual(
      of(flags, 'copy-without-overlap').map(f => `${f.file}:${f.line} ×${f.count}`),
      ['loop.py:5 ×40'],
    );
  });
});

describe('DMV flags: copies', () => {
  it('pageable copies, small-copy storms and copies no kernel overlaps, each on its line', async () => {
    const w = new KinetoTraceWriter();
    w.python('prep.py(12): load', 0, 1000);
    w.launch('cudaMemcpy', 10, 5, {
      kind: 'memcpy',
      direction: 'HtoD',
      host: 'Pageable',
      ts: 20,
      dur: 500,
      bytes: 4e6,
    });
    w.python('prep.py(30): tiny', 1000, 200_000);
    for (let k = 0; k < 150; k++) {
      const t = 1000 + k * 1000;
      w.launch('cudaMemcpyAsync', t + 1, 2, { kind: 'memcpy', direction: 'HtoD', ts: t + 10, dur: 2, bytes: 256 });
    }
    w.python('prep.py(44): overlapped', 300_000, 10_000);
    w.launch('cudaLaunchKernel', 300_001, 2, { kind: 'kernel', ts: 300_010, dur: 5000, stream: 7 });
    w.launch('cudaMemcpyAsync', 300_004, 2, {
      kind: 'memcpy',
      direction: 'DtoH',
      ts: 300_020,
      dur: 4000,
      bytes: 1e6,
      stream: 8,
    });
    const flags = dataMovementFlags(new DmvIndex(await readGenerated(w)));
    const where = (kind: DmvFlag['kind']) => of(flags, kind).map(f => `${f.file}:${f.line} ×${f.count}`);
    assert.deepEqual(where('pageable-copy'), ['prep.py:12 ×1']);
    assert.deepEqual(where('small-copy-storm'), ['prep.py:30 ×150']);
    // The 500 µs pageable copy runs with no kernel: exposed but below 1 ms; the overlapped one is hidden.
    assert.deepEqual(where('copy-without-overlap'), []);
    const strict = dataMovementFlags(new DmvIndex(await readGenerated(w)), { overlap: { minExposedNs: 100e3 } });
    assert.deepEqual(
      of(strict, 'copy-without-overlap').map(f => `${f.file}:${f.line} ×${f.count}`),
      ['prep.py:12 ×1'],
    );
    assert.deepEqual(where('alternating-transfers'), []);
  });
});

describe('DMV flags: unified-memory fault storms', () => {
  it('charges the storm to the kernel running on the faulting GPU; stray faults are not a storm', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dmv-flags-')), 'uvm.sqlite');
    writeFileSync(path, await makeSqliteDb(gemmUvmNsys()));
    const flags = of(dataMovementFlags(new DmvIndex(await nsightSqliteReader.read(path))), 'uvm-fault-storm');
    assert.ok(flags.length >= 1);
    assert.equal(
      flags.reduce((n, f) => n + f.count, 0),
      20_000,
    );
    for (const f of flags) {
      assert.equal(f.device, 0);
      assert.equal(f.name, 'gemm_batched_kernel');
      assert.ok(f.end < 3e9);
    }
  });
});
