import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sharedPath, skipUnlessShared } from '../../../test/support/shared-data';
import { readPdesRun } from '../formats/ross/pdes-run-reader';
import { DEFAULT_PDES_HANDLERS, handlerActivity, resolveHandlers } from './handlers';
import { METRIC } from './model/metrics';
import { PdesAnalysisSession } from './pdes-analysis';
import { generateRossRun } from './testing/ross-generator';

const dirs: string[] = [];
after(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-handlers-'));
  dirs.push(d);
  return d;
};
const sum = (v: ArrayLike<number>) => Array.from(v).reduce((x, y) => x + y, 0);

describe('hpcLens.pdes.handlers', () => {
  it('defaults to the CODES dragonfly-dally terminal and router handlers and PHOLD', () => {
    assert.deepEqual(Object.keys(DEFAULT_PDES_HANDLERS), [
      'modelnet_dragonfly_dally',
      'modelnet_dragonfly_dally_router',
      'phold',
    ]);
    assert.deepEqual(DEFAULT_PDES_HANDLERS.phold, {
      file: '**/models/phold/phold.c',
      forward: 'phold_event_handler',
      reverse: 'phold_event_handler_rc',
    });
  });

  it("adds or replaces the user's entries, removes defaults set to null, and names malformed ones", () => {
    const { handlers, problems } = resolveHandlers({
      phold: null,
      'nw-lp': {
        file: 'src/network-workloads/model-net-synthetic-dragonfly-all.c',
        forward: 'svr_event',
        reverse: 'svr_rev_event',
      },
      modelnet_dragonfly_dally_router: { file: 'my-router.c', forward: 'my_router_event' },
      broken: { forward: 'x' },
    });
    assert.deepEqual(Object.keys(handlers), ['modelnet_dragonfly_dally', 'modelnet_dragonfly_dally_router', 'nw-lp']);
    assert.deepEqual(handlers.modelnet_dragonfly_dally_router, { file: 'my-router.c', forward: 'my_router_event' });
    assert.deepEqual(problems, [
      'hpcLens.pdes.handlers["broken"] needs a "file" and a "forward" handler name (and optionally "reverse")',
    ]);
    assert.deepEqual(resolveHandlers(undefined), { handlers: { ...DEFAULT_PDES_HANDLERS }, problems: [] });
    assert.equal(resolveHandlers([1]).problems.length, 1);
  });
});

describe('handler activity of selected entities', () => {
  it('counts events by receiving LP from a full trace and shares KP rollbacks out over the LPs', async () => {
    const dir = tempDir();
    const shape = { groups: 3, routersPerGroup: 2, terminalsPerRouter: 2, globalChannelsPerRouter: 1 };
    const truth = generateRossRun(dir, { seed: 2, pes: 2, kpsPerPe: 4, ticks: 10, surge: null, dragonfly: shape });
    const run = await readPdesRun(dir);
    const a = new PdesAnalysisSession(run).analysis();
    const all = Int32Array.from({ length: 8 }, (_, i) => i);
    const rows = handlerActivity(run, a, all);
    assert.deepEqual(
      rows.map(r => [r.lpType, r.lps, r.processedSource, r.rolledBackSource]),
      [
        ['nw-lp', 12, 'event trace', 'KP samples'],
        ['modelnet_dragonfly_dally', 12, 'event trace', 'KP samples'],
        ['modelnet_dragonfly_dally_router', 6, 'event trace', 'KP samples'],
      ],
    );
    assert.equal(sum(rows.map(r => r.eventsProcessed)), truth.totals.events, 'every traced event, by its receiver');
    // The shares add up to the KPs' rolled-back events (up to rounding per type).
    const kpRolledBack = a.behaviour.samples.kp.total(METRIC.eventsRolledBack);
    assert.ok(Math.abs(sum(rows.map(r => r.eventsRolledBack!)) - kpRolledBack) <= rows.length);
    assert.equal(rows[0]!.handler, null, 'no default handler for the workload LPs');
    assert.deepEqual(rows[2]!.handler, DEFAULT_PDES_HANDLERS.modelnet_dragonfly_dally_router);
    assert.match(
      rows[2]!.forwardTitle,
      /^\d+(\.\d+)?k? events processed by 6 modelnet_dragonfly_dally_router LPs of 8 selected KPs$/,
    );
    assert.match(
      rows[2]!.reverseTitle!,
      /^≈ \d+(\.\d+)?k? events rolled back \(KP rollbacks shared out by events processed\)$/,
    );
    // KP 1 holds LP 4 (router 0), LPs 5–6 (workload) and LP 7 (a terminal); over samples [2, 5) only.
    const one = handlerActivity(run, a, [1], DEFAULT_PDES_HANDLERS, { from: 2, to: 5 });
    assert.deepEqual(
      one.map(r => [r.lpType, r.lps]),
      [
        ['nw-lp', 2],
        ['modelnet_dragonfly_dally', 1],
        ['modelnet_dragonfly_dally_router', 1],
      ],
    );
    const { dst, recvTime } = run.eventTrace!.columns;
    let router = 0;
    for (let i = 0; i < dst.length; i++)
      if (dst[i] === 4 && recvTime[i]! > truth.gvt[1]! && recvTime[i]! <= truth.gvt[4]!) router++;
    assert.equal(one[2]!.eventsProcessed, router, 'events LP 4 received in (GVT of sample 1, GVT of sample 4]');
  });

  it('takes LP samples when the run has them', async () => {
    const dir = tempDir();
    generateRossRun(dir, { seed: 9, pes: 2, kpsPerPe: 2, ticks: 8, surge: null, lpData: true });
    const run = await readPdesRun(dir);
    const a = new PdesAnalysisSession(run).analysis();
    const [row] = handlerActivity(run, a, [0, 1, 2, 3]);
    assert.deepEqual(
      [row!.lpType, row!.lps, row!.processedSource, row!.rolledBackSource],
      ['synthetic-ross', 16, 'LP samples', 'LP samples'],
    );
    assert.equal(row!.eventsProcessed, a.behaviour.samples.lp.total(METRIC.eventsProcessed));
    assert.equal(row!.handler, null);
  });
});

const PHOLD = 'data/pdes-ross-codes/ross-phold-2pe';
const UNIFORM = 'data/pdes-ross-codes/codes-dragonfly-dally-72-uniform-random';

describe('handler activity on the shared runs', { skip: skipUnlessShared(PHOLD) }, () => {
  it('PHOLD: the phold handlers, with counts from the LP samples', async () => {
    const run = await readPdesRun(sharedPath(PHOLD));
    const a = new PdesAnalysisSession(run).analysis();
    const rows = handlerActivity(
      run,
      a,
      Int32Array.from({ length: 8 }, (_, i) => i),
    );
    assert.deepEqual(
      rows.map(r => [r.lpType, r.lps, r.processedSource]),
      [['phold', 32, 'LP samples']],
    );
    assert.deepEqual(rows[0]!.handler, DEFAULT_PDES_HANDLERS.phold);
    const lp = a.behaviour.samples.lp;
    assert.equal(rows[0]!.eventsProcessed, lp.total(METRIC.eventsProcessed));
    assert.equal(rows[0]!.eventsRolledBack, lp.total(METRIC.eventsRolledBack));
  });

  it('CODES with a rollback-only trace: stragglers received per LP type add up to the primary rollbacks', async () => {
    const run = await readPdesRun(sharedPath(UNIFORM));
    const a = new PdesAnalysisSession(run).analysis();
    const rows = handlerActivity(
      run,
      a,
      Int32Array.from({ length: 64 }, (_, i) => i),
    );
    assert.deepEqual(
      rows.map(r => [r.lpType, r.lps, r.processedSource, r.rolledBackSource]),
      [
        ['nw-lp', 72, 'LP statistics', 'rollback trace'],
        ['modelnet_dragonfly_dally', 72, 'LP statistics', 'rollback trace'],
        ['modelnet_dragonfly_dally_router', 36, 'LP statistics', 'rollback trace'],
      ],
    );
    assert.equal(sum(rows.map(r => r.eventsRolledBack!)), 6819, "ross.csv's primary rollbacks");
    assert.equal(sum(rows.map(r => r.eventsProcessed)), sum(run.lpStats!.eventsProcessed));
    assert.match(rows[2]!.reverseTitle!, /rollback-causing events received by these LPs$/);
  });
});
