import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../test/support/shared-data';
import { loadEnsemble } from '../ensemble/ensemble-runs';
import { readProfile } from '../formats';
import { DmvIndex } from './dmv-index';
import { readGenerated, writeGenerated } from './testing/read-trace';
import { gemmRun } from './testing/scenarios';
import { clockGrid, digestRun, digestRuns } from './trace-ensemble';

// The GEMM schemes of thesis §7.5: UVM-Prefetch 6.1 s, UVM 6.3 s, UVM-MA 6.4 s, EXP ~7 s.
const RUNS: [string, number, boolean][] = [
  ['uvm', 6.3, false],
  ['exp', 7, true],
  ['uvm-prefetch', 6.1, false],
  ['uvm-ma', 6.4, false],
];

async function digests() {
  return Promise.all(
    RUNS.map(async ([name, s, exp], k) =>
      digestRun(new DmvIndex(await readGenerated(gemmRun({ seed: k + 1, runtimeS: s, explicitCopies: exp }))), name),
    ),
  );
}

describe('DMV trace ensembles', () => {
  it('Sort puts 6.1 s first and the 7 s EXP run last; percentiles colour the inner disc', async () => {
    const grid = clockGrid(await digests(), { sort: true });
    assert.deepEqual(
      grid.runs.map(r => r.name),
      ['uvm-prefetch', 'uvm', 'uvm-ma', 'exp'],
    );
    assert.deepEqual(
      grid.runs.map(r => r.clock.labels.runtime),
      ['6.1 s', '6.3 s', '6.4 s', '7 s'],
    );
    assert.deepEqual(
      grid.runs.map(r => r.percentile),
      [0, 1 / 3, 2 / 3, 1],
    );
    assert.deepEqual(
      grid.runs.map(r => r.clock.labels.bytes),
      ['0 B', '0 B', '0 B', '3 GB'],
    );
    assert.equal(grid.sectorWidth, null);
    assert.equal(grid.runs[0]!.clock.sectorWidth, 6.1e9 / 12);
    const unsorted = clockGrid(await digests());
    assert.deepEqual(
      unsorted.runs.map(r => r.name),
      RUNS.map(r => r[0]),
    );
  });

  it('Compare gives every clock 0.58 s sectors; shorter runs leave the last sectors empty', async () => {
    const grid = clockGrid(await digests(), { mode: 'compare' });
    assert.equal(grid.sectorWidth, 7e9 / 12);
    assert.equal(Number((grid.sectorWidth! / 1e9).toFixed(2)), 0.58);
    for (const r of grid.runs) {
      assert.equal(r.clock.sectorWidth, grid.sectorWidth);
      const used = r.clock.sectors.filter(s => s.busy.gpuCompute + s.busy.cpuCompute > 0).length;
      assert.equal(used, Math.ceil(r.runtime / grid.sectorWidth!), r.name);
    }
    const fastest = grid.runs.find(r => r.name === 'uvm-prefetch')!.clock;
    assert.equal(fastest.sectors[11]!.busy.cpuCompute, 0);
    assert.equal(fastest.sectors[10]!.busy.cpuCompute, 6.1e9 - 10 * grid.sectorWidth!);
  });

  it('fewer than 2 traces is an error; so is a run without a timeline', async () => {
    const [one] = await digests();
    assert.throws(() => clockGrid([one!]), /a trace ensemble needs at least 2 traces, only uvm was given/);
    assert.throws(() => clockGrid([]), /none were given/);
    const { runs } = await loadEnsemble([
      writeGenerated(gemmRun({ runtimeS: 1 }), 'a'),
      writeGenerated(gemmRun({ runtimeS: 2 }), 'b'),
    ]);
    const ds = digestRuns(runs);
    const profile = await readProfile(
      join(REPO_ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json'),
    );
    assert.throws(
      () => digestRuns([runs[0]!, { run: { ...runs[0]!.run, name: 'caliper' }, profile }]),
      /a trace ensemble needs traces; caliper \(caliper-json-split\) has no timeline/,
    );
    assert.equal(ds.length, 2);
    assert.ok(clockGrid(ds, { sort: true }).runs[0]!.runtime === 1e9);
  });
});
