import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { makeSqliteDb, type SqliteTables } from '../../../test/support/sqlite-db';
import { DataMovementKind, MemoryKind } from '../model/trace';
import { chromeTraceReader } from './chrome-trace';
import { readProfile } from './index';
import { nsightSqliteReader } from './nsight-sqlite';

// What the Kineto and Nsight readers keep for the data-movement views (thesis ch. 7, DMV): copy
// memory kinds, unified-memory migrations and page faults, allocator events, device properties.

const dir = mkdtempSync(join(tmpdir(), 'gpu-memory-records-'));
let seq = 0;
const write = (content: string | Buffer, ext: string) => {
  const p = join(dir, `t${seq++}.${ext}`);
  writeFileSync(p, content);
  return p;
};

describe('Kineto: copy memory kinds and [memory] events', () => {
  it('reads the memory kinds from copy names and the allocator events per device', async () => {
    const events = [
      {
        ph: 'X',
        cat: 'cuda_runtime',
        name: 'cudaMemcpyAsync',
        pid: 1,
        tid: 1,
        ts: 10,
        dur: 30,
        args: { correlation: 5 },
      },
      {
        ph: 'X',
        cat: 'gpu_memcpy',
        name: 'Memcpy HtoD (Pageable -> Device)',
        pid: 0,
        tid: 7,
        ts: 15,
        dur: 20,
        args: { correlation: 5, device: 0, stream: 7, bytes: 4096 },
      },
      {
        ph: 'X',
        cat: 'gpu_memcpy',
        name: 'Memcpy DtoH (Device -> Pinned)',
        pid: 0,
        tid: 7,
        ts: 40,
        dur: 5,
        args: { device: 0, stream: 7, bytes: 64 },
      },
      {
        ph: 'X',
        cat: 'gpu_memcpy',
        name: 'Memcpy DtoD',
        pid: 0,
        tid: 7,
        ts: 50,
        dur: 5,
        args: { device: 0, stream: 7, bytes: 8 },
      },
      {
        ph: 'i',
        s: 't',
        name: '[memory]',
        pid: 1,
        tid: 1,
        ts: 12,
        args: { 'Device Type': 1, 'Device Id': 0, Bytes: 4096, 'Total Allocated': 8192 },
      },
      {
        ph: 'i',
        s: 't',
        name: '[memory]',
        pid: 1,
        tid: 1,
        ts: 11,
        args: { 'Device Type': 0, 'Device Id': -1, Bytes: 16 },
      },
      {
        ph: 'i',
        s: 't',
        name: '[memory]',
        pid: 1,
        tid: 1,
        ts: 60,
        args: { 'Device Type': 1, 'Device Id': 0, Bytes: -4096 },
      },
      { ph: 'i', s: 't', name: 'marker', pid: 1, tid: 1, ts: 61, args: { Bytes: 1 } },
    ];
    const p = await chromeTraceReader.read(write(JSON.stringify({ traceEvents: events }), 'json'));
    const dm = p.trace!.dataMovement;
    assert.deepEqual(Array.from(dm.kind), [
      DataMovementKind.HostToDevice,
      DataMovementKind.DeviceToHost,
      DataMovementKind.DeviceToDevice,
    ]);
    assert.deepEqual(Array.from(dm.srcKind!), [MemoryKind.Pageable, MemoryKind.Device, MemoryKind.Unknown]);
    assert.deepEqual(Array.from(dm.dstKind!), [MemoryKind.Device, MemoryKind.Pinned, MemoryKind.Unknown]);
    assert.equal(dm.migration, undefined, 'Kineto cannot tell migrations from copies');
    const mem = p.trace!.memory!;
    // In time order; times in ns from the first event (ts 10 µs).
    assert.deepEqual(Array.from(mem.time), [1000, 2000, 50000]);
    assert.deepEqual(Array.from(mem.device), [-1, 0, 0]);
    assert.deepEqual(Array.from(mem.bytes), [16, 4096, -4096]);
    assert.deepEqual(Array.from(mem.totalAllocated), [NaN, 8192, NaN]);
    // The instants stay on the timeline as before.
    assert.equal(p.trace!.events.kind.filter(k => k === 1).length, 4);
  });

  it('has no allocator table or kind columns when the trace records none', async () => {
    const p = await chromeTraceReader.read(
      write(JSON.stringify([{ ph: 'X', name: 'a', pid: 1, tid: 1, ts: 0, dur: 1 }]), 'json'),
    );
    assert.equal(p.trace!.memory, undefined);
    assert.equal(p.trace!.dataMovement.srcKind, undefined);
  });
});

const G_PID = 2 ** 48 + 42 * 2 ** 24;
const copyCols = [
  'start',
  'end',
  'deviceId',
  'streamId',
  'correlationId',
  'globalPid',
  'bytes',
  'copyKind',
  'srcKind',
  'dstKind',
];
function nsysTables(extra: SqliteTables = {}): SqliteTables {
  return {
    StringIds: { cols: ['id', 'value'], rows: [[1, 'cudaMemcpy']] },
    CUPTI_ACTIVITY_KIND_RUNTIME: {
      cols: ['start', 'end', 'globalTid', 'correlationId', 'nameId'],
      rows: [[0, 100, G_PID + 42, 1, 1]],
    },
    CUPTI_ACTIVITY_KIND_MEMCPY: {
      cols: copyCols,
      rows: [
        [10, 20, 1, 7, 1, G_PID, 4096, 1, 0, 2],
        [30, 40, 1, 7, 1, G_PID, 64, 2, 2, 1],
        [50, 60, 1, 7, 1, G_PID, 65536, 11, 4, 2],
        [70, 80, 1, 7, 1, G_PID, 65536, 12, 2, 4],
      ],
    },
    TARGET_INFO_GPU: {
      cols: ['id', 'name', 'totalMemory', 'smCount', 'computeMajor', 'computeMinor', 'busLocation', 'cuDevice'],
      rows: [
        [1, 'NVIDIA A100-SXM4-40GB', 42297524224, 108, 8, 0, '0000:03:00.0', 1],
        [0, 'NVIDIA A100-SXM4-40GB', 42297524224, 108, 8, 0, '0000:02:00.0', 0],
      ],
    },
    ...extra,
  };
}

describe('Nsight Systems: memory kinds, migrations, page faults and device properties', () => {
  it('translates nsys memory kinds and marks copyKind 11–13 as unified-memory migrations', async () => {
    const p = await nsightSqliteReader.read(write(await makeSqliteDb(nsysTables()), 'sqlite'));
    const dm = p.trace!.dataMovement;
    // nsys numbers kinds 0 Pageable, 1 Pinned, 2 Device, 4 Managed (no enum table in older exports).
    assert.deepEqual(Array.from(dm.srcKind!), [
      MemoryKind.Pageable,
      MemoryKind.Device,
      MemoryKind.Managed,
      MemoryKind.Device,
    ]);
    assert.deepEqual(Array.from(dm.dstKind!), [
      MemoryKind.Device,
      MemoryKind.Pinned,
      MemoryKind.Device,
      MemoryKind.Managed,
    ]);
    assert.deepEqual(Array.from(dm.migration!), [0, 0, 1, 1]);
    assert.deepEqual(Array.from(dm.kind), [
      DataMovementKind.HostToDevice,
      DataMovementKind.DeviceToHost,
      DataMovementKind.HostToDevice,
      DataMovementKind.DeviceToHost,
    ]);
    const names = Array.from(dm.event, e => p.tree.strings.get(p.trace!.events.name[e]!));
    assert.deepEqual(names, ['Memcpy HtoD', 'Memcpy DtoH', 'Unified Memcpy HtoD', 'Unified Memcpy DtoH']);
    assert.deepEqual(p.metadata['deviceProperties'], [
      {
        id: 0,
        name: 'NVIDIA A100-SXM4-40GB',
        totalGlobalMem: 42297524224,
        numSms: 108,
        computeMajor: 8,
        computeMinor: 0,
        busLocation: '0000:02:00.0',
      },
      {
        id: 1,
        name: 'NVIDIA A100-SXM4-40GB',
        totalGlobalMem: 42297524224,
        numSms: 108,
        computeMajor: 8,
        computeMinor: 0,
        busLocation: '0000:03:00.0',
      },
    ]);
    assert.equal(p.trace!.pageFaults, undefined);
  });

  it('uses the export’s ENUM_CUDA_MEM_KIND labels when present', async () => {
    const tables = nsysTables({
      ENUM_CUDA_MEM_KIND: {
        cols: ['id', 'name', 'label'],
        rows: [
          [0, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'],
          [2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'],
        ],
      },
    });
    const p = await nsightSqliteReader.read(write(await makeSqliteDb(tables), 'sqlite'));
    // Raw source kinds 0, 2, 4, 2: id 4 is not in this export's table.
    assert.deepEqual(Array.from(p.trace!.dataMovement.srcKind!), [
      MemoryKind.Pinned,
      MemoryKind.Device,
      MemoryKind.Unknown,
      MemoryKind.Device,
    ]);
  });

  it('reads GPU and CPU unified-memory page faults', async () => {
    const tables = nsysTables({
      CUDA_UM_GPU_PAGE_FAULT_EVENTS: {
        cols: ['start', 'end', 'globalPid', 'deviceId', 'address', 'numberOfPageFaults', 'faultAccessType'],
        rows: [
          [500, 700, G_PID, 1, 4096, 12, 1],
          [300, 310, G_PID, 0, 8192, 3, 1],
        ],
      },
      CUDA_UM_CPU_PAGE_FAULT_EVENTS: {
        cols: ['start', 'globalPid', 'address', 'originalFaultPc', 'CpuInstruction', 'module', 'unresolvedFaultPc'],
        rows: [[400, G_PID, 4096, null, 0, 0, null]],
      },
    });
    const p = await nsightSqliteReader.read(write(await makeSqliteDb(tables), 'sqlite'));
    const f = p.trace!.pageFaults!;
    assert.deepEqual(Array.from(f.start), [300, 400, 500]);
    assert.deepEqual(Array.from(f.duration), [10, 0, 200]);
    assert.deepEqual(Array.from(f.device), [0, -1, 1]);
    assert.deepEqual(Array.from(f.count), [3, 1, 12]);
  });
});

describe('real traces', () => {
  const resnet = ['data', 'chrome-trace', 'pytorch-profiler-resnet50'];
  it(
    'resnet50 (Kineto): every copy is Pageable → Device; 12,838 allocator events',
    { skip: skipUnlessShared(...resnet) },
    async () => {
      const p = await readProfile(sharedPath(...resnet, 'worker0.1623143089861.pt.trace.json.gz'));
      const dm = p.trace!.dataMovement;
      const copies = Array.from(dm.kind.keys()).filter(i => dm.kind[i] !== DataMovementKind.Memset);
      assert.equal(copies.length, 12);
      for (const i of copies) {
        assert.equal(dm.srcKind![i], MemoryKind.Pageable);
        assert.equal(dm.dstKind![i], MemoryKind.Device);
      }
      assert.equal(p.trace!.memory!.time.length, 12838);
      assert.ok(Array.isArray(p.metadata['deviceProperties']));
    },
  );

  const saxpy = ['data', 'nsight-systems-sqlite', 'saxpy-mpi-cuda-perlmutter'];
  it(
    'saxpy (nsys): copies from and to pageable host memory; the A100 as device 0',
    { skip: skipUnlessShared(...saxpy) },
    async () => {
      const p = await readProfile(sharedPath(...saxpy, 'saxpy-mpi-cuda_nsys_perlmutter0.sqlite'));
      const dm = p.trace!.dataMovement;
      for (let i = 0; i < dm.kind.length; i++) {
        const h2d = dm.kind[i] === DataMovementKind.HostToDevice;
        assert.equal(dm.srcKind![i], h2d ? MemoryKind.Pageable : MemoryKind.Device);
        assert.equal(dm.dstKind![i], h2d ? MemoryKind.Device : MemoryKind.Pageable);
        assert.equal(dm.migration![i], 0);
      }
      const props = p.metadata['deviceProperties'] as { id: number; name: string }[];
      assert.deepEqual(
        props.map(d => [d.id, d.name]),
        [[0, 'NVIDIA A100-SXM4-40GB']],
      );
    },
  );
});
