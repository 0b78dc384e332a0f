/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { readProfile } from '../../../../src/analysis/formats';
import { superGraphData } from '../../../../src/analysis/graph/super-graph-data';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { sharedPath, skipUnlessShared } from '../../../../test/support/shared-data';
import { estimateText } from '../../text-measure';
import { fallbackThemeColors } from '../../theme';
import { SankeyView } from './sankey-view';
import heatStencil from './fixtures/heat-stencil.json';
import { kernelColumns } from './fixtures/kernel-columns';

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

type Box = { id: string; x: number; y: number; w: number; h: number };
const num = (m: RegExpMatchArray, i: number) => Number(m[i]);

/** The drawn bars (layout coordinates) and label chips, read from the rendered SVG. */
function drawnBoxes(html: string): {
  bars: Box[];
  labels: Box[];
  svg: { w: number; h: number };
  facts: Record<string, string>;
} {
  const bars = [
    ...html.matchAll(
      /<g class="sankey-node[^"]*" data-node="([^"]+)".*?<rect class="sankey-node-rect[^"]*" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/g,
    ),
  ].map(m => ({ id: m[1]!, x: num(m, 2), y: num(m, 3), w: num(m, 4), h: num(m, 5) }));
  const labels = [
    ...html.matchAll(
      /<g class="sankey-label[^"]*" data-label-node="([^"]+)"><rect class="sankey-label-bg" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"/g,
    ),
  ].map(m => ({ id: m[1]!, x: num(m, 2), y: num(m, 3), w: num(m, 4), h: num(m, 5) }));
  const svg = html.match(/<svg class="sankey-svg"[^>]* width="([^"]+)" height="([^"]+)"/)!;
  const chart = html.match(/<div class="sankey-chart"([^>]*)>/)![1]!;
  const facts = Object.fromEntries([...chart.matchAll(/data-([a-z-]+)="([^"]*)"/g)].map(m => [m[1]!, m[2]!]));
  return { bars, labels, svg: { w: num(svg, 1), h: num(svg, 2) }, facts };
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

/** The readable layout's promises (issue 15): bars ≥ 4 px and apart, labels apart and inside, every node drawn or merged. */
function assertReadable(data: CallflowData, html: string): ReturnType<typeof drawnBoxes> {
  const d = drawnBoxes(html);
  const more = Number(d.facts['more']),
    merged = Number(d.facts['merged']);
  assert.equal(d.bars.length, Number(d.facts['nodes']), 'one bar per drawn node');
  assert.equal(d.bars.length - more + merged, data.nodes.length, 'every node is drawn or merged into a "more" bar');
  for (const b of d.bars) assert.ok(b.h >= 4 - 1e-9, `${b.id} is ${b.h} px tall`);
  for (let i = 0; i < d.bars.length; i++)
    for (let j = i + 1; j < d.bars.length; j++)
      assert.ok(!overlap(d.bars[i]!, d.bars[j]!), `bars ${d.bars[i]!.id} and ${d.bars[j]!.id} overlap`);
  for (let i = 0; i < d.labels.length; i++) {
    const a = d.labels[i]!;
    assert.ok(
      a.x >= -0.5 && a.x + a.w <= d.svg.w + 0.5 && a.y >= -0.5 && a.y + a.h <= d.svg.h + 0.5,
      `${a.id}'s label leaves the drawing`,
    );
    for (let j = i + 1; j < d.labels.length; j++)
      assert.ok(!overlap(a, d.labels[j]!), `labels of ${a.id} and ${d.labels[j]!.id} overlap`);
  }
  return d;
}

/** A module node of a synthetic graph. */
const moduleNode = (id: string, inclusive: number, exclusive: number, total: number): CallflowNodeData => ({
  id,
  label: `lib${id}.so`,
  module: id,
  inclusive,
  exclusive,
  share: inclusive / total,
  imbalance: 1,
  entry: { name: `${id}_main`, file: null, line: null },
});

/** `roots` modules calling `perRoot` modules each, of Zipf-like weights: the last column holds roots × perRoot nodes. */
function wideGraph(roots: number, perRoot: number): CallflowData {
  const kids = Array.from({ length: roots }, (_, r) =>
    Array.from({ length: perRoot }, (_, k) => ({ id: `r${r}k${k}`, value: (10 * (r + 1)) / (k + 1) })),
  );
  const rootValue = kids.map(ks => ks.reduce((s, k) => s + k.value, 0) * 1.05);
  const total = rootValue.reduce((a, b) => a + b, 0);
  return {
    title: `${roots} × ${perRoot}`,
    metric: { name: 'time', unit: 's' },
    total,
    nodes: [
      ...rootValue.map((v, r) => moduleNode(`r${r}`, v, v / 21, total)),
      ...kids.flat().map(k => moduleNode(k.id, k.value, k.value, total)),
    ],
    links: kids.flatMap((ks, r) => ks.map(k => ({ source: `r${r}`, target: k.id, value: k.value }))),
  };
}

describe('SankeyView at 60+ nodes per column (issue 15)', () => {
  test('70 callees of one root: the lightest merge into a "more" bar; bars ≥ 4 px, nothing overlaps, the root keeps its height', () => {
    const data = wideGraph(1, 70);
    for (const size of [
      { width: 1100, height: 640 },
      { width: 700, height: 420 },
    ]) {
      const html = render(data, size);
      const d = assertReadable(data, html);
      assert.equal(Number(d.facts['more']), 1, 'one "more" bar');
      assert.ok(Number(d.facts['merged']) >= 70 - 30, `${d.facts['merged']} merged`);
      assert.match(html, /lightest nodes merged into 1 “more” bar/);
      // Padding never eats the scale (at most a third of the height): the root is most of the drawing.
      const root = d.bars.find(b => b.id === 'r0')!;
      assert.ok(root.h >= size.height / 2, `the root is ${root.h} px tall in ${size.height} px`);
      assert.ok(d.labels.length >= 10, `${d.labels.length} labels`);
      assert.ok(
        d.labels.some(l => l.id === 'r0'),
        'the root is labelled',
      );
    }
  });

  test('4 callers of 20 modules each (80 in the last column): every caller and the heaviest callees stay labelled', () => {
    const data = wideGraph(4, 20);
    const html = render(data);
    const d = assertReadable(data, html);
    assert.ok(Number(d.facts['more']) >= 1);
    for (let r = 0; r < 4; r++)
      assert.ok(
        d.labels.some(l => l.id === `r${r}`),
        `r${r} labelled`,
      );
    assert.ok(
      d.labels.some(l => l.id === 'r3k0'),
      'the heaviest callee is labelled',
    );
  });

  test('a last column of very long CUDA kernel names beside a labelled runtime column: labels apart, names truncated', () => {
    const data = kernelColumns(3, 40);
    for (const size of [
      { width: 1240, height: 460 },
      { width: 800, height: 360 },
    ]) {
      const html = render(data, size);
      const d = assertReadable(data, html);
      assert.ok(
        d.labels.some(l => l.id === 'rt0'),
        'cudaLaunchKernel is labelled',
      );
      assert.ok(
        d.labels.some(l => l.id === 'k0'),
        'the heaviest kernel is labelled',
      );
      assert.match(html, /implicit_convolve_sgemm&lt;float, float, 128,[^<]*…</, 'its name is truncated');
    }
  });

  const raja = 'data/caliper-json/rajaperf-quartz-seq-ensemble/gcc10.3.1_2097152/O3/1/Base_Seq-default.json';
  test(
    "RAJAPerf (one real run, 60 kernels in a column) at the panel's usual sizes",
    { skip: skipUnlessShared(raja) },
    async () => {
      const p = await readProfile(sharedPath(raja));
      const data = superGraphData(p, 'rajaperf', {});
      assert.ok(data.nodes.length >= 60, `${data.nodes.length} supernodes`);
      for (const size of [
        { width: 1280, height: 800 },
        { width: 900, height: 500 },
      ]) {
        const d = assertReadable(data, render(data, size));
        assert.ok(Number(d.facts['more']) >= 1, 'the lightest kernels merge');
        assert.ok(d.labels.length >= 12, `${d.labels.length} labels at ${size.width}×${size.height}`);
      }
    },
  );
});
