import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { writeGenerated } from '../../analysis/dmv/testing/read-trace';
import { gemmRun } from '../../analysis/dmv/testing/scenarios';

const ROOT = resolve(__dirname, '..', '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });

describe('hpc-lens data-movement', () => {
  it('--json prints exactly the documented schema, in seconds and bytes', () => {
    const r = cli('data-movement', '--json', writeGenerated(gemmRun({ explicitCopies: true }), 'gemm'));
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['range', 'categories', 'clock', 'matrix', 'flags']);
    assert.deepEqual(out.range, { start: 0, end: 12 });
    assert.deepEqual(Object.keys(out.categories), ['dataMovement', 'gpuCompute', 'runtime', 'cpuCompute']);
    assert.equal(out.categories.dataMovement, 0.9); // six copies of 150 ms
    assert.equal(out.categories.cpuCompute, 12, 'the Python frame spans the run');
    assert.deepEqual(Object.keys(out.clock), ['sectorSeconds', 'sectors']);
    assert.equal(out.clock.sectorSeconds, 1);
    assert.equal(out.clock.sectors.length, 12);
    for (const s of out.clock.sectors)
      assert.deepEqual(Object.keys(s), ['bytes', 'dataMovement', 'gpuCompute', 'runtime', 'cpuCompute']);
    assert.deepEqual(
      out.clock.sectors.map((s: { bytes: number }) => s.bytes),
      [0, 0, 0, 0, 1.5e9, 0, 0, 0, 0, 0, 0, 1.5e9],
    );
    assert.deepEqual(out.matrix, [
      { src: 'host', dst: 'host', count: 0, bytes: 0 },
      { src: 'host', dst: 'GPU 0', count: 3, bytes: 1.5e9 },
      { src: 'GPU 0', dst: 'host', count: 3, bytes: 1.5e9 },
      { src: 'GPU 0', dst: 'GPU 0', count: 0, bytes: 0 },
    ]);
    for (const f of out.flags) assert.deepEqual(Object.keys(f), ['kind', 'file', 'line', 'count']);
    assert.deepEqual(
      out.flags.map(
        (f: { kind: string; file: string; line: number; count: number }) => `${f.kind} ${f.file}:${f.line} ×${f.count}`,
      ),
      ['copy-without-overlap gemm.py:31 ×3', 'copy-without-overlap gemm.py:52 ×3'],
    );
  });

  it('applies category rules from --rules', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dmv-cli-'));
    const rules = join(dir, 'rules.json');
    writeFileSync(rules, JSON.stringify([{ cat: 'python_function', category: 'ignore' }]));
    const r = cli('data-movement', '--json', '--rules', rules, writeGenerated(gemmRun(), 'gemm'));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).categories.cpuCompute, 0);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: '/([/', category: 'runtime' }]));
    const b = cli('data-movement', '--rules', bad, writeGenerated(gemmRun(), 'gemm'));
    assert.equal(b.status, 1);
    assert.match(b.stderr, /bad\.json: rule 1: "name" \/\(\[\/ is not a valid regular expression/);
  });

  it('prints a readable summary; exits 1 on a profile without a timeline and 2 for bad usage', () => {
    const r = cli('data-movement', writeGenerated(gemmRun({ explicitCopies: true }), 'gemm'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Clock \(12 sectors of 1 s\):/);
    assert.match(r.stdout, /host → GPU 0: 3× 1\.5 GB/);
    const caliper = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
    const c = cli('data-movement', '--json', caliper);
    assert.equal(c.status, 1);
    assert.match(
      c.stderr,
      /heat-stencil-sampling-4ranks\.json: a caliper-json-split profile has no timeline of events/,
    );
    assert.equal(cli('data-movement').status, 2);
    assert.equal(cli('data-movement', '--frob', caliper).status, 2);
  });

  const RESNET = ['data', 'chrome-trace', 'pytorch-profiler-resnet50'];
  it(
    'resnet50: range, 97.79 ms sectors, busy times and the host→GPU 0 cell',
    { skip: skipUnlessShared(...RESNET) },
    () => {
      const r = cli('data-movement', '--json', sharedPath(...RESNET, 'worker0.1623143089861.pt.trace.json.gz'));
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(out.range, { start: 0, end: 1.173468 });
      assert.equal(out.clock.sectorSeconds.toFixed(5), '0.09779');
      assert.equal(out.categories.dataMovement.toFixed(5), '0.01203');
      assert.equal(out.categories.gpuCompute.toFixed(5), '0.59153');
      assert.equal(out.categories.runtime.toFixed(5), '0.12043');
      const cells = out.matrix.filter((c: { bytes: number }) => c.bytes > 0);
      assert.deepEqual(cells, [{ src: 'host', dst: 'GPU 0', count: 12, bytes: 115607040 }]);
      assert.equal(out.matrix.length, 25);
      const pageable = out.flags.filter((f: { kind: string }) => f.kind === 'pageable-copy');
      assert.equal(
        pageable.reduce((n: number, f: { count: number }) => n + f.count, 0),
        12,
      );
    },
  );
});
