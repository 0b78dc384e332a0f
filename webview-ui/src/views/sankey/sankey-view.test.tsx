/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CallflowData } from '../../../../src/shared/callflow-protocol';
import { estimateText } from '../../text-measure';
import { fallbackThemeColors } from '../../theme';
import { SankeyView } from './sankey-view';
import heatStencil from './fixtures/heat-stencil.json';

const fixture: CallflowData = heatStencil;

function render(data: CallflowData, size: { width?: number; height?: number } = { width: 1100, height: 640 }): string {
  return renderToStaticMarkup(
    <SankeyView data={data} {...size} colors={fallbackThemeColors('dark')} measureText={estimateText} />,
  );
}

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

/** Text content of the SVG labels, tags stripped. */
function labelTexts(html: string): string[] {
  return [...html.matchAll(/<text class="sankey-label-text"[^>]*>(.*?)<\/text>/g)].map(m =>
    m[1]!
      .replace(/<tspan[^>]*>/g, '')
      .replace(/<\/tspan>/g, '\n')
      .trim(),
  );
}

describe('SankeyView (server-rendered)', () => {
  const html = render(fixture);

  test('draws one node rect per node and one path per link', () => {
    assert.equal(count(html, /class="sankey-node-rect"/), fixture.nodes.length);
    assert.equal(count(html, /<path class="sankey-link/), fixture.links.length);
    assert.equal(count(html, /<svg class="sankey-svg/), 1);
  });

  test('links are filled ribbons; the solid top of a bar flows on to callees, the lighter rest is exclusive', () => {
    for (const m of html.matchAll(/<path class="sankey-link[^"]*" d="([^"]*)"/g))
      assert.match(m[1]!, /^M.*Z$/, 'a closed outline');
    const callers = new Set(fixture.links.map(l => l.source));
    assert.equal(count(html, /class="sankey-node-calls"/), callers.size);
    assert.match(
      html,
      /data-node="heat\/libstencil.so"[^>]*><rect class="sankey-node-rect"[^>]*fill-opacity="0.42"[^>]*><\/rect><rect class="sankey-node-focus"/,
      'a leaf is all exclusive',
    );
    const part = (id: string, cls: string): number =>
      Number(html.match(new RegExp(`data-node="${id}"[^>]*>.*?<rect class="${cls}"[^>]*height="([0-9.]+)"`))![1]);
    const halo = 'heat/libhalo.so';
    // libhalo.so: 21.7 s inclusive, of which 19.1 s go on to libminimpi.so.
    assert.ok(Math.abs(part(halo, 'sankey-node-calls') / part(halo, 'sankey-node-rect') - 19.1 / 21.7) < 1e-6);
  });

  test('the SVG has the given size', () => {
    assert.match(html, /<svg class="sankey-svg"[^>]* width="1100" height="640" viewBox="0 0 1100 640"/);
  });

  test('the chart states what it drew as data attributes (what the tests and screenshot scripts read)', () => {
    assert.match(
      html,
      new RegExp(`class="sankey-chart" data-nodes="${fixture.nodes.length}" data-links="${fixture.links.length}"`),
    );
    const empty = render({ ...fixture, nodes: [], links: [], total: 0 });
    assert.match(empty, /data-nodes="0" data-links="0"/);
    const marked = renderToStaticMarkup(
      <SankeyView
        data={fixture}
        width={1100}
        height={640}
        colors={fallbackThemeColors('dark')}
        measureText={estimateText}
        revealedIds={['heat/libhalo.so']}
      />,
    );
    assert.match(marked, /data-node="heat\/libhalo.so" data-revealed="true"/);
    assert.equal(count(marked, /data-revealed="true"/), 1);
  });

  test('labels contain module names and formatted values', () => {
    const labels = labelTexts(html);
    assert.equal(labels.length, fixture.nodes.length);
    assert.ok(labels.includes('libstencil.so\n48.2 s · 58.3%'), labels.join(' | '));
    assert.ok(labels.includes('libhalo.so\n21.7 s · 26.2%'));
    assert.ok(labels.includes('heat\n82.7 s · 100%'));
    assert.ok(labels.includes('heat\n900 ms · 1.1%'), 're-entered module, sub-second value');
    for (const n of fixture.nodes)
      assert.ok(
        labels.some(l => l.startsWith(n.label + '\n')),
        n.label,
      );
  });

  test('the header shows title, metric, unit, total and counts', () => {
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    assert.match(header, /heat2d · 64 MPI ranks/);
    assert.match(header, /Wall time \(mean over ranks\)/);
    assert.match(header, /\(s\)/);
    assert.match(header, /<dt>Total<\/dt><dd>82.7 s<\/dd>/);
    assert.match(header, /<dt>Modules<\/dt><dd>9<\/dd>/);
    assert.match(header, /<dt>Calls<\/dt><dd>8<\/dd>/);
    assert.match(header, /Share of total/);
  });

  test('nodes are focusable buttons with descriptive labels', () => {
    assert.equal(count(html, /<g[^>]*class="sankey-node[^"]*"[^>]*tabindex="0" role="button"/), fixture.nodes.length);
    assert.match(
      html,
      /aria-label="libhalo.so: 21.7 s inclusive, 26.2% of total, 2.6 s exclusive, imbalance 1.42×. Entry halo_exchange, src\/halo\/halo.c:41. Press Enter to open the source."/,
    );
    // libc has no source location: disabled, and it says so.
    assert.match(html, /aria-disabled="true" aria-label="libc.so.6: [^"]*source location unknown."/);
    assert.match(
      html,
      /<svg class="sankey-svg"[^>]*role="group" aria-label="Module call flow of heat2d · 64 MPI ranks: 9 modules, 8 calls/,
    );
  });

  test('nodes are coloured on the heat scale: the root is the hottest', () => {
    const colors = fallbackThemeColors('dark');
    const fillOf = (id: string): string =>
      html.match(new RegExp(`data-node="${id}"[^>]*>\\s*<rect[^>]*fill="(#[0-9a-f]{6})"`))![1]!;
    assert.equal(fillOf('heat'), colors.heat[colors.heat.length - 1]);
    assert.notEqual(fillOf('heat/libstencil.so'), fillOf('heat/libminimpi.so/heat'));
  });

  test('no tooltip before any hover', () => {
    assert.match(html, /<div class="sankey-tooltip" role="tooltip" aria-hidden="true"><\/div>/);
  });

  test('counts use k/M without a unit', () => {
    const counts: CallflowData = {
      ...fixture,
      metric: { name: 'PAPI_L2_TCM', unit: '' },
      total: 339_000_000,
      nodes: fixture.nodes.map(n => ({ ...n, inclusive: n.inclusive * 4.1e6 })),
    };
    const labels = labelTexts(render(counts));
    assert.ok(labels.includes('libstencil.so\n198M · 58.3%'), labels.join(' | '));
    assert.ok(labels.includes('heat\n3.69M · 1.1%'));
  });

  test('an empty graph shows a message instead of an SVG', () => {
    const empty = render({ ...fixture, nodes: [], links: [], total: 0 });
    assert.equal(count(empty, /<svg class="sankey-svg/), 0);
    assert.match(empty, /No call flow to show/);
    assert.match(empty, /<dt>Modules<\/dt><dd>0<\/dd>/);
    assert.doesNotMatch(empty, /Share of total/, 'no legend without nodes');
  });

  test('without a size nothing is drawn until the panel is measured', () => {
    const unsized = render(fixture, {});
    assert.equal(count(unsized, /<svg class="sankey-svg/), 0);
    assert.match(unsized, /<header class="sankey-header"/);
    assert.match(unsized, /<div class="sankey-chart" data-title="[^"]*">/, 'no drawn counts while not measured');
  });

  test('links that cannot be drawn are not drawn, and the header says so', () => {
    const broken = render({ ...fixture, links: [...fixture.links, { source: 'heat', target: 'missing', value: 1 }] });
    assert.equal(count(broken, /<path class="sankey-link/), fixture.links.length);
    assert.match(broken, /<dt>Calls<\/dt><dd>8<span class="sankey-dropped"[^>]*> \+1 hidden<\/span>/);
  });

  test('text from the profile is escaped', () => {
    const evil = render({
      ...fixture,
      title: '<img src=x onerror=alert(1)>',
      nodes: fixture.nodes.map(n => (n.id === 'heat' ? { ...n, label: '<b>heat</b>' } : n)),
    });
    assert.doesNotMatch(evil, /<img src=x/);
    assert.doesNotMatch(evil, /<b>heat<\/b>/);
    assert.match(evil, /&lt;b&gt;heat&lt;\/b&gt;/);
  });
});
