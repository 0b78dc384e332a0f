import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { writeFixtureDatabase, type FixtureDatabase } from '../../../src/analysis/formats/hpctoolkit-xml/test-database';
import { diffProfiles, formatDelta } from '../../../src/analysis/graph/profile-diff';
import { formatValue } from '../../../src/analysis/stats/format';
import { summarizeProfile, summaryToJson } from '../../../src/analysis/stats/summary-export';
import { SideBarView, type SideBarViewId } from '../../../src/extension/views/side-bar-views';
import { markdownText } from '../../../src/extension/views/markdown-text';
import { EXTENSION_ID, sampleProfile, until, workspaceRoot, type HpcLensApi } from './itest-support';

const profiles = (name: string) => vscode.Uri.joinPath(workspaceRoot(), 'profiles', name);
const source = (name: string) => vscode.Uri.joinPath(workspaceRoot(), 'src', name);

async function lensesOf(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
}

async function hoverText(uri: vscode.Uri, line0: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line0, 4),
  );
  return hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
}

/** `shared/` beside the checkout (the bundle's __dirname is not the repository's test folder). */
function sharedPath(...parts: string[]): string {
  const root =
    process.env.HPC_LENS_SHARED_DIR ??
    join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, '..', 'shared');
  return join(root, ...parts);
}

/** Skips the test (mocha) when a shared file is absent: the shared data exists only in the workplace. */
function shared(ctx: Mocha.Context, ...parts: string[]): string {
  const p = sharedPath(...parts);
  if (!existsSync(p)) ctx.skip();
  return p;
}

export function registerRealDataSuites(): void {
  let api: HpcLensApi;
  let dir: string;

  suite('Real data: side bar, compare, traces', () => {
    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-real-data-'));
    });

    /** A view's message once its rows are computed (not the "Computing…" it shows meanwhile). */
    const settledMessage = (view: SideBarViewId) => {
      const message = api.viewMessage(view);
      return message === 'Computing…' ? undefined : message;
    };
    const open = async (uri: vscode.Uri) =>
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', uri),
        true,
        `opened ${uri.fsPath} (last error: ${api.lastError})`,
      );

    test('on the sample, Load Imbalance ranks jacobi_sweep first, as hpc-lens summary does', async () => {
      await open(sampleProfile());
      const rows = await api.nextViewEntries(SideBarView.imbalance, r => r.length > 0);
      assert.equal(rows[0]!.label, 'jacobi_sweep');
      const p = await readProfile(sampleProfile().fsPath);
      const summary = summaryToJson(summarizeProfile(p, p.primaryMetric));
      const top = rows.filter(r => !r.children).map(r => r.label);
      assert.equal(summary.imbalance[0]!.function, 'jacobi_sweep');
      assert.deepEqual(
        top.slice(0, summary.imbalance.length),
        summary.imbalance.map(e => e.function),
        'the view and the summary list the same functions in the same order',
      );
      const single = rows.find(r => r.children)!;
      assert.ok(single, 'single-context frames are listed apart');
      assert.ok(
        single.children!.some(c => c.label === 'main' || c.label === '_start'),
        single.children!.map(c => c.label).join(', '),
      );
    });

    test('CodeLens sits on the line with the name of an __attribute__((noinline)) static function', async () => {
      const doc = await vscode.workspace.openTextDocument(source('minimpi.c'));
      const lenses = await until('lenses in minimpi.c', async () => {
        const l = await lensesOf(doc.uri);
        return l.length > 0 && l;
      });
      const lines = lenses.map(l => doc.lineAt(l.range.start.line).text);
      for (const fn of ['mailbox_wait', 'barrier_wait']) {
        const text = doc.getText();
        if (!new RegExp(`__attribute__\\(\\(noinline\\)\\)[^\\n]*\\n?[^\\n]*\\b${fn}\\(`).test(text)) continue;
        assert.ok(
          lines.some(l => new RegExp(`\\b${fn}\\s*\\(`).test(l) && !/;\s*$/.test(l)),
          `a lens on the signature of ${fn}; lenses on:\n${lines.join('\n')}`,
        );
      }
      for (const l of lines) assert.doesNotMatch(l, /^\s*\{\s*$/, 'no lens above a body brace');
    });

    test('side-bar tooltips show a hostile function name as text, not Markdown', async () => {
      const hostile = '**evil** [run](command:workbench.action.files.delete) <img src=x> `x` # h';
      const file = join(dir, 'hostile.folded');
      writeFileSync(file, `main;${hostile} 70\nmain;solve 30\n`);
      await open(vscode.Uri.file(file));
      const rows = await api.nextViewEntries(SideBarView.topFunctions, r => r.some(e => e.label === hostile));
      const row = rows.find(e => e.label === hostile)!;
      assert.ok(row.tooltip.startsWith(`**${markdownText(hostile)}**`), row.tooltip);
      assert.ok(!row.tooltip.includes(hostile), 'the raw name is not in the Markdown');
      const item = api.viewTreeItem(SideBarView.topFunctions, row);
      const md = item.tooltip as vscode.MarkdownString;
      assert.equal(md.isTrusted, false);
      assert.equal(md.supportHtml, false);
    });

    test('a Caliper profile with CUDA-activity columns reads as named metrics with units', async () => {
      // The sample's samples as CUPTI durations: activity scaled to seconds, host time with attribute.unit.
      const sample = JSON.parse(readFileSync(sampleProfile().fsPath, 'utf8')) as {
        columns: string[];
        column_metadata: Record<string, unknown>[];
        data: number[][];
      };
      const t = sample.columns.indexOf('sum#time.duration');
      sample.columns[t] = 'sum#scale#cupti.activity.duration';
      sample.column_metadata[t] = { is_value: true };
      sample.columns.push('inclusive#scale#sum#cupti.host.duration');
      sample.column_metadata.push({ is_value: true, 'attribute.unit': 'sec' });
      for (const row of sample.data) row.push(row[t]! * 1.5);
      const file = join(dir, 'cuda-activity.json');
      writeFileSync(file, JSON.stringify(sample));
      await open(vscode.Uri.file(file));
      const p = await readProfile(file);
      assert.deepEqual(
        p.metrics.filter(m => m.name.includes('cupti')).map(m => [m.name, m.label, m.unit]),
        [
          ['sum#scale#cupti.activity.duration', 'CUDA activity time', 's'],
          ['inclusive#scale#sum#cupti.host.duration', 'CUDA host time (inclusive)', 's'],
        ],
      );
      const status = api.datasets.statusBar();
      const label = p.metrics[p.primaryMetric]!.label;
      assert.ok(
        `${status.text} ${String(status.tooltip ?? '')}`.includes(label),
        `the status bar names ${label}: ${status.text}`,
      );
      const doc = await vscode.workspace.openTextDocument(source('stencil.c'));
      await vscode.window.showTextDocument(doc);
      const lenses = await until('CodeLens on stencil.c', async () => {
        const l = await lensesOf(doc.uri);
        return l.some(x => x.command?.tooltip?.includes(label)) && l;
      });
      const titled = lenses.find(l => l.command?.tooltip?.includes(label))!;
      assert.match(titled.command!.title, /inclusive \([\d.]+ (s|ms|µs)\)/, 'values carry their unit');
      assert.ok(titled.command!.tooltip?.includes(label), titled.command!.tooltip);
      const hot = await until('heat on stencil.c', () => {
        const h = api.heatLines(doc.uri);
        return h.length > 0 && [...h].sort((x, y) => y.level - x.level)[0]!;
      });
      const hover = await until('a hover on the hottest line', async () => {
        const text = await hoverText(doc.uri, hot.line - 1);
        return text.includes('CUDA') && text;
      });
      assert.ok(hover.includes(label), hover);
      assert.doesNotMatch(hover, /cupti\.activity\.duration \|/, 'the raw name is not the row label');
    });

    test('Top Lines of the sample Kineto trace lists offload.c lines', async () => {
      await open(profiles('heat-offload-kineto.json'));
      const rows = await api.nextViewEntries(SideBarView.topLines, r => r.length > 0);
      assert.ok(
        rows.some(r => r.label.startsWith('offload.c:')),
        rows.map(r => r.label).join(', '),
      );
    });

    test('on resnet50 (Kineto), Top Lines has Python lines and no imbalance compares CPU with GPU lanes', async function () {
      this.timeout(180000);
      const file = shared(
        this,
        'data',
        'chrome-trace',
        'pytorch-profiler-resnet50',
        'worker0.1623143089861.pt.trace.json.gz',
      );
      await open(vscode.Uri.file(file));
      const lines = await api.nextViewEntries(SideBarView.topLines, r => r.length > 0);
      assert.ok(
        lines.some(r => /\.py:\d+$/.test(r.label)),
        lines.map(r => r.label).join(', '),
      );
      await until(
        'imbalance computed',
        () => api.viewEntries(SideBarView.imbalance).length > 0 || settledMessage(SideBarView.imbalance) !== undefined,
        60000,
      );
      for (const r of api.viewEntries(SideBarView.imbalance))
        assert.doesNotMatch(r.description ?? '', /^6\.00×/, `${r.label}: ${r.description}`);
    });

    test('on the LULESH ensemble (function-level data), Top Lines says why it is empty', async function () {
      this.timeout(180000);
      const folder = shared(this, 'data', 'caliper-json', 'lulesh-mpi-scaling-5runs');
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened the ensemble (last error: ${api.lastError})`,
      );
      const message = await until('the Top Lines message', () => settledMessage(SideBarView.topLines), 60000);
      assert.match(message, /records no source lines/);
      assert.equal(api.viewEntries(SideBarView.topLines).length, 0);
    });

    test('Compare LULESH 27 vs 343 cores shows both totals and the change, as hpc-lens diff does', async function () {
      this.timeout(180000);
      const base = shared(this, 'data', 'caliper-json', 'lulesh-mpi-scaling-5runs', '27_cores.json');
      const compared = sharedPath('data', 'caliper-json', 'lulesh-mpi-scaling-5runs', '343_cores.json');
      assert.equal(
        await vscode.commands.executeCommand<boolean>(
          'hpcLens.compareProfiles',
          vscode.Uri.file(base),
          vscode.Uri.file(compared),
        ),
        true,
        `compared (last error: ${api.lastError})`,
      );
      const diff = diffProfiles(await readProfile(base), await readProfile(compared));
      const fmt = (v: number) => formatValue(v, diff.metric.unit);
      assert.ok(Math.abs(diff.comparisonTotal - diff.baselineTotal - 5.39) < 0.01, 'Δ = 52.64 − 47.25 s');
      const hot = await api.nextViewEntries(SideBarView.hotPaths, r => r.length > 0);
      assert.ok(hot[0]!.description?.includes(' → '), 'the hot path shows both runs');
      await api.nextViewEntries(SideBarView.topFunctions, r => r.length > 0);
      const headline = `Total ${formatDelta(diff.baselineTotal, diff.comparisonTotal, fmt)} · ${fmt(diff.baselineTotal)} → ${fmt(diff.comparisonTotal)}`;
      assert.match(headline, /^Total \+5\.39 s \(\+11%\) · 47\.3 s → 52\.6 s$/);
      for (const view of [SideBarView.hotPaths, SideBarView.topFunctions])
        assert.ok(api.viewMessage(view)?.startsWith(headline), `${view}: ${api.viewMessage(view)}`);

      const fns = api.viewEntries(SideBarView.topFunctions);
      assert.equal(fns[0]!.label, 'MPI_Allreduce', 'sorted by |Δ|, as hpc-lens diff sorts');
      assert.match(fns[0]!.description ?? '', /^\+/);

      await vscode.commands.executeCommand('hpcLens.showCallflow');
      const data = await until('the comparison graph', () => api.callflow.data?.diff && api.callflow.data, 60000);
      const roots = data.nodes.filter(n => !data.links.some(l => l.target === n.id));
      const top = roots.sort((a, b) => (b.diff?.compare.inclusive ?? 0) - (a.diff?.compare.inclusive ?? 0))[0]!;
      assert.ok(top.diff, 'the root carries both runs');
      assert.ok(Math.abs(top.diff.baseline.inclusive - diff.baselineTotal) < 0.01 * diff.baselineTotal);
      assert.ok(Math.abs(top.diff.compare.inclusive - diff.comparisonTotal) < 0.01 * diff.comparisonTotal);
      // For the screenshots: the HPC Lens side bar beside the comparison graph, in a light and a dark theme.
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
      await vscode.commands.executeCommand('workbench.view.extension.hpcLens');
      const workbench = vscode.workspace.getConfiguration('workbench');
      const theme = workbench.inspect<string>('colorTheme')?.globalValue;
      for (const [shot, name] of [
        ['light', 'Default Light Modern'],
        ['dark', 'Default Dark Modern'],
      ] as const) {
        await workbench.update('colorTheme', name, vscode.ConfigurationTarget.Global);
        await until('the comparison drawn', async () => (await api.callflow.drawn()).graphs[0]?.nodes, 30000);
        await new Promise(r => setTimeout(r, 2000));
        console.log(`HPC_LENS_SCREENSHOT real-data-compare-lulesh-${shot}`);
        await new Promise(r => setTimeout(r, 1500));
      }
      await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
    });

    test('an HPCToolkit XML database with .hpctrace files opens in the Timeline', async () => {
      const stmt = (line: number, cost: number[]) => ({ tag: 'S' as const, line, cost });
      const s21 = stmt(21, [3, 2]);
      const s31 = stmt(31, [5, 4]);
      const db: FixtureDatabase = {
        program: 'cpi',
        contexts: [
          [0, 0],
          [1, 0],
        ],
        roots: [{ tag: 'PF', proc: 'main', file: 'cpi.c', line: 19, module: 'cpi', children: [s21, s31] }],
        traces: [
          {
            context: 0,
            samples: [
              [0, s21],
              [10, s31],
              [30, null],
            ],
          },
          {
            context: 1,
            samples: [
              [5, s31],
              [25, s21],
            ],
          },
        ],
      };
      const folder = writeFixtureDatabase(join(dir, 'cpi-trace-db'), db);
      await open(vscode.Uri.file(folder));
      await vscode.commands.executeCommand('hpcLens.showTimeline');
      await until('the timeline open', () => api.timeline.isOpen, 30000);
    });
  });
}
