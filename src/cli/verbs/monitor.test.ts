import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateRossRun, type RossRunTruth } from '../../analysis/pdes/testing/ross-generator';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';

const ROOT = resolve(__dirname, '..', '..', '..');
const cliSync = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });

/** Runs the CLI to its exit, asynchronously (a writer runs beside it). */
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), ...args], { cwd: ROOT });
  let stdout = '',
    stderr = '';
  child.stdout.on('data', d => (stdout += d));
  child.stderr.on('data', d => (stderr += d));
  return new Promise(done => child.on('close', status => done({ status, stdout, stderr })));
}

/** A child process that appends `source` to `target` in chunks of `chunk` bytes, `delayMs` apart. */
function appender(
  source: string,
  target: string,
  from: number,
  chunk: number,
  delayMs: number,
): Promise<number | null> {
  const script = `
    const fs = require('node:fs');
    const [source, target, from, chunk, delay] = process.argv.slice(1);
    const bytes = fs.readFileSync(source);
    let at = Number(from);
    const step = () => {
      if (at >= bytes.length) return;
      fs.appendFileSync(target, bytes.subarray(at, at + Number(chunk)));
      at += Number(chunk);
      setTimeout(step, Number(delay));
    };
    step();`;
  const child = spawn(process.execPath, ['-e', script, source, target, String(from), String(chunk), String(delayMs)]);
  return new Promise(done => child.on('close', done));
}

const KEYS = ['tick', 'time', 'entities', 'totals', 'changePoint', 'clusters', 'skippedTicks'];
const TOTAL_KEYS = ['eventsProcessed', 'rollbacks', 'primaryRollbacks', 'secondaryRollbacks'];

const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('hpc-lens monitor', () => {
  let truth: RossRunTruth;
  before(() => {
    truth = generateRossRun(join(dir, 'run'), {
      seed: 13,
      pes: 4,
      kpsPerPe: 4,
      ticks: 30,
      eventsPerKp: 6,
      surge: null,
    });
  });

  it('--json follows a file a child process appends to in chunks, one line per tick, exits 0 when idle', async () => {
    // The monitored file sits beside the run's ross.csv, so the monitor knows to wait for 4 PEs.
    const target = join(dir, 'run', 'stats', 'live-gvt.bin');
    writeFileSync(target, readFileSync(truth.files.gvt).subarray(0, 1000));
    const [result] = await Promise.all([
      cli('monitor', '--json', '--idle-exit', '1.5', '--poll', '20', target),
      appender(truth.files.gvt, target, 1000, 1537, 20),
    ]);
    assert.equal(result.status, 0, result.stderr);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map(l => JSON.parse(l));
    assert.deepEqual(
      lines.map(l => l.tick),
      Array.from({ length: 30 }, (_, i) => i),
    );
    for (const l of lines) {
      assert.deepEqual(Object.keys(l), KEYS);
      assert.deepEqual(Object.keys(l.totals), TOTAL_KEYS);
      assert.equal(l.entities, 16);
      assert.equal(typeof l.changePoint, 'boolean');
    }
    // Ticks that arrive together are analysed as one (the stale ones before the first clustering show 0).
    const first = lines.findIndex(l => l.clusters === 3);
    assert.ok(first >= 0 && lines.slice(first).every(l => l.clusters === 3));
    assert.ok(lines.slice(0, first).every(l => l.clusters === 0));
    for (let i = 1; i < lines.length; i++) assert.ok(lines[i].skippedTicks >= lines[i - 1].skippedTicks);
    assert.deepEqual(
      lines.slice(0, 3).map(l => l.time),
      [100, 200, 300],
    );
    assert.deepEqual(lines.at(-1).totals, {
      eventsProcessed: truth.totals.events,
      rollbacks: truth.totals.rollbacks,
      primaryRollbacks: truth.totals.primaryRollbacks,
      secondaryRollbacks: truth.totals.secondaryRollbacks,
    });
    // Totals only grow.
    for (let i = 1; i < lines.length; i++)
      assert.ok(lines[i].totals.eventsProcessed >= lines[i - 1].totals.eventsProcessed);
  });

  it('--replay --speed X replays a recorded file; text output names the ticks', async () => {
    const r = await cli('monitor', '--replay', '--speed', '1000', truth.files.gvt);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 30);
    assert.match(
      lines[0]!,
      /^tick 0 {2}time 100 {2}16 KPs {2}[\d,]+ events, [\d,]+ rollbacks \([\d,]+ primary, [\d,]+ secondary\) {2}3 clusters/,
    );
  });

  it('stops at a bad record with the file and byte offset (exit 1); usage errors exit 2', () => {
    const bad = join(dir, 'bad-gvt.bin');
    writeFileSync(
      bad,
      Buffer.concat([readFileSync(truth.files.gvt).subarray(0, 3 * 4 * (128 + 4 * 68)), Buffer.alloc(24, 9)]),
    );
    const r = cliSync('monitor', '--json', '--idle-exit', '0', bad);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      new RegExp(`hpc-lens: ${bad}: unknown record: flag 151587081, size 151587081 .* at byte offset 4800\\n`),
    );
    // The ticks before it were printed.
    assert.equal(r.stdout.trim().split('\n').length, 2);
    for (const args of [
      ['monitor'],
      ['monitor', '--speed', '2', 'x'],
      ['monitor', '--mode', 'xyz', 'x'],
      ['monitor', '--idle-exit', 'soon', 'x'],
    ])
      assert.equal(cliSync(...args).status, 2, args.join(' '));
  });

  const NEAREST = 'data/pdes-ross-codes/codes-dragonfly-dally-72-nearest-neighbor';
  it(
    'replays the shared nearest-neighbour real-time file to the ross.csv totals',
    { skip: skipUnlessShared(NEAREST) },
    async () => {
      const r = await cli(
        'monitor',
        '--json',
        '--replay',
        '--speed',
        'Infinity',
        sharedPath(NEAREST, 'ross-stats/dfdally72-rt.bin'),
      );
      assert.equal(r.status, 0, r.stderr);
      const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      assert.deepEqual(last.totals, {
        eventsProcessed: 147750,
        rollbacks: 19674,
        primaryRollbacks: 7914,
        secondaryRollbacks: 11760,
      });
      assert.equal(last.entities, 64);
    },
  );
});
