import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CallflowData, CallflowRequest } from '../../../src/shared/callflow-protocol';
import {
  EXTENSION_ID,
  nodeSelector,
  sampleProfile,
  slowerCopy,
  until,
  within,
  workspaceRoot,
  type HpcLensApi,
} from './itest-support';

/** Applies a request as the webview sends it and waits for the host's recomputation. */
async function simulate(api: HpcLensApi, request: CallflowRequest): Promise<void> {
  await within(api.callflow.request(request), `host update after ${request.type}`);
}

/** Waits until the page draws `graphs` graphs with these node counts. */
function drawnGraphs(api: HpcLensApi, what: string, nodeCounts: number[]) {
  return until(
    what,
    async () => {
      const d = await api.callflow.drawn();
      return d.graphs.length === nodeCounts.length && d.graphs.every((g, i) => g.nodes === nodeCounts[i])
        ? d
        : undefined;
    },
    30000,
  );
}

/** Lets the webview's split transition (0.7 s) finish before a screenshot, and the harness take it before the next step. */
const settle = () => new Promise(r => setTimeout(r, 1000));
const shot = () => new Promise(r => setTimeout(r, 1500));

/** The sample profile in the CallFlow panel, drawn beside a source editor (so the panel stays visible when a click opens a file). */
async function openSampleCallflow(): Promise<HpcLensApi> {
  const api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
  await api.startup;
  assert.ok(await api.open(sampleProfile()), 'the sample profile opens');
  const main = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'main.c'));
  await vscode.window.showTextDocument(main, vscode.ViewColumn.One);
  await vscode.commands.executeCommand('hpcLens.showCallflow');
  const data = await until('the graph computed', () => api.callflow.data, 30000);
  await drawnGraphs(api, 'the Sankey renders', [data.nodes.length]);
  return api;
}

export function registerCallflowSuites(): void {
  suite('HPC Lens CallFlow views', () => {
    let api: HpcLensApi;
    let dir: string;
    suiteSetup(async () => {
      api = await openSampleCallflow();
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-callflow-'));
    });
    suiteTeardown(async () => {
      // Leave the panel as other suites expect it: one unsplit graph.
      if (api.callflow.callflow?.mode !== 'single')
        await simulate(api, { type: 'callflow/mode', mode: 'single' }).catch(() => undefined);
      for (const s of api.callflow.data?.splits ?? [])
        await simulate(api, { type: 'callflow/unsplit', nodeId: s.node }).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    test('splitting a node by entry function: parts sum to the original, the webview draws them, un-split restores it', async () => {
      const before = api.callflow.data!;
      const node = [...before.nodes].filter(n => (n.entryCount ?? 0) >= 2).sort((a, b) => b.inclusive - a.inclusive)[0];
      assert.ok(node, `a node with several entry functions among ${before.nodes.map(n => n.id).join(', ')}`);
      await simulate(api, { type: 'callflow/split', nodeId: node.id, mode: 'entry' });
      const after = api.callflow.data!;
      const parts = after.nodes.filter(n => n.baseId === node.id && n.id !== node.id);
      assert.equal(parts.length, node.entryCount, 'one part per entry function');
      assert.ok(
        parts.every(p => p.kind === 'entry' && p.label.startsWith(`${node.label}-`)),
        parts.map(p => p.label).join(', '),
      );
      const sum = parts.reduce((s, p) => s + p.inclusive, 0);
      assert.ok(Math.abs(sum - node.inclusive) <= 1e-9 * after.total, `parts ${sum} vs original ${node.inclusive}`);
      assert.deepEqual(after.splits, [{ node: node.id, mode: 'entry' }], 'the split state comes with the data');
      await drawnGraphs(api, 'the webview draws the split graph', [after.nodes.length]);
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-split');
      await shot();

      await simulate(api, { type: 'callflow/unsplit', nodeId: parts[0]!.id });
      assert.deepEqual(
        api.callflow.data!.nodes.map(n => n.id).sort(),
        before.nodes.map(n => n.id).sort(),
        'un-split from a part restores the graph',
      );
      // A request that cannot apply is refused with its reason and changes nothing.
      await simulate(api, { type: 'callflow/unsplit', nodeId: node.id });
      assert.match(api.callflow.lastRequestError ?? '', /not split/);
    });

    test('brushing ranks and splitting by the selection gives two graphs over a partition of the ranks', async () => {
      const whole = api.callflow.data!;
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
      assert.deepEqual(api.callflow.callflow?.brushed, low, 'the host keeps the brush');
      await simulate(api, { type: 'callflow/mode', mode: 'brush' });
      const cf = api.callflow.callflow!;
      assert.equal(cf.mode, 'brush');
      const top = api.callflow.data!,
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
      await drawnGraphs(api, 'the brush split drawn', [top.nodes.length, bottom.nodes.length]);
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-brush-split');
      await shot();
      await simulate(api, { type: 'callflow/brush', contexts: null });
      assert.equal(api.callflow.callflow?.mode, 'single', 'clearing the brush goes back to one graph');
      assert.equal(api.callflow.callflow?.second, undefined);
    });

    test('clicking a node selects it and opens its entry function at its line', async () => {
      const data = api.callflow.data!;
      const node = data.nodes.find(n => n.entry.file?.endsWith('halo.c') && n.entry.line);
      assert.ok(node, 'a node whose entry function is in halo.c');
      // Start from another file so the click has to open halo.c (closing all editors would close the panel).
      const main = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'main.c'));
      await vscode.window.showTextDocument(main, vscode.ViewColumn.One);
      await api.callflow.agent.click(`${nodeSelector(node.id)} .sankey-node-rect`);
      const editor = await until('the entry function opens', () => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.path.endsWith('/halo.c') && e;
      });
      assert.equal(
        editor.selection.active.line,
        node.entry.line! - 1,
        `opened at ${node.entry.name}'s line ${node.entry.line}`,
      );
      assert.equal(api.callflow.lastSelection?.nodeId, node.id);
      assert.ok(api.callflow.lastSelection!.lines.includes(node.entry.line!), 'its entry lines are marked');
      assert.equal(api.callflow.callflow?.selected, node.id, 'the host keeps the selection');
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
          api.datasets.entries().some(d => d.kind === 'diff' && d.active) && api.callflow.callflow?.canCompare === true,
      );
      await simulate(api, { type: 'callflow/mode', mode: 'sideBySide' });
      const cf = api.callflow.callflow!;
      assert.equal(cf.mode, 'sideBySide', api.callflow.lastRequestError);
      const a = api.callflow.data!,
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

  suite('HPC Lens CallFlow filter', () => {
    let api: HpcLensApi;
    /** The Sankey's right-click menu on a bar, then one of its items. */
    const menuItem = async (nodeId: string, item: string, text?: string) => {
      await api.callflow.agent.click(`${nodeSelector(nodeId)} .sankey-node-rect`, { button: 'right' });
      const [offered] = await until(`the menu offers ${item}`, async () => {
        const found = await api.callflow.agent.query(`[data-menu-item="${item}"]`);
        return found.length > 0 && found;
      });
      if (text) assert.equal(offered!.text, text);
      await api.callflow.agent.click(`[data-menu-item="${item}"]`);
    };
    const notes = async () => (await api.callflow.agent.query('.sankey-notes'))[0]?.text ?? '';
    /** Inclusive = exclusive + outgoing links + what the filter folded in + what the guard left out (thesis §3.2.1). */
    const assertConserved = (d: CallflowData) => {
      for (const n of d.nodes) {
        const out = d.links.filter(l => l.source === n.id).reduce((s, l) => s + l.value, 0);
        const parts = n.exclusive + out + (n.filteredInclusive ?? 0) + (n.omittedInclusive ?? 0);
        assert.ok(Math.abs(parts - n.inclusive) <= 1e-9 * d.total, `${n.id}: ${n.inclusive} vs ${parts}`);
      }
    };
    suiteSetup(async () => {
      api = await openSampleCallflow();
    });
    suiteTeardown(async () => {
      // Back to the settings' default for the suites after this one.
      await simulate(api, { type: 'callflow/unrepopulate' }).catch(() => undefined);
      await simulate(api, { type: 'callflow/filter', threshold: 0.001, by: 'inclusive' }).catch(() => undefined);
    });

    test('the toolbar filter folds light functions into their callers and the header says how much', async () => {
      // The 5 % preset, picked in the toolbar's field as a user does.
      await api.callflow.agent.input('[data-filter-input]', '5');
      const data = await until(
        'the 5 % filter applied',
        () => api.callflow.data?.filter?.threshold === 0.05 && api.callflow.data,
      );
      // The sample has 81 call-tree nodes over 25 functions; 11 functions are under 5 % of the total.
      assert.deepEqual(
        [data.filter!.totalNodes, data.filter!.removedNodes, data.filter!.totalFunctions, data.filter!.keptFunctions],
        [81, 40, 25, 14],
      );
      assertConserved(data);
      const roots = data.nodes.filter(n => !data.links.some(l => l.target === n.id));
      assert.ok(
        Math.abs(roots.reduce((s, n) => s + n.inclusive, 0) - data.total) <= 1e-9 * data.total,
        'roots hold the total',
      );
      await drawnGraphs(api, 'the filtered graph drawn', [data.nodes.length]);
      await until('the header states the filter', async () =>
        /^5 % filter: 14 of 25 functions kept, 40 nodes folded into callers/.test(await notes()),
      );
      // Threshold 0 folds nothing.
      await simulate(api, { type: 'callflow/filter', threshold: 0, by: 'inclusive' });
      assert.equal(api.callflow.data!.filter!.removedNodes, 0);
      await until('"No filter" in the header', async () => /^No filter/.test(await notes()));
      await api.callflow.agent.input('[data-filter-input]', '5');
      await until('the 5 % filter again', () => api.callflow.data?.filter?.threshold === 0.05);
      // The page draws the new graph after its fade-out: wait for it, not only for the host.
      await until('the page draws the 5 % graph again', async () => /^5 % filter/.test(await notes()));
      await drawnGraphs(api, 'the filtered graph drawn again', [api.callflow.data!.nodes.length]);
    });

    test('Show filtered callees lists what was folded; a row opens its source, another re-adds it; Hide again undoes it', async () => {
      const before = api.callflow.data!;
      const host = [...before.nodes].sort((a, b) => (b.filteredInclusive ?? 0) - (a.filteredInclusive ?? 0))[0]!;
      const callee = host.filteredCallees!.find(c => c.file && c.line)!;
      assert.ok(callee, `a folded function of ${host.id} with a source line`);
      await until('the page draws the graph the host sent', async () => /^5 % filter/.test(await notes()));
      await menuItem(host.id, 'Show filtered callees', `Show filtered callees (${host.filteredCalleeCount})`);
      const rows = await until('the filtered callees listed', async () => {
        const r = await api.callflow.agent.query('[data-callee]');
        return r.length > 0 && r;
      }).catch(async e => {
        const seen = await api.callflow.agent.query('.callflow-menu, .callflow-menu-item, .sankey-notes');
        throw new Error(`${(e as Error).message}; host ${host.id}; the page shows ${JSON.stringify(seen)}`);
      });
      assert.deepEqual(
        rows.map(r => r.data['callee']),
        host.filteredCallees!.map(c => c.name),
        'one row per folded function, heaviest first',
      );
      // The row's location opens the function's source line.
      await api.callflow.agent.click(`[data-callee-source="${callee.name}"]`);
      const file = callee.file!.slice(callee.file!.lastIndexOf('/'));
      const editor = await until(`${callee.name}'s source opens`, () => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.path.endsWith(file) && e;
      });
      assert.equal(editor.selection.active.line, callee.line! - 1);

      await api.callflow.agent.click(`[data-callee="${callee.name}"]`);
      const after = await until('the function shown again', () => {
        const d = api.callflow.data!;
        return d.repopulate?.some(r => r.node === host.id && r.function === callee.name) && d;
      });
      const f = after.filter!;
      assert.ok(f.repopulatedNodes! >= callee.count, `${f.repopulatedNodes} nodes drawn again`);
      assert.equal(f.removedNodes, before.filter!.removedNodes - f.repopulatedNodes!, 'they are no longer folded');
      const hostAfter = after.nodes.find(n => n.id === host.id)!;
      assert.ok(
        Math.abs((host.filteredInclusive ?? 0) - (hostAfter.filteredInclusive ?? 0) - callee.inclusive) <=
          1e-9 * after.total,
        "its time leaves the bar's filtered part",
      );
      assert.ok(!hostAfter.filteredCallees?.some(c => c.name === callee.name), 'no longer listed as folded');
      assert.equal(after.total, before.total);
      assertConserved(after);
      await drawnGraphs(api, 'the repopulated graph drawn', [after.nodes.length]);
      await until('the header counts what is shown again', async () => /shown again/.test(await notes()));
      await settle();
      console.log('HPC_LENS_SCREENSHOT callflow-repopulated');
      await shot();

      await menuItem(host.id, 'Hide again');
      const hidden = await until('hidden again', () => !api.callflow.data!.repopulate?.length && api.callflow.data!);
      assert.deepEqual(
        hidden.nodes.map(n => [n.id, n.inclusive, n.filteredInclusive]),
        before.nodes.map(n => [n.id, n.inclusive, n.filteredInclusive]),
        'the graph before repopulation',
      );
      assert.deepEqual(hidden.filter, before.filter);
    });
  });
}
