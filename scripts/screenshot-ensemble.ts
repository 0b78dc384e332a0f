/**
 * Screenshots of Ensemble CallFlow outside VS Code: headless Chromium renders the real bundle (same
 * CSP as webview-html.ts, the theme's --vscode-* variables) while this process plays the host with
 * the panel's own EnsembleSession over real runs. It selects the heaviest node and walks the modes
 * and linked views, failing when a view reports nothing drawn or the page logs errors.
 *
 *   npx tsx scripts/screenshot-ensemble.ts [folder…] [--theme=dark|light] [--out=dist/screenshots] [--no-build]
 *
 * Without folders: the shared LULESH scaling study (when ../shared is present), the demo's profile
 * scaled into three runs, and a generated 100-run ensemble. Writes ensemble-<name>-<theme>-<state>.png.
 */
import { chromium, type Page } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEnsemble } from '../src/analysis/ensemble';
import { EnsembleProfile } from '../src/analysis/ensemble/ensemble-profile';
import { writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';
import { EnsembleSession } from '../src/service/ensemble-session';
import type {
  EnsembleHostToView,
  EnsembleRequest,
  EnsembleViewToHost,
  LinkedViewName,
} from '../src/shared/ensemble-protocol';
import { ensembleDrawn, type EnsembleDrawn } from '../src/shared/test-facts';
import { buildWebviewBundle, pageQuery, webviewPage } from './webview-page';

const root = resolve(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => args.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const themes = opt('theme', 'dark').split(',');
const outDir = resolve(root, opt('out', 'dist/screenshots'));
const shared = resolve(root, '..', 'shared', 'data');

/** The panel's message handling over a session (EnsemblePanel without VS Code, the service in this process). */
function host(session: EnsembleSession, send: (m: EnsembleHostToView) => Promise<void>, log: string[]) {
  const answer = async (request: EnsembleRequest | null) => {
    const r = session.respond(request, request === null);
    if (r.error) {
      log.push(`request refused: ${r.error}`);
      return;
    }
    if (r.graph)
      await send({ type: 'ensemble/graph', data: r.graph.data, state: r.state, projection: r.graph.projection });
    await send({ type: 'ensemble/detail', detail: r.detail, state: r.state });
  };
  return async (m: EnsembleViewToHost | { type: 'test/result' }) => {
    if (m.type === 'ready') return answer(null);
    if (m.type === 'log') {
      log.push(`${m.level}: ${m.message}`);
      return;
    }
    if (m.type === 'test/result' || m.type === 'openSource') return;
    return answer(m);
  };
}

/** Polls what the page drew until `ok` accepts it. */
async function drawnUntil(page: Page, what: string, ok: (r: EnsembleDrawn) => boolean): Promise<EnsembleDrawn> {
  const query = pageQuery(page);
  const t0 = Date.now();
  for (;;) {
    const r = await ensembleDrawn(query);
    if (ok(r)) return r;
    if (Date.now() - t0 > 20000)
      throw new Error(`${what}: not drawn within 20 s (last counts ${JSON.stringify(r.counts)})`);
    await page.waitForTimeout(50);
  }
}

async function loadInputs(tmp: string): Promise<{ name: string; folder: string }[]> {
  const paths = args.filter(a => !a.startsWith('--'));
  if (paths.length) return paths.map(p => ({ name: basename(p), folder: p }));
  const inputs: { name: string; folder: string }[] = [];
  const lulesh = join(shared, 'caliper-cali', 'lulesh-mpi-scaling-5runs');
  if (existsSync(lulesh)) inputs.push({ name: 'lulesh', folder: lulesh });
  const scaled = join(tmp, 'scaled');
  mkdirSync(scaled);
  const doc = JSON.parse(
    readFileSync(join(root, 'samples/heat-stencil/profiles/heat-stencil-sampling-4ranks.json'), 'utf8'),
  ) as { columns: string[]; data: number[][] };
  const time = doc.columns.indexOf('sum#time.duration');
  for (const [name, f] of Object.entries({ run_a: 1, run_b: 1.5, run_c: 3 })) {
    writeFileSync(
      join(scaled, `${name}.json`),
      JSON.stringify({ ...doc, data: doc.data.map(row => row.map((v, i) => (i === time ? v * f : v))) }),
    );
  }
  inputs.push({ name: 'sample', folder: scaled });
  const synthetic = join(tmp, 'synthetic');
  writeSyntheticEnsemble(synthetic, { runs: 100, nodes: 60, seed: 3 });
  inputs.push({ name: 'synthetic100', folder: synthetic });
  return inputs;
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) await buildWebviewBundle(root);
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-ensemble-shot-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const failures: string[] = [];
  try {
    for (const input of await loadInputs(tmp)) {
      const loaded = await loadEnsemble(input.folder);
      const ep = new EnsembleProfile(loaded.runs, { path: input.folder, errors: loaded.errors });
      for (const theme of themes) {
        const session = new EnsembleSession(ep, {
          title: input.name,
          metric: () => ep.profile.metrics[ep.profile.primaryMetric]!.name,
        });
        const page = await browser.newPage({ viewport: { width: 1400, height: 980 }, deviceScaleFactor: 1 });
        const log: string[] = [];
        page.on('console', m => {
          if (m.type() === 'error') log.push(`console: ${m.text()}`);
        });
        page.on('pageerror', e => log.push(`page error: ${e.message}`));
        const send = (m: EnsembleHostToView) =>
          page.evaluate(x => (globalThis as unknown as { __fromHost(m: unknown): void }).__fromHost(x), m as never);
        const answer = host(session, send, log);
        await page.exposeFunction('__toHost', (json: string) => answer(JSON.parse(json)));
        const file = join(tmp, `${input.name}-${theme}.html`);
        writeFileSync(file, webviewPage(root, theme, 'ensemble'));
        await page.goto(pathToFileURL(file).href);
        const shot = async (state: string) => {
          await page.waitForTimeout(250);
          await page.screenshot({ path: join(outDir, `ensemble-${input.name}-${theme}-${state}.png`) });
        };
        /** A request as the page sends it (the script plays the host), then what must be drawn. */
        const act = async (what: string, action: () => Promise<unknown>, ok: (r: EnsembleDrawn) => boolean) => {
          await action();
          return drawnUntil(page, `${input.name} ${what}`, ok).catch(e => {
            failures.push(String(e));
            return undefined;
          });
        };
        const request = (r: EnsembleRequest) => () => answer(r);
        /** The user's choice of two linked views (the panes' tabs). */
        const panes = (p: [LinkedViewName, LinkedViewName]) => async () => {
          for (const [i, view] of p.entries())
            await page.locator(`[data-pane="${i}"][data-linked-view="${view}"]`).click();
        };
        const first = await drawnUntil(page, input.name, r => (r.counts['sankeyNodes'] ?? 0) > 0).catch(
          async (e: unknown) => {
            await shot('failed');
            throw new Error(`${String(e)}\n${log.join('\n')}`);
          },
        );
        const top = [...session.computed!.data.nodes].sort((a, b) => b.maxExclusive - a.maxExclusive)[0]!;
        console.log(
          `${input.name} ${theme}: ${first.counts['sankeyNodes']} nodes, ${first.counts['sankeyLinks']} links, ${session.computed!.data.runs.length} runs; graph ${session.timings.graph?.toFixed(0)} ms`,
        );
        await act(
          'select',
          request({ type: 'ensemble/select', nodeId: top.id }),
          r => r.selected === top.id && (r.counts['icicle'] ?? 0) > 0 && (r.counts['boxes'] ?? 0) > 0,
        );
        await shot('summary');
        // Wheel zoom over the Sankey's background scales the drawing; Reset zoom brings it back.
        const sankey = (await page.locator('[data-ensemble-view="sankey"] svg').first().boundingBox())!;
        await page.mouse.move(sankey.x + 8, sankey.y + sankey.height - 8);
        await page.mouse.wheel(0, -400);
        await page.waitForTimeout(200);
        const zoomed = await page.locator('.ens-zoom').getAttribute('transform');
        if (!zoomed?.includes('scale'))
          failures.push(`${input.name}: wheel did not zoom the Sankey (transform ${zoomed})`);
        await shot('zoom');
        await page.locator('.ens-reset-zoom').click();
        await page.waitForTimeout(200);
        if (await page.locator('.ens-zoom').getAttribute('transform'))
          failures.push(`${input.name}: Reset zoom left a transform`);
        await act(
          'text guides',
          request({ type: 'ensemble/options', options: { textGuides: true } }),
          r => (r.counts['textGuides'] ?? 0) > 0,
        );
        await shot('guides');
        await act(
          'target',
          request({ type: 'ensemble/mode', mode: 'target' }),
          r => r.mode === 'target' && (r.counts['targetLines'] ?? 0) > 0,
        );
        await shot('target');
        await act(
          'correlation + distribution',
          panes(['correlation', 'distribution']),
          r => (r.counts['correlation'] ?? 0) > 0 && (r.counts['distribution'] ?? 0) > 0,
        );
        await shot('target-correlation');
        await act('diff', request({ type: 'ensemble/mode', mode: 'diff' }), r => r.mode === 'diff');
        await act('projection', panes(['projection', 'boxes']), r => 'projection' in r.counts);
        await shot('diff-projection');
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
