// Renders the webview bundle in headless Chromium the way VS Code hosts it (same CSP, a fake
// `acquireVsCodeApi`, the theme's CSS variables on <html>) and saves screenshots of the Sankey view
// in dark, light and high-contrast themes. It also drives the view like a host would and fails when
// something is off: the drawn counts (`data-*` facts), hover tooltip, click and keyboard `openSource`, new data,
// resizing, the empty graph, the error panel, overlapping labels, console errors or CSP violations.
//
//   node scripts/screenshot-webview.mjs [--theme=dark|light|hc|all] [--no-build] [--out=dist/screenshots]
//
// Writes sankey-<theme>.png and sankey-<theme>-hover.png per theme, plus, for dark, the states it
// drives (focus, link hover, counts metric, narrow panel, empty graph, error banner). With
// `--real` it draws the largest real profiles of ../shared/data instead (scripts/callflow-real-fixtures.ts)
// in dark and light, and checks the readable layout on them: no two bars of a column overlap, every
// bar at least 4 px, no two labels overlap or leave the drawing, the filter and guard notes, "k more"
// bars that expand (the chart then scrolls; -expanded-pointer.png with the pointer still on the bar
// then under it), labels shown on hover, "Show filtered callees" and a repopulated graph:
// callflow-real-<case>-<theme>[-<state>].png. Exits 1 when a check fails.
// CHROMIUM_PATH overrides /usr/bin/chromium; KEEP_TMP=1 keeps the generated pages.
// Functions passed to page.evaluate() run in the page:
/* global window, document, getComputedStyle */
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { THEMES } from './webview-themes.mjs';

const root = resolve(import.meta.dirname, '..');
const arg = (name, dflt) => {
  const hit = process.argv.find(a => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!hit) return dflt;
  return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : true;
};
const themeArg = arg('theme', 'all');
const themes = themeArg === 'all' ? ['dark', 'light', 'hc'] : String(themeArg).split(',');
const outDir = resolve(root, String(arg('out', 'dist/screenshots')));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const fixture = JSON.parse(readFileSync(join(root, 'webview-ui/src/views/sankey/fixtures/heat-stencil.json'), 'utf8'));

// --------------------------------------------------------------------------- build

if (!arg('no-build', false)) {
  // The webview entry of esbuild.mjs, on its own.
  await esbuild.build({
    entryPoints: { webview: join(root, 'webview-ui/src/main.tsx') },
    outdir: join(root, 'dist'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome130',
    jsx: 'automatic',
    sourcemap: 'inline',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
  });
}
// The host packs graphs (src/shared/callflow-packing.ts); so does this fake host, and the packed
// buffers cross page.evaluate as base64, made ArrayBuffers again in the page.
const packing = await esbuild.build({
  entryPoints: [join(root, 'src/shared/callflow-packing.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  logLevel: 'warning',
});
const { packCallflowData } = await import(
  `data:text/javascript;base64,${Buffer.from(packing.outputFiles[0].text).toString('base64')}`
);
const ab = p => ({ ...p, buffer: { __ab: Buffer.from(p.buffer).toString('base64') } });
/** A host → view message as the panel posts it: graphs packed, their buffers as base64 for the page. */
function wire(m) {
  if (m.type !== 'graph') return m;
  const { second, ...callflow } = m.callflow ?? {};
  return {
    ...m,
    data: ab(packCallflowData(m.data)),
    ...(m.callflow ? { callflow: { ...callflow, ...(second ? { second: ab(packCallflowData(second)) } : {}) } } : {}),
  };
}
for (const f of ['dist/webview.js', 'dist/webview.css']) {
  if (!existsSync(join(root, f))) throw new Error(`${f} is missing: build the webview first`);
}

// --------------------------------------------------------------------------- page

const nonce = 'c2NyZWVuc2hvdC1ub25jZQ';
function pageHtml(theme, initial = { type: 'graph', data: fixture }) {
  const t = THEMES[theme];
  if (!t) throw new Error(`unknown theme ${theme}; use dark, light or hc`);
  const style = Object.entries(t.vars)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  const url = f => pathToFileURL(join(root, f)).href;
  const csp = `default-src 'none'; img-src file: data:; style-src file: 'unsafe-inline'; font-src file:; script-src 'nonce-${nonce}';`;
  // The fake VS Code API: records messages and answers `ready` with the fixture, like the host does.
  const fake = `
    window.__messages = [];
    window.__state = undefined;
    window.__acquired = 0;
    const revive = v => v && typeof v === 'object' ? (typeof v.__ab === 'string' ? Uint8Array.from(atob(v.__ab), c => c.charCodeAt(0)).buffer : Array.isArray(v) ? v.map(revive) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]))) : v;
    window.__host = data => window.postMessage(revive(data), '*');
    window.acquireVsCodeApi = () => {
      if (++window.__acquired > 1) throw new Error('acquireVsCodeApi() called more than once');
      return {
        postMessage(m) {
          window.__messages.push(JSON.parse(JSON.stringify(m)));
          if (m.type === 'ready') setTimeout(() => window.__host(${JSON.stringify(wire(initial))}), 20);
        },
        getState: () => window.__state,
        setState: s => (window.__state = s),
      };
    };`;
  return `<!DOCTYPE html>
<html lang="en" style="${style.replaceAll('"', '&quot;')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${url('dist/webview.css')}">
<script nonce="${nonce}">${fake}</script>
<title>HPC Lens: Sankey</title>
</head>
<body class="${t.bodyClass}" data-vscode-theme-kind="${t.bodyClass}"><div id="root" data-view="callflow"></div><script nonce="${nonce}" src="${url('dist/webview.js')}"></script></body>
</html>`;
}

// --------------------------------------------------------------------------- checks

const failures = [];
const check = (ok, what) => {
  if (ok) console.log(`  ok  ${what}`);
  else {
    console.log(`  FAIL ${what}`);
    failures.push(what);
  }
};

const messages = page => page.evaluate(() => window.__messages);
async function waitForMessage(page, predicate, what, timeout = 5000) {
  const t0 = Date.now();
  for (;;) {
    const found = (await messages(page)).filter(predicate);
    if (found.length) return found[found.length - 1];
    if (Date.now() - t0 > timeout) {
      check(false, `${what} (timed out)`);
      return null;
    }
    await page.waitForTimeout(25);
  }
}
/** What the Sankey drew, from its `data-*` facts (src/shared/test-facts.ts reads the same), or null while loading. */
const drawnFacts = page =>
  page.evaluate(() => {
    const chart = document.querySelector('.sankey-chart[data-nodes]');
    return chart
      ? {
          nodeCount: Number(chart.dataset.nodes),
          linkCount: Number(chart.dataset.links),
          width: Number(chart.querySelector('svg')?.getAttribute('width') ?? 0),
        }
      : null;
  });
async function waitForDrawn(page, predicate, what, timeout = 5000) {
  const t0 = Date.now();
  for (;;) {
    const d = await drawnFacts(page);
    if (d && predicate(d)) return d;
    if (Date.now() - t0 > timeout) {
      check(false, `${what} (timed out; drawn ${JSON.stringify(d)})`);
      return null;
    }
    await page.waitForTimeout(25);
  }
}
async function clearMessages(page) {
  await page.evaluate(() => {
    window.__messages.length = 0;
  });
}

/** Labels that overlap each other or stick out of the SVG. */
function labelProblems(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.sankey-svg');
    if (!svg) return ['no svg'];
    const box = svg.getBoundingClientRect();
    const rects = [...svg.querySelectorAll('.sankey-label')].map(t => ({
      text: t.textContent,
      r: t.getBoundingClientRect(),
    }));
    const problems = [];
    for (const { text, r } of rects) {
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(`"${text}" outside the chart`);
    }
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i].r;
        const b = rects[j].r;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          problems.push(`"${rects[i].text}" overlaps "${rects[j].text}"`);
      }
    }
    return problems;
  });
}

const nodeCount = fixture.nodes.length;
const linkCount = fixture.links.length;

async function shoot(browser, theme, dir) {
  console.log(`[${theme}]`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
  const problems = [];
  page.on('console', m => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  const file = join(dir, `sankey-${theme}.html`);
  writeFileSync(file, pageHtml(theme));
  await page.goto(pathToFileURL(file).href);

  const ready = await waitForMessage(page, m => m.type === 'ready', 'ready is posted');
  check(ready?.view === 'callflow', 'ready names the sankey view');
  const rendered = await waitForDrawn(page, () => true, 'the graph is drawn');
  check(
    rendered?.nodeCount === nodeCount && rendered.linkCount === linkCount,
    `drawn counts ${rendered?.nodeCount}/${rendered?.linkCount} = ${nodeCount}/${linkCount}`,
  );
  check((await page.locator('.sankey-node-rect').count()) === nodeCount, 'one rect per node in the DOM');
  check((await page.locator('path.sankey-link').count()) === linkCount, 'one path per link in the DOM');
  const overlaps = await labelProblems(page);
  check(overlaps.length === 0, `labels do not overlap${overlaps.length ? ': ' + overlaps.join('; ') : ''}`);
  await page.screenshot({ path: join(outDir, `sankey-${theme}.png`) });

  // Hover: tooltip and highlight.
  await page.hover('[data-node="heat/libhalo.so"] .sankey-node-rect');
  await page.waitForTimeout(250);
  const tip = await page
    .locator('.sankey-tooltip.is-visible')
    .textContent()
    .catch(() => '');
  check(
    /libhalo\.so/.test(tip) && /21\.7 s/.test(tip) && /halo\.c:41/.test(tip),
    'node tooltip shows module, value and file:line',
  );
  check((await page.locator('.sankey-svg.has-highlight').count()) === 1, 'hover highlights the flow');
  await page.screenshot({ path: join(outDir, `sankey-${theme}-hover.png`) });

  // Wheel zoom over the background scales the drawing; Reset zoom brings it back.
  const svgBox = await page.locator('.sankey-svg').first().boundingBox();
  await page.mouse.move(svgBox.x + 6, svgBox.y + svgBox.height - 6);
  await page.mouse.wheel(0, -400);
  await page.waitForTimeout(200);
  check(
    /scale/.test((await page.locator('.sankey-zoom').first().getAttribute('transform')) ?? ''),
    'wheel zooms the drawing',
  );
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await page.waitForTimeout(200);
  check(
    (await page.locator('.sankey-zoom').first().getAttribute('transform')) === null,
    'Reset zoom restores the drawing',
  );

  if (theme === 'dark') {
    await page.hover('[data-node="heat/libckpt.so/libc.so.6"] .sankey-node-rect');
    await page.waitForTimeout(100);
    const tip2 = await page
      .locator('.sankey-tooltip.is-visible')
      .textContent()
      .catch(() => '');
    check(/Source location unknown/i.test(tip2), 'tooltip says when the source location is unknown');
    // Playwright's box of a thick SVG stroke is far too large: point at the path's centre line instead.
    const mid = await page.evaluate(() => {
      const p = document.querySelector('path.sankey-link[data-link="heat→heat/libstencil.so"]');
      const r = p.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    await page.mouse.move(mid.x, mid.y, { steps: 4 });
    await page.waitForTimeout(100);
    const tip3 = await page
      .locator('.sankey-tooltip.is-visible')
      .textContent()
      .catch(() => '');
    check(/heat.*→.*libstencil\.so/.test(tip3) && /48\.2 s/.test(tip3), 'link tooltip shows source → target and value');
    await page.screenshot({ path: join(outDir, `sankey-${theme}-link-hover.png`) });

    // Click: selects the node (the host opens its entry function's source and flashes its entry lines).
    await clearMessages(page);
    await page.click('[data-node="heat/libhalo.so"] .sankey-node-rect');
    const picked = await waitForMessage(page, m => m.type === 'callflow/select', 'click posts callflow/select');
    check(picked?.nodeId === 'heat/libhalo.so', 'the selection names the clicked node');
    check(
      (await page.locator('[data-node="heat/libhalo.so"] .sankey-node-selected').count()) === 1,
      'the selected node is outlined',
    );

    // Keyboard: Tab to the first node, Enter opens it.
    // Click the header: sequential focus navigation starts from there.
    await page.click('.sankey-title');
    await clearMessages(page);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-node'));
    check(focused === 'heat', `Tab focuses the first node (${focused})`);
    await page.keyboard.press('ArrowRight');
    const next = await page.evaluate(() => document.activeElement?.getAttribute('data-node'));
    check(next === 'heat/libstencil.so', `ArrowRight follows the heaviest call (${next})`);
    await page.waitForTimeout(250); // let the highlight transitions finish
    await page.screenshot({ path: join(outDir, `sankey-${theme}-focus.png`) });
    await page.keyboard.press('Enter');
    const key = await waitForMessage(page, m => m.type === 'openSource', 'Enter posts openSource');
    check(key?.nodeId === next && key.entry === -1, "Enter opens the focused node's entry (by reference)");
    await page.keyboard.press('Escape');

    // New data (another metric) re-renders and reports again.
    await clearMessages(page);
    const misses = {
      ...fixture,
      metric: { name: 'PAPI_L2_TCM', unit: '' },
      total: fixture.total * 4.1e6,
      nodes: fixture.nodes
        .filter(n => n.id !== 'heat/libminimpi.so/heat')
        .map(n => ({ ...n, inclusive: n.inclusive * 4.1e6, exclusive: n.exclusive * 4.1e6 })),
      links: fixture.links
        .filter(l => l.target !== 'heat/libminimpi.so/heat')
        .map(l => ({ ...l, value: l.value * 4.1e6 })),
    };
    await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: misses }));
    const again = await waitForDrawn(page, d => d.nodeCount === misses.nodes.length, 'drawn after new data');
    check(
      again?.nodeCount === misses.nodes.length && again.linkCount === misses.links.length,
      `new data: rendered ${again?.nodeCount}/${again?.linkCount}`,
    );
    check(/339M/.test(await page.locator('.sankey-header').textContent()), 'counts formatted with k/M in the header');
    await page.screenshot({ path: join(outDir, `sankey-${theme}-counts.png`) });
    const state = await page.evaluate(() => window.__state);
    check(state?.sankey?.data?.metric?.name === 'PAPI_L2_TCM', 'the last data is persisted with setState');

    // Theme switch while open: VS Code swaps the body class and the variables on <html>.
    // Nodes are coloured by exclusive value: the largest one takes the top of the heat scale.
    const hottest = [...fixture.nodes].sort((a, b) => b.exclusive - a.exclusive)[0].id;
    const fillOf = () => page.locator(`[data-node="${hottest}"] .sankey-node-rect`).getAttribute('fill');
    const darkFill = await fillOf();
    await page.evaluate(vars => {
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.className = 'vscode-light';
      document.body.dataset.vscodeThemeKind = 'vscode-light';
    }, THEMES.light.vars);
    await page.waitForTimeout(100);
    const lightFill = await fillOf();
    check(
      darkFill === THEMES.dark.vars['--vscode-charts-red'] && lightFill === THEMES.light.vars['--vscode-charts-red'],
      `colours are re-read on theme change (${darkFill} → ${lightFill})`,
    );
    await page.evaluate(vars => {
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.className = 'vscode-dark';
      document.body.dataset.vscodeThemeKind = 'vscode-dark';
    }, THEMES.dark.vars);

    // Back to the fixture, then resize: responsive re-layout and a new rendered message.
    await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: fixture }));
    const restored = await waitForDrawn(page, d => d.linkCount === linkCount, 'drawn after restoring data');
    await page.setViewportSize({ width: 720, height: 480 });
    const resized = await waitForDrawn(page, d => d.width !== restored?.width, 'drawn again after resize');
    check(resized?.nodeCount === nodeCount, 'resize re-renders all nodes');
    const narrowOverlaps = await labelProblems(page);
    check(
      narrowOverlaps.length === 0,
      `narrow: labels do not overlap${narrowOverlaps.length ? ': ' + narrowOverlaps.join('; ') : ''}`,
    );
    await page.screenshot({ path: join(outDir, `sankey-${theme}-narrow.png`) });
    await page.setViewportSize({ width: 1280, height: 760 });

    // Empty graph.
    await clearMessages(page);
    await page.evaluate(
      m => window.__host(m),
      wire({
        type: 'graph',
        data: {
          ...fixture,
          nodes: [],
          links: [],
          total: 0,
        },
      }),
    );
    // (A render report of the resize above may still arrive first: wait for the empty one.)
    const none = await waitForDrawn(page, d => d.nodeCount === 0, 'drawn for an empty graph');
    check(none?.nodeCount === 0 && none.linkCount === 0, 'empty graph renders 0/0');
    await page.screenshot({ path: join(outDir, `sankey-${theme}-empty.png`) });

    // Error panel: a banner above the last graph, dismissible.
    await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: fixture }));
    await waitForDrawn(page, d => d.nodeCount === nodeCount, 'drawn before the error');
    await page.evaluate(() =>
      window.__host({ type: 'error', message: 'Metric "PAPI_TOT_CYC" is not in this profile (heat2d-64.cali.json).' }),
    );
    await page.waitForSelector('.error-panel');
    check((await page.locator('.error-panel[role="alert"]').count()) === 1, 'error message shows the error panel');
    check((await page.locator('.sankey-svg').count()) === 1, 'the last graph stays under the error banner');
    await page.screenshot({ path: join(outDir, `sankey-${theme}-error.png`) });
    await page.click('.error-panel-close');
    check((await page.locator('.error-panel').count()) === 0, 'the error banner can be dismissed');
  }

  check((await page.evaluate(() => window.__acquired)) === 1, 'acquireVsCodeApi() called once');
  check(
    problems.length === 0,
    `no console errors or CSP violations${problems.length ? ':\n      ' + problems.join('\n      ') : ''}`,
  );
  await page.close();
}

// --------------------------------------------------------------------------- CallFlow views

/** Screenshots and checks of the CallFlow views on fixtures the analysis computes (scripts/callflow-fixtures.ts). */
async function callflowShots(browser, theme, dir) {
  const fixturesFile = join(dir, 'callflow-fixtures.json');
  const gen = spawnSync('npx', ['tsx', join(root, 'scripts/callflow-fixtures.ts'), fixturesFile], {
    cwd: root,
    encoding: 'utf8',
  });
  if (gen.status !== 0) {
    check(false, `callflow fixtures: ${gen.stderr}`);
    return;
  }
  const all = JSON.parse(readFileSync(fixturesFile, 'utf8'));
  for (const [name, f] of Object.entries(all)) {
    const state = (extra = {}) => ({
      mode: 'single',
      brushed: null,
      selected: f.focus,
      canCompare: Boolean(f.sideBySide),
      ...extra,
    });
    const file = join(dir, `callflow-${name}-${theme}.html`);
    writeFileSync(file, pageHtml(theme, { type: 'graph', data: f.data, callflow: state() }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const problems = [];
    page.on('console', m => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', e => problems.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('.sankey-node-rect');
    await waitForDrawn(page, () => true, `${name}: drawn`);
    const withHist = f.data.nodes.filter(n => n.histogram?.inclusive.counts.some(c => c > 0)).length;
    check(
      (await page.locator('.sankey-mini-hist').count()) === withHist,
      `${name}: a mini histogram on every bar with per-rank values (${withHist})`,
    );
    check((await page.locator('.callflow-bin').count()) > 0, `${name}: the histogram view shows the selected node`);
    // Metrics for the correlation view, as the host answers them.
    await page.evaluate(
      m => window.__host(m),
      wire({
        type: 'callflow/nodeMetrics',
        nodeId: f.focus,
        metrics: f.nodeMetrics,
      }),
    );
    const focusSel = `[data-node="${f.focus}"] .sankey-node-rect`;
    await page.hover(focusSel);
    await page.waitForTimeout(250);
    const tip = await page
      .locator('.sankey-tooltip.is-visible')
      .textContent()
      .catch(() => '');
    check(
      /Called from/.test(tip) && /Inclusive/.test(tip) && /Exclusive/.test(tip),
      `${name}: node tooltip lists callers and values`,
    );
    await page.screenshot({ path: join(outDir, `callflow-${name}-sankey-tooltip.png`) });

    // Histogram: hover a bin for its ranks, then brush the lower bins.
    const firstBin = await page.locator('.callflow-bin').first().boundingBox();
    await page.mouse.move(firstBin.x + firstBin.width / 2, firstBin.y + firstBin.height - 2);
    await page.waitForTimeout(100);
    check(
      /Ranks:/.test(
        await page
          .locator('.callflow-tip')
          .textContent()
          .catch(() => ''),
      ),
      `${name}: a bin's tooltip lists its ranks`,
    );
    await page.screenshot({ path: join(outDir, `callflow-${name}-histogram.png`) });
    const plot = await page.locator('.callflow-histogram svg').boundingBox();
    await clearMessages(page);
    await page.mouse.move(plot.x + 46, plot.y + 30);
    await page.mouse.down();
    await page.mouse.move(plot.x + 46 + (plot.width - 60) * 0.45, plot.y + 40, { steps: 5 });
    await page.mouse.up();
    const brushMsg = await waitForMessage(
      page,
      m => m.type === 'callflow/brush',
      `${name}: brushing bins posts callflow/brush`,
    );
    check(
      Array.isArray(brushMsg?.contexts) && brushMsg.contexts.length > 0,
      `${name}: the brush selects ranks (${brushMsg?.contexts?.join(',')})`,
    );
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(outDir, `callflow-${name}-histogram-brushed.png`) });

    // Correlation tab.
    await page.click('[data-tab="correlation"]');
    await page.waitForSelector('.callflow-point');
    check(
      (await page.locator('.callflow-point').count()) === f.data.contexts.indices.length,
      `${name}: one point per rank`,
    );
    await page.locator('.callflow-fit-hit').hover({ force: true });
    await page.waitForTimeout(100);
    check(
      /r = /.test(
        await page
          .locator('.callflow-tip')
          .textContent()
          .catch(() => ''),
      ),
      `${name}: hovering the fit line shows r`,
    );
    await page.screenshot({ path: join(outDir, `callflow-${name}-correlation.png`) });
    await page.click('[data-tab="histogram"]');

    // Brush split: two graphs, coloured by difference.
    await page.evaluate(
      m => window.__host(m),
      wire({
        type: 'graph',
        data: f.top,
        callflow: state({ mode: 'brush', brushed: f.brushed, second: f.bottom, labels: f.labels }),
      }),
    );
    await page.waitForTimeout(1000); // the three-phase transition is 700 ms
    check((await page.locator('.sankey-svg').count()) === 2, `${name}: the brush split draws two graphs`);
    check(
      /brushed − rest/.test(await page.locator('.callflow-toolbar').textContent()),
      `${name}: a diverging difference legend`,
    );
    await page.mouse.move(5, 5);
    await page.screenshot({ path: join(outDir, `callflow-${name}-brush-split.png`) });

    // Split by entry function, with the three-phase transition (back to one graph first).
    await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: f.data, callflow: state() }));
    await page.waitForTimeout(300);
    if (f.splitNode) {
      await clearMessages(page);
      await page.dblclick(`[data-node="${f.splitNode}"] .sankey-node-rect`);
      const split = await waitForMessage(
        page,
        m => m.type === 'callflow/split',
        `${name}: double-click posts callflow/split`,
      );
      check(split?.nodeId === f.splitNode && split.mode === 'entry', `${name}: double-click splits by entry function`);
      await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: f.split, callflow: state() }));
      await page.waitForTimeout(80);
      const midOpacity = await page.evaluate(() =>
        Number(getComputedStyle(document.querySelector('.sankey-links')).opacity),
      );
      check(midOpacity < 1, `${name}: links fade out first (opacity ${midOpacity.toFixed(2)})`);
      await page.waitForTimeout(900);
      const parts = f.split.nodes.filter(n => n.baseId === f.splitNode && n.id !== f.splitNode).length;
      check(
        parts >= 2 && (await page.locator('.sankey-node-rect').count()) === f.split.nodes.length,
        `${name}: ${parts} split parts drawn`,
      );
      await page.click(
        `[data-node="${f.split.nodes.find(n => n.baseId === f.splitNode && n.id !== f.splitNode).id}"] .sankey-node-rect`,
        { button: 'right' },
      );
      check((await page.locator('.callflow-menu').count()) === 1, `${name}: right-click opens the node menu`);
      await page.screenshot({ path: join(outDir, `callflow-${name}-split-menu.png`) });
      await page.keyboard.press('Escape');
      await page.mouse.click(5, 5);
    }

    if (f.sideBySide) {
      const sb = f.sideBySide;
      await page.evaluate(
        m => window.__host(m),
        wire({
          type: 'graph',
          data: sb.a,
          callflow: state({ mode: 'sideBySide', second: sb.b, labels: sb.labels }),
        }),
      );
      await page.waitForTimeout(1000);
      const heights = await page.evaluate(() =>
        [...document.querySelectorAll('.sankey-svg')].map(svg => {
          const rects = [...svg.querySelectorAll('.sankey-node-rect')];
          return Math.max(...rects.map(r => Number(r.getAttribute('height'))));
        }),
      );
      const ratio = heights[1] / heights[0];
      const want = sb.b.total / sb.a.total;
      check(
        Math.abs(ratio - want) < 0.01,
        `${name}: side by side, B's root is ${ratio.toFixed(3)} of A's (totals: ${want.toFixed(3)})`,
      );
      await page.screenshot({ path: join(outDir, `callflow-${name}-side-by-side.png`) });
    }
    check(
      problems.length === 0,
      `${name}: no console errors${problems.length ? ':\n      ' + problems.join('\n      ') : ''}`,
    );
    await page.close();
  }
}

// --------------------------------------------------------------------------- real profiles

/** Bars of one column that overlap, and bars under 4 px, from the drawn SVG (layout coordinates). */
function barProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    for (const svg of document.querySelectorAll('.sankey-svg')) {
      const bars = [...svg.querySelectorAll('.sankey-node-rect')].map(r => ({
        id: r.closest('[data-node]')?.getAttribute('data-node'),
        x: Number(r.getAttribute('x')),
        y0: Number(r.getAttribute('y')),
        y1: Number(r.getAttribute('y')) + Number(r.getAttribute('height')),
        h: Number(r.getAttribute('height')),
      }));
      for (const b of bars) if (!(b.h >= 4 - 1e-6)) problems.push(`${b.id} is ${b.h.toFixed(2)} px tall`);
      for (let i = 0; i < bars.length; i++)
        for (let j = i + 1; j < bars.length; j++) {
          const a = bars[i],
            b = bars[j];
          if (Math.abs(a.x - b.x) < 0.5 && a.y0 < b.y1 - 1e-6 && b.y0 < a.y1 - 1e-6)
            problems.push(`${a.id} overlaps ${b.id}`);
        }
    }
    return problems;
  });
}

/** The largest real profiles: the readable layout, notes, "k more", hover labels and repopulation. */
async function realShots(browser, themes, dir) {
  const file = join(dir, 'callflow-real-fixtures.json');
  const gen = spawnSync('npx', ['tsx', join(root, 'scripts/callflow-real-fixtures.ts'), file], {
    cwd: root,
    encoding: 'utf8',
  });
  if (gen.status !== 0) {
    check(false, `real fixtures: ${gen.stderr}`);
    return;
  }
  const only = arg('cases', '') ? String(arg('cases', '')).split(',') : null;
  const all = Object.fromEntries(
    Object.entries(JSON.parse(readFileSync(file, 'utf8'))).filter(([name]) => !only || only.includes(name)),
  );
  if (Object.keys(all).length === 0) console.log('  (../shared/data is absent: no real profiles to draw)');
  for (const theme of themes) {
    for (const [name, f] of Object.entries(all)) {
      console.log(`[real ${name} ${theme}]`);
      const state = { mode: 'single', brushed: null, selected: null, canCompare: false };
      const html = join(dir, `real-${name}-${theme}.html`);
      writeFileSync(html, pageHtml(theme, { type: 'graph', data: f.data, callflow: state }));
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
      const problems = [];
      page.on('console', m => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', e => problems.push(`page error: ${e.message}`));
      await page.goto(pathToFileURL(html).href);
      const drawn = await waitForDrawn(page, () => true, `${name}: drawn`, 20000);
      const facts = () =>
        page.evaluate(() => {
          const c = document.querySelector('.sankey-chart[data-nodes]');
          return c ? { ...c.dataset } : {};
        });
      let fx = await facts();
      const more = Number(fx.more ?? 0);
      check(
        drawn && drawn.nodeCount + Number(fx.merged) - more === f.data.nodes.length,
        `${name}: every node drawn or merged (${drawn?.nodeCount} drawn, ${fx.merged} merged into ${more})`,
      );
      const bars = await barProblems(page);
      check(
        bars.length === 0,
        `${name}: bars ≥ 4 px, none overlapping${bars.length ? ': ' + bars.slice(0, 5).join('; ') : ''}`,
      );
      const labels = await labelProblems(page);
      check(
        labels.length === 0,
        `${name}: labels apart and inside${labels.length ? ': ' + labels.slice(0, 5).join('; ') : ''}`,
      );
      const labelCount = await page.locator('.sankey-label').count();
      check(labelCount >= Math.min(drawn?.nodeCount ?? 0, 6), `${name}: ${labelCount} labels drawn`);
      const note = await page
        .locator('.sankey-notes')
        .textContent()
        .catch(() => '');
      if (f.data.filter.threshold > 0)
        check(
          /filter: [\d,]+ of [\d,]+ functions kept, [\d,]+ nodes folded into callers/.test(note),
          `${name}: filter note "${note}"`,
        );
      else check(/^No filter/.test(note), `${name}: "No filter" note`);
      if (f.data.guard) check(/supernodes shown: the heaviest/.test(note), `${name}: guard note`);
      await page.mouse.move(2, 2);
      await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}.png`) });

      // A bar without a label shows it while hovered.
      const bare = await page.evaluate(() => {
        const labelled = new Set(
          [...document.querySelectorAll('[data-label-node]')].map(l => l.getAttribute('data-label-node')),
        );
        const n = [...document.querySelectorAll('.sankey-node:not(.is-more)')].find(
          g => !labelled.has(g.getAttribute('data-node')),
        );
        return n ? n.getAttribute('data-node') : null;
      });
      if (bare) {
        await page.hover(`[data-node="${bare.replace(/"/g, '\\"')}"] .sankey-node-rect`, { force: true });
        await page.waitForTimeout(150);
        check(
          (await page.locator('.sankey-label.is-on-demand').count()) === 1,
          `${name}: hovering an unlabelled bar shows its label`,
        );
        const inside = await labelProblems(page);
        check(!inside.some(p => p.includes('outside')), `${name}: the hover label stays inside`);
        await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-hover-label.png`) });
        await page.mouse.move(2, 2);
      }

      // "k more": a click shows the column's nodes; a column that cannot fit makes the drawing scroll.
      if (more > 0) {
        await page.locator('.sankey-node.is-more').first().click();
        await page.waitForTimeout(300);
        fx = await facts();
        check(Number(fx.expanded) === 1, `${name}: the "more" bar expands its column`);
        const bars2 = await barProblems(page);
        check(
          bars2.length === 0,
          `${name} expanded: bars ≥ 4 px, none overlapping${bars2.length ? ': ' + bars2.slice(0, 5).join('; ') : ''}`,
        );
        const labels2 = await labelProblems(page);
        check(
          labels2.length === 0,
          `${name} expanded: labels apart${labels2.length ? ': ' + labels2.slice(0, 5).join('; ') : ''}`,
        );
        console.log(`  expanded: drawing ${fx.drawingHeight} px high, scrolls ${fx.scrolls}`);
        // The pointer still rests where the "more" bar was: the bar now under it may show its label on demand.
        await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-expanded-pointer.png`) });
        await page.mouse.move(2, 2);
        await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-expanded.png`) });
        if (fx.scrolls === 'true') {
          await page.locator('.sankey-scroll').evaluate(el => el.scrollTo(0, el.scrollHeight));
          await page.waitForTimeout(100);
          await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-expanded-bottom.png`) });
        }
        await page.locator('[data-action="collapse-columns"]').click();
        await page.waitForTimeout(200);
      }

      // Show filtered callees under the heaviest folding bar, then the host's repopulated graph.
      if (f.repopulated) {
        const folding = [...f.data.nodes]
          .filter(n => n.filteredCallees?.length)
          .sort((a, b) => (b.filteredInclusive ?? 0) - (a.filteredInclusive ?? 0))[0];
        await page.click(`[data-node="${folding.id}"] .sankey-node-rect`, { button: 'right', force: true });
        await page.locator('[data-menu-item="Show filtered callees"]').click();
        const rows = await page.locator('[data-callee]').count();
        check(rows === Math.min(50, folding.filteredCallees.length), `${name}: ${rows} filtered callees listed`);
        await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-callees.png`) });
        await clearMessages(page);
        await page.locator(`[data-callee="${folding.filteredCallees[0].name}"]`).click();
        const asked = await waitForMessage(
          page,
          m => m.type === 'callflow/repopulate',
          `${name}: a row posts callflow/repopulate`,
        );
        check(
          asked?.nodeId === folding.id && asked.function === folding.filteredCallees[0].name,
          `${name}: repopulate names the bar and the function`,
        );
        await page.evaluate(m => window.__host(m), wire({ type: 'graph', data: f.repopulated, callflow: state }));
        await page.waitForTimeout(1000);
        const again = await page
          .locator('.sankey-notes')
          .textContent()
          .catch(() => '');
        check(/shown again/.test(again), `${name}: the note counts what is shown again ("${again}")`);
        const bars3 = await barProblems(page);
        check(bars3.length === 0, `${name} repopulated: bars apart${bars3.length ? ': ' + bars3.join('; ') : ''}`);
        await page.mouse.move(2, 2);
        await page.screenshot({ path: join(outDir, `callflow-real-${name}-${theme}-repopulated.png`) });
      }
      check(
        problems.length === 0,
        `${name}: no console errors${problems.length ? ':\n      ' + problems.join('\n      ') : ''}`,
      );
      await page.close();
    }
  }
}

// --------------------------------------------------------------------------- main

mkdirSync(outDir, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'hpc-lens-webview-'));
while (!existsSync(chromiumPath)) {
  console.log(`waiting for ${chromiumPath} …`);
  await new Promise(r => setTimeout(r, 5000));
}
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
try {
  if (arg('real', false)) await realShots(browser, themeArg === 'all' ? ['dark', 'light'] : themes, tmp);
  else {
    for (const theme of themes) await shoot(browser, theme, tmp);
    if (!arg('no-callflow', false)) await callflowShots(browser, themes.includes('dark') ? 'dark' : themes[0], tmp);
  }
} finally {
  await browser.close();
  if (!process.env.KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
  else console.log(tmp);
}
console.log(failures.length ? `\n${failures.length} check(s) failed` : `\nall checks passed; screenshots in ${outDir}`);
process.exit(failures.length ? 1 : 0);
