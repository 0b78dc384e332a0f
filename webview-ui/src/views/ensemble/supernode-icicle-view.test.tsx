/** @jsxRuntime automatic */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import type { EnsembleRequest, HierarchyNodeData } from '../../../../src/shared/ensemble-protocol';
import {
  activateCallSite,
  revealPath,
  icicleClickAction,
  icicleKeyAction,
  icicleLayout,
  SupernodeIcicleView,
} from './supernode-icicle-view';
import { detailFixture, FIXTURE_BINS } from './testing/detail-fixture';

const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

function render(f: ReturnType<typeof detailFixture>, width = 600, height = 260) {
  return renderToStaticMarkup(
    <SupernodeIcicleView
      data={f.data}
      state={f.state}
      detail={f.detail}
      width={width}
      height={height}
      onRequest={() => undefined}
      onOpenSource={() => undefined}
    />,
  );
}

const node = (parent: number, maxInclusive: number, name = `n${parent}`): HierarchyNodeData => ({
  parent,
  name,
  file: null,
  line: null,
  kind: 'function',
  maxInclusive,
  maxExclusive: maxInclusive / 2,
  gradient: { min: 0, max: maxInclusive, counts: [1] },
  present: 1,
  function: name,
});

describe('icicle layout', () => {
  test('children lie inside their parent and their widths sum to at most the parent width', () => {
    const f = detailFixture({ runs: 30, callSites: 40 });
    const nodes = f.detail.hierarchy.nodes;
    const { bars } = icicleLayout(nodes, 800, 0);
    nodes.forEach((n, i) => {
      const kids = nodes.flatMap((c, k) => (c.parent === i ? [bars[k]!] : []));
      if (!kids.length) return;
      const p = bars[i]!;
      const sum = kids.reduce((s, b) => s + b.width, 0);
      assert.ok(sum <= p.width + 1e-9, `children of ${n.name} sum to ${sum} > ${p.width}`);
      for (const b of kids) {
        assert.ok(
          b.x >= p.x - 1e-9 && b.x + b.width <= p.x + p.width + 1e-9,
          `${nodes[b.index]!.name} leaves its parent`,
        );
        assert.equal(b.depth, p.depth + 1);
      }
    });
    const roots = bars.filter((_, i) => nodes[i]!.parent === -1);
    assert.ok(Math.abs(roots.reduce((s, b) => s + b!.width, 0) - 800) < 1e-6, 'the roots fill the width');
  });

  test('widths follow max inclusive; children whose maxima overflow the parent are scaled to fit it', () => {
    // CallFlow's example (AT-14's numbers): parent max 40, children maxima 20, 10, 35 from different runs.
    const nodes = [node(-1, 40, 'LIB1'), node(0, 20, 'a'), node(0, 10, 'b'), node(0, 35, 'c'), node(-1, 60, 'other')];
    const { bars, depth } = icicleLayout(nodes, 1000);
    assert.equal(depth, 2);
    assert.equal(bars[0]!.width, 400);
    assert.equal(bars[4]!.width, 600);
    const kids = [bars[1]!, bars[2]!, bars[3]!];
    assert.ok(Math.abs(kids.reduce((s, b) => s + b.width, 0) - 400) < 1e-9, 'scaled to exactly the parent');
    assert.ok(Math.abs(kids[0]!.width / kids[1]!.width - 2) < 1e-9, 'still in proportion');
    // Heaviest first, from the parent's left edge.
    assert.equal(kids[2]!.x, bars[0]!.x);
    // Children that fit keep the parent's scale (px per unit).
    const fit = icicleLayout([node(-1, 40), node(0, 10)], 400).bars;
    assert.equal(fit[1]!.width, 100);
  });

  test('bars narrower than the minimum are not drawn and counted', () => {
    const nodes = [node(-1, 1000), node(0, 0.1), node(-1, 0)];
    const l = icicleLayout(nodes, 100);
    assert.equal(l.bars[1], null);
    assert.equal(l.bars[2], null);
    assert.equal(l.hidden, 2);
  });
});

describe('icicle view', () => {
  test('one bar per call site with a horizontal histogram gradient and a border', () => {
    const f = detailFixture({ runs: 20, callSites: 10 });
    const html = render(f);
    const drawn = icicleLayout(f.detail.hierarchy.nodes, 600 - 16).bars.filter(b => b).length;
    assert.match(html, new RegExp(`data-ensemble-view="icicle" data-drawn="${drawn}"`));
    assert.equal(count(html, /class="ensemble-icicle-bar[ "]/), drawn);
    assert.equal(count(html, /<linearGradient [^>]*x1="0" x2="1" y1="0" y2="0"/), drawn);
    assert.equal(count(html, /<stop /), drawn * FIXTURE_BINS);
    assert.equal(count(html, /fill="url\(#/), drawn);
    assert.equal(count(html, /is-missing/), 0, 'nothing is missing outside target mode');
  });

  test('in target mode call sites missing in the target are unfilled with a dashed outline', () => {
    const f = detailFixture({ runs: 20, callSites: 10, mode: 'target', missingInTarget: [4] });
    const nodes = f.detail.hierarchy.nodes;
    const missing = nodes.filter(n => n.inTarget === false).length;
    assert.ok(missing >= 1 && missing < nodes.length);
    const html = render(f);
    assert.equal(count(html, /class="ensemble-icicle-bar is-missing/), missing);
    assert.equal(count(html, /fill="none"[^>]*stroke-dasharray="4 3"/), missing);
    assert.equal(count(html, /fill="url\(#/), nodes.length - missing);
    assert.equal(
      count(html, /class="ensemble-target-line"/),
      nodes.length - missing,
      'a target line on every present call site',
    );
    // The same data outside target mode: everything filled.
    const summary = render({ ...f, state: { ...f.state, mode: 'summary' } });
    assert.equal(count(summary, /fill="none"/), 0);
    assert.equal(count(summary, /ensemble-target-line/), 0);
  });

  test('says how many call sites the host left out', () => {
    const html = render(detailFixture({ callSites: 5, truncated: { hierarchy: 7 } }));
    assert.match(html, /7 call sites not shown/);
  });

  test('labels are clipped to their bar', () => {
    const nodes = [node(-1, 100, 'a_very_long_function_name_that_cannot_fit'), node(-1, 1, 'tiny')];
    const f = detailFixture({ callSites: 2 });
    const html = render({ ...f, detail: { ...f.detail, hierarchy: { nodes, truncated: 0, countScale: 1 } } }, 216);
    assert.match(html, /a_very_long_function…<\/text>|a_very_long_fun[a-z_]*…<\/text>/);
    assert.doesNotMatch(html, />tiny</, 'no label on a 2-pixel bar');
  });
});

describe('icicle interactions', () => {
  test('click reveals in the Sankey; alt-click, double-click and shift+Enter open the source', () => {
    assert.equal(icicleClickAction({ altKey: false, detail: 1 }), 'reveal');
    assert.equal(icicleClickAction({ altKey: true, detail: 1 }), 'open');
    assert.equal(icicleClickAction({ altKey: false, detail: 2 }), 'open');
    assert.equal(icicleKeyAction({ key: 'Enter', altKey: false, shiftKey: false }), 'reveal');
    assert.equal(icicleKeyAction({ key: 'Enter', altKey: false, shiftKey: true }), 'open');
    assert.equal(icicleKeyAction({ key: 'a', altKey: false, shiftKey: false }), null);

    const requests: EnsembleRequest[] = [];
    const opened: unknown[][] = [];
    // solve → kernel → (a loop of kernel) → smooth, as the hierarchy sends it (parents first).
    const nodes: HierarchyNodeData[] = [
      node(-1, 9, 'solve'),
      node(0, 8, 'kernel'),
      { ...node(1, 7, 'Loop@kernel.c:10'), kind: 'loop', function: 'kernel' },
      node(0, 1, 'other'),
      { ...node(2, 3, 'smooth'), file: 'src/smooth.c', line: 12 },
      { ...node(2, 2, 'bare'), file: null },
    ];
    const act = (how: 'reveal' | 'open', index: number) =>
      activateCallSite(
        how,
        nodes,
        index,
        'solver',
        r => requests.push(r),
        (...a) => opened.push(a),
      );
    act('reveal', 4);
    act('open', 4);
    act('open', 5);
    act('reveal', 1);
    // The call site with the functions on its path below the entry (the supernode's own bar): the chain shows.
    assert.deepEqual(requests, [
      { type: 'ensemble/reveal', nodeId: 'solver', function: 'smooth', via: ['kernel'] },
      { type: 'ensemble/reveal', nodeId: 'solver', function: 'kernel' },
    ]);
    assert.deepEqual(revealPath(nodes, 0), []);
    assert.deepEqual(opened, [[{ kind: 'hierarchy', index: 4 }]], 'no source to open without a file');
  });
});
