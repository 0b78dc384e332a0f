import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until } from './itest-support';

const RUN42 = '/scratch/user/run42/src';
const OTHER = '/scratch/user/other';
const STENCIL = `${RUN42}/stencil.c`;
const VANISHED = `${RUN42}/vanished_kernel.c`;
const CHECKPOINT = `${RUN42}/checkpoint.c`;
const HALO = `${OTHER}/halo.c`;

/** A Hatchet literal profile recorded on a cluster: every path points into /scratch. */
function clusterProfile(): unknown[] {
  const fn = (name: string, file: string, line: number, time: number, children: unknown[] = []) => ({
    frame: { name, type: 'function', file, line },
    metrics: { time },
    children,
  });
  return [
    fn('main', '/scratch/user/run42/src/main.c', 10, 1, [
      fn('jacobi_sweep', STENCIL, 12, 60),
      fn('compute_residual', STENCIL, 29, 5),
      fn('exchange_halos', HALO, 19, 20),
      fn('write_checkpoint', CHECKPOINT, 28, 8),
      fn('fused_kernel', VANISHED, 3, 6),
    ]),
  ];
}

/** CodeLens of a file (opened as a document first: the CodeLens command needs a model). */
async function lensesOn(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  await vscode.workspace.openTextDocument(uri);
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
}

export function registerRemappingSuites(): void {
  suite('HPC Lens maps recorded source paths onto the workspace', () => {
    let api: HpcLensApi;
    let ws: vscode.Uri;
    let tmp: string;
    let otherRoot: string;
    let settingsFile: string;
    let settingsBefore: string | undefined;
    const cfg = () => vscode.workspace.getConfiguration('hpcLens');
    const src = (name: string) => vscode.Uri.joinPath(ws, 'src', name);

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      ws = vscode.workspace.workspaceFolders![0]!.uri;
      settingsFile = join(ws.fsPath, '.vscode', 'settings.json');
      settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
      tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-remap-'));
      // A second source tree (a search root) that holds another checkpoint.c and halo.c: same names, other folders.
      otherRoot = join(tmp, 'vendor-copy');
      mkdirSync(join(otherRoot, 'src'), { recursive: true });
      mkdirSync(join(otherRoot, 'lib'), { recursive: true });
      writeFileSync(
        join(otherRoot, 'src', 'checkpoint.c'),
        '/* an older copy */\nint write_checkpoint(void) { return 0; }\n',
      );
      writeFileSync(join(otherRoot, 'lib', 'halo.c'), '/* an older copy */\nvoid exchange_halos(void) {}\n');
      const profile = join(tmp, 'cluster-run42.json');
      writeFileSync(profile, JSON.stringify(clusterProfile()));
      await cfg().update('sourceSearchRoots', [otherRoot], vscode.ConfigurationTarget.Global);
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(profile)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(api.active!.format, 'hatchet-literal');
    });

    suiteTeardown(async () => {
      await cfg().update('pathMappings', undefined, vscode.ConfigurationTarget.Global);
      await cfg().update('pathMappings', undefined, vscode.ConfigurationTarget.Workspace);
      await cfg().update('sourceSearchRoots', undefined, vscode.ConfigurationTarget.Global);
      if (settingsBefore !== undefined) writeFileSync(settingsFile, settingsBefore);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(tmp, { recursive: true, force: true });
    });

    test('a /scratch path resolves into the sample workspace by its longest unique suffix', async () => {
      const r = await api.sources.resolution(STENCIL);
      assert.deepEqual([r.kind, r.uri], ['suffix', src('stencil.c').toString()]);
      const doc = await vscode.workspace.openTextDocument(src('stencil.c'));
      await vscode.window.showTextDocument(doc);
      const lenses = await until('CodeLens on stencil.c', async () => {
        const ls = await lensesOn(doc.uri);
        return ls.length ? ls : undefined;
      });
      const sweep = lenses.find(l => l.range.start.line === 11);
      assert.ok(
        sweep?.command,
        `a lens on jacobi_sweep (line 12); lenses at ${lenses.map(l => l.range.start.line + 1).join(', ')}`,
      );
      assert.match(sweep.command.title, /^\$\(flame\) 60(\.0)?% inclusive/);
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT remapping-suffix');
      await new Promise(r => setTimeout(r, 500));
    });

    test('files that are missing or ambiguous are listed, not dropped or guessed', async () => {
      const list = await api.sources.unresolved();
      // main.c and stencil.c are placed by suffix; halo.c and checkpoint.c tie with the search root's copies.
      assert.deepEqual(
        list.map(u => [u.recorded, u.kind]),
        [
          [HALO, 'ambiguous'],
          [CHECKPOINT, 'ambiguous'],
          [VANISHED, 'missing'],
        ],
      );
      const checkpoint = list.find(u => u.recorded === CHECKPOINT)!;
      assert.deepEqual(
        new Set(checkpoint.candidates),
        new Set([src('checkpoint.c').toString(), vscode.Uri.file(join(otherRoot, 'src', 'checkpoint.c')).toString()]),
      );
      assert.equal(await lensesOn(src('checkpoint.c')).then(l => l.length), 0, 'an ambiguous file gets no overlays');
      // The command lists them in a quick pick; dismissing it changes nothing.
      const shown = vscode.commands.executeCommand('hpcLens.showUnresolvedSources');
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT remapping-unresolved');
      await new Promise(r => setTimeout(r, 1500));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await shown, undefined);
    });

    test('a source that appears in the workspace after the profile resolves without a reload; deleted, it is missing again', async () => {
      assert.equal((await api.sources.resolution(VANISHED)).kind, 'missing');
      const file = src('vanished_kernel.c');
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('void fused_kernel(void) {}\n'));
      try {
        const found = await until('the new file is found', async () => {
          const r = await api.sources.resolution(VANISHED);
          return r.kind === 'suffix' ? r : undefined;
        });
        assert.equal(found.uri, file.toString());
      } finally {
        await vscode.workspace.fs.delete(file);
      }
      await until('the deleted file is missing again', async () =>
        (await api.sources.resolution(VANISHED)).kind === 'missing' ? true : undefined,
      );
    });

    test('a source written where no watcher looks (a search root outside the workspace) resolves once it is opened', async () => {
      assert.equal((await api.sources.resolution(VANISHED)).kind, 'missing');
      const file = join(otherRoot, 'src', 'vanished_kernel.c');
      writeFileSync(file, 'void fused_kernel(void) {}\n');
      try {
        // The workspace's watcher does not see the search root: the cached answer stands until the file is opened.
        await new Promise(r => setTimeout(r, 1000));
        assert.equal((await api.sources.resolution(VANISHED)).kind, 'missing');
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
        const found = await until('the opened file is found', async () => {
          const r = await api.sources.resolution(VANISHED);
          return r.kind === 'suffix' ? r : undefined;
        });
        assert.equal(found.uri, vscode.Uri.file(file).toString());
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        rmSync(file, { force: true });
        api.sources.reset();
      }
      assert.equal((await api.sources.resolution(VANISHED)).kind, 'missing');
    });

    test('a configured prefix mapping with ${workspaceFolder} places a file suffix matching cannot', async () => {
      assert.equal((await api.sources.resolution(HALO)).kind, 'ambiguous');
      await cfg().update(
        'pathMappings',
        [{ from: OTHER, to: '${workspaceFolder}/src' }],
        vscode.ConfigurationTarget.Global,
      );
      const r = await until('halo.c mapped', async () => {
        const x = await api.sources.resolution(HALO);
        return x.kind === 'mapped' ? x : undefined;
      });
      assert.equal(r.uri, src('halo.c').toString());
      // The active profile's overlays were re-derived: a lens on exchange_halos, without reopening.
      const lenses = await until('CodeLens on halo.c', async () => {
        const ls = await lensesOn(src('halo.c'));
        return ls.length ? ls : undefined;
      });
      assert.ok(
        lenses.some(l => l.range.start.line === 18 && /20(\.0)?% inclusive/.test(l.command?.title ?? '')),
        lenses.map(l => `${l.range.start.line + 1}: ${l.command?.title}`).join('\n'),
      );
      assert.ok(!(await api.sources.unresolved()).some(u => u.recorded === HALO));
    });

    test('a /regex/ mapping with a capture group resolves too', async () => {
      await cfg().update(
        'pathMappings',
        [{ from: '/^\\/scratch\\/[^/]+\\/run\\d+\\/(src)\\//', to: '${workspaceFolder}/$1/' }],
        vscode.ConfigurationTarget.Global,
      );
      const r = await until('checkpoint.c mapped by regex', async () => {
        const x = await api.sources.resolution(CHECKPOINT);
        return x.kind === 'mapped' ? x : undefined;
      });
      assert.equal(r.uri, src('checkpoint.c').toString());
      await cfg().update('pathMappings', undefined, vscode.ConfigurationTarget.Global);
      await until('mapping removed', async () => (await api.sources.resolution(CHECKPOINT)).kind === 'ambiguous');
    });

    test('Locate file… remembers the answer in the workspace settings so sibling files resolve', async () => {
      const chosen = await vscode.commands.executeCommand<vscode.Uri>(
        'hpcLens.locateSourceFile',
        CHECKPOINT,
        src('checkpoint.c'),
      );
      assert.equal(chosen?.toString(), src('checkpoint.c').toString());
      const saved = cfg().inspect<{ from: string; to: string }[]>('pathMappings')?.workspaceValue;
      assert.deepEqual(saved, [{ from: RUN42, to: '${workspaceFolder}/src' }]);
      assert.equal((await api.sources.resolution(CHECKPOINT)).kind, 'mapped');
      const lenses = await until('CodeLens on checkpoint.c', async () => {
        const ls = await lensesOn(src('checkpoint.c'));
        return ls.length ? ls : undefined;
      });
      assert.ok(
        lenses.some(l => l.range.start.line === 27),
        lenses.map(l => l.range.start.line + 1).join(', '),
      );
      const left = (await api.sources.unresolved()).map(u => u.recorded);
      assert.ok(!left.includes(CHECKPOINT), left.join(', '));
      assert.ok(left.includes(VANISHED), 'a file that exists nowhere stays listed');
      const doc = await vscode.workspace.openTextDocument(src('checkpoint.c'));
      await vscode.window.showTextDocument(doc);
      await new Promise(r => setTimeout(r, 800));
      console.log('HPC_LENS_SCREENSHOT remapping-located');
      await new Promise(r => setTimeout(r, 1200));
    });
  });
}
