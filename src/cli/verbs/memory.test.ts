import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli as cli } from '../../../test/support/cli';
import { REPO_ROOT, sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { tempFileWriter } from '../../../test/support/temp-files';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/memory');
const { write } = tempFileWriter('memory-cli');

describe('hpc-lens memory', () => {
  it('--json prints exactly the documented object, with --topology', () => {
    const r = cli(
      'memory',
      '--json',
      '--topology',
      join(FIXTURES, 'hwloc2-2-packages.xml'),
      join(FIXTURES, 'perf-mem-script-hand-made.txt'),
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), [
      'samples',
      'cycles',
      'levels',
      'topology',
      'topVariables',
      'topLines',
      'byPU',
      'imbalance',
    ]);
    assert.equal(out.samples, 9);
    assert.deepEqual(out.levels, { L1: 3, L2: 1, L3: 2, RAM: 2, unresolved: 1 });
    assert.deepEqual(out.topology, { numa: 2, l3: 2, l2: 8, l1: 8, pu: 16 });
    // Local RAM from CPU 1 and remote RAM from CPU 9 both live on NUMA 0.
    assert.deepEqual(out.imbalance.at(-1), {
      depth: 'NUMA',
      I: 1,
      cv: 1,
      maxOverMean: 2,
      gini: 0.5,
      extreme: 'NUMA 0',
    });
  });

  it('prints a readable report and warnings on stderr', () => {
    const p = write('samples.csv', 'variable,source,line,latency,dataSource,cpu\nx,a.c,3,100,4,0\ny,a.c,4,20,zz,5\n');
    const r = cli('memory', '--topology', join(FIXTURES, 'lscpu-p.txt'), p);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /samples {3}2 \(120 cyc\)/);
    assert.match(r.stdout, /Top lines by cycles:\n.*a\.c:3/);
    assert.match(r.stderr, /warning: 1 sample has a data source that is not a hexadecimal number/);
    assert.match(r.stderr, /warning: 1 sample from CPU id 5 not in the topology: unplaced/);
  });

  it('names the missing column and exits 1', () => {
    const p = write('bad.csv', 'variable,source,line,latency,dataSource\nx,a.c,3,100,4\n');
    const r = cli('memory', '--json', p);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /bad\.csv: missing column "cpu"/);
  });

  it('refuses a wrong number of paths with the usage (exit 2)', () => {
    const r = cli('memory', '--json');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /usage: hpc-lens memory/);
  });

  it('reads the LULESH run folder', { skip: skipUnlessShared('data/pebs-memaxes/lulesh') }, () => {
    const r = cli('memory', '--json', sharedPath('data/pebs-memaxes/lulesh'));
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.samples, 15676);
    assert.equal(out.cycles, 1022618);
    assert.deepEqual(out.topology, { numa: 2, l3: 2, l2: 16, l1: 16, pu: 32 });
    assert.deepEqual(out.topVariables[0], { name: 'm_x', cycles: 425345, samples: 6535 });
    assert.deepEqual(out.topLines[0], { file: 'LULESH_OMP.cc', line: 2035, cycles: 307110, samples: 4061 });
    assert.equal(r.stderr, '');
  });
});
