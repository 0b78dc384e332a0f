import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Database, SqlValue } from 'sql.js';
import { expectReadError } from '../../../test/support/read-errors';
import { mutationsOf, readOrReject } from '../../../test/support/mutations';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { makeSqliteDb, type SqliteTables } from '../../../test/support/sqlite-db';
import { inspectReport } from '../stats/inspect-report';
import type { Profile } from '../model/profile';
import { dataMovementTotals, FlowKind, TraceEventKind } from '../model/trace';
import { sampleFile } from './file-sample';
import { readProfile } from './index';
import { nsightSqliteReader } from './nsight-sqlite';
import { pidOf, tidOf } from './nsight-sqlite/build';
import { sqlEngine } from './nsight-sqlite/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'nsight-sqlite-'));
let seq = 0;
const write = (content: Buffer | Uint8Array, name = `t${seq++}.sqlite`) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

type Tables = SqliteTables;
const makeDb = makeSqliteDb;

const paths = (p: Profile) => Array.from({ length: p.tree.size }, (_, i) => p.tree.path(i).join('/'));
function incl(p: Profile, path: string, metric = 'time'): number {
  const i = paths(p).indexOf(path);
  assert.ok(i >= 0, `no node ${path} in ${paths(p).join(', ')}`);
  return p.inclusiveTotals(p.metricIndex(metric))[i]!;
}

// globalTid = pid << 24 | tid (plus a high hardware/VM part, which the reader ignores).
const PID = 4242,
  G_PID = 2 ** 48 + PID * 2 ** 24,
  MAIN = G_PID + PID,
  WORKER = G_PID + PID + 1;
const NSYS_TABLES: Tables = {
  StringIds: {
    cols: ['id', 'value'],
    rows: [
      [1, 'MPI Rank 3'],
      [2, 'cudaMemcpy'],
      [3, 'cudaLaunchKernel'],
      [4, 'saxpy'],
      [5, 'void saxpy<double>(double*)'],
      [6, 'MPI_Send'],
      [7, 'main'],
      [8, '/bin/app'],
      [9, 'compute'],
      [10, 'read'],
      [11, 'worker'],
    ],
  },
  ThreadNames: {
    cols: ['nameId', 'priority', 'globalTid'],
    rows: [
      [1, 0, MAIN],
      [11, 0, WORKER],
    ],
  },
  PROCESSES: {
    cols: ['globalPid', 'pid', 'name'],
    rows: [
      [G_PID, PID, '/bin/app'],
      [2 ** 48 + 7 * 2 ** 24, 7, 'idle'],
    ],
  },
  TARGET_INFO_SESSION_START_TIME: {
    cols: ['utcEpochNs', 'utcTime', 'localTime'],
    rows: [[1687813257637297400n as unknown as SqlValue, '', '']],
  },
  NVTX_EVENTS: {
    cols: ['start', 'end', 'eventType', 'text', 'globalTid', 'textId', 'domainId'],
    rows: [
      [0, null, 75, 'MPI', MAIN, null, 1],
      [100, 1000, 59, 'step', MAIN, null, 0],
      [800, 900, 59, null, MAIN, 6, 1],
      [150, null, 34, 'here', MAIN, null, 0],
      [450, null, 34, 'after', MAIN, null, 0],
      [5000, 4000, 59, 'backwards', MAIN, null, 0],
    ],
  },
  CUPTI_ACTIVITY_KIND_RUNTIME: {
    cols: ['start', 'end', 'globalTid', 'correlationId', 'nameId'],
    rows: [
      [200, 400, MAIN, 1, 2],
      [500, 600, MAIN, 2, 3],
    ],
  },
  OSRT_API: { cols: ['start', 'end', 'globalTid', 'nameId'], rows: [[10, 60, WORKER, 10]] },
  CUPTI_ACTIVITY_KIND_KERNEL: {
    cols: ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid', 'demangledName', 'shortName'],
    rows: [[650, 950, 0, 7, 2, G_PID, 5, 4]],
  },
  CUPTI_ACTIVITY_KIND_MEMCPY: {
    cols: [
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
      'srcDeviceId',
      'dstDeviceId',
    ],
    rows: [
      [250, 350, 0, 7, 1, G_PID, 4096, 1, 0, 2, null, null],
      [960, 990, 1, 8, 77, G_PID, 100, 10, 2, 2, 1, 0],
    ],
  },
  CUPTI_ACTIVITY_KIND_MEMSET: {
    cols: ['start', 'end', 'deviceId', 'streamId', 'correlationId', 'globalPid', 'value', 'bytes'],
    rows: [[1000, 1010, 0, 7, 99, G_PID, 0, 64]],
  },
  COMPOSITE_EVENTS: {
    cols: ['id', 'start', 'cpu', 'globalTid'],
    rows: [
      [1, 120, 0, MAIN],
      [2, 130, 0, MAIN],
    ],
  },
  SAMPLING_CALLCHAINS: {
    cols: ['id', 'symbol', 'module', 'stackDepth'],
    rows: [
      [1, 9, 8, 0],
      [1, 7, 8, 1],
      [2, 7, 8, 0],
    ],
  },
};

describe('Nsight Systems SQLite reader: fixtures', () => {
  it('builds threads and GPU streams, nests NVTX/CUDA API calls, hangs GPU work under its launch', async () => {
    const p = await nsightSqliteReader.read(write(await makeDb(NSYS_TABLES)));
    const t = p.trace!;
    assert.equal(t.originNs, '1687813257637297400');
    assert.deepEqual(
      t.tracks.map(x => [x.name, x.kind, x.rank]),
      [
        ['MPI Rank 3 (4242)', 'thread', 3],
        ['worker (4243)', 'thread', 3],
        ['GPU 0 · stream 7', 'gpu-stream', 3],
        ['GPU 1 · stream 8', 'gpu-stream', 3],
      ],
    );
    assert.equal(t.tracks[0]!.process, 'rank 3 · app [pid 4242]');
    // Inclusive time adds the GPU work launched inside (kernel 300 + copy 100) to the range's own 900.
    assert.equal(incl(p, 'step'), 1300);
    assert.equal(incl(p, 'step/MPI_Send'), 100);
    assert.equal(incl(p, 'step/cudaMemcpy/Memcpy HtoD'), 100);
    assert.equal(incl(p, 'step/cudaLaunchKernel/void saxpy<double>(double*)'), 300);
    assert.equal(incl(p, 'read'), 50);
    // Unmatched correlation ids (77, 99) stay at the top level, with a warning.
    assert.equal(incl(p, 'Memcpy PtoP'), 30);
    assert.equal(incl(p, 'Memset'), 10);
    assert.ok(
      p.warnings.some(w => /2 GPU activities have no CUDA API call/.test(w)),
      p.warnings.join('; '),
    );
    assert.ok(
      p.warnings.some(w => /1 row without a valid start\/end/.test(w)),
      p.warnings.join('; '),
    );
    // MPI ranges carry their NVTX domain as category.
    const ev = t.events;
    const send = Array.from(ev.name).findIndex(n => p.tree.strings.get(n) === 'MPI_Send');
    assert.equal(p.tree.strings.get(ev.category[send]!), 'MPI');
    assert.equal(ev.depth[send], 1);
    // The mark sits inside "step"; samples hang their call chains from the root down.
    const marks = Array.from(ev.kind).flatMap((k, i) => (k === TraceEventKind.Instant ? [i] : []));
    assert.deepEqual(
      marks.map(i => [p.tree.strings.get(ev.name[i]!), p.tree.name(ev.node[i]!), ev.depth[i]]),
      [
        ['here', 'step', 1],
        ['after', 'step', 1],
      ],
    );
    assert.equal(incl(p, 'main', 'samples'), 2);
    assert.equal(incl(p, 'main/compute', 'samples'), 1);
    assert.equal(p.tree.module(paths(p).indexOf('main/compute')), '/bin/app');
    // Launch flows from the CUDA API calls to the GPU activities.
    assert.equal(t.flows.kind.length, 2);
    assert.ok(Array.from(t.flows.kind).every(k => k === FlowKind.Launch));
    const dm = dataMovementTotals(t.dataMovement);
    assert.deepEqual(dm.byKind, {
      'host-to-device': { count: 1, bytes: 4096 },
      peer: { count: 1, bytes: 100 },
      memset: { count: 1, bytes: 64 },
    });
    const peer = Array.from(t.dataMovement.kind).indexOf(3);
    assert.deepEqual([t.dataMovement.srcDevice[peer], t.dataMovement.dstDevice[peer]], [1, 0]);
    const h2d = Array.from(t.dataMovement.kind).indexOf(0);
    assert.deepEqual([t.dataMovement.srcDevice[h2d], t.dataMovement.dstDevice[h2d]], [-1, 0]);
    assert.equal(p.total(p.metricIndex('bytes')), 4096 + 100 + 64);
  });

  it('decodes globalTid as pid = (g >> 24) & 0xFFFFFF, tid = g & 0xFFFFFF', () => {
    const g = 302119224788637; // from a Perlmutter export: process 1230493, its main thread
    assert.equal(pidOf(g), Number((BigInt(g) >> 24n) & 0xffffffn));
    assert.equal(tidOf(g), Number(BigInt(g) & 0xffffffn));
    assert.deepEqual([pidOf(g), tidOf(g)], [1230493, 1230493]);
  });

  it('reads an export whose activity tables are empty, and one with only some tables', async () => {
    const empty = Object.fromEntries(Object.entries(NSYS_TABLES).map(([k, v]) => [k, { cols: v.cols }]));
    const p = await nsightSqliteReader.read(write(await makeDb(empty)));
    assert.equal(p.trace!.events.track.length, 0);
    assert.deepEqual(p.trace!.timeRange, [0, 0]);
    const q = await nsightSqliteReader.read(
      write(
        await makeDb({
          StringIds: NSYS_TABLES['StringIds']!,
          CUPTI_ACTIVITY_KIND_KERNEL: NSYS_TABLES['CUPTI_ACTIVITY_KIND_KERNEL']!,
        }),
      ),
    );
    assert.equal(incl(q, 'void saxpy<double>(double*)'), 300);
    assert.ok(q.warnings.some(w => /1 GPU activity has no CUDA API call/.test(w)));
  });

  it('reads a gzip-compressed export', async () => {
    const p = await nsightSqliteReader.read(write(gzipSync(await makeDb(NSYS_TABLES))));
    assert.equal(p.trace!.dataMovement.kind.length, 3);
  });

  it('sniffs by content', async () => {
    assert.ok(nsightSqliteReader.sniff(await sampleFile(write(await makeDb(NSYS_TABLES)))) > 0.9);
    assert.ok(nsightSqliteReader.sniff(await sampleFile(write(await makeDb({ other: { cols: ['a'] } })))) < 0.5);
    assert.equal(nsightSqliteReader.sniff(await sampleFile(write(Buffer.from('id,value\n1,x\n')))), 0);
  });

  it('rejects non-SQLite files and SQLite files without Nsight tables with clear errors', async () => {
    const text = write(Buffer.from('this is not a database\n'.repeat(20)));
    await expectReadError(nsightSqliteReader.read(text), text, /not an SQLite database/);
    await expectReadError(readProfile(text), text, /not a recognised profile format/);
    const other = write(await makeDb({ other: { cols: ['a'], rows: [[1]] } }));
    await expectReadError(
      nsightSqliteReader.read(other),
      other,
      /not an Nsight Systems export: it lacks the StringIds table and any activity table/,
    );
    const noActivity = write(await makeDb({ StringIds: NSYS_TABLES['StringIds']! }));
    await expectReadError(
      nsightSqliteReader.read(noActivity),
      noActivity,
      /lacks any activity table \(CUPTI_ACTIVITY_KIND_KERNEL/,
    );
    const header = write(Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(200, 7)]));
    await expectReadError(nsightSqliteReader.read(header), header, /cannot be read/);
  });

  it('stops when aborted', async () => {
    const path = write(await makeDb(NSYS_TABLES));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(nsightSqliteReader.read(path, { signal: ac.signal }), (e: Error) => e.name === 'AbortError');
  });

  it('survives damaged databases: every mutation reads or fails with a ProfileReadError', async () => {
    const valid = await makeDb(NSYS_TABLES);
    let rejected = 0,
      n = 0;
    for (const [what, bytes] of mutationsOf(valid, { truncations: 40, flips: 120 })) {
      if (++n > 400) break;
      if ((await readOrReject(write(bytes), nsightSqliteReader, what)) === 'rejected') rejected++;
    }
    assert.ok(rejected > 0);
  });
});

/** Values queried straight from the database with sql.js, independently of the reader. */
async function query(path: string, sql: string): Promise<SqlValue[][]> {
  const SQL = await sqlEngine();
  const db: Database = new SQL.Database(readFileSync(path));
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}

describe('Nsight Systems SQLite reader: shared data', () => {
  const folder = 'data/nsight-systems-sqlite';
  const files = sharedFiles(folder, '.sqlite');
  it('finds the shared exports', { skip: skipUnlessShared(folder) }, () => assert.ok(files.length > 0));
  for (const f of files) {
    it(`reads ${f} and matches direct SQL counts`, { skip: skipUnlessShared(folder) }, async () => {
      const path = sharedPath(folder, f);
      assert.ok(nsightSqliteReader.sniff(await sampleFile(path)) > 0.9);
      const p = await readProfile(path);
      assert.equal(p.format, 'nsight-sqlite');
      const t = p.trace!;
      const ev = t.events;
      // Kernels: count and Σ duration per stream.
      const kernels = await query(
        path,
        'SELECT streamId, count(*), sum("end" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY streamId',
      );
      assert.ok(kernels.length > 0);
      for (const [stream, count, sum] of kernels) {
        const tr = t.tracks.findIndex(x => x.kind === 'gpu-stream' && x.gpuStream === stream);
        let c = 0,
          s = 0;
        for (let i = t.trackEventStart[tr]!; i < t.trackEventStart[tr + 1]!; i++)
          if (p.tree.strings.get(ev.category[i]!) === 'Kernel') {
            c++;
            s += ev.duration[i]!;
          }
        assert.deepEqual([c, s], [count, sum], `stream ${stream}`);
      }
      // Memcpys per direction (copyKind 1 = HtoD, 2 = DtoH, 8 = DtoD, 10 = PtoP).
      const dm = dataMovementTotals(t.dataMovement);
      const names: Record<number, string> = {
        1: 'host-to-device',
        2: 'device-to-host',
        8: 'device-to-device',
        10: 'peer',
      };
      const copies = await query(
        path,
        'SELECT copyKind, count(*), sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind',
      );
      assert.ok(copies.length > 0);
      for (const [kind, count, bytes] of copies)
        assert.deepEqual(dm.byKind[names[kind as number]!], { count, bytes }, `copyKind ${kind}`);
      const [[memsets]] = (await query(path, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET')) as [[number]];
      assert.equal(dm.byKind['memset']?.count ?? 0, memsets);
      // Every kernel and memcpy found its launching CUDA API call.
      const [[gpuOps]] = (await query(
        path,
        'SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY)',
      )) as [[number]];
      assert.equal(t.flows.kind.length, gpuOps);
      // NVTX ranges, CUDA API calls and CPU samples.
      const [[ranges]] = (await query(
        path,
        'SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND "end" >= start',
      )) as [[number]];
      const [[api]] = (await query(path, 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME')) as [[number]];
      const [[samples]] = (await query(
        path,
        'SELECT count(DISTINCT e.id) FROM COMPOSITE_EVENTS e JOIN SAMPLING_CALLCHAINS c ON c.id = e.id',
      )) as [[number]];
      const count = (cat: string) => Array.from(ev.category).filter(c => p.tree.strings.get(c) === cat).length;
      assert.equal(count('CUDA API'), api);
      assert.equal(
        Array.from(ev.kind).filter(k => k === TraceEventKind.Slice).length -
          count('CUDA API') -
          count('Kernel') -
          count('Memcpy') -
          count('Memset') -
          count('OS runtime'),
        ranges,
      );
      assert.equal(p.total(p.metricIndex('samples')), samples);
      assert.equal(Array.from(ev.kind).filter(k => k === TraceEventKind.Sample).length, samples);
      // MPI ranges come from the MPI NVTX domain; the rank from the thread name "MPI Rank N".
      assert.ok(Array.from(ev.category).some(c => p.tree.strings.get(c) === 'MPI'));
      assert.ok(t.tracks.every(x => x.rank >= 0));
      const r = inspectReport(p);
      assert.equal(r.dataMovement?.count, t.dataMovement.kind.length);
    });
  }
});
