import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DRAGONFLY_DALLY_MODEL_SOURCE } from '../../../src/analysis/pdes/testing/dragonfly-model-source';
import { generateRossRun } from '../../../src/analysis/pdes/testing/ross-generator';
import { MARGIN } from '../../../webview-ui/src/views/pdes/pdes-geometry';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until } from './itest-support';
import { topologyDrawn } from '../../../src/shared/test-facts';
import { lensTitles } from './ensemble.itest';

/**
 * The PDES system in the editor (issue 19): a generated ROSS/CODES run folder opens as a PDES
 * dataset, Show PDES Analysis draws every view, the handler CodeLenses follow the panel's selection
 * (a right-click cluster filter, a stroke), a CodeLens click opens the other handler, and a setting
 * re-analyses the run.
 */
export function registerPdesSuites(): void {
  suite('HPC Lens PDES analysis (ROSS/CODES)', () => {
    let api: HpcLensApi;
    let dir: string;
    let runDir: string;
    let source: vscode.Uri;
    const config = () => vscode.workspace.getConfiguration('hpcLens');

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-'));
      runDir = join(dir, 'run');
      mkdirSync(runDir);
      generateRossRun(runDir, {
        seed: 11,
        pes: 4,
        kpsPerPe: 4,
        ticks: 40,
        eventsPerKp: 6,
        dragonfly: { groups: 5, routersPerGroup: 4, terminalsPerRouter: 1, globalChannelsPerRouter: 1 },
      });
      const model = join(dir, 'src', 'codes', 'src', 'networks', 'model-net');
      mkdirSync(model, { recursive: true });
      writeFileSync(join(model, 'dragonfly-dally.C'), DRAGONFLY_DALLY_MODEL_SOURCE);
      source = vscode.Uri.file(join(model, 'dragonfly-dally.C'));
      await config().update('sourceSearchRoots', [join(dir, 'src')], vscode.ConfigurationTarget.Global);
    });

    suiteTeardown(async () => {
      await config().update('sourceSearchRoots', undefined, vscode.ConfigurationTarget.Global);
      await config().update('pdes.clusters', undefined, vscode.ConfigurationTarget.Global);
      for (let i = api.datasets.entries().length - 1; i >= 0; i--)
        if (api.datasets.entries()[i]!.kind === 'pdes') await api.datasets.close(i);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(dir, { recursive: true, force: true });
    });

    test('Open Profile… on a ROSS/CODES folder opens a PDES run, listed with its PEs, KPs and LPs', async () => {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(runDir)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(api.active?.kind, 'pdes');
      assert.equal(api.active?.format, 'ross-codes');
      assert.equal(api.active?.contexts, 4, 'one context per PE');
      const entry = api.datasets.entries().find(e => e.active)!;
      assert.match(entry.description, /4 PEs · 16 KPs · [\d.k]+ LPs · [\d.k]+ events/);
      assert.match(entry.tooltip, /events processed · [\d.k]+ rollbacks/);
    });

    test('the handler CodeLenses count all entities until the panel selects some', async () => {
      await vscode.window.showTextDocument(source);
      const lenses = await until('handler CodeLenses', async () => {
        const l = await lensTitles(source);
        return l.length >= 4 && l;
      });
      const forward = lenses.find(l => l.line === 2)!;
      assert.match(forward.title, /events processed .*all 16 KPs/);
      const reverse = lenses.find(l => l.line === 7)!;
      assert.match(reverse.title, /rolled back|rollback/);
    });

    test('Show PDES Analysis draws the overview, detail, similarity and circular views, matrix and handlers', async () => {
      const drawn = vscode.commands.executeCommand('hpcLens.showPdesAnalysis');
      await drawn;
      assert.equal(api.pdes.isOpen, true);
      const d = await until(
        'the PDES views',
        async () => {
          const r = await api.pdes.drawn().catch(() => undefined);
          return r && r.details.length === 2 && r;
        },
        60000,
      );
      assert.equal(d.level, 'kp');
      assert.equal(d.total, 16);
      assert.deepEqual(
        d.details.map(v => v.lines),
        [16, 16],
      );
      assert.deepEqual(
        d.similarity.map(v => v.points),
        [16, 16],
      );
      assert.equal(d.circular.length, d.segments.length);
      assert.ok(d.circular.every(c => c.items === 16));
      assert.equal(d.matrix?.rows, 16);
      assert.equal(d.topologyAvailable, true, 'the dragonfly is drawn');
      const [network] = await topologyDrawn(q => api.pdes.agent.query(q));
      assert.equal(network?.layout, 'dragonfly');
      assert.ok((network?.nodes ?? 0) >= 5 + 20, 'its 5 groups and 20 routers');
      assert.ok(d.handlerRows >= 2);
      assert.equal(d.overview?.points, 40);
    });

    test('the right-click cluster filter selects one cluster everywhere, and the CodeLenses follow', async () => {
      const agent = api.pdes.agent;
      const before = await api.pdes.drawn();
      const size0 = before!.clusterSizes[0]!;
      await agent.click('.pdes-legend-entry[data-cluster="0"]', { button: 'right' });
      await until('the cluster menu', async () => (await agent.query('.pdes-menu [data-menu="only"]')).length === 1);
      const lensesChanged = api.pdes.nextLenses();
      await agent.click('[data-menu="only"]');
      await until('the host to get the cluster filter', () => api.pdes.current.state?.selection.clusters?.[0] === 0);
      const d = await until('the cluster filter', async () => {
        const r = await api.pdes.drawn();
        return r && r.selected === size0 && r;
      });
      assert.deepEqual(
        d.details.map(v => v.lines),
        [size0, size0],
      );
      assert.ok(d.circular.every(c => c.items === size0));
      await lensesChanged;
      assert.equal(api.pdes.handlerActivity?.selected, size0);
      const forward = (await lensTitles(source)).find(l => l.line === 2)!;
      assert.match(forward.title, new RegExp(`${size0} of 16 KPs`));
      await agent.click('[data-action="clear-selection"]');
      await until('the cleared selection', async () => (await api.pdes.drawn())?.selected === 16);
    });

    test('a stroke across the top detail view picks the lines it crosses; the bottom view shows only them', async () => {
      const views = api.pdes.current.views!;
      const line = views.details[0];
      const [svg] = await api.pdes.agent.query('svg.pdes-detail');
      const { width, height } = svg!.box;
      // A vertical stroke at a middle sample from above every line down to the lines' median there.
      const mid = Math.floor(line.lines[0]!.points.length / 4) * 2;
      const t = line.lines[0]!.points[mid]!;
      const at = line.lines.map(l => l.points[mid + 1]!).sort((a, b) => a - b);
      const median = at[Math.floor(at.length / 2)]!;
      const x0 = line.segments[0]!.x0,
        x1 = line.segments[line.segments.length - 1]!.x1;
      const px = MARGIN.left + ((t - x0) / (x1 - x0)) * (width - MARGIN.left - MARGIN.right);
      const [y0, y1] = line.yDomain;
      const py = (v: number) => height - MARGIN.bottom - ((v - y0) / (y1 - y0)) * (height - MARGIN.top - MARGIN.bottom);
      const top = MARGIN.top + 1,
        bottom = py(median) - 1;
      const steps = [
        { type: 'pointerdown' as const, x: px, y: top },
        ...Array.from({ length: 6 }, (_, k) => ({
          type: 'pointermove' as const,
          x: px,
          y: top + ((k + 1) * (bottom - top)) / 6,
        })),
        { type: 'pointerup' as const, x: px, y: bottom },
      ];
      await api.pdes.agent.pointer('svg.pdes-detail', steps);
      const d = await until('the stroke selection', async () => {
        const r = await api.pdes.drawn();
        return r && r.selected < 16 && r;
      });
      assert.ok(d.selected > 0);
      assert.equal(d.details[1]!.lines, d.selected, 'the linked view shows only the picked lines');
      assert.equal(d.similarity[1]!.points, d.selected);
      await api.pdes.agent.click('[data-action="clear-selection"]');
      await until('the cleared selection', async () => (await api.pdes.drawn())?.selected === 16);
    });

    test('a CodeLens click opens the other handler (forward → reverse)', async () => {
      await vscode.window.showTextDocument(source);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', source);
      const forward = lenses.find(l => l.range.start.line === 2)!;
      assert.equal(forward.command?.command, 'hpcLens.pdes.openHandler');
      await vscode.commands.executeCommand(forward.command!.command, ...(forward.command!.arguments ?? []));
      const editor = await until('the reverse handler', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.fsPath === source.fsPath && e.selection.active.line === 7 && e;
      });
      assert.equal(editor.selection.active.line, 7);
    });

    test('a setting re-analyses the run: hpcLens.pdes.clusters', async () => {
      await config().update('pdes.clusters', 2, vscode.ConfigurationTarget.Global);
      const d = await until(
        'two clusters',
        async () => {
          const r = await api.pdes.drawn();
          return r && r.clusterSizes.length === 2 && r;
        },
        60000,
      );
      assert.equal(
        d.clusterSizes.reduce((a, b) => a + b, 0),
        16,
      );
      await config().update('pdes.clusters', undefined, vscode.ConfigurationTarget.Global);
    });

    test('closing the run empties the panel, and Show PDES Analysis then explains itself', async () => {
      for (let i = api.datasets.entries().length - 1; i >= 0; i--)
        if (api.datasets.entries()[i]!.kind === 'pdes') await api.datasets.close(i);
      const message = await until('the panel to notice', () => api.pdes.current.unavailable);
      assert.match(message, /PDES run was closed/);
      assert.equal(await vscode.commands.executeCommand('hpcLens.showPdesAnalysis'), false);
    });
  });
}
