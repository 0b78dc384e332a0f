import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { functionTotals, lineCosts } from '../../../src/analysis/model/aggregates';
import { functionCallCounts } from '../../../src/analysis/stats/call-counts';
import { formatValue } from '../../../src/analysis/stats/format';
import type { HpcLensApi } from './itest-support';
import type { LineReveal } from '../../../src/extension/overlays/reveal-current-line';
import { EXTENSION_ID, until, workspaceRoot } from './itest-support';

const samplingProfile = () => vscode.Uri.joinPath(workspaceRoot(), 'profiles', 'heat-stencil-sampling-4ranks.json');
const callgrindProfile = () => vscode.Uri.joinPath(workspaceRoot(), 'profiles', 'callgrind.out.heat-stencil-4ranks');
const stencil = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c');

async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
}
async function hoverText(uri: vscode.Uri, line0: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line0, 2),
  );
  return hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
}
const lensLines = (ls: vscode.CodeLens[]) => ls.map(l => l.range.start.line).sort((a, b) => a - b);

export function registerEditingSuites(): void {
  suite('HPC Lens overlays follow edits; Reveal Current Line; calls in the CodeLens', () => {
    let api: HpcLensApi;
    let editor: vscode.TextEditor;
    /** Heat lines (1-based) and CodeLens lines (0-based) of the untouched file. */
    let heat: number[];
    let lensAt: number[];
    /** The hottest line of stencil.c in the profile (1-based). */
    let hottest: number;

    const heatNow = () => api.heatLines(stencil()).map(h => h.line);
    const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
    async function revert(): Promise<void> {
      editor = await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
      if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
      assert.equal(editor.document.isDirty, false, 'the sample is left as it was');
      if (api.active?.name === 'heat-stencil-sampling-4ranks.json')
        await until('the heat marks of the saved file', () => same(heatNow(), heat));
    }

    suiteSetup(async () => {
      // The suite edits the sample's sources and must never write them: auto save would.
      assert.equal(
        vscode.workspace.getConfiguration('files').get('autoSave'),
        'off',
        'files.autoSave is off (the harness sets it)',
      );
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', samplingProfile()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      editor = await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(stencil()),
        vscode.ViewColumn.One,
      );
      heat = await until('heat on stencil.c', () => {
        const h = heatNow();
        return h.length > 2 && h;
      });
      lensAt = lensLines(
        await until('CodeLens on stencil.c', async () => {
          const l = await lenses(stencil());
          return l.length > 0 && l;
        }),
      );
      const profile = await readProfile(samplingProfile().fsPath);
      const lines = [...lineCosts(profile, profile.primaryMetric)].find(([f]) => f.endsWith('/src/stencil.c'))![1];
      hottest = [...lines].sort((a, b) => b.exclusive - a.exclusive)[0]!.line;
      assert.ok(heat.includes(hottest));
    });

    teardown(revert);
    // Whatever a failed test left: every dirty sample document goes back to its text on disk, unsaved.
    suiteTeardown(async () => {
      const root = workspaceRoot().toString();
      for (const doc of vscode.workspace.textDocuments) {
        if (!doc.isDirty || !doc.uri.toString().startsWith(root)) continue;
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        assert.equal(doc.isDirty, false, `${doc.uri.fsPath} reverted`);
      }
    });

    test('three lines inserted above move heat, CodeLens and hover down by three; revert puts them back', async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(stencil(), new vscode.Position(0, 0), '// one\n// two\n// three\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const moved = heat.map(l => l + 3);
      await until('heat lines moved by 3', () => same(heatNow(), moved));
      assert.deepEqual(
        lensLines(await lenses(stencil())),
        lensAt.map(l => l + 3),
      );
      const text = await hoverText(stencil(), hottest + 3 - 1);
      assert.match(
        text,
        new RegExp(`stencil\\.c:${hottest + 3}\\*\\* in \`jacobi_sweep\` · line ${hottest} in the profile`),
      );
      assert.match(text, /\| metric \| inclusive/);
      console.log('HPC_LENS_SCREENSHOT editing-shifted');
    });

    test('editing the text of a hot line removes its mark only', async () => {
      const line = editor.document.lineAt(hottest - 1);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(stencil(), line.range.end, ' /* changed */');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await until('the edited line loses its mark', () =>
        same(
          heatNow(),
          heat.filter(l => l !== hottest),
        ),
      );
      assert.equal(await hoverText(stencil(), hottest - 1), '', 'no hover on the edited line');
      assert.equal(api.editing.staleReason(stencil()), undefined);
    });

    test("replacing the whole text hides the file's overlays with a reason; revert brings them back", async () => {
      const doc = editor.document;
      const edit = new vscode.WorkspaceEdit();
      edit.replace(stencil(), new vscode.Range(0, 0, doc.lineCount, 0), 'int main(void)\n{\n  return 0;\n}\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await until('no heat on the replaced file', () => heatNow().length === 0);
      assert.equal(api.editing.staleReason(stencil()), 'source changed since the profile');
      const ls = await lenses(stencil());
      assert.equal(ls.length, 1);
      assert.match(ls[0]!.command!.title, /source changed since the profile/);
      assert.match(await hoverText(stencil(), 0), /source changed since the profile/);
      await revert();
      assert.deepEqual(lensLines(await lenses(stencil())), lensAt);
      assert.equal(api.editing.staleReason(stencil()), undefined);
    });

    test('Reveal Current Line selects the line in Top Lines and highlights its node in the Sankey', async () => {
      await vscode.commands.executeCommand('hpcLens.showCallflow');
      await until('the Sankey drawn', async () => (await api.callflow.drawn()).graphs.length > 0, 30000);
      await vscode.commands.executeCommand('hpcLens.topLines.focus');
      editor = await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
      editor.selection = new vscode.Selection(hottest - 1, 0, hottest - 1, 0);
      const r = await vscode.commands.executeCommand<LineReveal>('hpcLens.revealCurrentLine');
      assert.ok(r, 'a result');
      assert.equal(r.message, undefined);
      assert.equal(r.exact, true);
      assert.equal(r.profiledLine, hottest);
      assert.equal(r.function, 'jacobi_sweep');
      assert.ok(r.nodes.length > 0);
      assert.deepEqual(r.views['hpcLens.topLines'], [`stencil.c:${hottest}`]);
      assert.deepEqual(
        await until('Top Lines selection', () => {
          const s = api.editing.selection('hpcLens.topLines');
          return s.length > 0 && s;
        }),
        [`stencil.c:${hottest}`],
      );
      assert.ok(r.callflow.length > 0, 'a Sankey node holds the line');
      const ids = new Set(api.callflow.data!.nodes.map(n => n.id));
      for (const id of r.callflow) assert.ok(ids.has(id), `${id} is a node of the Sankey`);
      const marked = await until('the webview marks the nodes', async () => {
        const d = await api.callflow.drawn();
        return d.revealed.length > 0 && d.revealed;
      });
      assert.deepEqual([...marked].sort(), [...r.callflow].sort(), 'the webview marked exactly those nodes');
      console.log('HPC_LENS_SCREENSHOT editing-reveal');
    });

    test('Reveal Current Line on a line without profile data says so', async () => {
      editor = await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      const r = await vscode.commands.executeCommand<LineReveal>('hpcLens.revealCurrentLine');
      assert.equal(r.message, 'HPC Lens: no profile data on line 1 of stencil.c.');
      assert.deepEqual(r.nodes, []);
    });

    test('the CodeLens of a callgrind profile shows call counts, and a click highlights the function in the Sankey', async () => {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', callgrindProfile()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      try {
        const profile = await readProfile(callgrindProfile().fsPath);
        const totals = functionTotals(profile, profile.primaryMetric);
        const calls = functionCallCounts(profile, totals)[totals.names.indexOf('jacobi_sweep')]!;
        assert.ok(calls > 0, 'the callgrind sample states calls of jacobi_sweep');
        const expected = `${formatValue(calls, 'count')} calls`;
        const lens = await until('a jacobi_sweep lens with calls', async () =>
          (await lenses(stencil())).find(l => l.command?.title.includes(expected)),
        );
        assert.match(lens.command!.title, /inclusive .* exclusive · [\d,]+ calls/);
        await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
        const ids = await until(
          'the webview marks the function',
          async () => {
            const d = await api.callflow.drawn();
            return d.revealed.length > 0 && d.revealed;
          },
          30000,
        );
        assert.ok(ids.length > 0, 'jacobi_sweep is in some Sankey node');
        const nodes = new Set(api.callflow.data!.nodes.map(n => n.id));
        for (const id of ids) assert.ok(nodes.has(id));
      } finally {
        await vscode.commands.executeCommand('hpcLens.closeProfile');
        for (const tab of vscode.window.tabGroups.all.flatMap(g => g.tabs)) {
          if (tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('hpcLens.callflow'))
            await vscode.window.tabGroups.close(tab);
        }
      }
    });
  });
}
