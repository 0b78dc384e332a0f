import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readPdesRun } from '../../formats/ross/pdes-run-reader';
import { pdesBehaviour } from '../behaviour';
import { pdesEditorProfile } from '../editor-profile';
import { handlerActivity, resolveHandlers } from '../handlers';
import { generateRossRun, MONITOR_TEST_RUN, type RossRunTruth } from '../testing/ross-generator';
import { changePointActivity, monitorRun } from './monitor-run';
import { PdesMonitor } from './pdes-monitor';
import { readStreamLayout, type StreamLayout } from './stream-layout';

const HANDLERS = resolveHandlers({
  'synthetic-ross': { file: '**/synthetic.c', forward: 'synthetic_event', reverse: 'synthetic_event_rc' },
}).handlers;

describe('the monitored run as a PDES run: Show’s handler activity', () => {
  let dir: string;
  let truth: RossRunTruth;
  let layout: StreamLayout;
  let monitor: PdesMonitor;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-run-'));
    truth = generateRossRun(join(dir, 'run'), MONITOR_TEST_RUN);
    layout = await readStreamLayout(truth.files.gvt);
    monitor = new PdesMonitor({
      mode: 'gvt',
      path: truth.files.gvt,
      tracePath: layout.tracePath!,
      entities: layout.entities!,
      expectedPes: layout.expectedPes,
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('before any tick, its editor profile has the model’s handlers per PE (from the run folder’s layout)', () => {
    const profile = pdesEditorProfile(monitorRun(monitor, layout, truth.files.gvt), HANDLERS);
    const names = Array.from({ length: profile.tree.size }, (_, i) => profile.tree.name(i));
    assert.ok(names.includes('synthetic_event') && names.includes('synthetic_event_rc'), names.join(', '));
    assert.equal(profile.contextCount, 4);
  });

  it('counts the LPs of a change point’s top entities over its segment, as the offline analysis counts them', async () => {
    // Made before the stream, as the monitor's worker makes it: it grows with the monitor.
    const run = monitorRun(monitor, layout, truth.files.gvt);
    monitor.pushTrace(readFileSync(truth.files.evtrace!));
    monitor.pushStats(readFileSync(truth.files.gvt));
    monitor.finish();
    const cps = monitor.analyser.changePoints;
    assert.ok(cps.length >= 2, `${cps.length} change points`);
    const first = changePointActivity(monitor, run, 1, HANDLERS)!;
    assert.equal(first.from, cps[0]!.tick);
    assert.equal(first.to, cps[1]!.tick, 'up to the next change point');
    assert.equal(first.level, 'kp');
    assert.equal(first.total, 32);
    assert.equal(first.selected, first.entities.length);
    assert.ok(first.selected > 0 && first.selected < 32);
    const [row] = first.rows;
    assert.equal(row?.lpType, 'synthetic-ross');
    assert.equal(row?.handler?.forward, 'synthetic_event');
    assert.equal(row?.processedSource, 'event trace');
    assert.equal(row?.rolledBackSource, 'KP samples');
    assert.ok(row!.eventsProcessed > 0 && row!.eventsRolledBack! > 0);

    // The offline reader of the same folder: the same entities (by label) over the same ticks give the same counts.
    const offline = await readPdesRun(dirname(truth.files.rossCsv));
    const b = pdesBehaviour(offline, 'kp', 'gvt').behaviour!;
    const byLabel = new Map(Array.from({ length: b.count }, (_, i) => [b.label(i), i]));
    const selected = Int32Array.from(first.labels.map(l => byLabel.get(l)!)).sort();
    const expected = handlerActivity(
      offline,
      { behaviour: b, range: { from: first.from, to: first.to } },
      selected,
      HANDLERS,
    );
    assert.deepEqual(
      first.rows.map(r => [r.lpType, r.lps, r.eventsProcessed, r.eventsRolledBack]),
      expected.map(r => [r.lpType, r.lps, r.eventsProcessed, r.eventsRolledBack]),
    );

    const last = changePointActivity(monitor, run, cps.length, HANDLERS)!;
    assert.equal(last.to, monitor.ticks, 'the last change point counts up to the latest tick');
    assert.equal(changePointActivity(monitor, run, cps.length + 1, HANDLERS), null);
  });
});
