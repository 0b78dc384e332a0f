import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { HpcLensApi } from './itest-support';
import {
  generatedFileName,
  writeLargeProfileAsync,
  writeLargeProfileSources,
} from '../../../scripts/large-profile-generator';
import { EXTENSION_ID, until } from './itest-support';

const NODES = 1_000_000;
const RANKS = 16;

/** Event-loop delay of this (the extension host's) thread: perf_hooks percentiles and the longest gap between 5 ms ticks. */
function watchLoop(): () => { max: number; p99: number; longest: number } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let last = performance.now(),
    longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(timer);
    h.disable();
    return { max: h.max / 1e6, p99: h.percentile(99) / 1e6, longest: Math.max(longest, performance.now() - last) };
  };
}

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Development aid (HPC_LENS_CPU_PROFILE_DIR=dir): V8's sampling profiler on this thread while `phase`
 * runs; writes `<name>.cpuprofile` there and logs the stretches of busy samples over 50 ms (the
 * long tasks) with the functions that took their time: self time, and the innermost frame of the
 * extension's own bundle (what to fix).
 */
async function profiled<T>(name: string, phase: () => Promise<T>): Promise<T> {
  const dir = process.env.HPC_LENS_CPU_PROFILE_DIR;
  if (!dir) return phase();
  const session = new Session();
  session.connect();
  const post = <R>(method: string, params?: object) =>
    new Promise<R>((resolve, reject) =>
      session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r as R))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 250 });
  await post('Profiler.start');
  try {
    return await phase();
  } finally {
    const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
    session.disconnect();
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    for (const line of summariseLongTasks(profile, 50)) console.log(`HPC_LENS_PROFILE ${name} ${line}`);
  }
}

function summariseLongTasks(profile: CpuProfile, minMs: number): string[] {
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: CpuProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'}@${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  const ours = (id: number): string => {
    for (let k: number | undefined = id; k !== undefined; k = parent.get(k)) {
      const n = byId.get(k)!;
      if (/dist\/extension\.js$/.test(n.callFrame.url)) return label(n);
    }
    return '(not ours)';
  };
  const out: string[] = [];
  const totals = new Map<string, number>();
  let start = -1,
    t = profile.startTime,
    self = new Map<string, number>(),
    mine = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k}=${(v / 1000).toFixed(1)}`)
      .join(', ');
  const close = (end: number) => {
    if (start >= 0 && (end - start) / 1000 >= minMs)
      out.push(
        `task ${((end - start) / 1000).toFixed(1)} ms at +${((start - profile.startTime) / 1000).toFixed(0)} ms | self: ${top(self)} | ours: ${top(mine)}`,
      );
    start = -1;
    self = new Map();
    mine = new Map();
  };
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') {
      close(t);
      t += profile.timeDeltas[i] ?? 0;
      return;
    }
    t += profile.timeDeltas[i] ?? 0;
    if (start < 0) start = t;
    bump(self, label(n), dt);
    bump(mine, ours(id), dt);
    bump(totals, label(n), dt);
  });
  close(t);
  out.push(`overall self: ${top(totals)}`);
  return out;
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
    suiteSetup(() => {
      dir = mkdtempSync(join(tmpdir(), 'hpc-lens-large-'));
    });
    suiteTeardown(() => rmSync(dir, { recursive: true, force: true }));

    test('opens with CodeLens on its sources, switches metric, and the numbers are logged', async () => {
      const api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
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
      let loaded = 0;
      const first = await profiled('load', async () => {
        assert.equal(await api.open(vscode.Uri.file(path)), true, `opened (last error: ${api.lastError})`);
        opened = true;
        loaded = performance.now() - started;
        return until(
          'CodeLens on the hottest generated file',
          async () => {
            const t = await lensTitles(source);
            return t.length > 0 && t;
          },
          60000,
        );
      });
      const firstLens = performance.now() - started;
      const load = stop();
      assert.equal(api.active?.nodes, NODES);
      assert.equal(api.active?.contexts, RANKS);
      assert.ok(
        first.some(t => /%/.test(t)),
        `lenses show shares: ${first[0]}`,
      );

      stop = watchLoop();
      const switched = performance.now();
      const next = await profiled('switch', async () => {
        assert.equal(await api.datasets.setMetric('sum#papi.PAPI_TOT_CYC'), true);
        return until(
          'CodeLens for the other metric',
          async () => {
            const t = await lensTitles(source);
            return t.length > 0 && t.join('\n') !== first.join('\n') && t;
          },
          60000,
        );
      });
      const switchMs = performance.now() - switched;
      const sw = stop();
      assert.equal(next.length, first.length, 'the same functions carry lenses for the other metric');
      assert.equal(api.active?.metric, 'sum#papi.PAPI_TOT_CYC');

      const f = (x: number) => x.toFixed(1);
      console.log(
        `HPC_LENS_METRIC responsiveness nodes=${NODES} ranks=${RANKS} open_ms=${f(loaded)} first_codelens_ms=${f(firstLens)} load_loop_max_ms=${f(load.max)} load_loop_p99_ms=${f(load.p99)} load_longest_task_ms=${f(load.longest)}`,
      );
      console.log(
        `HPC_LENS_METRIC responsiveness switch_metric_ms=${f(switchMs)} switch_loop_max_ms=${f(sw.max)} switch_loop_p99_ms=${f(sw.p99)} switch_longest_task_ms=${f(sw.longest)}`,
      );
    });

    // Never leave a 10⁶-node dataset behind for the suites after this one (or for the reload phase).
    teardown(async () => {
      if (opened) await vscode.commands.executeCommand('hpcLens.closeProfile');
      opened = false;
    });
  });
}
