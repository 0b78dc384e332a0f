import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, sampleProfile, type HpcLensApi } from './itest-support';

/**
 * Runs in the harness's "untrusted" phase only: a copy of the sample workspace, never trusted, whose
 * settings name a profile to open on startup, a catastrophic path pattern that would send stencil.c
 * to main.c, the file-system root as a search root and a module pattern (run-in-vscode.mjs writes
 * them). HPC Lens must run in restricted mode and ignore all of them, saying so.
 */
export function registerUntrustedSuites(): void {
  let api: HpcLensApi;

  suite('HPC Lens in an untrusted workspace', () => {
    test('runs in restricted mode and opens nothing the workspace asks for on startup', async () => {
      assert.equal(vscode.workspace.isTrusted, false, 'the harness never trusts this workspace');
      const ext = vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} is installed`);
      api = await ext.activate();
      await api.startup;
      assert.deepEqual(api.datasets.entries(), [], 'hpcLens.openOnStartup of an untrusted workspace is not opened');
    });

    test('the workspace’s patterns and folders are ignored, with a notice naming them', async () => {
      assert.deepEqual(await api.ignoredWorkspaceSettings(), [
        'hpcLens.pathMappings',
        'hpcLens.sourceSearchRoots',
        'hpcLens.moduleMap',
      ]);
      // VS Code hands the extension the user's values of restricted settings only.
      const cfg = vscode.workspace.getConfiguration('hpcLens');
      assert.deepEqual(cfg.get('pathMappings'), []);
      assert.deepEqual(cfg.get('sourceSearchRoots'), []);
      assert.deepEqual(cfg.get('moduleMap'), []);
    });

    test('a profile the user opens works, its sources found without the workspace’s mapping', async () => {
      assert.equal(await api.open(sampleProfile()), true);
      assert.ok(api.active, 'the profile is active');
      const r = await api.sources.resolution('/scratch/user/run42/src/stencil.c');
      assert.ok(r.uri?.endsWith('/src/stencil.c'), `stencil.c resolves to itself, not to main.c: ${r.kind} ${r.uri}`);
    });
  });
}
