import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseSettings } from './analyze-trace';

const ROOT = resolve(__dirname, '..', '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });

/**
 * A Chrome trace of 4 ranks: init, then 6 × (compute, MPI_Barrier), then finalize; rank 3
 * computes 30 ms instead of 20 and the others wait for it in the barrier.
 */
function chromeTrace(dir: string, loops = true): string {
  const ev: object[] = [];
  for (let r = 0; r < 4; r++) {
    ev.push({ ph: 'M', name: 'process_name', pid: r, tid: 0, args: { name: `rank ${r}` } });
    const slices: [string, number][] = [['init', 50_000]];
    if (loops)
      for (let i = 0; i < 6; i++)
        slices.push(['compute', r === 3 ? 30_000 : 20_000], ['MPI_Barrier', r === 3 ? 100 : 10_100]);
    else slices.push(['compute', r === 3 ? 30_000 : 20_000], ['MPI_Barrier', r === 3 ? 100 : 10_100]);
    slices.push(['finalize', 20_000]);
    ev.push({ ph: 'X', name: 'main', pid: r, tid: 0, ts: 0, dur: slices.reduce((s, [, d]) => s + d, 0) });
    let t = 0;
    for (const [name, dur] of slices) {
      ev.push({ ph: 'X', name, pid: r, tid: 0, ts: t, dur });
      t += dur;
    }
  }
  const file = join(dir, loops ? 'ranks.json' : 'no-loops.json');
  writeFileSync(file, JSON.stringify({ traceEvents: ev }));
  return file;
}

describe('hpc-lens analyze-trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyze-trace-'));

  it('--json prints exactly the documented object', () => {
    const r = cli('analyze-trace', '--json', chromeTrace(dir));
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), [
      'samplingPeriod',
      'threads',
      'runTime',
      'clusters',
      'loops',
      'significant',
      'segments',
    ]);
    assert.equal(out.samplingPeriod, null);
    assert.equal(out.threads, 4);
    assert.ok(Math.abs(out.runTime - 0.2506) < 1e-9);
    // Lane names are the timeline's: the process, then the thread.
    assert.deepEqual(out.clusters, [
      { members: ['rank 0 · thread 0', 'rank 1 · thread 0', 'rank 2 · thread 0'], representative: 'rank 0 · thread 0' },
      { members: ['rank 3 · thread 0'], representative: 'rank 3 · thread 0' },
    ]);
    assert.deepEqual(out.loops, [
      { name: 'loop of compute in main', file: null, line: null, iterations: 6, accepted: true },
    ]);
    const compute = out.significant[0];
    assert.deepEqual(Object.keys(compute), [
      'path',
      'name',
      'file',
      'line',
      'class',
      'imbalance',
      'wait',
      'maxCluster',
    ]);
    assert.deepEqual(compute.path, ['main', 'loop of compute in main', 'iteration 1', 'compute']);
    assert.equal(compute.class, 'computation');
    assert.ok(Math.abs(compute.imbalance - 0.0075) < 1e-9, 'max 30 ms − avg 22.5 ms');
    assert.equal(compute.maxCluster, 1);
    assert.equal(out.segments.length, 6);
    assert.deepEqual(Object.keys(out.segments[0]), ['start', 'end', 'diagnosis', 'projectedSaving']);
    assert.match(out.segments[0].diagnosis, /^Table 2 row 3 /);
  });

  it('--set changes options; the text report says when there are no loops', () => {
    const r = cli('analyze-trace', '--set', 'separateRoles=false,syncNames=["MPI_Barrier"]', chromeTrace(dir, false));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Loops:\n {2}none found/);
    assert.match(r.stdout, /No loops: the trace records no loop constructs/);
    assert.deepEqual(parseSettings('childNumAcc=1,dummyMode=flat,waitNames=["a","b"]'), {
      childNumAcc: 1,
      dummyMode: 'flat',
      waitNames: ['a', 'b'],
    });
  });

  it('reports unusable input and bad options', () => {
    const profileOnly = join(ROOT, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json');
    const r = cli('analyze-trace', profileOnly);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /nothing to analyse: the profile has no trace/);
    const bad = cli('analyze-trace', '--set', 'ratioMin=-1', chromeTrace(dir));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /option ratioMin = -1: must be a number ≥ 0/);
    const unknown = cli('analyze-trace', '--set', 'nonsense=1', chromeTrace(dir));
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown option nonsense/);
  });
});
