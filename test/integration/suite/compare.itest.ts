import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { deltaDirection, diffProfiles, formatDelta } from '../../../src/analysis/graph/profile-diff';
import { findFunctionDefinition } from '../../../src/analysis/source/function-definitions';
import { formatValue } from '../../../src/analysis/stats/format';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, sampleProfile, slowerCopy, until, workspaceRoot } from './itest-support';

const stencil = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c');

async function lensTitles(doc: vscode.TextDocument): Promise<Map<number, string>> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
  return new Map(lenses.map(l => [l.range.start.line, l.command?.title ?? '']));
}

export function registerCompareSuites(): void {
  suite('HPC Lens Compare Two Profiles', () => {
    let api: HpcLensApi;
    let dir: string;

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-compare-'));
    });

    suiteTeardown(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    test('a slowed function shows its delta in the CodeLens and red lines; closing the diff restores the profile', async () => {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', sampleProfile()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const doc = await vscode.workspace.openTextDocument(stencil());
      const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      await vscode.commands.executeCommand('workbench.action.closeEditorsInOtherGroups');
      const normalHeat = await until(
        'normal heat on stencil.c',
        () => api.heatLines(doc.uri).length > 0 && api.heatLines(doc.uri).map(h => h.line),
      );
      const jacobi = findFunctionDefinition(doc.getText(), 'jacobi_sweep');
      const residual = findFunctionDefinition(doc.getText(), 'compute_residual');
      assert.ok(jacobi >= 0 && residual >= 0);
      const normalLens = (await lensTitles(doc)).get(jacobi);
      assert.ok(normalLens?.startsWith('$(flame)'), normalLens);

      const slower = slowerCopy(dir, 'jacobi_sweep', 1.5);
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.compareProfiles', sampleProfile(), slower),
        true,
        `compared (last error: ${api.lastError})`,
      );
      assert.equal(api.active?.name, `Δ heat-stencil-sampling-4ranks.json → ${slower.path.split('/').pop()}`);

      // The expected delta, straight from the analysis library.
      const diff = diffProfiles(await readProfile(sampleProfile().fsPath), await readProfile(slower.fsPath));
      const fmt = (v: number) => formatValue(v, diff.metric.unit);
      const j = diff.functions.find(f => f.name === 'jacobi_sweep')!;
      assert.ok(j.comparisonInclusive > j.baselineInclusive * 1.4);
      const titles = await until('diff CodeLens on jacobi_sweep', async () => {
        const t = await lensTitles(doc);
        return t.get(jacobi)?.includes('vs baseline') && t;
      });
      assert.equal(
        titles.get(jacobi),
        `$(arrow-up) ${formatDelta(j.baselineInclusive, j.comparisonInclusive, fmt)} vs baseline · ${fmt(j.baselineInclusive)} → ${fmt(j.comparisonInclusive)}`,
      );
      assert.match(titles.get(jacobi)!, /^\$\(arrow-up\) \+[\d.]+ m?s \(\+50%\) vs baseline · /);
      assert.equal(
        titles.get(residual),
        `$(dash) unchanged vs baseline · ${fmt(diff.functions.find(f => f.name === 'compute_residual')!.baselineInclusive)}`,
        'an unchanged function says so',
      );

      // Exactly the grown lines of jacobi_sweep are red; nothing is green; the heat gives way.
      const lines = [...diff.lines].filter(([f]) => f.endsWith('/src/stencil.c')).flatMap(([, ls]) => ls);
      const floor = 0.001 * Math.max(diff.baselineTotal, diff.comparisonTotal);
      const expected = lines
        .filter(l => deltaDirection(l.baselineExclusive, l.comparisonExclusive, floor) > 0)
        .map(l => l.line)
        .sort((a, b) => a - b);
      assert.ok(
        expected.length > 0 && expected.every(l => l - 1 > jacobi && l - 1 < residual),
        `regressions inside jacobi_sweep: ${expected.join(', ')}`,
      );
      const marks = await until(
        'regression marks',
        () => api.diffDecorations(doc.uri).regressions.length > 0 && api.diffDecorations(doc.uri),
      );
      assert.deepEqual(
        [...marks.regressions].sort((a, b) => a - b),
        expected,
      );
      assert.deepEqual(marks.improvements, []);
      assert.equal(api.heatLines(doc.uri).length, 0, 'no heat marks while the diff is active');

      editor.revealRange(
        new vscode.Range(Math.max(0, jacobi - 2), 0, Math.max(0, jacobi - 2), 0),
        vscode.TextEditorRevealType.AtTop,
      );
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT compare');
      await new Promise(r => setTimeout(r, 1500));

      // A faster copy the other way round: the same lines turn green.
      const faster = slowerCopy(dir, 'jacobi_sweep', 0.5);
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.compareProfiles', sampleProfile(), faster),
        true,
        `compared (last error: ${api.lastError})`,
      );
      const green = await until(
        'improvement marks',
        () => api.diffDecorations(doc.uri).improvements.length > 0 && api.diffDecorations(doc.uri),
      );
      assert.deepEqual(
        [...green.improvements].sort((a, b) => a - b),
        expected,
      );
      assert.deepEqual(green.regressions, []);
      assert.match((await lensTitles(doc)).get(jacobi)!, /^\$\(arrow-down\) −[\d.]+ m?s \(−50%\) vs baseline/);

      // Closing the diff brings back the profile it replaced, with its normal overlays.
      await vscode.commands.executeCommand('hpcLens.closeProfile');
      assert.equal(api.active?.name, 'heat-stencil-sampling-4ranks.json');
      await until('normal heat again', () => api.heatLines(doc.uri).length > 0);
      assert.deepEqual(
        api.heatLines(doc.uri).map(h => h.line),
        normalHeat,
      );
      assert.deepEqual(api.diffDecorations(doc.uri), { regressions: [], improvements: [] });
      assert.equal((await lensTitles(doc)).get(jacobi), normalLens);
    });

    test('a missing comparison file leaves the active profile in place and says why', async () => {
      const before = api.active?.name;
      assert.equal(
        await vscode.commands.executeCommand<boolean>(
          'hpcLens.compareProfiles',
          sampleProfile(),
          vscode.Uri.file(join(dir, 'missing.json')),
        ),
        false,
      );
      assert.ok(api.lastError, 'an error is reported');
      assert.equal(api.active?.name, before);
    });
  });
}
