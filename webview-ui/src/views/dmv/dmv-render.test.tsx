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
import { renderToStaticMarkup } from 'react-dom/server';
import type { DmvClock } from '../../../../src/analysis/dmv/clock';
import { HOST } from '../../../../src/analysis/dmv/dmv-index';
import type { CommunicationMatrix, MatrixCell } from '../../../../src/analysis/dmv/matrix';
import type { DmvOverviewResult, DmvWindowData } from '../../../../src/analysis/dmv/panel-data';
import { writeGenerated } from '../../../../src/analysis/dmv/testing/read-trace';
import { gpt2Run, manyLaunches } from '../../../../src/analysis/dmv/testing/scenarios';
import { LocalAnalysisService } from '../../../../src/service/local-analysis-service';
import type { DataMovementRequest } from '../../../../src/service/systems/data-movement-system';
import type { SystemResult } from '../../../../src/service/systems';
import { ClockView } from './clock-view';
import { clockLayout } from './dmv-geometry';
import { DmvTraceView, dmvLayout, MIN_CARD } from './dmv-view';
import { eventRects, groupLabels } from './events-view';
import { matrixLayout, MatrixView } from './matrix-view';

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  text: string;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

function assertNoOverlap(boxes: Box[], what: string): void {
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
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

type Kind = DataMovementRequest['kind'];
function ask<K extends Kind>(
  s: LocalAnalysisService,
  dataset: number,
  request: Extract<DataMovementRequest, { kind: K }>,
): Promise<SystemResult<'dataMovement', K>> {
  return s.systemRequest({ dataset, system: 'dataMovement', request });
}

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

  before(async () => {
    service = new LocalAnalysisService();
    const { dataset } = await service.open({ path: writeGenerated(gpt2Run({ seed: 3 }), 'gpt2') });
    overview = await ask(service, dataset, { kind: 'overview' });
    whole = await ask(service, dataset, { kind: 'window', options: { window: null } });
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
