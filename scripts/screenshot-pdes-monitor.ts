/**
 * Screenshots of the live PDES monitor panel outside VS Code: headless Chromium renders the real
 * bundle (same CSP as webview-html.ts, the theme's --vscode-* variables) while this process plays
 * the host — the monitor system in-process (LocalAnalysisService) replaying a recorded ROSS stats
 * file, answered as PdesMonitorPanel answers. It draws the replayed run, presses Show on the first
 * change point and sets a base time, and fails when a view reports nothing drawn
 * or the page logs errors.
 *
 *   npx tsx scripts/screenshot-pdes-monitor.ts [stats-file…] [--theme=dark,light] [--out=/tmp/pdes-monitor-shots] [--no-build]
 *
 * Without files: the shared CODES dragonfly-dally runs' `dfdally72-rt.bin` (64 KPs, with their
 * event traces) and the 8-PE full-trace run's `dfdally72-gvt.bin` (128 KPs). Writes
 * pdes-monitor-<run>-<file>-<theme>-<state>.png.
 */
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LocalAnalysisService } from '../src/service/local-analysis-service';
import type { PdesMonitorEvent, PdesMonitorShape } from '../src/service/systems/pdes-monitor-system';
import type {
  MonitorTickPoint,
  PdesMonitorHostToView,
  PdesMonitorViewToHost,
} from '../src/shared/pdes-monitor-protocol';
import { english } from '../src/extension/l10n-text';
import { showEditorNote } from '../src/extension/webviews/pdes-monitor-show';
import type { PdesRunSummary } from '../src/analysis/pdes/panel-views';
import { pdesMonitorDrawn, type PdesMonitorDrawn } from '../src/shared/test-facts';
import { until } from '../test/support/until';
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
const outDir = resolve(root, opt('out', '/tmp/pdes-monitor-shots'));
const shared = join(sharedData, 'pdes-ross-codes');

function inputs(): string[] {
  if (paths.length) return paths;
  return [
    'codes-dragonfly-dally-72-uniform-random/ross-stats/dfdally72-rt.bin',
    'codes-dragonfly-dally-72-nearest-neighbor/ross-stats/dfdally72-rt.bin',
    'codes-dragonfly-dally-72-uniform-random-8pe-fulltrace/ross-stats/dfdally72-gvt.bin',
  ]
    .map(p => join(shared, p))
    .filter(p => existsSync(p));
}

type Request = PdesMonitorShape['request'];
type Results = PdesMonitorShape['results'];

/** PdesMonitorPanel's answers to the view over the in-process monitor (after the replay ended). */
function host(
  service: LocalAnalysisService,
  dataset: number,
  info: Extract<PdesMonitorHostToView, { type: 'monitor/started' }>['info'],
  editor: Pick<PdesRunSummary, 'lpTypes'>,
  ended: { ticks: number; reason: string },
  send: (m: PdesMonitorHostToView) => Promise<void>,
  log: string[],
) {
  const ask = <R extends Request>(request: R) =>
    service.systemRequest({ dataset, system: 'pdesMonitor', request: request as never }) as Promise<Results[R['kind']]>;
  return async (m: PdesMonitorViewToHost | { type: 'test/result' }) => {
    try {
      switch (m.type) {
        case 'ready': {
          await send({ type: 'monitor/started', info });
          const [top, bottom, history] = await Promise.all([
            ask({ kind: 'summary', view: 'top' }),
            ask({ kind: 'summary', view: 'bottom' }),
            ask({ kind: 'history' }),
          ]);
          const points: MonitorTickPoint[] = history.ticks.map(t => ({
            tick: t.tick,
            time: t.time,
            means: { top: top.mean[t.tick] ?? NaN, bottom: bottom.mean[t.tick] ?? NaN },
            changePoint: history.changePoints.find(c => c.tick === t.tick) ?? null,
          }));
          await send({ type: 'monitor/history', points });
          if (history.latest) await send({ type: 'monitor/ticks', points: [], latest: history.latest });
          return send({ type: 'monitor/ended', ...ended });
        }
        case 'log':
          log.push(`${m.level}: ${m.message}`);
          return;
        case 'monitor/refresh': {
          const o = m.options;
          const matrix = { granularity: o.granularity, ...(o.drill ? { drill: o.drill } : {}) };
          const [top, bottom, live, causality, base, diffs] = await Promise.all([
            ask({ kind: 'behaviour', view: 'top' }).catch(() => null),
            ask({ kind: 'behaviour', view: o.bottomMetric ?? 'bottom' }).catch(() => null),
            ask({ kind: 'live-matrix', matrix }).catch(() => null),
            ask({ kind: 'causality', direction: o.causalityDirection, sortBy: o.causalitySort }).catch(() => []),
            o.baseTick === null
              ? null
              : ask({ kind: 'base-matrix', tick: o.baseTick, matrix: { granularity: o.granularity } }),
            o.baseTick === null
              ? []
              : ask({ kind: 'diff-matrices', baseTick: o.baseTick, matrix: { granularity: o.granularity } }),
          ]);
          return send({
            type: 'monitor/views',
            requestId: m.requestId,
            top,
            bottom,
            matrix: live,
            causality,
            base,
            diffs,
          });
        }
        case 'monitor/show': {
          const shown = await ask({ kind: 'show', changePoint: m.changePoint });
          const activity = await ask({ kind: 'handler-activity', changePoint: m.changePoint });
          if (!shown) return;
          return send({
            type: 'monitor/selection',
            entities: shown.entities,
            reason: `change point ${m.changePoint}: ${shown.labels.slice(0, 8).join(', ')}`,
            changePoint: m.changePoint,
            editor: showEditorNote(activity ?? undefined, editor, `${basename(info.source)} (live)`, english),
          });
        }
        case 'monitor/lasso':
          return send({
            type: 'monitor/selection',
            entities: await ask({ kind: 'lasso', view: m.view, polygon: m.polygon }),
            reason: `lasso in the ${m.view} view`,
          });
        case 'monitor/pause':
        case 'monitor/resume':
        case 'monitor/stop':
        case 'test/result':
          return;
      }
    } catch (e) {
      log.push(`host: ${String(e)}`);
    }
  };
}

const drawn = (page: Page, what: string, ok: (r: PdesMonitorDrawn) => boolean) =>
  pollDrawn(page, what, pdesMonitorDrawn, ok, { seconds: 60, everyMs: 100 });

void runScreenshots(outDir, 'hpc-lens-monitor-shot-', async ({ browser, tmp, failures }) => {
  if (build) await buildWebviewBundle(root);
  const service = new LocalAnalysisService();
  for (const file of inputs()) {
    const name = `${basename(dirname(dirname(file)))}-${basename(file, '.bin')}`;
    const t0 = performance.now();
    const events: PdesMonitorEvent[] = [];
    const opened = await service.openSystem({
      system: 'pdesMonitor',
      // The built-in handlers (CODES dragonfly-dally's); their source is not among the shared data.
      args: { source: { kind: 'replay', path: file, speed: Infinity }, editor: {} },
    });
    service.onSystemEvent(opened.dataset, e => events.push(e as PdesMonitorEvent));
    await until(() => events.some(e => e.type === 'ended' || e.type === 'error'), `${name}: the replay ends`, 600_000);
    const end = events.find(e => e.type === 'ended');
    const error = events.find(e => e.type === 'error');
    if (error) failures.push(`${name}: ${error.message}`);
    const ticks = end?.type === 'ended' ? end.ticks : 0;
    console.log(`${name}: replayed ${ticks} ticks in ${(performance.now() - t0).toFixed(0)} ms`);
    const { editor: _editor, ...started } = opened.opened;
    const info = { ...started, kind: 'replay' as const };
    for (const theme of themes) {
      const { page, log } = await loggedPage(browser, { width: 1400, height: 1500 });
      const send = toPage(page);
      const answer = host(
        service,
        opened.dataset,
        info,
        opened.opened.editor ?? { lpTypes: [] },
        { ticks, reason: end?.type === 'ended' ? end.reason : 'failed' },
        send,
        log,
      );
      await showView(page, answer as never, { file: join(tmp, `${name}-${theme}.html`), theme, view: 'pdes-monitor' });
      const shot = async (what: string) => {
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(outDir, `pdes-monitor-${name}-${theme}-${what}.png`), fullPage: true });
      };
      const step = async (what: string, act: () => Promise<unknown>, ok: (r: PdesMonitorDrawn) => boolean) => {
        await act();
        return drawn(page, `${name} ${what}`, ok).catch(e => {
          failures.push(String(e));
          return undefined;
        });
      };
      const first = await drawn(
        page,
        name,
        r => r.state === 'ended' && r.behaviourLines.length === 2 && r.behaviourLines[0]! > 0 && r.scatterPoints > 0,
      ).catch(e => {
        failures.push(String(e));
        return undefined;
      });
      console.log(`${name} ${theme}: ${JSON.stringify(first)}`);
      await shot('ended');
      if (!first) {
        await page.close();
        continue;
      }
      if (first.matrixCells === 0) failures.push(`${name} ${theme}: the live matrix is empty`);
      if (first.changePoints > 0) {
        await step(
          'show',
          () => page.locator('.monitor-summary .monitor-change-point').first().dispatchEvent('click'),
          r => r.selection.changePoint !== null && r.selected > 0,
        );
        await shot('show');
      } else console.log(`${name} ${theme}: no change point to show (${first.ticks} ticks)`);
      // A base time at a fifth of the run: the base matrix and one diff matrix per change point.
      const summary = (await page.locator('.monitor-summary svg').first().boundingBox())!;
      await page.mouse.click(summary.x + summary.width / 5, summary.y + summary.height / 2);
      await page
        .locator('.monitor-diffs[data-diffs]')
        .first()
        .waitFor({ timeout: 30000 })
        .catch(() => failures.push(`${name} ${theme}: no base matrix after a click on the summary view`));
      await shot('base');
      if (log.length) failures.push(...log.map(l => `${name} ${theme}: ${l}`));
      await page.close();
    }
    await service.close({ dataset: opened.dataset });
  }
});
