/**
 * Screenshots of the Memory view (MemAxes) outside VS Code: headless Chromium renders the real
 * bundle (same CSP as webview-html.ts, the theme's --vscode-* variables) while this process plays
 * the host with the memory system in-process (LocalAnalysisService). It selects the hottest line,
 * brushes an axis, and fails when a view reports nothing drawn or the page logs errors.
 *
 *   npx tsx scripts/screenshot-memory.ts [samples-file-or-run…] [--theme=dark,light] [--out=/tmp/memory-shots] [--no-build] [--large=250000]
 *
 * Without paths: the shared LULESH runs (`pebs-memaxes/lulesh`: samples.out and the larger
 * lulesh_inorder.out, with hardware.xml), and a generated MemAxes run of `--large` samples.
 * Writes memory-<name>-<theme>-<state>.png.
 */
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import type { MemoryShape } from '../src/service/systems/memory-system';
import type { MemoryHostToView, MemoryViewToHost } from '../src/shared/memory-protocol';
import { memoryDrawn, type MemoryDrawn } from '../src/shared/test-facts';
import { writeMemaxesRun } from './bench-memory';
import { buildWebviewBundle } from './webview-page';
import {
  drawnUntil as pollDrawn,
  loggedPage,
  root,
  runScreenshots,
  scriptArgs,
  sharedData,
  showView,
  toPage,
} from './screenshot-support';

const { opt, paths, build } = scriptArgs();
const themes = opt('theme', 'dark,light').split(',');
const outDir = resolve(root, opt('out', '/tmp/memory-shots'));
const shared = sharedData;

type Request = MemoryShape['request'];

/** The panel's message handling over the in-process memory system (MemoryPanel without VS Code). */
function host(
  service: LocalAnalysisService,
  dataset: number,
  send: (m: MemoryHostToView) => Promise<void>,
  log: string[],
) {
  const ask = <T>(request: Request) =>
    service.systemRequest({ dataset, system: 'memory', request } as never) as Promise<T>;
  return async (m: MemoryViewToHost | { type: 'test/result' }) => {
    try {
      switch (m.type) {
        case 'ready':
          return send({ type: 'memory/data', data: await ask({ kind: 'view' }), origin: 'open' });
        case 'log':
          log.push(`${m.level}: ${m.message}`);
          return;
        case 'memory/select':
          return send({
            type: 'memory/data',
            data: await ask({ kind: 'select', mode: m.mode, target: m.target }),
            origin: 'panel',
          });
        case 'memory/scope':
          return send({ type: 'memory/data', data: await ask({ kind: 'scope', action: m.action }), origin: 'panel' });
        case 'memory/strip':
          return send({
            type: 'memory/strip',
            requestId: m.requestId,
            strip: await ask({ kind: 'strip', attribute: m.attribute, metric: m.metric, windows: m.windows }),
          });
        case 'memory/clusters':
          return send({
            type: 'memory/clusters',
            requestId: m.requestId,
            clusters: await ask({ kind: 'clusters', attribute: m.attribute, metric: m.metric, count: m.count }),
          });
        case 'memory/openSource':
        case 'test/result':
          return;
      }
    } catch (e) {
      log.push(`host: ${(e as Error).message}`);
    }
  };
}

/** Scrolls the Memory view (it scrolls inside the page) to `top`. */
function scrollView(page: Page, top: number): Promise<void> {
  return page.evaluate(y => {
    const doc = (
      globalThis as unknown as {
        document: { querySelector(s: string): { scrollTo(x: number, y: number): void } | null };
      }
    ).document;
    doc.querySelector('.memory-view')?.scrollTo(0, y);
  }, top);
}

function drawnUntil(page: Page, what: string, ok: (r: MemoryDrawn) => boolean): Promise<MemoryDrawn> {
  return pollDrawn(page, what, memoryDrawn, ok, { seconds: 30, everyMs: 50, last: r => `last ${JSON.stringify(r)}` });
}

function inputs(tmp: string): { name: string; path: string }[] {
  if (paths.length) return paths.map(p => ({ name: basename(p).replace(/\.\w+$/, ''), path: p }));
  const out: { name: string; path: string }[] = [];
  const lulesh = join(shared, 'pebs-memaxes', 'lulesh');
  if (existsSync(lulesh)) {
    out.push({ name: 'lulesh-inorder', path: join(lulesh, 'data', 'lulesh_inorder.out') });
    out.push({ name: 'lulesh', path: lulesh });
  }
  const large = Number(opt('large', '250000'));
  if (large > 0) {
    const run = join(tmp, 'generated');
    writeMemaxesRun(run, large);
    out.push({ name: `generated-${large}`, path: run });
  }
  return out;
}

async function main(): Promise<void> {
  if (build) await buildWebviewBundle(root);
  await runScreenshots(outDir, 'hpc-lens-memory-shot-', async ({ browser, tmp, failures }) => {
    for (const input of inputs(tmp)) {
      const service = new LocalAnalysisService();
      const opened = await service.open({ path: input.path });
      if (!('system' in opened) || opened.system !== 'memory') throw new Error(`${input.path}: not memory samples`);
      for (const theme of themes) {
        // Each theme starts from all samples: the selection lives in the memory system, not the page.
        for (const action of ['clear', 'showAll'] as const)
          await service.systemRequest({
            dataset: opened.dataset,
            system: 'memory',
            request: { kind: 'scope', action },
          } as never);
        const { page, log } = await loggedPage(browser, { width: 1500, height: 1000 });
        const answer = host(service, opened.dataset, toPage(page), log);
        await showView(page, answer, { file: join(tmp, `${input.name}-${theme}.html`), theme, view: 'memory' });
        const shot = async (state: string) => {
          await page.waitForTimeout(300);
          const path = join(outDir, `memory-${input.name}-${theme}-${state}.png`);
          await page.screenshot({ path, fullPage: true });
          console.log(`  ${path}`);
        };
        try {
          const first = await drawnUntil(
            page,
            input.name,
            r => r.histograms.length > 0 && r.lines.length > 0 && r.strip !== null && r.clusters > 0,
          );
          console.log(
            `${input.name} ${theme}: ${first.samples} samples, ${first.histograms.length} axes, ${first.lines.length} lines, ${first.variables.length} variables, topology ${first.topology}, ${first.clusters} clusters`,
          );
          await shot('all');
          // The view scrolls: its lower part (metric strip and parallel histograms) as well.
          await scrollView(page, 1e6);
          await shot('all-lower');
          await scrollView(page, 0);
          // A cluster marker hovered: its mini sunburst.
          const marker = page.locator('.memory-cluster').nth(1);
          await marker.scrollIntoViewIfNeeded();
          await marker.hover();
          await page
            .locator('[data-cluster-glyph] .topology-view')
            .waitFor({ timeout: 10000 })
            .then(
              () => shot('cluster'),
              () => failures.push(`${input.name}: no mini sunburst on a hovered cluster marker`),
            );
          await page.mouse.move(0, 0);
          await scrollView(page, 0);
          // The hottest line, clicked as a user does.
          await page.locator('.memory-line-bar').first().click();
          await drawnUntil(page, `${input.name} select line`, r => r.selected > 0);
          await shot('line');
          // A brush along the latency axis: the upper half of its bins.
          const axis = page.locator('[data-axis-hit="latency"]');
          const box = await axis.boundingBox();
          if (box) {
            await page.mouse.move(box.x + box.width / 2, box.y + 4);
            await page.mouse.down();
            await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
            await page.mouse.up();
            await drawnUntil(page, `${input.name} brush`, r => r.histograms.some(h => h.brushed));
            await shot('brush');
          } else failures.push(`${input.name}: no latency axis`);
        } catch (e) {
          await shot('failed');
          failures.push(`${String(e)}\n${log.join('\n')}`);
        }
        if (log.length) failures.push(...log.map(l => `${input.name} ${theme}: ${l}`));
        await page.close();
      }
      await service.close({ dataset: opened.dataset });
    }
  });
}

void main();
