/**
 * Screenshots of the trace analysis (seed 001) outside VS Code: headless Chromium renders the real
 * bundle while this process plays the host — it analyses the trace with the analysis's own code
 * (analyze-trace.ts, view-data.ts) and answers the Trace Analysis panel's and the timeline's
 * requests (timeline-requests.ts with the analysis's node classes, cluster bands and iteration
 * spans). Fails when a view does not report what it drew, or logs errors.
 *
 *   npx tsx scripts/screenshot-trace-analysis.ts [trace path…] [--theme=dark,light] [--out=/tmp/hpc-lens-trace-analysis] [--no-build]
 *
 * Without paths: the largest shared traces of each kind — Nsight Systems, Chrome/Kineto (resnet50),
 * OTF2 and HPCToolkit trace.db (ping-pong) — when present. Writes trace-analysis-<name>-<theme>.png
 * (with a loop's lanes × iterations when there is one) and timeline-analysis-<name>-<theme>.png.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readProfile } from '../src/analysis/formats';
import type { Profile } from '../src/analysis/model/profile';
import * as S from '../src/analysis/timeseries/testing/scenarios';
import { analyzeTrace } from '../src/analysis/timeseries/analyze-trace';
import { iterationMatrix, iterationSpans, traceAnalysisView } from '../src/analysis/timeseries/view-data';
import { timelineRequest } from '../src/service/timeline-requests';
import { timelineDrawn, traceAnalysisDrawn } from '../src/shared/test-facts';
import type { TimelineHostToView } from '../src/shared/timeline-protocol';
import type { TraceAnalysisHostToView, TraceAnalysisViewToHost } from '../src/shared/trace-analysis-protocol';
import { timelineHost } from './timeline-host';
import { buildWebviewBundle } from './webview-page';
import {
  drawnUntil,
  loggedPage,
  queryOf,
  root,
  runScreenshots,
  scriptArgs,
  sharedData,
  showView,
  toPage,
} from './screenshot-support';

const { opt, paths, build } = scriptArgs();
const themes = opt('theme', 'dark,light').split(',');
const outDir = resolve(opt('out', '/tmp/hpc-lens-trace-analysis'));
const shared = sharedData;
const every = { seconds: 30, everyMs: 100 };

async function main(): Promise<void> {
  if (build) await buildWebviewBundle(root);
  const inputs = (
    paths.length
      ? paths.map(p => ({ name: p.split('/').filter(Boolean).pop()!.replace(/\..*$/, ''), path: p }))
      : [
          { name: 'nsight', path: join(shared, 'nsight-systems-sqlite/saxpy-mpi-cuda-perlmutter') },
          {
            name: 'resnet50',
            path: join(shared, 'chrome-trace/pytorch-profiler-resnet50/worker0.1623143089861.pt.trace.json.gz'),
          },
          { name: 'otf2', path: join(shared, 'scorep-otf2/ping-pong-2ranks') },
          { name: 'tracedb', path: join(shared, 'hpctoolkit-metadb/ping-pong-mpi-with-trace') },
        ]
  ).filter(i => existsSync(i.path));
  // The seeded planted-imbalance scenario (digest §6): 64 ranks in clusters {8–15} and the rest, a 10-iteration loop.
  const all: { name: string; load: () => Promise<Profile> }[] = [
    ...inputs.map(i => ({ name: i.name, load: () => readProfile(i.path) })),
    ...(paths.length ? [] : [{ name: 'planted-imbalance', load: async () => S.plantedImbalance().profile }]),
  ];
  await runScreenshots(outDir, 'hpc-lens-trace-analysis-', async ({ browser, tmp, failures }) => {
    for (const input of all) {
      const t0 = Date.now();
      const profile = await input.load();
      const analysis = await analyzeTrace(profile);
      const view = traceAnalysisView(analysis, n => profile.tree.depth(n));
      const ms = Date.now() - t0;
      const loop = view.loops.find(l => l.accepted && l.acceptedIds > 0) ?? null;
      console.log(
        `${input.name}: ${view.lanes} lanes, ${view.clusters.length} clusters, ${view.loops.length} loops, ${view.paths.length} paths, ${view.segments.length} segments (${ms} ms with reading)`,
      );
      timelineRequest(profile, { kind: 'nodeClasses', classes: analysis.nodeClass });
      for (const theme of themes) {
        const log: string[] = [];
        const html = (view: string) => join(tmp, `${input.name}-${view}-${theme}.html`);
        // The Trace Analysis panel.
        const { page: panel } = await loggedPage(browser, { width: 1280, height: 1400 }, log);
        const sendPanel: (m: TraceAnalysisHostToView) => Promise<void> = toPage(panel);
        await showView(
          panel,
          (async (m: TraceAnalysisViewToHost) => {
            if (m.type === 'ready')
              await sendPanel({
                type: 'traceAnalysis/result',
                title: input.name,
                view,
                ms,
                split: false,
                changedOptions: [],
              });
            else if (m.type === 'traceAnalysis/requestIterations')
              await sendPanel({
                type: 'traceAnalysis/iterations',
                matrix: iterationMatrix(analysis, m.loop, m.rows, m.columns),
              });
            else if (m.type === 'log') log.push(`${m.level}: ${m.message}`);
          }) as never,
          { file: html('trace-analysis'), theme, view: 'trace-analysis' },
        );
        const drawn = await drawnUntil(
          panel,
          `${input.name} panel`,
          traceAnalysisDrawn,
          d => d.state === 'result',
          every,
        );
        if (loop) {
          await panel.locator(`[data-loop="${loop.index}"] button`, { hasText: 'lanes × iterations' }).click();
          await drawnUntil(panel, `${input.name} matrix`, traceAnalysisDrawn, d => d.matrix !== null, every);
        }
        await panel.waitForTimeout(200);
        await panel.screenshot({ path: join(outDir, `trace-analysis-${input.name}-${theme}.png`), fullPage: true });
        console.log(`  ${theme} panel: ${JSON.stringify({ ...drawn, oneCluster: drawn.oneCluster.length })}`);
        if (drawn.clusters !== view.clusters.length || drawn.paths !== view.paths.length)
          failures.push(`${input.name}: the panel drew ${drawn.clusters} clusters, ${drawn.paths} paths`);
        await panel.close();

        // The timeline with the analysis: lanes by cluster, class colours, iteration bands.
        const { page: tl } = await loggedPage(browser, { width: 1280, height: 820 }, log);
        const sendTl: (m: TimelineHostToView) => Promise<void> = toPage(tl);
        const tlAnswer = timelineHost(profile, input.name, sendTl, log, {
          afterInit: () =>
            sendTl({
              type: 'timeline/analysis',
              analysis: {
                bands: view.bands.map(b => ({ label: b.label, tracks: b.tracks, weight: b.weight })),
                byCluster: true,
                loopName: loop?.name ?? null,
                depth: view.depth,
              },
            }),
          tiles: m => {
            const iterations =
              m.iterations && loop ? iterationSpans(analysis, loop.index, m.tracks, m.window) : undefined;
            return iterations ? { iterations } : {};
          },
        });
        await showView(tl, tlAnswer, { file: html('timeline'), theme, view: 'timeline' });
        const frame = await drawnUntil(
          tl,
          `${input.name} timeline`,
          timelineDrawn,
          f => f.colourBy === 'class' && f.sort === 'clusters' && f.lanes > 0,
          every,
        );
        await tl.waitForTimeout(400);
        const last = (await timelineDrawn(queryOf(tl)))!;
        await tl.screenshot({ path: join(outDir, `timeline-analysis-${input.name}-${theme}.png`) });
        console.log(
          `  ${theme} timeline: ${last.lanes} lanes, ${last.groups} groups, ${last.rects} runs, ${last.iterations} iteration bands, depth ${last.depth}`,
        );
        if (!(frame.rects + frame.events > 0)) failures.push(`${input.name}: the timeline drew nothing`);
        await tl.close();
        if (log.length) failures.push(...log.map(l => `${input.name} ${theme}: ${l}`));
      }
    }
  });
}

void main();
