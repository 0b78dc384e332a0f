/** @jsxRuntime automatic */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { generateRossRun } from '../../../../src/analysis/pdes/testing/ross-generator';
import { LocalAnalysisService } from '../../../../src/service/local-analysis-service';
import type { PdesMonitorEvent, PdesMonitorShape } from '../../../../src/service/systems/pdes-monitor-system';
import type { MonitorTickPoint } from '../../../../src/shared/pdes-monitor-protocol';
import { until } from '../../../../test/support/until';
import { behaviourMarks, drawnEntities, matrixMarks, MAX_LINES, scatterMarks } from './monitor-marks';
import { MonitorView, type MonitorViewProps } from './monitor-view';

type Results = PdesMonitorShape['results'];
const noop = () => undefined;
const SIZES = {
  behaviour: { width: 420, height: 150 },
  summary: { width: 420, height: 56 },
  scatter: { width: 300, height: 260 },
  matrix: 300,
};

/** Overlap of two axis-aligned boxes (touching edges do not overlap). */
const overlaps = (a: { x: number; y: number; size: number }, b: { x: number; y: number; size: number }) =>
  a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;

describe('the live PDES monitor view on a replayed run', () => {
  let dir: string;
  let props: MonitorViewProps;
  let history: Results['history'];
  let top: Results['behaviour'];
  let matrix: Results['live-matrix'];
  let base: Results['base-matrix'];
  let diffs: Results['diff-matrices'];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hpc-lens-monitor-view-'));
    const truth = generateRossRun(dir, {
      seed: 11,
      pes: 4,
      kpsPerPe: 8,
      ticks: 60,
      eventsPerKp: 8,
      surge: [1, 2],
    });
    const s = new LocalAnalysisService();
    const opened = await s.openSystem({
      system: 'pdesMonitor',
      args: { source: { kind: 'replay', path: truth.files.gvt, speed: Infinity } },
    });
    const events: PdesMonitorEvent[] = [];
    s.onSystemEvent(opened.dataset, e => events.push(e as PdesMonitorEvent));
    await until(() => events.some(e => e.type === 'ended'), 'the replay ends');
    const ask = <R extends PdesMonitorShape['request']>(request: R) =>
      s.systemRequest({ dataset: opened.dataset, system: 'pdesMonitor', request: request as never }) as Promise<
        Results[R['kind']]
      >;
    [history, top, matrix] = await Promise.all([
      ask({ kind: 'history' }),
      ask({ kind: 'behaviour', view: 'top' }),
      ask({ kind: 'live-matrix', matrix: { granularity: 'kp' } }),
    ]);
    const bottom = await ask({ kind: 'behaviour', view: 'bottom' });
    const causality = await ask({ kind: 'causality' });
    const summary = await ask({ kind: 'summary', view: 'top' });
    base = await ask({ kind: 'base-matrix', tick: 5, matrix: { granularity: 'pe' } });
    diffs = await ask({ kind: 'diff-matrices', baseTick: 5, matrix: { granularity: 'pe' } });
    const points: MonitorTickPoint[] = history.ticks.map(t => ({
      tick: t.tick,
      time: t.time,
      means: { top: summary.mean[t.tick]!, bottom: 0 },
      changePoint: history.changePoints.find(c => c.tick === t.tick) ?? null,
    }));
    props = {
      info: { source: truth.files.gvt, kind: 'replay', mode: 'gvt', tracePath: null, expectedPes: 4 },
      state: 'ended',
      points,
      latest: history.latest,
      top,
      bottom,
      matrix,
      causality,
      selection: null,
      notices: [],
      failure: null,
      endReason: 'replayed after 60 ticks',
      options: {
        granularity: 'kp',
        drill: null,
        causalityDirection: 'from',
        causalitySort: 'metric',
        bottomMetric: null,
        baseTick: null,
      },
      base: null,
      diffs: [],
      sizes: SIZES,
      onPause: noop,
      onResume: noop,
      onStop: noop,
      onOptions: noop,
      onLasso: noop,
      onShow: noop,
      onClearSelection: noop,
    };
    await s.close({ dataset: opened.dataset });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('states what it drew: every tick, one line per entity, every point and matrix cell', () => {
    const html = renderToStaticMarkup(<MonitorView {...props} />);
    const fact = (name: string, cls = 'pdes-monitor') =>
      new RegExp(`class="${cls}[^"]*"[^>]*data-${name}="([^"]*)"`).exec(html)?.[1];
    assert.equal(Number(fact('ticks')), history.ticks.length);
    assert.equal(fact('state'), 'ended');
    assert.equal(Number(fact('events-processed')), history.latest!.totals.eventsProcessed);
    assert.equal(Number(fact('lines', 'monitor-card monitor-behaviour')), top.entities);
    assert.equal((html.match(/<path d="M/g) ?? []).length >= top.entities, true);
    assert.equal(Number(fact('cells', 'monitor-card monitor-matrix')), matrix!.size * matrix!.columns);
    assert.ok(Number(fact('points', 'monitor-card monitor-scatter')) > 0, 'the scatter has points');
    // One similarity view per behaviour view, each with every projected entity.
    const scatters = [...html.matchAll(/class="monitor-card monitor-scatter" data-points="(\d+)" data-view="(\w+)"/g)];
    assert.deepEqual(
      scatters.map(m => [m[2], Number(m[1])]),
      [
        ['top', history.latest!.projections.top!.coordinates.length / 2],
        ['bottom', history.latest!.projections.bottom!.coordinates.length / 2],
      ],
    );
    assert.ok(html.includes('entities</span>'), 'the projection states how many entities it processed');
  });

  test('a Show states its change point, its entities and the handler CodeLenses the editor shows', () => {
    const cp = history.changePoints[0]!;
    const selection = {
      entities: cp.topEntities,
      reason: `change point ${cp.number}`,
      changePoint: cp.number,
      editor: 'CodeLens on synthetic_event, synthetic_event_rc in synthetic-gvt.bin (live)',
    };
    const html = renderToStaticMarkup(<MonitorView {...props} selection={selection} />);
    const fact = (name: string) => new RegExp(`class="pdes-monitor"[^>]*data-${name}="([^"]*)"`).exec(html)?.[1];
    assert.equal(fact('selected-entities'), cp.topEntities.join(','));
    assert.equal(fact('selection-change-point'), String(cp.number));
    assert.equal(fact('selection-editor'), selection.editor);
    assert.ok(
      html.includes('monitor-selection-editor">CodeLens on synthetic_event'),
      'the banner says where the CodeLenses are',
    );
    const lasso = renderToStaticMarkup(
      <MonitorView {...props} selection={{ entities: [1, 2], reason: 'lasso', changePoint: null, editor: null }} />,
    );
    assert.ok(/data-selection-change-point=""/.test(lasso) && !lasso.includes('monitor-selection-editor'));
  });

  test('behaviour lines stay in their box; change points are numbered inside it', () => {
    const m = behaviourMarks(top, SIZES.behaviour, new Set());
    for (const l of m.lines)
      for (const [, x, y] of l.d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)) {
        assert.ok(Number(x) >= -0.1 && Number(x) <= SIZES.behaviour.width + 0.1, `x ${x}`);
        assert.ok(Number(y) >= -0.1 && Number(y) <= SIZES.behaviour.height + 0.1, `y ${y}`);
      }
    for (const c of m.changePoints) assert.ok(c.x >= 0 && c.x <= SIZES.behaviour.width);
    // Axis labels sit inside the drawing: the top one would otherwise run into the caption above it.
    assert.ok(m.yTicks.length > 1);
    for (const t of m.yTicks) assert.ok(t.labelY >= 10 && t.labelY <= SIZES.behaviour.height, `label at ${t.labelY}`);
  });

  test('matrix cells do not overlap and are at least a pixel; scatter points stay inside the box', () => {
    const m = matrixMarks(matrix!, SIZES.matrix);
    assert.ok(m.cell >= 1);
    const sorted = [...m.cells].sort((a, b) => a.y - b.y || a.x - b.x);
    for (let i = 1; i < sorted.length; i++)
      assert.ok(!overlaps(sorted[i - 1]!, sorted[i]!), 'neighbouring cells overlap');
    assert.ok(m.cells.every(c => c.x + c.size <= SIZES.matrix && c.y + c.size <= SIZES.matrix));
    const s = scatterMarks(history.latest!.projections.top!.coordinates, null, SIZES.scatter);
    assert.ok(s.points.every(p => p.cx >= 0 && p.cx <= 300 && p.cy >= 0 && p.cy <= 260));
  });

  test('beyond the line budget entities are sampled, selected ones always drawn, and the view says so', () => {
    const picked = drawnEntities(10_000, new Set([9_999, 3]));
    assert.equal(picked.length, MAX_LINES);
    assert.ok(picked.includes(9_999) && picked.includes(3));
    const values = new Float64Array(10_000 * 5).map((_, i) => i % 7);
    const html = renderToStaticMarkup(
      <MonitorView
        {...props}
        top={{
          ...top,
          entities: 10_000,
          fromTick: 0,
          toTick: 5,
          values,
          labels: new Int32Array(10_000).fill(0),
          min: 0,
          max: 6,
          time: new Float64Array(5),
          changePoints: [],
        }}
      />,
    );
    assert.ok(html.includes(`${MAX_LINES} of 10000 lines drawn`));
  });

  test('a base time draws its matrix and one diverging difference per change point', () => {
    assert.ok(history.changePoints.length > 0, 'the surge makes change points');
    assert.equal(diffs.length, history.changePoints.length);
    const html = renderToStaticMarkup(
      <MonitorView {...props} base={base} diffs={diffs} options={{ ...props.options, baseTick: 5 }} />,
    );
    assert.match(html, new RegExp(`data-diffs="${diffs.length}"`));
    assert.equal((html.match(/class="monitor-diff"/g) ?? []).length, diffs.length);
    assert.match(html, /data-base-tick="5"/);
    assert.ok(html.includes('#d6604d') || html.includes('#4393c3'), 'differences are drawn red or blue');
    for (const d of diffs) assert.ok(d.max >= 0 && d.values.every(v => Math.abs(v) <= d.max + 1e-9));
  });

  test('a failed stream shows the reason; before any tick the views say what they wait for', () => {
    const html = renderToStaticMarkup(
      <MonitorView
        {...props}
        state="failed"
        failure="/x/run-gvt.bin: bad record at byte 4096"
        latest={null}
        top={null}
        bottom={null}
        matrix={null}
        causality={[]}
        points={[]}
      />,
    );
    assert.match(html, /role="alert"[^>]*>\/x\/run-gvt.bin: bad record at byte 4096/);
    assert.match(html, /Waiting for complete ticks/);
    assert.match(html, /Waiting for the first projection|Waiting for enough ticks/);
  });
});
