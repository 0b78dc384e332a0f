import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { writeSyntheticEnsemble } from '../../analysis/ensemble/testing/synthetic-ensemble';
import type { VerbIO } from '../verb';
import { ensembleVerb } from './ensemble';
import { summarizeVerb } from './summarize';
import { filesUnder } from '../../analysis/ensemble/testing/files-under';

const ROOT = resolve(__dirname, '..', '..', '..');

async function run(verb: typeof summarizeVerb, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '',
    err = '';
  const io: VerbIO = { out: t => void (out += t), err: t => void (err += t) };
  const code = await verb.run(args, io);
  return { code, out, err };
}

const files = filesUnder;

interface EnsembleJson {
  metric: string;
  runs: string[];
  nodes: { path: string[]; min: number; median: number; max: number; mean: number; runs: number }[];
}

function assertSameEnsemble(a: EnsembleJson, b: EnsembleJson): void {
  assert.equal(b.metric, a.metric);
  assert.deepEqual(b.runs, a.runs);
  assert.deepEqual(
    b.nodes.map(n => [n.path, n.runs]),
    a.nodes.map(n => [n.path, n.runs]),
  );
  a.nodes.forEach((n, i) => {
    for (const k of ['min', 'median', 'max', 'mean'] as const) {
      const x = n[k],
        y = b.nodes[i]![k];
      assert.ok(
        Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y)),
        `${n.path.join('/')} ${k}: ${x} vs ${y}`,
      );
    }
  });
}

describe('hpc-lens summarize and ensemble', () => {
  let dir = '';
  let runs = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-summarize-'));
    runs = join(dir, 'runs');
    writeSyntheticEnsemble(runs, { runs: 12, nodes: 800, maxContexts: 4, seed: 11 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one summary per run mirrored under --out, then skips current ones and redoes only a changed run', async () => {
    const out = join(dir, 'sums');
    const first = await run(summarizeVerb, '--out', out, runs);
    assert.equal(first.code, 0, first.err);
    const report = JSON.parse(first.out) as {
      runs: number;
      written: number;
      current: number;
      failed: unknown[];
      profileBytes: number;
      summaryBytes: number;
    };
    assert.deepEqual(Object.keys(report), ['runs', 'written', 'current', 'failed', 'profileBytes', 'summaryBytes']);
    assert.deepEqual([report.runs, report.written, report.current, report.failed.length], [12, 12, 0, 0]);
    assert.ok(
      report.summaryBytes < 0.2 * report.profileBytes,
      `${report.summaryBytes} of ${report.profileBytes} bytes`,
    );
    assert.deepEqual(
      files(out),
      files(runs).map(f => f + '.hlsum'),
    );
    assert.match(first.err, /^\[1\/12\] written /m, 'progress on stderr');
    const again = await run(summarizeVerb, '--out', out, runs);
    assert.deepEqual(JSON.parse(again.out).written, 0);
    assert.deepEqual(JSON.parse(again.out).current, 12);
    const changed = join(runs, files(runs)[3]!);
    appendFileSync(changed, ' ');
    const third = JSON.parse((await run(summarizeVerb, '--out', out, runs)).out) as typeof report;
    assert.deepEqual([third.written, third.current], [1, 11]);
  });

  it('three shards written concurrently produce the same files as one process', async () => {
    const one = join(dir, 'one'),
      sharded = join(dir, 'sharded');
    await run(summarizeVerb, '--out', one, runs);
    const shards = await Promise.all(
      [0, 1, 2].map(i => run(summarizeVerb, '--shard', `${i}/3`, '--out', sharded, runs)),
    );
    assert.deepEqual(
      shards.map(s => JSON.parse(s.out).runs),
      [4, 4, 4],
    );
    assert.deepEqual(files(sharded), files(one));
    for (const f of files(one)) assert.ok(readFileSync(join(one, f)).equals(readFileSync(join(sharded, f))), f);
  });

  it('lists a run that fails, goes on with the others and exits 2', async () => {
    const bad = join(dir, 'with-bad');
    writeSyntheticEnsemble(bad, { runs: 3, nodes: 50, seed: 2 });
    const broken = join(bad, 'broken.json');
    writeFileSync(broken, readFileSync(join(bad, files(bad)[0]!), 'utf8').slice(0, 300));
    const r = await run(summarizeVerb, bad);
    assert.equal(r.code, 2);
    const report = JSON.parse(r.out) as { written: number; failed: { path: string; reason: string }[] };
    assert.equal(report.written, 3);
    assert.deepEqual(
      report.failed.map(f => f.path),
      [broken],
    );
    assert.match(r.err, /1 of 4 runs failed/);
    assert.ok(
      statSync(join(bad, files(bad).find(f => f.endsWith('.json') && !f.startsWith('broken'))! + '.hlsum')).size > 0,
      'beside the profile by default',
    );
  });

  it('expands a quoted glob itself (sbatch --wrap passes it unexpanded) and names a pattern that matches nothing', async () => {
    const out = join(dir, 'glob');
    const r = await run(summarizeVerb, '--out', out, join(runs, '**', '*_ranks_1.json'));
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).written, 12);
    assert.equal(files(out).length, 12);
    await assert.rejects(run(summarizeVerb, join(runs, '*.nothing')), /no profiles found/);
  });

  it('refuses --shard 5/4 with the reason (exit 2)', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), 'summarize', '--shard', '5/4', runs],
      {
        encoding: 'utf8',
        cwd: ROOT,
      },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--shard 5\/4: I must be below N \(shards are numbered 0 to 3\)/);
  });

  it('ensemble --json prints the same union over summaries as over the profiles', async () => {
    const out = join(dir, 'sums-eq');
    await run(summarizeVerb, '--out', out, runs);
    const raw = await run(ensembleVerb, '--json', runs);
    const sums = await run(ensembleVerb, '--json', out);
    assert.equal(raw.code, 0, raw.err);
    assert.equal(sums.code, 0, sums.err);
    const a = JSON.parse(raw.out) as EnsembleJson,
      b = JSON.parse(sums.out) as EnsembleJson;
    assert.deepEqual(Object.keys(a), ['metric', 'runs', 'nodes']);
    assert.deepEqual(Object.keys(a.nodes[0]!), ['path', 'min', 'median', 'max', 'mean', 'runs']);
    assert.equal(a.runs.length, 12);
    assertSameEnsemble(a, b);
  });

  it('ignores a corrupt summary whose profile is at hand (logged, read from the profile), and errors below 2 runs', async () => {
    const two = join(dir, 'two');
    writeSyntheticEnsemble(two, { runs: 2, nodes: 60, seed: 4 });
    await run(summarizeVerb, two);
    const summary = join(
      two,
      files(two).find(f => f.endsWith('.hlsum'))!,
    );
    const bytes = readFileSync(summary);
    writeFileSync(summary, bytes.subarray(0, bytes.length >> 1));
    const r = await run(ensembleVerb, '--json', two);
    assert.equal(r.code, 0);
    assert.match(r.err, /truncated.*rebuilding it from the profile/);
    assert.equal((JSON.parse(r.out) as EnsembleJson).runs.length, 2);
    rmSync(
      join(
        two,
        files(two).find(f => f.endsWith('.json'))!,
      ),
    );
    await assert.rejects(run(ensembleVerb, '--json', two), /at least 2 runs/);
  });

  for (const folder of ['rajaperf-quartz-seq-ensemble', 'lulesh-mpi-scaling-5runs'])
    it(
      `ensemble --json over summaries equals it over the raw profiles on shared ${folder}`,
      { skip: skipUnlessShared('data', 'caliper-json', folder) },
      async () => {
        const src = sharedPath('data', 'caliper-json', folder);
        const out = join(dir, `shared-${folder}`);
        const s = await run(summarizeVerb, '--out', out, src);
        assert.equal(s.code, 0, s.err);
        const a = JSON.parse((await run(ensembleVerb, '--json', src)).out) as EnsembleJson;
        const b = JSON.parse((await run(ensembleVerb, '--json', out)).out) as EnsembleJson;
        assert.ok(a.nodes.length > 10);
        assertSameEnsemble(a, b);
      },
    );
});
