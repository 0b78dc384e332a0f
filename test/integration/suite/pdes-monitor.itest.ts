import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  generateRossRun,
  MONITOR_TEST_RUN,
  type RossRunTruth,
} from '../../../src/analysis/pdes/testing/ross-generator';
import { lensTitles } from './ensemble.itest';
import { EXTENSION_ID, until, type HpcLensApi } from './itest-support';

/** The generated run's model source: its LP type is named after its program, `synthetic-ross`. */
const MODEL_SOURCE = `/* synthetic-ross: a ROSS model's event handlers */
#include <ross.h>

void synthetic_event(void *state, tw_bf *bf, void *msg, tw_lp *lp)
{
}

void synthetic_event_rc(void *state, tw_bf *bf, void *msg, tw_lp *lp)
{
}
`;
const FORWARD_LINE = 3;
const REVERSE_LINE = 7;

/**
 * The live PDES monitor (thesis ch. 6) in VS Code: Monitor PDES Run… on a generated ROSS run,
 * replayed and tailed while it grows, read back through the panel's `data-*` facts and driven
 * through its test agent.
 */
export function registerPdesMonitorSuites(): void {
  suite('HPC Lens PDES monitor', () => {
    let api: HpcLensApi;
    let truth: RossRunTruth;
    let dir: string;
    let source: vscode.Uri;
    const config = () => vscode.workspace.getConfiguration('hpcLens');

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-itest-'));
      // hpcLens.pdes.handlers maps the run's LP type to the model source Show puts the CodeLenses on.
      mkdirSync(join(dir, 'model'));
      writeFileSync(join(dir, 'model', 'synthetic.c'), MODEL_SOURCE);
      source = vscode.Uri.file(join(dir, 'model', 'synthetic.c'));
      await config().update('sourceSearchRoots', [join(dir, 'model')], vscode.ConfigurationTarget.Global);
      await config().update(
        'pdes.handlers',
        { 'synthetic-ross': { file: '**/synthetic.c', forward: 'synthetic_event', reverse: 'synthetic_event_rc' } },
        vscode.ConfigurationTarget.Global,
      );
      truth = generateRossRun(join(dir, 'run'), MONITOR_TEST_RUN);
    });

    suiteTeardown(async () => {
      await config().update('sourceSearchRoots', undefined, vscode.ConfigurationTarget.Global);
      await config().update('pdes.handlers', undefined, vscode.ConfigurationTarget.Global);
    });

    test('a replay draws every tick, both behaviour views, the scatter and the live matrix, and ends at the file’s totals', async () => {
      const ended = api.pdesMonitor.nextMessage('monitor/ended');
      let error = '';
      void api.pdesMonitor.nextMessage('error').then(m => (error = m.message));
      const ok = await vscode.commands.executeCommand<boolean>('hpcLens.monitorPdesRun', {
        kind: 'replay',
        path: truth.files.gvt,
        speed: Infinity,
      });
      assert.equal(ok, true, error);
      await ended;
      const drawn = await until('the view drew the end of the run', async () => {
        const d = await api.pdesMonitor.drawn();
        return d && d.state === 'ended' && d.eventsProcessed === truth.totals.events && d.behaviourLines[0]! > 0
          ? d
          : undefined;
      });
      assert.equal(drawn.rollbacks, truth.totals.rollbacks);
      assert.ok(drawn.ticks >= 40, `${drawn.ticks} ticks in the summary views`);
      assert.equal(drawn.behaviourLines.length, 2, 'two behaviour views');
      assert.ok(drawn.scatterPoints > 0, 'the similarity scatter has points');
      assert.ok(drawn.matrixCells > 0, 'the live matrix has cells (the event trace is beside the stats file)');
      // The harness screenshots the workbench now when asked (--screenshot DIR).
      console.log('HPC_LENS_SCREENSHOT pdes-monitor');
      await new Promise(r => setTimeout(r, 1500));
    });

    test('a lasso on the scatter highlights the entities inside it', async () => {
      const box = (await api.pdesMonitor.agent.query('.monitor-scatter svg'))[0]!.box!;
      const selection = api.pdesMonitor.nextMessage('monitor/selection');
      const w = box.width,
        h = box.height;
      await api.pdesMonitor.agent.pointer('.monitor-scatter svg', [
        { type: 'pointerdown', x: 1, y: 1 },
        { type: 'pointermove', x: w - 1, y: 1 },
        { type: 'pointermove', x: w - 1, y: h - 1 },
        { type: 'pointermove', x: 1, y: h - 1 },
        { type: 'pointerup', x: 1, y: h - 1 },
      ]);
      const m = await selection;
      const drawn = await until('the selection is drawn', async () => {
        const d = await api.pdesMonitor.drawn();
        return d && d.selected === m.entities.length ? d : undefined;
      });
      assert.equal(drawn.selected, drawn.scatterPoints, 'a lasso around the whole scatter takes every point');
    });

    test('a causality row sets the bottom metric; a summary click sets the base time; a PE cell drills into its KPs', async () => {
      const agent = api.pdesMonitor.agent;
      const rows = await agent.query('.monitor-causality tbody tr');
      assert.ok(rows.length > 0, 'the causality table has rows');
      const metric = rows.at(-1)!.data['metric']!;
      await agent.click(`.monitor-causality tbody tr[data-metric="${metric}"]`);
      await until('the bottom view shows the row’s metric', async () => {
        const views = await agent.query('.monitor-behaviour[data-metric]');
        return views[1]?.data['metric'] === metric;
      });
      const summary = (await agent.query('.monitor-summary svg'))[0]!.box!;
      await agent.pointer('.monitor-summary svg', [{ type: 'click', x: Math.round(summary.width / 10), y: 10 }]);
      const diffs = await until('the diff matrices', async () => {
        const d = await agent.query('.monitor-diffs[data-diffs]');
        return d[0] ? Number(d[0].data['diffs']) : undefined;
      }).catch(() => 0);
      const drawn = await agent.query('.monitor-summary[data-base-tick]');
      assert.notEqual(drawn[0]!.data['base-tick'], '', 'a base tick is set');
      assert.equal(diffs, (await agent.query('.monitor-diff')).length);
      console.log('HPC_LENS_SCREENSHOT pdes-monitor-base-time');
      await new Promise(r => setTimeout(r, 1500));
      await agent.click('.monitor-matrix .monitor-cell', { detail: 2 });
      await until('the drill-down', async () => {
        const m = await agent.query('.monitor-matrix[data-drill]');
        return m[0]?.data['drill'] && m[0].data['level'] === 'kp' ? m : undefined;
      });
    });

    test('Show on a change point puts its entities’ CodeLenses on the model’s handlers; a later Show moves them; they go with the monitor', async () => {
      const agent = api.pdesMonitor.agent;
      const marks = await agent.query('.monitor-summary .monitor-change-point[data-change-point]');
      const numbers = [...new Set(marks.map(m => Number(m.data['change-point'])))].sort((a, b) => a - b);
      assert.ok(numbers.length >= 2, `change points ${numbers.join(', ')}`);
      const show = async (n: number) => {
        const selection = api.pdesMonitor.nextMessage('monitor/selection');
        await agent.click(`.monitor-summary .monitor-change-point[data-change-point="${n}"]`);
        const m = await selection;
        assert.equal(m.changePoint, n);
        const a = api.pdesMonitor.handlerActivity!;
        assert.equal(a?.changePoint, n, 'the active dataset is the monitored run, following this change point');
        assert.deepEqual(a.entities, m.entities, 'the CodeLenses count the entities the views highlight');
        await vscode.window.showTextDocument(source);
        const lenses = await until(`the CodeLenses of change point ${n}`, async () => {
          const l = await lensTitles(source);
          return l.some(x => x.line === FORWARD_LINE && x.title.includes(`change point ${n},`)) ? l : undefined;
        });
        const [row] = a.rows;
        assert.equal(row?.lpType, 'synthetic-ross');
        const scope = `${row!.lps} synthetic-ross LPs · ${a.selected} of 32 KPs · change point ${n}, ticks ${a.from}–${a.to - 1}`;
        const forward = lenses.find(l => l.line === FORWARD_LINE)!.title;
        assert.match(forward, /events processed · ≈[\d.,k]+ rolled back \(/);
        assert.ok(forward.endsWith(scope), forward);
        const reverse = lenses.find(l => l.line === REVERSE_LINE)!.title;
        assert.match(reverse, /rolled back · [\d.]+% of [\d.,k]+ processed/);
        assert.ok(reverse.endsWith(scope), reverse);
        const drawn = await until('the view states the selection', async () => {
          const d = await api.pdesMonitor.drawn();
          return d?.selection.changePoint === n ? d : undefined;
        });
        assert.deepEqual(drawn.selection.entities, m.entities);
        assert.equal(drawn.selected, a.selected);
        assert.match(
          drawn.selection.editor,
          /^CodeLens on synthetic_event, synthetic_event_rc in synthetic-gvt\.bin \(live\)$/,
        );
        return a;
      };
      const first = await show(numbers[0]!);
      assert.equal(api.datasets.entries().find(e => e.active)?.label, 'synthetic-gvt.bin (live)');
      console.log('HPC_LENS_SCREENSHOT pdes-monitor-show');
      await new Promise(r => setTimeout(r, 1500));
      const later = await show(numbers.at(-1)!);
      assert.ok(later.from > first.from, 'a later change point counts a later segment');
      // Closing the monitor takes its run, and the CodeLenses, away.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await until('the CodeLenses go with the monitor', async () => (await lensTitles(source)).length === 0);
      assert.ok(!api.datasets.entries().some(e => e.label.endsWith('(live)')));
    });

    test('tailing a growing file shows ticks as they are written, and ends when it stops growing', async () => {
      const grow = join(dir, 'grow');
      const run = generateRossRun(grow, { seed: 4, pes: 4, kpsPerPe: 4, ticks: 30, eventsPerKp: 6, surge: null });
      const bytes = readFileSync(run.files.gvt);
      const path = join(grow, 'live-gvt.bin');
      writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const ended = api.pdesMonitor.nextMessage('monitor/ended');
      let failure = '';
      void api.pdesMonitor.nextMessage('monitor/failed').then(m => (failure = m.message));
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.monitorPdesRun', {
          kind: 'file',
          path,
          tracePath: null,
          pollMs: 50,
          idleMs: 2000,
        }),
        true,
      );
      let last: unknown;
      const partway = await until('ticks of the first half', async () => {
        const d = await api.pdesMonitor.drawn();
        last = d;
        return d && d.state === 'live' && d.ticks > 0 ? d : undefined;
      }).catch(e => {
        throw new Error(`${(e as Error).message}: drew ${JSON.stringify(last)}; ${failure}`);
      });
      assert.ok(partway.eventsProcessed < run.totals.events, 'only the first half is in');
      appendFileSync(path, bytes.subarray(Math.floor(bytes.length / 2)));
      const end = await ended;
      assert.match(end.reason, /did not grow/, failure);
      const drawn = await until('the whole run', async () => {
        const d = await api.pdesMonitor.drawn();
        return d && d.eventsProcessed === run.totals.events ? d : undefined;
      });
      assert.equal(drawn.rollbacks, run.totals.rollbacks);
    });

    test('a file that is not a ROSS stats file stops the monitor with a message naming it', async () => {
      const bad = join(dir, 'garbage-gvt.bin');
      writeFileSync(bad, Buffer.alloc(4096, 0xff));
      const failed = api.pdesMonitor.nextMessage('monitor/failed');
      await vscode.commands.executeCommand('hpcLens.monitorPdesRun', { kind: 'replay', path: bad, speed: Infinity });
      const m = await failed;
      assert.ok(m.message.includes(bad), m.message);
      const drawn = await until('the failure is shown', async () => {
        const d = await api.pdesMonitor.drawn();
        return d && d.state === 'failed' ? d : undefined;
      });
      assert.equal(drawn.ticks, 0);
    });
  });
}
