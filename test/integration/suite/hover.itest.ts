import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { functionTotals, lineCosts } from '../../../src/analysis/model/aggregates';
import type { Profile } from '../../../src/analysis/model/profile';
import { findFunctionDefinition } from '../../../src/analysis/source/function-definitions';
import { callersCallees } from '../../../src/analysis/stats/callers-callees';
import { formatShare, formatValue } from '../../../src/analysis/stats/format';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, sampleProfile, until, workspaceRoot } from './itest-support';

const HEAT_LEVELS = 5;

const source = (name: string) => vscode.Uri.joinPath(workspaceRoot(), 'src', name);

/** The Markdown of every hover VS Code shows at the position. */
async function hoverText(uri: vscode.Uri, line0: number, character = 4): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line0, character),
  );
  return hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
}

/** The lines of `file` (a suffix of the recorded path) with their nodes and exclusive cost. */
function linesOf(profile: Profile, m: number, file: string) {
  for (const [f, lines] of lineCosts(profile, m)) if (f.endsWith(file)) return lines;
  assert.fail(`${file} has line costs in the profile`);
}

/** The table row of a metric in the hover: `| label | incl | share | excl | share |` (labels may be bold). */
function tableRow(md: string, label: string): string[] {
  const row = md.split('\n').find(l => l.startsWith('|') && l.split('|')[1]!.replace(/\*/g, '').trim() === label);
  assert.ok(row, `a table row for ${label} in:\n${md}`);
  return row
    .split('|')
    .slice(1, -1)
    .map(c => c.replace(/\*/g, '').trim());
}

const config = () => vscode.workspace.getConfiguration('hpcLens');

export function registerHoverSuites(): void {
  suite('HPC Lens hover and after-line heat text', () => {
    let api: HpcLensApi;
    let profile: Profile;
    let m: number;
    let total: number;

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', sampleProfile()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      profile = await readProfile(sampleProfile().fsPath);
      m = profile.primaryMetric;
      total = profile.total(m);
      await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(source('stencil.c')),
        vscode.ViewColumn.One,
      );
    });

    suiteTeardown(async () => {
      await config().update('heat.annotations', undefined, vscode.ConfigurationTarget.Global);
      await config().update('heat.scale', undefined, vscode.ConfigurationTarget.Global);
    });

    test('the hover on the hottest line of stencil.c shows every metric, the rank spread with a sparkline, and the callers', async () => {
      const hottest = [...linesOf(profile, m, '/src/stencil.c')].sort((a, b) => b.exclusive - a.exclusive)[0]!;
      const text = await hoverText(source('stencil.c'), hottest.line - 1);
      assert.match(text, new RegExp(`stencil\\.c:${hottest.line}\\*\\* in \`jacobi_sweep\``));
      // Every metric: inclusive and exclusive of the line's nodes, with their shares of the total.
      for (let k = 0; k < profile.metrics.length; k++) {
        const desc = profile.metrics[k]!;
        const incl = profile.inclusiveTotals(k),
          excl = profile.exclusiveTotals(k);
        const nodes = linesOf(profile, k, '/src/stencil.c').find(l => l.line === hottest.line)!.nodes;
        const i = nodes.reduce((s, n) => s + incl[n]!, 0),
          e = nodes.reduce((s, n) => s + excl[n]!, 0);
        const t = profile.total(k);
        assert.deepEqual(tableRow(text, desc.label), [
          desc.label,
          formatValue(i, desc.unit),
          formatShare(i / t),
          formatValue(e, desc.unit),
          formatShare(e / t),
        ]);
      }
      // The spread over the 4 ranks, with the rank holding the max.
      const C = profile.contextCount;
      const perRank = Array.from({ length: C }, (_, c) =>
        hottest.nodes.reduce((s, n) => s + profile.inclusive(m)[n * C + c]!, 0),
      );
      const max = Math.max(...perRank),
        mean = perRank.reduce((a, b) => a + b, 0) / C;
      const unit = profile.metrics[m]!.unit;
      assert.ok(text.includes(`across ${C} ranks`), text);
      assert.ok(
        text.includes(
          `min ${formatValue(Math.min(...perRank), unit)} · mean ${formatValue(mean, unit)} · max ${formatValue(max, unit)} on ${profile.contexts[perRank.indexOf(max)]!.label} · imbalance ${(max / mean).toFixed(2)}×`,
        ),
        text,
      );
      // The sorted-bar sparkline, inline as an SVG image with an explicit colour and one bar per rank.
      const img = /!\[[^\]]*\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(text);
      assert.ok(img, `a data: image in the hover:\n${text}`);
      const svg = Buffer.from(img[1]!, 'base64').toString('utf8');
      assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg, /fill="#[0-9a-f]{6}"/i, 'an explicit fill colour (currentColor does not reach images)');
      assert.equal(svg.match(/M[\d.]+ [\d.]+V/g)?.length, C, 'one bar per rank');
      // Callers of the function the line belongs to, with their shares.
      const cc = callersCallees(profile, m, 'jacobi_sweep')!;
      assert.ok(cc.callers.length > 0);
      assert.ok(
        text.includes(
          `**Callers of \`jacobi_sweep\`:** \`${cc.callers[0]!.name}\` ${formatShare(cc.callers[0]!.share)}`,
        ),
        text,
      );
    });

    test('the hover on a function definition shows its totals, callers and callees', async () => {
      const doc = await vscode.workspace.openTextDocument(source('main.c'));
      const def = findFunctionDefinition(doc.getText(), 'run_timesteps');
      assert.ok(def >= 0, 'run_timesteps is defined in main.c');
      const text = await hoverText(doc.uri, def);
      assert.ok(text.startsWith('**`run_timesteps`** · function'), text);
      const totals = functionTotals(profile, m);
      const f = totals.names.indexOf('run_timesteps');
      const desc = profile.metrics[m]!;
      assert.deepEqual(tableRow(text, desc.label).slice(1), [
        formatValue(totals.inclusive[f]!, desc.unit),
        formatShare(totals.inclusive[f]! / total),
        formatValue(totals.exclusive[f]!, desc.unit),
        formatShare(totals.exclusive[f]! / total),
      ]);
      const cc = callersCallees(profile, m, f, totals)!;
      assert.ok(cc.callers.length > 0 && cc.callees.length > 0, 'run_timesteps has callers and callees');
      for (const e of [cc.callers[0]!, ...cc.callees.slice(0, 5)])
        assert.ok(text.includes(`\`${e.name}\` ${formatShare(e.share)}`), `${e.name} in:\n${text}`);
      assert.ok(text.includes('**Callees:**') && text.includes('**Callers:**'), text);
      // Lines without cost get no hover from HPC Lens.
      assert.equal(await hoverText(doc.uri, 0, 0), '');
    });

    test('after-line text shows share, value and imbalance on exactly the heat-marked lines', async () => {
      const uri = source('stencil.c');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), vscode.ViewColumn.One);
      const minShare = config().get<number>('heat.minShare', 0.001);
      const C = profile.contextCount;
      const unit = profile.metrics[m]!.unit;
      const expected = linesOf(profile, m, '/src/stencil.c')
        .filter(l => l.exclusive > 0 && l.exclusive / total >= minShare)
        .map(l => {
          const perRank = Array.from({ length: C }, (_, c) =>
            l.nodes.reduce((s, n) => s + profile.exclusive(m)[n * C + c]!, 0),
          );
          const mean = perRank.reduce((a, b) => a + b, 0) / C;
          return `${formatShare(l.exclusive / total)} · ${formatValue(l.exclusive, unit)} · imbalance ${(Math.max(...perRank) / mean).toFixed(1)}×`;
        });
      await until('heat on stencil.c', () => api.decoratedLines(uri) === expected.length || undefined);
      assert.ok(
        api.heatLines(uri).every(h => h.annotation === undefined),
        'no after-line text by default',
      );
      await config().update('heat.annotations', true, vscode.ConfigurationTarget.Global);
      await until('after-line text', () => api.heatLines(uri).some(h => h.annotation) || undefined);
      assert.equal(api.decoratedLines(uri), expected.length, 'the decoration count does not change');
      assert.deepEqual(
        api.heatLines(uri).map(h => h.annotation),
        expected,
      );
      assert.match(expected[0]!, /^\d+(\.\d)?% · [\d.]+ m?s · imbalance \d+\.\d×$/);
      await config().update('heat.annotations', false, vscode.ConfigurationTarget.Global);
      await until(
        'after-line text removed',
        () => api.heatLines(uri).every(h => h.annotation === undefined) || undefined,
      );
      assert.equal(api.decoratedLines(uri), expected.length);
    });

    test('heat scale "global" compares a file with the hottest line of the whole profile, "file" with its own', async () => {
      const uri = source('minimpi.c');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), vscode.ViewColumn.One);
      const minShare = config().get<number>('heat.minShare', 0.001);
      let globalMax = 0;
      for (const lines of lineCosts(profile, m).values())
        for (const l of lines) globalMax = Math.max(globalMax, l.exclusive);
      const lines = linesOf(profile, m, '/src/minimpi.c');
      const fileMax = Math.max(...lines.map(l => l.exclusive));
      const marked = lines.filter(l => l.exclusive > 0 && l.exclusive / total >= minShare);
      const levels = (max: number) =>
        marked.map(l => ({
          line: l.line,
          level: Math.min(HEAT_LEVELS - 1, Math.floor((l.exclusive / max) * HEAT_LEVELS - 1e-9)),
        }));
      const byFile = levels(fileMax),
        byProfile = levels(globalMax);
      assert.notDeepEqual(byFile, byProfile, "minimpi.c is cooler than the profile's hottest line");
      assert.equal(Math.max(...byFile.map(l => l.level)), HEAT_LEVELS - 1);
      const applied = () => api.heatLines(uri).map(h => ({ line: h.line, level: h.level }));
      await until(
        'file-scale heat on minimpi.c',
        () => JSON.stringify(applied()) === JSON.stringify(byFile) || undefined,
      );
      await config().update('heat.scale', 'global', vscode.ConfigurationTarget.Global);
      await until('global-scale heat', () => JSON.stringify(applied()) === JSON.stringify(byProfile) || undefined);
      await config().update('heat.scale', 'file', vscode.ConfigurationTarget.Global);
      await until('file-scale heat again', () => JSON.stringify(applied()) === JSON.stringify(byFile) || undefined);
    });

    test('screenshot: the hover over the hottest line, with after-line text', async () => {
      const doc = await vscode.workspace.openTextDocument(source('stencil.c'));
      const hottest = [...linesOf(profile, m, '/src/stencil.c')].sort((a, b) => b.exclusive - a.exclusive)[0]!;
      await config().update('heat.annotations', true, vscode.ConfigurationTarget.Global);
      try {
        // One wide editor (the earlier suites leave the Sankey beside it), the line near the top so the hover opens below it.
        await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
        const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
        await vscode.commands.executeCommand('workbench.action.closeEditorsInOtherGroups');
        const pos = new vscode.Position(hottest.line - 1, 8);
        editor.selection = new vscode.Selection(pos, pos);
        editor.revealRange(
          new vscode.Range(Math.max(0, hottest.line - 4), 0, Math.max(0, hottest.line - 4), 0),
          vscode.TextEditorRevealType.AtTop,
        );
        await new Promise(r => setTimeout(r, 800));
        await vscode.commands.executeCommand('editor.action.showHover');
        await new Promise(r => setTimeout(r, 1500));
        console.log('HPC_LENS_SCREENSHOT hover-stencil');
        await new Promise(r => setTimeout(r, 2000));
      } finally {
        await vscode.commands.executeCommand('editor.action.hideHover').then(undefined, () => undefined);
        await config().update('heat.annotations', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });
}
