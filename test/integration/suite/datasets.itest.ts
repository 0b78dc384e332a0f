import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { contextNoun } from '../../../src/analysis/model/context';
import { findFunctionDefinition } from '../../../src/analysis/source/function-definitions';
import { formatBytes, formatCount } from '../../../src/analysis/stats/format';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, expectedHeatLines, until, workspaceRoot } from './itest-support';

const profileUri = (name: string) => vscode.Uri.joinPath(workspaceRoot(), 'profiles', name);
const SAMPLING = 'heat-stencil-sampling-4ranks.json';
const CALLGRIND = 'callgrind.out.heat-stencil-4ranks';
const stencil = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c');

/** The Datasets row description, computed from the file and the model, not from the extension. */
async function expectedDescription(file: string): Promise<string> {
  const p = await readProfile(file);
  return `${p.format} · ${formatBytes(statSync(file).size)} · ${p.contextCount} ${contextNoun(p.contexts)} · ${formatCount(p.tree.size)} nodes`;
}

/** The CodeLens title above jacobi_sweep in stencil.c. */
async function sweepLens(doc: vscode.TextDocument): Promise<string | undefined> {
  const line = findFunctionDefinition(doc.getText(), 'jacobi_sweep');
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
  return lenses.find(l => l.range.start.line === line)?.command?.title;
}

async function activateApi(): Promise<HpcLensApi> {
  const api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
  await api.startup;
  return api;
}

export function registerDatasetSuites(): void {
  suite('HPC Lens Datasets view', () => {
    let api: HpcLensApi;
    suiteSetup(async () => {
      api = await activateApi();
    });

    test('two profiles are listed with format, size, ranks and nodes; the active one drives the heat', async () => {
      await vscode.commands.executeCommand('hpcLens.closeAllDatasets');
      assert.deepEqual(api.datasets.entries(), []);
      assert.equal(api.active === undefined, true, 'nothing active');
      const doc = await vscode.workspace.openTextDocument(stencil());
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);

      for (const name of [SAMPLING, CALLGRIND]) {
        assert.equal(
          await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri(name)),
          true,
          `opened ${name} (last error: ${api.lastError})`,
        );
      }
      const entries = api.datasets.entries();
      assert.deepEqual(
        entries.map(e => e.label),
        [SAMPLING, CALLGRIND],
      );
      assert.deepEqual(
        entries.map(e => e.description),
        [
          await expectedDescription(profileUri(SAMPLING).fsPath),
          await expectedDescription(profileUri(CALLGRIND).fsPath),
        ],
      );
      assert.deepEqual(
        entries.map(e => e.kind),
        ['profile', 'profile'],
      );
      assert.deepEqual(
        entries.map(e => e.active),
        [false, true],
        'the last opened is active',
      );
      assert.ok(
        entries[1]!.tooltip.includes(profileUri(CALLGRIND).fsPath) && entries[1]!.tooltip.includes('Metrics:'),
        entries[1]!.tooltip,
      );
      assert.equal(api.active?.name, CALLGRIND);

      const callgrindHeat = await expectedHeatLines(profileUri(CALLGRIND).fsPath, '/src/stencil.c');
      const samplingHeat = await expectedHeatLines(profileUri(SAMPLING).fsPath, '/src/stencil.c');
      await until(`${callgrindHeat} callgrind heat lines`, () => api.heatLines(doc.uri).length === callgrindHeat);
      // Both profiles heat the same lines of stencil.c; the CodeLens tells which one is active.
      const callgrindLens = await until('a callgrind CodeLens on jacobi_sweep', () => sweepLens(doc));
      assert.doesNotMatch(callgrindLens, /inclusive \([\d.]+ m?s\)/, 'instructions, not a time');

      // The status bar names the active dataset and lists both in its tooltip.
      const bar = api.datasets.statusBar();
      assert.match(bar.text, new RegExp(`${CALLGRIND.replace(/\./g, '\\.')} · .* \\(\\+1\\)$`));
      assert.ok(bar.tooltip.includes(`- **${CALLGRIND}** · Ir (active)`), bar.tooltip);
      assert.ok(bar.tooltip.includes(`- ${SAMPLING} · `), bar.tooltip);

      await vscode.commands.executeCommand('hpcLens.datasets.focus');
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT datasets');
      await new Promise(r => setTimeout(r, 1500));

      // A click on the other row runs Activate with that dataset.
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.activateDataset', 0), true);
      assert.equal(api.active?.name, SAMPLING);
      assert.deepEqual(
        api.datasets.entries().map(e => e.active),
        [true, false],
      );
      // Right after the switch, not eventually: the lens must never show the previous dataset's text.
      const samplingLens = await sweepLens(doc);
      assert.ok(
        samplingLens && samplingLens !== callgrindLens,
        `the jacobi_sweep CodeLens follows the switch at once: ${samplingLens}`,
      );
      assert.match(samplingLens, /inclusive \([\d.]+ m?s\)/, 'a time, not instructions');
      await until(`${samplingHeat} sampling heat lines`, () => api.heatLines(doc.uri).length === samplingHeat);
    });

    test('each dataset keeps its own metric; reopening a loaded file activates it instead of loading it twice', async () => {
      assert.equal(api.active?.name, SAMPLING);
      assert.equal(await api.datasets.setMetric('count'), true);
      assert.equal(api.active?.metric, 'count');
      const countLens = await sweepLens(await vscode.workspace.openTextDocument(stencil()));
      await api.datasets.activate(1);
      assert.equal(api.active?.name, CALLGRIND);
      assert.equal(api.active?.metric, 'Ir');
      const irLens = await sweepLens(await vscode.workspace.openTextDocument(stencil()));
      assert.ok(
        irLens && irLens !== countLens && !/inclusive \([\d.]+ m?s\)/.test(irLens),
        `the CodeLens shows the activated dataset's Ir at once: ${irLens}`,
      );
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri(SAMPLING)), true);
      assert.equal(api.datasets.entries().length, 2, 'no duplicate');
      assert.equal(api.active?.name, SAMPLING);
      assert.equal(api.active?.metric, 'count', 'its metric came back with it');
      assert.equal(await api.datasets.setMetric('time'), true);
    });

    test('closing a dataset shrinks the list; closing the active one returns to the previous; Close All empties it', async () => {
      const doc = await vscode.workspace.openTextDocument(stencil());
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.closeDataset', 0), true);
      assert.deepEqual(
        api.datasets.entries().map(e => [e.label, e.active]),
        [[CALLGRIND, true]],
      );
      assert.equal(api.active?.name, CALLGRIND);
      await until(
        'callgrind heat again',
        async () =>
          api.heatLines(doc.uri).length === (await expectedHeatLines(profileUri(CALLGRIND).fsPath, '/src/stencil.c')),
      );
      await vscode.commands.executeCommand('hpcLens.closeAllDatasets');
      assert.deepEqual(api.datasets.entries(), []);
      assert.equal(api.active === undefined, true, 'nothing active');
      await until('no heat without a dataset', () => api.heatLines(doc.uri).length === 0);
      // Later suites expect the demo profile.
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri(SAMPLING)), true);
    });
  });
}

/**
 * Files of the reload test live outside the workspace and survive the window reload: beside the
 * harness's phase file (one folder per harness run, so runs in parallel do not share them).
 */
const phaseFile = process.env.HPC_LENS_ITEST_PHASE_FILE;
const reloadDir = phaseFile
  ? join(dirname(phaseFile), 'reload-itest')
  : join(tmpdir(), `hpc-lens-reload-itest-${process.pid}`);

/**
 * Phase 1 leaves three datasets (one a diff, one with a non-default metric, the last one not active)
 * plus one whose file is then deleted; phase 2, after the harness reloads the window, checks that
 * the three came back in order with the active one and every metric, and the vanished one was
 * reported and dropped.
 */
export function registerReloadSuites(phase: 1 | 2): void {
  suite(`HPC Lens restores its datasets after a window reload (phase ${phase})`, () => {
    let api: HpcLensApi;
    suiteSetup(async () => {
      api = await activateApi();
    });

    if (phase === 1) {
      test('leaves datasets, a diff, a metric and an active one to restore', async () => {
        rmSync(reloadDir, { recursive: true, force: true });
        mkdirSync(reloadDir, { recursive: true });
        const copy = join(reloadDir, 'rerun.json');
        const vanishing = join(reloadDir, 'vanishing.json');
        copyFileSync(profileUri(SAMPLING).fsPath, copy);
        copyFileSync(profileUri(SAMPLING).fsPath, vanishing);
        await vscode.commands.executeCommand('hpcLens.closeAllDatasets');
        assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri(SAMPLING)), true);
        assert.equal(await api.datasets.setMetric('count'), true);
        assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri(CALLGRIND)), true);
        assert.equal(
          await vscode.commands.executeCommand<boolean>(
            'hpcLens.compareProfiles',
            profileUri(SAMPLING),
            vscode.Uri.file(copy),
          ),
          true,
        );
        assert.equal(api.active?.metric, 'time', "a diff starts on the baseline run's default metric");
        assert.equal(await api.datasets.setMetric('count'), true);
        assert.equal(
          await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(vanishing)),
          true,
        );
        await api.datasets.activate(1);
        assert.deepEqual(
          api.datasets.entries().map(e => [e.label, e.metric, e.active]),
          [
            [SAMPLING, 'count', false],
            [CALLGRIND, 'Ir', true],
            [`Δ ${SAMPLING} → rerun.json`, 'count', false],
            ['vanishing.json', 'time', false],
          ],
        );
        rmSync(vanishing);
        await vscode.commands.executeCommand('hpcLens.datasets.focus');
        await new Promise(r => setTimeout(r, 1000));
        console.log('HPC_LENS_SCREENSHOT before-reload');
        await new Promise(r => setTimeout(r, 1500));
      });
    } else {
      test('the datasets come back in order with the active one and their metrics; the vanished file is reported once', async () => {
        const report = await api.datasets.restored;
        assert.equal(report.missing.length, 1, JSON.stringify(report));
        assert.equal(basename(report.missing[0]!), 'vanishing.json');
        assert.deepEqual(report.failed, []);
        assert.deepEqual(
          api.datasets.entries().map(e => [e.label, e.metric, e.active]),
          [
            [SAMPLING, 'count', false],
            [CALLGRIND, 'Ir', true],
            [`Δ ${SAMPLING} → rerun.json`, 'count', false],
          ],
          'openOnStartup did not open the sample a second time',
        );
        assert.equal(api.active?.name, CALLGRIND);
        const doc = await vscode.workspace.openTextDocument(stencil());
        await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
        const heat = await expectedHeatLines(profileUri(CALLGRIND).fsPath, '/src/stencil.c');
        await until("the restored active dataset's heat", () => api.heatLines(doc.uri).length === heat);
        await vscode.commands.executeCommand('hpcLens.datasets.focus');
        await new Promise(r => setTimeout(r, 1500));
        console.log('HPC_LENS_SCREENSHOT after-reload');
        await new Promise(r => setTimeout(r, 1500));
        await api.datasets.activate(0);
        assert.equal(api.active?.metric, 'count');
        if (existsSync(reloadDir)) rmSync(reloadDir, { recursive: true, force: true });
      });
    }
  });
}
