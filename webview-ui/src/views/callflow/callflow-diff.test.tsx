/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { superGraphDiff } from '../../../../src/analysis/graph/super-graph-diff';
import type { CallflowData } from '../../../../src/shared/callflow-protocol';
import { estimateText } from '../../text-measure';
import { fallbackThemeColors } from '../../theme';
import { NodeChange, SankeyView } from '../sankey/sankey-view';
import heatStencil from '../sankey/fixtures/heat-stencil.json';
import { changeColour, runDifference } from './callflow-colours';

const fixture: CallflowData = heatStencil;

/** The fixture as run B with one module 50 % slower and another 50 % faster (4 ranks in both runs). */
function comparison(): CallflowData {
  const slower = 'heat/libstencil.so',
    faster = 'heat/libhalo.so';
  const scale = (id: string) => (id === slower ? 1.5 : id === faster ? 0.5 : 1);
  const inc = (id: string) => fixture.nodes.find(n => n.id === id)!.inclusive;
  // The root (heat) and the total carry the change of both callees.
  const added = 0.5 * inc(slower) - 0.5 * inc(faster);
  const b: CallflowData = {
    ...fixture,
    title: 'B.json',
    total: fixture.total + added,
    nodes: fixture.nodes.map(n => ({
      ...n,
      inclusive: n.id === 'heat' ? n.inclusive + added : n.inclusive * scale(n.id),
      exclusive: n.exclusive * scale(n.id),
    })),
  };
  return superGraphDiff(b, { ...fixture, title: 'A.json' }, { baseline: 4, compare: 4 });
}

/** The channels of a CSS `rgb(r, g, b)` colour. */
const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number) as [number, number, number];

describe('CallFlow panel of a comparison', () => {
  test('nodes are coloured by their change on a symmetric scale: red slower, green faster, grey unchanged', () => {
    const d = comparison();
    const change = runDifference(d)!;
    const slow = change.byId.get('heat/libstencil.so')!,
      fast = change.byId.get('heat/libhalo.so')!;
    assert.ok(slow > 0 && fast < 0);
    assert.equal(change.bound, Math.max(Math.abs(slow), Math.abs(fast)));
    const [r1, g1] = rgb(changeColour(slow, change.bound));
    const [r2, g2] = rgb(changeColour(fast, change.bound));
    const [r3, g3] = rgb(changeColour(-change.bound, change.bound));
    assert.ok(r1 > g1 + 60, 'slower is red');
    assert.ok(g2 > r2 + 20 && g3 > r3 + 60, 'faster is green');
    // Symmetric: ± the same change sit equally far from the grey middle.
    const mid = rgb(changeColour(0, 1));
    const dist = (c: number[]) => Math.hypot(...c.map((v, i) => v - mid[i]!));
    assert.ok(Math.abs(dist(rgb(changeColour(0.5, 1))) - dist(rgb(changeColour(-0.5, 1)))) < 40);
    assert.equal(runDifference(fixture), null, 'a single run has no change to colour');
  });

  test('the header shows both totals and the change; the graph draws every node with its colour', () => {
    const d = comparison();
    const change = runDifference(d)!;
    const html = renderToStaticMarkup(
      <SankeyView
        data={d}
        width={1100}
        height={640}
        colors={fallbackThemeColors('dark')}
        measureText={estimateText}
        nodeColour={n => changeColour(change.byId.get(n.id) ?? 0, change.bound)}
      />,
    );
    const a = d.diff!.baselineTotal,
      b = d.diff!.compareTotal;
    assert.ok(b > a);
    assert.match(html, /<dt>Total A → B<\/dt>/);
    assert.match(html, new RegExp(`data-change-total="${b - a}"`));
    assert.match(html, /\+[\d.]+ s \(\+\d+(\.\d)?%\)/);
    assert.equal(html.match(/class="sankey-node-rect"/g)!.length, d.nodes.length);
    assert.ok(html.includes(`fill="${changeColour(change.byId.get('heat/libstencil.so')!, change.bound)}"`));
  });

  test('a node tooltip reads A → B with the change; a root also the two run totals', () => {
    const d = comparison();
    const stencil = d.nodes.find(n => n.id === 'heat/libstencil.so')!;
    const text = (root: boolean) =>
      renderToStaticMarkup(<NodeChange change={stencil.diff!} diff={d.diff!} unit="s" root={root} />).replace(
        /<[^>]+>/g,
        ' ',
      );
    const inc = stencil.diff!;
    assert.ok(Math.abs(inc.compare.inclusive / inc.baseline.inclusive - 1.5) < 1e-9, 'means per context, both runs');
    assert.match(text(false), /A → B \(mean per context\)/);
    assert.match(text(false), /Inclusive\s+[\d.]+ s → [\d.]+ s · \+[\d.]+ s \(\+50%\)/);
    assert.doesNotMatch(text(false), /Run total/);
    assert.match(text(true), /Run total\s+[\d.]+ s → [\d.]+ s · \+/);
    assert.match(text(true), /A: A\.json · B: B\.json/);
  });
});
