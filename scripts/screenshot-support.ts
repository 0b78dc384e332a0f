/**
 * What every screenshot script does around its own views: reading its command line, running
 * headless Chromium (Debian's) over a temporary folder, opening a view's page whose console errors
 * are kept, sending host messages to it, polling the facts it drew, and the closing failure list.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { QueryPage } from '../src/shared/test-facts';
import type { ViewName } from '../src/shared/webview-protocol';
import { encode, pageQuery, webviewPage } from './webview-page';

/** The project's root and the shared real data beside it (`../shared/data`, absent on most machines). */
export const root = resolve(__dirname, '..');
export const sharedData = resolve(root, '..', 'shared', 'data');

/** The script's command line: `--name=value` options, `--no-build`, and the other words as paths. */
export function scriptArgs(argv: string[] = process.argv.slice(2)) {
  return {
    opt: (name: string, dflt: string) => argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt,
    paths: argv.filter(a => !a.startsWith('--')),
    build: !argv.includes('--no-build'),
  };
}

/** What a run gives its body: the browser, a temporary folder (removed after) and the failures to report. */
export interface ScreenshotRun {
  browser: Browser;
  tmp: string;
  failures: string[];
}

/**
 * Runs `body` with Chromium and a temporary folder, then prints the failures (or where the
 * screenshots are) and exits 1 when there were any; a thrown error ends the run as it is.
 */
export async function runScreenshots(
  outDir: string,
  tmpPrefix: string,
  body: (run: ScreenshotRun) => Promise<void>,
): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), tmpPrefix));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const failures: string[] = [];
  try {
    await body({ browser, tmp, failures });
  } finally {
    await browser.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(failures.length ? `\n${failures.join('\n')}` : `screenshots in ${outDir}`);
  process.exit(failures.length ? 1 : 0);
}

/** A new page whose console errors and page errors are kept in `log` (a new one, or one pages share). */
export async function loggedPage(
  browser: Browser,
  viewport: { width: number; height: number },
  log: string[] = [],
): Promise<{ page: Page; log: string[] }> {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  page.on('console', m => {
    if (m.type() === 'error') log.push(`console: ${m.text()}`);
  });
  page.on('pageerror', e => log.push(`page error: ${e.message}`));
  return { page, log };
}

/** Sends host messages to the page (typed arrays survive: `encode` tags them, the page revives them). */
export function toPage(page: Page): (m: unknown) => Promise<void> {
  return async m => {
    await page.evaluate(x => (globalThis as unknown as { __fromHost(m: unknown): void }).__fromHost(x), encode(m));
  };
}

/**
 * Loads `view` in `theme` into the page from `file` (written there), with the page's messages to the
 * host given to `answer`; `bundle` as in webviewPage.
 */
export async function showView(
  page: Page,
  answer: (m: never) => Promise<unknown>,
  where: { file: string; theme: string; view: ViewName; bundle?: { js: string; css: string } },
): Promise<void> {
  await page.exposeFunction('__toHost', (json: string) => answer(JSON.parse(json) as never));
  writeFileSync(where.file, webviewPage(root, where.theme, where.view, where.bundle));
  await page.goto(pathToFileURL(where.file).href);
}

/** One query function per page: the test agent's answers are found by request id, which must not repeat. */
const queries = new WeakMap<Page, QueryPage>();
export function queryOf(page: Page): QueryPage {
  if (!queries.has(page)) queries.set(page, pageQuery(page));
  return queries.get(page)!;
}

/**
 * Polls what the page drew (`read` over its facts) until `ok` accepts it; past `seconds` it throws
 * `<what>: not drawn within <seconds> s (<last>)`, `last` telling what was drawn last.
 */
export async function drawnUntil<T>(
  page: Page,
  what: string,
  read: (query: QueryPage) => Promise<T>,
  ok: (v: NonNullable<T>) => boolean,
  options: { seconds: number; everyMs: number; last?: (v: T) => string },
): Promise<NonNullable<T>> {
  const query = queryOf(page);
  const t0 = Date.now();
  for (;;) {
    const v = await read(query);
    if (v !== undefined && v !== null && ok(v)) return v;
    if (Date.now() - t0 > options.seconds * 1000)
      throw new Error(
        `${what}: not drawn within ${options.seconds} s (${options.last ? options.last(v) : JSON.stringify(v)})`,
      );
    await page.waitForTimeout(options.everyMs);
  }
}
