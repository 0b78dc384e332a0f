import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateRossRun } from '../../analysis/pdes/testing/ross-generator';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';

const ROOT = resolve(__dirname, '..', '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/hpc-lens.ts'), ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });
const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('hpc-lens pdes', () => {
  it('--json prints one object in the documented key order; text names the format', () => {
    generateRossRun(dir, { seed: 11, pes: 2, kpsPerPe: 2, ticks: 8, eventsPerKp: 3, surge: null });
    const r = cli('pdes', '--json', dir);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), [
      'entities',
      'totals',
      'samples',
      'eventTrace',
      'communication',
      'clusters',
      'changePoints',
    ]);
    assert.deepEqual(out.entities, { pe: 2, kp: 4, lp: 16 });
    // k = 3 clusters of the 4 KPs (global KP numbers), and change points as sample indices.
    assert.equal(out.clusters.length, 3);
    assert.deepEqual(out.clusters.flatMap((c: { members: number[] }) => c.members).sort(), [0, 1, 2, 3]);
    assert.ok(
      Array.isArray(out.changePoints) && out.changePoints.every((c: number) => Number.isInteger(c) && c > 0 && c < 8),
    );
    assert.deepEqual(out.samples, { gvt: 8 });
    assert.equal(out.communication.matrix.length, 2);
    const text = cli('pdes', dir);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /format {4}ross-codes \(synthetic-ross\)/);
    assert.match(text.stdout, /entities {2}2 PEs, 4 KPs, 16 LPs/);
    assert.match(text.stdout, /clusters {2}0: \d+, 1: \d+, 2: \d+ entities/);
    // The panel's options as flags: 2 PE clusters.
    const pe = JSON.parse(cli('pdes', '--json', '--level', 'pe', '--k', '2', '--clustering', 'pam', dir).stdout);
    assert.deepEqual(pe.clusters.flatMap((c: { members: number[] }) => c.members).sort(), [0, 1]);
  });

  it('hpc-lens inspect names the format ross-codes and shows the editor profile of the handlers', () => {
    const run = mkdtempSync(join(dir, 'inspect-'));
    generateRossRun(run, { seed: 12, pes: 2, kpsPerPe: 2, ticks: 6, eventsPerKp: 2 });
    const r = cli('inspect', '--json', run);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.format, 'ross-codes');
    assert.equal(out.primaryMetric, 'handler calls');
    assert.equal(out.contexts, 2, 'one context per PE');
    assert.ok(
      out.nodes.some(
        (n: { name: string; module: string | null }) => n.name === 'synthetic-ross' && n.module === 'synthetic-ross',
      ),
      'the LP type of the program',
    );
  });

  it('fails with the file and the reason, or with usage', () => {
    const missing = join(dir, 'nope');
    const r = cli('pdes', '--json', missing);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `hpc-lens: ${missing}: no such file or directory\n`);
    assert.equal(cli('pdes').status, 2);
    const k = cli('pdes', '--k', '0', dir);
    assert.equal(k.status, 2);
    assert.match(k.stderr, /--k is 0; expected a whole number ≥ 1/);
    const metric = cli('pdes', '--metrics', 'rollbackz', dir);
    assert.equal(metric.status, 2);
    assert.match(metric.stderr, /--metrics: "rollbackz" is no PDES metric/);
  });

  it('prints link counts of a CODES run', { skip: skipUnlessShared('data/pdes-ross-codes') }, () => {
    const r = cli('pdes', '--json', sharedPath('data/pdes-ross-codes/codes-dragonfly-dally-72-nearest-neighbor'));
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.totals, {
      eventsProcessed: 147750,
      rollbacks: 19674,
      primaryRollbacks: 7914,
      secondaryRollbacks: 11760,
    });
    assert.deepEqual(out.links, { total: 324, byType: { CN: 144, L: 108, G: 72 } });
    assert.equal(out.eventTrace.events, 7914);
  });
});
