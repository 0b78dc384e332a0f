import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { DataMovementKind } from '../../../src/analysis/model/trace';
import { formatBytes, formatValue } from '../../../src/analysis/stats/format';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, expectedHeatLines, until, within } from './itest-support';

/** shared/ beside the checkout (real tool output); absent outside the development workplace. */
function sharedDir(): string {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  return process.env.HPC_LENS_SHARED_DIR ?? resolve(ext.extensionPath, '..', 'shared');
}

/** A cpi.c whose functions carry the names HPCToolkit recorded (the classic MPI pi example's shape). */
const CPI_SOURCE = `#include <mpi.h>
#include <stdio.h>
#include <math.h>

double f(double a)
{
    return 4.0 / (1.0 + a * a);
}

int main(int argc, char *argv[])
{
    int n = 100000000, rank, size;
    double h, sum = 0.0, x, mypi, pi;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    h = 1.0 / (double)n;
    for (int i = rank + 1; i <= n; i += size) {
        x = h * ((double)i - 0.5);
        sum += f(x);
    }
    mypi = h * sum;
    MPI_Reduce(&mypi, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("pi is approximately %.16f\\n", pi);
    MPI_Finalize();
    return 0;
}
`;

export function registerFormatSuites(): void {
  suite('HPC Lens reads every profile format in VS Code', () => {
    let api: HpcLensApi;
    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
    });

    test('an HPCToolkit database recorded elsewhere maps onto local sources through a search root', async function () {
      const db = join(sharedDir(), 'data', 'hpctoolkit-xml', 'cpi-4ranks');
      if (!existsSync(db)) this.skip();
      const root = mkdtempSync(join(tmpdir(), 'hpc-lens-cpi-'));
      mkdirSync(join(root, 'src'));
      const source = join(root, 'src', 'cpi.c');
      writeFileSync(source, CPI_SOURCE);
      const cfg = vscode.workspace.getConfiguration('hpcLens');
      await cfg.update('sourceSearchRoots', [root], vscode.ConfigurationTarget.Global);
      try {
        assert.equal(
          await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(db)),
          true,
          `opened (last error: ${api.lastError})`,
        );
        const a = api.active!;
        assert.deepEqual([a.format, a.nodes, a.contexts], ['hpctoolkit-xml', 34, 4]);
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(source));
        await vscode.window.showTextDocument(doc);
        const lenses = await until('CodeLens on cpi.c', async () => {
          const ls = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
          return ls.length ? ls : undefined;
        });
        const mainLine = doc
          .getText()
          .split('\n')
          .findIndex(l => l.startsWith('int main('));
        const lens = lenses.find(l => l.range.start.line === mainLine);
        assert.ok(lens?.command, `a lens on main; lenses at ${lenses.map(l => l.range.start.line + 1).join(', ')}`);
        assert.match(lens.command.title, /^\$\(flame\) 100(\.0)?% inclusive .* over 4 ranks$/);
      } finally {
        await cfg.update('sourceSearchRoots', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    test('a TAU profile directory opens with its ranks and draws its Sankey', async function () {
      const dir = join(sharedDir(), 'data', 'tau', 'cpi-mpi-4ranks-callpath');
      if (!existsSync(dir)) this.skip();
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(dir)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const a = api.active!;
      assert.deepEqual([a.format, a.nodes, a.contexts, a.metric], ['tau-profile', 12, 4, 'time']);
      const updated = api.callflow.nextUpdate();
      await vscode.commands.executeCommand('hpcLens.showCallflow');
      await within(updated, 'the host computes the graph');
      const data = api.callflow.data!;
      const drawn = await until(
        'the webview draws the graph',
        async () => {
          const d = await api.callflow.drawn();
          return d.graphs[0]?.nodes === data.nodes.length ? d : undefined;
        },
        30000,
      );
      assert.ok(drawn.graphs[0]!.nodes > 0);
    });

    test('a PyTorch (Kineto) trace: the Python line shows its operator time and the host→device bytes it moves', async function () {
      const trace = join(
        sharedDir(),
        'data',
        'chrome-trace',
        'pytorch-profiler-resnet50',
        'worker0.1623143089861.pt.trace.json.gz',
      );
      if (!existsSync(trace)) this.skip();
      // The trace records the script as "resnet50_profiler_api.py"; a local copy sits in a search root.
      const root = mkdtempSync(join(tmpdir(), 'hpc-lens-kineto-'));
      const script = join(root, 'resnet50_profiler_api.py');
      writeFileSync(
        script,
        Array.from({ length: 60 }, (_, i) =>
          i === 53 ? '        output = model(inputs.to(device))' : `# line ${i + 1}`,
        ).join('\n') + '\n',
      );
      const cfg = vscode.workspace.getConfiguration('hpcLens');
      await cfg.update('sourceSearchRoots', [root], vscode.ConfigurationTarget.Global);
      try {
        assert.equal(
          await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(trace)),
          true,
          `opened (last error: ${api.lastError})`,
        );
        assert.equal(api.active!.format, 'chrome-trace');
        // Expected, straight from the model: the nodes at line 54 and the copies issued beneath them.
        const p = await readProfile(trace);
        const atLine: number[] = [];
        for (let i = 0; i < p.tree.size; i++)
          if (p.tree.file(i)?.endsWith('resnet50_profiler_api.py') && p.tree.line(i) === 54) atLine.push(i);
        assert.ok(atLine.length > 0, 'the trace has frames at resnet50_profiler_api.py:54');
        const under = (n: number) => {
          for (; n >= 0; n = p.tree.parent(n)) if (atLine.includes(n)) return true;
          return false;
        };
        const dm = p.trace!.dataMovement;
        let h2d = 0;
        for (let i = 0; i < dm.kind.length; i++)
          if (dm.kind[i] === DataMovementKind.HostToDevice && under(dm.node[i]!)) h2d += dm.bytes[i]!;
        assert.ok(h2d > 0, 'host→device copies are issued beneath line 54');
        const time = p.metricIndex('time');
        const outermost = atLine.filter(n => {
          for (let a = p.tree.parent(n); a >= 0; a = p.tree.parent(a)) if (atLine.includes(a)) return false;
          return true;
        });
        const inclusive = outermost.reduce((sum, n) => sum + p.inclusiveTotals(time)[n]!, 0);

        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(script));
        await vscode.window.showTextDocument(doc);
        const hovers = await until('a hover on line 54', async () => {
          const hs = await vscode.commands.executeCommand<vscode.Hover[]>(
            'vscode.executeHoverProvider',
            doc.uri,
            new vscode.Position(53, 12),
          );
          return hs.length ? hs : undefined;
        });
        const text = hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
        assert.ok(
          text.includes(`| host-to-device | ${formatBytes(h2d)} |`),
          `the hover shows ${formatBytes(h2d)} host→device:\n${text}`,
        );
        assert.ok(
          text.includes(formatValue(inclusive, p.metrics[time]!.unit)),
          `the hover shows the operator time ${formatValue(inclusive, p.metrics[time]!.unit)}:\n${text}`,
        );
      } finally {
        await cfg.update('sourceSearchRoots', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    test('the demo callgrind profile puts line-level heat on the Jacobi sweep', async () => {
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const profileUri = vscode.Uri.joinPath(folder, 'profiles', 'callgrind.out.heat-stencil-4ranks');
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', profileUri),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(api.active!.format, 'callgrind');
      const stencil = vscode.Uri.joinPath(folder, 'src', 'stencil.c');
      const doc = await vscode.workspace.openTextDocument(stencil);
      await vscode.window.showTextDocument(doc);
      // Expected: the statement lines of stencil.c whose share passes the heat threshold.
      const expected = await expectedHeatLines(profileUri.fsPath, '/src/stencil.c');
      assert.ok(expected >= 3, `callgrind gives several hot lines in stencil.c (${expected})`);
      assert.equal(await until('heat on stencil.c', () => api.decoratedLines(stencil) === expected || undefined), true);
    });
  });
}
