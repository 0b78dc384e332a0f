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
import * as esbuild from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import type { DmvHostToView, DmvViewToHost } from '../src/shared/dmv-protocol';
import { dmvDrawn, type DmvDrawn } from '../src/shared/test-facts';
import { encode, pageQuery, webviewPage } from './webview-page';

const root = resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => args.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const themes = opt('theme', 'dark,light').split(',');
/** Page width: 1400 for an editor-wide panel; about 700 for a panel beside the source (one column). */
const pageWidth = Number(opt('width', '1400'));
const outDir = resolve(opt('out', '/tmp/dmv-screenshots'));
const shared = resolve(root, '..', 'shared', 'data');
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

async function waitFor(page: Page, what: string, ok: (d: DmvDrawn) => boolean): Promise<DmvDrawn> {
  const query = pageQuery(page);
  const t0 = Date.now();
  for (;;) {
    const d = await dmvDrawn(query);
    if (ok(d)) return d;
    if (Date.now() - t0 > 30000) throw new Error(`${what}: not drawn within 30 s (${JSON.stringify(d.views)})`);
    await page.waitForTimeout(100);
  }
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) {
    await esbuild.build({
      entryPoints: { webview: join(root, 'webview-ui/src/main.tsx') },
      outdir: join(root, 'dist'),
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome130',
      jsx: 'automatic',
      logLevel: 'warning',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    });
  }
  const paths = args.filter(a => !a.startsWith('--'));
  const inputs: Input[] = paths.length
    ? paths.map(p => ({ name: basename(p).replace(/\..*$/, ''), paths: [p] }))
    : [
        ...(existsSync(RESNET) ? [{ name: 'resnet50', paths: [RESNET] }] : []),
        ...(existsSync(SAXPY) ? [{ name: 'saxpy', paths: [SAXPY] }] : []),
        { name: 'heat-offload', paths: [SAMPLE] },
        ...(existsSync(RESNET) && existsSync(SAXPY) ? [{ name: 'ensemble', paths: [SAXPY, RESNET] }] : []),
      ];
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-dmv-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const failures: string[] = [];
  const service = new LocalAnalysisService();
  try {
    for (const input of inputs) {
      const ensemble = input.paths.length > 1;
      const dataset = ensemble
        ? (await service.openEnsemble({ paths: input.paths })).dataset
        : (await service.open({ path: input.paths[0]! })).dataset;
      for (const theme of themes) {
        const page = await browser.newPage({ viewport: { width: pageWidth, height: 1000 }, deviceScaleFactor: 1 });
        const log: string[] = [];
        page.on('console', m => {
          if (m.type() === 'error') log.push(`console: ${m.text()}`);
        });
        page.on('pageerror', e => log.push(`page error: ${e.message}`));
        const answer = host(
          service,
          dataset,
          ensemble ? 'ensemble' : 'trace',
          input.name,
          m => page.evaluate(x => (globalThis as unknown as { __fromHost(m: unknown): void }).__fromHost(x), encode(m)),
          log,
        );
        await page.exposeFunction('__toHost', (json: string) => answer(JSON.parse(json)));
        const file = join(tmp, `${input.name}-${theme}.html`);
        writeFileSync(file, webviewPage(root, theme, 'dmv'));
        await page.goto(pathToFileURL(file).href);
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
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(failures.length ? `\n${failures.join('\n')}` : `screenshots in ${outDir}`);
  process.exit(failures.length ? 1 : 0);
}

void main();
