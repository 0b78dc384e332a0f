import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HpcLensApi } from '../../../src/extension/extension';
import type { CallflowRequest } from '../../../src/shared/protocol';
import { EXTENSION_ID, sampleProfile, slowerCopy, until, workspaceRoot } from './itest-support';

const timeout = <T>(p: Promise<T>, what: string, ms = 30000): Promise<T> =>
  Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out: ${what}`)), ms))]);

/** Sends a request through the webview (it posts it back as the user's action would) and waits for the host's recomputation. */
async function simulate(api: HpcLensApi, request: CallflowRequest): Promise<void> {
  const updated = api.sankey.nextUpdate();
  api.sankey.post({ type: 'callflow/simulate', request });
  await timeout(updated, `host update after ${request.type}`);
}

/** Lets the webview's split transition (0.7 s) finish before a screenshot, and the harness take it before the next step. */
const settle = () => new Promise(r => setTimeout(r, 1000));
const shot = () => new Promise(r => setTimeout(r, 1500));

export function registerCallflowSuites(): void {
  suite('HPC Lens CallFlow views', () => {
    let api: HpcLensApi;
    let dir: string;
    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-callflow-'));
      assert.ok(await api.open(sampleProfile()), 'the sample profile opens');
      // A source editor first, so that the panel opens beside it and stays visible when a click opens a file.
      const main = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'main.c'));
      await vscode.window.showTextDocument(main, vscode.ViewColumn.One);
      const rendered = api.sankey.nextRender();
      await vscode.commands.executeCommand('hpcLens.showSankey');
      await timeout(rendered, 'the Sankey renders');
    });
    suiteTeardown(async () => {
      // Leave the panel as other suites expect it: one unsplit graph.
      if (api.sankey.callflow?.mode !== 'single')
        await simulate(api, { type: 'callflow/mode', mode: 'single' }).catch(() => undefined);
      for (const s of api.sankey.data?.splits ?? [])
        await simulate(api, { type: 'callflow/unsplit', nodeId: s.node }).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    test('splitting a node by entry function: parts sum to the original, the webview draws them, un-split restores it', async () => {
      const before = api.sankey.data!;
      const node = [...before.nodes].filter(n => (n.entryCount ?? 0) >= 2).sort((a, b) => b.inclusive - a.inclusive)[0];
      assert.ok(node, `a node with several entry functions among ${before.nodes.map(n => n.id).join(', ')}`);
      await simulate(api, { type: 'callflow/split', nodeId: node.id, mode: 'entry' });
      const after = api.sankey.data!;
      const parts = after.nodes.filter(n => n.baseId === node.id && n.id !== node.id);
      assert.equal(parts.length, node.entryCount, 'one part per entry function');
      assert.ok(
        parts.every(p => p.kind === 'entry' && p.label.startsWith(`${node.label}-`)),
        parts.map(p => p.label).join(', '),
      );
      const sum = parts.reduce((s, p) => s + p.inclusive, 0);
      assert.ok(Math.abs(sum - node.inclusive) <= 1e-9 * after.total, `parts ${sum} vs original ${node.inclusive}`);
      assert.deepEqual(after.splits, [{ node: node.id, mode: 'entry' }], 'the split state comes with the data');
      // (A render report of the old graph, e.g. after a resize, may come first; the split one must follow.)
      await until(
        'the webview draws the split graph',
        () =>
          api.sankey.lastRender?.nodeCount === after.nodes.length &&
          api.sankey.lastRender.linkCount === after.links.length,
      );
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-split');
      await shot();

      await simulate(api, { type: 'callflow/unsplit', nodeId: parts[0]!.id });
      assert.deepEqual(
        api.sankey.data!.nodes.map(n => n.id).sort(),
        before.nodes.map(n => n.id).sort(),
        'un-split from a part restores the graph',
      );
      // A request that cannot apply is refused with its reason and changes nothing.
      await simulate(api, { type: 'callflow/unsplit', nodeId: node.id });
      assert.match(api.sankey.lastRequestError ?? '', /not split/);
    });

    test('brushing ranks and splitting by the selection gives two graphs over a partition of the ranks', async () => {
      const whole = api.sankey.data!;
      const K = whole.contexts!.count;
      const module = [...whole.nodes]
        .filter(n => (n.callers?.length ?? 0) > 0)
        .sort((a, b) => b.imbalance - a.imbalance)[0]!;
      // Brush the low half of the module's per-rank values (the histogram's lower bins).
      const values = module.contextValues!.inclusive;
      const low = values
        .map((v, p) => [v, whole.contexts!.indices[p]!] as const)
        .sort((a, b) => a[0] - b[0])
        .slice(0, K / 2)
        .map(x => x[1])
        .sort((a, b) => a - b);
      await simulate(api, { type: 'callflow/brush', contexts: low });
      assert.deepEqual(api.sankey.callflow?.brushed, low, 'the host keeps the brush');
      const rendered = api.sankey.nextRender();
      await simulate(api, { type: 'callflow/mode', mode: 'brush' });
      const cf = api.sankey.callflow!;
      assert.equal(cf.mode, 'brush');
      const top = api.sankey.data!,
        bottom = cf.second!;
      assert.ok(bottom, 'a second graph for the other ranks');
      assert.deepEqual(top.contexts!.indices, low);
      const all = [...top.contexts!.indices, ...bottom.contexts!.indices].sort((a, b) => a - b);
      assert.deepEqual(
        all,
        Array.from({ length: K }, (_, c) => c),
        'the two rank sets partition the ranks',
      );
      // AT-2: heights over the brushed ranks only; the two graphs add up to the whole run.
      for (const n of top.nodes) {
        const p = whole.nodes.find(w => w.id === n.id);
        if (!p?.contextValues) continue;
        const brushedSum = low.reduce((s, c) => s + p.contextValues!.inclusive[whole.contexts!.indices.indexOf(c)]!, 0);
        assert.ok(
          Math.abs(n.inclusive - brushedSum) <= 1e-9 * whole.total,
          `${n.id}: ${n.inclusive} over the brushed ranks (${brushedSum})`,
        );
        const other = bottom.nodes.find(b => b.id === n.id);
        if (other)
          assert.ok(Math.abs(n.inclusive + other.inclusive - p.inclusive) <= 1e-9 * whole.total, `${n.id} adds up`);
      }
      assert.deepEqual(cf.labels, [`Brushed ranks (${low.length})`, `Other ranks (${K - low.length})`]);
      await timeout(rendered, 'render of the brush split');
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-brush-split');
      await shot();
      await simulate(api, { type: 'callflow/brush', contexts: null });
      assert.equal(api.sankey.callflow?.mode, 'single', 'clearing the brush goes back to one graph');
      assert.equal(api.sankey.callflow?.second, undefined);
    });

    test('clicking a node selects it and opens its entry function at its line', async () => {
      const data = api.sankey.data!;
      const node = data.nodes.find(n => n.entry.file?.endsWith('halo.c') && n.entry.line);
      assert.ok(node, 'a node whose entry function is in halo.c');
      // Start from another file so the click has to open halo.c (closing all editors would close the panel).
      const main = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'main.c'));
      await vscode.window.showTextDocument(main, vscode.ViewColumn.One);
      api.sankey.post({ type: 'simulateClick', nodeId: node.id });
      const editor = await until('the entry function opens', () => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.path.endsWith('/halo.c') && e;
      });
      assert.equal(
        editor.selection.active.line,
        node.entry.line! - 1,
        `opened at ${node.entry.name}'s line ${node.entry.line}`,
      );
      assert.equal(api.sankey.lastSelection?.nodeId, node.id);
      assert.ok(api.sankey.lastSelection!.lines.includes(node.entry.line!), 'its entry lines are marked');
      assert.equal(api.sankey.callflow?.selected, node.id, 'the host keeps the selection');
    });

    test('two runs side by side: run B is drawn from the comparison, totals kept for root rescaling', async () => {
      const slower = slowerCopy(dir, 'jacobi_sweep', 2);
      assert.ok(
        await vscode.commands.executeCommand('hpcLens.compareProfiles', sampleProfile(), slower),
        'the comparison opens',
      );
      await until(
        'the diff dataset is active',
        () =>
          api.datasets.entries().some(d => d.kind === 'diff' && d.active) && api.sankey.callflow?.canCompare === true,
      );
      await simulate(api, { type: 'callflow/mode', mode: 'sideBySide' });
      const cf = api.sankey.callflow!;
      assert.equal(cf.mode, 'sideBySide', api.sankey.lastRequestError);
      const a = api.sankey.data!,
        b = cf.second!;
      assert.ok(b.total > a.total * 1.2, `B (${b.total}) is the slower run, A ${a.total}`);
      assert.match(cf.labels![0], /^A: heat-stencil-sampling-4ranks\.json/);
      assert.match(cf.labels![1], /^B: heat-stencil-jacobi_sweep-x2\.json/);
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-side-by-side');
      await shot();
      await simulate(api, { type: 'callflow/mode', mode: 'single' });
      const index = api.datasets.entries().findIndex(d => d.kind === 'diff');
      if (index >= 0) await api.datasets.close(index);
    });
  });
}
