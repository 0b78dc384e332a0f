/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { rankHistogram } from '../../../../src/analysis/graph/rank-histogram';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { estimateText } from '../../text-measure';
import { fallbackThemeColors, heatScale } from '../../theme';
import { SankeyView } from '../sankey/sankey-view';
import heatStencil from '../sankey/fixtures/heat-stencil.json';
import { CorrelationView, formatP } from './correlation-view';
import { HistogramView } from './histogram-view';
import { rankRangesByBin } from './rank-bins';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;
const colors = fallbackThemeColors('dark');

/** The fixture with per-rank values: rank r of K gets a share that decreases with r (a rank-correlated cost). */
function withRanks(data: CallflowData, K: number): CallflowData {
  const weights = Array.from({ length: K }, (_, r) => 2 - r / K);
  const sum = weights.reduce((a, b) => a + b, 0);
  const perRank = (v: number) => weights.map(w => (v * w) / sum);
  return {
    ...data,
    contexts: {
      count: K,
      indices: Array.from({ length: K }, (_, r) => r),
      labels: Array.from({ length: K }, (_, r) => `rank ${r}`),
    },
    nodes: data.nodes.map((n): CallflowNodeData => {
      const inclusive = perRank(n.inclusive),
        exclusive = perRank(n.exclusive);
      return {
        ...n,
        contextValues: { inclusive, exclusive },
        histogram: { inclusive: rankHistogram(inclusive, 20), exclusive: rankHistogram(exclusive, 20) },
      };
    }),
  };
}

describe('CallFlow encodings in the Sankey', () => {
  const data = withRanks(heatStencil, 16);
  const html = renderToStaticMarkup(
    <SankeyView
      data={data}
      width={1100}
      height={640}
      colors={colors}
      measureText={estimateText}
      colourBy="exclusive"
      miniHistogram={{ metric: 'inclusive', scale: 'log' }}
      selectedId="heat/libhalo.so"
      onSelect={() => undefined}
    />,
  );

  test('a mini histogram above every bar, with one rect per non-empty bin', () => {
    assert.equal(count(html, /class="sankey-mini-hist"/), data.nodes.length);
    const bins = data.nodes.reduce((s, n) => s + n.histogram!.inclusive.counts.filter(c => c > 0).length, 0);
    assert.equal(count(html, /<g class="sankey-mini-hist"[^>]*>/), data.nodes.length);
    const rects = [...html.matchAll(/<g class="sankey-mini-hist"[^>]*>(.*?)<\/g>/g)].reduce(
      (s, m) => s + count(m[1]!, /<rect (?!class)/),
      0,
    );
    assert.equal(rects, bins);
  });

  test('colour by exclusive: the largest exclusive node takes the top of the scale; the selection is outlined', () => {
    const hottest = [...data.nodes].sort((a, b) => b.exclusive - a.exclusive)[0]!;
    const fill = html.match(
      new RegExp(`data-node="${hottest.id}"[^>]*><rect class="sankey-node-rect"[^>]*fill="([^"]+)"`),
    )![1];
    assert.equal(fill, heatScale(colors)(1));
    assert.equal(count(html, /class="sankey-node-selected"/), 1);
    assert.match(
      html,
      /data-node="heat\/libhalo.so"[^>]*class="[^"]*is-selected|class="[^"]*is-selected[^"]*"[^>]*data-node="heat\/libhalo.so"/,
    );
  });

  test('a node colour function overrides the scale (difference colouring)', () => {
    const diff = renderToStaticMarkup(
      <SankeyView
        data={data}
        width={1100}
        height={640}
        colors={colors}
        measureText={estimateText}
        nodeColour={() => '#123456'}
      />,
    );
    assert.equal(count(diff, /class="sankey-node-rect"[^>]*fill="#123456"/), data.nodes.length);
  });
});

describe('histogram view', () => {
  const data = withRanks(heatStencil, 32);
  const node = data.nodes.find(n => n.id === 'heat/libhalo.so')!;
  const render = (n: CallflowNodeData, brushed: number[] = []) =>
    renderToStaticMarkup(
      <HistogramView
        data={data}
        node={n}
        metric="inclusive"
        yScale="linear"
        bins={8}
        width={600}
        height={240}
        brushed={new Set(brushed)}
        onBrush={() => undefined}
      />,
    );

  test('bins as chosen, one shadow band per contiguous rank range, clean for a rank-ordered cost', () => {
    const html = render(node, [0, 1, 2]);
    const h = rankHistogram(node.contextValues!.inclusive, 8);
    assert.equal(count(html, /class="callflow-bin[ "]/), h.counts.filter(c => c > 0).length);
    assert.equal(count(html, /class="callflow-shadow[ "]/), rankRangesByBin(h.binOf, 8).flat().length);
    assert.match(html, /data-clutter="0.000"/);
    assert.equal(count(html, /class="callflow-rank is-brushed/), 3, 'brushed ranks marked on the rank axis');
  });

  test('a shuffled cost clutters the shadow lines', () => {
    const v = node.contextValues!.inclusive;
    const shuffled = v.map((_, i) => v[(i * 13) % v.length]!); // 13 is coprime with 32: a permutation
    const html = render({ ...node, contextValues: { inclusive: shuffled, exclusive: shuffled } });
    assert.ok(Number(html.match(/data-clutter="([0-9.]+)"/)![1]) > 0.5);
  });
});

describe('correlation view', () => {
  test('one point per rank, the fit line, r and p in the text', () => {
    const xs = [1, 2, 3, 4, 5, 6];
    const ys = [2.1, 3.9, 6.2, 7.8, 10.1, 12.0];
    const html = renderToStaticMarkup(
      <CorrelationView
        x={{ key: 'a', label: 'time inclusive', unit: 's', values: xs }}
        y={{ key: 'b', label: 'cycles', unit: '', values: ys }}
        contexts={[0, 1, 2, 3, 4, 5]}
        labels={['0', '1', '2', '3', '4', '5']}
        brushed={new Set([2])}
        onBrush={() => undefined}
        width={500}
        height={260}
      />,
    );
    assert.equal(count(html, /class="callflow-point/), 6);
    assert.equal(count(html, /class="callflow-point is-brushed"/), 1);
    assert.equal(count(html, /class="callflow-fit"/), 1);
    assert.match(html, /r = 0\.999, r² = 0\.998, p &lt; 0\.001/);
    assert.equal(formatP(0.0247), 'p = 0.025');
    assert.equal(formatP(NaN), 'n/a');
  });
});
