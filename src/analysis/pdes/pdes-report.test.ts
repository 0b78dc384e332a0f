import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { behaviourSeries, pdesReport } from './pdes-report';
import { generateRossRun } from './testing/ross-generator';

const KEYS = ['entities', 'totals', 'samples', 'eventTrace', 'communication', 'clusters', 'changePoints', 'links'];
const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

describe('pdes report', () => {
  it('summarises a generated run, taking clusters and change points from the analyses it is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-report-'));
    dirs.push(dir);
    const truth = generateRossRun(dir, { seed: 5, pes: 4, kpsPerPe: 4, ticks: 30, eventsPerKp: 6, surge: [1, 2] });
    const run = await readPdesRun(dir);
    const series = behaviourSeries(run)!;
    assert.deepEqual(
      [series.mode, series.level, series.metric, series.series.length],
      ['gvt', 'kp', 'secondary_rollbacks', 16],
    );
    assert.deepEqual([...series.time], [...truth.gvt]);
    const seen: number[] = [];
    const report = await pdesReport(run, {
      clusters: s => {
        seen.push(s.series.length);
        return [{ members: [0, 1] }, { members: [2] }];
      },
      changePoints: async () => [9, 13],
    });
    assert.deepEqual(
      Object.keys(report),
      KEYS.filter(k => k !== 'links'),
    );
    assert.deepEqual(report.entities, { pe: 4, kp: 16, lp: 64 });
    assert.deepEqual(report.totals, {
      eventsProcessed: truth.totals.events,
      rollbacks: truth.totals.rollbacks,
      primaryRollbacks: truth.totals.primaryRollbacks,
      secondaryRollbacks: truth.totals.secondaryRollbacks,
    });
    assert.deepEqual(report.samples, { gvt: 30 });
    assert.equal(report.eventTrace!.events, truth.totals.events);
    assert.equal(report.communication!.level, 'pe');
    assert.equal(
      report.communication!.matrix.flat().reduce((a, b) => a + b, 0),
      truth.totals.events,
    );
    assert.deepEqual(report.clusters, [{ members: [0, 1] }, { members: [2] }]);
    assert.deepEqual(report.changePoints, [9, 13]);
    assert.deepEqual(seen, [16]);
    // An analysis that returns null (no series of its own) leaves its field out.
    assert.ok(!('clusters' in (await pdesReport(run, { clusters: () => null, changePoints: async () => [3] }))));
    // Without the analyses the report leaves their fields out.
    assert.deepEqual(Object.keys(await pdesReport(run)), [
      'entities',
      'totals',
      'samples',
      'eventTrace',
      'communication',
    ]);
  });
});

const FULL = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random-8pe-fulltrace';
const UNIFORM = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random';

describe('pdes report on the shared runs', { skip: skipUnlessShared(FULL) }, () => {
  it('8-PE full trace: entities, ross.csv totals, 15 GVT samples, 73.4 % within a PE, a diagonal PE matrix, links', async () => {
    const report = await pdesReport(await readPdesRun(sharedPath(FULL)));
    assert.deepEqual(Object.keys(report), ['entities', 'totals', 'samples', 'eventTrace', 'communication', 'links']);
    assert.deepEqual(report.entities, { pe: 8, kp: 128, lp: 180 });
    assert.deepEqual(report.totals, {
      eventsProcessed: 249907,
      rollbacks: 25958,
      primaryRollbacks: 13350,
      secondaryRollbacks: 12608,
    });
    assert.deepEqual(report.samples, { gvt: 15 });
    assert.deepEqual(report.eventTrace, { events: 249907, sameProcessShare: 0.734 });
    const m = report.communication!.matrix;
    assert.equal(m.length, 8);
    assert.equal(
      m.flat().reduce((a, b) => a + b, 0),
      249907,
    );
    m.forEach((row, i) => assert.equal(Math.max(...row), row[i], `PE ${i} talks most to itself`));
    assert.deepEqual(report.links, { total: 324, byType: { CN: 144, L: 108, G: 72 } });
  });

  it('takes totals from the real-time samples, which add up to ross.csv', async () => {
    const report = await pdesReport(await readPdesRun(sharedPath(UNIFORM)));
    assert.deepEqual(report.totals, {
      eventsProcessed: 132578,
      rollbacks: 17224,
      primaryRollbacks: 6819,
      secondaryRollbacks: 10405,
    });
    assert.deepEqual(report.samples, { gvt: 7, rt: 136, vt: 37 });
  });
});
