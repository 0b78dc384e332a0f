import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../test/support/cli';

const ROOT = resolve(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
const cli = runCli;

describe('hpc-lens inspect', () => {
  it('--json prints exactly one object in the documented schema', () => {
    const r = cli('inspect', '--json', SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), [
      'format',
      'path',
      'primaryMetric',
      'metrics',
      'contexts',
      'metadata',
      'nodeCount',
      'nodesTruncated',
      'nodes',
    ]);
    assert.equal(out.nodesTruncated, false);
    assert.equal(out.nodes.length, out.nodeCount);
    assert.equal(out.format, 'caliper-json-split');
    assert.equal(out.primaryMetric, 'time');
    assert.deepEqual(out.metrics, [
      { name: 'count', unit: 'count', kind: 'exclusive' },
      { name: 'time', unit: 's', kind: 'exclusive' },
    ]);
    assert.equal(out.contexts, 4);
    assert.equal(out.metadata['mpi.world.size'], '4');
    const sweep = out.nodes.find(
      (n: { name: string; path: string[] }) => n.name === 'jacobi_sweep' && n.path[0] === 'clone3',
    );
    assert.deepEqual(Object.keys(sweep), ['path', 'name', 'kind', 'file', 'line', 'module', 'inclusive', 'exclusive']);
    assert.equal(sweep.kind, 'function');
    assert.equal(sweep.module, 'libstencil.so');
    assert.ok(sweep.inclusive.time > 0 && sweep.exclusive.time === 0, 'sampled lines are statement children');
    const line = out.nodes.find(
      (n: { path: string[]; kind: string }) => n.kind === 'statement' && n.path.includes('jacobi_sweep'),
    );
    assert.match(line.file, /\/src\/stencil\.c$/);
    assert.ok(Number.isInteger(line.line));
  });

  it('prints a readable report with the hot path', () => {
    const r = cli('inspect', SAMPLE);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /format +caliper-json-split/);
    assert.match(r.stdout, /Hot path \(time, inclusive\):[\s\S]*run_timesteps/);
  });

  it('names memory samples memaxes or perf-mem, through the detection Open Profile… uses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-cli-'));
    const csv = join(dir, 'samples.csv');
    writeFileSync(
      csv,
      'variable,source,line,time,latency,dataSource,cpu\nm_x,a.c,3,ff,120,4,0\nm_y,a.c,4,100,20,1,1\n',
    );
    const memaxes = cli('inspect', '--json', csv);
    assert.equal(memaxes.status, 0, memaxes.stderr);
    const out = JSON.parse(memaxes.stdout);
    assert.equal(out.format, 'memaxes');
    assert.equal(out.primaryMetric, 'cycles');
    assert.deepEqual(
      out.nodes.filter((n: { kind: string }) => n.kind === 'statement').map((n: { name: string }) => n.name),
      ['m_x', 'm_y'],
    );
    const perf = cli('inspect', '--json', join(ROOT, 'test/fixtures/memory/perf-mem-script-hand-made.txt'));
    assert.equal(perf.status, 0, perf.stderr);
    assert.equal(JSON.parse(perf.stdout).format, 'perf-mem');
  });

  it('exits 1 naming the file for unreadable input, 2 for bad usage', () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'hpc-lens-cli-')), 'cut.json');
    writeFileSync(bad, '{"data": [[1, 2');
    const r = cli('inspect', '--json', bad);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*unexpected end of input`));
    assert.equal(cli('inspect').status, 2);
    assert.equal(cli('frobnicate', SAMPLE).status, 2);
  });
});
