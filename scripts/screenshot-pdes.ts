/**
 * Screenshots of the PDES panel outside VS Code: headless Chromium renders the real bundle (same CSP
 * as webview-html.ts, a theme's --vscode-* variables) while this process plays the host with the
 * PDES system in a LocalAnalysisService over real ROSS/CODES runs, applying the page's messages with
 * the panel's own state rules (pdes-panel-state.ts). It draws the run, strokes across the top detail
 * view, filters by the right-click cluster menu, lassos a similarity view and brushes the overview,
 * failing when a view reports nothing drawn or the page logs errors.
 *
 *   npx tsx scripts/screenshot-pdes.ts [folder…] [--theme=dark,light] [--out=dist/screenshots] [--no-build]
 *
 * Without folders: the shared CODES runs with an event trace and the largest ones (when ../shared is
 * present). Writes pdes-<name>-<theme>-<state>.png.
 */
import type { Page } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PdesPick } from '../src/analysis/pdes/panel-views';
import { nextState } from '../src/extension/webviews/pdes-panel-state';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import {
  EMPTY_PDES_PANEL_STATE,
  pdesViewState,
  type PdesHostToView,
  type PdesViewToHost,
} from '../src/shared/pdes-protocol';
import { pdesDrawn, type PdesDrawn } from '../src/shared/test-facts';
import { buildWebviewBundle, encode, launchChromium, pageQuery, webviewPage } from './webview-page';

const root = resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => args.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const themes = opt('theme', 'dark,light').split(',');
const outDir = resolve(root, opt('out', 'dist/screenshots'));
const shared = resolve(root, '..', 'shared', 'data', 'pdes-ross-codes');

function inputs(): string[] {
  const paths = args.filter(a => !a.startsWith('--'));
  if (paths.length) return paths;
  return ['codes-dragonfly-dally-72-uniform-random-8pe-fulltrace', 'codes-dragonfly-dally-72-nearest-neighbor']
    .map(n => join(shared, n))
    .filter(p => existsSync(p));
}

async function drawnUntil(page: Page, what: string, ok: (r: PdesDrawn) => boolean): Promise<PdesDrawn> {
  const query = pageQuery(page);
  const t0 = Date.now();
  for (;;) {
    const r = await pdesDrawn(query);
    if (r && ok(r)) return r;
    if (Date.now() - t0 > 60000) throw new Error(`${what}: not drawn within 60 s (last ${JSON.stringify(r)})`);
    await page.waitForTimeout(100);
  }
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) await buildWebviewBundle(root);
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-pdes-shot-'));
  const browser = await launchChromium();
  const failures: string[] = [];
  const service = new LocalAnalysisService();
  try {
    for (const folder of inputs()) {
      const name = basename(folder);
      const opened = await service.open({ path: folder });
      if (opened.system !== 'pdes') throw new Error(`${folder} is not claimed by the PDES system`);
      for (const theme of themes) {
        let state = EMPTY_PDES_PANEL_STATE;
        let width = 900;
        const page = await browser.newPage({ viewport: { width: 1400, height: 1750 }, deviceScaleFactor: 1 });
        const log: string[] = [];
        page.on('console', m => {
          if (m.type() === 'error') log.push(`console: ${m.text()}`);
        });
        page.on('pageerror', e => log.push(`page error: ${e.message}`));
        const send = (m: PdesHostToView) =>
          page.evaluate(
            x => (globalThis as unknown as { __fromHost(m: unknown): void }).__fromHost(x),
            encode(m) as never,
          );
        /** What PdesPanel.refresh does, with the service in this process. */
        const refresh = async (pick?: PdesPick) => {
          const t0 = performance.now();
          const views = await service.systemRequest<'pdes', 'views'>({
            dataset: opened.dataset,
            system: 'pdes',
            request: {
              kind: 'views',
              options: state.options,
              state: pdesViewState(state, { width, pick }),
            },
          });
          state = { ...state, selection: views.selection };
          console.log(`  ${name}: views in ${(performance.now() - t0).toFixed(0)} ms`);
          await send({ type: 'pdes/views', title: name, run: opened.opened, views, state, settings: {} });
        };
        const answer = async (m: PdesViewToHost | { type: 'test/result' }) => {
          switch (m.type) {
            case 'ready':
              return refresh();
            case 'log':
              log.push(`${m.level}: ${m.message}`);
              return;
            case 'test/result':
            case 'pdes/openHandler':
              return;
            case 'pdes/width':
              if (Math.abs(m.width - width) < 8) return;
              width = Math.round(m.width);
              return refresh();
            case 'pdes/pick':
              return refresh(m.pick);
            default:
              state = nextState(state, m);
              return refresh();
          }
        };
        await page.exposeFunction('__toHost', (json: string) =>
          answer(JSON.parse(json)).catch((e: unknown) => log.push(`host: ${String(e)}`)),
        );
        const file = join(tmp, `${name}-${theme}.html`);
        writeFileSync(file, webviewPage(root, theme, 'pdes'));
        await page.goto(pathToFileURL(file).href);
        const shot = async (what: string) => {
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(outDir, `pdes-${name}-${theme}-${what}.png`), fullPage: true });
        };
        const step = async (what: string, act: () => Promise<unknown>, ok: (r: PdesDrawn) => boolean) => {
          await act();
          return drawnUntil(page, `${name} ${what}`, ok).catch(e => {
            failures.push(String(e));
            return undefined;
          });
        };
        const first = await drawnUntil(page, name, r => r.details.length === 2 && r.details[0]!.lines > 0);
        console.log(`${name} ${theme}: ${JSON.stringify(first)}`);
        if (first.circular.length === 0) failures.push(`${name}: no circular view`);
        await shot('all');
        // A short stroke in the middle of the top detail view picks the lines it crosses (not all of them).
        const detail = (await page.locator('svg.pdes-detail').first().boundingBox())!;
        const stroked = await step(
          'stroke',
          async () => {
            const x = detail.x + detail.width * 0.4;
            const y0 = detail.y + detail.height * 0.45;
            await page.mouse.move(x, y0);
            await page.mouse.down();
            for (let k = 1; k <= 10; k++) await page.mouse.move(x, y0 + (k * detail.height * 0.3) / 10);
            await page.mouse.up();
          },
          r => r.selected < first.total,
        );
        if (stroked && stroked.details[1]!.lines !== stroked.selected)
          failures.push(
            `${name}: the bottom detail view shows ${stroked.details[1]!.lines} lines, not the ${stroked.selected} picked`,
          );
        await shot('stroke');
        await step(
          'clear',
          () => page.locator('[data-action="clear-selection"]').click(),
          r => r.selected === first.total,
        );
        // The right-click cluster filter on the first legend entry.
        await page.locator('.pdes-legend-entry').first().click({ button: 'right' });
        await step(
          'cluster filter',
          () => page.locator('[data-menu="only"]').click(),
          r => r.selected === r.clusterSizes[0],
        );
        await shot('cluster');
        await step(
          'clear',
          () => page.locator('[data-action="clear-selection"]').click(),
          r => r.selected === first.total,
        );
        // A lasso around the left half of the first similarity view.
        const sim = (await page.locator('svg.pdes-similarity').first().boundingBox())!;
        await step(
          'lasso',
          async () => {
            const pts: [number, number][] = [
              [0.02, 0.02],
              [0.5, 0.02],
              [0.5, 0.98],
              [0.02, 0.98],
              [0.02, 0.03],
            ];
            await page.mouse.move(sim.x + sim.width * pts[0]![0], sim.y + sim.height * pts[0]![1]);
            await page.mouse.down();
            for (const [fx, fy] of pts.slice(1))
              await page.mouse.move(sim.x + sim.width * fx, sim.y + sim.height * fy, { steps: 4 });
            await page.mouse.up();
          },
          r => r.selected < first.total && r.similarity[1]!.points === r.selected,
        );
        await shot('lasso');
        await step(
          'clear',
          () => page.locator('[data-action="clear-selection"]').click(),
          r => r.selected === first.total,
        );
        // Brush the first half of the overview.
        const overview = (await page.locator('svg.pdes-overview').boundingBox())!;
        await step(
          'brush',
          async () => {
            await page.mouse.move(overview.x + 60, overview.y + 60);
            await page.mouse.down();
            await page.mouse.move(overview.x + overview.width * 0.3, overview.y + 60);
            await page.mouse.move(overview.x + overview.width * 0.55, overview.y + 60);
            await page.mouse.up();
          },
          r => (r.overview?.brushTo ?? 0) - (r.overview?.brushFrom ?? 0) < (first.overview?.brushTo ?? 0),
        );
        await step(
          'heatmap',
          () => page.locator('[data-option="ringEncoding"]').selectOption('heatmap'),
          () => true,
        );
        await shot('brushed-heatmap');
        if (log.length) failures.push(...log.map(l => `${name} ${theme}: ${l}`));
        await page.close();
      }
      await service.close({ dataset: opened.dataset });
    }
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(failures.length ? `\n${failures.join('\n')}` : `screenshots in ${outDir}`);
  process.exit(failures.length ? 1 : 0);
}

void main();
