/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  CANVAS_THRESHOLD,
  correlationLayout,
  CorrelationPlot,
  MetricCorrelationView,
  pickPoint,
  pointTree,
} from './metric-correlation-view';
import { detailFixture } from './testing/detail-fixture';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

function render(f: ReturnType<typeof detailFixture>, width = 520, height = 300) {
  return renderToStaticMarkup(
    <MetricCorrelationView
      data={f.data}
      state={f.state}
      detail={f.detail}
      width={width}
      height={height}
      onRequest={() => undefined}
    />,
  );
}

describe('metric correlation view', () => {
  test('one dot per call site × run, at (inclusive, exclusive)', () => {
    const f = detailFixture({ runs: 20, callSites: 8 });
    const c = f.detail.correlation;
    const html = render(f);
    assert.match(html, new RegExp(`data-ensemble-view="correlation" data-drawn="${c.callSite.length}"`));
    assert.equal(count(html, /<circle class="ensemble-dot/), c.callSite.length);
    assert.equal(count(html, /is-target/), 0);
    // Exclusive never exceeds inclusive: every dot is on or under the diagonal.
    const l = correlationLayout(c, 520, 300 - 46, null);
    for (let i = 0; i < c.callSite.length; i++) assert.ok(l.y.invert(l.py[i]!) <= l.x.invert(l.px[i]!) + 1e-9);
  });

  test('target mode: the target run\u2019s dots are green and drawn last (on top)', () => {
    const f = detailFixture({ runs: 20, callSites: 8, mode: 'target' });
    const c = f.detail.correlation;
    const targetDots = c.run.filter(r => r === f.state.target).length;
    assert.ok(targetDots > 0);
    const html = render(f);
    assert.equal(count(html, /class="ensemble-dot is-target"/), targetDots);
    const runs = [...html.matchAll(/class="ensemble-dot[^"]*"[^>]*data-run="(\d+)"/g)].map(m => Number(m[1]));
    assert.deepEqual(runs.slice(-targetDots), new Array(targetDots).fill(f.state.target));
    assert.ok(!runs.slice(0, -targetDots).includes(f.state.target!));
  });

  test('hovering a call site highlights every dot of it and dims the rest', () => {
    const f = detailFixture({ runs: 20, callSites: 8 });
    const c = f.detail.correlation;
    const layout = correlationLayout(c, 520, 260, null);
    const plot = (highlight: number | null, canvas = false) =>
      renderToStaticMarkup(
        <CorrelationPlot
          correlation={c}
          layout={layout}
          width={520}
          height={260}
          unit="s"
          metricName="time"
          target={null}
          highlight={highlight}
          canvas={canvas}
        />,
      );
    const site = 2;
    const html = plot(site);
    const dots = c.callSite.filter(k => k === site).length;
    assert.equal(count(html, /is-highlighted/), dots);
    assert.equal(count(html, new RegExp(`is-highlighted"[^>]*data-call-site="${site}"`)), dots);
    assert.match(html, /class="[^"]*has-highlight/);
    assert.equal(count(plot(null), /is-highlighted|has-highlight/), 0);
    // On canvas the SVG keeps only the highlighted dots.
    assert.equal(count(plot(site, true), /<circle /), dots);

    // The pointer over a dot picks that dot (hence its call site); far from every dot, nothing.
    const tree = pointTree(layout);
    const i = c.callSite.findIndex(k => k === site);
    assert.equal(c.callSite[pickPoint(tree, layout.px[i]! + 1, layout.py[i]! - 1)!], site);
    assert.equal(pickPoint(tree, -500, -500), null);
  });

  test('above the threshold the dots go to a canvas; the count still reports every dot', () => {
    const f = detailFixture({ runs: 300, callSites: 10, maxRanks: 2 });
    const n = f.detail.correlation.callSite.length;
    assert.ok(n > CANVAS_THRESHOLD);
    const html = render(f);
    assert.match(html, new RegExp(`data-drawn="${n}"`));
    assert.match(html, /<canvas class="ensemble-dot-canvas"/);
    assert.equal(count(html, /<circle /), 0);
  });

  test('says when the host left dots out', () => {
    assert.match(render(detailFixture({ callSites: 3, truncated: { correlation: 42 } })), /42 dots not shown/);
  });
});
