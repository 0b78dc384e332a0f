import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { HpcLensApi } from '../../../src/extension/extension';
import { generatedFileName, writeLargeProfileAsync, writeLargeProfileSources } from '../../../scripts/large-profile-generator';
import { EXTENSION_ID, until } from './itest-support';

const NODES = 1_000_000;
const RANKS = 16;

/** Event-loop delay of this (the extension host's) thread: perf_hooks percentiles and the longest gap between 5 ms ticks. */
function watchLoop(): () => { max: number; p99: number; longest: number } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let last = performance.now(), longest = 0;
  const timer = setInterval(() => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 5);
  return () => {
    clearInterval(timer);
    h.disable();
    return { max: h.max / 1e6, p99: h.percentile(99) / 1e6, longest: Math.max(longest, performance.now() - last) };
  };
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
  return (lenses ?? []).map(l => l.command?.title ?? '').filter(t => t !== '');
}

export function registerResponsivenessSuites(): void {
  suite('Responsiveness with a 10⁶-node profile', function () {
    this.timeout(240000);
    let dir: string;
    let opened = false;
    suiteSetup(() => { dir = mkdtempSync(join(tmpdir(), 'hpc-lens-large-')); });
    suiteTeardown(() => rmSync(dir, { recursive: true, force: true }));

    test('opens with CodeLens on its sources, switches metric, and the numbers are logged', async () => {
      const api = vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.exports;
      await api.startup;
      const gen = { nodes: NODES, ranks: RANKS, files: 400, sourceDir: join(dir, 'src') };
      const path = join(dir, 'large-1e6.json');
      await writeLargeProfileAsync(path, gen);
      writeLargeProfileSources(gen);
      // The generator makes low-numbered functions the most common: the first file carries the most cost.
      const source = vscode.Uri.file(join(gen.sourceDir, generatedFileName(0)));

      // The CodeLens command needs the document loaded in the workbench.
      await vscode.workspace.openTextDocument(source);
      let stop = watchLoop();
      const started = performance.now();
      assert.equal(await api.open(vscode.Uri.file(path)), true, `opened (last error: ${api.lastError})`);
      opened = true;
      const loaded = performance.now() - started;
      const first = await until('CodeLens on the hottest generated file', async () => { const t = await lensTitles(source); return t.length > 0 && t; }, 60000);
      const firstLens = performance.now() - started;
      const load = stop();
      assert.equal(api.active?.nodes, NODES);
      assert.equal(api.active?.contexts, RANKS);
      assert.ok(first.some(t => /%/.test(t)), `lenses show shares: ${first[0]}`);

      stop = watchLoop();
      const switched = performance.now();
      assert.equal(await api.datasets.setMetric('sum#papi.PAPI_TOT_CYC'), true);
      const next = await until('CodeLens for the other metric', async () => { const t = await lensTitles(source); return t.length > 0 && t.join('\n') !== first.join('\n') && t; }, 60000);
      const switchMs = performance.now() - switched;
      const sw = stop();
      assert.equal(next.length, first.length, 'the same functions carry lenses for the other metric');
      assert.equal(api.active?.metric, 'sum#papi.PAPI_TOT_CYC');

      const f = (x: number) => x.toFixed(1);
      console.log(`HPC_LENS_METRIC responsiveness nodes=${NODES} ranks=${RANKS} open_ms=${f(loaded)} first_codelens_ms=${f(firstLens)} load_loop_max_ms=${f(load.max)} load_loop_p99_ms=${f(load.p99)} load_longest_task_ms=${f(load.longest)}`);
      console.log(`HPC_LENS_METRIC responsiveness switch_metric_ms=${f(switchMs)} switch_loop_max_ms=${f(sw.max)} switch_loop_p99_ms=${f(sw.p99)} switch_longest_task_ms=${f(sw.longest)}`);
    });

    // Never leave a 10⁶-node dataset behind for the suites after this one (or for the reload phase).
    teardown(async () => { if (opened) await vscode.commands.executeCommand('hpcLens.closeProfile'); opened = false; });
  });
}
