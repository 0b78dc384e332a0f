import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import {
  writeEscapeGprof,
  writeHugeCountsFolded,
  writeLongLineFolded,
} from '../../../src/analysis/formats/testing/hostile-files';
import { functionTotals } from '../../../src/analysis/model/aggregates';
import { findFunctionDefinition } from '../../../src/analysis/source/function-definitions';
import { formatShare } from '../../../src/analysis/stats/format';
import { rootHotPaths } from '../../../src/analysis/stats/hot-path';
import { md as mdEscape } from '../../../src/analysis/stats/summary-export';
import { functionImbalance } from '../../../src/analysis/stats/imbalance';
import { topFunctions, topLines } from '../../../src/analysis/stats/top-lists';
import type { AnalysisEntry } from '../../../src/extension/views/analysis-tree';
import {
  EXTENSION_ID,
  expectedHeatLines,
  nodeSelector,
  sampleProfile,
  until,
  workspaceRoot,
  type HpcLensApi,
} from './itest-support';

const stencilSource = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c');

export function registerSuites(): void {
  let api: HpcLensApi;

  suite('HPC Lens in VS Code', () => {
    test('activates and registers every command it contributes', async () => {
      const ext = vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is installed`);
      api = await ext.activate();
      assert.ok(api && typeof api.open === 'function', 'activate returns the test API in test mode');
      await api.startup;
      const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map(c => c.command);
      const registered = new Set(await vscode.commands.getCommands(true));
      for (const c of contributed) assert.ok(registered.has(c), `command ${c} is registered`);
    });

    test('Open Profile reads the sample in a worker and maps its sources', async () => {
      const started = Date.now();
      const ok = await vscode.commands.executeCommand<boolean>('hpcLens.openProfileFromExplorer', sampleProfile());
      assert.equal(ok, true, `opened (last error: ${api.lastError})`);
      const a = api.active!;
      assert.equal(a.format, 'caliper-json-split');
      assert.equal(a.contexts, 4);
      assert.ok(a.nodes > 20, `${a.nodes} nodes`);
      assert.ok(a.mappedFiles >= 4, `${a.mappedFiles} source files mapped onto the workspace`);
      const doc = await vscode.workspace.openTextDocument(stencilSource());
      await vscode.window.showTextDocument(doc);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      assert.ok(lenses.length > 0);
      console.log(`time from Open Profile to first CodeLens in VS Code: ${Date.now() - started} ms`);
    });

    test('CodeLens sits on each profiled function definition with its shares and imbalance', async () => {
      const doc = await vscode.workspace.openTextDocument(stencilSource());
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      const text = doc.getText();
      // Expected values straight from the analysis library.
      const profile = await readProfile(sampleProfile().fsPath);
      const m = profile.primaryMetric;
      const totals = functionTotals(profile, m);
      const total = profile.total(m);
      const expectFor = (fn: string) => {
        const f = totals.names.indexOf(fn);
        assert.ok(f >= 0, `${fn} is in the profile`);
        return {
          line: findFunctionDefinition(text, fn),
          incl: formatShare(totals.inclusive[f]! / total),
          excl: formatShare(totals.exclusive[f]! / total),
        };
      };
      const sweep = expectFor('jacobi_sweep');
      assert.ok(sweep.line > 0, 'jacobi_sweep is defined in stencil.c');
      assert.match(doc.lineAt(sweep.line).text, /jacobi_sweep\s*\(/);
      const lens = lenses.find(l => l.range.start.line === sweep.line);
      assert.ok(
        lens?.command,
        `a lens at line ${sweep.line + 1}; lenses at ${lenses.map(l => l.range.start.line + 1).join(', ')}`,
      );
      const title = lens.command.title;
      assert.ok(title.includes(`${sweep.incl} inclusive`), title);
      assert.ok(title.includes(`${sweep.excl} exclusive`), title);
      assert.match(title, /imbalance \d+\.\d\d× max\/mean over 4 ranks/);
      assert.equal(lens.command.command, 'hpcLens.showCallflow');
      for (const l of lenses)
        assert.match(doc.lineAt(l.range.start.line).text, /\w+\s*\(/, 'every lens sits on a function signature');
    });

    test('gutter heat marks exactly the lines that carry cost', async () => {
      const doc = await vscode.workspace.openTextDocument(stencilSource());
      await vscode.window.showTextDocument(doc);
      const expected = await expectedHeatLines(sampleProfile().fsPath, '/src/stencil.c');
      assert.ok(expected > 2, `the sample has several hot lines in stencil.c (${expected})`);
      const applied = await until('heat decorations', () => api.decoratedLines(doc.uri) || undefined);
      assert.equal(applied, expected);
      await vscode.commands.executeCommand('hpcLens.toggleOverlays');
      await until('decorations removed', () => api.decoratedLines(doc.uri) === 0);
      const none = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      assert.equal(none.length, 0, 'no lenses while overlays are off');
      await vscode.commands.executeCommand('hpcLens.toggleOverlays');
      await until('decorations back', () => api.decoratedLines(doc.uri) === expected);
    });

    test('the side bar lists the hot path, top lines, top functions and load imbalance; a row opens its line', async () => {
      const profile = await readProfile(sampleProfile().fsPath);
      const m = profile.primaryMetric;
      const hot = rootHotPaths(profile, m, 0.05)[0]!.map(s => profile.tree.name(s.node));
      const chain: string[] = [];
      const rows = await api.nextViewEntries('hpcLens.hotPaths', r => r.length > 0);
      for (let e: AnalysisEntry | undefined = rows[0]; e; e = e.children?.[0]) chain.push(e.label);
      assert.deepEqual(chain, hot);
      const lines = topLines(profile, m, { limit: 50 }).entries;
      const shownLines = api.viewEntries('hpcLens.topLines');
      assert.equal(shownLines.length, lines.length);
      assert.equal(shownLines[0]!.label, `${lines[0]!.file.split('/').pop()}:${lines[0]!.line}`);
      assert.equal(api.viewEntries('hpcLens.topFunctions')[0]!.label, topFunctions(profile, m, { limit: 1 })[0]!.name);
      const imbalanced = functionImbalance(profile, m, { limit: 1 }).entries[0]!;
      assert.equal(api.viewEntries('hpcLens.imbalance')[0]!.label, imbalanced.name);
      assert.match(
        api.viewEntries('hpcLens.imbalance')[0]!.description,
        /^\d+\.\d\d× · \d+(\.\d)?% of total · max on rank \d$/,
      );
      // A click runs the row's command: the editor opens the file at the line.
      const loc = shownLines[0]!.location!;
      await vscode.commands.executeCommand('hpcLens.revealNode', loc.file, loc.line, loc.name);
      const editor = await until('the top line in an editor', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.path.endsWith(`/${loc.file.split('/').slice(-2).join('/')}`) ? e : undefined;
      });
      assert.equal(editor.selection.active.line, loc.line! - 1);
      await vscode.commands.executeCommand('hpcLens.showHotPath');
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT side-bar');
      await new Promise(r => setTimeout(r, 2000));
    });

    test('Export Summary writes the hot path and the top lists as Markdown and CSV', async () => {
      const profile = await readProfile(sampleProfile().fsPath);
      const top = topFunctions(profile, profile.primaryMetric, { limit: 1 })[0]!.name;
      const md = await vscode.commands.executeCommand<vscode.TextDocument>('hpcLens.exportSummary', 'markdown');
      assert.equal(md.languageId, 'markdown');
      assert.match(md.getText(), /^# HPC Lens summary/);
      assert.ok(md.getText().includes(mdEscape(top)), `the Markdown names ${top}`);
      const csv = await vscode.commands.executeCommand<vscode.TextDocument>('hpcLens.exportSummary', 'csv');
      assert.ok(csv.getText().split('\r\n').length > 10 && csv.getText().includes(top));
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });

    test('the Sankey webview renders the module graph and states what it drew', async () => {
      await vscode.commands.executeCommand('hpcLens.showCallflow');
      const data = await until('the graph computed', () => api.callflow.data, 30000);
      const drawn = await until(
        'the webview draws the graph',
        async () => {
          const d = await api.callflow.drawn();
          return d.graphs[0]?.nodes === data.nodes.length ? d : undefined;
        },
        30000,
      );
      assert.ok(data.nodes.length >= 4, `${data.nodes.length} modules`);
      assert.equal(drawn.graphs[0]!.links, data.links.length);
      assert.ok(data.nodes.some(n => n.module === 'libstencil.so'));
    });

    test('clicking a Sankey node opens its source at the right line', async () => {
      const node = api.callflow.data!.nodes.find(n => n.module === 'libstencil.so')!;
      assert.ok(node.entry.file && node.entry.line, 'the node has a source location');
      // Start from another file so the click has to open stencil.c (closing all editors would close the panel).
      const main = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'main.c'));
      await vscode.window.showTextDocument(main, vscode.ViewColumn.One);
      // A real click in the page (the view asks the host to select the node, which opens its entry).
      await api.callflow.agent.click(`${nodeSelector(node.id)} .sankey-node-rect`);
      const editor = await until('an editor on the clicked source', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.path.endsWith('/src/stencil.c') ? e : undefined;
      });
      assert.equal(editor.selection.active.line, node.entry.line! - 1);
    });

    test('hostile files each give one clean line naming the file, and the previous dataset stays active', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-hostile-'));
      // A 20 MB line (over the 16 MiB maxLineLength), counts that overflow, ESC bytes in a gprof call graph.
      const longLine = await writeLongLineFolded(dir, 20);
      const huge = writeHugeCountsFolded(dir);
      const escapes = writeEscapeGprof(dir);
      const before = api.active!.name;
      for (const [file, reason] of [
        [longLine, /line 1 is longer than 16 MiB/],
        [huge, /add up beyond 1\.8e308/],
        [escapes, /\\x1b\]0;owned\\x07/],
      ] as const) {
        const ok = await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(file));
        assert.equal(ok, false, `${file} is refused`);
        const error = api.lastError ?? '';
        assert.ok(error.startsWith(file), `the error names the file: ${error.slice(0, 200)}`);
        assert.match(error, reason);
        // eslint-disable-next-line no-control-regex
        assert.doesNotMatch(error, /[\u0000-\u001f\u007f]/, 'one line, no control characters');
        assert.ok(error.length <= 1000, `bounded (${error.length} characters)`);
        assert.equal(api.active?.name, before, 'the previous dataset stays active');
      }
    });

    test('a corrupt profile gives a clear error and the extension keeps working', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hpc-lens-itest-'));
      const bad = join(dir, 'truncated.json');
      const text = readFileSync(sampleProfile().fsPath, 'utf8');
      writeFileSync(bad, text.slice(0, Math.floor(text.length / 2)));
      const before = api.active!.name;
      const ok = await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(bad));
      assert.equal(ok, false);
      assert.ok(api.lastError?.startsWith(bad), `the error names the file: ${api.lastError}`);
      assert.match(api.lastError!, /unexpected end of input/);
      assert.equal(api.active?.name, before, 'the previous profile stays loaded');
      const doc = await vscode.workspace.openTextDocument(stencilSource());
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      assert.ok(lenses.length > 0, 'overlays still work');
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', sampleProfile()),
        true,
        'and a good profile still opens',
      );
      // Leave the demo state for the screenshot: source with lenses and heat beside the Sankey.
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      await vscode.commands.executeCommand('hpcLens.showCallflow');
      await new Promise(r => setTimeout(r, 1500));
      // The harness screenshots now, while the extension host (and its decorations) still run.
      console.log('HPC_LENS_SCREENSHOT demo-editor');
      await new Promise(r => setTimeout(r, 2500));
    });
  });
}
