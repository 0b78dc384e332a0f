import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { luleshSource, writeLuleshWeakScaling } from '../../../src/analysis/ensemble/testing/lulesh-weak-scaling';
import { writeSyntheticEnsemble } from '../../../src/analysis/ensemble/testing/synthetic-ensemble';
import { LULESH_MODULE_MAP } from '../../../src/analysis/graph/test-fixtures/synthetic-runs';
import type { HpcLensApi } from './itest-support';
import type { LinkedViewName } from '../../../src/shared/ensemble-protocol';
import type { EnsembleDrawn } from '../../../src/shared/test-facts';
import { hoverText, lensTitles } from './ensemble.itest';
import { EXTENSION_ID, sampleProfile, until, workspaceRoot, writeScaledRuns } from './itest-support';

/**
 * Ensemble CallFlow in the real VS Code: the ensemble-Sankey and its five linked views in the three
 * modes, on the demo's scaled runs, the shared LULESH scaling study and a generated 1,000-run
 * ensemble; the mode drives the CodeLens and hovers on the source.
 */
export function registerEnsembleViewSuites(): void {
  suite('HPC Lens Ensemble CallFlow (views and modes)', () => {
    let api: HpcLensApi;
    let dir: string;

    /** What the page draws once it satisfies `ok` (the views redraw after every graph and detail update). */
    const rendered = (what: string, ok: (r: EnsembleDrawn) => boolean, ms = 30000) =>
      until(
        what,
        async () => {
          const r = await api.ensemble.drawn();
          return ok(r) ? r : undefined;
        },
        ms,
      );

    /** Picks two linked views in the panes' tabs, as the user does. */
    async function pickPanes(panes: [LinkedViewName, LinkedViewName]): Promise<void> {
      for (const [i, view] of panes.entries())
        await api.ensemble.agent.click(`[data-pane="${i}"][data-linked-view="${view}"]`);
    }

    /** Shows two linked views in the panes and waits until both state what they drew. */
    async function showPanes(panes: [LinkedViewName, LinkedViewName]): Promise<EnsembleDrawn> {
      await pickPanes(panes);
      return rendered(`the ${panes.join(' and ')} views drawn`, r => panes.every(p => (r.counts[p] ?? 0) > 0));
    }

    /** Opens a folder as an ensemble, shows Ensemble CallFlow and waits until its Sankey of `runs` runs is drawn. */
    async function showEnsembleOf(folder: string, runs: number): Promise<void> {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      await vscode.commands.executeCommand('hpcLens.showEnsemble');
      await rendered(
        `the ensemble-Sankey of ${folder}`,
        r => (r.counts['sankeyNodes'] ?? 0) > 0 && api.ensemble.data?.runs.length === runs,
      );
    }

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-ensemble-views-'));
    });

    suiteTeardown(async () => {
      for (let i = api.datasets.entries().length - 1; i >= 0; i--)
        if (api.datasets.entries()[i]!.kind === 'ensemble') await api.datasets.close(i);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(dir, { recursive: true, force: true });
    });

    test('the ensemble-Sankey draws gradients for every node; selecting a node fills all five linked views', async () => {
      const folder = join(dir, 'scaled');
      mkdirSync(folder);
      writeScaledRuns(folder, sampleProfile().fsPath, { run_a: 1, run_b: 1.5, run_c: 3 });
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.showEnsemble'), true);
      // The panel may still show the ensemble of an earlier suite: wait for this one's graph.
      const data = await until(
        'the graph of the scaled runs',
        () => api.ensemble.data?.runs.map(r => r.name).join() === 'run_a,run_b,run_c' && api.ensemble.data,
      );
      const first = await rendered('the ensemble-Sankey', r => r.counts['sankeyNodes'] === data.nodes.length);
      assert.equal(first.counts['sankeyNodes'], data.nodes.length);
      assert.ok(
        first.counts['gradients']! >= data.nodes.length,
        `a gradient per node: ${JSON.stringify(first.counts)}`,
      );
      // Runs are the sample × 1, 1.5, 3: every node's maximum comes from run_c, its minimum from run_a.
      for (const n of data.nodes) {
        assert.equal(n.maxInclusiveRun, 2, n.id);
        assert.ok(
          Math.abs(n.maxInclusive - 3 * n.minInclusive) <= 1e-9 * n.maxInclusive,
          `${n.id}: max ${n.maxInclusive} = 3 × min ${n.minInclusive}`,
        );
      }
      const heaviest = [...data.nodes].sort((a, b) => b.maxExclusive - a.maxExclusive)[0]!;
      await api.ensemble.request({ type: 'ensemble/select', nodeId: heaviest.id });
      assert.equal(api.ensemble.detail?.nodeId, heaviest.id);
      const both = await rendered(
        'icicle and box plots of the selection',
        r => r.selected === heaviest.id && (r.counts['icicle'] ?? 0) > 0 && (r.counts['boxes'] ?? 0) > 0,
      );
      // Every call site is drawn, or counted as too narrow to draw at this panel width.
      assert.equal(
        both.counts['icicle']! + (both.counts['icicleHidden'] ?? 0),
        api.ensemble.detail!.hierarchy.nodes.length,
      );
      assert.equal(both.counts['boxes'], api.ensemble.detail!.callSites.length);
      const more = await showPanes(['correlation', 'distribution']);
      assert.equal(
        more.counts['correlation'],
        api.ensemble.detail!.correlation.run.length,
        'one dot per call site × run',
      );
      // Three runs are too few for three clusters: the projection says so instead of drawing.
      await pickPanes(['projection', 'icicle']);
      const projection = await rendered('the projection pane', r => 'projection' in r.counts);
      if (api.ensemble.projection!.unavailable) assert.equal(projection.counts['projection'], 0);
      else assert.equal(projection.counts['projection'], 3);
      console.log('HPC_LENS_SCREENSHOT ensemble-summary');
    });

    test('target mode: the slowest run by default, green target ribbons and lines, and the CodeLens says where it sits', async () => {
      await api.ensemble.request({ type: 'ensemble/mode', mode: 'target' });
      assert.equal(api.ensemble.state?.target, 2, 'run_c is the slowest');
      const r = await rendered('target overlays', x => x.mode === 'target' && (x.counts['targetLines'] ?? 0) > 0);
      assert.ok(r.counts['targetLinks']! > 0, JSON.stringify(r.counts));
      for (const n of api.ensemble.data!.nodes)
        assert.equal(n.target?.inclusive, n.maxInclusive, `${n.id}: the target is the max run`);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c'));
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      // run_c holds the largest of the values 1 : 1.5 : 3, so its mid-rank percentile is 100 · 2.5 / 3.
      await until('a target CodeLens', async () =>
        (await lensTitles(doc.uri)).find(l => /^\$\(target\) run_c \S+ \S+ · 83rd percentile of 3 runs$/.test(l.title)),
      );
    });

    test('diff mode: compare − baseline colours slower red, the pair switch keeps the graph, the source shows the regression', async () => {
      await api.ensemble.request({ type: 'ensemble/diff', baseline: 0, compare: 2 });
      const data = api.ensemble.data!;
      assert.equal(api.ensemble.state?.mode, 'diff');
      for (const n of data.nodes)
        if (n.maxExclusive > 0) assert.ok(n.diff!.exclusive! > 0, `${n.id} is slower in run_c`);
      assert.ok(Math.abs(data.diffDomain! - Math.max(...data.nodes.map(n => Math.abs(n.diff!.exclusive ?? 0)))) < 1e-9);
      const layout = data.nodes.map(n => `${n.id}:${n.maxInclusive}`);
      await api.ensemble.request({ type: 'ensemble/diff', baseline: 2, compare: 1 });
      const swapped = api.ensemble.data!;
      assert.deepEqual(
        swapped.nodes.map(n => `${n.id}:${n.maxInclusive}`),
        layout,
        'the same ensemble graph for every pair (AT-10)',
      );
      for (const n of swapped.nodes)
        if (n.maxExclusive > 0) assert.ok(n.diff!.exclusive! < 0, `${n.id} is faster in run_b than in run_c`);
      await rendered('the diff drawn', r => r.mode === 'diff');
      await api.ensemble.request({ type: 'ensemble/diff', baseline: 0, compare: 2 });
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c'));
      const lens = await until('a diff CodeLens', async () =>
        (await lensTitles(doc.uri)).find(l => /^\$\(arrow-up\) \+.* \(\+200%\) run_c vs run_a · /.test(l.title)),
      );
      const hover = await hoverText(doc.uri, lens.line);
      assert.match(hover, /\*\*Diff `run_c` vs `run_a`:\*\* \+.* \(\+200%\) \(slower\)/);
      console.log('HPC_LENS_SCREENSHOT ensemble-diff');
      await api.ensemble.request({ type: 'ensemble/mode', mode: 'summary' });
      await until('summary lenses back', async () => (await lensTitles(doc.uri)).some(l => /CV \d+%/.test(l.title)));
    });

    test('a run subset (lasso, text-guide bin) recomputes every view over those runs; bad requests explain themselves', async () => {
      await api.ensemble.request({ type: 'ensemble/runs', runs: [0, 1] });
      const data = api.ensemble.data!;
      assert.deepEqual(data.selectedRuns, [0, 1]);
      for (const n of data.nodes) assert.equal(n.maxInclusiveRun, 1, `${n.id}: run_b is the max of the subset`);
      await api.ensemble.request({ type: 'ensemble/target', run: 7 });
      assert.match(api.ensemble.lastRequestError ?? '', /run 7 is not one of the ensemble's 3 runs/);
      await api.ensemble.request({ type: 'ensemble/runs', runs: null });
      assert.equal(api.ensemble.data!.selectedRuns.length, 3);
    });

    test('the shared LULESH scaling study: ordered by cores, with sparklines and every view', async function () {
      const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
      const folder = resolve(
        process.env.HPC_LENS_SHARED_DIR ?? resolve(extensionPath, '..', 'shared'),
        'data',
        'caliper-cali',
        'lulesh-mpi-scaling-5runs',
      );
      if (!existsSync(folder)) this.skip();
      await showEnsembleOf(folder, 5);
      const key = api.ensemble.data!.orderKeys.find(k => /core|rank|size/i.test(k)) ?? api.ensemble.data!.orderKeys[0];
      assert.ok(key, `an ordering parameter among ${JSON.stringify(api.ensemble.data!.runs.map(r => r.parameters))}`);
      await api.ensemble.request({ type: 'ensemble/options', options: { orderBy: key, textGuides: true } });
      const ordered = api.ensemble.data!;
      assert.equal(ordered.order?.key, key);
      assert.ok(ordered.nodes.every(n => n.sparkline && n.sparkline.inclusive.length === ordered.order!.levels.length));
      const top = [...ordered.nodes].sort((a, b) => b.maxInclusive - a.maxInclusive)[0]!;
      await api.ensemble.request({ type: 'ensemble/select', nodeId: top.id });
      await showPanes(['icicle', 'boxes']);
      await showPanes(['correlation', 'distribution']);
      await showPanes(['projection', 'boxes']);
      console.log('HPC_LENS_SCREENSHOT ensemble-lulesh');
    });

    test('the LULESH weak-scaling study (CallFlow §4.5.2): diff 64 − 27 in the panel, and the CodeLens on CalcForceForNodes', async () => {
      const folder = join(dir, 'lulesh-weak-scaling');
      writeLuleshWeakScaling(folder);
      // The stand-in lulesh.cc the runs' source locations name, through VS Code's file system (its watchers see it).
      const sourceDir = join(workspaceRoot().fsPath, '.itest-lulesh');
      const source = luleshSource();
      const sourceUri = vscode.Uri.file(join(sourceDir, 'lulesh.cc'));
      await vscode.workspace.fs.writeFile(sourceUri, new TextEncoder().encode(source.text));
      const settings = vscode.workspace.getConfiguration('hpcLens');
      await settings.update('moduleMap', LULESH_MODULE_MAP, vscode.ConfigurationTarget.Global);
      try {
        await showEnsembleOf(folder, 8);
        const run = (name: string) => api.ensemble.data!.runs.find(r => r.name === name)!.index;
        await api.ensemble.request({ type: 'ensemble/diff', baseline: run('27_cores'), compare: run('64_cores') });
        const data = api.ensemble.data!;
        const diffOf = (id: string) => data.nodes.find(n => n.id === id)?.diff?.exclusive;
        assert.ok(Math.abs(diffOf('CalcForce')! - 8e5) < 1, `CalcForce ${diffOf('CalcForce')}`);
        assert.ok(diffOf('CalcLagrange')! > 0 && diffOf('MPI')! < 0);
        await rendered('the diff drawn', r => r.mode === 'diff');
        const doc = await vscode.workspace.openTextDocument(sourceUri);
        await vscode.window.showTextDocument(doc);
        const line = source.lines.get('CalcForceForNodes')! - 1;
        // ↑ +8.0×10⁵ µs (+6.1 %) 64 vs 27: the function's inclusive time, mean over each run's ranks.
        const lens = await until('the diff CodeLens on CalcForceForNodes', async () =>
          (await lensTitles(doc.uri)).find(l => l.line === line && l.title.startsWith('$(arrow-up)')),
        );
        assert.match(
          lens.title,
          /^\$\(arrow-up\) \+800 ms \(\+6\.1%\) 64_cores vs 27_cores · 13\.[12] s → (13\.9|14) s$/,
        );
        const hover = await hoverText(doc.uri, line);
        assert.match(hover, /\*\*Diff `64_cores` vs `27_cores`:\*\* \+800 ms \(\+6\.1%\) \(slower\)/);
        console.log('HPC_LENS_SCREENSHOT ensemble-lulesh-diff');
        await api.ensemble.request({ type: 'ensemble/mode', mode: 'summary' });
        // Options are remembered per ensemble: 5 clusters here survive closing and reopening it.
        await api.ensemble.request({ type: 'ensemble/options', options: { clusters: 5 } });
        assert.equal(api.ensemble.state?.options.clusters, 5);
        const index = api.datasets.entries().findIndex(e => e.active && e.kind === 'ensemble');
        await api.datasets.close(index);
        assert.equal(
          await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
          true,
          `reopened (last error: ${api.lastError})`,
        );
        await vscode.commands.executeCommand('hpcLens.showEnsemble');
        await until('the reopened ensemble with its 5 clusters', async () =>
          api.ensemble.data?.runs.length === 8 && api.ensemble.state?.options.clusters === 5 ? true : undefined,
        );
      } finally {
        await settings.update('moduleMap', undefined, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(sourceDir, { recursive: true, force: true });
      }
    });

    test('a generated 1,000-run ensemble loads, draws and switches target within the interaction budget', async function () {
      this.timeout(300000);
      const folder = join(dir, 'thousand');
      writeSyntheticEnsemble(folder, { runs: 1000, nodes: 60, seed: 5 });
      const started = Date.now();
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const loadMs = Date.now() - started;
      await vscode.commands.executeCommand('hpcLens.showEnsemble');
      await rendered(
        'the 1,000-run ensemble-Sankey',
        r => (r.counts['sankeyNodes'] ?? 0) > 0 && api.ensemble.data?.runs.length === 1000,
        120000,
      );
      const graphMs = api.ensemble.lastTimings.graph!;
      const top = [...api.ensemble.data!.nodes].sort((a, b) => b.maxExclusive - a.maxExclusive)[0]!;
      await api.ensemble.request({ type: 'ensemble/select', nodeId: top.id });
      const detailMs = api.ensemble.lastTimings.detail!;
      let t = Date.now();
      await api.ensemble.request({ type: 'ensemble/mode', mode: 'target' });
      const targetMs = Date.now() - t;
      await rendered(
        'target lines on 1,000 runs',
        r => r.mode === 'target' && (r.counts['targetLines'] ?? 0) > 0,
        60000,
      );
      t = Date.now();
      await api.ensemble.request({ type: 'ensemble/diff', baseline: 0, compare: 999 });
      const diffMs = Date.now() - t;
      await showPanes(['projection', 'distribution']);
      console.log(
        `HPC_LENS_METRIC ensemble-1000 load ${loadMs} ms · graph ${graphMs.toFixed(0)} ms · selection detail ${detailMs.toFixed(0)} ms · target switch ${targetMs} ms · diff switch ${diffMs} ms`,
      );
      console.log('HPC_LENS_SCREENSHOT ensemble-1000');
    });
  });
}
