import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FORMATS } from '../src/analysis/formats/registry';
import { runFuzz, summaryTable } from './fuzz/fuzz-run';
import { writeCase } from './fuzz/mutate';
import { errorLineProblem, judge, nonFiniteField, type RunOutcome } from './fuzz/run-case';
import { seedCorpus } from './fuzz/seed-corpus';

const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-fuzz-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('fuzz judging', () => {
  const path = '/data/run.prof';
  it('accepts one line naming the file (or a member) and a reason', () => {
    assert.equal(errorLineProblem(`hpc-lens: ${path}: line 3: bad cost "x"\n`, path), null);
    assert.equal(
      errorLineProblem(`hpc-lens: ${path}/profile.db: is a directory, where a file was expected\n`, path),
      null,
    );
  });

  it('rejects stack traces, internal errors, several lines, control characters, unnamed files', () => {
    assert.equal(errorLineProblem(`hpc-lens: TypeError: x\n    at f (/src/a.ts:1:2)\n`, path), 'stack trace');
    assert.equal(errorLineProblem(`hpc-lens: internal error: RangeError: boom\n`, path), 'internal error');
    assert.equal(errorLineProblem(`hpc-lens: ${path}: one\ntwo\n`, path), 'not exactly one line');
    assert.equal(errorLineProblem(`hpc-lens: ${path}: bad "\x1b[2J"\n`, path), 'control characters');
    assert.equal(errorLineProblem(`hpc-lens: /elsewhere: bad\n`, path), 'does not name the file');
    assert.equal(errorLineProblem(`hpc-lens: ${path}:\n`, path), 'names no reason');
  });

  it('finds non-finite numbers in a report', () => {
    const node = (v: unknown) => ({ name: 'main', inclusive: { time: v }, exclusive: { time: 0 } });
    assert.equal(nonFiniteField({ nodes: [node(1)] }), null);
    assert.equal(nonFiniteField({ nodes: [node(null)] }), 'inclusive time of "main" is null');
    assert.equal(nonFiniteField({ nodes: [node(1)], timeRange: [0, null] }), 'timeRange is [0,null]');
    assert.match(
      nonFiniteField({ nodes: [], dataMovement: { count: 1, bytes: 2, byKind: { h2d: { count: 1, bytes: null } } } })!,
      /dataMovement h2d/,
    );
  });

  it('judges exits, signals and limits', () => {
    const base: RunOutcome = {
      code: 0,
      signal: null,
      killedFor: null,
      cpuSeconds: 0.2,
      rssBytes: 5e7,
      stdout: '{"nodes":[]}',
      stderr: '',
    };
    assert.equal(judge(path, base).verdict, 'read');
    assert.equal(judge(path, { ...base, stdout: 'not json' }).verdict, 'crash');
    assert.equal(judge(path, { ...base, cpuSeconds: 11 }).verdict, 'timeout');
    assert.equal(judge(path, { ...base, code: null, signal: 'SIGXCPU' }).verdict, 'timeout');
    assert.equal(judge(path, { ...base, rssBytes: 3e9 }).verdict, 'memory');
    assert.equal(judge(path, { ...base, code: 134, stderr: 'FATAL ERROR: Reached heap limit' }).verdict, 'memory');
    assert.equal(judge(path, { ...base, code: 1, stderr: `hpc-lens: ${path}: empty\n` }).verdict, 'rejected');
    assert.equal(judge(path, { ...base, code: 1, stderr: 'hpc-lens: internal error: x\n' }).verdict, 'crash');
    assert.equal(judge(path, { ...base, code: 1, stderr: `hpc-lens: ${path}: a\nb\n` }).verdict, 'non-clean');
  });
});

describe('fuzz cases', () => {
  it('are reproducible: the same seed, format and index give the same input', async () => {
    const seeds = await seedCorpus(join(tmp, 'seeds'), { sharedData: null });
    const bytes = (dir: string) => {
      const c = writeCase(seeds, 'folded-stacks', 7, 42, dir);
      return [c.description, readFileSync(c.path)] as const;
    };
    const [d1, b1] = bytes(join(tmp, 'a'));
    const [d2, b2] = bytes(join(tmp, 'b'));
    assert.equal(d1, d2);
    assert.deepEqual(b1, b2);
    const other = writeCase(seeds, 'folded-stacks', 8, 42, join(tmp, 'c'));
    assert.notEqual(`${other.description}`, '');
  });

  it('a deterministic slice: two damaged inputs of every format, all read or rejected cleanly', async () => {
    const summary = await runFuzz({
      seed: 2026,
      count: 2,
      jobs: 2,
      workDir: join(tmp, 'work'),
      sharedData: null,
    });
    assert.equal(summary.stats.length, FORMATS.length);
    for (const s of summary.stats) assert.equal(s.inputs, 2, s.format);
    assert.deepEqual(
      summary.failures.map(f => `${f.verdict} ${f.format} #${f.index}: ${f.description}: ${f.detail}`),
      [],
    );
    assert.match(summaryTable(summary), /^\| format \| seeds \| inputs \|/);
  });

  it('pooled children give the verdicts fresh processes give (the same cases both ways)', async () => {
    const verdicts = async (fresh: boolean) => {
      const seen: string[] = [];
      await runFuzz({
        seed: 7,
        count: 3,
        formats: ['folded-stacks', 'chrome-trace', 'nsight-sqlite', 'hpctoolkit-metadb'],
        jobs: 1,
        fresh,
        workDir: join(tmp, fresh ? 'fresh' : 'pooled'),
        sharedData: null,
        onCase: (c, r) =>
          seen.push(`${c.format} #${c.index} ${r.verdict} ${r.detail.replace(/\/(fresh|pooled)\//, '/')}`),
      });
      return seen;
    };
    assert.deepEqual(await verdicts(false), await verdicts(true));
  });
});
