import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallflowData, CallflowNodeData } from '../../../../src/shared/callflow-protocol';
import { estimateText } from '../../text-measure';
import { layoutSankey } from './sankey-layout';
import { labelLines, placeLabels, withLabelOnDemand } from './sankey-labels';
import type { NodeLabel } from './sankey-labels';
import heatStencil from './fixtures/heat-stencil.json';
import { kernelColumns } from './fixtures/kernel-columns';

const fixture: CallflowData = heatStencil;

function assertNoOverlap(labels: NodeLabel[]): void {
  const box = (l: NodeLabel): [number, number, number, number] =>
    l.anchor === 'start' ? [l.x, l.x + l.width, l.top, l.bottom] : [l.x - l.width, l.x, l.top, l.bottom];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const [ax0, ax1, ay0, ay1] = box(labels[i]!);
      const [bx0, bx1, by0, by1] = box(labels[j]!);
      const overlap = ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1;
      assert.ok(!overlap, `${labels[i]!.nodeId} overlaps ${labels[j]!.nodeId}`);
    }
  }
}

describe('placeLabels', () => {
  test('every node of the fixture gets a two-line label in a roomy panel', () => {
    const layout = layoutSankey(fixture, { width: 1200, height: 700 });
    const labels = placeLabels(layout, { unit: 's', measure: estimateText });
    assert.equal(labels.length, fixture.nodes.length);
    for (const l of labels) assert.equal(l.lines.length, 2, l.nodeId);
    const stencil = labels.find(l => l.nodeId === 'heat/libstencil.so')!;
    assert.deepEqual(
      stencil.lines.map(l => l.text),
      ['libstencil.so', '48.2 s · 58.3%'],
    );
    assertNoOverlap(labels);
  });

  test('labels sit right of nodes in the left half and left of nodes in the right half', () => {
    const layout = layoutSankey(fixture, { width: 1200, height: 700 });
    const labels = new Map(placeLabels(layout, { unit: 's', measure: estimateText }).map(l => [l.nodeId, l]));
    for (const n of layout.nodes) {
      const l = labels.get(n.id)!;
      if ((n.x0 + n.x1) / 2 < 600) {
        assert.equal(l.side, 'right');
        assert.equal(l.anchor, 'start');
        assert.ok(l.x > n.x1);
      } else {
        assert.equal(l.side, 'left');
        assert.equal(l.anchor, 'end');
        assert.ok(l.x < n.x0);
      }
    }
  });

  test('labels stay inside the box', () => {
    for (const [w, h] of [
      [1200, 700],
      [640, 360],
      [360, 200],
    ] as const) {
      const layout = layoutSankey(fixture, { width: w, height: h });
      for (const l of placeLabels(layout, { unit: 's', measure: estimateText })) {
        assert.ok(l.top >= 0 && l.bottom <= h, `${l.nodeId} vertically inside at ${w}×${h}`);
        const left = l.anchor === 'start' ? l.x : l.x - l.width;
        const right = l.anchor === 'start' ? l.x + l.width : l.x;
        assert.ok(left >= 0 && right <= w, `${l.nodeId} horizontally inside at ${w}×${h}`);
      }
    }
  });

  test('long names are truncated with an ellipsis to the room between columns', () => {
    const long = 'libextremely_long_module_name_for_a_vendor_runtime.so.12.4.1';
    const data: CallflowData = {
      ...fixture,
      nodes: fixture.nodes.map(n => (n.id === 'heat/libhalo.so' ? { ...n, label: long } : n)),
    };
    const layout = layoutSankey(data, { width: 700, height: 500 });
    const labels = placeLabels(layout, { unit: 's', measure: estimateText });
    const halo = labels.find(l => l.nodeId === 'heat/libhalo.so')!;
    assert.ok(halo.lines[0]!.text.endsWith('…'), halo.lines[0]!.text);
    assert.equal(halo.lines[0]!.full, long);
    assert.ok(long.startsWith(halo.lines[0]!.text.slice(0, -1)));
    assertNoOverlap(labels);
  });

  test('two labels level with each other share their gap; a label with nothing level takes all of it', () => {
    const layout = layoutSankey(fixture, { width: 460, height: 440 });
    const labels = placeLabels(layout, { unit: 's', measure: estimateText });
    const byId = new Map(labels.map(l => [l.nodeId, l]));
    // libstencil.so (column 1, label right) has no column-2 label level with it.
    assert.equal(byId.get('heat/libstencil.so')!.lines[0]!.text, 'libstencil.so');
    // libhalo.so and libminimpi.so face each other across the same gap.
    const halo = byId.get('heat/libhalo.so')!;
    const mpi = byId.get('heat/libhalo.so/libminimpi.so')!;
    assert.ok(halo.lines[0]!.text.endsWith('…') || mpi.lines[0]!.text.endsWith('…'));
    assert.ok(halo.x + halo.width <= mpi.x - mpi.width, 'they do not overlap');
    assertNoOverlap(labels);
  });

  test('a label that would be truncated in a shared gap moves to the other side of its node when that holds it whole', () => {
    // At 500 px the gap between libhalo.so and libminimpi.so (level, joined by a straight ribbon)
    // holds only about half of each label: this used to give "libhal…" and "libminimp…".
    const layout = layoutSankey(fixture, { width: 500, height: 500 });
    const labels = placeLabels(layout, { unit: 's', measure: estimateText });
    assert.equal(labels.length, fixture.nodes.length);
    for (const l of labels)
      for (const line of l.lines) assert.equal(line.text, line.full, `${l.nodeId}: "${line.text}" untruncated`);
    const byId = new Map(labels.map(l => [l.nodeId, l]));
    const halo = byId.get('heat/libhalo.so')!;
    const mpi = byId.get('heat/libhalo.so/libminimpi.so')!;
    assert.ok(halo.side !== 'right' || mpi.side !== 'left', 'they no longer face each other across one gap');
    assertNoOverlap(labels);
  });

  test('crowded columns drop second lines, then labels, but never overlap', () => {
    const nodes: CallflowNodeData[] = [
      {
        id: 'root',
        label: 'root',
        module: 'root',
        inclusive: 100,
        exclusive: 0,
        share: 1,
        imbalance: 1,
        entry: { name: 'main', file: null, line: null },
      },
    ];
    const links: CallflowData['links'] = [];
    for (let i = 0; i < 30; i++) {
      const v = 100 / 30;
      nodes.push({
        id: `m${i}`,
        label: `libmod${i}.so`,
        module: `libmod${i}.so`,
        inclusive: v,
        exclusive: v,
        share: v / 100,
        imbalance: 1,
        entry: { name: 'f', file: null, line: null },
      });
      links.push({ source: 'root', target: `m${i}`, value: v });
    }
    const data: CallflowData = { title: 'crowded', metric: { name: 'time', unit: 's' }, total: 100, nodes, links };
    const layout = layoutSankey(data, { width: 900, height: 300 });
    const labels = placeLabels(layout, { unit: 's', measure: estimateText });
    assert.ok(labels.length < nodes.length, 'some labels give way');
    assert.ok(labels.some(l => l.lines.length === 1) || labels.length < 20);
    assertNoOverlap(labels);
  });

  test('a hovered bar of the last column with a very long name never runs over the previous column or its labels', () => {
    // The PyTorch resnet50 trace's shape: a runtime column (cudaLaunchKernel, aten::empty), then a
    // column of CUDA kernels with names of 150+ characters, too crowded for every bar to keep a label.
    const data = kernelColumns(3, 40);
    for (const [w, h] of [
      [1240, 460],
      [800, 360],
    ] as const) {
      const layout = layoutSankey(data, { width: w, height: h });
      const options = { unit: 's', measure: estimateText };
      const placed = placeLabels(layout, options);
      assertNoOverlap(placed);
      const runtimeLayer = layout.nodes.find(n => n.id === 'rt0')!.layer;
      assert.ok(
        placed.some(l => layout.nodes.find(n => n.id === l.nodeId)!.layer === runtimeLayer),
        'the runtime column is labelled',
      );
      const bare = layout.nodes.filter(n => !n.more && n.id.startsWith('k') && !placed.some(l => l.nodeId === n.id));
      assert.ok(bare.length > 0, `some kernels have no label at ${w}×${h}`);
      let shown = 0;
      for (const node of bare) {
        const { labels, onDemand } = withLabelOnDemand(layout, placed, node, options);
        if (!onDemand) continue;
        shown++;
        assert.ok(onDemand.lines[0]!.text.endsWith('…'), 'the long name is truncated');
        assert.ok(onDemand.lines[0]!.full.length > 150);
        // Never over the runtime column's bars…
        const left = onDemand.anchor === 'start' ? onDemand.x : onDemand.x - onDemand.width;
        const runtimeRight = Math.max(...layout.nodes.filter(n => n.layer === runtimeLayer).map(n => n.x1));
        assert.ok(
          left >= runtimeRight,
          `${node.id}'s label starts at ${left}, over the bars ending at ${runtimeRight}`,
        );
        // …nor over any label still drawn.
        assertNoOverlap([...labels, onDemand]);
        assert.ok(
          labels.some(l => layout.nodes.find(n => n.id === l.nodeId)!.layer === runtimeLayer),
          'the runtime labels stay',
        );
      }
      assert.ok(shown > 0, `hovered kernels show their label at ${w}×${h}`);
    }
  });

  test('labelLines formats the value with the unit and the share', () => {
    const layout = layoutSankey(fixture, { width: 800, height: 500 });
    const reentry = layout.nodes.find(n => n.id === 'heat/libminimpi.so/heat')!;
    assert.deepEqual(
      labelLines(reentry, 's').map(l => l.text),
      ['heat', '900 ms · 1.1%'],
    );
  });

  test('an empty layout has no labels', () => {
    const layout = layoutSankey({ ...fixture, nodes: [], links: [] }, { width: 800, height: 500 });
    assert.deepEqual(placeLabels(layout, { unit: 's', measure: estimateText }), []);
  });
});
