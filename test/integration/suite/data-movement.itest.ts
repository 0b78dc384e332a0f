import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { DATA_MOVEMENT_KIND_NAMES } from '../../../src/analysis/model/trace';
import {
  dataMovementAnnotation,
  dataMovementSites,
  DIRECTION_LABELS,
} from '../../../src/analysis/stats/data-movement-sites';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, workspaceRoot } from './itest-support';

const sampleTrace = () => vscode.Uri.joinPath(workspaceRoot(), 'profiles', 'heat-offload-kineto.json');
const offloadC = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'offload.c');
const config = () => vscode.workspace.getConfiguration('hpcLens');

/** The copy and memset calls of offload.c by a plain text scan: 1-based line → the direction its text says. */
function copyCallsInSource(): Map<number, string> {
  const out = new Map<number, string>();
  readFileSync(offloadC().fsPath, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (!/^\s+dev_mem(cpy|set)_async\(/.test(text)) return;
      out.set(
        i + 1,
        text.includes('dev_memset_async') ? 'memset' : text.includes('COPY_HOST_TO_DEVICE') ? 'H→D' : 'D→H',
      );
    });
  return out;
}

export function registerDataMovementSuites(): void {
  suite('HPC Lens data movement: line markers and the Data Movement view', () => {
    let api: HpcLensApi;

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
    });

    suiteTeardown(async () => {
      await config().update('dataMovement.annotations', undefined, vscode.ConfigurationTarget.Global);
      await config().update('overlays.enabled', undefined, vscode.ConfigurationTarget.Global);
      // Leave the datasets as the other suites expect them: close the traces this suite opened.
      for (const name of ['heat-offload-kineto.json', 'worker0.1623143089861.pt.trace.json.gz']) {
        const i = api.datasets.entries().findIndex(e => e.label === name);
        if (i >= 0) await api.datasets.close(i);
      }
    });

    test('the sample GPU-port trace marks exactly the copy calls of offload.c, with direction and totals after the line', async () => {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', sampleTrace()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(api.active!.format, 'chrome-trace');
      const doc = await vscode.workspace.openTextDocument(offloadC());
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);

      const calls = copyCallsInSource();
      assert.equal(calls.size, 7);
      const p = await readProfile(sampleTrace().fsPath);
      const expected = dataMovementSites(p.trace!.dataMovement, p.tree)
        .sites.map(s => ({ line: s.line!, direction: s.directions[0]!.label, annotation: dataMovementAnnotation(s) }))
        .sort((a, b) => a.line - b.line);
      const marked = await until('data-movement markers on offload.c', async () => {
        const m = await api.dataMovementLines(doc.uri);
        return m.length ? m : undefined;
      });
      assert.deepEqual(marked, expected);
      assert.deepEqual(
        marked.map(m => [m.line, m.direction]),
        [...calls],
      );
      // The halo rows: 20 steps × one row of 1026 doubles (8.21 kB), 164 kB in all.
      const halo = marked.find(m => m.line === [...calls.keys()][2])!;
      assert.match(halo.annotation!, /^⇅ D→H 164 kB · 20× · \d+(\.\d+)? µs · \d+(\.\d+)? GB\/s$/);

      await config().update('dataMovement.annotations', false, vscode.ConfigurationTarget.Global);
      await until(
        'markers without text',
        async () => (await api.dataMovementLines(doc.uri)).every(m => m.annotation === undefined) || undefined,
      );
      assert.equal((await api.dataMovementLines(doc.uri)).length, 7, 'the gutter marks stay');
      await config().update('overlays.enabled', false, vscode.ConfigurationTarget.Global);
      await until(
        'no markers with overlays off',
        async () => (await api.dataMovementLines(doc.uri)).length === 0 || undefined,
      );
      await config().update('overlays.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config().update('dataMovement.annotations', undefined, vscode.ConfigurationTarget.Global);
      await until('markers back', async () => (await api.dataMovementLines(doc.uri)).length === 7 || undefined);
    });

    test('the Data Movement view lists the issuing lines by bytes; a site and a call path open their lines', async () => {
      const p = await readProfile(sampleTrace().fsPath);
      const { sites } = dataMovementSites(p.trace!.dataMovement, p.tree);
      // The sites (the flags' group, first, has its own suite: dmv.itest.ts).
      const rows = api.dataMovementEntries().filter(r => r.icon !== 'warning');
      assert.deepEqual(
        rows.map(r => r.label),
        sites.map(s => `offload.c:${s.line}`),
      );
      const top = rows[0]!;
      assert.equal(top.description, `H→D 3.37 MB · 1×`);
      assert.deepEqual(
        top.children!.map(c => c.label),
        ['H→D', 'offload_timesteps › offload_stage_in'],
      );
      assert.match(top.children![0]!.description, /^3\.37 MB · 1× · \d+(\.\d+)? µs · \d+(\.\d+)? GB\/s$/);

      await vscode.commands.executeCommand(
        'hpcLens.revealNode',
        top.location!.file,
        top.location!.line,
        top.location!.name,
      );
      const editor = await until('offload.c open at the site', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.path.endsWith('/src/offload.c') && e.selection.active.line === sites[0]!.line! - 1
          ? e
          : undefined;
      });
      assert.match(editor.document.lineAt(editor.selection.active.line).text, /dev_memcpy_async\(d->u, u, d->cells/);
      // A call path leads to the caller's line: where offload_timesteps calls offload_stage_in.
      const path = top.children![1]!.location!;
      await vscode.commands.executeCommand('hpcLens.revealNode', path.file, path.line, path.name);
      const caller = await until('the caller line', () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.lineAt(e.selection.active.line).text.includes('offload_stage_in(b, u, &d)')
          ? e
          : undefined;
      });
      assert.ok(caller);

      await vscode.commands.executeCommand('hpcLens.dataMovement.focus');
      await new Promise(r => setTimeout(r, 1500));
      console.log('HPC_LENS_SCREENSHOT data-movement');
      await new Promise(r => setTimeout(r, 2000));
    });

    test('a PyTorch (Kineto) trace: the view lists its host→device copies and every direction it records', async function () {
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      const shared = process.env.HPC_LENS_SHARED_DIR ?? resolve(ext.extensionPath, '..', 'shared');
      const trace = join(
        shared,
        'data',
        'chrome-trace',
        'pytorch-profiler-resnet50',
        'worker0.1623143089861.pt.trace.json.gz',
      );
      if (!existsSync(trace)) this.skip();
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(trace)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const p = await readProfile(trace);
      const dm = p.trace!.dataMovement;
      const recorded = new Set<string>();
      for (let i = 0; i < dm.kind.length; i++) recorded.add(DIRECTION_LABELS[dm.kind[i]!]!);
      assert.ok(
        recorded.has('H→D'),
        `the trace records host→device copies (${[...recorded]}; kinds ${DATA_MOVEMENT_KIND_NAMES.join(', ')})`,
      );
      const rows = await until('Data Movement rows for the trace', () => {
        const r = api.dataMovementEntries().filter(e => e.icon !== 'warning');
        // The view may still list the previous dataset's sites: wait for the trace's own (Python lines).
        return r.some(e => e.description.startsWith('H→D') && /\.py:\d+$/.test(e.label)) ? r : undefined;
      });
      const shown = new Set(rows.flatMap(r => r.children!.filter(c => !c.label.includes('›')).map(c => c.label)));
      assert.deepEqual([...shown].sort(), [...recorded].sort());
      const h2d = rows.find(r => r.description.startsWith('H→D'));
      assert.ok(
        h2d,
        `a site whose dominant direction is H→D among ${rows.map(r => `${r.label} ${r.description}`).join('; ')}`,
      );
      // The host→device site is a Python line of the run (a frame with file:line), not a function fallback.
      assert.match(h2d.label, /\.py:\d+$/);
    });
  });
}
