import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sharedFiles, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { bundleNodeScript } from '../../../test/support/node-bundle';
import { readProfile } from '../../analysis/formats';
import type { Profile } from '../../analysis/model/profile';
import { analyzeTrace } from '../../analysis/timeseries/analyze-trace';
import type { TraceAnalysisOptions } from '../../analysis/timeseries/model/options';
import * as S from '../../analysis/timeseries/testing/scenarios';
import { traceAnalysisView } from '../../analysis/timeseries/view-data';
import { LocalAnalysisService } from '../local-analysis-service';
import { shared } from '../shared-memory';
import { WorkerPool } from '../worker-pool';
import type { TraceAnalysisRequest, TraceAnalysisShape } from './trace-analysis-system';

/** A request of the system, its answer typed by its kind. */
const ask = <K extends TraceAnalysisRequest['kind']>(
  s: LocalAnalysisService | WorkerPool,
  dataset: number,
  request: Extract<TraceAnalysisRequest, { kind: K }>,
  ctx: { signal?: AbortSignal; onProgress?: (f: number) => void } = {},
) =>
  s.systemRequest<'traceAnalysis', K>({ dataset, system: 'traceAnalysis', request }, ctx) as Promise<
    TraceAnalysisShape['results'][K]
  >;

const PING_PONG = sharedPath('data', 'hpctoolkit-metadb', 'ping-pong-mpi-with-trace');
const OTF2 = sharedPath('data', 'scorep-otf2', 'ping-pong-2ranks');
const RESNET_DIR = 'data/chrome-trace/pytorch-profiler-resnet50';
const NSIGHT = sharedPath(
  'data',
  'nsight-systems-sqlite',
  'saxpy-mpi-cuda-perlmutter',
  'saxpy-mpi-cuda_nsys_perlmutter0.sqlite',
);

const analyse = (
  s: LocalAnalysisService | WorkerPool,
  dataset: number,
  options: Partial<TraceAnalysisOptions> = {},
  signal?: AbortSignal,
) => ask(s, dataset, { kind: 'analyse', options }, signal ? { signal } : {});

/** The view the CLI's analysis of the same file gives (what the panel must show). */
async function cliView(profile: Profile, options: Partial<TraceAnalysisOptions> = {}) {
  const a = await analyzeTrace(profile, options);
  return traceAnalysisView(a, n => profile.tree.depth(n));
}

/** A service holding a synthetic trace as dataset 1. */
function holding(profile: Profile): LocalAnalysisService {
  const s = new LocalAnalysisService();
  s.adopt({ dataset: 1, data: profile.data });
  return s;
}

describe('the trace-analysis system on real traces', () => {
  it(
    'HPCToolkit trace.db ping-pong: the inner loop a profile node under the defaults, 8 iterations with a child minimum of 1',
    { skip: skipUnlessShared('data', 'hpctoolkit-metadb', 'ping-pong-mpi-with-trace') },
    async () => {
      const s = new LocalAnalysisService();
      const { dataset } = await s.open({ path: PING_PONG });
      const a = await analyse(s, dataset);
      assert.deepEqual(a.view, await cliView(await readProfile(PING_PONG)));
      assert.ok(Math.abs(a.view.samplingPeriod! - 0.006) < 1e-4);
      const inner = a.view.loops.find(l => l.name === 'Loop@ping-pong.c:53')!;
      assert.deepEqual([inner.accepted, inner.iterations, inner.ids], [false, 8, 8]);
      assert.deepEqual(
        a.view.clusters.map(c => c.label.short),
        ['rank 0 · thread 0', 'rank 1 · thread 0'],
      );
      assert.equal(a.nodeClass.length, (await readProfile(PING_PONG)).tree.size);
      const one = await analyse(s, dataset, { childNumAcc: 1 });
      const loop = one.view.loops.find(l => l.name === 'Loop@ping-pong.c:53')!;
      assert.deepEqual([loop.accepted, loop.iterations], [true, 8]);
      const m = await ask(s, dataset, { kind: 'iterations', loop: loop.index, rows: 64, columns: 64 });
      assert.equal(m.columns.length, 8, 'the matrix has one column per iteration');
      assert.deepEqual(
        m.rows.map(r => [r.cluster, r.label]),
        [
          [0, 'rank 0 · thread 0'],
          [0, 'rank 1 · thread 0'],
        ],
        'one cluster (see analyze-trace.test.ts on why), a row per rank',
      );
    },
  );

  it(
    'OTF2 ping-pong (instrumented): no loop forms, one cluster',
    { skip: skipUnlessShared('data', 'scorep-otf2', 'ping-pong-2ranks') },
    async () => {
      const s = new LocalAnalysisService();
      const { dataset } = await s.open({ path: OTF2 });
      const a = await analyse(s, dataset);
      assert.deepEqual(a.view, await cliView(await readProfile(OTF2)));
      assert.equal(a.view.samplingPeriod, null);
      assert.equal(a.view.loops.length, 0);
      assert.ok(a.view.notes.some(n => n.startsWith('No loops')));
      assert.equal(a.view.clusters.length, 1);
      assert.ok(a.view.paths.every(p => p.class === 'wait'));
    },
  );

  it(
    'Kineto ResNet-50: 6 ProfilerStep# iterations; lanes of three roles',
    { skip: skipUnlessShared(RESNET_DIR) },
    async () => {
      const [file] = sharedFiles(RESNET_DIR, '.pt.trace.json.gz');
      const path = sharedPath(RESNET_DIR, file!);
      const s = new LocalAnalysisService();
      const { dataset } = await s.open({ path });
      const a = await analyse(s, dataset);
      assert.deepEqual(a.view, await cliView(await readProfile(path)));
      const steps = a.view.loops.find(l => l.name === 'ProfilerStep#*')!;
      assert.deepEqual([steps.iterations, steps.accepted], [6, true]);
      assert.ok(
        steps.minIteration >= 164e6 && steps.maxIteration <= 182e6,
        `${steps.minIteration}–${steps.maxIteration}`,
      );
      assert.equal(a.view.roles.length, 3);
      const spans = await ask(s, dataset, {
        kind: 'iterationSpans',
        loop: steps.index,
        tracks: a.view.bands.flatMap(b => b.tracks),
        window: { start: 0, end: 2e9 },
      });
      assert.equal(
        spans.reduce((n, s) => n + s.ids.length, 0),
        6,
        'the six steps on the main thread',
      );
    },
  );

  it(
    'Nsight Systems: the copies form a loop on the GPU stream; no imbalance with one lane per role',
    { skip: skipUnlessShared('data', 'nsight-systems-sqlite') },
    async () => {
      const s = new LocalAnalysisService();
      const { dataset } = await s.open({ path: NSIGHT });
      const a = await analyse(s, dataset);
      assert.deepEqual(a.view, await cliView(await readProfile(NSIGHT)));
      assert.ok(a.view.samplingPeriod! > 0, 'CPU samples give a sampling period');
      assert.deepEqual(
        a.view.loops.map(l => [l.name, l.iterations, l.accepted]),
        [['loop of Memcpy HtoD', 10, true]],
      );
      assert.equal(a.view.paths.length, 0);
    },
  );
});

describe('the trace-analysis system on the seeded scenarios', () => {
  it('planted imbalance: clusters {8–15} and the rest, Table 2 row 3, ≈ 442 ms to save', async () => {
    const { profile } = S.plantedImbalance();
    const s = holding(profile);
    const a = await analyse(s, 1);
    assert.deepEqual(a.view.clusters.map(c => c.label.short).sort(), ['{0–7, 16–63}', '{8–15}']);
    assert.ok(a.view.segments.every(g => g.row === 3));
    assert.ok(Math.abs(a.view.totalSaving - 0.442) < 0.01, `${a.view.totalSaving} s`);
    const compute = a.view.paths.filter(p => p.name === 'compute');
    assert.ok(compute.length > 0 && compute.every(p => a.view.clusters[p.maxCluster]!.label.short === '{8–15}'));
    assert.equal(
      a.view.bands[0]!.tracks[0],
      a.view.clusters[0]!.representative.track,
      'the representative leads its band',
    );
    const m = await ask(s, 1, { kind: 'iterations', loop: 0, rows: 16, columns: 100 });
    assert.equal(m.columns.length, 10);
    assert.ok(m.rows.length <= 16 && m.rows.length >= 2);
    assert.deepEqual(new Set(m.rows.map(r => r.cluster)), new Set([0, 1]));
  });

  it('regular loop: 23 iterations, one process cluster, no significant loss', async () => {
    const s = holding(S.regularLoop().profile);
    const a = await analyse(s, 1);
    assert.deepEqual(
      a.view.loops.map(l => [l.iterations, l.accepted, l.iterationClusters]),
      [[23, true, 1]],
    );
    assert.equal(a.view.clusters.length, 1);
  });

  it('keeps the last analysis: the same options answer at once, others run again', async () => {
    const s = holding(S.regularLoop().profile);
    const first = await analyse(s, 1);
    const again = await analyse(s, 1);
    assert.equal(again.key, first.key);
    assert.equal(again.ms, first.ms, 'not recomputed');
    assert.deepEqual(again.nodeClass, first.nodeClass);
    const other = await analyse(s, 1, { childNumAcc: 30, childDurAcc: 100 });
    assert.notEqual(other.key, first.key);
    assert.deepEqual(
      other.view.loops.map(l => l.accepted),
      [false],
      'no iteration has 30 children or one of 100 V: a profile node',
    );
  });

  it('bad input is refused with the reason', async () => {
    const trace = holding(S.regularLoop().profile);
    await assert.rejects(ask(trace, 1, { kind: 'iterations', loop: 0, rows: 8, columns: 8 }), /no trace analysis yet/);
    await assert.rejects(
      analyse(trace, 1, { samplingPeriod: 0 }),
      /samplingPeriod = 0: the sampling period must be a positive/,
    );
    await assert.rejects(analyse(trace, 1, { ratioRel: -1 }), /option ratioRel = -1/);
    const dir = mkdtempSync(join(tmpdir(), 'trace-analysis-system-'));
    try {
      const cfgFile = join(dir, 'bad.cfg.json');
      writeFileSync(
        cfgFile,
        JSON.stringify({ hpcLensControlFlow: 1, graphs: [{ scope: 'main', edges: [['entry']] }] }),
      );
      await assert.rejects(
        analyse(trace, 1, { cfgFile }),
        (e: Error) => e.message.includes(cfgFile) && /graphs\[0\]\.edges\[0\]/.test(e.message),
      );
      await assert.rejects(
        analyse(trace, 1, { cfgFile: join(dir, 'missing.json') }),
        /missing\.json.*cannot read the control-flow file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const s = new LocalAnalysisService();
    const { dataset } = await s.open({
      path: join(__dirname, '../../../samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json'),
    });
    await assert.rejects(analyse(s, dataset), /nothing to analyse: a .* profile has no trace/);
  });

  it('stops when cancelled', async () => {
    const s = holding(S.plantedImbalance().profile);
    const abort = new AbortController();
    const run = ask(
      s,
      1,
      { kind: 'analyse', options: {} },
      { signal: abort.signal, onProgress: f => f > 0.2 && abort.abort() },
    );
    await assert.rejects(run, (e: Error) => e.name === 'AbortError');
    const after = await analyse(s, 1);
    assert.equal(after.view.clusters.length, 2, 'a cancelled run leaves nothing half-done behind');
  });
});

describe('the trace-analysis system in the worker pool', () => {
  let dir: string;
  let workerScript: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-trace-pool-'));
    workerScript = join(dir, 'worker.js');
    bundleNodeScript(
      [`require(${JSON.stringify(join(__dirname, '..', 'analysis-worker.ts'))});`],
      workerScript,
      __dirname,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('splits the lanes over both homes (the other adopts the dataset) and answers what one thread answers', async () => {
    const { profile } = S.plantedImbalance();
    const pool = new WorkerPool({ workerScript, workers: 2 });
    try {
      const { dataset } = await pool.adoptShared({ data: shared(profile.data) });
      const progress: number[] = [];
      const a = await ask(pool, dataset, { kind: 'analyse', options: {} }, { onProgress: f => progress.push(f) });
      assert.equal(a.split, true);
      const home = pool.homeOf(dataset)!;
      assert.deepEqual(pool.peerLog, [{ dataset, asker: home, home: 1 - home }], 'the other home ran the right half');
      const local = await analyse(holding(profile), 1);
      const round = (v: unknown) =>
        JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' ? Number(x.toPrecision(9)) : x)));
      assert.deepEqual(round(a.view), round(local.view));
      assert.deepEqual(a.nodeClass, local.nodeClass);
      assert.ok(progress.length > 0 && progress[progress.length - 1]! <= 1);

      // Cancelled: both halves stop; the dataset still answers afterwards.
      const abort = new AbortController();
      const run = ask(
        pool,
        dataset,
        { kind: 'analyse', options: { ratioMin: 0.03 } },
        { signal: abort.signal, onProgress: f => f > 0.1 && abort.abort() },
      );
      await assert.rejects(run, (e: Error) => e.name === 'AbortError');
      const again = await ask(pool, dataset, { kind: 'iterations', loop: 0, rows: 8, columns: 8 });
      assert.equal(again.columns.length, 8, 'the kept analysis still answers');
    } finally {
      pool.dispose();
    }
  });
});
