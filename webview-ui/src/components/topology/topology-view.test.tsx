/** @jsxRuntime automatic */
/**
 * Render tests of the topology component on the sizes the three panels must handle: a 2-socket
 * 64-core machine (256 PUs), the 72-node CODES dragonfly and a 1,056-router one, a DGX-1. Every drawn
 * mark is at least the minimum size, labels never overlap and lie inside their mark (or the drawing),
 * graph boxes do not overlap unless one frames the other, and the facts the view writes match what
 * it drew.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  DRAGONFLY_1056,
  dgxViewData,
  dragonflyViewData,
  machineViewData,
} from '../../../../src/analysis/topology/testing/topology-fixtures';
import { DFDALLY_72 } from '../../../../src/analysis/topology/dragonfly';
import type { TopologyLayout, TopologyViewData, TopologyViewEvent } from '../../../../src/shared/topology-protocol';
import { estimateText } from '../../text-measure';
import {
  applyDrillDown,
  layoutTopology,
  NO_DRILL_DOWN,
  topologyNodeOfId,
  topologyRegions,
  TopologyView,
  type TopologyLayoutResult,
} from './index';
import { arcSize, boxCorners, boxesOverlap, inArc, inRect, MIN_MARK, type MarkGeom } from './topology-geometry';

const W = 900,
  H = 620;

interface Case {
  name: string;
  layout: TopologyLayout;
  data: TopologyViewData;
  /** Least number of labels a readable drawing of it has. */
  minLabels: number;
}

const machine = machineViewData(2, 64, 2);
const df1056 = dragonflyViewData(DRAGONFLY_1056, { omitKinds: ['terminal'], hotGroup: 5 });
/** The aggregate of group 6's routers (ids are topology node indices: `a<group node>:router`). */
const group6 = df1056.nodes.find(n => n.label === 'group 6')!;
const routersOf6 = df1056.nodes.find(n => n.parent === group6.id && n.aggregate)!.id;
const cases: Case[] = [
  { name: '2 × 64-core machine, sunburst', layout: 'sunburst', data: machine, minLabels: 5 },
  { name: '2 × 64-core machine, icicle', layout: 'icicle', data: machine, minLabels: 5 },
  { name: '72-node CODES dragonfly', layout: 'dragonfly', data: dragonflyViewData(DFDALLY_72), minLabels: 9 },
  {
    name: '1,056-router dragonfly',
    layout: 'dragonfly',
    data: df1056,
    minLabels: 33,
  },
  {
    name: '1,056-router dragonfly, group 6 drilled into',
    layout: 'dragonfly',
    data: dragonflyViewData(DRAGONFLY_1056, { omitKinds: ['terminal'], hotGroup: 5, expand: [routersOf6] }),
    minLabels: 33,
  },
  { name: 'DGX-1 host and GPUs', layout: 'graph', data: dgxViewData('dgx-1').data, minLabels: 9 },
];

function laidOut(c: Case, width = W, height = H): TopologyLayoutResult {
  return layoutTopology(c.data, c.layout, width, height, estimateText);
}

const markSize = (g: MarkGeom) => (g.kind === 'arc' ? arcSize(g) : Math.min(g.w, g.h));
const inside = (g: MarkGeom, p: [number, number]) => (g.kind === 'arc' ? inArc(g, p, 1) : inRect(g, p, 1));

describe('topology view layouts', () => {
  for (const c of cases)
    describe(c.name, () => {
      const r = laidOut(c);

      test('draws marks of at least the minimum size, inside the drawing', () => {
        assert.ok(r.marks.length > 0, 'draws something');
        for (const m of r.marks) {
          assert.ok(markSize(m.geom) >= MIN_MARK - 1e-9, `${m.node.id} is ${markSize(m.geom)} px`);
          if (m.geom.kind === 'rect') {
            assert.ok(m.geom.x >= -0.5 && m.geom.x + m.geom.w <= W + 0.5, `${m.node.id} leaves the width`);
            assert.ok(m.geom.y >= -0.5 && m.geom.y + m.geom.h <= H + 0.5, `${m.node.id} leaves the height`);
          } else {
            assert.ok(
              m.geom.cx - m.geom.r1 >= -0.5 && m.geom.cx + m.geom.r1 <= W + 0.5,
              `${m.node.id} leaves the width`,
            );
            assert.ok(
              m.geom.cy - m.geom.r1 >= -0.5 && m.geom.cy + m.geom.r1 <= H + 0.5,
              `${m.node.id} leaves the height`,
            );
          }
        }
        // Everything in the data is drawn or counted as too small (the dragonfly's network root is the circle itself).
        const drawable = c.data.nodes.filter(n => c.layout !== 'dragonfly' || n.parent !== null).length;
        assert.equal(r.marks.length + r.hidden, drawable);
      });

      test('labels never overlap, fit their mark and stay in the drawing', () => {
        assert.ok(r.labels.length >= c.minLabels, `${r.labels.length} labels, expected ≥ ${c.minLabels}`);
        const geomOf = new Map(r.marks.map(m => [m.node.id, m.geom]));
        for (let i = 0; i < r.labels.length; i++) {
          const a = r.labels[i]!;
          assert.ok(a.box.w >= estimateText(a.text, a.style), `label of ${a.of} narrower than its text`);
          for (const [x, y] of boxCorners(a.box))
            assert.ok(x >= -1 && x <= W + 1 && y >= -1 && y <= H + 1, `label of ${a.of} leaves the drawing`);
          if (a.inside) {
            const g = geomOf.get(a.of);
            assert.ok(g, `label of ${a.of} names a drawn mark`);
            for (const p of boxCorners(a.box)) assert.ok(inside(g, p), `label "${a.text}" leaves its mark ${a.of}`);
          }
          for (let j = i + 1; j < r.labels.length; j++) {
            const b = r.labels[j]!;
            assert.ok(!boxesOverlap(a.box, b.box), `labels "${a.text}" (${a.of}) and "${b.text}" (${b.of}) overlap`);
          }
        }
      });

      test('links are drawn at least 1 px wide', () => {
        for (const cu of r.curves) assert.ok(cu.width >= 1, `${cu.link.id} is ${cu.width} px`);
        if (c.data.links.length) assert.ok(r.curves.length + r.bars.length > 0, 'draws links');
      });
    });

  test('graph boxes do not overlap unless one frames the other', () => {
    const c = cases.find(x => x.layout === 'graph')!;
    const r = laidOut(c);
    const parentOf = new Map(c.data.nodes.map(n => [n.id, n.parent]));
    const encloses = (outer: string, inner: string) => {
      for (let p = parentOf.get(inner); p; p = parentOf.get(p)) if (p === outer) return true;
      return false;
    };
    const rects = r.marks.filter(m => m.geom.kind === 'rect');
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!,
          b = rects[j]!;
        if (encloses(a.node.id, b.node.id) || encloses(b.node.id, a.node.id)) continue;
        const ga = a.geom as Extract<MarkGeom, { kind: 'rect' }>,
          gb = b.geom as Extract<MarkGeom, { kind: 'rect' }>;
        const apart = ga.x + ga.w <= gb.x || gb.x + gb.w <= ga.x || ga.y + ga.h <= gb.y || gb.y + gb.h <= ga.y;
        assert.ok(apart, `${a.node.id} and ${b.node.id} overlap`);
      }
    // Eight GPUs, each at least 44 px wide and readable.
    const gpus = rects.filter(m => m.node.kind === 'gpu');
    assert.equal(gpus.length, 8);
    for (const g of gpus) assert.ok((g.geom as { w: number }).w >= 44);
  });

  test('a small view still draws the 1,056-router dragonfly without overlap, hiding what cannot fit', () => {
    const c = cases[3]!;
    const r = laidOut(c, 320, 240);
    assert.ok(r.marks.length > 0);
    for (const m of r.marks) assert.ok(markSize(m.geom) >= MIN_MARK - 1e-9);
    for (let i = 0; i < r.labels.length; i++)
      for (let j = i + 1; j < r.labels.length; j++) assert.ok(!boxesOverlap(r.labels[i]!.box, r.labels[j]!.box));
  });

  test('drilling into a group draws its routers one by one', () => {
    const collapsed = laidOut(cases[3]!);
    const expanded = laidOut(cases[4]!);
    assert.equal(topologyNodeOfId(routersOf6), group6.index);
    const routers = expanded.marks.filter(m => m.node.parent === group6.id);
    assert.equal(routers.length, 32);
    assert.ok(routers.every(m => !m.node.aggregate && m.node.kind === 'router'));
    assert.ok(expanded.marks.length > collapsed.marks.length);
  });
});

const attr = (html: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`).exec(html)?.[1];
const count = (html: string, re: RegExp): number => html.match(new RegExp(re.source, 'g'))?.length ?? 0;

describe('TopologyView', () => {
  for (const c of cases)
    test(`${c.name}: the facts match what it drew`, () => {
      const html = renderToStaticMarkup(<TopologyView data={c.data} layout={c.layout} width={W} height={H} />);
      assert.equal(attr(html, 'data-topology-layout'), c.layout);
      const nodes = Number(attr(html, 'data-nodes-drawn'));
      assert.ok(nodes > 0);
      assert.equal(count(html, /data-node="/), nodes);
      assert.equal(count(html, /data-link="/), Number(attr(html, 'data-links-drawn')));
      assert.equal(count(html, /data-label-of="/), Number(attr(html, 'data-labels-drawn')));
      assert.equal(Number(attr(html, 'data-aggregates')), count(html, /class="topology-mark[^"]*is-aggregate/));
      // The drawing and the legend share the box given.
      const regions = topologyRegions(W, H, { toolbar: true, legend: true, compact: false });
      assert.ok(html.includes(`width="${regions.svg.width}"`));
    });

  test('trees get a Sunburst | Icicle toggle; the dragonfly and graph do not', () => {
    assert.match(renderToStaticMarkup(<TopologyView data={machine} width={W} height={H} />), /Icicle/);
    assert.doesNotMatch(renderToStaticMarkup(<TopologyView data={cases[2]!.data} width={W} height={H} />), /Icicle/);
  });

  test('selected and highlighted marks are marked, and written as facts', () => {
    const data = cases[2]!.data;
    const router = data.nodes.find(n => n.kind === 'router')!;
    const group = data.nodes.find(n => n.kind === 'group')!;
    const html = renderToStaticMarkup(
      <TopologyView data={data} width={W} height={H} selected={[router.id]} highlighted={[group.id]} />,
    );
    assert.equal(attr(html, 'data-selected'), router.id);
    assert.equal(attr(html, 'data-highlighted'), group.id);
    assert.match(html, new RegExp(`class="topology-mark[^"]*is-selected[^"]*" data-node="${router.id}"`));
    assert.match(html, new RegExp(`class="topology-mark[^"]*is-highlighted[^"]*" data-node="${group.id}"`));
  });

  test('compact draws marks only: no toolbar, legend, footnote or labels', () => {
    const html = renderToStaticMarkup(<TopologyView data={machine} width={64} height={64} compact />);
    assert.equal(attr(html, 'data-labels-drawn'), '0');
    assert.doesNotMatch(html, /topology-footnote|topology-legend|topology-toolbar/);
    assert.ok(Number(attr(html, 'data-nodes-drawn')) > 0);
  });

  test('a value colour is written in style, and marks without a value are not filled by one', () => {
    const html = renderToStaticMarkup(<TopologyView data={machine} width={W} height={H} />);
    assert.match(html, /class="topology-mark-shape"[^>]*style="fill:(rgb|#)/);
    const none = renderToStaticMarkup(<TopologyView data={machine} width={W} height={H} colourMeasure={-1} />);
    assert.doesNotMatch(none, /class="topology-mark-shape"[^>]*style="fill:/);
  });
});

describe('topology view events and drill-down state', () => {
  test('mark ids name topology nodes; aggregates the node they are folded under', () => {
    assert.equal(topologyNodeOfId('n12'), 12);
    assert.equal(topologyNodeOfId('a3:router'), 3);
    assert.equal(topologyNodeOfId('n4~n9:G'), -1);
    assert.equal(topologyNodeOfId('x'), -1);
  });

  test('expand and collapse fold into the next request; hover and select leave it', () => {
    const expand: TopologyViewEvent = { type: 'topology/expand', mark: 'a6:router' };
    let s = applyDrillDown(NO_DRILL_DOWN, expand);
    assert.deepEqual(s, { expand: ['a6:router'], collapse: [] });
    assert.equal(applyDrillDown(s, expand).expand.length, 1, 'expanding twice adds once');
    s = applyDrillDown(s, { type: 'topology/collapse', mark: 'a6:router' });
    assert.deepEqual(s, { expand: [], collapse: ['a6:router'] });
    s = applyDrillDown(s, { type: 'topology/expand', mark: 'a6:router' });
    assert.deepEqual(s, { expand: ['a6:router'], collapse: [] });
    const hover: TopologyViewEvent = { type: 'topology/hover', mark: 'n3', node: 3, link: null };
    assert.equal(applyDrillDown(s, hover), s);
    assert.equal(applyDrillDown(s, { type: 'topology/select', marks: [], nodes: [] }), s);
    assert.deepEqual(NO_DRILL_DOWN, { expand: [], collapse: [] }, 'the empty state is not changed');
  });
});
