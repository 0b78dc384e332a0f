import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeLuleshWeakScaling } from '../../analysis/ensemble/testing/lulesh-weak-scaling';
import { UsageError, type VerbIO } from '../verb';
import { ensembleVerb } from './ensemble';

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '',
    err = '';
  const io: VerbIO = { out: t => void (out += t), err: t => void (err += t) };
  const code = await ensembleVerb.run(args, io);
  return { code, out, err };
}

interface ProjectionJson {
  k: number;
  features: string[];
  points: { run: string; x: number; y: number; cluster: number }[];
}

describe('hpc-lens ensemble --clusters (CallFlow §4.9: k-means of the parameter projection)', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ens-clusters-'));
    writeLuleshWeakScaling(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('adds the projection with k clusters over the runs; without the flag the output is the union alone', async () => {
    const plain = JSON.parse((await run('--json', dir)).out) as Record<string, unknown>;
    assert.deepEqual(Object.keys(plain), ['metric', 'runs', 'nodes']);
    const r = await run('--json', '--clusters', '3', dir);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { runs: string[]; projection: ProjectionJson };
    assert.equal(j.projection.k, 3);
    assert.deepEqual(j.projection.points.map(p => p.run).sort(), [...j.runs].sort());
    const used = new Set(j.projection.points.map(p => p.cluster));
    assert.ok([...used].every(c => Number.isInteger(c) && c >= 0 && c < 3));
    assert.ok(used.size >= 2, `clusters used: ${[...used].join(', ')}`);
    assert.ok(j.projection.features.includes('cores'), j.projection.features.join(', '));
    assert.ok(j.projection.points.every(p => Number.isFinite(p.x) && Number.isFinite(p.y)));
    // Same clusters on a second run (seeded k-means).
    assert.deepEqual(JSON.parse((await run('--json', '--clusters', '3', dir)).out), j);
  });

  it('refuses k outside 2–8, and k the runs cannot fill, with the reason', async () => {
    for (const bad of ['1', '9', '3.5', 'x'])
      await assert.rejects(
        run('--json', '--clusters', bad, dir),
        (e: Error) => e instanceof UsageError && new RegExp(`--clusters ${bad}: .*from 2 to 8`).test(e.message),
      );
    await assert.rejects(
      run('--json', '--clusters', '8', dir),
      /--clusters 8: the projection needs at least 9 runs for 8 clusters; 8 runs are selected/,
    );
  });
});

describe('hpc-lens ensemble: bad input', () => {
  /** A two-node Caliper json-split run whose `solve` lives in load module `module`. */
  const run = (module: string) =>
    JSON.stringify({
      data: [
        [1, 0, 0, 2],
        [3, 0, 1, 3],
      ],
      columns: ['sum#time.duration', 'mpi.rank', 'path', 'module#cali.sampler.pc'],
      column_metadata: [{ is_value: true }, { is_value: true }, { is_value: false }, { is_value: false }],
      nodes: [
        { label: 'main', column: 'path' },
        { label: 'solve', column: 'path', parent: 0 },
        { label: 'app', column: 'module#cali.sampler.pc' },
        { label: module, column: 'module#cali.sampler.pc' },
      ],
    });

  it('reports by name a call site two runs put in different modules, and goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ens-conflict-'));
    let errors = '';
    try {
      mkdirSync(join(dir, 'runs'));
      writeFileSync(join(dir, 'runs', 'a.json'), run('libsolve.so'));
      writeFileSync(join(dir, 'runs', 'b.json'), run('libsolver2.so'));
      const r = await ensembleVerb.run(['--json', join(dir, 'runs')], {
        out: () => undefined,
        err: t => void (errors += t),
      });
      assert.equal(r, 0);
      assert.match(errors, /solve is in module libsolve\.so in one run and in libsolver2\.so in b \(main → solve\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
