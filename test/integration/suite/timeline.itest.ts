import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { readProfile } from '../../../src/analysis/formats';
import { functionTotals } from '../../../src/analysis/model/aggregates';
import type { Profile } from '../../../src/analysis/model/profile';
import { formatShare, formatValue } from '../../../src/analysis/stats/format';
import { topFunctions } from '../../../src/analysis/stats/top-lists';
import { buildLaneTree, flattenLanes } from '../../../src/analysis/timeline/lanes';
import { eventAt, eventDetails, eventsOfNode } from '../../../src/analysis/timeline/lookup';
import { TimelineIndex } from '../../../src/analysis/timeline/timeline-index';
import { profileForWindow, windowStatistics } from '../../../src/analysis/timeline/window-stats';
import type { HpcLensApi } from '../../../src/extension/extension';
import { formatWindow, type TimelineWindow } from '../../../src/shared/timeline-protocol';
import { EXTENSION_ID, until } from './itest-support';

const sharedData = (...parts: string[]) => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  return join(process.env.HPC_LENS_SHARED_DIR ?? resolve(ext.extensionPath, '..', 'shared'), 'data', ...parts);
};
const workspaceFile = (...parts: string[]) => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, ...parts);

/** Opens a trace and the timeline; resolves once the view drew the lanes of this trace. */
async function openTimeline(api: HpcLensApi, uri: vscode.Uri, profile: Profile) {
  const labels = flattenLanes(buildLaneTree(profile.trace!.tracks)).map(l => l.label);
  const before = api.timeline.lastRender;
  assert.equal(
    await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', uri),
    true,
    `opened (last error: ${api.lastError})`,
  );
  await vscode.commands.executeCommand('hpcLens.showTimeline');
  const render = await until(
    `the timeline of ${uri.path.split('/').pop()} drawn`,
    () => {
      const r = api.timeline.lastRender;
      const [lo, hi] = profile.trace!.timeRange;
      return r &&
        r !== before &&
        r.lanes === labels.length &&
        r.laneLabels.join('|') === labels.join('|') &&
        r.window.start <= lo &&
        r.window.end >= hi
        ? r
        : undefined;
    },
    30000,
  );
  return { render, labels };
}

/** The CodeLens titles of a document by the function each stands for. */
async function lensesByFunction(uri: vscode.Uri): Promise<Map<string, string>> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
  return new Map(
    lenses
      .filter(l => l.command?.arguments?.[0]?.focusFunction)
      .map(l => [l.command!.arguments![0].focusFunction as string, l.command!.title]),
  );
}

/** Selects a window in the view as a shift-drag would and resolves with the statistics the host sent. */
async function selectWindow(api: HpcLensApi, window: TimelineWindow) {
  const stats = api.timeline.nextMessage('timeline/windowStats');
  api.timeline.post({ type: 'timeline/simulate', action: 'select', window });
  return stats;
}

export function registerTimelineSuites(): void {
  suite('HPC Lens timeline', () => {
    let api: HpcLensApi;
    const opened: string[] = [];

    suiteSetup(async () => {
      api = await vscode.extensions.getExtension<HpcLensApi>(EXTENSION_ID)!.activate();
      await api.startup;
    });

    suiteTeardown(async () => {
      for (const name of opened) {
        const i = api.datasets.entries().findIndex(e => e.label === name);
        if (i >= 0) await api.datasets.close(i);
      }
    });

    test('the sample GPU-port trace: CPU thread and GPU stream lanes, window statistics, window → CodeLens and side bar, and back', async function () {
      const trace = workspaceFile('profiles', 'heat-offload-kineto.json');
      if (!existsSync(trace.fsPath)) this.skip();
      const p = await readProfile(trace.fsPath);
      opened.push('heat-offload-kineto.json');
      const { render, labels } = await openTimeline(api, trace, p);
      assert.ok(p.trace!.tracks.some(t => t.kind === 'thread') && p.trace!.tracks.some(t => t.kind === 'gpu-stream'));
      assert.equal(render.lanes, labels.length);
      assert.ok(render.rects + render.events > 0, 'something is drawn');

      // Statistics of a window equal windowStatistics computed here from the file.
      const [lo, hi] = p.trace!.timeRange;
      const window = { start: Math.round(lo + (hi - lo) * 0.1), end: Math.round(lo + (hi - lo) * 0.45) };
      const stats = await selectWindow(api, window);
      const index = new TimelineIndex(p);
      const expected = windowStatistics(index, window);
      assert.deepEqual(stats.window, window);
      assert.deepEqual(
        stats.functions.map(f => [f.name, f.inclusive, f.exclusive, f.count]),
        expected.functions.map(f => [f.name, f.inclusive, f.exclusive, f.count]),
      );
      assert.deepEqual(stats.lanes, expected.lanes);
      assert.deepEqual(stats.bytes, expected.bytes);
      assert.equal(stats.eventCount, expected.eventCount);

      // A click on an event opens its source line (the hovered event's nearest located frame).
      const ev = p.trace!.events;
      const cpuTracks = p.trace!.tracks.flatMap((t, i) => (t.kind === 'thread' ? [i] : []));
      let target: { track: number; time: number; file: string; line: number } | undefined;
      for (let r = 0; r < ev.track.length && !target; r++) {
        if (!cpuTracks.includes(ev.track[r]!) || ev.kind[r] !== 0) continue;
        const time = ev.start[r]! + ev.duration[r]! / 2;
        const hit = eventAt(index, ev.track[r]!, time);
        const src = hit >= 0 ? eventDetails(index, hit).source : null;
        if (src?.file.endsWith('offload.c') && src.line)
          target = { track: ev.track[r]!, time, file: src.file, line: src.line };
      }
      assert.ok(target, 'an event located in offload.c');
      api.timeline.post({ type: 'timeline/simulate', action: 'click', track: target.track, time: target.time });
      await until("offload.c opened at the event's line", () => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.path.endsWith('/src/offload.c') && e.selection.active.line === target!.line - 1
          ? e
          : undefined;
      });

      // Window → overlays: the CodeLens of offload.c shows the window's profile, then the whole run again.
      const doc = await vscode.workspace.openTextDocument(workspaceFile('src', 'offload.c'));
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      const whole = await until('CodeLens on offload.c', async () => {
        const m = await lensesByFunction(doc.uri);
        return m.size ? m : undefined;
      });
      // The sample trace has no line-level cost (no heat lines); the side bar's Top Functions follow the window too.
      const topShown = () =>
        api
          .viewEntries('hpcLens.topFunctions')
          .slice(0, 5)
          .map(e => e.label)
          .join('|');
      const topWhole = topFunctions(p, p.primaryMetric, { limit: 5 })
        .map(f => f.name)
        .join('|');
      await until('Top Functions of the whole run', () => topShown() === topWhole || undefined);
      await vscode.commands.executeCommand('hpcLens.useTimelineWindowForOverlays');
      await until(
        'the dataset named by its window',
        () => api.active?.name === `heat-offload-kineto.json [${formatWindow(window)}]` || undefined,
      );
      assert.equal(api.active!.metric, 'time in window');
      assert.match(api.datasets.statusBar().text, new RegExp(`\\[${formatWindow(window).replace(/[.]/g, '\\.')}\\]`));
      const wp = profileForWindow(index, window);
      const totals = functionTotals(wp, 0);
      const total = wp.total(0);
      const windowed = await until('CodeLens of the window', async () => {
        const m = await lensesByFunction(doc.uri);
        return [...m].some(([f, t]) => t !== whole.get(f)) ? m : undefined;
      });
      let checked = 0;
      for (const [fn, title] of windowed) {
        const f = totals.names.indexOf(fn);
        assert.ok(f >= 0, fn);
        const incl = totals.inclusive[f]!;
        assert.ok(
          title.startsWith(`$(flame) ${formatShare(incl / total)} inclusive (${formatValue(incl, 'ns')})`),
          `${fn}: ${title}`,
        );
        checked++;
      }
      assert.ok(checked >= 3, `${checked} functions checked`);
      const topWindow = topFunctions(wp, 0, { limit: 5 })
        .map(f => f.name)
        .join('|');
      assert.notEqual(topWindow, topWhole, 'the window ranks functions differently from the whole run');
      await until('Top Functions of the window', () => topShown() === topWindow || undefined);
      console.log('HPC_LENS_SCREENSHOT timeline-window-overlays');
      await new Promise(r => setTimeout(r, 1500));

      await vscode.commands.executeCommand('hpcLens.useWholeRunForOverlays');
      await until('the whole run again', () => api.active?.name === 'heat-offload-kineto.json' || undefined);
      const back = await until('CodeLens of the whole run', async () => {
        const m = await lensesByFunction(doc.uri);
        return [...whole].every(([f, t]) => m.get(f) === t) ? m : undefined;
      });
      assert.equal(back.size, whole.size);
      await until('Top Functions of the whole run again', () => topShown() === topWhole || undefined);
    });

    test('the PyTorch resnet50 trace: CPU threads and the GPU stream, statistics of a window, highlighted events', async function () {
      const trace = sharedData('chrome-trace', 'pytorch-profiler-resnet50', 'worker0.1623143089861.pt.trace.json.gz');
      if (!existsSync(trace)) this.skip();
      this.timeout(120000);
      const p = await readProfile(trace);
      opened.push('worker0.1623143089861.pt.trace.json.gz');
      const { render, labels } = await openTimeline(api, vscode.Uri.file(trace), p);
      assert.ok(labels.filter(l => /^thread \d+ \(python\)$/.test(l)).length >= 2, labels.join(', '));
      assert.ok(labels.includes('stream 7'), labels.join(', '));
      assert.ok(render.copies > 0, 'host→device copies are marked on the GPU stream');
      const [lo, hi] = p.trace!.timeRange;
      const window = { start: Math.round(lo + (hi - lo) * 0.48), end: Math.round(lo + (hi - lo) * 0.52) };
      api.timeline.post({
        type: 'timeline/simulate',
        action: 'zoom',
        window: { start: window.start - (hi - lo) * 0.01, end: window.end + (hi - lo) * 0.01 },
      });
      const zoomed = await until('the zoomed frame', () => {
        const r = api.timeline.lastRender;
        return r && r.window.end - r.window.start < (hi - lo) / 10 ? r : undefined;
      });
      assert.ok(zoomed.flows > 0, 'launch → kernel arrows in the zoomed window');
      const stats = await selectWindow(api, window);
      const expected = windowStatistics(new TimelineIndex(p), window);
      assert.deepEqual(
        stats.functions.slice(0, 20).map(f => [f.name, f.inclusive]),
        expected.functions.slice(0, 20).map(f => [f.name, f.inclusive]),
      );
      assert.deepEqual(stats.bytes, expected.bytes);
      // A call-tree node's events (the operator running mid-window on the busiest CPU thread) are highlighted.
      const index = new TimelineIndex(p);
      const cpu = p.trace!.tracks.findIndex(t => t.name === labels.find(l => /^thread \d+ \(python\)$/.test(l)));
      const row = eventAt(index, cpu, (window.start + window.end) / 2, 1);
      assert.ok(row >= 0, 'an operator runs mid-window');
      const node = p.trace!.events.node[row]!;
      const marked = api.timeline.nextMessage('timeline/highlight');
      const n = await api.timeline.highlightNode([node]);
      const msg = await marked;
      const shown = api.timeline.lastRender!;
      const expectedRows = eventsOfNode(index, node, shown.window, msg.tracks).reduce((s, r) => s + r.length, 0);
      assert.equal(n, expectedRows);
      assert.equal(
        msg.rows.reduce((s, r) => s + r.length, 0),
        n,
      );
      assert.ok(n > 0, 'events of the node in the zoomed window');
      await new Promise(r => setTimeout(r, 800));
      console.log('HPC_LENS_SCREENSHOT timeline-pytorch');
      await new Promise(r => setTimeout(r, 2000));
    });

    for (const [format, parts] of [
      ['OTF2', ['scorep-otf2', 'ping-pong-2ranks']],
      ['HPCToolkit trace.db', ['hpctoolkit-metadb', 'ping-pong-mpi-with-trace']],
    ] as const) {
      test(`the ${format} ping-pong: two rank lanes`, async function () {
        const path = sharedData(...parts);
        if (!existsSync(path)) this.skip();
        const p = await readProfile(path);
        opened.push(parts[1]);
        const { render } = await openTimeline(api, vscode.Uri.file(path), p);
        assert.equal(render.lanes, 2);
        assert.equal(render.groups, 2, 'one group per rank');
        if (format === 'OTF2') {
          await new Promise(r => setTimeout(r, 800));
          console.log('HPC_LENS_SCREENSHOT timeline-pingpong');
          await new Promise(r => setTimeout(r, 2000));
        }
      });
    }

    test('the Nsight Systems saxpy export: the MPI rank thread and the GPU stream, with its copies', async function () {
      const dir = sharedData('nsight-systems-sqlite', 'saxpy-mpi-cuda-perlmutter');
      if (!existsSync(dir)) this.skip();
      const file = readdirSync(dir).find(f => f.endsWith('.sqlite'));
      if (!file) this.skip();
      const path = join(dir, file!);
      const p = await readProfile(path);
      opened.push(file!);
      const { render, labels } = await openTimeline(api, vscode.Uri.file(path), p);
      assert.ok(render.lanes >= 2, labels.join(', '));
      assert.ok(
        labels.some(l => /stream/i.test(l)),
        `a GPU stream lane among ${labels.join(', ')}`,
      );
      assert.ok(
        labels.some(l => /rank|thread|MPI/i.test(l)),
        `a CPU lane among ${labels.join(', ')}`,
      );
      assert.ok(p.trace!.dataMovement.kind.length > 0, 'the export records copies');
    });
  });
}
