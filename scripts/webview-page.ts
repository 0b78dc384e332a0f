/**
 * The page the screenshot scripts load in headless Chromium: the real webview bundle under the same
 * CSP as webview-html.ts, a theme's --vscode-* variables, and a fake `acquireVsCodeApi` whose
 * messages reach the script through `window.__toHost` (and are kept in `window.__messages`), while
 * `window.__fromHost(m)` delivers a host message (typed arrays tagged by `encode` are revived).
 * The page runs the test agent, so the scripts read what the views drew with the same facts the
 * extension-host tests read (src/shared/test-facts.ts).
 */
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { QueryPage } from '../src/shared/test-facts';
import type { ElementFacts, TestAgentResult } from '../src/shared/test-protocol';
import type { ViewName } from '../src/shared/webview-protocol';
import { THEMES } from './webview-themes.mjs';

/**
 * The page for `view`; `bundle` replaces the product bundle with another (absolute paths of its .js
 * and .css), for pages that mount a component on its own (scripts/screenshot-topology.ts).
 */
export function webviewPage(root: string, theme: string, view: ViewName, bundle?: { js: string; css: string }): string {
  const t = THEMES[theme]!;
  const nonce = 'c2NyZWVuc2hvdC1wYWdl';
  const url = (f: string) => pathToFileURL(join(root, f)).href;
  const style = Object.entries(t.vars)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ')
    .replaceAll('"', '&quot;');
  const fake = `
    window.__messages = [];
    const revive = v => v && typeof v === 'object' ? (v.__ta ? new globalThis[v.__ta](v.v) : v.__ab ? new Uint8Array(v.__ab).buffer : Array.isArray(v) ? v.map(revive) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]))) : v;
    window.__fromHost = m => window.postMessage(revive(m), '*');
    window.acquireVsCodeApi = () => ({ postMessage(m) { window.__messages.push(m); window.__toHost(JSON.stringify(m)); }, getState: () => undefined, setState: s => s });`;
  const csp = `default-src 'none'; img-src file: data:; style-src file: 'unsafe-inline'; font-src file:; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html><html lang="en" style="${style}"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${bundle ? pathToFileURL(bundle.css).href : url('dist/webview.css')}"><script nonce="${nonce}">${fake}</script></head>
<body class="${t.bodyClass}" data-vscode-theme-kind="${t.bodyClass}"><div id="root" data-view="${view}" data-test-agent="on"></div><script nonce="${nonce}" src="${bundle ? pathToFileURL(bundle.js).href : url('dist/webview.js')}"></script></body></html>`;
}

/** Typed arrays and ArrayBuffers as tagged plain arrays (page.evaluate's argument is JSON-like), revived in the page. */
export function encode(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return { __ta: v.constructor.name, v: Array.from(v as unknown as ArrayLike<number>) };
  if (v instanceof ArrayBuffer) return { __ab: Array.from(new Uint8Array(v)) };
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
  return v;
}

/** The page's test agent as a query function: the views' `data-*` facts, as the extension's tests read them. */
export function pageQuery(page: Page): QueryPage {
  let id = 1_000_000;
  return async (selector: string): Promise<ElementFacts[]> => {
    const request = { type: 'test/query', id: id++, selector };
    await page.evaluate(m => (globalThis as unknown as { __fromHost(m: unknown): void }).__fromHost(m), request);
    for (;;) {
      const answer = (await page.evaluate(
        n =>
          (globalThis as unknown as { __messages: { type: string; id?: number }[] }).__messages.find(
            m => m.type === 'test/result' && m.id === n,
          ),
        request.id,
      )) as TestAgentResult | undefined;
      if (answer) {
        if ('error' in answer) throw new Error(`test agent: ${answer.error}`);
        return answer.elements;
      }
      await page.waitForTimeout(10);
    }
  };
}

/**
 * Builds the webview bundle (the webview entry of esbuild.mjs, on its own) into `<root>/dist`, or
 * another browser entry (a test-only page such as the topology gallery) into `outdir`.
 */
export async function buildWebviewBundle(
  root: string,
  other?: { entryPoints: Record<string, string>; outdir: string },
): Promise<void> {
  await esbuild.build({
    entryPoints: other?.entryPoints ?? { webview: join(root, 'webview-ui/src/main.tsx') },
    outdir: other?.outdir ?? join(root, 'dist'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome130',
    jsx: 'automatic',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  });
}

/** Headless Chromium for the screenshot scripts (CHROMIUM_PATH, else the system's). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
}
