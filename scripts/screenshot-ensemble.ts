/**
 * Screenshots of Ensemble CallFlow outside VS Code: headless Chromium renders the real bundle (same
 * CSP as webview-html.ts, the theme's --vscode-* variables) while this process plays the host with
 * the panel's own EnsembleSession over real runs. It selects the heaviest node and walks the modes
 * and linked views, failing when a view reports nothing drawn or the page logs errors.
 *
 *   npx tsx scripts/screenshot-ensemble.ts [folder…] [--theme=dark|light] [--out=dist/screenshots] [--only=NAME,…] [--no-build]
 *
 * Without folders: the LULESH weak-scaling fixture (the paper's study, with its module map, diff
 * pairs and CalcForce chain), the shared LULESH scaling study (when ../shared is present), the
 * demo's profile scaled into three runs, and a generated 100-run ensemble. Writes ensemble-<name>-<theme>-<state>.png.
 */
import type { Page } from 'playwright-core';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadEnsemble } from '../src/analysis/ensemble';
import { EnsembleProfile } from '../src/analysis/ensemble/ensemble-profile';
import { writeLuleshWeakScaling } from '../src/analysis/ensemble/testing/lulesh-weak-scaling';
import { writeSyntheticEnsemble } from '../src/analysis/ensemble/testing/synthetic-ensemble';
import { LULESH_MODULE_MAP } from '../src/analysis/graph/test-fixtures/synthetic-runs';
import type { ModuleRule } from '../src/analysis/graph/module-map';
import { EnsembleSession, packEnsembleView } from '../src/service/ensemble-session';
import type {
  EnsembleHostToView,
  EnsembleRequest,
  EnsembleViewToHost,
  LinkedViewName,
} from '../src/shared/ensemble-protocol';
import { ensembleDrawn, type EnsembleDrawn } from '../src/shared/test-facts';
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
const themes = opt('theme', 'dark').split(',');
const outDir = resolve(root, opt('out', 'dist/screenshots'));
/** `--only=lulesh-weak`: just the named default inputs (comma-separated). */
const only = opt('only', '').split(',').filter(Boolean);
const shared = sharedData;

/** The panel's message handling over a session (EnsemblePanel without VS Code, the service in this process). */
function host(session: EnsembleSession, send: (m: EnsembleHostToView) => Promise<void>, log: string[]) {
  const answer = async (request: EnsembleRequest | null) => {
    // Packed as the analysis service sends it; the page unpacks it as in VS Code.
    const r = packEnsembleView(session.respond(request, request === null));
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

/**
 * What breaks the readable layout in the drawn Ensemble-Sankey (issue 15), from the SVG's own
 * boxes: bars under 4 px or overlapping in a column, labels overlapping or leaving the chart.
 */
function geometryProblems(page: Page): Promise<string[]> {
  // A string, so the bundler's helpers (tsx names functions) do not leak into the page.
  return page.evaluate<string[]>(`(() => {
    const problems = [];
    const svg = document.querySelector('.ens-svg');
    if (!svg) return ['no Sankey drawn'];
    const num = (e, a) => Number(e.getAttribute(a));
    const bars = [...svg.querySelectorAll('.ens-node-rect, .sankey-more-rect')].map(r => {
      const g = r.closest('[data-node-id], [data-node]');
      return { id: g && (g.getAttribute('data-node-id') || g.getAttribute('data-node')), x: num(r, 'x'), y0: num(r, 'y'), y1: num(r, 'y') + num(r, 'height') };
    });
    for (const b of bars) if (!(b.y1 - b.y0 >= 4 - 1e-6)) problems.push(b.id + ' is ' + (b.y1 - b.y0).toFixed(2) + ' px tall');
    for (let i = 0; i < bars.length; i++)
      for (let j = i + 1; j < bars.length; j++) {
        const a = bars[i], b = bars[j];
        if (Math.abs(a.x - b.x) < 0.5 && a.y0 < b.y1 - 1e-6 && b.y0 < a.y1 - 1e-6) problems.push(a.id + ' overlaps ' + b.id);
      }
    const width = num(svg, 'width'), height = num(svg, 'height');
    const labels = [...svg.querySelectorAll('.sankey-label > .sankey-label-bg')].map(r => ({
      text: r.parentElement ? r.parentElement.textContent : '',
      x0: num(r, 'x'), y0: num(r, 'y'), x1: num(r, 'x') + num(r, 'width'), y1: num(r, 'y') + num(r, 'height'),
    }));
    for (const l of labels)
      if (l.x0 < -0.5 || l.y0 < -0.5 || l.x1 > width + 0.5 || l.y1 > height + 0.5) problems.push('"' + l.text + '" leaves the chart');
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i], b = labels[j];
        if (a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5)
          problems.push('labels "' + a.text + '" and "' + b.text + '" overlap');
      }
    return problems;
  })()`);
}

/** Polls what the page drew until `ok` accepts it. */
function drawnUntil(page: Page, what: string, ok: (r: EnsembleDrawn) => boolean): Promise<EnsembleDrawn> {
  return pollDrawn(page, what, ensembleDrawn, ok, {
    seconds: 20,
    everyMs: 50,
    last: r => `last counts ${JSON.stringify(r.counts)}`,
  });
}

interface Input {
  name: string;
  folder: string;
  /** The LULESH weak-scaling study (CallFlow §4.5.2): its module map, and its diff pairs and chain to show. */
  lulesh?: boolean;
}

async function loadInputs(tmp: string): Promise<Input[]> {
  if (paths.length) return paths.map(p => ({ name: basename(p), folder: p }));
  const inputs: Input[] = [];
  const weak = join(tmp, 'lulesh-weak');
  writeLuleshWeakScaling(weak);
  inputs.push({ name: 'lulesh-weak', folder: weak, lulesh: true });
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
  if (build) await buildWebviewBundle(root);
  await runScreenshots(outDir, 'hpc-lens-ensemble-shot-', async ({ browser, tmp, failures }) => {
    for (const input of (await loadInputs(tmp)).filter(i => only.length === 0 || only.includes(i.name))) {
      const loaded = await loadEnsemble(input.folder);
      const ep = new EnsembleProfile(loaded.runs, { path: input.folder, errors: loaded.errors });
      for (const theme of themes) {
        const moduleMap: readonly ModuleRule[] = input.lulesh ? LULESH_MODULE_MAP : [];
        const session = new EnsembleSession(ep, {
          title: input.name,
          metric: () => ep.profile.metrics[ep.profile.primaryMetric]!.name,
          moduleMap: () => moduleMap,
        });
        const { page, log } = await loggedPage(browser, { width: 1400, height: 980 });
        const answer = host(session, toPage(page), log);
        await showView(page, answer, { file: join(tmp, `${input.name}-${theme}.html`), theme, view: 'ensemble' });
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
        const geometry = await geometryProblems(page);
        if (geometry.length) failures.push(`${input.name} ${theme}: ${geometry.slice(0, 5).join('; ')}`);
        // A column too full to read shows its lightest nodes as one "k more" bar; a click shows them all (the chart scrolls).
        if ((await page.locator('.ens-svg .sankey-node.is-more').count()) > 0) {
          await page.locator('.ens-svg .sankey-node.is-more').first().click();
          await page.waitForTimeout(300);
          const expanded = await page.locator('.ens-chart').getAttribute('data-expanded');
          if (expanded !== '1') failures.push(`${input.name}: the "more" bar did not expand (${expanded})`);
          const again = await geometryProblems(page);
          if (again.length) failures.push(`${input.name} ${theme} expanded: ${again.slice(0, 5).join('; ')}`);
          await shot('expanded');
          await page.locator('[data-action="collapse-columns"]').click();
          await page.waitForTimeout(300);
          if ((await page.locator('.ens-chart').getAttribute('data-expanded')) !== '0')
            failures.push(`${input.name}: "Merge expanded columns again" left a column expanded`);
        }
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
        if (input.lulesh) {
          // The paper's figures: diff 64 − 27 and 216 − 125, ordered by cores, and the CalcForce chain revealed.
          const run = (c: number) => ep.ensemble.runIndex(`${c}_cores`);
          await act(
            'diff 64 − 27',
            request({ type: 'ensemble/diff', baseline: run(27), compare: run(64) }),
            r => r.mode === 'diff',
          );
          await shot('diff-64-27');
          await act(
            'diff 216 − 125',
            request({ type: 'ensemble/diff', baseline: run(125), compare: run(216) }),
            r => r.mode === 'diff',
          );
          await shot('diff-216-125');
          await act('summary', request({ type: 'ensemble/mode', mode: 'summary' }), r => r.mode === 'summary');
          await act(
            'ordered',
            request({ type: 'ensemble/options', options: { orderBy: 'cores' } }),
            r => r.mode === 'summary',
          );
          await act(
            'select CalcForce',
            request({ type: 'ensemble/select', nodeId: 'CalcForce' }),
            r => r.selected === 'CalcForce',
          );
          await act('icicle', panes(['icicle', 'boxes']), r => (r.counts['icicle'] ?? 0) > 0);
          await shot('ordered-calcforce');
          await act(
            'reveal the CalcForce chain',
            request({
              type: 'ensemble/reveal',
              nodeId: 'CalcForce',
              function: 'CalcHourglassControlForElems',
              via: ['CalcVolumeForceForElems'],
            }),
            r => (r.counts['sankeyNodes'] ?? 0) > 0,
          );
          await act(
            'split MPI',
            request({ type: 'ensemble/split', nodeId: 'MPI', mode: 'entry' }),
            r => (r.counts['sankeyNodes'] ?? 0) > 0,
          );
          await shot('split-reveal');
          const geometry = await geometryProblems(page);
          if (geometry.length) failures.push(`${input.name} ${theme} split: ${geometry.slice(0, 5).join('; ')}`);
        }
        if (log.length) failures.push(...log.map(l => `${input.name} ${theme}: ${l}`));
        await page.close();
      }
    }
  });
}

void main();
