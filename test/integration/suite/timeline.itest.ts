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
import type { HpcLensApi } from './itest-support';
import { formatWindow, type TimelineWindow } from '../../../src/shared/timeline-protocol';
import type { TimelineDrawn } from '../../../src/shared/test-facts';
import { EXTENSION_ID, until, within } from './itest-support';

const sharedData = (...parts: string[]) => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
  return join(process.env.HPC_LENS_SHARED_DIR ?? resolve(ext.extensionPath, '..', 'shared'), 'data', ...parts);
};
const workspaceFile = (...parts: string[]) => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, ...parts);

/** The timeline's last frame once `ok` accepts it. */
function drawnFrame(api: HpcLensApi, what: string, ok: (f: TimelineDrawn) => boolean, ms = 30000) {
  return until(
    what,
    async () => {
      const f = await api.timeline.drawn().catch(() => undefined);
      return f && ok(f) ? f : undefined;
    },
    ms,
  );
}

/** Opens a trace and the timeline; resolves once the view drew the lanes of this trace. */
async function openTimeline(api: HpcLensApi, uri: vscode.Uri, profile: Profile) {
  const labels = flattenLanes(buildLaneTree(profile.trace!.tracks)).map(l => l.label);
  assert.equal(
    await vscode.commands.executeCommand<boolean>('hpcLens.openProfile', uri),
    true,
    `opened (last error: ${api.lastError})`,
  );
  await vscode.commands.executeCommand('hpcLens.showTimeline');
  const [lo, hi] = profile.trace!.timeRange;
  const render = await drawnFrame(
    api,
    `the timeline of ${uri.path.split('/').pop()} drawn`,
    r =>
      r.lanes === labels.length &&
      r.laneLabels.join('|') === labels.join('|') &&
      r.window.start <= lo &&
      r.window.end >= hi,
  );
  return { render, labels };
}

/** x of time `t` on the canvas of frame `f` (relative to the canvas). */
const xOf = (f: TimelineDrawn, t: number) => ((t - f.view.start) / (f.view.end - f.view.start)) * f.box.width;

/**
 * Selects a window by shift-dragging over the canvas, as the user does; resolves with the window
 * the view selected (pixels round it) and the statistics the host sent for it.
 */
async function selectWindow(api: HpcLensApi, window: TimelineWindow) {
  const f = (await api.timeline.drawn())!;
  const stats = api.timeline.nextMessage('timeline/windowStats');
  const y = Math.min(12, f.box.height / 2);
  await api.timeline.agent.pointer('canvas.timeline-canvas', [
    { type: 'pointerdown', x: xOf(f, window.start), y, shiftKey: true },
    { type: 'pointermove', x: xOf(f, window.end), y, shiftKey: true },
    { type: 'pointerup', x: xOf(f, window.end), y, shiftKey: true },
  ]);
  const s = await within(stats, 'window statistics');
  return { stats: s, window: api.timeline.selection!.window };
}

/** Zooms to a window: select it, then Zoom to Window. */
async function zoomTo(api: HpcLensApi, window: TimelineWindow) {
  const before = (await api.timeline.drawn())!;
  await selectWindow(api, window);
  await api.timeline.agent.click('[data-action="zoom-to-window"]');
  return drawnFrame(
    api,
    'the zoomed frame',
    r => r.requestId > before.requestId && r.window.end - r.window.start < (before.view.end - before.view.start) / 2,
  );
}

/** Points at `time` on `track`'s lane (a hover asks the host for the event there), then clicks it. */
async function clickAt(api: HpcLensApi, track: number, time: number) {
  const f = (await api.timeline.drawn())!;
  const [lane] = await api.timeline.agent.query(`.timeline-lane-header[data-track="${track}"]`);
  assert.ok(lane, `lane ${track} is on screen`);
  const at = { x: xOf(f, time), y: lane.box.y + lane.box.height / 2 - f.box.y };
  const details = api.timeline.nextMessage('timeline/eventDetails');
  await api.timeline.agent.pointer('canvas.timeline-canvas', [{ type: 'pointermove', ...at }]);
  await within(details, 'the hovered event');
  await api.timeline.agent.pointer('canvas.timeline-canvas', [{ type: 'click', ...at }]);
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
      const { stats, window } = await selectWindow(api, {
        start: Math.round(lo + (hi - lo) * 0.1),
        end: Math.round(lo + (hi - lo) * 0.45),
      });
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

      // A click on an event opens its source line (the hovered event's nearest located frame). The
      // hover looks the event up at the depth the lanes show, else the innermost there (tiles.ts' rule).
      const frame = (await api.timeline.drawn())!;
      const pxPerNs = frame.box.width / (frame.view.end - frame.view.start);
      const ev = p.trace!.events;
      const cpuTracks = p.trace!.tracks.flatMap((t, i) => (t.kind === 'thread' ? [i] : []));
      let target: { track: number; time: number; file: string; line: number } | undefined;
      for (let r = 0; r < ev.track.length && !target; r++) {
        if (!cpuTracks.includes(ev.track[r]!) || ev.kind[r] !== 0) continue;
        const time = ev.start[r]! + ev.duration[r]! / 2;
        let hit = eventAt(index, ev.track[r]!, time, frame.depth);
        if (hit < 0) hit = eventAt(index, ev.track[r]!, time);
        // Wide enough on screen that the pixel under the pointer is inside it.
        if (hit < 0 || ev.duration[hit]! * pxPerNs < 6) continue;
        const src = eventDetails(index, hit).source;
        if (src?.file.endsWith('offload.c') && src.line)
          target = {
            track: ev.track[r]!,
            time: ev.start[hit]! + ev.duration[hit]! / 2,
            file: src.file,
            line: src.line,
          };
      }
      assert.ok(target, 'an event located in offload.c, wide enough to click');
      await clickAt(api, target.track, target.time);
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
      const wanted = { start: Math.round(lo + (hi - lo) * 0.48), end: Math.round(lo + (hi - lo) * 0.52) };
      const zoomed = await zoomTo(api, { start: wanted.start - (hi - lo) * 0.01, end: wanted.end + (hi - lo) * 0.01 });
      assert.ok(zoomed.window.end - zoomed.window.start < (hi - lo) / 10, 'zoomed to a tenth of the run or less');
      assert.ok(zoomed.flows > 0, 'launch → kernel arrows in the zoomed window');
      const { stats, window } = await selectWindow(api, wanted);
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
      const shown = (await api.timeline.drawn())!;
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
