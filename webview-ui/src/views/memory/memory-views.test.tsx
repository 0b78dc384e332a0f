/** @jsxRuntime automatic */
/**
 * Render tests of the Memory view's parts on panel data the memory system computes (the seed
 * scenarios written as MemAxes files and opened through the service, as the panel gets them):
 * what each part draws (its `data-*` facts), that boxes do not overlap and keep a minimum size,
 * and that clicks ask for the right selection.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  idlePuScenario,
  latencyOutranksCountScenario,
  phasesScenario,
} from '../../../../src/analysis/memory/testing/synthetic-memory';
import { LocalAnalysisService } from '../../../../src/service/local-analysis-service';
import type {
  MemoryClusterData,
  MemoryPanelData,
  MemorySelectionTarget,
  MemoryStripData,
} from '../../../../src/shared/memory-protocol';
import { writeMemaxesRun } from '../../../../test/support/memaxes-files';
import { tempFileWriter } from '../../../../test/support/temp-files';
import { findElements } from '../ensemble/testing/element-tree';
import { DepthTable, TopologyPane } from './machine-pane';
import { AXIS_MIN_WIDTH, histogramAxes } from './memory-layout';
import { MetricStripView } from './metric-strip-view';
import { ParallelHistograms } from './parallel-histograms';
import { CodeBars, VariableBars } from './source-bars';

/** A scenario opened as the panel sees it: its data, and answers to further requests. */
async function panelOf(run: string) {
  const service = new LocalAnalysisService();
  const opened = await service.open({ path: run });
  if (!('system' in opened) || opened.system !== 'memory') throw new Error(`${run} is not memory samples`);
  const ask = <T,>(request: unknown) =>
    service.systemRequest({ dataset: opened.dataset, system: 'memory', request } as never) as Promise<T>;
  return { view: await ask<MemoryPanelData>({ kind: 'view' }), ask };
}

const attr = (html: string, name: string): string[] =>
  [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map(m => m[1]!);

let dir: string;
let idle: Awaited<ReturnType<typeof panelOf>>;
let latency: Awaited<ReturnType<typeof panelOf>>;
let phases: Awaited<ReturnType<typeof panelOf>>;
before(async () => {
  dir = tempFileWriter('memory-views').dir;
  idle = await panelOf(writeMemaxesRun(dir, 'idle', idlePuScenario({ total: 20_000, idleSamples: 5 })));
  latency = await panelOf(writeMemaxesRun(dir, 'latency', latencyOutranksCountScenario()));
  phases = await panelOf(writeMemaxesRun(dir, 'phases', phasesScenario()));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('parallel histograms', () => {
  test('one axis per attribute, a bar per non-empty bin, axes side by side without overlap', () => {
    const data = latency.view;
    const html = renderToStaticMarkup(
      <ParallelHistograms
        histograms={data.histograms}
        brushes={{}}
        width={900}
        height={260}
        onBrush={() => undefined}
        onMove={() => undefined}
      />,
    );
    assert.deepEqual(
      attr(html, 'data-attribute'),
      data.histograms.map(h => h.attribute),
    );
    const bins = attr(html, 'data-bins').map(Number);
    data.histograms.forEach((h, k) => assert.equal(bins[k], [...h.visible].filter(c => c > 0).length, h.attribute));
    assert.ok(
      bins.every(b => b > 0),
      'every axis draws bars',
    );
    assert.equal(attr(html, 'data-brushed').filter(b => b === 'true').length, 0);
    const axes = histogramAxes(data.histograms, 900, 260);
    for (let k = 1; k < axes.length; k++) assert.ok(axes[k]!.x >= axes[k - 1]!.x + axes[k - 1]!.width, 'no overlap');
    for (const a of axes) {
      assert.ok(a.width >= AXIS_MIN_WIDTH);
      assert.ok(a.bottom - a.top >= 150, 'bins get most of the height');
      for (const b of a.bars) {
        assert.ok(b.y >= a.top - 1e-9 && b.y + b.height <= a.bottom + 1e-9, 'bars inside the plot');
        assert.ok(b.visibleWidth >= 1 && b.visibleWidth <= a.width - 14 + 1e-9, 'bars inside the column');
      }
    }
    // Many attributes: columns keep their minimum width (the view scrolls sideways).
    const many = histogramAxes([...data.histograms, ...data.histograms, ...data.histograms], 400, 260);
    assert.ok(many.every(a => a.width === AXIS_MIN_WIDTH));
  });

  test('a brush is drawn on its axis; the selection draws its own bars', async () => {
    const sel = await latency.ask<MemoryPanelData>({
      kind: 'select',
      mode: 'new',
      target: { kind: 'variable', name: 'nodalMass' },
    });
    const html = renderToStaticMarkup(
      <ParallelHistograms
        histograms={sel.histograms}
        brushes={{ latency: { min: 300, max: 500 } }}
        width={900}
        height={260}
        onBrush={() => undefined}
        onMove={() => undefined}
      />,
    );
    assert.deepEqual(
      attr(html, 'data-brushed')
        .map((b, k) => [sel.histograms[k]!.attribute, b])
        .filter(([, b]) => b === 'true'),
      [['latency', 'true']],
    );
    assert.equal((html.match(/class="memory-brush"/g) ?? []).length, 1);
    const selectedBins = sel.histograms.reduce((n, h) => n + [...h.selected!].filter(c => c > 0).length, 0);
    assert.equal((html.match(/class="memory-bin-selected"/g) ?? []).length, selectedBins);
  });

  test('the reorder buttons move the axis', () => {
    const moves: [string, number][] = [];
    const data = latency.view;
    const tree = (
      <ParallelHistograms
        histograms={data.histograms}
        brushes={{}}
        width={900}
        height={260}
        onBrush={() => undefined}
        onMove={(a, by) => moves.push([a, by])}
      />
    );
    const html = renderToStaticMarkup(tree);
    assert.equal(attr(html, 'data-move-left').length, data.histograms.length - 1, 'the first axis cannot move left');
    assert.equal(attr(html, 'data-move-right').length, data.histograms.length - 1, 'the last cannot move right');
  });
});

describe('code and variable bars', () => {
  test('lines and variables by cycles; fx, fy, fz above nodalMass; clicks select', () => {
    const data = latency.view;
    const targets: MemorySelectionTarget[] = [];
    const code = (
      <CodeBars
        data={data}
        onSelectLine={(file, line) => targets.push({ kind: 'line', file, line })}
        onSelectFile={file => targets.push({ kind: 'file', file })}
        onOpenLine={() => undefined}
      />
    );
    const html = renderToStaticMarkup(code);
    const lines = attr(html, 'data-line').map(Number);
    assert.deepEqual(
      lines,
      data.files.flatMap(f => f.lines.map(l => l.line)),
    );
    const cycles = attr(html, 'data-cycles').map(Number);
    for (let k = 1; k < data.files[0]!.lines.length; k++) assert.ok(cycles[k - 1]! >= cycles[k]!, 'by cycles');
    const vars = renderToStaticMarkup(
      <VariableBars data={data} onSelectVariable={name => targets.push({ kind: 'variable', name })} />,
    );
    const names = attr(vars, 'data-variable');
    for (const f of ['fx', 'fy', 'fz']) assert.ok(names.indexOf(f) < names.indexOf('nodalMass'), `${f} first`);
    // Clicks (the element tree's handlers, as a click calls them).
    const first = findElements(code, 'button', p => p['data-line'] !== undefined)[0]!;
    (first.props['onClick'] as (e: { shiftKey: boolean }) => void)({ shiftKey: false });
    const varButton = findElements(
      <VariableBars data={data} onSelectVariable={name => targets.push({ kind: 'variable', name })} />,
      'button',
    )[0]!;
    (varButton.props['onClick'] as (e: { shiftKey: boolean }) => void)({ shiftKey: false });
    assert.deepEqual(targets, [
      { kind: 'line', file: data.files[0]!.file, line: data.files[0]!.lines[0]!.line },
      { kind: 'variable', name: names[0]! },
    ]);
  });
});

describe('machine pane', () => {
  test('five depth rows; the idle PU is named and a click selects its node', () => {
    const data = idle.view;
    const nodes: number[] = [];
    const table = <DepthTable data={data} onSelectNode={n => nodes.push(n)} />;
    const html = renderToStaticMarkup(table);
    assert.deepEqual(attr(html, 'data-depth'), ['pu', 'l1', 'l2', 'l3', 'numa']);
    assert.ok(Number(attr(html, 'data-imbalance')[0]) > 3, 'PU imbalance is large');
    assert.match(html, /data-resource-role="idlest"[^>]*>PU 5 /);
    const pu5 = findElements(table, 'button', p => p['data-resource-role'] === 'idlest')[0]!;
    (pu5.props['onClick'] as (e: { shiftKey: boolean }) => void)({ shiftKey: false });
    assert.equal(data.topology!.nodes[nodes[0]!]!.label, 'PU 5');
  });

  test('the machine is the shared topology view: every resource drawn, coloured per depth; no topology says so', () => {
    const pane = (data: MemoryPanelData) =>
      renderToStaticMarkup(
        <TopologyPane
          data={data}
          width={520}
          height={420}
          colour="cycles"
          onColour={() => undefined}
          onSelectNode={() => undefined}
          onClear={() => undefined}
        />,
      );
    const html = pane(idle.view);
    assert.match(html, /class="memory-topology" data-state="drawn"/);
    const kinds = attr(html, 'data-kind');
    const count = (k: string) => kinds.filter(x => x === k).length;
    assert.deepEqual(['numa', 'l3', 'l2', 'l1', 'pu'].map(count), [2, 2, 16, 16, 32]);
    // The idle PU gets the lowest colour of its depth: its samples are the PU minimum.
    const mv = idle.view.machineView!;
    const pu5 = mv.nodes.find(n => n.kind === 'pu' && n.label === 'PU 5')!;
    const pus = mv.nodes.filter(n => n.kind === 'pu');
    assert.equal(pu5.values[1], Math.min(...pus.map(n => n.values[1]!)), 'PU 5 has the fewest samples');
    assert.deepEqual(
      mv.nodeMeasures.map(m => m.name),
      ['cycles', 'samples', 'cycles per access'],
    );
    const none = pane({ ...idle.view, topology: null, machineView: null });
    assert.match(none, /data-state="none"/);
    assert.doesNotMatch(none, /<svg/, 'no stand-in drawing');
  });
});

describe('metric strip and clusters', () => {
  test('windows, peak and cluster markers inside the strip', async () => {
    const metric = { score: 'imbalance', depth: 'numa' } as const;
    const strip = await phases.ask<MemoryStripData>({ kind: 'strip', attribute: 'time', metric, windows: 40 });
    const clusters = await phases.ask<MemoryClusterData>({ kind: 'clusters', attribute: 'time', metric, count: 5 });
    const width = 700;
    const selected: number[] = [];
    const tree = (
      <MetricStripView
        data={phases.view}
        settings={{ attribute: 'time', metric, windows: 40, clusters: 5 }}
        strip={strip}
        clusters={clusters}
        width={width}
        onSettings={() => undefined}
        onSelectCluster={n => selected.push(n)}
        hovered={null}
        onHoverCluster={() => undefined}
      />
    );
    const html = renderToStaticMarkup(tree);
    assert.deepEqual(attr(html, 'data-windows'), ['40']);
    assert.deepEqual(attr(html, 'data-peak'), [String(strip.peak)]);
    assert.equal(attr(html, 'data-node').length, clusters.clusters.length);
    assert.equal(clusters.clusters.length, 5);
    const rects = findElements(
      tree,
      'rect',
      p => p['className'] !== undefined && String(p['className']).includes('memory-cluster'),
    );
    for (const r of rects) {
      const x = Number(r.props['x']),
        w = Number(r.props['width']);
      assert.ok(x >= 0 && x + w <= width + 1e-6 && w >= 1, 'marker inside the strip');
    }
    (rects[2]!.props['onClick'] as (e: { shiftKey: boolean }) => void)({ shiftKey: false });
    assert.deepEqual(selected, [clusters.clusters[2]!.node]);
    assert.doesNotMatch(html, /data-cluster-glyph/, 'no glyph while no marker is hovered');
    // Hovering a marker shows its mini sunburst (the shared topology view, compact) inside the strip.
    const hoveredHtml = renderToStaticMarkup(
      <MetricStripView
        data={phases.view}
        settings={{ attribute: 'time', metric, windows: 40, clusters: 5 }}
        strip={strip}
        clusters={clusters}
        width={width}
        onSettings={() => undefined}
        onSelectCluster={() => undefined}
        hovered={4}
        onHoverCluster={() => undefined}
      />,
    );
    assert.deepEqual(attr(hoveredHtml, 'data-cluster-glyph'), [String(clusters.clusters[4]!.node)]);
    const left = Number(/data-cluster-glyph="\d+" style="left:([\d.]+)px/.exec(hoveredHtml)?.[1]);
    assert.ok(left >= 0 && left + 150 <= width, `glyph inside the strip (left ${left})`);
    // Without a topology the strip says why it is empty instead of asking.
    const none = renderToStaticMarkup(
      <MetricStripView
        data={{ ...phases.view, topology: null, machineView: null }}
        settings={{ attribute: 'time', metric, windows: 40, clusters: 5 }}
        strip={null}
        clusters={null}
        width={width}
        onSettings={() => undefined}
        onSelectCluster={() => undefined}
        hovered={null}
        onHoverCluster={() => undefined}
      />,
    );
    assert.match(none, /memory-strip-none/);
    assert.doesNotMatch(none, /data-windows/);
    assert.match(hoveredHtml, /class="topology-view[^"]*"[^>]*data-topology-layout="sunburst"/);
  });
});
