import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateRossRun, MONITOR_TEST_RUN, type RossRunTruth } from '../../analysis/pdes/testing/ross-generator';
import { until } from '../../../test/support/until';
import { LocalAnalysisService } from '../local-analysis-service';
import type { PdesMonitorEvent, PdesMonitorShape } from './pdes-monitor-system';

/** A request to a monitor, its answer typed by its kind. */
function ask<R extends PdesMonitorShape['request']>(s: LocalAnalysisService, dataset: number, request: R) {
  return s.systemRequest({ dataset, system: 'pdesMonitor', request: request as never }) as Promise<
    PdesMonitorShape['results'][R['kind']]
  >;
}

describe('the live PDES monitor as a system of the analysis service', () => {
  let dir: string;
  let truth: RossRunTruth;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-system-'));
    truth = generateRossRun(dir, { seed: 7, pes: 4, kpsPerPe: 4, ticks: 30, eventsPerKp: 6, surge: null });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('replays a run: every tick is pushed, the totals end as the file says, the views answer', async () => {
    const s = new LocalAnalysisService();
    const events: PdesMonitorEvent[] = [];
    const opened = await s.openSystem({
      system: 'pdesMonitor',
      args: { source: { kind: 'replay', path: truth.files.gvt, speed: Infinity } },
    });
    assert.equal(opened.opened.source, truth.files.gvt);
    assert.equal(opened.opened.mode, 'gvt');
    s.onSystemEvent(opened.dataset, e => events.push(e as PdesMonitorEvent));
    await until(() => events.some(e => e.type === 'ended'), 'the replay ends');
    const history = await ask(s, opened.dataset, { kind: 'history' });
    assert.ok(history.ticks.length > 0, 'the history holds the ticks pushed before anyone listened');
    assert.equal(history.latest?.totals.eventsProcessed, truth.totals.events);
    assert.equal(history.latest?.totals.rollbacks, truth.totals.rollbacks);
    const again = await ask(s, opened.dataset, { kind: 'history' });
    assert.equal(
      again.latest?.columns.top.length,
      history.latest?.columns.top.length,
      'the kept tick was not detached',
    );
    const window = await ask(s, opened.dataset, { kind: 'behaviour', view: 'top' });
    assert.equal(window.values.length, window.entities * (window.toTick - window.fromTick));
    const again2 = await ask(s, opened.dataset, { kind: 'behaviour', view: 'top' });
    assert.equal(again2.labels.length, window.entities, 'the clustering labels the monitor keeps were not detached');
    const matrix = await ask(s, opened.dataset, { kind: 'live-matrix' });
    assert.ok(matrix && matrix.size > 0 && matrix.values.length === matrix.size * matrix.columns);
    await s.close({ dataset: opened.dataset });
  });

  it('gives the editor the run’s handlers, and Show’s handler activity for a change point', async () => {
    const s = new LocalAnalysisService();
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    writeFileSync(
      join(src, 'synthetic.c'),
      'static void synthetic_event(void) {}\nstatic void synthetic_event_rc(void) {}\n',
    );
    const handlers = {
      'synthetic-ross': { file: '**/synthetic.c', forward: 'synthetic_event', reverse: 'synthetic_event_rc' },
    };
    const events: PdesMonitorEvent[] = [];
    const surging = generateRossRun(join(dir, 'surge'), MONITOR_TEST_RUN);
    const opened = await s.openSystem({
      system: 'pdesMonitor',
      args: {
        source: { kind: 'replay', path: surging.files.gvt, speed: Infinity },
        editor: { handlers, sourceRoots: [src] },
      },
    });
    s.onSystemEvent(opened.dataset, e => events.push(e as PdesMonitorEvent));
    const editor = opened.opened.editor!;
    assert.deepEqual(
      editor.lpTypes.map(t => [t.name, t.handler?.forward, t.found]),
      [['synthetic-ross', 'synthetic_event', true]],
    );

    assert.ok(opened.profile, 'an editor profile');
    await until(() => events.some(e => e.type === 'ended'), 'the replay ends');
    const history = await ask(s, opened.dataset, { kind: 'history' });
    assert.ok(history.changePoints.length > 0);
    const activity = await ask(s, opened.dataset, { kind: 'handler-activity', changePoint: 1, handlers });
    assert.equal(activity?.changePoint, 1);
    assert.equal(activity?.rows[0]?.handler?.reverse, 'synthetic_event_rc');
    assert.equal(activity?.rows[0]?.processedSource, 'event trace', 'the replayed trace counts the events');
    assert.ok(activity!.rows[0]!.eventsProcessed > 0 && activity!.rows[0]!.eventsRolledBack! > 0);
    await s.close({ dataset: opened.dataset });
  });

  it('a file that is not a ROSS stats file ends the stream with an error naming it', async () => {
    const s = new LocalAnalysisService();
    const bad = join(dir, 'garbage-gvt.bin');
    writeFileSync(bad, Buffer.alloc(100, 0xff));
    const events: PdesMonitorEvent[] = [];
    const opened = await s.openSystem({
      system: 'pdesMonitor',
      args: { source: { kind: 'replay', path: bad, speed: Infinity } },
    });
    s.onSystemEvent(opened.dataset, e => events.push(e as PdesMonitorEvent));
    await until(() => events.some(e => e.type === 'ended'), 'the replay ends');
    const error = events.find(e => e.type === 'error');
    assert.ok(error && error.type === 'error' && error.message.includes(bad), JSON.stringify(error));
    await s.close({ dataset: opened.dataset });
  });
});
