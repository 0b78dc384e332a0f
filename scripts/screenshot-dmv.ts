/**
 * Screenshots of the DMV panel outside VS Code: headless Chromium renders the real webview bundle
 * while this process plays the host, answering the view's requests with the data-movement system
 * itself (the in-process analysis service runs the same code as the worker). Fails when a view
 * draws nothing it should, or the page logs errors.
 *
 *   npx tsx scripts/screenshot-dmv.ts [trace…] [--theme=dark,light] [--width=1400] [--out=/tmp/dmv-screenshots] [--no-build]
 *
 * Without paths: the PyTorch resnet50 trace and the Nsight saxpy export of ../shared/data (when
 * present) and the sample offload trace, then the two real traces as an ensemble. Per trace and
 * theme: the whole run, a clock sector with a matrix cell listed, and a flag selected.
 */
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import type { DmvHostToView, DmvViewToHost } from '../src/shared/dmv-protocol';
import { dmvDrawn, type DmvDrawn } from '../src/shared/test-facts';
import { buildWebviewBundle } from './webview-page';
import {
  drawnUntil,
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
/** Page width: 1400 for an editor-wide panel; about 700 for a panel beside the source (one column). */
const pageWidth = Number(opt('width', '1400'));
const outDir = resolve(opt('out', '/tmp/dmv-screenshots'));
const shared = sharedData;
const RESNET = join(shared, 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz');
const SAXPY = join(shared, 'nsight-systems-sqlite/saxpy-mpi-cuda-perlmutter/saxpy-mpi-cuda_nsys_perlmutter0.sqlite');
const SAMPLE = join(root, 'samples/heat-stencil/profiles/heat-offload-kineto.json');

type Input = { name: string; paths: string[] };

/** The host's side of the panel over the in-process service: what DmvPanel does, minus VS Code. */
function host(
  service: LocalAnalysisService,
  dataset: number,
  kind: 'trace' | 'ensemble',
  title: string,
  send: (m: DmvHostToView) => Promise<void>,
  log: string[],
) {
  const ask = (request: object) =>
    service.systemRequest({ dataset, system: 'dataMovement', request: request as never }) as Promise<never>;
  return async (m: DmvViewToHost | { type: 'test/result' }) => {
    try {
      switch (m.type) {
        case 'ready':
          if (kind === 'ensemble')
            return send({
              type: 'dmv/ensemble',
              title,
              grid: await ask({ kind: 'ensemble', mode: 'own', sort: false }),
              mode: 'own',
              sort: false,
            });
          return send({
            type: 'dmv/init',
            title,
            overview: await ask({ kind: 'overview' }),
            overlayWindow: null,
            focus: null,
          });
        case 'dmv/requestWindow':
          return send({
            type: 'dmv/window',
            requestId: m.requestId,
            data: await ask({
              kind: 'window',
              options: {
                window: m.window,
                expanded: m.expanded,
                metricPoints: m.metricPoints,
                glyph: m.glyph,
                ...(m.hardwareNodes !== undefined ? { hardwareNodes: m.hardwareNodes } : {}),
              },
            }),
          });
        case 'dmv/cell':
          return send({
            type: 'dmv/cell',
            data: await ask({ kind: 'cell', src: m.src, dst: m.dst, window: m.window }),
          });
        case 'dmv/ensemble':
          return send({
            type: 'dmv/ensemble',
            title,
            grid: await ask({ kind: 'ensemble', mode: m.mode, sort: m.sort }),
            mode: m.mode,
            sort: m.sort,
          });
        case 'log':
          log.push(`${m.level}: ${m.message}`);
          return;
        default:
          return;
      }
    } catch (e) {
      log.push(`host: ${(e as Error).message}`);
    }
  };
}

function waitFor(page: Page, what: string, ok: (d: DmvDrawn) => boolean): Promise<DmvDrawn> {
  return drawnUntil(page, what, dmvDrawn, ok, { seconds: 30, everyMs: 100, last: d => JSON.stringify(d.views) });
}

async function main(): Promise<void> {
  if (build) await buildWebviewBundle(root);
  const inputs: Input[] = paths.length
    ? paths.map(p => ({ name: basename(p).replace(/\..*$/, ''), paths: [p] }))
    : [
        ...(existsSync(RESNET) ? [{ name: 'resnet50', paths: [RESNET] }] : []),
        ...(existsSync(SAXPY) ? [{ name: 'saxpy', paths: [SAXPY] }] : []),
        { name: 'heat-offload', paths: [SAMPLE] },
        ...(existsSync(RESNET) && existsSync(SAXPY) ? [{ name: 'ensemble', paths: [SAXPY, RESNET] }] : []),
      ];
  const service = new LocalAnalysisService();
  await runScreenshots(outDir, 'hpc-lens-dmv-', async ({ browser, tmp, failures }) => {
    for (const input of inputs) {
      const ensemble = input.paths.length > 1;
      const dataset = ensemble
        ? (await service.openEnsemble({ paths: input.paths })).dataset
        : (await service.open({ path: input.paths[0]! })).dataset;
      for (const theme of themes) {
        const { page, log } = await loggedPage(browser, { width: pageWidth, height: 1000 });
        const answer = host(service, dataset, ensemble ? 'ensemble' : 'trace', input.name, toPage(page), log);
        await showView(page, answer, { file: join(tmp, `${input.name}-${theme}.html`), theme, view: 'dmv' });
        const shot = async (state: string, fullPage = true) => {
          await page.waitForTimeout(250);
          const wide = pageWidth === 1400 ? '' : `-${pageWidth}px`;
          const path = join(outDir, `dmv-${input.name}-${theme}${wide}${state ? `-${state}` : ''}.png`);
          // The page scrolls inside .dmv-app: grow the viewport to all of it for a full-page picture.
          const height = fullPage
            ? await page.evaluate(
                () =>
                  (
                    globalThis as unknown as { document: { querySelector(s: string): { scrollHeight: number } | null } }
                  ).document.querySelector('.dmv-app')?.scrollHeight ?? 1000,
              )
            : 1000;
          await page.setViewportSize({ width: pageWidth, height: Math.min(5000, Math.max(1000, height)) });
          await page.waitForTimeout(150);
          await page.screenshot({ path });
          await page.setViewportSize({ width: pageWidth, height: 1000 });
          console.log(`  ${path}`);
        };
        if (ensemble) {
          const d = await waitFor(page, input.name, x => (x.ensemble?.runs.length ?? 0) > 1);
          console.log(`${input.name} ${theme}: ${d.ensemble!.runs.join(', ')}`);
          await shot('');
          await page.locator('[data-control="sort"]').click();
          await waitFor(page, 'sort', x => x.ensemble !== null && x.ensemble.runs[0] !== d.ensemble!.runs[0]);
          await page.locator('[data-choice="compare"]').click();
          const c = await waitFor(page, 'compare', x => x.ensemble?.mode === 'compare');
          console.log(
            `  compare: sectors of ${(c.ensemble!.sectorWidth! / 1e6).toFixed(2)} ms, ${c.ensemble!.runs.join(', ')}`,
          );
          await shot('compare');
        } else {
          const d = await waitFor(page, input.name, x => (x.views['matrix'] ?? 0) > 0 && (x.views['events'] ?? 0) > 0);
          console.log(`${input.name} ${theme}: ${JSON.stringify(d.views)}, events ${JSON.stringify(d.events)}`);
          if (!(d.views['clock']! > 0 && d.views['application']! > 0)) failures.push(`${input.name}: a view is empty`);
          await shot('');
          // A sector with copies, then the busiest cell.
          const sector = d.labelledSectors[Math.min(1, d.labelledSectors.length - 1)] ?? 2;
          await page.locator(`.dmv-sector[data-sector="${sector}"]`).click();
          const s = await waitFor(page, 'sector', x => x.sector === sector && x.drawnWindow?.start === x.window?.start);
          const busiest = [...s.matrix].sort((a, b) => b.bytes - a.bytes)[0];
          if (busiest && busiest.bytes > 0) {
            await page.locator(`.dmv-cell[data-src="${busiest.src}"][data-dst="${busiest.dst}"]`).click();
            await waitFor(page, 'cell', x => x.cell !== null);
          }
          await page.locator(`.dmv-sector[data-sector="${sector}"]`).hover();
          await shot('sector');
          if (d.flags.length) {
            await page.locator('.dmv-flag').first().click();
            await waitFor(page, 'flag', x => x.flags.some(f => f.selected) && x.drawnWindow?.start === x.window?.start);
            await shot('flag', false);
          }
        }
        if (log.length) failures.push(...log.map(l => `${input.name} ${theme}: ${l}`));
        await page.close();
      }
    }
  });
}

void main();
