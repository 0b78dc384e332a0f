import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { gemmRun } from '../../../src/analysis/dmv/testing/scenarios';
import { readProfile } from '../../../src/analysis/formats';
import { DataMovementKind } from '../../../src/analysis/model/trace';
import type { DmvDrawn } from '../../../src/shared/test-facts';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, workspaceRoot } from './itest-support';

const sampleTrace = () => vscode.Uri.joinPath(workspaceRoot(), 'profiles', 'heat-offload-kineto.json');
const offloadC = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'offload.c');
const HOST = -1;

/** The panel's facts once `ok` accepts them. */
function drawn(api: HpcLensApi, what: string, ok: (d: DmvDrawn) => boolean, ms = 45000): Promise<DmvDrawn> {
  return until(
    what,
    async () => {
      const d = await api.dmv.drawn().catch(() => undefined);
      return d && ok(d) ? d : undefined;
    },
    ms,
  );
}

/** The window's views on screen are those of the selected window. */
const settled = (d: DmvDrawn) =>
  d.mode === 'trace' &&
  (d.window === null ? d.drawnWindow !== null : d.drawnWindow?.start === d.window.start) &&
  (d.views['events'] ?? 0) > 0;

async function closeDataset(api: HpcLensApi, label: string): Promise<void> {
  const i = api.datasets.entries().findIndex(e => e.label === label);
  if (i >= 0) await api.datasets.close(i);
}

export function registerDmvSuites(): void {
  suite('HPC Lens DMV panel', () => {
    let api: HpcLensApi;
    let dir: string;

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-dmv-itest-'));
    });

    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const name of ['heat-offload-kineto.json', 'worker0.1623143089861.pt.trace.json.gz', 'gemm runs'])
        await closeDataset(api, name);
      for (const e of api.datasets.entries().filter(e => e.label.startsWith('gemm-'))) await closeDataset(api, e.label);
      rmSync(dir, { recursive: true, force: true });
    });

    test('Show Data Movement on the offload trace: every view draws; sector, cell, flag and Whole Run clicks drive one window', async () => {
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', sampleTrace()),
        true,
        `opened (last error: ${api.lastError})`,
      );
      const p = await readProfile(sampleTrace().fsPath);
      const dm = p.trace!.dataMovement;
      let h2d = 0,
        d2h = 0;
      for (let i = 0; i < dm.kind.length; i++) {
        if (dm.kind[i] === DataMovementKind.HostToDevice) h2d++;
        if (dm.kind[i] === DataMovementKind.DeviceToHost) d2h++;
      }
      await vscode.commands.executeCommand('hpcLens.showDataMovement');
      const d = await drawn(api, 'the panel on the whole run', x => settled(x) && x.window === null);
      for (const view of ['clock', 'flags', 'matrix', 'hardware', 'metrics', 'events', 'application'])
        assert.ok((d.views[view] ?? 0) > 0, `${view} drew something (${JSON.stringify(d.views)})`);
      const cell = (x: DmvDrawn, src: number, dst: number) => x.matrix.find(c => c.src === src && c.dst === dst)!;
      assert.equal(cell(d, HOST, 0).count, h2d, 'host → GPU 0 holds every host-to-device copy of the trace');
      assert.equal(cell(d, 0, HOST).count, d2h);
      assert.equal(cell(d, HOST, HOST).bytes, 0);
      assert.ok(d.labelledSectors.length > 0, 'sectors that copied are labelled');
      assert.ok(
        d.flags.length > 0 && d.flags.every(f => f.file.endsWith('offload.c') && f.line !== null),
        `flags on offload.c lines: ${JSON.stringify(d.flags)}`,
      );
      assert.deepEqual(
        d.hardware.map(h => h.device),
        ['host', 'GPU 0'],
      );
      // The hardware drawing is the shared topology component: host and GPU boxes, the link between them.
      assert.equal(d.topology?.layout, 'graph');
      assert.equal(d.topology!.nodes, 2);
      assert.equal(d.topology!.hidden, 0);
      assert.ok(d.topology!.links >= 1);

      // A sector click makes it the window of every view.
      const sector = d.labelledSectors[0]!;
      await api.dmv.agent.click(`.dmv-sector[data-sector="${sector}"]`);
      const s = await drawn(api, `sector ${sector} as the window`, x => x.sector === sector && settled(x));
      assert.ok(s.window!.end > s.window!.start);
      assert.ok(
        s.matrix.reduce((n, c) => n + c.bytes, 0) <= d.matrix.reduce((n, c) => n + c.bytes, 0),
        'a sector copies at most the whole run',
      );

      // A cell click lists its copies and the offload.c lines that issued them.
      await api.dmv.agent.click('[data-control="whole-run"]');
      await drawn(api, 'the whole run again', x => x.window === null && settled(x));
      await api.dmv.agent.click(`.dmv-cell[data-src="${HOST}"][data-dst="0"]`);
      const c = await drawn(api, 'the cell listing', x => x.cell !== null);
      assert.equal(c.cell!.cell, `${HOST}:0`);
      assert.equal(c.topology!.highlighted.length, 2, "the cell's two devices highlighted in the hardware drawing");
      assert.ok(c.cell!.copies > 0);
      assert.ok(
        c.cell!.sites.length > 0 && c.cell!.sites.every(site => /offload\.c:\d+$/.test(site)),
        `issuing lines: ${c.cell!.sites}`,
      );

      // A flag click selects it and makes its time span the window.
      await api.dmv.agent.click('.dmv-flag');
      const f = await drawn(api, 'the flag selected', x => x.flags[0]!.selected && x.window !== null && settled(x));
      assert.ok(f.window!.end > f.window!.start);
    });

    test("a flag's CodeLens and hover sit on its issuing line; the lens opens the panel on the flag", async () => {
      const doc = await vscode.workspace.openTextDocument(offloadC());
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      const flags = (await api.dmv.drawn()).flags;
      const lenses = await until('DMV lenses on offload.c', async () => {
        const all = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
        const dmv = all.filter(l => l.command?.command === 'hpcLens.showDataMovement');
        return dmv.length ? dmv : undefined;
      });
      assert.deepEqual(
        [...new Set(lenses.map(l => l.range.start.line + 1))].sort((a, b) => a - b),
        [...new Set(flags.map(f => f.line!))].sort((a, b) => a - b),
        'a lens on each flagged line, none elsewhere',
      );
      for (const l of lenses) assert.match(l.command!.title, /^\$\(warning\) DMV: .+ · /);
      // The issuing line is a copy call.
      const line = lenses[0]!.range.start.line;
      assert.match(doc.lineAt(line).text, /dev_mem(cpy|set)_async\(/);

      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        doc.uri,
        new vscode.Position(line, doc.lineAt(line).firstNonWhitespaceCharacterIndex + 2),
      );
      const text = hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
      assert.match(text, /\*\*Data-movement flags on this line\*\*/);

      // The lens's command focuses the panel on that flag.
      const focusFlag = lenses[0]!.command!.arguments![0].focus.flag as { kind: string; line: number };
      await vscode.commands.executeCommand(lenses[0]!.command!.command, ...lenses[0]!.command!.arguments!);
      const d = await drawn(
        api,
        'the panel on the lens flag',
        x => x.flags.some(f => f.selected && f.kind === focusFlag.kind && f.line === focusFlag.line) && settled(x),
      );
      assert.ok(d.window !== null);
    });

    test('the Data Movement view lists the flags first, with trace names escaped in their Markdown tooltips', async () => {
      const rows = await until('the flags group', () => {
        const r = api.dataMovementEntries();
        return r[0]?.icon === 'warning' ? r : undefined;
      });
      const group = rows[0]!;
      assert.match(group.label, /^\d+ data-movement flags$/);
      assert.ok(group.children!.length > 0);
      for (const f of group.children!) {
        assert.match(f.label, / · offload\.c:\d+$/);
        assert.ok(f.location?.file.endsWith('offload.c'));
        assert.match(f.tooltip, /^\*\*[^*]+\*\* at /);
        // Underscores of function names (dev_memcpy_async) are escaped, never emphasis.
        assert.doesNotMatch(f.tooltip, /(^|[^\\])_/, f.tooltip);
      }
    });

    test('bad added files: a CSV without a timestamp column is refused; an unparsable topology leaves the matrix without link types, with a warning', async () => {
      const csv = join(dir, 'gpu-metrics.csv');
      writeFileSync(csv, 'name, utilization.gpu [%]\nA100, 50 %\n');
      assert.equal(await api.dmv.setFile('nvidiaSmi', vscode.Uri.file(csv)), false, 'refused');
      const topo = join(dir, 'topo.txt');
      writeFileSync(topo, 'this is not the output of nvidia-smi topo -m\n');
      assert.equal(await api.dmv.setFile('topology', vscode.Uri.file(topo)), true, 'added, with a warning');
      const d = await drawn(api, 'the matrix warning', x => x.matrixWarnings.length > 0 && settled(x));
      assert.match(d.matrixWarnings[0]!, /topo\.txt/, 'the warning names the file');
      assert.ok(
        d.matrix.every(c => c.link === ''),
        'no link types',
      );
      assert.ok(
        d.matrix.some(c => c.bytes > 0),
        'the matrix is still shown',
      );
      assert.equal(await api.dmv.setFile('topology', null), true, 'removed');
      await drawn(api, 'no warning', x => x.matrixWarnings.length === 0 && settled(x));
    });

    test('the ResNet-50 Kineto trace: its six labelled sectors, its host→GPU 0 cell and the pageable-copy flag', async function () {
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
      this.timeout(180000);
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(trace)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      await vscode.commands.executeCommand('hpcLens.showDataMovement');
      const d = await drawn(
        api,
        'the resnet50 panel',
        x => settled(x) && x.window === null && x.matrix.length === 25,
        120000,
      );
      // Issue 22's numbers: copies in sectors 0, 2, 4, 6, 7 and 9; 115,607,040 B host → GPU 0, nothing else.
      assert.deepEqual(d.labelledSectors, [0, 2, 4, 6, 7, 9]);
      const moved = d.matrix.filter(c => c.bytes > 0);
      assert.deepEqual(
        moved.map(c => [c.src, c.dst, c.bytes, c.count]),
        [[HOST, 0, 115607040, 12]],
      );
      assert.ok(d.flags.some(f => f.kind === 'pageable-copy'));
      assert.ok(d.events!.groups > 0 && d.events!.total > 1000, 'more than 1,000 events are grouped');
    });

    test('a folder of traces: the grid of clocks sorts by runtime, Compare shares the longest run / 12, a click opens a run', async () => {
      const folder = join(dir, 'gemm runs');
      const runtimes = [6.4, 7, 6.1, 6.3];
      mkdirSync(folder);
      runtimes.forEach((s, k) =>
        writeFileSync(join(folder, `gemm-${s}s.pt.trace.json`), gemmRun({ seed: k + 1, runtimeS: s }).toJson()),
      );
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openEnsemble', vscode.Uri.file(folder)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      await vscode.commands.executeCommand('hpcLens.showDataMovement');
      const g = await drawn(api, 'the grid', x => x.mode === 'ensemble' && (x.ensemble?.runs.length ?? 0) === 4);
      assert.equal(g.ensemble!.mode, 'own');
      await api.dmv.agent.click('[data-control="sort"]');
      const sorted = await drawn(
        api,
        'sorted by runtime',
        x => x.ensemble !== null && x.ensemble.runs[0]!.includes('gemm-6.1s'),
      );
      assert.match(sorted.ensemble!.runs[3]!, /gemm-7s/, 'the 7 s run last');
      await api.dmv.agent.click('[data-choice="compare"]');
      const compared = await drawn(api, 'compare', x => x.ensemble?.mode === 'compare');
      assert.ok(Math.abs(compared.ensemble!.sectorWidth! - 7e9 / 12) < 1e3, 'sectors of 0.58 s (7 s / 12)');

      await api.dmv.agent.click('.dmv-grid-run');
      await until('the run opened', () => (api.active?.name.includes('gemm-6.1s') ? true : undefined), 60000);
      await drawn(api, 'the run in the panel', x => settled(x));
    });
  });
}
