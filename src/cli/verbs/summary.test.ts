import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../test/support/cli';
import { REPO_ROOT, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readProfile } from '../../analysis/formats';
import { diffProfiles } from '../../analysis/graph/profile-diff';
import type { SummaryJson } from '../../analysis/stats/summary-export';
import { functionImbalance } from '../../analysis/stats/imbalance';
import type { DiffJson } from './diff';

const SAMPLE = join(REPO_ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const KINETO = join(REPO_ROOT, 'samples/heat-stencil/profiles/heat-offload-kineto.json');
const LULESH = 'data/caliper-json/lulesh-mpi-scaling-5runs';

describe('hpc-lens summary', () => {
  it('--json prints exactly the issue’s schema; imbalance over comparable contexts, jacobi_sweep first', async () => {
    const r = runCli('summary', '--json', SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as SummaryJson;
    assert.deepEqual(Object.keys(out), ['hotPath', 'topLines', 'topFunctions', 'imbalance']);
    assert.deepEqual(Object.keys(out.topLines[0]!), ['file', 'line', 'inclusive', 'exclusive']);
    assert.deepEqual(Object.keys(out.imbalance[0]!), ['function', 'maxOverMean', 'share', 'contextKind', 'maxContext']);
    assert.deepEqual(Object.keys(out.hotPath[0]!), ['name', 'file', 'line', 'inclusive', 'exclusive']);
    assert.deepEqual(Object.keys(out.topFunctions[0]!), ['name', 'file', 'line', 'inclusive', 'exclusive']);
    assert.deepEqual(
      [out.imbalance[0]!.function, out.imbalance[0]!.contextKind, out.imbalance[0]!.maxContext],
      ['jacobi_sweep', 'rank', 'rank 0'],
    );
    const p = await readProfile(SAMPLE);
    assert.deepEqual(
      out.imbalance.map(e => e.function),
      functionImbalance(p, p.primaryMetric).entries.map(e => e.name),
      'the same ranking as the Load Imbalance view',
    );
    assert.ok(!out.imbalance.some(e => ['_start', 'main'].includes(e.function)), 'rank 0-only frames are not ranked');
  });

  it('a trace: top lines from the call stacks, no CPU-versus-GPU imbalance', () => {
    const r = runCli('summary', '--json', KINETO);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as SummaryJson;
    assert.ok(out.topLines.length > 0 && out.topLines.every(l => l.file.endsWith('offload.c')));
    assert.deepEqual(out.imbalance, []);
  });

  it('prints the Markdown summary without --json, and names a missing metric', () => {
    const r = runCli('summary', SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^# HPC Lens summary\n/);
    assert.match(r.stdout, /## Single-context functions/);
    const bad = runCli('summary', '--metric', 'nope', SAMPLE);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /has no metric "nope"/);
  });
});

describe('hpc-lens diff', () => {
  it('--json prints exactly the issue’s schema: every function’s exclusive value, by |delta|', async () => {
    const r = runCli('diff', '--json', SAMPLE, SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as DiffJson;
    assert.deepEqual(Object.keys(out), ['metric', 'base', 'compare', 'functions']);
    assert.deepEqual(Object.keys(out.base), ['path', 'total']);
    assert.deepEqual(Object.keys(out.functions[0]!), ['name', 'base', 'compare', 'delta']);
    const p = await readProfile(SAMPLE);
    assert.equal(out.functions.length, diffProfiles(p, p).functions.length);
    assert.ok(out.functions.every(f => f.delta === 0));
  });

  it(
    'LULESH 27 vs 343 ranks: totals 47.25 s → 52.64 s (+5.39 s), MPI_Allreduce first',
    { skip: skipUnlessShared(LULESH) },
    () => {
      const r = runCli('diff', '--json', sharedPath(LULESH, '27_cores.json'), sharedPath(LULESH, '343_cores.json'));
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as DiffJson;
      assert.equal(out.metric, 'avg#inclusive#sum#time.duration');
      assert.ok(Math.abs(out.base.total - 47.250802) < 1e-9 && Math.abs(out.compare.total - 52.643872) < 1e-9);
      assert.ok(Math.abs(out.compare.total - out.base.total - 5.39307) < 1e-5);
      assert.equal(out.functions[0]!.name, 'MPI_Allreduce');
      for (let k = 1; k < out.functions.length; k++)
        assert.ok(Math.abs(out.functions[k - 1]!.delta) >= Math.abs(out.functions[k]!.delta));
      for (const f of out.functions) assert.ok(Math.abs(f.delta - (f.compare - f.base)) < 1e-12);
    },
  );

  it('needs two paths', () => {
    const r = runCli('diff', '--json', SAMPLE);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /exactly two paths/);
  });
});
