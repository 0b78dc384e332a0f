/** @jsxRuntime automatic */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { analyzeTrace } from '../../../../src/analysis/timeseries/analyze-trace';
import * as S from '../../../../src/analysis/timeseries/testing/scenarios';
import { iterationMatrix, traceAnalysisView } from '../../../../src/analysis/timeseries/view-data';
import type { TraceAnalysisResultMessage } from '../../../../src/shared/trace-analysis-protocol';
import { clusterBands, LABEL_HEIGHT, matrixLayout, stripRects } from './trace-analysis-layout';
import { cellAlpha, TraceAnalysisPanelView, type TraceAnalysisViewProps } from './trace-analysis-view';

const noop = () => undefined;

async function resultOf(profile: Parameters<typeof analyzeTrace>[0], options = {}) {
  const a = await analyzeTrace(profile, options);
  const view = traceAnalysisView(a, n => profile.tree.depth(n));
  const result: TraceAnalysisResultMessage = {
    type: 'traceAnalysis/result',
    title: 'synthetic',
    view,
    ms: 12,
    split: false,
    changedOptions: [],
  };
  return { a, view, result };
}

function props(
  result: TraceAnalysisResultMessage,
  extra: Partial<TraceAnalysisViewProps> = {},
): TraceAnalysisViewProps {
  return {
    result,
    matrix: null,
    selectedPath: null,
    timelineByCluster: true,
    post: noop,
    selectPath: noop,
    setTimelineByCluster: noop,
    width: 900,
    ...extra,
  };
}

/** `top`/`height` (px) of every element carrying `attr`, from its inline style. */
function boxes(html: string, attr: string): { top: number; height: number }[] {
  const out: { top: number; height: number }[] = [];
  const re = new RegExp(`<[^>]*${attr}="[^"]*"[^>]*>`, 'g');
  for (const m of html.match(re) ?? []) {
    const top = /top:\s*([\d.]+)(px)?/.exec(m),
      height = /height:\s*([\d.]+)(px)?/.exec(m);
    if (top && height) out.push({ top: Number(top[1]), height: Number(height[1]) });
  }
  return out;
}

function assertStacked(list: { top: number; height: number }[], minHeight: number, what: string) {
  const sorted = [...list].sort((x, y) => x.top - y.top);
  sorted.forEach((b, i) => {
    assert.ok(b.height >= minHeight, `${what} ${i}: ${b.height} px < ${minHeight}`);
    if (i) assert.ok(sorted[i - 1]!.top + sorted[i - 1]!.height <= b.top, `${what} ${i - 1} overlaps ${i}`);
  });
}

describe('Trace Analysis panel (server-rendered)', () => {
  test('planted imbalance: two cluster bands, heights ∝ log₂(size + 1), no overlap; segments, paths, what-if', async () => {
    const { view, result } = await resultOf(S.plantedImbalance().profile);
    const html = renderToStaticMarkup(<TraceAnalysisPanelView {...props(result, { selectedPath: 0 })} />);
    const bands = boxes(html, 'data-cluster-band');
    assert.equal(bands.length, 2);
    assertStacked(bands, LABEL_HEIGHT + 4, 'band');
    const sizes = view.clusters.map(c => c.size);
    const [big, small] = sizes[0]! > sizes[1]! ? [bands[0]!, bands[1]!] : [bands[1]!, bands[0]!];
    assert.ok(big.height > small.height, 'the larger cluster has the taller band');
    assert.equal((html.match(/data-segment-row=/g) ?? []).length, view.segments.length);
    assert.equal((html.match(/data-path-row=/g) ?? []).length, view.paths.length);
    assert.match(html, /data-path-row="0"[^>]*data-selected="true"/);
    // Every diagnosis is on screen, and the what-if starts with every segment checked.
    for (const s of view.segments) assert.ok(html.includes(s.diagnosis.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')));
    assert.match(html, new RegExp(`data-what-if="${view.totalSaving}"`));
    assert.match(html, /Use This Window for Overlays/);
    assert.doesNotMatch(html, /data-one-cluster=/, 'two clusters need no explanation');
  });

  test('one cluster: the reason is shown above the bands', async () => {
    const { view, result } = await resultOf(S.regularLoop().profile);
    assert.equal(view.clusters.length, 1);
    const html = renderToStaticMarkup(<TraceAnalysisPanelView {...props(result)} />);
    assert.match(html, /data-one-cluster="All \d+ lanes behave alike/);
  });

  test('a loop strip fills its width with ≥ 1 px runs that never overlap, at 4,096 iterations on 200 px', () => {
    const strip = Array.from({ length: 4096 }, (_, i) => ({ cluster: i % 3, from: i + 1, to: i + 1 }));
    const rects = stripRects({ strip }, 200);
    rects.forEach((r, i) => {
      assert.ok(r.width >= 1);
      if (i) assert.ok(rects[i - 1]!.x + rects[i - 1]!.width <= r.x + 1e-9, `run ${i} overlaps`);
    });
    assert.ok(rects[rects.length - 1]!.x + rects[rects.length - 1]!.width <= 200);
  });

  test('the lanes × iterations matrix: labels never overlap, cells at least 2 px tall', async () => {
    const { a, view, result } = await resultOf(S.plantedImbalance().profile);
    const loop = view.loops.findIndex(l => l.accepted);
    const m = iterationMatrix(a, loop, 200, 300);
    const l = matrixLayout(m, 900, 420);
    assert.ok(l.cellHeight >= 2);
    l.rowLabels.forEach((r, i) => {
      if (i) assert.ok(l.rowLabels[i - 1]!.y + LABEL_HEIGHT <= r.y, `row labels ${i - 1} and ${i} overlap`);
    });
    l.columnLabels.forEach((c, i) => {
      if (i) assert.ok(l.columnLabels[i - 1]!.x + 24 <= c.x, `column labels ${i - 1} and ${i} overlap`);
    });
    const html = renderToStaticMarkup(<TraceAnalysisPanelView {...props(result, { matrix: m })} />);
    assert.match(html, new RegExp(`data-rows="${m.rows.length}" data-columns="${m.columns.length}"`));
    assertStacked(boxes(html, 'class="ta-matrix-row'), 1, 'row label');
  });

  test('cluster bands stay readable for 70 clusters', () => {
    const clusters = Array.from({ length: 70 }, (_, k) => ({ weight: Math.log2((k % 9) + 2), index: k }));
    const { bands } = clusterBands(clusters as never);
    assertStacked(
      bands.map(b => ({ top: b.y, height: b.height })),
      LABEL_HEIGHT + 4,
      'band',
    );
  });
});

test('matrix colours: jitter under a tenth of the longest iteration stays faint; absent cells are blank', () => {
  const m = { min: 149, max: 150 };
  assert.ok(cellAlpha(m, 150) - cellAlpha(m, 149) < 0.1);
  const wide = { min: 100, max: 150 };
  assert.ok(cellAlpha(wide, 150) - cellAlpha(wide, 100) > 0.8);
  assert.equal(cellAlpha(m, NaN), 0);
});
