/**
 * Screenshots of the timeline webview outside VS Code: headless Chromium renders the real bundle
 * (same CSP as webview-html.ts, the theme's --vscode-* variables) while this process plays the
 * host, answering the view's requests with the worker's own code (timeline-requests.ts) over a real
 * trace. Fails when the view does not report a drawn frame with lanes, or logs errors.
 *
 *   npx tsx scripts/screenshot-timeline.ts [trace path…] [--theme=dark|light] [--out=dist/screenshots] [--no-build]
 *
 * Without paths: the PyTorch resnet50 trace and the OTF2 ping-pong of ../shared/data (when present)
 * and a synthetic MPI+GPU trace. Writes timeline-<name>-<theme>.png, plus -zoom and -select states.
 */
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import type { Profile } from '../src/analysis/model/profile';
import { syntheticTraceProfile } from '../src/analysis/timeline/testing/synthetic-trace';
import { timelineDrawn, type TimelineDrawn } from '../src/shared/test-facts';
import type { TimelineWindow } from '../src/shared/timeline-protocol';
import { buildWebviewBundle } from './webview-page';
import {
  drawnUntil,
  loggedPage,
  queryOf,
  root,
  runScreenshots,
  scriptArgs,
  sharedData,
  showView,
  toPage,
} from './screenshot-support';
import { timelineHost } from './timeline-host';

const { opt, paths, build } = scriptArgs();
const themes = opt('theme', 'dark').split(',');
const outDir = resolve(root, opt('out', 'dist/screenshots'));
const shared = sharedData;

/** Polls the timeline's last frame until it is one after `after` (a request id) and `ok` accepts it. */
function drawnAfter(page: Page, after: number, what: string, ok: (r: TimelineDrawn) => boolean = () => true) {
  return drawnUntil(page, what, timelineDrawn, r => r.requestId > after && ok(r), {
    seconds: 20,
    everyMs: 50,
    last: r => `last frame ${r?.requestId ?? 'none'}`,
  });
}

/** Shift-drag over the canvas from time `w.start` to `w.end` of the view on screen, as a user selects a window. */
async function selectByDrag(page: Page, frame: TimelineDrawn, w: TimelineWindow): Promise<void> {
  const x = (t: number) =>
    frame.box.x + ((t - frame.view.start) / (frame.view.end - frame.view.start)) * frame.box.width;
  const y = frame.box.y + Math.min(40, frame.box.height / 2);
  await page.keyboard.down('Shift');
  await page.mouse.move(x(w.start), y);
  await page.mouse.down();
  await page.mouse.move(x(w.end), y, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
}

async function main(): Promise<void> {
  if (build) await buildWebviewBundle(root);
  const inputs: { name: string; load: () => Promise<Profile> }[] = paths.length
    ? paths.map(p => ({ name: basename(p).replace(/\..*$/, ''), load: () => readProfile(p) }))
    : [
        ...[
          join(shared, 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz'),
          join(shared, 'scorep-otf2/ping-pong-2ranks'),
          join(shared, 'hpctoolkit-metadb/ping-pong-mpi-with-trace'),
        ]
          .filter(p => existsSync(p))
          .map(p => ({
            name: p.includes('resnet') ? 'pytorch' : p.includes('otf2') ? 'pingpong-otf2' : 'pingpong-tracedb',
            load: () => readProfile(p),
          })),
        {
          name: 'synthetic',
          load: async () => syntheticTraceProfile({ ranks: 8, threadsPerRank: 2, targetEvents: 2e5 }),
        },
      ];
  await runScreenshots(outDir, 'hpc-lens-timeline-', async ({ browser, tmp, failures }) => {
    for (const input of inputs) {
      const profile = await input.load();
      for (const theme of themes) {
        const { page, log } = await loggedPage(browser, { width: 1400, height: 820 });
        const answer = timelineHost(profile, input.name, toPage(page), log);
        await showView(page, answer, { file: join(tmp, `${input.name}-${theme}.html`), theme, view: 'timeline' });
        const r = await drawnAfter(page, -1, input.name);
        console.log(
          `${input.name} ${theme}: ${r.lanes} lanes, ${r.rects} tile runs, ${r.events} events, ${r.flows} flows, ${r.copies} copies`,
        );
        if (!(r.lanes > 0 && r.rects + r.events > 0)) failures.push(`${input.name}: nothing drawn`);
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(outDir, `timeline-${input.name}-${theme}.png`) });
        // Zoom to a tenth of the run in its middle, hover the first lane, then select a range.
        const [lo, hi] = profile.trace!.timeRange;
        const mid = (lo + hi) / 2,
          span = (hi - lo) / 40;
        // The user's way: select the window by shift-drag, then Zoom to Window.
        await selectByDrag(page, r, { start: mid - span, end: mid + span });
        await page.locator('button', { hasText: 'Zoom to Window' }).click();
        await drawnAfter(page, r.requestId, `${input.name} zoom`, f => f.window.end - f.window.start < (hi - lo) / 4);
        await page.waitForTimeout(200);
        const box = (await page.locator('.timeline-canvas').boundingBox())!;
        // Hover the lane drawn fullest near the middle (the first one with detail or tiles there).
        const headers = page.locator('.timeline-lane-header');
        const lane = await headers.nth(Math.min(1, (await headers.count()) - 1)).boundingBox();
        if (lane) await page.mouse.move(box.x + box.width * 0.45, lane.y + lane.height / 2);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(outDir, `timeline-${input.name}-${theme}-zoom.png`) });
        await page.keyboard.press('Escape');
        const zoomedFrame = (await timelineDrawn(queryOf(page)))!;
        await selectByDrag(page, zoomedFrame, { start: mid - span / 2, end: mid + span / 2 });
        await page.mouse.move(box.x + 5, box.y + box.height + 60);
        await page
          .waitForSelector('.timeline-stats-functions', { timeout: 10000 })
          .catch(() => failures.push(`${input.name}: no window statistics`));
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(outDir, `timeline-${input.name}-${theme}-select.png`) });
        if (log.length) failures.push(...log.map(l => `${input.name} ${theme}: ${l}`));
        await page.close();
      }
    }
  });
}

void main();
