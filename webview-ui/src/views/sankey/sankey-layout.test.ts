import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { DEFAULT_MARGIN, layoutSankey } from './sankey-layout';
import type { SankeyLayout } from './sankey-layout';
import heatStencil from './fixtures/heat-stencil.json';

const fixture: CallflowData = heatStencil;

function node(id: string, inclusive: number, extra: Partial<CallflowNodeData> = {}): CallflowNodeData {
  return {
    id,
    label: id,
    module: id,
    inclusive,
    exclusive: inclusive,
    share: 0,
    imbalance: 1,
    entry: { name: `${id}_main`, file: null, line: null },
    ...extra,
  };
}

function graph(nodes: CallflowNodeData[], links: CallflowData['links'] = []): CallflowData {
  return { title: 't', metric: { name: 'time', unit: 's' }, total: 1, nodes, links };
}

/** Every coordinate finite, every node inside the box with positive size. */
function assertInside(layout: SankeyLayout, width: number, height: number): void {
  for (const n of layout.nodes) {
    for (const v of [n.x0, n.x1, n.y0, n.y1]) assert.ok(Number.isFinite(v), `${n.id}: finite coordinates`);
    assert.ok(n.x0 >= 0 && n.x1 <= width && n.x0 < n.x1, `${n.id}: x ${n.x0}..${n.x1} inside 0..${width}`);
    assert.ok(n.y0 >= 0 && n.y1 <= height && n.y0 < n.y1, `${n.id}: y ${n.y0}..${n.y1} inside 0..${height}`);
  }
  for (const l of layout.links) {
    for (const v of [l.width, l.y0, l.y1]) assert.ok(Number.isFinite(v), `${l.id}: finite`);
    assert.ok(l.width >= 0);
    assert.doesNotMatch(l.path, /NaN|Infinity/, `${l.id}: path ${l.path}`);
    assert.ok(l.path.startsWith('M'), `${l.id}: a path`);
  }
}

describe('layoutSankey on the heat-stencil fixture', () => {
  const width = 1000;
  const height = 600;
  const layout = layoutSankey(fixture, { width, height });

  test('positions every node and link', () => {
    assert.equal(layout.nodes.length, fixture.nodes.length);
    assert.equal(layout.links.length, fixture.links.length);
    assert.equal(layout.droppedLinks, 0);
    assert.deepEqual(new Set(layout.nodes.map(n => n.id)), new Set(fixture.nodes.map(n => n.id)));
  });

  test('every node gets finite coordinates inside the box', () => {
    assertInside(layout, width, height);
    for (const n of layout.nodes) {
      assert.ok(
        n.x0 >= DEFAULT_MARGIN.left - 1e-9 && n.x1 <= width - DEFAULT_MARGIN.right + 1e-9,
        `${n.id} inside the margins`,
      );
    }
  });

  test('columns follow call depth (left aligned)', () => {
    const layer = new Map(layout.nodes.map(n => [n.id, n.layer]));
    assert.equal(layout.columns, 4);
    assert.equal(layer.get('heat'), 0);
    assert.equal(layer.get('heat/libstencil.so'), 1, 'a leaf stays beside its caller');
    assert.equal(layer.get('heat/libhalo.so/libminimpi.so'), 2);
    assert.equal(layer.get('heat/libhalo.so/libminimpi.so/libc.so.6'), 3);
    assert.equal(layer.get('heat/libminimpi.so/heat'), 2, 'a re-entered module is its own node');
    const x = new Map(layout.nodes.map(n => [n.id, n.x0]));
    assert.ok(x.get('heat')! < x.get('heat/libhalo.so')!);
    assert.ok(x.get('heat/libhalo.so')! < x.get('heat/libhalo.so/libminimpi.so')!);
  });

  test('link widths are proportional to values', () => {
    assert.ok(layout.scale > 0);
    for (const l of layout.links) {
      assert.ok(
        Math.abs(l.width - l.value * layout.scale) < 1e-6,
        `${l.id}: width ${l.width} = ${l.value} × ${layout.scale}`,
      );
    }
    const byId = new Map(layout.links.map(l => [l.id, l]));
    const stencil = byId.get('heat→heat/libstencil.so')!;
    const halo = byId.get('heat→heat/libhalo.so')!;
    assert.ok(Math.abs(stencil.width / halo.width - 48.2 / 21.7) < 1e-9);
  });

  test('node heights stand for inclusive values, on the same scale as links', () => {
    for (const n of layout.nodes) {
      assert.ok(Math.abs(n.y1 - n.y0 - n.data.inclusive * layout.scale) < 1e-6, `${n.id}`);
    }
  });

  test('ribbons leave the source node and enter the target node, within both bars', () => {
    for (const l of layout.links) {
      const [mx, my] = l.path.slice(1).split(/[C,]/).map(Number);
      assert.ok(
        Math.abs(mx! - l.source.x1) < 0.01 && Math.abs(my! - l.sourceY0) < 0.01,
        `${l.path} starts at the source's right side`,
      );
      assert.ok(l.path.endsWith('Z'), 'a closed outline');
      assert.ok(l.sourceY0 >= l.source.y0 - 1e-6 && l.sourceY1 <= l.source.y1 + 1e-6, `${l.id} within its source`);
      assert.ok(l.targetY0 >= l.target.y0 - 1e-6 && l.targetY1 <= l.target.y1 + 1e-6, `${l.id} within its target`);
      assert.ok(
        Math.abs(l.y0 - (l.sourceY0 + l.sourceY1) / 2) < 1e-9 && Math.abs(l.y1 - (l.targetY0 + l.targetY1) / 2) < 1e-9,
      );
      assert.equal(l.tapered, false, 'the fixture’s flows fit their nodes');
    }
  });

  test('the exclusive part is what the outgoing calls leave at the bottom of each bar (AT-15)', () => {
    for (const n of layout.nodes) {
      const out = layout.links.filter(l => l.source.id === n.id).reduce((s, l) => s + l.width, 0);
      assert.ok(Math.abs(n.outgoing - out) < 1e-6, n.id);
      assert.ok(out <= n.y1 - n.y0 + 1e-6, `${n.id}: Σ outgoing ≤ height`);
    }
    const halo = layout.nodes.find(n => n.id === 'heat/libhalo.so')!;
    assert.ok(Math.abs((halo.y1 - halo.y0 - halo.outgoing) / layout.scale - 2.6) < 0.05, 'libhalo: 2.6 s exclusive');
  });

  test('the fixture draws without crossings', () => {
    assert.equal(layout.crossings, 0);
  });

  test('the same data laid out again after a change keeps the order of persisting nodes', () => {
    // Split libhalo.so into two entry functions, as the view does on a split.
    const halo = fixture.nodes.find(n => n.id === 'heat/libhalo.so')!;
    const split: CallflowData = {
      ...fixture,
      nodes: fixture.nodes.flatMap(n =>
        n === halo
          ? [
              { ...halo, id: 'heat/libhalo.so-pack', label: 'libhalo.so-pack', inclusive: 2.6, exclusive: 2.6 },
              { ...halo, id: 'heat/libhalo.so-exchange', label: 'libhalo.so-exchange', inclusive: 19.1, exclusive: 0 },
            ]
          : [n],
      ),
      links: fixture.links.flatMap(l =>
        l.target === halo.id
          ? [
              { ...l, target: 'heat/libhalo.so-pack', value: 2.6 },
              { ...l, target: 'heat/libhalo.so-exchange', value: 19.1 },
            ]
          : l.source === halo.id
            ? [{ ...l, source: 'heat/libhalo.so-exchange' }]
            : [l],
      ),
    };
    const next = layoutSankey(split, { width, height, previous: layout });
    const column = (l: SankeyLayout, ids: string[]): string[] =>
      l.nodes.filter(n => n.layer === 1 && ids.includes(n.id)).map(n => n.id);
    const persisting = ['heat/libstencil.so', 'heat/libckpt.so', 'heat/libminimpi.so'];
    assert.deepEqual(column(next, persisting), column(layout, persisting));
    assertInside(next, width, height);
  });

  test('nodes of one column do not overlap', () => {
    for (let layer = 0; layer < layout.columns; layer++) {
      const nodes = layout.nodes.filter(n => n.layer === layer);
      const sorted = [...nodes].sort((a, b) => a.y0 - b.y0);
      for (let i = 1; i < sorted.length; i++)
        assert.ok(sorted[i]!.y0 >= sorted[i - 1]!.y1, `${sorted[i]!.id} below ${sorted[i - 1]!.id}`);
    }
  });

  test('nodes come in tab order: by column, then top to bottom', () => {
    for (let i = 1; i < layout.nodes.length; i++) {
      const a = layout.nodes[i - 1]!;
      const b = layout.nodes[i]!;
      assert.ok(a.layer < b.layer || (a.layer === b.layer && a.y0 <= b.y0));
    }
  });

  test('the layout fits boxes of other sizes; a box too small to be legible makes the drawing taller (the view scrolls)', () => {
    for (const [w, h] of [
      [1600, 900],
      [420, 260],
      [60, 40],
      [1, 1],
    ] as const) {
      const layout = layoutSankey(fixture, { width: w, height: h });
      assert.equal(layout.width, w);
      assert.ok(layout.height >= h, `${layout.height} ≥ ${h}`);
      if (h >= 260) assert.equal(layout.height, h, 'a box of ordinary size is kept');
      assertInside(layout, w, layout.height);
    }
  });
});

describe('layoutSankey edge cases', () => {
  test('an empty graph gives an empty layout', () => {
    const layout = layoutSankey(graph([]), { width: 800, height: 400 });
    assert.deepEqual(layout.nodes, []);
    assert.deepEqual(layout.links, []);
    assert.equal(layout.columns, 0);
  });

  test('an empty box is not an error', () => {
    const layout = layoutSankey(fixture, { width: 0, height: 0 });
    const real = layout.nodes.filter(n => !n.more).length;
    assert.equal(real + layout.merged, fixture.nodes.length, 'every node is drawn or merged into "k more"');
    for (const n of layout.nodes) for (const v of [n.x0, n.x1, n.y0, n.y1]) assert.ok(Number.isFinite(v));
  });

  test('a single node sits at the left, inside the box', () => {
    const layout = layoutSankey(graph([node('heat', 12.3)]), { width: 800, height: 400 });
    assert.equal(layout.nodes.length, 1);
    assert.equal(layout.columns, 1);
    assertInside(layout, 800, 400);
    const [n] = layout.nodes;
    assert.equal(n!.x0, DEFAULT_MARGIN.left);
    assert.ok(n!.y1 - n!.y0 > 100, 'a lone node uses the height');
  });

  test('nodes without links share the first column', () => {
    const layout = layoutSankey(graph([node('a', 3), node('b', 1), node('c', 0)]), { width: 800, height: 400 });
    assert.equal(layout.links.length, 0);
    assert.equal(layout.columns, 1);
    assertInside(layout, 800, 400);
    const byId = new Map(layout.nodes.map(n => [n.id, n]));
    assert.ok(Math.abs((byId.get('a')!.y1 - byId.get('a')!.y0) / (byId.get('b')!.y1 - byId.get('b')!.y0) - 3) < 1e-6);
    assert.ok(byId.get('c')!.y1 - byId.get('c')!.y0 >= 2, 'a zero-valued node stays visible');
  });

  test('zero-valued links are kept with zero width', () => {
    const data = graph(
      [node('a', 5), node('b', 5), node('c', 0)],
      [
        { source: 'a', target: 'b', value: 5 },
        { source: 'a', target: 'c', value: 0 },
      ],
    );
    const layout = layoutSankey(data, { width: 800, height: 400 });
    assert.equal(layout.links.length, 2);
    assertInside(layout, 800, 400);
    const zero = layout.links.find(l => l.target.id === 'c')!;
    assert.equal(zero.width, 0);
    assert.equal(layout.nodes.find(n => n.id === 'c')!.layer, 1, 'a zero link still places its target');
  });

  test('an all-zero graph has finite coordinates', () => {
    const data = graph([node('a', 0), node('b', 0)], [{ source: 'a', target: 'b', value: 0 }]);
    const layout = layoutSankey(data, { width: 500, height: 300 });
    assertInside(layout, 500, 300);
    assert.equal(layout.links[0]!.width, 0);
  });

  test('non-finite and negative values count as zero', () => {
    const data = graph(
      [node('a', Number.NaN), node('b', -4), node('c', Infinity)],
      [
        { source: 'a', target: 'b', value: Number.NaN },
        { source: 'b', target: 'c', value: -1 },
      ],
    );
    const layout = layoutSankey(data, { width: 500, height: 300 });
    assertInside(layout, 500, 300);
    for (const l of layout.links) assert.equal(l.width, 0);
  });

  test('links to unknown nodes, self-loops and cycles are dropped, not thrown', () => {
    const data = graph(
      [node('a', 4), node('b', 3), node('c', 2)],
      [
        { source: 'a', target: 'b', value: 3 },
        { source: 'b', target: 'c', value: 2 },
        { source: 'c', target: 'a', value: 1 },
        { source: 'b', target: 'b', value: 1 },
        { source: 'a', target: 'nowhere', value: 1 },
      ],
    );
    const layout = layoutSankey(data, { width: 600, height: 300 });
    assert.equal(layout.links.length, 2);
    assert.equal(layout.droppedLinks, 3);
    assertInside(layout, 600, 300);
  });

  test('maxima instead of flows (AT-14) give tapered ribbons that never overflow a bar', () => {
    const data = graph(
      [node('LIB1', 40), node('A', 20), node('B', 30), node('C', 35)],
      [
        { source: 'LIB1', target: 'A', value: 20 },
        { source: 'LIB1', target: 'B', value: 10 },
        { source: 'LIB1', target: 'C', value: 35 },
      ],
    );
    const layout = layoutSankey(data, { width: 800, height: 400 });
    assertInside(layout, 800, 400);
    const lib1 = layout.nodes.find(n => n.id === 'LIB1')!;
    assert.ok(layout.links.reduce((s, l) => s + l.width, 0) <= lib1.y1 - lib1.y0 + 1e-6);
    assert.ok(layout.links.every(l => l.tapered));
  });

  test('duplicate node ids keep the first node; parallel links get distinct ids', () => {
    const data = graph(
      [node('a', 4), node('a', 99), node('b', 3)],
      [
        { source: 'a', target: 'b', value: 1 },
        { source: 'a', target: 'b', value: 2 },
      ],
    );
    const layout = layoutSankey(data, { width: 600, height: 300 });
    assert.equal(layout.nodes.length, 2);
    assert.equal(layout.nodes.find(n => n.id === 'a')!.data.inclusive, 4);
    assert.equal(new Set(layout.links.map(l => l.id)).size, 2);
  });
});
