import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { nodeRankHistogram } from '../../../src/analysis/graph/rank-histogram';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, within } from './itest-support';

const sampleProfile = () => {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the sample workspace is open');
  return vscode.Uri.joinPath(f.uri, 'profiles', 'heat-stencil-sampling-4ranks.json');
};

/** Shows the Sankey, waits for the host's new graph and for the webview to draw it. */
async function showCallflow(api: HpcLensApi) {
  const updated = api.callflow.nextUpdate();
  await vscode.commands.executeCommand('hpcLens.showCallflow');
  await within(updated, 'the host computes the graph');
  const data = api.callflow.data!;
  const drawn = await until(
    'the webview draws the graph',
    async () => {
      const d = await api.callflow.drawn();
      return d.graphs[0]?.nodes === data.nodes.length && d.graphs[0].links === data.links.length ? d : undefined;
    },
    30000,
  );
  return { report: { nodeCount: drawn.graphs[0]!.nodes, linkCount: drawn.graphs[0]!.links }, data };
}

export function registerSuperGraphSuites(): void {
  suite('HPC Lens call graph: module map and super-graph data', () => {
    let api: HpcLensApi;
    const config = () => vscode.workspace.getConfiguration('hpcLens');
    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      assert.ok(await api.open(sampleProfile()), 'the sample profile opens');
    });
    suiteTeardown(async () => {
      await config().update('moduleMap', undefined, vscode.ConfigurationTarget.Global);
    });

    test('the hpcLens.moduleMap setting regroups the Sankey, first match wins, and bad rules are skipped', async () => {
      const before = await showCallflow(api);
      assert.ok(
        before.data.nodes.some(n => n.module === 'libminimpi.so'),
        'load modules without a map',
      );
      assert.ok(!before.data.nodes.some(n => n.module === 'MPI'));

      await config().update(
        'moduleMap',
        [
          { match: 'name', pattern: '/^MPI_/', module: 'MPI' },
          { match: 'name', pattern: '/^(jacobi_sweep|compute_residual)$/', module: 'Stencil kernels' },
          { match: 'name', pattern: 'jacobi_sweep', module: 'never: an earlier rule matched' },
          { match: 'name', pattern: '/(/', module: 'a broken rule is skipped' },
        ],
        vscode.ConfigurationTarget.Global,
      );
      const { report, data } = await showCallflow(api);
      assert.equal(report.nodeCount, data.nodes.length);
      assert.equal(report.linkCount, data.links.length);
      const mpi = data.nodes.find(n => n.module === 'MPI');
      assert.ok(mpi, `an MPI node among ${data.nodes.map(n => n.id).join(', ')}`);
      // MPI_Allreduce and MPI_Barrier are called from the application directly: they enter MPI too.
      assert.deepEqual(mpi.entries!.map(e => e.name).sort(), ['MPI_Allreduce', 'MPI_Barrier', 'MPI_Sendrecv']);
      assert.deepEqual(mpi.callers!.map(c => c.id).sort(), ['heat', 'libckpt.so', 'libhalo.so']);
      const kernels = data.nodes.find(n => n.module === 'Stencil kernels');
      assert.ok(kernels);
      assert.deepEqual(kernels.entries!.map(e => e.name).sort(), ['compute_residual', 'jacobi_sweep']);
      assert.ok(
        kernels.entries!.every(e => e.file?.endsWith('stencil.c') && (e.line ?? 0) > 0),
        'entry functions carry their source lines',
      );
      assert.ok(!data.nodes.some(n => n.module.startsWith('never') || n.module.startsWith('a broken')));

      // The level-of-detail fields the views use: one value per context, histograms, callers with shares.
      const contexts = data.contexts!.count;
      assert.ok(contexts >= 4);
      for (const n of data.nodes) {
        assert.equal(n.contextValues!.inclusive.length, contexts, n.id);
        assert.ok(
          Math.abs(n.contextValues!.inclusive.reduce((a, b) => a + b, 0) - n.inclusive) <=
            1e-9 * Math.max(1, n.inclusive),
        );
        assert.equal(n.histogram, undefined, 'per-context values, not also histograms (the views bin them)');
        assert.equal(
          nodeRankHistogram(n, 'inclusive')!.counts.reduce((a, b) => a + b, 0),
          contexts,
        );
        const inflow = n.callers!.reduce((a, c) => a + c.value, 0);
        assert.ok(inflow <= n.inclusive * (1 + 1e-9), `${n.id}: callers send at most its inclusive value`);
      }
      assert.equal(data.filter!.threshold, 0.001);
      console.log('HPC_LENS_SCREENSHOT super-graph-module-map');

      await config().update('moduleMap', undefined, vscode.ConfigurationTarget.Global);
      const after = await showCallflow(api);
      assert.deepEqual(
        after.data.nodes.map(n => n.id),
        before.data.nodes.map(n => n.id),
        'removing the map restores the same graph',
      );
    });
  });
}
