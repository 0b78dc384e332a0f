import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { summarizeRuns } from '../../../src/analysis/ensemble/summary-store';
import { writeSyntheticEnsemble } from '../../../src/analysis/ensemble/testing/synthetic-ensemble';
import { readProfile } from '../../../src/analysis/formats';
import { topFunctions } from '../../../src/analysis/stats/top-lists';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, writeScaledRuns } from './itest-support';

export async function lensTitles(uri: vscode.Uri): Promise<{ line: number; title: string }[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
  return lenses.map(l => ({ line: l.range.start.line, title: l.command?.title ?? '' }));
}

export async function hoverText(uri: vscode.Uri, line0: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line0, 4),
  );
  return hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
}

export function registerEnsembleSuites(): void {
  suite('HPC Lens ensembles (Open Folder as Ensemble…)', () => {
    let api: HpcLensApi;
    let dir: string;
    let workspace: vscode.Uri;

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      workspace = vscode.workspace.workspaceFolders![0]!.uri;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ensemble-'));
    });

    suiteTeardown(async () => {
      for (let i = api.datasets.entries().length - 1; i >= 0; i--)
        if (api.datasets.entries()[i]!.kind === 'ensemble') await api.datasets.close(i);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(dir, { recursive: true, force: true });
    });

    test('a folder of runs with a corrupt file opens as an ensemble of the readable runs, the error listed', async () => {
      const folder = join(dir, 'synthetic');
      writeSyntheticEnsemble(folder, { runs: 3, nodes: 200, seed: 11 });
      writeFileSync(join(folder, 'broken.json'), '{"data":[[1,2,0],[3,');
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const entry = api.datasets.entries().find(e => e.active)!;
      assert.equal(entry.kind, 'ensemble');
      assert.match(entry.description, /^3 runs · caliper[\w-]* · [\d.,k]+ union nodes · 1 unreadable$/);
      assert.match(entry.tooltip, /gcc10\\_1048576\/8\\_ranks\\_1 · caliper[\w-]* · 8 ranks · .*ranks=8/);
      assert.match(entry.tooltip, /broken\.json: .*not valid JSON/);
      assert.equal(api.active?.contexts, 3);
      assert.equal(api.active?.format, 'ensemble');
    });

    test('a folder holding only run summaries (copied off a cluster) opens as the ensemble of its runs', async () => {
      const runs = join(dir, 'cluster-runs'),
        summaries = join(dir, 'cluster-summaries');
      writeSyntheticEnsemble(runs, { runs: 4, nodes: 300, seed: 5 });
      const report = await summarizeRuns([runs], { out: summaries });
      assert.equal(report.runs.filter(r => r.outcome === 'written').length, 4);
      rmSync(runs, { recursive: true, force: true });
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(summaries)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const entry = api.datasets.entries().find(e => e.active)!;
      assert.equal(entry.kind, 'ensemble');
      assert.match(entry.description, /^4 runs · caliper[\w-]* · [\d.,k]+ union nodes$/);
      // Named and parametrised from the profiles' paths recorded in the summaries, as when opened from the profiles.
      assert.match(entry.tooltip, /- 8\\_ranks\\_1 · caliper[\w-]* · 8 ranks · ranks=8, param1=1/);
      assert.equal(api.active?.contexts, 4);
    });

    test('fewer than 2 readable runs is a clear error and leaves the datasets as they were', async () => {
      const folder = join(dir, 'lonely');
      mkdirSync(folder);
      writeScaledRuns(folder, vscode.Uri.joinPath(workspace, 'profiles', 'heat-stencil-sampling-4ranks.json').fsPath, {
        solo: 1,
      });
      const before = api.datasets.entries().length;
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        false,
      );
      assert.match(api.lastError ?? '', /at least 2 runs, only solo could be read/);
      assert.equal(api.datasets.entries().length, before);
    });

    test('CodeLens and hover show the run-to-run spread of a function on its source', async () => {
      const folder = join(dir, 'scaled');
      mkdirSync(folder);
      writeScaledRuns(folder, vscode.Uri.joinPath(workspace, 'profiles', 'heat-stencil-sampling-4ranks.json').fsPath, {
        run_a: 1,
        run_b: 1.5,
        run_c: 3,
      });
      // Opened from an Explorer multi-selection of the three files: one ensemble.
      const files = ['run_a', 'run_b', 'run_c'].map(n => vscode.Uri.file(join(folder, `${n}.json`)));
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', files[0], files),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const entry = api.datasets.entries().find(e => e.active)!;
      assert.match(entry.description, /^3 runs · /);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspace, 'src', 'stencil.c'));
      await vscode.window.showTextDocument(doc);
      const spread = /min (\S+ \S+) · median (\S+ \S+) · max (\S+ \S+) \(run run_c\) · CV (\d+)%/;
      const lens = await until('an ensemble CodeLens in stencil.c', async () =>
        (await lensTitles(doc.uri)).find(l => spread.test(l.title)),
      );
      assert.match(lens.title, /^\$\(flame\) [\d.]+% inclusive · [\d.]+% exclusive · /);
      // Values 1 : 1.5 : 3 → CV = std/mean of those ratios, whatever the function.
      const ratios = [1, 1.5, 3],
        mean = ratios.reduce((a, b) => a + b) / 3;
      const cv = Math.sqrt(ratios.reduce((a, r) => a + (r - mean) ** 2, 0) / 2) / mean;
      const cvSample = Math.sqrt(ratios.reduce((a, r) => a + (r - mean) ** 2, 0) / 3) / mean;
      const shown = Number(spread.exec(lens.title)![4]);
      assert.ok(
        [cv, cvSample].some(c => Math.abs(shown - Math.round(c * 100)) <= 1),
        `CV ${shown}% in ${lens.title}`,
      );
      const hover = await hoverText(doc.uri, lens.line);
      assert.match(hover, /across 3 of 3 runs/);
      assert.match(hover, /slowest `run_c`.* · fastest `run_a`/);
      assert.match(hover, /data:image\/svg\+xml;base64,/);
      console.log('HPC_LENS_SCREENSHOT ensemble-codelens');
    });

    test('the side-bar lists work on the ensemble unchanged; Show CallFlow opens Ensemble CallFlow', async () => {
      // Still the scaled ensemble: runs are the sample × 1, 1.5, 3, so its rankings are the sample's.
      const sample = await readProfile(
        vscode.Uri.joinPath(workspace, 'profiles', 'heat-stencil-sampling-4ranks.json').fsPath,
      );
      const top = topFunctions(sample, sample.primaryMetric, { limit: 1 })[0]!.name;
      await until(
        'the Top Functions view of the ensemble',
        () => api.viewEntries('hpcLens.topFunctions')[0]?.label === top,
      );
      assert.match(api.viewEntries('hpcLens.hotPaths')[0]!.label, /\S/);
      await vscode.commands.executeCommand('hpcLens.showCallflow');
      const report = await until(
        'the ensemble-Sankey drawn',
        async () => {
          const d = await api.ensemble.drawn();
          return (d.counts['sankeyNodes'] ?? 0) > 0 && d;
        },
        30000,
      );
      assert.ok(report.counts['sankeyLinks']! > 0, JSON.stringify(report));
      assert.equal(api.ensemble.data?.runs.length, 3);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('the shared LULESH scaling study opens as 5 runs', async function () {
      const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
      const folder = resolve(
        process.env.HPC_LENS_SHARED_DIR ?? resolve(extensionPath, '..', 'shared'),
        'data',
        'caliper-cali',
        'lulesh-mpi-scaling-5runs',
      );
      if (!existsSync(folder)) this.skip();
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const entry = api.datasets.entries().find(e => e.active)!;
      assert.match(entry.description, /^5 runs · caliper[\w-]* · /);
      assert.match(entry.tooltip, /27\\_cores · caliper[\w-]* · 27 ranks/);
      assert.equal(api.active?.contexts, 5);
    });
  });
}
