import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, workspaceRoot } from './itest-support';

const sharedData = (...parts: string[]) => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  return join(process.env.HPC_LENS_SHARED_DIR ?? resolve(ext.extensionPath, '..', 'shared'), 'data', ...parts);
};

/**
 * Automated analysis of traces (issue 18, seed 001) in the editor: HPC Lens: Analyse Trace runs it
 * in the analysis workers; the Trace Analysis panel, the side-bar view, CodeLenses on the
 * significant call sites and the timeline (lanes by cluster, class colours) show it.
 */
export function registerTraceAnalysisSuites(): void {
  suite('HPC Lens trace analysis', () => {
    let api: HpcLensApi;
    const opened: string[] = [];
    // The ping-pong's source is not in the workspace: a stand-in with its line count, found by file name.
    const sourceDir = join(workspaceRoot().fsPath, '.itest-trace-analysis');

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      // Through VS Code's file system, as an editor would: its watchers see the file appear, and a
      // trace opened by an earlier suite, whose ping-pong.c was missing then, finds it now.
      await vscode.workspace.fs.writeFile(
        vscode.Uri.file(join(sourceDir, 'ping-pong.c')),
        new TextEncoder().encode(Array.from({ length: 80 }, (_, i) => `/* line ${i + 1} */`).join('\n') + '\n'),
      );
    });

    suiteTeardown(async () => {
      for (const name of opened) {
        const i = api.datasets.entries().findIndex(e => e.label === name);
        if (i >= 0) await api.datasets.close(i);
      }
      rmSync(sourceDir, { recursive: true, force: true });
    });

    test('HPCToolkit trace.db ping-pong: V ≈ 6 ms, the loop a profile node, 2 clusters; panel, side bar, CodeLenses, timeline', async function () {
      const path = sharedData('hpctoolkit-metadb', 'ping-pong-mpi-with-trace');
      if (!existsSync(path)) this.skip();
      opened.push('ping-pong-mpi-with-trace');
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(path)), true);
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.analyseTrace'), true, api.lastError);
      const v = api.traceAnalysis.current!.view;
      assert.ok(Math.abs(v.samplingPeriod! - 0.006) < 0.0005, `V = ${v.samplingPeriod}`);
      assert.equal(v.clusters.length, 2);
      const inner = v.loops.find(l => l.name === 'Loop@ping-pong.c:53')!;
      assert.equal(inner.accepted, false, 'under the defaults the loop is a profile node');
      assert.equal(inner.rejectedIds, 8);

      // The panel drew what the analysis found.
      const drawn = await until('the panel drew the result', async () => {
        const d = await api.traceAnalysis.drawn().catch(() => undefined);
        return d && d.state === 'result' ? d : undefined;
      });
      assert.equal(drawn.clusters, 2);
      assert.equal(drawn.paths, v.paths.length);
      assert.equal(drawn.segments, v.segments.length);
      assert.ok(drawn.bandHeights.every(h => h >= 20));
      assert.ok(Math.abs(drawn.whatIf - v.totalSaving) < 1e-9, 'every segment counts in the what-if at first');

      // The side bar lists the call sites by projected saving.
      const rows = api.traceAnalysis.viewEntries();
      assert.ok(rows.length > 0);
      assert.match(rows[0]!.label as string, /MPI_(Send|Recv).*ping-pong\.c:\d+/);

      // CodeLenses on the significant call sites of ping-pong.c.
      const source = vscode.Uri.joinPath(workspaceRoot(), '.itest-trace-analysis', 'ping-pong.c');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source));
      const lenses = await until('the call-site lenses', async () => {
        const all = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', source);
        const mine = all.filter(l => l.command?.command === 'hpcLens.revealTraceAnalysisPath');
        return mine.length ? mine : undefined;
      });
      const lines = new Set(v.paths.filter(p => p.file && p.line).map(p => p.line! - 1));
      assert.ok(
        lenses.every(l => lines.has(l.range.start.line)),
        'each lens sits on a significant call site',
      );
      assert.ok(
        lenses.some(l =>
          /(imbalance|waiting) [\d.]+ (ms|µs|s) \([\d.]+ % of run\).* · wait · max (on|in cluster)/.test(
            l.command!.title,
          ),
        ),
        lenses.map(l => l.command!.title).join('\n'),
      );

      // The hover on a call site says what its lens says, in full (path, min/avg/max, the segment's diagnosis).
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        source,
        new vscode.Position(lenses[0]!.range.start.line, 0),
      );
      const hoverText = hovers
        .flatMap(h => h.contents)
        .map(c => (typeof c === 'string' ? c : c.value))
        .join('\n');
      assert.match(hoverText, /Trace analysis: .*MPI\\?_(Send|Recv)/);
      assert.match(hoverText, /\n\nTable 2 row \d/, 'the diagnosis in its own paragraph');
      assert.match(hoverText, /min .* · avg .* · max /);

      // A segment's Show in Timeline: the timeline opens on that window, lanes by cluster, coloured by class.
      const segment = v.segments.find(s => s.startNs !== null)!;
      await api.traceAnalysis.agent.click(`[data-segment-row="${segment.index}"] button`);
      await until('the timeline shows the segment', async () =>
        api.timeline.selection?.window.start === segment.startNs ? true : undefined,
      );
      const frame = await until('the timeline by cluster and class', async () => {
        const f = await api.timeline.drawn().catch(() => undefined);
        return f && f.sort === 'clusters' && f.colourBy === 'class' && f.groups === 2 ? f : undefined;
      });
      assert.equal(frame.lanes, 2);
      assert.ok(frame.view.start <= segment.startNs! && frame.view.end >= segment.endNs!);
    });

    test('OTF2 ping-pong: one cluster, and the panel says why (Ratio_min)', async function () {
      const path = sharedData('scorep-otf2', 'ping-pong-2ranks');
      if (!existsSync(path)) this.skip();
      opened.push('ping-pong-2ranks');
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(path)), true);
      assert.equal(await vscode.commands.executeCommand<boolean>('hpcLens.analyseTrace'), true, api.lastError);
      assert.equal(api.traceAnalysis.current!.view.clusters.length, 1);
      const drawn = await until('the panel drew the result', async () => {
        const d = await api.traceAnalysis.drawn().catch(() => undefined);
        return d && d.state === 'result' && d.clusters === 1 ? d : undefined;
      });
      assert.equal(drawn.oneCluster.length, 1);
      assert.match(drawn.oneCluster[0]!, /under Ratio_min = 0\.02/);
    });
  });
}
