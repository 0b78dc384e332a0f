/**
 * Memory samples (MemAxes, issue 21) in the editor: a MemAxes run whose samples name lines of the
 * sample workspace's stencil.c is opened with Open Profile…; the heat, after-line text, hovers on
 * variable names and the CodeLens come from the memory dataset; the CodeLens opens the Memory view
 * with the line selected, the view's clicks (through the test agent) select and clear, and the
 * editor's heat follows the selection unless hpcLens.memory.followSelection is off.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { lineAnnotation } from '../../../src/analysis/stats/memory-format';
import { cabLikeMachine } from '../../../src/analysis/memory/testing/synthetic-memory';
import { hardwareXml } from '../../support/memaxes-files';
import type { HpcLensApi } from './itest-support';
import { EXTENSION_ID, until, within, workspaceRoot } from './itest-support';

const stencilC = () => vscode.Uri.joinPath(workspaceRoot(), 'src', 'stencil.c');
const config = () => vscode.workspace.getConfiguration('hpcLens');

/** Loads of one variable on one line: `count` samples served by PEBS code `code` at `latency` cycles. */
interface Loads {
  variable: string;
  line: number;
  count: number;
  code: number;
  latency: number;
}

/**
 * The Jacobi sweep (stencil.c:19) reads `u` from L3 and L1 and writes `unew` from L2; the residual
 * (stencil.c:37) misses to RAM on `unew`. 200 samples over the 32 PUs of a two-socket machine.
 */
const LOADS: Loads[] = [
  { variable: 'u', line: 19, count: 40, code: 0x4, latency: 300 },
  { variable: 'u', line: 19, count: 60, code: 0x1, latency: 10 },
  { variable: 'unew', line: 19, count: 50, code: 0x3, latency: 20 },
  { variable: 'unew', line: 37, count: 20, code: 0xa, latency: 500 },
  { variable: 'u', line: 37, count: 30, code: 0x1, latency: 10 },
];

function writeRun(dir: string): string {
  const run = join(dir, 'stencil-memaxes');
  mkdirSync(join(run, 'data'), { recursive: true });
  const rows = ['variable,source,line,time,iter,latency,dataSource,cpu,node,index,map3D,xidx,yidx,zidx'];
  let i = 0;
  for (const l of LOADS)
    for (let k = 0; k < l.count; k++, i++) {
      const cpu = i % 32;
      rows.push(
        [
          l.variable,
          'stencil.c',
          l.line,
          (0x1000 + 7 * i).toString(16),
          1,
          l.latency,
          l.code.toString(16),
          cpu,
          cpu % 2,
          i,
          0,
          0,
          0,
          0,
        ].join(','),
      );
    }
  writeFileSync(join(run, 'data', 'samples.out'), rows.join('\n') + '\n');
  writeFileSync(join(run, 'hardware.xml'), hardwareXml(cabLikeMachine()));
  return run;
}

/** Cost of the loads of a line, as the after-line text reads it. */
function expectedAnnotation(line: number): string {
  const levelOf: Record<number, number> = { 0x1: 1, 0x3: 2, 0x4: 3, 0xa: 4 };
  const levelSamples = [0, 0, 0, 0, 0];
  let cycles = 0,
    samples = 0;
  for (const l of LOADS.filter(x => x.line === line)) {
    levelSamples[levelOf[l.code]!]! += l.count;
    cycles += l.count * l.latency;
    samples += l.count;
  }
  return lineAnnotation({ cycles, samples, levelSamples });
}

async function hoverText(uri: vscode.Uri, line0: number, character: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line0, character),
  );
  return hovers.flatMap(h => h.contents.map(c => (typeof c === 'string' ? c : c.value))).join('\n');
}

export function registerMemorySuites(): void {
  suite('HPC Lens memory samples: editor overlays and the Memory view', () => {
    let api: HpcLensApi;
    let dir: string;
    let doc: vscode.TextDocument;
    const heatOf = () => api.heatLines(doc.uri).map(h => [h.line, h.annotation ?? '']);

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
      await config().update('heat.annotations', true, vscode.ConfigurationTarget.Global);
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-memory-itest-'));
    });

    suiteTeardown(async () => {
      await config().update('memory.followSelection', undefined, vscode.ConfigurationTarget.Global);
      await config().update('heat.annotations', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const i = api.datasets.entries().findIndex(e => e.label.startsWith('stencil-memaxes'));
      if (i >= 0) await api.datasets.close(i);
      rmSync(dir, { recursive: true, force: true });
    });

    test('a MemAxes run opens as memory samples: heat and after-line text by serving level on stencil.c', async () => {
      const run = writeRun(dir);
      assert.equal(
        await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', vscode.Uri.file(run)),
        true,
        `opened (last error: ${api.lastError})`,
      );
      assert.equal(api.active!.kind, 'memory');
      assert.equal(api.active!.format, 'memaxes');
      doc = await vscode.workspace.openTextDocument(stencilC());
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      const heat = await until('memory heat on stencil.c', () =>
        api.heatLines(doc.uri).length === 2 && api.heatLines(doc.uri).every(h => h.annotation) ? heatOf() : undefined,
      );
      assert.deepEqual(heat, [
        [19, expectedAnnotation(19)],
        [37, expectedAnnotation(37)],
      ]);
      assert.equal(expectedAnnotation(19), '⏱ 13.6 k cyc · L3 27 %');
      assert.equal(expectedAnnotation(37), '⏱ 10.3 k cyc · RAM 40 %');
    });

    test('the hover on a variable name gives its cycles, samples and levels on the line and everywhere', async () => {
      const text19 = doc.lineAt(18).text;
      const at = text19.indexOf('unew[');
      assert.ok(at >= 0, text19);
      const hover = await hoverText(doc.uri, 18, at + 1);
      assert.match(hover, /`unew`/);
      assert.match(hover, /1 k cyc/, 'unew on line 19: 50 × 20 cycles');
      assert.match(hover, /\| L2 \| 50 \|/, 'its level table');
      assert.match(hover, /everywhere/);
      assert.match(hover, /11 k cyc/, 'unew everywhere: 1,000 + 10,000 cycles');
      // On the line's other text: the line's levels and variables.
      const line = await hoverText(doc.uri, 18, text19.indexOf('0.25') + 1);
      assert.match(line, /stencil\.c:19/);
      assert.match(line, /\| L3 \| 40 \|/);
      assert.match(line, /`u` 12\.6 k cyc/);
    });

    test('the CodeLens opens the Memory view with the line selected; the overlays follow; the view clears', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      const memoryLenses = lenses.filter(l => l.command?.command === 'hpcLens.showMemory');
      assert.deepEqual(
        memoryLenses.map(l => l.range.start.line + 1),
        [19, 37],
      );
      const lens19 = memoryLenses[0]!.command!;
      assert.match(lens19.title, /Open in Memory view · u 93% · unew 7\.4%/);
      const followed = api.memory.nextFollow(f => f.selection);
      await vscode.commands.executeCommand(lens19.command, ...(lens19.arguments ?? []));
      assert.ok(api.memory.isOpen);
      const drawn = await until('the Memory view drew the selection', async () => {
        const d = await api.memory.drawn().catch(() => undefined);
        return d && d.selected === 150 && d.strip && d.resources['pu'] ? d : undefined;
      });
      assert.equal(drawn.samples, 200);
      assert.equal(drawn.topology, 'drawn', 'the machine, drawn by the shared topology view');
      assert.deepEqual(
        [
          drawn.resources['numa'],
          drawn.resources['l3'],
          drawn.resources['l2'],
          drawn.resources['l1'],
          drawn.resources['pu'],
        ],
        [2, 2, 16, 16, 32],
      );
      assert.deepEqual(drawn.lines, ['stencil.c:19']);
      assert.deepEqual(drawn.variables, ['u', 'unew']);
      assert.deepEqual(
        drawn.depths.map(d => d.depth),
        ['pu', 'l1', 'l2', 'l3', 'numa'],
      );
      assert.ok(drawn.histograms.length >= 10 && drawn.histograms.every(h => h.bins > 0));
      assert.ok(drawn.strip && drawn.strip.windows > 0, 'a metric strip');
      // The editor shows the selection's samples: line 19 only.
      const f = await within(followed, 'the overlays follow the selection');
      assert.equal(f.samples, 150);
      await until('heat of the selection', () => (api.heatLines(doc.uri).length === 1 ? true : undefined));
      assert.deepEqual(heatOf(), [[19, expectedAnnotation(19)]]);

      // Clear, clicked in the view: all samples again, in the view and in the editor.
      const back = api.memory.nextFollow(x => !x.selection);
      await api.memory.agent.click('[data-action="clear"]');
      await until('the view cleared', async () => ((await api.memory.drawn()).selected === 0 ? true : undefined));
      await within(back, 'the overlays follow all samples again');
      await until('heat of all samples', () => (api.heatLines(doc.uri).length === 2 ? true : undefined));

      // A variable bar, clicked: its samples everywhere (unew: 50 + 20).
      await api.memory.agent.click('.memory-variable-bar[data-variable="unew"]');
      await until('unew selected', async () => ((await api.memory.drawn()).selected === 70 ? true : undefined));
      assert.equal(api.memory.data!.selected!.cycles, 11000);
      // The PU of CPU 3 clicked on the machine: the samples it issued (sample i runs on CPU i mod 32: 7 of 200).
      const topology = api.memory.data!.topology!;
      const pu3 = topology.nodes.findIndex(n => n.kind === 'pu' && n.osIndex === 3);
      await api.memory.agent.click(`.memory-topology [data-node="n${pu3}"]`);
      const onPu = await until('PU 3 selected', async () => {
        const d = await api.memory.drawn();
        return d.selected === 7 ? d : undefined;
      });
      assert.ok(onPu.depths.find(d => d.depth === 'pu')!.imbalance > 3, 'one PU of 32 carries the selection');
      // A brush along latency (dragged through the agent): the top half of the axis, the slow loads.
      const [axis] = await api.memory.agent.query('[data-axis-hit="latency"]');
      assert.ok(axis, 'a latency axis');
      await api.memory.agent.pointer('[data-axis-hit="latency"]', [
        { type: 'pointerdown', x: axis.box.width / 2, y: 2 },
        { type: 'pointermove', x: axis.box.width / 2, y: axis.box.height * 0.45 },
        { type: 'pointerup', x: axis.box.width / 2, y: axis.box.height * 0.45 },
      ]);
      const brushed = await until('the latency brush selected the slow loads', async () => {
        const d = await api.memory.drawn();
        return d.histograms.some(h => h.attribute === 'latency' && h.brushed) && d.selected === 60 ? d : undefined;
      });
      assert.equal(brushed.selected, 60, '40 L3 loads of 300 cycles and 20 RAM loads of 500');
    });

    test('with hpcLens.memory.followSelection off, a selection leaves the editor on all samples', async () => {
      await api.memory.scope('clear');
      await until('heat of all samples', () => (api.heatLines(doc.uri).length === 2 ? true : undefined));
      await config().update('memory.followSelection', false, vscode.ConfigurationTarget.Global);
      const data = await api.memory.select('new', { kind: 'line', file: 'stencil.c', line: 37 });
      assert.equal(data?.selected?.samples, 50);
      await new Promise(r => setTimeout(r, 1500));
      assert.equal(api.heatLines(doc.uri).length, 2, 'the heat still shows both lines');
      assert.equal(api.active!.name.includes('selection'), false);
      await config().update('memory.followSelection', undefined, vscode.ConfigurationTarget.Global);
      await api.memory.scope('clear');
      // The suite's samples file is read back unchanged (nothing is written next to the user's data).
      assert.ok(readFileSync(join(dir, 'stencil-memaxes', 'data', 'samples.out'), 'utf8').startsWith('variable,'));
    });
  });
}
