/** @jsxRuntime automatic */
/**
 * Render tests of the DMV panel's views: the real data-movement system (in-process service) answers
 * for a generated GPT-2-like trace, the views render to static markup at the panel's real sizes, and
 * the drawn boxes are checked — labels neither overlap nor leave their drawing, marks keep a minimum
 * size, every card draws something. Text widths are estimated as the SVG-label code does
 * (text-measure.ts), with the font sizes of dmv.css.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import type { DmvClock } from '../../../../src/analysis/dmv/clock';
import { HOST } from '../../../../src/analysis/dmv/dmv-index';
import type { CommunicationMatrix, MatrixCell } from '../../../../src/analysis/dmv/matrix';
import type { DmvOverviewResult, DmvWindowData } from '../../../../src/analysis/dmv/panel-data';
import { writeGenerated } from '../../../../src/analysis/dmv/testing/read-trace';
import { dgxTopologyText } from '../../../../src/analysis/topology/testing/dgx-topology';
import { gpt2Run, manyLaunches } from '../../../../src/analysis/dmv/testing/scenarios';
import { LocalAnalysisService } from '../../../../src/service/local-analysis-service';
import { askDataMovement } from '../../../../src/service/systems/testing/ask-data-movement';
import { ClockView } from './clock-view';
import { clockLayout } from './dmv-geometry';
import { DmvTraceView, dmvLayout, MIN_CARD } from './dmv-view';
import { eventRects, groupLabels } from './events-view';
import { HardwareDevices } from './hardware-view';
import { matrixLayout, MatrixView } from './matrix-view';

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  text: string;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** No two boxes overlap; with `byMark`, boxes of the same text (one mark's label and detail lines) may touch. */
function assertNoOverlap(boxes: Box[], what: string, byMark = false): void {
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (!byMark || boxes[i]!.text !== boxes[j]!.text)
        assert.ok(!overlaps(boxes[i]!, boxes[j]!), `${what}: "${boxes[i]!.text}" overlaps "${boxes[j]!.text}"`);
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");

/**
 * The boxes of the `<text class="…">` elements of `cls` in `html`: width estimated at `fontSize` px
 * (0.56 em a glyph, as text-measure.ts assumes for the detail style; 0.62 em is kept as the upper bound
 * a bold or wide-glyph label reaches), anchored as `text-anchor` says, the baseline at `y`.
 */
function textBoxes(html: string, cls: string, fontSize: number, em = 0.62): Box[] {
  const out: Box[] = [];
  for (const m of html.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)) {
    const attrs = m[1]!;
    if (!new RegExp(`class="(?:[^"]* )?${cls}(?: [^"]*)?"`).test(attrs)) continue;
    const num = (name: string) => Number(new RegExp(`\\b${name}="([-\\d.e]+)"`).exec(attrs)?.[1]);
    const anchor = /text-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start';
    const text = decode(m[2]!);
    const w = text.length * fontSize * em;
    const x = num('x'),
      y = num('y');
    const x0 = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
    out.push({ x0, x1: x0 + w, y0: y - fontSize * 0.8, y1: y + fontSize * 0.25, text });
  }
  return out;
}

const ask = askDataMovement;

const noop = () => undefined;

function page(overview: DmvOverviewResult, data: DmvWindowData, width: number): string {
  return renderToStaticMarkup(
    <DmvTraceView
      title="gpt2"
      overview={overview}
      window={data.window}
      data={data}
      cell={null}
      cellData={null}
      selectedFlag={null}
      playing={false}
      overlayWindow={null}
      width={width}
      error={null}
      onWindow={noop}
      onPlay={noop}
      onCell={noop}
      onFlag={noop}
      onOpen={noop}
      onOpenEvent={noop}
      onExpand={noop}
      onGlyph={noop}
      onUseForOverlays={noop}
      onFile={noop}
      onDismissError={noop}
    />,
  );
}

/** A clock whose every sector copied many bytes and took page faults: the widest labels there are. */
function busiestLabels(clock: DmvClock): DmvClock {
  return {
    ...clock,
    sectors: clock.sectors.map((s, k) => ({ ...s, bytes: 888.8e9 + k, faults: 88_888 + k })),
  };
}

/** A matrix of the host and `gpus` GPUs, every cell with bytes and (between GPUs) a link type. */
function fullMatrix(gpus: number): CommunicationMatrix {
  const devices = [HOST, ...Array.from({ length: gpus }, (_, g) => g)];
  const cells: MatrixCell[] = [];
  for (const src of devices)
    for (const dst of devices)
      cells.push({
        src,
        dst,
        count: 12,
        bytes: 1.2e8 * (1 + (((src + 2) * 7 + dst) % 5)),
        durationNs: 1e6,
        bandwidth: 1.2e11,
        withoutBytes: 0,
        migrations: 0,
        migrationBytes: 0,
        linkType: src >= 0 && dst >= 0 && src !== dst ? 'NV12' : null,
      });
  return {
    devices,
    names: devices.map(d => (d === HOST ? 'host' : `GPU ${d}`)),
    cells,
    maxBytes: Math.max(...cells.map(c => c.bytes)),
    unknown: { withoutDevices: 0, withoutBytes: 0, bytes: 0 },
    warnings: [],
  };
}

describe('DMV views: rendered boxes', () => {
  let service: LocalAnalysisService;
  let overview: DmvOverviewResult;
  let whole: DmvWindowData;
  let grouped: DmvWindowData;
  let dgx: DmvWindowData;
  let gpt2Dataset: number;
  let dgxDataset: number;

  before(async () => {
    service = new LocalAnalysisService();
    const { dataset } = await service.open({ path: writeGenerated(gpt2Run({ seed: 3 }), 'gpt2') });
    gpt2Dataset = dataset;
    overview = await ask(service, dataset, { kind: 'overview' });
    whole = await ask(service, dataset, { kind: 'window', options: { window: null } });
    // The same run on a DGX-1: 8 GPUs from its `nvidia-smi topo -m`.
    const dgxRun = await service.open({ path: writeGenerated(gpt2Run({ seed: 3 }), 'gpt2-dgx') });
    const topo = join(tmpdir(), `dmv-render-dgx1-${process.pid}.txt`);
    writeFileSync(topo, dgxTopologyText('dgx-1'));
    await ask(service, dgxRun.dataset, { kind: 'files', topology: topo });
    dgx = await ask(service, dgxRun.dataset, { kind: 'window', options: { window: null } });
    dgxDataset = dgxRun.dataset;
    const many = await service.open({ path: writeGenerated(manyLaunches(3000), 'launches') });
    grouped = await ask(service, many.dataset, { kind: 'window', options: { window: null } });
  });

  test('the page: every card draws, at the widths of a side panel and of a full editor', () => {
    for (const width of [420, 800, 1400, 2200]) {
      const html = page(overview, whole, width);
      const drawn = Object.fromEntries(
        [...html.matchAll(/data-dmv-view="(\w+)" data-drawn="(\d+)"/g)].map(m => [m[1]!, Number(m[2])]),
      );
      for (const view of ['clock', 'flags', 'matrix', 'events', 'application', 'metrics'])
        assert.ok((drawn[view] ?? 0) > 0, `${width}px: the ${view} card drew nothing (${JSON.stringify(drawn)})`);
      const L = dmvLayout(width);
      assert.ok(L.narrow >= MIN_CARD - 2 * 12 - 1, `${width}px: narrow cards keep their minimum width`);
      assert.ok(L.clock <= L.narrow && L.wide >= L.narrow, `${width}px: the clock fits its card`);
      assert.equal(L.columns, width >= 2 * MIN_CARD + 3 * 12 ? 2 : 1, `${width}px: columns`);
    }
  });

  test('clock: the bytes labels of all 12 sectors neither overlap each other, the bars nor the centre labels', () => {
    const clock = busiestLabels(overview.clock);
    for (const size of [dmvLayout(420).clock, dmvLayout(800).clock, dmvLayout(1400).clock]) {
      const html = renderToStaticMarkup(<ClockView clock={clock} size={size} />);
      const labels = textBoxes(html, 'dmv-sector-label', 10.5);
      assert.equal(labels.length, 12, `${size}px: a label per sector`);
      labels.push(...textBoxes(html, 'dmv-sector-label-more', 10.5));
      assert.equal(labels.length, 24, `${size}px: the page faults on a second line`);
      assertNoOverlap(labels, `${size}px clock`);
      const L = clockLayout(size);
      // Nothing of a label inside the bars' circle: check the label box's nearest point to the centre.
      for (const b of labels) {
        const nx = Math.max(b.x0, Math.min(L.cx, b.x1)),
          ny = Math.max(b.y0, Math.min(L.cy, b.y1));
        assert.ok(Math.hypot(nx - L.cx, ny - L.cy) >= L.barOuter - 1, `${size}px: "${b.text}" reaches into the bars`);
        // The svg shows overflow, but the card's padding (12 px) is all the room a label has beyond it.
        assert.ok(b.x0 >= -12 && b.x1 <= size + 12, `${size}px: "${b.text}" leaves the card (${b.x0}…${b.x1})`);
      }
      const centre = [...textBoxes(html, 'dmv-clock-runtime', 15, 0.6), ...textBoxes(html, 'dmv-clock-bytes', 12)];
      for (const c of centre)
        assert.ok(c.x1 - c.x0 <= 2 * L.discRadius, `${size}px: centre label "${c.text}" wider than the disc`);
    }
  });

  test('clock: stacked bars keep a visible length and stay inside their ring', () => {
    const size = dmvLayout(1400).clock;
    const html = renderToStaticMarkup(<ClockView clock={overview.clock} size={size} />);
    const bars = Number(/data-bars="(\d+)"/.exec(html)![1]);
    assert.ok(bars > 0, 'bars drawn');
    assert.equal((html.match(/class="dmv-sector[ "]/g) ?? []).length, 12, 'a hit area per sector');
  });

  test('matrix: cells never overlap and keep 24 px; column and row labels fit, from 1 to 8 GPUs', () => {
    for (const gpus of [1, 2, 4, 8]) {
      for (const width of [dmvLayout(420).narrow, dmvLayout(1400).narrow]) {
        const m = fullMatrix(gpus);
        const html = renderToStaticMarkup(<MatrixView matrix={m} width={width} selected={null} onCell={noop} />);
        const L = matrixLayout(m.devices.length, width);
        const cellMarkup = [...html.matchAll(/<g class="dmv-cell[^"]*"[^>]*>(.*?)<\/g>/g)].map(g => g[1]!);
        const rects = cellMarkup.map(g => {
          const r = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(g)!;
          const [x, y, w, h] = [r[1], r[2], r[3], r[4]].map(Number) as [number, number, number, number];
          return { x0: x, y0: y, x1: x + w, y1: y + h, text: `${x},${y}` };
        });
        assert.equal(rects.length, m.cells.length, `${gpus} GPUs at ${width}px: a rect per cell`);
        for (const r of rects) assert.ok(r.x1 - r.x0 >= 24 && r.y1 - r.y0 >= 24, `${gpus} GPUs: cell at least 24 px`);
        assertNoOverlap(rects, `${gpus} GPUs at ${width}px: cells`);
        const columns = textBoxes(html, 'dmv-matrix-label', 11).filter(b => b.y1 <= L.headerHeight + 1);
        assert.equal(columns.length, m.devices.length);
        assertNoOverlap(columns, `${gpus} GPUs at ${width}px: column labels`);
        for (const c of columns)
          assert.ok(
            c.x0 >= L.labelWidth - 2,
            `${gpus} GPUs at ${width}px: column label "${c.text}" over the row labels`,
          );
        const rows = textBoxes(html, 'dmv-matrix-label', 11).filter(b => b.y1 > L.headerHeight + 1);
        for (const r of rows) assert.ok(r.x0 >= 0, `row label "${r.text}" cut at the left`);
        // Bytes (10.5 px) and link type (9.5 px) stay inside the cell that writes them.
        cellMarkup.forEach((g, k) => {
          const inner = g
            .replace(/class="dmv-link-type"/, 'class="dmv-link-type t"')
            .replace(/<text (?!class)/g, '<text class="t" ');
          for (const t of textBoxes(inner, 't', /dmv-link-type/.test(inner) ? 10.5 : 10.5))
            assert.ok(
              t.x0 >= rects[k]!.x0 - 1 && t.x1 <= rects[k]!.x1 + 1,
              `${gpus} GPUs at ${width}px: "${t.text}" wider than its cell`,
            );
        });
      }
    }
  });

  test('hardware: the shared topology component draws the host and every GPU it has room for, folding the rest; boxes and labels apart', async () => {
    for (const [name, dataset] of [
      ['gpt2', gpt2Dataset],
      ['DGX-1', dgxDataset],
    ] as const) {
      for (const width of [dmvLayout(420).narrow, dmvLayout(1400).narrow, dmvLayout(2200).narrow]) {
        const what = `${name} at ${width}px`;
        const render = (data: DmvWindowData) =>
          renderToStaticMarkup(
            <HardwareDevices
              hw={data.hardware}
              drawing={data.hardwareDrawing}
              width={width}
              cell={{ src: HOST, dst: data.hardware.gpus[0]!.device }}
            />,
          );
        const facts = (html: string) => {
          const view = /<div class="topology-view is-graph[^"]*"([^>]*)>/.exec(html);
          assert.ok(view, `${what}: the shared topology component, graph layout`);
          return (fact: string) => new RegExp(`data-${fact}="([^"]*)"`).exec(view[1]!)?.[1] ?? '';
        };
        // As the page does: the drawing reports its capacity, the next window's drawing folds what does not fit.
        const first = await ask(service, dataset, { kind: 'window', options: { window: null } });
        const capacity = Number(facts(render(first))('capacity'));
        assert.ok(capacity > 0, `${what}: a capacity`);
        const data = await ask(service, dataset, {
          kind: 'window',
          options: { window: null, hardwareNodes: capacity },
        });
        const html = render(data);
        const fact = facts(html);
        const gpus = data.hardware.gpus.length;
        assert.equal(Number(fact('hidden')), 0, `${what}: no mark too small to draw`);
        const boxes = [
          ...html.matchAll(
            /data-node="([^"]+)" data-kind="(\w+)"[^>]*data-geom="rect ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/g,
          ),
        ].map(m => {
          const [x, y, w, h] = [m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number];
          return { x0: x, y0: y, x1: x + w, y1: y + h, text: m[1]!, kind: m[2]! };
        });
        const devices = boxes.filter(b => b.kind === 'gpu' || b.kind === 'host');
        const drawnGpus = data.hardwareDrawing.nodes
          .filter(n => n.kind === 'gpu' && devices.some(b => b.text === n.id))
          .reduce((t, n) => t + (n.aggregate?.count ?? 1), 0);
        assert.equal(drawnGpus, gpus, `${what}: every GPU drawn, alone or in an aggregate`);
        if (gpus <= capacity - 1)
          assert.equal(Number(fact('aggregates')), 0, `${what}: room for every GPU, none folded`);
        for (const b of devices) assert.ok(b.x1 - b.x0 >= 24 && b.y1 - b.y0 >= 16, `${what}: ${b.text} big enough`);
        assertNoOverlap(devices, `${what}: device boxes`);
        const labels = [
          ...html.matchAll(/data-label-of="([^"]+)"[^>]*data-box="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)/g),
        ].map(m => {
          const [cx, cy, w, h] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
          return { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2, text: m[1]! };
        });
        assert.ok(labels.length >= devices.length, `${what}: every device labelled`);
        assertNoOverlap(labels, `${what}: labels`, true);
        const highlighted = fact('highlighted').split(' ');
        assert.ok(highlighted.includes(`n${data.hardware.host}`), `${what}: the cell's host highlighted`);
      }
    }
    assert.equal(dgx.hardware.gpus.length, 8, 'the DGX-1 topology adds its 8 GPUs');
  });

  test('events: each mark is at least 1 px wide, on its lane, inside the plot; group counts never overlap', () => {
    for (const data of [whole, grouped]) {
      const plot = dmvLayout(1400).wide - 150;
      const rects = eventRects(data.events, data.window, plot);
      assert.ok(rects.length > 0);
      for (const r of rects) {
        assert.ok(r.w >= 1 && r.h >= 10, 'visible');
        assert.ok(r.x >= 0 && r.x + r.w <= plot + 1, 'inside the plot');
      }
      const labels = groupLabels(data.events, rects).map(l => ({
        x0: l.x,
        x1: l.x + l.text.length * 6.2,
        y0: l.y - 9,
        y1: l.y,
        text: l.text,
      }));
      assertNoOverlap(labels, 'group counts');
    }
    assert.ok(grouped.events.grouped, 'more than 1,000 events are grouped');
  });
});
