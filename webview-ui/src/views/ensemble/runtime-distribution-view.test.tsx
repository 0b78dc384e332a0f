/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { DistributionMode, EnsembleRequest } from '../../../../src/shared/ensemble-protocol';
import { binExtents, DistributionModeSwitch, RuntimeDistributionView } from './runtime-distribution-view';
import { detailFixture } from './testing/detail-fixture';
import { findElements } from './testing/element-tree';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

function render(f: ReturnType<typeof detailFixture>, mode: DistributionMode, width = 520, height = 280) {
  const state = { ...f.state, options: { ...f.state.options, distributionMode: mode } };
  return renderToStaticMarkup(
    <RuntimeDistributionView
      data={f.data}
      state={state}
      detail={f.detail}
      width={width}
      height={height}
      onRequest={() => undefined}
    />,
  );
}

describe('runtime distribution view', () => {
  test('one bar per non-empty bin in each mode, with units on both axes', () => {
    const f = detailFixture({ runs: 30, callSites: 10 });
    for (const mode of ['callsite', 'run', 'rank'] as const) {
      const h = f.detail.distribution[mode];
      const html = render(f, mode);
      const nonEmpty = h.counts.filter(c => c > 0).length;
      assert.match(html, new RegExp(`data-ensemble-view="distribution" data-drawn="${nonEmpty}"`), mode);
      assert.equal(count(html, /<rect class="ensemble-bar[ "]/), nonEmpty, mode);
      const drawnCounts = [...html.matchAll(/class="ensemble-bar[^"]*" data-bin="\d+" data-count="(\d+)"/g)].map(m =>
        Number(m[1]),
      );
      assert.deepEqual(
        drawnCounts,
        h.counts.filter(c => c > 0),
        mode,
      );
      assert.match(html, new RegExp(`>${h.unit}</text>`), 'y axis says what is counted');
      assert.match(html, /inclusive time \(s\)<\/text>/, 'x axis names the metric and its unit');
      assert.match(html, />\d+(\.\d+)? (s|ms)<\/text>/, 'ticks formatted with the unit');
      assert.equal(count(html, /ensemble-target-bar/), 0, 'no target bars outside target mode');
    }
  });

  test('target mode overlays the target counts on the same bins, as green bars with a marker', () => {
    const f = detailFixture({ runs: 30, callSites: 10, mode: 'target' });
    for (const mode of ['callsite', 'run', 'rank'] as const) {
      const t = f.detail.distribution[mode].targetCounts!;
      const html = render(f, mode);
      const drawn = [...html.matchAll(/class="ensemble-target-bar" data-bin="(\d+)" data-count="(\d+)"/g)].map(m => [
        Number(m[1]),
        Number(m[2]),
      ]);
      assert.deepEqual(
        drawn,
        t.flatMap((c, b) => (c > 0 ? [[b, c]] : [])),
        mode,
      );
      assert.equal(count(html, /class="ensemble-target-marker"/), drawn.length);
      assert.match(html, /has-target/);
    }
    assert.equal(
      f.detail.distribution.run.targetCounts!.reduce((a, b) => a + b, 0),
      1,
      'one target run in run mode',
    );
    // Target counts sent but the panel left target mode: no overlay.
    assert.equal(count(render({ ...f, state: { ...f.state, mode: 'summary' } }, 'run'), /ensemble-target-bar/), 0);
  });

  test('bins are equal-width and tile the plot', () => {
    const h = detailFixture().detail.distribution.run;
    const e = binExtents(h, 40, 440);
    assert.equal(e.length, h.counts.length);
    assert.equal(e[0]!.x0, 40);
    assert.ok(Math.abs(e[e.length - 1]!.x1 - 440) < 1e-9);
    e.forEach((b, i) => {
      if (i) assert.equal(b.x0, e[i - 1]!.x1);
    });
  });

  test('the mode switch posts the distribution mode', () => {
    const f = detailFixture();
    const posted: EnsembleRequest[] = [];
    const buttons = findElements(DistributionModeSwitch({ state: f.state, onRequest: r => posted.push(r) }), 'button');
    assert.deepEqual(
      buttons.map(b => b.props['data-value']),
      ['callsite', 'run', 'rank'],
    );
    assert.equal(buttons[1]!.props['aria-pressed'], true, 'the current mode is pressed');
    for (const b of buttons) (b.props.onClick as () => void)();
    assert.deepEqual(
      posted,
      [
        { type: 'ensemble/options', options: { distributionMode: 'callsite' } },
        { type: 'ensemble/options', options: { distributionMode: 'rank' } },
      ],
      'the current mode posts nothing',
    );
  });
});
