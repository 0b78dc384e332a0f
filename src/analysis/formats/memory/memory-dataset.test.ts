import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectReadError } from '../../../../test/support/read-errors';
import { REPO_ROOT, sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { machineCounts } from '../../topology/machine';
import { sampleFile } from '../file-sample';
import { memoryFormatOf, readMemoryDataset, sniffMemorySamples } from './memory-dataset';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/memory');
const CSV = 'variable,source,line,latency,dataSource,cpu\nx,a.c,3,100,4,0\ny,a.c,4,20,1,1\n';

/** A MemAxes run folder: data/<files> and hardware.xml (the 2-package hwloc fixture) beside it. */
function runFolder(files: Record<string, string>, topology = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-memrun-'));
  mkdirSync(join(dir, 'data'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'data', name), text);
  if (topology) copyFileSync(join(FIXTURES, 'hwloc2-2-packages.xml'), join(dir, 'hardware.xml'));
  return dir;
}

describe('memory datasets', () => {
  it('read a run folder: the samples under data/ and hardware.xml beside it', async () => {
    const dir = runFolder({ 'samples.csv': CSV });
    const d = await readMemoryDataset(dir);
    assert.equal(d.samples.count, 2);
    assert.equal(d.topologyPath, join(dir, 'hardware.xml'));
    assert.deepEqual(machineCounts(d.machine), { pu: 16, l1: 8, l2: 8, l3: 2, numa: 2 });
  });

  it('find hardware.xml beside the data/ folder of a samples file', async () => {
    const dir = runFolder({ 'run.out': CSV });
    const d = await readMemoryDataset(join(dir, 'data', 'run.out'));
    assert.equal(d.topologyPath, join(dir, 'hardware.xml'));
  });

  it('use a topology named explicitly instead', async () => {
    const dir = runFolder({ 'run.out': CSV });
    const d = await readMemoryDataset(join(dir, 'data', 'run.out'), { topology: join(FIXTURES, 'lscpu-p.txt') });
    assert.equal(d.topologyPath, join(FIXTURES, 'lscpu-p.txt'));
    assert.equal(machineCounts(d.machine).pu, 2);
  });

  it('have no machine when no topology is found', async () => {
    const dir = runFolder({ 'run.out': CSV }, false);
    const d = await readMemoryDataset(join(dir, 'data', 'run.out'));
    assert.equal(d.machine, null);
    assert.equal(d.topologyPath, null);
  });

  it('pick the samples file of a folder holding several, else say which to open', async () => {
    const named = runFolder({ 'other.out': CSV, 'samples.out': CSV, 'notes.txt': 'hello\n' });
    assert.equal((await readMemoryDataset(named)).samples.path, join(named, 'data', 'samples.out'));
    const two = runFolder({ 'a.out': CSV, 'b.out': CSV });
    await expectReadError(
      readMemoryDataset(two),
      two,
      /data\/ holds 2 sample files \(a\.out, b\.out\); open one of them/,
    );
    const none = runFolder({ 'notes.txt': 'hello\n' });
    await expectReadError(readMemoryDataset(none), none, /holds no memory-samples file/);
  });

  it('read perf script samples by content', async () => {
    const d = await readMemoryDataset(join(FIXTURES, 'perf-mem-script-hand-made.txt'), {
      topology: join(FIXTURES, 'hwloc2-2-packages.xml'),
    });
    assert.equal(d.samples.format, 'perf-mem');
  });

  it('reject files that are no memory samples and missing paths', async () => {
    const p = join(FIXTURES, 'lscpu-p.txt');
    await expectReadError(readMemoryDataset(p), p, /not memory samples/);
    const missing = join(FIXTURES, 'nope.csv');
    await expectReadError(readMemoryDataset(missing), missing, /no such file/);
  });

  it('name the format for inspect: memaxes or perf-mem', async () => {
    const dir = runFolder({ 'samples.csv': CSV });
    assert.equal(memoryFormatOf(await sampleFile(dir)), 'memaxes');
    assert.equal(memoryFormatOf(await sampleFile(join(dir, 'data', 'samples.csv'))), 'memaxes');
    assert.equal(memoryFormatOf(await sampleFile(join(FIXTURES, 'perf-mem-script-hand-made.txt'))), 'perf-mem');
    assert.equal(memoryFormatOf(await sampleFile(join(FIXTURES, 'lscpu-p.txt'))), null);
    assert.ok(sniffMemorySamples(await sampleFile(dir)) > 0);
    assert.equal(sniffMemorySamples(await sampleFile(FIXTURES)), 0);
  });

  it(
    "read MemAxes' LULESH folder: samples.out among three files, with its hardware.xml",
    { skip: skipUnlessShared('data/pebs-memaxes/lulesh') },
    async () => {
      const d = await readMemoryDataset(sharedPath('data/pebs-memaxes/lulesh'));
      assert.equal(d.samples.path, sharedPath('data/pebs-memaxes/lulesh/data/samples.out'));
      assert.equal(d.samples.count, 15676);
      assert.deepEqual(machineCounts(d.machine), { pu: 32, l1: 16, l2: 16, l3: 2, numa: 2 });
    },
  );
});
