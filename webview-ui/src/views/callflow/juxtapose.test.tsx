/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CallflowData } from '../../../../src/shared/callflow-protocol';
import { estimateText } from '../../text-measure';
import { fallbackThemeColors } from '../../theme';
import { layoutSankey } from '../sankey/sankey-layout';
import { SankeyView } from '../sankey/sankey-view';
import heatStencil from '../sankey/fixtures/heat-stencil.json';
import { rootHeightRatio, sharedScale } from './juxtapose';

const runA: CallflowData = heatStencil;
/** Run B: 44 % less time everywhere (the LULESH overdecomposition case). */
const runB: CallflowData = {
  ...runA,
  total: runA.total * 0.56,
  nodes: runA.nodes.map(n => ({ ...n, inclusive: n.inclusive * 0.56, exclusive: n.exclusive * 0.56 })),
  links: runA.links.map(l => ({ ...l, value: l.value * 0.56 })),
};
const rootHeight = (nodes: { data: { id: string }; y0: number; y1: number }[]) => {
  const n = nodes.find(x => x.data.id === runA.nodes[0]!.id)!;
  return n.y1 - n.y0;
};

describe('juxtaposed runs (AT-1)', () => {
  test('on their own both runs fill the box; on the shared scale B’s root is 0.56× A’s', () => {
    const box = { width: 1000, height: 420 };
    const a = layoutSankey(runA, box),
      b = layoutSankey(runB, box);
    assert.ok(
      Math.abs(rootHeight(b.nodes) / rootHeight(a.nodes) - 1) < 0.02,
      'fitted separately, the roots are equally tall',
    );
    const s = sharedScale([a.fittedScale, b.fittedScale]);
    const a2 = layoutSankey(runA, { ...box, maxScale: s }),
      b2 = layoutSankey(runB, { ...box, maxScale: s });
    assert.equal(a2.scale, b2.scale);
    const ratio = rootHeight(b2.nodes) / rootHeight(a2.nodes);
    assert.ok(Math.abs(ratio - 0.56) < 1e-6, `ratio ${ratio}`);
    assert.equal(rootHeightRatio(runA.total, runB.total), 0.56);
    assert.equal(sharedScale([NaN, 0, -1]), 0, 'no usable scale');
  });

  test('the view honours the cap and reports the scale that would fill its box', () => {
    const fitted: number[] = [];
    const html = renderToStaticMarkup(
      <SankeyView
        data={runB}
        width={1000}
        height={420}
        maxScale={0.5 * layoutSankey(runB, { width: 1000, height: 420 }).fittedScale}
        colors={fallbackThemeColors('dark')}
        measureText={estimateText}
        onFitted={s => fitted.push(s)}
      />,
    );
    const h = Number(
      html.match(
        new RegExp(`data-node="${runA.nodes[0]!.id}"[^>]*><rect class="sankey-node-rect"[^>]*height="([0-9.]+)"`),
      )![1],
    );
    const full = rootHeight(layoutSankey(runB, { width: 1000, height: 420 }).nodes);
    assert.ok(Math.abs(h / full - 0.5) < 1e-6, `capped root ${h} vs ${full}`);
  });
});
